"""The access directory of the embedded default: API keys and class rosters in their own
SQLite file beside the store (``<home>/access.db``), so a store's log never holds a key."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime
from pathlib import Path

from tutor_memory.adapters.sqlite_text import reading_damaged_text
from tutor_memory.domain.access import ApiKey, Caller, Disclosure, Role, SchoolClass
from tutor_memory.domain.chain import format_time, parse_time

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    tenant TEXT NOT NULL,
    role TEXT NOT NULL,
    caller_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS class_members (
    tenant TEXT NOT NULL,
    class_id TEXT NOT NULL,
    member TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('teacher', 'student')),
    PRIMARY KEY (tenant, class_id, role, member)
);
CREATE INDEX IF NOT EXISTS class_by_member ON class_members (tenant, member, role);
CREATE TABLE IF NOT EXISTS reads (
    tenant TEXT NOT NULL,
    student TEXT NOT NULL,
    subject TEXT,
    operation TEXT NOT NULL,
    reader_role TEXT NOT NULL,
    reader_id TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reads_by_student ON reads (tenant, student, at);
CREATE TABLE IF NOT EXISTS erased_reads (
    tenant TEXT PRIMARY KEY,
    count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS classes (
    tenant TEXT NOT NULL,
    class_id TEXT NOT NULL,
    PRIMARY KEY (tenant, class_id)
);
"""


class SqliteAccessDirectory:
    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = reading_damaged_text(
            sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA secure_delete=ON")  # a forgotten read leaves no bytes
        # WAL with NORMAL: a read's record costs no fsync on the turn's path (durable up to
        # the last checkpoint if the machine loses power, as the WAL documents).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    def add_key(self, key: ApiKey) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key.key_id, key.digest, key.caller.tenant, key.caller.role.value,
                    key.caller.id, format_time(key.created_at),
                    None if key.revoked_at is None else format_time(key.revoked_at),
                ),
            )  # fmt: skip

    def key(self, key_id: str) -> ApiKey | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM api_keys WHERE key_id = ?", (key_id,)).fetchone()
        return None if row is None else _key(row)

    def keys(self, tenant: str | None = None) -> list[ApiKey]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM api_keys WHERE ? IS NULL OR tenant = ? ORDER BY created_at, key_id",
                (tenant, tenant),
            ).fetchall()
        return [_key(r) for r in rows]

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        with self._lock:
            done = self._db.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?",
                (format_time(at), key_id),
            )
        return done.rowcount > 0

    def set_class(self, school_class: SchoolClass) -> None:
        c = school_class
        members = [(c.tenant, c.class_id, t, "teacher") for t in c.teachers] + [
            (c.tenant, c.class_id, s, "student") for s in c.students
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR IGNORE INTO classes VALUES (?, ?)", (c.tenant, c.class_id)
                )
                self._db.execute(
                    "DELETE FROM class_members WHERE tenant = ? AND class_id = ?",
                    (c.tenant, c.class_id),
                )
                self._db.executemany("INSERT INTO class_members VALUES (?, ?, ?, ?)", members)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def get_class(self, tenant: str, class_id: str) -> SchoolClass | None:
        with self._lock:
            known = self._db.execute(
                "SELECT 1 FROM classes WHERE tenant = ? AND class_id = ?", (tenant, class_id)
            ).fetchone()
            rows = self._db.execute(
                "SELECT member, role FROM class_members WHERE tenant = ? AND class_id = ? "
                "ORDER BY member",
                (tenant, class_id),
            ).fetchall()
        if known is None:
            return None
        return SchoolClass(
            tenant,
            class_id,
            teachers=tuple(m for m, r in rows if r == "teacher"),
            students=tuple(m for m, r in rows if r == "student"),
        )

    def classes(self, tenant: str) -> list[SchoolClass]:
        with self._lock:
            ids = [
                r[0]
                for r in self._db.execute(
                    "SELECT class_id FROM classes WHERE tenant = ? ORDER BY class_id", (tenant,)
                )
            ]
        return [c for i in ids if (c := self.get_class(tenant, i)) is not None]

    def teaches(self, tenant: str, teacher_id: str, student_id: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM class_members t JOIN class_members s "
                "ON s.tenant = t.tenant AND s.class_id = t.class_id "
                "WHERE t.tenant = ? AND t.member = ? AND t.role = 'teacher' "
                "AND s.member = ? AND s.role = 'student' LIMIT 1",
                (tenant, teacher_id, student_id),
            ).fetchone()
        return row is not None

    def leave_classes(self, tenant: str, student_id: str) -> list[str]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                rows = self._db.execute(
                    "SELECT class_id FROM class_members WHERE tenant = ? AND member = ? "
                    "AND role = 'student' ORDER BY class_id",
                    (tenant, student_id),
                ).fetchall()
                self._db.execute(
                    "DELETE FROM class_members "
                    "WHERE tenant = ? AND member = ? AND role = 'student'",
                    (tenant, student_id),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            if rows:  # secure_delete zeroed the rows; the WAL's copies go into the file
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return [r[0] for r in rows]

    def record_read(self, disclosure: Disclosure) -> None:
        d = disclosure
        with self._lock:
            self._db.execute(
                "INSERT INTO reads VALUES (?, ?, ?, ?, ?, ?, ?)",
                (d.tenant, d.student_id, d.subject_id, d.operation, d.reader_role.value,
                 d.reader_id, format_time(d.at)),
            )  # fmt: skip

    def reads_of(self, tenant: str, student_id: str) -> list[Disclosure]:
        with self._lock:
            rows = self._db.execute(
                "SELECT subject, operation, reader_role, reader_id, at FROM reads "
                "WHERE tenant = ? AND student = ? ORDER BY at, rowid",
                (tenant, student_id),
            ).fetchall()
        return [
            Disclosure(tenant, student_id, subject, operation, Role(role), reader, parse_time(at))
            for subject, operation, role, reader, at in rows
        ]

    def forget_reads(self, tenant: str, student_id: str) -> int:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                done = self._db.execute(
                    "DELETE FROM reads WHERE tenant = ? AND student = ?", (tenant, student_id)
                ).rowcount
                self._db.execute(
                    "INSERT INTO erased_reads VALUES (?, ?) ON CONFLICT (tenant) "
                    "DO UPDATE SET count = count + excluded.count",
                    (tenant, done),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return done

    def erased_reads(self, tenant: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT count FROM erased_reads WHERE tenant = ?", (tenant,)
            ).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _key(row: tuple[str, ...]) -> ApiKey:
    key_id, digest, tenant, role, caller_id, created, revoked = row
    return ApiKey(
        key_id=key_id,
        digest=digest,
        caller=Caller(tenant, Role(role), caller_id),
        created_at=parse_time(created),
        revoked_at=None if revoked is None else parse_time(revoked),
    )
