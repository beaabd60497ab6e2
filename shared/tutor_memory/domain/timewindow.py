"""A span of time that recall runs inside ("what did we cover in July?")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class TimeWindow:
    """Half-open ``[start, end)``, both timezone-aware (UTC once built), with a human label."""

    start: datetime
    end: datetime
    label: str = ""
    phrase: tuple[str, ...] = ()  # the folded words of the question that named this time
    # "since", "after", "before" or "until" when the question named an open interval ("since
    # March 2026"); the label then starts with that word.
    bound: str = ""

    def __contains__(self, at: object) -> bool:
        return isinstance(at, datetime) and self.start <= at < self.end
