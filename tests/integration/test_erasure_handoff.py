"""An erasure of whole pairs asked with a deadline (the API's Lambda answers within 15 s): what
its time covers goes now, the rest goes on in a worker (``ErasureTask``, on the nightly queue),
and asking again says how far it is — embedded store, the queue recorded; the same through the
API and the worker on moto is in test_erasure_handoff_cloud.py."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App
from tutor_memory.domain.chain import ERASURE_PENDING_DOCUMENT, WORKER_SILENT_S
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.ports import FixedClock
from tutor_memory.usecases import erasure, erasure_entries

from .test_erasure import make_app, raw_hits

T0 = datetime(2026, 9, 1, 15, 0, tzinfo=UTC)
ASKED = T0 + timedelta(days=3)
PAIR = Pair("s-handoff", "biology")
OTHER = Pair("s-handoff", "history")
MARKER = "quorbelyx"  # in every episode: found nowhere once the worker is done
EPISODES = 23  # five steps of five bodies


class RecordedQueue:
    """The nightly queue (SQS in the cloud, tested on moto beside): what was sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, bodies: list[str]) -> None:
        self.sent += [json.loads(b) for b in bodies]


def time_up() -> bool:
    return True  # a request whose time is up at its first look: one step, then the worker


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> App:
    monkeypatch.setattr(erasure_entries, "STEP_BODIES", 5)
    clock = FixedClock(T0)
    built = make_app(tmp_path, clock)
    assert built.erasing is not None
    built.erasing.queue = RecordedQueue()
    for pair in (PAIR, OTHER):
        for n in range(EPISODES):
            built.memory.record(
                pair, Kind.QUESTION, f"Does {MARKER} number {n} matter?",
                at=T0 + timedelta(minutes=n),
            )  # fmt: skip
    clock.at = ASKED
    return built


def at(app: App, moment: datetime) -> None:
    clock = app.ports.clock
    assert isinstance(clock, FixedClock)
    clock.at = moment


def indexed(app: App, pair: Pair) -> set[str]:
    """The pair's episodes the search index still holds."""
    assert app.ports.index is not None
    return app.ports.index.known_ids(pair, [e.episode_id for e in app.memory.history(pair)])


def sent(app: App) -> list[dict[str, Any]]:
    assert app.erasing is not None
    queue = app.erasing.queue
    assert isinstance(queue, RecordedQueue)
    return queue.sent


def alive(app: App, pair: Pair) -> list[int]:
    return [e.seq for e in app.memory.history(pair) if e.kind is Kind.QUESTION and not e.erased]


def work(app: App, message: dict[str, Any], until: Any = None) -> erasure.ErasureResult:
    """The consolidate worker's half (functions/consolidate/app.py): the task, continued."""
    assert app.erasing is not None
    return app.erasing.continue_erasure(
        [Pair(message["student_id"], s) for s in message["subjects"]],
        reason=message["reason"],
        requested_by=message["requested_by"],
        scope=message["erase"],
        until=until,
    )


