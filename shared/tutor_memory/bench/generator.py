"""A seeded generator of realistic tutoring histories (pure: no store, no clock, no I/O).

One history per pair (a student in a subject), built from the subject's files and the
student's language:

* **months with gaps**: activity from a start month (Feb–Apr) to an end month (Sep–Nov) of
  one year, with one or two empty months inside the span;
* **sessions** of a few minutes each: a question about a concept (students move through the
  subject roughly in the material's order, and come back to old concepts), the tutor's
  answer quoting the material's definition (half of them citing the file), sometimes the
  tutor's "X builds on Y" advice, a check with a verdict and the mastery the tutor predicted
  before it, sometimes a quiz or a second question;
* **repetition**: about a third of sessions open with a question asked before, word for word
  (real students ask "what is a cell" nine times in three months);
* **taught notes**: one or two "remember that in our class we call X …" per pair;
* **narrations**: the tutor's own "In July we covered X and Y" answers, given when the student
  asks about an earlier month — they recall that month's episodes;
* **files** arrive when the subject starts (the first) and a couple of months later (the
  second); nobody discusses a concept before its file arrived.

Everything comes from ``random.Random`` seeded by the run's seed and the pair, so one seed
gives one history, byte for byte.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal

from tutor_memory.bench import phrasing as P
from tutor_memory.bench.subjects import SUBJECTS, Subject
from tutor_memory.domain.episodes import Pair

YEAR: Final = 2026
# Every question is asked at this moment: after the last month of every history.
NOW: Final = datetime(YEAR, 12, 1, 9, 0, tzinfo=UTC)

EventKind = Literal["file", "question", "answer", "quiz", "check", "teach", "narration"]


@dataclass(frozen=True)
class Event:
    """One thing that happens to a pair; the builder turns it into the real use case call."""

    kind: EventKind
    at: datetime
    text: str = ""
    concepts: tuple[str, ...] = ()
    evidence: dict[str, Any] = field(default_factory=dict)
    file_name: str = ""  # file: which of the subject's files arrives
    recall_month: int = 0  # narration: the month whose episodes it recalls


@dataclass(frozen=True)
class PairHistory:
    pair: Pair
    subject: Subject
    language: str
    active_months: tuple[int, ...]
    empty_months: tuple[int, ...]  # inside the span: a student's real gap
    events: tuple[Event, ...]


def generate(
    seed: int, *, pairs_per_subject: int = 4, subjects: tuple[Subject, ...] = SUBJECTS
) -> list[PairHistory]:
    """Every pair's history; the same seed gives the same histories."""
    histories = []
    n = 0
    for subject in subjects:
        for i in range(pairs_per_subject):
            n += 1
            language = subject.student_languages[i % len(subject.student_languages)]
            rng = random.Random(f"{seed}:{subject.subject_id}:{i}")
            pair = Pair(f"s{n:02d}", subject.subject_id)
            histories.append(_history(rng, pair, subject, language))
    return histories


# --- one pair ---------------------------------------------------------------------------------


@dataclass
class _Student:
    """What the generator tracks while it writes one history."""

    rng: random.Random
    subject: Subject
    language: str
    practice: dict[str, int] = field(default_factory=dict)
    difficulty: dict[str, float] = field(default_factory=dict)
    asked: list[tuple[str, str]] = field(default_factory=list)  # (text, concept)
    covered: dict[int, list[str]] = field(default_factory=dict)  # month -> concepts


