"""The surface in one table: every operation, its HTTP route, who may call it, and its name in
the library and in MCP.

The REST routes are registered from this table (``routes.route``), so their methods, paths,
operation ids, summaries and documented statuses cannot differ from it; the OpenAPI document
is generated from those routes. The library's two backends, the MCP tools and the TypeScript
client are written by hand, and ``tests/integration/test_operation_table.py`` compares each
with this table, so a missing or extra operation fails there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor_memory.domain.access import EVERYONE, NOT_TEACHER, SERVICE_ONLY, STAFF, Role

# What each route can answer besides its 200, every one with a problem body: any route may meet a
# path it refuses (422), a caller with no valid key (401) or whose role it refuses (403), an
# unknown pair (404), a store that is down (503), a bug (500), and at the local server a
# malformed or stalled request (400, 408); a route with a body also a body too big, unframed or
# not JSON (413, 411, 415), a conflict (409), and a model that failed (502, 503).
READ_STATUSES = (400, 401, 403, 404, 408, 422, 500, 503)
WRITE_STATUSES = (*READ_STATUSES, 409, 411, 413, 415, 502)
ERASE_STATUSES = (*READ_STATUSES, 409)  # 409: a concurrent erasure of the same pair
# Writing an episode: also 410, a retry (same Idempotency-Key) of a write erased since.
EPISODE_STATUSES = (*WRITE_STATUSES, 410)

PAIR = "/pairs/{student_id}/{subject_id}"


@dataclass(frozen=True)
class Operation:
    name: str  # the OpenAPI operationId
    method: str
    path: str  # as OpenAPI writes it: /pairs/{student_id}/{subject_id}/turn
    summary: str
    roles: frozenset[Role]  # who may call it (domain/access.py)
    statuses: tuple[int, ...]  # besides success, each with a problem+json body
    library: str | None  # the library's method: PairMemory.<name>, or Memory.<name>
    mcp: str | None  # the MCP tool
    elsewhere: str = ""  # why it is missing from the library or MCP, when it is
    created: bool = False  # answers 201 when it writes, 200 for an idempotent retry
    # answers 202 when it ran out of the request's time and a worker goes on with it
    accepted: bool = False

    @property
    def discloses(self) -> bool:
        """Whether it reads a student's record (kept in the record of disclosures)."""
        return self.name in DISCLOSING

    @property
    def rule(self) -> str:
        """The path as Powertools' resolver writes it (``<name>`` for ``{name}``)."""
        return self.path.replace("{", "<").replace("}", ">")

    def url(self, **params: str) -> str:
        """The path with its parameters percent-encoded (any script, spaces, slashes)."""
        from urllib.parse import quote

        return self.path.format(**{k: quote(v, safe="") for k, v in params.items()})


OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "turn", "POST", f"{PAIR}/turn",
        "The memory block for the tutor's next prompt",
        EVERYONE, WRITE_STATUSES, "PairMemory.turn", "memory_block",
    ),
    Operation(
        "prompt", "POST", f"{PAIR}/prompt",
        "The block placed in a whole prompt (system, material, assessment)",
        EVERYONE, WRITE_STATUSES, "PairMemory.prompt", None,
        elsewhere="an agent over MCP builds its own prompt around memory_block",
    ),
    Operation(
        "addEpisode", "POST", f"{PAIR}/episodes",
        "Record one episode (question, answer, check, quiz, taught)",
        EVERYONE, EPISODE_STATUSES, "PairMemory.record", "record", created=True,
    ),
    Operation(
        "correctEpisode", "POST", f"{PAIR}/episodes/{{episode_id}}/corrections",
        "Correct an earlier episode: a check's verdict, a quiz's score, a note, a message",
        EVERYONE, EPISODE_STATUSES, "PairMemory.correct", "correct", created=True,
    ),
    Operation(
        "listEpisodes", "GET", f"{PAIR}/episodes",
        "The pair's episodes in order, a page at a time",
        EVERYONE, READ_STATUSES, "PairMemory.episodes", "episodes",
    ),
    Operation(
        "beliefs", "GET", f"{PAIR}/beliefs",
        "What the memory believes about the student, with the checks behind it",
        EVERYONE, READ_STATUSES, "PairMemory.beliefs", "beliefs",
    ),
    Operation(
        "beliefHistory", "GET", f"{PAIR}/beliefs/{{concept}}/history",
        "Every belief about one concept, oldest first, a page at a time",
        EVERYONE, READ_STATUSES, "PairMemory.belief_history", "belief_history",
    ),
    Operation(
        "rederiveBeliefs", "POST", f"{PAIR}/beliefs/rederive",
        "Derive the beliefs again from the checks (after a change of rules)",
        STAFF, WRITE_STATUSES, "PairMemory.rederive", None,
        elsewhere="an operator's repair, not an agent's step",
    ),
    Operation(
        "setStance", "POST", f"{PAIR}/answers/{{answer_id}}/stance",
        "Mark an answer the student accepted or disputed",
        EVERYONE, WRITE_STATUSES, "PairMemory.set_stance", None,
        elsewhere="the chat front end records the student's click",
    ),
    Operation(
        "sources", "GET", f"{PAIR}/answers/{{answer_id}}/sources",
        "The memories an answer was given with",
        EVERYONE, READ_STATUSES, "PairMemory.sources", None,
        elsewhere="shown to the student beside an answer, not used by an agent",
    ),
    Operation(
        "conceptMap", "GET", f"{PAIR}/map",
        "The subject's concept map: concepts, prerequisites, teaching order",
        EVERYONE, READ_STATUSES, "PairMemory.map", "map",
    ),
    Operation(
        "report", "GET", f"{PAIR}/report",
        "The pair's report: episodes, beliefs, checks, calibration, verification",
        EVERYONE, READ_STATUSES, "PairMemory.report", "report",
    ),
    Operation(
        "inspectPair", "GET", f"{PAIR}/inspect",
        "The inspector: a page showing what the memory holds and why it recalls it",
        STAFF, READ_STATUSES, None, None,
        elsewhere="an HTML page for a person; its data is the report and recall",
    ),
    Operation(
        "whyRecalled", "GET", f"{PAIR}/recall",
        "What recall finds for a question, with each pool's scores",
        EVERYONE, READ_STATUSES, "PairMemory.recall", "recall",
    ),
    Operation(
        "verifyChain", "GET", f"{PAIR}/chain/verify",
        "Check the pair's hash chain: every episode unaltered and in order",
        EVERYONE, READ_STATUSES, "PairMemory.verify", "verify",
    ),
    Operation(
        "removeFile", "DELETE", f"{PAIR}/files/{{file_id}}",
        "Take a file out of the concept map (its history stays)",
        EVERYONE, WRITE_STATUSES, "PairMemory.remove_file", None,
        elsewhere="files arrive by upload, not by an agent",
    ),
    Operation(
        "eraseEpisode", "DELETE", f"{PAIR}/episodes/{{episode_id}}",
        "Erase one episode: its words gone, the chain still verifying",
        NOT_TEACHER, ERASE_STATUSES, "Memory.erase", "erase",
    ),
    Operation(
        "erasePair", "DELETE", PAIR,
        "Erase a student's record in one subject",
        NOT_TEACHER, ERASE_STATUSES, "Memory.erase", "erase", accepted=True,
    ),
    Operation(
        "eraseStudent", "DELETE", "/students/{student_id}",
        "Erase a student in every subject (their key is destroyed)",
        NOT_TEACHER, ERASE_STATUSES, "Memory.erase", "erase", accepted=True,
    ),
    Operation(
        "exportPair", "GET", f"{PAIR}/export",
        "A pair's history in the replay format, with its files and manifest, a page at a time",
        EVERYONE, READ_STATUSES, "PairMemory.export", "export",
    ),
    Operation(
        "exportStudent", "GET", "/students/{student_id}/export",
        "Every subject of a student in one export (one history, pair by pair), a page at a time",
        NOT_TEACHER, READ_STATUSES, "Memory.export", "export",
    ),
    Operation(
        "getProfile", "GET", "/students/{student_id}/profile",
        "What holds about the student in every subject, and everything said about them",
        EVERYONE, READ_STATUSES, "Memory.profile", "profile",
    ),
    Operation(
        "setProfile", "PUT", "/students/{student_id}/profile/{aspect}",
        "State something about the student (it supersedes the aspect's earlier statement)",
        EVERYONE, WRITE_STATUSES, "Memory.set_profile", "set_profile",
    ),
    Operation(
        "retractProfile", "DELETE", "/students/{student_id}/profile/{aspect}",
        "Retract an aspect of the student's profile (its history stays)",
        EVERYONE, WRITE_STATUSES, "Memory.retract_profile", "retract_profile",
    ),
    Operation(
        "setClass", "PUT", "/classes/{class_id}",
        "Create or replace a class: its teachers and enrolled students (the roster)",
        SERVICE_ONLY, WRITE_STATUSES, "Memory.set_class", None,
        elsewhere="the roster comes from the school's systems, not from an agent",
    ),
    Operation(
        "getClass", "GET", "/classes/{class_id}",
        "A class's teachers and enrolled students",
        STAFF, READ_STATUSES, "Memory.get_class", None,
        elsewhere="the roster comes from the school's systems, not from an agent",
    ),
    Operation(
        "putClassFile", "PUT", "/classes/{class_id}/subjects/{subject_id}/files/{file_id}",
        "Read a file into a class's course map, once; its students' maps follow it",
        STAFF, WRITE_STATUSES, "Memory.ingest_class", None,
        elsewhere="a class's files come from its teachers and the school, not from an agent",
        created=True,
    ),
)  # fmt: skip

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}

