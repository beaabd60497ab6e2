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
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

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
CASES_PER_OPERATION = int(os.environ.get("TUTOR_MEMORY_FUZZ_CASES", "60"))
MIN_REQUESTS = 1_000
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


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[App, str, Seeded]]:
    folder = tmp_path_factory.mktemp("fuzz") / "tm"
    app = build_app(on_folder(Settings(embedder="none"), folder))
    app.turns.deadline_s = 600.0  # a busy machine must not turn into a dropped block
    seeded = seed(app)
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}", seeded
    finally:
        server.shutdown()
        server.server_close()
        app.close()


def run_schemathesis(
    url: str, report: Path, settings: Path | None = None
) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        *(["--config-file", str(settings)] if settings else []),
        "run", str(SCHEMA), "--url", url,
        "--seed", str(SEED), "--max-examples", str(CASES_PER_OPERATION), "--checks", CHECKS,
        "--no-shrink", "--workers", "1", "--continue-on-failure",
        "--request-timeout", "60", "--suppress-health-check", "all",
        "--report", "har", "--report-har-path", str(report),
    ]  # fmt: skip
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS)}
    return subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False,
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


def test_a_bounded_fuzz_run_finds_no_5xx_no_drop_no_undocumented_answer_no_mismatch(
    served: tuple[App, str, Seeded], tmp_path: Path
) -> None:
    app, url, seeded = served
    har, settings = tmp_path / "fuzz.har", tmp_path / "schemathesis.toml"
    settings.write_text(config(seeded), encoding="utf-8")
    run = run_schemathesis(url, har, settings)
    found = mismatches(run.stdout)
    print(f"fuzz: request-schema mismatches: {sum(found.values())} {found or ''}")
    failed = digest(run.stdout) if "=== FAILURES" in run.stdout else run.stdout[-8000:]
    assert run.returncode == 0, failed[:30000] + run.stderr[-2000:]
    assert not found

    entries: list[dict[str, Any]] = json.loads(har.read_text())["log"]["entries"]
    assert len(entries) >= MIN_REQUESTS, f"only {len(entries)} requests"
    statuses = Counter(e["response"]["status"] for e in entries)
    assert not [s for s in statuses if s >= 500 or s == 0], statuses

    created: Counter[Pair] = Counter({SEEDED: seeded.episodes})
    reached: Counter[str] = Counter()
    for entry in entries:
        # The ids as the server reads them: path parameters are percent-decoded.
        parts = [unquote(p) for p in urlsplit(entry["request"]["url"]).path.split("/")]
        status = entry["response"]["status"]
        if parts[1:4] == ["pairs", SEEDED.student_id, SEEDED.subject_id] and status < 300:
            reached["/".join(parts[4:5]) or "pair"] += 1
        if entry["request"]["method"] != "POST" or parts[-1] != "episodes":
            continue
        if status not in (200, 201):  # 201 written, 200 a retry
            continue
        body = json.loads(entry["response"]["content"].get("text") or "{}")
        if body.get("created"):
            created[Pair(parts[2], parts[3])] += 1
    with sqlite3.connect(app.ports.store.path) as conn:  # type: ignore[attr-defined]
        stored = {
            Pair(*row) for row in conn.execute("SELECT student_id, subject_id FROM chain_heads")
        }
    assert set(created) == stored  # no pair holds an episode nobody was told was written
    phases = run.stdout[run.stdout.find("Test Phases:") : run.stdout.find("Test cases:")]
    print(f"fuzz: {len(entries)} requests, statuses {dict(sorted(statuses.items()))}, "
          f"{sum(created.values())} episodes created in {len(stored)} pairs; "
          f"2xx on the seeded pair: {dict(sorted(reached.items()))}\n{phases}")  # fmt: skip
    assert "✅ Stateful" in phases, phases  # the links were followed: created, then read back
    # The seeded pair was reached: its reads and writes answered, not 404s before any rule.
    assert {"turn", "episodes", "report", "beliefs", "answers"} <= set(reached), reached
    for pair in stored:
        report = app.memory.verify_chain(pair)
        assert report.intact, f"{pair}: {report}"
        # the student's episodes (an erasure's own entry in the chain is the log's, not theirs)
        students = [e for e in app.memory.history(pair) if about_the_student(e)]
        assert len(students) == created[pair], pair
