"""Urdu (ur): see ``languages.base.Language`` for what each field is.

Stopwords: ours. Every published Urdu list we found (Stopwords ISO, ``stopwords``) is mojibake
from a broken font mapping ("ثھی" for "بھی", "هیں" for "میں"), so it would miss the commonest
words; this compact hand-written list replaces it. Deliberately absent: ہوا ("happened", but
also "air", a science topic) and nouns of any kind.

Stemming: Urdu has no stemmer in Snowball: after folding, one regular inflection ending is
stripped (خلیہ/خلیے/خلیوں → خلي), nothing more. A word in Latin letters in an Urdu text is an
English term ("DNA", "cells") or Roman Urdu: it is stemmed as English is, so "photosynthesis kya
hai?" finds what an English answer said of photosynthesis.

Roman Urdu (Urdu in Latin letters, how most students type it on a phone) is read as Urdu:
``latin_markers`` detects it, and the function words, asking words, time phrases, the
profile's cues, the record question's phrases and cues, and the teaching phrases have their
Roman spellings beside the Urdu script's (the commonest spellings; Roman Urdu has no standard
one: "galat"/"ghalat", "maine"/"mene"). Month names are not given Roman spellings: Roman Urdu
writes the English ones, which every language reads. Document furniture (headings, glossary
columns, definitions) stays in the script: files are printed in it.
"""

from __future__ import annotations

from typing import Final

from tutor_memory.domain.languages.base import Language, snowball
from tutor_memory.domain.languages.base import phrases as _phrases
from tutor_memory.domain.languages.base import words as _words
from tutor_memory.domain.languages.en import FUNCTION_WORDS as _ENGLISH_FUNCTION_WORDS

# Folded: plural and oblique endings of nouns and adjectives (-یاں -یوں -وں -یں -اں) and the
# gender/number vowels (-ے -ه -ي -ا). One ending, longest first, and a stem of at least three
# letters, so short words survive: لڑكا/لڑكے/لڑكي/لڑكوں/لڑكياں → لڑك.
_SUFFIXES: Final = ("ياں", "يوں", "وں", "يں", "اں", "ے", "ه", "ي", "ا")


_ENGLISH: Final = snowball("english")


def _stem(word: str) -> str:
    if word.isascii():  # an English term, or Roman Urdu: see the module's docstring
        return _ENGLISH(word)
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


