"""The embedded index: lexical (FTS5 BM25) and semantic (exact cosine) pools, scoped to a pair."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from tutor_memory.adapters import embedded_index
from tutor_memory.adapters.embedded_index import EmbeddedIndex, lucene_length
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Hits, IndexedEpisode, SearchHit, TermCounts

A = Pair("student-1", "biology")
B = Pair("student-2", "biology")
T0 = datetime(2026, 3, 1, tzinfo=UTC)


def unit(*values: float) -> list[float]:
    v = np.asarray(values, dtype=np.float32)
    return list(v / np.linalg.norm(v))


def doc(
    pair: Pair, seq: int, terms: str, vector: list[float] | None, days: int = 0
) -> IndexedEpisode:
    return IndexedEpisode(
        pair, f"e{seq}-{seq:012x}", seq, "question", T0 + timedelta(days=days), terms, vector
    )


def sample() -> list[IndexedEpisode]:
    return [
        doc(A, 1, "cell nucleus", unit(1, 0, 0), days=0),
        doc(A, 2, "osmosis water membrane", unit(0, 1, 0), days=30),
        doc(A, 3, "cell cell wall", unit(0.9, 0.1, 0), days=60),
        doc(A, 4, "ماء خليه", unit(0, 0.8, 0.2), days=90),
        doc(B, 1, "cell nucleus", unit(1, 0, 0), days=0),
        doc(B, 2, "osmosis water membrane", unit(0, 1, 0), days=30),
    ]


@pytest.fixture(autouse=True, params=["C loop", "numpy"])
def ranking(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs twice: ranked by the C loop, and by the numpy form (what runs
    where the C loop was not built, and for questions of more than 62 words)."""
    if request.param == "numpy":
        monkeypatch.setattr(embedded_index, "_ranking", None)
    elif embedded_index._ranking is None:
        pytest.skip("the C loop was not built on this machine")
    return str(request.param)


@pytest.fixture
def index() -> EmbeddedIndex:
    idx = EmbeddedIndex()
    idx.add(sample())
    return idx


def ids(hits: list) -> list[int]:  # type: ignore[type-arg]
    return [h.seq for h in hits]


def test_lexical_finds_episodes_sharing_a_term_and_only_in_the_pair(index: EmbeddedIndex) -> None:
    lexical, semantic, _counts = index.search(
        A, terms=["osmosis"], vector=None, lexical_limit=10, k=5
    )
    assert ids(lexical) == [2] and semantic == []
    lexical_b, _, _counts = index.search(B, terms=["osmosis"], vector=None, lexical_limit=10, k=5)
    assert ids(lexical_b) == [2]
    assert {h.episode_id for h in lexical_b} == {"e2-000000000002"}


def test_a_rarer_word_weighs_more_than_a_common_one(index: EmbeddedIndex) -> None:
    lexical, _, _counts = index.search(
        A, terms=["cell", "nucleus"], vector=None, lexical_limit=10, k=0
    )
    assert ids(lexical)[0] == 1  # has the rare "nucleus" as well as "cell"
    assert set(ids(lexical)) == {1, 3}
    assert lexical[0].score > lexical[1].score > 0


def test_arabic_and_accented_terms_match_as_the_domain_folded_them(index: EmbeddedIndex) -> None:
    """Folding (harakat, alef forms) is the domain analyser's job; the index matches its terms,
    and FTS5 also folds Latin accents."""
    assert ids(index.search(A, terms=["خليه"], vector=None, lexical_limit=10, k=0)[0]) == [4]
    index.add([doc(A, 5, "célula", None, days=100)])
    assert ids(index.search(A, terms=["celula"], vector=None, lexical_limit=10, k=0)[0]) == [5]


def test_terms_cannot_be_read_as_query_syntax(index: EmbeddedIndex) -> None:
    lexical, _, _counts = index.search(
        A, terms=['"', "AND", "NEAR(", "cel*"], vector=None, lexical_limit=10, k=0
    )
    assert lexical == []


