"""The nightly loop through the library's door: ``Memory.nightly`` runs every active pair's night
in this process (as ``tutor-memory nightly`` does), ``PairMemory.nightly`` one pair's; the
store's service only; a day that has not ended is refused before anything is written; through
``Memory.remote`` it is not served (the deployment's scheduler runs it)."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tutor_memory import AsyncMemory, Memory, NotServedError
from tutor_memory.api.client import SignedClient
from tutor_memory.domain.access import Caller, Role
from tutor_memory.domain.errors import ForbiddenError, ValidationError
from tutor_memory.library import RemoteBackend
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
DAY = date(2026, 3, 2)
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NIGHT_RUN = datetime(2026, 3, 3, 0, 30, tzinfo=UTC)  # the schedule fires after midnight
MARKER = "quorvantine"


def worked(folder: Path, clock: FixedClock) -> Memory:
    """A day of work for alice and bob in biology, written through the library."""
    memory = Memory.local(folder, settings=SETTINGS, clock=clock)
    for student in ("alice", "bob"):
        pair = memory.pair(student, "biology")
        pair.record_question(f"What is {MARKER}?", at=MORNING)
        pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=MORNING)
    return memory


def kinds(memory: Memory, student: str) -> list[str]:
    return [e["kind"] for e in memory.pair(student, "biology").episodes(limit=100).episodes]


def test_a_day_of_work_becomes_each_pairs_summary_the_next_night(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    with worked(tmp_path / "tm", clock) as memory:
        clock.at = NIGHT_RUN
        night = memory.nightly()
        assert (night.day, night.timezone, night.failures) == ("2026-03-02", "UTC", [])
        assert [(p.student_id, p.status) for p in night.pairs] == [
            ("alice", "done"),
            ("bob", "done"),
        ]
        assert night.retention == [] and night.purge_held is None
        alice = memory.pair("alice", "biology")
        summary = alice.episodes(limit=100).episodes[-1]
        assert summary["kind"] == "consolidation"
        assert summary["id"] == night.pairs[0].consolidation_id
        assert summary["text"].startswith("Day 2026-03-02: 2 episodes")
        assert alice.verify().intact
        # The same night again writes nothing and says so.
        again = memory.nightly(DAY)
        assert [p.status for p in again.pairs] == ["already done", "already done"]
        assert kinds(memory, "alice").count("consolidation") == 1


def test_a_pairs_night_runs_that_pair_alone(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    with worked(tmp_path / "tm", clock) as memory:
        clock.at = NIGHT_RUN
        night = memory.pair("bob", "biology").nightly("2026-03-02")
        assert [(p.student_id, p.status) for p in night.pairs] == [("bob", "done")]
        assert "consolidation" not in kinds(memory, "alice")
        assert memory.nightly().pairs[0].status == "done"  # alice's night is still to come


def test_a_day_that_has_not_ended_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    with worked(tmp_path / "tm", clock) as memory:
        before = kinds(memory, "alice")
        with pytest.raises(ValidationError, match="2026-03-02 has not ended yet in UTC") as err:
            memory.nightly(DAY)
        assert err.value.field == "day"
        with pytest.raises(ValidationError, match="has not ended yet"):
            memory.pair("alice", "biology").nightly(DAY)
        assert kinds(memory, "alice") == before


@pytest.mark.parametrize(
    "day", ["March 2", "2026-02-30", datetime(2026, 3, 2, tzinfo=UTC), 20260302]
)
def test_a_day_that_is_not_a_date_is_refused_naming_the_day(tmp_path: Path, day: object) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=FixedClock(NIGHT_RUN)) as memory:
        with pytest.raises(ValidationError) as err:
            memory.nightly(day)  # type: ignore[arg-type]
        assert err.value.field == "day"


@pytest.mark.parametrize("role", [Role.STUDENT, Role.TEACHER])
def test_only_the_stores_service_runs_the_night(tmp_path: Path, role: Role) -> None:
    clock = FixedClock(MORNING)
    with worked(tmp_path / "tm", clock) as service:
        before = kinds(service, "alice")
        tenant = service.backend.app.access.tenant  # type: ignore[attr-defined]
        clock.at = NIGHT_RUN
        caller = Caller(tenant, role, "alice")
        with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=clock, caller=caller) as them:
            with pytest.raises(ForbiddenError):
                them.nightly()
            with pytest.raises(ForbiddenError):
                them.pair("alice", "biology").nightly()
        assert kinds(service, "alice") == before


def test_the_retention_period_erases_through_the_librarys_night(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    worked(tmp_path / "tm", clock).close()
    clock.at = datetime(2026, 4, 2, 3, 0, tzinfo=UTC)
    settings = Settings(embedder="none", turn_deadline_s=30.0, retention_days=29)
    with Memory.local(tmp_path / "tm", settings=settings, clock=clock) as memory:
        memory.pair("alice", "biology").record_question("What is a cell?")
        night = memory.nightly("2026-03-31")  # with 29 days the cutoff is 3 March 00:00 UTC
        erased = {pair: seqs for r in night.retention for pair, seqs in r.erased.items()}
        assert sorted(erased) == ["alice/biology", "bob/biology"]
        texts = [e.get("text", "") for e in memory.pair("alice", "biology").episodes().episodes]
        assert not any(MARKER in t for t in texts) and "What is a cell?" in texts
        assert memory.pair("alice", "biology").verify().intact


def test_the_async_twin_runs_the_same_night(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    worked(tmp_path / "tm", clock).close()
    clock.at = NIGHT_RUN

    async def night() -> tuple[list[str], list[str]]:
        async with AsyncMemory.local(tmp_path / "tm", settings=SETTINGS, clock=clock) as memory:
            one = await memory.pair("alice", "biology").nightly()
            every = await memory.nightly()
        return [p.status for p in one.pairs], [p.status for p in every.pairs]

    assert asyncio.run(night()) == (["done"], ["already done", "done"])


def test_the_remote_door_says_the_deployment_runs_the_night() -> None:
    memory = Memory(RemoteBackend(SignedClient("http://127.0.0.1:9", signing=False)))
    with pytest.raises(NotServedError, match="tutor-memory nightly --store DIR"):
        memory.nightly()
    with pytest.raises(NotServedError, match="scheduler"):
        memory.pair("alice", "biology").nightly()
