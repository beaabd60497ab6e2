"""Roman Urdu — Urdu typed in Latin letters, as most Urdu-speaking students type on a phone —
is read as Urdu: detected as ``ur``, its function words dropped, an English term in it matched
to the English answers, its time questions answered with a window, and what it says about the
student heard by the profile, a question about their own record recognised, and an instruction
to remember taught to the map. A line of another language that shares a word with Roman Urdu
(Indonesian "Hai", "main", "wali"; English "main", "parson") stays that language's.

The phrasings are ours, written from how students type Urdu on a phone (its spellings vary:
"galat"/"ghalat", "maine"/"mene", "parha"/"padha"), not taken from any test set."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from tutor_memory.domain.language import (
    analyse,
    detect_language,
    distinctive_terms,
    fold,
    stopwords,
)
from tutor_memory.domain.languages import language
from tutor_memory.domain.profile import Aspect
from tutor_memory.domain.profile_phrases import addressed, heard
from tutor_memory.domain.record_question import is_record_question
from tutor_memory.domain.teaching import TeachingKind, detect_teaching
from tutor_memory.domain.timewords import find_window

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)  # a Monday
TODAY = NOW.date()


@pytest.mark.parametrize(
    "text",
    [
        "mujhe photosynthesis samajh nahi aaya",
        "cell membrane kya karti hai?",
        "pichle hafte humne kya parha tha?",
        "shukriya sir, ab samajh aa gaya",
        "What is osmosis? mujhe samajh nahi aaya",  # switched mid-line: more Urdu than English
        "December se kya parha?",  # "se" is a Spanish word too: "kya" and "parha" decide
        "theek hai",
    ],
)
def test_roman_urdu_is_detected_as_urdu(text: str) -> None:
    assert detect_language(text) == "ur"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Hai Putri! Apa kabar?", "id"),
        ("Hai kak, aku mau tanya soal sel", "id"),
        ("Aku mau main bola setelah sekolah", "id"),
        ("Wali kelas kami baik sekali", "id"),
        ("Gaya hidup sehat itu penting agar kuat", "id"),
        ("What is the main idea of the text?", "en"),
        ("The parson spoke about the harvest", "en"),
        ("Se me olvidó la tarea de biología", "es"),
        ("Hi Maya!", "en"),
    ],
)
def test_a_line_that_shares_a_word_with_roman_urdu_keeps_its_language(text: str, lang: str) -> None:
    assert detect_language(text) == lang


@pytest.mark.parametrize("lang", ["en", "es", "id"])
def test_no_roman_urdu_marker_is_a_function_word_of_a_latin_language(lang: str) -> None:
    """A marker that is also a Latin language's function word (Indonesian "hai", "ke", "tak")
    would count for Urdu in that language's every line."""
    markers = {fold(w) for w in language("ur").latin_markers}
    theirs = stopwords(lang) | {fold(w) for w in language(lang).detection_markers}
    assert sorted(markers & theirs) == []


def test_an_english_term_in_roman_urdu_finds_the_english_answer() -> None:
    """The commonest way a Pakistani student asks: the subject's English word inside an Urdu
    sentence. Its function words go; the English term is stemmed as English is."""
    question = "photosynthesis kahan hoti hai?"
    answer = "Photosynthesis happens in the chloroplasts of plant cells."
    assert analyse(question) == ["photosynthesi"]
    assert set(distinctive_terms(question)) <= set(analyse(answer))
    assert analyse("mujhe cells ki membrane samjhao") == ["cell", "membran"]
    # English mixed in: its function words are no subject's words either
    assert analyse("What is osmosis? mujhe samajh nahi aaya") == ["osmosi"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("pichle hafte humne kya parha tha?", "last week (23–29 Nov 2026)"),
        ("kal humne kya parha tha?", "yesterday (29 Nov 2026)"),
        ("parson humne kya parha tha?", "the day before yesterday (28 Nov 2026)"),
        ("is hafte kya seekha?", "this week (30 Nov – 6 Dec 2026)"),
        ("pichle mahine kya seekha?", "last month (October 2026)"),
        ("July mein humne kya parha tha?", "July 2026"),
        ("March se pehle kya parha tha?", "before March 2026"),
        # no question mark: "kya" before a verb asks, as the script's کیا does
        ("humne July mein kya parha tha", "July 2026"),
        ("maine pichle hafte kia seekha", "last week (23–29 Nov 2026)"),
    ],
)
def test_a_roman_urdu_time_question_gets_its_window(text: str, label: str) -> None:
    found = find_window(text, NOW, ZoneInfo("UTC"))
    assert found is not None and found.label == label


