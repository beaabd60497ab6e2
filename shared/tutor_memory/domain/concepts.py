"""Concept names and their canonical keys: one key for every spelling of one name.

The key is the name folded as the language analyser folds text (NFKC, casefold, Latin accents
stripped, Arabic-script diacritics and tatweel dropped, alef forms and the letters Urdu and
Arabic write differently unified, letters that carry meaning kept — see ``language.fold``),
with punctuation and runs of spacing reduced to single spaces. Two names with the same key are
the same concept; matching a name is exact on the key, never fuzzy.
"""

from __future__ import annotations

import re

from tutor_memory.domain.language import fold

_WORDS = re.compile(r"[^\W_]+")


def concept_key(name: str) -> str:
    return " ".join(_WORDS.findall(fold(name)))
