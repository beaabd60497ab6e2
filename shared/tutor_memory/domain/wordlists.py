"""Word lists: data, per language, in one place (ARCHITECTURE rule 5).

Every list here is written as people type it (accents, hamzas, Urdu letters); the analyser
folds each entry with the same ``fold`` it applies to text, so spelling variants match.
Languages: English (en), Spanish (es), Indonesian (id), Urdu (ur), Arabic (ar).

Sources:
- Stopwords for en, es, id: Snowball's stop lists (BSD); for ar: Lucene's Arabic list (Jacques
  Savoy, BSD); copied as data with their addresses below, plus documented additions of ours.
  Function words only: the Stopwords ISO lists used before (``stopwordsiso``) drop content
  words ("research", "work", "home", "er", "ph"), and a dropped word can never be recalled.
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
# Function words only: articles, pronouns, auxiliaries, prepositions, conjunctions, question
# words. A stopword is dropped from every stored episode and every question, so a content word
# on the list can never be found again: "research", "work", "home", and short tokens such as
# "ph" and "er" were lost that way to the Stopwords ISO lists used before (issue 13). These
# lists are short on purpose; a word frequent in one pair ("cell", a speaker's name) is the
# recall gate's business, not the analyser's. Units, symbols and abbreviations (pH, ER, DNA,
# ATP, mol, CO2, H2O) are never listed. Folding loses case, so a symbol that is also a
# function word ("NO", "He", "As", "In") cannot be told from it and goes with it.

STOPWORD_SOURCE: Final = (
    "Snowball stop lists (snowballstem.org, BSD) for en, es, id; Lucene's Arabic list "
    "(Jacques Savoy, BSD) for ar; ours for ur; plus our documented additions"
)

# The published lists, copied as data (no package ships them offline; the ``stopwordsiso``
# and ``stop-words`` packages ship long web-derived lists with content words in them):
# - en: Snowball's English list, https://snowballstem.org/algorithms/english/stop.txt (BSD),
#   as Lucene ships it (analysis/snowball/english_stop.txt). Entries with an apostrophe
#   ("don't") are left out: the tokeniser splits them (see STOPWORD_ADDITIONS).
# - es: Snowball's Spanish list, https://snowballstem.org/algorithms/spanish/stop.txt (BSD).
# - id: Snowball's Indonesian list, https://snowballstem.org/algorithms/indonesian/stop.txt
#   (BSD).
# - ar: Lucene's ArabicAnalyzer list (analysis/ar/stopwords.txt, by Jacques Savoy, BSD,
#   cleaned 11 Oct 2009); it lists hamza variants (أن/ان) that our fold merges anyway.
PUBLISHED_STOPWORDS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        "i me my myself we our ours ourselves you your yours yourself yourselves he him his "
        "himself she her hers herself it its itself they them their theirs themselves what "
        "which who whom this that these those am is are was were be been being have has had "
        "having do does did doing would should could ought cannot a an the and but if or "
        "because as until while of at by for with about against between into through during "
        "before after above below to from up down in out on off over under again further then "
        "once here there when where why how all any both each few more most other some such "
        "no nor not only own same so than too very"
    ),
    "es": _words(
        "de la que el en y a los del se las por un para con no una su al lo como más pero sus "
        "le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde "
        "quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto "
        "mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada "
        "muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas "
        "nosotras vosotros vosotras os mío mía míos mías tuyo tuya tuyos tuyas suyo suya suyos "
        "suyas nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras esos esas "
        # estar
        "estoy estás está estamos estáis están esté estés estemos estéis estén estaré estarás "
        "estará estaremos estaréis estarán estaría estarías estaríamos estaríais estarían "
        "estaba estabas estábamos estabais estaban estuve estuviste estuvo estuvimos "
        "estuvisteis estuvieron estuviera estuvieras estuviéramos estuvierais estuvieran "
        "estuviese estuvieses estuviésemos estuvieseis estuviesen estando estad "
        # haber
        "he has ha hemos habéis han haya hayas hayamos hayáis hayan habré habrás habrá "
        "habremos habréis habrán habría habrías habríamos habríais habrían había habías "
        "habíamos habíais habían hube hubiste hubo hubimos hubisteis hubieron hubiera hubieras "
        "hubiéramos hubierais hubieran hubiese hubieses hubiésemos hubieseis hubiesen habiendo "
        "habido habida habidos habidas "
        # ser
        "soy eres es somos sois son sea seas seamos seáis sean seré serás será seremos seréis "
        "serán sería serías seríamos seríais serían era eras éramos erais eran fui fuiste fue "
        "fuimos fuisteis fueron fuera fueras fuéramos fuerais fueran fuese fueses fuésemos "
        "fueseis fuesen siendo sido "
        # tener
        "tengo tienes tiene tenemos tenéis tienen tenga tengas tengamos tengáis tengan tendré "
        "tendrás tendrá tendremos tendréis tendrán tendría tendrías tendríamos tendríais "
        "tendrían tenía tenías teníamos teníais tenían tuve tuviste tuvo tuvimos tuvisteis "
        "tuvieron tuviera tuvieras tuviéramos tuvierais tuvieran tuviese tuvieses tuviésemos "
        "tuvieseis tuviesen teniendo tenido tenida tenidos tenidas tened"
    ),
    "id": _words(
        "yang dan di dari ini pada kepada ada adalah dengan untuk dalam oleh sebagai juga ke "
        "atau tidak itu sebuah tersebut dapat ia telah satu memiliki mereka bahwa lebih karena "
        "seorang akan seperti secara kemudian beberapa banyak antara setelah yaitu hanya "
        "hingga serta sama dia tetapi namun melalui bisa sehingga ketika suatu sendiri bagi "
        "semua harus setiap maka maupun tanpa saja jika bukan belum sedangkan yakni meskipun "
        "hampir kita demikian daripada apa ialah sana begitu seseorang selain terlalu ataupun "
        "saya bila bagaimana tapi apabila kalau kami melainkan boleh aku anda kamu beliau "
        "kalian"
    ),
    "ar": _words(
        "من ومن منها منه في وفي فيها فيه و ف ثم او أو ب بها به ا أ اى اي أي أى لا ولا الا ألا "
        "إلا لكن ما وما كما فما عن مع اذا إذا ان أن إن انها أنها إنها انه أنه إنه بان بأن فان "
        "فأن وان وأن وإن التى التي الذى الذي الذين الى الي إلى إلي على عليها عليه اما أما إما "
        "ايضا أيضا كل وكل لم ولم لن ولن هى هي هو وهى وهي وهو فهى فهي فهو انت أنت لك لها له "
        "هذه هذا تلك ذلك هناك كانت كان يكون تكون وكانت وكان غير بعض قد نحو بين بينما منذ ضمن "
        "حيث الان الآن خلال بعد قبل حتى عند عندما لدى جميع"
    ),
    "ur": frozenset(),  # see URDU_STOPWORDS
}

# Function words the published lists lack, ours: question words, pronouns, auxiliaries and
# prepositions of how a student types, each a plain function word of its language.
STOPWORD_ADDITIONS: Final[dict[str, frozenset[str]]] = {
    # The pieces the tokeniser leaves of contractions (don't → don, you'll → ll; one-letter
    # pieces are dropped anyway), modal auxiliaries Snowball leaves out for their rare noun
    # senses ("a tin can", "free will"; the month May is read by timewords from the raw text,
    # never from terms), and the politeness of a chat.
    "en": _words(
        "don doesn didn isn aren wasn weren hasn haven hadn wouldn shouldn couldn mustn shan "
        "ll ve re can will shall may might must us whose whether also please thanks thank "
        "yes okay ok hi hello hey"
    ),
    # Question words Snowball lacks (cuánto…, cuáles; folded, qué/cómo/cuál are on the list),
    # usted, prepositions, and the forms of poder that ask ("¿puedes…?").
    "es": _words(
        "cuáles cuánto cuánta cuántos cuántas usted ustedes hacia tras según mediante "
        "puedo puedes puede podemos pueden podría podrías hola gracias"
    ),
    # Question words, auxiliaries of aspect, copula, two prepositions and the chat particles
    # (sih, kok, dong, deh) and the typed abbreviation yg.
    "id": _words(
        "apakah mengapa kenapa kapan siapa berapa mana dimana kemana darimana gimana engkau "
        "kau sudah sedang pernah masih merupakan tentang terhadap pun sih kok dong deh yg"
    ),
    # Question words, personal pronouns, relatives, auxiliaries and prepositions Lucene's list
    # lacks.
    "ar": _words(
        "لماذا ماذا كيف هل متى أين كم أنا انا نحن أنتم أنتما أنتن هم هما هن هؤلاء أولئك هنا "
        "اللذان اللتان اللذين اللتين اللواتي اللاتي ليس ليست لست كنت كنا كانوا سوف لقد اذن "
        "إذن حول عبر دون مثل لي لنا لكم لهم عنه عنها"
    ),
    "ur": frozenset(),
}

# Words of a published list that a student asks about, kept. None are needed with the lists
# above (their content words were the reason to leave Stopwords ISO); the slot stays so that
# a word found later is kept here, with its reason, rather than edited out of a copied list.
STOPWORD_EXCEPTIONS: Final[dict[str, frozenset[str]]] = {
    "en": frozenset(),
    "es": frozenset(),
    "id": frozenset(),
    "ar": frozenset(),
    "ur": frozenset(),
}

# Urdu, ours (see the module note). Deliberately absent: ہوا ("happened", but also "air", a
# science topic) and nouns of any kind.
URDU_STOPWORDS: Final = _words(
    # postpositions, particles, conjunctions
    "کا کی کے کو سے میں پر تک نے ہی بھی تو اور یا لیکن مگر کہ جو جس جن جنہوں جنہیں جسے "
    "اگر پھر ساتھ بعد پہلے لیے لئے والا والی والے بارے متعلق طرح طرف جیسا جیسے جیسی "
    "ایسا ایسے ایسی ویسا ویسے وغیرہ یعنی صرف بس بہت زیادہ کم کچھ سب ہر کوئی کسی کس "
    "کیونکہ چونکہ بلکہ تاکہ جبکہ حالانکہ لہذا "
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


# === Teaching phrases (SPEC §5; used by ``teaching``) =========================================
# Only an explicit instruction teaches: "remember that …", "treat X as …", or the same phrasing
# in the student's language. Questions never teach. Every phrase is matched as whole folded
# words at the start of a sentence, so spelling variants (تذكّر/تذكر, acuérdate/acuerdate) match.
# All ours.

# "Remember that …": the note is what follows. Each phrase ends with its language's "that"
# (that, que, bahwa, کہ, أن), so a bare "remember" ("remember to bring your notebook") does not
# teach. Imperatives only: "recuerdas", "تتذكر", "یاد ہے" ask, they do not instruct.
TEACHING_REMEMBER_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "remember that",
        "always remember that",
        "keep in mind that",
        "bear in mind that",
        "don't forget that",
        "do not forget that",
        "never forget that",
        "I want you to remember that",
    ),
    "es": (
        "recuerda que",
        "recuerde que",
        "recuerden que",
        "recordad que",
        "acuérdate de que",
        "acuérdate que",
        "ten en cuenta que",
        "tenga en cuenta que",
        "tengan en cuenta que",
        "no olvides que",
        "no olvide que",
        "quiero que recuerdes que",
    ),
    "id": (
        "ingat bahwa",
        "ingatlah bahwa",
        "ingat ya bahwa",
        "harap diingat bahwa",
        "mohon diingat bahwa",
        "perlu diingat bahwa",
        "jangan lupa bahwa",
        "catat bahwa",
    ),
    "ur": (
        "یاد رکھو کہ",
        "یاد رکھیں کہ",
        "یاد رکھیے کہ",
        "یاد رکھئے کہ",
        "یاد رکھنا کہ",
        "یہ یاد رکھو کہ",
        "یہ یاد رکھیں کہ",
        "ذہن میں رکھو کہ",
        "ذہن میں رکھیں کہ",
        "مت بھولو کہ",
        "نہ بھولیں کہ",
    ),
    "ar": (
        "تذكر أن",
        "تذكر بأن",
        "تذكري أن",
        "تذكري بأن",
        "تذكروا أن",
        "تذكروا بأن",
        "لا تنس أن",
        "لا تنسى أن",
        "لا تنسي أن",
        "ضع في اعتبارك أن",
    ),
}

# Arabic fuses "that" with a pronoun (أنه "that it", أننا "that we"): such a word may stand in
# for the last word of a remember phrase, and stays in the note, since it carries the subject.
TEACHING_THAT_WITH_PRONOUN: Final[dict[str, frozenset[str]]] = {
    "en": frozenset(),
    "es": frozenset(),
    "id": frozenset(),
    "ur": frozenset(),
    "ar": _words("أنه أنها أننا أنهم أنهن أنك أنكم أنني بأنه بأنها بأننا بأنهم"),
}

# "Treat X as Y": the verb that opens the sentence, and the word between X and Y. Without that
# word the sentence does not teach ("treat yourself", "think of a number"), except in Arabic,
# where "اعتبر X Y" needs none.
TEACHING_TREAT_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("treat", "think of", "regard"),
    "es": ("trata", "trate", "traten", "tratad", "considera", "considere", "piensa en"),
    "id": ("anggap", "anggaplah", "anggap saja", "perlakukan"),
    # Urdu puts the verb last ("X کو Y سمجھو"): see URDU_TREAT_VERBS.
    "ur": (),
    "ar": ("اعتبر", "اعتبري", "اعتبروا", "عامل", "عاملي"),
}
TEACHING_TREAT_AS: Final[dict[str, frozenset[str]]] = {
    "en": _words("as"),
    "es": _words("como"),
    "id": _words("sebagai"),
    "ur": frozenset(),  # the object marker کو ends X instead (URDU_OBJECT_MARKERS)
    "ar": _words("بمثابة مثل"),  # optional in Arabic
}

# Urdu is verb-final: "اوسموسس کو غیر فعال نقل سمجھو" (treat osmosis as passive transport),
# "ہم مائٹوکونڈریا کو … کہتے ہیں" (we call the mitochondria …). X is the run of words before
# the object marker کو.
URDU_OBJECT_MARKERS: Final = _words("کو")
URDU_TREAT_VERBS: Final = _words("سمجھو سمجھیں سمجھیے سمجھئے سمجھنا مانو مانیں مانیے مانئے ماننا")
URDU_NAMING_VERBS: Final = _words("کہتے کہتی کہتا پکارتے پکارتی")
# "X کو اچھی طرح سمجھو" is "understand X well", not "treat X as …": a Y made only of these
# manner words (and stopwords) does not teach.
URDU_UNDERSTAND_MANNER: Final = _words("اچھی اچھے اچھا غور ٹھیک دوبارہ پوری پورا مکمل دھیان آسانی")

# Urdu genitive postpositions: in "اوسموسس پانی کی حرکت ہے" (osmosis is the movement of water)
# the word before کی belongs to what is said, not to the name, so a name found by its run of
# words gives that word back.
URDU_GENITIVES: Final = _words("کا کی کے")

# Words that may come before the instruction and say nothing: "please remember that …",
# "ok, treat X as …". Skipped at the start of a sentence.
TEACHING_LEAD_INS: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "please",
        "kindly",
        "ok",
        "okay",
        "so",
        "and",
        "also",
        "now",
        "hey",
        "oh",
        "btw",
        "by the way",
        "just",
    ),
    "es": ("por favor", "ok", "vale", "bueno", "y", "también", "ahora", "oye", "solo"),
    "id": ("tolong", "mohon", "ok", "oke", "nah", "dan", "juga", "sekarang", "hei", "eh"),
    "ur": ("براہ کرم", "برائے مہربانی", "مہربانی کر کے", "پلیز", "اور", "اب", "ذرا", "بس"),
    "ar": ("من فضلك", "رجاء", "أرجو", "أرجوك", "الآن", "أيضا", "حسنا", "و"),
}

# Words that open a question. A message whose first sentence opens with one never teaches, even
# without a question mark ("do you remember that …", "apakah kamu ingat …", "کیا تمہیں یاد ہے
# کہ …", "هل تتذكر أن …"); any "?", "؟" or "¿" in a message also means it never teaches.
TEACHING_QUESTION_OPENERS: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "what",
        "why",
        "how",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "which",
        "do",
        "does",
        "did",
        "don't",
        "didn't",
        "is",
        "are",
        "was",
        "were",
        "isn't",
        "can",
        "could",
        "would",
        "will",
        "shall",
        "should",
        "have",
        "has",
    ),
    "es": (
        "qué",
        "cómo",
        "cuándo",
        "dónde",
        "quién",
        "quiénes",
        "cuál",
        "cuáles",
        "cuánto",
        "cuánta",
        "cuántos",
        "cuántas",
        "por qué",
        "acaso",
        "recuerdas",
        "te acuerdas",
        "sabes",
        "puedes",
        "podrías",
    ),
    "id": (
        "apa",
        "apakah",
        "siapa",
        "kapan",
        "di mana",
        "dimana",
        "bagaimana",
        "gimana",
        "mengapa",
        "kenapa",
        "berapa",
        "masih ingat",
        "ingatkah",
        "tahukah",
        "bisakah",
    ),
    "ur": (
        "کیا",
        "کون",
        "کیوں",
        "کیسے",
        "کیسا",
        "کیسی",
        "کب",
        "کہاں",
        "کتنا",
        "کتنی",
        "کتنے",
        "کس",
    ),
    "ar": (
        "هل",
        "ما",
        "ماذا",
        "لماذا",
        "كيف",
        "متى",
        "أين",
        "من",
        "كم",
        "أي",
        "أتذكر",
        "أتعرف",
        "أليس",
    ),
}

# "In our class we call X Y": the phrase after which the named thing X comes (Urdu names
# before its verb: URDU_NAMING_VERBS).
TEACHING_NAMING_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("we call", "we name", "we refer to", "i call"),
    "es": ("llamamos", "le llamamos", "nombramos"),
    "id": (
        "kami sebut",
        "kita sebut",
        "kami menyebut",
        "kita menyebut",
        "kami namakan",
        "kita namakan",
        "kami menamakan",
        "kita menamai",
    ),
    "ur": (),
    "ar": ("نسمي", "نطلق على", "ندعو"),
}

# "X is the same as Y" inside a taught note: Y is another name of X (an alias), in any language.
# Urdu says "X اور Y ایک ہی ہیں" (TEACHING_SAME_AS_UR: the joining word, then the endings).
TEACHING_SAME_AS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("is the same as", "are the same as", "is the same thing as", "means the same as"),
    "es": ("es lo mismo que", "son lo mismo que", "es igual que", "significa lo mismo que"),
    "id": ("adalah sama dengan", "sama dengan", "sama saja dengan", "sama artinya dengan"),
    "ur": (),
    "ar": ("هو نفسه", "هي نفسها", "هو نفس", "هي نفس", "هو ذاته", "هي ذاتها"),
}
TEACHING_SAME_AS_UR: Final = ("اور", ("ایک ہی ہیں", "ایک ہی ہے", "ایک ہی چیز ہیں", "ایک ہی چیز ہے"))

# Articles and determiners dropped before a named thing ("the mitochondria" → mitochondria,
# "a la mitocondria" → mitocondria). Arabic and Urdu have none as separate words.
TEACHING_LEADING_ARTICLES: Final[dict[str, frozenset[str]]] = {
    "en": _words("the a an our this that these those its their"),
    "es": _words("a al el la los las un una unos unas lo nuestro nuestra nuestros nuestras"),
    "id": _words("si sang para"),
    "ur": frozenset(),
    "ar": frozenset(),
}

# Words that end a named thing and start what is said about it: "we call [the Golgi body] the
# post office", "llamamos a [la mitocondria] la central", "kami menyebut [badan Golgi] sebagai
# …", "نطلق على [جهاز جولجي] اسم …". An article after the name ends it too. Prepositions are
# not here: they sit inside names ("theory of evolution", "aparato de Golgi").
TEACHING_NAME_ENDS: Final[dict[str, frozenset[str]]] = {
    "en": _words("as is are was were"),
    "es": _words("como es son era fue"),
    "id": _words("sebagai adalah yaitu yakni ialah merupakan dengan itu"),
    "ur": frozenset(),  # Urdu names end at the object marker کو
    "ar": _words("اسم بمثابة على مثل"),  # otherwise: ARABIC_DEFINITE_ARTICLE below
}

# Arabic definite article. With no word to end it, an Arabic name runs on through the words that
# carry the article: an idafa ("غشاء الخلية", cell membrane) or a definite adjective
# ("النقل السلبي", passive transport).
ARABIC_DEFINITE_ARTICLE: Final = "ال"

# "In our class …" says where the note holds, not what it is about: skipped when a short name is
# looked for in a note that names nothing explicitly.
TEACHING_FRAMES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("in our class", "in this class", "in my class", "in class", "for our class"),
    "es": ("en nuestra clase", "en esta clase", "en mi clase", "en clase"),
    "id": ("di kelas kami", "di kelas kita", "di kelas ini", "di kelas saya"),
    "ur": ("ہماری کلاس میں", "اس کلاس میں", "میری کلاس میں", "ہماری جماعت میں"),
    "ar": ("في صفنا", "في فصلنا", "في هذا الصف", "في حصتنا", "في صفي"),
}
# === end of teaching phrases ===================================================================


# === Document furniture and reading structure (used by ``validator``, ``offline_extractor``) ===
# All ours.


def _phrases(text: str) -> tuple[str, ...]:
    """A list of phrases, comma separated (a phrase may have spaces)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


