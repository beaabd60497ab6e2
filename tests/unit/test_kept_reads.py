"""The embedded store keeps the turn's reads between turns (``adapters.pair_view``): what it
answers must be what its SQL answers from the file as it is now, after appends out of time
order, writes and erasures by another process, and for windows that do not hold everything."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair
from tutor_memory.domain.question import EPOCH
from tutor_memory.domain.timewindow import TimeWindow

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CONCEPTS = ("Osmosis", "Cell membrane", "Mitochondria", "Diffusion")
NEWEST = 5  # small cuts, so that appends push kept answers past them
LIMIT = 12
FAR = datetime(9999, 1, 1, tzinfo=UTC)  # as text, after the unpadded year too


def expected_recent(everything: list[Episode], limit: int, window: TimeWindow) -> list[Episode]:
    inside = [e for e in everything if window.start <= e.at < window.end]
    return sorted(inside, key=lambda e: (e.at, e.seq), reverse=True)[:limit]


def expected_touching(
    everything: list[Episode], keys: list[str], window: TimeWindow, newest: int
) -> list[int]:
    seqs: set[int] = set()
    for key in keys:
        linked = [
            e.seq
            for e in everything
            if window.start <= e.at < window.end
            and not e.erased
            and key in {concept_key(c) for c in e.concepts}
        ]
        seqs.update(sorted(linked, reverse=True)[:newest])
    return sorted(seqs)


def append_some(store: SqliteStore, pair: Pair, rng: random.Random, n: int) -> None:
    for _ in range(n):
        # Times out of order (a replayed or backdated episode), some equal.
        at = START + timedelta(hours=rng.choice([rng.randrange(0, 400), 200]))
        store.append(
            NewEpisode(
                pair,
                Kind.QUESTION,
                f"question {rng.random()}",
                at,
                concepts=tuple(rng.sample(CONCEPTS, rng.randrange(0, 3))),
            )
        )


def check(store: SqliteStore, truth: SqliteStore, pair: Pair, now: datetime) -> None:
    """``store`` (whose kept reads are exercised) against the rows as they are on disk."""
    everything = truth.episodes(pair)
    windows = [
        TimeWindow(EPOCH, now),  # the turn's: holds the whole history
        TimeWindow(START + timedelta(hours=100), now),  # from a start on
        TimeWindow(START + timedelta(hours=50), START + timedelta(hours=150)),  # named time
    ]
    for window in windows:
        got = store.recent(pair, LIMIT, window)
        want = expected_recent(everything, LIMIT, window)
        assert [(e.seq, e.text, e.erased) for e in got] == [(e.seq, e.text, e.erased) for e in want]
        keys = [concept_key(c) for c in CONCEPTS[:2]]
        touched = store.touching(pair, keys, window, newest=NEWEST)
        assert [e.seq for e in touched] == expected_touching(everything, keys, window, NEWEST)
    ids = [e.episode_id for e in everything[::3]] + ["ep-unknown", everything[0].episode_id]
    assert [(e.episode_id, e.text, e.erased) for e in store.get_many(pair, ids)] == [
        (e.episode_id, e.text, e.erased) for e in everything[::3] + everything[:1]
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_reads_follow_appends_out_of_time_order(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    pair = Pair("student-1", "biology")
    store = SqliteStore(tmp_path / "m.db")
    now = START + timedelta(days=30)
    append_some(store, pair, rng, 30)
    for n in (1, 3, 0, LIMIT + 4, 2):  # a few, none, more than a kept answer holds
        append_some(store, pair, rng, n)
        check(store, SqliteStore(tmp_path / "m.db"), pair, now)


def test_another_process_s_appends_and_erasures_are_seen(tmp_path: Path) -> None:
    rng = random.Random(4)
    pair = Pair("student-1", "biology")
    turn_side = SqliteStore(tmp_path / "m.db")
    writer = SqliteStore(tmp_path / "m.db")  # another process's connection to the same file
    now = START + timedelta(days=30)
    append_some(writer, pair, rng, 25)
    check(turn_side, writer, pair, now)
    append_some(writer, pair, rng, 4)
    check(turn_side, writer, pair, now)
    newest = turn_side.recent(pair, LIMIT, TimeWindow(EPOCH, now))[0]
    writer.erase(
        pair,
        [newest.seq, 3],
        at=now,
        reason="asked by the student",
        requested_by="student-1",
        scope="episode",
    )
    # Asked first for the episode it decoded before the erasure: the erased row, not the copy.
    again = turn_side.get_many(pair, [newest.episode_id])
    assert again[0].erased and again[0].text != newest.text
    check(turn_side, writer, pair, now)


def test_another_pair_s_writes_leave_a_pair_s_kept_reads_alone(tmp_path: Path) -> None:
    rng = random.Random(5)
    one, other = Pair("student-1", "biology"), Pair("student-2", "biology")
    store = SqliteStore(tmp_path / "m.db")
    now = START + timedelta(days=30)
    append_some(store, one, rng, 20)
    append_some(store, other, rng, 20)
    check(store, store, one, now)
    store.erase(other, [1, 2], at=now, reason="r", requested_by="s", scope="episode")
    append_some(store, other, rng, 3)
    check(store, SqliteStore(tmp_path / "m.db"), one, now)
    check(store, SqliteStore(tmp_path / "m.db"), other, now)


def test_a_time_that_sorts_differently_as_text_falls_back_to_the_store_s_order(
    tmp_path: Path,
) -> None:
    """A row written before years were padded (``999-…``) sorts after every other as text;
    the store's SQL orders by the text, so the kept reads must not reorder it by time."""
    pair = Pair("student-1", "biology")
    store = SqliteStore(tmp_path / "m.db")
    append_some(store, pair, random.Random(6), 10)
    conn = sqlite3.connect(tmp_path / "m.db")
    conn.execute(
        "UPDATE episodes SET at = ? WHERE seq = 4", (format_time(START)[1:].replace("026", "999"),)
    )
    conn.commit()
    window = TimeWindow(EPOCH, START + timedelta(days=30))
    fresh = SqliteStore(tmp_path / "m.db")
    rows = sqlite3.connect(tmp_path / "m.db").execute(
        "SELECT seq FROM episodes WHERE at >= ? ORDER BY at DESC, seq DESC LIMIT 5",
        (format_time(window.start),),
    )
    by_text = [r[0] for r in rows]
    assert by_text[0] == 4
    assert [e.seq for e in fresh.recent(pair, 5, TimeWindow(window.start, FAR))] == by_text


def test_a_server_keeps_the_reads_of_its_most_recently_asked_pairs_only(tmp_path: Path) -> None:
    """Memory follows the active pairs: past ``KEPT_PAIR_VIEWS`` pairs the least recently
    asked is dropped, and asked again it is read afresh, right."""
    rng = random.Random(7)
    store = SqliteStore(tmp_path / "m.db")
    now = START + timedelta(days=30)
    pairs = [Pair(f"student-{n}", "biology") for n in range(C.KEPT_PAIR_VIEWS + 5)]
    for pair in pairs:
        append_some(store, pair, rng, 3)
        store.recent(pair, LIMIT, TimeWindow(EPOCH, now))
    assert len(store._views) == C.KEPT_PAIR_VIEWS
    assert (pairs[0].student_id, pairs[0].subject_id) not in store._views
    check(store, store, pairs[0], now)