@pytest.mark.parametrize(
    "text",
    [
        "kal mera test hoga, kya parhna chahiye?",  # kal with a future: tomorrow, no memory
        "aaj kal photosynthesis parh raha hoon",  # "aaj kal": these days
        "humne July mein kaam kiya tha",  # "kiya tha": did, a statement
        "maine July mein project mukammal kiya",  # the verb last: a statement
    ],
)
def test_a_roman_urdu_line_that_names_no_past_time_gets_no_window(text: str) -> None:
    assert find_window(text, NOW, ZoneInfo("UTC")) is None


@pytest.mark.parametrize(
    ("text", "aspect", "key", "value"),
    [
        ("mera naam Ali hai", Aspect.NAME, "", "Ali"),
        ("mera naam Ali Khan hai", Aspect.NAME, "", "Ali Khan"),
        ("mujhe dyslexia hai, chhote jumle likhen", Aspect.ACCOMMODATION, "dyslexia", None),
        ("please urdu mein samjhaen", Aspect.LANGUAGE, "", "Urdu"),
        ("mera biology ka exam 12 May ko hai", Aspect.GOAL, "2027-05-12", None),
        ("yaad rakhna ke main violin bajata hoon", Aspect.OTHER, "", None),
        ("mujhe pasand hai ke aap pehle misal den", Aspect.PREFERENCE, "", None),
        ("hamesha pehle misaal do", Aspect.PREFERENCE, "", None),  # the order of speech
        ("Aur hamesha pehle example dein, phir explain karein.", Aspect.PREFERENCE, "", None),
        ("mujhe hamesha examples pehle chahiye", Aspect.PREFERENCE, "", None),
        ("mujhe urdu mein samjhayein", Aspect.LANGUAGE, "", "Urdu"),
    ],
)
def test_what_a_roman_urdu_message_says_about_the_student_is_heard(
    text: str, aspect: Aspect, key: str, value: str | None
) -> None:
    found = heard(text, TODAY)
    assert found is not None and (found.aspect, found.key) == (aspect, key)
    assert found.value == (text if value is None else value)


@pytest.mark.parametrize(
    "text",
    [
        "mera naam galat likha hai",
        "photosynthesis kya hai?",
        "yaad rakhna ke osmosis paani hai",
        "mujhe osmosis ki misaal do",  # one example, asked once
        "mujhe ek example do",
        "mujhe hamesha madad chahiye",  # always, but no way of teaching
    ],
)
def test_a_roman_urdu_message_about_the_subject_says_nothing_of_the_student(text: str) -> None:
    assert heard(text, TODAY) is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Assalam o alaikum Ali! aaj kya parhna hai?", "Ali"),
        ("Shabash Ayesha, bohat acha!", "Ayesha"),
        ("Shabash beta!", None),  # "beta" (son, child) names no one
        ("Khuda hafiz dost!", None),
    ],
)
def test_a_tutors_roman_urdu_greeting_tells_the_name(text: str, name: str | None) -> None:
    assert addressed(text) == name


# --- the student's own record -------------------------------------------------------------------

RECORD_QUESTIONS = [
    "maine ab tak kya galat kiya hai?",
    "main kahan kahan galtiyan karta hoon?",
    "humne ab tak kya parha hai?",
    "meri performance kaisi hai?",
    "mujhe kin topics mein mushkil hoti hai?",
    "maine kaun se sawal galat kiye?",
    "meri kamzoriyan kya hain?",
    "mujhe apni galtiyon mein se kya dohrana chahiye?",
    "main kis cheez mein baar baar galti karti hoon?",
    "pichli baar humne kya parha tha?",
    "meri progress kaisi hai?",
    "maine ab tak kya kya seekha hai?",
    "main kin sawalon mein abhi tak galti kar raha hoon?",
    "main kin topics mein sab se kamzor hoon?",
    "main biology mein kya galat karta raha hoon?",
    "meri galtiyon ka khulasa dein",
    "kya is hafte main osmosis mein behtar hua hoon?",
    "mene kya ghalat kia?",
    "hum ne pichli class mein kya padha tha?",
    # written after the lists above, as a fresh check; the first two then gained "mujhse"
    # and "gaya hoon" (the script's گیا ہوں with it)
    "mujhse kahan kahan galti hoti hai?",
    "kya main pehle se behtar ho gaya hoon?",
    "maine is hafte kya kya galat kiya?",
    "mujhe kaun se topics dobara parhne chahiye jin mein meri galtiyan thi?",
]