# Headings that are the file's furniture, not ideas of the subject. A concept name is
# furniture when it is one of these phrases, ends with one ("Chapter summary", "Osmosis:
# review questions"), or begins with one followed by a function word, a number or a colon
# ("Introduction to osmosis", "Summary of chapter 3", "Summary: osmosis"; not "Summary
# statistics"). Matched on folded words, in every language at once (a name is too short to
# detect its language). Left out on purpose, because subject terms begin or end with them:
# "index" (refractive index), "activity" (enzyme activity), "table" (periodic table), "review"
# (peer review), "appendix" (vermiform appendix), "notes" (musical notes), "exercise"
# (exercise physiology), "presentación" (presentación de antígenos), "índice"; the numbered
# ones count when numbered or alone (NUMBERED_HEADINGS).
SECTION_HEADINGS: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases(
        "introduction, overview, summary, recap, conclusion, conclusions, exercises, "
        "review questions, practice questions, questions, answers, check your understanding, "
        "test yourself, self assessment, quiz, common misconceptions, misconceptions, "
        "common mistakes, key terms, key words, key ideas, key points, vocabulary, glossary, "
        "definitions, terms and definitions, "
        "learning objectives, learning outcomes, objectives, table of contents, contents, "
        "references, bibliography, further reading, worked example, worked examples, examples, "
        "preface, foreword, acknowledgements, acknowledgments"
    ),
    "es": _phrases(
        "introducción, resumen, repaso, conclusión, conclusiones, ejercicios, "
        "actividades, preguntas de repaso, preguntas, respuestas, autoevaluación, "
        "errores comunes, ideas erróneas comunes, ideas erróneas, concepciones erróneas, "
        "términos clave, palabras clave, ideas clave, vocabulario, glosario, definiciones, "
        "objetivos de aprendizaje, objetivos, tabla de contenidos, contenido, contenidos, "
        "índice general, referencias, bibliografía, lecturas adicionales, para saber más, "
        "ejemplo resuelto, ejemplos resueltos, ejemplos, prólogo, agradecimientos"
    ),
    "id": _phrases(
        "pendahuluan, pengantar, ringkasan, rangkuman, ikhtisar, kesimpulan, latihan, "
        "latihan soal, soal latihan, uji kompetensi, evaluasi, pertanyaan, jawaban, "
        "miskonsepsi umum, miskonsepsi, kesalahpahaman umum, kesalahan umum, istilah penting, "
        "kata kunci, glosarium, kosakata, daftar istilah, tujuan pembelajaran, "
        "capaian pembelajaran, "
        "daftar isi, daftar pustaka, referensi, bacaan lanjutan, contoh soal, kata pengantar, "
        "ucapan terima kasih"
    ),
    "ur": _phrases(
        "تعارف, تمہید, پیش لفظ, خلاصہ, جائزہ, نتیجہ, مشق, مشقیں, سوالات, جائزہ سوالات, جوابات, "
        "عام غلط فہمیاں, غلط فہمیاں, عام غلطیاں, کلیدی اصطلاحات, اہم اصطلاحات, فرہنگ, "
        "اصطلاحات, فرہنگ اصطلاحات, "
        "سیکھنے کے مقاصد, مقاصد, فہرست مضامین, فہرست, حوالہ جات, کتابیات, مزید مطالعہ, "
        "حل شدہ مثال, حل شدہ مثالیں, مثالیں, اظہار تشکر"
    ),
    "ar": _phrases(
        "مقدمة, المقدمة, تمهيد, نظرة عامة, ملخص, الملخص, خلاصة, الخلاصة, خاتمة, الخاتمة, "
        "تمارين, التمارين, أسئلة, الأسئلة, أسئلة المراجعة, أسئلة مراجعة, الأجوبة, إجابات, "
        "مفاهيم خاطئة شائعة, المفاهيم الخاطئة الشائعة, مفاهيم خاطئة, أخطاء شائعة, "
        "الأخطاء الشائعة, المصطلحات الرئيسية, مصطلحات رئيسية, الكلمات المفتاحية, "
        "مسرد المصطلحات, مسرد, المسرد, قاموس, قاموس المصطلحات, المصطلحات, التعريفات, "
        "أهداف التعلم, نواتج التعلم, الأهداف, جدول المحتويات, المحتويات, "
        "فهرس المحتويات, المراجع, مراجع, قراءات إضافية, مثال محلول, أمثلة محلولة, أمثلة, "
        "شكر وتقدير"
    ),
}

