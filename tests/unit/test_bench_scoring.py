"""The benchmark's scorers compare strings and ids in the block, and say why they fail."""

from __future__ import annotations

from tutor_memory.bench.designs import DesignBlock
from tutor_memory.bench.quality import Outcome, _counts
from tutor_memory.bench.scoring import score

MAP = "\n".join(
    [
        "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT =====",
        "SUBJECT MAP (3 concepts; the files explain 60% of it, this is about the material, "
        "NOT the student's mastery):",
        "- Cell membrane: The cell membrane is the thin layer around every cell. (builds on: Cell)",
        "- Osmosis: Osmosis is the movement of water across a membrane. "
        "(builds on: Cell membrane, Diffusion)",
        "- Diffusion: (not explained by any file)",
        "===== END OF MEMORY =====",
    ]
)
PREREQS = {
    "concept": "Osmosis",
    "prerequisites": ["Cell membrane", "Diffusion"],
    "dependents": ["Active transport"],
}


def block(text: str, *ids: str) -> DesignBlock:
    return DesignBlock(text, ids)


def test_prerequisites_pass_when_the_concepts_own_map_line_lists_them() -> None:
    assert score("prerequisites", PREREQS, block(MAP)).passed


def test_prerequisites_in_the_wrong_direction_fail_and_say_so() -> None:
    backwards = "- Active transport: Particles moved against a gradient. (builds on: Osmosis)"
    verdict = score("prerequisites", PREREQS, block(backwards))
    assert not verdict.passed
    assert verdict.reason.startswith("wrong direction: shows what builds on Osmosis")


def test_a_prerequisite_sentence_counts_only_in_its_direction() -> None:
    forward = "- 3 Jul · you answered: Osmosis builds on Cell membrane, so revise it first."
    spanish = "- 4 Jul · you answered: Osmosis se basa en Diffusion, así que repasa primero."
    assert score("prerequisites", PREREQS, block(forward + "\n" + spanish)).passed
    backwards = "- 3 Jul · you answered: Cell membrane builds on Osmosis."
    assert not score("prerequisites", PREREQS, block(backwards)).passed


def test_naming_only_some_prerequisites_fails_with_what_is_missing() -> None:
    partial = "- 3 Jul · you answered: Osmosis builds on Cell membrane."
    verdict = score("prerequisites", PREREQS, block(partial))
    assert not verdict.passed and "not Diffusion" in verdict.reason


def test_a_map_cut_before_the_asked_concept_is_reported_as_cut() -> None:
    cut = "\n".join(line for line in MAP.splitlines() if not line.startswith("- Osmosis"))
    verdict = score("prerequisites", PREREQS, block(cut))
    assert not verdict.passed and "cut by the budget" in verdict.reason


def test_explain_needs_the_definition_not_only_the_name() -> None:
    gold = {"concept": "Osmosis", "gist": "Osmosis is the movement of water across a membrane."}
    assert score("explain", gold, block(MAP)).passed
    named = score("explain", gold, block("- 3 Jul · you were asked: what is osmosis?"))
    assert not named.passed and "named but its definition is not shown" in named.reason


def test_what_i_got_wrong_accepts_a_struggling_belief_or_a_missed_check() -> None:
    text = "\n".join(
        [
            "- struggles with Osmosis (0.67)",
            "- 8 Jul · check on explain ionic bond in your own words: wrong",
            "- 9 Jul · check on cytoplasm: right",
        ]
    )
    assert score("wrong", {"concepts": ["Osmosis", "Ionic bond"]}, block(text)).passed
    verdict = score("wrong", {"concepts": ["Osmosis", "Cytoplasm"]}, block(text))
    assert not verdict.passed and verdict.reason.endswith(": Cytoplasm")


def test_a_concept_name_inside_a_longer_one_is_not_a_match() -> None:
    text = "- 8 Jul · check on ionic bond: wrong"
    assert not score("wrong", {"concepts": ["Ion"]}, block(text)).passed


def test_an_active_month_needs_its_episodes_and_nothing_from_other_months() -> None:
    gold = {"label": "July 2026", "episode_ids": ["a", "b"], "allowed_ids": ["a", "b", "n"]}
    assert score("active_month", gold, block("", "a", "n")).passed
    assert not score("active_month", gold, block("", "n")).passed  # a narration only
    mixed = score("active_month", gold, block("", "a", "z"))
    assert not mixed.passed and "1 from other months" in mixed.reason


def test_an_empty_month_needs_the_no_record_line_and_no_episode() -> None:
    gold = {"label": "October 2026"}
    says = (
        "THERE IS NO RECORD OF ANY WORK WITH THIS STUDENT IN October 2026. Say so; do not "
        "describe a session from that time."
    )
    assert score("empty_month", gold, block(says)).passed
    assert not score(
        "empty_month", gold, block(says + "\n- 3 Jul · you were asked: x", "e1")
    ).passed
    assert not score("empty_month", {"label": "September 2026"}, block(says)).passed


def test_a_taught_note_must_be_in_the_block_word_for_word() -> None:
    gold = {"concept": "Cytoplasm", "note": "in our class we call cytoplasm the jelly",
            "episode_id": "e9"}  # fmt: skip
    shown = "- Cytoplasm: a fluid. [taught: in our class we call cytoplasm the jelly]"
    assert score("taught", gold, block(shown)).passed
    assert not score("taught", gold, block("- Cytoplasm: a fluid.")).passed


def test_the_plain_design_passes_nothing() -> None:
    empty = block("")
    assert not score("explain", {"concept": "X", "gist": "X is y."}, empty).passed
    assert not score("empty_month", {"label": "May 2026"}, empty).passed


def test_counts_are_per_design_and_category_with_totals() -> None:
    outcomes = [
        Outcome("q1", "explain", "full", True, ""),
        Outcome("q2", "taught", "full", False, ""),
        Outcome("q1", "explain", "plain", False, ""),
    ]
    counts = _counts(outcomes)
    assert counts["full"]["explain"] == [1, 1]
    assert counts["full"]["all"] == [1, 2]
    assert counts["plain"]["all"] == [0, 1]
