"""Botocore errors from a Bedrock call, as the domain's :class:`ModelCallError` (ARCHITECTURE
rule 3), written once for every Bedrock adapter.

What differs between adapters is data, held by each adapter's :class:`BedrockErrors`: the error
class to raise (``EmbedderError``, ``ExtractorError``), the quota a throttled caller should
raise, hints for codes whose cause depends on the call (a ``ValidationException`` is an
over-long text to the embedder, a model without forced tool use to the extractor), and codes it
may retry beyond the common ones. Throttling and timeouts have been retried by botocore before
any of this is reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Generic, TypeVar

from botocore.exceptions import BotoCoreError, ClientError, HTTPClientError, NoCredentialsError
from botocore.exceptions import ConnectionError as BotoConnectionError

from tutor_memory.domain.errors import ModelCallError

__all__ = ["RETRYABLE_CODES", "BedrockErrors"]

E = TypeVar("E", bound=ModelCallError)

_THROTTLING_CODES: Final = frozenset({"ThrottlingException", "ServiceQuotaExceededException"})

# Error codes worth retrying later (the call itself was fine).
RETRYABLE_CODES: Final = _THROTTLING_CODES | {
    "ModelTimeoutException",
    "ModelNotReadyException",
    "ServiceUnavailableException",
    "InternalServerException",
}


@dataclass(frozen=True)
class BedrockErrors(Generic[E]):
    """How one adapter's botocore errors become its domain error.

    ``quota`` names the quota to raise when throttled ("requests-per-minute"); ``hints`` maps
    an error code to the problem it means for this adapter, ahead of the common wording;
    ``also_retryable`` adds codes this adapter may retry to :data:`RETRYABLE_CODES`.
    """

    error: type[E]
    quota: str
    hints: Mapping[str, str] = field(default_factory=dict)
    also_retryable: frozenset[str] = frozenset()

    def translate(self, exc: ClientError | BotoCoreError, *, model: str, region: str) -> E:
        """``exc`` as the adapter's error, naming ``model`` and the problem, saying what to do."""
        if isinstance(exc, ClientError):
            return self._from_client_error(exc, model, region)
        return self._from_transport_error(exc, model, region)

    def _from_client_error(self, exc: ClientError, model: str, region: str) -> E:
        details = exc.response.get("Error", {})
        code = str(details.get("Code", "Unknown"))
        message = str(details.get("Message", "")).strip()
        detail = f" ({code}: {message})" if message else f" ({code})"
        retryable = code in RETRYABLE_CODES or code in self.also_retryable
        if code in self.hints:
            problem = self.hints[code]
        elif code in _THROTTLING_CODES:
            problem = f"throttled by Bedrock; retry later or raise the {self.quota} quota"
        elif code == "AccessDeniedException":
            problem = (
                f"access denied; enable access to the model in the Bedrock console for "
                f"{region} and allow bedrock:InvokeModel on it"
            )
        elif code == "ResourceNotFoundException":
            problem = f"not found in {region}; check the model id and the region"
        elif retryable:
            problem = "temporarily unavailable; retry later"
        else:
            problem = "the call failed"
        return self.error(model, problem + detail, retryable=retryable)

    def _from_transport_error(self, exc: BotoCoreError, model: str, region: str) -> E:
        if isinstance(exc, NoCredentialsError):
            return self.error(model, "no AWS credentials were found")
        # Could not connect, or the connection timed out or dropped: worth retrying later.
        if isinstance(exc, BotoConnectionError | HTTPClientError):
            return self.error(model, f"Bedrock did not answer in {region}: {exc}", retryable=True)
        return self.error(model, f"the call failed: {exc}")
