"""The file registry: which files a pair has, their versions (by fingerprint), and removals.

Answers cite a file by id and stamp the fingerprint they saw; verification (SPEC §9) compares
that stamp with the registry, so versions are kept, never overwritten.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from tutor_memory.domain.episodes import Pair


def fingerprint(data: bytes) -> str:
    """sha256 of a file's bytes, lowercase hex."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileVersion:
    version: int  # 1, 2, … in registration order
    fingerprint: str
    at: datetime


@dataclass(frozen=True)
class FileRecord:
    pair: Pair
    file_id: str
    name: str
    versions: tuple[FileVersion, ...]
    removed_at: datetime | None = None

    @property
    def current(self) -> FileVersion:
        return self.versions[-1]

    @property
    def removed(self) -> bool:
        return self.removed_at is not None
