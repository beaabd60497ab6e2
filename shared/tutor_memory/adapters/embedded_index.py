"""The embedded episode index: SQLite FTS5 for the lexical pool, an exact numpy scan for the
semantic pool. It works beside any episode store (SQLite or DynamoDB), so the same history gives
the same hits on both.

* Lexical: ``terms`` (the domain's analysed tokens) in an FTS5 table with the ``unicode61
  remove_diacritics 2`` tokenizer; a query ORs the question's terms, constrained to the pair
  in the same statement. Matches are scored with OpenSearch's BM25 (Lucene's "legacy" form
  with the ``k1 + 1`` factor; k1 1.2, b 0.75, idf ``ln(1 + (N - n + 0.5) / (n + 0.5))``,
  document lengths rounded as Lucene's norms store them),
  computed from FTS5's own vocabulary tables, so the embedded and the OpenSearch pools give
  the same scores. (FTS5's built-in ``bm25()`` uses another idf, which all but ignores a term
  found in more than half of the documents.) Statistics are counted over the whole file, as
  OpenSearch counts them over a shard.
* Semantic: exact cosine over the pair's stored float32 vectors (this Python cannot load the
  sqlite-vec extension; exact is also the quality ceiling). The pair's matrix is cached in
  memory and dropped when the pair gets new documents (here, or through another connection to
  the file: ``PRAGMA data_version``). A time window restricts the candidates
  before ranking — a pre-filter, so a window never comes back with fewer than k that exist.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import IndexedEpisode, SearchHit, TermCounts

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    pair TEXT NOT NULL,
    episode_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    vector BLOB,
    length INTEGER NOT NULL DEFAULT 0,
    fts_rowid INTEGER,  -- the document's row in doc_terms: replaced by rowid, never by a scan
    PRIMARY KEY (pair, episode_id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_terms USING fts5(
    terms, pair UNINDEXED, episode_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_terms_rows USING fts5vocab(doc_terms, 'row');
CREATE VIRTUAL TABLE IF NOT EXISTS doc_terms_instances USING fts5vocab(doc_terms, 'instance');
"""

BM25_K1: Final = 1.2  # Lucene's and OpenSearch's defaults
BM25_B: Final = 0.75


def _int4(i: int) -> int:
    """Lucene ``SmallFloat.longToInt4``."""
    bits = i.bit_length()
    if bits < 4:
        return i
    shift = bits - 4
    return ((i >> shift) & 0x07) | ((shift + 1) << 3)


def _from_int4(i: int) -> int:
    bits, shift = i & 0x07, (i >> 3) - 1
    return bits if shift == -1 else (bits | 0x08) << shift


_FREE = 255 - _int4(2**31 - 1)  # 24: lengths below are stored exactly


