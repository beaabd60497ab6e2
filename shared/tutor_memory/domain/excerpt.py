"""Excerpts: a long episode told by the sentence or two that match the question (the block).

Pure and deterministic: the same text and terms give the same excerpt, byte for byte.

**Sentences** (``sentences``), in the five languages the project supports, one rule for all:

* a line break ends a sentence;
* ".", "!", "?" and "…" (runs of them, "?!", "...", and any closing quote or bracket after
  them) end a sentence where whitespace or the end of the text follows — so "3.5", "e.g.x" and
  "example.com" stay whole, while "Dr. Smith" is cut (a rare, harmless cut in an excerpt);
* Urdu "۔" and the Arabic-script question mark "؟" (Urdu and Arabic), and the full-width
  "！", "？", "。", end a sentence wherever they stand: they are never part of a number, and
  Arabic-script text often runs the next word on without a space;
* Spanish "¿" and "¡" open a sentence: "¿…?" and "¡…!" stay one sentence, and where a writer
  left out the full stop before them, a capital after them starts a new one ("Estudiamos la
  célula ¿Recuerdas el núcleo?" is two); "Hola ¿qué tal?" and "Hola, ¿Qué tal?" (after a
  comma, colon, semicolon, dash or bracket) are one;
* the Arabic comma "،" and semicolon "؛" end nothing (nor do "," and ";").

**Long** (``is_long``): more than ``BLOCK_EXCERPT_SENTENCES`` sentences, or more than
``BLOCK_EXCERPT_CHARS`` characters once its spacing is flattened. A short text is shown as it
was (``excerpt`` returns None).

**The excerpt of a long text** is at most ``BLOCK_EXCERPT_CHARS`` characters, its ellipses
included:

1. Matching: each sentence is analysed as the index analyses the episode (``language.analyse``
   in the language detected on the whole text, so a short sentence is not misread as another
   language) and scored by how many *distinct* question terms it holds. The best sentences
   (most terms; the earlier on a tie), at most ``BLOCK_EXCERPT_SENTENCES`` and only while they
   fit the cap, are kept **in their original order**. Neighbours are joined by a space; where
   sentences were left out between, before or after them, " … " marks the cut.
2. When even the best matching sentence alone is over the cap, a window of its words around
   its first matching word is shown (context on both sides of it: a "not" before a match is
   kept), its cuts marked the same way.
3. No sentence holding a term (a match by meaning or by concept only): the opening
   sentence(s), within the same cap (``matched`` is False, so the block may prefer a summary
   written for the episode).

A single word longer than the cap (a pasted URL) is cut by characters, so the cap always holds.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Final

from tutor_memory.domain import constants as C
from tutor_memory.domain import forgetting
from tutor_memory.domain.language import analyse, detect_language

ELLIPSIS: Final = "…"

# What may close a sentence after its mark: quotes and brackets of the five languages' texts.
_CLOSERS: Final = "\"'”’»)\\]"
# A Latin run starts only where a run starts and is never given back (possessive): a run not
# followed by a space ("....x") was retried from each of its marks and each shorter length — a
# 19,000-character message of dots cost every block that showed it 7.5 s of CPU. The same
# matches as before (a shorter run or a run's tail ends beside a mark, never before a space).
_END: Final = re.compile(
    rf"(?<![.!?\u2026])[.!?\u2026]++[{_CLOSERS}]*+(?=\s|$)"  # Latin: before a space or the end
    rf"|[\u06d4\u061f\uff01\uff1f\u3002][.!?\u2026\u06d4\u061f\uff01\uff1f\u3002]*[{_CLOSERS}]*"
)
# Spanish "¿" / "¡" before a capital open a sentence, unless a comma, colon, semicolon (Latin or
# Arabic), a dash or an opening bracket leads into them.
_OPENER: Final = re.compile(r"(?<=[^\s,;:(\[\u060c\u061b\u2013\u2014-])\s+[¿¡]+(?P<first>\w)")


@dataclass(frozen=True)
class Excerpt:
    text: str
    matched: bool  # it holds at least one of the question's terms


def _flat(text: str) -> str:
    return " ".join(text.split())


def sentences(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` (see the module), in order, each with its spacing flattened;
    no empty one."""
    out: list[str] = []
    for line in text.splitlines():
        start = 0
        pieces: list[str] = []
        for match in _END.finditer(line):
            pieces.append(line[start : match.end()])
            start = match.end()
        pieces.append(line[start:])
        for piece in pieces:
            for part in _opened(piece):
                flat = _flat(part)
                if flat:
                    out.append(flat)
    return tuple(out)


def _opened(piece: str) -> list[str]:
    """``piece`` cut before each "¿" or "¡" that opens a sentence (see ``_OPENER``)."""
    parts: list[str] = []
    start = 0
    for match in _OPENER.finditer(piece):
        if match.group("first").isupper():
            parts.append(piece[start : match.start()])
            start = match.start()
    parts.append(piece[start:])
    return parts


# Every character that can end or open a sentence: a text with at most one of them is at most
# two sentences, so a short text is told without being split.
_MARKS: Final = re.compile(
    "[.!?\u2026\u06d4\u061f\uff01\uff1f\u3002\n\r\u2028\u2029\x0b\x0c\x1c-\x1e\x85¿¡]"
)


