"""The benchmark's generator writes realistic, seeded histories; its questions are
pre-registered and graded against the pair's own stored data."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.offline_extractor import OfflineExtractor
from tutor_memory.bench.builder import open_app, write_history
from tutor_memory.bench.generator import NOW, YEAR, PairHistory, generate, long_history
from tutor_memory.bench.questions import (
    CATEGORIES,
    load_questions,
    questions_for,
    write_questions,
)
from tutor_memory.bench.subjects import CHEMISTRY, PHYSICS, SUBJECTS
from tutor_memory.bootstrap import App
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.teaching import detect_teaching


@pytest.fixture(scope="module")
def histories() -> list[PairHistory]:
    return generate(11)


def test_the_same_seed_gives_the_same_histories(histories: list[PairHistory]) -> None:
    assert generate(11) == histories
    assert generate(12) != histories


def test_students_write_in_five_languages(histories: list[PairHistory]) -> None:
    assert {h.language for h in histories} == {"en", "es", "id", "ur", "ar"}


def test_every_history_has_empty_months_inside_its_span(histories: list[PairHistory]) -> None:
    for h in histories:
        months = {e.at.month for e in h.events}
        assert h.empty_months
        assert all(min(h.active_months) < m < max(h.active_months) for m in h.empty_months)
        assert not months & set(h.empty_months)


def test_students_repeat_questions_word_for_word(histories: list[PairHistory]) -> None:
    repeats = 0
    for h in histories:
        asked = Counter(e.text for e in h.events if e.kind == "question")
        repeats += sum(1 for n in asked.values() if n > 1)
    assert repeats >= len(histories)


def test_checks_are_right_and_wrong_with_a_predicted_mastery(histories: list[PairHistory]) -> None:
    checks = [e for h in histories for e in h.events if e.kind == "check"]
    assert {c.evidence["verdict"] for c in checks} == {"right", "wrong"}
    assert all(0.0 <= c.evidence["predicted_mastery"] <= 1.0 for c in checks)


def test_every_pair_teaches_with_a_message_that_really_teaches(
    histories: list[PairHistory],
) -> None:
    for h in histories:
        teaching = [e for e in h.events if e.kind == "teach"]
        assert teaching
        assert all(detect_teaching(e.text) is not None for e in teaching)


def test_nobody_discusses_a_concept_before_its_file_arrived(histories: list[PairHistory]) -> None:
    for h in histories:
        arrived: set[str] = set()
        for e in h.events:
            if e.kind == "file":
                file = next(f for f in h.subject.files if f.name == e.file_name)
                arrived |= {c.name for c in file.concepts}
            elif e.kind == "question" and e.concepts:
                assert e.concepts[0] in arrived


def test_the_synthetic_files_give_the_extractor_real_prerequisite_edges() -> None:
    for subject in (CHEMISTRY, PHYSICS):
        drafts = [
            d
            for name, data in subject.file_bytes()
            for d in OfflineExtractor().extract(name, read_file(name, data))
        ]
        names = {concept_key(d.name) for d in drafts}
        assert {concept_key(n) for n in subject.concept_names()} <= names
        intended = subject.intended()
        for draft in drafts:
            for need in intended.get(draft.name, ()):
                assert concept_key(need) in {concept_key(b) for b in draft.builds_on}


def test_a_long_history_has_exactly_the_asked_number_of_events_in_time_order() -> None:
    events = long_history(3, 500, SUBJECTS[0])
    assert len(events) == 500
    assert all(a.at <= b.at for a, b in pairwise(events))


# --- questions from a built store ------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[App, PairHistory]:
    history = generate(5, pairs_per_subject=1, subjects=(CHEMISTRY,))[0]
    app = open_app(tmp_path_factory.mktemp("bench") / "store", "none", NOW)
    write_history(app, history)
    return app, history


def test_questions_cover_the_six_categories_from_the_pairs_own_data(
    built: tuple[App, PairHistory],
) -> None:
    app, history = built
    questions = questions_for(app, history, 5)
    assert {q.category for q in questions} == set(CATEGORIES)
    assert all(q.pair == history.pair and q.language == history.language for q in questions)


def test_prerequisite_gold_is_what_the_concept_builds_on_not_what_builds_on_it(
    built: tuple[App, PairHistory],
) -> None:
    app, history = built
    cmap = app.ports.store.load_map(history.pair)  # type: ignore[attr-defined]
    for q in questions_for(app, history, 5):
        if q.category != "prerequisites":
            continue
        concept = cmap.concepts[concept_key(q.gold["concept"])]
        assert {concept_key(n) for n in q.gold["prerequisites"]} == set(concept.builds_on)
        for dependent in q.gold["dependents"]:
            assert concept.key in cmap.concepts[concept_key(dependent)].builds_on


def test_month_gold_is_the_months_own_episodes_and_empty_months_hold_none(
    built: tuple[App, PairHistory],
) -> None:
    app, history = built
    by_id = {e.episode_id: e for e in app.memory.history(history.pair)}
    for q in questions_for(app, history, 5):
        month = q.gold.get("month", "")
        if q.category == "active_month":
            assert q.gold["episode_ids"]
            assert all(f"{by_id[i].at:%Y-%m}" == month for i in q.gold["allowed_ids"])
        if q.category == "empty_month":
            assert not any(f"{e.at:%Y-%m}" == month for e in by_id.values())
            assert q.gold["label"].endswith(str(YEAR))


def test_the_question_set_reads_back_exactly_as_it_was_registered(
    built: tuple[App, PairHistory], tmp_path: Path
) -> None:
    app, history = built
    questions = questions_for(app, history, 5)
    sha = write_questions(tmp_path / "questions.json", questions, {"seed": 5})
    loaded, read_sha = load_questions(tmp_path / "questions.json")
    assert loaded == questions and read_sha == sha