def _history(rng: random.Random, pair: Pair, subject: Subject, language: str) -> PairHistory:
    start, end = rng.randint(2, 4), rng.randint(9, 11)
    gaps = sorted(rng.sample(range(start + 1, end), k=rng.choice((1, 2))))
    active = [m for m in range(start, end + 1) if m not in gaps]
    student = _Student(rng, subject, language)
    for name in subject.concept_names():
        student.difficulty[name] = rng.uniform(0.0, 0.25)

    files = subject.files
    second_at = active[min(2, len(active) - 1)]
    events: list[Event] = [
        Event("file", datetime(YEAR, start, 1, 10, tzinfo=UTC), file_name=files[0].name)
    ]
    if len(files) > 1:
        events.append(
            Event("file", datetime(YEAR, second_at, 1, 10, tzinfo=UTC), file_name=files[1].name)
        )

    sessions = [
        (month, day)
        for month in active
        for day in sorted(rng.sample(range(2, 29), k=rng.randint(3, 6)))
    ]
    teach_at = set(rng.sample(range(len(sessions) // 3, len(sessions)), k=rng.choice((1, 2))))
    narrate_at = {
        i for i, (month, _day) in enumerate(sessions) if month != active[0] and rng.random() < 0.12
    }
    taught: set[str] = set()
    for i, (month, day) in enumerate(sessions):
        available = _available(subject, active, month, second_at)
        when = datetime(YEAR, month, day, rng.randint(14, 19), rng.randint(0, 50), tzinfo=UTC)
        session = _Session(student, when, month, available)
        if i in narrate_at:
            session.narration(active)
        session.conversation()
        if i in teach_at:
            session.teach(taught)
        events += session.events
    return PairHistory(
        pair=pair,
        subject=subject,
        language=language,
        active_months=tuple(active),
        empty_months=tuple(gaps),
        events=tuple(sorted(events, key=lambda e: e.at)),
    )


def _available(subject: Subject, active: list[int], month: int, second_at: int) -> list[str]:
    """The concepts a student can meet this month: further along the material each month, and
    only from files that have arrived."""
    names = [c.name for c in subject.files[0].concepts]
    if len(subject.files) > 1 and month >= second_at:
        names += [c.name for f in subject.files[1:] for c in f.concepts]
    share = (active.index(month) + 1) / len(active)
    return names[: max(3, round(len(names) * min(1.0, share + 0.3)))]


class _Session:
    def __init__(self, student: _Student, start: datetime, month: int, available: list[str]):
        self.s = student
        self.rng = student.rng
        self.lang = student.language
        self.at = start
        self.month = month
        self.available = available
        self.events: list[Event] = []

    def _tick(self) -> datetime:
        self.at += timedelta(minutes=self.rng.randint(1, 4))
        return self.at

    def _pick(self) -> str:
        if self.rng.random() < 0.7:
            return self.rng.choice(self.available[-4:])  # the student's current frontier
        return self.rng.choice(self.available)

    def conversation(self) -> None:
        rng = self.rng
        if self.s.asked and rng.random() < 0.33:
            text, concept = rng.choice(self.s.asked)  # asked before, word for word
        else:
            concept = self._pick()
            template = rng.choice(P.QUESTIONS[self.lang])
            text = template.format(x=P.student_name(concept, self.lang))
            self.s.asked.append((text, concept))
        self.question(text, concept)
        if rng.random() < 0.7:
            self.check(concept)
        if rng.random() < 0.12:
            self.quiz(concept)
        if rng.random() < 0.5:
            other = self._pick()
            template = rng.choice(P.QUESTIONS[self.lang])
            self.question(template.format(x=P.student_name(other, self.lang)), other)

    def question(self, text: str, concept: str) -> None:
        self.events.append(Event("question", self._tick(), text, (concept,)))
        self.s.covered.setdefault(self.month, []).append(concept)
        spec = next(c for f in self.s.subject.files for c in f.concepts if c.name == concept)
        if self.rng.random() < 0.85:
            answer = P.EXPLAIN_ANSWER[self.lang].format(x=concept, gist=spec.gist)
            evidence: dict[str, Any] = {}
            if self.rng.random() < 0.5:
                file = next(f for f in self.s.subject.files if spec in f.concepts)
                evidence = {"file_id": file.name, "page": 1}
            self.events.append(Event("answer", self._tick(), answer, (concept,), evidence))
        if spec.needs and self.rng.random() < 0.3:
            y = self.rng.choice(spec.needs)
            prose = P.PREREQUISITE_PROSE[self.lang].format(x=concept, y=y)
            text = P.PREREQUISITE_ANSWER[self.lang].format(prose=prose, y=y)
            self.events.append(Event("answer", self._tick(), text, (concept, y)))

    def check(self, concept: str) -> None:
        rng = self.rng
        done = self.s.practice.get(concept, 0)
        p_right = min(0.9, 0.3 + 0.15 * done - self.s.difficulty[concept])
        verdict = "right" if rng.random() < p_right else "wrong"
        predicted = round(min(1.0, max(0.0, p_right + rng.gauss(0.0, 0.15))), 2)
        roll = rng.random()
        if roll < 0.8:
            topic = concept.lower()
        elif roll < 0.92:
            topic = f"explain {concept.lower()} in your own words"
        else:
            topic = "ask me the questions"  # an utterance: evidence, never a belief
        evaluation = (
            f"Correct: that is what {concept} means."
            if verdict == "right"
            else f"Not quite: the answer mixed up {concept}."
        )
        if topic == "ask me the questions":
            evaluation = "Good effort."
        self.events.append(
            Event(
                "check",
                self._tick(),
                f"Check on {topic}",
                evidence={
                    "topic": topic,
                    "verdict": verdict,
                    "evaluation": evaluation,
                    "predicted_mastery": predicted,
                },
            )
        )
        self.s.practice[concept] = done + 1

    def quiz(self, concept: str) -> None:
        other = self.rng.choice(self.available)
        topics = [concept] if other == concept else [concept, other]
        score = self.rng.randint(1, 5)
        self.events.append(
            Event(
                "quiz",
                self._tick(),
                f"Quiz: {', '.join(topics)}",
                tuple(topics),
                {"score": score, "maximum": 5, "topics": topics},
            )
        )

    def teach(self, taught: set[str]) -> None:
        choices = [c for c in self.available if c not in taught]
        if not choices:
            return
        concept = self.rng.choice(choices)
        taught.add(concept)
        nick = self.rng.choice(P.NICKNAMES[self.lang])
        text = P.TEACH[self.lang].format(x=P.student_name(concept, self.lang), nick=nick)
        self.events.append(Event("teach", self._tick(), text, (concept,)))

    def narration(self, active: list[int]) -> None:
        """The student asks about an earlier month; the tutor narrates it from memory."""
        earlier = [m for m in active if m < self.month and self.s.covered.get(m)]
        if not earlier:
            return
        month = self.rng.choice(earlier)
        concepts = list(dict.fromkeys(self.s.covered[month]))
        x = concepts[0]
        y = concepts[1] if len(concepts) > 1 else concepts[0]
        asked = P.ASK_MONTH[self.lang].format(month=P.month_name(month, self.lang))
        self.events.append(Event("question", self._tick(), asked))
        text = P.NARRATION[self.lang].format(month=P.month_name(month, self.lang), x=x, y=y)
        self.events.append(Event("narration", self._tick(), text, (x, y), recall_month=month))


# --- a long history, for the performance bench ----------------------------------------------


def long_history(seed: int, episodes: int, subject: Subject, language: str = "en") -> list[Event]:
    """Exactly ``episodes`` events for one pair over 23 months (Jan 2025 – Nov 2026), as many
    sessions a day as it takes: a stress test of size, not a portrait of one student."""
    rng = random.Random(f"{seed}:long:{subject.subject_id}:{episodes}")
    student = _Student(rng, subject, language)
    for name in subject.concept_names():
        student.difficulty[name] = rng.uniform(0.0, 0.25)
    names = subject.concept_names()
    sessions: list[list[Event]] = []
    total = 0
    while total < episodes:  # first the sessions, then their times
        session = _Session(student, _LONG_FIRST, len(sessions) % 23 + 1, names)
        session.conversation()
        sessions.append(session.events)
        total += len(session.events)
    span = _LONG_LAST - _LONG_FIRST
    events = [
        replace(e, at=e.at + span * i / len(sessions))
        for i, session_events in enumerate(sessions)
        for e in session_events
    ]
    return events[:episodes]


_LONG_FIRST: Final = datetime(2025, 1, 2, 8, tzinfo=UTC)
_LONG_LAST: Final = datetime(2026, 11, 28, 8, tzinfo=UTC)
