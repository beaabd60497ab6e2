"""Time windows a question asks about: "what did we cover in July?", "¿qué vimos ayer?".

``find_window`` reads month and weekday names (from Babel's CLDR data, in en, es, id, ur, ar
and the Levantine/Iraqi Arabic calendar) and relative phrases (each pack's ``relative_phrases``) and
returns the window the question asks about, or None. Deterministic: ``now`` is injected.

**The rule: a time is a filter only where the question asks about it** (SPEC §3). A student
who writes "I have a test on osmosis today, can you explain it again?" is not asking about
today, and a window would hide every earlier osmosis lesson behind an empty "today". So a time
phrase gives a window only when all three hold in its clause:

1. The clause asks. Sentences end at . ! ? ; ؟ ۔ and new lines; clauses at , ، : and at
   subordinators ("because", "pero", "karena", "کیونکہ", "لأن"). A clause asks when it opens
   (after fillers and a time put in front) with a question word, an inverted auxiliary or a
   request verb; when it is the last clause of a sentence ending in "?"/"؟" (for Spanish: the
   clause "¿" opens); when it holds a recall request ("remind me", "no me acuerdo", "یاد
   نہیں", "لا أتذكر"); in Urdu, when a question word stands anywhere in it (کیا only where
   the verb "did" cannot stand). "Kemarin saya belajar osmosis, bisa jelaskan lagi?" asks in
   its second clause only.
2. The clause is about the lessons: it has a recall cue ("we" + a past study verb, a recall
   request, a record noun: lesson, topics, mistakes), or a study verb unless it asks about a
   topic ("explain the osmosis I studied yesterday" asks about osmosis).
3. The clause is not about a plan: no future or modal word ("should", "vamos a", "akan", "گا",
   "سوف"), unless a past word is there too ("what did we cover that will be on the test?").

A clause that is only a time ("Yesterday, what did we do?") joins its neighbour, and a message
that is only a time ("July 2025", "¿Y anteayer?", "اور پچھلے مہینے؟") asks about it. The cue
words are data (each pack's ``time_question_cues``), read in the text's language and in the
language of its relative time phrases (short texts are hard to detect). With two times, the one
in the first clause that passes governs; inside one clause, the one nearest a cue ("today I
want to know what we covered in July": July), the first on a tie ("last week and in July").
Two months (or dates) with only a joiner between are one span: "September and October", "from
3 October to 14 November", "septiembre y octubre", "September aur October", "سبتمبر وأكتوبر"
(``_SPAN_JOINERS``) — the first of them alone hid the second from the block (a probe's finding).

**Bounds** ("since March", "after", "before", "until", "by", "as of", and their equivalents;
the packs' ``bounds_before`` and ``bounds_after``) make open intervals: since → [start, end
of today), after → [end, end of today), before → [start of the record, start), until/by/as
of → [start of the record, end). The start of the record is 1970-01-01, as the service's
whole-history window.

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
- Counted back ("two weeks ago", "hace tres meses", "dua minggu lalu", "قبل أسبوعين"; the packs'
  ``relative_phrases``, counts two and three as words or digits): the calendar week, day or
  month that many before this one ("a week ago" is last week). Another count ("beberapa
  minggu lalu", a few weeks ago) gives no window.
- A day number next to a month ("14 October", "October 14", "14 de octubre", "tanggal 14
  Oktober", "14 أكتوبر") makes the window that day: a student who names the day asks about its
  session, and in a month of sessions the month's recency buried it (a probe: "what did we do
  on October 27?" over 541 episodes showed 49 lines, none of that day). A day the month does
  not have ("31 April") leaves the month; without a year, the most recent such day not in the
  future.
- Ambiguous month words (English may/march, Arabic مارس, آب) count only with a cue (a bound
  word is one); month abbreviations count only next to a number (``languages.base`` explains
  each).
- Urdu کل/پرسوں: the past reading unless the clause has a future marker (``both_ways_days``).
- A weekday (CLDR's names) is the last such day before today ("on Friday" asked on a Friday is
  a week ago; "last Friday" the same day), that week's when a week phrase follows ("on Monday
  last week"); with a "next" word beside it, no window. A weekday name that is also an
  everyday word counts only beside a cue (``ambiguous_weekday_words``: Urdu پیر is Monday and
  a foot, "پیر کو" Monday; Arabic الاثنين is "the two", "يوم الاثنين" Monday).
- Day arithmetic is done on ordinals and clamped: near year 1 or 9999 a window is cut at the
  calendar's end (``datetime.min``/``max`` in UTC), never an OverflowError.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, tzinfo
from functools import cache
from typing import Final, Literal, cast

from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import detect_language, fold, folded_tokens
from tutor_memory.domain.languages import LANGUAGES, Language, language
from tutor_memory.domain.timewindow import TimeWindow

__all__ = ["find_window"]

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
    """Folded month names of every pack's ``month_locales``, wide before abbreviated (so
    "may" is the English month word, not only a Spanish abbreviation)."""
    from babel.dates import get_month_names

    ambiguous = _folded(_every("ambiguous_month_words"))
    excluded = _folded(_every("excluded_month_words"))
    table: dict[tuple[str, ...], _MonthWord] = {}
    for width in ("wide", "abbreviated"):
        for locale in month_locales():
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
    for lang, pack in LANGUAGES.items():
        for kind, phrases in pack.relative_phrases.items():
            for phrase in phrases:
                table[_phrase(phrase)] = (kind, lang)
    return table


@cache
def _weekday_words() -> dict[str, tuple[int, str]]:
    """Folded weekday name (CLDR's, each pack's language) → (Monday 0 … Sunday 6, language)."""
    from babel.dates import get_day_names

    table: dict[str, tuple[int, str]] = {}
    for lang in LANGUAGES:
        for context in ("format", "stand-alone"):
            for weekday, name in get_day_names("wide", context=context, locale=lang).items():
                key = _phrase(name)
                if len(key) == 1:
                    table.setdefault(key[0], (int(weekday), lang))
    return table


@cache
def english_weekdays() -> dict[int, str]:
    from babel.dates import get_day_names

    return {int(k): str(v) for k, v in get_day_names("wide", locale="en").items()}


def weekday_at(words: Sequence[str], i: int) -> tuple[int, str] | None:
    """The weekday ``words[i]`` names, and its language, or None: not a weekday name, one that
    is also an everyday word without a cue beside it (``ambiguous_weekday_words``: "minggu"
    is a week, "hari Minggu" Sunday; Arabic "الاثنين" is "the two", "يوم الاثنين" Monday), or
    one with a "next" word beside it ("next Friday": not a memory; for a plan, this week's or
    the following?)."""
    found = _weekday_words().get(words[i])
    if found is None:
        return None
    pack = language(found[1])
    beside = {words[i - 1] if i > 0 else "", words[i + 1] if i + 1 < len(words) else ""}
    if words[i] in _folded(pack.ambiguous_weekday_words) and not beside & _folded(
        pack.weekday_cues
    ):
        return None
    if beside & _folded(pack.next_words):
        return None
    return found


@cache
def _english_months() -> tuple[dict[int, str], dict[int, str]]:
    from babel.dates import get_month_names

    wide = get_month_names("wide", locale="en")
    short = get_month_names("abbreviated", locale="en")
    return ({int(k): str(v) for k, v in wide.items()}, {int(k): str(v) for k, v in short.items()})


@cache
def _folded(words: frozenset[str]) -> frozenset[str]:
    """A pack's set of single words, folded (frozensets cache their hash)."""
    return _folded_set(words)


