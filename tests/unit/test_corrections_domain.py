"""domain/corrections: who may correct what, the corrected reading, the nightly tally's move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain import corrections
from tutor_memory.domain.access import Role
from tutor_memory.domain.chain import ChainHead, head_of, seal
from tutor_memory.domain.episodes import (
    CheckEvidence,
    CorrectionEvidence,
    Episode,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
)
from tutor_memory.domain.errors import ForbiddenError, ValidationError
from tutor_memory.domain.nightly import CalibrationTally

PAIR = Pair("s1", "biology")
AT = datetime(2026, 3, 2, 9, tzinfo=UTC)


def sealed(*news: NewEpisode) -> list[Episode]:
    out: list[Episode] = []
    head: ChainHead | None = None
    for new in news:
        out.append(seal(new, head))
        head = head_of(out[-1], head)
    return out


def test_who_may_correct_which_kind() -> None:
    assert corrections.may_correct(Role.STUDENT, Kind.QUESTION)
    assert not corrections.may_correct(Role.STUDENT, Kind.CHECK)
    assert corrections.may_correct(Role.TEACHER, Kind.QUIZ)
    assert not corrections.may_correct(Role.TEACHER, Kind.QUESTION)
    assert all(corrections.may_correct(Role.SERVICE, k) for k in (Kind.CHECK, Kind.QUESTION))


def test_a_check_read_as_corrected_counts_once_with_its_last_verdict() -> None:
    check = NewEpisode(PAIR, Kind.CHECK, "Explain osmosis", AT,
                       evidence=CheckEvidence("osmosis", "wrong"))  # fmt: skip
    first = seal(check, None)
    evidence, summary = corrections.correction_of(first, "verdict", "right", by=Role.TEACHER)
    assert summary == "check on osmosis: right, not wrong" and evidence.was == "wrong"
    fix = NewEpisode(PAIR, Kind.CORRECTION, "mistake", AT + timedelta(days=1),
                     evidence=evidence, summary=summary)  # fmt: skip
    told = [first, seal(fix, head_of(first))]
    read = corrections.as_corrected(told)
    assert [e.kind for e in read] == [Kind.CHECK]
    assert isinstance(read[0].evidence, CheckEvidence) and read[0].evidence.verdict == "right"
    assert read[0].corrected_at == AT + timedelta(days=1)
    assert told[0].evidence == CheckEvidence("osmosis", "wrong")  # the log keeps what it was
    assert (
        corrections.passes(told[1])
        and corrections.belief_inputs({"check": 1, "correction": 1}) == 2
    )


def test_refusals_name_what_is_wrong() -> None:
    (quiz,) = sealed(NewEpisode(PAIR, Kind.QUIZ, "Quiz", AT, evidence=QuizEvidence(3, 10)))
    with pytest.raises(ValidationError, match="'score'"):
        corrections.correction_of(quiz, "verdict", "right", by=Role.SERVICE)
    with pytest.raises(ValidationError, match="maximum"):
        corrections.correction_of(quiz, "score", 12, by=Role.SERVICE)
    with pytest.raises(ForbiddenError):
        corrections.correction_of(quiz, "score", 8, by=Role.STUDENT)
    with pytest.raises(ValidationError, match=r"evidence\.field"):
        CorrectionEvidence("e1-000000000000", "grade", "A")  # type: ignore[arg-type]


def test_the_tally_moves_a_folded_checks_outcome_without_counting_it_again() -> None:
    tally = CalibrationTally().add([(0.8, False)])
    moved = tally.moved(0.8, False, True)
    assert moved.calibration().checks == 1 and moved.calibration().buckets[0].observed == 1.0
    assert tally.moved(0.8, True, True) is tally
