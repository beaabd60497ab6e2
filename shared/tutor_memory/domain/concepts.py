"""Concept names and their canonical keys: one key for every spelling of one name.

The key is script-aware: Unicode NFKC, casefold; Latin accents stripped ("Célula" → "celula");
Arabic-script diacritics (harakat, superscript alef) and tatweel stripped, alef forms unified
— letters that carry meaning (Urdu ٹ ڈ ڑ ں ے, Persian/Urdu ک گ) are kept; punctuation and
runs of spacing become one space. Two names with the same key are the same concept.
"""

from __future__ import annotations

import re
import unicodedata

_ARABIC_MARKS = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]")
_ALEF_FORMS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا"})
_NOT_WORD = re.compile(r"[^\w]+")


def _strip_latin_accents(text: str) -> str:
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and out and _is_latin(out[-1]):
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _is_latin(ch: str) -> bool:
    return ch.isascii() or "LATIN" in unicodedata.name(ch, "")


def concept_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    text = _strip_latin_accents(text)
    text = _ARABIC_MARKS.sub("", text).translate(_ALEF_FORMS)
    return " ".join(_NOT_WORD.sub(" ", text).replace("_", " ").split())