def test_a_request_out_of_time_erases_one_step_and_a_worker_finishes_the_pair(
    app: App, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert app.erasing is not None
    done = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert not done.finished and done.pending == [str(PAIR)]
    assert done.erased == {str(PAIR): [1, 2, 3, 4, 5]}  # one step, oldest first
    assert alive(app, PAIR) == list(range(6, EPISODES + 1))
    assert sent(app) == [
        {"erase": "pair", "student_id": "s-handoff", "subjects": ["biology"],
         "reason": "parent asked", "requested_by": "api"}
    ]  # fmt: skip
    # Every body left is named by an entry, and a worker has them: the chain is intact and the
    # erasure under way (an operator's alarm on `verify` does not fire meanwhile).
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.pending == EPISODES - 5
    assert f"an erasure is under way: {EPISODES - 5} bodies still to be erased" in str(report)
    assert indexed(app, PAIR) == set()  # nothing recalled by topic meanwhile
    # nor as the newest lines: the block shows none of what the worker still has to erase
    assert MARKER not in app.turns.turn(PAIR, f"What did I ask about {MARKER}?").block
    assert MARKER in app.turns.turn(OTHER, f"What did I ask about {MARKER}?").block

    # Asked again while the worker is on it: "pending", nothing erased, nothing sent again.
    again = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert again.pending == [str(PAIR)] and again.erased == {str(PAIR): []}
    assert len(sent(app)) == 1

    with caplog.at_level(logging.INFO, logger="tutor_memory"):
        finished = work(app, sent(app)[0])
    assert finished.finished and finished.erased == {str(PAIR): list(range(6, EPISODES + 1))}
    # the worker's run is the erasure's normal path: said, not warned about (an alarm on
    # warnings would fire for every hand-off)
    said = [r for r in caplog.records if "the erasure of" in r.getMessage()]
    assert said and {r.levelno for r in said} == {logging.INFO}
    assert "going on with the erasure of 18 episodes" in said[0].getMessage()
    assert alive(app, PAIR) == []
    assert app.ports.store.document(PAIR, ERASURE_PENDING_DOCUMENT) is None
    head = app.ports.store.head(PAIR)
    assert head is not None and head.counts == {}  # no episode of the student's left
    assert app.memory.verify_chain(PAIR).intact

    # Asked again once it is done: finished, nothing to erase, nothing sent.
    last = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert last.finished and last.erased == {str(PAIR): []} and len(sent(app)) == 1
    assert alive(app, OTHER) == list(range(1, EPISODES + 1))  # the other subject untouched
    assert len(indexed(app, OTHER)) == EPISODES
    app.erasing.erase_pair(OTHER, reason="parent asked")  # (no deadline: all of it now)
    app.close()
    assert raw_hits(tmp_path, MARKER) == []


def test_a_worker_out_of_time_too_sends_the_rest_on_and_the_next_one_finishes(app: App) -> None:
    assert app.erasing is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    more = work(app, sent(app)[0], until=time_up)
    assert more.pending == [str(PAIR)] and more.erased == {str(PAIR): [6, 7, 8, 9, 10]}
    assert len(sent(app)) == 2 and sent(app)[1] == sent(app)[0]
    assert work(app, sent(app)[1]).finished
    assert alive(app, PAIR) == []
    assert app.memory.verify_chain(PAIR).intact


def test_a_mark_whose_worker_went_silent_is_sent_again_when_asked(app: App) -> None:
    assert app.erasing is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    at(app, ASKED + timedelta(seconds=WORKER_SILENT_S - 1))
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert len(sent(app)) == 1  # still within the worker's time
    assert app.memory.verify_chain(PAIR).intact
    at(app, ASKED + timedelta(seconds=WORKER_SILENT_S + 1))
    # No worker on it any more: the bodies left are an erasure cut short, as verify says.
    report = app.memory.verify_chain(PAIR)
    assert not report.intact and "an erasure cut short: asking again finishes it" in report.detail
    again = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert again.pending == [str(PAIR)] and len(sent(app)) == 2  # the message was lost: again
    assert work(app, sent(app)[1]).finished and alive(app, PAIR) == []


def test_a_worker_on_the_pair_hides_no_body_erased_without_an_entry(app: App) -> None:
    """The mark lets verify wait for the bodies the entries name, and for nothing else."""
    assert app.erasing is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    said = app.memory.record(PAIR, Kind.QUESTION, "And what about mitosis?", at=ASKED).episode
    assert app.memory.verify_chain(PAIR).intact
    app.ports.store.erase(
        PAIR, [said.seq], at=ASKED, reason="no one asked", requested_by="api", scope="episode"
    )  # erased beside the chain, with no entry naming it
    report = app.memory.verify_chain(PAIR)
    assert not report.intact and report.break_kind == "erasure record without an entry"
    assert report.break_seq == said.seq


def test_a_pair_too_long_for_one_pass_goes_to_the_worker_at_once(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.erasing is not None
    monkeypatch.setattr(erasure, "REQUEST_MAX_EPISODES", EPISODES - 1)
    done = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert done.pending == [str(PAIR)] and done.erased == {str(PAIR): []}
    assert alive(app, PAIR) == list(range(1, EPISODES + 1))  # not one body: no pass made
    assert indexed(app, PAIR) == set()  # but nothing recalled by topic
    assert len(sent(app)) == 1
    assert work(app, sent(app)[0]).finished and alive(app, PAIR) == []


def test_a_students_erasure_does_its_at_once_parts_and_leaves_its_pairs_to_the_worker(
    app: App,
) -> None:
    assert app.erasing is not None and app.profiles is not None
    app.profiles.set(PAIR.student_id, "name", "Quorbelyx", said_by="student", at=T0)
    done = app.erasing.erase_student(PAIR.student_id, reason="left school", until=time_up)
    assert done.pending == [str(PAIR), str(OTHER)]  # one step of the first, none of the second
    assert done.erased == {str(PAIR): [1, 2, 3, 4, 5], str(OTHER): []}
    assert app.profiles.in_force(PAIR.student_id) == []  # the profile goes at once
    assert indexed(app, OTHER) == set()  # unstarted, but recalled by topic no more
    # and its turns show nothing of it (its lines, its map, its beliefs) until the worker is done
    assert MARKER not in app.turns.turn(OTHER, f"What did I ask about {MARKER}?").block
    assert sent(app) == [
        {"erase": "student", "student_id": "s-handoff", "subjects": ["biology", "history"],
         "reason": "left school", "requested_by": "api"}
    ]  # fmt: skip
    finished = work(app, sent(app)[0])
    assert finished.finished and finished.scope == "student"
    assert alive(app, PAIR) == [] and alive(app, OTHER) == []
    again = app.erasing.erase_student(PAIR.student_id, reason="left school", until=time_up)
    assert again.finished and len(sent(app)) == 1
    for pair in (PAIR, OTHER):
        assert app.memory.verify_chain(pair).intact


def test_without_a_queue_the_caller_waits_for_all_of_it(app: App) -> None:
    """The CLI, the library, MCP and ``serve``: nobody to go on with it."""
    assert app.erasing is not None
    app.erasing.queue = None
    done = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert done.finished and done.erased == {str(PAIR): list(range(1, EPISODES + 1))}


def test_a_pair_a_worker_has_does_not_hold_back_the_students_other_pairs(app: App) -> None:
    assert app.erasing is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    done = app.erasing.erase_student(PAIR.student_id, reason="left school", until=time_up)
    assert done.erased == {str(PAIR): [], str(OTHER): [1, 2, 3, 4, 5]}
    assert done.pending == [str(PAIR), str(OTHER)]
    assert [m["subjects"] for m in sent(app)] == [["biology"], ["history"]]  # none sent twice
    for message in sent(app):
        assert work(app, message).finished
    assert alive(app, PAIR) == [] and alive(app, OTHER) == []


def test_the_night_of_a_pair_a_worker_is_erasing_writes_nothing(app: App) -> None:
    """Else a summary of the day's lines not yet erased would land after the erasure's
    entries, and outlive it."""
    assert app.erasing is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    head = app.ports.store.head(PAIR)
    report = app.nightly.run_pair(PAIR, T0.date())
    assert report.status == "erasing" and app.ports.store.head(PAIR) == head
    worked = ASKED + timedelta(days=1)  # the worker finishes the next day
    at(app, worked)
    assert work(app, sent(app)[0]).finished
    assert app.nightly.run_pair(OTHER, T0.date()).status == "done"  # (a night with work)
    assert app.nightly.run_pair(PAIR, T0.date()).status == "quiet"  # nothing left of the day
    # The worker filed the pair as active on the day it finished: that night anchors the chain.
    assert PAIR in app.nightly.active_pairs(worked.date())


class RefusingQueue:
    def send(self, bodies: list[str]) -> None:
        raise RuntimeError("the queue refused 1 message(s)")


def test_a_queue_that_refuses_the_rest_is_a_503_and_asking_again_goes_on(app: App) -> None:
    """No mark is left claiming a worker that will never come."""
    assert app.erasing is not None
    working = app.erasing.queue
    app.erasing.queue = RefusingQueue()
    with pytest.raises(StoreError, match="ask again"):
        app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert app.ports.store.document(PAIR, ERASURE_PENDING_DOCUMENT) is None
    assert alive(app, PAIR) == list(range(6, EPISODES + 1))  # the first step is kept
    app.erasing.queue = working
    again = app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    assert again.erased == {str(PAIR): [6, 7, 8, 9, 10]} and len(sent(app)) == 1
    assert work(app, sent(app)[0]).finished and alive(app, PAIR) == []


def test_an_erasure_cut_short_with_no_worker_on_it_is_warned_about_as_it_is_finished(
    app: App, caplog: pytest.LogCaptureFixture
) -> None:
    """The queue refused the rest, and the operator finishes it from the CLI (no deadline)."""
    assert app.erasing is not None
    app.erasing.queue = RefusingQueue()
    with pytest.raises(StoreError, match="ask again"):
        app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    with caplog.at_level(logging.INFO, logger="tutor_memory"):
        assert app.erasing.erase_pair(PAIR, reason="parent asked").finished
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("finishing, cut short before, the erasure of 18 episodes" in m for m in warned)
    assert alive(app, PAIR) == []


def test_asking_again_while_a_worker_has_it_or_once_done_sets_off_no_index_purge(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index's purge force-merges (OpenSearch): a client that polls must not set one off."""
    assert app.erasing is not None and app.ports.index is not None
    app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up)
    purges: list[float] = []
    monkeypatch.setattr(app.ports.index, "purge", lambda *, wait=0.0: purges.append(wait) or 0)
    for _ in range(3):
        assert not app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up).finished
    assert purges == []
    work(app, sent(app)[0])
    assert purges == [0.0]  # the worker's one
    assert app.erasing.erase_pair(PAIR, reason="parent asked", until=time_up).finished
    assert purges == [0.0]