# The operations that show a student's record to their caller: each call is kept (who, when,
# which operation; never what was asked) in the record of disclosures a school keeps, and a
# student's export lists them.
DISCLOSING = frozenset({
    "turn", "prompt", "listEpisodes", "beliefs", "beliefHistory", "sources", "conceptMap",
    "report", "inspectPair", "whyRecalled", "exportPair", "exportStudent", "getProfile",
})  # fmt: skip


# The operations whose answer lists the record of disclosures (an export's manifest): their own
# read is kept before they run, so the export lists it; every other read's record is written
# while the operation runs (``Access.allowed``).
LISTS_DISCLOSURES = frozenset({"exportPair", "exportStudent"})


def operation(name: str) -> Operation:
    return BY_NAME[name]


# (method, OpenAPI path) → the operation: what a request's route is (api/access.route_of)
BY_ROUTE: dict[tuple[str, str], Operation] = {(op.method, op.path): op for op in OPERATIONS}


_SAME_PAIR = {"student_id": "$request.path.student_id", "subject_id": "$request.path.subject_id"}
# What a client (and a stateful fuzzer) can do next with a written episode: read the pair back,
# and, for an answer, its sources and stance; correct it.
EPISODE_LINKS: dict[str, Any] = {
    name: {"operationId": op, "parameters": {**_SAME_PAIR, **extra}}
    for name, op, extra in (
        ("Sources", "sources", {"answer_id": "$response.body#/id"}),
        ("Stance", "setStance", {"answer_id": "$response.body#/id"}),
        ("Correct", "correctEpisode", {"episode_id": "$response.body#/id"}),
        ("Beliefs", "beliefs", {}),
        ("Turn", "turn", {}),
        ("Map", "conceptMap", {}),
        ("Report", "report", {}),
        ("VerifyChain", "verifyChain", {}),
    )
}
