"""The concept map store, on every backend."""

from __future__ import annotations

import pytest

from tutor_memory.domain.conceptmap import (
    ConceptDraft,
    ConceptMap,
    Source,
    concept_text,
    merge_file,
    with_vectors,
)
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


def with_routing_vectors(cmap: ConceptMap) -> ConceptMap:
    rows = {
        key: (concept_text(c), [float(i == n) for i in range(8)])
        for n, (key, c) in enumerate(sorted(cmap.concepts.items()))
    }
    return with_vectors(cmap, "fake/profile", 8, rows)


def test_a_map_with_routing_vectors_reads_back_with_them(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    saved = store.save_map(pair, with_routing_vectors(sample_map()))
    loaded = store.load_map(pair)
    assert loaded == saved and loaded.vectors is not None
    assert loaded.vectors.profile == "fake/profile"
    assert set(loaded.vectors.rows) == {"osmosis", "cell membrane"}
    keys, matrix = store.concept_vectors(pair).matrix()
    assert keys == ["cell membrane", "osmosis"] and matrix.shape == (2, 8)
    assert float(matrix[1] @ matrix[1]) == pytest.approx(1.0)


def test_a_map_saved_without_vectors_reads_back_without_them(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    store.save_map(pair, sample_map())  # as every map was stored before vectors existed
    assert store.load_map(pair).vectors is None
    assert store.concept_vectors(pair) is None
    assert store.concept_vectors(Pair("student-2", "biology")) is None
