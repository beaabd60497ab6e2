"""Placing the memory block in a caller's prompt: the memory slot, before the material (SPEC §7)."""

from __future__ import annotations

import pytest

from tutor_memory.domain.prompt import bridging_note, place_block, says_nothing_recorded

BLOCK = "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT =====\n…\n===== END OF MEMORY ====="
SYSTEM = ("System", "You are a patient biology tutor.")
MATERIAL = ("Course material", "Page 3: Osmosis is the movement of water across a membrane.")
QUESTION = ("Question", "What did I get wrong so far?")


def titles(sections: list[tuple[str, str]]) -> list[str]:
    return [title for title, _text in sections]


def test_the_block_fills_an_existing_memory_slot_and_nothing_else_changes() -> None:
    prompt = [SYSTEM, ("Student memory", ""), MATERIAL, QUESTION]
    assert place_block(prompt, BLOCK) == [SYSTEM, ("Student memory", BLOCK), MATERIAL, QUESTION]


def test_without_a_memory_slot_the_block_goes_just_before_the_material() -> None:
    prompt = [SYSTEM, MATERIAL, ("Relevant notes", "…"), QUESTION]
    placed = place_block(prompt, BLOCK)
    assert placed == [SYSTEM, ("Memory", BLOCK), MATERIAL, ("Relevant notes", "…"), QUESTION]


@pytest.mark.parametrize(
    "title", ["Course material", "NOTES:", "Uploaded files", "Context", "Sources", "Readings"]
)
def test_every_kind_of_material_title_is_recognised(title: str) -> None:
    placed = place_block([SYSTEM, (title, "…"), QUESTION], BLOCK)
    assert titles(placed) == ["System", "Memory", title, "Question"]


def test_with_no_material_the_block_goes_before_the_conversation_or_else_at_the_end() -> None:
    history = ("Chat history", "student: hi")
    assert titles(place_block([SYSTEM, history, QUESTION], BLOCK)) == [
        "System",
        "Memory",
        "Chat history",
        "Question",
    ]
    assert titles(place_block([SYSTEM], BLOCK)) == ["System", "Memory"]


def test_the_callers_prompt_is_not_modified_in_place() -> None:
    prompt = [SYSTEM, MATERIAL]
    place_block(prompt, BLOCK)
    assert prompt == [SYSTEM, MATERIAL]


def test_an_empty_block_changes_nothing_not_even_a_legacy_section() -> None:
    prompt = [SYSTEM, ("Memory", "old"), ("Assessment results", "NO QUIZ ATTEMPTS recorded")]
    assert place_block(prompt, "") == prompt


@pytest.mark.parametrize(
    "text",
    [
        "NO QUIZ ATTEMPTS recorded",
        "No assessment results.",
        "The student has not attempted any quiz yet.",
        "None recorded",
        "",
    ],
)
def test_a_legacy_section_that_only_says_nothing_is_recorded_is_dropped(text: str) -> None:
    prompt = [SYSTEM, MATERIAL, ("Assessment results", text), QUESTION]
    assert place_block(prompt, BLOCK) == [SYSTEM, ("Memory", BLOCK), MATERIAL, QUESTION]


def test_a_legacy_section_with_real_results_stays_with_a_note_tying_it_to_the_block() -> None:
    results = "Quiz 1 (12 Jul): 7/10 on osmosis"
    prompt = [SYSTEM, ("Memory", ""), MATERIAL, ("Quiz attempts", results), QUESTION]
    placed = place_block(prompt, BLOCK)
    assert placed[3] == (
        "Quiz attempts",
        f"{results}\n(The memory block above also lists this student's checks and earlier work;"
        " read both.)",
    )
    assert placed[:3] == [SYSTEM, ("Memory", BLOCK), MATERIAL] and placed[4] == QUESTION


def test_results_that_came_before_the_memory_slot_move_just_after_the_block() -> None:
    prompt = [("Assessment results", "Quiz 1: 7/10"), SYSTEM, ("Memory", ""), MATERIAL]
    placed = place_block(prompt, BLOCK)
    assert titles(placed) == ["System", "Memory", "Assessment results", "Course material"]
    assert placed[2][1] == f"Quiz 1: 7/10\n{bridging_note(block_comes_first=True)}"
    assert "memory block above" in placed[2][1]


@pytest.mark.parametrize(
    ("text", "nothing"),
    [
        ("NO QUIZ ATTEMPTS recorded", True),
        ("No assessment results. No checks recorded yet.", True),
        ("No quiz attempts recorded, but 28 checks", False),
        ("Quiz 1: 7/10", False),
        ("The student did well on osmosis.", False),
    ],
)
def test_nothing_recorded_means_every_sentence_says_nothing(text: str, nothing: bool) -> None:
    assert says_nothing_recorded(text) is nothing
