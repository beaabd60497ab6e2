"""The ports: what the domain and the use cases need from the outside world.

Adapters implement these Protocols (``adapters/``); tests inject fakes or the embedded default.
Every store method is scoped to one pair: no read ever returns another pair's rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import ChainHead
from tutor_memory.domain.episodes import Episode, NewEpisode, Pair
from tutor_memory.domain.files import FileRecord


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock for tests and replays: it says what it is told."""

    at: datetime

    def now(self) -> datetime:
        return self.at


@dataclass(frozen=True)
class AppendResult:
    episode: Episode
    created: bool  # False when the idempotency key had already been used: nothing was written


class EpisodeStore(Protocol):
    """The append-only episode log, its chain heads, annotations and the file registry."""

    def append(self, new: NewEpisode) -> AppendResult:
        """Seal and write atomically: concurrent appends never fork a chain or lose an episode."""
        ...

    def get(self, pair: Pair, episode_id: str) -> Episode | None: ...

    def episodes(
        self, pair: Pair, *, after_seq: int = 0, limit: int | None = None
    ) -> list[Episode]:
        """Oldest first, from ``after_seq + 1``."""
        ...

    def iter_episodes(self, pair: Pair, *, page_size: int = 500) -> Iterator[Episode]:
        """The whole chain, oldest first, in pages (for verification and replays)."""
        ...

    def recent(self, pair: Pair, limit: int) -> list[Episode]:
        """Newest first."""
        ...

    def head(self, pair: Pair) -> ChainHead | None: ...

    def annotate(self, annotation: Annotation) -> None: ...

    def annotations(self, pair: Pair, episode_id: str) -> list[Annotation]:
        """Oldest first."""
        ...

    def register_file(
        self, pair: Pair, file_id: str, name: str, fingerprint: str, at: datetime
    ) -> tuple[FileRecord, bool]:
        """Add a version unless the current one has this fingerprint; True when one was added."""
        ...

    def remove_file(self, pair: Pair, file_id: str, at: datetime) -> FileRecord: ...

    def file(self, pair: Pair, file_id: str) -> FileRecord | None: ...

    def files(self, pair: Pair) -> list[FileRecord]: ...
