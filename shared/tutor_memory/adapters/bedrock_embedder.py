"""The cloud embedder: Amazon Bedrock Titan Text Embeddings v2 through ``invoke_model``.

Titan has no query/passage distinction (unlike E5): both sides of the port send the text as it
is. Titan v2 has no batch form in ``invoke_model``, so each text is one call; a long run (a
replay) spreads its calls over a few threads, since the client is thread-safe and each call is
mostly waiting on the network.

The client is built on first use, never at import or construction (cold start, ARCHITECTURE
rule 4). ``ClientError`` and transport errors become :class:`EmbedderError`, naming the model and
the problem (rule 3); throttling and timeouts are retried by botocore first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final, Protocol, cast

import numpy as np
from botocore.exceptions import BotoCoreError, ClientError

from tutor_memory.adapters.bedrock_client import LazyBedrockClient
from tutor_memory.adapters.bedrock_errors import BedrockErrors
from tutor_memory.adapters.embedder_profiles import (
    TITAN_V2_MODEL_ID,
    ProgressCallback,
    embed_in_order,
    titan_v2_profile,
)
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.ports import EmbedderProfile, Vectors

__all__ = ["MAX_INPUT_CHARS", "BedrockEmbedder"]

# Titan v2 takes a non-empty text of at most 8,192 tokens or 50,000 characters (Bedrock docs);
# rejecting an over-long text here saves a round trip that can only fail. The token limit can
# only be checked by the service: its ValidationException is translated below.
MAX_INPUT_CHARS: Final = 50_000

# Retries (botocore "standard" mode: throttling and transient errors, exponential backoff with
# jitter) and timeouts; ours. A turn's whole memory block has a 2.5 s cap, so a question's
# embedding must fail fast rather than hang; a replay can pass longer ones.
DEFAULT_MAX_ATTEMPTS: Final = 3
DEFAULT_CONNECT_TIMEOUT_S: Final = 2.0
DEFAULT_READ_TIMEOUT_S: Final = 5.0
DEFAULT_MAX_CONCURRENCY: Final = 4  # calls in flight during a long run; on-demand quotas are RPM

# Bedrock's errors as EmbedderError, with what a code means for an embedding call.
_ERRORS: Final = BedrockErrors(
    EmbedderError,
    quota="requests-per-minute",
    hints={
        "ValidationException": (
            "rejected the request (a text over the 8,192-token limit is one cause)"
        ),
    },
)


class _BedrockRuntime(Protocol):
    """The one call we make (boto3's client is untyped here: no bedrock-runtime stubs)."""

    def invoke_model(self, **kwargs: Any) -> dict[str, Any]: ...


class BedrockEmbedder:
    """The :class:`~tutor_memory.ports.Embedder` of the cloud deployment.

    ``dimension`` is 256, 512 or 1024 (Titan v2's default; 512 keeps ~99% of its retrieval
    accuracy at half the index size, per AWS). Pass ``client`` to reuse one (tests pass a stubbed
    one); otherwise one is built on the first embedding, in ``region``.
    """

    def __init__(
        self,
        *,
        region: str,
        dimension: int = 1024,
        model_id: str = TITAN_V2_MODEL_ID,
        client: Any | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
        max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
    ) -> None:
        self._profile = titan_v2_profile(dimension)  # rejects any other size with a ValueError
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        self.region = region
        self.model_id = model_id
        self.max_concurrency = max_concurrency
        self._runtime = LazyBedrockClient(
            region,
            client,
            max_attempts=max_attempts,
            connect_timeout_s=connect_timeout_s,
            read_timeout_s=read_timeout_s,
        )

    @property
    def profile(self) -> EmbedderProfile:
        return self._profile

    def embed_queries(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """A student's question. Titan has no query side: the text is sent as it is."""
        return self._embed_all(texts, on_progress)

    def embed_passages(
        self, texts: Sequence[str], *, on_progress: ProgressCallback | None = None
    ) -> Vectors:
        """Stored text. Titan has no passage side: the text is sent as it is."""
        return self._embed_all(texts, on_progress)

    # --- internals ----------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Build the Bedrock client now (a container's first event), not inside a turn."""
        self._client_or_build()

    def _client_or_build(self) -> _BedrockRuntime:
        return cast(_BedrockRuntime, self._runtime.get())

    def _embed_all(self, texts: Sequence[str], on_progress: ProgressCallback | None) -> Vectors:
        if isinstance(texts, str):  # a bare string would be embedded one character at a time
            raise TypeError("pass a list of texts, not a single string")
        items = list(texts)
        for position, text in enumerate(items):
            self._check_input(position, text)
        out = np.empty((len(items), self._profile.dimension), dtype=np.float32)
        if not items:
            return out
        client = self._client_or_build()
        return embed_in_order(
            items,
            lambda text: self._embed_one(client, text).reshape(1, -1),
            out,
            concurrency=self.max_concurrency,
            on_progress=on_progress,
        )

    def _check_input(self, position: int, text: str) -> None:
        if not text.strip():
            raise EmbedderError(
                self.model_id, f"text {position} is empty; Titan only embeds non-empty text"
            )
        if len(text) > MAX_INPUT_CHARS:
            raise EmbedderError(
                self.model_id,
                f"text {position} has {len(text)} characters; Titan v2 takes at most "
                f"{MAX_INPUT_CHARS}",
            )

    def _embed_one(self, client: _BedrockRuntime, text: str) -> Vectors:
        body = json.dumps(
            {"inputText": text, "dimensions": self._profile.dimension, "normalize": True}
        )
        try:
            response = client.invoke_model(
                modelId=self.model_id,
                body=body,
                contentType="application/json",
                accept="application/json",
            )
            raw = response["body"].read()
        except (ClientError, BotoCoreError) as exc:
            raise _ERRORS.translate(exc, model=self.model_id, region=self.region) from exc
        return self._parse(raw)

    def _parse(self, raw: bytes) -> Vectors:
        try:
            embedding = json.loads(raw)["embedding"]
            vector = np.asarray(embedding, dtype=np.float32)
        except (ValueError, TypeError, KeyError) as exc:
            raise EmbedderError(
                self.model_id, f"the response carries no usable 'embedding' ({exc})"
            ) from exc
        if vector.shape != (self._profile.dimension,):
            raise EmbedderError(
                self.model_id,
                f"returned an embedding of {vector.size} numbers, expected "
                f"{self._profile.dimension}",
            )
        norm = float(np.linalg.norm(vector))
        if not np.isfinite(norm) or norm == 0.0:
            raise EmbedderError(self.model_id, "returned an empty or invalid embedding")
        # Titan normalises when asked; re-normalising guards the port's promise (unit rows).
        result: Vectors = (vector / norm).astype(np.float32, copy=False)
        return result