def test_semantic_is_the_exact_cosine_order(index: EmbeddedIndex) -> None:
    query = unit(1, 0.2, 0)
    _, semantic, _counts = index.search(A, terms=[], vector=query, lexical_limit=0, k=3)
    stored = {1: unit(1, 0, 0), 2: unit(0, 1, 0), 3: unit(0.9, 0.1, 0), 4: unit(0, 0.8, 0.2)}
    expected = sorted(stored, key=lambda s: -float(np.dot(stored[s], query)))[:3]
    assert ids(semantic) == expected
    for hit in semantic:
        assert hit.score == pytest.approx(float(np.dot(stored[hit.seq], query)), abs=1e-6)


def test_cosines_of_named_episodes_are_the_semantic_pools_scores(index: EmbeddedIndex) -> None:
    """Recall scores every candidate by meaning: an episode it names gets the cosine the
    semantic pool would give it, from the pair's own documents only."""
    query = unit(1, 0.2, 0)
    _, semantic, _counts = index.search(A, terms=[], vector=query, lexical_limit=0, k=4)
    pooled = {h.episode_id: h.score for h in semantic}
    named = [doc(A, 1, "", None).episode_id, doc(A, 4, "", None).episode_id, "e99-unknown"]
    cosines = index.cosines(A, named, query)
    assert cosines == {i: pooled[i] for i in named[:2]}
    index.add([doc(A, 7, "late", unit(0, 0, 1), days=120)])  # appended after the first read
    assert index.cosines(A, [doc(A, 7, "", None).episode_id], query) == {
        doc(A, 7, "", None).episode_id: pytest.approx(0.0, abs=1e-6)
    }
    assert index.cosines(B, named, query) == {named[0]: pytest.approx(pooled[named[0]])}
    assert EmbeddedIndex().cosines(A, named, query) == {}


def test_lexical_scores_of_named_episodes_are_the_lexical_pools_scores(
    index: EmbeddedIndex,
) -> None:
    """Recall scores every candidate by words too: an episode past the lexical pool's cut
    gets exactly the BM25 score the pool would have given it (both forms of the sum), from
    the pair's own documents; one holding none of the words, or unknown, is left out."""
    terms = ["cell", "water"]
    everything, _, _counts = index.search(A, terms=terms, vector=None, lexical_limit=10, k=0)
    pooled = {h.episode_id: h.score for h in everything}
    assert len(pooled) == 3  # docs 1, 2 and 3 hold a word; 4 holds neither
    cut, _, _counts = index.search(A, terms=terms, vector=None, lexical_limit=1, k=0)
    past = [i for i in pooled if i not in cut.episode_ids]
    named = [*past, doc(A, 4, "", None).episode_id, "e99-unknown"]
    assert index.lexical_scores(A, named, terms) == {i: pooled[i] for i in past}
    index.add([doc(A, 7, "water water", None, days=120)])  # appended after the first read
    late = doc(A, 7, "", None).episode_id
    after, _, _counts = index.search(A, terms=terms, vector=None, lexical_limit=10, k=0)
    scores_after = {h.episode_id: h.score for h in after}
    assert index.lexical_scores(A, [late], terms) == {late: scores_after[late]}
    assert index.lexical_scores(B, [doc(B, 3, "", None).episode_id], terms) == {}
    assert index.lexical_scores(A, named, []) == {}
    assert EmbeddedIndex().lexical_scores(A, named, terms) == {}


def test_a_window_filters_before_ranking(index: EmbeddedIndex) -> None:
    march = TimeWindow(T0 + timedelta(days=25), T0 + timedelta(days=65), "window")
    lexical, semantic, _counts = index.search(
        A, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=10, k=2, window=march
    )
    assert ids(lexical) == [3]
    assert ids(semantic) == [3, 2]  # both in the window, though episode 1 is the closest overall


