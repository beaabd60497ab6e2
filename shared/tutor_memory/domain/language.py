"""The text analyser that both the lexical index and the question use.

An episode is indexed by its *terms* (folded, tokenised, stopwords dropped, stemmed); a question
is analysed the same way and matches an episode when they share a term. Anything that changes
the terms of a text (a fold rule, a stopword, a stemmer) means re-indexing stored episodes.

Folding (``fold``), one table for all five languages:

=====================================  ==========  ============================================
what                                   becomes     why
=====================================  ==========  ============================================
any text                               NFKC,       compatibility forms (ligatures, full-width,
                                       casefold    Arabic presentation forms) and case vanish
Latin accents (é ñ ü ç)                e n u c     "ósmosis" = "osmosis"; ñ→n merges año/ano,
                                                   acceptable for matching
Arabic harakat U+064B–065F, U+0670,    removed     vowel signs are optional; few texts have them
Quranic marks U+0610–061A, U+06D6–06ED
tatweel ـ U+0640                       removed     pure elongation
zero-width and direction marks         removed     ZWNJ inside Urdu words, RLM/LRM from editors
alef أ إ آ ٱ                           ا           hamza/madda on alef is spelt inconsistently
yeh ى (alef maksura), ی (Farsi/Urdu)   ي           Urdu and Arabic keyboards type different yehs
kaf ک (Urdu), ڪ                        ك           same letter, two code points
heh ہ (Urdu goal), ة ۃ (teh marbuta),  ه           Urdu writes خلیہ where Arabic writes خلية
ۀ ۂ (with hamza)                                   (cell): both become خليه; informal Arabic
                                                   types ه for ة anyway
Arabic-Indic ٠–٩, Eastern ۰–۹ digits   0–9         "۲۰۲۵" is a year like "2025"
kept: ے ں ٹ ڈ ڑ ھ ئ ؤ ء پ چ گ ژ         as is       they distinguish Urdu words (کہا said /
                                                   کھا eat, کی / کے)
=====================================  ==========  ============================================

Stopwords are function words only (see ``languages``), and those of the text's language only,
not of all five: the lists collide across languages (Indonesian "dia", he, is folded Spanish
"día", day; "air" is Indonesian water), and a union would drop subject words. Index and
question use the same rule, so they agree.

Stemming: each pack's ``stem`` hook: Snowball for en, es, id; Light10 for Arabic and one
inflection ending for Urdu (their modules say why).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from typing import Final

from tutor_memory.domain import constants as C
from tutor_memory.domain import forgetting
from tutor_memory.domain.languages import LANGUAGES as PACKS
from tutor_memory.domain.languages import Language, language

# The codes, in the registry's order.
LANGUAGES: Final = tuple(PACKS)

# --- fold ----------------------------------------------------------------------------------------

_INVISIBLE = re.compile("[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_ARABIC_MARKS = re.compile(
    "[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08e1\u08e3-\u08ff\u0640]"
)
_LETTERS = str.maketrans(
    {
        **dict.fromkeys("أإآٱٲٳٵ", "ا"),
        **dict.fromkeys("ىی", "ي"),
        **dict.fromkeys("کڪ", "ك"),
        **dict.fromkeys("ہةۃۀۂ", "ه"),
        **{chr(0x0660 + d): str(d) for d in range(10)},
        **{chr(0x06F0 + d): str(d) for d in range(10)},
    }
)


def _is_latin(ch: str) -> bool:
    # Basic Latin through IPA, and Latin Extended Additional (ạ, ế, …).
    return ch < "\u0250" or "\u1e00" <= ch <= "\u1eff"


def _strip_latin_accents(text: str) -> str:
    # Decompose, drop marks that sit on a Latin letter, recompose. Arabic letters also
    # decompose (أ = ا + hamza) but get their marks back on recomposition.
    out: list[str] = []
    base_is_latin = False
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if not base_is_latin:
                out.append(ch)
            continue
        base_is_latin = _is_latin(ch)
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def fold(text: str) -> str:
    """Normalise ``text`` for matching; see the table in the module docstring."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text).casefold()
    if not text.isascii():
        text = _strip_latin_accents(text)
        text = _ARABIC_MARKS.sub("", text).translate(_LETTERS)
    return text


# --- tokens --------------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")


def folded_tokens(folded: str) -> list[str]:
    """The words of text that is already folded (``tokens`` without the fold).

    Single Latin letters ("a", the "s" of "cell's") carry no meaning; single digits do.
    """
    return [w for w in _WORD.findall(folded) if len(w) > 1 or not (w.isascii() and w.isalpha())]


def tokens(text: str) -> list[str]:
    """The words of the folded text, in order: letters and digits, any script."""
    return folded_tokens(fold(text))


# --- language detection --------------------------------------------------------------------------


def _is_arabic_script(ch: str) -> bool:
    return "\u0600" <= ch <= "\u06ff" or "\u0750" <= ch <= "\u077f" or "\ufb50" <= ch <= "\ufeff"


