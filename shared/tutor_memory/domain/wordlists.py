"""Word lists: data, per language, in one place (ARCHITECTURE rule 5).

Every list here is written as people type it (accents, hamzas, Urdu letters); the analyser
folds each entry with the same ``fold`` it applies to text, so spelling variants match.
Languages: English (en), Spanish (es), Indonesian (id), Urdu (ur), Arabic (ar).

Sources:
- Stopwords for en, es, id, ar: the Stopwords ISO collection, from the ``stopwordsiso``
  package (MIT; the JSON ships inside the wheel, so it works offline). Vetted: the lists mix in
  web junk and words that are the *subject* of a lesson ("line", "state", "قوة" = force), so
  each language has a documented exception set below, and tests pin that subject words stay.
- Stopwords for ur: ours. Every published Urdu list we found (Stopwords ISO, ``stopwords``)
  is mojibake from a broken font mapping ("ثھی" for "بھی", "هیں" for "میں"), so it would miss
  the commonest words; this compact hand-written list replaces it.
- Month names: not here. They come from Babel's CLDR data (see ``timewords``); only the
  judgement calls about them (which are ambiguous, which cue words make them a date) are ours.
- Relative time phrases, detection markers, asking words: ours.

Changing a stopword list or an exception changes the terms an episode is indexed by: re-index.
"""

from __future__ import annotations

from typing import Final


def _words(text: str) -> frozenset[str]:
    """A list written one or more words a line, space separated, for compactness."""
    return frozenset(text.split())


# --- Stopwords ---------------------------------------------------------------------------------

STOPWORD_SOURCE: Final = "stopwordsiso (Stopwords ISO, MIT) for en/es/id/ar; ours for ur"


def published_stopwords(lang: str) -> frozenset[str]:
    """The published list for ``lang`` (empty for Urdu, whose published lists are unusable).

    Imported on first use: the package reads a 200 KB JSON of every language, which a cold
    start should not pay for unless a text is analysed.
    """
    if lang == "ur":
        return frozenset()
    import stopwordsiso

    return frozenset(stopwordsiso.stopwords(lang))


# Subject words the published lists would drop. Why each group: a student asks about it.
STOPWORD_EXCEPTIONS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        # geometry, measurement and number
        "area areas length width line point points side sides face faces number numbers "
        "value zero half plus minus index null empty thick thin "
        # physics, chemistry, biology, computing
        "effect net state states system group groups order mass fire ring shell web computer "
        # history, civics, economics, literature, grammar ("past tense", "present tense")
        "act bill interest invention novel text world past present "
        # a test is what a student remembers by ("what was on my test?")
        "test"
    ),
    # sal = salt, valor = value, trabajo = work (physics), tiempo = time, lado = side,
    # país = country; the list has them as a verb form or a filler.
    "es": _words("sal valor trabajo tiempo lado país"),
    # panjang = length, tinggi = height, jumlah = sum, setengah = half, waktu = time,
    # rata(-rata) = average, tambah = add.
    "id": _words("panjang tinggi jumlah setengah waktu rata tambah"),
    # قوة = force, حار = hot, عين = eye, عدد = number, صفر = zero, نهاية = limit/end,
    # شبه = semi- (شبه موصل, semiconductor), الوقت = the time.
    "ar": _words("قوة حار عين عدد صفر نهاية شبه الوقت"),
    "ur": frozenset(),
}

# Words the published lists lack that are plainly function words.
STOPWORD_ADDITIONS: Final[dict[str, frozenset[str]]] = {
    "en": frozenset(),
    "es": frozenset(),
    "id": _words("dimana kemana darimana"),
    "ar": _words("لماذا ليس اذن"),
    "ur": frozenset(),
}

