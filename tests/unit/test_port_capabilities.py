"""What a use case needs of an adapter is a method of its port, called as such, never a probe
that skips the work unseen when an adapter lacks it: shredding a student's key, taking erased
episodes out of the index, asking the index what it holds, preparing a pair for its turns."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.opensearch_index import OpenSearchIndex
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.ports import FixedClock, IndexedEpisode, Ports
from tutor_memory.usecases.erasure import Erasing
from tutor_memory.usecases.log import TutorMemory, indexed
from tutor_memory.usecases.turns import Turns

PAIR = Pair("s-caps", "biology")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class WatchedStore(SqliteStore):
    """The embedded store, saying which of its capabilities were asked for, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def shred_student(self, student_id: str) -> bool:
        self.calls.append(("shred_student", student_id))
        return super().shred_student(student_id)

    def erase(self, pair: Pair, seqs: Sequence[int], **kwargs: Any) -> Any:
        self.calls.append(("erase", pair))
        return super().erase(pair, seqs, **kwargs)

    def prepare(self, pair: Pair) -> None:
        self.calls.append(("prepare", pair))
        super().prepare(pair)


class WatchedIndex(EmbeddedIndex):
    """The embedded index, saying what it was asked and what it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.added: list[str] = []

    def add(self, docs: Sequence[IndexedEpisode]) -> None:
        self.added.extend(d.episode_id for d in docs)
        super().add(docs)

    def known_ids(self, pair: Pair, episode_ids: Sequence[str]) -> set[str]:
        self.calls.append(("known_ids", tuple(episode_ids)))
        return super().known_ids(pair, episode_ids)

    def delete_episodes(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        self.calls.append(("delete_episodes", tuple(episode_ids)))
        return super().delete_episodes(pair, episode_ids)

    def prepare(self, pair: Pair) -> None:
        self.calls.append(("prepare", pair))
        super().prepare(pair)


def world() -> tuple[WatchedStore, WatchedIndex, TutorMemory]:
    store, index = WatchedStore(), WatchedIndex()
    return store, index, TutorMemory(Ports(store, FixedClock(T0), index=index))


def test_erasing_a_student_asks_the_store_to_shred_the_students_key_before_any_body() -> None:
    store, _index, memory = world()
    memory.record(PAIR, Kind.QUESTION, "What is osmosis?", at=T0)

    Erasing(memory.ports, memory).erase_student(PAIR.student_id, reason="the family asked")

    asked = [name for name, _ in store.calls]
    assert asked[0] == "shred_student" and "erase" in asked
    assert store.calls[0] == ("shred_student", PAIR.student_id)
    assert memory.history(PAIR)[0].erased


def test_the_embedded_store_says_it_has_no_students_key_to_shred() -> None:
    assert SqliteStore().shred_student("s-1") is False


def test_an_erased_episode_leaves_the_index_and_the_others_stay() -> None:
    _store, index, memory = world()
    kept = memory.record(PAIR, Kind.QUESTION, "What is osmosis?", at=T0).episode
    gone = memory.record(PAIR, Kind.QUESTION, "What is a cell?", at=T0 + timedelta(minutes=1))

    Erasing(memory.ports, memory).erase_episode(PAIR, gone.episode.episode_id, reason="a mistake")

    assert ("delete_episodes", (gone.episode.episode_id,)) in index.calls
    both = [kept.episode_id, gone.episode.episode_id]
    assert index.known_ids(PAIR, both) == {kept.episode_id}


def test_a_catch_up_asks_the_index_what_it_holds_and_indexes_only_the_rest() -> None:
    store, index, _memory = world()
    unindexed = TutorMemory(Ports(store, FixedClock(T0)))  # the log alone: no index, no marker
    first = unindexed.record(PAIR, Kind.QUESTION, "What is osmosis?", at=T0).episode
    second = unindexed.record(
        PAIR, Kind.QUESTION, "What is a cell?", at=T0 + timedelta(minutes=1)
    ).episode
    index.add([indexed(first, None)])  # held already (written before markers were kept)
    index.added.clear()

    TutorMemory(Ports(store, FixedClock(T0), index=index)).catch_up_index(PAIR)

    assert ("known_ids", (first.episode_id, second.episode_id)) in index.calls
    assert index.added == [second.episode_id]


def test_a_turn_prepares_the_pairs_kept_state_in_the_store_and_the_index_once() -> None:
    store, index, memory = world()
    turns = Turns(memory.ports, memory)

    turns.prepare(PAIR)
    turns.prepare(PAIR)

    assert store.calls == [("prepare", PAIR)]
    assert index.calls == [("prepare", PAIR)]


class AnsweringClient:
    """An opensearch-py stand-in holding some episodes' documents: answers ``_search``."""

    def __init__(self, held: set[str]) -> None:
        self.held = held
        self.bodies: list[dict[str, Any]] = []

    def search(self, *, index: str, body: dict[str, Any]) -> Any:
        self.bodies.append(body)
        filters = body["query"]["bool"]["filter"]
        asked = next(c["terms"]["episode_id"] for c in filters if "terms" in c)
        found = [i for i in asked if i in self.held]
        return {"hits": {"hits": [{"fields": {"episode_id": [i]}} for i in found]}}


class RefusingClient:
    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"OpenSearch was asked for {name}")


def test_opensearch_says_which_episodes_it_holds_asking_inside_the_pairs_filter() -> None:
    client = AnsweringClient({"e1-aaaaaaaaaaaa"})
    index = OpenSearchIndex(client, index="episodes", dimension=4)

    held = index.known_ids(PAIR, ["e1-aaaaaaaaaaaa", "e2-bbbbbbbbbbbb"])

    assert held == {"e1-aaaaaaaaaaaa"}
    (body,) = client.bodies
    assert {"term": {"pair": "s-caps#biology"}} in body["query"]["bool"]["filter"]


def test_opensearch_has_nothing_to_prepare_or_close_and_asks_nothing_for_it() -> None:
    index = OpenSearchIndex(RefusingClient(), index="episodes", dimension=4)

    index.prepare(PAIR)
    index.close()
    assert index.known_ids(PAIR, []) == set()