# A glossary: a section under one of these headings (or a file so named) whose table rows, or
# "term: definition" lines, each define a concept. Matched on folded words in every language at
# once, like SECTION_HEADINGS (which holds them all too, so the heading is never a concept).
GLOSSARY_HEADINGS: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases("glossary, key terms, vocabulary, definitions, terms and definitions"),
    "es": _phrases("glosario, términos clave, vocabulario, definiciones"),
    "id": _phrases("glosarium, daftar istilah, istilah penting, kosakata"),
    "ur": _phrases("فرہنگ, اصطلاحات, فرہنگ اصطلاحات, کلیدی اصطلاحات"),
    "ar": _phrases("مسرد, المسرد, مسرد المصطلحات, قاموس, قاموس المصطلحات, المصطلحات"),
}
# A table's header cells that make it a glossary wherever it stands: a term column and a
# definition column ("Term | Definition", "Término | Definición", "اصطلاح | تعریف").
GLOSSARY_TERM_COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases("term, terms, word, concept, name, key term"),
    "es": _phrases("término, términos, palabra, concepto, nombre"),
    "id": _phrases("istilah, kata, konsep, nama"),
    "ur": _phrases("اصطلاح, لفظ, تصور, نام"),
    "ar": _phrases("المصطلح, مصطلح, الكلمة, كلمة, المفهوم, مفهوم"),
}
GLOSSARY_DEFINITION_COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases("definition, definitions, meaning, description, explanation"),
    "es": _phrases("definición, definiciones, significado, descripción, explicación"),
    "id": _phrases("definisi, pengertian, arti, makna, penjelasan, keterangan"),
    "ur": _phrases("تعریف, مطلب, معنی, وضاحت"),
    "ar": _phrases("التعريف, تعريف, المعنى, معنى, الشرح, شرح"),
}