def month_locales() -> tuple[str, ...]:
    """The CLDR locales of every pack's month names, in the registry's order."""
    return tuple(locale for pack in LANGUAGES.values() for locale in pack.month_locales)


@cache
def _every(field: str) -> frozenset[str]:
    """A set of words of every pack: month judgement calls are read in any language."""
    sets: list[frozenset[str]] = [getattr(pack, field) for pack in LANGUAGES.values()]
    return frozenset().union(*sets)


@cache
def _foreign_month_words(lang: str) -> frozenset[str]:
    """Month words that are months only in another language's text (Arabic آب is Urdu اب)."""
    return _folded(
        frozenset().union(*(p.own_month_words for p in LANGUAGES.values() if p.code != lang))
    )


_NOT_A_TIME: Final = tuple(_phrase(p) for pack in LANGUAGES.values() for p in pack.not_a_time)


# --- reading the text --------------------------------------------------------------------------


def _is_day(token: str) -> bool:
    m = _DAY.fullmatch(token)
    return m is not None and 1 <= int(m.group(1)) <= 31


def _is_year(token: str) -> bool:
    return _YEAR.fullmatch(token) is not None


def _year_after(words: list[str], j: int) -> int | None:
    """A year in the few words after a month: "2025", "de 2025", "5, 2025", "5 de 2025"."""
    found = _year_span(words, j)
    return None if found is None else int(words[found - 1])


def _year_span(words: list[str], j: int) -> int | None:
    """Where the year after a month ends (exclusive), or None without one."""
    connectors = _folded(_every("year_connectors"))
    for k in range(j, min(j + 3, len(words))):
        if _is_year(words[k]):
            return k + 1
        if not (_is_day(words[k]) or words[k] in connectors):
            return None
    return None


def _day_next_to(words: list[str], i: int, j: int) -> int | None:
    """The day number right before the month ("5 May", "5th of May", "5 de mayo") or after it
    ("May 5", "October 14, 2026"), or None."""
    for k in (i - 1, i - 2 if i >= 2 and words[i - 1] in {"of", "de"} else -1, j):
        if 0 <= k < len(words) and _is_day(words[k]):
            return int(_DAY.fullmatch(words[k]).group(1))  # type: ignore[union-attr]
    return None