def test_equal_scores_prefer_the_newer_episode() -> None:
    idx = EmbeddedIndex()
    # Three different texts exactly as close to the question.
    idx.add([doc(A, 1, "a", unit(1, 1, 0), days=1), doc(A, 2, "b", unit(1, 0, 1), days=2),
             doc(A, 3, "c", unit(1, -1, 0), days=3)])  # fmt: skip
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=3)
    assert ids(semantic) == [3, 2, 1]


def crowded(copies: int) -> list[IndexedEpisode]:
    """A question repeated ``copies`` times (the nearest text), then one other text a little
    further, all before the repeats' last copy."""
    repeated = [doc(A, s, "same", unit(1, 0, 0), days=s) for s in range(1, copies + 1)]
    return [doc(A, 1000, "other", unit(1, 0.3, 0), days=0), *repeated]


def test_the_semantic_pool_counts_texts_not_copies() -> None:
    """Fifty copies of one question take one place among the k nearest texts: the next text
    still comes back with k = 2 (texts before copies; copies only where k leaves room)."""
    idx = EmbeddedIndex()
    idx.add(crowded(50))
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=2)
    assert ids(semantic) == [50, 1000]
    # As the index reads them back from its file in a fresh cache (not appended copies).
    idx._cache.clear()
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=2)
    assert ids(semantic) == [50, 1000]


def test_a_new_copy_joins_the_text_it_repeats() -> None:
    idx = EmbeddedIndex()
    idx.add(crowded(3))
    idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=2)  # cached
    idx.add([doc(A, 4, "same", unit(1, 0, 0), days=40)])
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=2)
    assert ids(semantic) == [4, 1000]
    assert idx.cosines(A, ["e1-000000000001", "e4-000000000004"], unit(1, 0, 0)) == {
        "e1-000000000001": pytest.approx(1.0), "e4-000000000004": pytest.approx(1.0)}  # fmt: skip


def test_inside_a_window_a_text_is_found_by_its_copies_there() -> None:
    idx = EmbeddedIndex()
    idx.add(crowded(30))
    window = TimeWindow(T0, T0 + timedelta(days=10, hours=12), "window")  # copies 1-10
    _, semantic, _counts = idx.search(
        A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=2, window=window
    )
    assert ids(semantic) == [10, 1000]


def test_a_vector_of_the_wrong_dimension_is_refused(index: EmbeddedIndex) -> None:
    with pytest.raises(StoreError, match="dimension 2; the index holds 3"):
        index.add([doc(A, 9, "x", [1.0, 0.0])])
    with pytest.raises(StoreError, match="query vector has dimension 2"):
        index.search(A, terms=[], vector=[1.0, 0.0], lexical_limit=0, k=1)


def test_deleting_a_pair_leaves_the_other(index: EmbeddedIndex) -> None:
    assert index.delete_pair(A) == 4
    lexical, semantic, _counts = index.search(
        A, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5
    )
    assert lexical == [] and semantic == []
    lexical_b, semantic_b, _counts = index.search(
        B, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5
    )
    assert ids(lexical_b) == [1] and ids(semantic_b) == [1, 2]


def test_reindexing_an_episode_replaces_it(index: EmbeddedIndex) -> None:
    index.add([doc(A, 2, "diffusion", unit(0, 1, 0), days=30)])
    assert index.search(A, terms=["osmosis"], vector=None, lexical_limit=5, k=0)[0] == []
    assert ids(index.search(A, terms=["diffusion"], vector=None, lexical_limit=5, k=0)[0]) == [2]


