"""Embedders for benchmarks: a cache over the real one, and a stand-in that costs nothing.

``CachedEmbedder`` embeds each distinct text once per run. Students repeat themselves and the
tutor quotes the same definitions, so a history of thousands of episodes has a few hundred
distinct texts; the vectors are the real model's, only computed once. The performance bench
also uses it to give its 100k-episode histories real vectors in minutes instead of an hour.

``HashEmbedder`` makes a deterministic unit vector from a text's hash: no meaning at all. It
is used only where what is measured is the shape of the requests (the cloud path's request
count and bytes: a Titan-sized 1024-float vector in every k-NN query), never for quality.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

import numpy as np

from tutor_memory.ports import Embedder, EmbedderProfile, Vectors

WARM_BATCH: Final = 128  # ours: texts per engine call when warming


class CachedEmbedder:
    def __init__(self, inner: Embedder, path: Path | None = None) -> None:
        self.inner = inner
        self._passages: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}
        # Optionally kept on disk between runs (the recall bench: the same texts each run),
        # keyed by the model's profile, the side (passage or query) and the text.
        self._disk: sqlite3.Connection | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._disk = sqlite3.connect(path)
            self._disk.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT, side TEXT, text TEXT, "
                "vector BLOB, PRIMARY KEY (model, side, text))"
            )
            model = self.profile.name
            for side, cache in (("passage", self._passages), ("query", self._queries)):
                for text, blob in self._disk.execute(
                    "SELECT text, vector FROM vectors WHERE model = ? AND side = ?", (model, side)
                ):
                    cache[text] = np.frombuffer(blob, dtype=np.float32)
        self.embedded = 0  # texts the inner model actually embedded
        # False: every question goes to the model (the perf bench measures that cost)
        self.cache_queries = True

    @property
    def profile(self) -> EmbedderProfile:
        return self.inner.profile

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._lookup(texts, self._passages, self.inner.embed_passages)

    def warm_up(self) -> None:
        warm_up = getattr(self.inner, "warm_up", None)
        if callable(warm_up):
            warm_up()

    def warm(
        self,
        passages: Sequence[str] = (),
        queries: Sequence[str] = (),
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """Embed these texts now, in large batches: the engine embeds ~22 passages/s in a
        batch of 100 but ~6/s in batches of 8, and a replay flushes small batches.
        ``progress(done, total)`` hears of the passages after each batch."""
        for start in range(0, len(passages), WARM_BATCH):
            self.embed_passages(passages[start : start + WARM_BATCH])
            if progress is not None:
                progress(min(start + WARM_BATCH, len(passages)), len(passages))
        for start in range(0, len(queries), WARM_BATCH):
            self.embed_queries(queries[start : start + WARM_BATCH])

    def keep(self, passages: Mapping[str, np.ndarray]) -> None:
        """Take these passages' vectors as given (never embedded here: the perf bench's
        distinct histories derive theirs from an embedded template, ``bench.distinct``)."""
        for text, row in passages.items():
            self._passages[text] = np.asarray(row, dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        if not self.cache_queries:
            return self.inner.embed_queries(texts)
        return self._lookup(texts, self._queries, self.inner.embed_queries)

    def _lookup(
        self,
        texts: Sequence[str],
        cache: dict[str, np.ndarray],
        embed: Callable[[Sequence[str]], Vectors],
    ) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            rows = [np.asarray(row, dtype=np.float32) for row in embed(missing)]
            for text, row in zip(missing, rows, strict=True):
                cache[text] = row
            self.embedded += len(missing)
            if self._disk is not None:
                side = "passage" if cache is self._passages else "query"
                with self._disk:
                    self._disk.executemany(
                        "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                        [
                            (self.profile.name, side, t, r.tobytes())
                            for t, r in zip(missing, rows, strict=True)
                        ],
                    )
        dimension = self.profile.dimension
        if not texts:
            return np.zeros((0, dimension), dtype=np.float32)
        return np.stack([cache[t] for t in texts]).astype(np.float32)


class HashEmbedder:
    """A meaningless but deterministic embedder of any dimension (request shapes only)."""

    def __init__(self, dimension: int = 1024) -> None:
        self._profile = EmbedderProfile("hash", dimension, concept_merge_threshold=1.01)

    @property
    def profile(self) -> EmbedderProfile:
        return self._profile

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts)

    def _embed(self, texts: Sequence[str]) -> Vectors:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
            row = np.random.default_rng(seed).standard_normal(self._profile.dimension)
            rows.append(row / np.linalg.norm(row))
        if not rows:
            return np.zeros((0, self._profile.dimension), dtype=np.float32)
        return np.asarray(rows, dtype=np.float32)