Bound = Literal["", "since", "after", "before", "until"]


@dataclass(frozen=True)
class _Found:
    kind: str  # a relative kind, or "month"
    year: int = 0
    month: int = 0
    words: tuple[str, ...] = ()  # the words that named it
    bound: Bound = ""  # "since March": an open interval
    lang: str = ""  # the language of a relative phrase ("minggu lalu": id); "" for a month
    at: int = 0  # where it starts in its clause
    size: int = 0  # how many words it spans there
    weekday: int = 0  # a "weekday" kind's: Monday 0 … Sunday 6
    day: int = 0  # a "month" kind's day of the month when a number names one ("14 October")
    # a span of two ("September and October"): the last month's (year, month, day), else None
    until: tuple[int, int, int] | None = None


def month_names() -> frozenset[str]:
    """Every one-word month name of the five languages, folded ("december", "diciembre",
    "دسمبر", "ديسمبر", "dic"): where a date stands in a sentence (``profile_phrases``)."""
    return frozenset(key[0] for key in _month_words() if len(key) == 1)


def _relative_at(
    words: list[str], i: int, lang: str, present: frozenset[str]
) -> tuple[_Found | None, int]:
    """A relative phrase starting at ``i``: (what it names or None, words consumed).
    ``present``: the clause's words as a set (read once a clause, not once a phrase: a clause
    of thousands of "kal" read them all again at each, 6 s CPU at 18,000 characters)."""
    table = _relative_phrases()
    for size in (4, 3, 2, 1):
        key = tuple(words[i : i + size])
        if len(key) < size or key not in table:
            continue
        kind, phrase_lang = table[key]
        pack = language(phrase_lang)
        counts = _folded(pack.counts_before_relative)
        counted = i and (words[i - 1] in counts or words[i - 1].isdigit())
        if counts and counted and kind in ("last_week", "last_month"):
            return None, size  # "dua minggu lalu": two weeks ago ("jam 2 kemarin" is yesterday)
        if size == 1 and key[0] in _folded(pack.both_ways_days):
            if lang != phrase_lang:
                return None, 0  # Arabic كل is "all", not a day
            if i + 1 < len(words) and words[i + 1] in _folded(pack.total_nouns):
                return None, 1  # کل رقبہ: the total area
            future = not present.isdisjoint(_folded(pack.future_markers))
            past = not present.isdisjoint(_folded(pack.past_markers))
            if future and not past:
                return None, 1  # کل ٹیسٹ ہوگا: tomorrow, not a memory
        if kind == "today" and pack.today_blockers:
            before = words[i - 1] if i else ""
            after = words[i + 1] if i + 1 < len(words) else ""
            article = fold(pack.definite_article)
            if before in _folded(pack.today_blockers) or (article and after.startswith(article)):
                return None, 1  # في اليوم: per day; اليوم الأول: the first day
        return _Found(kind, lang=phrase_lang), size
    weekday = weekday_at(words, i)
    if weekday is not None:  # "what did we do on Friday?": the last Friday before today
        day, day_lang = weekday
        # "on Monday last week", "el lunes de la semana pasada": that week's Monday
        for j in range(i + 1, min(i + 4, len(words))):
            week, size = _relative_at(words, j, lang, present)
            if week is not None and week.kind in ("last_week", "this_week"):
                kind = f"weekday of {week.kind.replace('_', ' ')}"
                return _Found(kind, lang=day_lang, weekday=day), j + size - i
        return _Found("weekday", lang=day_lang, weekday=day), 1
    return None, 0


def _month_at(
    words: list[str], i: int, lang: str, today: date, cued: bool = False
) -> tuple[_Found | None, int]:
    """A month name starting at ``i``: (the month it names or None, words consumed).

    ``cued``: a bound word stands before it ("by March"), which makes an ambiguous month word
    a date like any other temporal cue."""
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
        day = _day_next_to(words, i, j)
        numbered = year is not None or day is not None
        if word.kind == "abbreviation" and not numbered:
            return None, size
        if key[0] in _foreign_month_words(lang):
            return None, size
        if word.kind == "ambiguous" and not (
            numbered
            or cued
            or before in _folded(_every("month_cues_before"))
            or after in _folded(_every("month_cues_after"))
        ):
            return None, size
        next_words = _folded(_every("next_words"))
        if before in next_words or after in next_words:
            return None, size  # "next May": not a memory
        day = _real_day(year or today.year, word.month, day)
        if year is None:
            last_words = _folded(_every("last_words"))
            last = before in last_words or after in last_words
            year = today.year
            later = (word.month, day) > (today.month, today.day) if day else False
            if word.month > today.month or later or (last and word.month == today.month):
                year -= 1  # may be 0 in year 1: _window clamps it
            day = _real_day(year, word.month, day)  # 29 February a year back
        # The phrase runs through its year ("julio de 2025"), so that a bound written after
        # it is found ("مارچ 2026 سے"), and through a day number after it ("October 14").
        end = max(_year_span(words, j) or j, j + 1 if j < len(words) and _is_day(words[j]) else j)
        return _Found("month", year, word.month, day=day), end - i
    return None, 0


