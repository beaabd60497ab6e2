"""The embedded episode index: SQLite for the lexical pool, an exact numpy scan for the
semantic pool. It works beside any episode store (SQLite or DynamoDB), so the same history gives
the same hits on both.

* Lexical: ``terms`` (the domain's analysed tokens) are kept as postings — one row per (pair,
  term, document) with the term's frequency, the document's length as Lucene's norms round it,
  and its time — and the statistics are maintained on write, never counted at query time: N
  and the total length over the **whole file** (deliberately as OpenSearch counts them over a
  shard, so that the two indexes give the same scores — per-pair statistics would rank better
  in theory but OpenSearch cannot compute them, and parity is the contract), each term's
  document frequency over the file (idf), and per pair. Each searched pair's postings are also
  held in memory (compact arrays per term, each posting with its document's norm byte, loaded
  once and followed as the file grows), and OpenSearch's BM25 (Lucene's "legacy" form with the
  ``k1 + 1`` factor; k1 1.2, b 0.75, idf ``ln(1 + (N - n + 0.5) / (n + 0.5))``) is computed
  there, operation for operation as the SQL statement that ranked before it (the length part
  once per norm byte, as Lucene caches it), with N and the total length read from the file on
  each search (and each term's idf whenever the file changed); the gate's ``term_counts`` come from
  the same postings. The sums and the cut run in C (``_ranking.c``, built by the install; it
  says why), or in numpy where it was not built: the same doubles and order. An FTS5 table
  keeps each document's terms too (the bench's floor reads it). Terms are matched as the
  domain folded them (accents and case folded again here, as FTS5's ``unicode61
  remove_diacritics 2`` did).
* Semantic: exact cosine over the pair's stored float32 vectors (this Python cannot load the
  sqlite-vec extension; exact is also the quality ceiling), counted over *texts*: copies of a
  text share one vector (``vector_key``), which is stored and scored once, and each of the k
  nearest texts comes back as its newest copy, its other copies only where k leaves room
  (``first_texts``, as the OpenSearch index cuts), so a question repeated sixty times takes
  one place, not sixty. Each pair's distinct vectors are one
  contiguous block in memory beside its rows in time order (a sorted time array, each row's
  text): a time window is a binary search, then the texts with a copy inside it (a
  pre-filter, so a window never comes back with fewer than k that exist); numpy's product
  scores the block, and the C loop keeps the best k (numpy's ``partition`` and a sort of the
  best k where it was not built).
* The cached postings and vectors follow the file, across processes: each search reads one
  row (the file's highest document rowid, its count of deletions and BM25's N and total
  length); new documents are appended to the cached pair (a re-indexed or, for vectors,
  out-of-order one, or any deletion, reloads the pair). Past ``WARM_VECTORS`` cached
  documents, the pairs searched least recently leave memory.
"""

from __future__ import annotations

import logging
import math
import re
import sqlite3
import struct
import threading
from array import array
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
from numpy.typing import NDArray

from tutor_memory.adapters.sqlite_text import reading_damaged_text
from tutor_memory.adapters.text_keys import first_texts, vector_key
from tutor_memory.domain import forgetting
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.language import fold
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Found, Hits, IndexedEpisode, TermCounts

try:  # both pools' inner loops in C, built at install (_ranking.c says why); else numpy's
    from tutor_memory.adapters import _ranking
except ImportError:  # pragma: no cover - installed where no C compiler was found
    _ranking = None  # type: ignore[assignment]


def ranking_form() -> str:
    """Which form ranks the hits in this process: the C loop, or numpy where the install did
    not build it (the same hits, not the same speed)."""
    return "C loop" if _ranking is not None else "numpy"


log = logging.getLogger(__name__)

