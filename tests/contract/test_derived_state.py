"""Derived state follows the log, on every backend: a process killed between the commit of an
episode and its index or its belief leaves nothing missing once a retry, a turn or a night has
come by."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.bootstrap import derive_lazily
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair
from tutor_memory.ports import EpisodeStore, FixedClock, Ports
from tutor_memory.usecases.learning import Learning
from tutor_memory.usecases.log import APPLIED_BELIEFS, APPLIED_INDEX, TutorMemory
from tutor_memory.usecases.nightly import Nightly
from tutor_memory.usecases.turns import Turns

MORNING = datetime(2026, 3, 2, 9, tzinfo=UTC)


class Killed(BaseException):
    """The process dying mid-write (nothing catches it)."""


class World:
    def __init__(self, store: EpisodeStore) -> None:
        self.store, self.index = store, EmbeddedIndex()
        self.memory = TutorMemory(Ports(store, FixedClock(MORNING), index=self.index))
        ports = self.memory.ports
        self.learning = Learning(ports, self.memory, derive=derive_lazily)
        # A generous deadline: the turn must finish here whatever the machine's load.
        self.turns = Turns(ports, self.memory, deadline_s=600, catch_up=self.learning.catch_up)
        self.nightly = Nightly(ports, self.memory, learning=self.learning)

    def check(self, pair: Pair, verdict: str, n: int, key: str | None = None) -> Any:
        evidence = CheckEvidence("osmosis", verdict)  # type: ignore[arg-type]
        at = MORNING + timedelta(minutes=n)
        return self.learning.record_check(
            pair, f"Check {n} on osmosis", evidence, at=at, idempotency_key=key
        )

    def indexed_ids(self, pair: Pair) -> set[str]:
        rows = self.index._conn.execute(
            "SELECT episode_id FROM docs WHERE pair = ?", (f"{pair.student_id}#{pair.subject_id}",)
        )
        return {r[0] for r in rows}

    def assert_nothing_missing(self, pair: Pair) -> None:
        episodes = self.store.episodes(pair)
        assert self.indexed_ids(pair) == {e.episode_id for e in episodes}, "unindexed episodes"
        checks = [e.episode_id for e in episodes if e.kind is Kind.CHECK]
        (belief,) = self.learning.beliefs(pair)
        assert list(belief.evidence_ids) == checks, "checks that never reached the belief"
        assert self.memory.applied(pair, APPLIED_INDEX)[0] == episodes[-1].seq
        assert self.memory.applied(pair, APPLIED_BELIEFS)[0] == max(
            e.seq for e in episodes if e.kind is Kind.CHECK
        )


def kill_once(monkeypatch: pytest.MonkeyPatch, target: object, method: str) -> None:
    real = getattr(target, method)
    calls = {"n": 0}

    def dying(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise Killed(f"killed in {method}")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, method, dying)


def retry(world: World, pair: Pair) -> None:
    again = world.check(pair, "wrong", 2, key="check-2")
    assert not again.append.created


def turn(world: World, pair: Pair) -> None:
    assert not world.turns.turn(pair, "what did I get wrong?").dropped


def night(world: World, pair: Pair) -> None:
    world.memory.ports.clock.at = MORNING + timedelta(days=1)  # type: ignore[attr-defined]
    (report,) = world.nightly.run(date(2026, 3, 2)).reports
    assert report.status == "done"
    world.indexed_ids(pair)  # the night's own summary is indexed too


@pytest.mark.parametrize("recovery", [retry, turn, night], ids=["retry", "turn", "night"])
@pytest.mark.parametrize("kill_in", ["index", "belief"])
def test_a_write_killed_after_its_commit_leaves_nothing_missing_after_recovery(
    store: EpisodeStore,
    pair: Pair,
    monkeypatch: pytest.MonkeyPatch,
    kill_in: str,
    recovery: Callable[[World, Pair], None],
) -> None:
    world = World(store)
    world.memory.record(pair, Kind.QUESTION, "What is osmosis?", at=MORNING)
    world.check(pair, "right", 1)
    with monkeypatch.context() as patch:
        if kill_in == "index":
            kill_once(patch, world.index, "add")
        else:
            kill_once(patch, store, "add_belief")
        with pytest.raises(Killed):
            world.check(pair, "wrong", 2, key="check-2")
    committed = store.episodes(pair)[-1]
    assert committed.text == "Check 2 on osmosis"  # acknowledged by the store, then the crash
    recovery(world, pair)
    world.assert_nothing_missing(pair)


def test_an_unbroken_write_costs_no_catch_up_reads_of_the_log(
    store: EpisodeStore, pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = World(store)
    world.memory.record(pair, Kind.QUESTION, "What is osmosis?", at=MORNING)
    reads = {"n": 0}
    real = store.episodes

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "episodes", counted)
    world.memory.record(pair, Kind.QUESTION, "And diffusion?", at=MORNING)
    world.check(pair, "right", 1)
    assert reads["n"] == 0


def test_a_pair_written_before_markers_is_caught_up_without_embedding_what_is_indexed(
    store: EpisodeStore, pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = World(store)
    for n in range(3):
        world.memory.record(pair, Kind.QUESTION, f"Question {n}?", at=MORNING)
    documents: Any = store
    version = documents.document(pair, APPLIED_INDEX).version
    documents.put_document(pair, APPLIED_INDEX, {"through": 0}, expected_version=version)
    embedded: list[int] = []
    real = world.memory._passage_vectors

    def counted(episodes: Any) -> Any:
        embedded.append(len(episodes))
        return real(episodes)

    monkeypatch.setattr(world.memory, "_passage_vectors", counted)
    world.memory.record(pair, Kind.QUESTION, "Question 3?", at=MORNING)
    assert sum(embedded) == 1  # only the new one: the index held the three before it
    assert world.memory.applied(pair, APPLIED_INDEX)[0] == 4
    assert len(world.indexed_ids(pair)) == 4
