"""Concept names and their canonical keys: one key for every spelling of one name.

The key is the name folded as the language analyser folds text (NFKC, casefold, Latin accents
stripped, Arabic-script diacritics and tatweel dropped, alef forms and the letters Urdu and
Arabic write differently unified, letters that carry meaning kept — see ``language.fold``),
with punctuation and runs of spacing reduced to single spaces. Two names with the same key are
the same concept; matching a name is exact on the key, never fuzzy.

**Inflected forms** (``same_name``) are one concept too when a file or the map holds both:
"Acids" and "Acid", "Indicators" and "Indicator", "células" and "célula", "sel-sel" (the
Indonesian plural by reduplication) and "sel". Two names are forms of one another when they
have the same number of words and every pair of words is equal or has the same stem under the
name's language stemmer *and* differs only in an ending of at most two letters: an inflection,
not a derivation — Snowball stems "organism" to "organ", and those are two concepts. The key
itself stays the folded name (stored keys do not change); merging looks the other form up.

**Cognates across languages** (``cognates``) are one concept too: "mitocondria" and
"Mitochondria", "fotosíntesis" and "Photosynthesis", "citoplasma" and "Cytoplasm", "núcleo" and
"Nucleus". Latin-script words are compared after the spellings that differ between the
languages' traditions are made one (ch→c, ph→f, th→t, y→i, k→c, a doubled letter single):
equal then, or sharing at least ``COGNATE_MIN_STEM`` letters and differing only in an ending of
at most two vowels, "s" or "n" (the endings by which es and id forms differ from en: -o/-us,
-a, -es, -on). Any other ending is a derivation, never merged ("organism"/"organic",
"nucleus"/"nucleolus"). Names in other scripts merge only through an alias (a file's, a
teaching's or the model's): their translations share no letters with the English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from tutor_memory.domain.language import detect_language, fold, stem

_WORDS = re.compile(r"[^\W_]+")
_REDUPLICATED = re.compile(r"\b([^\W_]+)-\1\b", re.IGNORECASE)  # "sel-sel", "buku-buku"
INFLECTION_MAX_ENDING: Final = 2  # ours: letters an inflectional ending may differ by
COGNATE_MIN_STEM: Final = 5  # ours: "nucle" of núcleo/nucleus; shorter stems meet by chance
_COGNATE_SPELLINGS: Final = (("ch", "c"), ("ph", "f"), ("th", "t"), ("y", "i"), ("k", "c"))
_COGNATE_ENDING: Final = frozenset("aeiousn")
_DOUBLED = re.compile(r"(.)\1")


def concept_key(name: str) -> str:
    return " ".join(_WORDS.findall(fold(name)))


def _words(name: str) -> list[str]:
    return _WORDS.findall(fold(_REDUPLICATED.sub(r"\1", name)))


def _same_word(a: str, b: str, lang: str) -> bool:
    if a == b:
        return True
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    if max(len(a), len(b)) - common > INFLECTION_MAX_ENDING or common < 3:
        return False
    return stem(a, lang) == stem(b, lang)


def _cognate_word(word: str) -> str:
    for written, sound in _COGNATE_SPELLINGS:
        word = word.replace(written, sound)
    return _DOUBLED.sub(r"\1", word)


def _cognate_words(a: str, b: str) -> bool:
    x, y = _cognate_word(a), _cognate_word(b)
    if x == y:
        return True
    common = 0
    for p, q in zip(x, y, strict=False):
        if p != q:
            break
        common += 1
    ends = x[common:] + y[common:]
    return (
        common >= COGNATE_MIN_STEM
        and max(len(x), len(y)) - common <= INFLECTION_MAX_ENDING
        and set(ends) <= _COGNATE_ENDING
    )


def cognates(a: str, b: str) -> bool:
    """Whether two Latin-script names are one name written in two languages (see the module)."""
    wa, wb = _words(a), _words(b)
    if len(wa) != len(wb) or not wa or not all(w.isascii() for w in (*wa, *wb)):
        return False
    return all(_cognate_words(x, y) for x, y in zip(wa, wb, strict=True))


def same_name(a: str, b: str) -> bool:
    """Whether two concept names are one name, or inflected forms of it (see the module)."""
    if concept_key(a) == concept_key(b):
        return True
    wa, wb = _words(a), _words(b)
    if len(wa) != len(wb) or not wa:
        return False
    if cognates(a, b):
        return True
    return any(
        all(_same_word(x, y, lang) for x, y in zip(wa, wb, strict=True))
        for lang in dict.fromkeys((detect_language(a), detect_language(b)))
    )


def find_form(
    name: str, names: Mapping[str, str], owners: Mapping[str, str] | None = None
) -> str | None:
    """The key in ``names`` (key → display name) of ``name`` or of another form of it; with
    ``owners`` (key → the key it stands for, e.g. an alias's concept), that key instead."""
    key = concept_key(name)
    found = key if key in names else None
    if found is None:
        found = next((k for k, other in names.items() if same_name(name, other)), None)
    if found is None or owners is None:
        return found
    return owners.get(found, found)
