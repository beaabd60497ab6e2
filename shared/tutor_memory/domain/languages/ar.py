"""Arabic (ar): see ``languages.base.Language`` for what each field is.

Stemming: the Light10 stemmer (Larkey, Ballesteros and Connell 2007; the one Lucene's
ArabicStemmer implements), not Snowball: Snowball Arabic keeps or drops the article depending
on the rest of the word (الخلية→الخل, خلية→خل, والخلية→والخل), strips the plural ات only from
definite nouns (بروتينات→روتينا, البروتينات→بروتين), and takes the ب of loanwords for a
preposition (بروتين→روت, فيروس→يروس). Light10 strips the article and the clitics و ب ك ف ل
before it, then the common suffixes, and is consistent on all of those.
"""

from __future__ import annotations

from typing import Final

from tutor_memory.domain.languages.base import Language
from tutor_memory.domain.languages.base import phrases as _phrases
from tutor_memory.domain.languages.base import words as _words

# Light10, over folded text (so ة is already ه, and أ إ آ are ا).
_PREFIXES: Final = ("ال", "وال", "بال", "كال", "فال", "لل")
_SUFFIXES: Final = ("ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي")


def _light10(word: str) -> str:
    for prefix in _PREFIXES:
        if word.startswith(prefix) and len(word) >= len(prefix) + 2:
            word = word[len(prefix) :]
            break
    else:
        # a bare و ("and") only when what is left still looks like a word
        if word.startswith("و") and len(word) >= 4:
            word = word[1:]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) >= len(suffix) + 2:
            word = word[: -len(suffix)]
    return word


