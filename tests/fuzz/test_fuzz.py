"""Schemathesis against `tutor-memory serve` (``make fuzz``; also part of ``make test``).

Bounded and reproducible: a fixed seed, a fixed number of cases per operation (over a thousand
requests in all), the stateful links of the committed OpenAPI document (an episode written, then
read back through its id). The run fails on any 5xx, a dropped connection, a status the document
does not list, a body that breaks its schema, or a request-schema mismatch: a request the
document allows that the server refuses (``positive_data_acceptance``, but for the refusals
that depend on stored state, the clock or what a text says: ``hooks.py``) or one it forbids
that the server accepts (``negative_data_rejection``). Afterwards every pair's chain must be
intact and the episodes in the store must be exactly those the 2xx creates acknowledged.

Random ids name pairs nobody wrote (a 404 before any rule about the body is reached), so a pair
is seeded first — a question, an answer that recalled it, a check that made a belief, a quiz —
and half the requests of each operation that reads or writes a pair name it, its answer and its
concept (schemathesis' dictionaries), reaching every rule a request can meet.

While schemathesis runs, slow and broken clients (``hostile.py``) are sent at the same server:
requests trickled a byte at a time, clients that stall past the deadline, hang up mid-request
or mid-response, send 300 KB of headers, come 200 at once, or hold 1,000 connections idle. The
run counts 5xx (answers, and 500 lines in the access log), dropped connections (no status where
one was due) and undocumented statuses, and prints a table.

Both backends are fuzzed: the embedded store and DynamoDB (moto's server, one request at a
time, behind the same ``serve``). ``make test`` runs it bounded (60 cases an operation on the
embedded store, 20 on DynamoDB, at least 1,000 requests each) with one round of the hostile
clients on each; ``make fuzz`` (``TUTOR_MEMORY_FUZZ_LONG=1``) runs 150 cases an operation, at
least 5,000 requests on each backend, with rounds of hostile clients for as long as
schemathesis runs. ``-k sqlite`` or ``-k dynamodb`` runs one backend.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import resource
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from tests.fuzz import hostile
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api.local_server import make_server
from tutor_memory.api.operations import OPERATIONS
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Pair, about_the_student
from tutor_memory.settings import Settings, on_folder

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "infra" / "openapi.json"
HOOKS = Path(__file__).with_name("hooks.py")
SEED = int(os.environ.get("TUTOR_MEMORY_FUZZ_SEED", "20260302"))  # fixed: the same cases
LONG = os.environ.get("TUTOR_MEMORY_FUZZ_LONG") == "1"  # `make fuzz`
BACKENDS = ("sqlite", "dynamodb")
# Cases an operation, and the fewest requests the run must make, by backend: `make test` keeps
# the DynamoDB half small (moto's server answers one request at a time, each slower).
CASES_PER_OPERATION = {"sqlite": 150, "dynamodb": 150} if LONG else {"sqlite": 60, "dynamodb": 20}
if "TUTOR_MEMORY_FUZZ_CASES" in os.environ:
    CASES_PER_OPERATION = dict.fromkeys(BACKENDS, int(os.environ["TUTOR_MEMORY_FUZZ_CASES"]))
MIN_REQUESTS = dict.fromkeys(BACKENDS, 5_000 if LONG else 1_000)
# A bound on a run that hangs, not a measure: the DynamoDB half of `make fuzz` on a loaded
# 2-core machine ran past 20 minutes (moto's server answers one request at a time).
RUN_BOUND_S = 3_600 if LONG else 1_200
TABLE, REGION = "tutor-memory-fuzz", "us-east-1"
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance,negative_data_rejection,"
    # positive_data_acceptance, but for the refusals no request schema can state (hooks.py)
    "schema_valid_request_accepted_but_for_state"
)
# The request-schema mismatches, as schemathesis names them: a schema-valid request refused,
# a schema-violating one accepted.
MISMATCHES = re.compile(r"(ST20[12]) (Schema-valid request rejected|Schema-violating request "
                        r"accepted): (\d+)")  # fmt: skip
FAILURE_KINDS = re.compile(r"(ST\d{3}) ([^:\n]+): (\d+)")  # every kind of the summary
SEEDED = Pair("fuzz", "seeded")
# Erasing the seeded pair halfway would turn the rest of the run into 404s: erasure is fuzzed
# on the pairs the run writes itself.
UNSEEDED = {"eraseEpisode", "erasePair", "eraseStudent"}


@dataclass(frozen=True)
class Seeded:
    episodes: int
    answer_id: str
    question_id: str
    concept: str


def seed(app: App) -> Seeded:
    """A pair every kind of request can meet: episodes of each kind and a belief."""
    add = app.episodes.add
    question = add(SEEDED, "question", "What does osmosis move across a membrane?")
    answer = add(SEEDED, "answer", "Water, from the dilute side to the concentrated one.",
                 recalled_ids=[question.append.episode.episode_id])  # fmt: skip
    add(SEEDED, "check", "Which way does water move in osmosis?",
        evidence={"topic": "osmosis", "verdict": "wrong"})  # fmt: skip
    add(SEEDED, "quiz", "Quiz on membranes", evidence={"score": 3, "maximum": 5})
    return Seeded(
        episodes=4,
        answer_id=answer.append.episode.episode_id,
        question_id=question.append.episode.episode_id,
        concept="osmosis",
    )


def config(seeded: Seeded) -> str:
    """The run's schemathesis.toml: the seeded pair's ids as dictionaries, bound to half the
    requests of every operation but the erasures."""
    dictionaries = {
        "students": [SEEDED.student_id],
        "subjects": [SEEDED.subject_id],
        "answers": [seeded.answer_id],
        "episodes": [seeded.question_id, seeded.answer_id],
        "concepts": [seeded.concept, seeded.concept.title()],
    }
    bindings = {
        "path.student_id": "students",
        "path.subject_id": "subjects",
        "path.answer_id": "answers",
        "path.concept": "concepts",
        "query.history": "concepts",
        "body.recalled_ids[*]": "episodes",
    }
    # A request the document forbids may also be refused for its size (413, unread) or its
    # framing (411): refusals all the same, besides the statuses schemathesis expects.
    rejections = ["400", "401", "403", "404", "405", "406", "409", "411", "413", "415", "422",
                  "428", "429", "5xx"]  # fmt: skip
    lines = [
        "[checks.negative_data_rejection]",
        f"expected-statuses = {json.dumps(rejections)}",
        "",
    ]
    for name, values in dictionaries.items():
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(values)}", ""]
    seeded_ops = sorted(op.name for op in OPERATIONS if op.name not in UNSEEDED)
    lines += ["[[operations]]", f"include-operation-id = {json.dumps(seeded_ops)}",
              "[operations.parameters]"]  # fmt: skip
    lines += [f'"{k}" = {{ dictionary = "{v}", probability = 0.5 }}' for k, v in bindings.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Served:
    app: App
    url: str
    port: int
    seeded: Seeded
    backend: str
    pairs: Callable[[], set[Pair]]  # every pair with a chain in the store


@contextmanager
def moto_table() -> Iterator[str]:
    """A DynamoDB table on moto's server, one request at a time (as each DynamoDB request is
    atomic; moto's in-process backend is not thread-safe): its endpoint."""
    from tests.contract.conftest import SerialMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per DynamoDB call
    server = SerialMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    try:
        request = urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")
        urllib.request.urlopen(request).close()  # moto's backends are process-global
        DynamoStore(TABLE, REGION, host=endpoint).create_table()
        yield endpoint
    finally:
        server.stop()


