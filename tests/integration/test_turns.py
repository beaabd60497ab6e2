"""One turn: the block, in order, within the budget and the deadline (SPEC §7, §8, §9)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import CheckEvidence, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_episodes, sample_subject
from tutor_memory.settings import Settings, on_folder

from .conftest import TEST_TURN_DEADLINE_S

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
HEADER = "===== YOUR MEMORY OF THIS STUDENT AND SUBJECT ====="


@pytest.fixture
def app(tmp_path: Path, pair: Pair) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(NOW))
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the assertions are on content, not speed
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=datetime(2026, 7, 1, tzinfo=UTC))
    app.memory.record_many(sample_episodes(pair, repeats=(2, 30, 61)))
    for topic, verdict, day in (("cytoplasm", "right", 20), ("osmosis", "wrong", 25)):
        app.learning.record_check(
            pair,
            f"Check on {topic}",
            CheckEvidence(topic, verdict),  # type: ignore[arg-type]
            at=datetime(2026, 7, day, tzinfo=UTC),
        )
    return app


def sections(block: str) -> list[str]:
    heads = ("SUBJECT MAP", "WHAT YOU CURRENTLY BELIEVE", "EARLIER WORK", "HOW TO USE THIS")
    return [h for line in block.splitlines() for h in heads if line.startswith(h)]


def test_an_ordinary_question_puts_the_map_first(app: App, pair: Pair) -> None:
    result = app.turns.turn(pair, "What is osmosis?")
    assert not result.dropped and not result.record_question
    lines = result.block.splitlines()
    assert lines[0] == HEADER and lines[-1] == "===== END OF MEMORY ====="
    assert sections(result.block) == [
        "SUBJECT MAP",
        "WHAT YOU CURRENTLY BELIEVE",
        "EARLIER WORK",
        "HOW TO USE THIS",
    ]
    assert "this is about the material, NOT the student's mastery" in result.block
    assert "- understands Cytoplasm (0.74)" in result.block
    assert "- struggles with Osmosis (0.74)" in result.block
    assert result.tokens <= app.settings.block_budget_tokens


@pytest.mark.parametrize(
    "question", ["what did I get wrong so far?", "¿qué hice mal?", "ماذا أخطأت؟"]
)
def test_a_record_question_puts_the_record_first_and_the_map_last(
    app: App, pair: Pair, question: str
) -> None:
    result = app.turns.turn(pair, question)
    assert result.record_question
    assert result.block.splitlines()[1].startswith("THE STUDENT IS ASKING ABOUT THEIR OWN RECORD")
    assert sections(result.block) == [
        "WHAT YOU CURRENTLY BELIEVE",
        "EARLIER WORK",
        "SUBJECT MAP",
        "HOW TO USE THIS",
    ]
    assert "you were asked:" in result.block  # the conversation is the record too


def test_a_month_question_shows_that_months_work_oldest_first(app: App, pair: Pair) -> None:
    result = app.turns.turn(pair, "what did we cover in July?")
    assert result.window == "July 2026" and not result.window_empty
    work = [ln for ln in result.block.splitlines() if ln.startswith("- ") and " · " in ln]
    assert work and all(" Jul · " in ln for ln in work)
    july = {e.episode_id for e in app.memory.history(pair) if e.at.month == 7}
    assert set(result.memory_ids) <= july and result.memory_ids


def test_an_empty_month_says_there_is_no_record_and_shows_no_episode(app: App, pair: Pair) -> None:
    result = app.turns.turn(pair, "what did we do in October?")
    assert result.window_empty and result.memory_ids == ()
    assert "NO RECORD" in result.block and "October 2026" in result.block
    assert "EARLIER WORK" not in result.block


def test_a_recalled_answer_whose_file_changed_is_labelled(app: App, pair: Pair) -> None:
    answer = app.turns.record_answer(
        pair, "Osmosis moves water across the membrane (see page 3).",
        file_id="cell-biology.pdf", page=3, at=datetime(2026, 8, 1, tzinfo=UTC),
    ).episode  # fmt: skip
    app.memory.register_file(pair, "cell-biology.pdf", "cell-biology.pdf", b"%PDF new edition")
    result = app.turns.turn(pair, "osmosis across the membrane")
    assert answer.episode_id in result.memory_ids
    assert "[note: the file this cited has since been replaced]" in result.block  # says which


def test_the_budget_is_never_exceeded(app: App, pair: Pair) -> None:
    for budget in (200, 400, 800):
        result = app.turns.turn(pair, "What is osmosis?", budget_tokens=budget)
        assert 0 < result.tokens <= budget
    too_small = app.turns.turn(pair, "What is osmosis?", budget_tokens=60)
    assert too_small.block == "" and too_small.tokens == 0  # the fixed lines alone do not fit


def test_a_slow_memory_is_dropped_at_the_deadline_never_awaited(app: App, pair: Pair) -> None:
    released = threading.Event()
    store = app.ports.store
    original = store.recent

    def slow_recent(*args, **kwargs):  # type: ignore[no-untyped-def]
        released.wait(timeout=30)  # blocks until the test lets it go
        return original(*args, **kwargs)

    store.recent = slow_recent  # type: ignore[method-assign]
    app.turns.deadline_s = 0.05
    result = app.turns.turn(pair, "What is osmosis?")  # returns while the build is still blocked
    released.set()
    assert result.dropped and result.block == "" and result.memory_ids == ()


def test_an_answer_keeps_its_recalled_memories_as_sources_and_a_stance(
    app: App, pair: Pair
) -> None:
    turn = app.turns.turn(pair, "What is osmosis?")
    answer = app.turns.record_answer(
        pair, "Osmosis is water crossing a membrane.", recalled_ids=turn.memory_ids[:3]
    ).episode
    sources = app.turns.sources(pair, answer.episode_id)
    assert {s.episode.episode_id for s in sources} == set(turn.memory_ids[:3])
    assert all(s.label.startswith("from our session on ") for s in sources)
    note = app.turns.set_stance(pair, answer.episode_id, "partial")
    assert note.value == "partial"
    assert app.memory.episode(pair, answer.episode_id) == answer  # beside, never inside


def test_the_same_history_gives_the_same_block_byte_for_byte(app: App, pair: Pair) -> None:
    first = app.turns.turn(pair, "what did I get wrong so far?")
    again = app.turns.turn(pair, "what did I get wrong so far?")
    assert first.block == again.block and first.memory_ids == again.memory_ids


def test_warming_up_keeps_what_start_up_loaded_out_of_every_turns_collection(
    app: App, pair: Pair
) -> None:
    import gc

    before = app.turns.turn(pair, "What is osmosis?").block
    try:
        app.warm()
        # A full collection inside a turn no longer walks the loaded state, and the turn's
        # block is the one it was.
        assert gc.get_freeze_count() > 0
        assert app.turns.turn(pair, "What is osmosis?").block == before
    finally:
        gc.unfreeze()
