"""A conservative token count for the block's budgets, with no tokenizer model.

No tokenizer can be fetched here (tiktoken downloads its BPE files at run time), and the block
must fit whichever model the tutor calls. So this is an *estimate* built to err high: a budget
that counts a little too much shows one line fewer; one that counts too little overflows a
prompt. It is deterministic, pure, and cheap enough for the turn path.

The text is cut into runs of one kind of character, and each run is priced on its own:

* **Latin word** of n characters: ``1 + max(n - 2, 0) // 3`` (words of up to 4 letters 1,
  5–7 letters 2, 8–10 letters 3, …), plus 1 for every non-ASCII letter or combining mark (é,
  ñ: two UTF-8 bytes that often split a word). English averages ~1.3 tokens a word; Spanish and
  Indonesian words are longer and split more, and one rate has to cover all three.
* **Arabic-script word** (Urdu, Arabic) of n characters: ``1 + (3 b + 6 o) // 4``, where b
  counts the basic Arabic letters (U+0621–U+064A, ~0.75 a letter) and o everything else
  (Urdu and Persian letters such as ٹ ڈ ڑ ں ے ہ ھ ک ی, harakat, presentation forms: ~1.5).
  On GPT-4's cl100k an Arabic word costs 3–4 tokens and an Urdu one 4–5 — roughly 1.2 tokens
  a character, since Urdu's letters were rare in its training data.
* **Other letters** (CJK, Devanagari, Cyrillic, …): 1 a character; rarely merged, CJK is
  1–2 tokens a character.
* **Digits**: ``ceil(n / 3)``; numbers are split into groups of up to three digits.
* **Punctuation**: 1 a character ("..." is often one token; three is safe).
* **Symbols, emoji, invisible marks**: 2 a character; their 3–4 UTF-8 bytes are split by
  byte-level BPE.
* **Spacing**: one space is free (it merges into the word after it, " cell"); a longer run of
  spaces or a tab costs 1; every line break costs 1.

How the rates were set: against cl100k and o200k (exact BPE counts from a tokenizer package
used once, offline, outside the project) on sentences in the five languages (tutor questions,
gists, block lines). The estimate over the worse of the two was: English ×1.34, Spanish ×1.30,
Indonesian ×0.98, Urdu ×1.04, Arabic ×1.09 overall, and no sentence below ×0.89 (a short
Arabic question). o200k (GPT-4o) and similar newer vocabularies need about half as many tokens
for Arabic script, so there this overcounts twofold — by design: too high shows a line fewer,
too low overflows a prompt.

Two properties the budgets rely on, both tested: appending text never lowers the count (a run
only grows or a new run starts, and every price grows with its run), and lines add up —
``count_tokens("\\n".join(lines)) == sum(map(count_tokens, lines)) + len(lines) - 1`` — because
no run crosses a line break.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Final

from tutor_memory.domain import forgetting

TokenCounter = Callable[[str], int]


def _is_latin(ch: str) -> bool:
    # Basic Latin through IPA Extensions, and Latin Extended Additional (ạ, ế, …).
    return ch < "\u0250" or "\u1e00" <= ch <= "\u1eff"


def _is_arabic_script(ch: str) -> bool:
    return (
        "\u0600" <= ch <= "\u06ff"
        or "\u0750" <= ch <= "\u077f"
        or "\u0870" <= ch <= "\u08ff"
        or "\ufb50" <= ch <= "\ufdff"
        or "\ufe70" <= ch <= "\ufeff"
    )


# Kinds of character, one letter each in the string of kinds ``count_tokens`` reads: L an ASCII
# letter, l another Latin letter (it costs one more), B a basic Arabic letter, A another
# Arabic-script letter, X any other letter, D a digit, P punctuation, s one plain space (free
# alone), S other spacing, N a line break, O anything else; M a combining mark, until the
# letter before it is known.
_MARK: Final = "M"
# ours: characters whose kind is remembered (five languages use a few hundred); past it a new
# character is classified each time, so text made of every code point cannot grow the table.
KINDS_KEPT: Final = 4_096


def _code(ch: str) -> str:
    """One character's kind code (see above)."""
    if ch in "\n\r":
        return "N"
    if ch == " ":
        return "s"
    if ch.isspace():
        return "S"
    category = unicodedata.category(ch)
    if category.startswith("M"):
        return _MARK
    if category == "Nd":
        return "D"
    if category.startswith("L"):
        if _is_arabic_script(ch):
            return "B" if "\u0621" <= ch <= "\u064a" else "A"
        if _is_latin(ch):
            return "L" if ch.isascii() else "l"
        return "X"
    if category.startswith("P"):
        return "P"
    return "O"


