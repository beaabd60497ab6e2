"""Generated histories through the library door (``make fuzz``; bounded in ``make test``).

Where the REST and MCP fuzzers send one bad request at a time, this sends a whole history:
questions, answers, checks, quizzes and taught notes in five languages, at times out of
order, with corrections of corrections, erasures and nights of the nightly loop among them.
What must hold whatever the history:

* every call answers or refuses with a domain error (a ``ValidationError``, a ``NotFoundError``
  for a pair with no record yet) — never a crash, and never a pair left broken for its next
  call (a verdict corrected back and forth at one time once made every later check and turn
  of the pair fail);
* the block fits its budget, the same turn twice is the same block, its earlier work is
  oldest first with no line twice, and an erased episode is in neither its text nor its ids;
* the chain and the profile verify, and the student's export replayed into a new store gives
  the same blocks, beliefs and profile;
* the same history written to DynamoDB (moto) gives the same blocks, beliefs and profile as on
  the embedded store.
"""

from __future__ import annotations

import os
import re
import tempfile
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st
from moto import mock_aws

from tutor_memory import Memory, PairMemory
from tutor_memory.adapters.dynamo import DynamoStore
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.domain.tokens import count_tokens
from tutor_memory.local_backend import LocalBackend
from tutor_memory.ports import FixedClock
from tutor_memory.replay import replay
from tutor_memory.settings import Settings, on_folder