# Words that are furniture when a number follows them or when they stand alone: "Chapter 3",
# "Part II", "Appendix A", "Appendix", "Capítulo 3", "Bab 3", "باب 3", "الفصل الثالث" ("Unit
# conversion" and "Part of speech" are subject terms). A title may follow the number: "Chapter
# 1: The cell" is still a chapter heading.
NUMBERED_HEADINGS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        "chapter unit lesson part section appendix module week topic activity exercise "
        "example figure fig table lecture session practical experiment question task step"
    ),
    "es": _words(
        "capítulo unidad lección parte tema sección apéndice anexo módulo semana actividad "
        "ejercicio ejemplo figura tabla práctica pregunta paso bloque"
    ),
    "id": _words(
        "bab unit pelajaran bagian subbab lampiran modul minggu pertemuan topik kegiatan "
        "aktivitas latihan contoh gambar tabel praktikum soal langkah"
    ),
    "ur": _words("باب سبق یونٹ حصہ ضمیمہ ماڈیول ہفتہ موضوع سرگرمی مشق مثال شکل جدول سوال"),
    "ar": _words(
        "الفصل فصل الوحدة وحدة الدرس درس الجزء جزء القسم قسم الملحق ملحق الباب باب الأسبوع "
        "النشاط نشاط التمرين تمرين المثال مثال الشكل شكل الجدول جدول السؤال سؤال"
    ),
}

# Number words that stand for the number after a NUMBERED_HEADINGS word ("Part Two",
# "Capítulo primero", "Bab satu", "حصہ دوم", "الفصل الثالث"). Digits, roman numerals and
# single letters need no list.
NUMBER_WORDS: Final[dict[str, frozenset[str]]] = {
    "en": _words(
        "one two three four five six seven eight nine ten eleven twelve "
        "first second third fourth fifth sixth seventh eighth ninth tenth"
    ),
    "es": _words(
        "uno una dos tres cuatro cinco seis siete ocho nueve diez once doce primero primera "
        "segundo segunda tercero tercera cuarto cuarta quinto quinta sexto sexta séptimo "
        "séptima octavo octava noveno novena décimo décima"
    ),
    "id": _words(
        "satu dua tiga empat lima enam tujuh delapan sembilan sepuluh pertama kedua ketiga "
        "keempat kelima keenam ketujuh kedelapan kesembilan kesepuluh"
    ),
    "ur": _words(
        "ایک دو تین چار پانچ چھ سات آٹھ نو دس اول دوم سوم چہارم پنجم ششم پہلا دوسرا تیسرا "
        "چوتھا پانچواں"
    ),
    "ar": _words(
        "الأول الأولى الثاني الثانية الثالث الثالثة الرابع الرابعة الخامس الخامسة السادس "
        "السادسة السابع السابعة الثامن الثامنة التاسع التاسعة العاشر العاشرة واحد اثنان "
        "ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة عشرة"
    ),
}

# Articles a name drops from its front ("The cell membrane" is "Cell membrane", "La célula"
# is "Célula"). Indonesian and Urdu have none; Arabic writes its article into the word
# (الخلية), and the concept key keeps it there, as the language analyser does.
LEADING_ARTICLES: Final[dict[str, frozenset[str]]] = {
    "en": _words("the a an"),
    "es": _words("el la los las un una unos unas lo"),
    "id": frozenset(),
    "ur": frozenset(),
    "ar": frozenset(),
}

# Question words: a name holding one is a question, not a concept ("How cells divide",
# "Apa itu sel", "خلیہ کیا ہے", "ما هي الخلية"). Spanish qué and cómo are not listed: folded,
# they are the everyday que and como; Spanish questions are known by their ¿ ? marks.
QUESTION_WORDS: Final[dict[str, frozenset[str]]] = {
    "en": _words("what why how which when where who whom whose"),
    "es": _words("cuál cuáles cuándo dónde quién quiénes cuánto cuántos"),
    "id": _words("apa apakah mengapa kenapa bagaimana kapan dimana siapa berapa"),
    "ur": _words("کیا کیوں کیسے کیسا کیسی کہاں کب کون کتنا کتنی کتنے"),
    "ar": _words("ماذا لماذا كيف هل متى أين ما"),
}

# The copula of a definitional sentence "X is …": the name is the words before it. Urdu puts
# its copula last ("خلیہ زندگی کی اکائی ہے"), so Urdu names end at URDU_DEFINITION_MARKERS.
COPULAS: Final[dict[str, frozenset[str]]] = {
    "en": _words("is are"),
    "es": _words("es son"),
    "id": _words("adalah merupakan ialah"),
    "ur": _words("ہے ہیں"),
    "ar": _words("هو هي"),
}

# Urdu: what ends the name in "X ایک … ہے" (X is a …) and "X سے مراد … ہے" (by X is meant …).
URDU_DEFINITION_MARKERS: Final[tuple[str, ...]] = ("ایک", "سے مراد")

# A predicate that opens with one of these says something about X without defining it:
# "Osmosis is not diffusion", "Cells are also …", "La célula no es …", "Sel bukan …". Urdu
# negates just before its final copula ("… نہیں ہے").
NON_DEFINING_STARTS: Final[dict[str, frozenset[str]]] = {
    "en": _words("not no never also only usually often sometimes very too more less so"),
    "es": _words("no nunca también solo sólo muy más menos tan"),
    "id": _words("tidak bukan belum juga hanya sangat lebih kurang"),
    "ur": _words("نہیں نہ بھی"),
    "ar": _words("ليس ليست لا لم لن أيضا فقط"),
}

