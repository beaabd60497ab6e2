"""Time windows named in a question: "what did we cover in July?", "¿qué vimos ayer?".

``find_window`` reads month names (from Babel's CLDR data, in en, es, id, ur, ar and the
Levantine/Iraqi Arabic calendar) and relative phrases (``wordlists.RELATIVE_PHRASES``) and
returns the window the question names, or None. Deterministic: ``now`` is injected.

Decisions:
- Windows are whole local calendar days in the student's time zone, returned in UTC,
  half-open. "This week", "this month" and "today" run to the end of the period; the part
  after ``now`` is in the future and holds no episodes.
- Weeks start on Monday (ISO 8601; CLDR's first day for en-US is Sunday, but the five
  languages' school calendars mostly count Monday–Sunday, and one rule keeps labels simple).
- A month without a year is its most recent occurrence not in the future: the current month
  means this month so far; a later month means last year's ("December", asked in January).
  "last July" asked in July means a year ago; "next May" is not a memory and gives no window.
- A month with a year is that month, even in the future (the block then says it is empty).
- A day number next to a month ("5 May") makes it a date but the window stays the month.
- Ambiguous month words (English may/march, Arabic مارس, آب) count only with a cue; month
  abbreviations count only next to a number (``wordlists`` explains each).
- Urdu کل/پرسوں: the past reading unless the sentence has a future marker (``wordlists``).
- The first time expression in the text wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import cache
from typing import Final, Literal

from tutor_memory.domain import wordlists
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import detect_language, fold, folded_tokens
from tutor_memory.domain.timewindow import TimeWindow

__all__ = ["find_window"]

# Not ".": abbreviations carry one ("ene. 2024", "Dec. 5"). Urdu ends sentences with "۔".
_SENTENCE_END = re.compile(r"[!?;\n\u06d4\u061f\u061b]")
_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th|o|a|ro|er)?")
_YEAR = re.compile(r"(?:19|20|21)\d\d")

MonthKind = Literal["plain", "ambiguous", "abbreviation"]


@dataclass(frozen=True)
class _MonthWord:
    month: int
    kind: MonthKind


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(folded_tokens(fold(text)))


def _folded_set(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for word in words for w in _phrase(word))


@cache
def _month_words() -> dict[tuple[str, ...], _MonthWord]:
    """Folded month names of every locale in ``wordlists.MONTH_LOCALES``, wide before
    abbreviated (so "may" is the English month word, not only a Spanish abbreviation)."""
    from babel.dates import get_month_names

    ambiguous = _folded_set(wordlists.AMBIGUOUS_MONTH_WORDS)
    excluded = _folded_set(wordlists.EXCLUDED_MONTH_WORDS)
    table: dict[tuple[str, ...], _MonthWord] = {}
    for width in ("wide", "abbreviated"):
        for locale in wordlists.MONTH_LOCALES:
            for context in ("format", "stand-alone"):
                names = get_month_names(width, context=context, locale=locale)
                for month, name in names.items():
                    key = _phrase(name)
                    if not key or key in table or key in {(w,) for w in excluded}:
                        continue
                    kind: MonthKind
                    if width == "abbreviated":
                        kind = "abbreviation"
                    elif len(key) == 1 and key[0] in ambiguous:
                        kind = "ambiguous"
                    else:
                        kind = "plain"
                    table[key] = _MonthWord(int(month), kind)
    return table


@cache
def _relative_phrases() -> dict[tuple[str, ...], tuple[str, str]]:
    """Folded phrase → (kind, language)."""
    table: dict[tuple[str, ...], tuple[str, str]] = {}
    for lang, kinds in wordlists.RELATIVE_PHRASES.items():
        for kind, phrases in kinds.items():
            for phrase in phrases:
                table[_phrase(phrase)] = (kind, lang)
    return table


@cache
def _english_months() -> tuple[dict[int, str], dict[int, str]]:
    from babel.dates import get_month_names

    wide = get_month_names("wide", locale="en")
    short = get_month_names("abbreviated", locale="en")
    return ({int(k): str(v) for k, v in wide.items()}, {int(k): str(v) for k, v in short.items()})


@cache
def _folded(words: frozenset[str]) -> frozenset[str]:
    """A ``wordlists`` set of single words, folded (frozensets cache their hash)."""
    return _folded_set(words)


_NOT_A_TIME: Final = tuple(_phrase(p) for p in wordlists.NOT_A_TIME)


# --- reading the text --------------------------------------------------------------------------


def _is_day(token: str) -> bool:
    m = _DAY.fullmatch(token)
    return m is not None and 1 <= int(m.group(1)) <= 31


def _is_year(token: str) -> bool:
    return _YEAR.fullmatch(token) is not None


def _year_after(words: list[str], j: int) -> int | None:
    """A year in the few words after a month: "2025", "de 2025", "5, 2025", "5 de 2025"."""
    connectors = _folded(wordlists.YEAR_CONNECTORS)
    for k in range(j, min(j + 3, len(words))):
        if _is_year(words[k]):
            return int(words[k])
        if not (_is_day(words[k]) or words[k] in connectors):
            return None
    return None


def _day_next_to(words: list[str], i: int, j: int) -> bool:
    """A day number right before the month ("5 May", "5th of May", "5 de mayo") or after."""
    if i >= 1 and _is_day(words[i - 1]):
        return True
    if i >= 2 and words[i - 1] in {"of", "de"} and _is_day(words[i - 2]):
        return True
    return j < len(words) and _is_day(words[j])


@dataclass(frozen=True)
class _Found:
    kind: str  # a relative kind, or "month"
    year: int = 0
    month: int = 0
    words: tuple[str, ...] = ()  # the words that named it


def _relative_at(words: list[str], i: int, lang: str) -> tuple[_Found | None, int]:
    """A relative phrase starting at ``i``: (what it names or None, words consumed)."""
    table = _relative_phrases()
    for size in (4, 3, 2, 1):
        key = tuple(words[i : i + size])
        if len(key) < size or key not in table:
            continue
        kind, phrase_lang = table[key]
        if size == 1 and key[0] in _folded(wordlists.URDU_BOTH_WAYS):
            if lang != "ur":
                return None, 0  # Arabic كل is "all", not a day
            if i + 1 < len(words) and words[i + 1] in _folded(wordlists.URDU_TOTAL_NOUNS):
                return None, 1  # کل رقبہ: the total area
            future = any(w in _folded(wordlists.URDU_FUTURE_MARKERS) for w in words)
            past = any(w in _folded(wordlists.URDU_PAST_MARKERS) for w in words)
            if future and not past:
                return None, 1  # کل ٹیسٹ ہوگا: tomorrow, not a memory
        if phrase_lang == "ar" and kind == "today":
            before = words[i - 1] if i else ""
            after = words[i + 1] if i + 1 < len(words) else ""
            if before in _folded(wordlists.ARABIC_TODAY_BLOCKERS) or after.startswith("ال"):
                return None, 1  # في اليوم: per day; اليوم الأول: the first day
        return _Found(kind), size
    return None, 0


def _month_at(words: list[str], i: int, lang: str, today: date) -> tuple[_Found | None, int]:
    """A month name starting at ``i``: (the month it names or None, words consumed)."""
    table = _month_words()
    for size in (2, 1):
        key = tuple(words[i : i + size])
        if len(key) < size or key not in table:
            continue
        word = table[key]
        j = i + size
        before = words[i - 1] if i else ""
        after = words[j] if j < len(words) else ""
        year = _year_after(words, j)
        numbered = year is not None or _day_next_to(words, i, j)
        if word.kind == "abbreviation" and not numbered:
            return None, size
        if lang != "ar" and key[0] in _folded(wordlists.ARABIC_ONLY_MONTH_WORDS):
            return None, size
        if word.kind == "ambiguous" and not (
            numbered
            or before in _folded(wordlists.MONTH_CUES_BEFORE)
            or after in _folded(wordlists.MONTH_CUES_AFTER)
        ):
            return None, size
        if before in _folded(wordlists.NEXT_WORDS) or after in _folded(wordlists.NEXT_WORDS):
            return None, size  # "next May": not a memory
        if year is None:
            last = before in _folded(wordlists.LAST_WORDS) or after in _folded(wordlists.LAST_WORDS)
            year = today.year
            if word.month > today.month or (last and word.month == today.month):
                year -= 1
        return _Found("month", year, word.month), size
    return None, 0


def _find(text: str, lang: str, today: date) -> _Found | None:
    for sentence in _SENTENCE_END.split(fold(text)):
        words = folded_tokens(sentence)
        i = 0
        while i < len(words):
            skip = next((len(p) for p in _NOT_A_TIME if tuple(words[i : i + len(p)]) == p), 0)
            if skip:
                i += skip
                continue
            found, used = _relative_at(words, i, lang)
            if found is None and not used:
                found, used = _month_at(words, i, lang, today)
            if found is not None:
                return replace(found, words=tuple(words[i : i + used]))
            i += max(used, 1)
    return None


# --- building the window -----------------------------------------------------------------------


def _midnight(day: date, tz: tzinfo) -> datetime:
    return datetime.combine(day, time(), tzinfo=tz).astimezone(UTC)


def _first_of_next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def _day_label(day: date) -> str:
    return f"{day.day} {_english_months()[1][day.month]} {day.year}"


def _range_label(first: date, last: date) -> str:
    short = _english_months()[1]
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {short[last.month]} {last.year}"
    if first.year == last.year:
        return f"{first.day} {short[first.month]} – {last.day} {short[last.month]} {last.year}"
    return f"{_day_label(first)} – {_day_label(last)}"


def _month_label(first: date) -> str:
    return f"{_english_months()[0][first.month]} {first.year}"


def _window(found: _Found, today: date, tz: tzinfo) -> TimeWindow:
    monday = today - timedelta(days=today.weekday())
    month_start = today.replace(day=1)
    start: date
    end: date
    match found.kind:
        case "today":
            start, end = today, today + timedelta(days=1)
            label = f"today ({_day_label(start)})"
        case "yesterday":
            start, end = today - timedelta(days=1), today
            label = f"yesterday ({_day_label(start)})"
        case "day_before_yesterday":
            start, end = today - timedelta(days=2), today - timedelta(days=1)
            label = f"the day before yesterday ({_day_label(start)})"
        case "this_week":
            start, end = monday, monday + timedelta(days=7)
            label = f"this week ({_range_label(start, end - timedelta(days=1))})"
        case "last_week":
            start, end = monday - timedelta(days=7), monday
            label = f"last week ({_range_label(start, end - timedelta(days=1))})"
        case "this_month":
            start, end = month_start, _first_of_next_month(month_start)
            label = f"this month ({_month_label(start)})"
        case "last_month":
            start = (month_start - timedelta(days=1)).replace(day=1)
            end = month_start
            label = f"last month ({_month_label(start)})"
        case _:
            start = date(found.year, found.month, 1)
            end = _first_of_next_month(start)
            label = _month_label(start)
    return TimeWindow(_midnight(start, tz), _midnight(end, tz), label, found.words)


def find_window(text: str, now: datetime, tz: tzinfo) -> TimeWindow | None:
    """The time window ``text`` names, in local calendar days of ``tz``, or None.

    ``now`` must be timezone-aware; "yesterday" is the day before ``now``'s local date in
    ``tz``. The window is half-open, in UTC, labelled in English ("July 2026",
    "last week (23–29 Nov 2026)").
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValidationError("now", "must be timezone-aware")
    today = now.astimezone(tz).date()
    found = _find(text, detect_language(text), today)
    return None if found is None else _window(found, today, tz)
