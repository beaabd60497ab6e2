"""Long, hard synthetic conversations for the recall bench: seeded, five languages.

The first generator (``conversations``) is easy: the product finds every gold line for nearly
all of its questions, while on real held-out conversations it does so for two questions in
three. Real long chats are hard for reasons this generator reproduces:

* **length and time**: hundreds of lines per pair (``PLAN``: 400 to 1,200) in sessions of 10–40
  lines on different days, short gaps, a few breaks of weeks and one gap of two months or more;
* **a cast**: the student and the tutor by name ("Maya: …" on most lines), and the people of the
  student's life (a sister, a friend, a coach, a pet), who come back session after session, so
  every name is an everyday word of the pair and matches hundreds of lines;
* **small talk and repetition**: greetings, "ok", "thanks", the tutor's "shall we go on?", the
  same favourite question word for word in many sessions (and the same explanation each time),
  near-duplicates that differ in punctuation or in the name prefix, study talk about the pair's
  subject;
* **replies** (``reply``): the answer lies only in a turn whose own words are bare ("we went
  bowling, she loved it"); the topic is in the line it answers. Only the reply is gold;
* **facts said once, asked in other words** (``paraphrase``), said early and asked months later;
* **evidence split over two to four sessions** (``multi-session``), each piece in its own words;
* **topics that return** after the long gap (``return``), **dated** questions that name a month
  while the same topic comes up in another month too, and plain ``single`` facts;
* **near misses**: for every story, lines in other sessions that share the question's words or
  meaning and answer nothing (the friend's birthday beside the sister's).

With ``long_answers`` the tutor explains as a chat model writes: the concept asked about, then
two to five others of the subject, then a check (``_long_answer``; 40–120 words). The student's
lines, the stories and the questions are the same kinds; a quarter to a third of a pair's
distinct texts become paragraphs, which shifts what the pair's "typical" text is. With
``merged_turns`` the student tells each story line (its facts, its near misses, its prompts)
inside a longer message, as students write: small talk before it, a question on the subject
after it, or both (``_merged``); what is added shares no word with the story's question.
With ``first_person`` the same history is asked as the student asks (``long_first_person``:
"What kind of dog do I have?"), the turn's own shape; the questions name no one. Without
``speaker_names`` no line begins with its speaker's name, as the product records a chat (the
episode's kind says who spoke) and as many transcripts are kept: the student's name is then
said only where someone says it ("Hi Maya! How are you?"). With ``echoing_tutor`` the tutor
answers a student's news as a chat model does, saying its word back ("Oh, pottery? Tell me
more about that.", ``long_words.ECHOES``) where the plain set's tutor says "I see.". With
``real_small_talk`` the English pairs' small talk is real people's chat (``real_small_talk``),
with ``real_chat`` every filler line of theirs (the study talk too).

Every story line is said exactly once in its pair (gold text is unique), while the filler
repeats. Each pair asks one question per story (18), a day after its last session
(``Conversation.asked_at``). The student's lines become ``question`` episodes, the tutor's
``answer`` episodes. The words are in ``long_words``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Final

from tutor_memory.bench.conversations import (
    Conversation,
    Role,
    Utterance,
    append_session,
    gold_questions,
)
from tutor_memory.bench.long_first_person import FIRST_PERSON
from tutor_memory.bench.long_words import (
    ECHOES,
    WORDS,
    LongStory,
    LongWords,
    Subject,
    content_words,
    echoed,
)
from tutor_memory.bench.real_small_talk import RealTalk
from tutor_memory.domain.episodes import Pair

START: Final = datetime(2025, 8, 25, tzinfo=UTC)
# (language, lines) per pair: every language, 400 to 1,200 lines, ~5,200 lines in all (about
# 1,950 distinct texts and 144 questions for seed 7, which two CPU cores embed in minutes).
PLAN: Final[tuple[tuple[str, int], ...]] = (
    ("en", 1200),
    ("es", 800),
    ("id", 700),
    ("ur", 600),
    ("ar", 600),
    ("en", 500),
    ("es", 400),
    ("ar", 400),
)
SESSION_LINES: Final = (10, 40)  # lines in a session, at least and at most
STORY_ITEMS_PER_SESSION: Final = 5  # story exchanges (evidence, near misses) a session takes
UNNAMED_SHARE: Final = 0.15  # filler lines written without "Name: "
VARIED_SHARE: Final = 0.1  # filler lines whose punctuation differs (near-duplicates)
FAVOURITE_SHARE: Final = 0.2  # study exchanges that are the favourite question
SHORT_GAP_DAYS: Final = (1, 5)
BREAK_DAYS: Final = (14, 35)  # an occasional break of weeks
BREAK_SHARE: Final = 0.06
LONG_GAP_DAYS: Final = (62, 85)  # the one long break of every pair (return stories span it)
DATED_WITHIN_DAYS: Final = 330  # "in March" must name the last March before the question

Said = tuple[Role, str, tuple[str, int] | None]  # who, the line, which evidence line it is


@dataclass(frozen=True)
class Cast:
    """The people of one pair: the nth name of each list, so pairs of a language differ."""

    student: str
    tutor: str
    sister: str
    friend: str
    coach: str
    pet: str
    place: str

    @property
    def names(self) -> tuple[str, ...]:
        return (
            self.student,
            self.tutor,
            self.sister,
            self.friend,
            self.coach,
            self.pet,
            self.place,
        )

    def fill(self, template: str, **extra: str) -> str:
        return template.format(
            s=self.student,
            t=self.tutor,
            sis=self.sister,
            fr=self.friend,
            co=self.coach,
            pet=self.pet,
            place=self.place,
            **extra,
        )


def cast(w: LongWords, nth: int) -> Cast:
    """The cast of the nth pair of a language."""

    def pick(names: tuple[str, ...]) -> str:
        return names[nth % len(names)]

    return Cast(
        pick(w.students),
        pick(w.tutors),
        pick(w.sisters),
        pick(w.friends),
        pick(w.coaches),
        pick(w.pets),
        pick(w.places),
    )


@dataclass(frozen=True)
class Shape:
    """How a pair's chat is told and asked (see the module); the default is the plain set."""

    long_answers: bool = False
    merged_turns: bool = False
    first_person: bool = False
    speaker_names: bool = True
    echoing_tutor: bool = False
    real_small_talk: bool = False
    real_chat: bool = False