# A new row's id, given: one past the largest held, and never under the model's mark (the
# newest rows may have been deleted since it was set, ``_model_watermark``).
_INSERT: Final = (
    "INSERT OR REPLACE INTO docs (rowid, pair, episode_id, seq, kind, at, vector, length, "
    "fts_rowid) VALUES ((SELECT MAX(COALESCE(MAX(rowid), 0) + 1, ?) FROM docs), "
    "?, ?, ?, ?, ?, ?, ?, ?)"
)

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
CREATE TABLE IF NOT EXISTS postings (
    pair TEXT NOT NULL,
    term TEXT NOT NULL,
    episode_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    tf INTEGER NOT NULL,
    norm_length INTEGER NOT NULL,  -- the length as Lucene's norms keep it
    at TEXT NOT NULL,
    PRIMARY KEY (pair, term, episode_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS term_stats (  -- documents containing a term, over the file (idf)
    term TEXT PRIMARY KEY,
    documents INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pair_term_stats (  -- ... over one pair (the gate's term counts)
    pair TEXT NOT NULL,
    term TEXT NOT NULL,
    documents INTEGER NOT NULL,
    PRIMARY KEY (pair, term)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pair_stats (
    pair TEXT PRIMARY KEY,
    documents INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector_model (  -- one row: whose vectors the file's documents hold
    id INTEGER PRIMARY KEY CHECK (id = 1),
    model TEXT NOT NULL,  -- the embedder profile's name
    from_rowid INTEGER NOT NULL  -- documents written before it hold another model's vectors
);
CREATE TABLE IF NOT EXISTS index_stats (  -- one row: BM25's N and total length, and deletions
    id INTEGER PRIMARY KEY CHECK (id = 1),
    documents INTEGER NOT NULL,  -- documents with at least one term
    total_length INTEGER NOT NULL,
    deletions INTEGER NOT NULL,
    postings_version INTEGER NOT NULL
);
"""
POSTINGS_VERSION: Final = 1
# Vectors loaded at process start, the most recently written pairs first (ours): 200,000
# vectors of 384 floats are ~300 MB.
# The same number bounds what stays cached (ours): past it, the pairs searched least recently
# leave memory (their next search reads them again).
WARM_VECTORS: Final = 200_000  # a file written before the postings is converted once, on open

BM25_K1: Final = 1.2  # Lucene's and OpenSearch's defaults
BM25_B: Final = 0.75
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)
_WORD: Final = re.compile(r"[^\W_]+")


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


def _norm_byte(length: int) -> int:
    """The byte Lucene's norms keep a document length as (``SmallFloat.intToByte4``)."""
    return length if length < _FREE else _FREE + _int4(length - _FREE)


def _byte_length(byte: int) -> int:
    """The length a norm byte stands for (``SmallFloat.byte4ToInt``)."""
    return byte if byte < _FREE else _FREE + _from_int4(byte - _FREE)


def lucene_length(length: int) -> int:
    """A document length as Lucene's norms keep it (``SmallFloat.intToByte4`` and back)."""
    return _byte_length(_norm_byte(length))


# The length each of the 256 norm bytes stands for: BM25's length part is computed for these
# once per average length (as Lucene caches it per byte), not for every posting.
_NORM_LENGTHS: Final = np.array([_byte_length(b) for b in range(256)], dtype=np.float64)


def _length_part(avgdl: float) -> NDArray[np.float64]:
    """BM25's ``k1 * (1 - b + b * length / avgdl)`` for each norm byte, operation for operation
    as it was computed for each posting (the same doubles)."""
    part: NDArray[np.float64] = BM25_K1 * ((1 - BM25_B) + BM25_B * _NORM_LENGTHS / avgdl)
    return part


def _pair_key(pair: Pair) -> str:
    return f"{pair.student_id}#{pair.subject_id}"


def _fts_query(terms: Sequence[str]) -> str:
    """Each term as a quoted FTS5 string, ORed: no term can be read as FTS5 syntax."""
    quoted = ['"' + t.replace('"', '""') + '"' for t in dict.fromkeys(terms) if t.strip()]
    return " OR ".join(quoted)


def _words(text: str) -> list[str]:
    """The words of ``terms`` as matched: the domain's tokens, folded again (idempotent on
    analysed terms; a raw term is folded as FTS5's unicode61 would fold it)."""
    return _WORD.findall(fold(text))


@lru_cache(maxsize=4_096)
def _term_words(term: str) -> tuple[str, ...]:
    """A question term's distinct words (:func:`_words`), memoised: a pure function of the
    pair's vocabulary, which turns keep asking about (folding costs ~3 µs a term)."""
    return tuple(dict.fromkeys(_words(term)))


class _Analysis(NamedTuple):
    """A question's terms as the index reads them."""

    words: tuple[str, ...]  # the distinct words of all the terms, in the order asked
    counted: tuple[tuple[str, tuple[str, ...]], ...]  # (term, its words), sorted; no blank term


@lru_cache(maxsize=4_096)
def _analysis(terms: tuple[str, ...]) -> _Analysis:
    """The terms' words, memoised as :func:`_term_words` (a turn's terms recur)."""
    analysed = {t: _term_words(t) for t in terms}
    words = tuple(dict.fromkeys(w for ws in analysed.values() for w in ws))
    return _Analysis(words, tuple((t, ws) for t, ws in sorted(analysed.items()) if t.strip()))


def _micros(at: datetime) -> int:
    return (at - _EPOCH) // _MICROSECOND


def _micros_of(texts: Sequence[str]) -> NDArray[np.int64]:
    """``format_time`` strings as microseconds since the epoch, vectorised."""
    stamps = np.array([t[:-1] for t in texts], dtype="datetime64[us]")
    return stamps.astype(np.int64)


@dataclass
class _PairVectors:
    """One pair's vectors: per row (one per document, ordered by (time, seq)) its episode, seq,
    time and *text* — the row of ``matrix`` that holds its vector, one row per distinct vector
    (repeated texts are stored and scored once; the semantic pool counts texts, not copies).
    Arrays are sized with spare capacity for appends."""

    ids: list[str]  # episode ids, one per row (no spare capacity)
    row_of: dict[str, int]  # episode id -> row, kept as rows are appended
    seqs: NDArray[np.int64]
    ats: NDArray[np.int64]  # microseconds, sorted
    texts: NDArray[np.int32]  # each row's distinct vector (a row of ``matrix``)
    matrix: NDArray[np.float32]  # one row per distinct vector
    distinct: int  # rows of ``matrix`` in use
    keys: dict[int | bytes, int]  # see _text_key -> row of ``matrix``
    newest_ids: list[str]  # per distinct vector: its copy with the highest seq
    newest_seqs: NDArray[np.int64]  # and that seq (spare capacity as ``matrix``)
    size: int
    seen_rowid: int  # the file's highest document rowid when this was read
    deletions: int

    def rows(self) -> dict[str, int]:
        """Episode id -> row (rows are appended, never moved)."""
        return self.row_of

    def append(self, rows: list[tuple[str, int, int, bytes]], dim: int) -> bool:
        """Add rows (episode id, seq, micros, vector) that all come after the cached ones;
        False (nothing changed) when one does not, or re-indexes a cached episode."""
        rows = sorted(rows, key=lambda r: (r[2], r[1]))
        if any(r[0] in self.row_of for r in rows) or len({r[0] for r in rows}) != len(rows):
            return False
        if self.size and (rows[0][2], rows[0][1]) < (
            int(self.ats[self.size - 1]),
            int(self.seqs[self.size - 1]),
        ):
            return False
        end = self.size + len(rows)
        if end > self.seqs.shape[0]:
            capacity = max(end, self.seqs.shape[0] + self.seqs.shape[0] // 4 + 64)
            self.seqs = np.resize(self.seqs, capacity)
            self.ats = np.resize(self.ats, capacity)
            self.texts = np.resize(self.texts, capacity)
        for at, (episode_id, seq, micros, blob) in enumerate(rows, start=self.size):
            self.seqs[at], self.ats[at] = seq, micros
            self.texts[at] = self._text_of(blob, dim, episode_id, seq)
            self.row_of[episode_id] = at
        self.ids.extend(r[0] for r in rows)
        self.size = end
        return True

    def _text_of(self, blob: bytes, dim: int, episode_id: str, seq: int) -> int:
        """The distinct vector ``blob`` is, added when new; this copy its newest when its seq
        is the highest."""
        key, text = _text_key(self.keys, self.matrix, blob)
        if text is None:
            text = self.keys[key] = self.distinct
            if text >= self.matrix.shape[0]:
                capacity = max(text + 1, self.matrix.shape[0] + self.matrix.shape[0] // 4 + 64)
                self.matrix = _grown(self.matrix, capacity, dim)
            if text >= self.newest_seqs.shape[0]:
                self.newest_seqs = np.resize(self.newest_seqs, self.matrix.shape[0])
            self.matrix[text] = np.frombuffer(blob, dtype=np.float32)
            self.newest_ids.append(episode_id)
            self.newest_seqs[text] = seq
            self.distinct += 1
        elif seq > self.newest_seqs[text]:
            self.newest_ids[text], self.newest_seqs[text] = episode_id, seq
        return text

    def newest_in(self, low: int, high: int) -> tuple[NDArray[np.int32], NDArray[np.intp]]:
        """The texts with a copy among rows ``low:high`` and, for each, its copy there with the
        highest seq (a row)."""
        texts, seqs = self.texts[low:high], self.seqs[low:high]
        order = np.lexsort((seqs, texts))  # by text, then seq: each text's last is its newest
        last = np.flatnonzero(np.diff(texts.take(order), append=-1))
        rows = order.take(last) + low
        return self.texts.take(rows), rows


def _text_key(
    keys: dict[int | bytes, int], matrix: NDArray[np.float32], blob: bytes
) -> tuple[int | bytes, int | None]:
    """Where ``blob`` is kept in ``keys`` and its row of ``matrix`` (None: a new text). Keyed
    by Python's hash of the bytes, checked against the row (a third of a digest's cost, and
    the keys of a 100k pair are ints); two vectors sharing a hash go by their digest."""
    key: int | bytes = hash(blob)
    text = keys.get(key)
    if text is not None and matrix[text].tobytes() != blob:
        key = vector_key(blob)
        text = keys.get(key)
    return key, text


def _query(vector: Sequence[float] | NDArray[np.float32], dimension: int) -> NDArray[np.float32]:
    """The query vector as float32. A list of ``dimension`` floats is packed by ``struct``: a
    third of the time numpy takes to convert a list, and each double is rounded to float32 by
    the same C cast. Anything else (an array, a value beyond float32's range, which ``struct``
    refuses and numpy makes infinite) is numpy's."""
    if type(vector) is np.ndarray and vector.dtype == np.float32:  # as the embedder gives it
        return vector
    if isinstance(vector, list | tuple) and len(vector) == dimension:
        try:
            return np.frombuffer(struct.pack(f"{dimension}f", *vector), dtype=np.float32)
        except (OverflowError, TypeError, struct.error):
            pass
    return np.asarray(vector, dtype=np.float32)


def _grown(matrix: NDArray[np.float32], capacity: int, dim: int) -> NDArray[np.float32]:
    bigger = np.empty((capacity, dim), dtype=np.float32)
    bigger[: matrix.shape[0]] = matrix
    return bigger


_NO_POSITIONS: Final = np.zeros(0, dtype=np.int64)
_BITS: Final = 62  # a document's matched terms fit one int64 up to 62 terms (a sign bit spare)
_NO_TFS: Final = np.zeros(0, dtype=np.float64)
_NO_NORMS: Final = np.zeros(0, dtype=np.uint8)
_NO_DOCS: Final = np.zeros(0, dtype=np.int32)
_NO_FREQUENCIES: Final = np.zeros(0, dtype=np.float32)
# One term's postings: document positions (ascending), frequencies, the documents' norm bytes.
_Arrays = tuple[NDArray[np.int32], NDArray[np.float32], NDArray[np.uint8]]


class _Postings:
    """One term's postings in one pair: document positions (ascending), frequencies and the
    documents' norm bytes (kept beside each posting: BM25 reads them without a second gather).
    Compact (9 bytes a posting: int32 positions, float32 frequencies, exact below 2**24): the
    C loop reads them as they are, in half the memory of int64 and doubles (a question's
    postings are mostly out of the cache when it is asked); the numpy form converts them.
    New ones wait in compact arrays (no Python object per posting: a 100k history's
    half-million postings would otherwise stay scattered over the heap) until a search joins
    them."""

    __slots__ = ("n", "new_norms", "new_positions", "new_tfs", "norms", "positions", "tfs")

    def __init__(self) -> None:
        self.positions: NDArray[np.int32] = _NO_DOCS
        self.tfs: NDArray[np.float32] = _NO_FREQUENCIES
        self.norms: NDArray[np.uint8] = _NO_NORMS
        self.n = 0  # documents holding the term (an attribute: the gate's counts read it)
        self.new_positions = array("i")
        self.new_tfs = array("f")
        self.new_norms = array("B")

    def arrays(self) -> _Arrays:
        if self.new_positions:
            added = np.frombuffer(self.new_positions, dtype=np.int32)
            self.positions = np.concatenate((self.positions, added))
            self.tfs = np.concatenate((self.tfs, np.frombuffer(self.new_tfs, dtype=np.float32)))
            self.norms = np.concatenate((self.norms, np.frombuffer(self.new_norms, np.uint8)))
            self.new_positions, self.new_tfs, self.new_norms = array("i"), array("f"), array("B")
        return self.positions, self.tfs, self.norms


_NO_POSTINGS: Final = _Postings()  # a word no document of the pair holds


@dataclass
class _PairTerms:
    """One pair's lexical postings in memory, in the order the file holds its documents (any
    time order: a window is a mask). The scores are computed here with the file's statistics,
    read at search time, so they are the ones OpenSearch computes."""

    ids: list[str]  # episode ids, one per document, as in _PairVectors
    known: dict[str, int]  # episode id -> position
    seqs: NDArray[np.int64]
    ats: NDArray[np.int64]  # microseconds
    postings: dict[str, _Postings]
    size: int
    seen_rowid: int
    deletions: int
    # Per-document sums and term bits of a multi-term search, all zero between searches
    # (a search clears what it set): a fresh zeroed array per search cost more than the
    # sums themselves at 100k (its pages are faulted in anew each time: 0.8 MB of doubles).
    # Searches of one index run one at a time (its lock).
    sums: NDArray[np.float64] = field(default_factory=lambda: _NO_TFS)
    bits: NDArray[np.int64] = field(default_factory=lambda: _NO_POSITIONS)

    @classmethod
    def empty(cls, seen: int, deletions: int) -> _PairTerms:
        none = np.zeros(0, dtype=np.int64)
        return cls([], {}, none, none, {}, 0, seen, deletions)

    def append(self, rows: Sequence[tuple[str, int, str, int, str | None]]) -> bool:
        """Add documents (episode id, seq, at, length, terms); False (nothing changed) when
        one re-indexes a known episode (its old postings must go: the caller reloads)."""
        ids = [r[0] for r in rows]
        if len(set(ids)) != len(ids) or not self.known.keys().isdisjoint(ids):
            return False
        end = self.size + len(rows)
        if end > len(self.seqs):
            capacity = max(end, len(self.seqs) + len(self.seqs) // 4 + 64)
            self.seqs = np.resize(self.seqs, capacity)
            self.ats = np.resize(self.ats, capacity)
        self.seqs[self.size : end] = [r[1] for r in rows]
        self.ats[self.size : end] = _micros_of([r[2] for r in rows])
        postings = self.postings
        for position, row in enumerate(rows, start=self.size):
            norm = _norm_byte(row[3])
            for term, tf in Counter(_words(row[4] or "")).items():
                found = postings.get(term)
                if found is None:
                    found = postings[term] = _Postings()
                found.n += 1
                found.new_positions.append(position)
                found.new_tfs.append(tf)
                found.new_norms.append(norm)
        self.ids.extend(ids)
        self.known.update(zip(ids, range(self.size, end), strict=True))
        self.size = end
        return True

    def top(
        self,
        idf: dict[str, float],
        length_part: NDArray[np.float64],
        limit: int,
        window: tuple[int, int] | None,
    ) -> Hits:
        """The best ``limit`` by BM25 (ties to the higher seq), each with its matched terms;
        ``length_part`` is BM25's length part per norm byte (:func:`_length_part`)."""
        n, postings = self.size, self.postings
        used = [(t, postings[t].arrays()) for t in idf if t in postings]
        if not used or not n:
            return Hits()
        if _ranking is not None and len(used) <= _BITS:  # the C loop: same doubles, same order
            names = sorted([t for t, _ in used])
            if len(used) == 1:
                ((term, (p, tf, norms)),) = used
                terms, sums, bits = [(p, tf, norms, idf[term], 1)], _NO_TFS, _NO_POSITIONS
            else:
                bit = {term: 1 << b for b, term in enumerate(names)}
                terms = [(p, tf, norms, idf[t], bit[t]) for t, (p, tf, norms) in used]
                sums, bits = self._scratch(len(used))
            return Hits(*_ranking.lexical_top(
                terms, tuple(names), length_part, BM25_K1 + 1, self.seqs, self.ats, window,
                self.ids, limit, sums, bits,
            ))  # fmt: skip
        # The numpy form: positions as machine-sized integers (numpy converts an int32 index on
        # every gather and scatter) and frequencies as doubles (BM25 is computed in doubles).
        wide = [(t, (p.astype(np.intp), tf.astype(np.float64), nm)) for t, (p, tf, nm) in used]
        weights = []
        for term, (_positions, freq, norms) in wide:
            # Operation for operation as OpenSearch's (and the former SQL's) legacy BM25,
            # ``idf * tf * (k1 + 1) / (tf + length part)``, in place (a product or a sum
            # of two doubles is the same either way round).
            weight = np.multiply(freq, idf[term])
            weight *= BM25_K1 + 1
            denominator = length_part.take(norms)
            denominator += freq
            weight /= denominator
            weights.append(weight)
        if len(wide) == 1:  # its documents and their scores as they are (0 + w is w)
            found, scores, codes = wide[0][1][0], weights[0], None
            names = [wide[0][0]]
        else:  # summed term by term, in the question's order, as before
            # Each document's terms as bits (bit b: the b-th term in sorted order), set as the
            # scores are summed: the matched terms of any hit are then one gather (a binary
            # search per term among the chosen hits cost twice as much at 1k and 10k).
            names = sorted(term for term, _ in wide)
            bit = {term: 1 << b for b, term in enumerate(names)}
            dense, bits = self._scratch(len(names))
            try:
                positions = wide[0][1][0]
                dense[positions] = weights[0]  # 0 + w is w: the first term needs no sum
                bits[positions] = bit[wide[0][0]]
                rest = zip(wide[1:], weights[1:], strict=True)
                for (term, (positions, _tf, _norms)), weight in rest:
                    dense[positions] += weight
                    bits[positions] |= bit[term]  # a term's positions are distinct
                # Every matching document has a bit (and scores above 0: idf > 0). The mask
                # first: numpy finds the non-zero entries of a boolean array several times
                # faster than of integers (10k: 7.6 against 20.7 µs; 100k: 55 against 501).
                found = (bits[:n] != 0).nonzero()[0]
                scores = dense.take(found)
                codes = bits.take(found)
            finally:  # every document a term touched, back to zero
                for _term, (positions, _tf, _norms) in wide:
                    dense[positions] = 0
                    bits[positions] = 0
        if window is not None:
            at = self.ats.take(found)
            inside = (at >= window[0]) & (at < window[1])
            found, scores = found[inside], scores[inside]
            codes = None if codes is None else codes[inside]
        best = _best(scores, self.seqs, found, limit)
        chosen = found.take(best)
        matched = _matched(names, None if codes is None else codes.take(best), len(chosen))
        return _hits(self.ids, chosen, self.seqs, scores.take(best), matched)

    def scores_of(
        self, idf: dict[str, float], length_part: NDArray[np.float64], wanted: Sequence[str]
    ) -> dict[str, float]:
        """BM25 of these documents (those holding none of the terms left out), each summed
        term by term in the order ``top`` sums them, so a document scores here exactly what
        it scores there: recall scores every candidate by words, not only the hits."""
        if not self.size:
            return {}
        row = self.rows()
        found = [(i, row[i]) for i in dict.fromkeys(wanted) if i in row]
        if not found:
            return {}
        at = np.fromiter((r for _i, r in found), dtype=np.intp, count=len(found))
        total = np.zeros(len(found))
        for term, weight_of in idf.items():
            postings = self.postings.get(term)
            if postings is None:
                continue
            positions, tfs, norms = postings.arrays()
            where = np.searchsorted(positions, at)  # a term's positions are ascending
            inside = where < len(positions)
            inside[inside] = positions[where[inside]] == at[inside]
            chosen = where[inside]
            freq = tfs.take(chosen).astype(np.float64)
            weight = np.multiply(freq, weight_of)  # as ``top``'s numpy form, operation for op
            weight *= BM25_K1 + 1
            denominator = length_part.take(norms.take(chosen))
            denominator += freq
            weight /= denominator
            total[inside] += weight
        return {i: s for (i, _r), s in zip(found, total.tolist(), strict=True) if s > 0}

    def rows(self) -> dict[str, int]:
        """Episode id -> position (documents are appended, never moved)."""
        return self.known

    def _scratch(self, terms: int) -> tuple[NDArray[np.float64], NDArray[Any]]:
        """The zeroed sums and bits for a search of ``terms`` terms (62 fit the bits of an
        int64; a longer question's are Python ints, in arrays of its own)."""
        if terms > _BITS:
            return np.zeros(self.size), np.zeros(self.size, dtype=object)
        if len(self.sums) < self.size:
            capacity = len(self.seqs)  # the documents' capacity: grown as they are
            self.sums = np.zeros(capacity)
            self.bits = np.zeros(capacity, dtype=np.int64)
        return self.sums, self.bits


def _matched(names: list[str], codes: NDArray[Any] | None, hits: int) -> list[tuple[str, ...]]:
    """The terms each hit contains, sorted, from its ``codes`` (bit b: ``names[b]``; None:
    every hit holds the one term), one tuple per distinct set of terms."""
    if codes is None:
        return [(names[0],)] * hits
    listed: list[int] = codes.tolist()
    sets = {code: tuple(t for b, t in enumerate(names) if code >> b & 1) for code in set(listed)}
    return list(map(sets.__getitem__, listed))  # the lookups in C, not a Python loop


def _hits(
    ids: list[str],
    chosen: NDArray[np.intp],
    seqs: NDArray[np.int64],
    scores: NDArray[np.float64] | NDArray[np.float32],
    matched: list[tuple[str, ...]] | None = None,
    offset: int = 0,
) -> Hits:
    """The hits at positions ``chosen`` (of ``seqs``, and of ``ids`` from ``offset``) with
    their ``scores``, as Python lists: no numpy scalar per field, no object per hit."""
    # ``tolist``: a float32 becomes its exact double.
    at = (chosen + offset if offset else chosen).tolist()
    return Hits(list(map(ids.__getitem__, at)), seqs.take(chosen).tolist(), scores.tolist(),
                matched)  # fmt: skip


def _best(
    scores: NDArray[np.float64] | NDArray[np.float32],
    seqs: NDArray[np.int64],
    positions: NDArray[np.intp] | None,
    k: int,
) -> NDArray[np.intp]:
    """Which ``k`` of ``scores`` are best, best first (indices into ``scores``); equal scores
    go to the newer episode (the higher of ``seqs`` at the score's position in ``positions``,
    None: at its own index), exactly as a full sort would order them."""
    if len(scores) > k:
        # The k-th value alone (``partition``, not ``argpartition``: no index array), of a
        # negated copy partitioned in place: a NaN sorts last, as it does in a full sort.
        negated = -scores
        negated.partition(k - 1)
        kth = -negated[k - 1]
        # The k best and every score tied with the k-th.
        top = (scores >= kth).nonzero()[0]
    else:
        top = np.arange(len(scores))
    # ``take``, not ``[]``: the same gather, with less of numpy's indexing machinery.
    at = top if positions is None else positions.take(top)
    best: NDArray[np.intp] = top.take(np.lexsort((-seqs.take(at), -scores.take(top)))[:k])
    return best


class EmbeddedIndex:
    """:class:`tutor_memory.ports.EpisodeIndex` on SQLite and numpy."""

    def __init__(
        self, path: str | Path = ":memory:", dimension: int | None = None, model: str | None = None
    ) -> None:
        self.path = str(path)
        self.dimension = dimension
        self._from_rowid = 0  # vectors are read from documents at or past this row
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = reading_damaged_text(
            sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        )
        self._lock = threading.RLock()
        # Least recently searched first: bounded by ``cached_documents`` (see _bound).
        self._cache: OrderedDict[str, _PairVectors] = OrderedDict()
        self._terms: OrderedDict[str, _PairTerms] = OrderedDict()
        self.cached_documents = WARM_VECTORS
        # Each word's idf over the file (None: no document holds it), valid while the file's
        # state (its documents and N) is unchanged.
        self._idf_of: dict[str, float | None] = {}
        self._idf_state: tuple[int, int, int] = (-1, -1, -1)
        # BM25's length part per norm byte for the last average length (a function of it).
        self._length_part: tuple[float, NDArray[np.float64]] = (math.nan, _NORM_LENGTHS)
        with self._lock:
            if self.path != ":memory:":
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.executescript(_SCHEMA)
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(docs)")}
            if "fts_rowid" not in columns:  # a file written before the column existed
                self._conn.execute("ALTER TABLE docs ADD COLUMN fts_rowid INTEGER")
            self._build_postings()
            if model is not None:
                self._from_rowid = self._model_watermark(model)

    def _model_watermark(self, model: str) -> int:
        """The first row whose vector ``model`` wrote. Vectors of two models are never
        compared (their cosines mean nothing to each other, and their sizes may differ): when
        the embedder changes, the documents written before are read by words and recency only,
        until ``reindex`` writes them again with this model's vectors. A file written before
        the model was recorded is taken as this model's unless its vectors are of another
        size."""
        held = self._conn.execute("SELECT model, from_rowid FROM vector_model").fetchone()
        if held is not None and held[0] == model:
            start = int(held[1])
            if self._conn.execute(  # a rowid range: no scan
                "SELECT 1 FROM docs WHERE rowid < ? AND vector IS NOT NULL LIMIT 1", (start,)
            ).fetchone():
                log.warning(
                    "the search index at %s holds documents indexed before its embedder "
                    "became %s: they are found by words and recency only until each pair is "
                    "reindexed (tutor-memory reindex --student S --subject T)",
                    self.path, model,
                )  # fmt: skip
            return start
        last = self._conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM docs").fetchone()[0]
        if held is None:
            blob = self._conn.execute(
                "SELECT vector FROM docs WHERE vector IS NOT NULL LIMIT 1"
            ).fetchone()
            fits = blob is None or self.dimension is None or len(blob[0]) == 4 * self.dimension
            start, before = (0, None) if fits else (int(last) + 1, "a model of another size")
        else:
            start, before = int(last) + 1, str(held[0])
        self._conn.execute(
            "INSERT OR REPLACE INTO vector_model (id, model, from_rowid) VALUES (1, ?, ?)",
            (model, start),
        )
        if before is not None:
            log.warning(
                "the search index at %s holds vectors of %s; the embedder is now %s: the "
                "documents indexed before now are found by words and recency only until each "
                "pair is reindexed (tutor-memory reindex --student S --subject T)",
                self.path, before, model,
            )  # fmt: skip
        return start

    def close(self) -> None:
        self._conn.close()

    # --- writing ------------------------------------------------------------------------------

    def _build_postings(self) -> None:
        """Once per file: the postings and statistics of documents written before them."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            row = self._conn.execute("SELECT postings_version FROM index_stats").fetchone()
            if row is not None and row[0] >= POSTINGS_VERSION:
                self._conn.execute("COMMIT")
                return
            for table in ("postings", "term_stats", "pair_term_stats", "pair_stats"):
                self._conn.execute(f"DELETE FROM {table}")
            self._conn.execute(
                "INSERT OR REPLACE INTO index_stats VALUES (1, 0, 0, ?, ?)",
                (0 if row is None else 1, POSTINGS_VERSION),
            )
            docs = self._conn.execute(
                "SELECT d.pair, d.episode_id, d.seq, d.at, d.length, t.terms FROM docs d "
                "LEFT JOIN doc_terms t ON t.rowid = d.fts_rowid"
            ).fetchall()
            for pair, episode_id, seq, at, length, terms in docs:
                self._add_terms(pair, episode_id, seq, at, length, terms or "")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _add_terms(
        self, key: str, episode_id: str, seq: int, at: str, length: int, terms: str, sign: int = 1
    ) -> None:
        """Count a document's terms into (``sign`` 1) or out of (-1) the postings and the
        statistics."""
        counts = Counter(_words(terms))
        conn = self._conn
        if sign > 0:
            norm = lucene_length(length)
            conn.executemany(
                "INSERT OR REPLACE INTO postings VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(key, t, episode_id, seq, tf, norm, at) for t, tf in counts.items()],
            )
        else:
            conn.executemany(
                "DELETE FROM postings WHERE pair = ? AND term = ? AND episode_id = ?",
                [(key, t, episode_id) for t in counts],
            )
        conn.executemany(
            "INSERT INTO term_stats VALUES (?, ?) "
            "ON CONFLICT (term) DO UPDATE SET documents = documents + excluded.documents",
            [(t, sign) for t in counts],
        )
        conn.executemany(
            "INSERT INTO pair_term_stats VALUES (?, ?, ?) "
            "ON CONFLICT (pair, term) DO UPDATE SET documents = documents + excluded.documents",
            [(key, t, sign) for t in counts],
        )
        conn.execute(
            "INSERT INTO pair_stats VALUES (?, ?) "
            "ON CONFLICT (pair) DO UPDATE SET documents = documents + excluded.documents",
            (key, sign),
        )
        if length > 0:
            conn.execute(
                "UPDATE index_stats SET documents = documents + ?, total_length = total_length + ?",
                (sign, sign * length),
            )

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
                    self._replace(key, doc.episode_id)
                    fts_rowid = self._conn.execute(
                        "INSERT INTO doc_terms (terms, pair, episode_id) VALUES (?, ?, ?)",
                        (doc.terms, key, doc.episode_id),
                    ).lastrowid
                    at = format_time(doc.at)
                    length = len(doc.terms.split())
                    self._conn.execute(
                        _INSERT,
                        (self._from_rowid, key, doc.episode_id, doc.seq, doc.kind, at, blob,
                         length, fts_rowid),
                    )  # fmt: skip
                    self._add_terms(key, doc.episode_id, doc.seq, at, length, doc.terms)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _replace(self, key: str, episode_id: str) -> None:
        """Count a re-indexed episode's old document out: its terms by rowid (a primary-key
        lookup), or for a row written before rowids were kept, by its columns (a scan)."""
        row = self._conn.execute(
            "SELECT d.fts_rowid, d.seq, d.at, d.length, t.terms FROM docs d "
            "LEFT JOIN doc_terms t ON t.rowid = d.fts_rowid "
            "WHERE d.pair = ? AND d.episode_id = ?",
            (key, episode_id),
        ).fetchone()
        if row is None:
            return
        fts_rowid, seq, at, length, terms = row
        if fts_rowid is not None:
            self._conn.execute("DELETE FROM doc_terms WHERE rowid = ?", (fts_rowid,))
        else:
            terms = " ".join(
                r[0]
                for r in self._conn.execute(
                    "SELECT terms FROM doc_terms WHERE pair = ? AND episode_id = ?",
                    (key, episode_id),
                )
            )
            self._conn.execute(
                "DELETE FROM doc_terms WHERE pair = ? AND episode_id = ?", (key, episode_id)
            )
        self._add_terms(key, episode_id, seq, at, length, terms or "", sign=-1)

    # --- searching ----------------------------------------------------------------------------

    def search(
        self,
        pair: Pair,
        *,
        terms: Sequence[str],
        vector: Sequence[float] | NDArray[np.float32] | None,
        lexical_limit: int,
        k: int,
        window: TimeWindow | None = None,
    ) -> Found:
        key = _pair_key(pair)
        analysis = _analysis(tuple(terms))  # for the lexical pool and the counts
        lexical: Hits | None = None
        semantic: Hits | None = None
        counts: TermCounts | None = None
        pt: _PairTerms | None = None
        with self._lock:  # one read of the file's state serves both pools and the counts
            state = self._state()
            if analysis.words and lexical_limit > 0:
                idf = self._idf(analysis.words, state)
                if idf:
                    pt = self._pair_terms(key, state[0], state[1])
                    lexical = self._lexical(pt, idf, lexical_limit, window, state)
            if vector is not None:
                semantic = self._semantic(key, vector, k, window, state)
            if analysis.counted and lexical_limit > 0:  # as OpenSearch's
                if pt is None:
                    pt = self._pair_terms(key, state[0], state[1])
                counts = self._counts(pt, analysis)
        return Found(lexical if lexical is not None else Hits(),
                     semantic if semantic is not None else Hits(), counts)  # fmt: skip

    def _state(self) -> tuple[int, int, int, int]:
        """The file's highest document rowid, its deletions, BM25's N and total length: what
        tells a cached pair whether the file changed (one read, whatever the history size)."""
        row = self._conn.execute(
            "SELECT (SELECT coalesce(max(rowid), 0) FROM docs), deletions, documents, "
            "total_length FROM index_stats"
        ).fetchone()
        return int(row[0]), int(row[1]), int(row[2]), int(row[3])

    def _pair_terms(self, key: str, seen: int, deletions: int) -> _PairTerms:
        """The pair's postings in memory, brought up to date with the file."""
        cached = self._terms.get(key)
        if cached is not None and cached.deletions == deletions:
            self._terms.move_to_end(key)
            if cached.seen_rowid == seen:
                return cached
            new = self._conn.execute(
                "SELECT d.episode_id, d.seq, d.at, d.length, t.terms FROM docs d "
                "LEFT JOIN doc_terms t ON t.rowid = d.fts_rowid "
                "WHERE d.rowid > ? AND d.pair = ? ORDER BY d.rowid",
                (cached.seen_rowid, key),
            ).fetchall()
            if not new or cached.append(new):
                cached.seen_rowid = seen
                return cached
        loaded = _PairTerms.empty(seen, deletions)
        cursor = self._conn.execute(
            "SELECT d.episode_id, d.seq, d.at, d.length, t.terms FROM docs d "
            "LEFT JOIN doc_terms t ON t.rowid = d.fts_rowid WHERE d.pair = ? ORDER BY d.rowid",
            (key,),
        )
        while rows := cursor.fetchmany(4096):
            loaded.append(rows)
        self._terms[key] = loaded
        self._bound(self._terms, key)
        return loaded

    def _idf(self, words: Sequence[str], state: tuple[int, int, int, int]) -> dict[str, float]:
        """Each word's idf over the file (words no document holds are left out)."""
        seen, deletions, count, _total = state
        if self._idf_state != (seen, deletions, count):
            self._idf_of, self._idf_state = {}, (seen, deletions, count)
        known = self._idf_of
        missing = [w for w in words if w not in known]
        if missing:
            found = dict(
                self._conn.execute(
                    f"SELECT term, documents FROM term_stats WHERE term IN "
                    f"({', '.join('?' * len(missing))})",
                    missing,
                ).fetchall()
            )
            for w in missing:
                n = int(found.get(w, 0))
                known[w] = math.log(1 + (count - n + 0.5) / (n + 0.5)) if n > 0 else None
        return {w: idf for w in words if (idf := known[w]) is not None}

    def _lexical(
        self,
        pt: _PairTerms,
        idf: dict[str, float],
        limit: int,
        window: TimeWindow | None,
        state: tuple[int, int, int, int],
    ) -> Hits:
        """BM25 over the pair's postings held in memory (the C loop, or numpy), with the
        statistics of the whole file read from SQLite.

        Why not SQL: summing BM25 in one statement over the pair's matching postings made the
        index step (both pools and the term counts, CPU p50 on the perf bench) 0.57 / 2.1 /
        19.2 ms at 1k / 10k / 100k episodes; in memory it is 0.11–0.12 / 0.36–0.81 / 5.4–5.9
        ms (docs/benchmarks.md's performance table has each run beside the peer). Why not
        ``bm25s`` itself: it fixes idf and the average length when it indexes (N and the
        lengths of the whole file change with every write of any pair, and parity with
        OpenSearch is the contract), and it filters neither a time window nor ties to the
        newer episode."""
        span = None if window is None else (_micros(window.start), _micros(window.end))
        return pt.top(idf, self._length_parts(state), limit, span)

    def _length_parts(self, state: tuple[int, int, int, int]) -> NDArray[np.float64]:
        """BM25's length part per norm byte for the file's average length (N and the total
        length in ``state``), recomputed only when that average changed."""
        count, total = state[2], state[3]
        avgdl = total / count if count else 1.0
        if self._length_part[0] != avgdl:
            self._length_part = (avgdl, _length_part(avgdl))
        return self._length_part[1]

    def term_counts(self, pair: Pair, terms: Sequence[str]) -> TermCounts:
        with self._lock:
            state = self._state()
            return self._counts(self._pair_terms(_pair_key(pair), state[0], state[1]),
                                _analysis(tuple(terms)))  # fmt: skip

    @staticmethod
    def _counts(pt: _PairTerms, analysis: _Analysis) -> TermCounts:
        # A term is one word (the domain's analysed terms); a raw term of several words
        # counts as its rarest word — an upper bound on the documents holding them all.
        get, none = pt.postings.get, _NO_POSTINGS
        containing = {t: min([get(w, none).n for w in ws], default=0) for t, ws in analysis.counted}
        return TermCounts(documents=pt.size, containing=containing)

    def _vectors(self, key: str, state: tuple[int, int, int, int] | None = None) -> _PairVectors:
        """The pair's cached block, brought up to date with the file."""
        dim = self.dimension or 0
        with self._lock:
            seen, deletions, _count, _total = state or self._state()
            cached = self._cache.get(key)
            if cached is not None and cached.deletions == deletions:
                self._cache.move_to_end(key)
                if cached.seen_rowid == seen:
                    return cached
                new = self._conn.execute(
                    "SELECT episode_id, seq, at, vector FROM docs "
                    "WHERE rowid > ? AND pair = ? AND vector IS NOT NULL",
                    (max(cached.seen_rowid, self._from_rowid - 1), key),
                ).fetchall()
                ats = _micros_of([r[2] for r in new]) if new else np.zeros(0, np.int64)
                rows = [(r[0], int(r[1]), int(a), r[3]) for r, a in zip(new, ats, strict=True)]
                if not rows or cached.append(rows, dim):
                    cached.seen_rowid = seen
                    return cached
            loaded = self._load(key, seen, deletions, dim)
            self._cache[key] = loaded
            self._bound(self._cache, key)
        return loaded

    def _bound(self, cache: OrderedDict[str, _PairVectors] | OrderedDict[str, _PairTerms],
               keep: str) -> None:  # fmt: skip
        """Drop the least recently searched pairs (never ``keep``) while the cache holds more
        than ``cached_documents``: a server's memory follows its active pairs, not every pair
        it ever answered."""
        total = sum(entry.size for entry in cache.values())
        for key in list(cache):
            if total <= self.cached_documents:
                break
            if key != keep:
                total -= cache.pop(key).size

    def _load(self, key: str, seen: int, deletions: int, dim: int) -> _PairVectors:
        """The pair's block read from the file: first the rows' times (no vectors) to place
        each row in time order, then the vectors streamed into their places, each distinct
        vector stored once (no sort of the rows with their vectors in SQLite)."""
        light = self._conn.execute(
            "SELECT rowid, episode_id, seq, at FROM docs "
            "WHERE pair = ? AND vector IS NOT NULL AND rowid >= ?",
            (key, self._from_rowid),
        ).fetchall()
        n = len(light)
        seqs = np.array([r[2] for r in light], dtype=np.int64)
        ats = _micros_of([r[3] for r in light]) if n else np.zeros(0, np.int64)
        order = np.lexsort((seqs, ats))  # by time, then sequence
        place = {int(light[i][0]): position for position, i in enumerate(order.tolist())}
        texts = np.zeros(n, dtype=np.int32)
        keys: dict[int | bytes, int] = {}
        # Rows past the distinct vectors are never written: spare capacity that takes no
        # resident memory (the pages are only reserved).
        matrix = np.empty((n, dim), dtype=np.float32)
        cursor = self._conn.execute(
            "SELECT rowid, vector FROM docs WHERE pair = ? AND vector IS NOT NULL AND rowid >= ?",
            (key, self._from_rowid),
        )
        while rows := cursor.fetchmany(4096):
            for rowid, blob in rows:
                position = place.get(int(rowid))
                if position is None:
                    continue
                found, text = _text_key(keys, matrix, blob)
                if text is None:
                    text = keys[found] = len(keys)
                    matrix[text] = np.frombuffer(blob, dtype=np.float32)
                texts[position] = text
        ids = [light[i][1] for i in order.tolist()]
        pv = _PairVectors(
            ids=ids,
            row_of={episode_id: row for row, episode_id in enumerate(ids)},
            seqs=seqs[order],
            ats=ats[order],
            texts=texts,
            matrix=matrix,
            distinct=len(keys),
            keys=keys,
            newest_ids=[],
            newest_seqs=np.zeros(len(keys), dtype=np.int64),
            size=n,
            seen_rowid=seen,
            deletions=deletions,
        )
        _texts, newest = pv.newest_in(0, n)  # every text, in text order
        pv.newest_ids = [ids[r] for r in newest.tolist()]
        pv.newest_seqs = pv.seqs.take(newest)
        return pv

    def warm(self, max_vectors: int = WARM_VECTORS) -> int:
        """Load the postings and vector blocks of the pairs written to most recently, up to
        ``max_vectors`` documents in all (at process start: a pair's first turn then reads
        neither inside its deadline; at 100k documents the postings take ~1 s to load).
        Returns how many pairs were loaded."""
        with self._lock:
            pairs = self._conn.execute(
                "SELECT pair, count(*) FROM docs GROUP BY pair ORDER BY max(rowid) DESC"
            ).fetchall()
        total = loaded = 0
        for key, count in pairs:
            if total + count > max_vectors:
                break
            self._prepare(key)
            total += count
            loaded += 1
        return loaded

    def prepare(self, pair: Pair) -> None:
        """Bring the pair's postings and vectors into memory now (a turn asks before its
        deadline starts: a pair that ``warm`` left out, at 100k documents ~1 s of loading, is
        then never loaded inside its first turn's deadline). Cheap when they are loaded."""
        self._prepare(_pair_key(pair))

    def _prepare(self, key: str) -> None:
        with self._lock:
            state = self._state()
            self._pair_terms(key, state[0], state[1])
            if self.dimension:  # no embedder: the semantic pool never runs
                self._vectors(key, state)

    def _semantic(
        self,
        key: str,
        vector: Sequence[float] | NDArray[np.float32],
        k: int,
        window: TimeWindow | None,
        state: tuple[int, int, int, int],
    ) -> Hits:
        pv = self._vectors(key, state)
        if k <= 0 or not pv.size:
            return Hits()
        query = _query(vector, pv.matrix.shape[1])
        if query.shape != (pv.matrix.shape[1],):
            raise StoreError(
                f"query vector has dimension {query.shape[-1]}; the index holds "
                f"{pv.matrix.shape[1]}"
            )
        low, high = 0, pv.size
        if window is not None:  # rows are in time order: the window is a slice
            times = pv.ats[: pv.size]
            low = int(np.searchsorted(times, _micros(window.start), side="left"))
            high = int(np.searchsorted(times, _micros(window.end), side="left"))
            if high <= low:
                return Hits()
        if low == 0 and high == pv.size:  # every text, each distinct vector scored once
            scores = pv.matrix[: pv.distinct] @ query  # a view of the block, never a copy
            if pv.distinct > k:
                # More texts than k: the k nearest texts, each by its newest copy (first_texts'
                # cut: k texts leave no room for copies), ranked as texts, not as rows.
                if _ranking is not None:
                    return Hits(*_ranking.semantic_top(scores, pv.newest_seqs, pv.newest_ids,
                                                       0, k))  # fmt: skip
                chosen = _best(scores, pv.newest_seqs[: pv.distinct], None, k)
                return _hits(pv.newest_ids, chosen, pv.newest_seqs, scores.take(chosen))
            row_scores = scores.take(pv.texts[: pv.size])
        else:  # only the texts with a copy in the window (sorted), each by its newest there
            texts, newest = pv.newest_in(low, high)
            near = pv.matrix.take(texts, axis=0) @ query
            if len(texts) > k:
                chosen = _best(near, pv.seqs.take(newest), None, k)
                return _hits(pv.ids, newest.take(chosen), pv.seqs, near.take(chosen))
            row_scores = near.take(np.searchsorted(texts, pv.texts[low:high]))
        # No more texts than k: every row in the window, ranked as OpenSearch ranks documents,
        # cut by first_texts (every text, and copies while there is room).
        if _ranking is not None:
            hits = Hits(*_ranking.semantic_top(row_scores, pv.seqs, pv.ids, low, high - low))
        else:
            chosen = _best(row_scores, pv.seqs[low:high], None, high - low)
            hits = _hits(pv.ids, chosen, pv.seqs[low:high], row_scores.take(chosen), offset=low)
        row_of, of_rows = pv.row_of, pv.texts
        kept, _enough = first_texts(hits, [int(of_rows[row_of[i]]) for i in hits.episode_ids], k)
        return kept

    def cosines(
        self,
        pair: Pair,
        episode_ids: Sequence[str],
        vector: Sequence[float] | NDArray[np.float32],
    ) -> dict[str, float]:
        """The cosine of ``vector`` to each of these episodes (the stored vectors are unit
        length, as the semantic pool's dot product assumes): one gather of their rows."""
        if not self.dimension or not episode_ids:
            return {}
        pv = self._vectors(_pair_key(pair))
        if not pv.size:
            return {}
        row_of = pv.rows()
        wanted = [(i, row_of[i]) for i in dict.fromkeys(episode_ids) if i in row_of]
        if not wanted:
            return {}
        query = _query(vector, pv.matrix.shape[1])
        rows = np.fromiter((r for _i, r in wanted), dtype=np.int64, count=len(wanted))
        scores = pv.matrix.take(pv.texts.take(rows), axis=0) @ query
        return {i: float(s) for (i, _r), s in zip(wanted, scores.tolist(), strict=True)}

    def vectors(self, pair: Pair, episode_ids: Sequence[str]) -> dict[str, NDArray[np.float32]]:
        """The stored vector of each of these episodes: one gather of their texts' rows."""
        if not self.dimension or not episode_ids:
            return {}
        pv = self._vectors(_pair_key(pair))
        row_of = pv.rows()
        wanted = [(i, row_of[i]) for i in dict.fromkeys(episode_ids) if i in row_of]
        if not wanted:
            return {}
        rows = np.fromiter((r for _i, r in wanted), dtype=np.int64, count=len(wanted))
        block = pv.matrix.take(pv.texts.take(rows), axis=0)  # a copy: appends never touch it
        return dict(zip((i for i, _r in wanted), block, strict=True))

    def lexical_scores(
        self, pair: Pair, episode_ids: Sequence[str], terms: Sequence[str]
    ) -> dict[str, float]:
        """The BM25 score of ``terms`` for each of these episodes, as :meth:`search` scores
        its hits (an episode holding none of them, or not held, is left out)."""
        analysis = _analysis(tuple(terms))
        if not episode_ids or not analysis.words:
            return {}
        key = _pair_key(pair)
        with self._lock:
            state = self._state()
            idf = self._idf(analysis.words, state)
            if not idf:
                return {}
            pt = self._pair_terms(key, state[0], state[1])
            return pt.scores_of(idf, self._length_parts(state), episode_ids)

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

    def documents(self, pair: Pair) -> list[tuple[str, int, str | None, bytes]]:
        """The pair's documents that hold a vector, by sequence: (episode id, seq, analysed
        terms — None without a terms row —, the vector's float32 bytes). What the perf bench
        builds its floor and its peer (a plain script's retrieval over the same texts and
        vectors) from; not on the turn path."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT d.episode_id, d.seq, t.terms, d.vector FROM docs d "
                "LEFT JOIN doc_terms t ON t.rowid = d.fts_rowid "
                "WHERE d.pair = ? AND d.vector IS NOT NULL AND d.rowid >= ? ORDER BY d.seq",
                (_pair_key(pair), self._from_rowid),
            ).fetchall()
        return [(str(i), int(seq), terms, bytes(vector)) for i, seq, terms, vector in rows]

    def fts_top(self, pair: Pair, terms: Sequence[str], limit: int) -> list[int]:
        """FTS5's own top ``limit`` (by its BM25 rank) for any of ``terms`` in the pair, as
        bare row ids: no hit, score, matched term or count. The floor the perf bench sets
        beside the lexical pool; not on the turn path. No terms: none."""
        query = _fts_query(terms)
        if not query:
            return []
        with self._lock:
            rows = self._conn.execute(
                "SELECT rowid FROM doc_terms WHERE doc_terms MATCH ? AND pair = ? "
                "ORDER BY rank LIMIT ?",
                (query, _pair_key(pair), limit),
            ).fetchall()
        return [int(r[0]) for r in rows]

    def delete_pair(self, pair: Pair) -> int:
        key = _pair_key(pair)
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                documents, length = self._conn.execute(
                    "SELECT count(*), coalesce(sum(length), 0) FROM docs "
                    "WHERE pair = ? AND length > 0",
                    (key,),
                ).fetchone()
                self._conn.execute(
                    "UPDATE term_stats SET documents = documents - coalesce((SELECT s.documents "
                    "FROM pair_term_stats s WHERE s.pair = ? AND s.term = term_stats.term), 0)",
                    (key,),
                )
                self._conn.execute(
                    "UPDATE index_stats SET documents = documents - ?, "
                    "total_length = total_length - ?, deletions = deletions + 1",
                    (documents, length),
                )
                for table in ("postings", "pair_term_stats", "pair_stats"):
                    self._conn.execute(f"DELETE FROM {table} WHERE pair = ?", (key,))
                removed = self._conn.execute("DELETE FROM docs WHERE pair = ?", (key,)).rowcount
                self._conn.execute("DELETE FROM doc_terms WHERE pair = ?", (key,))
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._cache.pop(key, None)
            self._terms.pop(key, None)
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
                    self._replace(key, episode_id)  # its terms out of FTS5 and the postings
                    removed += self._conn.execute(
                        "DELETE FROM docs WHERE pair = ? AND episode_id = ?", (key, episode_id)
                    ).rowcount
                # Every cached block of vectors (this process's and others') reloads.
                self._conn.execute("UPDATE index_stats SET deletions = deletions + 1")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._cache.pop(key, None)
        return int(removed)

    def purge(self, *, wait: float = 0.0) -> int:
        """After a deletion, leave no trace of the deleted terms (returns 0: nothing deleted
        stays; ``wait`` is for OpenSearch's history, SQLite keeps none). FTS5 only marks a deleted
        document's terms in its segments (``doc_terms_rows`` still lists a term until a merge),
        so 'optimize' merges every segment into one without them; VACUUM rebuilds the file with
        no free page keeping an old image; the WAL is written back and truncated."""
        with self._lock:
            self._conn.execute("PRAGMA secure_delete = ON")
            # A term no document holds any more leaves the statistics too (its row would keep
            # the word itself).
            self._conn.execute("DELETE FROM term_stats WHERE documents <= 0")
            self._conn.execute("DELETE FROM pair_term_stats WHERE documents <= 0")
            self._conn.execute("INSERT INTO doc_terms (doc_terms) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("VACUUM")
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.execute("PRAGMA secure_delete = OFF")
        return 0


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(_term_words)
forgetting.lru(_analysis)