def _start_of(year: int, month: int, day: int) -> int:
    return date(year, month, day).toordinal() if day else _ordinal(year, month)


def _real_day(year: int, month: int, day: int | None) -> int:
    """``day`` when that month of that year has it, else 0 (the month: "31 April")."""
    if not day or not 1 <= year <= 9999:
        return 0
    try:
        date(year, month, day)
    except ValueError:
        return 0
    return day


# --- the cue words -------------------------------------------------------------------------------

Phrases = frozenset[tuple[str, ...]]


@cache
def _cues(lang: str, role: str) -> Phrases:
    """The pack's ``time_question_cues[role]``, folded into word tuples."""
    return frozenset(_phrase(p) for p in language(lang).time_question_cues[role])


def _cues_in(langs: Sequence[str], role: str) -> Phrases:
    """A role's cues in each of ``langs`` (the text's language and its time phrases'
    languages: "Rangkum materi minggu lalu dong" is too short to be detected as Indonesian,
    but "minggu lalu" is Indonesian)."""
    return frozenset().union(*(_cues(lang, role) for lang in dict.fromkeys(langs)))


@cache
def _any_language(role: str) -> Phrases:
    """A role's cues in every language: fragments ("kalau bulan lalu?") are too short for
    language detection to be sure, and their words are function words of one language."""
    return frozenset(p for lang in LANGUAGES for p in _cues(lang, role))


@cache
def _bounds(lang: str, after: bool) -> dict[tuple[str, ...], Bound]:
    pack = language(lang)
    table = pack.bounds_after if after else pack.bounds_before
    out: dict[tuple[str, ...], Bound] = {}
    for bound, phrases in table.items():
        for p in phrases:
            out[_phrase(p)] = cast(Bound, bound)
    return out


@cache
def _time_first_words() -> frozenset[str]:
    """First words of every time phrase and month name (for Arabic proclitics, below)."""
    return frozenset(k[0] for k in _relative_phrases()) | frozenset(k[0] for k in _month_words())


def _match(words: Sequence[str], i: int, phrases: Phrases) -> int:
    """The length of the longest phrase of ``phrases`` starting at ``i``, or 0."""
    for size in (4, 3, 2, 1):
        if i + size <= len(words) and tuple(words[i : i + size]) in phrases:
            return size
    return 0


def _opens(words: Sequence[str], i: int, openers: Phrases) -> bool:
    """An opener stands at ``i``; after "I" an auxiliary is no inversion ("I was…", "I have…"),
    while a request verb still asks ("I want to know…", "I forgot…")."""
    if i >= len(words) or not _match(words, i, openers):
        return False
    return not (isinstance(words[i], _AfterI) and words[i] in _question_openers_en())


@cache
def _question_openers_en() -> frozenset[str]:
    """English words that open a question by standing first (the teaching pack's list:
    question words and auxiliaries): only English drops its pronoun "I" from the tokens."""
    return frozenset(fold(w) for w in language("en").teaching_question_openers)


def _spans(words: Sequence[str], phrases: Phrases) -> list[tuple[int, int]]:
    """Every place a phrase of ``phrases`` occurs, as [start, end) word spans."""
    out = []
    for i in range(len(words)):
        size = _match(words, i, phrases)
        if size:
            out.append((i, i + size))
    return out


# --- sentences and clauses -----------------------------------------------------------------------

# Words, and the punctuation that ends a sentence or a clause. A "." ends a sentence only before
# a non-digit: abbreviations carry one ("ene. 2024", "Dec. 5"). Urdu ends sentences with "۔".
_PIECES = re.compile(r"[^\W_]+|[?!;.\n\u06d4\u061f\u061b,\u060c:¿¡]")
_QUESTION_MARKS = frozenset("?\u061f")
_SENTENCE_MARKS = frozenset("?!;.\n\u06d4\u061f\u061b")
_CLAUSE_MARKS = frozenset(",\u060c:")


class _AfterI(str):
    """A word that followed the English pronoun "I", which tokens drop (a single Latin letter):
    "I was studying in July" must not open with "was" as "was I studying…?" does. A str, so
    every cue matches it as the word it is; only the opener checks look at the mark."""

    __slots__ = ()


@dataclass
class _Clause:
    words: list[str]
    opened_by_question_mark: bool = False  # Spanish "¿": the question starts here


@dataclass
class _Sentence:
    clauses: list[_Clause]
    question: bool  # ends in "?" or "؟"


