"""The validator: what an extractor read from a file, cleaned into concepts (SPEC §4).

Both extractors (the offline reader and the model pass) hand their drafts here, so the map
gets the same guarantees from either:

- names are trimmed: numbering ("1.2 Osmosis", "IV. Osmosis", "a) Osmosis"), bullets,
  Markdown emphasis, quotes, a leading article ("The cell", "La célula") and trailing
  punctuation ("Osmosis:") go;
- the file's furniture is rejected: section headings ("Introduction", "Summary", "Review
  questions", "Resumen", "Ringkasan", "خلاصہ", "الملخص" …, alone or leading or ending a name)
  and numbered ones ("Chapter 3", "Part II", "Capítulo 3", "Bab 3", "باب 3", "الفصل الثالث");
- so are names that are really sentences or questions, and empty or over-long names;
- duplicates by canonical key merge into the first (pages and builds-on joined);
- builds-on names are trimmed the same way; furniture, sentences and self-references drop;
- at most ``MAX_CONCEPTS_PER_FILE`` are kept, first first; the rest are rejected with a reason.

Word lists (the language packs') are matched on folded words in all languages at once: a name is too
short to detect its language reliably.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Final, cast

from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptDraft
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.language import LANGUAGES, fold, is_stopword
from tutor_memory.domain.languages import LANGUAGES as PACKS


@dataclass(frozen=True)
class ValidationReport:
    kept: list[ConceptDraft] = field(default_factory=list)
    rejected: list[tuple[ConceptDraft, str]] = field(default_factory=list)  # (draft, reason)


# --- trimming ------------------------------------------------------------------------------------

# "1.", "1.2", "1.2.", "3)", "IV.", "a)", "(b)", "١.٢" (\d is any script's digit). A bare
# letter needs its ")" or ".", so "A cell" keeps its article for the article rule below.
_NUMBERING = re.compile(
    r"^\s*(?:\(?\d+(?:[.\-]\d+)*[.):\-]?|\(?[ivxlcIVXLC]+[.)]|\(?[^\W\d_][.)])(?=\s)\s*"
)
_BULLET = re.compile(r"^\s*[-*+•·–—▪◦]+\s+")
_MARKUP = re.compile(r"\*\*|__|[*_`]")
# Quotes and brackets around a whole name: "(Osmosis)", «ósmosis»; not "Osmosis (biology)".
_PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»", "(": ")", "[": "]", "{": "}"}
_TRAILING = ".:;,!۔،؛-–— \t"
_SPACES = re.compile(r"\s+")


def clean_name(name: str) -> str:
    """A name as a concept is called: numbering, bullets, markup, quotes, a leading article
    and trailing punctuation removed ("1.2 Osmosis:" → "Osmosis", "The cell membrane" → "Cell
    membrane"). Question marks stay, so that a question is still seen as one."""
    text = _SPACES.sub(" ", _MARKUP.sub("", name)).strip()
    text = _BULLET.sub("", text)
    text = _NUMBERING.sub("", text).strip()
    text = _unwrap(text.rstrip(_TRAILING))
    first, _, rest = text.partition(" ")
    if rest and fold(first) in _articles():
        # "The cell" was capitalised for its sentence, not for its name: pass the capital on.
        # Only onto a lower-case word: "The pH scale" stays "pH scale", not "PH scale".
        if first[:1].isupper() and rest.split(" ", 1)[0].islower():
            rest = rest[:1].upper() + rest[1:]
        text = rest
    return text


def _unwrap(text: str) -> str:
    while len(text) >= 2 and _PAIRS.get(text[0]) == text[-1]:
        text = text[1:-1].strip().rstrip(_TRAILING)
    return text


# --- what a name must not be ---------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
_ROMAN = re.compile(r"(?=[ivxlc])(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
_COLON = re.compile(r"[:–—]|\s-\s")
_QUESTION_MARKS = "?¿؟"
_SENTENCE_ENDS = ".!۔"
_SHORT_NAME_WORDS: Final = 2  # "Osmosis." keeps its name; "Cells need energy." is a sentence


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@cache
def _articles() -> frozenset[str]:
    return frozenset(fold(w) for pack in PACKS.values() for w in pack.leading_articles)


@cache
def _folded_set(field: str) -> frozenset[str]:
    """A set of words of every pack, folded."""
    return frozenset(
        fold(w) for pack in PACKS.values() for w in cast(frozenset[str], getattr(pack, field))
    )


@cache
def _headings() -> tuple[tuple[str, ...], ...]:
    """Every furniture phrase as folded words, longest first (the reason names the longest)."""
    phrases = {tuple(_words(p)) for pack in PACKS.values() for p in pack.section_headings}
    return tuple(sorted((p for p in phrases if p), key=lambda p: (-len(p), p)))


def _is_number(word: str) -> bool:
    return (
        word.isdigit()
        or len(word) == 1
        or bool(_ROMAN.fullmatch(word))
        or word in _folded_set("number_words")
    )


def _links(word: str) -> bool:
    """A word that ties a heading word to what it is about: "Summary *of*", "Resumen *del*",
    "Exercises *3*", "Ringkasan *bab* 3", "مقدمة *في*"."""
    return (
        _is_number(word)
        or word in _folded_set("numbered_headings")
        or any(is_stopword(word, lang) for lang in LANGUAGES)
    )


def is_furniture(name: str) -> bool:
    """Whether ``name`` is one of the file's section headings, not an idea of the subject."""
    words = _words(name)
    if not words:
        return False
    if words[0] in _folded_set("numbered_headings") and (len(words) == 1 or _is_number(words[1])):
        return True
    before_colon = tuple(_words(_COLON.split(name, maxsplit=1)[0]))
    for phrase in _headings():
        n = len(phrase)
        if (
            tuple(words[-n:]) == phrase
            or before_colon == phrase
            or (len(words) > n and tuple(words[:n]) == phrase and _links(words[n]))
        ):
            return True
    return False


def rejection_reason(name: str) -> str | None:
    """Why ``name`` (as an extractor wrote it) cannot be a concept, or None when it can."""
    cleaned = clean_name(name)
    words = _words(cleaned)
    if not words or all(w in _articles() for w in words):
        return "empty name"
    if not any(ch.isalpha() for ch in cleaned):
        return "a number, not a name"
    if len(cleaned) > C.MAX_CONCEPT_CHARS:
        return f"longer than {C.MAX_CONCEPT_CHARS} characters: a passage, not a name"
    if is_furniture(cleaned):
        return "a section heading: the file's furniture, not an idea of the subject"
    if any(mark in cleaned for mark in _QUESTION_MARKS) or set(words) & _folded_set(
        "question_words"
    ):
        return "a question, not a name"
    if len(words) > C.MAX_CONCEPT_NAME_WORDS:
        return f"a sentence, not a name (more than {C.MAX_CONCEPT_NAME_WORDS} words)"
    # Trimming drops a final period; "Osmosis." is a name, "Cells need energy." a sentence.
    if name.rstrip().endswith(tuple(_SENTENCE_ENDS)) and len(words) > _SHORT_NAME_WORDS:
        return "a sentence, not a name (it ends like one)"
    if set(words[1:]) & _folded_set("copulas"):  # not the first: "Es krim" is ice cream
        return "a sentence, not a name (it says what something is)"
    return None


# --- validate ------------------------------------------------------------------------------------


def validate(drafts: Sequence[ConceptDraft]) -> ValidationReport:
    """Keep the drafts that name ideas of the subject, cleaned and merged; say why of the rest."""
    kept: dict[str, ConceptDraft] = {}
    rejected: list[tuple[ConceptDraft, str]] = []
    for draft in drafts:
        if reason := rejection_reason(draft.name):
            rejected.append((draft, reason))
            continue
        name = clean_name(draft.name)
        key = concept_key(name)
        clean = replace(
            draft,
            name=name,
            gist=_clip(draft.gist, C.MAX_SUMMARY_CHARS),
            definition=_clip(draft.definition, C.MAX_NOTE_CHARS),
            pages=tuple(sorted({p for p in draft.pages if p > 0})),
            aliases=_aliases(draft.aliases, key),
        )
        first = kept.get(key)
        if first is None:
            kept[key] = clean
            continue
        kept[key] = replace(
            first,
            gist=first.gist or clean.gist,
            definition=first.definition or clean.definition,
            builds_on=(*first.builds_on, *clean.builds_on),
            pages=tuple(sorted({*first.pages, *clean.pages})),
            aliases=_aliases((*first.aliases, *clean.aliases), key),
        )
        rejected.append((draft, f"the same concept as {first.name!r} (merged into it)"))

    out: list[ConceptDraft] = []
    for key, draft in kept.items():
        if len(out) == C.MAX_CONCEPTS_PER_FILE:
            rejected.append(
                (draft, f"over the bound of {C.MAX_CONCEPTS_PER_FILE} concepts per file")
            )
            continue
        out.append(replace(draft, builds_on=_builds_on(draft.builds_on, key)))
    return ValidationReport(kept=out, rejected=rejected)


def _builds_on(names: Sequence[str], own_key: str) -> tuple[str, ...]:
    """Trimmed, each once, without furniture, sentences or the concept itself."""
    out: dict[str, str] = {}
    for raw in names:
        if rejection_reason(raw):
            continue
        name = clean_name(raw)
        key = concept_key(name)
        if key and key != own_key and key not in out:
            out[key] = name
    return tuple(out.values())


def _aliases(names: Sequence[str], own_key: str) -> tuple[str, ...]:
    """Other names of a concept: cleaned, each once, never furniture or its own name."""
    out: dict[str, str] = {}
    for raw in names:
        if rejection_reason(raw):
            continue
        name = clean_name(raw)
        key = concept_key(name)
        if key and key != own_key and key not in out:
            out[key] = name
    return tuple(out.values())[: C.MAX_ALIASES]


def _clip(text: str, limit: int) -> str:
    """Whitespace tidied, and cut at a word boundary to ``limit`` characters."""
    text = _SPACES.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(_TRAILING) + "…"
