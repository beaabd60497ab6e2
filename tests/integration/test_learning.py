"""Checks feed beliefs, on the embedded default with the sample subject's map (SPEC §6)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.beliefs import Claim
from tutor_memory.domain.episodes import CheckEvidence, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

from ..conftest import T0


@pytest.fixture
def app(tmp_path: Path, pair: Pair) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(T0))
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data)
    return app


def check(app: App, pair: Pair, topic: str, verdict: str, day: int, evaluation: str = ""):  # type: ignore[no-untyped-def]
    return app.learning.record_check(
        pair,
        f"Check on {topic}",
        CheckEvidence(topic, verdict, evaluation, predicted_mastery=0.5),  # type: ignore[arg-type]
        at=T0 + timedelta(days=day),
    )


def test_checks_build_a_belief_that_is_superseded_never_rewritten(app: App, pair: Pair) -> None:
    first = check(app, pair, "osmosis", "wrong", 0)
    assert first.belief is not None and first.belief.line() == "struggles with Osmosis (0.67)"
    check(app, pair, "osmosis", "right", 1)
    check(app, pair, "osmosis", "right", 2)
    (current,) = app.learning.beliefs(pair)
    assert (current.claim, current.confidence) == (Claim.UNDERSTANDS, 0.63)
    history = app.learning.belief_history(pair, "osmosis")
    assert [(b.claim.value, b.confidence) for b in history] == [
        ("struggles with", 0.67),
        ("understands", 0.53),
        ("understands", 0.63),
    ]
    assert history[0].superseded_by == history[1].belief_id
    assert "changed its mind" in history[1].reason
    assert len(history[2].evidence_ids) == 3


def test_a_passing_check_lifts_the_concepts_readiness_to_confirmed(app: App, pair: Pair) -> None:
    before = app.ports.store.load_map(pair)  # type: ignore[attr-defined]
    assert before.concepts["cytoplasm"].readiness == 0.6
    result = check(app, pair, "cytoplasm", "right", 0)
    assert result.confirmed_on_map
    after = app.ports.store.load_map(pair)  # type: ignore[attr-defined]
    assert after.concepts["cytoplasm"].readiness == 0.85
    assert after.subject_readiness > before.subject_readiness
    assert not check(app, pair, "osmosis", "wrong", 1).confirmed_on_map


@pytest.mark.parametrize("topic", ["ask me the questions", "bueno ahora explícame todos los pasos"])
def test_an_utterance_topic_stays_evidence(app: App, pair: Pair, topic: str) -> None:
    result = check(app, pair, topic, "right", 0)
    assert result.topic is None and result.belief is None
    assert app.learning.beliefs(pair) == []
    assert result.append.episode.concepts == ()


def test_a_sentence_topic_routes_by_the_evaluation_text(app: App, pair: Pair) -> None:
    result = check(
        app, pair, "question three", "right", 0, "Right: the nucleus controls the cell's work."
    )
    assert result.topic is not None and result.topic.key == "nucleus"
    assert result.append.episode.concepts == ("Nucleus",)


def test_rederiving_retires_and_replays_but_touches_no_episode(app: App, pair: Pair) -> None:
    check(app, pair, "osmosis", "wrong", 0)
    check(app, pair, "osmosis", "right", 1)
    check(app, pair, "cytoplasm", "right", 2)
    check(app, pair, "ask me the questions", "right", 3)
    chain_before = app.memory.verify_chain(pair)
    current_before = app.learning.beliefs(pair)
    done = app.learning.rederive(pair, at=T0 + timedelta(days=10), force=True)
    assert (done.retired, done.created, done.generation) == (2, 3, 1)
    chain_after = app.memory.verify_chain(pair)
    assert chain_after.intact and chain_after.head_hash == chain_before.head_hash
    assert chain_after.episodes == chain_before.episodes
    current_after = app.learning.beliefs(pair)
    assert [(b.concept_key, b.claim, b.confidence) for b in current_after] == [
        (b.concept_key, b.claim, b.confidence) for b in current_before
    ]
    assert {b.belief_id for b in current_after}.isdisjoint(b.belief_id for b in current_before)
    history = app.learning.belief_history(pair, "osmosis")
    assert len(history) == 4 and sum(b.retired_at is not None for b in history) == 1


def test_an_idempotent_retry_of_a_check_updates_the_belief_once(app: App, pair: Pair) -> None:
    for _ in range(2):
        app.learning.record_check(
            pair, "Check on osmosis", CheckEvidence("osmosis", "wrong"), idempotency_key="chk-1"
        )
    assert len(app.learning.belief_history(pair, "osmosis")) == 1


# A history whose checks come in out of time order and spell a topic two ways, with a verdict
# corrected: (topic, verdict, day) for a check, ("correct", index of the check, verdict, day).
_OUT_OF_ORDER = [
    ("ósmosis", "right", 3),
    ("osmosis", "wrong", 1),  # back-dated, spelled as the map does not spell it
    ("cells", "right", 2),  # erased below
    ("correct", 1, "right", 4),
    ("Osmosis", "wrong", 0),
]


def _rows_after(app: App, pair: Pair, steps: list[tuple]) -> list[tuple]:  # type: ignore[type-arg]
    """Each step in turn; the current generation's rows about osmosis (what each row says and
    why, the checks it cites named by their topic and day), in the history's order."""
    from tutor_memory.domain.access import Role

    made: list[str] = []
    for step in steps:
        if step[0] == "correct":
            _, which, verdict, day = step
            fix = app.episodes.correct(pair, made[which], "verdict", verdict, "marked by mistake",
                                       by=Role.SERVICE, at=T0 + timedelta(days=day))  # fmt: skip
            made.append(fix.episode.episode_id)
        else:
            topic, verdict, day = step
            made.append(check(app, pair, topic, verdict, day).append.episode.episode_id)
    names = {e.episode_id: f"{e.text} on day {(e.at - T0).days}"
             for e in app.ports.store.iter_episodes(pair)}  # fmt: skip
    rows = app.learning.belief_history(pair, "osmosis")
    generation = max(b.generation for b in rows)
    out = []
    for b in rows:
        if b.generation == generation:
            reason = b.reason
            for episode_id, name in names.items():
                reason = reason.replace(episode_id, name)
            out.append((b.concept_name, b.line(), b.created_at, reason))
    return out


