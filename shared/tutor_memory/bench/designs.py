"""Four designs of the same tutor that differ only in what reaches the memory block (SPEC §12).

* ``plain`` — no memory: the block is empty.
* ``window`` — the last 20 turns (episodes) before the question, oldest first, whatever they
  are: no relevance, no time filter, no collapse.
* ``episodes`` — ranked recall over the log only (the real recall: four pools, gate, collapse,
  time windows), shown as earlier work; no map, no beliefs, no record-question handling (no
  record line, no reordering, narrations not excluded for record questions).
* ``full`` — the real turn block (``Turns.turn``).

The non-full blocks are written with the full block's own pieces (header, the earlier-work
line format, the no-record line, HOW TO USE, the footer) and fitted to the same token budget,
so the scorers see the same wording for the same memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo

from tutor_memory.bootstrap import App
from tutor_memory.domain.block import (
    FOOTER,
    HEADER,
    HOW_TO_USE,
    NOTHING_MATCHED_LINE,
    WORK_HEADER,
    empty_window_line,
    work_line,
)
from tutor_memory.domain.episodes import Episode, Pair
from tutor_memory.domain.question import EPOCH
from tutor_memory.domain.recall import Mode, RecalledItem
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.tokens import count_tokens

DESIGNS: Final = ("plain", "window", "episodes", "full")
WINDOW_TURNS: Final = 20  # article: "the last 20 turns"


@dataclass(frozen=True)
class DesignBlock:
    text: str
    memory_ids: tuple[str, ...]  # every episode the shown lines stand for


def run_design(design: str, app: App, pair: Pair, question: str, at: datetime) -> DesignBlock:
    if design == "plain":
        return DesignBlock("", ())
    if design == "window":
        return _window(app, pair, at)
    if design == "episodes":
        return _episodes(app, pair, question, at)
    if design == "full":
        turn = app.turns.turn(pair, question, at=at)
        return DesignBlock(turn.block, turn.memory_ids)
    raise ValueError(f"unknown design {design!r}; expected one of {', '.join(DESIGNS)}")


def _window(app: App, pair: Pair, at: datetime) -> DesignBlock:
    upto = TimeWindow(EPOCH, at + timedelta(microseconds=1))
    newest_first = app.ports.store.recent(pair, WINDOW_TURNS, upto)
    items = [_as_item(e) for e in newest_first]  # the newest are kept first when cutting
    return render_work(items, now=at, budget=app.turns.budget_tokens, tz=_tz(app))


def _episodes(app: App, pair: Pair, question: str, at: datetime) -> DesignBlock:
    recall = app.memory.recall(pair, question, at=at)
    if recall.window_empty:
        return render_work(
            [],
            now=at,
            budget=app.turns.budget_tokens,
            tz=_tz(app),
            no_record_line=empty_window_line(recall.window),
        )
    by_score = sorted(
        recall.items, key=lambda i: (i.score, i.episode.at, i.episode.seq), reverse=True
    )
    return render_work(
        by_score,
        now=at,
        budget=app.turns.budget_tokens,
        tz=_tz(app),
        nothing_matched=recall.mode is Mode.NOTHING_MATCHED,
    )


def _tz(app: App) -> ZoneInfo:
    return ZoneInfo(app.ports.timezone)


def _as_item(e: Episode) -> RecalledItem:
    return RecalledItem(e, 0.0, ("recent",), 1, e.at, e.at, (e.episode_id,))


def render_work(
    items: Sequence[RecalledItem],
    *,
    now: datetime,
    budget: int,
    tz: ZoneInfo,
    no_record_line: str | None = None,
    nothing_matched: bool = False,
) -> DesignBlock:
    """Header, [no-record line], earlier work (``items`` in priority order, cut from the end
    to fit ``budget``, shown oldest first), HOW TO USE, footer."""
    top = [HEADER] + ([no_record_line] if no_record_line else [])
    bottom = [HOW_TO_USE, FOOTER]
    head = [] if no_record_line else [WORK_HEADER]
    if nothing_matched and items:
        head.append(NOTHING_MATCHED_LINE)
    lines = [work_line(i, now=now, tz=tz) for i in items]
    shown = len(lines)
    while shown and count_tokens("\n".join([*top, *head, *lines[:shown], *bottom])) > budget:
        shown -= 1
    kept = sorted(range(shown), key=lambda k: (items[k].first_at, items[k].episode.seq))
    body = [lines[k] for k in kept]
    text = "\n".join([*top, *(head if body else []), *body, *bottom])
    ids = [i for k in kept for i in items[k].collapsed_ids]
    return DesignBlock(text, tuple(dict.fromkeys(ids)))
