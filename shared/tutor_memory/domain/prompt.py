"""Placing the memory block in a caller's prompt (SPEC §7).

A prompt is a list of ``(title, text)`` sections, in order. Titles are read as folded whole
words, so "Course Material", "MATERIAL:" and "material" are the same. ``place_block`` changes
only what the rules below name; every other section keeps its title, text and place.

1. **The memory slot.** The first section whose title has the word "memory" (or "memories")
   gets the block as its text, where it stands. With no such section, a new ``("Memory",
   block)`` section is inserted before the first *material* section (a title with material(s),
   note(s), file(s), context, source(s), document(s), excerpt(s), passage(s), reading(s));
   with none, before the first *conversation* section (history, conversation, chat,
   message(s), dialogue, question); with neither, at the end.
2. **A legacy assessment section** (a title with assessment(s), quiz/quizzes, grade(s),
   exam(s), or "test results") is dropped when it only says that nothing is recorded ("NO QUIZ
   ATTEMPTS recorded", "No assessment results"): a model reads the first authoritative
   statement about a record and stops, and this one would contradict the block. "Only says
   nothing" means: every sentence has a negation (no, none, nothing, not, never, zero) and no
   word outside a small vocabulary of record words (quiz, attempts, recorded, results, yet, …).
   Anything else — a score, a date, a name — says more: the section stays and a bridging note
   is appended telling the model that the memory block lists the checks and earlier work too.
   A kept assessment section that stood before the memory slot moves to just after the block:
   the block is the first statement about the record the model reads (the seed puts it first).
3. **An empty block** (the budget could not hold it, or it was dropped at the time cap)
   changes nothing at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from tutor_memory.domain.language import fold

MEMORY_TITLE: Final = "Memory"

_MEMORY_WORDS: Final = frozenset({"memory", "memories"})
_MATERIAL_WORDS: Final = frozenset(
    {
        "material",
        "materials",
        "note",
        "notes",
        "file",
        "files",
        "context",
        "source",
        "sources",
        "document",
        "documents",
        "excerpt",
        "excerpts",
        "passage",
        "passages",
        "reading",
        "readings",
    }
)
_CONVERSATION_WORDS: Final = frozenset(
    {"history", "conversation", "chat", "message", "messages", "dialogue", "question"}
)
_ASSESSMENT_WORDS: Final = frozenset(
    {"assessment", "assessments", "quiz", "quizzes", "grade", "grades", "exam", "exams"}
)
_NEGATIONS: Final = frozenset({"no", "none", "nothing", "not", "never", "zero"})


def _vocabulary(*lines: str) -> frozenset[str]:
    return frozenset(word for line in lines for word in line.split())


# The words a "nothing is recorded" sentence is made of; any other word means it says more.
_NOTHING_VOCABULARY: Final = (
    _NEGATIONS
    | _ASSESSMENT_WORDS
    | _vocabulary(
        "a an any the this that these of for on in by from to with so far yet",
        "there is are was were has have had been be",
        "student students user learner learners pupil they he she their",
        "attempt attempts attempted record records recorded result results score scores",
        "check checks test tests available found data information entries",
        "made taken completed submitted done",
    )
)

_WORD = re.compile(r"[^\W_]+")
_SENTENCE = re.compile(r"[.!?;:\n]+")


def _title_words(title: str) -> set[str]:
    return set(_WORD.findall(fold(title)))


def is_memory_section(title: str) -> bool:
    return bool(_title_words(title) & _MEMORY_WORDS)


def is_material_section(title: str) -> bool:
    return bool(_title_words(title) & _MATERIAL_WORDS)


def is_assessment_section(title: str) -> bool:
    words = _title_words(title)
    return bool(words & _ASSESSMENT_WORDS) or {"test", "results"} <= words


def says_nothing_recorded(text: str) -> bool:
    """Whether ``text`` only says that no result is recorded (see the module, rule 2)."""
    sentences = [_WORD.findall(fold(s)) for s in _SENTENCE.split(text)]
    sentences = [words for words in sentences if words]
    return all(
        set(words) <= _NOTHING_VOCABULARY and bool(set(words) & _NEGATIONS) for words in sentences
    )


def bridging_note(block_comes_first: bool) -> str:
    where = "above" if block_comes_first else "below"
    return (
        f"(The memory block {where} also lists this student's checks and earlier work; read both.)"
    )


def _memory_index(titles: Sequence[str]) -> tuple[int, bool]:
    """Where the block goes, and whether an existing section is replaced there."""
    for i, title in enumerate(titles):
        if is_memory_section(title):
            return i, True
    for test in (is_material_section, lambda t: bool(_title_words(t) & _CONVERSATION_WORDS)):
        for i, title in enumerate(titles):
            if test(title):
                return i, False
    return len(titles), False


def place_block(prompt_sections: Sequence[tuple[str, str]], block: str) -> list[tuple[str, str]]:
    """The prompt with ``block`` in its memory slot (see the module for the rules)."""
    sections = list(prompt_sections)
    if not block.strip():
        return sections
    at, replace = _memory_index([title for title, _text in sections])
    memory = (sections[at][0], block) if replace else (MEMORY_TITLE, block)
    placed = [*sections[:at], memory, *sections[at + 1 if replace else at :]]
    memory_at = at

    out: list[tuple[str, str]] = []
    moved: list[tuple[str, str]] = []  # kept assessment sections that stood before the block
    for i, (title, text) in enumerate(placed):
        if i == memory_at:
            out += [(title, text), *moved]
        elif not is_assessment_section(title) or is_memory_section(title):
            out.append((title, text))
        elif not says_nothing_recorded(text):
            kept = (title, f"{text.rstrip()}\n{bridging_note(block_comes_first=True)}")
            (out if memory_at < i else moved).append(kept)
    return out