AR: Final = Language(
    code="ar",
    name="Arabic",
    script="arabic",
    script_default=True,
    stopword_source=(
        "Lucene's ArabicAnalyzer list (analysis/ar/stopwords.txt, by Jacques Savoy, BSD, cleaned "
        "11 Oct 2009); it lists hamza variants that our fold merges anyway"
    ),
    stem=_light10,
    # --- Stopwords and the analyser ---
    stopwords=_words(
        "من ومن منها منه في وفي فيها فيه و ف ثم او أو ب بها به ا أ اى اي أي أى لا ولا الا ألا "
        "إلا لكن ما وما كما فما عن مع اذا إذا ان أن إن انها أنها إنها انه أنه إنه بان بأن فان "
        "فأن وان وأن وإن التى التي الذى الذي الذين الى الي إلى إلي على عليها عليه اما أما إما "
        "ايضا أيضا كل وكل لم ولم لن ولن هى هي هو وهى وهي وهو فهى فهي فهو انت أنت لك لها له "
        "هذه هذا تلك ذلك هناك كانت كان يكون تكون وكانت وكان غير بعض قد نحو بين بينما منذ ضمن "
        "حيث الان الآن خلال بعد قبل حتى عند عندما لدى جميع"
    ),
    # Question words, personal pronouns, relatives, auxiliaries and prepositions Lucene's list
    # lacks.
    stopword_additions=_words(
        "لماذا ماذا كيف هل متى أين كم أنا انا نحن أنتم أنتما أنتن هم هما هن هؤلاء أولئك هنا "
        "اللذان اللتان اللذين اللتين اللواتي اللاتي ليس ليست لست كنت كنا كانوا سوف لقد اذن "
        "إذن حول عبر دون مثل لي لنا لكم لهم عنه عنها"
    ),
    stopword_exceptions=frozenset(),
    asking_words=_words(
        "اشرح اشرحي وضح وضحي فسر عرف معنى الفرق فرق ذكرني لخص فضلك درسنا تعلمنا ناقشنا تحدثنا"
    ),
    stopword_proclitics=frozenset("وفبلك"),
    # --- Language detection ---
    detection_markers=_words("ما هي هو في على إلى هل كيف لماذا ماذا التي الذي هذا هذه عن مع"),
    latin_markers=frozenset(),
    own_letters=frozenset(),
    vote_letters=frozenset("كيىة"),
    # --- Time: relative phrases and month names ---
    relative_phrases={
        # اليوم is also "the day" ("في اليوم" = per day): see today_blockers below.
        "today": ("اليوم",),
        # امبارح and "اللي فات" (that went by): the spoken Levantine and Egyptian forms
        "yesterday": ("أمس", "بالأمس", "البارحة", "امبارح", "إمبارح", "مبارح"),
        "day_before_yesterday": (
            "أول أمس",
            "أول البارحة",
            "أول امبارح",
            "أول إمبارح",
            "قبل يومين",
            "منذ يومين",
        ),
        "this_week": ("هذا الأسبوع",),
        "last_week": (
            "الأسبوع الماضي",
            "الأسبوع السابق",
            "الأسبوع الفائت",
            "الأسبوع اللي فات",
            "قبل أسبوع",
            "منذ أسبوع",
        ),
        "this_month": ("هذا الشهر",),
        "last_month": (
            "الشهر الماضي",
            "الشهر السابق",
            "الشهر الفائت",
            "الشهر اللي فات",
            "قبل شهر",
            "منذ شهر",
        ),
        # the dual is one word: أسبوعين (two weeks), شهرين (two months)
        "days_ago_3": ("قبل ثلاثة أيام", "منذ ثلاثة أيام", "قبل 3 أيام"),
        "weeks_ago_2": ("قبل أسبوعين", "منذ أسبوعين", "قبل 2 أسابيع"),
        "weeks_ago_3": ("قبل ثلاثة أسابيع", "منذ ثلاثة أسابيع", "قبل 3 أسابيع"),
        "months_ago_2": ("قبل شهرين", "منذ شهرين"),
        "months_ago_3": ("قبل ثلاثة أشهر", "منذ ثلاثة أشهر", "قبل 3 أشهر"),
    },
    not_a_time=(),
    counts_before_relative=frozenset(),
    both_ways_days=frozenset(),
    future_markers=frozenset(),
    past_markers=_words(
        "كان كانت كنت قدمت ذهبت نجحت رسبت أخذت كتبت انتهى انتهت حصلت"
    ),  # a plan in the past (plandates)
    total_nouns=frozenset(),
    today_blockers=_words("في كل حتى إلى منذ طوال"),
    month_locales=("ar", "ar_SY"),
    ambiguous_month_words=_words("مارس آب"),
    own_month_words=_words("آب"),
    excluded_month_words=frozenset(),
    month_cues_before=_words("في خلال منذ حتى شهر بداية نهاية أوائل أواخر منتصف"),
    month_cues_after=_words("الماضي السابق الفائت"),
    last_words=_words("الماضي السابق"),
    next_words=_words("القادم المقبل"),
    year_connectors=_words("عام سنة"),
    # --- Time: does a question ask about a time? ---
    time_question_cues={
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
            "قلت لي, قلتي لي, أخبرتني, أخبرتيني, شرحتي لي, علمتيني, "
            "ذكرني, ذكريني, لخص, لخصي, الدرس, درس, دروس, الدروس, الحصة, حصة, الموضوع, المواضيع, "
            "موضوع, مواضيع, الجلسة, أخطأت, الأخطاء, أخطائي, أخطاء, توقفنا, وصلنا, انتهينا, "
            "أنهينا, أنهيناه, أنهيناها, كنا ندرس, كنا نتعلم, كنا نعمل, كنا نفعل, كنا نراجع, "
            "كنا نناقش, كنا نقرأ, كنا نتحدث, كنت أدرس, كنت أتعلم, كنت أراجع, كنت أقرأ"
        ),
        "study": _phrases("درست, درسته, درستها, تعلمت, تعلمته, قرأت, راجعت, حللت"),
        "topic": _phrases("اشرح, اشرحي, وضح, وضحي, فسر, عرف, ما هو, ما هي, ما معنى, ساعدني"),
        "plan": _phrases(
            "سوف, سندرس, سنتعلم, سنراجع, سنفعل, سنأخذ, يجب, ينبغي, يمكننا, نستطيع, سأدرس, غدا"
        ),
        "past": _phrases("كان, كانت, كنا, لقد, قد, درسنا, تعلمنا, فعلنا, ناقشنا, تحدثنا, راجعنا"),
        "clause_breaks": _phrases("لأن, لان, لأنني, لانني, لكن, لكني, لكنني, ولكن, بينما, رغم"),
    },
    verb_question_words=frozenset(),
    verb_question_auxiliaries=frozenset(),
    bounds_before={
        "since": _phrases("منذ, اعتبارا من, ابتداء من"),
        "after": _phrases("بعد"),
        "before": _phrases("قبل"),
        "until": _phrases("حتى, إلى, لغاية, بحلول"),
    },
    bounds_after={},
    time_proclitics="وف",
    # --- Teaching phrases ---
    teaching_remember=(
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
        "انتبه إلى أن",
        "انتبهي إلى أن",
    ),
    teaching_that_with_pronoun=_words(
        "أنه أنها أننا أنهم أنهن أنك أنكم أنني بأنه بأنها بأننا بأنهم"
    ),
    teaching_treat=("اعتبر", "اعتبري", "اعتبروا", "عامل", "عاملي"),
    teaching_treat_as=_words("بمثابة مثل"),
    treat_as_optional=True,
    object_markers=frozenset(),
    treat_verbs_after=frozenset(),
    naming_verbs_after=frozenset(),
    treat_manner_words=frozenset(),
    genitives=frozenset(),
    teaching_lead_ins=("من فضلك", "رجاء", "أرجو", "أرجوك", "الآن", "أيضا", "حسنا", "و"),
    teaching_question_openers=(
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
    teaching_naming=(
        "نسمي",
        "نطلق على",
        "ندعو",
        # "تذكر أن معلمتنا تسمي X Y" (teaching_namers with their verb: she calls, not "is
        # called", which folds to the same letters)
        "معلمتنا تسمي",
        "معلمنا يسمي",
        "المعلمة تسمي",
        "المعلم يسمي",
        "أستاذنا يسمي",
        "أستاذتنا تسمي",
        "الأستاذ يسمي",
        "الأستاذة تسمي",
        "معلمتي تسمي",
        "معلمي يسمي",
        "كتابنا يسمي",
        "الكتاب يسمي",
    ),
    teaching_same_as=("هو نفسه", "هي نفسها", "هو نفس", "هي نفس", "هو ذاته", "هي ذاتها"),
    # "X يعني Y" (X means Y), "X يسمى Y" (X is called Y), "X نسميه Y" (X, we call it Y).
    teaching_means=(
        "يعني",
        "تعني",
        "يسمى",
        "تسمى",
        "يدعى",
        "تدعى",
        "نسميه",
        "نسميها",
        "يعرف باسم",
        "تعرف باسم",
    ),
    same_as_joins=frozenset(),
    same_as_endings=(),
    teaching_articles=frozenset(),
    teaching_name_ends=_words("اسم بمثابة على مثل"),
    definite_article="ال",
    teaching_frames=("في صفنا", "في فصلنا", "في هذا الصف", "في حصتنا", "في صفي"),
    teaching_namers=(
        "معلمتنا",
        "معلمنا",
        "المعلمة",
        "المعلم",
        "أستاذنا",
        "أستاذتنا",
        "الأستاذ",
        "الأستاذة",
        "معلمتي",
        "معلمي",
        "كتابنا",
        "الكتاب",
    ),
    noun_phrase_verb_endings=(),
    noun_phrase_noun_endings=(),
    noun_phrase_adjective_endings=(),
    noun_phrase_verb_prefixes=(),
    # --- Document furniture and reading structure ---
    section_headings=_phrases(
        "مقدمة, المقدمة, تمهيد, نظرة عامة, ملخص, الملخص, خلاصة, الخلاصة, خاتمة, الخاتمة, "
        "تمارين, التمارين, أسئلة, الأسئلة, أسئلة المراجعة, أسئلة مراجعة, الأجوبة, إجابات, "
        "مفاهيم خاطئة شائعة, المفاهيم الخاطئة الشائعة, مفاهيم خاطئة, أخطاء شائعة, "
        "الأخطاء الشائعة, المصطلحات الرئيسية, مصطلحات رئيسية, الكلمات المفتاحية, "
        "مسرد المصطلحات, مسرد, المسرد, قاموس, قاموس المصطلحات, المصطلحات, التعريفات, "
        "أهداف التعلم, نواتج التعلم, الأهداف, جدول المحتويات, المحتويات, "
        "فهرس المحتويات, المراجع, مراجع, قراءات إضافية, مثال محلول, أمثلة محلولة, أمثلة, "
        "شكر وتقدير"
    ),
    glossary_headings=_phrases("مسرد, المسرد, مسرد المصطلحات, قاموس, قاموس المصطلحات, المصطلحات"),
    glossary_term_columns=_phrases("المصطلح, مصطلح, الكلمة, كلمة, المفهوم, مفهوم"),
    glossary_definition_columns=_phrases("التعريف, تعريف, المعنى, معنى, الشرح, شرح"),
    numbered_headings=_words(
        "الفصل فصل الوحدة وحدة الدرس درس الجزء جزء القسم قسم الملحق ملحق الباب باب الأسبوع "
        "النشاط نشاط التمرين تمرين المثال مثال الشكل شكل الجدول جدول السؤال سؤال"
    ),
    number_words=_words(
        "الأول الأولى الثاني الثانية الثالث الثالثة الرابع الرابعة الخامس الخامسة السادس "
        "السادسة السابع السابعة الثامن الثامنة التاسع التاسعة العاشر العاشرة واحد اثنان "
        "ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة عشرة"
    ),
    leading_articles=frozenset(),
    question_words=_words("ماذا لماذا كيف هل متى أين ما"),
    copulas=_words("هو هي"),
    copula_last=False,
    definition_markers=(),
    non_defining_starts=_words("ليس ليست لا لم لن أيضا فقط"),
    prerequisite_phrases=_phrases(
        "يعتمد على, تعتمد على, يبنى على, تبنى على, يتطلب, تتطلب, يفترض, تفترض, تذكر أن"
    ),
    prerequisite_phrases_after_name=(),
    alias_phrases=_phrases(
        "يسمى أيضا, تسمى أيضا, ويسمى أيضا, وتسمى أيضا, يعرف أيضا باسم, تعرف أيضا باسم"
    ),
    alias_phrases_after_name=(),
    # --- Utterances ---
    utterance_verbs=_words("اسألني اسأل أعطني اعطني أرني ساعدني أريد اريد ابدأ لنبدأ هيا"),
    # with "that I / we / you" as one word (أنني، أننا، أنك): a note about the people talking
    utterance_pronouns=_words("أنا انا لي نحن أنت انت هذا هذه ذلك أنني أننا بأننا أنك أنكم"),
    utterance_fillers=_words("حسنا طيب الآن نعم لا شكرا يعني"),
    # --- Record questions ---
    conversation_verb_endings=(),
    record_question_phrases=(
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
    record_question_more_phrases=("أين أخطأت", "ماذا تعلمت", "ما الذي تعلمته"),
    record_question_owned=("نقاط ضعفي", "نقاط الضعف لدي"),
    record_question_lookalikes=("تعلمت أن", "تعلمنا أن", "درست أن", "درسنا أن"),
    record_cues={
        "self": _phrases(
            "أنا, نحن, أخطأت, أخطأنا, أخطئ, تعلمت, تعلمنا, درست, درسنا, ارتكبت, ارتكبتها, "
            "ارتكبناها, أخطائي, مستواي, تقدمي, أدائي, ضعفي, أتقن, أتقنها, أتقنت, تحسنت, أقع, "
            "فهمته, فهمتها, كنت, أتحسن"
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
        # the student's standing across the record (weak at, struggling, improving): asked
        # about with themselves in a question, enough without a frame (``record_question``)
        "trait": _phrases("ضعيف, ضعيفة, أضعف, ضعفي, صعوبة, أتحسن, تحسن, تحسنت, مستواي, تقدمي"),
    },
    record_cue_blockers=_phrases(
        "هذا السؤال, هذه المسألة, هذه المعادلة, هذه الإجابة, هذا الجواب, هذه الخطوة, هذا التمرين, "
        "هذه الجملة, هنا"
        # a request for advice on improving is no question about the record
        ", كيف يمكنني, كيف أستطيع"
    ),
    profile_self=_phrases(
        "أنا, انا, لدي, لديّ, عندي, أحتاج, أفضل, أفضّل, امتحاني, اختباري, "
        "الخاص بي, الخاصة بي, "  # "of mine": "امتحان الكيمياء الخاص بي"
        "تبعي, تبعتي"  # the same in Levantine speech: "امتحان الكيمياء تبعي"
    ),
    profile_preference_cues=_phrases(
        "أفضل أن, أفضّل أن, أفضل, أفضّل, أحب أن, أحب عندما, أفهم أفضل, أتعلم أفضل, "
        "من فضلك دائما, من فضلك لا, دائما اشرح, دائما أعطني, اشرح لي دائما"
    ),
    profile_teaching_words=_phrases(
        "مثال, أمثلة, الأمثلة, خطوة بخطوة, خطوات, بسيط, بسيطة, مختصر, مختصرة, قصيرة, ببطء, "
        "صور, الصور, رسوم, الرسوم, اشرح, شرح, الشرح, إجابات, الإجابات, ملخص, جمل"
    ),
    profile_standing_words=_phrases("دائما, دائماً, كل مرة, في كل مرة"),
    profile_request_verbs=_phrases("أعطني, اعطني, أعطيني, اشرح لي, وضح لي, وضّح لي, أرني, ابدأ"),
    profile_remember_cues=_phrases(
        "تذكر أنني, تذكر أني, تذكر أن لدي, تذكر أن عندي, تذكّر أنني, لا تنس أنني, لا تنسى أنني, "
        "تذكر أن امتحاني"
    ),
    profile_needs={
        "dyslexia": _phrases("عسر القراءة, ديسلكسيا"),
        "adhd": _phrases("فرط الحركة, تشتت الانتباه"),
        "autism": _phrases("التوحد, توحد"),
        "extra time": _phrases("وقت إضافي, وقتا إضافيا, وقت اضافي"),
        "hearing": _phrases("ضعف السمع, سماعة, أصم, صماء"),
        "sight": _phrases("ضعف البصر, عمى الألوان, خط كبير"),
        "short sentences": _phrases("جمل قصيرة, جملا قصيرة"),
    },
    profile_goal_words=_phrases(
        "امتحان, امتحاني, الامتحان, امتحانات, الامتحانات, اختبار, اختباري, الاختبار, اختبارات, "
        "الاختبارات, أولمبياد"
    ),
    profile_negations=_phrases("لا, ليس, ليست, لست, لم, لن, مش, مو, ما عندي, ما عندى, مافي"),
    # no pronoun: "هو", "هي" are also a copula ("امتحاني هو يوم الجمعة")
    profile_negation_after=False,
    profile_others=_phrases(
        "أخي, أختي, أخ, أخت, أخوي, أمي, أبي, أبوي, والدي, والدتي, والداي, صديقي, صديقتي, "
        "صديق, صديقة, ابن عمي, بنت عمي, ابن خالي, بنت خالي, خالتي, عمتي, خالي, عمي, جدتي, "
        "جدي, زميلي, زميلتي, ناس, الناس, شخص, أشخاص, كلب, كلبي, قطة, قطتي, قط"
    ),
    plan_days={
        0: ("اليوم",),
        1: ("غدا", "غد", "بكرة", "بكره"),
        2: ("بعد غد", "بعد غدا", "بعد بكرة"),
    },
    plan_day_blockers=_words("في كل حتى إلى منذ طوال"),  # "في اليوم": per day
    # Monday and "the two", Sunday and "the one", Saturday and the Sabbath: with "يوم" only
    ambiguous_weekday_words=_words("الاثنين الإثنين الأحد السبت"),
    weekday_cues=_words("يوم"),
    profile_self_suffixes=(),
    profile_goal_verbs=frozenset(),
    profile_goal_verb_before=frozenset(),
    profile_goal_verb_after=frozenset(),
    profile_language_cues=_phrases("اشرح لي, اشرح, علمني, أجبني, أجب, تحدث معي, اكتب, باللغة"),
    profile_languages={
        "en": ("الإنجليزية", "بالإنجليزية", "الانجليزية", "بالانجليزية"),
        "es": ("الإسبانية", "بالإسبانية"),
        "id": ("الإندونيسية", "بالإندونيسية"),
        "ur": ("الأردية", "بالأردية", "الاردو", "بالاردو"),
        "ar": ("العربية", "بالعربية"),
    },
    profile_name_cues=_phrases("اسمي, ناديني, نادني"),
    profile_name_closers=(),
    profile_name_frames={},  # the name follows its cue ("call me Maya")
    profile_address_cues=_phrases(
        "أهلا, مرحبا, السلام عليكم, صباح الخير, مساء الخير, أهلا وسهلا, أهلا بعودتك, مرحبا بعودتك, "
        "أحسنت, شكرا, مع السلامة, إلى اللقاء, مبروك, سعيد برؤيتك, سعيدة برؤيتك, بالتوفيق"
    ),
    profile_address_particles=_phrases("يا"),
    profile_address_epithets=_phrases(
        "العالم, بالعالم, الجميع, بالجميع, جميعا, صديقي, صديقتي, أصدقائي, بطل, بطلة, البطل, "
        "عزيزي, عزيزتي, حبيبي, حبيبتي, بني, بنيتي, ابني, ابنتي, شاطر, شاطرة, أستاذ, أستاذة, "
        "أخي, أختي, صغيري, صغيرتي"
    ),
)
