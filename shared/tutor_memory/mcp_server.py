"""``tutor-memory mcp``: the memory as Model Context Protocol tools, over stdio.

An agent gets the memory block for a question, records what happened (one episode shape, the
API's and a replayed history's, through ``Episodes.add``), and reads recall, beliefs, the map,
the report and the log; it can verify the chain, export a student's record and erase it (with
a reason). Which operations are tools is said by the operation table (``api/operations.py``).
Every tool names its pair (``student_id``, ``subject_id``) per call, so one server serves every
student of a store. The store is ``--store FOLDER`` (the embedded default)
or whatever the ``TUTOR_MEMORY_*`` settings configure.

A tool's bad input or a refusal of the memory (an unknown pair, a check without its verdict)
is a tool error the agent can read and correct, never a crash of the server. Arguments are
judged as the REST API judges a body: a misspelt or unknown argument is refused, not ignored
(each tool's input schema says ``additionalProperties: false``), and a refusal names each
argument and what is wrong with it, without the value sent or a link to pydantic's pages.
Tools run in worker threads (the SDK's), so a slow one does not hold the others back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, ParamSpec, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from mcp.types import Tool as MCPTool
from pydantic import BaseModel, Field, SkipValidation
from pydantic import ValidationError as PydanticValidationError

from tutor_memory.api.access import quiet_wordy_loggers
from tutor_memory.api.models import (
    TURN_AT,
    BeliefPage,
    BeliefResponse,
    ChainResponse,
    CorrectionArgument,
    EpisodePage,
    EpisodeRequest,
    EpisodeResponse,
    ErasureResponse,
    Evidence,
    ExportResponse,
    ProfileResponse,
    ReportResponse,
    StatementResponse,
    TurnResponse,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import NotAuthenticatedError, TutorMemoryError
from tutor_memory.domain.failures import failure_kind, failure_trace
from tutor_memory.domain.paging import DEFAULT_PAGE_ITEMS
from tutor_memory.library import LocalBackend, Memory, PairMemory

P = ParamSpec("P")
R = TypeVar("R")
log = logging.getLogger(__name__)

StudentId = Annotated[str, Field(description="the student's id (letters, digits, . _ @ -)")]
SubjectId = Annotated[str, Field(description="the subject's id, e.g. biology")]
PageSize = Annotated[int, Field(ge=1, le=C.MAX_PAGE_ITEMS, description="page size")]
PageNext = Annotated[
    str | None, Field(description="the previous page's next (absent: the first page)")
]

INSTRUCTIONS = (
    "The long-term memory of one student in one subject. Before answering the student, call "
    "memory_block with their message and put the block in your prompt. After the turn, record "
    "the student's message (kind question), your answer (kind answer, with the block's "
    "memory_ids as recalled_ids), and any check of understanding (kind check, evidence "
    "{topic, verdict}). Every tool takes the pair: student_id and subject_id."
)


class RecallItem(BaseModel):
    id: str
    ref: str | None
    kind: str
    at: datetime
    summary: str
    score: float
    pools: list[str]
    count: int = Field(description="repeats collapsed into this one")


class MapConcept(BaseModel):
    name: str
    layer: str = Field(description="file (read from a file), taught, or assumed")
    gist: str
    readiness: float = Field(description="about the material, not the student")
    confirmed: bool = Field(description="a passing check was tied to it")
    builds_on: list[str] = Field(description="names of its prerequisites on the map")
    taught_note: str | None


class ConceptMapResponse(BaseModel):
    subject_readiness: float
    teaching_order: list[list[str]] = Field(description="layers of names, prerequisites first")
    concepts: list[MapConcept]


def refusal(exc: PydanticValidationError, whole: str = "episode") -> str:
    """A refusal in words an agent acts on: each field and what is wrong with it (no model
    name, no echo of the value, no link to pydantic's pages); ``whole`` names what a refusal
    of no one field is about."""
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or whole}: {e['msg']}" for e in exc.errors()
    )


class _Server(MCPServer):
    """The SDK's server with each tool's arguments judged as the REST API judges a body
    (``api.models``: a misspelt field is an error, not ignored)."""

    _arguments: dict[str, frozenset[str]] | None = None

    async def list_tools(self) -> list[MCPTool]:
        # Said in each schema too, so that a client that checks its call before sending it
        # knows what the server refuses.
        return [
            tool.model_copy(
                update={"input_schema": {**tool.input_schema, "additionalProperties": False}}
            )
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if self._arguments is None:
            self._arguments = {
                tool.name: frozenset(tool.input_schema.get("properties", {}))
                for tool in await super().list_tools()
            }
        known = self._arguments.get(name)  # None: no such tool, which the SDK refuses itself
        if known is not None and (unknown := sorted(set(arguments) - known)):
            takes = ", ".join(sorted(known))
            raise ToolError(
                f"Error executing tool {name}: the arguments are not valid: "
                + "; ".join(
                    f"{arg}: not an argument of {name} (it takes {takes})" for arg in unknown
                )
            )
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            cause = exc.__cause__  # the SDK's own check of the arguments against the schema
            if isinstance(cause, PydanticValidationError):
                raise ToolError(
                    f"Error executing tool {name}: the arguments are not valid: "
                    f"{refusal(cause, 'arguments')}"
                ) from cause
            raise


def _tool(fn: Callable[P, R]) -> Callable[P, R]:
    """The memory's refusals as tool errors the agent reads (no traceback in the log)."""

    import functools

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except TutorMemoryError as exc:
            raise ToolError(str(exc)) from None
        except PydanticValidationError as exc:  # the episode's fields, judged by its kind
            raise ToolError(f"the episode is not valid: {refusal(exc)}") from None
        except Exception as exc:  # a bug or a damaged store: logged here without its message
            log.error("tool %s failed unexpectedly\n%s", fn.__name__, failure_trace(exc))
            raise ToolError(f"the memory failed unexpectedly ({failure_kind(exc)})") from None

    return run


def build_server(memory: Memory) -> MCPServer:
    quiet_wordy_loggers()  # the SDK logs each tool's error, which may quote what was asked
    server: MCPServer = _Server(name="tutor-memory", instructions=INSTRUCTIONS, log_level="WARNING")

    def pair(student_id: str, subject_id: str) -> PairMemory:
        return memory.pair(student_id, subject_id)

    @server.tool()
    @_tool
    def memory_block(
        student_id: StudentId,
        subject_id: SubjectId,
        question: Annotated[str | None, Field(description="the student's message")] = None,
        at: Annotated[datetime | None, Field(description=TURN_AT)] = None,
        # judged by the library, as the REST route judges it (50 to 100,000)
        budget_tokens: Annotated[
            int | None,
            SkipValidation,
            Field(description="the block's size in tokens, 50 to 100,000 (default: the store's)"),
        ] = None,
    ) -> TurnResponse:
        """The memory block for the tutor's next prompt: what the student asked and was told
        before, what they struggle with, and the subject's map. Put ``block`` in the prompt;
        pass ``memory_ids`` as the answer's ``recalled_ids`` when you record it."""
        return pair(student_id, subject_id).turn(question, at=at, budget_tokens=budget_tokens)

    @server.tool()
    @_tool
    def record(
        student_id: StudentId,
        subject_id: SubjectId,
        # The episode's own fields are judged by EpisodeRequest, not by the SDK's arguments
        # model (SkipValidation keeps their schema): the evidence's shape follows the kind.
        kind: Annotated[Literal["question", "answer", "check", "quiz", "taught"], SkipValidation],
        text: Annotated[str, Field(description="what was said, in full")],
        evidence: Annotated[
            Evidence | None,
            SkipValidation,
            Field(
                description="follows the kind — check: {topic, verdict: right|wrong, "
                "evaluation, predicted_mastery}; quiz: {score, maximum, topics}; answer: "
                "{file_id, page}; taught: {note}"
            ),
        ] = None,
        recalled_ids: Annotated[
            list[str] | None, Field(description="an answer: the memory_ids of its block")
        ] = None,
        at: Annotated[datetime | None, Field(description="when (default: now)")] = None,
        ref: Annotated[str | None, Field(description="your own id for the message")] = None,
        summary: Annotated[
            str | None, SkipValidation, Field(description="one line (default: the text's)")
        ] = None,
        concepts: Annotated[
            list[str] | None,
            SkipValidation,
            Field(description="the names of the map's concepts it is about"),
        ] = None,
        salience: Annotated[
            float | None,
            SkipValidation,
            Field(description="how much it matters, 0 to 1 (default: the kind's)"),
        ] = None,
        idempotency_key: Annotated[
            str | None, Field(description="a retry with the same key writes once")
        ] = None,
    ) -> EpisodeResponse:
        """Record one episode. A check moves the belief about its topic; a student message
        that says "remember that …" teaches the map."""
        episode = EpisodeRequest(
            kind=kind,
            text=text,
            evidence=evidence,
            recalled_ids=recalled_ids or [],
            at=at,
            ref=ref,
            summary="" if summary is None else summary,
            concepts=concepts or [],
            salience=salience,
        )
        return pair(student_id, subject_id).record(episode, idempotency_key=idempotency_key)

    @server.tool()
    @_tool
    def correct(
        student_id: StudentId,
        subject_id: SubjectId,
        episode_id: Annotated[str, Field(description="the episode to correct (its id)")],
        field: Annotated[
            Literal["verdict", "score", "note", "text"],
            Field(description="a check's verdict, a quiz's score, a note, a message's text"),
        ],
        value: Annotated[
            CorrectionArgument,
            Field(description="the corrected value: right/wrong, a number, words"),
        ],
        reason: Annotated[str, Field(description="why it was wrong")],
        at: Annotated[datetime | None, Field(description="when (default: now)")] = None,
        idempotency_key: Annotated[
            str | None, Field(description="a retry with the same key writes once")
        ] = None,
    ) -> EpisodeResponse:
        """Correct an earlier episode (a check marked wrong by mistake, a score typed wrong, a
        student's "that's not what I meant"): written as a new episode, nothing rewritten; a
        corrected check moves its belief, and blocks show the episode as corrected."""
        return pair(student_id, subject_id).correct(
            episode_id, field, value, reason, at=at, idempotency_key=idempotency_key
        )

    @server.tool()
    @_tool
    def recall(
        student_id: StudentId,
        subject_id: SubjectId,
        question: Annotated[str, Field(description="what to look for")],
        at: Annotated[datetime | None, Field(description="as of this time (ISO 8601)")] = None,
    ) -> list[RecallItem]:
        """The episodes recall finds for a question, best first, with their scores."""
        found = pair(student_id, subject_id).recall(question, at=at)
        return [
            RecallItem(
                id=i.id,
                ref=i.ref,
                kind=i.kind,
                at=i.at,
                summary=i.summary,
                score=i.score,
                pools=i.pools,
                count=i.count,
            )
            for i in found.items
        ]

    @server.tool()
    @_tool
    def beliefs(student_id: StudentId, subject_id: SubjectId) -> list[BeliefResponse]:
        """What the memory believes about the student ("struggles with osmosis (0.67)"),
        each with the checks behind it."""
        return pair(student_id, subject_id).beliefs()

    @server.tool(name="map")
    @_tool
    def concept_map(student_id: StudentId, subject_id: SubjectId) -> ConceptMapResponse:
        """The subject's concept map: concepts, what each builds on, the teaching order."""
        cmap = pair(student_id, subject_id).map()
        names = {key: c.name for key, c in cmap.concepts.items()}
        return ConceptMapResponse(
            subject_readiness=cmap.subject_readiness,
            teaching_order=[[names.get(k, k) for k in layer] for layer in cmap.teaching_order],
            concepts=[
                MapConcept(
                    name=c.name,
                    layer=c.layer.value,
                    gist=c.gist,
                    readiness=c.readiness,
                    confirmed=c.confirmed,
                    builds_on=[names[k] for k in c.builds_on if k in names],
                    taught_note=c.taught_note,
                )
                for c in sorted(cmap.concepts.values(), key=lambda c: c.key)
            ],
        )

    @server.tool()
    @_tool
    def report(
        student_id: StudentId,
        subject_id: SubjectId,
        history: Annotated[
            str | None, Field(description="a concept's name: add its belief's history")
        ] = None,
    ) -> ReportResponse:
        """The pair's report: episodes, beliefs, checks, calibration, verification."""
        return pair(student_id, subject_id).report(history=history)

    @server.tool()
    @_tool
    def belief_history(
        student_id: StudentId,
        subject_id: SubjectId,
        concept: Annotated[str, Field(description="the concept's name, as users write it")],
        limit: PageSize = DEFAULT_PAGE_ITEMS,
        next: PageNext = None,
    ) -> BeliefPage:
        """Every belief the memory has held about one concept, oldest first, a page at a time."""
        return pair(student_id, subject_id).belief_history(concept, limit=limit, next=next)

    @server.tool()
    @_tool
    def episodes(
        student_id: StudentId,
        subject_id: SubjectId,
        limit: PageSize = DEFAULT_PAGE_ITEMS,
        next: PageNext = None,
    ) -> EpisodePage:
        """The pair's log, oldest first, a page at a time (erased episodes show as such)."""
        return pair(student_id, subject_id).episodes(limit=limit, next=next)

    @server.tool()
    @_tool
    def verify(student_id: StudentId, subject_id: SubjectId) -> ChainResponse:
        """Check the pair's hash chain: every episode unaltered, none missing or reordered."""
        return pair(student_id, subject_id).verify()

    @server.tool()
    @_tool
    def export(
        student_id: StudentId,
        subject_id: Annotated[
            str | None, Field(description="one subject; absent: every subject of the student")
        ] = None,
        limit: Annotated[
            int,
            Field(ge=1, le=C.MAX_PAGE_ITEMS, description="history lines in the page, at most"),
        ] = DEFAULT_PAGE_ITEMS,
        next: PageNext = None,
    ) -> ExportResponse:
        """A student's record in the replay format (history lines, files as base64, manifest):
        what a student is given when they ask for their data. A page at a time: the first
        carries the manifest; pass its next back for the following lines."""
        return memory.export_page(student_id, subject_id, limit=limit, next=next)

    @server.tool()
    @_tool
    def erase(
        student_id: StudentId,
        reason: Annotated[str, Field(description="why, one line: kept in the erasure record")],
        subject_id: Annotated[
            str | None, Field(description="one subject; absent: the student in every subject")
        ] = None,
        episode_id: Annotated[
            str | None, Field(description="one episode of the subject (its id)")
        ] = None,
    ) -> ErasureResponse:
        """Erase what the student said and was told: one episode, one subject or everything.
        The chain still verifies; asking again erases nothing more. It cannot be undone."""
        return memory.erase(student_id, subject_id, episode_id, reason=reason)

    @server.tool()
    @_tool
    def profile(student_id: StudentId) -> ProfileResponse:
        """What holds about the student in every subject (their name, preferences,
        accommodations, the language of instruction, goals with dates), and everything said
        about them."""
        return memory.profile(student_id)

    @server.tool()
    @_tool
    def set_profile(
        student_id: StudentId,
        aspect: Annotated[
            Literal["name", "preference", "accommodation", "language", "goal", "other"],
            Field(description="what the statement is about"),
        ],
        value: Annotated[str, Field(description="the statement, as a tutor should read it")],
        key: Annotated[
            str, Field(description="which one of the aspect ('' for one at a time)")
        ] = "",
        due: Annotated[date | None, Field(description="a goal's date (YYYY-MM-DD)")] = None,
    ) -> StatementResponse:
        """Remember something about the student for every subject; it replaces what was said
        before on the same aspect (and key)."""
        return memory.set_profile(student_id, aspect, value, key=key, due=due)

    @server.tool()
    @_tool
    def retract_profile(
        student_id: StudentId,
        aspect: Annotated[
            Literal["name", "preference", "accommodation", "language", "goal", "other"],
            Field(description="what to forget"),
        ],
        key: Annotated[str, Field(description="which one of the aspect")] = "",
    ) -> StatementResponse:
        """Stop holding an aspect of the student's profile (what was said stays in history)."""
        return memory.retract_profile(student_id, aspect, key=key)

    return server


def run(store: Path | None, *, key: str | None = None) -> int:
    """Serve over stdio until the client closes it, as one caller: the one ``key`` stands for
    (a student's key makes an agent that can reach only that student's record), else the
    store's service."""
    memory = Memory.local(store) if store is not None else Memory.from_settings()
    if key is not None:
        backend = memory.backend
        assert isinstance(backend, LocalBackend)
        try:
            backend.caller = backend.app.access.caller_of(key)
        except NotAuthenticatedError:  # its message speaks HTTP ("Authorization: Bearer")
            memory.close()
            raise NotAuthenticatedError(
                "--key (or TUTOR_MEMORY_API_KEY) is no valid key of this store: unknown, "
                "mistyped or revoked; `tutor-memory keys list` shows the store's keys"
            ) from None
        except TutorMemoryError:
            memory.close()
            raise
    try:
        build_server(memory).run("stdio")
    finally:
        memory.close()
    return 0
