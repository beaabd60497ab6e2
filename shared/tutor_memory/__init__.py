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
    from tutor_memory.library import (
        AsyncMemory,
        AsyncPairMemory,
        Caller,
        Memory,
        NotServedError,
        PairMemory,
        Role,
    )

__all__ = [
    "AsyncMemory",
    "AsyncPairMemory",
    "Caller",
    "Memory",
    "NotServedError",
    "PairMemory",
    "Role",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("tutor_memory.library"), name)
    raise AttributeError(f"module 'tutor_memory' has no attribute {name!r}")
