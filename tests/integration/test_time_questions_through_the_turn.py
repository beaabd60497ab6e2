"""Questions about a day, two months, or what the tutor said then, through the library's turn:
the block lists that time's work and says so (a probe asked these in five languages; a day
opened its whole month, two months kept one, "what did you tell me in October" opened none)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutor_memory import Memory
from tutor_memory.settings import Settings

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
NOW = datetime(2026, 12, 7, 10, tzinfo=UTC)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("times") / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("maya", "biology")
        for month in (8, 9, 10, 11):
            for day in (3, 14, 27):
                at = datetime(2026, month, day, 16, tzinfo=UTC)
                pair.record_question(f"session {month}-{day}: what is mitosis for?", at=at)
    return folder


def dates_shown(block: str) -> set[str]:
    return {
        line[2:8].strip() for line in block.splitlines() if line.startswith("- ") and " · " in line
    }


DAY = ({"14 Oct"}, "Only the work on 14 Oct 2026 is listed")
BOTH = (
    {"3 Sep", "14 Sep", "27 Sep", "3 Oct", "14 Oct", "27 Oct"},
    "Only the work from September 2026 to October 2026 is listed",
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what did we do on October 14?", DAY),
        ("¿qué hicimos el 14 de octubre?", DAY),
        ("apa yang kita pelajari tanggal 14 Oktober?", DAY),
        ("14 October ko humne kya parha?", DAY),
        ("ماذا درسنا يوم 14 أكتوبر؟", DAY),
        ("what did we do in September and October?", BOTH),
        ("¿qué vimos entre septiembre y octubre?", BOTH),
        ("September aur October mein humne kya parha?", BOTH),
        ("ماذا درسنا في سبتمبر وأكتوبر؟", BOTH),
    ],
)
def test_a_day_or_two_months_asked_about_show_that_time_and_say_so(
    store: Path, question: str, expected: tuple[set[str], str]
) -> None:
    dates, line = expected
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        block = memory.pair("maya", "biology").turn(question, at=NOW).block
    assert dates_shown(block) == dates
    assert line in block


def test_what_the_tutor_said_in_a_month_is_that_months(store: Path) -> None:
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("maya", "biology")
        block = pair.turn("what did you tell me about mitosis in October?", at=NOW).block
    assert dates_shown(block) == {"3 Oct", "14 Oct", "27 Oct"}
