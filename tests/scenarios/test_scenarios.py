"""The scenarios of SPEC §7 and §12, in five languages, on the embedded default.

The same runner backs ``tutor-memory scenarios``. Each scenario passes only on ids and strings
in the block; the last tests show that each check fails on a block that gets it wrong.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tutor_memory.bench.scenarios import (
    EMPTY_MONTH_LABEL,
    SCENARIOS,
    Seeded,
    check_empty_month,
    check_july,
    check_narration,
    check_record_question,
    open_app,
    run_one,
    seed_history,
)
from tutor_memory.bench.scenarios import NOW as SCENARIO_NOW
from tutor_memory.bootstrap import App
from tutor_memory.domain.block import RECORD_LINE


@pytest.fixture(scope="module")
def seeded_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[App, Seeded]]:
    app = open_app(tmp_path_factory.mktemp("scenarios") / "store", "none", SCENARIO_NOW)
    seeded = seed_history(app)
    yield app, seeded
    app.close()


@pytest.mark.parametrize(("name", "language"), SCENARIOS)
def test_scenario_passes(seeded_app: tuple[App, Seeded], name: str, language: str) -> None:
    app, seeded = seeded_app
    result = run_one(app, seeded, name, language)
    assert result.passed, f"{name} [{language}] {result.question!r}: {result.reason}"


def test_the_history_holds_what_the_scenarios_need(seeded_app: tuple[App, Seeded]) -> None:
    _app, seeded = seeded_app
    assert len(seeded.july_osmosis) == 4 and set(seeded.july_osmosis) <= set(seeded.july)
    assert len(seeded.narrations) == 2
    assert seeded.missed == ["Cell membrane", "Mitochondria", "Osmosis"]


# --- each check fails on a block that gets it wrong ------------------------------------------

SEEDED = Seeded(
    july_osmosis=["j1", "j2"], july=["j1", "j2", "j3"], narrations=["n1"], missed=["Osmosis"]
)


def test_the_july_check_fails_when_a_july_memory_is_missing_or_another_month_leaks_in() -> None:
    assert check_july(["j1", "j2", "j3"], SEEDED)[0]
    assert not check_july(["j1", "j3"], SEEDED)[0]
    assert not check_july(["j1", "j2", "a9"], SEEDED)[0]


def test_the_empty_month_check_fails_without_the_line_or_with_an_episode() -> None:
    line = f"THERE IS NO RECORD OF ANY WORK WITH THIS STUDENT IN {EMPTY_MONTH_LABEL}. Say so."
    assert check_empty_month(line, [], EMPTY_MONTH_LABEL)[0]
    assert not check_empty_month("nothing to say", [], EMPTY_MONTH_LABEL)[0]
    shown = line + "\n- 3 Jul · you were asked: What is osmosis?"
    assert not check_empty_month(shown, ["j1"], EMPTY_MONTH_LABEL)[0]


def test_the_narration_check_fails_when_the_narration_is_shown_instead_of_its_sources() -> None:
    narration = [("In July we covered osmosis.", ["j1", "j2", "j3"])]
    assert check_narration("", ["j1", "j2", "j3"], SEEDED, narration)[0]
    assert not check_narration("", ["n1", "j1", "j2", "j3"], SEEDED, narration)[0]
    assert not check_narration("", ["j1"], SEEDED, narration)[0]
    assert not check_narration("", ["j1", "j2", "j3"], SEEDED, [("In July…", [])])[0]


def test_the_record_check_fails_when_the_map_comes_first_or_a_miss_is_not_believed() -> None:
    record = "\n".join(
        [
            "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT =====",
            RECORD_LINE,
            "WHAT YOU CURRENTLY BELIEVE ABOUT THIS STUDENT (from their checks; confidence 0–1):",
            "- struggles with Osmosis (0.67)",
            "EARLIER WORK WITH THIS STUDENT (oldest first):",
            "- 8 Jul · check on osmosis: wrong",
            "SUBJECT MAP (1 concept; …):",
        ]
    )
    assert check_record_question(record, True, ["Osmosis"])[0]
    assert not check_record_question(record, False, ["Osmosis"])[0]
    lines = record.splitlines()
    map_first = "\n".join([*lines[:2], lines[-1], *lines[2:-1]])
    assert not check_record_question(map_first, True, ["Osmosis"])[0]
    assert not check_record_question(record, True, ["Osmosis", "Cytoplasm"])[0]
