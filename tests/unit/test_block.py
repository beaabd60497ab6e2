"""The memory block: its sections, their order, their wording, and the budget (SPEC §7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.block import (
    BELIEFS_HEADER,
    FOOTER,
    HEADER,
    HOW_TO_USE,
    HOW_TO_USE_NO_MAP,
    NO_BELIEFS_HEADER,
    NO_CHECKS_LINE,
    NOTHING_MATCHED_LINE,
    RECORD_LINE,
    WORK_HEADER,
    MemoryBlock,
    build_block,
    calibration_line,
    is_record_question,
    without_shown_corrections,
)
from tutor_memory.domain.calibration import Calibration
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    CheckEvidence,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    Evidence,
    FileEvidence,
    Kind,
    NoEvidence,
    Pair,
    QuizEvidence,
    TaughtEvidence,
)
from tutor_memory.domain.mapblock import MapSection
from tutor_memory.domain.question import understand
from tutor_memory.domain.recall import Mode, RecalledItem, RecallResult
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.tokens import count_tokens

PAIR = Pair("student-1", "biology")
NOW = datetime(2026, 9, 20, 12, 0, tzinfo=UTC)
PLENTY = 10_000
FINGERPRINT = "a" * 64
MAP_HEADER = (
    "SUBJECT MAP (3 concepts; the files explain 79% of it, this is about the material, "
    "NOT the student's mastery):"
)
MAP = MapSection(
    (
        MAP_HEADER,
        "- Cell: The cell is the basic unit of life.",
        "- Cytoplasm: The jelly that fills the cell. (builds on: Cell)",
        "- Mitochondria: Mitochondria release energy. (builds on: Cytoplasm)",
    ),
    ("cell", "cytoplasm", "mitochondria"),
    60,
)


def at(month: int, day: int, year: int = 2026, hour: int = 10) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


def episode(
    seq: int, kind: Kind, when: datetime, summary: str, evidence: Evidence | None = None
) -> Episode:
    return Episode(
        pair=PAIR,
        seq=seq,
        episode_id=f"ep-{seq:04d}",
        kind=kind,
        at=when,
        summary=summary,
        text=summary,
        concepts=(),
        salience=0.5,
        evidence=evidence or NoEvidence(),
        recalled_ids=(),
        ref=None,
        idempotency_key=None,
        prev_hash="",
        hash="",
    )


def recalled(ep: Episode, score: float, repeats: Sequence[Episode] = ()) -> RecalledItem:
    """``ep`` standing for itself and ``repeats`` (identical episodes, any order)."""
    members = sorted([ep, *repeats], key=lambda e: (e.at, e.seq))
    return RecalledItem(
        episode=ep,
        score=score,
        pools=("lexical",),
        count=len(members),
        first_at=members[0].at,
        last_at=members[-1].at,
        collapsed_ids=tuple(e.episode_id for e in members),
    )


def recall_of(
    items: Sequence[RecalledItem],
    mode: Mode = Mode.RELEVANT,
    window: TimeWindow | None = None,
    window_empty: bool = False,
) -> RecallResult:
    best_first = sorted(items, key=lambda i: i.score, reverse=True)
    return RecallResult(best_first, mode, window, window_empty, (), (), {}, {})


def belief(name: str, confidence: float, claim: Claim = Claim.UNDERSTANDS) -> Belief:
    return Belief(
        pair=PAIR,
        belief_id=f"b-{name.replace(' ', '-')}",
        concept_key=name,
        concept_name=name,
        claim=claim,
        confidence=confidence,
        evidence_ids=("ep-0009",),
        created_at=at(9, 18),
        rule_version=1,
        reason="first check on it",
    )


ASKED = episode(1, Kind.QUESTION, at(7, 12), "Can we go over Eukaryotic Cells today?")
ANSWERED = episode(
    2,
    Kind.ANSWER,
    at(7, 12, hour=11),
    "Of course. Eukaryotic Cells: Eukaryotic cells contain a nucleus and organelles.",
    AnswerEvidence("biology-pdf", 3, FINGERPRINT),
)
TAUGHT = episode(
    3,
    Kind.TAUGHT,
    at(9, 18),
    "Taught: in our class we call the mitochondria the powerhouse of the cell",
    TaughtEvidence("in our class we call the mitochondria the powerhouse of the cell"),
)
CHECKS = [
    episode(
        4 + i, Kind.CHECK, at(9, 1 + i), "Check on cytoplasm", CheckEvidence("cytoplasm", "right")
    )
    for i in range(4)
]
HISTORY = [
    recalled(ASKED, 0.62),
    recalled(ANSWERED, 0.58),
    recalled(TAUGHT, 0.81),
    recalled(CHECKS[-1], 0.7, CHECKS[:-1]),
]
BELIEFS = [belief("cytoplasm", 0.72), belief("eukaryotic cells", 0.72)]


def build(
    question: str | None = "What is cytoplasm?",
    items: Sequence[RecalledItem] = HISTORY,
    *,
    recall: RecallResult | None = None,
    beliefs: Sequence[Belief] = BELIEFS,
    map_section: MapSection | None = MAP,
    changed: dict[str, str] | None = None,
    checks: int = 4,
    budget: int = PLENTY,
    now: datetime = NOW,
    **kw: object,
) -> MemoryBlock:
    return build_block(
        question=understand(question, now, UTC),
        recall=recall or recall_of(items),
        beliefs=beliefs,
        map_section=map_section,
        changed_files=changed or {},
        checks_recorded=checks,
        budget_tokens=budget,
        now=now,
        **kw,  # type: ignore[arg-type]
    )


def lines(block: MemoryBlock) -> list[str]:
    return block.text.split("\n")


def work_lines(block: MemoryBlock) -> list[str]:
    """The earlier-work lines: those that start with a date."""
    return [line for line in lines(block) if line[2:3].isdigit()]


# --- record questions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        # en
        "What did I get wrong so far?",
        "what have we learned",
        "Where did I go wrong?",
        "How am I doing in biology?",
        # es
        "¿Qué hice mal hasta ahora?",
        "¿Qué hemos aprendido este mes?",
        "¿En qué me equivoqué?",
        "¿Cómo voy?",
        # id
        "Apa yang salah dari jawaban saya selama ini? Apa kesalahan saya?",
        "Apa yang sudah kita pelajari?",
        "Bagaimana kemajuan saya?",
        # ur
        "میں نے اب تک کیا غلط کیا؟",
        "ہم نے کیا سیکھا ہے؟",
        "میری غلطیاں بتائیں",
        # ar
        "ماذا أخطأت؟",
        "ماذا تعلمنا حتى الآن؟",
        "وماذا أخطأت في الاختبار؟",
        "ما هي أخطائي؟",
    ],
)
def test_a_student_asking_about_their_own_record_is_recognised(question: str) -> None:
    assert is_record_question(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is osmosis?",
        "Explain the cell wall",
        "May I ask about osmosis?",
        "¿Qué es la ósmosis?",
        "¿Cómo voy a resolver esta ecuación?",
        "Apa itu osmosis?",
        "Apa yang salah dengan kalimat ini?",
        "خلیہ کیا ہے؟",
        "ما هي الخلية؟",
        "",
        None,
    ],
)
def test_a_question_about_the_subject_is_not_a_record_question(question: str | None) -> None:
    assert not is_record_question(question)


# --- sections and order ---------------------------------------------------------------------------


def test_the_block_opens_and_closes_with_its_exact_markers() -> None:
    block = build()
    assert lines(block)[0] == "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT =====" == HEADER
    assert lines(block)[-1] == "===== END OF MEMORY =====" == FOOTER
    assert lines(block)[-2] == HOW_TO_USE
    assert HOW_TO_USE.startswith(
        "HOW TO USE THIS: it is your own memory of past work with this student, not their "
        'material. When you rely on it, say when it happened ("in July we…"). Never claim a '
        "memory that is not listed here."
    )


def test_the_map_is_explained_only_in_a_block_that_shows_one() -> None:
    with_map, without = lines(build()), lines(build(map_section=None))
    assert with_map[-2] == HOW_TO_USE and without[-2] == HOW_TO_USE_NO_MAP
    assert "subject map" not in HOW_TO_USE_NO_MAP
    assert HOW_TO_USE_NO_MAP.endswith("Never claim a memory that is not listed here.")


def test_with_no_belief_to_show_the_beliefs_legend_is_left_out_and_the_reason_kept() -> None:
    text = lines(build(beliefs=[], checks=0))
    assert BELIEFS_HEADER not in text
    assert text[text.index(NO_BELIEFS_HEADER) : text.index(NO_BELIEFS_HEADER) + 2] == [
        "WHAT YOU CURRENTLY BELIEVE ABOUT THIS STUDENT:",
        "No checks recorded yet.",
    ]


def test_an_ordinary_question_shows_the_map_first_then_beliefs_then_earlier_work() -> None:
    block = build("What is cytoplasm?")
    text = lines(block)
    assert not block.record_question
    assert RECORD_LINE not in text
    assert text[1] == MAP_HEADER
    assert text.index(MAP_HEADER) < text.index(BELIEFS_HEADER) < text.index(WORK_HEADER)
    assert text.index(WORK_HEADER) < text.index(HOW_TO_USE)


@pytest.mark.parametrize(
    "question",
    [
        "What did I get wrong so far?",
        "¿Qué hice mal?",
        "Apa yang sudah kita pelajari?",
        "میں نے کیا غلط کیا؟",
        "ماذا أخطأت؟",
    ],
)
def test_a_record_question_puts_the_record_first_and_the_map_last(question: str) -> None:
    block = build(question)
    text = lines(block)
    assert block.record_question
    assert text[1] == RECORD_LINE
    assert RECORD_LINE.startswith(
        "THE STUDENT IS ASKING ABOUT THEIR OWN RECORD. Answer from the beliefs and the earlier "
        "work listed here"
    )
    assert text[2] == BELIEFS_HEADER
    assert text.index(BELIEFS_HEADER) < text.index(WORK_HEADER) < text.index(MAP_HEADER)
    assert text[text.index(HOW_TO_USE) - 1] == MAP.lines[-1]


def test_record_mode_keeps_the_conversation_not_only_checks() -> None:
    shown = work_lines(build("What have we learned?"))
    assert any("you were asked: Can we go over Eukaryotic Cells today?" in s for s in shown)
    assert any("you answered: Of course." in s for s in shown)
    assert any("the student taught you:" in s for s in shown)
    assert any("check on cytoplasm: right" in s for s in shown)


# --- earlier work ---------------------------------------------------------------------------------


def test_earlier_work_is_oldest_first_whatever_its_scores() -> None:
    assert work_lines(build()) == [
        "- 12 Jul · you were asked: Can we go over Eukaryotic Cells today?",
        "- 12 Jul · you answered: Of course. Eukaryotic Cells: Eukaryotic cells contain a "
        "nucleus and organelles.",
        "- 1 Sep – 4 Sep · check on cytoplasm: right (and 3 more times like it)",
        "- 18 Sep · the student taught you: in our class we call the mitochondria the powerhouse "
        "of the cell",
    ]


def test_the_year_is_shown_only_when_it_is_not_this_years() -> None:
    last_year = episode(20, Kind.QUESTION, at(12, 5, year=2025), "What is a cell?")
    shown = work_lines(build(items=[recalled(last_year, 0.9), recalled(ASKED, 0.5)]))
    assert shown == [
        "- 5 Dec 2025 · you were asked: What is a cell?",
        "- 12 Jul · you were asked: Can we go over Eukaryotic Cells today?",
    ]
    in_2027 = work_lines(build(items=[recalled(ASKED, 0.5)], now=NOW.replace(year=2027)))
    assert in_2027 == ["- 12 Jul 2026 · you were asked: Can we go over Eukaryotic Cells today?"]


def test_dates_are_the_students_local_dates() -> None:
    late = episode(21, Kind.QUESTION, datetime(2026, 7, 12, 22, 30, tzinfo=UTC), "Late question")
    karachi = timezone(timedelta(hours=5))
    assert work_lines(build(items=[recalled(late, 0.5)], tz=karachi)) == [
        "- 13 Jul · the student said: Late question"
    ]


def test_every_kind_reads_as_what_happened() -> None:
    quiz = episode(30, Kind.QUIZ, at(8, 1), "Quiz", QuizEvidence(7, 10, ("osmosis", "diffusion")))
    bare_quiz = episode(31, Kind.QUIZ, at(8, 2), "Quiz", QuizEvidence(4.5, 5))
    missed = episode(32, Kind.CHECK, at(8, 3), "Check", CheckEvidence("osmosis", "wrong"))
    arrived = episode(
        33, Kind.FILE, at(8, 4), "File", FileEvidence("biology-pdf", "Biology.pdf", FINGERPRINT)
    )
    night = episode(
        34,
        Kind.CONSOLIDATION,
        at(8, 5),
        "3 questions, 2 checks (1 right); topics: osmosis",
        ConsolidationEvidence("2026-08-05", {"question": 3}, 1, 1, ("osmosis",)),
    )
    items = [recalled(e, 0.5) for e in (quiz, bare_quiz, missed, arrived, night)]
    assert work_lines(build(items=items)) == [
        "- 1 Aug · quiz: 7/10 on osmosis, diffusion",
        "- 2 Aug · quiz: 4.5/5",
        "- 3 Aug · check on osmosis: wrong",
        "- 4 Aug · a file arrived: Biology.pdf",
        "- 5 Aug · summary of the day: 3 questions, 2 checks (1 right); topics: osmosis",
    ]


def test_the_beliefs_header_carries_the_calibration_status_in_one_line() -> None:
    ranking = calibration_line(None)
    assert "treat it as a ranking, not a probability" in ranking
    lines = build(calibration=ranking).text.splitlines()
    assert lines[lines.index(BELIEFS_HEADER) + 1] == ranking
    calibrated = calibration_line(Calibration(7, (), 0.125), as_of="2026-09-20")
    assert calibrated == (
        "Confidence is calibrated: 7 checks carried a prediction by 2026-09-20; "
        "expected calibration error 0.12, so a confidence is a probability give or take that "
        "much."
    )
    assert calibration_line(Calibration(4, (), 0.3)) == ranking  # four are not enough
    assert ranking not in build(beliefs=[], calibration=ranking).text  # nothing to qualify


def summary_of(seq: int, day: datetime, summary: str) -> Episode:
    evidence = ConsolidationEvidence(day.date().isoformat(), {"question": 1}, 0, 0, ())
    return episode(seq, Kind.CONSOLIDATION, day.replace(hour=23), summary, evidence)


def test_a_days_summary_is_never_shown_beside_that_days_own_episodes() -> None:
    asked = episode(50, Kind.QUESTION, at(8, 5), "What is osmosis?")
    busy_day = summary_of(51, at(8, 5), "2026-08-05: 1 question")
    quiet_day = summary_of(52, at(8, 9), "2026-08-09: 1 question")
    items = [recalled(asked, 0.4), recalled(busy_day, 0.9), recalled(quiet_day, 0.3)]
    block = build(items=items)
    assert work_lines(block) == [
        "- 5 Aug · you were asked: What is osmosis?",
        "- 9 Aug · summary of the day: 2026-08-09: 1 question",  # stands for its day
    ]
    assert busy_day.episode_id not in block.memory_ids


def test_a_days_summary_is_read_on_the_students_calendar() -> None:
    karachi = timezone(timedelta(hours=5))
    late = episode(53, Kind.QUESTION, datetime(2026, 8, 5, 22, 0, tzinfo=UTC), "Late question")
    night = summary_of(54, at(8, 6), "2026-08-06: 1 question")  # 6 Aug in Karachi
    shown = work_lines(build(items=[recalled(late, 0.5), recalled(night, 0.5)], tz=karachi))
    assert shown == ["- 6 Aug · the student said: Late question"]


def test_a_repeated_memory_is_one_line_that_says_how_often() -> None:
    again = [
        episode(40 + i, Kind.QUESTION, at(7, 12, hour=12 + i), "What is a cell?") for i in (0, 1)
    ]
    shown = work_lines(build(items=[recalled(again[1], 0.5, again[:1])]))
    assert shown == ["- 12 Jul · you were asked: What is a cell? (and 1 more time like it)"]


def test_an_answer_whose_file_changed_says_so_and_which_way() -> None:
    replaced = work_lines(build(changed={ANSWERED.episode_id: "replaced"}))
    assert replaced[1].endswith("organelles. [note: the file this cited has since been replaced]")
    removed = work_lines(build(changed={ANSWERED.episode_id: "removed"}))
    assert removed[1].endswith(" [note: the file this cited has since been removed]")
    holds = work_lines(build(changed={ANSWERED.episode_id: "holds"}))
    assert "[note:" not in "\n".join(holds)
    assert sum("[note:" in line for line in replaced) == 1


def test_a_question_that_matched_nothing_says_the_recent_past_is_shown_instead() -> None:
    block = build("What is photosynthesis?", recall=recall_of(HISTORY, Mode.NOTHING_MATCHED))
    text = lines(block)
    assert NOTHING_MATCHED_LINE == (
        "Nothing earlier matches this question; the most recent work is listed instead."
    )
    assert text[text.index(WORK_HEADER) + 1] == NOTHING_MATCHED_LINE
    assert len(work_lines(block)) == len(HISTORY)


def test_without_a_question_the_recent_past_is_listed_plainly() -> None:
    block = build(None, recall=recall_of(HISTORY, Mode.RECENT_ONLY))
    assert NOTHING_MATCHED_LINE not in block.text and not block.record_question
    assert len(work_lines(block)) == len(HISTORY)


def test_a_student_with_no_history_is_told_so_without_inventing_any() -> None:
    block = build(items=[], recall=recall_of([], Mode.NOTHING_MATCHED))
    text = lines(block)
    assert text[text.index(WORK_HEADER) + 1] == (
        "No earlier work with this student is recorded yet."
    )
    assert block.memory_ids == () and work_lines(block) == []


# --- a named time with nothing in it ------------------------------------------------------------


JULY = TimeWindow(at(7, 1, hour=0), at(8, 1, hour=0), "July 2026", ("july",))


def test_an_empty_month_says_there_is_no_record_and_describes_no_session() -> None:
    empty = recall_of([], window=JULY, window_empty=True)
    block = build("What did we cover in July?", recall=empty)
    text = lines(block)
    no_record = (
        "THERE IS NO RECORD OF ANY WORK WITH THIS STUDENT IN July 2026. "
        "Say so; do not describe a session from that time."
    )
    assert text[:3] == [HEADER, RECORD_LINE, no_record]
    assert WORK_HEADER not in text and work_lines(block) == []
    assert block.memory_ids == () and block.dropped_items == 0


def test_no_episode_is_presented_as_if_from_an_empty_time_even_if_handed_one() -> None:
    muddled = recall_of(HISTORY, window=JULY, window_empty=True)
    block = build("Explain osmosis like in July", recall=muddled)
    assert work_lines(block) == [] and block.memory_ids == ()
    assert "NO RECORD OF ANY WORK WITH THIS STUDENT IN July 2026" in block.text


def test_an_empty_relative_period_is_named_too() -> None:
    last_week = replace(JULY, label="last week (7–13 Sep 2026)")
    block = build(
        "What did we do last week?", recall=recall_of([], window=last_week, window_empty=True)
    )
    assert (
        "THERE IS NO RECORD OF ANY WORK WITH THIS STUDENT FROM last week (7–13 Sep 2026)."
        in block.text
    )


# --- beliefs --------------------------------------------------------------------------------------


def test_beliefs_show_their_claim_and_confidence_with_two_decimals_most_confident_first() -> None:
    shown = [
        belief("cytoplasm", 0.72),
        belief("osmosis", 0.8, Claim.STRUGGLES),
        belief("nucleus", 0.7),
    ]
    text = lines(build(beliefs=shown))
    first = text.index(BELIEFS_HEADER)
    assert BELIEFS_HEADER == (
        "WHAT YOU CURRENTLY BELIEVE ABOUT THIS STUDENT (from their checks; confidence 0–1):"
    )
    assert text[first + 1 : first + 4] == [
        "- struggles with osmosis (0.80)",
        "- understands cytoplasm (0.72)",
        "- understands nucleus (0.70)",
    ]


def test_a_superseded_belief_is_not_shown() -> None:
    old = replace(belief("osmosis", 0.67, Claim.STRUGGLES), superseded_by="b-osmosis-2")
    block = build(beliefs=[old, belief("osmosis", 0.6)])
    assert "struggles with osmosis" not in block.text
    assert block.belief_ids == ("b-osmosis",)


def test_checks_that_made_no_belief_are_never_reported_as_no_checks() -> None:
    block = build(beliefs=[], checks=32)
    text = lines(block)
    assert text[text.index(NO_BELIEFS_HEADER) + 1] == (
        "32 checks recorded, but none could yet be tied to a concept on the map."
    )
    assert NO_CHECKS_LINE not in block.text


def test_a_student_with_no_checks_is_told_none_are_recorded_yet() -> None:
    text = lines(build(beliefs=[], checks=0))
    assert text[text.index(NO_BELIEFS_HEADER) + 1] == "No checks recorded yet."


# --- the budget ---------------------------------------------------------------------------------

URDU = episode(
    50,
    Kind.QUESTION,
    at(8, 10),
    "کیا آپ مجھے خلیے کی جھلی کے بارے میں دوبارہ سمجھا سکتے ہیں؟ مجھے یہ ہمیشہ الجھا دیتا ہے۔",
)
ARABIC = episode(
    51,
    Kind.ANSWER,
    at(8, 10, hour=11),
    "بالتأكيد. الغشاء الخلوي طبقة رقيقة تتحكم فيما يدخل الخلية وما يخرج منها.",
    AnswerEvidence(),
)
MANY = [
    *HISTORY,
    recalled(URDU, 0.66),
    recalled(ARABIC, 0.64),
    *(
        recalled(
            episode(60 + i, Kind.QUESTION, at(6, 1 + i), f"Question number {i} on cells"),
            0.3 + i / 100,
        )
        for i in range(20)
    ),
]


@pytest.mark.parametrize("budget", [*range(0, 900, 7), 1200, 2000])
@pytest.mark.parametrize("question", ["What is cytoplasm?", "ماذا أخطأت؟", "میں نے کیا غلط کیا؟"])
def test_the_block_never_exceeds_its_budget(budget: int, question: str) -> None:
    block = build(question, MANY, budget=budget)
    assert count_tokens(block.text) == block.tokens <= budget
    assert block.text == "" or (lines(block)[0] == HEADER and lines(block)[-1] == FOOTER)
    assert len(work_lines(block)) + block.dropped_items == len(MANY) or block.text == ""


def test_a_counter_whose_lines_do_not_add_up_is_still_respected() -> None:
    def lumpy(text: str) -> int:
        return count_tokens(text) + 5 * text.count("\n")  # line breaks dearer in a whole text

    for budget in range(200, 1200, 37):
        block = build("What is cytoplasm?", MANY, budget=budget, count=lumpy)
        assert lumpy(block.text) == block.tokens <= budget


def test_a_budget_too_small_for_the_fixed_lines_gives_an_empty_block_that_says_why() -> None:
    block = build(budget=50)
    assert block.text == "" and block.tokens == 0
    assert block.empty_reason is not None and "50 tokens" in block.empty_reason
    assert block.memory_ids == () and block.belief_ids == () and block.map_concepts == ()
    assert build().empty_reason is None


def test_beliefs_are_kept_before_earlier_work() -> None:
    fixed = count_tokens("\n".join([HEADER, HOW_TO_USE, FOOTER]))
    beliefs = count_tokens("\n".join(["", BELIEFS_HEADER, *(f"- {b.line()}" for b in BELIEFS)]))
    block = build(budget=fixed + beliefs + 5, map_section=None)
    assert block.belief_ids == ("b-cytoplasm", "b-eukaryotic-cells")
    assert work_lines(block) == [] and block.dropped_items == len(HISTORY)


def test_when_earlier_work_is_cut_the_lowest_scored_go_and_the_rest_stay_oldest_first() -> None:
    full = build(map_section=None)
    block = build(budget=full.tokens - 20, map_section=None)
    shown = work_lines(block)
    # The lowest-scored item (the July answer, 0.58) is dropped; the others keep time order.
    assert block.dropped_items == 1
    assert [s.split(" · ")[1][:12] for s in shown] == [
        "you were ask",
        "check on cyt",
        "the student ",
    ]
    assert "- … and 1 more earlier items, not shown here" in lines(block)


def test_the_map_keeps_a_share_when_earlier_work_is_long() -> None:
    block = build("What is cytoplasm?", MANY, budget=700)
    assert block.map_concepts and block.dropped_items > 0
    text = lines(block)
    assert text[1] == MAP_HEADER
    shown_map = text[2 : 2 + len(block.map_concepts)]
    assert shown_map == list(MAP.lines[1 : 1 + len(block.map_concepts)])


def test_map_lines_are_cut_from_the_end_and_the_concepts_reported_match() -> None:
    everything = build(items=[], beliefs=[], checks=0)
    block = build(items=[], beliefs=[], checks=0, budget=everything.tokens - 5)
    assert block.map_concepts == ("cell", "cytoplasm")
    assert MAP.lines[-1] not in block.text and MAP.lines[-2] in block.text


# --- what the block reports ---------------------------------------------------------------------


def test_memory_ids_are_exactly_the_episodes_the_shown_lines_stand_for() -> None:
    block = build()
    assert block.memory_ids == (
        "ep-0001",
        "ep-0002",
        "ep-0007",  # the line for the four checks …
        "ep-0003",
        "ep-0004",  # … and the three it stands for besides
        "ep-0005",
        "ep-0006",
    )
    assert block.belief_ids == ("b-cytoplasm", "b-eukaryotic-cells")
    assert block.map_concepts == ("cell", "cytoplasm", "mitochondria")


def test_memory_ids_leave_out_what_the_budget_cut() -> None:
    full = build(map_section=None)
    block = build(budget=full.tokens - 20, map_section=None)
    assert ANSWERED.episode_id not in block.memory_ids
    assert set(block.memory_ids) == {
        "ep-0001",
        "ep-0003",
        *(c.episode_id for c in CHECKS),
    }


def test_the_same_inputs_give_the_same_block_byte_for_byte() -> None:
    first = build("What did I get wrong?", MANY, budget=600)
    again = build("What did I get wrong?", list(reversed(MANY)), beliefs=BELIEFS[::-1], budget=600)
    assert first == again


# What a student wrote, in each language: a question, and a statement (told, not asked).
ASKED_AND_TOLD = {
    "en": ("What is osmosis?", "I have a test on osmosis tomorrow."),
    "es": ("¿Qué es la ósmosis?", "Hoy saqué un diez en el examen de biología."),
    "id": ("Apa itu osmosis?", "Kemarin saya belajar osmosis dengan kakak saya."),
    "ur": ("اوسموسس کیا ہے؟", "میں نے کل اوسموسس پڑھا۔"),
    "ar": ("ما هو التناضح؟", "ذهبت إلى المتحف مع أبي يوم الجمعة."),
}


@pytest.mark.parametrize("lang", sorted(ASKED_AND_TOLD))
def test_a_student_message_that_asks_is_shown_as_asked_and_one_that_tells_as_said(
    lang: str,
) -> None:
    question, statement = ASKED_AND_TOLD[lang]
    asked = episode(40, Kind.QUESTION, at(8, 6), question)
    told = episode(41, Kind.QUESTION, at(8, 6, hour=11), statement)
    shown = work_lines(build(items=[recalled(asked, 0.9), recalled(told, 0.8)]))
    assert shown == [
        f"- 6 Aug · you were asked: {question}",
        f"- 6 Aug · the student said: {statement}",
    ]


def _corrected_check() -> tuple[Episode, Episode]:
    check = replace(
        episode(1, Kind.CHECK, at(9, 1), "Explain osmosis", CheckEvidence("osmosis", "right")),
        corrected_at=at(9, 2),
    )
    fix = episode(
        2, Kind.CORRECTION, at(9, 2), "check on osmosis: right",
        CorrectionEvidence(check.episode_id, "verdict", "right", was="wrong"),
    )  # fmt: skip
    return check, replace(fix, text="marked wrong by mistake")


def test_a_corrected_episode_and_its_correction_are_one_line_with_the_reason() -> None:
    check, fix = _corrected_check()
    text = build(items=[recalled(check, 0.9), recalled(fix, 0.8)]).text
    assert "- 1 Sep · check on osmosis: right (corrected on 2 Sep: marked wrong by mistake)" in text
    assert "corrected an earlier record" not in text


def test_a_correction_whose_episode_is_not_shown_keeps_its_own_line() -> None:
    """Recalled alone, the correction's line is the only place the fix is told."""
    check, fix = _corrected_check()
    text = build(items=[recalled(fix, 0.8)]).text
    line = "- 2 Sep · the service corrected an earlier record: check on osmosis: right"
    assert f"{line} (marked wrong by mistake)" in text
    kept, reasons = without_shown_corrections([recalled(check, 0.9), recalled(fix, 0.8)])
    assert [i.episode for i in kept] == [check] and reasons == {check.episode_id: fix.text}
    # corrected again later, that correction not recalled: this reason is not the note's
    later = replace(check, corrected_at=at(9, 5))
    kept, reasons = without_shown_corrections([recalled(later, 0.9), recalled(fix, 0.8)])
    assert [i.episode for i in kept] == [later] and reasons == {}
    text = build(items=[recalled(later, 0.9), recalled(fix, 0.8)]).text
    assert "check on osmosis: right (corrected on 5 Sep)\n" in text