def dynamo_pairs(endpoint: str) -> set[Pair]:
    """The pairs whose chain head the table holds (a scan: the fuzz's table is small)."""
    import boto3

    client = boto3.client("dynamodb", region_name=REGION, endpoint_url=endpoint)
    found: set[Pair] = set()
    for page in client.get_paginator("scan").paginate(
        TableName=TABLE, FilterExpression="sk = :h", ExpressionAttributeValues={":h": {"S": "HEAD"}}
    ):
        for item in page["Items"]:
            _, student, subject = item["pk"]["S"].split("#", 2)
            found.add(Pair(student, subject))
    return found


@pytest.fixture(scope="module", params=BACKENDS)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Served]:  # fmt: skip
    backend = str(request.param)
    folder = tmp_path_factory.mktemp(f"fuzz-{backend}") / "tm"
    with contextlib.ExitStack() as stack:
        if backend == "sqlite":
            app = build_app(on_folder(Settings(embedder="none"), folder))

            def pairs() -> set[Pair]:
                with sqlite3.connect(app.ports.store.path) as conn:  # type: ignore[attr-defined]
                    rows = conn.execute("SELECT student_id, subject_id FROM chain_heads")
                    return {Pair(*row) for row in rows}
        else:
            endpoint = stack.enter_context(moto_table())
            app = build_app(Settings(
                backend="dynamodb", table_name=TABLE, aws_region=REGION, embedder="none",
                dynamodb_endpoint=endpoint, home=folder, index_path=folder / "index.db",
            ))  # fmt: skip

            def pairs() -> set[Pair]:
                return dynamo_pairs(endpoint)

        app.turns.deadline_s = 600.0  # a busy machine must not turn into a dropped block
        seeded = seed(app)
        server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            port = server.server_port
            yield Served(app, f"http://127.0.0.1:{port}", port, seeded, backend, pairs)
        finally:
            server.shutdown()
            server.server_close()
            app.close()


