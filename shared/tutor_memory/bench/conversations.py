"""Long synthetic conversations for the recall bench: seeded, deterministic, five languages.

Each pair is a student and a tutor chatting over weeks to months, in sessions of 8–40 lines:
greetings, small talk, study questions and the tutor's explanations, goodbyes. What real
conversations have and a retrieval bench must survive:

* **speaker names** in most lines ("Maya: …"), so the name matches nearly every line;
* **repetition**: a favourite question asked in many sessions, word for word, and the same
  explanation given each time; small talk and greetings recur;
* **long gaps**: every pair has one gap of two months or more, and a few of three to six weeks;
* **topic returns**: a ``return`` story is raised before the long gap and taken up after it;
* **questions** (one per story, see ``conversation_words``) with 1–4 gold evidence lines,
  multi-hop ones with evidence in several sessions, and paraphrases that share no word with
  their evidence.

The questions are asked one day after the last session (``Conversation.asked_at``). The
student's lines are recorded as ``question`` episodes, the tutor's as ``answer`` episodes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from tutor_memory.bench.conversation_words import WORDS, Story, Words
from tutor_memory.domain.episodes import Pair

START: Final = datetime(2025, 9, 1, tzinfo=UTC)
# (language, lines) per pair: hundreds to ~1,500 lines, every language at least once.
PLAN: Final[tuple[tuple[str, int], ...]] = (
    ("en", 1500),
    ("en", 300),
    ("es", 700),
    ("id", 500),
    ("ur", 400),
    ("ar", 400),
)
SESSION_LINES: Final = (8, 40)  # lines in a session, at least and at most
UNNAMED_SHARE: Final = 0.15  # lines written without "Name: " (continuations, quick replies)
LONG_GAP_DAYS: Final = (60, 80)  # the one long break of every pair (the return story spans it)
SHORT_GAP_DAYS: Final = (1, 4)
BREAK_DAYS: Final = (21, 45)  # an occasional break of three to six weeks
BREAK_SHARE: Final = 0.05
DATED_WITHIN_DAYS: Final = 330  # "in March" must name the last March before the question


Role = Literal["student", "tutor"]
Said = tuple[Role, str, tuple[str, int] | None]  # who, the line, which story line it is


@dataclass(frozen=True)
class Utterance:
    tid: str
    session: int
    at: datetime
    role: Role
    text: str


@dataclass(frozen=True)
class GoldQuestion:
    qid: str
    category: str
    text: str
    gold: tuple[str, ...]  # the tids of the evidence lines
    sessions: int  # how many sessions the evidence spans
    # asked mid-conversation (a file's question, ``conversation_file``): what was said after
    # it is not known yet; None: asked with the rest, at ``Conversation.asked_at``
    asked_at: datetime | None = None


@dataclass(frozen=True)
class Conversation:
    pair: Pair
    language: str
    student: str
    tutor: str
    lines: tuple[Utterance, ...]
    questions: tuple[GoldQuestion, ...]
    asked_at: datetime
    # The name the pair's profile gives the student (its ``name`` aspect), as a product that
    # knows its students' names sets it; None: the profile names no one.
    profile_name: str | None = None


def generate_conversations(
    seed: int = 7, plan: tuple[tuple[str, int], ...] = PLAN
) -> list[Conversation]:
    seen: dict[str, int] = {}
    conversations = []
    for i, (language, size) in enumerate(plan, start=1):
        nth = seen.get(language, 0)
        seen[language] = nth + 1
        rng = random.Random(f"{seed}/{i}/{language}/{size}")
        conversations.append(_conversation(rng, i, WORDS[language], nth, size))
    return conversations


def _session_lengths(rng: random.Random, size: int, minimum: int) -> list[int]:
    lengths: list[int] = []
    while sum(lengths) < size or len(lengths) < minimum:
        lengths.append(rng.randint(*SESSION_LINES))
    return lengths


def _session_days(rng: random.Random, count: int) -> list[int]:
    """Day offsets of the sessions from START: short gaps, a few breaks, one long gap."""
    long_after = count // 2 - 1  # the long gap comes after this session
    days = [0]
    for k in range(1, count):
        if k - 1 == long_after:
            gap = rng.randint(*LONG_GAP_DAYS)
        elif rng.random() < BREAK_SHARE:
            gap = rng.randint(*BREAK_DAYS)
        else:
            gap = rng.randint(*SHORT_GAP_DAYS)
        days.append(days[-1] + gap)
    return days


def _place(
    rng: random.Random, story: Story, count: int, days: list[int], asked_day: int
) -> list[int]:
    """The sessions of a story's evidence lines, in order."""
    half = count // 2  # sessions before the long gap: 0 .. half-1
    n = len(story.evidence)
    if story.category == "return":
        first = rng.randrange(1, max(2, half // 2 + 1))
        last = rng.randrange(half + (count - half) // 2, count)
        return [first, last]
    if story.category == "dated":
        recent = [k for k in range(1, count) if asked_day - days[k] <= DATED_WITHIN_DAYS]
        return [rng.choice(recent)]
    if n == 1:
        return [rng.randrange(1, count)]
    return sorted(rng.sample(range(1, count), n))


def _conversation(rng: random.Random, index: int, w: Words, nth: int, size: int) -> Conversation:
    student = w.students[nth % len(w.students)]
    tutor = w.tutors[nth % len(w.tutors)]
    pair = Pair(f"syn{index}-{w.language}", "conversation")
    lengths = _session_lengths(rng, size, minimum=12)
    count = len(lengths)
    days = _session_days(rng, count)
    asked_day = days[-1] + 1
    favourite = rng.randrange(len(w.concepts))

    # evidence[session] = [(role, text, (story key, line index))]
    evidence: dict[int, list[Said]] = {}
    for story in w.stories:
        for j, session in enumerate(_place(rng, story, count, days, asked_day)):
            role: Role = "tutor" if story.evidence[j].startswith("{t}") else "student"
            text = story.evidence[j].format(s=student, t=tutor)
            evidence.setdefault(session, []).append((role, text, (story.key, j)))

    def said(role: Role, template: str, **extra: str) -> Said:
        text = template.format(s=student, t=tutor, day=rng.choice(w.days), **extra)
        if rng.random() >= UNNAMED_SHARE:
            text = f"{student if role == 'student' else tutor}: {text}"
        return role, text, None

    lines: list[Utterance] = []
    where: dict[tuple[str, int], str] = {}
    for session, length in enumerate(lengths):
        body: list[list[Said]] = []  # exchanges, shuffled into the session
        for told in evidence.get(session, []):
            # the tutor answers a story; a story the tutor tells stands alone
            body.append(
                [told] if told[0] == "tutor" else [told, said("tutor", rng.choice(w.reply))]
            )
        while sum(len(x) for x in body) + 4 < length:
            roll = rng.random()
            if roll < 0.3:
                body.append(
                    [said("student", rng.choice(w.small_talk)), said("tutor", rng.choice(w.reply))]
                )
                continue
            k = favourite if roll < 0.45 else rng.randrange(len(w.concepts))
            concept, explanation = w.concepts[k]
            template = w.ask[0] if k == favourite else rng.choice(w.ask)
            exchange = [said("student", template, c=concept), said("tutor", explanation)]
            if rng.random() < 0.3:
                exchange += [said("tutor", w.check, c=concept), said("student", rng.choice(w.ack))]
            body.append(exchange)
        rng.shuffle(body)
        script = [
            said("student", rng.choice(w.greet_student)),
            said("tutor", rng.choice(w.greet_tutor)),
        ]
        script += [line for exchange in body for line in exchange]
        script += [
            said("student", rng.choice(w.bye_student)),
            said("tutor", rng.choice(w.bye_tutor)),
        ]
        hour = rng.randint(14, 19)
        append_session(lines, where, pair, session, START + timedelta(days=days[session]), hour,
                       script, rng)  # fmt: skip

    asked_at = START + timedelta(days=asked_day, hours=18)
    questions = gold_questions(
        pair,
        [(s.key, len(s.evidence), s.category) for s in w.stories],
        [s.question for s in w.stories],
        where,
        lines,
        lambda question, month: question.format(s=student, t=tutor, month=w.months[month - 1]),
    )
    return Conversation(pair, w.language, student, tutor, tuple(lines), questions, asked_at)


def append_session(
    lines: list[Utterance],
    where: dict[tuple[str, int], str],
    pair: Pair,
    session: int,
    day: datetime,
    hour: int,
    script: Sequence[tuple[Role, str, tuple[str, int] | None]],
    rng: random.Random,
) -> None:
    """A session's lines from ``hour`` on ``day``, a few minutes apart; ``where`` learns the
    tid of each story line (shared by both generators)."""
    at = day + timedelta(hours=hour)
    for role, text, story_line in script:
        at += timedelta(seconds=rng.randint(40, 240))
        tid = f"{pair.student_id}/{len(lines):05d}"
        if story_line is not None:
            where[story_line] = tid
        lines.append(Utterance(tid, session, at, role, text))


def gold_questions(
    pair: Pair,
    stories: Sequence[tuple[str, int, str]],
    asked: Sequence[str],
    where: Mapping[tuple[str, int], str],
    lines: Sequence[Utterance],
    text: Callable[[str, int], str],
) -> tuple[GoldQuestion, ...]:
    """Each story's question (``asked``, filled by ``text`` with its first line's month) and
    its gold lines; ``stories`` are (key, evidence lines, category)."""
    by_tid = {u.tid: u for u in lines}
    questions = []
    for (key, count, category), question in zip(stories, asked, strict=True):
        gold = tuple(where[(key, j)] for j in range(count))
        questions.append(
            GoldQuestion(
                qid=f"{pair.student_id}/{key}",
                category=category,
                text=text(question, by_tid[gold[0]].at.month),
                gold=gold,
                sessions=len({by_tid[t].session for t in gold}),
            )
        )
    return tuple(questions)
