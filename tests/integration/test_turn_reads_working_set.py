"""The turn reads what the nightly loop writes (issue 18): while the night's working set is
current, a turn takes its belief rows from it instead of querying the beliefs, and shows the
very block it would have built from the stores; after anything that changes the beliefs since
the night (a check, a re-derivation) it is stale and not used."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.turns import WORKING_SET_DOCUMENT, TurnResult

PAIR = Pair("s-ws", "biology")
DAY = date(2026, 3, 2)
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
LATER = datetime(2026, 3, 3, 8, 0, tzinfo=UTC)  # the morning after the night
NOTES = "plant-and-animal-cells.md"
QUESTIONS = ("What did I get wrong so far?", "What is osmosis?", None)


@pytest.fixture
def app(tmp_path: Path) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(LATER))
    for name, data in sample_subject():
        app.maps.ingest(PAIR, name, name, data, at=MORNING - timedelta(days=3))
    for n, (topic, verdict) in enumerate(
        [
            ("osmosis", "wrong"),
            ("mitochondria", "right"),
            ("osmosis", "wrong"),
            ("cytoplasm", "right"),
        ]
    ):
        evidence = CheckEvidence(topic, verdict, predicted_mastery=0.6)  # type: ignore[arg-type]
        app.learning.record_check(
            PAIR, f"Check on {topic}", evidence, at=MORNING + timedelta(minutes=n)
        )
    app.memory.record(PAIR, Kind.QUESTION, "What is osmosis?", at=MORNING + timedelta(hours=1))
    app.turns.record_answer(
        PAIR, "Plant cells have a cell wall.", file_id=NOTES, page=1,
        at=MORNING + timedelta(hours=1, minutes=1),
    )  # fmt: skip
    app.nightly.run_pair(PAIR, DAY)
    return app


def turn(app: App, question: str | None) -> TurnResult:
    return app.turns.turn(PAIR, question, at=LATER)


def recomputed(app: App, question: str | None) -> TurnResult:
    """The same turn with no working set to read: the beliefs come from their store."""
    app.nightly.store.delete_documents(PAIR, [WORKING_SET_DOCUMENT])
    result = turn(app, question)
    assert not result.working_set
    return result


def same(a: TurnResult, b: TurnResult) -> bool:
    return (a.block, a.memory_ids, a.belief_ids, a.map_concepts) == (
        b.block, b.memory_ids, b.belief_ids, b.map_concepts,
    )  # fmt: skip


@pytest.mark.parametrize("question", QUESTIONS)
def test_after_the_night_a_turn_takes_its_beliefs_from_the_working_set_and_shows_the_same_block(
    app: App, question: str | None
) -> None:
    held = turn(app, question)
    assert held.working_set
    assert same(held, recomputed(app, question))


def test_the_working_set_keeps_the_beliefs_the_block_shows(app: App) -> None:
    held = turn(app, "What did I get wrong so far?")
    assert held.working_set and "struggles with Osmosis" in held.block
    assert set(held.belief_ids) == {b.belief_id for b in app.learning.beliefs(PAIR)}


def test_a_check_after_the_night_makes_the_working_set_stale(app: App) -> None:
    evidence = CheckEvidence("osmosis", "right")  # type: ignore[arg-type]
    app.learning.record_check(PAIR, "Check on osmosis", evidence, at=LATER - timedelta(hours=1))
    result = turn(app, "What did I get wrong so far?")
    assert not result.working_set
    now = {b.belief_id for b in app.learning.beliefs(PAIR)}
    assert set(result.belief_ids) == now  # the new row, not the night's
    assert same(result, recomputed(app, "What did I get wrong so far?"))


def test_a_re_derivation_after_the_night_makes_the_working_set_stale(app: App) -> None:
    before = turn(app, "What did I get wrong so far?")
    assert before.working_set
    done = app.learning.rederive(PAIR, force=True)
    assert done.changed
    result = turn(app, "What did I get wrong so far?")
    assert not result.working_set  # the chain head did not move; the beliefs marker did
    assert set(result.belief_ids) == {b.belief_id for b in app.learning.beliefs(PAIR)}
    assert not set(result.belief_ids) & set(before.belief_ids)  # new rows, new generation
    assert same(result, recomputed(app, "What did I get wrong so far?"))


def test_an_idle_re_derivation_leaves_the_working_set_current(app: App) -> None:
    assert not app.learning.rederive(PAIR).changed  # today's rules give these beliefs already
    assert turn(app, "What did I get wrong so far?").working_set


def test_a_removed_file_shows_its_note_whether_or_not_the_working_set_is_current(
    app: App,
) -> None:
    """The working set carries no file state: a turn reads the registry itself, so a removal
    (which moves neither the head nor the beliefs) shows at once."""
    app.memory.remove_file(PAIR, NOTES, at=LATER - timedelta(hours=1))
    question = "Do plant cells have a cell wall?"
    result = turn(app, question)
    assert result.working_set
    assert "[note: the file this cited has since been removed]" in result.block
    assert same(result, recomputed(app, question))


def test_the_next_night_makes_the_working_set_current_again(app: App) -> None:
    evidence = CheckEvidence("osmosis", "right")  # type: ignore[arg-type]
    app.learning.record_check(PAIR, "Check on osmosis", evidence, at=LATER - timedelta(hours=1))
    app.ports.clock.at = LATER + timedelta(days=1)  # type: ignore[attr-defined]
    app.nightly.run_pair(PAIR, DAY + timedelta(days=1))
    at = LATER + timedelta(days=1)
    held = app.turns.turn(PAIR, "What did I get wrong so far?", at=at)
    assert held.working_set
    app.nightly.store.delete_documents(PAIR, [WORKING_SET_DOCUMENT])
    assert same(held, app.turns.turn(PAIR, "What did I get wrong so far?", at=at))
