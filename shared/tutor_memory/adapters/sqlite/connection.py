"""What every part of the embedded store shares: the connection and its lock, the write
transaction, the migrations run on opening, and episode rows read back as episodes.

A file database gives each thread its own connection and lets SQLite's lock serialise them; an
in-memory database has a single connection, serialised by a lock in this process.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tutor_memory.adapters.pair_view import PairView
from tutor_memory.adapters.records import episode_from_record
from tutor_memory.adapters.sqlite.schema import MIGRATIONS
from tutor_memory.adapters.sqlite_text import reading_damaged_text
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Episode
from tutor_memory.domain.errors import StoreError

_EPISODE_COLUMNS = (
    "student_id, subject_id, seq, episode_id, kind, at, summary, text, concepts, salience, "
    "evidence, recalled_ids, ref, idempotency_key, prev_hash, hash, request_hash, chain_version, "
    "salt, commitment, erased"
)


class SqliteConnection:
    """The store's connection(s), and the state its reads keep in the process."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._memory = self.path == ":memory:"
        self._local = threading.local()
        self._lock = threading.RLock()
        self._shared: sqlite3.Connection | None = None
        # Episodes decoded on the turn path, least recently used first (see _select_decoded).
        self._decoded: OrderedDict[tuple[str, str, int], Episode] = OrderedDict()
        self._decoded_lock = threading.Lock()
        # Per pair, what the turn reads and only grows on append (see pair_view); guarded by
        # the same lock as the decoded episodes, which it trusts while the view is current.
        self._views: OrderedDict[tuple[str, str], PairView] = OrderedDict()
        if not self._memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        with self._connection() as conn:
            self._migrate(conn)

    # --- connections ------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=not self._memory, timeout=30
        )
        conn.row_factory = sqlite3.Row
        reading_damaged_text(conn)
        conn.execute(f"PRAGMA busy_timeout = {C.SQLITE_BUSY_TIMEOUT_MS}")
        if not self._memory:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        if self._memory:
            with self._lock:
                if self._shared is None:
                    self._shared = self._open()
                yield self._shared
            return
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open()
        yield conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: the write lock is held from the first read to commit."""
        with self._connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"the store is busy or unavailable: {exc}") from exc
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            conn.execute("BEGIN IMMEDIATE")
            try:
                if callable(script):
                    script(conn)
                else:
                    for statement in script.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        if self._shared is not None:
            self._shared.close()
            self._shared = None
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def schema_version(self) -> int:
        with self._connection() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    def _select(self, where: str, params: tuple[Any, ...]) -> list[Episode]:
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE {where}", params
            ).fetchall()
        return [episode_from_record(dict(r)) for r in rows]
