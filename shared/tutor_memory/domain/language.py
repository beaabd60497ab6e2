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

Stopwords are function words only (see ``wordlists``), and those of the text's language only,
not of all five: the lists collide across languages (Indonesian "dia", he, is folded Spanish
"día", day; "air" is Indonesian water), and a union would drop subject words. Index and
question use the same rule, so they agree.

Stemming: Snowball for en, es, id. Arabic: the Light10 stemmer (Larkey, Ballesteros and
Connell 2007; the one Lucene's ArabicStemmer implements), not Snowball: Snowball Arabic keeps
or drops the article depending on the rest of the word (الخلية→الخل, خلية→خل, والخلية→والخل),
strips the plural ات only from definite nouns (بروتينات→روتينا, البروتينات→بروتين), and takes
the ب of loanwords for a preposition (بروتين→روت, فيروس→يروس). Light10 strips the article
and the clitics و ب ك ف ل before it, then the common suffixes, and is consistent on all of
those. Urdu has no stemmer in Snowball: after folding, one regular inflection ending is
stripped (خلیہ/خلیے/خلیوں → خلي), nothing more.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import cache
from typing import Any, Final

from tutor_memory.domain import wordlists
from tutor_memory.domain.errors import ValidationError

LANGUAGES: Final = ("en", "es", "id", "ur", "ar")

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

    Arabic script: Urdu if a letter Arabic does not write (ٹ ڈ ڑ ں ے ہ ھ) appears, or if
    Urdu function words and keyboard letters (ک ی against ك ي ة) outnumber Arabic ones; else
    Arabic. Latin script: the language with the most function-word hits (Spanish also gets a
    vote for ¿ ¡ ñ or an accent); ties go to English.
    """
    raw = unicodedata.normalize("NFKC", text)
    arabic = sum(1 for ch in raw if _is_arabic_script(ch) and ch.isalpha())
    latin = sum(1 for ch in raw if ch.isalpha() and _is_latin(ch))
    markers = {lang: _markers(lang) for lang in LANGUAGES}
    words = tokens(raw)
    if arabic > latin:
        if any(ch in wordlists.URDU_LETTERS for ch in raw):
            return "ur"
        ur = sum(w in markers["ur"] for w in words)
        ur += any(ch in wordlists.URDU_KEYBOARD_LETTERS for ch in raw)
        ar = sum(w in markers["ar"] for w in words)
        ar += any(ch in wordlists.ARABIC_KEYBOARD_LETTERS for ch in raw)
        return "ur" if ur > ar else "ar"
    scores = {lang: sum(w in markers[lang] for w in words) for lang in ("en", "es", "id")}
    if any(ch in wordlists.SPANISH_MARKS for ch in raw.casefold()):
        scores["es"] += 1
    best = max(scores.values())
    # dicts keep insertion order, so "en" wins a tie
    return next(lang for lang, score in scores.items() if score == best)


@cache
def _markers(lang: str) -> frozenset[str]:
    return frozenset(fold(w) for w in wordlists.DETECTION_MARKERS[lang])


# --- stopwords -----------------------------------------------------------------------------------


def _check(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValidationError("lang", f"unsupported language {lang!r}; one of {LANGUAGES}")


@cache
def stopwords(lang: str) -> frozenset[str]:
    """Folded stopwords of ``lang``: the published list (Snowball en/es/id, Lucene ar; ours for
    Urdu), plus additions and asking words, minus the subject-word exceptions (see
    ``wordlists``): function words only, so content words and abbreviations ("pH", "ER")
    stay."""
    _check(lang)
    raw = (
        wordlists.PUBLISHED_STOPWORDS[lang]
        | wordlists.STOPWORD_ADDITIONS[lang]
        | wordlists.ASKING_WORDS[lang]
        | (wordlists.URDU_STOPWORDS if lang == "ur" else frozenset())
    )
    words = {fold(w) for w in raw}
    exceptions = {fold(w) for w in wordlists.STOPWORD_EXCEPTIONS[lang]}
    # Entries with spaces or apostrophes ("por qué", "don't") can never equal one token.
    return frozenset(w for w in words - exceptions if _WORD.fullmatch(w))


# A conjunction or preposition glued to an Arabic stopword is still one: وهذا, بهذا, ولكن.
# Only for stopwords of three letters or more: لحم (meat) is not ل + حم, لهب (flame) not ل + هب.
_ARABIC_PROCLITICS: Final = frozenset("وفبلك")


def is_stopword(token: str, lang: str) -> bool:
    """Whether a folded token is a stopword of ``lang``."""
    words = stopwords(lang)
    if token in words:
        return True
    return lang == "ar" and len(token) > 3 and token[0] in _ARABIC_PROCLITICS and token[1:] in words


# --- stemming ------------------------------------------------------------------------------------

_SNOWBALL: Final = {"en": "english", "es": "spanish", "id": "indonesian"}
# Snowball stemmer objects keep state between calls, so each thread gets its own.
_local = threading.local()


def _snowball(lang: str) -> Any:
    stemmers: dict[str, Any] | None = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = {}
        _local.stemmers = stemmers
    stemmer = stemmers.get(lang)
    if stemmer is None:
        # imported on first use: the package loads all its ~30 stemmers (~20 ms of cold start)
        import snowballstemmer

        stemmer = snowballstemmer.stemmer(_SNOWBALL[lang])
        stemmers[lang] = stemmer
    return stemmer


# Light10, over folded text (so ة is already ه, and أ إ آ are ا).
_AR_PREFIXES: Final = ("ال", "وال", "بال", "كال", "فال", "لل")
_AR_SUFFIXES: Final = ("ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي")


def _stem_arabic(word: str) -> str:
    for prefix in _AR_PREFIXES:
        if word.startswith(prefix) and len(word) >= len(prefix) + 2:
            word = word[len(prefix) :]
            break
    else:
        # a bare و ("and") only when what is left still looks like a word
        if word.startswith("و") and len(word) >= 4:
            word = word[1:]
    for suffix in _AR_SUFFIXES:
        if word.endswith(suffix) and len(word) >= len(suffix) + 2:
            word = word[: -len(suffix)]
    return word


# Urdu, folded: plural and oblique endings of nouns and adjectives (-یاں -یوں -وں -یں -اں)
# and the gender/number vowels (-ے -ه -ي -ا). One ending, longest first, and a stem of at
# least three letters, so short words survive: لڑكا/لڑكے/لڑكي/لڑكوں/لڑكياں → لڑك.
_UR_SUFFIXES: Final = ("ياں", "يوں", "وں", "يں", "اں", "ے", "ه", "ي", "ا")


def _stem_urdu(word: str) -> str:
    for suffix in _UR_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stem(token: str, lang: str) -> str:
    """The stem of a folded token in ``lang`` (Snowball en/es/id, Light10 ar, light ur)."""
    _check(lang)
    if not token or token.isdigit():
        return token
    if lang == "ar":
        return _stem_arabic(token)
    if lang == "ur":
        return _stem_urdu(token)
    return str(_snowball(lang).stemWord(token))


# --- analysis ------------------------------------------------------------------------------------


def analyse(text: str, lang: str | None = None) -> list[str]:
    """The terms of ``text``: folded, tokenised, stopwords of its language dropped, stemmed,
    in order (repeats kept). ``lang`` defaults to ``detect_language(text)``."""
    if lang is None:
        lang = detect_language(text)
    _check(lang)
    terms: list[str] = []
    for token in tokens(text):
        if is_stopword(token, lang):
            continue
        term = stem(token, lang)
        if term:
            terms.append(term)
    return terms


def distinctive_terms(text: str, lang: str | None = None) -> list[str]:
    """The terms of a question, each once, in order: what the lexical pool searches for."""
    return list(dict.fromkeys(analyse(text, lang)))
