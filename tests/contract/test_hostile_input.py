"""What a hostile client or a damaged row can do to a pair, on every backend: nothing lasting."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair, check_client_key
from tutor_memory.domain.errors import IdempotencyConflictError, ValidationError
from tutor_memory.ports import EpisodeStore, FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.nightly import Nightly

from ..conftest import T0
from .conftest import Tamper


@pytest.mark.parametrize(
    "at",
    [
        datetime(999, 12, 31, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone(timedelta(hours=-1))),
    ],
)
def test_a_time_outside_the_accepted_range_is_refused_naming_at_and_writes_nothing(
    memory: TutorMemory, pair: Pair, at: datetime
) -> None:
    with pytest.raises(ValidationError) as refused:
        memory.record(pair, Kind.QUESTION, "When was this?", at=at)
    assert refused.value.field == "at"
    assert memory.ports.store.head(pair) is None
    assert memory.record(pair, Kind.QUESTION, "Still here?").episode.seq == 1


def test_a_row_with_a_three_digit_year_is_reported_by_verify_and_the_pair_keeps_working(
    memory: TutorMemory, pair: Pair, tamper: Tamper, store: EpisodeStore
) -> None:
    for n in range(3):
        memory.record(pair, Kind.QUESTION, f"Question {n}?")
    second = store.episodes(pair)[1]
    damaged = episode_to_record(second)
    damaged["at"] = "999-01-01T00:00:00.000000Z"  # as an unpadded writer once stored it
    tamper.overwrite(damaged)

    report = memory.verify_chain(pair)
    assert not report.intact and report.break_seq == 2 and report.break_kind == "content changed"
    assert [e.seq for e in store.episodes(pair)] == [1, 2, 3]  # every read still works
    assert memory.record(pair, Kind.QUESTION, "And now?").episode.seq == 4
    other = Pair("student-2", "biology")
    assert memory.record(other, Kind.QUESTION, "Another pair?").episode.seq == 1
    assert memory.verify_chain(other).intact


def test_a_night_skips_a_pair_it_cannot_read_saying_why_without_its_words(
    store: EpisodeStore, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    morning = datetime(2026, 3, 2, 9, tzinfo=UTC)
    memory = TutorMemory(Ports(store, FixedClock(morning)))
    broken, fine = Pair("student-1", "biology"), Pair("student-2", "biology")
    for p in (broken, fine):
        memory.record(p, Kind.QUESTION, "What is osmosis?")
    reads = store.recent

    def recent(p: Pair, *args: Any, **kwargs: Any) -> Any:
        if p == broken:
            raise ValueError("time data '999-01-01T00:00:00.000000Z' does not match format")
        return reads(p, *args, **kwargs)

    monkeypatch.setattr(store, "recent", recent)
    memory.ports.clock.at = morning + timedelta(days=1)  # type: ignore[attr-defined]
    night = Nightly(memory.ports, memory)
    with caplog.at_level(logging.WARNING, logger="tutor_memory.usecases.nightly"):
        run = night.run(date(2026, 3, 2))
    assert [r.pair for r in run.reports] == [fine] and run.reports[0].status == "done"
    # told by its kind and where it was raised: a library's message may quote what it read
    assert [p for p, _ in run.failures] == [broken]
    assert run.failures[0][1].startswith("ValueError at ") and "in recent" in run.failures[0][1]
    assert "student-1/biology skipped: ValueError at " in caplog.text
    assert "999-01-01" not in caplog.text + run.failures[0][1]


def test_the_same_key_with_a_different_request_is_a_conflict_and_writes_nothing(
    memory: TutorMemory, pair: Pair
) -> None:
    first = memory.record(pair, Kind.QUESTION, "What is osmosis?", idempotency_key="msg-1")
    again = memory.record(pair, Kind.QUESTION, "What is osmosis?", idempotency_key="msg-1")
    assert first.created and not again.created and again.episode == first.episode
    with pytest.raises(IdempotencyConflictError) as refused:
        memory.record(pair, Kind.QUESTION, "What is diffusion?", idempotency_key="msg-1")
    assert "msg-1" in str(refused.value)
    with pytest.raises(IdempotencyConflictError):  # even another kind
        memory.record(pair, Kind.ANSWER, "Water crossing a membrane.", idempotency_key="msg-1")
    assert [e.text for e in memory.history(pair)] == ["What is osmosis?"]


def test_a_key_stored_before_keys_were_bound_still_answers_its_retry(
    memory: TutorMemory, pair: Pair, store: EpisodeStore
) -> None:
    new = NewEpisode(pair, Kind.QUESTION, "What is osmosis?", T0, idempotency_key="old-1")
    store.append(new)  # no request digest, as every row written before
    again = memory.record(pair, Kind.QUESTION, "Anything else?", idempotency_key="old-1")
    assert not again.created and again.episode.text == "What is osmosis?"


@pytest.mark.parametrize(
    "key", ["consolidation:2026-03-02", "file:notes.md:v1", "file-unreadable:x"]
)
def test_a_client_cannot_use_the_systems_own_keys(key: str) -> None:
    with pytest.raises(ValidationError) as refused:
        check_client_key("Idempotency-Key", key)
    assert refused.value.field == "Idempotency-Key"
    assert check_client_key("Idempotency-Key", "msg:consolidation:1") == "msg:consolidation:1"