def generate_long_conversations(
    seed: int = 7,
    plan: Sequence[tuple[str, int]] = PLAN,
    *,
    long_answers: bool = False,
    merged_turns: bool = False,
    first_person: bool = False,
    speaker_names: bool = True,
    echoing_tutor: bool = False,
    real_small_talk: bool = False,
    real_chat: bool = False,
) -> list[Conversation]:
    shape = Shape(
        long_answers,
        merged_turns,
        first_person,
        speaker_names,
        echoing_tutor,
        real_small_talk,
        real_chat,
    )
    seen: dict[str, int] = {}
    conversations = []
    for i, (language, size) in enumerate(plan, start=1):
        nth = seen.get(language, 0)
        seen[language] = nth + 1
        rng = random.Random(f"long/{seed}/{i}/{language}/{size}")
        # its own numbers: the rest of the pair draws what the plain set draws
        talk = (
            RealTalk(random.Random(f"long-talk/{seed}/{i}"))
            if (real_small_talk or real_chat) and language == "en"
            else None
        )
        conversations.append(_conversation(rng, i, WORDS[language], nth, size, shape, talk))
    return conversations


def _session_lengths(rng: random.Random, size: int) -> list[int]:
    lengths: list[int] = []
    while sum(lengths) < size:
        lengths.append(rng.randint(*SESSION_LINES))
    # the last session takes what is left (at least the minimum): the pair has about `size` lines
    lengths[-1] = max(SESSION_LINES[0], size - sum(lengths[:-1]))
    return lengths


def _session_days(rng: random.Random, count: int, long_after: int) -> list[int]:
    """Day offsets of the sessions from START: short gaps, breaks of weeks (one at least), one
    long gap (after session ``long_after``)."""
    a_break = rng.choice([k for k in range(count - 1) if k != long_after])
    days = [0]
    for k in range(1, count):
        if k - 1 == long_after:
            gap = rng.randint(*LONG_GAP_DAYS)
        elif k - 1 == a_break or rng.random() < BREAK_SHARE:
            gap = rng.randint(*BREAK_DAYS)
        else:
            gap = rng.randint(*SHORT_GAP_DAYS)
        days.append(days[-1] + gap)
    return days


