"""The embedded store's schema.

Schema changes are numbered migrations tracked in ``PRAGMA user_version``; some run a data
step (a function) after their tables.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from tutor_memory.domain.concepts import concept_key


def _backfill_concepts(conn: sqlite3.Connection) -> None:
    """Migration 2's data step: concept links for episodes written before it."""
    rows = conn.execute("SELECT student_id, subject_id, seq, at, concepts FROM episodes").fetchall()
    for student, subject, seq, at, concepts in rows:
        _link_concepts(conn, student, subject, seq, at, json.loads(concepts))


def _link_concepts(
    conn: sqlite3.Connection, student: str, subject: str, seq: int, at: str, names: list[str]
) -> None:
    for name in names:
        key = concept_key(name)
        if not key:
            continue
        conn.execute(
            "INSERT OR IGNORE INTO episode_concepts VALUES (?, ?, ?, ?, ?)",
            (student, subject, key, seq, at),
        )
        conn.execute(
            "INSERT OR IGNORE INTO concept_names VALUES (?, ?, ?, ?)", (student, subject, key, name)
        )


def _backfill_counts(conn: sqlite3.Connection) -> None:
    """Migration 5's data step: count the episodes of chains written before it."""
    heads = conn.execute("SELECT student_id, subject_id FROM chain_heads").fetchall()
    for student, subject in heads:
        counts = dict(
            conn.execute(
                "SELECT kind, count(*) FROM episodes WHERE student_id = ? AND subject_id = ? "
                "GROUP BY kind ORDER BY kind",
                (student, subject),
            ).fetchall()
        )
        conn.execute(
            "UPDATE chain_heads SET counts = ? WHERE student_id = ? AND subject_id = ?",
            (json.dumps(counts, sort_keys=True), student, subject),
        )


def _backfill_nightly(conn: sqlite3.Connection) -> None:
    """Migration 6's data step: the activity index and the verification queue of episodes
    written before it (``at`` is stored in UTC, so its first ten characters are the UTC day)."""
    conn.execute(
        "INSERT OR IGNORE INTO activity (day, student_id, subject_id) "
        "SELECT DISTINCT substr(at, 1, 10), student_id, subject_id FROM episodes"
    )
    conn.execute(
        "INSERT OR IGNORE INTO citations (student_id, subject_id, seq, episode_id) "
        "SELECT student_id, subject_id, seq, episode_id FROM episodes WHERE kind = 'answer'"
    )


def _add_request_hash(conn: sqlite3.Connection) -> None:
    columns = {row[1] for row in conn.execute("PRAGMA table_info(episodes)")}
    if "request_hash" not in columns:  # a store re-migrated from an older version has it
        conn.execute("ALTER TABLE episodes ADD COLUMN request_hash TEXT")


def _add_erased_keys(conn: sqlite3.Connection) -> None:
    """Migration 10: the erased keys' table, and the counts of heads whose pairs had episodes
    erased before the counts left them out."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS erased_keys (student_id TEXT NOT NULL, "
        "subject_id TEXT NOT NULL, digest TEXT NOT NULL, seq INTEGER NOT NULL, "
        "at TEXT NOT NULL, PRIMARY KEY (student_id, subject_id, digest)) WITHOUT ROWID"
    )
    pairs = conn.execute(
        "SELECT DISTINCT student_id, subject_id FROM episodes WHERE erased = 1"
    ).fetchall()
    for student, subject in pairs:
        counts = dict(
            conn.execute(
                "SELECT kind, count(*) FROM episodes WHERE student_id = ? AND subject_id = ? "
                "AND erased = 0 GROUP BY kind ORDER BY kind",
                (student, subject),
            ).fetchall()
        )
        conn.execute(
            "UPDATE chain_heads SET counts = ? WHERE student_id = ? AND subject_id = ?",
            (json.dumps(counts, sort_keys=True), student, subject),
        )


def _add_chain_v2(conn: sqlite3.Connection) -> None:
    """Migration 8 (a store re-migrated from an older version may have the columns)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(episodes)")}
    for column, kind in (
        ("chain_version", "INTEGER NOT NULL DEFAULT 1"),
        ("salt", "TEXT"),
        ("commitment", "TEXT"),
        ("erased", "INTEGER NOT NULL DEFAULT 0"),
    ):
        if column not in columns:
            conn.execute(f"ALTER TABLE episodes ADD COLUMN {column} {kind}")
    if "erasure_head" not in {row[1] for row in conn.execute("PRAGMA table_info(chain_heads)")}:
        conn.execute("ALTER TABLE chain_heads ADD COLUMN erasure_head TEXT")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS erasures (student_id TEXT NOT NULL, subject_id TEXT NOT NULL, "
        "number INTEGER NOT NULL, body TEXT NOT NULL, "
        "PRIMARY KEY (student_id, subject_id, number)) WITHOUT ROWID"
    )


