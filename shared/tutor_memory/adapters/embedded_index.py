"""The embedded episode index: SQLite FTS5 for the lexical pool, an exact numpy scan for the
semantic pool. It works beside any episode store (SQLite or DynamoDB), so the same history gives
the same hits on both.

* Lexical: ``terms`` (the domain's analysed tokens) in an FTS5 table with the ``unicode61
  remove_diacritics 2`` tokenizer; a query ORs the question's terms and ranks by FTS5's BM25.
  The pair is a column of the same table and is constrained in the same statement. BM25's
  document frequencies are counted over the whole table (every pair in the file), as
  OpenSearch counts them over a shard.
* Semantic: exact cosine over the pair's stored float32 vectors (this Python cannot load the
  sqlite-vec extension; exact is also the quality ceiling). The pair's matrix is cached in
  memory and dropped when the pair gets new documents. A time window restricts the candidates
  before ranking — a pre-filter, so a window never comes back with fewer than k that exist.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import IndexedEpisode, SearchHit

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    pair TEXT NOT NULL,
    episode_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    vector BLOB,
    PRIMARY KEY (pair, episode_id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_terms USING fts5(
    terms, pair UNINDEXED, episode_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
);
"""


def _pair_key(pair: Pair) -> str:
    return f"{pair.student_id}#{pair.subject_id}"


def _fts_query(terms: Sequence[str]) -> str:
    """Each term as a quoted FTS5 string, ORed: no term can be read as FTS5 syntax."""
    quoted = ['"' + t.replace('"', '""') + '"' for t in dict.fromkeys(terms) if t.strip()]
    return " OR ".join(quoted)


@dataclass
class _PairVectors:
    ids: list[str]
    seqs: NDArray[np.int64]
    ats: list[str]
    matrix: NDArray[np.float32]


class EmbeddedIndex:
    """:class:`tutor_memory.ports.EpisodeIndex` on SQLite FTS5 and numpy."""

    def __init__(self, path: str | Path = ":memory:", dimension: int | None = None) -> None:
        self.path = str(path)
        self.dimension = dimension
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._cache: dict[str, _PairVectors] = {}
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.executescript(_SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def add(self, docs: Sequence[IndexedEpisode]) -> None:
        rows = []
        for doc in docs:
            blob = None
            if doc.vector is not None:
                vector = np.asarray(doc.vector, dtype=np.float32)
                if self.dimension is None:
                    self.dimension = int(vector.shape[0])
                if vector.ndim != 1 or vector.shape[0] != self.dimension:
                    raise StoreError(
                        f"vector of {doc.episode_id} has dimension {vector.shape[-1]}; "
                        f"the index holds {self.dimension}"
                    )
                blob = vector.tobytes()
            rows.append((doc, _pair_key(doc.pair), blob))
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for doc, key, blob in rows:
                    self._conn.execute(
                        "INSERT OR REPLACE INTO docs VALUES (?, ?, ?, ?, ?, ?)",
                        (key, doc.episode_id, doc.seq, doc.kind, format_time(doc.at), blob),
                    )
                    self._conn.execute(
                        "DELETE FROM doc_terms WHERE pair = ? AND episode_id = ?",
                        (key, doc.episode_id),
                    )
                    self._conn.execute(
                        "INSERT INTO doc_terms (terms, pair, episode_id) VALUES (?, ?, ?)",
                        (doc.terms, key, doc.episode_id),
                    )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            for _doc, key, _blob in rows:
                self._cache.pop(key, None)

    def search(
        self,
        pair: Pair,
        *,
        terms: Sequence[str],
        vector: Sequence[float] | None,
        lexical_limit: int,
        k: int,
        window: TimeWindow | None = None,
    ) -> tuple[list[SearchHit], list[SearchHit]]:
        key = _pair_key(pair)
        lexical = self._lexical(key, terms, lexical_limit, window) if terms else []
        semantic = self._semantic(key, vector, k, window) if vector is not None else []
        return lexical, semantic

    def _lexical(
        self, key: str, terms: Sequence[str], limit: int, window: TimeWindow | None
    ) -> list[SearchHit]:
        query = _fts_query(terms)
        if not query or limit <= 0:
            return []
        sql = (
            "SELECT d.episode_id, d.seq, bm25(doc_terms) AS rank FROM doc_terms "
            "JOIN docs d ON d.pair = doc_terms.pair AND d.episode_id = doc_terms.episode_id "
            "WHERE doc_terms MATCH ? AND doc_terms.pair = ?"
        )
        params: list[object] = [query, key]
        if window is not None:
            sql += " AND d.at >= ? AND d.at < ?"
            params += [format_time(window.start), format_time(window.end)]
        sql += " ORDER BY rank, d.seq DESC LIMIT ?"
        params.append(limit)
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        # FTS5's bm25() is negative, better matches more negative; report the usual positive.
        return [SearchHit(episode_id=r[0], seq=int(r[1]), score=-float(r[2])) for r in rows]

    def _vectors(self, key: str) -> _PairVectors:
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        with self._lock:
            rows = self._conn.execute(
                "SELECT episode_id, seq, at, vector FROM docs "
                "WHERE pair = ? AND vector IS NOT NULL ORDER BY seq",
                (key,),
            ).fetchall()
        dim = self.dimension or 0
        matrix = (
            np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32).reshape(len(rows), dim)
            if rows
            else np.zeros((0, dim), dtype=np.float32)
        )
        loaded = _PairVectors(
            ids=[r[0] for r in rows],
            seqs=np.array([r[1] for r in rows], dtype=np.int64),
            ats=[r[2] for r in rows],
            matrix=matrix,
        )
        self._cache[key] = loaded
        return loaded

    def _semantic(
        self, key: str, vector: Sequence[float], k: int, window: TimeWindow | None
    ) -> list[SearchHit]:
        pv = self._vectors(key)
        if k <= 0 or not pv.ids:
            return []
        query = np.asarray(vector, dtype=np.float32)
        if query.shape != (pv.matrix.shape[1],):
            raise StoreError(
                f"query vector has dimension {query.shape[-1]}; the index holds "
                f"{pv.matrix.shape[1]}"
            )
        candidates = np.arange(len(pv.ids))
        if window is not None:
            start, end = format_time(window.start), format_time(window.end)
            candidates = np.array(
                [i for i, at in enumerate(pv.ats) if start <= at < end], dtype=np.int64
            )
            if candidates.size == 0:
                return []
        scores = pv.matrix[candidates] @ query
        # Best first; equal scores go to the newer episode (higher seq), deterministically.
        order = np.lexsort((-pv.seqs[candidates], -scores))[:k]
        return [
            SearchHit(
                episode_id=pv.ids[candidates[i]],
                seq=int(pv.seqs[candidates[i]]),
                score=float(scores[i]),
            )
            for i in order
        ]

    def delete_pair(self, pair: Pair) -> int:
        key = _pair_key(pair)
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                removed = self._conn.execute("DELETE FROM docs WHERE pair = ?", (key,)).rowcount
                self._conn.execute("DELETE FROM doc_terms WHERE pair = ?", (key,))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._cache.pop(key, None)
        return int(removed)