LONG = os.environ.get("TUTOR_MEMORY_FUZZ_LONG") == "1"
# Bounded and the same every run in `make test`; `make fuzz` draws anew each time.
FUZZ = settings(
    max_examples=300 if LONG else 20,
    derandomize=not LONG,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
SETTINGS = Settings(embedder="none")
T0 = datetime(2026, 1, 1, 8, tzinfo=UTC)
NOW = datetime(2026, 6, 30, 12, tzinfo=UTC)
WORK = "EARLIER WORK WITH THIS STUDENT"
PAIR = Pair("s1", "bio")
BACK_AND_FORTH = ("right", "wrong", "right")  # a verdict corrected, corrected back, again
MONTHS = {m: n for n, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun"], start=1)}

MESSAGES = [
    "What is osmosis?", "¿Qué es la ósmosis?", "Apa itu osmosis?", "اوسموسس کیا ہے؟",
    "ما هو التناضح؟", "My name is Maya.", "My name is Mia.", "Me llamo Lucía.",
    "My exam is on 12 July.", "Mi examen es el 3 de julio.", "Ujian saya tanggal 5 Juli.",
    "میرا امتحان 12 جولائی کو ہے۔", "امتحاني يوم 12 يوليو.", "I prefer examples first.",
    "hi", "ok thanks", "mujhe samajh nahi aaya", "My dog is called Rex.",
    "Photosynthesis makes glucose from light. " * 12,
]  # fmt: skip
ANSWERS = ["Good job.", "Osmosis moves water across a membrane.", "La ósmosis mueve agua.",
           "Hi Maya! Ready?", "¡Hola Lucía! ¿Empezamos?"]  # fmt: skip
TAUGHT = [
    "Remember that osmosis needs a membrane.", "Recuerda que la ósmosis necesita una membrana.",
    "Ingat bahwa osmosis butuh membran.", "یاد رکھیں کہ اوسموسس کے لیے جھلی ضروری ہے۔",
    "تذكر أن التناضح يحتاج إلى غشاء.", "Remember that I keep a pet rabbit.",
]  # fmt: skip
TOPICS = ["osmosis", "ósmosis", "cells", "التناضح", "difusión"]
QUESTIONS = [
    "What did I get wrong so far?", "osmosis", "what is my name?", "¿cuándo es mi examen?",
    "hola", "pichle hafte humne kya parha tha?", "ماذا درسنا في مارس؟",
]  # fmt: skip

day = st.integers(0, 170)
step = st.one_of(
    st.tuples(st.just("question"), st.sampled_from(MESSAGES), day),
    st.tuples(st.just("question"), st.sampled_from(MESSAGES[5:9]), day),
    st.tuples(st.just("question"), st.text(min_size=1, max_size=80), day),
    st.tuples(st.just("answer"), st.sampled_from(ANSWERS), day),
    st.tuples(st.just("check"), st.sampled_from(TOPICS), day, st.sampled_from(["right", "wrong"])),
    st.tuples(st.just("quiz"), st.sampled_from(TOPICS), day, st.integers(0, 5)),
    # one of the first few episodes corrected (to a message, a verdict), at its own time or
    # now: few targets and few texts, so that an episode is corrected again and back
    st.tuples(
        st.just("correct"),
        st.integers(0, 3),
        st.sampled_from(MESSAGES[5:9]),
        st.sampled_from(["right", "wrong"]),
        st.one_of(st.none(), day),
    ),
    st.tuples(st.just("erase"), st.integers(0, 60)),
    st.tuples(st.just("teach"), st.sampled_from(TAUGHT), day),
    st.tuples(st.just("night"), day),
    # the student's other subject: the profile is one for both; the subject erased whole
    st.tuples(
        st.just("elsewhere"),
        st.sampled_from(["question", "answer"]),
        st.sampled_from(MESSAGES[5:9] + ANSWERS[3:]),
        day,
    ),
    st.tuples(st.just("erase elsewhere")),
    # a teacher's statement of the profile, and a retraction
    st.tuples(st.just("set"), st.sampled_from([("name", "Zoe"), ("preference", "Diagrams first")])),
    st.tuples(st.just("retract"), st.sampled_from(["name", "preference"])),
)


def _record(memory: Memory, pair: PairMemory, steps: Sequence[tuple[Any, ...]]) -> dict[str, str]:
    """Each step in turn; what each recorded episode was (its id → its text)."""
    recorded: list[tuple[str, str, str]] = []  # id, kind, text
    erased: dict[str, str] = {}
    for kind, *args in steps:
        try:
            if kind == "elsewhere":
                other = memory.pair("s1", "chem")
                record = other.record_question if args[0] == "question" else other.record_answer
                record(args[1], at=T0 + timedelta(days=args[2]))
            elif kind == "erase elsewhere":
                memory.erase("s1", "chem", reason="the family asked")
            elif kind == "set":
                memory.set_profile("s1", *args[0])
            elif kind == "retract":
                memory.retract_profile("s1", args[0])
            elif kind == "night":  # the nightly loop, as the scheduler runs it on this store
                assert isinstance(memory.backend, LocalBackend)
                memory.backend.app.nightly.run_pair(PAIR, (T0 + timedelta(days=args[0])).date())
            elif kind in ("question", "answer", "check", "quiz", "teach"):
                at = T0 + timedelta(days=args[1])
                if kind == "question":
                    made = pair.record_question(args[0], at=at)
                elif kind == "teach":
                    made = pair.record_taught(args[0], at=at)
                elif kind == "answer":
                    made = pair.record_answer(args[0], at=at)
                elif kind == "check":
                    made = pair.record_check(f"Explain {args[0]}", topic=args[0], verdict=args[2],
                                             at=at)  # fmt: skip
                else:
                    made = pair.record_quiz("Weekly quiz", score=args[2], maximum=5,
                                            topics=[args[0]], at=at)  # fmt: skip
                recorded.append((made.id, kind, args[0]))
            elif kind == "correct" and recorded:
                target, what, _text = recorded[args[0] % len(recorded)]
                at = None if args[3] is None else T0 + timedelta(days=args[3])
                if what == "question":
                    made = pair.correct(target, "text", args[1], "not what I meant", at=at)
                elif what == "check":
                    made = pair.correct(target, "verdict", args[2], "marked by mistake", at=at)
                else:
                    continue
                recorded.append((made.id, "correction", ""))
            elif kind == "erase" and recorded:
                target, _what, text = recorded[args[0] % len(recorded)]
                memory.erase("s1", "bio", target, reason="the student asked")
                erased[target] = text
        except (ValidationError, NotFoundError):
            continue  # refused with a clear error: nothing to hold against the history
    return erased


def _has_history(pair: PairMemory) -> bool:
    """Whether anything was recorded (every step may have been refused)."""
    try:
        return bool(pair.episodes().episodes)
    except NotFoundError:
        return False


def _work_lines(block: str) -> list[str]:
    lines = block.splitlines()
    if WORK not in block:
        return []
    start = next(n for n, line in enumerate(lines) if line.startswith(WORK)) + 1
    out = []
    for line in lines[start:]:
        if not line.startswith("- "):
            break
        out.append(line)
    return out


@example([("erase", 0), ("question", "My exam is on 12 July.", 0),
          ("elsewhere", "question", "My exam is on 12 July.", 0), ("erase", 0)],
         "osmosis", 3000)  # fmt: skip
@FUZZ
@given(
    st.lists(step, min_size=5, max_size=60),
    st.sampled_from(QUESTIONS),
    st.integers(50, 3000),
)
def test_a_generated_history_gives_a_block_that_holds(
    steps: list[tuple[Any, ...]], question: str, budget: int
) -> None:
    note(repr(steps))
    with (
        tempfile.TemporaryDirectory() as folder,
        Memory.local(folder, settings=SETTINGS, clock=FixedClock(NOW), ready=False) as memory,
    ):
        pair = memory.pair("s1", "bio")
        erased = _record(memory, pair, steps)
        if not _has_history(pair):
            return
        turn = pair.turn(question, at=NOW, budget_tokens=budget)
        assert not turn.dropped
        assert pair.turn(question, at=NOW, budget_tokens=budget).block == turn.block
        assert count_tokens(turn.block) <= budget and turn.tokens <= budget
        assert not set(erased) & set(turn.memory_ids)
        other = memory.pair("s1", "chem")  # the profile is one: its words stay with it
        kept = [
            str(e.get(field, ""))  # a correction's words stay when a message saying them goes
            for subject in (pair, *([other] if _has_history(other) else []))
            for e in subject.episodes(limit=500).episodes
            for field in ("text", "summary")
        ]
        for text in erased.values():
            if len(text.strip()) > 8 and not any(text in k for k in kept):
                assert text not in turn.block.replace(question, "")
        work = _work_lines(turn.block)
        assert len(work) == len(set(work))
        dates = [re.match(r"- (\d{1,2}) (\w{3})", line) for line in work]
        firsts = [(MONTHS[d.group(2)], int(d.group(1))) for d in dates if d is not None]
        assert firsts == sorted(firsts)
        assert pair.verify().intact and memory.profile("s1").intact


def _seen(memory: Memory) -> tuple[Any, ...]:
    pair = memory.pair("s1", "bio")
    other = memory.pair("s1", "chem")
    return (
        [pair.turn(q, at=NOW).block for q in QUESTIONS],
        [other.turn(q, at=NOW).block for q in QUESTIONS[2:4]] if _has_history(other) else [],
        [b.line for b in pair.beliefs()],
        [(s.aspect, s.key, s.value) for s in memory.profile("s1").current],
    )


# What the drawn runs found, asked every time: a verdict corrected back and forth at one time
# (it bricked the pair), a message corrected back to its own words, a correction held back
# by a later message that is then erased, a back-dated check spelling its topic another way
# before an erasure re-derives the beliefs, the student's naming erased after the tutor
# greeted them by name, a name said in two subjects, the first back-dated after an erasure
# (the pairs' interleaving by time put the second first), a note erased after a check
# confirmed the concept it put on the map, a teacher's name before a back-dated message, and
# a check erased after a note put its concept on the map under another spelling, a note
# erased whose concept named a check's belief, and two subjects' greetings at one time.
@example([("check", "osmosis", 0, "wrong")] + [("correct", 0, "", v, None) for v in BACK_AND_FORTH])
@example([("question", "My name is Maya.", 0), ("correct", 0, "My name is Mia.", "", None),
          ("correct", 0, "My name is Maya.", "", None)])  # fmt: skip
@example([("question", "My name is Maya.", 0), ("question", "My name is Maya.", 0),
          ("correct", 0, "My name is Mia.", "", None), ("erase", 1)])  # fmt: skip
@example([("check", "ósmosis", 1, "right"), ("check", "osmosis", 0, "wrong"),
          ("check", "cells", 2, "right"), ("erase", 2)])  # fmt: skip
@example([("question", "My name is Maya.", 0), ("answer", "Hi Maya! Ready?", 1),
          ("erase", 0)])  # fmt: skip
@example([("question", "What is osmosis?", 0), ("erase", 0), ("question", "My name is Maya.", 0),
          ("elsewhere", "question", "My name is Mia.", 1)])  # fmt: skip
@example([("teach", "Remember that osmosis needs a membrane.", 0),
          ("check", "osmosis", 0, "right"), ("erase", 0)])  # fmt: skip
@example([("set", ("name", "Zoe")), ("question", "My name is Maya.", 0)])
@example([("check", "ósmosis", 0, "right"), ("check", "osmosis", 0, "right"),
          ("teach", "Remember that osmosis needs a membrane.", 0), ("erase", 1)])  # fmt: skip
@example([("teach", "Remember that osmosis needs a membrane.", 0),
          ("check", "ósmosis", 0, "right"), ("erase", 0)])  # fmt: skip
@example([("question", "What is osmosis?", 0), ("elsewhere", "answer", "Hi Maya! Ready?", 0),
          ("answer", "¡Hola Lucía! ¿Empezamos?", 0)])  # fmt: skip
@example([("question", "What is osmosis?", 0), ("question", "What is osmosis?", 0),
          ("question", "My name is Maya.", 0), ("set", ("name", "Zoe")),
          ("correct", 2, "My exam is on 12 July.", "right", None)])  # fmt: skip
@FUZZ
@given(st.lists(step, min_size=5, max_size=50))
def test_a_generated_history_replays_to_the_same_blocks_beliefs_and_profile(
    steps: list[tuple[Any, ...]],
) -> None:
    # A replay writes the log again and runs no night (its `--nightly` runs every night): a
    # night's belief decay and working set are not the log's to give back.
    steps = [step for step in steps if step[0] != "night"]
    note(repr(steps))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        with Memory.local(root / "a", settings=SETTINGS, clock=FixedClock(NOW)) as memory:
            pair = memory.pair("s1", "bio")
            _record(memory, pair, steps)
            if not _has_history(pair):
                return
            before = _seen(memory)
            history = memory.export("s1").write(root / "export")
        replay(
            history, root / "b", lambda f: build_app(on_folder(SETTINGS, f), clock=FixedClock(NOW))
        )
        with Memory.local(root / "b", settings=SETTINGS, clock=FixedClock(NOW)) as replayed:
            assert _seen(replayed) == before


# DynamoDB on moto is slower: fewer cases (150 under `make fuzz`).
ON_DYNAMODB = settings(FUZZ, max_examples=150 if LONG else 6)


@ON_DYNAMODB
@given(st.lists(step, min_size=5, max_size=40))
def test_a_generated_history_is_the_same_on_dynamodb(steps: list[tuple[Any, ...]]) -> None:
    note(repr(steps))
    with tempfile.TemporaryDirectory() as folder, mock_aws():
        root = Path(folder)
        seen = []
        with Memory.local(root / "embedded", settings=SETTINGS, clock=FixedClock(NOW)) as memory:
            _record(memory, memory.pair("s1", "bio"), steps)
            if not _has_history(memory.pair("s1", "bio")):
                return
            seen.append(_seen(memory))
        table = f"fuzz-{uuid.uuid4().hex[:12]}"
        DynamoStore(table, "us-east-1").create_table()
        cloud = Settings(
            backend="dynamodb", table_name=table, aws_region="us-east-1", embedder="none",
            index_path=root / "index.db",  # the embedded index in OpenSearch's place (no moto)
        )  # fmt: skip
        app = build_app(cloud, clock=FixedClock(NOW))
        assert isinstance(app.ports.store, DynamoStore)
        with Memory(LocalBackend(app)) as memory:
            _record(memory, memory.pair("s1", "bio"), steps)
            seen.append(_seen(memory))
        assert seen[1] == seen[0]