def lucene_length(length: int) -> int:
    """A document length as Lucene's norms keep it (``SmallFloat.intToByte4`` and back)."""
    if length < _FREE:
        return length
    return _FREE + _from_int4(_int4(length - _FREE))


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
        self._data_version = -1  # see `_fresh`
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.executescript(_SCHEMA)
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(docs)")}
            if "fts_rowid" not in columns:  # a file written before the column existed
                self._conn.execute("ALTER TABLE docs ADD COLUMN fts_rowid INTEGER")

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
                    self._replace_terms(key, doc.episode_id)
                    fts_rowid = self._conn.execute(
                        "INSERT INTO doc_terms (terms, pair, episode_id) VALUES (?, ?, ?)",
                        (doc.terms, key, doc.episode_id),
                    ).lastrowid
                    self._conn.execute(
                        "INSERT OR REPLACE INTO docs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            key,
                            doc.episode_id,
                            doc.seq,
                            doc.kind,
                            format_time(doc.at),
                            blob,
                            len(doc.terms.split()),
                            fts_rowid,
                        ),
                    )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            for _doc, key, _blob in rows:
                self._cache.pop(key, None)

    def _replace_terms(self, key: str, episode_id: str) -> None:
        """Drop a re-indexed episode's old terms: by rowid (a primary-key lookup), or for a row
        written before rowids were kept, by its columns (a scan)."""
        row = self._conn.execute(
            "SELECT fts_rowid FROM docs WHERE pair = ? AND episode_id = ?", (key, episode_id)
        ).fetchone()
        if row is None:
            return
        if row[0] is not None:
            self._conn.execute("DELETE FROM doc_terms WHERE rowid = ?", (row[0],))
        else:
            self._conn.execute(
                "DELETE FROM doc_terms WHERE pair = ? AND episode_id = ?", (key, episode_id)
            )

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
            "SELECT doc_terms.rowid, d.episode_id, d.seq, d.length FROM doc_terms "
            "JOIN docs d ON d.pair = doc_terms.pair AND d.episode_id = doc_terms.episode_id "
            "WHERE doc_terms MATCH ? AND doc_terms.pair = ?"
        )
        params: list[object] = [query, key]
        if window is not None:
            sql += " AND d.at >= ? AND d.at < ?"
            params += [format_time(window.start), format_time(window.end)]
        wanted = sorted({t for t in terms if t.strip()})
        marks = ", ".join("?" * len(wanted))
        with self._lock:
            matches = self._conn.execute(sql, params).fetchall()
            if not matches:
                return []
            count, total = self._conn.execute(
                "SELECT count(*), coalesce(sum(length), 0) FROM docs WHERE length > 0"
            ).fetchone()
            doc_freq = dict(
                self._conn.execute(
                    f"SELECT term, doc FROM doc_terms_rows WHERE term IN ({marks})", wanted
                ).fetchall()
            )
            rows = {m[0] for m in matches}
            freqs: dict[int, dict[str, int]] = {}
            for row, term, tf in self._conn.execute(
                "SELECT doc, term, count(*) FROM doc_terms_instances "
                f"WHERE term IN ({marks}) GROUP BY doc, term",
                wanted,
            ):
                if row in rows:
                    freqs.setdefault(row, {})[term] = tf
        avgdl = total / count if count else 1.0
        idf = {t: math.log(1 + (count - n + 0.5) / (n + 0.5)) for t, n in doc_freq.items()}
        hits = []
        for row, episode_id, seq, length in matches:
            norm = BM25_K1 * (1 - BM25_B + BM25_B * lucene_length(length) / avgdl)
            score = sum(
                idf[t] * tf * (BM25_K1 + 1) / (tf + norm) for t, tf in freqs.get(row, {}).items()
            )
            matched = tuple(sorted(freqs.get(row, {})))
            hits.append(
                SearchHit(episode_id=episode_id, seq=int(seq), score=score, matched=matched)
            )
        hits.sort(key=lambda h: (-h.score, -h.seq))
        return hits[:limit]

    def term_counts(self, pair: Pair, terms: Sequence[str]) -> TermCounts:
        key = _pair_key(pair)
        wanted = sorted({t for t in terms if t.strip()})
        with self._lock:
            (documents,) = self._conn.execute(
                "SELECT count(*) FROM docs WHERE pair = ?", (key,)
            ).fetchone()
            containing = {
                t: int(
                    self._conn.execute(
                        "SELECT count(*) FROM doc_terms WHERE doc_terms MATCH ? AND pair = ?",
                        (_fts_query([t]), key),
                    ).fetchone()[0]
                )
                for t in wanted
            }
        return TermCounts(documents=int(documents), containing=containing)

    def _fresh(self) -> None:
        """Drop the cached matrices when another connection (another process: a replay, an
        ingestion, a second server) has written to the file since they were read. SQLite's
        ``data_version`` changes exactly then: one cheap pragma per search."""
        with self._lock:
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            if version != self._data_version:
                self._cache.clear()
                self._data_version = version

    def _vectors(self, key: str) -> _PairVectors:
        self._fresh()
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

    def known_ids(self, pair: Pair, episode_ids: Sequence[str]) -> set[str]:
        """Which of these episodes the index holds (a catch-up embeds only the others)."""
        found: set[str] = set()
        ids = list(dict.fromkeys(episode_ids))
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows = self._conn.execute(
                    f"SELECT episode_id FROM docs WHERE pair = ? AND episode_id IN "
                    f"({', '.join('?' * len(chunk))})",
                    (_pair_key(pair), *chunk),
                )
                found.update(r[0] for r in rows)
        return found

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

    def delete_episodes(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        """Remove these episodes' documents, terms and vectors (erasure); see :meth:`purge`."""
        key = _pair_key(pair)
        removed = 0
        with self._lock:
            self._conn.execute("PRAGMA secure_delete = ON")
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for episode_id in dict.fromkeys(episode_ids):
                    self._replace_terms(key, episode_id)
                    removed += self._conn.execute(
                        "DELETE FROM docs WHERE pair = ? AND episode_id = ?", (key, episode_id)
                    ).rowcount
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._cache.pop(key, None)
        return int(removed)

    def purge(self) -> None:
        """After a deletion, leave no trace of the deleted terms: FTS5 only marks a deleted
        document's terms in its segments (``doc_terms_rows`` still lists a term until a merge),
        so 'optimize' merges every segment into one without them; VACUUM rebuilds the file with
        no free page keeping an old image; the WAL is written back and truncated."""
        with self._lock:
            self._conn.execute("PRAGMA secure_delete = ON")
            self._conn.execute("INSERT INTO doc_terms (doc_terms) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("VACUUM")
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.execute("PRAGMA secure_delete = OFF")
