"""The concept map store, on every backend."""

from __future__ import annotations

import pytest

from tutor_memory.domain.conceptmap import ConceptDraft, ConceptMap, Source, merge_file
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError


def sample_map() -> ConceptMap:
    return merge_file(
        ConceptMap(),
        [
            ConceptDraft("Osmosis", "El agua cruza.", builds_on=("Cell membrane",), pages=(3,)),
            ConceptDraft("Cell membrane", "خلیے کی جھلی", pages=(2,)),
        ],
        Source("cells-pdf", 1, "a" * 64),
    )


def test_a_pair_without_a_map_reads_an_empty_one(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    assert store.load_map(pair) == ConceptMap()


def test_a_saved_map_reads_back_whole_at_the_next_version(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    saved = store.save_map(pair, sample_map())
    assert saved.version == 1
    assert store.load_map(pair) == saved
    again = store.save_map(pair, saved)
    assert again.version == 2 and store.load_map(pair).version == 2


def test_a_stale_save_is_refused_and_writes_nothing(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    first = store.save_map(pair, sample_map())
    store.save_map(pair, first)  # someone else saved meanwhile
    with pytest.raises(ConflictError, match="changed meanwhile"):
        store.save_map(pair, merge_file(first, [ConceptDraft("Nucleus")], Source("x", 1, "b" * 64)))
    assert "nucleus" not in store.load_map(pair).concepts


def test_maps_are_per_pair(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    store.save_map(pair, sample_map())
    assert store.load_map(Pair("student-2", "biology")) == ConceptMap()