def test_a_file_index_survives_reopening(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "index.db"
    first = EmbeddedIndex(path)
    first.add([doc(A, 1, "cell", unit(1, 0, 0))])
    first.close()
    again = EmbeddedIndex(path, dimension=3)
    lexical, semantic, _counts = again.search(
        A, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5
    )
    assert ids(lexical) == [1] and ids(semantic) == [1]


@pytest.mark.parametrize(
    ("length", "stored"),
    [(0, 0), (1, 1), (23, 23), (24, 24), (25, 25), (40, 40), (100, 96), (1000, 984)],
)
def test_document_lengths_are_rounded_as_lucene_norms_round_them(length: int, stored: int) -> None:
    assert lucene_length(length) == stored


def test_each_lexical_hit_names_the_question_terms_it_contains(index: EmbeddedIndex) -> None:
    lexical, _, _counts = index.search(
        A, terms=["cell", "nucleus", "osmosis"], vector=None, lexical_limit=10, k=0
    )
    assert {h.seq: h.matched for h in lexical} == {
        1: ("cell", "nucleus"),
        2: ("osmosis",),
        3: ("cell",),
    }


def test_term_counts_are_the_pairs_own(index: EmbeddedIndex) -> None:
    """How common a word is in one student's history never depends on another student's."""
    index.add([doc(B, 3, "cell", None), doc(B, 4, "cell membrane", None)])
    counts = index.term_counts(A, ["cell", "osmosis", "absent"])
    assert counts.documents == 4
    assert dict(counts.containing) == {"absent": 0, "cell": 2, "osmosis": 1}
    assert index.term_counts(B, ["cell"]).containing["cell"] == 3


def test_a_search_returns_the_counts_term_counts_gives(
    index: EmbeddedIndex,
) -> None:
    """The gate's counts come with the hits (one read of the file's state for the whole step):
    the same as asking for them apart, blank terms left out, none without terms."""
    for terms in (["cell", "osmosis"], ["water", " ", "cell"], ["Water Cell"], ["absent"]):
        found = index.search(A, terms=terms, vector=unit(1, 0, 0), lexical_limit=5, k=2)
        assert found.counts == index.term_counts(A, terms)
    assert index.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=5, k=2).counts is None
    assert index.search(A, terms=[" "], vector=None, lexical_limit=5, k=0).counts is None


def test_hits_read_as_columns_and_as_rows(index: EmbeddedIndex) -> None:
    lexical, semantic, _counts = index.search(
        A, terms=["cell", "nucleus"], vector=np.asarray(unit(1, 0, 0), dtype=np.float32),
        lexical_limit=5, k=2,
    )  # fmt: skip
    assert lexical.episode_ids == [h.episode_id for h in lexical] == ["e1-000000000001",
                                                                     "e3-000000000003"]  # fmt: skip
    assert lexical.matched == [("cell", "nucleus"), ("cell",)]
    assert lexical[0] == SearchHit("e1-000000000001", 1, lexical.scores[0], ("cell", "nucleus"))
    assert lexical[1:] == [lexical[1]] and list(lexical[::-1]) == list(lexical)[::-1]
    assert semantic.matched is None and [h.matched for h in semantic] == [(), ()]
    assert semantic == Hits.of(list(semantic)) and semantic != lexical
    assert list(lexical.scored()) == [(h.episode_id, h.score, h.matched) for h in lexical]
    assert [m for _i, _s, m in semantic.scored()] == [(), ()]
    with pytest.raises(ValueError, match="one entry per hit"):
        Hits(["e1"], [1, 2], [0.5])


def test_term_counts_answer_the_terms_asked_whatever_was_searched_before(
    index: EmbeddedIndex,
) -> None:
    index.search(A, terms=["cell", "osmosis"], vector=None, lexical_limit=5, k=0)
    assert dict(index.term_counts(A, ["cell", "osmosis"]).containing) == {"cell": 2, "osmosis": 1}
    assert dict(index.term_counts(A, ["water", " ", "cell"]).containing) == {"cell": 2, "water": 1}
    index.search(A, terms=["Water Cell"], vector=None, lexical_limit=5, k=0)
    assert dict(index.term_counts(A, ["Water Cell"]).containing) == {"Water Cell": 1}


