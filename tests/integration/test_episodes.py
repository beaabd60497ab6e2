"""``Episodes.add`` is the one door an episode enters by: each kind reaches its use case."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import CheckEvidence, Kind, NewEpisode, Pair, TaughtEvidence
from tutor_memory.domain.errors import ValidationError
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.episodes import NotTeachingError

from ..conftest import T0


@pytest.fixture
def app(tmp_path: Path) -> App:
    return build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"), clock=FixedClock(T0))


def test_a_check_moves_its_belief_whether_its_evidence_is_typed_or_plain_data(
    app: App, pair: Pair
) -> None:
    typed = app.episodes.add(pair, "check", "Check", evidence=CheckEvidence("osmosis", "wrong"))
    assert typed.belief is not None and typed.belief.line() == "struggles with osmosis (0.67)"
    plain = app.episodes.add(
        pair, Kind.CHECK, "Check again", evidence={"topic": "osmosis", "verdict": "wrong"}
    )
    assert plain.belief is not None and plain.episode.concepts == ("osmosis",)
    (belief,) = app.learning.beliefs(pair)
    assert belief.claim.value == "struggles with" and belief.confidence > 0.67  # two misses


def test_a_question_that_says_remember_that_teaches_the_map(app: App, pair: Pair) -> None:
    added = app.episodes.add(
        pair, "question", "Remember that in our class the Golgi body is the post office"
    )
    assert added.taught is not None and added.episode.kind is Kind.TAUGHT
    assert [c.name for c in app.maps.maps.load_map(pair).concepts.values()] == ["Golgi body"]
    asked = app.episodes.add(pair, "question", "What is the Golgi body?")
    assert asked.taught is None and asked.episode.kind is Kind.QUESTION


def test_a_taught_message_that_is_no_instruction_is_refused_unless_it_carries_its_note(
    app: App, pair: Pair
) -> None:
    with pytest.raises(NotTeachingError):
        app.episodes.add(pair, "taught", "Osmosis is boring")
    assert app.ports.store.head(pair) is None
    kept = app.episodes.add(
        pair, "taught", "Osmosis is boring", evidence={"note": "osmosis bores them"}
    )
    assert kept.episode.kind is Kind.TAUGHT and kept.taught is None
    assert kept.episode.evidence == TaughtEvidence("osmosis bores them")


@pytest.mark.parametrize(
    "message",
    [
        "Remember that you promised to quiz me",
        "Remember that we have a test tomorrow",
        "Recuerda que tú me prometiste un examen",
        "Recuerda que prometiste hacerme un examen",  # no pronoun: the verb says who
        "Recuerda que tenemos examen mañana",
        "Ingat bahwa kita ada ujian besok",
        "یاد رکھو کہ آپ نے کوئز کا وعدہ کیا تھا",
        "yaad rakho ke aap ne quiz ka wada kiya tha",
        "تذكر أنك وعدتني باختبار",
    ],
)
def test_remember_that_about_the_people_talking_is_kept_and_teaches_nothing(
    app: App, pair: Pair, message: str
) -> None:
    """Before, each minted a concept on the subject's map ("promised", "test tomorrow")
    with readiness 1.0, riding in every block."""
    added = app.episodes.add(pair, "question", message)
    assert added.taught is None and added.episode.kind is Kind.QUESTION
    assert app.maps.maps.load_map(pair).concepts == {}
    # sent as taught, the client says it is teaching: it is taught
    assert app.episodes.add(pair, "taught", message).taught is not None


# "Remember that …" followed by a pasted page: a note longer than a taught note may hold.
LONG_NOTE = "Remember that osmosis is " + "the movement of water across a membrane, " * 60


def test_a_remember_that_message_with_a_page_after_it_is_kept_as_a_question(
    app: App, pair: Pair
) -> None:
    """Before, the map took the page as the note and then the log refused the episode: the
    student's message was lost and the map changed without it."""
    added = app.episodes.add(pair, "question", LONG_NOTE)
    assert added.taught is None and added.episode.kind is Kind.QUESTION
    assert added.episode.text == LONG_NOTE
    assert app.maps.maps.load_map(pair).concepts == {}


