"""A student's message that says something about the student themselves (pure).

"I prefer examples first", "please always keep it short", "I have dyslexia", "explain in
Urdu", "my chemistry exam is on 12 May", "remember that I play the violin" — in any of the
five languages — become profile statements (``domain/profile.py``); a claim about the subject
("remember that osmosis is …") stays teaching, and a question about the subject stays a
question. The rule per aspect is in ``languages/base.py`` (the ``profile_*`` fields); the
words are each pack's. Checked in order: language, goal, accommodation, preference, other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache

from tutor_memory.domain import constants as C
from tutor_memory.domain.language import detect_language, fold
from tutor_memory.domain.languages import LANGUAGES, Language
from tutor_memory.domain.profile import Aspect
from tutor_memory.domain.timewords import dates_in

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Heard:
    aspect: Aspect
    key: str
    value: str
    due: date | None = None


def _words(text: str) -> tuple[str, ...]:
    # every word, single letters too ("I"): fold() as the packs' lists are folded
    return tuple(_WORD.findall(fold(text)))


@cache
def _phrases(code: str, field: str) -> tuple[tuple[str, ...], ...]:
    pack = LANGUAGES[code]
    return tuple(_words(p) for p in getattr(pack, field))


def _has(words: tuple[str, ...], phrases: tuple[tuple[str, ...], ...]) -> bool:
    for phrase in phrases:
        n = len(phrase)
        if n and any(words[i : i + n] == phrase for i in range(len(words) - n + 1)):
            return True
    return False


def _first(words: tuple[str, ...], table: dict[str, tuple[tuple[str, ...], ...]]) -> str | None:
    return next((key for key, phrases in table.items() if _has(words, phrases)), None)


@cache
def _needs(code: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    return {k: tuple(_words(p) for p in v) for k, v in LANGUAGES[code].profile_needs.items()}


@cache
def _languages(code: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    return {k: tuple(_words(p) for p in v) for k, v in LANGUAGES[code].profile_languages.items()}


_NAMES = {"en": "English", "es": "Spanish", "id": "Indonesian", "ur": "Urdu", "ar": "Arabic"}


def _value(text: str) -> str:
    value = " ".join(text.split())
    return value[: C.MAX_PROFILE_VALUE_CHARS]


def _heard_in(pack: Language, text: str, words: tuple[str, ...], today: date) -> Heard | None:
    code = pack.code
    self_said = _has(words, _phrases(code, "profile_self"))
    if _has(words, _phrases(code, "profile_language_cues")):
        named = _first(words, _languages(code))
        if named is not None:
            return Heard(Aspect.LANGUAGE, "", _NAMES[named])
    if self_said and _has(words, _phrases(code, "profile_goal_words")):
        dates = dates_in(text, today)
        if dates:
            return Heard(Aspect.GOAL, dates[0].isoformat(), _value(text), dates[0])
    need = _first(words, _needs(code))
    if need is not None and self_said:
        return Heard(Aspect.ACCOMMODATION, need, _value(text))
    if _has(words, _phrases(code, "profile_preference_cues")) and _has(
        words, _phrases(code, "profile_teaching_words")
    ):
        return Heard(Aspect.PREFERENCE, "", _value(text))
    if _has(words, _phrases(code, "profile_remember_cues")):
        return Heard(Aspect.OTHER, "", _value(text))
    return None


def heard(text: str, today: date) -> Heard | None:
    """What ``text`` (a student's message) says about the student, or None. The message's
    own language is read first, then the others (a short message is hard to detect)."""
    words = _words(text)
    if not words:
        return None
    first = detect_language(text)
    order = [first, *(code for code in LANGUAGES if code != first)]
    for code in order:
        found = _heard_in(LANGUAGES[code], text, words, today)
        if found is not None:
            return found
    return None