def test_another_process_writing_the_file_is_seen_by_the_next_search(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "index.db"
    reader, writer = EmbeddedIndex(path, dimension=3), EmbeddedIndex(path, dimension=3)
    writer.add([doc(A, 1, "cell", unit(1, 0, 0), days=0)])
    assert ids(reader.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=5)[1]) == [1]

    writer.add([doc(A, 2, "osmosis", unit(0, 1, 0), days=1)])  # appended
    lexical, semantic, _counts = reader.search(
        A, terms=["osmosis"], vector=unit(0, 1, 0), lexical_limit=5, k=5
    )
    assert ids(lexical) == [2] and ids(semantic) == [2, 1]

    # Re-indexed with a new vector (near episode 2's, not the same: that would be one text).
    writer.add([doc(A, 1, "cell", unit(0, 1, 0.001), days=0)])
    _, semantic, _counts = reader.search(A, terms=[], vector=unit(0, 1, 0), lexical_limit=0, k=5)
    assert [round(h.score, 5) for h in semantic] == [1.0, 1.0]

    writer.delete_pair(A)
    found = reader.search(A, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5)
    assert found.lexical == [] and found.semantic == []
    assert found.counts == TermCounts(documents=0, containing={"cell": 0})


def test_a_file_written_before_the_postings_is_converted_on_opening(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "index.db"
    old = EmbeddedIndex(path)
    old.add([doc(A, 1, "cell nucleus", unit(1, 0, 0)), doc(A, 2, "cell", unit(0, 1, 0))])
    for table in ("postings", "term_stats", "pair_term_stats", "pair_stats", "index_stats"):
        old._conn.execute(f"DELETE FROM {table}")  # as a file of the previous version was
    old.close()

    again = EmbeddedIndex(path, dimension=3)

    assert ids(again.search(A, terms=["nucleus"], vector=None, lexical_limit=5, k=0)[0]) == [1]
    assert dict(again.term_counts(A, ["cell"]).containing) == {"cell": 2}


def test_lexical_hits_are_cut_at_the_limit_best_first(index: EmbeddedIndex) -> None:
    lexical, _, _counts = index.search(
        A, terms=["cell", "osmosis"], vector=None, lexical_limit=2, k=0
    )
    assert len(lexical) == 2
    assert lexical[0].score >= lexical[1].score


def test_warming_loads_the_most_recently_written_pairs_within_the_budget() -> None:
    idx = EmbeddedIndex(dimension=3)
    idx.add([doc(A, 1, "cell", unit(1, 0, 0)), doc(A, 2, "cell wall", unit(0, 1, 0))])
    idx.add([doc(B, 1, "cell", unit(1, 0, 0))])  # written last

    assert idx.warm(max_vectors=2) == 1
    assert set(idx._cache) == {"student-2#biology"}
    assert idx.warm(max_vectors=10) == 2
    assert set(idx._terms) == {"student-1#biology", "student-2#biology"}


def test_a_question_of_many_words_still_names_each_hits_words() -> None:
    """More words than the bits of one machine integer: each hit still names its own."""
    idx = EmbeddedIndex()
    words = [f"word{i:03d}" for i in range(80)]
    idx.add([doc(A, 1, " ".join(words[:40]), None), doc(A, 2, " ".join(words[70:]), None)])
    lexical, _, _counts = idx.search(A, terms=words, vector=None, lexical_limit=5, k=0)
    assert {h.seq: h.matched for h in lexical} == {1: tuple(words[:40]), 2: tuple(words[70:])}


def test_another_process_rewording_an_episode_changes_its_words_and_counts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "index.db"
    reader, writer = EmbeddedIndex(path), EmbeddedIndex(path)
    writer.add([doc(A, 1, "osmosis water", None), doc(A, 2, "cell", None)])
    assert ids(reader.search(A, terms=["osmosis"], vector=None, lexical_limit=5, k=0)[0]) == [1]

    writer.add([doc(A, 1, "diffusion", None)])  # re-indexed with other words

    assert reader.search(A, terms=["osmosis"], vector=None, lexical_limit=5, k=0)[0] == []
    assert ids(reader.search(A, terms=["diffusion"], vector=None, lexical_limit=5, k=0)[0]) == [1]
    assert dict(reader.term_counts(A, ["osmosis", "diffusion"]).containing) == {
        "diffusion": 1,
        "osmosis": 0,
    }


def test_a_window_applies_to_words_written_out_of_time_order() -> None:
    idx = EmbeddedIndex()
    idx.add([doc(A, 2, "osmosis", None, days=40)])
    idx.search(A, terms=["osmosis"], vector=None, lexical_limit=5, k=0)  # cached
    idx.add([doc(A, 1, "osmosis", None, days=0), doc(A, 3, "osmosis", None, days=80)])
    july = TimeWindow(T0 + timedelta(days=30), T0 + timedelta(days=50))
    lexical, _, _counts = idx.search(
        A, terms=["osmosis"], vector=None, lexical_limit=5, k=0, window=july
    )
    assert ids(lexical) == [2]


def test_the_pairs_searched_least_recently_leave_memory_past_the_bound() -> None:
    idx = EmbeddedIndex(dimension=3)
    idx.cached_documents = 2
    idx.add([doc(A, 1, "cell", unit(1, 0, 0)), doc(A, 2, "cell wall", unit(0, 1, 0))])
    idx.add([doc(B, 1, "cell", unit(1, 0, 0))])
    idx.search(A, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5)

    lexical, semantic, _counts = idx.search(
        B, terms=["cell"], vector=unit(1, 0, 0), lexical_limit=5, k=5
    )

    assert set(idx._cache) == set(idx._terms) == {"student-2#biology"}
    assert ids(lexical) == [1] and ids(semantic) == [1]
    again, _, _counts = idx.search(
        A, terms=["cell"], vector=None, lexical_limit=5, k=0
    )  # read again
    assert ids(again) == [1, 2]


def test_lexical_scores_are_lucenes_bm25_over_the_lengths_its_norms_keep() -> None:
    """Exactly OpenSearch's legacy BM25 (k1 1.2, b 0.75; the terms summed in the question's
    order), with a long document's length rounded as Lucene's norms round it (101 words: 96)."""
    idx = EmbeddedIndex()
    filler = [f"filler{i}" for i in range(98)]
    idx.add(
        [
            doc(A, 1, " ".join(["osmosis", "water", "water", *filler]), None),  # 101 words
            doc(A, 2, "osmosis osmosis cell", None),
            doc(B, 1, "water", None),
        ]
    )
    lexical, _, _counts = idx.search(
        A, terms=["water", "osmosis"], vector=None, lexical_limit=5, k=0
    )
    count, average = 3, (101 + 3 + 1) / 3

    def weight(containing: int, tf: float, length: int) -> float:
        idf = math.log(1 + (count - containing + 0.5) / (containing + 0.5))
        return (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * length / average))

    assert {h.seq: h.score for h in lexical} == {
        1: 0.0 + weight(2, 2.0, 96) + weight(2, 1.0, 96),
        2: 0.0 + weight(2, 2.0, 3),
    }