def detect_language(text: str) -> str:
    """``en``, ``es``, ``id``, ``ur`` or ``ar``: script first, then function words.

    Among the languages of the text's script (Arabic script when it has more Arabic letters
    than Latin ones): the language of a letter only it writes (``own_letters``: Urdu ٹ ڈ ڑ ں
    ے ہ ھ); else the most function-word hits (``detection_markers``), one more vote for a
    text with any of its ``vote_letters`` (Urdu keyboards' ک ی against Arabic's ك ي ى ة;
    Spanish ¿ ¡ ñ or an accent). Ties go to the script's default (English, Arabic). A
    Latin-script text with more of a language's ``latin_markers`` than the best of those is
    that language in Latin letters (Roman Urdu: "mujhe samajh nahi aaya" is ``ur``).
    """
    raw = unicodedata.normalize("NFKC", text)
    # An ASCII text has no Arabic letter (the script test read a character at a time is the
    # most of detecting a new text's language, and most chat lines are ASCII).
    script = "latin"
    if not raw.isascii():
        arabic = sum(1 for ch in raw if _is_arabic_script(ch) and ch.isalpha())
        latin = sum(1 for ch in raw if ch.isalpha() and _is_latin(ch))
        script = "arabic" if arabic > latin else "latin"
    candidates = _candidates(script)
    for pack in candidates:
        if not pack.own_letters.isdisjoint(raw):
            return pack.code
    words = tokens(raw)
    folded_case = raw.casefold()
    scores = {
        pack.code: sum(w in _markers(pack.code) for w in words)
        + (not pack.vote_letters.isdisjoint(folded_case))
        for pack in candidates
    }
    best = max(scores.values())
    if script == "latin":  # a language of another script written in Latin letters (Roman Urdu)
        for pack in _latin_writers():
            if sum(w in pack.latin_markers for w in words) > best:
                return pack.code
    # dicts keep insertion order, so the script's default wins a tie
    return next(lang for lang, score in scores.items() if score == best)


@cache
def _latin_writers() -> tuple[Language, ...]:
    """The languages of another script that their speakers also write in Latin letters."""
    return tuple(pack for pack in PACKS.values() if pack.script != "latin" and pack.latin_markers)


@cache
def _candidates(script: str) -> tuple[Language, ...]:
    """The languages of ``script``, the default first, then in the registry's order."""
    packs = [pack for pack in PACKS.values() if pack.script == script]
    return tuple(sorted(packs, key=lambda pack: not pack.script_default))


@cache
def _markers(lang: str) -> frozenset[str]:
    return frozenset(fold(w) for w in language(lang).detection_markers)


# --- stopwords -----------------------------------------------------------------------------------


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Folded stopwords of ``lang``: the pack's list (Snowball en/es/id, Lucene ar; ours for
    Urdu), plus additions and asking words, minus the subject-word exceptions (see
    ``languages``): function words only, so content words and abbreviations ("pH", "ER")
    stay."""
    pack = language(lang)
    raw = pack.stopwords | pack.stopword_additions | pack.asking_words
    words = {fold(w) for w in raw}
    exceptions = {fold(w) for w in pack.stopword_exceptions}
    # Entries with spaces or apostrophes ("por qué", "don't") can never equal one token.
    return frozenset(w for w in words - exceptions if _WORD.fullmatch(w))


def is_stopword(token: str, lang: str) -> bool:
    """Whether a folded token is a stopword of ``lang``: one of its list, or (``stopword_
    proclitics``: Arabic وهذا, بهذا, ولكن) one glued to a proclitic, for stopwords of three
    letters or more (لحم, meat, is not ل + حم; لهب, flame, not ل + هب)."""
    words = stopwords(lang)
    if token in words:
        return True
    proclitics = language(lang).stopword_proclitics
    return len(token) > 3 and token[0] in proclitics and token[1:] in words


# --- stemming ------------------------------------------------------------------------------------


# A subject's vocabulary repeats (the map's concept texts are analysed on a turn's first read of
# them: domain/mapfocus.py); Snowball in pure Python costs ~20 µs a word.
@lru_cache(maxsize=65_536)
def stem(token: str, lang: str) -> str:
    """The stem of a folded token in ``lang`` (the pack's hook: Snowball en/es/id, Light10 ar,
    light ur)."""
    pack = language(lang)
    if not token or token.isdigit():
        return token
    return pack.stem(token)


def load_stemmers() -> None:
    """Load every language's stemmer on this thread now. Snowball's package builds the tables
    of all its ~30 algorithms on first import (~8k objects): loaded while a memory opens, they
    are frozen with the rest of start-up instead of being walked by every full collection."""
    for code in LANGUAGES:
        language(code).stem("reading")


# --- analysis ------------------------------------------------------------------------------------


def analyse(text: str, lang: str | None = None) -> list[str]:
    """The terms of ``text``: folded, tokenised, stopwords of its language dropped, stemmed,
    in order (repeats kept). ``lang`` defaults to ``detect_language(text)``."""
    if lang is None:
        lang = detect_language(text)
    language(lang)  # an unsupported language is an error even for a text with no words
    terms: list[str] = []
    for token in tokens(text):
        if is_stopword(token, lang):
            continue
        term = stem(token, lang)
        if term:
            terms.append(term)
    return terms


@lru_cache(maxsize=C.ANALYSED_TEXTS_KEPT)
def analysed(text: str, lang: str | None = None) -> tuple[str, ...]:
    """``analyse``, remembered per text: the map focus and recall's second hop analyse the
    same concept and episode texts turn after turn (language detection is most of the cost)."""
    return tuple(analyse(text, lang))


def distinctive_terms(text: str, lang: str | None = None) -> list[str]:
    """The terms of a question, each once, in order: what the lexical pool searches for."""
    return list(dict.fromkeys(analyse(text, lang)))


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(stem)
forgetting.lru(analysed)