# Phrases that name a prerequisite: what follows is a concept the sentence's concept builds
# on, explained in the file or not ("Osmosis builds on diffusion", "se basa en la difusión",
# "dibangun di atas difusi", "تعتمد على الانتشار"). Verb-final Urdu names it before its
# phrases (PREREQUISITE_PHRASES_AFTER_NAME: "اوسموسس پھیلاؤ پر مبنی ہے").
PREREQUISITE_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases(
        "builds on, build on, building on, requires, require, recall that, assumes, assume, "
        "presupposes, relies on"
    ),
    "es": _phrases(
        "se basa en, se apoya en, requiere, requieren, recuerda que, recuerde que, supone, "
        "presupone"
    ),
    "id": _phrases(
        "dibangun di atas, didasarkan pada, berdasar pada, membutuhkan, memerlukan, "
        "ingat bahwa, ingatlah bahwa, mengasumsikan, mengandaikan"
    ),
    "ur": _phrases("یاد کریں کہ"),
    "ar": _phrases("يعتمد على, تعتمد على, يبنى على, تبنى على, يتطلب, تتطلب, يفترض, تفترض, تذكر أن"),
}
PREREQUISITE_PHRASES_AFTER_NAME: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "es": (),
    "id": (),
    "ur": _phrases("پر مبنی, پر منحصر, پر انحصار, کی ضرورت, کو فرض"),
    "ar": (),
}
# Phrases that give a concept another name (an alias) in a file: "Osmosis is also called …"; the
# name follows the phrase, or in Urdu comes before it ("اوسموسس کو X بھی کہا جاتا ہے").
ALIAS_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases("also called, also known as, sometimes called"),
    "es": _phrases(
        "también llamada, también llamado, también llamadas, también llamados, también "
        "conocida como, también conocido como, en inglés"
    ),
    "id": _phrases("disebut juga, juga disebut, dikenal juga sebagai, juga dikenal sebagai"),
    "ur": (),
    "ar": _phrases("يسمى أيضا, تسمى أيضا, ويسمى أيضا, وتسمى أيضا, يعرف أيضا باسم, تعرف أيضا باسم"),
}
ALIAS_PHRASES_AFTER_NAME: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "es": (),
    "id": (),
    "ur": _phrases("بھی کہا جاتا ہے, بھی کہتے ہیں"),
    "ar": (),
}
# === end of document furniture and reading structure ==========================================


# === Utterances: what a check topic that is really a sentence looks like (SPEC §6) ===========
# A check topic that names no concept and holds one of these is a piece of conversation ("ask
# me the questions", "bueno ahora explícame todos los pasos"), kept as evidence, never a belief.
# Question words and ASKING_WORDS count too. Ours.
UTTERANCE_VERBS: Final[dict[str, frozenset[str]]] = {
    "en": _words("ask tell give show help let try want need please quiz test check go start"),
    "es": _words(
        "pregunta pregúntame dime dame muestra muéstrame ayúdame quiero necesito haz hazme "
        "empecemos sigamos vamos"
    ),
    "id": _words("tanya tanyakan beri berikan kasih tunjukkan bantu mau ingin coba mulai ayo"),
    "ur": _words("پوچھو پوچھیں دو دیں دکھاؤ دکھائیں چاہیے چاہتا چاہتی کرو کریں شروع چلو"),
    "ar": _words("اسألني اسأل أعطني اعطني أرني ساعدني أريد اريد ابدأ لنبدأ هيا"),
}
UTTERANCE_PRONOUNS: Final[dict[str, frozenset[str]]] = {
    "en": _words("i me my we us our you your it this that"),
    "es": _words("yo me mi mis nosotros nos tú te tu usted eso esto"),
    "id": _words("aku saya kami kita kamu anda ini itu"),
    "ur": _words("میں مجھے میرا میری ہم ہمیں آپ تم یہ وہ"),
    "ar": _words("أنا انا لي نحن أنت انت هذا هذه ذلك"),
}
UTTERANCE_FILLERS: Final[dict[str, frozenset[str]]] = {
    "en": _words("ok okay so well now yes no yeah hmm um uh right sure thanks"),
    "es": _words("bueno ahora pues vale sí si no claro gracias oye entonces todos pasos"),
    "id": _words("oke ok baik nah sekarang ya tidak iya terima kasih yuk dong"),
    "ur": _words("اچھا ٹھیک ہاں نہیں اب شکریہ جی"),
    "ar": _words("حسنا طيب الآن نعم لا شكرا يعني"),
}
# === end of utterances ===


# === Record questions: the student asks about their own record (SPEC §7) =====================
# Phrases, folded and matched as whole words anywhere in the question. Ours.
RECORD_QUESTION_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "what did i get wrong",
        "what have i got wrong",
        "what did i miss",
        "my mistakes",
        "what have we learned",
        "what have we learnt",
        "what did we learn",
        "what have i learned",
        "how am i doing",
        "my progress",
        "my record",
        "what did we cover",
        "what have we covered",
        "what did we do",
        "what have we done",
        "my weak",
        "where am i weak",
    ),
    "es": (
        "qué hice mal",
        "en qué me equivoqué",
        "mis errores",
        "qué hemos aprendido",
        "qué aprendimos",
        "cómo voy",
        "mi progreso",
        "qué vimos",
        "qué hemos visto",
        "qué hicimos",
    ),
    "id": (
        "apa yang salah",
        "salah saya",
        "kesalahan saya",
        "apa yang sudah kita pelajari",
        "apa yang kita pelajari",
        "bagaimana kemajuan saya",
        "kemajuan saya",
        "apa yang kita bahas",
        "apa yang sudah kita bahas",
    ),
    "ur": (
        "میں نے کیا غلط",
        "میری غلطیاں",
        "ہم نے کیا سیکھا",
        "میں نے کیا سیکھا",
        "میری پیش رفت",
        "ہم نے کیا پڑھا",
        "ہم نے کیا کیا",
    ),
    "ar": (
        "ماذا أخطأت",
        "ما الذي أخطأت",
        "أخطائي",
        "ماذا تعلمنا",
        "ما الذي تعلمناه",
        "كيف مستواي",
        "تقدمي",
        "ماذا درسنا",
        "ماذا فعلنا",
    ),
}
# === end of record questions ===


# === Record questions, more: phrasings the list above misses, and look-alikes (SPEC §7) =====
# Added with domain/block.py. Ours. A phrase counts only outside a look-alike: "cómo voy a
# resolver esto" is "how am I going to solve this", not "how am I doing"; "apa yang salah
# dengan kalimat ini" asks what is wrong with a sentence, not with the student's record.
RECORD_QUESTION_MORE_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "where did i go wrong",
        "what mistakes did i make",
        "what mistakes have i made",
        "what did we study",
        "what have we studied",
        "what have i learnt",
    ),
    "es": (
        "en qué fallé",
        "qué errores cometí",
        "qué errores he cometido",
        "qué he aprendido",
        "qué estudiamos",
        "qué hemos estudiado",
    ),
    "id": (
        "di mana saya salah",
        "apa yang saya pelajari",
        "apa yang sudah saya pelajari",
        "perkembangan saya",
    ),
    "ur": ("کیا غلط کیا", "کیا غلطیاں کیں", "اب تک کیا سیکھا"),
    "ar": ("أين أخطأت", "ماذا تعلمت", "ما الذي تعلمته"),
}
# The student's own weaknesses or mistakes, named with a possessive: the record itself, no
# frame needed (used with the lists above). Ours.
RECORD_QUESTION_OWNED: Final[dict[str, tuple[str, ...]]] = {
    "en": ("my weaknesses", "my weak points", "our mistakes"),
    "es": ("mis puntos débiles", "mi punto débil", "mis fallos", "mis debilidades"),
    "id": ("kesalahanku", "kelemahan saya", "kelemahanku"),
    "ur": ("اپنی غلطیوں", "اپنی غلطیاں", "میری غلطیوں", "میری کمزوریاں", "میری کمزوری"),
    "ar": ("نقاط ضعفي", "نقاط الضعف لدي"),
}
# "learned that …", "aprendí que …", "میں نے پڑھا کہ …", "تعلمت أن …" report what the student
# read or learned, to ask about it: the subject, not the record.
RECORD_QUESTION_LOOKALIKES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("learned that", "learnt that", "how am i doing this", "how am i doing the"),
    "es": ("cómo voy a", "aprendí que", "aprendimos que"),
    "id": ("apa yang salah dengan", "apa yang salah pada", "apa yang salah dari"),
    "ur": ("پڑھا کہ", "سیکھا کہ", "پڑھا تھا کہ", "سیکھا تھا کہ"),
    "ar": ("تعلمت أن", "تعلمنا أن", "درست أن", "درسنا أن"),
}
# === end of record questions, more ===


