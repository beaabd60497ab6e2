"""The report is built from rows and states only what they hold (SPEC §11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.chain import ChainHead, head_of, seal
from tutor_memory.domain.conceptmap import Concept, ConceptMap, Layer
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    CheckEvidence,
    Episode,
    Evidence,
    Kind,
    NewEpisode,
    Pair,
)
from tutor_memory.domain.report import Report, ReportRows, build_report
from tutor_memory.usecases.reports import render_markdown, render_text, report_json

PAIR = Pair("s-1", "biology")
T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
FILE_HASH = "a" * 64


@dataclass
class Log:
    """A pair's rows, written in order the way a store would seal them."""

    episodes: list[Episode] = field(default_factory=list)
    head: ChainHead | None = None
    notes: dict[str, list[Annotation]] = field(default_factory=dict)

    def add(
        self,
        kind: Kind,
        text: str,
        *,
        evidence: Evidence | None = None,
        concepts: Sequence[str] = (),
    ) -> Episode:
        at = T0 + timedelta(days=len(self.episodes))
        new = NewEpisode(PAIR, kind, text, at, evidence=evidence, concepts=tuple(concepts))
        episode = seal(new, self.head)
        self.head = head_of(episode, self.head)
        self.episodes.append(episode)
        return episode

    def check(self, topic: str, verdict: str, predicted: float | None = None, tied: bool = True):  # type: ignore[no-untyped-def]
        evidence = CheckEvidence(topic, verdict, predicted_mastery=predicted)  # type: ignore[arg-type]
        return self.add(Kind.CHECK, f"Check on {topic}", evidence=evidence,
                        concepts=[topic] if tied else [])  # fmt: skip

    def answer(self, text: str, *, file_id: str | None = None) -> Episode:
        fingerprint = FILE_HASH if file_id else None
        return self.add(Kind.ANSWER, text, evidence=AnswerEvidence(file_id, None, fingerprint))

    def annotate(self, episode: Episode, kind: AnnotationKind, value: str, days: int = 100) -> None:
        note = Annotation(PAIR, episode.episode_id, kind, value, T0 + timedelta(days=days))
        self.notes.setdefault(episode.episode_id, []).append(note)

    def report(self, cmap: ConceptMap | None = None, head_seq: int | None = None) -> Report:
        assert self.head is not None
        return build_report(
            ReportRows(
                pair=PAIR,
                generated_at=T0 + timedelta(days=365),
                head_seq=self.head.seq if head_seq is None else head_seq,
                head_at=self.head.at,
                counts=self.head.counts,
                episodes=self.episodes,
                annotations=self.notes,
                beliefs=(),
                cmap=cmap or ConceptMap(),
            )
        )


def test_thirty_two_untied_checks_say_so_and_never_say_no_checks() -> None:
    log = Log()
    for i in range(32):
        log.check(f"ask me the questions {i}", "right", tied=False)
    report = log.report()
    assert (report.checks.recorded, report.checks.tied) == (32, 0)
    said = "32 checks recorded, but none could yet be tied to a concept on the map."
    assert report.checks.line == said
    text = render_text(report)
    assert said in text and "No check" not in text and "no check" not in text.lower()


def test_one_untied_check_says_it_could_not_be_tied() -> None:
    log = Log()
    log.check("bueno ahora explícame todos los pasos", "wrong", tied=False)
    report = log.report()
    assert report.checks.line == (
        "1 check recorded, but it could not yet be tied to a concept on the map."
    )
    assert report.nothing_to_calibrate == (
        "Nothing to calibrate yet: the one check recorded carries no predicted mastery."
    )


def test_a_pair_without_checks_says_none_was_recorded() -> None:
    log = Log()
    log.add(Kind.QUESTION, "What is a cell?")
    assert log.report().checks.line == "No check has been recorded yet."


def test_tied_checks_count_those_on_the_map_apart() -> None:
    log = Log()
    log.check("Osmosis", "right")
    log.check("Meiosis", "wrong")  # tied to a name the map does not have
    log.check("can you ask me more", "wrong", tied=False)
    cmap = ConceptMap({"osmosis": Concept("osmosis", "Osmosis", Layer.FILE)})
    checks = log.report(cmap).checks
    assert (checks.recorded, checks.right, checks.wrong) == (3, 1, 2)
    assert (checks.tied, checks.on_map) == (2, 1)
    assert checks.line == (
        "3 checks recorded (1 right, 2 wrong): 2 tied to a concept (1 of them on the map), "
        "1 not tied to any."
    )


