"""What the turn reads of one pair and that only grows on append, kept between turns.

A turn reads the pair's 500 newest episodes, the newest links of each routed concept and the
episodes the index named; at 10,000 episodes those reads were ~6 ms of a 19 ms turn, nearly
all of it SQLite handing back rows this process had read the turn before. The log is
append-only: until an erasure, an episode never changes and a new one only comes after the
head. So the store keeps, per pair, the last answers and the sequence they were read at, and
before each use reads the chain head (one indexed row): an erasure (its digest moved) or a
history that shrank starts the view afresh; new episodes are read after the kept sequence
and merged in. Another process's writes are seen the same way, so a kept answer is never
staler than the head read with it.

Kept answers are exact only where a window holds every episode of the pair (the turn's
``[EPOCH, now]``); a question about a named time takes the store's SQL as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from tutor_memory.domain.episodes import Episode
from tutor_memory.domain.timewindow import TimeWindow


@dataclass
class Newest:
    """The newest episodes (``at`` then ``seq``, newest first) up to ``limit``, as read when
    the pair's log ended at ``through``."""

    episodes: list[Episode]
    through: int


@dataclass
class Links:
    """A concept's newest linked sequences (newest first) up to a cut, as of ``through``."""

    seqs: list[int]
    through: int


@dataclass
class PairView:
    """One pair's kept answers, valid while the head's erasure digest is ``erasure``.

    ``seq``: every episode up to it is inside ``first_at``/``last_at`` (the earliest and latest
    ``at`` of the pair). ``ordered`` is False when a row's time is not in the canonical form
    (a row written before years were padded sorts differently as text than as a time): then
    nothing kept is used."""

    erasure: str | None
    seq: int
    first_at: datetime | None
    last_at: datetime | None
    ordered: bool = True
    newest: dict[int, Newest] = field(default_factory=dict)
    links: dict[tuple[str, int], Links] = field(default_factory=dict)

    def stale(self, seq: int, erasure: str | None) -> bool:
        """The head says an erasure happened or the history is not the one kept."""
        return erasure != self.erasure or seq < self.seq

    def widened(
        self, seq: int, first: datetime | None, last: datetime | None, *, ordered: bool
    ) -> PairView:
        """The view once the episodes up to ``seq`` are in, with their times' span (and
        whether their latest time was in the canonical form)."""
        return PairView(
            self.erasure,
            max(seq, self.seq),
            _earliest(self.first_at, first),
            _latest(self.last_at, last),
            self.ordered and ordered,
            self.newest,
            self.links,
        )

    def after(self, window: TimeWindow | None) -> bool:
        """Every episode of the pair is before the window's end: the newest inside it are the
        newest overall from its start on (as the store orders them)."""
        if not self.ordered:
            return False
        return window is None or self.last_at is None or window.end > self.last_at

    def holds(self, window: TimeWindow | None) -> bool:
        """The window holds every episode of the pair."""
        if window is None:
            return self.ordered
        first_ok = self.first_at is None or window.start <= self.first_at
        return self.after(window) and first_ok


def merge_newest(kept: Sequence[Episode], new: Iterable[Episode], limit: int) -> list[Episode]:
    """``kept`` with ``new`` merged in, newest first (``at``, then ``seq``), cut at ``limit``;
    an episode in both (read twice across a concurrent append) counts once."""
    by_seq = {e.seq: e for e in kept}
    for e in new:
        by_seq[e.seq] = e
    return sorted(by_seq.values(), key=lambda e: (e.at, e.seq), reverse=True)[:limit]


def merge_links(kept: Sequence[int], new: Iterable[int], limit: int) -> list[int]:
    """A concept's newest sequences with the new ones in, newest first, cut at ``limit``."""
    return sorted(set(kept).union(new), reverse=True)[:limit]


def from_start(episodes: Sequence[Episode], window: TimeWindow | None) -> list[Episode]:
    """The newest-first ``episodes`` at or after the window's start (the end is past them)."""
    if window is None:
        return list(episodes)
    start = window.start
    return [e for e in episodes if e.at >= start]


def _earliest(a: datetime | None, b: datetime | None) -> datetime | None:
    return b if a is None else a if b is None else min(a, b)


def _latest(a: datetime | None, b: datetime | None) -> datetime | None:
    return b if a is None else a if b is None else max(a, b)