# === Does a question ASK ABOUT a time? (SPEC §3; used by ``timewords``) ======================
# All ours. Each role is a list of phrases, comma separated.
# A time phrase is a filter only in a clause that asks about the lessons ("what did we cover in
# July?"), never in a statement or a story ("I have a test today, can you explain osmosis?").
# ``timewords`` documents the rule; these are its cue words, per language, each entry one
# phrase (whole folded words; a phrase of several words must match in order; a single Latin
# letter is not a word, so "did I do" matches "did … do" with the "I" dropped). Roles:
# - fillers: skipped at a clause's start ("so", "hey", "pues", "kak", "اچھا", "يا").
# - openers: open an asking clause: question words, an inverted auxiliary, a request verb.
# - weak_openers: open an asking clause only in a sentence that ends in "?" (Arabic ما is
#   also "not": "ما فهمت الدرس" is "I did not understand the lesson").
# - anywhere: make a clause ask wherever they stand: Urdu's in-place question words, and
#   recall requests ("remind me", "I forgot", "no me acuerdo", "یاد نہیں", "لا أتذكر").
# - ellipsis: the words of an elliptical follow-up besides its time ("and last month?",
#   "¿y el mes pasado?", "kalau bulan lalu?", "اور پچھلے مہینے؟", "والشهر الماضي؟").
# - recall: the clause is about the shared record: "we" + a past study verb, a recall request,
#   a record noun (lesson, topics, mistakes). Counts in any asking clause.
# - study: a study verb in a past or tenseless form, any person ("studied", "aprendí",
#   "pelajari", "پڑھا", "درست"). Counts unless the clause is a topic request.
# - topic: a request about a subject ("explain", "what is"): "explain the osmosis I studied
#   yesterday" asks about osmosis, so only a recall cue makes its time a filter.
# - plan: future, modal or plan words ("will", "should", "can we", "vamos a", "akan", "گا",
#   "سوف"): the clause is about what comes next, unless a past word is also there. Arabic
#   علي ("I must") is left out: على (on) folds to it.
# - past: past-tense words that outweigh a plan word ("what did we cover that will be on the
#   test?", "کل ہم نے جو پڑھا تھا وہ امتحان میں آئے گا؟").
# - clause_breaks: subordinators that start a new clause ("because", "pero", "karena",
#   "کیونکہ", "لأن"): "explain osmosis because I have a test today".
# Urdu's question word کیا is also the verb "did" ("میں نے کام کیا"): ``timewords`` reads it
# as a question only where a verb cannot stand (see URDU_KYA_AUXILIARIES).
TIME_QUESTION_CUES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "fillers": _phrases(
            "and, so, ok, okay, oh, um, hmm, hey, hi, hello, also, but, then, well, sorry, "
            "please, sir, teacher, now, just, yeah, yes, right, btw, actually, wait"
        ),
        "openers": _phrases(
            "what, whats, which, when, where, who, how, why, did, do, does, have, has, had, was, "
            "were, is, are, am, can, could, would, will, should, shall, tell, remind, recap, "
            "summarise, summarize, list, show, give, explain, describe, define, help, go over, "
            "forgot, forget, don remember, do not remember, wonder, want to know, like to know"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases("remind me, forgot what, don remember, do not remember"),
        "ellipsis": _phrases(
            "what about, how about, and, also, the, in, on, during, from, of, about, what, then"
        ),
        "recall": _phrases(
            "did we, we did, have we, had we, we ve, we have, we had, we covered, we studied, we "
            "learned, we learnt, we talked, we discussed, we went, we read, we worked, we "
            "practised, we practiced, we revised, we reviewed, we looked, we were, we done, you "
            "taught, you told, you explained, you showed, taught me, remind, recap, summarise, "
            "summarize, summary, lesson, lessons, session, sessions, topics, wrong, mistake, "
            "mistakes, miss, missed, did I do, did I get, we stop, we stopped, left off, we leave "
            "off"
        ),
        "study": _phrases(
            "study, studied, learn, learned, learnt, cover, covered, done, review, reviewed, "
            "revise, revised, practise, practised, practiced, discuss, discussed, go over, went "
            "over, gone over, go through, went through, work on, worked on"
        ),
        "topic": _phrases(
            "explain, define, describe, help, what is, what are, what does, how does, how do, "
            "meaning, mean"
        ),
        "plan": _phrases(
            "will, gonna, going to, should, shall, must, need to, needs to, have to, has to, can "
            "we, could we, let, lets, upcoming, due"
        ),
        "past": _phrases(
            "did, was, were, had, have we, we ve, done, covered, studied, learned, learnt, went, "
            "talked, discussed, reviewed, revised, practised, practiced, got, missed, taught, "
            "told, explained"
        ),
        "clause_breaks": _phrases("because, cause, cuz, coz, but, so, although, though"),
    },
    "es": {
        "fillers": _phrases(
            "pues, oye, profe, profesor, profesora, bueno, entonces, ok, vale, hola, me, ya, "
            "perdon, porfa, porfavor, por favor, tambien, pero"
        ),
        "openers": _phrases(
            "que, cual, cuales, cuando, donde, quien, quienes, como, cuanto, cuantos, cuantas, "
            "por que, recuerdame, recuerdas, dime, resume, resumeme, cuentame, explica, "
            "explicame, ayudame, puedes, podrias, quiero saber, no me acuerdo, no recuerdo, "
            "olvide, se me olvido, en que, de que, hazme, haz, dame, muestrame, ensename"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "recuerdame, me recuerdas, no me acuerdo, no recuerdo, olvide, se me olvido"
        ),
        "ellipsis": _phrases("el, la, los, las, de, del, en, durante, sobre, que, entonces, pues"),
        "recall": _phrases(
            "vimos, hicimos, estudiamos, aprendimos, hablamos, repasamos, tratamos, trabajamos, "
            "practicamos, dimos, leimos, cubrimos, hemos, habiamos, explicaste, ensenaste, me "
            "dijiste, recuerdame, recuerdas, resume, resumeme, resumen, tema, temas, clase, "
            "sesion, leccion, errores, equivoque, falle, fallado, mal, terminamos, acabamos, "
            "empezamos, comenzamos, dejamos, nos quedamos, quedamos, resolvimos, corregimos, "
            "revisamos, analizamos"
        ),
        "study": _phrases(
            "estudie, aprendi, vi, lei, repase, practique, estudiado, aprendido, visto, hecho, "
            "repasado, trabajado, hice"
        ),
        "topic": _phrases(
            "explica, explicame, explicas, define, ayudame, ayudas, que es, que son, que "
            "significa, significa, como funciona"
        ),
        "plan": _phrases(
            "vamos, voy, vas, va, debo, deberia, debemos, tengo que, tenemos que, hay que, hay, "
            "podemos, podriamos, necesito, veremos, estudiaremos, haremos, aprenderemos, toca"
        ),
        "past": _phrases(
            "vimos, hicimos, estudiamos, aprendimos, hablamos, repasamos, hemos, habiamos, fue, "
            "fueron, era, estudie, aprendi, vi, hice, falle, equivoque, tuve, visto, estudiado, "
            "hecho, aprendido, terminamos, acabamos, empezamos, comenzamos, dejamos, quedamos"
        ),
        "clause_breaks": _phrases("porque, pero, aunque, ya que, asi que, sino"),
    },
    "id": {
        "fillers": _phrases(
            "dan, terus, trus, jadi, oke, ok, kak, kakak, pak, bu, halo, hai, eh, nah, sih, ya, "
            "lalu, nah, maaf, min"
        ),
        "openers": _phrases(
            "apa, apakah, mana, yang mana, bagaimana, gimana, kapan, kenapa, mengapa, siapa, "
            "berapa, bisa, bisakah, boleh, tolong, coba, ingatkan, rangkum, rangkumkan, ringkas, "
            "ringkaskan, ceritakan, sebutkan, jelaskan, kasih tahu, kasih tau, beritahu, beri "
            "tahu, saya lupa, aku lupa, lupa, saya ingin tahu, aku mau tahu, buatkan, buat, "
            "kasih, berikan, tunjukkan, sebutin"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "ingatkan, saya lupa, aku lupa, gak ingat, tidak ingat, nggak ingat, rangkum, "
            "rangkumkan, mau tahu, ingin tahu, pengen tahu, mau tau, pengen tau"
        ),
        "ellipsis": _phrases(
            "kalau, kalo, bagaimana dengan, gimana dengan, yang, di, pada, selama, tentang, "
            "bulan, apa, terus, dan"
        ),
        "recall": _phrases(
            "kita pelajari, kita belajar, kita bahas, kita membahas, kita mempelajari, kita "
            "kerjakan, kita lakukan, kita ulas, kita diskusikan, kita latihan, kita sudah, sudah "
            "kita, kita udah, udah kita, kami pelajari, kami belajar, dibahas, dipelajari, "
            "diajarkan, kamu ajarkan, ingatkan, rangkum, rangkumkan, ringkas, ringkasan, materi, "
            "pelajaran, topik, sesi, bahasan, salah, kesalahan, sampai mana, kita selesaikan"
        ),
        "study": _phrases(
            "belajar, pelajari, mempelajari, bahas, membahas, kerjakan, mengerjakan, latihan, "
            "ulang, mengulang, ajarkan"
        ),
        "topic": _phrases(
            "jelaskan, jelasin, apa itu, artinya, arti, maksudnya, bantu, bantuin, definisi"
        ),
        "plan": _phrases(
            "akan, mau, harus, perlu, nanti, sebaiknya, bisa kita, boleh kita, ayo, mari, bakal, "
            "besok"
        ),
        "past": _phrases("sudah, udah, telah, tadi, pernah, sempat"),
        "clause_breaks": _phrases(
            "karena, karna, soalnya, tapi, tetapi, namun, jadi, sehingga, padahal, walaupun, "
            "meskipun"
        ),
    },
    "ur": {
        "fillers": _phrases("اور, تو, اچھا, سر, میم, جی, ذرا, پلیز, براہ کرم, ہاں"),
        "openers": _phrases("کیا, بتائیں, بتاؤ, یاد دلائیں, یاد دلاؤ"),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "کون, کونسا, کونسی, کونسے, کب, کہاں, کیسے, کیسا, کیسی, کیوں, کتنا, کتنی, کتنے, کس, "
            "کن, بتائیں, بتاؤ, بتا, بتادیں, بتا دیں, دلائیں, دلاؤ, یاد نہیں, بھول گیا, بھول گئی, "
            "جاننا چاہتا, جاننا چاہتی"
        ),
        "ellipsis": _phrases("اور, کا, کی, کے, کیا, میں, بارے, بات, سے"),
        "recall": _phrases(
            "ہم نے, دلائیں, دلاؤ, یاد نہیں, خلاصہ, سبق, اسباق, موضوع, موضوعات, سیشن, غلط, غلطی, "
            "غلطیاں, سوالات, پہنچے, رکے, چھوڑا"
        ),
        "study": _phrases(
            "پڑھا, پڑھی, پڑھے, سیکھا, سیکھی, سیکھے, پڑھایا, سمجھایا, بتایا, دہرایا, دہرائے"
        ),
        "topic": _phrases(
            "سمجھائیں, سمجھاؤ, سمجھا دیں, وضاحت, مطلب, کیا ہے, کیا ہوتا, کیا ہوتی, مدد"
        ),
        "plan": _phrases(
            "گا, گی, گے, ہوگا, ہوگی, ہوگے, ہونگے, ہونگی, ہوں گے, چاہیے, چاہئے, سکتے, سکتی, سکتا, "
            "سکیں"
        ),
        "past": _phrases("نے, تھا, تھی, تھے, تھیں"),
        "clause_breaks": _phrases("کیونکہ, لیکن, مگر, اس لیے, اس لئے, تاکہ, جبکہ, حالانکہ"),
    },
    "ar": {
        "fillers": _phrases(
            "يا, استاذ, استاذة, أستاذ, أستاذة, طيب, حسنا, إذن, اذن, من فضلك, لو سمحت, و, ثم"
        ),
        "openers": _phrases(
            "ماذا, وماذا, فماذا, هل, وهل, متى, كيف, لماذا, أين, كم, أي, عن ماذا, عما, بماذا, "
            "ذكرني, ذكريني, لخص, لخصي, أخبرني, اخبرني, قل لي, ممكن, اشرح, اشرحي, وضح, ساعدني, لا "
            "أتذكر, لا اذكر, نسيت, أعطني, اعطني, أرني, هات, أريد أن أعرف, اريد ان اعرف, أود أن "
            "أعرف"
        ),
        "weak_openers": _phrases("ما, وما"),
        "anywhere": _phrases(
            "ذكرني, ذكريني, لا أتذكر, لا اذكر, نسيت ماذا, لخص, لخصي, أريد أن أعرف, اريد ان اعرف, "
            "أود أن أعرف"
        ),
        "ellipsis": _phrases("و, عن, ماذا عن, وماذا عن, في, ماذا, وماذا"),
        "recall": _phrases(
            "درسنا, درسناه, درسناها, تعلمنا, تعلمناه, تعلمناها, ناقشنا, ناقشناه, تحدثنا, فعلنا, "
            "فعلناه, عملنا, راجعنا, راجعناه, تناولنا, قرأنا, أخذنا, أخذناه, شرحت لي, علمتني, "
            "ذكرني, ذكريني, لخص, لخصي, الدرس, درس, دروس, الدروس, الحصة, حصة, الموضوع, المواضيع, "
            "موضوع, مواضيع, الجلسة, أخطأت, الأخطاء, أخطائي, أخطاء, توقفنا, وصلنا, انتهينا, "
            "أنهينا, أنهيناه, أنهيناها"
        ),
        "study": _phrases("درست, درسته, درستها, تعلمت, تعلمته, قرأت, راجعت, حللت"),
        "topic": _phrases("اشرح, اشرحي, وضح, وضحي, فسر, عرف, ما هو, ما هي, ما معنى, ساعدني"),
        "plan": _phrases(
            "سوف, سندرس, سنتعلم, سنراجع, سنفعل, سنأخذ, يجب, ينبغي, يمكننا, نستطيع, سأدرس, غدا"
        ),
        "past": _phrases("كان, كانت, كنا, لقد, قد, درسنا, تعلمنا, فعلنا, ناقشنا, تحدثنا, راجعنا"),
        "clause_breaks": _phrases("لأن, لان, لأنني, لانني, لكن, لكني, لكنني, ولكن, بينما, رغم"),
    },
}