def test_an_answer_the_files_could_not_give_comes_with_the_question_before_it() -> None:
    log = Log()
    log.add(Kind.QUESTION, "What is osmosis?")
    answered = log.answer("Water crossing a membrane.")
    asked = log.add(Kind.QUESTION, "Why do plants wilt in salty soil?")
    missed = log.answer("Your files do not say.")
    log.annotate(answered, AnnotationKind.STANCE, "answered")
    log.annotate(missed, AnnotationKind.STANCE, "partial", days=50)
    log.annotate(missed, AnnotationKind.STANCE, "could_not", days=60)  # the newest stance counts
    stances = log.report().stances
    (item,) = stances.could_not
    assert (item.answer_id, item.answer) == (missed.episode_id, "Your files do not say.")
    assert (item.question_id, item.question) == (asked.episode_id, asked.text)
    assert (item.asked_at, item.answered_at) == (asked.at, missed.at)
    assert item.stance_at == T0 + timedelta(days=60)
    assert stances.counts == {"answered": 1, "partial": 0, "could_not": 1, "none": 0}
    assert stances.line.startswith("1 answer of 2 could not be answered from the files")


def test_an_answer_with_no_question_before_it_says_so() -> None:
    log = Log()
    missed = log.answer("Your files do not say.")
    log.annotate(missed, AnnotationKind.STANCE, "could_not")
    report = log.report()
    assert report.stances.could_not[0].question is None
    assert "no question before it in the log" in render_text(report)


def test_verification_says_how_many_memories_cite_a_file_that_no_longer_exists() -> None:
    log = Log()
    removed = [log.answer(f"Answer {i} (see the notes)", file_id="notes.pdf") for i in range(11)]
    replaced = log.answer("Answer from the old edition", file_id="book.pdf")
    holds = log.answer("Answer that still holds", file_id="book.pdf")
    never = log.answer("Answer not checked yet", file_id="book.pdf")
    talk = log.answer("Answer from our conversation")
    for episode in removed:
        log.annotate(episode, AnnotationKind.VERIFICATION, "changed_removed")
    log.annotate(replaced, AnnotationKind.VERIFICATION, "holds", days=40)
    log.annotate(replaced, AnnotationKind.VERIFICATION, "changed_replaced", days=80)
    log.annotate(holds, AnnotationKind.VERIFICATION, "holds")
    log.annotate(talk, AnnotationKind.VERIFICATION, "unverifiable")
    ver = log.report().verification
    assert ver.results == {
        "holds": 1,
        "changed_replaced": 1,
        "changed_removed": 11,
        "unverifiable": 1,
    }
    assert (ver.verified, ver.citing, ver.citing_unverified) == (14, 14, 1)
    assert ver.last_checked_at == T0 + timedelta(days=100)
    assert [c.episode_id for c in ver.changed] == [e.episode_id for e in [*removed, replaced]]
    assert ver.lines == (
        "14 memories have been verified.",
        "11 memories cite a file that no longer exists.",
        "1 memory cites a file that has since been replaced.",
        "1 memory cites a file that is still there, unchanged (holds).",
        "1 memory cites no file, so there is nothing to look up (unverifiable).",
        "1 memory cites a file and has not been verified yet.",
    )
    assert never.episode_id not in {c.episode_id for c in ver.changed}


def test_nothing_verified_yet_says_so() -> None:
    log = Log()
    log.answer("See page 3", file_id="book.pdf")
    log.answer("From our talk")
    assert log.report().verification.lines == (
        "Nothing has been verified yet (1 memory cites a file).",
    )


def test_fewer_than_five_predictions_carry_the_ranking_limit() -> None:
    log = Log()
    log.check("Osmosis", "wrong", predicted=0.8)
    log.check("Osmosis", "right", predicted=0.3)
    log.check("Osmosis", "right")  # no prediction: not calibrated against
    report = log.report()
    cal = report.calibration
    assert (cal.checks, report.checks_without_prediction, cal.calibrated) == (2, 1, False)
    assert cal.ece == pytest.approx((0.8 + 0.7) / 2)
    assert cal.limit is not None and "treat confidence as a ranking, not a probability" in cal.limit
    assert "Limit: only 2 check(s) carry a prediction" in render_text(report)


