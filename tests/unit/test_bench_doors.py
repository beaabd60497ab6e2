"""The perf bench measures its floor and its peer through the adapters' public doors, not their
internals: the embedded index hands over a pair's documents and FTS5's bare top-k, the embedded
store its bare indexed read — each of that pair only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.ports import IndexedEpisode

MINE, THEIRS = Pair("s-1", "biology"), Pair("s-2", "biology")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def doc(pair: Pair, seq: int, terms: str) -> IndexedEpisode:
    vector = np.zeros(4, dtype=np.float32)
    vector[seq % 4] = 1.0
    return IndexedEpisode(
        pair, f"e{seq}-{seq:012d}", seq, "question", T0 + timedelta(minutes=seq), terms, vector
    )


def test_the_index_gives_a_pairs_documents_and_fts5s_top_k_of_that_pair_only() -> None:
    index = EmbeddedIndex(dimension=4)
    index.add(
        [doc(MINE, 1, "osmosi water"), doc(MINE, 2, "cell membran"), doc(THEIRS, 1, "osmosi")]
    )

    documents = index.documents(MINE)

    assert [(i, seq, terms) for i, seq, terms, _v in documents] == [
        ("e1-000000000001", 1, "osmosi water"),
        ("e2-000000000002", 2, "cell membran"),
    ]
    assert np.frombuffer(documents[1][3], dtype=np.float32).tolist() == [0.0, 0.0, 1.0, 0.0]
    assert len(index.fts_top(MINE, ["osmosi"], 10)) == 1
    assert len(index.fts_top(MINE, ["osmosi", "cell"], 10)) == 2
    assert index.fts_top(MINE, [], 10) == []


def test_the_store_reads_a_pairs_newest_rows_up_to_the_limit() -> None:
    store = SqliteStore()
    for n in range(3):
        store.append(NewEpisode(MINE, Kind.QUESTION, f"question {n}", T0 + timedelta(minutes=n)))
    store.append(NewEpisode(THEIRS, Kind.QUESTION, "another pair's", T0))

    assert store.newest_rows(MINE, 500) == 3
    assert store.newest_rows(MINE, 2) == 2
