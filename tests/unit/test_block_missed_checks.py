"""A missed check's line says what was missed: the tutor's evaluation ("forgot the membrane"),
the what of "what did I get wrong?". A passed check's evaluation adds nothing to its verdict
and is not shown; a corrected check's evaluation was written for the verdict a correction
changed and is not shown either. Two misses noted apart are two memories, not one line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.unit.test_block import at, episode, recalled, work_lines
from tests.unit.test_block_evidence import block_for
from tutor_memory.bench.scoring import shown_as_wrong
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import CheckEvidence, Kind, missed_note
from tutor_memory.domain.recall import collapse_key

# Per language: a record question, a check's topic and the tutor's note of the miss.
MISSED = {
    "en": ("What did I get wrong so far?", "osmosis",
           "Not quite: said salt moves; it is the water."),
    "es": ("¿En qué me equivoqué?", "ósmosis", "Casi: dijo que se mueve la sal; es el agua."),
    "id": ("Apa yang salah dari saya?", "osmosis", "Belum tepat: yang bergerak air, bukan garam."),
    "ur": ("میں نے کیا غلط کیا؟", "اوسموسس", "ابھی نہیں: نمک نہیں، پانی حرکت کرتا ہے۔"),
    "ar": ("ماذا أخطأت حتى الآن؟", "التناضح", "ليس تماما: الماء يتحرك وليس الملح."),
}  # fmt: skip


def check(seq: int, topic: str, verdict: str, evaluation: str, day: int = 7) -> object:
    evidence = CheckEvidence(topic, verdict, evaluation)  # type: ignore[arg-type]
    return episode(seq, Kind.CHECK, at(8, day), f"Check on {topic}", evidence)


@pytest.mark.parametrize("lang", list(MISSED))
def test_a_missed_check_shows_what_the_tutor_noted(lang: str) -> None:
    question, topic, note = MISSED[lang]
    block = block_for(question, [recalled(check(1, topic, "wrong", note), 0.6)])
    assert work_lines(block) == [f"- 7 Aug · check on {topic}: wrong; you noted: {note}"]
    assert shown_as_wrong(block.text, topic)


def test_a_passed_check_shows_its_verdict_alone() -> None:
    passed = check(1, "cytoplasm", "right", "Correct: the gel that fills the cell.")
    block = block_for("What did I get wrong so far?", [recalled(passed, 0.6)])
    assert work_lines(block) == ["- 7 Aug · check on cytoplasm: right"]


def test_a_missed_check_without_a_note_is_shown_as_before() -> None:
    block = block_for(
        "What did I get wrong so far?", [recalled(check(1, "osmosis", "wrong", ""), 0.6)]
    )
    assert work_lines(block) == ["- 7 Aug · check on osmosis: wrong"]


def test_a_corrected_check_does_not_show_the_note_written_for_its_first_verdict() -> None:
    # marked right by mistake with "Correct…", corrected to wrong: "Correct…" is no note of a miss
    first = check(1, "osmosis", "right", "Correct: water crosses the membrane.")
    fixed = replace(
        first,
        evidence=replace(first.evidence, verdict="wrong"),  # type: ignore[attr-defined, type-var]
        corrected_at=at(8, 9),
    )
    assert missed_note(fixed) == ""
    lines = work_lines(block_for("What did I get wrong so far?", [recalled(fixed, 0.6)]))
    assert lines == ["- 7 Aug · check on osmosis: wrong (corrected on 9 Aug)"]


def test_two_misses_noted_apart_are_two_lines_and_one_note_said_twice_is_one() -> None:
    salt = check(1, "osmosis", "wrong", "Said salt moves.", day=7)
    membrane = check(2, "osmosis", "wrong", "Forgot the membrane.", day=8)
    again = check(3, "osmosis", "wrong", "forgot  the membrane.", day=9)
    assert collapse_key(salt) != collapse_key(membrane)
    assert collapse_key(membrane) == collapse_key(again)  # case and spacing are folded
    block = block_for(
        "What did I get wrong so far?",
        [recalled(salt, 0.6), recalled(membrane, 0.5, repeats=[again])],
    )
    assert work_lines(block) == [
        "- 7 Aug · check on osmosis: wrong; you noted: Said salt moves.",
        "- 8 Aug – 9 Aug · check on osmosis: wrong; you noted: Forgot the membrane."
        " (and 1 more time like it)",
    ]


def test_a_long_note_is_cut_to_the_excerpts_cap() -> None:
    note = "The answer " + "mixed up the two processes again and again, " * 20
    (line,) = work_lines(
        block_for(
            "What did I get wrong so far?", [recalled(check(1, "osmosis", "wrong", note), 0.6)]
        )
    )
    shown = line.partition("; you noted: ")[2]
    assert shown.endswith("…") and len(shown) <= C.BLOCK_EXCERPT_CHARS
    assert note.startswith(shown.removesuffix("…").rstrip())


def test_the_quality_bench_reads_a_miss_whose_note_holds_a_colon() -> None:
    text = "- 7 Aug · check on osmosis: wrong; you noted: Not quite: cytoplasm is right"
    assert shown_as_wrong(text, "osmosis")
    assert not shown_as_wrong(text, "cytoplasm")
    assert shown_as_wrong("- 7 Aug · check on osmosis: wrong (and 2 more times like it)", "osmosis")
    assert not shown_as_wrong("- 7 Aug · check on osmosis: right", "osmosis")