def test_five_predictions_are_calibrated_and_the_table_shows_each_bucket() -> None:
    log = Log()
    for predicted, verdict in ((0.9, "right"), (0.9, "right"), (0.9, "wrong"), (0.2, "wrong"),
                               (0.25, "right")):  # fmt: skip
        log.check("Osmosis", verdict, predicted=predicted)
    report = log.report()
    cal = report.calibration
    assert cal.calibrated and cal.limit is None
    assert [(b.low, b.count, b.mean_predicted, b.observed) for b in cal.buckets] == [
        (0.2, 2, 0.225, 0.5),
        (0.9, 3, 0.9, 0.6667),
    ]
    text = render_text(report)
    assert "expected calibration error 0.250" in text  # (2 × 0.275 + 3 × 0.2333) / 5
    assert "0.9–1.0    3       0.90            0.67" in text
    assert "| 0.2–0.3 | 2 | 0.23 | 0.50 |" in render_markdown(report)


def test_the_subject_is_about_the_material_with_bands_and_teaching_order() -> None:
    log = Log()
    log.add(Kind.QUESTION, "What is a cell?")
    cmap = ConceptMap(
        concepts={
            "cell": Concept(
                "cell",
                "Cell",
                Layer.FILE,
                centrality=0.5,
                readiness=0.85,
                confirmed=True,
                sources=(),
            ),
            "osmosis": Concept(
                "osmosis",
                "Osmosis",
                Layer.FILE,
                builds_on=("cell",),
                centrality=0.3,
                readiness=0.35,
            ),
            "golgi body": Concept(
                "golgi body",
                "Golgi body",
                Layer.TAUGHT,
                centrality=0.2,
                readiness=1.0,
                taught_note="the post office",
            ),
        },
        teaching_order=(("cell", "golgi body"), ("osmosis",)),
        subject_readiness=0.62,
    )
    subject = log.report(cmap).subject
    assert (subject.concepts, subject.percent) == (3, 62)
    assert subject.bands == {"taught": 1, "confirmed": 1, "explained": 0, "named": 1}
    assert subject.teaching_order == (("Cell", "Golgi body"), ("Osmosis",))
    assert subject.line == (
        "The files explain 62% of the subject (3 concepts; this is about the material, "
        "not the student)."
    )
    assert "understood" not in render_text(log.report(cmap))


def test_an_empty_map_has_no_readiness_to_report() -> None:
    log = Log()
    log.add(Kind.QUESTION, "What is a cell?")
    report = log.report()
    assert report.subject.concepts == 0
    assert report.subject.line.startswith("No file has been read into the concept map yet")


def test_the_report_covers_the_log_up_to_the_head_it_read_first() -> None:
    log = Log()
    log.check("Osmosis", "right")
    log.check("Osmosis", "wrong")  # appended after the head was read
    report = log.report(head_seq=1)
    assert (report.episodes, report.checks.recorded) == (1, 1)


def test_every_format_carries_the_same_figures() -> None:
    log = Log()
    log.check("Osmosis", "wrong", predicted=0.6)
    log.add(Kind.QUESTION, "Why do plants wilt?")
    missed = log.answer("Your files do not say.", file_id="book.pdf")
    log.annotate(missed, AnnotationKind.STANCE, "could_not")
    log.annotate(missed, AnnotationKind.VERIFICATION, "changed_removed")
    report = log.report()
    data = report_json(report)
    assert data["checks"]["line"] in render_text(report)
    assert data["checks"]["line"] in render_markdown(report)
    assert data["answers"]["could_not"][0]["question"] == "Why do plants wilt?"
    assert data["verification"]["results"]["changed_removed"] == 1
    assert "1 memory cites a file that no longer exists." in render_markdown(report)
    assert data["calibration"]["ece"] == 0.6 and data["calibration"]["without_prediction"] == 0
    assert data["episodes"] == {
        "total": 3,
        "last_at": "2026-07-03T09:00:00Z",
        "by_kind": {"answer": 1, "check": 1, "question": 1},
    }
    assert render_markdown(report).startswith("# Report: s-1 in biology\n")
