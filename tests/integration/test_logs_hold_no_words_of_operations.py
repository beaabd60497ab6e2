"""Beyond the requests' own log lines (test_logs_hold_no_words.py): what the operations log
holds no one's words either — an erasure's or a re-derivation's reason (a student may erase
their own data and say why), a failure whose library message quotes what it was reading (a
damaged row, a bug), an MCP tool's refusal, an upload's file name. Each is logged at DEBUG
here, with a marker in the words, and the marker is in no line."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from tutor_memory import Memory
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.cli import EXIT_FAILED, main
from tutor_memory.domain.access import Caller, Role
from tutor_memory.library import PairMemory
from tutor_memory.mcp_server import build_server
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings
from tutor_memory.usecases.nightly import Nightly

from .conftest import LambdaContext, load_handler
from .test_ingest_handler import upload

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
MARKER = "Zqxwordmark"
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = date(2026, 3, 2)
LATER = FixedClock(datetime(2026, 3, 4, 9, 0, tzinfo=UTC))
ALICE = Caller("default", Role.STUDENT, "alice")
ALICE_BIOLOGY = ("--student", "alice", "--subject", "biology")


def clean(text: str) -> bool:
    return MARKER.casefold() not in text.casefold()


def test_an_erasure_and_a_rederivation_log_what_they_did_not_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        pair = memory.pair("alice", "biology")
        pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong")
        with caplog.at_level(logging.DEBUG):
            pair.rederive(reason=f"{MARKER} says the check was unfair", force=True)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, caller=ALICE) as me:
        question = me.pair("alice", "biology").record_question("What is osmosis?")
        with caplog.at_level(logging.DEBUG):
            me.erase("alice", "biology", question.id, reason=f"I told it about my {MARKER}")
            me.erase("alice", "biology", reason=f"{MARKER} wants everything gone")
    said = [r.getMessage() for r in caplog.records]
    assert clean(caplog.text)
    assert "erased 1 episodes of alice/biology" in said  # what was done is still logged
    assert any(line.startswith("re-derivation of alice/biology: 1 beliefs") for line in said)


def damaged(folder: Path) -> None:
    """One byte that is not UTF-8 before an episode's text, as a damaged disk leaves it."""
    db = sqlite3.connect(folder / "memory.db")
    db.execute("UPDATE episodes SET text = CAST(X'FF' || CAST(text AS BLOB) AS TEXT) WHERE seq = 1")
    db.commit()
    db.close()


def test_a_damaged_text_is_read_and_reported_never_quoted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """sqlite3's own error quotes the whole column into every traceback that tells it; the
    text reads with U+FFFD where the byte was, the turn and the night go on, and verify names
    the damaged episode."""
    store = tmp_path / "tm"
    with Memory.local(store, settings=SETTINGS) as memory:
        memory.pair("alice", "biology").record_question(f"My {MARKER} is osmosis?", at=MORNING)
    damaged(store)
    with caplog.at_level(logging.DEBUG), Memory.local(store, settings=SETTINGS, clock=LATER) as m:
        pair = m.pair("alice", "biology")
        assert "is osmosis?" in pair.turn("what is osmosis?").block
        report = pair.verify()
        night = m.nightly(DAY)
    assert not report.intact and "episode 1" in report.report
    assert [(r.student_id, r.status) for r in night.pairs] == [("alice", "done")]
    assert not night.failures  # the night went on, and did not anchor the broken chain
    assert main(["verify", "--store", str(store), *ALICE_BIOLOGY]) == 1
    out, err = capsys.readouterr()
    assert "episode 1" in out and clean(caplog.text) and clean(out + err)


def test_an_unexpected_failure_is_told_by_its_kind_and_place_not_its_message(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError(f"{MARKER} osmosis")  # a library's error quoting what it read

    store = tmp_path / "tm"
    with Memory.local(store, settings=SETTINGS) as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?", at=MORNING)
    monkeypatch.setattr(Nightly, "run_pair", broken)
    with caplog.at_level(logging.DEBUG), Memory.local(store, settings=SETTINGS, clock=LATER) as m:
        night = m.nightly(DAY)
    (failure,) = night.failures
    assert failure.error.startswith("KeyError at ") and failure.error.endswith(" in broken")
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    main(["nightly", "--store", str(store), "--day", DAY.isoformat()])
    out, err = capsys.readouterr()
    assert "KeyError at " in out  # the night's failures are in its report
    monkeypatch.setattr(PairMemory, "turn", broken)
    monkeypatch.setattr("tutor_memory.cli._run", broken)
    assert main(["verify", "--store", str(store), *ALICE_BIOLOGY]) == EXIT_FAILED
    _, err = capsys.readouterr()
    assert err.startswith("error: failed unexpectedly: KeyError at ")
    assert clean(caplog.text) and clean(out) and clean(err)


def text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


def test_an_mcp_tools_refusals_and_failures_log_no_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"could not read {MARKER}")

    alice = {"student_id": "alice", "subject_id": "biology"}
    results: dict[str, CallToolResult] = {}

    async def talk(memory: Memory) -> None:
        async with Client(build_server(memory)) as client:
            results["unknown"] = await client.call_tool(
                "belief_history", {**alice, "concept": f"{MARKER}'s dyslexia"}
            )
            results["bug"] = await client.call_tool("memory_block", {**alice, "question": "hi"})

    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        memory.pair("alice", "biology").record_question("hi")
        monkeypatch.setattr(PairMemory, "turn", broken)
        with caplog.at_level(logging.DEBUG):
            anyio.run(talk, memory)
    assert results["unknown"].is_error and MARKER in text(results["unknown"])  # the agent's
    assert results["bug"].is_error
    assert "failed unexpectedly (RuntimeError at " in text(results["bug"])
    assert clean(text(results["bug"])) and clean(caplog.text)
    assert "tool memory_block failed unexpectedly" in caplog.text  # logged, by its frames


def test_an_uploads_file_name_is_not_logged(
    cloud: DynamoStore,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # No capfd here: the Logger's own handler keeps the stdout it was built with, and a
    # fixture's closed stream would break the next test that logs through it.
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "DEBUG")  # everything the Logger could say
    ingest = load_handler("ingest")
    lines = io.StringIO()  # the Logger's lines as it writes them (see test_logs_hold_no_words)
    handler = logging.StreamHandler(lines)
    handler.setFormatter(ingest.logger.registered_formatter)
    ingest.logger.addHandler(handler)
    try:
        with caplog.at_level(logging.DEBUG):
            for name, data in ((f"{MARKER} diagnosis.txt", b"Osmosis\n\nWater moves."),
                               (f"{MARKER} broken.pdf", b"%PDF-1.4 x")):  # fmt: skip
                ingest.handler(upload(f"uploads/s-42/biology/{name}", data), LambdaContext())
    finally:
        ingest.logger.handlers.remove(handler)
    assert clean(caplog.text + lines.getvalue())
    statuses = [json.loads(line).get("status") for line in lines.getvalue().splitlines()]
    assert [s for s in statuses if s] == ["ingested", "unreadable"]  # still logged, by status