def _sentences(folded: str, lang: str) -> list[_Sentence]:
    pieces = [m.group() for m in _PIECES.finditer(folded)]
    breaks = _cues(lang, "clause_breaks")
    sentences: list[_Sentence] = []
    clauses: list[_Clause] = [_Clause([])]

    def close(question: bool) -> None:
        nonlocal clauses
        kept = [c for c in clauses if c.words]
        if kept:
            sentences.append(_Sentence(kept, question))
        clauses = [_Clause([])]

    after_i = False
    for n, piece in enumerate(pieces):
        if piece == "i":
            after_i = True
            continue
        if piece == ".":
            following = pieces[n + 1] if n + 1 < len(pieces) else ""
            if not following.isdigit():
                close(False)
        elif piece in _SENTENCE_MARKS:
            close(piece in _QUESTION_MARKS)
        elif piece in _CLAUSE_MARKS:
            following = pieces[n + 1] if n + 1 < len(pieces) else ""
            if not following.isdigit():  # "July, 2025", "May 5, 2025": one phrase
                clauses.append(_Clause([]))
        elif piece in "¿¡":
            clauses.append(_Clause([], opened_by_question_mark=piece == "¿"))
        elif folded_tokens(piece):
            clauses[-1].words.append(_AfterI(piece) if after_i else piece)
        after_i = False
    close(False)
    # Subordinators start a new clause ("explain osmosis because I have a test today"), and so
    # does a second question joined by a filler ("what did we cover in July and what should I
    # study today?").
    fillers, openers = _cues(lang, "fillers"), _cues(lang, "openers")

    def starts_clause(words: list[str], i: int) -> bool:
        if _match(words, i, breaks):
            return True
        size = _match(words, i, fillers)
        return bool(size) and _opens(words, i + size, openers)

    for sentence in sentences:
        split: list[_Clause] = []
        for clause in sentence.clauses:
            current = _Clause([], clause.opened_by_question_mark)
            for i, word in enumerate(clause.words):
                if i and starts_clause(clause.words, i) and current.words:
                    split.append(current)
                    current = _Clause([])
                current.words.append(word)
            split.append(current)
        sentence.clauses = split
    proclitics = language(lang).time_proclitics
    if proclitics:
        # Arabic writes و/ف (and, so) onto the next word: "والشهر الماضي؟" (and last month?).
        firsts = _time_first_words()
        for sentence in sentences:
            for clause in sentence.clauses:
                clause.words = [
                    w[1:] if w[:1] in proclitics and len(w) > 2 and w[1:] in firsts else w
                    for w in clause.words
                ]
    return sentences


# --- time phrases in a clause -------------------------------------------------------------------


def _time_at(
    words: list[str], i: int, lang: str, today: date, present: frozenset[str]
) -> tuple[_Found | None, int]:
    """A time phrase (with its bound, if any) starting at ``i``: (found or None, words used);
    ``present``: the clause's words as a set."""
    skip = next((len(p) for p in _NOT_A_TIME if tuple(words[i : i + len(p)]) == p), 0)
    if skip:
        return None, skip
    found, used = _relative_at(words, i, lang, present)
    if found is None and not used:
        found, used = _month_at(words, i, lang, today)
    bound: Bound = ""
    start = i
    if found is None and not used:
        for key, kind in sorted(_bounds(lang, after=False).items(), key=lambda kv: -len(kv[0])):
            if tuple(words[i : i + len(key)]) != key:
                continue
            j = i + len(key)
            found, used = _relative_at(words, j, lang, present) if j < len(words) else (None, 0)
            if found is None and not used and j < len(words):
                found, used = _month_at(words, j, lang, today, cued=True)
            if found is None and j < len(words) and _is_day(words[j]):  # "since 14 October"
                k = j + 1 + (j + 1 < len(words) and words[j + 1] in {"of", "de"})
                if k < len(words):
                    found, used = _month_at(words, k, lang, today, cued=True)
                    used += k - j
            if found is not None:
                bound, used = kind, used + len(key)
                break
            found, used = None, 0
    if found is None:
        return None, used
    if not bound:
        for key, kind in sorted(_bounds(lang, after=True).items(), key=lambda kv: -len(kv[0])):
            if tuple(words[i + used : i + used + len(key)]) == key:
                bound, used = kind, used + len(key)
                break
    return replace(
        found, words=tuple(words[start : i + used]), bound=bound, at=start, size=used
    ), used


def _times(words: list[str], lang: str, today: date) -> list[_Found]:
    out: list[_Found] = []
    present = frozenset(words)
    i = 0
    while i < len(words):
        found, used = _time_at(words, i, lang, today, present)
        if found is not None:
            if out and _joins(out[-1], found, words):
                found = _span(out.pop(), found, words)
            out.append(found)
        i += max(used, 1)
    return out