# Urdu, ours (see the module note). Deliberately absent: ہوا ("happened", but also "air", a
# science topic) and nouns of any kind.
URDU_STOPWORDS: Final = _words(
    # postpositions, particles, conjunctions
    "کا کی کے کو سے میں پر تک نے ہی بھی تو اور یا لیکن مگر کہ جو جس جن جنہوں جنہیں جسے "
    "اگر پھر ساتھ بعد پہلے لیے لئے والا والی والے بارے متعلق طرح طرف جیسا جیسے جیسی "
    "ایسا ایسے ایسی ویسا ویسے وغیرہ یعنی صرف بس بہت زیادہ کم کچھ سب ہر کوئی کسی کس "
    # question words
    "کون کیا کیوں کیسے کیسا کیسی کہاں کب کتنا کتنی کتنے "
    # time and place adverbs (time words are read by timewords, not indexed)
    "جب تب اب یہاں وہاں ادھر آج کل پرسوں "
    # pronouns
    "ہم تم آپ وہ یہ اس ان انہوں انہیں اسے اسی انہی یہی وہی ہمیں ہمارا ہماری ہمارے میرا میری "
    "میرے مجھے مجھ تمہارا تمہاری تمہارے تمہیں تجھے اپنا اپنی اپنے خود "
    # auxiliaries and light verbs
    "ہے ہیں تھا تھی تھے تھیں ہو ہوں ہوئی ہوئے ہوتا ہوتی ہوتے ہونا ہوگا ہوگی گا گی گے "
    "رہا رہی رہے سکتا سکتی سکتے کر کرتا کرتی کرتے کرنا کرنے کریں کرو کرے کیے کئے گیا گئی "
    "گئے جاتا جاتی جاتے جانا جائے دیا دی دیں دے دینا دیتا دیتی دیتے لیا لی لے لینا چاہیے "
    "چاہئے "
    # negation and politeness
    "نہیں نہ مت براہ کرم مہربانی ذرا"
)

# Asking words: how a question asks, not what it is about ("explain", "what is the difference
# between …", "what did we cover in July?"). Dropped like stopwords, so that "explain osmosis"
# looks for osmosis only. Inflected forms are listed because stopwords are matched before
# stemming. Ours.
ASKING_WORDS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        "explain define meaning understand difference differences remind recap summarise "
        "summarize cover covered learn learned learnt study studied discuss discussed talk "
        "talked revise revised"
    ),
    "es": _words(
        "explica explícame explicar explique define definir significa significado diferencia "
        "diferencias entender entiendo ayuda ayúdame favor recuérdame resume resumen vimos "
        "aprendimos aprender estudiamos estudiar hablamos repasamos repasar"
    ),
    "id": _words(
        "jelaskan tolong arti maksud maksudnya beda bedanya perbedaan paham mengerti bantu "
        "ingatkan ringkas belajar pelajari mempelajari bahas membahas dibahas"
    ),
    "ur": _words(
        "بتائیں بتاؤ بتا سمجھائیں سمجھاؤ وضاحت مطلب فرق سمجھ یاد پڑھا پڑھی پڑھے سیکھا سیکھی سیکھے"
    ),
    "ar": _words(
        "اشرح اشرحي وضح وضحي فسر عرف معنى الفرق فرق ذكرني لخص فضلك درسنا تعلمنا ناقشنا تحدثنا"
    ),
}


# --- Language detection markers (ours) ---------------------------------------------------------
# Frequent function words that belong to one Latin-script language only. The full stopword
# lists cannot be used for this: the English one contains "que", "la", "es" and "de".
DETECTION_MARKERS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        "the an is are was were what how why which who when where does do did of and to in on "
        "it this that these those with for from about can could should would we you my our "
        "they be been have has not explain tell please between difference"
    ),
    "es": _words(
        "el la los las es son qué que cómo como por para porque cuál cual cuáles cuándo cuando "
        "dónde donde quién quien una un unos del al de en con se lo le su sus esta este esto "
        "están hay pero sobre también mi yo nosotros entre explica explícame diferencia muy "
        "más ser fue era"
    ),
    "id": _words(
        "apa itu yang dan di ke dari adalah ini bagaimana mengapa kenapa tidak dengan untuk "
        "saya kita kami aku kamu pada dalam bisa juga akan sudah ada atau seperti tentang "
        "antara perbedaan apakah siapa kapan dimana berapa karena oleh sebagai tolong jelaskan"
    ),
    # Arabic-script languages: words of one language that the other does not write.
    "ur": _words("ہے ہیں کا کے نہیں میں کیا کو سے تھا تھی تھے بھی اور یہ وہ ہم آپ"),
    "ar": _words("ما هي هو في على إلى هل كيف لماذا ماذا التي الذي هذا هذه عن مع"),
}

