"""How students and the tutor phrase things, in the five languages (the benchmark's data).

Student messages name a concept the way students do: lower case in Latin scripts ("what is
osmosis?"), as the material writes it in Urdu and Arabic ones (students there often learn
from English or Spanish material and keep its terms). The tutor's prerequisite sentence
("X builds on Y") is written by the generator AND read by the scorer (``PREREQUISITE_PROSE``),
so that a recalled answer stating X's prerequisite counts, in the right direction only.
"""

from __future__ import annotations

from functools import cache
from typing import Final

LANGUAGES: Final = ("en", "es", "id", "ur", "ar")

# --- the student ------------------------------------------------------------------------------

QUESTIONS: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "What is {x}?",
        "Can we go over {x} again? I keep mixing it up.",
        "I don't understand {x}.",
        "Why does {x} matter?",
    ),
    "es": (
        "¿Qué es {x}?",
        "¿Podemos repasar {x} otra vez? Siempre me confundo.",
        "No entiendo {x}.",
        "¿Para qué sirve {x}?",
    ),
    "id": (
        "Apa itu {x}?",
        "Bisa kita ulang {x} lagi? Aku sering bingung.",
        "Aku belum paham {x}.",
        "Kenapa {x} penting?",
    ),
    "ur": (
        "{x} کیا ہے؟",
        "کیا ہم {x} دوبارہ دیکھ سکتے ہیں؟ میں الجھ جاتا ہوں۔",
        "مجھے {x} سمجھ نہیں آیا۔",
        "{x} کیوں اہم ہے؟",
    ),
    "ar": (
        "ما هو {x}؟",
        "هل يمكننا مراجعة {x} مرة أخرى؟ أنا أخلط دائما.",
        "لا أفهم {x}.",
        "لماذا {x} مهم؟",
    ),
}

TEACH: Final[dict[str, str]] = {
    "en": "Remember that in our class we call {x} {nick}",
    "es": "Recuerda que en nuestra clase llamamos a {x} {nick}",
    "id": "Ingat bahwa di kelas kami {x} disebut {nick}",
    "ur": "یاد رکھو کہ ہماری کلاس میں {x} کو {nick} کہتے ہیں",
    "ar": "تذكر أن {x} نسميه في صفنا {nick}",
}

NICKNAMES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("the engine room", "the gatekeeper", "the big boss", "the little helper"),
    "es": ("el motor", "el portero", "el gran jefe", "el pequeño ayudante"),
    "id": ("si mesin", "si penjaga gerbang", "si bos besar", "si pembantu kecil"),
    "ur": ("انجن روم", "چوکیدار", "بڑا باس", "ننھا مددگار"),
    "ar": ("غرفة المحرك", "حارس البوابة", "الرئيس الكبير", "المساعد الصغير"),
}

# --- the tutor --------------------------------------------------------------------------------

EXPLAIN_ANSWER: Final[dict[str, str]] = {
    "en": "Of course. {x}: {gist}",
    "es": "Claro. {x}: {gist}",
    "id": "Tentu. {x}: {gist}",
    "ur": "ضرور۔ {x}: {gist}",
    "ar": "بالتأكيد. {x}: {gist}",
}

# "X builds on Y": written into answers, and recognised by the scorer (direction included).
PREREQUISITE_PROSE: Final[dict[str, str]] = {
    "en": "{x} builds on {y}",
    "es": "{x} se basa en {y}",
    "id": "{x} dibangun di atas {y}",
    "ur": "{x} کی بنیاد {y} ہے",
    "ar": "{x} يعتمد على {y}",
}
PREREQUISITE_ANSWER: Final[dict[str, str]] = {
    "en": "{prose}, so revise {y} first.",
    "es": "{prose}, así que repasa primero {y}.",
    "id": "{prose}, jadi ulang {y} dulu.",
    "ur": "{prose}، اس لیے پہلے {y} دہرائیں۔",
    "ar": "{prose}، لذلك راجع {y} أولا.",
}

NARRATION: Final[dict[str, str]] = {
    "en": "In {month} we covered {x} and {y}.",
    "es": "En {month} vimos {x} y {y}.",
    "id": "Di bulan {month} kita membahas {x} dan {y}.",
    "ur": "{month} میں ہم نے {x} اور {y} پڑھا۔",
    "ar": "في {month} درسنا {x} و{y}.",
}

# --- the pre-registered questions -------------------------------------------------------------

ASK_EXPLAIN: Final[dict[str, str]] = {
    "en": "Can you explain {x}?",
    "es": "¿Puedes explicarme {x}?",
    "id": "Bisakah kamu jelaskan {x}?",
    "ur": "{x} کیا ہے؟ سمجھائیں",
    "ar": "هل يمكنك أن تشرح {x}؟",
}
ASK_PREREQUISITES: Final[dict[str, str]] = {
    "en": "What should I revise before {x}?",
    "es": "¿Qué debo repasar antes de {x}?",
    "id": "Apa yang harus saya ulang sebelum {x}?",
    "ur": "{x} سے پہلے مجھے کیا دہرانا چاہیے؟",
    "ar": "ماذا يجب أن أراجع قبل {x}؟",
}
ASK_WRONG: Final[dict[str, str]] = {
    "en": "What did I get wrong so far?",
    "es": "¿Qué hice mal hasta ahora?",
    "id": "Apa kesalahan saya sejauh ini?",
    "ur": "میں نے اب تک کیا غلط کیا؟",
    "ar": "ماذا أخطأت حتى الآن؟",
}
ASK_MONTH: Final[dict[str, str]] = {
    "en": "What did we cover in {month}?",
    "es": "¿Qué vimos en {month}?",
    "id": "Apa yang kita bahas di bulan {month}?",
    "ur": "{month} میں ہم نے کیا کیا؟",
    "ar": "ماذا درسنا في {month}؟",
}
ASK_TAUGHT: Final[dict[str, str]] = {
    "en": "What did I teach you about {x}?",
    "es": "¿Qué te enseñé sobre {x}?",
    "id": "Apa yang saya ajarkan kepadamu tentang {x}?",
    "ur": "میں نے آپ کو {x} کے بارے میں کیا سکھایا؟",
    "ar": "ماذا علمتك عن {x}؟",
}


def student_name(name: str, language: str) -> str:
    """A concept as a student writes it: "osmosis", "energía cinética", "Osmosis" (ur, ar)."""
    return name.lower() if language in ("en", "es", "id") else name


@cache
def month_name(month: int, language: str) -> str:
    """The month in the student's language (CLDR, as the time parser reads it)."""
    from babel.dates import get_month_names

    name = str(get_month_names("wide", locale=language)[month])
    return name.lower() if language == "es" else name


def english_month(month: int) -> str:
    return month_name(month, "en")
