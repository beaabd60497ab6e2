"""Roman Urdu — Urdu typed in Latin letters, as most Urdu-speaking students type on a phone —
is read as Urdu: detected as ``ur``, its function words dropped, an English term in it matched
to the English answers, its time questions answered with a window, and what it says about the
student heard by the profile. A line of another language that shares a word with Roman Urdu
(Indonesian "Hai", "main", "wali"; English "main", "parson") stays that language's."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from tutor_memory.domain.language import analyse, detect_language, distinctive_terms
from tutor_memory.domain.profile import Aspect
from tutor_memory.domain.profile_phrases import addressed, heard
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
    ["mera naam galat likha hai", "photosynthesis kya hai?", "yaad rakhna ke osmosis paani hai"],
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