# The same words about the subject, or about the item in front of the student.
SUBJECT_QUESTIONS = [
    "cell kya hai?",
    "measurement ki galti kya hai?",
    "mera jawab galat kyun hai?",
    "equation ko balance karne ka galat tareeqa kya hai?",
    "students fractions mein kaun si aam galtiyan karte hain?",
    "kya zero se divide karna galat hai?",
    "Mendel ne matar ke poudon se kya seekha?",
    "maine parha ke cells divide hote hain, ye kaise hota hai?",
    "experiment galat kyun ho gaya?",
    "kya mera molar mass ka hisaab sahi hai?",
    "absolute error kya hai?",
    "mujhe lab mein kya lana tha?",
    "kal maine osmosis parha, kya aap dobara samjha sakte hain?",  # past study, then a request
    # written after the lists, as a fresh check
    "galat answer ka matlab kya hai?",
    "kya ye jawab sahi hai?",
    "photosynthesis mein kya galat fehmi hoti hai?",
    "Newton ne gravity ke bare mein kya seekha tha?",
]


@pytest.mark.parametrize("text", RECORD_QUESTIONS)
def test_a_roman_urdu_question_about_the_students_record_is_recognised(text: str) -> None:
    assert detect_language(text) == "ur"
    assert is_record_question(text)


@pytest.mark.parametrize("text", SUBJECT_QUESTIONS)
def test_a_roman_urdu_subject_question_with_the_same_words_is_not_about_the_record(
    text: str,
) -> None:
    assert detect_language(text) == "ur"
    assert not is_record_question(text)


# --- teaching the map ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind", "claim", "subject"),
    [
        ("yaad rakho ke cell zindagi ki ikai hai", TeachingKind.REMEMBER,
         "cell zindagi ki ikai hai", None),
        ("please yaad rakhen ke osmosis ko energy nahi chahiye", TeachingKind.REMEMBER,
         "osmosis ko energy nahi chahiye", None),
        # verb-final naming inside the class's frame
        ("yaad rakho ke hamari class mein hum mitochondria ko cell ka powerhouse kehte hain",
         TeachingKind.REMEMBER, "mitochondria = cell ka powerhouse", "mitochondria"),
        ("yaad rakho ke osmosis ka matlab hai pani ka phailao", TeachingKind.REMEMBER,
         "osmosis = pani ka phailao", None),
        ("yaad rakho ke mitochondria aur powerhouse ek hi hain", TeachingKind.REMEMBER,
         "mitochondria = powerhouse", None),
        # "treat X as Y", verb last
        ("osmosis ko pani ka phailao samjho", TeachingKind.TREAT, "osmosis = pani ka phailao",
         "osmosis"),
        ("cell ki jhilli ko darban samjhen", TeachingKind.TREAT, "cell ki jhilli = darban",
         "cell ki jhilli"),
    ],
)  # fmt: skip
def test_a_roman_urdu_instruction_teaches_the_map(
    message: str, kind: TeachingKind, claim: str, subject: str | None
) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert (intent.kind, intent.language, intent.claim, intent.subject) == (
        kind,
        "ur",
        claim,
        subject,
    )


@pytest.mark.parametrize(
    "message",
    [
        "osmosis ko achhi tarah samjho",  # "understand osmosis well"
        "osmosis ko dobara samjho",  # "understand osmosis again"
        "kya tumhe yaad hai ke osmosis kya hai",  # a question, even without its mark
        "mujhe osmosis samjhao",  # a request to explain
    ],
)
def test_a_roman_urdu_message_that_is_no_instruction_teaches_nothing(message: str) -> None:
    assert detect_teaching(message) is None
