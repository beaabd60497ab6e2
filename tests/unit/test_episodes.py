"""Episode validation: every bad field is named; salience comes from one table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    CheckEvidence,
    ConsolidationEvidence,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
    TaughtEvidence,
    evidence_from_dict,
)
from tutor_memory.domain.errors import ValidationError

PAIR = Pair("student-1", "biology")
AT = datetime(2026, 3, 2, tzinfo=UTC)


def new(kind: Kind = Kind.QUESTION, text: str = "What is a cell?", **kw: object) -> NewEpisode:
    return NewEpisode(pair=PAIR, kind=kind, text=text, at=AT, **kw)  # type: ignore[arg-type]


def field_of(excinfo: pytest.ExceptionInfo[ValidationError]) -> str:
    return excinfo.value.field


@pytest.mark.parametrize(
    ("kind", "evidence", "expected"),
    [
        (Kind.QUESTION, None, 0.35),
        (Kind.CHECK, CheckEvidence("osmosis", "right"), 0.6),
        (Kind.CHECK, CheckEvidence("osmosis", "wrong"), 0.7),
        (Kind.TAUGHT, TaughtEvidence("mitochondria are the powerhouse"), 0.85),
        (Kind.ANSWER, AnswerEvidence(), C.SALIENCE["answer"]),
        (Kind.QUIZ, QuizEvidence(3, 5), C.SALIENCE["quiz"]),
        (Kind.CONSOLIDATION, ConsolidationEvidence("2026-03-01"), C.SALIENCE["consolidation"]),
    ],
)
def test_salience_follows_the_one_table(kind: Kind, evidence: object, expected: float) -> None:
    kwargs = {} if evidence is None else {"evidence": evidence}
    assert new(kind, **kwargs).salience == expected


def test_the_article_salience_figures_are_the_articles() -> None:
    assert (C.SALIENCE["question"], C.SALIENCE["check_passed"]) == (0.35, 0.6)
    assert (C.SALIENCE["check_missed"], C.SALIENCE["taught"]) == (0.7, 0.85)


def test_a_missing_summary_is_the_first_line_cut_to_one_line() -> None:
    episode = new(text="  First line of a long answer\nsecond line")
    assert episode.summary == "First line of a long answer"
    long = new(text="word " * 100)
    assert len(long.summary) == C.MAX_SUMMARY_CHARS and long.summary.endswith("…")


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: new(text=""), "text"),
        (lambda: new(text="x" * (C.MAX_TEXT_CHARS + 1)), "text"),
        (lambda: new(kind="gossip"), "kind"),  # type: ignore[arg-type]
        (lambda: new(salience=2), "salience"),
        (lambda: new(salience=float("nan")), "salience"),
        (lambda: new(summary="two\nlines"), "summary"),
        (lambda: new(concepts=["ok", ""]), "concepts[1]"),
        (lambda: new(ref="r" * 300), "ref"),
        (lambda: new(idempotency_key=""), "idempotency_key"),
        (lambda: NewEpisode(PAIR, Kind.QUESTION, "hi", datetime(2026, 1, 1)), "at"),
        (lambda: new(Kind.CHECK, evidence=AnswerEvidence()), "evidence"),
        (
            lambda: CheckEvidence("osmosis", "right", predicted_mastery=-0.2),
            "evidence.predicted_mastery",
        ),
        (lambda: CheckEvidence("", "right"), "evidence.topic"),
        (lambda: QuizEvidence(1, 0), "evidence.maximum"),
        (lambda: AnswerEvidence(page=3), "evidence.file_id"),
        (lambda: AnswerEvidence("f1", page=0), "evidence.page"),
        (lambda: AnswerEvidence("f1", fingerprint="abc"), "evidence.fingerprint"),
        (lambda: ConsolidationEvidence("yesterday"), "evidence.day"),
        (lambda: Pair("student 1", "biology"), "student_id"),
        (lambda: Pair("s1", ""), "subject_id"),
        (
            lambda: evidence_from_dict(Kind.CHECK, {"topic": "x", "verdict": "right", "mood": 1}),
            "evidence.mood",
        ),
        (lambda: evidence_from_dict(Kind.QUESTION, {"topic": "x"}), "evidence"),
    ],
)
def test_bad_fields_are_named(build: object, field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        build()  # type: ignore[operator]
    assert field_of(caught) == field


@pytest.mark.parametrize(
    "text",
    [
        "What is a cell?",
        "¿Qué es la ósmosis?",
        "Apa itu sel?",
        "مائٹوکونڈریا کیا کرتا ہے؟",
        "ما هي الخلية حقيقية النواة؟",
    ],
)
def test_text_in_every_students_language_is_kept_verbatim(text: str) -> None:
    episode = new(text=text)
    assert episode.text == text and episode.summary == text


def test_text_over_the_limit_names_its_length_and_the_limit() -> None:
    with pytest.raises(ValidationError, match=f"limit is {C.MAX_TEXT_CHARS}"):
        new(text="y" * (C.MAX_TEXT_CHARS + 5))