def test_erasing_a_check_rederives_what_recording_the_rest_would_have(tmp_path: Path) -> None:
    """Re-derivation (an erasure of a check runs it) writes the rows that recording the rest
    of the history one by one writes — names included: it read the checks by time and named
    the belief after the latest by time ("ósmosis"), where recording (and a replay of the
    export) names it after the check that made its last row ("osmosis")."""
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(T0 + timedelta(days=9)))
    kept = [s for s in _OUT_OF_ORDER if s[0] != "cells"]
    never_had = _rows_after(app, Pair("s2", "bio"), kept)
    erased = Pair("s1", "bio")
    _rows_after(app, erased, _OUT_OF_ORDER)
    cells = next(e for e in app.ports.store.iter_episodes(erased) if "cells" in e.text)
    app.erasing.erase_episode(erased, cells.episode_id, reason="typed by mistake")
    rederived = app.learning.belief_history(erased, "osmosis")
    assert max(b.generation for b in rederived) == 1  # re-derived, not recorded
    assert [b.line() for b in app.learning.beliefs(erased)] == ["understands Osmosis (0.63)"]
    assert [b.line() for b in app.learning.beliefs(Pair("s2", "bio"))] == [
        "understands Osmosis (0.63)"
    ]
    assert _rows_after(app, erased, []) == never_had


def test_an_erasure_rederives_each_check_on_the_concept_it_was_recorded_on(
    tmp_path: Path,
) -> None:
    """A check on "ósmosis" made its belief; a note later put "osmosis" on the map. Erasing
    another check re-derived the beliefs routed by today's map, and the belief was renamed
    after the note's concept, where a replay of the export (the note after the check) keeps
    the check's name. An erasure re-derives each check on the concept it was recorded on; an
    operator's re-derivation still routes by today's map."""
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(T0 + timedelta(days=9)))
    pair = Pair("s1", "bio")
    check(app, pair, "ósmosis", "right", 0)
    gone = check(app, pair, "cells", "wrong", 1).append.episode
    app.maps.teach(pair, "Remember that osmosis needs a membrane.", at=T0 + timedelta(days=2))
    assert sorted(b.line() for b in app.learning.beliefs(pair)) == [
        "struggles with cells (0.67)",
        "understands ósmosis (0.67)",
    ]
    assert app.erasing is not None
    app.erasing.erase_episode(pair, gone.episode_id, reason="typed by mistake")
    assert [b.line() for b in app.learning.beliefs(pair)] == ["understands ósmosis (0.67)"]
    app.learning.rederive(pair, force=True)
    assert [b.concept_name for b in app.learning.beliefs(pair)] == ["osmosis"]  # today's map
