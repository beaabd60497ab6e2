"""What only the embedded store has: migrations, reopening a file, the in-memory lock."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.adapters.sqlite_store import MIGRATIONS, SqliteStore
from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.chain import seal
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory


def test_a_new_file_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    assert store.schema_version() == len(MIGRATIONS)
    mode = sqlite3.connect(tmp_path / "m.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_reopening_a_file_keeps_the_chain(tmp_path: Path, pair: Pair, clock: FixedClock) -> None:
    first = TutorMemory(Ports(SqliteStore(tmp_path / "m.db"), clock))
    first.record(pair, "question", "What is a cell?")
    first.record(pair, "question", "¿Qué es la ósmosis?")
    again = TutorMemory(Ports(SqliteStore(tmp_path / "m.db"), clock))
    assert again.ports.store.schema_version() == len(MIGRATIONS)
    assert [e.text for e in again.history(pair)] == ["What is a cell?", "¿Qué es la ósmosis?"]
    assert again.verify_chain(pair).intact


def test_an_in_memory_store_serialises_threads(pair: Pair) -> None:
    memory = TutorMemory(Ports(SqliteStore(":memory:")))

    def writer(n: int) -> None:
        for i in range(25):
            memory.record(pair, "question", f"{n}-{i}")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report = memory.verify_chain(pair)
    assert report.intact and report.episodes == 100


def test_a_version_1_file_is_upgraded_and_its_concepts_backfilled(
    tmp_path: Path, pair: Pair, clock: FixedClock
) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    first_migration = MIGRATIONS[0]
    assert isinstance(first_migration, str)
    conn.executescript(first_migration)
    conn.execute("PRAGMA user_version = 1")
    sealed = seal(
        NewEpisode(pair, Kind.QUESTION, "¿Qué es la ósmosis?", clock.at, concepts=("Ósmosis",)),
        None,
        version=1,  # a file of version 1 holds chain v1 episodes
    )
    record = episode_to_record(sealed)
    del record["request_hash"]  # a column of version 7
    for column in ("chain_version", "salt", "commitment", "erased"):  # version 8
        del record[column]
    conn.execute(
        f"INSERT INTO episodes ({', '.join(record)}) VALUES ({', '.join('?' * len(record))})",
        tuple(record.values()),
    )
    conn.execute(
        "INSERT INTO chain_heads VALUES (?, ?, 1, ?, ?)",
        (pair.student_id, pair.subject_id, sealed.hash, record["at"]),
    )
    conn.close()

    store = SqliteStore(path)
    assert store.schema_version() == len(MIGRATIONS)
    assert store.touching(pair, ["osmosis"]) == [sealed]
    assert TutorMemory(Ports(store, clock)).verify_chain(pair).intact


def test_reading_the_current_beliefs_does_not_walk_the_superseded_ones(
    tmp_path: Path, pair: Pair
) -> None:
    """A turn reads the current beliefs; a pair of months has thousands of superseded ones
    behind them. The work (SQLite's virtual-machine steps, not time) stays what it is for a
    pair with no history."""

    def belief(n: int, concept: str) -> Belief:
        return Belief(
            pair=pair,
            belief_id=f"b-{concept}-{n}",
            concept_key=concept,
            concept_name=concept.title(),
            claim=Claim.STRUGGLES if n % 2 else Claim.UNDERSTANDS,
            confidence=0.6,
            evidence_ids=(f"e{n}-{n:012x}",),
            created_at=datetime(2026, 7, 1, tzinfo=UTC) + timedelta(minutes=n),
            rule_version=1,
            reason=f"check {n}",
        )

    def steps(store: SqliteStore) -> int:
        counted = [0]

        def count() -> int:
            counted[0] += 1
            return 0

        with store._connection() as conn:  # this thread's connection: the one beliefs() uses
            conn.set_progress_handler(count, 10)
            try:
                assert [b.concept_key for b in store.beliefs(pair)] == ["cell", "osmosis"]
            finally:
                conn.set_progress_handler(None, 0)
        return counted[0]

    fresh, long = SqliteStore(tmp_path / "fresh.db"), SqliteStore(tmp_path / "long.db")
    for concept in ("osmosis", "cell"):
        fresh.add_belief(belief(0, concept), None)
        before = belief(0, concept)
        long.add_belief(before, None)
        for n in range(1, 1500):  # each check supersedes the belief before it
            after = belief(n, concept)
            long.add_belief(after, before)
            before = after
    assert len(long.belief_history(pair, "osmosis")) == 1500
    assert steps(long) <= 2 * steps(fresh) + 10
