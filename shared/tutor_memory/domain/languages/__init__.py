"""Language packs: one module a language, each one ``Language`` object (``base``).

The five: English (``en``), Spanish (``es``), Indonesian (``id``), Urdu (``ur``), Arabic
(``ar``). Each pack holds everything the code knows about its language: stopwords and stemmer
(``language``), detection markers, month and time words and the cues of a time question
(``timewords``), teaching phrasings (``teaching``), heading furniture, number words and the
shapes of a definition (``validator``, ``offline_extractor``), utterance words (``beliefs``)
and record-question phrasings (``block``). The code reads packs, never a language code: a
rule that only one language needs reads a grammar hook (a field that is empty elsewhere).

Sources: stopwords for en, es, id are Snowball's stop lists (BSD), for ar Lucene's Arabic list
(Jacques Savoy, BSD), copied as data with their addresses in ``stopword_source``, plus
documented additions of ours; Urdu's is ours. Month names come from Babel's CLDR data (only
the judgement calls about them are here). Everything else is ours.

Adding a language (say Hindi, ``hi``):

1. Copy the closest pack (``ur.py`` for a verb-final language) to ``hi.py`` and fill every
   field; the constructor has no defaults, so a field left out is an error at import. A
   hook (``optional`` in ``base``) that does not apply stays empty.
2. Add it to ``LANGUAGES`` below. Order matters in two places: a phrase two languages share
   belongs to the later one, and a tie in detection goes to the script's default first and
   then to the earlier language.
3. If it writes a new script, teach ``language.detect_language`` the script's letters.
4. Add its test data: its examples in the parametrised tests (``tests/unit/test_languages.py``
   checks the pack; the language, time, teaching and record tests take their cases per
   language). Re-index stored episodes: new stopwords change terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.languages.ar import AR
from tutor_memory.domain.languages.base import Language, is_optional
from tutor_memory.domain.languages.en import EN
from tutor_memory.domain.languages.es import ES
from tutor_memory.domain.languages.id import ID
from tutor_memory.domain.languages.ur import UR

__all__ = ["LANGUAGES", "Language", "is_optional", "language"]

# The registry, in the project's order (en, es, id, ur, ar): see step 2 above.
LANGUAGES: Final[Mapping[str, Language]] = MappingProxyType(
    {pack.code: pack for pack in (EN, ES, ID, UR, AR)}
)


def language(code: str) -> Language:
    """The pack of ``code``; a ValidationError for a language the project does not speak."""
    pack = LANGUAGES.get(code)
    if pack is None:
        raise ValidationError("lang", f"unsupported language {code!r}; one of {tuple(LANGUAGES)}")
    return pack