Migration = str | Callable[[sqlite3.Connection], None]

MIGRATIONS: tuple[Migration, ...] = (
    # 1: the episode log, chain heads, annotations, the file registry
    """
    CREATE TABLE episodes (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        episode_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        at TEXT NOT NULL,
        summary TEXT NOT NULL,
        text TEXT NOT NULL,
        concepts TEXT NOT NULL,
        salience REAL NOT NULL,
        evidence TEXT NOT NULL,
        recalled_ids TEXT NOT NULL,
        ref TEXT,
        idempotency_key TEXT,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id, seq)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX episodes_by_idempotency_key
        ON episodes (student_id, subject_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    CREATE TABLE chain_heads (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        hash TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id)
    ) WITHOUT ROWID;
    CREATE TABLE annotations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        episode_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        at TEXT NOT NULL,
        detail TEXT NOT NULL
    );
    CREATE INDEX annotations_by_episode ON annotations (student_id, subject_id, episode_id);
    CREATE TABLE files (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        file_id TEXT NOT NULL,
        name TEXT NOT NULL,
        removed_at TEXT,
        PRIMARY KEY (student_id, subject_id, file_id)
    ) WITHOUT ROWID;
    CREATE TABLE file_versions (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        file_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        fingerprint TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id, file_id, version)
    ) WITHOUT ROWID;
    """,
    # 2: concept links (the concept pool) and time order (windows)
    """
    CREATE TABLE episode_concepts (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        concept_key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id, concept_key, seq)
    ) WITHOUT ROWID;
    CREATE TABLE concept_names (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        concept_key TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id, concept_key)
    ) WITHOUT ROWID;
    CREATE INDEX episodes_by_time ON episodes (student_id, subject_id, at, seq);
    """,
    _backfill_concepts,
    # 3: one concept map per pair
    """
    CREATE TABLE concept_maps (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (student_id, subject_id)
    ) WITHOUT ROWID;
    """,
    # 4: beliefs, superseded never rewritten
    """
    CREATE TABLE beliefs (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        belief_id TEXT NOT NULL,
        concept_key TEXT NOT NULL,
        concept_name TEXT NOT NULL,
        claim TEXT NOT NULL,
        confidence REAL NOT NULL,
        evidence_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        rule_version INTEGER NOT NULL,
        reason TEXT NOT NULL,
        needs_confirmation INTEGER NOT NULL,
        generation INTEGER NOT NULL,
        superseded_by TEXT,
        retired_at TEXT,
        PRIMARY KEY (student_id, subject_id, belief_id)
    ) WITHOUT ROWID;
    CREATE INDEX beliefs_by_concept ON beliefs (student_id, subject_id, concept_key);
    """,
    # 5: episodes per kind, kept with the chain head
    "ALTER TABLE chain_heads ADD COLUMN counts TEXT NOT NULL DEFAULT '{}'",
    _backfill_counts,
    # 6: the nightly loop — which pairs were active on a UTC day, the verification queue (one
    # row per answer: when its citation was last checked, the result), small per-pair documents
    """
    CREATE TABLE activity (
        day TEXT NOT NULL,
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        PRIMARY KEY (day, student_id, subject_id)
    ) WITHOUT ROWID;
    CREATE TABLE citations (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        episode_id TEXT NOT NULL,
        checked_at TEXT,
        value TEXT,
        final INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (student_id, subject_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX citations_in_queue_order
        ON citations (student_id, subject_id, final, checked_at, seq);
    CREATE TABLE pair_documents (
        student_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (student_id, subject_id, name)
    ) WITHOUT ROWID;
    """,
    _backfill_nightly,
    # 7: the digest of the request an idempotency key was first used for
    _add_request_hash,
    # 8: chain v2 (a body's salt and commitment, erased bodies) and the erasure records
    _add_chain_v2,
    # 9: the current beliefs by pair — a turn reads them, and superseded ones pile up behind
    # them (100,000 episodes: 8.7 ms a turn scanning the pair's whole belief history)
    "CREATE INDEX IF NOT EXISTS beliefs_current ON beliefs (student_id, subject_id) "
    "WHERE superseded_by IS NULL AND retired_at IS NULL",
    # 10: what an erasure keeps of an idempotency key (its keyed hash), and the heads' counts
    # of what the log still tells
    _add_erased_keys,
    # 11: a pair's corrections, read by a turn only when the head counts any (issue 30)
    "CREATE INDEX IF NOT EXISTS episodes_by_kind ON episodes (student_id, subject_id, kind, seq)",
    # 12: a class's course maps, one per subject, and the students whose maps follow the class
    """
    CREATE TABLE IF NOT EXISTS course_maps (
        class_id TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (class_id, subject_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS class_followers (
        class_id TEXT PRIMARY KEY,
        students TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
)