class _Kinds(dict[int, str]):
    """``str.translate``'s table: a code point's kind code, worked out the first time the
    character is seen."""

    def __missing__(self, point: int) -> str:
        code = _code(chr(point))
        if len(self) < KINDS_KEPT:
            self[point] = code
        return code


_KINDS: Final = _Kinds()
# A combining mark belongs to the letter before it (é written as e + ◌́, Urdu harakat) and
# costs as a non-ASCII Latin letter or a non-basic Arabic one; after anything else it is a
# symbol.
_MARKS_AFTER_LETTER: Final = re.compile(r"([LlABX])M+")
_MARK_AS: Final = {"L": "l", "l": "l", "A": "A", "B": "A", "X": "X"}
_LATIN_RUNS: Final = re.compile(r"[Ll]+")
_ARABIC_RUNS: Final = re.compile(r"[AB]+")
_DIGIT_RUNS: Final = re.compile(r"D+")
_PAID_SPACING: Final = re.compile(r"s[sS]+|S[sS]*")  # every run of spacing but one plain space


def _with_marks_placed(kinds: str) -> str:
    return _MARKS_AFTER_LETTER.sub(
        lambda m: m[1] + _MARK_AS[m[1]] * (len(m[0]) - 1), kinds
    ).replace(_MARK, "O")


# A turn counts the same lines again and again (every candidate line, each budget pass): a text
# is priced once per process. Bounded, so a long-running server does not grow without end.
TOKEN_COUNT_CACHE: Final = 65_536  # ours


@lru_cache(maxsize=TOKEN_COUNT_CACHE)
def count_tokens(text: str) -> int:
    """A conservative estimate of how many tokens ``text`` costs an LLM (see the module);
    memoised per text. Each character's kind comes from one ``str.translate``; the prices that
    need a run's length are read from regular expressions over the kinds, the others are
    counts. (Read a character at a time, with a Python call for each, a text never seen before
    — a new question's hits at 100k — cost ~4x this; a test holds the two to the same count.)"""
    kinds = text.translate(_KINDS)
    if _MARK in kinds:
        kinds = _with_marks_placed(kinds)
    count = kinds.count
    total = count("X") + count("P") + count("N") + 2 * count("O") + count("l")
    total += sum([1 + (n - 2) // 3 if n > 2 else 1 for n in map(len, _LATIN_RUNS.findall(kinds))])
    total += len(_PAID_SPACING.findall(kinds))
    if "D" in kinds:
        total += sum([-(-len(run) // 3) for run in _DIGIT_RUNS.findall(kinds)])
    if "A" in kinds or "B" in kinds:
        for run in _ARABIC_RUNS.findall(kinds):
            basic = run.count("B")
            total += 1 + (3 * basic + 6 * (len(run) - basic)) // 4
    return total


def fit_lines(lines: Iterable[str], budget: int, count: TokenCounter = count_tokens) -> list[str]:
    """The longest run of whole ``lines``, in order, whose text (joined by line breaks) costs at
    most ``budget`` tokens. The first line that does not fit ends it: a later, shorter line is
    not slipped in, so what is kept is always a prefix."""
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = count(line) + (count("\n") if kept else 0)
        if used + cost > budget:
            break
        kept.append(line)
        used += cost
    # Lines add up for count_tokens; a counter passed in might not, so check the real text.
    while kept and count("\n".join(kept)) > budget:
        kept.pop()
    return kept


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(count_tokens)