# Words that join two months into one span ("September and October", "from May to July",
# "septiembre y octubre", "September dan Oktober", "September aur October", "سبتمبر وأكتوبر",
# "September se October tak"): and, or, to, through, in every language (folded).
_SPAN_JOINERS: Final = frozenset(
    fold(w)
    for w in [
        "and",
        "or",
        "to",
        "through",
        "thru",
        "till",
        "until",
        "y",
        "o",
        "a",
        "al",
        "hasta",
        "e",
        "dan",
        "atau",
        "sampai",
        "hingga",
        "ke",
        "aur",
        "ya",
        "se",
        "tak",
        "اور",
        "یا",
        "سے",
        "تک",
        "و",
        "أو",
        "او",
        "إلى",
        "الى",
        "حتى",
    ]
)


def _joins(first: _Found, second: _Found, words: list[str]) -> bool:
    """Two months (or days of months) in a row with only a joiner between: one span."""
    if first.kind != "month" or second.kind != "month" or first.bound:
        return False
    if second.bound not in ("", "until"):
        return False
    between = words[first.at + first.size : second.at]
    if between and second.day and _is_day(between[-1]):
        between = between[:-1]  # the second's own day: "3 October to 14 November"
    if between and second.day and between[-1] in {"of", "de"} and len(between) >= 2:
        between = between[:-2] if _is_day(between[-2]) else between
    return len(between) <= 1 and all(w in _SPAN_JOINERS for w in between)


def _span(first: _Found, second: _Found, words: list[str]) -> _Found:
    """The span from the first month's start to the second's end; a first month that would
    come after the second is the year before ("December and January", asked in January)."""
    if (first.year, first.month, first.day) > (second.year, second.month, second.day):
        first = replace(
            first, year=first.year - 1, day=_real_day(first.year - 1, first.month, first.day)
        )
    end = second.at + second.size
    return replace(
        first,
        until=(second.year, second.month, second.day),
        words=tuple(words[first.at : end]),
        size=end - first.at,
    )


# --- the rule -----------------------------------------------------------------------------------


def _is_fragment(words: list[str], times: list[_Found]) -> bool:
    """Only time phrases and the small words of an elliptical follow-up ("and last month?")."""
    if not times:
        return False
    covered = {k for t in times for k in range(t.at, t.at + t.size)}
    small = _any_language("fillers") | _any_language("ellipsis")
    # Also the words around a month: "the 5th of May", "last November", "شهر مارس".
    around = _folded(
        _every("year_connectors")
        | _every("month_cues_before")
        | _every("month_cues_after")
        | _every("last_words")
    )
    i = 0
    while i < len(words):
        if i in covered or _is_day(words[i]) or words[i] in around:
            i += 1
            continue
        size = _match(words, i, small)
        if not size:
            return False
        i += size
    return True


def _verb_question_asks(words: list[str], pack: Language) -> bool:
    """A question word that is also a verb (Urdu کیا, "kya": "did") asks unless it stands where the
    verb stands: last in its clause, or before an auxiliary ("کام کیا تھا")."""
    if not pack.verb_question_words:
        return False
    kya = _folded(pack.verb_question_words)
    aux = _folded(pack.verb_question_auxiliaries)
    for i, word in enumerate(words):
        if word in kya and i + 1 < len(words) and words[i + 1] not in aux:
            return True
    return False


def _languages(lang: str, times: list[_Found]) -> tuple[str, ...]:
    return (lang, *(t.lang for t in times if t.lang))


def _asks(clause: _Clause, times: list[_Found], lang: str, last: bool, sentence: _Sentence) -> bool:
    """Whether the clause asks: see the module docstring."""
    words = clause.words
    langs = _languages(lang, times)
    if clause.opened_by_question_mark:
        return True
    if last and sentence.question and not any(c.opened_by_question_mark for c in sentence.clauses):
        return True
    if _spans(words, _cues_in(langs, "anywhere")):
        return True
    if any(_verb_question_asks(words, language(code)) for code in dict.fromkeys(langs)):
        return True
    # The opener: the first word after fillers and any time phrase put in front.
    starts = {t.at: t.size for t in times}
    fillers = _cues_in(langs, "fillers")
    i = 0
    while i < len(words):
        step = starts.get(i, 0) or _match(words, i, fillers)
        if not step:
            break
        i += step
    if _opens(words, i, _cues_in(langs, "openers")):
        return True
    return sentence.question and bool(_match(words, i, _cues_in(langs, "weak_openers")))


def _governing(clause: _Clause, times: list[_Found], lang: str) -> _Found | None:
    """The time this asking clause asks about, or None if it asks about something else.

    The clause must be about the lessons (a recall cue; a study cue unless it asks about a
    topic) and not about a plan (a plan word without a past word). Of several times in it, the
    one nearest a cue governs the question ("today I want to know what we covered in July").
    """
    words = clause.words
    langs = _languages(lang, times)

    def spans(role: str) -> list[tuple[int, int]]:
        return _spans(words, _cues_in(langs, role))

    if _is_fragment(words, times):
        return times[0]
    recall, study = spans("recall"), spans("study")
    cues = recall + ([] if spans("topic") else study)
    # A plan word inside an asking phrase is not a plan ("saya mau tahu": I want to
    # know).
    taken = {k for s, e in spans("anywhere") for k in range(s, e)}
    plan = [(s, e) for s, e in spans("plan") if not taken & set(range(s, e))]
    if not cues or (plan and not spans("past")):
        return None

    def distance(t: _Found) -> int:
        end = t.at + t.size
        return min(t.at - e if s < t.at else s - end for s, e in cues)

    return min(times, key=lambda t: (max(distance(t), 0), t.at))