class Logged(logging.Handler):
    """What the server logged during the run: its access lines' statuses, and every error."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "tutor_memory.access" and isinstance(record.args, tuple):
            self.statuses[int(record.args[2])] += 1
        if record.levelno >= logging.ERROR or record.exc_info:
            self.errors.append(f"{record.name}: {record.getMessage()[:300]}")


ROWS: list[dict[str, Any]] = []


@pytest.fixture(scope="module", autouse=True)
def table() -> Iterator[None]:
    """The summary table, once every backend has run."""
    yield
    if not ROWS:
        return
    columns = list(ROWS[0])
    widths = [max(len(c), *(len(str(r[c])) for r in ROWS)) for c in columns]
    print("\nfuzz summary")
    print("  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True)))
    for row in ROWS:
        print("  ".join(str(row[c]).rjust(w) for c, w in zip(columns, widths, strict=True)))


def cpu_s(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def run_schemathesis(
    url: str, report: Path, settings: Path | None = None, cases: int = CASES_PER_OPERATION["sqlite"]
) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        *(["--config-file", str(settings)] if settings else []),
        "run", str(SCHEMA), "--url", url,
        "--seed", str(SEED), "--max-examples", str(cases), "--checks", CHECKS,
        "--no-shrink", "--workers", "1", "--continue-on-failure",
        "--request-timeout", "60", "--suppress-health-check", "all",
        "--report", "har", "--report-har-path", str(report),
    ]  # fmt: skip
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS)}
    return subprocess.run(command, capture_output=True, text=True, timeout=RUN_BOUND_S, check=False,
                          env=env)  # fmt: skip


def digest(stdout: str) -> str:
    """The run's failures, a few lines each: the operation, the check, the status and problem,
    and what the negative case violated (not the curl lines, whose bodies run to megabytes)."""
    failures = stdout[stdout.find("=== FAILURES") : stdout.rfind("=== WARNINGS")]
    kept = (" ____", "___", "- ST", "[", "`{", "Invalid component", "  - ")
    return "\n".join(
        line.strip()[:600] for line in failures.splitlines() if line.strip().startswith(kept)
    )


def mismatches(stdout: str) -> dict[str, int]:
    """The request-schema mismatches the run found, by kind (none: an empty dict)."""
    summary = stdout[stdout.rfind("SUMMARY") :]
    return {f"{code} {title}": int(count) for code, title, count in MISMATCHES.findall(summary)}


def failure_counts(stdout: str) -> dict[str, int]:
    """The run's failures by kind, as its summary lists them (``Server error``, ``Undocumented
    status code``, …), and its network errors (a connection with no answer)."""
    summary = stdout[stdout.rfind("SUMMARY") :]
    found = {title.strip(): int(n) for _, title, n in FAILURE_KINDS.findall(summary)}
    found["Network Error"] = stdout.count("Network Error")
    return found


def test_a_fuzz_run_with_hostile_clients_finds_no_5xx_no_drop_no_undocumented_answer(
    served: Served, tmp_path: Path
) -> None:
    app, url, seeded = served.app, served.url, served.seeded
    har, settings = tmp_path / "fuzz.har", tmp_path / "schemathesis.toml"
    settings.write_text(config(seeded), encoding="utf-8")
    logged = Logged()
    root = logging.getLogger()
    root.addHandler(logged)
    level, root.level = root.level, min(root.level, logging.INFO)
    read_path = f"/pairs/{SEEDED.student_id}/{SEEDED.subject_id}/report"
    began, cpu_self, cpu_children = (
        time.monotonic(),
        cpu_s(resource.RUSAGE_SELF),
        cpu_s(resource.RUSAGE_CHILDREN),
    )
    # The hostile clients, in a process of their own: rounds for as long as schemathesis runs
    # (make fuzz), or one round (make test).
    probes = subprocess.Popen(
        [sys.executable, "-m", "tests.fuzz.hostile", str(served.port), read_path,
         "--sizes", "full" if LONG else "bounded", "--rounds", "0" if LONG else "1"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        run = run_schemathesis(url, har, settings, CASES_PER_OPERATION[served.backend])
        said, _ = probes.communicate(timeout=900)  # stdin closed: a last round, then the tally
    finally:
        if probes.poll() is None:
            probes.kill()
        root.removeHandler(logged)
        root.level = level
    assert probes.returncode == 0, said
    tally = hostile.Tally.from_dict(json.loads(said.strip().splitlines()[-1]))
    elapsed = time.monotonic() - began
    cpu = cpu_s(resource.RUSAGE_SELF) - cpu_self, cpu_s(resource.RUSAGE_CHILDREN) - cpu_children
    found = mismatches(run.stdout)
    kinds = failure_counts(run.stdout)
    entries: list[dict[str, Any]] = (
        json.loads(har.read_text())["log"]["entries"] if har.exists() else []
    )
    statuses = Counter(e["response"]["status"] for e in entries)

    created: Counter[Pair] = Counter({SEEDED: seeded.episodes})
    reached: Counter[str] = Counter()
    for entry in entries:
        # The ids as the server reads them: path parameters are percent-decoded.
        parts = [unquote(p) for p in urlsplit(entry["request"]["url"]).path.split("/")]
        status = entry["response"]["status"]
        if parts[1:4] == ["pairs", SEEDED.student_id, SEEDED.subject_id] and status < 300:
            reached["/".join(parts[4:5]) or "pair"] += 1
        # an episode is written by its own POST, and a correction is an episode too
        if entry["request"]["method"] != "POST" or parts[-1] not in ("episodes", "corrections"):
            continue
        if status not in (200, 201):  # 201 written, 200 a retry
            continue
        body = json.loads(entry["response"]["content"].get("text") or "{}")
        if body.get("created"):
            created[Pair(parts[2], parts[3])] += 1
    stored = served.pairs()
    probed = {pair for pair in stored if f"/pairs/{pair.student_id}" == hostile.PAIR}
    broken = [f"{p}: {r}" for p in sorted(stored) if not (r := app.memory.verify_chain(p)).intact]

    served_5xx = sum(n for s, n in statuses.items() if s >= 500)
    logged_5xx = sum(n for s, n in logged.statuses.items() if s >= 500)
    ROWS.append({
        "backend": served.backend,
        "requests": len(entries) + tally.total,
        "schemathesis": len(entries),
        "hostile": tally.total,
        "5xx": served_5xx + len(tally.server_errors) + logged_5xx,
        "dropped": statuses.get(0, 0) + kinds["Network Error"] + len(tally.dropped),
        "undocumented": kinds.get("Undocumented status code", 0) + len(tally.undocumented),
        "mismatches": sum(found.values()),
        "cut off": sum(tally.cut_off.values()) + sum(
            n for (p, s), n in tally.statuses.items() if p.startswith("stall") and s == 408
        ),
        "canary s": f"{tally.slowest_canary_s:.1f}",
        "chains": f"{len(stored) - len(broken)}/{len(stored)}",
        "wall s": f"{elapsed:.0f}",
        "cpu s": f"{cpu[0]:.0f}+{cpu[1]:.0f}",
    })  # fmt: skip
    phases = run.stdout[run.stdout.find("Test Phases:") : run.stdout.find("Test cases:")]
    print(f"\nfuzz ({served.backend}): {len(entries)} requests, statuses "
          f"{dict(sorted(statuses.items()))}, {sum(created.values())} episodes created in "
          f"{len(stored) - len(probed)} pairs; 2xx on the seeded pair: "
          f"{dict(sorted(reached.items()))}; failures {kinds}; request-schema mismatches "
          f"{sum(found.values())} {found or ''}\nhostile clients: {tally.total} connections "
          f"{dict(sorted(tally.connections.items()))}, answers "
          f"{dict(sorted(tally.statuses.items()))}, cut off unanswered {dict(tally.cut_off)}, "
          f"slowest canary {tally.slowest_canary_s:.1f} s; access log {dict(logged.statuses)}"
          f"\n{phases}")  # fmt: skip

    failed = digest(run.stdout) if "=== FAILURES" in run.stdout else run.stdout[-8000:]
    assert run.returncode == 0, failed[:30000] + run.stderr[-2000:]
    assert not found
    assert len(entries) >= MIN_REQUESTS[served.backend], f"only {len(entries)} requests"
    assert not [s for s in statuses if s >= 500 or s == 0], statuses
    # The hostile clients: every answer due came, documented; none was a 5xx.
    assert not tally.server_errors and not tally.dropped and not tally.undocumented, tally
    assert not logged_5xx and not logged.errors, logged.errors[:20]
    assert not broken, broken
    # no pair holds an episode nobody was told was written (the probes' pairs are their own)
    assert set(created) == stored - probed
    assert "✅ Stateful" in phases, phases  # the links were followed: created, then read back
    # The seeded pair was reached: its reads and writes answered, not 404s before any rule.
    assert {"turn", "episodes", "report", "beliefs", "answers"} <= set(reached), reached
    for pair in stored - probed:
        # the student's episodes (an erasure's own entry in the chain is the log's, not theirs)
        students = [e for e in app.memory.history(pair) if about_the_student(e)]
        assert len(students) == created[pair], pair