@pytest.mark.parametrize("terms", [["same"], ["same", "word"]])
def test_equal_lexical_scores_prefer_the_newer_episode_even_at_the_cut(terms: list[str]) -> None:
    idx = EmbeddedIndex()
    # Five different texts that score alike (the same words matched, the same length).
    idx.add([doc(A, s, f"same word w{s}", None, days=s) for s in (3, 1, 5, 2, 4)])
    lexical, _, _counts = idx.search(A, terms=terms, vector=None, lexical_limit=3, k=0)
    assert ids(lexical) == [5, 4, 3]
    assert {h.matched for h in lexical} == {tuple(terms)}


def test_a_window_filters_a_question_of_several_words_before_ranking(
    index: EmbeddedIndex,
) -> None:
    march = TimeWindow(T0 + timedelta(days=25), T0 + timedelta(days=65), "window")
    lexical, _, _counts = index.search(
        A, terms=["nucleus", "cell", "osmosis"], vector=None, lexical_limit=1, k=0, window=march
    )
    assert [(h.seq, h.matched) for h in lexical] == [(2, ("osmosis",))]


@pytest.mark.parametrize("as_given", [list, tuple, lambda v: np.asarray(v, dtype=np.float64)])
def test_a_query_of_doubles_scores_as_the_same_query_rounded_to_float32(as_given) -> None:  # type: ignore[no-untyped-def]
    idx = EmbeddedIndex(dimension=3)
    idx.add([doc(A, 1, "x", unit(1, 0.3, 0)), doc(A, 2, "y", unit(0.2, 1, 0.1))])
    query = [0.1, 0.7000000000000001, 1e-40]  # none of them a float32
    rounded = np.asarray(query, dtype=np.float32)
    _, semantic, _counts = idx.search(A, terms=[], vector=as_given(query), lexical_limit=0, k=2)
    _, expected, _counts = idx.search(A, terms=[], vector=rounded, lexical_limit=0, k=2)  # type: ignore[arg-type]
    assert semantic == expected


