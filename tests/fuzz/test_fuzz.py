"""Schemathesis against `tutor-memory serve` (``make fuzz``; also part of ``make test``).

Bounded and reproducible: a fixed seed, a fixed number of cases per operation (over a thousand
requests in all), the stateful links of the committed OpenAPI document (an episode written, then
read back through its id). The run fails on any 5xx, a dropped connection, a status the document
does not list, or a body that breaks its schema; afterwards every pair's chain must be intact
and the episodes in the store must be exactly those the 2xx creates acknowledged.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from tutor_memory.api.local_server import make_server
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Pair, about_the_student
from tutor_memory.settings import Settings, on_folder

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "infra" / "openapi.json"
SEED = 20_260_302  # fixed: the same cases every run
CASES_PER_OPERATION = int(os.environ.get("TUTOR_MEMORY_FUZZ_CASES", "60"))
MIN_REQUESTS = 1_000
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[App, str]]:
    folder = tmp_path_factory.mktemp("fuzz") / "tm"
    app = build_app(on_folder(Settings(embedder="none"), folder))
    app.turns.deadline_s = 600.0  # a busy machine must not turn into a dropped block
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        app.close()


def run_schemathesis(url: str, report: Path) -> subprocess.CompletedProcess[str]:
    command = [
        str(Path(sys.executable).with_name("schemathesis")), "run", str(SCHEMA), "--url", url,
        "--seed", str(SEED), "--max-examples", str(CASES_PER_OPERATION), "--checks", CHECKS,
        "--no-shrink", "--workers", "1",
        "--request-timeout", "60", "--suppress-health-check", "all",
        "--report", "har", "--report-har-path", str(report),
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)


def test_a_bounded_fuzz_run_finds_no_5xx_no_drop_no_undocumented_answer(
    served: tuple[App, str], tmp_path: Path
) -> None:
    app, url = served
    har = tmp_path / "fuzz.har"
    run = run_schemathesis(url, har)
    summary = run.stdout[run.stdout.find("=== FAILURES") :] if "=== FAILURES" in run.stdout else ""
    assert run.returncode == 0, (summary or run.stdout)[-8000:] + run.stderr[-2000:]

    entries: list[dict[str, Any]] = json.loads(har.read_text())["log"]["entries"]
    assert len(entries) >= MIN_REQUESTS, f"only {len(entries)} requests"
    statuses = Counter(e["response"]["status"] for e in entries)
    assert not [s for s in statuses if s >= 500 or s == 0], statuses

    created: Counter[Pair] = Counter()
    for entry in entries:
        # The ids as the server reads them: path parameters are percent-decoded.
        parts = [unquote(p) for p in urlsplit(entry["request"]["url"]).path.split("/")]
        if entry["request"]["method"] != "POST" or parts[-1] != "episodes":
            continue
        if entry["response"]["status"] not in (200, 201):  # 201 written, 200 a retry
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
          f"{sum(created.values())} episodes created in {len(stored)} pairs\n{phases}")  # fmt: skip
    assert "✅ Stateful" in phases, phases  # the links were followed: created, then read back
    for pair in stored:
        report = app.memory.verify_chain(pair)
        assert report.intact, f"{pair}: {report}"
        # the student's episodes (an erasure's own entry in the chain is the log's, not theirs)
        students = [e for e in app.memory.history(pair) if about_the_student(e)]
        assert len(students) == created[pair], pair