# After Urdu کیا, these make it the verb "did" ("کام کیا تھا"), as does the clause's end.
URDU_KYA_AUXILIARIES: Final = _words("تھا تھی تھے تھیں ہے ہیں گیا گئی گئے ہو جا اور")

# Bounds: a time phrase after one of these is an open interval, not the period itself. "since
# March" and "after March" run to now; "before March" stops at March's start; "until March",
# "by March" and "as of March 2026" stop at its end. Urdu writes them after the time as
# postpositions ("مارچ سے پہلے" = before March, "مارچ سے" = since March), longest first.
# Spanish "a partir de" is written "partir de": the single "a" is not a word.
BOUND_PHRASES_BEFORE: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "since": _phrases("since, starting from"),
        "after": _phrases("after"),
        "before": _phrases("before"),
        "until": _phrases("until, till, up to, up until, by, as of"),
    },
    "es": {
        "since": _phrases("desde, partir de"),
        "after": _phrases("despues de, despues del"),
        "before": _phrases("antes de, antes del"),
        "until": _phrases("hasta, para, hasta fines de"),
    },
    "id": {
        "since": _phrases("sejak, semenjak, mulai"),
        "after": _phrases("setelah, sesudah"),
        "before": _phrases("sebelum"),
        "until": _phrases("sampai, hingga, per"),
    },
    "ur": {},
    "ar": {
        "since": _phrases("منذ, اعتبارا من, ابتداء من"),
        "after": _phrases("بعد"),
        "before": _phrases("قبل"),
        "until": _phrases("حتى, إلى, لغاية, بحلول"),
    },
}
BOUND_PHRASES_AFTER: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "ur": {
        "since": _phrases("سے, سے اب تک, سے لے کر"),
        "after": _phrases("کے بعد, کے بعد سے"),
        "before": _phrases("سے پہلے"),
        "until": _phrases("تک"),
    },
}