def test_a_search_leaves_no_sums_behind_for_the_next(index: EmbeddedIndex) -> None:
    """Multi-term searches reuse the pair's arrays: each finds what a fresh index finds,
    whatever was searched before it (windowed or not, overlapping terms or not)."""
    march = TimeWindow(T0 + timedelta(days=25), T0 + timedelta(days=65), "window")
    asked = [
        (["cell", "nucleus"], None),
        (["osmosis", "water", "cell"], march),
        (["water", "membrane", "wall"], None),
        (["cell", "nucleus"], None),
    ]
    for terms, window in asked:
        fresh = EmbeddedIndex()
        fresh.add(sample())
        want = fresh.search(A, terms=terms, vector=None, lexical_limit=10, k=0, window=window)
        got = index.search(A, terms=terms, vector=None, lexical_limit=10, k=0, window=window)
        assert got.lexical == want.lexical and len(got.lexical) >= 1


def test_vectors_sharing_a_hash_stay_different_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts are keyed by the hash of their bytes and checked against the stored vector: with
    every hash the same, different vectors are still different texts, copies still one."""
    monkeypatch.setattr(embedded_index, "hash", lambda _blob: 7, raising=False)
    idx = EmbeddedIndex()
    idx.add([*crowded(5), doc(A, 2000, "third", unit(0, 1, 0), days=1)])
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=3)
    assert ids(semantic) == [5, 1000, 2000]
    idx.add([doc(A, 6, "same", unit(1, 0, 0), days=50), doc(A, 7, "x", unit(0, 0, 1), days=51)])
    _, semantic, _counts = idx.search(A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=4)
    assert ids(semantic) == [6, 1000, 2000, 7]  # 2000 and 7 tie: the higher seq first


@pytest.mark.parametrize("window", [False, True])
def test_a_text_brings_its_copies_where_k_leaves_room(window: bool) -> None:
    """Fewer texts than k: every text, then their other copies while the pool holds fewer
    than k hits (so the block can say how often a question was asked)."""
    idx = EmbeddedIndex()
    idx.add(crowded(3))
    scope = TimeWindow(T0, T0 + timedelta(days=60), "window") if window else None
    _, semantic, _counts = idx.search(
        A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=5, window=scope
    )
    assert ids(semantic) == [3, 2, 1, 1000]
    _, semantic, _counts = idx.search(
        A, terms=[], vector=unit(1, 0, 0), lexical_limit=0, k=3, window=scope
    )
    assert ids(semantic) == [3, 2, 1000]  # both texts first, then one copy
