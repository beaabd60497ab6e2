"""Time named in a question becomes a window: months and relative phrases in five languages.

Which questions ask about a time (and bounds, and two times) is tested in
``test_timewords_asks.py``; a message that is only a time ("July 2025") asks about it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from babel.dates import get_month_names

from tutor_memory.domain.block import empty_window_line
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.languages import LANGUAGES as PACKS
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.timewords import find_window, month_locales

UTC_ZONE = ZoneInfo("UTC")
KARACHI = ZoneInfo("Asia/Karachi")
# Monday 30 November 2026, mid-morning in London.
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def utc(y: int, m: int, d: int, h: int = 0) -> datetime:
    return datetime(y, m, d, h, tzinfo=UTC)


def window(text: str, now: datetime = NOW, tz: ZoneInfo = UTC_ZONE) -> TimeWindow | None:
    return find_window(text, now, tz)


def span(text: str, now: datetime = NOW, tz: ZoneInfo = UTC_ZONE) -> tuple[datetime, datetime]:
    found = window(text, now, tz)
    assert found is not None, text
    return found.start, found.end


# --- relative phrases, every language ------------------------------------------------------------

YESTERDAY = (utc(2026, 11, 29), utc(2026, 11, 30))
DAY_BEFORE = (utc(2026, 11, 28), utc(2026, 11, 29))
TODAY = (utc(2026, 11, 30), utc(2026, 12, 1))
LAST_WEEK = (utc(2026, 11, 23), utc(2026, 11, 30))
THIS_WEEK = (utc(2026, 11, 30), utc(2026, 12, 7))
LAST_MONTH = (utc(2026, 10, 1), utc(2026, 11, 1))
THIS_MONTH = (utc(2026, 11, 1), utc(2026, 12, 1))

RELATIVE = [
    # English
    ("What did we do yesterday?", YESTERDAY),
    ("and the day before yesterday?", DAY_BEFORE),
    ("What did we study today?", TODAY),
    ("What did we cover last week?", LAST_WEEK),
    ("What have we done this week?", THIS_WEEK),
    ("What did we learn last month?", LAST_MONTH),
    ("Summarise this month for me", THIS_MONTH),
    # Spanish
    ("¿Qué vimos ayer?", YESTERDAY),
    ("¿Y anteayer?", DAY_BEFORE),
    ("¿Qué estudiamos hoy?", TODAY),
    ("¿Qué vimos la semana pasada?", LAST_WEEK),
    ("¿Qué hicimos esta semana?", THIS_WEEK),
    ("¿Qué aprendimos el mes pasado?", LAST_MONTH),
    ("¿Qué vimos este mes?", THIS_MONTH),
    # Indonesian
    ("Apa yang kita pelajari kemarin?", YESTERDAY),
    ("Kalau kemarin lusa?", DAY_BEFORE),
    ("Apa yang kita pelajari hari ini?", TODAY),
    ("Apa yang kita bahas minggu lalu?", LAST_WEEK),
    ("Apa yang kita bahas minggu kemarin?", LAST_WEEK),
    ("Minggu kemaren kita belajar apa?", LAST_WEEK),  # everyday spelling: not "yesterday"
    ("Bulan kemaren kita bahas apa?", LAST_MONTH),
    ("Apa saja materi minggu ini?", THIS_WEEK),
    ("Apa yang kita pelajari bulan lalu?", LAST_MONTH),
    ("Materi bulan ini apa saja?", THIS_MONTH),
    # Urdu
    ("کل ہم نے کیا پڑھا؟", YESTERDAY),
    ("پرسوں ہم نے کیا پڑھا تھا؟", DAY_BEFORE),
    ("آج ہم نے کیا پڑھا؟", TODAY),
    ("پچھلے ہفتے ہم نے کیا پڑھا؟", LAST_WEEK),
    ("اس ہفتے ہم نے کیا سیکھا؟", THIS_WEEK),
    ("پچھلے مہینے ہم نے کیا پڑھا؟", LAST_MONTH),
    ("اس مہینے ہم نے کیا پڑھا؟", THIS_MONTH),
    ("pichlay haftay humne kya parha tha?", LAST_WEEK),  # Roman Urdu as said
    ("pichle week humne kya parha tha?", LAST_WEEK),  # with English mixed in
    ("parso humne kya parha tha?", DAY_BEFORE),
    ("پچھلے ھفتے ہم نے کیا پڑھا تھا؟", LAST_WEEK),  # ھ typed for ہ
    # Arabic
    ("ماذا درسنا أمس؟", YESTERDAY),
    ("ماذا درسنا البارحة؟", YESTERDAY),
    ("وماذا عن أول أمس؟", DAY_BEFORE),
    ("ماذا تعلمنا اليوم؟", TODAY),
    ("ماذا درسنا الأسبوع الماضي؟", LAST_WEEK),
    ("ماذا درسنا هذا الأسبوع؟", THIS_WEEK),
    ("ماذا درسنا الشهر الماضي؟", LAST_MONTH),
    ("ماذا درسنا هذا الشهر؟", THIS_MONTH),
    ("شو درسنا الأسبوع اللي فات؟", LAST_WEEK),  # spoken Levantine
    ("إيش درسنا امبارح؟", YESTERDAY),
]


@pytest.mark.parametrize(("text", "expected"), RELATIVE)
def test_relative_phrases_name_local_calendar_days(
    text: str, expected: tuple[datetime, datetime]
) -> None:
    assert span(text) == expected


def test_every_relative_phrase_in_the_word_list_is_recognised() -> None:
    for lang, kinds in ((code, pack.relative_phrases) for code, pack in PACKS.items()):
        for phrases in kinds.values():
            for phrase in phrases:
                assert window(phrase) is not None, (lang, phrase)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("yesterday", "yesterday (29 Nov 2026)"),
        ("today", "today (30 Nov 2026)"),
        ("the day before yesterday", "the day before yesterday (28 Nov 2026)"),
        ("last week", "last week (23–29 Nov 2026)"),
        ("this week", "this week (30 Nov – 6 Dec 2026)"),
        ("last month", "last month (October 2026)"),
        ("this month", "this month (November 2026)"),
        ("in July", "July 2026"),
        ("julio de 2025", "July 2025"),
    ],
)
def test_the_window_is_labelled_in_english_for_the_block(text: str, label: str) -> None:
    found = window(text)
    assert found is not None
    assert found.label == label


def test_last_week_across_new_year_is_labelled_with_both_years() -> None:
    found = window("last week", now=utc(2027, 1, 6, 12))
    assert found is not None
    assert (found.start, found.end) == (utc(2026, 12, 28), utc(2027, 1, 4))
    assert found.label == "last week (28 Dec 2026 – 3 Jan 2027)"


def test_weeks_start_on_monday_whatever_day_it_is() -> None:
    sunday = utc(2026, 12, 6, 20)
    assert span("this week", now=sunday) == THIS_WEEK
    assert span("last week", now=sunday) == LAST_WEEK


def test_last_month_in_january_is_last_years_december() -> None:
    assert span("last month", now=utc(2027, 1, 15)) == (utc(2026, 12, 1), utc(2027, 1, 1))


# --- time zones ----------------------------------------------------------------------------------


def test_yesterday_in_karachi_is_a_karachi_day_returned_in_utc() -> None:
    # Karachi is UTC+5: its 29 November runs from 28 Nov 19:00 to 29 Nov 19:00 UTC.
    assert span("yesterday", tz=KARACHI) == (utc(2026, 11, 28, 19), utc(2026, 11, 29, 19))


def test_late_evening_in_utc_is_already_tomorrow_in_karachi() -> None:
    late = utc(2026, 11, 29, 21)  # 02:00 on the 30th in Karachi
    assert span("کل ہم نے کیا پڑھا؟", now=late, tz=UTC_ZONE) == (
        utc(2026, 11, 28),
        utc(2026, 11, 29),
    )
    assert span("کل ہم نے کیا پڑھا؟", now=late, tz=KARACHI) == (
        utc(2026, 11, 28, 19),
        utc(2026, 11, 29, 19),
    )


def test_a_week_across_a_daylight_saving_change_uses_local_midnights() -> None:
    madrid = ZoneInfo("Europe/Madrid")  # clocks go back on Sunday 25 October 2026
    start, end = span("la semana pasada", now=utc(2026, 10, 28, 9), tz=madrid)
    assert start == utc(2026, 10, 18, 22)  # Monday 19 Oct 00:00 CEST
    assert end == utc(2026, 10, 25, 23)  # Monday 26 Oct 00:00 CET


def test_windows_are_half_open_and_in_utc() -> None:
    found = window("yesterday")
    assert found is not None
    assert found.start.utcoffset() == found.end.utcoffset() == UTC_ZONE.utcoffset(NOW)
    assert utc(2026, 11, 29) in found
    assert utc(2026, 11, 30) not in found


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(ValidationError):
        find_window("yesterday", datetime(2026, 11, 30), UTC_ZONE)


# --- Urdu کل: yesterday or tomorrow --------------------------------------------------------------


def test_urdu_kal_in_a_question_about_the_past_is_yesterday() -> None:
    assert span("کل ہم نے کیا پڑھا تھا؟") == YESTERDAY


@pytest.mark.parametrize(
    "text",
    [
        "کل ہمارا ٹیسٹ ہوگا",
        "کل ہم فوٹو سنتھیسس پڑھیں گے",
        "کل کیا پڑھنا ہو گا؟",
        "پرسوں امتحان ہوگا",
    ],
)
def test_urdu_kal_with_a_future_verb_is_tomorrow_and_names_no_memory(text: str) -> None:
    assert window(text) is None


def test_urdu_kal_with_a_past_verb_is_yesterday_even_if_a_future_follows() -> None:
    assert span("کل ہم نے جو پڑھا تھا وہ امتحان میں آئے گا؟") == YESTERDAY


def test_a_future_kal_does_not_hide_a_past_phrase_later_in_the_text() -> None:
    assert span("کل ٹیسٹ ہوگا۔ پچھلے ہفتے ہم نے کیا پڑھا؟") == LAST_WEEK


def test_urdu_kal_before_a_quantity_means_total() -> None:
    assert window("کل رقبہ کیا ہے؟") is None
    assert window("کل تعداد معلوم کریں") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two weeks ago: not last week, and (since the forty-second round) the week before it
        ("Dua minggu lalu kita bahas apa?", (utc(2026, 11, 16), utc(2026, 11, 23))),
        ("2 minggu lalu kita bahas apa?", (utc(2026, 11, 16), utc(2026, 11, 23))),
        ("Tiga bulan lalu kita belajar apa?", (utc(2026, 8, 1), utc(2026, 9, 1))),
        ("beberapa minggu lalu kita bahas enzim", None),  # "a few weeks": no count to go by
    ],
)
def test_indonesian_n_weeks_ago_is_not_last_week(
    text: str, expected: tuple[datetime, datetime] | None
) -> None:
    found = window(text)
    assert (found and (found.start, found.end)) == expected


@pytest.mark.parametrize(
    "question",
    [
        "what did we do two weeks ago?",
        "¿qué vimos hace dos semanas?",
        "apa yang kita pelajari dua minggu lalu?",
        "do hafte pehle humne kya parha?",
        "دو ہفتے پہلے ہم نے کیا پڑھا؟",
        "ماذا درسنا قبل أسبوعين؟",
    ],
)
def test_two_weeks_ago_is_the_week_before_last_in_every_language(question: str) -> None:
    found = window(question)
    assert found is not None and found.label == "two weeks ago (16–22 Nov 2026)"
    assert (found.start, found.end) == (utc(2026, 11, 16), utc(2026, 11, 23))


def test_days_and_months_counted_back() -> None:
    assert span("what did we cover three days ago?") == (utc(2026, 11, 27), utc(2026, 11, 28))
    assert span("¿qué hicimos hace dos días?") == (utc(2026, 11, 28), utc(2026, 11, 29))
    assert span("ماذا درسنا قبل شهرين؟") == (utc(2026, 9, 1), utc(2026, 10, 1))
    assert span("what did we do a week ago?") == LAST_WEEK
    assert window("Two weeks ago I went to the beach.") is None  # told, not asked


def test_an_indonesian_hour_before_yesterday_is_no_count() -> None:
    assert span("Apa yang kita pelajari jam 2 kemarin?") == YESTERDAY  # at two, yesterday


def test_roman_urdu_parso_with_a_future_verb_names_no_memory() -> None:
    assert window("parso mera test hoga") is None


def test_arabic_kull_is_all_not_yesterday() -> None:
    assert window("ما وظيفة كل خلية؟") is None


# --- month names ---------------------------------------------------------------------------------

JULY_2026 = (utc(2026, 7, 1), utc(2026, 8, 1))
JULY_2025 = (utc(2025, 7, 1), utc(2025, 8, 1))


@pytest.mark.parametrize(
    "text",
    [
        "What did we cover in July?",
        "¿Qué vimos en julio?",
        "Apa yang kita pelajari bulan Juli?",
        "جولائی میں ہم نے کیا پڑھا؟",
        "ماذا درسنا في يوليو؟",
        "ماذا درسنا في تموز؟",  # Levantine/Iraqi
    ],
)
def test_a_month_without_a_year_is_its_most_recent_past_occurrence(text: str) -> None:
    assert span(text) == JULY_2026


@pytest.mark.parametrize(
    "text",
    [
        "July 2025",
        "What did we do in July, 2025?",
        "julio de 2025",
        "Juli 2025",
        "Juli tahun 2025",
        "جولائی 2025",
        "جولائی ۲۰۲۵ میں",
        "يوليو 2025",
        "يوليو ٢٠٢٥",
        "تموز 2025",
    ],
)
def test_a_month_with_a_year_is_that_month(text: str) -> None:
    assert span(text) == JULY_2025


def test_asking_in_january_about_december_means_last_years_december() -> None:
    january = utc(2027, 1, 10)
    expected = (utc(2026, 12, 1), utc(2027, 1, 1))
    for text in ["December", "diciembre", "Desember", "دسمبر", "ديسمبر", "كانون الأول"]:
        assert span(text, now=january) == expected, text


def test_the_current_month_means_this_month_so_far() -> None:
    for text in ["November", "noviembre", "November", "نومبر", "نوفمبر", "تشرين الثاني"]:
        assert span(text) == THIS_MONTH, text


def test_last_with_the_current_month_means_a_year_ago() -> None:
    a_year_ago = (utc(2025, 11, 1), utc(2025, 12, 1))
    for text in ["last November", "noviembre pasado", "November lalu", "نوفمبر الماضي"]:
        assert span(text) == a_year_ago, text


def test_a_month_with_a_year_in_the_future_is_still_that_month() -> None:
    assert span("March 2027") == (utc(2027, 3, 1), utc(2027, 4, 1))


def test_next_month_by_name_is_not_a_memory() -> None:
    for text in ["next May", "el próximo mayo", "Mei depan", "اگلے مئی", "مايو القادم"]:
        assert window(text) is None, text


def test_a_day_number_next_to_a_month_makes_the_window_that_day() -> None:
    may_5 = (utc(2026, 5, 5), utc(2026, 5, 6))
    for text in ["on 5 May", "May 5th", "the 5th of May", "5 de mayo", "5 Mei", "5 مئی", "5 مايو"]:
        assert span(text) == may_5, text


@pytest.mark.parametrize(
    "question",
    [
        "what did we do on October 14?",
        "what did we do on 14 October?",
        "¿qué hicimos el 14 de octubre?",
        "apa yang kita pelajari tanggal 14 Oktober?",
        "14 October ko humne kya parha?",
        "14 اکتوبر کو ہم نے کیا پڑھا؟",
        "ماذا درسنا يوم 14 أكتوبر؟",
        "ماذا درسنا يوم ١٤ أكتوبر؟",
    ],
)
def test_a_question_about_one_day_gets_that_day_in_every_language(question: str) -> None:
    found = window(question)
    assert found is not None and found.label == "14 Oct 2026", question
    assert (found.start, found.end) == (utc(2026, 10, 14), utc(2026, 10, 15))


@pytest.mark.parametrize(
    "question",
    [
        "what did we do in September and October?",
        "what did we do from September to October?",
        "¿qué hicimos en septiembre y octubre?",
        "apa yang kita pelajari dari September sampai Oktober?",
        "September aur October mein humne kya parha?",
        "ستمبر اور اکتوبر میں ہم نے کیا پڑھا؟",
        "ماذا درسنا في سبتمبر وأكتوبر؟",
    ],
)
def test_a_question_naming_two_months_gets_both_in_every_language(question: str) -> None:
    # it kept the first (or the one nearest a cue), and the block said nothing of October
    found = window(question)
    assert found is not None and found.label == "September 2026 – October 2026", question
    assert (found.start, found.end) == (utc(2026, 9, 1), utc(2026, 11, 1))


def test_a_span_of_days_a_span_across_the_new_year_and_what_is_no_span() -> None:
    assert span("¿qué hicimos del 3 de octubre al 14 de noviembre?") == (
        utc(2026, 10, 3),
        utc(2026, 11, 15),
    )
    across = window("what did we cover in December and January?")  # asked on 30 November
    assert across is not None and across.label == "December 2025 – January 2026"
    assert (across.start, across.end) == (utc(2025, 12, 1), utc(2026, 2, 1))
    # a relative time and a month stay two: the first governs, as before
    assert span("what did we do last week and in July?") == LAST_WEEK
    both = window("what did we do in September and October?")
    assert "STUDENT FROM September 2026 TO October 2026." in empty_window_line(both)


def test_a_named_day_with_its_year_or_a_bound_and_a_day_the_month_lacks() -> None:
    assert span("what did we do on October 14, 2025?") == (utc(2025, 10, 14), utc(2025, 10, 15))
    assert span("what did we do on 14 de octubre de 2025?") == (
        utc(2025, 10, 14),
        utc(2025, 10, 15),
    )
    assert span("what have we covered since 14 October?") == (utc(2026, 10, 14), TODAY[1])
    assert span("what did we do on 31 April?") == (utc(2026, 4, 1), utc(2026, 5, 1))
    # a day not yet come this year is last year's (asked on 30 November)
    assert span("what did we do on 12 December?") == (utc(2025, 12, 12), utc(2025, 12, 13))
    assert span("what did we do on 30 November?") == TODAY


EXCLUDED_MONTH_WORDS = frozenset().union(*(p.excluded_month_words for p in PACKS.values()))


@pytest.mark.parametrize("locale", month_locales())
def test_every_cldr_month_name_is_understood_with_a_year(locale: str) -> None:
    for width in ("wide", "abbreviated"):
        for month, name in get_month_names(width, locale=locale).items():
            if name.rstrip(".").casefold() in EXCLUDED_MONTH_WORDS:
                continue
            expected = (utc(2024, month, 1), utc(2024 + month // 12, month % 12 + 1, 1))
            assert span(f"{name} 2024") == expected, (locale, width, name)


def test_month_names_ignore_case_accents_and_diacritics() -> None:
    assert span("JULY") == JULY_2026
    assert span("Setiembre 2025") == (utc(2025, 9, 1), utc(2025, 10, 1))
    assert span("فِي يُولْيُو") == JULY_2026
    assert span("في أيار") == span("في ايار") == (utc(2026, 5, 1), utc(2026, 6, 1))


def test_abbreviations_count_next_to_a_number() -> None:
    assert span("Aug 2025") == (utc(2025, 8, 1), utc(2025, 9, 1))
    assert span("12 ago 2025") == (utc(2025, 8, 12), utc(2025, 8, 13))
    assert span("3 Okt") == (utc(2026, 10, 3), utc(2026, 10, 4))


# --- ambiguous month words -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "may I ask about osmosis",
        "You may go",
        "This may help with osmosis",
        "Arriving late may cost marks",
        "we march on",
        "The March of Progress",
        "Apa itu sel?",  # Indonesian Sel = Selasa (Tuesday) to some parsers
        "we",  # Wednesday to some parsers
        "Can we do the set 2 exercises?",  # set = setiembre abbreviated
        "El agua de mar es salada",  # mar = sea
        "Nadamos en mar abierto",
        "Two weeks ago we started",  # ago = agosto abbreviated
        "مارس الطالب الرياضة",  # مارس = he practised
        "ما دور الأب في الأسرة؟",  # أب (father) folds like آب (August)
        "اب ہم 2025 کے بارے میں بات کریں",  # Urdu اب = now
        "How many times a day? كم مرة في اليوم",
        "اليوم الأول من التجربة",
        "Hoy en día usamos energía solar",
        "آج کل لوگ شمسی توانائی استعمال کرتے ہیں",
        "Jan explained it to me",
    ],
)
def test_words_that_only_look_like_dates_name_no_time(text: str) -> None:
    assert window(text) is None


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("What did we cover in May?", 5),
        ("during March", 3),
        ("What did we do on the Ides of March?", 3),
        ("last March", 3),
        ("May 2026", 5),
        ("في مارس", 3),
        ("شهر مارس", 3),
        ("مارس الماضي", 3),
        ("في آب", 8),
    ],
)
def test_an_ambiguous_month_word_with_a_temporal_cue_is_the_month(text: str, month: int) -> None:
    assert span(text) == (utc(2026, month, 1), utc(2026, month + 1, 1))


@pytest.mark.parametrize(
    "text",
    [
        "What is osmosis?",
        "¿Qué es la ósmosis?",
        "Apa itu osmosis?",
        "اوسموسس کیا ہے؟",
        "ما هو التناضح؟",
        "",
    ],
)
def test_a_question_that_names_no_time_has_no_window(text: str) -> None:
    assert window(text) is None


def test_the_last_week_of_a_month_is_that_month() -> None:
    assert span("What did we do in the last week of July?") == JULY_2026


def test_two_times_asked_about_together_give_the_first() -> None:
    # Coordinated times in one question; when only one is asked about, that one wins
    # (test_timewords_asks.py).
    assert span("What did we do last week and in July?") == LAST_WEEK
    assert span("In July, and also last week?") == JULY_2026


# --- weekdays, every language (asked on Wednesday 2 December 2026) ------------------------------
WEDNESDAY = datetime(2026, 12, 2, 15, tzinfo=UTC)
FRIDAY, MONDAY = (utc(2026, 11, 27), utc(2026, 11, 28)), (utc(2026, 11, 30), utc(2026, 12, 1))
LAST_MONDAY = (utc(2026, 11, 23), utc(2026, 11, 24))
WEEKDAYS: dict[str, list[tuple[str, tuple[datetime, datetime] | None]]] = {
    "en": [
        ("What did we study on Friday?", FRIDAY),
        ("What did we cover last Friday?", FRIDAY),  # the last one before today
        ("what did we do on Monday last week?", LAST_MONDAY),
        ("What will we do next Friday?", None),  # not a memory
        ("I have a test on Friday, can you explain osmosis?", None),  # not asking about it
    ],
    "es": [
        ("¿Qué vimos el viernes?", FRIDAY),
        ("¿Qué vimos el lunes de la semana pasada?", LAST_MONDAY),
        ("¿Qué haremos el próximo viernes?", None),
    ],
    "id": [
        ("Apa yang kita pelajari hari Jumat?", FRIDAY),
        ("Apa yang kita pelajari hari Senin minggu lalu?", LAST_MONDAY),
        ("Apa yang kita pelajari minggu lalu?", (utc(2026, 11, 23), utc(2026, 11, 30))),  # a week
    ],
    "ur": [
        ("ہم نے جمعہ کو کیا پڑھا تھا؟", FRIDAY),
        ("ہم نے پیر کو کیا پڑھا تھا؟", MONDAY),
        ("پیر کی ہڈیوں کے بارے میں ہم نے کیا پڑھا تھا؟", None),  # the foot, not Monday
        ("منگل سیارے کے بارے میں ہم نے کیا پڑھا تھا؟", None),  # Mars, not Tuesday
    ],
    "ar": [
        ("ماذا درسنا يوم الجمعة؟", FRIDAY),
        ("ماذا درسنا يوم الاثنين من الأسبوع الماضي؟", LAST_MONDAY),
        ("ما الفرق بين الاثنين؟", None),  # "the two", not Monday
    ],
}


@pytest.mark.parametrize("lang", list(WEEKDAYS))
def test_a_question_about_a_weekday_asks_about_the_last_such_day(lang: str) -> None:
    got = []
    for text, _ in WEEKDAYS[lang]:
        found = window(text, WEDNESDAY)
        got.append((text, None if found is None else (found.start, found.end)))
    assert got == WEEKDAYS[lang]


def test_a_weekday_window_is_labelled_with_its_date() -> None:
    found = window("What did we study on Friday?", WEDNESDAY)
    assert found is not None and found.label == "Friday (27 Nov 2026)"
