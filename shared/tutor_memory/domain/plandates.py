"""The day a student's plan names: "my exam is on 12 May", "… on Friday", "… tomorrow".

For the profile's goals (``profile_phrases``): a calendar date (``timewords.dates_in``) wins;
without one, the first weekday or day word of the message's language, counted from the day
the message was written. What is not read, so that a goal never carries a day the student did
not mean:
- a weekday with a "next" word beside it ("next Friday", "Jumat depan": this week's or the
  following? speakers differ);
- a day word after one of the pack's ``plan_day_blockers`` ("por la mañana" is the morning);
- a weekday name that is also an everyday word unless a cue stands beside it ("minggu depan"
  is next week, "hari Minggu" Sunday);
- a weekday with a "last" word beside it ("last Friday", "el viernes pasado", "پچھلے جمعہ");
- any of them in a sentence with a past marker ("my test was on Friday"; Urdu's کل is both
  yesterday and tomorrow: "میرا امتحان کل تھا" was yesterday), or Urdu's کل before a noun that
  makes it "total" (کل نمبر, the total marks).
A weekday is the next such day after the message's ("on Friday" written on a Friday is a week
on: "today" says today).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from functools import cache

from tutor_memory.domain.language import fold, folded_tokens
from tutor_memory.domain.languages import Language, language

# the time reader's folding of a pack's words, so that both read a word alike
from tutor_memory.domain.timewords import _folded, _phrase, dates_in, weekday_at


@cache
def _day_phrases(pack: Language) -> tuple[tuple[tuple[str, ...], int], ...]:
    """The pack's day words (folded) → days ahead, longest first ("pasado mañana" before
    "mañana")."""
    table = [(_phrase(p), ahead) for ahead, said in pack.plan_days.items() for p in said]
    return tuple(sorted((t for t in table if t[0]), key=lambda t: -len(t[0])))


def plan_dates(text: str, today: date, pack: Language) -> list[date]:
    """The days ``text`` plans for, read in ``pack``'s words: its calendar dates, else the
    first weekday or day word (see the module doc); empty when it names none."""
    calendar = dates_in(text, today)
    if calendar:
        return calendar
    ahead = _days_ahead(folded_tokens(fold(text)), pack, today.weekday())
    return [] if ahead is None else [today + timedelta(days=ahead)]


def _days_ahead(words: Sequence[str], pack: Language, weekday: int) -> int | None:
    """Days from the message's day (its ``weekday``) to the first day ``words`` name."""
    blockers = _folded(pack.plan_day_blockers)
    if _folded(pack.past_markers) & set(words):
        return None  # "my test was on Friday": not a plan
    both_ways, totals = _folded(pack.both_ways_days), _folded(pack.total_nouns)
    for i in range(len(words)):
        before = words[i - 1] if i > 0 else ""
        for phrase, ahead in _day_phrases(pack):
            end = i + len(phrase)
            if tuple(words[i:end]) != phrase or before in blockers:
                continue
            if phrase[-1] in both_ways and end < len(words) and words[end] in totals:
                continue  # کل نمبر: the total marks
            return ahead
        day = weekday_at(words, i)  # "next Friday" (which?) and "minggu depan" (a week): None
        if day is not None:
            after = words[i + 1] if i + 1 < len(words) else ""
            if {before, after} & _folded(language(day[1]).last_words):
                return None  # "my exam last Friday", "el viernes pasado": a day gone by
            return (day[0] - weekday - 1) % 7 + 1
    return None