UR: Final = Language(
    code="ur",
    name="Urdu",
    script="arabic",
    script_default=False,
    stopword_source=(
        "ours: every published Urdu list we found (Stopwords ISO, ``stopwords``) is mojibake "
        "from a broken font mapping"
    ),
    stem=_stem,
    # --- Stopwords and the analyser ---
    stopwords=_words(
        # postpositions, particles, conjunctions
        "کا کی کے کو سے میں پر تک نے ہی بھی تو اور یا لیکن مگر کہ جو جس جن جنہوں جنہیں جسے "
        "اگر پھر ساتھ بعد پہلے لیے لئے والا والی والے بارے متعلق طرح طرف جیسا جیسے جیسی "
        "ایسا ایسے ایسی ویسا ویسے وغیرہ یعنی صرف بس بہت زیادہ کم کچھ سب ہر کوئی کسی کس "
        "کیونکہ چونکہ بلکہ تاکہ جبکہ حالانکہ لہذا "
        # question words ("کون سا/سی/سے", which, also written joined)
        "کون کونسا کونسی کونسے سا سی کیا کیوں کیسے کیسا کیسی کہاں کب کتنا کتنی کتنے "
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
    ),
    # Roman Urdu's function words (the list above in Latin letters, common spellings), and
    # English's: a line that mixes in English ("what is osmosis? mujhe samajh nahi aaya") is
    # read as Urdu, and its English function and asking words are no more a subject's words
    stopword_additions=_ENGLISH_FUNCTION_WORDS
    | _words(
        "ka ki ke kay ko se mein main mai par pe tak ne hi bhi to aur ya lekin magar keh kyunke "
        "kyunki jo jis jab tab ab yahan wahan agar phir sath saath baad pehle liye liay wala "
        "wali wale bare baare tarah taraf jaisa jaise jaisi sirf bas bohat bahut zyada ziada "
        "kam kuch sab har koi kisi kis kya kiya kyun kyon kaise kaisa kaisi kahan kab kaun "
        "konsa konsi konse kitna kitni kitne aaj kal parson hum tum aap woh wo yeh ye is us in "
        "un unhon unhein isay usay humein hamara hamari hamare mera meri mere mujhe mujh "
        "tumhara tumhari tumhare tumhe apna apni apne khud hai hain tha thi thay the ho hun "
        "hoon hui hue hota hoti hotay hotey hona hoga hogi ga gi ge raha rahi rahe sakta sakti "
        "sakte kar karta karti karte karna karne karen karo kare kiye gaya gayi gaye jata jati "
        "jatay jana jaye diya di dein de dena liya li le lena aaya aayi aaye aata aati chahiye "
        "nahi nahin nai na mat "
        "please plz zara"
    ),
    stopword_exceptions=frozenset(),
    asking_words=_words(
        "بتائیں بتاؤ بتا سمجھائیں سمجھاؤ وضاحت مطلب فرق سمجھ یاد پڑھا پڑھی پڑھے سیکھا سیکھی سیکھے "
        "batao bataen bataein batayen bata samjhao samjhaen samjhayen samjhaein wazahat matlab "
        "farq samajh yaad parha parhi parhe seekha seekhi seekhe"
    ),
    stopword_proclitics=frozenset(),
    # --- Language detection ---
    # Arabic-script languages: words of one language that the other does not write.
    detection_markers=_words("ہے ہیں کا کے نہیں میں کیا کو سے تھا تھی تھے بھی اور یہ وہ ہم آپ"),
    latin_markers=_words(
        "nahi nahin kya kyun kyon kaise kaisa kaisi kahan kaun mujhe mujh mera meri mere humne "
        "humein hamara hamari aap aapka aapki aapko tum tumhe tumhara tha thi thay hain raha "
        "rahi rahe karna karo karta karti bhi aur yeh woh apna apni apne kuch bohat bahut abhi "
        "lekin magar samajh samjha samjhao batao bataen shukriya liye wala wale sakta sakte "
        "chahiye mein hoga hogi gaye theek parha parhi parhe parhna parhaya seekha seekhi "
        "seekhe pehle baad hua hui aaj kal parson parsoon parso hafte hafta haftay mahine "
        "mahina mahinay pichle pichlay "
        "pichhle pichla pichhla guzishta maine mainay mene hamne hum hamare galat ghalat galti "
        "ghalti galtiyan ghaltiyan galtiyon ghaltiyon sawal sawaal sawalon jawab kiya kiye hoon "
        "yaad rakho rakhen rakhein rakhna rakhiye ko ki kin kis kab kitna kitni kitne zindagi "
        "pani samjho samjhen samjhein samjhiye sab cheez dobara dohrana karte kar hota hoti hote "
        "sahi kamzor kamzori kamzoriyan mushkil behtar chahta chahti kehte kehti kahte"
    ),
    own_letters=frozenset("ٹڈڑںےہھۓ"),
    vote_letters=frozenset("کی"),
    # --- Time: relative phrases and month names ---
    relative_phrases={
        "today": ("آج", "aaj", "aj"),
        # کل and پرسوں point both ways in time; timewords reads them (both_ways_days).
        "yesterday": ("کل", "گزشتہ روز", "گزشتہ کل", "kal", "guzishta roz"),
        "day_before_yesterday": (
            "پرسوں",
            "parson",
            "parsoon",
            "parso",
            "دو دن پہلے",
            "do din pehle",
        ),
        "this_week": (
            "اس ہفتے",
            "اس ہفتہ",
            "اس ھفتے",
            "is hafte",
            "iss hafte",
            "is hafta",
            "iss hafta",
        ),
        "last_week": (
            "پچھلے ہفتے",
            "پچھلا ہفتہ",
            "گزشتہ ہفتے",
            "گزشتہ ہفتہ",
            "گذشتہ ہفتے",
            "پچھلے ھفتے",  # do-chashmi ھ for ہ: a common keyboard spelling
            "گزشتہ ھفتے",
            "pichle hafte",
            "pichhle hafte",
            "pichla hafta",
            "pichhla hafta",
            "pichlay haftay",  # Roman Urdu spells as it is said
            "pichlay hafte",
            "pichle haftay",
            "pichle week",  # and mixes in English
            "pichlay week",
            "guzishta hafte",
            "guzishta hafta",
            "ایک ہفتہ پہلے",
            "ek hafta pehle",
        ),
        "this_month": ("اس مہینے", "اس مہینہ", "اس ماہ", "is mahine", "iss mahine", "is maah"),
        "last_month": (
            "پچھلے مہینے",
            "پچھلا مہینہ",
            "پچھلے ماہ",
            "پچھلے مھینے",
            "گزشتہ مہینے",
            "گزشتہ ماہ",
            "گذشتہ ماہ",
            "pichle mahine",
            "pichhle mahine",
            "pichla mahina",
            "pichhla mahina",
            "pichlay mahinay",
            "pichlay mahine",
            "pichle mahinay",
            "pichle month",
            "pichlay month",
            "guzishta mahine",
            "guzishta maah",
            "ایک مہینہ پہلے",
            "ek mahina pehle",
        ),
        "days_ago_3": ("تین دن پہلے", "teen din pehle", "3 din pehle"),
        "weeks_ago_2": (
            "دو ہفتے پہلے",
            "دو ہفتہ پہلے",
            "do hafte pehle",
            "do haftay pehle",
            "2 hafte pehle",
        ),
        "weeks_ago_3": ("تین ہفتے پہلے", "teen hafte pehle", "3 hafte pehle"),
        "months_ago_2": ("دو مہینے پہلے", "دو ماہ پہلے", "do mahine pehle", "2 mahine pehle"),
        "months_ago_3": ("تین مہینے پہلے", "تین ماہ پہلے", "teen mahine pehle", "3 mahine pehle"),
    },
    not_a_time=("آج کل", "aaj kal", "aj kal"),
    counts_before_relative=frozenset(),
    both_ways_days=_words("کل پرسوں kal parson parsoon parso"),
    future_markers=_words(
        "گا گی گے ہوگا ہوگی ہوگے ہونگے ہونگی ہوںگے ہوںگی ga gi ge hoga hogi honge"
    ),
    past_markers=_words(
        "نے تھا تھی تھے تھیں ہوا ہوئی ہوئے گیا گئی گئے دیا "
        "ne tha thi thay the thein hua hui huay hue gaya gayi gaye diya"
    ),
    total_nouns=_words("تعداد رقبہ رقم وزن مجموعہ حجم ملا آبادی لمبائی قیمت نمبر"),
    today_blockers=frozenset(),
    month_locales=("ur",),
    ambiguous_month_words=frozenset(),
    own_month_words=frozenset(),
    excluded_month_words=frozenset(),
    month_cues_before=_words("پچھلے گزشتہ اس مہینے ماہ pichle pichhle guzishta mahine maah"),
    # Roman Urdu names the months in English ("July mein"): the English names are every
    # language's month words already; these make "March se pehle" a date
    month_cues_after=_words("میں سے تک mein se tak"),
    last_words=_words("پچھلے پچھلا گزشتہ گذشتہ pichle pichhle pichla pichhla pichlay guzishta"),
    next_words=_words("اگلے اگلا آئندہ agle agla aainda"),
    year_connectors=_words("سال"),
    # --- Time: does a question ask about a time? ---
    time_question_cues={
        "fillers": _phrases(
            "اور, تو, اچھا, سر, میم, جی, ذرا, پلیز, براہ کرم, ہاں, "
            "aur, to, acha, accha, sir, miss, jee, ji, zara, please, haan"
        ),
        "openers": _phrases(
            "کیا, بتائیں, بتاؤ, یاد دلائیں, یاد دلاؤ, kya, bataen, bataein, batao, yaad dilao, "
            "yaad dilaen"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "کون, کونسا, کونسی, کونسے, کب, کہاں, کیسے, کیسا, کیسی, کیوں, کتنا, کتنی, کتنے, کس, "
            "کن, بتائیں, بتاؤ, بتا, بتادیں, بتا دیں, دلائیں, دلاؤ, یاد نہیں, بھول گیا, بھول گئی, "
            "جاننا چاہتا, جاننا چاہتی, "
            "kaun, konsa, konsi, konse, kab, kahan, kaise, kaisa, kaisi, kyun, kyon, kitna, "
            "kitni, kitne, kis, kin, bataen, batao, bata, bata den, yaad nahi, bhool gaya, "
            "bhool gayi, janna chahta, janna chahti"
        ),
        "ellipsis": _phrases(
            "اور, کا, کی, کے, کیا, میں, بارے, بات, سے, aur, ka, ki, ke, kya, mein, bare, baare, "
            "baat, se"
        ),
        "recall": _phrases(
            "ہم نے, دلائیں, دلاؤ, یاد نہیں, خلاصہ, سبق, اسباق, موضوع, موضوعات, سیشن, غلط, غلطی, "
            "غلطیاں, سوالات, پہنچے, رکے, چھوڑا, "
            "humne, hum ne, dilao, dilaen, yaad nahi, khulasa, sabaq, mauzu, session, ghalat, "
            "ghalti, ghaltiyan, sawalat, pohanche, ruke, chhora, ہم کیا کر رہے, hum kya kar rahe, "
            "آپ نے بتایا, آپ نے سمجھایا, آپ نے پڑھایا, آپ نے کہا, aap ne bataya, aap ne samjhaya, "
            "aap ne parhaya, aap ne kaha, ap ne bataya, ap ne samjhaya"
        ),
        "study": _phrases(
            "پڑھا, پڑھی, پڑھے, سیکھا, سیکھی, سیکھے, پڑھایا, سمجھایا, بتایا, دہرایا, دہرائے, "
            "parha, parhi, parhe, seekha, seekhi, seekhe, parhaya, samjhaya, bataya, dohraya, "
            "پڑھ رہے, پڑھ رہا, پڑھ رہی, سیکھ رہے, سیکھ رہا, سیکھ رہی, دہرا رہے, "
            "parh rahe, parh raha, parh rahi, seekh rahe, seekh raha, seekh rahi"
        ),
        "topic": _phrases(
            "سمجھائیں, سمجھاؤ, سمجھا دیں, وضاحت, مطلب, کیا ہے, کیا ہوتا, کیا ہوتی, مدد, "
            "samjhaen, samjhao, samjha den, wazahat, matlab, kya hai, kya hota, kya hoti, madad"
        ),
        "plan": _phrases(
            "گا, گی, گے, ہوگا, ہوگی, ہوگے, ہونگے, ہونگی, ہوں گے, چاہیے, چاہئے, سکتے, سکتی, سکتا, "
            "سکیں, ga, gi, ge, hoga, hogi, honge, chahiye, sakte, sakti, sakta"
        ),
        "past": _phrases("نے, تھا, تھی, تھے, تھیں, ne, tha, thi, thay, the"),
        "clause_breaks": _phrases(
            "کیونکہ, لیکن, مگر, اس لیے, اس لئے, تاکہ, جبکہ, حالانکہ, kyunke, kyunki, lekin, magar, "
            "is liye, taake, jabke"
        ),
    },
    verb_question_words=_words("کیا kya kia"),
    verb_question_auxiliaries=_words(
        "تھا تھی تھے تھیں ہے ہیں گیا گئی گئے ہو جا اور tha thi thay the thin hai hain gaya gayi "
        "gaye ho ja aur"
    ),
    bounds_before={},
    bounds_after={
        "since": _phrases("سے, سے اب تک, سے لے کر, se, se ab tak, se le kar"),
        "after": _phrases("کے بعد, کے بعد سے, ke baad, ke baad se"),
        "before": _phrases("سے پہلے, se pehle"),
        "until": _phrases("تک, tak"),
    },
    time_proclitics="",
    # --- Teaching phrases ---
    teaching_remember=(
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
        "دھیان رکھیں کہ",
        "دھیان رکھو کہ",
        "دھیان رکھنا کہ",
        "yaad rakho ke",
        "yaad rakho ki",
        "yaad rakhen ke",
        "yaad rakhein ke",
        "yaad rakhiye ke",
        "yaad rakhna ke",
        "ye yaad rakho ke",
        "yeh yaad rakho ke",
        "ye yaad rakhen ke",
        "zehan mein rakho ke",
        "zehan mein rakhen ke",
        "mat bhoolo ke",
        "mat bhoolna ke",
        "na bhoolen ke",
    ),
    teaching_that_with_pronoun=frozenset(),
    # Urdu puts the verb last ("X کو Y سمجھو"): see treat_verbs_after.
    teaching_treat=(),
    teaching_treat_as=frozenset(),  # the object marker کو ends X instead (object_markers)
    treat_as_optional=False,
    object_markers=_words("کو ko"),
    treat_verbs_after=_words(
        "سمجھو سمجھیں سمجھیے سمجھئے سمجھنا مانو مانیں مانیے مانئے ماننا samjho samjhen samjhein "
        "samjhiye samjhna mano manen manein maniye manna"
    ),
    naming_verbs_after=_words("کہتے کہتی کہتا پکارتے پکارتی kehte kehti kehta kahte kahti pukarte"),
    treat_manner_words=_words(
        "اچھی اچھے اچھا غور ٹھیک دوبارہ پوری پورا مکمل دھیان آسانی achhi achhe achha acchi acche "
        "accha ghaur ghor theek thik dobara poori poora mukammal dhyan aasani"
    ),
    genitives=_words("کا کی کے ka ki ke"),
    teaching_lead_ins=(
        "براہ کرم",
        "برائے مہربانی",
        "مہربانی کر کے",
        "پلیز",
        "اور",
        "اب",
        "ذرا",
        "بس",
        "meherbani kar ke",
        "meharbani kar ke",
        "zara",
        "bas",
    ),
    teaching_question_openers=(
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
        "kya",
        "kia",
        "kaun",
        "kyun",
        "kyon",
        "kaise",
        "kaisa",
        "kaisi",
        "kab",
        "kahan",
        "kitna",
        "kitni",
        "kitne",
        "kis",
    ),
    teaching_naming=(),
    teaching_same_as=(),
    # "X کا مطلب ہے Y" (X means Y), "X سے مراد ہے Y", "X یعنی Y" (X, that is, Y).
    teaching_means=(
        "کا مطلب ہے",
        "کا مطلب یہ ہے کہ",
        "سے مراد ہے",
        "یعنی",
        "ka matlab hai",
        "ka matlab ye hai ke",
        "ka matlab yeh hai ke",
        "se murad hai",
        "yani",
        "yaani",
    ),
    same_as_joins=_words("اور aur"),
    same_as_endings=(
        "ایک ہی ہیں",
        "ایک ہی ہے",
        "ایک ہی چیز ہیں",
        "ایک ہی چیز ہے",
        "ek hi hain",
        "ek hi hai",
        "ek hi cheez hain",
        "ek hi cheez hai",
    ),
    teaching_articles=frozenset(),
    teaching_name_ends=frozenset(),  # Urdu names end at the object marker کو
    definite_article="",
    teaching_frames=(
        "ہماری کلاس میں",
        "اس کلاس میں",
        "میری کلاس میں",
        "ہماری جماعت میں",
        "hamari class mein",
        "hamari class main",
        "is class mein",
        "meri class mein",
        "hamari jamaat mein",
    ),
    teaching_namers=(
        "ہمارے استاد",
        "ہماری استانی",
        "ہمارے ٹیچر",
        "ہماری ٹیچر",
        "میرے استاد",
        "میری ٹیچر",
        "میرے ٹیچر",
        "ہماری کتاب",
        "hamare teacher",
        "hamari teacher",
        "mere teacher",
        "meri teacher",
        "hamare sir",
        "hamari miss",
        "hamare ustad",
        "استاد",
        "ٹیچر",
        "استانی",
        "teacher",
        "sir",
        "miss",
        "ustad",
        "madam",
        "میڈم",
    ),
    noun_phrase_verb_endings=(),
    noun_phrase_noun_endings=(),
    noun_phrase_adjective_endings=(),
    noun_phrase_verb_prefixes=(),
    # --- Document furniture and reading structure ---
    section_headings=_phrases(
        "تعارف, تمہید, پیش لفظ, خلاصہ, جائزہ, نتیجہ, مشق, مشقیں, سوالات, جائزہ سوالات, جوابات, "
        "عام غلط فہمیاں, غلط فہمیاں, عام غلطیاں, کلیدی اصطلاحات, اہم اصطلاحات, فرہنگ, "
        "اصطلاحات, فرہنگ اصطلاحات, "
        "سیکھنے کے مقاصد, مقاصد, فہرست مضامین, فہرست, حوالہ جات, کتابیات, مزید مطالعہ, "
        "حل شدہ مثال, حل شدہ مثالیں, مثالیں, اظہار تشکر"
    ),
    glossary_headings=_phrases("فرہنگ, اصطلاحات, فرہنگ اصطلاحات, کلیدی اصطلاحات"),
    glossary_term_columns=_phrases("اصطلاح, لفظ, تصور, نام"),
    glossary_definition_columns=_phrases("تعریف, مطلب, معنی, وضاحت"),
    numbered_headings=_words(
        "باب سبق یونٹ حصہ ضمیمہ ماڈیول ہفتہ موضوع سرگرمی مشق مثال شکل جدول سوال"
    ),
    number_words=_words(
        "ایک دو تین چار پانچ چھ سات آٹھ نو دس اول دوم سوم چہارم پنجم ششم پہلا دوسرا تیسرا "
        "چوتھا پانچواں"
    ),
    leading_articles=frozenset(),
    # Roman spellings too; not "kin" or "kis": English "kin selection" is a concept's name
    question_words=_words(
        "کیا کیوں کیسے کیسا کیسی کہاں کب کون کتنا کتنی کتنے kya kia kyun kyon kaise kaisa kaisi "
        "kahan kab kaun kitna kitni kitne"
    ),
    copulas=_words("ہے ہیں"),
    copula_last=True,
    definition_markers=("ایک", "سے مراد"),
    non_defining_starts=_words("نہیں نہ بھی"),
    prerequisite_phrases=_phrases("یاد کریں کہ"),
    prerequisite_phrases_after_name=_phrases("پر مبنی, پر منحصر, پر انحصار, کی ضرورت, کو فرض"),
    alias_phrases=(),
    alias_phrases_after_name=_phrases("بھی کہا جاتا ہے, بھی کہتے ہیں"),
    # --- Utterances ---
    # Roman spellings too, none a word of another language's concept names ("mere", "main",
    # "do" and "den" are English or Spanish words; these lists are read for every language)
    utterance_verbs=_words(
        "پوچھو پوچھیں دو دیں دکھاؤ دکھائیں چاہیے چاہتا چاہتی کرو کریں شروع چلو poocho pucho "
        "poochen puchen dikhao dikhayen chahiye chahta chahti karo karen chalo samjhao samjhaen "
        "batao bataen"
    ),
    utterance_pronouns=_words(
        "میں مجھے میرا میری ہم ہمیں آپ تم یہ وہ mujhe mujhse meri humein hamein aap"
    ),
    utterance_fillers=_words(
        "اچھا ٹھیک ہاں نہیں اب شکریہ جی acha achha theek haan nahi nahin shukriya"
    ),
    # --- Record questions ---
    conversation_verb_endings=(),
    record_question_phrases=(
        "میں نے کیا غلط",
        "میری غلطیاں",
        "ہم نے کیا سیکھا",
        "میں نے کیا سیکھا",
        "میری پیش رفت",
        "ہم نے کیا پڑھا",
        "ہم نے کیا کیا",
        # Roman Urdu, in its common spellings
        "maine kya galat",
        "maine kya ghalat",
        "mene kya galat",
        "mene kya ghalat",
        "main ne kya galat",
        "meri galtiyan",
        "meri ghaltiyan",
        "humne kya seekha",
        "hum ne kya seekha",
        "hamne kya seekha",
        "maine kya seekha",
        "mene kya seekha",
        "meri progress",
        "humne kya parha",
        "hum ne kya parha",
        "hamne kya parha",
        "humne kya padha",
        "hum ne kya padha",
        "humne kya kiya",
        "hum ne kya kiya",
    ),
    record_question_more_phrases=(
        "کیا غلط کیا",
        "کیا غلطیاں کیں",
        "اب تک کیا سیکھا",
        "kya galat kiya",
        "kya ghalat kiya",
        "kya galat kia",
        "kya ghalat kia",
        "kya galtiyan ki",
        "kya galtiyan kin",
        "ab tak kya seekha",
        "ab tak kya parha",
    ),
    record_question_owned=(
        "اپنی غلطیوں",
        "اپنی غلطیاں",
        "میری غلطیوں",
        "میری کمزوریاں",
        "میری کمزوری",
        "apni galtiyon",
        "apni ghaltiyon",
        "apni galtiyan",
        "apni ghaltiyan",
        "meri galtiyon",
        "meri ghaltiyon",
        "meri kamzoriyan",
        "meri kamzori",
    ),
    record_question_lookalikes=(
        "پڑھا کہ",
        "سیکھا کہ",
        "پڑھا تھا کہ",
        "سیکھا تھا کہ",
        "parha ke",
        "parha ki",
        "padha ke",
        "seekha ke",
        "parha tha ke",
        "seekha tha ke",
    ),
    record_cues={
        "self": _phrases(
            "میں نے, ہم نے, میری, میرا, میرے, مجھے, مجھ سے, ہماری, ہمارا, ہمارے, ہمیں, ہوں, اپنی, "
            "اپنے, maine, mainay, mene, main ne, humne, hum ne, hamne, meri, mera, mere, mujhe, "
            "mujh se, mujhse, hamari, hamara, hamare, humein, hamein, hoon, hun, apni, apne, main"
        ),
        "record": _phrases(
            "غلط, غلطی, غلطیاں, غلطیوں, سیکھا, سیکھی, سیکھے, پڑھا, پڑھی, پڑھے, ترقی, پیش رفت, "
            "بہتری, بہتر, کارکردگی, کمزور, کمزوری, کمزوریاں, مشکل, galat, ghalat, galti, ghalti, "
            "galtiyan, ghaltiyan, galtiyon, ghaltiyon, seekha, seekhi, seekhe, sikha, sikhi, "
            "parha, parhi, parhe, padha, padhi, padhe, taraqqi, progress, behtari, behtar, "
            "karkardagi, performance, kamzor, kamzori, kamzoriyan, mushkil"
        ),
        "frame": _phrases(
            "میں نے, ہم نے, اب تک, ابھی تک, آج تک, بار بار, اکثر, ہمیشہ, کرتا ہوں, کرتی ہوں, "
            "رہا ہوں, رہی ہوں, ہوتی ہے, پچھلی بار, چکا, چکی, چکے, ترقی, پیش رفت, کارکردگی, "
            "کمزوریاں, سب سے, ہوا ہوں, ہوئی ہوں, maine, mainay, mene, main ne, humne, hum ne, "
            "hamne, ab tak, abhi tak, aaj tak, baar baar, bar bar, aksar, hamesha, karta hoon, "
            "karti hoon, karta hun, karti hun, raha hoon, rahi hoon, hoti hai, pichli baar, "
            "chuka, chuki, chuke, taraqqi, progress, karkardagi, performance, kamzoriyan, sab se, "
            "hua hoon, hui hoon, gaya hoon, gayi hoon, گیا ہوں, گئی ہوں"
        ),
        # the student's standing across the record (weak at, struggling, improving): asked
        # about with themselves in a question, enough without a frame (``record_question``)
        "trait": _phrases(
            "کمزور, کمزوری, کمزوریاں, مشکل ہوتی, بہتر ہو, ترقی, بہتری, kamzor, kamzori, "
            "behtar ho, taraqqi"
        ),
    },
    record_cue_blockers=_phrases(
        "اس سوال, یہ سوال, اس جواب, یہ جواب, اس قدم, اس مرحلے, اس مساوات, اس جملے, یہاں, "
        "is sawal, ye sawal, yeh sawal, is jawab, ye jawab, yeh jawab, is qadam, is marhale, "
        "is jumle, yahan"
        # a request for advice on improving is no question about the record
        ", کیسے ہو سکتا, کیسے ہو سکتی, کیسے کر سکتا, کیسے کر سکتی"
    ),
    profile_self=_phrases(
        "میں, میرا, میری, میرے, مجھے, مجھ, main, mein, mera, meri, mere, mujhe, mujh"
    ),
    profile_preference_cues=_phrases(
        "مجھے پسند ہے, مجھے زیادہ پسند ہے, میں ترجیح دیتا ہوں, میں ترجیح دیتی ہوں, "
        "مجھے بہتر سمجھ آتا ہے, مجھے بہتر سمجھ آتی ہے, براہ کرم ہمیشہ, پلیز ہمیشہ, ہمیشہ سمجھائیں, "
        "ہمیشہ مثال, mujhe pasand hai, mujhe zyada pasand hai, main tarjeeh deta hoon, "
        "main tarjeeh deti hoon, mujhe behtar samajh aata hai, mujhe behtar samajh aati hai, "
        "please hamesha, hamesha samjhaen, hamesha misal"
    ),
    profile_teaching_words=_phrases(
        "مثال, مثالیں, مثالوں, قدم بہ قدم, مرحلہ وار, آسان, مختصر, چھوٹے, آہستہ, تصویریں, "
        "ڈایاگرام, سمجھائیں, سمجھانا, وضاحت, جواب, خلاصہ, جملے, misal, misalen, misalon, misaal, "
        "misaalen, misaalon, "
        "qadam ba qadam, step by step, aasan, mukhtasar, chhote, aahista, tasveerein, diagram, "
        "samjhaen, samjhana, wazahat, jawab, khulasa, jumle, "
        "example, examples"  # Roman Urdu says them in English: "hamesha pehle example dein"
    ),
    profile_standing_words=_phrases("ہمیشہ, ہر دفعہ, ہر بار, hamesha, har dafa, har baar"),
    profile_request_verbs=_phrases(
        "دیں, دیجیے, دیجئے, سمجھائیں, دکھائیں, شروع کریں, do, den, dein, dijiye, samjhao, "
        "samjhaen, samjhayen, samjhayein, dikhao, dikhaen, shuru karo, shuru karen, dena, chahiye"
    ),
    profile_remember_cues=_phrases(
        "یاد رکھیں کہ میں, یاد رکھیں کہ مجھے, یاد رکھیں کہ میرا, یاد رکھیں کہ میری, "
        "یاد رکھنا کہ میں, یاد رکھنا کہ مجھے, یہ یاد رکھیں کہ میں, مت بھولیں کہ میں, "
        "yaad rakhen ke main, yaad rakhen ke mujhe, yaad rakhen ke mera, yaad rakhen ke meri, "
        "yaad rakhna ke main, yaad rakhna ke mujhe, yaad rakhna ke mera, yaad rakhna ke meri, "
        "yaad rakhna main, yaad rakhna mujhe, mat bhoolna ke main, mat bhoolen ke main"
    ),
    profile_needs={
        "dyslexia": _phrases("ڈسلیکسیا, dyslexia"),
        "adhd": _phrases("اے ڈی ایچ ڈی, توجہ کی کمی, adhd, tawajju ki kami"),
        "autism": _phrases("آٹزم, autism"),
        "extra time": _phrases("اضافی وقت, زیادہ وقت, extra time, izafi waqt, zyada waqt"),
        "hearing": _phrases("کم سنائی, سماعت کا آلہ, بہرا, بہری, kam sunai, hearing aid"),
        "sight": _phrases("کم نظر, کمزور نظر, رنگ کوری, بڑے حروف, kam nazar, kamzor nazar"),
        "short sentences": _phrases("چھوٹے جملے, مختصر جملے, chhote jumle, mukhtasar jumle"),
    },
    profile_goal_words=_phrases(
        "امتحان, امتحانات, ٹیسٹ, پرچہ, پیپر, پیپرز, اولمپیاڈ, imtihan, imtehan, exam, exams, test, "
        "paper, papers, olympiad"
    ),
    profile_negations=_phrases("نہیں, نہ, مت, nahi, nahin, nahee, mat"),
    # no pronoun: "وہ" is also "that", "اس" also "this" ("اس جمعہ کو میرا امتحان ہے")
    profile_negation_after=True,
    profile_others=_phrases(
        "بھائی, بہن, امی, ابو, ماں, باپ, والد, والدہ, والدین, دوست, کزن, خالہ, چچا, ماموں, "
        "پھوپھو, نانی, دادی, نانا, دادا, bhai, behen, behan, ammi, abbu, walid, walida, dost, "
        "cousin, khala, chacha, mamu, nani, dadi, لوگ, لوگوں, شخص, کتا, کتی, کتے, بلی, kutta, "
        "billi"
    ),
    plan_days={0: ("آج", "aaj"), 1: ("کل", "kal"), 2: ("پرسوں", "parson")},
    plan_day_blockers=frozenset(),
    # Saturday and a week, Monday and a foot or a saint, Tuesday and Mars, Wednesday and Buddha
    ambiguous_weekday_words=_words("ہفتہ پیر منگل بدھ"),
    weekday_cues=_words("کو بروز"),
    profile_self_suffixes=(),
    profile_goal_verbs=_words("ٹیسٹ test"),
    profile_goal_verb_before=frozenset(),
    profile_goal_verb_after=_words("کرنا کریں کرو کروں کرتا کرتی کرتے karna karen karo karun"),
    profile_language_cues=_phrases(
        "میں سمجھائیں, میں سمجھاؤ, میں بتائیں, میں جواب دیں, میں پڑھائیں, میں بات کریں, میں لکھیں, "
        "mein samjhaen, mein samjhao, mein bataen, mein batao, mein jawab den, mein parhaen, "
        "mein baat karen, mein likhen, mein samjhayein, mein samjhaiye, mein samjhayen, "
        "mein batayein, mein bataiye"
    ),
    profile_languages={
        "en": ("انگریزی", "angrezi", "english"),
        "es": ("ہسپانوی", "hispanvi", "spanish"),
        "id": ("انڈونیشی", "انڈونیشین", "indonesian"),
        "ur": ("اردو", "urdu"),
        "ar": ("عربی", "arabi", "arabic"),
    },
    profile_name_cues=_phrases("میرا نام, mera naam, mera name"),
    profile_name_closers=_phrases("ہے"),
    # "call me X": the name between "مجھے" (me) and the verb — say, call (by), may call
    profile_name_frames={
        "مجھے": _phrases(
            "کہیں, کہو, کہہ کر بلائیں, کہہ کر بلاؤ, بلائیں, بلاؤ, کہہ سکتے ہیں, کہہ سکتی ہیں"
        ),
        "mujhe": _phrases("kahen, kahein, kaho, keh kar bulayen, keh kar bulao, bulayen, bulao"),
    },
    profile_address_cues=_phrases(
        "السلام علیکم, وعلیکم السلام, سلام, ہیلو, خوش آمدید, شاباش, بہت خوب, شکریہ, اللہ حافظ, "
        "خدا حافظ, مبارک ہو, صبح بخیر, assalam o alaikum, assalamualaikum, asalam o alaikum, "
        "salam, walaikum assalam, khush amdeed, shabash, bohat khoob, bahut khoob, shukriya, "
        "allah hafiz, khuda hafiz, mubarak ho, subah bakhair"
    ),
    profile_address_particles=(),
    profile_address_epithets=_phrases(
        "بیٹا, بیٹی, بیٹے, بچو, بچے, بچی, دوست, دوستو, سب, سبھی, جی, یار, بھائی, "
        "بہن, صاحب, دنیا, طالب علم, beta, beti, betay, bacho, bachay, bachi, dost, dosto, sab, "
        "jee, ji, yaar, bhai, behen, sahab, duniya, talib ilm"
    ),
)