def test_a_taught_message_whose_note_is_too_long_is_refused_and_nothing_is_written(
    app: App, pair: Pair
) -> None:
    app.episodes.add(pair, "question", "Remember that the Golgi body is the post office")
    before = app.maps.maps.load_map(pair)
    with pytest.raises(ValidationError, match="a taught note holds at most 2000") as refused:
        app.episodes.add(pair, "taught", LONG_NOTE)
    assert refused.value.field == "text"
    assert app.maps.maps.load_map(pair) == before
    head = app.ports.store.head(pair)
    assert head is not None and head.seq == 1


@pytest.mark.parametrize(
    ("kind", "extra", "says"),
    [
        ("check", {}, "evidence: is required for a check"),
        ("quiz", {}, "evidence: is required for a quiz"),
        ("check", {"evidence": {"score": 3, "maximum": 5}}, "is not a field of check evidence"),
        ("question", {"recalled_ids": ["e1-000000000000"]}, "recalled_ids"),
        ("answer", {"recalled_ids": ["e9-000000000000"]}, "no episode"),
        ("file", {}, "ingestion"),
    ],
)
def test_a_bad_episode_is_refused_before_anything_is_written(
    app: App, pair: Pair, kind: str, extra: dict[str, object], says: str
) -> None:
    with pytest.raises(ValidationError, match=says):
        app.episodes.add(pair, kind, "text", **extra)  # type: ignore[arg-type]
    assert app.ports.store.head(pair) is None


def test_a_quiz_and_an_answer_keep_their_evidence_summary_and_salience(
    app: App, pair: Pair
) -> None:
    quiz = app.episodes.add(
        pair, "quiz", "Quiz 1", evidence={"score": 3, "maximum": 5, "topics": ["cells"]}
    )
    answer = app.episodes.add(
        pair,
        "answer",
        "Cells are the unit of life.",
        summary="explained cells",
        salience=0.9,
        recalled_ids=[quiz.episode.episode_id],
    )
    assert quiz.episode.evidence.to_dict()["topics"] == ["cells"]
    assert (answer.episode.summary, answer.episode.salience) == ("explained cells", 0.9)
    assert answer.episode.recalled_ids == (quiz.episode.episode_id,)


def test_many_episodes_keep_their_order_and_each_reaches_its_use_case(app: App, pair: Pair) -> None:
    def at(minutes: int) -> object:
        return T0 + timedelta(minutes=minutes)

    history = [
        NewEpisode(pair, Kind.QUESTION, "What is osmosis?", at(0)),  # type: ignore[arg-type]
        NewEpisode(
            pair,
            Kind.CHECK,
            "Check",
            at(1),  # type: ignore[arg-type]
            evidence=CheckEvidence("osmosis", "wrong"),
        ),
        NewEpisode(pair, Kind.QUESTION, "Remember that osmosis is water moving", at(2)),  # type: ignore[arg-type]
        NewEpisode(pair, Kind.ANSWER, "Water crosses the membrane.", at(3)),  # type: ignore[arg-type]
    ]
    added = app.episodes.add_many(history)
    assert [a.episode.seq for a in added] == [1, 2, 3, 4]
    assert [a.episode.kind for a in added] == [Kind.QUESTION, Kind.CHECK, Kind.TAUGHT, Kind.ANSWER]
    assert added[1].belief is not None and added[2].taught is not None
    assert [b.line() for b in app.learning.beliefs(pair)] == ["struggles with osmosis (0.67)"]


def test_many_episodes_refuse_an_answer_that_recalls_an_unknown_episode(
    app: App, pair: Pair
) -> None:
    answer = NewEpisode(
        pair,
        Kind.ANSWER,
        "As we said.",
        T0,
        recalled_ids=("e9-000000000000",),
    )
    with pytest.raises(ValidationError, match="no episode"):
        app.episodes.add_many([answer])
    assert app.ports.store.head(pair) is None
