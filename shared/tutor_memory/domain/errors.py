"""Domain errors. The API maps each of these to one HTTP status in one place."""

from __future__ import annotations


class TutorMemoryError(Exception):
    """Base class of every error the domain raises on purpose."""


class ValidationError(TutorMemoryError, ValueError):
    """Bad input. Names the offending field; nothing has been written."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class NotFoundError(TutorMemoryError, LookupError):
    """A pair, episode or file that does not exist."""


class ConflictError(TutorMemoryError):
    """A write that contradicts what is stored (e.g. a sequence already taken)."""


class ContentionError(ConflictError):
    """Too many concurrent writers on one chain; the append was not written. Safe to retry."""


class StoreError(TutorMemoryError):
    """The backing store failed (transport, throttling, schema). Nothing half-written."""
