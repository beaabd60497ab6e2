"""Tutor Memory: a long-term memory of one student in one subject for an AI tutor.

The library door (``tutor_memory.library``)::

    from tutor_memory import Memory

    alice = Memory.local("./tutor-memory").pair("alice", "biology")

Imported on first use, so that importing a submodule (a Lambda handler's routes) stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor_memory.api.models import EpisodeRequest
    from tutor_memory.domain.errors import (
        ConflictError,
        ErasedError,
        ForbiddenError,
        NotAuthenticatedError,
        NotFoundError,
        TutorMemoryError,
        ValidationError,
    )
    from tutor_memory.library import (
        AsyncMemory,
        AsyncPairMemory,
        Caller,
        Memory,
        NotServedError,
        PairMemory,
        Role,
    )

# Where each name lives: the library door, the errors both doors raise (the README names
# them), and the one episode shape ``record`` takes.
_HOMES = {
    **dict.fromkeys(
        (
            "AsyncMemory",
            "AsyncPairMemory",
            "Caller",
            "Memory",
            "NotServedError",
            "PairMemory",
            "Role",
        ),
        "tutor_memory.library",
    ),
    **dict.fromkeys(
        (
            "ConflictError",
            "ErasedError",
            "ForbiddenError",
            "NotAuthenticatedError",
            "NotFoundError",
            "TutorMemoryError",
            "ValidationError",
        ),
        "tutor_memory.domain.errors",
    ),
    "EpisodeRequest": "tutor_memory.api.models",
}
__all__ = [
    "AsyncMemory",
    "AsyncPairMemory",
    "Caller",
    "ConflictError",
    "EpisodeRequest",
    "ErasedError",
    "ForbiddenError",
    "Memory",
    "NotAuthenticatedError",
    "NotFoundError",
    "NotServedError",
    "PairMemory",
    "Role",
    "TutorMemoryError",
    "ValidationError",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'tutor_memory' has no attribute {name!r}")
