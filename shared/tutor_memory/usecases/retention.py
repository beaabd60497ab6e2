"""The retention period (``TUTOR_MEMORY_RETENTION_DAYS``, off by default): at night, the bodies
of episodes older than the period are erased; the envelopes stay, each with an erasure record
whose reason is :data:`~tutor_memory.domain.constants.ERASURE_REASON_RETENTION` and whose
scope is ``retention``.

The cutoff is the end of the night's day (in the students' time zone) minus the period, so a
night run again erases the same. Which pairs: those active during the
:data:`~tutor_memory.domain.constants.RETENTION_SWEEP_DAYS` days before the cutoff (read from
the activity index, as the nightly's own pairs are), so every day is swept as it crosses the
cutoff, and a few missed nights are caught up. A pair's sweep erases everything of it before the
cutoff (``Erasing.erase_older_than``; ``App.retain`` and ``App.retain_all`` run it); a pair
whose last activity had already crossed the cutoff when retention was turned on is not swept
(erase it, or a student, by hand).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.nightly import day_window
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import NightlyStore


def cutoff(day: date, days: int, timezone: str) -> datetime:
    """Bodies dated before this are past the period, on the night of ``day``."""
    return day_window(day, ZoneInfo(timezone)).end - timedelta(days=days)


def pairs_to_sweep(store: NightlyStore, day: date, days: int, timezone: str) -> list[Pair]:
    """The pairs active during the sweep's days before the cutoff."""
    end = cutoff(day, days, timezone)
    return store.active_pairs(TimeWindow(end - timedelta(days=C.RETENTION_SWEEP_DAYS), end))