def _find(text: str, lang: str, today: date) -> _Found | None:
    sentences = _sentences(fold(text), lang)
    every = [c for s in sentences for c in s.clauses]
    alone = all(_is_fragment(c.words, _times(c.words, lang, today)) for c in every)
    for sentence in sentences:
        clauses = sentence.clauses
        # A clause that is only a time joins its neighbour: "Yesterday, what did we do?",
        # "what did we do, yesterday?".
        merged: list[_Clause] = []
        pending: list[str] = []
        for n, clause in enumerate(clauses):
            words = pending + clause.words
            pending = []
            if n + 1 < len(clauses) and _is_fragment(words, _times(words, lang, today)):
                pending = words
                continue
            merged.append(_Clause(words, clause.opened_by_question_mark))
        if pending:
            merged.append(_Clause(pending))
        if len(merged) > 1 and _is_fragment(
            merged[-1].words, _times(merged[-1].words, lang, today)
        ):
            tail = merged.pop()
            merged[-1] = _Clause(merged[-1].words + tail.words, merged[-1].opened_by_question_mark)
        for n, clause in enumerate(merged):
            times = _times(clause.words, lang, today)
            if not times:
                continue
            # A message that is only a time ("July 2025", "¿Y anteayer?") asks about it.
            if not (alone or _asks(clause, times, lang, n == len(merged) - 1, sentence)):
                continue
            found = _governing(clause, times, lang)
            if found is not None:
                return found
    return None


# --- building the window -----------------------------------------------------------------------

# Open intervals start here ("before March" = from the beginning of the record): the same
# instant the service uses for "the whole history".
_OPEN_START: Final = datetime(1970, 1, 1, tzinfo=UTC)
_FIRST_DAY: Final = date.min.toordinal()
_LAST_DAY: Final = date.max.toordinal()


def _ordinal(year: int, month: int) -> int:
    """The first day of a month as a proleptic ordinal, past the calendar's ends when the
    month is (year 0 after "last July" asked in year 1; year 10000 after December 9999)."""
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    if year < date.min.year:
        return _FIRST_DAY - 1
    if year > date.max.year:
        return _LAST_DAY + 1
    return date(year, month, 1).toordinal()


def _day(ordinal: int) -> date:
    return date.fromordinal(min(max(ordinal, _FIRST_DAY), _LAST_DAY))


def _midnight(ordinal: int, tz: tzinfo) -> datetime:
    """Local midnight starting the day, in UTC; clamped to the ends of ``datetime``."""
    lowest, highest = datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC)
    if ordinal < _FIRST_DAY:
        return lowest
    if ordinal > _LAST_DAY:
        return highest
    try:
        return datetime.combine(date.fromordinal(ordinal), time(), tzinfo=tz).astimezone(UTC)
    except OverflowError:  # local midnight of 1 Jan year 1 east of UTC is in year 0
        return lowest if ordinal - _FIRST_DAY < _LAST_DAY - ordinal else highest


def _day_label(ordinal: int) -> str:
    day = _day(ordinal)
    return f"{day.day} {_english_months()[1][day.month]} {day.year}"


def _range_label(first_ordinal: int, last_ordinal: int) -> str:
    short = _english_months()[1]
    first, last = _day(first_ordinal), _day(last_ordinal)
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {short[last.month]} {last.year}"
    if first.year == last.year:
        return f"{first.day} {short[first.month]} – {last.day} {short[last.month]} {last.year}"
    return f"{_day_label(first_ordinal)} – {_day_label(last_ordinal)}"


def _month_label(ordinal: int) -> str:
    first = _day(ordinal)
    return f"{_english_months()[0][first.month]} {first.year}"


_COUNTS: Final = {2: "two", 3: "three"}  # the labels of the counted-back kinds


