"""The retention period: off by default; when set, the nightly erases the bodies older than it
(the envelopes stay, each with a "retention" erasure record), on the embedded store through the
nightly command and on DynamoDB through the scheduler's fan-out and the worker (moto)."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import App, build_app, lambda_app
from tutor_memory.commands import run_nightly_command
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind, Pair, about_the_student
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

from .conftest import TEST_TURN_DEADLINE_S, LambdaContext, event, load_handler
from .test_nightly_handlers import queue_url, received, sqs_event  # noqa: F401 (a fixture)

PAIR = Pair("s-old", "biology")
OLD = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
RECENT = datetime(2026, 3, 31, 9, 0, tzinfo=UTC)
NIGHT = date(2026, 3, 31)  # with 29 days, the cutoff is 3 March 00:00 UTC
MARKER = "quorvantine"


def embedded(folder: Path, clock: FixedClock, days: int | None) -> App:
    return build_app(on_folder(Settings(embedder="none", retention_days=days), folder), clock=clock)


def nightly_args(day: date) -> argparse.Namespace:
    return argparse.Namespace(day=day.isoformat(), student=None, subject=None, json=True)


def write(app: App) -> None:
    app.episodes.add(PAIR, Kind.QUESTION, f"What is {MARKER}?", at=OLD)
    app.episodes.add(PAIR, Kind.QUESTION, "What is a cell?", at=RECENT)


def bodies(app: App) -> list[tuple[str, bool]]:
    return [(e.text, e.erased) for e in app.ports.store.iter_episodes(PAIR)]


def test_without_a_retention_period_the_nightly_erases_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FixedClock(RECENT + timedelta(days=400))
    app = embedded(tmp_path / "tm", clock, None)
    write(app)
    assert run_nightly_command(nightly_args(NIGHT + timedelta(days=365)), app) == 0
    assert all(not erased for _, erased in bodies(app))
    assert "retention" not in capsys.readouterr().out


def test_the_nightly_erases_bodies_past_the_period_and_keeps_their_envelopes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FixedClock(datetime(2026, 4, 2, 3, 0, tzinfo=UTC))
    app = embedded(tmp_path / "tm", clock, 29)
    write(app)
    assert run_nightly_command(nightly_args(NIGHT), app) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    retention = [line["retention"] for line in lines if "retention" in line]
    assert retention and retention[0]["reason"] == C.ERASURE_REASON_RETENTION
    assert bodies(app)[0] == ("", True)  # the old question: its envelope only
    assert ("What is a cell?", False) in bodies(app)  # inside the period: kept
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.erased == 1 and "retention" in str(report)
    records, _ = app.ports.store.erasures(PAIR)  # type: ignore[attr-defined]
    assert [r.scope for r in records] == ["retention"]
    app.close()
    assert not [
        p for p in (tmp_path / "tm").rglob("*") if p.is_file() and MARKER.encode() in p.read_bytes()
    ]
    # The same night again erases nothing more.
    again = embedded(tmp_path / "tm", clock, 29)
    run_nightly_command(nightly_args(NIGHT), again)
    assert not [line for line in capsys.readouterr().out.splitlines() if "retention" in line]


def test_in_the_cloud_the_fan_out_sends_the_swept_pair_and_its_worker_erases_the_old_bodies(
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TUTOR_MEMORY_RETENTION_DAYS", "29")
    lambda_app.cache_clear()
    app = lambda_app()
    app.turns.deadline_s = TEST_TURN_DEADLINE_S
    app.episodes.add(PAIR, Kind.QUESTION, f"What is {MARKER}?", at=OLD)

    schedule = event("nightly-scheduled.json")
    schedule["detail"] = {"day": NIGHT.isoformat()}  # a night the pair was quiet on
    fanned = load_handler("nightly").handler(schedule, LambdaContext())
    assert fanned == {"day": NIGHT.isoformat(), "enqueued": 1}

    messages = received(queue_url)
    worker = load_handler("consolidate")
    assert worker.handler(sqs_event(messages), LambdaContext()) == {"batchItemFailures": []}
    assert [(e.text, e.erased) for e in cloud.iter_episodes(PAIR) if about_the_student(e)] == [
        ("", True)
    ]
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.erased == 1
    records, _ = cloud.erasures(PAIR)
    assert [(r.scope, r.reason) for r in records] == [("retention", C.ERASURE_REASON_RETENTION)]


def test_a_retention_sweep_reads_the_log_once_to_erase_and_once_to_check_it(
    tmp_path: Path,
) -> None:
    """The pass that finds the old bodies is the erasure's own (a read of the whole log costs
    seconds at 100,000 episodes); the second read verifies the chain before its checkpoint."""
    clock = FixedClock(RECENT + timedelta(days=1))
    app = embedded(tmp_path / "tm", clock, 29)
    write(app)
    assert app.erasing is not None
    store = app.ports.store
    reads = []
    whole = store.iter_episodes

    def counted(pair: Pair, **kwargs: object) -> object:
        reads.append(pair)
        return whole(pair, **kwargs)  # type: ignore[arg-type]

    store.iter_episodes = counted  # type: ignore[assignment,method-assign]
    done = app.erasing.erase_older_than(PAIR, datetime(2026, 3, 3, tzinfo=UTC))
    assert done.to_dict()["episodes_erased"] == 1
    assert reads == [PAIR, PAIR]
    store.iter_episodes = whole  # type: ignore[method-assign]
    assert bodies(app)[:2] == [("", True), ("What is a cell?", False)]  # then its entry
