"""Whether a student asks about their own record, read with one compiled matcher per language.

The rule is the block's (``domain.block.is_record_question``, SPEC §7, issue 13): a phrase of
the packs' ``record_question_phrases``, ``…_more_phrases`` or ``…_owned`` anywhere in the
question, or the cue rule (a self, a record and a frame cue of the question's language in one
asking clause; or, in a clause that is a question, a self and a trait cue — the student's
standing: "what am I bad at?", "¿estoy mejorando?") unless a ``record_cue_blockers`` phrase
names the item at hand or asks for advice; look-alikes are blanked out first. What changes
is how a phrase is looked for: the block tried each of the ~90 phrases at each word (a
25-word question: ~5.7 ms CPU, the most of understanding it); here every phrase list is
compiled once into a table from its first word, so a question costs one look-up per word (and
one more for a word with an Arabic conjunction glued on).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, cast

from tutor_memory.domain.language import detect_language, fold
from tutor_memory.domain.languages import LANGUAGES as PACKS
from tutor_memory.domain.languages import language

# Every run of letters or digits, single letters included ("i" in "what did i get wrong").
_WORD = re.compile(r"[^\W_]+")
# An Arabic conjunction glued to the first word ("وماذا أخطأت") still starts the phrase.
_ARABIC_PROCLITICS: Final = ("و", "ف")
_CUE_KINDS: Final = ("self", "record", "frame")
# A clause ends at a comma, a sentence mark or a line break, in every script the five
# languages use; "¿" opens a Spanish question.
_CLAUSE_END: Final = re.compile(r"([,;.!?¡¿\n\u060c\u061b\u061f\u06d4])")

Phrase = tuple[str, ...]


def words_of(text: str) -> tuple[str, ...]:
    """The folded words of ``text`` as the phrases are written in."""
    return tuple(_WORD.findall(fold(text)))


@dataclass(frozen=True)
class Phrases:
    """A list of phrases compiled into a table from each phrase's first word."""

    by_first: dict[str, tuple[Phrase, ...]]

    @classmethod
    def of(cls, phrases: Iterable[Phrase]) -> Phrases:
        table: dict[str, list[Phrase]] = {}
        for phrase in sorted(set(phrases)):
            if phrase:
                table.setdefault(phrase[0], []).append(phrase)
        return cls({first: tuple(found) for first, found in table.items()})

    def _starting(self, word: str) -> Iterable[Phrase]:
        """The phrases that may start at ``word``: as it is, or behind a glued conjunction."""
        yield from self.by_first.get(word, ())
        if word[:1] in _ARABIC_PROCLITICS:
            yield from self.by_first.get(word[1:], ())

    def at(self, words: Sequence[str], i: int) -> Iterable[Phrase]:
        """The phrases that occur at position ``i`` of ``words``."""
        for phrase in self._starting(words[i]):
            end = i + len(phrase)
            if end <= len(words) and all(words[i + j] == phrase[j] for j in range(1, len(phrase))):
                yield phrase

    def occurs(self, words: Sequence[str]) -> bool:
        return any(next(iter(self.at(words, i)), None) is not None for i in range(len(words)))


def _folded(*fields: str) -> Iterable[Phrase]:
    return (
        words_of(p)
        for field in fields
        for pack in PACKS.values()
        for p in cast(Sequence[str], getattr(pack, field))
    )


@cache
def _matchers() -> tuple[Phrases, tuple[Phrase, ...], Phrases]:
    """(phrases that make a record question, look-alikes in order, cue blockers)."""
    phrases = Phrases.of(
        _folded("record_question_phrases", "record_question_more_phrases", "record_question_owned")
    )
    lookalikes = tuple(sorted({p for p in _folded("record_question_lookalikes") if p}))
    return phrases, lookalikes, Phrases.of(_folded("record_cue_blockers"))


@cache
def _cues(lang: str) -> tuple[Phrases, ...]:
    """The language's self, record and frame cues (the pack's ``record_cues``), compiled."""
    return tuple(
        Phrases.of(words_of(p) for p in language(lang).record_cues[kind]) for kind in _CUE_KINDS
    )


@cache
def _question_words(lang: str) -> frozenset[str]:
    return frozenset(w for word in language(lang).question_words for w in words_of(word))


def _blank_lookalikes(words: list[str], lookalikes: Sequence[Phrase]) -> None:
    """Blank each look-alike out, in order, wherever it occurs (as the block does)."""
    for lookalike in lookalikes:
        first, rest, n = lookalike[0], lookalike[1:], len(lookalike)
        for i in range(len(words) - n + 1):
            word = words[i]
            glued = word[:1] in _ARABIC_PROCLITICS and word[1:] == first
            if (word == first or glued) and tuple(words[i + 1 : i + n]) == rest:
                words[i : i + n] = [""] * n


def is_record_question(question: str | None) -> bool:
    """Whether the student asks about their own record ("what did I get wrong so far", "qué
    hemos aprendido", "ماذا أخطأت"), in any of the five languages, as whole folded words
    (see the module: the block's rule, each phrase list compiled once)."""
    if not question:
        return False
    words = list(words_of(question))
    phrases, lookalikes, blockers = _matchers()
    _blank_lookalikes(words, lookalikes)
    if phrases.occurs(words):
        return True
    if blockers.occurs(words):
        return False
    # The question's own language only: a cue of one language can be a plain word of
    # another (Arabic درست "I studied" is Urdu درست "correct").
    lang = detect_language(question)
    cues = _cues(lang)
    clauses = _clauses(question, lang)
    # In a message of one clause, that clause; otherwise only the clauses that ask.
    read = [c for c, _ in clauses] if len(clauses) <= 1 else [c for c, asks in clauses if asks]
    if any(all(kind.occurs(clause) for kind in cues) for clause in read):
        return True
    # A question about the student's standing ("what am I bad at?", "¿estoy mejorando?"):
    # themselves and a trait of their record in a clause that asks, no frame needed.
    self_cue, trait = cues[0], _traits(lang)
    return any(
        asks and self_cue.occurs(clause) and trait.occurs(clause) for clause, asks in clauses
    )


@cache
def _traits(lang: str) -> Phrases:
    return Phrases.of(words_of(p) for p in language(lang).record_cues["trait"])


def _clauses(question: str, lang: str) -> list[tuple[tuple[str, ...], bool]]:
    """Each clause's words and whether it asks — followed by a question mark, opened by "¿",
    or starting with a question word. The cue rule reads only the asking ones when there are
    several, so that a statement about past study before a request ("Ayer estudié la ósmosis,
    ¿me la explicas otra vez?") is not read as asking about the record: "estudié" alone is
    self, record and frame."""
    parts = _CLAUSE_END.split(question)
    clauses: list[tuple[tuple[str, ...], bool]] = []
    opened = False
    for i in range(0, len(parts), 2):
        words = words_of(parts[i])
        mark = parts[i + 1] if i + 1 < len(parts) else ""
        if words:
            # "وماذا": a conjunction glued to the question word still opens a question.
            firsts = {words[0], words[0][1:] if words[0][:1] in _ARABIC_PROCLITICS else ""}
            asks = opened or mark in ("?", "\u061f") or bool(firsts & _question_words(lang))
            clauses.append((words, asks))
        opened = mark == "¿" or (opened and mark not in ("?", "\u061f"))
    return clauses