def is_long(text: str) -> bool:
    """Whether ``text`` is told by an excerpt (see the module)."""
    if len(text) <= C.BLOCK_EXCERPT_CHARS and len(_MARKS.findall(text)) <= 1:
        return False  # the turn's common case, decided without splitting
    if len(_split(text)) > C.BLOCK_EXCERPT_SENTENCES:
        return True
    return len(_flat(text)) > C.BLOCK_EXCERPT_CHARS


@lru_cache(maxsize=C.BLOCK_EXCERPT_TEXTS_KEPT)
def _split(text: str) -> tuple[str, ...]:
    """``sentences``, remembered: the pair's texts come back turn after turn."""
    return sentences(text)


def analysed_sentences(text: str) -> tuple[frozenset[str], ...]:
    """The analysed terms of each sentence of ``text``, in order (see ``_analysed_sentences``):
    what recall's second hop reads of a message that says several things."""
    return _analysed_sentences(text)[0]


@lru_cache(maxsize=C.BLOCK_EXCERPT_TEXTS_KEPT)
def _analysed_sentences(text: str) -> tuple[tuple[frozenset[str], ...], str]:
    """The analysed terms of each of a long text's sentences, and the language they were
    analysed in (detected on the whole text, as the index does), remembered: a pair's long
    answers come back turn after turn, and detecting a text's language is most of the cost."""
    lang = detect_language(text)
    return tuple(frozenset(analyse(s, lang)) for s in _split(text)), lang


def _cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, an ellipsis marking any cut (the last resort)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


def _joined(parts: Sequence[str], chosen: Sequence[int]) -> str:
    """The chosen sentences in order: a space between neighbours, " … " where some were left
    out, and an ellipsis before or after when the text goes on."""
    out: list[str] = []
    if chosen[0] > 0:
        out.append(ELLIPSIS)
    for n, i in enumerate(chosen):
        if n and i > chosen[n - 1] + 1:
            out.append(ELLIPSIS)
        out.append(parts[i])
    if chosen[-1] < len(parts) - 1:
        out.append(ELLIPSIS)
    return " ".join(out)


def _joined_length(parts: Sequence[str], chosen: Sequence[int]) -> int:
    """``len(_joined(parts, chosen))``, without building it."""
    marks = (chosen[0] > 0) + (chosen[-1] < len(parts) - 1)
    marks += sum(b > a + 1 for a, b in pairwise(chosen))
    pieces = len(chosen) + marks
    return sum(len(parts[i]) for i in chosen) + marks * len(ELLIPSIS) + pieces - 1


def _window(words: Sequence[str], hit: int, before: bool, after: bool, limit: int) -> str:
    """Words around ``words[hit]`` within ``limit`` characters: first up to half the room
    before it, then as far after it as fits, then whatever room is left before it again.
    ``before``/``after``: text goes on beyond the sentence on that side."""

    def render(start: int, end: int) -> str:
        out = [*([ELLIPSIS] if start > 0 or before else []), *words[start:end]]
        if end < len(words) or after:
            out.append(ELLIPSIS)
        return " ".join(out)

    start, end = hit, hit + 1
    while start > 0 and len(render(start - 1, end)) <= limit // 2:
        start -= 1
    while end < len(words) and len(render(start, end + 1)) <= limit:
        end += 1
    while start > 0 and len(render(start - 1, end)) <= limit:
        start -= 1
    return _cut(render(start, end), limit)


def excerpt(text: str, terms: Collection[str]) -> Excerpt | None:
    """The excerpt of a long ``text`` for a question of analysed ``terms`` (see the module);
    None when ``text`` is short and is shown as it is."""
    if not is_long(text):
        return None
    parts = _split(text)
    analysed_parts, lang = _analysed_sentences(text)
    limit = C.BLOCK_EXCERPT_CHARS
    wanted = frozenset(terms)
    found = [len(wanted & terms_of) for terms_of in analysed_parts]
    ranked = sorted((i for i, n in enumerate(found) if n), key=lambda i: (-found[i], i))
    if ranked:
        chosen: list[int] = []
        used = 0  # the chosen sentences' characters: a lower bound on the excerpt's length
        for i in ranked:
            if used + len(parts[i]) > limit:
                continue
            trial = sorted([*chosen, i])
            if _joined_length(parts, trial) <= limit:
                used += len(parts[i])
                chosen = trial
                if len(chosen) == C.BLOCK_EXCERPT_SENTENCES:
                    break
        if chosen:
            return Excerpt(_joined(parts, chosen), True)
        best = ranked[0]
        words = parts[best].split(" ")
        hit = next((k for k, w in enumerate(words) if wanted.intersection(analyse(w, lang))), 0)
        window = _window(words, hit, best > 0, best < len(parts) - 1, limit)
        return Excerpt(window, True)
    opening = [0]
    for i in range(1, min(len(parts), C.BLOCK_EXCERPT_SENTENCES)):
        if len(_joined(parts, [*opening, i])) > limit:
            break
        opening.append(i)
    shown = _joined(parts, opening)
    if len(shown) > limit:  # the first sentence alone is over the cap: its first words
        shown = _window(parts[0].split(" "), 0, False, len(parts) > 1, limit)
    return Excerpt(shown, False)


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(_split)
forgetting.lru(_analysed_sentences)