def _period(found: _Found, today: date) -> tuple[int, int, str]:
    """[start, end) as day ordinals, and the label."""
    day = today.toordinal()
    monday = day - today.weekday()
    month = _ordinal(today.year, today.month)
    match found.kind:
        case "today":
            return day, day + 1, f"today ({_day_label(day)})"
        case "yesterday":
            return day - 1, day, f"yesterday ({_day_label(day - 1)})"
        case "day_before_yesterday":
            return day - 2, day - 1, f"the day before yesterday ({_day_label(day - 2)})"
        case "weekday":  # the last such day before today ("on Friday" asked on a Friday: a
            # week ago; "today" says today)
            start = day - ((today.weekday() - found.weekday - 1) % 7 + 1)
            return start, start + 1, f"{english_weekdays()[found.weekday]} ({_day_label(start)})"
        case "weekday of last week" | "weekday of this week":
            start = monday - (7 if found.kind.endswith("last week") else 0) + found.weekday
            return start, start + 1, f"{english_weekdays()[found.weekday]} ({_day_label(start)})"
        case "this_week":
            return monday, monday + 7, f"this week ({_range_label(monday, monday + 6)})"
        case "last_week":
            start = monday - 7
            return start, monday, f"last week ({_range_label(start, monday - 1)})"
        case "days_ago_3":
            return day - 3, day - 2, f"three days ago ({_day_label(day - 3)})"
        case "weeks_ago_2" | "weeks_ago_3":
            n = int(found.kind[-1])
            start = monday - 7 * n
            return start, start + 7, f"{_COUNTS[n]} weeks ago ({_range_label(start, start + 6)})"
        case "months_ago_2" | "months_ago_3":
            n = int(found.kind[-1])
            start = _ordinal(today.year, today.month - n)
            end = _ordinal(today.year, today.month - n + 1)
            return start, end, f"{_COUNTS[n]} months ago ({_month_label(start)})"
        case "this_month":
            return (
                month,
                _ordinal(today.year, today.month + 1),
                f"this month ({_month_label(month)})",
            )
        case "last_month":
            start = _ordinal(today.year, today.month - 1)
            return start, month, f"last month ({_month_label(start)})"
        case _ if found.until is not None:  # "September and October": both, and between
            start = _start_of(found.year, found.month, found.day)
            year, month, day = found.until
            end = date(year, month, day).toordinal() + 1 if day else _ordinal(year, month + 1)
            first = _day_label(start) if found.day else _month_label(start)
            last = _day_label(end - 1) if day else _month_label(_ordinal(year, month))
            return start, end, f"{first} – {last}"
        case _ if found.day:  # "what did we do on 14 October?": that day
            start = date(found.year, found.month, found.day).toordinal()
            return start, start + 1, _day_label(start)
        case _:
            start = _ordinal(found.year, found.month)
            return start, _ordinal(found.year, found.month + 1), _month_label(start)


def _window(found: _Found, today: date, tz: tzinfo) -> TimeWindow:
    start, end, label = _period(found, today)
    first, after = _midnight(start, tz), _midnight(end, tz)
    match found.bound:
        case "since":
            first, after = first, max(_midnight(today.toordinal() + 1, tz), first)
        case "after":
            first, after = after, max(_midnight(today.toordinal() + 1, tz), after)
        case "before":
            first, after = min(_OPEN_START, first), first
        case "until":
            first = min(_OPEN_START, after)
    if found.bound:
        label = f"{found.bound} {label}"
    return TimeWindow(first, after, label, found.words, found.bound)


def find_window(text: str, now: datetime, tz: tzinfo) -> TimeWindow | None:
    """The time window ``text`` asks about, in local calendar days of ``tz``, or None.

    ``now`` must be timezone-aware; "yesterday" is the day before ``now``'s local date in
    ``tz``. The window is half-open, in UTC, labelled in English ("July 2026",
    "last week (23–29 Nov 2026)", "since March 2026").
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValidationError("now", "must be timezone-aware")
    try:
        today = now.astimezone(tz).date()
    except OverflowError:  # the first or last hours of the calendar
        today = now.date()
    found = _find(text, detect_language(text), today)
    return None if found is None else _window(found, today, tz)


def dates_in(text: str, today: date) -> list[date]:
    """The calendar dates ``text`` names as a day and a month name in any of the five
    languages ("12 May", "May 12", "12 de mayo", "12 Mei 2027", "12 مئی", "12 مايو"), an
    optional year after; without a year, the next such day on or after ``today`` (a date
    someone plans for: an exam). For the profile's goals; a window is ``find_window``'s."""
    words = folded_tokens(fold(text))
    months = _month_words()
    found: list[date] = []
    for i in range(len(words)):
        for width in (2, 1):
            month = months.get(tuple(words[i : i + width]))
            if month is None:
                continue
            end = i + width
            joiners = _folded(_every("year_connectors")) | {"of"}
            before = [i - 1] + ([i - 2] if i >= 2 and words[i - 1] in joiners else [])
            day_at = next(
                (j for j in (*before, end) if 0 <= j < len(words) and _is_day(words[j])), None
            )
            if day_at is None:
                break
            day = int(_DAY.fullmatch(words[day_at]).group(1))  # type: ignore[union-attr]
            year = _year_after(words, end)
            try:
                when = date(year or today.year, month.month, day)
                if year is None and when < today:
                    when = date(today.year + 1, month.month, day)
            except ValueError:  # 31 April
                break
            found.append(when)
            break
    return found
