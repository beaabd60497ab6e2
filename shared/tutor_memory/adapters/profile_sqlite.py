"""The profile log of the embedded default: its own SQLite file beside the store
(``<home>/profile.db``), written with ``secure_delete`` so an erased student's statements are
overwritten on disk, not only unlinked from the b-tree."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

from tutor_memory.adapters.sqlite_text import reading_damaged_text
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.profile import Aspect, Speaker, Statement

_SCHEMA = """
CREATE TABLE IF NOT EXISTS statements (
    student TEXT NOT NULL,
    seq INTEGER NOT NULL,
    aspect TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    said_by TEXT NOT NULL,
    at TEXT NOT NULL,
    due TEXT,
    source TEXT,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    erased_at TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    salt TEXT,
    commitment TEXT,
    PRIMARY KEY (student, seq)
);
"""


class SqliteProfileLog:
    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = reading_damaged_text(
            sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA secure_delete=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(statements)")}
        for column, kind in (  # a profile written before statements could be erased, or
            ("erased_at", "TEXT"),  # before version 2 (statements sealed before read as 1)
            ("version", "INTEGER NOT NULL DEFAULT 1"),
            ("salt", "TEXT"),
            ("commitment", "TEXT"),
        ):
            if column not in columns:
                self._db.execute(f"ALTER TABLE statements ADD COLUMN {column} {kind}")
        self._lock = threading.Lock()

    def append_statement(self, statement: Statement) -> None:
        s = statement
        row = (
            s.student_id, s.seq, s.aspect.value, s.key, s.value, s.said_by.value,
            format_time(s.at), None if s.due is None else s.due.isoformat(), s.source,
            s.prev_hash, s.hash, None if s.erased_at is None else format_time(s.erased_at),
            s.version, s.salt, s.commitment,
        )  # fmt: skip
        with self._lock:
            try:
                self._db.execute(f"INSERT INTO statements ({_COLUMNS}) VALUES ({_MARKS})", row)
            except sqlite3.IntegrityError:
                raise ConflictError(
                    f"statement {s.seq} of {s.student_id}'s profile is already written"
                ) from None

    def statements(self, student_id: str) -> list[Statement]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM statements WHERE student = ? ORDER BY seq",
                (student_id,),
            ).fetchall()
        return [_statement(r) for r in rows]

    def erase_statements(self, student_id: str, seqs: Sequence[int], at: datetime) -> int:
        wanted = sorted(set(seqs))
        if not wanted:
            return 0
        marks = ", ".join("?" * len(wanted))
        with self._lock:
            done = self._db.execute(
                "UPDATE statements SET key = '', value = '', due = NULL, salt = NULL, "
                "erased_at = ? "
                f"WHERE student = ? AND erased_at IS NULL AND seq IN ({marks})",
                (format_time(at), student_id, *wanted),
            )
            # secure_delete overwrites the freed cells; then no copy is left in the WAL
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return done.rowcount

    def erase_profile(self, student_id: str) -> int:
        with self._lock:
            done = self._db.execute("DELETE FROM statements WHERE student = ?", (student_id,))
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # no copy left in the WAL
        return done.rowcount

    def close(self) -> None:
        with self._lock:
            self._db.close()


_COLUMNS = (
    "student, seq, aspect, key, value, said_by, at, due, source, prev_hash, hash, erased_at, "
    "version, salt, commitment"
)
_MARKS = ", ".join("?" * len(_COLUMNS.split(", ")))


def _statement(row: tuple[object, ...]) -> Statement:
    (student, seq, aspect, key, value, said_by, at, due, source, prev_hash, hash_, erased,
     version, salt, commitment) = row  # fmt: skip
    return Statement(
        student_id=str(student),
        seq=int(seq),  # type: ignore[call-overload]
        aspect=Aspect(str(aspect)),
        key=str(key),
        value=str(value),
        said_by=Speaker(str(said_by)),
        at=parse_time(str(at)),
        due=None if due is None else date.fromisoformat(str(due)),
        source=None if source is None else str(source),
        prev_hash=str(prev_hash),
        hash=str(hash_),
        erased_at=None if erased is None else parse_time(str(erased)),
        version=int(version),  # type: ignore[call-overload]
        salt=None if salt is None else str(salt),
        commitment=None if commitment is None else str(commitment),
    )
