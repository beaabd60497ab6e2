"""Domain errors. The API maps each of these to one HTTP status in one place."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import ClassVar, TypeVar

T = TypeVar("T")


class TutorMemoryError(Exception):
    """Base class of every error the domain raises on purpose."""


class ValidationError(TutorMemoryError, ValueError):
    """Bad input. Names the offending field; nothing has been written."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class NotTeachingError(ValidationError):
    """A ``taught`` message that is no instruction to remember, and carries no note."""

    def __init__(self) -> None:
        super().__init__("text", 'is not an instruction to remember (say "remember that …")')


class NotFoundError(TutorMemoryError, LookupError):
    """A pair, episode or file that does not exist."""


class NotAuthenticatedError(TutorMemoryError):
    """No credentials, or credentials the memory does not know (a revoked key, a bad token)."""


class IdentityProviderError(TutorMemoryError):
    """An identity provider's keys could not be fetched to verify a token: the token may be
    good; try again later (a 503, never a 401)."""


class ForbiddenError(TutorMemoryError, PermissionError):
    """A known caller asking for what their role does not allow (another student's record, an
    erasure by a teacher). Another tenant's data is never this: it answers as not found."""


class ConflictError(TutorMemoryError):
    """A write that contradicts what is stored (e.g. a sequence already taken)."""


class IdempotencyConflictError(ConflictError):
    """An Idempotency-Key already used for a different request: nothing was written."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(
            f"the Idempotency-Key {key!r} was already used for a different request; "
            "nothing was written (use a new key for a new request)"
        )


class ErasedError(TutorMemoryError):
    """A retry of a write whose episode has been erased since (the same Idempotency-Key): the
    erased text is not written again, and nothing is written."""

    def __init__(self, erased_at: datetime | None, *, detail: str | None = None) -> None:
        self.erased_at = erased_at  # None: only ``detail`` says when (the remote client's)
        if detail is None:
            when = (
                "" if erased_at is None
                else " at " + erased_at.astimezone(UTC).isoformat(timespec="seconds")
            ).replace("+00:00", "Z")  # fmt: skip
            detail = (
                f"the episode this Idempotency-Key wrote was erased{when}; nothing was written "
                "(an erased write is never written again; use a new key for new content)"
            )
        super().__init__(detail)


class ContentionError(ConflictError):
    """Too many concurrent writers on one chain; the append was not written. Safe to retry."""


class StoreError(TutorMemoryError):
    """The backing store failed (transport, throttling, schema). Nothing half-written."""


class CorruptRowError(StoreError):
    """A stored row that no longer parses as an episode (e.g. edited evidence)."""

    def __init__(self, seq: int, problem: str) -> None:
        self.seq = seq
        super().__init__(f"episode {seq} no longer parses: {problem}")


class ModelCallError(TutorMemoryError):
    """A model (embedding, concept extraction) could not answer usefully: not installed,
    denied, throttled, not ready, or it answered something unusable. Names the model and the
    problem. ``retryable`` is True when the same call may succeed later (throttling, timeouts,
    a service or model hiccup), False when something must change first (a missing package,
    access, the request, the model id)."""

    # How the message names the model: "<role> <model id>: <problem>".
    role: ClassVar[str] = "model"

    def __init__(self, model: str, problem: str, *, retryable: bool = False) -> None:
        self.model = model
        self.problem = problem
        self.retryable = retryable
        super().__init__(f"{self.role} {model}: {problem}")


class EmbedderError(ModelCallError):
    """The embedding model could not embed: the offline model (not installed, failed to load)
    or Bedrock Titan (denied, throttled, an unusable answer, an input it cannot take)."""

    role = "embedding model"


class ExtractorError(ModelCallError):
    """The model could not read a file into concepts: denied, throttled, not ready, or it
    answered without the tool (retryable when the answer was malformed)."""

    role = "concept extractor"


def retry_on_conflict(attempt: Callable[[], T], *, attempts: int, gave_up: str) -> T:
    """The optimistic read → change → conditional write: ``attempt`` reads what it changes and
    writes it on condition that it is still as read; a :class:`ConflictError` (a concurrent
    writer got there first) runs it again on what is stored now. After ``attempts`` conflicts,
    ``ConflictError(gave_up)``: nothing of this change was written."""
    for _attempt in range(attempts):
        try:
            return attempt()
        except ConflictError:
            continue
    raise ConflictError(gave_up)