# Letters Urdu writes and Arabic does not: one of them settles the script question.
URDU_LETTERS: Final = frozenset("ٹڈڑںےہھۓ")
# Keyboard evidence, one vote each: Urdu keyboards type keheh ک and Farsi yeh ی, Arabic ones
# kaf ك, yeh ي, alef maksura ى and teh marbuta ة (Urdu writes ہ or ۃ).
URDU_KEYBOARD_LETTERS: Final = frozenset("کی")
ARABIC_KEYBOARD_LETTERS: Final = frozenset("كيىة")

# Spanish marks that English and Indonesian never use: each text that has one gets a vote.
SPANISH_MARKS: Final = frozenset("¿¡ñáéíóúü")


# --- Relative time phrases (ours) --------------------------------------------------------------
# Kinds: today, yesterday, day_before_yesterday, this_week, last_week, this_month, last_month.
# Phrases are matched as whole words after folding, longest first, so "minggu kemarin"
# (last week) wins over "kemarin" (yesterday) and "anteayer" never reads as "ayer".
RELATIVE_PHRASES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "today": ("today",),
        "yesterday": ("yesterday",),
        "day_before_yesterday": ("day before yesterday",),
        "this_week": ("this week",),
        "last_week": ("last week", "previous week"),
        "this_month": ("this month",),
        "last_month": ("last month", "previous month"),
    },
    "es": {
        "today": ("hoy",),
        "yesterday": ("ayer",),
        "day_before_yesterday": ("anteayer", "antier", "antes de ayer"),
        "this_week": ("esta semana",),
        "last_week": ("semana pasada", "semana anterior"),
        "this_month": ("este mes",),
        "last_month": ("mes pasado", "mes anterior"),
    },
    "id": {
        "today": ("hari ini",),
        "yesterday": ("kemarin", "kemaren"),
        "day_before_yesterday": ("kemarin lusa",),
        "this_week": ("minggu ini", "pekan ini"),
        "last_week": ("minggu lalu", "pekan lalu", "minggu kemarin", "minggu sebelumnya"),
        "this_month": ("bulan ini",),
        "last_month": ("bulan lalu", "bulan kemarin", "bulan sebelumnya"),
    },
    "ur": {
        "today": ("آج",),
        # کل and پرسوں point both ways in time; timewords reads them (URDU_BOTH_WAYS).
        "yesterday": ("کل", "گزشتہ روز", "گزشتہ کل"),
        "day_before_yesterday": ("پرسوں",),
        "this_week": ("اس ہفتے", "اس ہفتہ"),
        "last_week": ("پچھلے ہفتے", "پچھلا ہفتہ", "گزشتہ ہفتے", "گزشتہ ہفتہ", "گذشتہ ہفتے"),
        "this_month": ("اس مہینے", "اس مہینہ", "اس ماہ"),
        "last_month": (
            "پچھلے مہینے",
            "پچھلا مہینہ",
            "پچھلے ماہ",
            "گزشتہ مہینے",
            "گزشتہ ماہ",
            "گذشتہ ماہ",
        ),
    },
    "ar": {
        # اليوم is also "the day" ("في اليوم" = per day): see ARABIC_TODAY_* below.
        "today": ("اليوم",),
        "yesterday": ("أمس", "بالأمس", "البارحة"),
        "day_before_yesterday": ("أول أمس", "أول البارحة"),
        "this_week": ("هذا الأسبوع",),
        "last_week": ("الأسبوع الماضي", "الأسبوع السابق", "الأسبوع الفائت"),
        "this_month": ("هذا الشهر",),
        "last_month": ("الشهر الماضي", "الشهر السابق", "الشهر الفائت"),
    },
}

# Phrases that contain a time word but name no time: "hoy en día" (nowadays), "آج کل" (these
# days), or not the time they seem to ("the last week of July" is July). Matched first and
# skipped.
NOT_A_TIME: Final[tuple[str, ...]] = ("hoy en día", "hoy día", "آج کل", "last week of")