# === Record questions by cues: paraphrases the phrase lists cannot enumerate (SPEC §7) ======
# A student asks about their own record in endless wordings ("where do I keep making
# mistakes?", "¿en qué me he equivocado hasta ahora?", "Saya salah di mana saja?"). Each
# wording that is a record question says three things, and a subject question lacks at least
# one of them:
#   self   — who: the student (I, my, we; Spanish and Arabic verbs say it in their ending:
#            "hice", "أخطأت"), never an object pronoun alone ("tell me the common mistakes");
#   record — what: their mistakes, learning or progress (wrong, mistakes, learned, progress);
#   frame  — over the record: a past or perfect form asked about ("did I", "have we", "he",
#            "میں نے"), an aggregate or span ("so far", "keep", "always", "sejauh ini",
#            "اب تک", "حتى الآن"), or a word that names the record as a whole ("progress",
#            "weaknesses", "weakest").
# All three, from one language's lists, make a record question; one word may carry more than
# one ("hice" is self and frame, "أخطأت" all three). "What is the wrong way to balance an
# equation?" has no self; "why is my answer wrong?" no frame: neither is a record question.
# Entries are phrases, folded and matched as whole words anywhere in the question. Ours.
RECORD_CUES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "self": _phrases("i, my, we, our, myself"),
        "record": _phrases(
            "wrong, mistakes, errors, missed, miss, learned, learnt, covered, studied, struggle, "
            "struggled, struggling, weak, weaker, weakest, weaknesses, progress, improved, "
            "improving, mastered, bad at, hardest, trouble with, worst, better, worse"
        ),
        "frame": _phrases(
            "did i, did we, have i, have we, i ve, we ve, so far, until now, till now, up to now, "
            " yet, keep, kept, still getting, still making, always, usually, "
            "often, lately, recently, last time, in the past, weakest, hardest, worst, progress, "
            "weaknesses"
        ),
    },
    "es": {
        "self": _phrases(
            "yo, mi, mis, me, nosotros, nuestro, nuestra, nuestros, nuestras, he, hemos, hice, "
            "hicimos, sigo, seguimos, llevo, llevamos, cometí, cometimos, fallé, fallamos, "
            "equivoqué, equivocamos, aprendí, aprendimos, vimos, estudié, estudiamos, mejoré, "
            "avancé, repasamos"
        ),
        "record": _phrases(
            "mal, error, errores, equivocado, equivocada, equivoqué, equivoco, equivocando, "
            "fallado, fallé, fallo, fallando, aprendido, aprendí, aprendimos, visto, vimos, "
            "estudiado, estudié, estudiamos, repasamos, progreso, avance, avanzado, avancé, "
            "mejorado, mejoré, débil, débiles, cuesta, cuestan, dominado, cometido, cometí, "
            "dan peor, va peor"
        ),
        "frame": _phrases(
            "he, hemos, hice, hicimos, cometí, cometimos, fallé, fallamos, equivoqué, equivocamos, "
            "aprendí, aprendimos, vimos, estudié, estudiamos, mejoré, avancé, repasamos, sigo, "
            "seguimos, llevo, llevamos, hasta ahora, hasta el momento, hasta hoy, siempre, "
            "a menudo, la última vez, progreso, más me cuesta, más me cuestan, dan peor, va peor"
        ),
    },
    "id": {
        "self": _phrases("saya, aku, kita, kami"),
        "record": _phrases(
            "salah, kesalahan, keliru, pelajari, dipelajari, bahas, dibahas, kemajuan, "
            "perkembangan, lemah, kelemahan, sulit, kuasai, dikuasai, meningkat, gagal, buruk, "
            "lebih baik"
        ),
        "frame": _phrases(
            "yang sudah, sudah kita, sudah saya, yang pernah, pernah saya, pernah kita, sering, "
            "selalu, sejauh ini, selama ini, sampai sekarang, hingga sekarang, sampai saat ini, "
            "tadi, kemarin, minggu lalu, sebelumnya, apa saja, mana saja, paling, masih salah, "
            "masih lemah, masih sering, terus, kemajuan, perkembangan, kelemahan, "
            "apakah saya sudah"
        ),
    },
    "ur": {
        "self": _phrases(
            "میں نے, ہم نے, میری, میرا, میرے, مجھے, مجھ سے, ہماری, ہمارا, ہمارے, ہمیں, ہوں, اپنی, "
            "اپنے"
        ),
        "record": _phrases(
            "غلط, غلطی, غلطیاں, غلطیوں, سیکھا, سیکھی, سیکھے, پڑھا, پڑھی, پڑھے, ترقی, پیش رفت, "
            "بہتری, بہتر, کارکردگی, کمزور, کمزوری, کمزوریاں, مشکل"
        ),
        "frame": _phrases(
            "میں نے, ہم نے, اب تک, ابھی تک, آج تک, بار بار, اکثر, ہمیشہ, کرتا ہوں, کرتی ہوں, "
            "رہا ہوں, رہی ہوں, ہوتی ہے, پچھلی بار, چکا, چکی, چکے, ترقی, پیش رفت, کارکردگی, "
            "کمزوریاں, سب سے, ہوا ہوں, ہوئی ہوں"
        ),
    },
    "ar": {
        "self": _phrases(
            "أنا, نحن, أخطأت, أخطأنا, أخطئ, تعلمت, تعلمنا, درست, درسنا, ارتكبت, ارتكبتها, "
            "ارتكبناها, أخطائي, مستواي, تقدمي, أدائي, ضعفي, أتقن, أتقنها, أتقنت, تحسنت, أقع, "
            "فهمته, فهمتها, كنت"
        ),
        "record": _phrases(
            "أخطأت, أخطأنا, أخطئ, خطأ, الخطأ, أخطاء, الأخطاء, أخطائي, خاطئ, خاطئة, تعلمت, تعلمنا, "
            "درست, درسنا, مستواي, تقدمي, أدائي, ضعفي, ضعيف, أتقن, أتقنها, أتقنت, تحسنت, صعب, صعبة, "
            "أصعب, أضعف, تحسن"
        ),
        "frame": _phrases(
            "أخطأت, أخطأنا, تعلمت, تعلمنا, درست, درسنا, ارتكبت, ارتكبتها, ارتكبناها, تحسنت, أتقنت, "
            "لم أتقن, لم أتقنها, فهمته, فهمتها, تقدمي, أدائي, ضعفي, حتى الآن, إلى الآن, لحد الآن, "
            "دائما, غالبا, كثيرا, عادة, المرة الماضية, الماضية, السابقة, كنت, تحسن, أضعف"
        ),
    },
}

# The item at hand: a question about this step or this answer is about the work in front of
# the student, not the record ("I think I did something wrong in this step"). One of these
# stops the cue rule (the phrase lists above still count). Ours.
RECORD_CUE_BLOCKERS: Final[dict[str, tuple[str, ...]]] = {
    "en": _phrases(
        "this question, this problem, this equation, this answer, this exercise, this step, "
        "this sentence, this one, this part, step, here, get this, got this, got that, get it, "
        "getting this"
    ),
    "es": _phrases(
        "esta pregunta, este problema, esta ecuación, esta respuesta, este ejercicio, este paso, "
        "esta oración, esta frase, aquí, en el paso"
    ),
    "id": _phrases(
        "soal ini, jawaban ini, langkah ini, kalimat ini, persamaan ini, latihan ini, bagian ini, "
        "nomor ini, di sini"
    ),
    "ur": _phrases(
        "اس سوال, یہ سوال, اس جواب, یہ جواب, اس قدم, اس مرحلے, اس مساوات, اس جملے, یہاں"
    ),
    "ar": _phrases(
        "هذا السؤال, هذه المسألة, هذه المعادلة, هذه الإجابة, هذا الجواب, هذه الخطوة, هذا التمرين, "
        "هذه الجملة, هنا"
    ),
}
# === end of record questions by cues ===


# --- Where the noun phrase a taught note is about ends (ours) -----------------------------------
# A note that names no known concept mints a node named by the noun phrase it opens with:
# "a buffer resists changes in pH" is about a buffer, not "buffer resists". With no tagger,
# the phrase is cut at the first later word that reads as the verb, one rule per language:
# en: a third-person -s ("resists"), unless the ending is a noun's (-ss, -us, -is, -ics);
# es: nouns are followed by adjectives only (endings below: "membrana celular");
# id: verbs carry a prefix (me-, ber-, di-, ter-: "menahan", "bergerak", "diserap");
# ur: the phrase ends before a postposition or a genitive (stopwords); ar: the definite run.
NOUN_PHRASE_VERB_ENDINGS: Final[dict[str, tuple[str, ...]]] = {"en": ("s",)}
NOUN_PHRASE_NOUN_ENDINGS: Final[dict[str, tuple[str, ...]]] = {"en": ("ss", "us", "is", "ics")}
NOUN_PHRASE_ADJECTIVE_ENDINGS: Final[dict[str, tuple[str, ...]]] = {
    "es": (
        "al", "ales", "ar", "ares", "ico", "ica", "icos", "icas", "oso", "osa", "osos", "osas",
        "ivo", "iva", "ivos", "ivas", "ble", "bles", "ino", "ina", "inos", "inas", "ado",
        "ada", "ados", "adas", "ido", "ida", "idos", "idas",
    ),
}  # fmt: skip
NOUN_PHRASE_VERB_PREFIXES: Final[dict[str, tuple[str, ...]]] = {
    "id": ("me", "ber", "di", "ter"),
}