class _Placer:
    """Chooses sessions for story exchanges, at most STORY_ITEMS_PER_SESSION in each."""

    def __init__(self, rng: random.Random, count: int) -> None:
        self.rng = rng
        self.load = [0] * count

    def pick(self, candidates: Sequence[int]) -> int:
        free = [k for k in candidates if self.load[k] < STORY_ITEMS_PER_SESSION]
        k = self.rng.choice(free or list(candidates))
        self.load[k] += 1
        return k


def _month(day: int) -> int:
    return (START + timedelta(days=day)).month


def _place(
    placer: _Placer,
    story: LongStory,
    count: int,
    long_after: int,
    days: list[int],
    asked_day: int,
) -> list[int]:
    """The sessions of a story's evidence lines, in order (session 0 holds none)."""
    before = range(1, long_after + 1)
    after = range(long_after + 1, count)
    n = len(story.evidence)
    if story.category == "return":
        return [placer.pick(before), placer.pick(after)]
    if story.category == "paraphrase":  # said early, asked many sessions later
        return [placer.pick(range(1, max(2, count // 2)))]
    if story.category == "dated":
        recent = [k for k in range(1, count) if asked_day - days[k] <= DATED_WITHIN_DAYS]
        return [placer.pick(recent)]
    if n == 1:
        return [placer.pick(range(1, count))]
    # one piece in each of n stretches of the conversation: months apart
    bounds = [1 + (count - 1) * j // n for j in range(n + 1)]
    return [placer.pick(range(bounds[j], bounds[j + 1])) for j in range(n)]


def _vary(rng: random.Random, text: str) -> str:
    """Now and then the same line with other punctuation: "ok" / "ok!!" / "ok."."""
    if rng.random() >= VARIED_SHARE:
        return text
    stem = text.rstrip(".!?۔؟")
    end = text[len(stem) :]
    if not end:
        return stem + rng.choice(("!", "..."))
    if end[-1] in ".۔":
        return rng.choice((stem, stem + "!"))
    return rng.choice((stem, stem + end[-1] * 2))


def _conversation(
    rng: random.Random,
    index: int,
    w: LongWords,
    nth: int,
    size: int,
    shape: Shape,
    talk: RealTalk | None = None,
) -> Conversation:
    people = cast(w, nth)
    subject = w.subjects[nth % len(w.subjects)]
    pair = Pair(f"long{index}-{w.language}", "conversation")
    lengths = _session_lengths(rng, size)
    count = len(lengths)
    long_after = rng.randint(count * 2 // 5, count * 3 // 5 - 1)  # the long gap comes after it
    days = _session_days(rng, count, long_after)
    asked_day = days[-1] + 1
    favourite = rng.randrange(len(subject.concepts))
    placer = _Placer(rng, count)

    def said(role: Role, template: str, *, vary: bool = True, **extra: str) -> Said:
        """A filler line, mostly with the speaker's name before it."""
        text = people.fill(template, day=rng.choice(w.days), **extra)
        if vary:
            text = _vary(rng, text)
        if rng.random() >= UNNAMED_SHARE:
            text = f"{people.student if role == 'student' else people.tutor}: {text}"
        return role, text, None

    def story_line(template: str, key: tuple[str, int] | None = None, question: str = "") -> Said:
        role: Role = "tutor" if template.startswith("{t}") else "student"
        text = people.fill(template, day=rng.choice(w.days))
        if shape.merged_turns and role == "student":
            text = _merged(rng, w, people, subject, text, question)
        return role, text, key

    def reaction(to: str) -> Said:
        """The tutor's answer to what the student told (``to``): a generic line, or with
        ``echoing_tutor`` the news's own word said back, as a chat model answers."""
        word = echoed(to, w.language, people.names) if shape.echoing_tutor else ""
        if word:
            return said("tutor", rng.choice(ECHOES[w.language]), echo=word)
        return said("tutor", rng.choice(w.reaction))

    def answered(line: Said) -> list[Said]:
        """A story line and the other speaker's short answer to it."""
        if line[0] == "student":
            return [line, reaction(line[1])]
        return [line, said("student", rng.choice(w.ack))]

    # The small-talk exchanges that real people's words will replace, by identity (each kept
    # here, so that no later list takes a discarded one's id): they are given their chat's
    # turns once the session's order is drawn, so that a chat reads in its order.
    small: dict[int, list[Said]] = {}

    def small_talk() -> list[Said]:
        """A line of small talk and its answer (with ``talk``, real people's words later, in
        their place: the same numbers drawn, the same speakers named)."""
        exchange = answered(said("student", rng.choice(w.small_talk)))
        small[id(exchange)] = exchange
        return exchange

    def real_small(exchange: list[Said]) -> list[Said]:
        assert talk is not None
        real = []
        for (role, text, key), words in zip(exchange, talk.exchange(), strict=True):
            name = people.student if role == "student" else people.tutor
            real.append((role, f"{name}: {words}" if text.startswith(f"{name}: ") else words, key))
        return real

    def realised(exchange: list[Said]) -> list[Said]:
        """With ``real_chat``: each line the chat's next turn, said by whichever of its two
        speakers says it, named as the plain line was (or not)."""
        assert talk is not None
        real = []
        for role, text, key in exchange:
            named = text.startswith(f"{people.student if role == 'student' else people.tutor}: ")
            speaker, words = talk.turn()
            name = people.student if speaker == "student" else people.tutor
            real.append((speaker, f"{name}: {words}" if named else words, key))
        return real

    def filler() -> list[Said]:
        """Small talk, the tutor's "shall we go on?", or a concept asked and explained."""
        roll = rng.random()
        if roll < 0.3:
            return small_talk()
        if roll < 0.4:
            return [said("tutor", rng.choice(w.tutor_prompts)), said("student", rng.choice(w.ack))]
        k = favourite if rng.random() < FAVOURITE_SHARE else rng.randrange(len(subject.concepts))
        concept, explanation = subject.concepts[k]
        template = w.ask[0] if k == favourite else rng.choice(w.ask)
        if shape.long_answers:
            explanation = _long_answer(rng, subject.concepts, k, rng.choice(w.check))
        exchange = [said("student", template, c=concept), said("tutor", explanation, vary=False)]
        if rng.random() < 0.3:
            exchange += [
                said("tutor", rng.choice(w.check), c=concept),
                said("student", rng.choice(w.ack)),
            ]
        return exchange

    about = [
        [line for line in w.small_talk if key in line] for key in ("{sis}", "{fr}", "{co}", "{pet}")
    ]
    # exchanges[session] = the story exchanges said in it
    exchanges: dict[int, list[list[Said]]] = {}
    for story in w.stories:
        sessions = _place(placer, story, count, long_after, days, asked_day)
        for j, session in enumerate(sessions):
            asked_about = people.fill(story.question, month=w.months[0])
            line = story_line(story.evidence[j], (story.key, j), asked_about)
            if story.prompt:
                asked = story_line(story.prompt)
                follow = (
                    reaction(line[1]) if asked[0] == "tutor" else said("student", rng.choice(w.ack))
                )
                exchanges.setdefault(session, []).append([asked, line, follow])
            else:
                exchanges.setdefault(session, []).append(answered(line))
        others = [k for k in range(1, count) if k not in sessions]
        if story.category == "dated":  # the same topic, in another month
            said_in = _month(days[sessions[0]])
            others = [k for k in others if _month(days[k]) != said_in] or others
        for near in story.near:
            exchanges.setdefault(placer.pick(others), []).append(answered(story_line(near)))

    lines: list[Utterance] = []
    where: dict[tuple[str, int], str] = {}
    for session, length in enumerate(lengths):
        if talk is not None:
            talk.next_session()
        body = list(exchanges.get(session, []))
        # the people of her life come back: one of them by turns in every session
        body.append(answered(said("student", rng.choice(about[session % len(about)]))))
        # filler up to the session's length (greetings and goodbyes are 4 more lines)
        fillers: set[int] = set()
        while (room := length - 4 - sum(len(x) for x in body)) > 0:
            exchange = filler()
            if len(exchange) > room:
                exchange = small_talk() if room >= 2 else [said("student", rng.choice(w.ack))]
            body.append(exchange)
            fillers.add(id(exchange))
        rng.shuffle(body)
        if talk is not None:  # real people's words, in the session's order
            body = [
                realised(x)
                if shape.real_chat and id(x) in fillers
                else real_small(x)
                if not shape.real_chat and id(x) in small
                else x
                for x in body
            ]
        greeting = [
            said("student", rng.choice(w.greet_student)),
            said("tutor", rng.choice(w.greet_tutor)),
        ]
        if rng.random() < 0.3:
            greeting.reverse()
        script = greeting + [line for exchange in body for line in exchange]
        script += [
            said("student", rng.choice(w.bye_student)),
            said("tutor", rng.choice(w.bye_tutor)),
        ]
        hour = rng.randint(15, 20)
        append_session(lines, where, pair, session, START + timedelta(days=days[session]), hour,
                       script, rng)  # fmt: skip

    if not shape.speaker_names:  # as the product records a chat: the episode's kind says who spoke
        lines = [replace(u, text=_unnamed(u, people)) for u in lines]
    asked_at = START + timedelta(days=asked_day, hours=18)
    questions = gold_questions(
        pair,
        [(s.key, len(s.evidence), s.category) for s in w.stories],
        # the student's own words (``long_first_person``): the history stays the same
        [FIRST_PERSON[w.language][s.key] if shape.first_person else s.question for s in w.stories],
        where,
        lines,
        lambda question, month: people.fill(question, month=w.months[month - 1]),
    )
    return Conversation(
        pair, w.language, people.student, people.tutor, tuple(lines), questions, asked_at
    )


def _unnamed(line: Utterance, people: Cast) -> str:
    """A line without its speaker's leading name ("Maya: I got 72!" → "I got 72!")."""
    speaker = people.student if line.role == "student" else people.tutor
    return line.text.removeprefix(f"{speaker}: ")


def _long_answer(
    rng: random.Random, concepts: Sequence[tuple[str, str]], k: int, check: str
) -> str:
    """A tutor's answer as a chat model writes it: the concept asked about, then two to five
    others of the subject it leads to, then a check — one paragraph, ~40-120 words."""
    others = [j for j in range(len(concepts)) if j != k]
    rng.shuffle(others)
    told = [concepts[j][1] for j in others[: rng.randint(2, 5)]]
    return " ".join([concepts[k][1], *told, check.replace("{c}", concepts[k][0])])


_FULL_STOP: Final = {"ur": "۔"}  # the others end a sentence with "."


def _merged(
    rng: random.Random, w: LongWords, people: Cast, subject: Subject, line: str, question: str
) -> str:
    """A student's line as one message among other things, as students write: a bit of small
    talk before it, a question on the subject after it, or both ("Maya: school was so long
    today. we spent half-term on the farm… can you explain diffusion again?"). What is added
    shares no word with the story's question (``question``; "" for none): a paraphrase stays
    a paraphrase, and no question is made easier by chance."""
    asked = content_words(question, w.language, people.names)

    def clear(text: str) -> bool:
        said = content_words(text, w.language, people.names)
        return not any(a == b or (a[:4] == b[:4] and min(len(a), len(b)) >= 4)
                       for a in asked for b in said)  # fmt: skip

    name = f"{people.student}: "
    fact = line.removeprefix(name)
    stop = _FULL_STOP.get(w.language, ".")
    parts = [fact if fact.endswith((".", "!", "?", "؟", "۔", "…")) else fact + stop]
    before = rng.random() < 0.5
    if before:
        day = rng.choice(w.days)
        talk = [t for t in (people.fill(x, day=day) for x in w.small_talk) if clear(t)]
        if talk:
            parts.insert(0, rng.choice(talk) + stop)
    if not before or rng.random() < 0.5:
        concepts = [c for c, _e in subject.concepts]
        asks = [people.fill(a, c=c) for a in w.ask for c in concepts]
        asks = [a for a in asks if clear(a)]
        if asks:
            parts.append(rng.choice(asks))
    return name + " ".join(parts)