# Urdu کل is both yesterday and tomorrow, پرسوں both the day before yesterday and the day after
# tomorrow. A memory question asks about the past, so the past reading wins, unless the
# sentence carries a future-tense marker (گا/گی/گے, or fused with ہو-) and no past one
# (ergative نے, تھا/تھی/تھے: "کل ہم نے جو پڑھا تھا وہ امتحان میں آئے گا؟" is about yesterday).
# The future reading names no memory, so it gives no window. Only read in Urdu text: Arabic
# كل means "all".
URDU_BOTH_WAYS: Final = _words("کل پرسوں")
URDU_FUTURE_MARKERS: Final = _words("گا گی گے ہوگا ہوگی ہوگے ہونگے ہونگی ہوںگے ہوںگی")
URDU_PAST_MARKERS: Final = _words("نے تھا تھی تھے تھیں")
# کل before these means "total" (کل رقبہ = total area), not a day.
URDU_TOTAL_NOUNS: Final = _words("تعداد رقبہ رقم وزن مجموعہ حجم ملا آبادی لمبائی قیمت")

# Arabic اليوم is "today" unless a preposition or quantifier governs it ("في اليوم" = per
# day, "كل اليوم" = all day, "حتى اليوم" = until now) or a definite word follows it
# ("اليوم الأول" = the first day).
ARABIC_TODAY_BLOCKERS: Final = _words("في كل حتى إلى منذ طوال")


# --- Month names: the judgement calls (the names themselves come from CLDR) -------------------
# Month words that are also ordinary words: they count only with a temporal cue (a year or a
# day number next to them, or one of MONTH_CUES_BEFORE / MONTH_CUES_AFTER). "may I ask",
# "we march on", "The March of Progress" stay plain words; "in May", "Ides of March" are dates.
# مارس is also "he practised"; آب folds to اب, which is also أب (father).
AMBIGUOUS_MONTH_WORDS: Final = _words("may march مارس آب")
# آب also folds to Urdu اب ("now"), so it is a month in Arabic text only.
ARABIC_ONLY_MONTH_WORDS: Final = _words("آب")

# Abbreviations ("Mar", "ago", "jun") are common words somewhere ("mar" = sea, "ago"), so they
# count only next to a day number or a year: "Aug 2025", "12 ago 2025".
# "set" (Peruvian setiembre) is never a month: "set 2" is an exercise, "set theory" a topic.
EXCLUDED_MONTH_WORDS: Final = _words("set")

# Extra CLDR locales whose month names students use: Peruvian/Uruguayan "setiembre", and the
# Levantine/Iraqi calendar (كانون الثاني, شباط, آذار, … تموز, آب, أيلول).
MONTH_LOCALES: Final = ("en", "es", "es_PE", "id", "ur", "ar", "ar_SY")

# A word right before an ambiguous month word that makes it a date ("in May", "last March",
# "في مارس", "شهر آب"). Absent on purpose: "this", "early", "late", "through" ("this may
# help", "arriving late may …") and "de" ("agua de mar" is sea water).
MONTH_CUES_BEFORE: Final = _words(
    "in during since until till last mid of "
    "en durante desde hasta pasado "
    "pada selama sejak hingga sampai bulan awal akhir pertengahan "
    "پچھلے گزشتہ اس مہینے ماہ "
    "في خلال منذ حتى شهر بداية نهاية أوائل أواخر منتصف"
)
# A word right after one: Urdu postpositions ("مارچ میں") and Arabic "مارس الماضي" (last March).
MONTH_CUES_AFTER: Final = _words("میں سے تک الماضي السابق الفائت lalu pasado")

# Words that put a named month in the past or the future. "last July" asked in July means a
# year ago; "next May" names no memory and gives no window.
LAST_WORDS: Final = _words("last pasado pasada lalu kemarin پچھلے پچھلا گزشتہ گذشتہ الماضي السابق")
NEXT_WORDS: Final = _words("next próximo próxima depan mendatang اگلے اگلا آئندہ القادم المقبل")

# Words allowed between a month and its year: "julio de 2025", "July of 2025", "Juli tahun
# 2025", "يوليو عام 2025".
YEAR_CONNECTORS: Final = _words("de del of tahun عام سنة سال")
