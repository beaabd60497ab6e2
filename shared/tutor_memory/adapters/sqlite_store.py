"""The embedded default store: one SQLite file (WAL), or ``:memory:`` in tests.

Appends run in one ``BEGIN IMMEDIATE`` transaction: the write lock is taken before the head is
read, so two writers (threads or processes) can never seal against the same head. A file
database gives each thread its own connection and lets SQLite's lock serialise them; an
in-memory database has a single connection, serialised by a lock in this process.

Schema changes are numbered migrations tracked in ``PRAGMA user_version``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from tutor_memory.adapters.pair_view import (
    Links,
    Newest,
    PairView,
    from_start,
    merge_links,
    merge_newest,
)
from tutor_memory.adapters.records import (
    annotation_from_record,
    annotation_to_record,
    episode_from_record,
    episode_to_record,
    map_from_blob,
    map_to_blob,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.beliefs import (
    Belief,
    belief_from_record,
    belief_to_record,
    chronological,
)
from tutor_memory.domain.chain import (
    GENESIS_HASH,
    ChainHead,
    Erasure,
    ErasureScope,
    erase,
    erased_from,
    erasure_record,
    format_time,
    head_of,
    new_salt,
    parse_time,
    salt_for,
    seal,
    seq_of_id,
)
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair, erased_key_digest
from tutor_memory.domain.errors import ConflictError, NotFoundError, StoreError
from tutor_memory.domain.files import FileRecord, FileVersion
from tutor_memory.domain.nightly import utc_day, utc_days
from tutor_memory.domain.routing import ConceptVectors
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import AppendResult, StoredDocument


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


def _index_for_the_night(conn: sqlite3.Connection, episode: Episode) -> None:
    """Inside the append's transaction: the day's activity, and an answer into the queue."""
    pair = episode.pair
    conn.execute(
        "INSERT OR IGNORE INTO activity (day, student_id, subject_id) VALUES (?, ?, ?)",
        (utc_day(episode.at), pair.student_id, pair.subject_id),
    )
    if episode.kind is Kind.ANSWER:
        conn.execute(
            "INSERT INTO citations (student_id, subject_id, seq, episode_id) VALUES (?, ?, ?, ?)",
            (pair.student_id, pair.subject_id, episode.seq, episode.episode_id),
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
)

_K = TypeVar("_K")
_V = TypeVar("_V")

_EPISODE_COLUMNS = (
    "student_id, subject_id, seq, episode_id, kind, at, summary, text, concepts, salience, "
    "evidence, recalled_ids, ref, idempotency_key, prev_hash, hash, request_hash, chain_version, "
    "salt, commitment, erased"
)


class SqliteStore:
    """:class:`tutor_memory.ports.EpisodeStore` on SQLite."""

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

    # --- episodes ---------------------------------------------------------------------------

    def append(self, new: NewEpisode) -> AppendResult:
        pair = new.pair
        with self._write() as conn:
            if new.idempotency_key is not None:
                row = conn.execute(
                    f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE student_id = ? "
                    "AND subject_id = ? AND idempotency_key = ?",
                    (pair.student_id, pair.subject_id, new.idempotency_key),
                ).fetchone()
                if row is not None:
                    return AppendResult(episode_from_record(dict(row)), created=False)
            head = self._head(conn, pair)
            episode = seal(new, head, salt=salt_for(new, head) or new_salt())
            self._insert(conn, episode, head)
        return AppendResult(episode, created=True)

    def append_sealed(self, episode: Episode) -> AppendResult:
        """Append an episode sealed elsewhere (a replayed export's erased envelope, see
        ``chain.envelope_episode``): it must link to the current head."""
        with self._write() as conn:
            head = self._head(conn, episode.pair)
            if episode.seq != (head.seq if head else 0) + 1 or episode.prev_hash != (
                head.hash if head else GENESIS_HASH
            ):
                raise ConflictError(
                    f"episode {episode.seq} does not follow the head of {episode.pair}"
                )
            self._insert(conn, episode, head)
        return AppendResult(episode, created=True)

    def _insert(self, conn: sqlite3.Connection, episode: Episode, head: ChainHead | None) -> None:
        pair = episode.pair
        record = episode_to_record(episode)
        counts = json.dumps(dict(head_of(episode, head).counts), sort_keys=True)
        conn.execute(
            f"INSERT INTO episodes ({_EPISODE_COLUMNS}) VALUES ({', '.join('?' * len(record))})",
            tuple(record.values()),
        )
        conn.execute(
            "INSERT INTO chain_heads (student_id, subject_id, seq, hash, at, counts) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (student_id, subject_id) "
            "DO UPDATE SET seq = excluded.seq, hash = excluded.hash, at = excluded.at, "
            "counts = excluded.counts",
            (pair.student_id, pair.subject_id, episode.seq, episode.hash, record["at"], counts),
        )
        _link_concepts(
            conn,
            pair.student_id,
            pair.subject_id,
            episode.seq,
            record["at"],
            list(episode.concepts),
        )
        _index_for_the_night(conn, episode)

    def erased_key(self, pair: Pair, digest: str) -> datetime | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT at FROM erased_keys WHERE student_id = ? AND subject_id = ? AND digest = ?",
                (pair.student_id, pair.subject_id, digest),
            ).fetchone()
        return parse_time(row[0]) if row else None

    def by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        found = self._select(
            "student_id = ? AND subject_id = ? AND idempotency_key = ?",
            (pair.student_id, pair.subject_id, key),
        )
        return found[0] if found else None

    def _head(self, conn: sqlite3.Connection, pair: Pair) -> ChainHead | None:
        row = conn.execute(
            "SELECT seq, hash, at, counts FROM chain_heads WHERE student_id = ? AND subject_id = ?",
            (pair.student_id, pair.subject_id),
        ).fetchone()
        if row is None:
            return None
        return ChainHead(
            pair=pair,
            seq=row["seq"],
            hash=row["hash"],
            at=parse_time(row["at"]),
            counts=json.loads(row["counts"]),
        )

    def head(self, pair: Pair) -> ChainHead | None:
        with self._connection() as conn:
            return self._head(conn, pair)

    def _select(self, where: str, params: tuple[Any, ...]) -> list[Episode]:
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE {where}", params
            ).fetchall()
        return [episode_from_record(dict(r)) for r in rows]

    def _select_decoded(self, where: str, params: tuple[Any, ...]) -> list[Episode]:
        """``_select`` for the turn path: the rows' keys and hashes first (two columns), then
        only the rows not decoded before. Episodes are append-only, so a decoded one stays
        true; the hash is compared anyway (a row rewritten behind our back is read afresh).
        Chain verification never reads through here: it must see the rows as they are."""
        with self._connection() as conn:
            keys = conn.execute(
                f"SELECT student_id, subject_id, seq, hash, erased FROM episodes WHERE {where}",
                params,
            ).fetchall()
            cache = self._decoded
            with self._decoded_lock:
                hits = {}
                # An erasure keeps the hash (the envelope) but not the body: compare both, so
                # an erasure by another process is never served from this one's cache.
                for student, subject, seq, digest, erased in keys:
                    hit = cache.get((student, subject, seq))
                    if hit is not None and hit.hash == digest and hit.erased == bool(erased):
                        hits[(student, subject, seq)] = hit
            missing = [k for k in keys if (k[0], k[1], k[2]) not in hits]
            for start in range(0, len(missing), 500):  # SQLite's parameter limit
                chunk = missing[start : start + 500]
                rows = conn.execute(
                    f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE student_id = ? AND "
                    f"subject_id = ? AND seq IN ({', '.join('?' * len(chunk))})",
                    (chunk[0][0], chunk[0][1], *(k[2] for k in chunk)),
                ).fetchall()
                for r in rows:
                    hits[(r[0], r[1], r[2])] = episode_from_record(dict(r))
        out = []
        with self._decoded_lock:
            for student, subject, seq, _digest, _erased in keys:
                key = (student, subject, seq)
                episode = hits.get(key)
                if episode is None:  # gone between the two reads (an erased pair)
                    continue
                cache[key] = episode
                cache.move_to_end(key)
                out.append(episode)
            while len(cache) > C.DECODED_EPISODE_CACHE:
                cache.popitem(last=False)
        return out

    def get(self, pair: Pair, episode_id: str) -> Episode | None:
        seq = seq_of_id(episode_id)
        if seq is None:
            return None
        found = self._select(
            "student_id = ? AND subject_id = ? AND seq = ? AND episode_id = ?",
            (pair.student_id, pair.subject_id, seq, episode_id),
        )
        return found[0] if found else None

    def episodes(
        self, pair: Pair, *, after_seq: int = 0, limit: int | None = None
    ) -> list[Episode]:
        return self._select(
            "student_id = ? AND subject_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (pair.student_id, pair.subject_id, after_seq, -1 if limit is None else limit),
        )

    def iter_episodes(self, pair: Pair, *, page_size: int = 500) -> Iterator[Episode]:
        after = 0
        while True:
            page = self.episodes(pair, after_seq=after, limit=page_size)
            yield from page
            if len(page) < page_size:
                return
            after = page[-1].seq

    def prepare(self, pair: Pair) -> None:
        """Read the pair's kept view now (its newest episodes, decoded): a turn asks before
        its deadline starts, so the first turn after opening never spends its deadline on it."""
        self.recent(pair, C.RECALL_RECENT_POOL)

    def recent(self, pair: Pair, limit: int, window: TimeWindow | None = None) -> list[Episode]:
        with self._connection() as conn:
            view = self._view(conn, pair)
            if view is not None and view.after(window):
                return from_start(self._newest(pair, view, limit), window)
        where, params = "student_id = ? AND subject_id = ?", [pair.student_id, pair.subject_id]
        if window is not None:
            where += " AND at >= ? AND at < ?"
            params += [format_time(window.start), format_time(window.end)]
        return self._select_decoded(f"{where} ORDER BY at DESC, seq DESC LIMIT ?", (*params, limit))

    def get_many(self, pair: Pair, episode_ids: Sequence[str]) -> list[Episode]:
        seqs = [s for s in (seq_of_id(i) for i in episode_ids) if s is not None]
        if not seqs:
            return []
        with self._connection() as conn:
            view = self._view(conn, pair)
        by_id = {e.episode_id: e for e in self._at_seqs(pair, view, seqs)}
        return [by_id[i] for i in episode_ids if i in by_id]

    def touching(
        self,
        pair: Pair,
        concept_keys: Sequence[str],
        window: TimeWindow | None = None,
        *,
        newest: int | None = None,
    ) -> list[Episode]:
        keys = list(dict.fromkeys(concept_keys))
        if not keys:
            return []
        if newest is not None:
            with self._connection() as conn:
                view = self._view(conn, pair)
                if view is not None and view.holds(window):
                    kept: set[int] = set()
                    for key in keys:
                        kept.update(self._links(conn, pair, view, key, newest))
                    return self._at_seqs(pair, view, sorted(kept))
        # Per concept, the links walked backwards on the primary key (student, subject,
        # concept, seq) and cut by LIMIT: the newest N, never every link.
        link = (
            "SELECT seq FROM episode_concepts WHERE student_id = ? AND subject_id = ? "
            "AND concept_key = ?"
        )
        span: tuple[str, ...] = ()
        if window is not None:
            link += " AND at >= ? AND at < ?"
            span = (format_time(window.start), format_time(window.end))
        link += " ORDER BY seq DESC LIMIT ?"
        seqs: set[int] = set()
        cut = -1 if newest is None else newest
        with self._connection() as conn:
            for key in keys:
                rows = conn.execute(
                    link, (pair.student_id, pair.subject_id, key, *span, cut)
                ).fetchall()
                seqs.update(int(r[0]) for r in rows)
        return self._at_seqs(pair, None, sorted(seqs))

    # --- the turn's kept reads (see pair_view) ------------------------------------------------

    def _view(self, conn: sqlite3.Connection, pair: Pair) -> PairView | None:
        """The pair's view, brought up to the chain head (one indexed read, and the new
        episodes' times when there are any); None for a pair without a log."""
        key = (pair.student_id, pair.subject_id)
        head = conn.execute(
            "SELECT seq, erasure_head FROM chain_heads WHERE student_id = ? AND subject_id = ?",
            key,
        ).fetchone()
        with self._decoded_lock:
            view = self._views.get(key)
            if head is None:
                self._views.pop(key, None)
                return None
            seq, erasure = int(head[0]), head[1]
            if view is not None and view.stale(seq, erasure):
                view = None
            if view is None:  # nothing decoded before is trusted without its row's check
                for gone in [k for k in self._decoded if k[0] == key[0] and k[1] == key[1]]:
                    del self._decoded[gone]
            elif view.seq == seq:
                self._views.move_to_end(key)
                return view
        if view is None:
            # The earliest and latest times by the time index (two index probes); as text, so a
            # row whose time sorts differently as text than as a time is caught.
            first, last = (
                conn.execute(
                    f"SELECT {fn}(at) FROM episodes WHERE student_id = ? AND subject_id = ?", key
                ).fetchone()[0]
                for fn in ("MIN", "MAX")
            )
            fresh = PairView(erasure, 0, None, None)
            view = fresh.widened(seq, *_times(first, last), ordered=_canonical(last))
        else:
            first, last, upto = conn.execute(
                "SELECT MIN(at), MAX(at), MAX(seq) FROM episodes WHERE student_id = ? "
                "AND subject_id = ? AND seq > ?",
                (*key, view.seq),
            ).fetchone()
            view = view.widened(max(seq, upto or 0), *_times(first, last), ordered=_canonical(last))
        with self._decoded_lock:
            current = self._views.get(key)
            if current is None or current.erasure != view.erasure or current.seq <= view.seq:
                self._views[key] = view
                self._views.move_to_end(key)
                while len(self._views) > C.KEPT_PAIR_VIEWS:  # memory follows the active pairs
                    self._views.popitem(last=False)
        return view

    def _keep(self, pair: Pair, view: PairView, answers: dict[_K, _V], key: _K, value: _V) -> None:
        """Keep an answer read for ``view`` (in one of its tables) if it is still the pair's."""
        with self._decoded_lock:
            if self._views.get((pair.student_id, pair.subject_id)) is view:
                answers[key] = value

    def _newest(self, pair: Pair, view: PairView, limit: int) -> list[Episode]:
        """The pair's ``limit`` newest episodes (time, then seq), kept between calls: only the
        episodes after the kept sequence are read (all of them again past ``limit`` new)."""
        key = (pair.student_id, pair.subject_id)
        kept = view.newest.get(limit)
        if kept is not None and kept.through == view.seq:
            return kept.episodes
        if kept is None or view.seq - kept.through > limit:
            episodes = self._select_decoded(
                "student_id = ? AND subject_id = ? ORDER BY at DESC, seq DESC LIMIT ?",
                (*key, limit),
            )
            kept = Newest(episodes, view.seq)  # the store's order, as the merge keeps it
        else:
            new = self._select_decoded(
                "student_id = ? AND subject_id = ? AND seq > ? ORDER BY seq", (*key, kept.through)
            )
            kept = Newest(merge_newest(kept.episodes, new, limit), view.seq)
        self._keep(pair, view, view.newest, limit, kept)
        return kept.episodes

    def _links(
        self, conn: sqlite3.Connection, pair: Pair, view: PairView, concept: str, newest: int
    ) -> list[int]:
        """A concept's ``newest`` linked sequences, newest first; only links after the kept
        sequence are read (a link is written with its episode and goes only with an erasure)."""
        kept = view.links.get((concept, newest))
        if kept is not None and kept.through == view.seq:
            return kept.seqs
        after = kept.through if kept is not None else 0
        rows = conn.execute(
            "SELECT seq FROM episode_concepts WHERE student_id = ? AND subject_id = ? "
            "AND concept_key = ? AND seq > ? ORDER BY seq DESC LIMIT ?",
            (pair.student_id, pair.subject_id, concept, after, newest),
        ).fetchall()
        seqs = merge_links(kept.seqs if kept is not None else (), (r[0] for r in rows), newest)
        self._keep(pair, view, view.links, (concept, newest), Links(seqs, view.seq))
        return seqs

    def _at_seqs(self, pair: Pair, view: PairView | None, seqs: Sequence[int]) -> list[Episode]:
        """The episodes at ``seqs`` (in that order, unknown ones left out): decoded ones from
        memory while ``view`` is current (nothing was erased since they were read), the rest
        (all of them without a view) read, each row checked against its decoded copy."""
        student, subject = pair.student_id, pair.subject_id
        cache = self._decoded
        found: dict[int, Episode] = {}
        with self._decoded_lock:
            if view is not None and self._views.get((student, subject)) is view:
                for seq in seqs:
                    hit = cache.get((student, subject, seq))
                    if hit is not None:
                        cache.move_to_end((student, subject, seq))
                        found[seq] = hit
        missing = sorted({s for s in seqs if s not in found})
        for start in range(0, len(missing), 500):  # SQLite's parameter limit
            chunk = missing[start : start + 500]
            for e in self._select_decoded(
                f"student_id = ? AND subject_id = ? AND seq IN ({', '.join('?' * len(chunk))})",
                (student, subject, *chunk),
            ):
                found[e.seq] = e
        return [found[s] for s in seqs if s in found]

    def concept_names(self, pair: Pair) -> dict[str, str]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT concept_key, name FROM concept_names WHERE student_id = ? "
                "AND subject_id = ? ORDER BY concept_key",
                (pair.student_id, pair.subject_id),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    # --- annotations ------------------------------------------------------------------------

    def annotate(self, annotation: Annotation) -> None:
        record = annotation_to_record(annotation)
        with self._write() as conn:
            conn.execute(
                f"INSERT INTO annotations ({', '.join(record)}) "
                f"VALUES ({', '.join('?' * len(record))})",
                tuple(record.values()),
            )

    def annotations(self, pair: Pair, episode_id: str) -> list[Annotation]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT student_id, subject_id, episode_id, kind, value, at, detail "
                "FROM annotations WHERE student_id = ? AND subject_id = ? AND episode_id = ? "
                "ORDER BY at, id",
                (pair.student_id, pair.subject_id, episode_id),
            ).fetchall()
        return [annotation_from_record(dict(r)) for r in rows]

    # --- files ------------------------------------------------------------------------------

    def register_file(
        self, pair: Pair, file_id: str, name: str, fingerprint: str, at: datetime
    ) -> tuple[FileRecord, bool]:
        with self._write() as conn:
            current = self._file(conn, pair, file_id)
            if (
                current is not None
                and not current.removed
                and current.current.fingerprint == fingerprint
            ):
                return current, False
            version = 1 if current is None else current.current.version + 1
            conn.execute(
                "INSERT INTO files (student_id, subject_id, file_id, name, removed_at) "
                "VALUES (?, ?, ?, ?, NULL) ON CONFLICT (student_id, subject_id, file_id) "
                "DO UPDATE SET name = excluded.name, removed_at = NULL",
                (pair.student_id, pair.subject_id, file_id, name),
            )
            conn.execute(
                "INSERT INTO file_versions VALUES (?, ?, ?, ?, ?, ?)",
                (pair.student_id, pair.subject_id, file_id, version, fingerprint, format_time(at)),
            )
            record = self._file(conn, pair, file_id)
        assert record is not None
        return record, True

    def remove_file(self, pair: Pair, file_id: str, at: datetime) -> FileRecord:
        with self._write() as conn:
            if self._file(conn, pair, file_id) is None:
                raise NotFoundError(f"no file {file_id!r} for {pair}")
            conn.execute(
                "UPDATE files SET removed_at = ? WHERE student_id = ? AND subject_id = ? "
                "AND file_id = ? AND removed_at IS NULL",
                (format_time(at), pair.student_id, pair.subject_id, file_id),
            )
            record = self._file(conn, pair, file_id)
        assert record is not None
        return record

    def _file(self, conn: sqlite3.Connection, pair: Pair, file_id: str) -> FileRecord | None:
        row = conn.execute(
            "SELECT name, removed_at FROM files WHERE student_id = ? AND subject_id = ? "
            "AND file_id = ?",
            (pair.student_id, pair.subject_id, file_id),
        ).fetchone()
        if row is None:
            return None
        versions = conn.execute(
            "SELECT version, fingerprint, at FROM file_versions WHERE student_id = ? "
            "AND subject_id = ? AND file_id = ? ORDER BY version",
            (pair.student_id, pair.subject_id, file_id),
        ).fetchall()
        return FileRecord(
            pair=pair,
            file_id=file_id,
            name=row["name"],
            versions=tuple(
                FileVersion(v["version"], v["fingerprint"], parse_time(v["at"])) for v in versions
            ),
            removed_at=parse_time(row["removed_at"]) if row["removed_at"] else None,
        )

    def file(self, pair: Pair, file_id: str) -> FileRecord | None:
        with self._connection() as conn:
            return self._file(conn, pair, file_id)

    def files(self, pair: Pair) -> list[FileRecord]:
        with self._connection() as conn:
            ids = [
                r["file_id"]
                for r in conn.execute(
                    "SELECT file_id FROM files WHERE student_id = ? AND subject_id = ? "
                    "ORDER BY file_id",
                    (pair.student_id, pair.subject_id),
                ).fetchall()
            ]
            records = [self._file(conn, pair, i) for i in ids]
        return [r for r in records if r is not None]

    # --- the concept map --------------------------------------------------------------------

    def load_map(self, pair: Pair) -> ConceptMap:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT body FROM concept_maps WHERE student_id = ? AND subject_id = ?",
                (pair.student_id, pair.subject_id),
            ).fetchone()
        return map_from_blob(row[0]) if row else ConceptMap()

    def concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The routing vectors, read with the map (one row; they stay encoded until used)."""
        return self.load_map(pair).vectors

    def save_map(self, pair: Pair, cmap: ConceptMap) -> ConceptMap:
        saved = replace(cmap, version=cmap.version + 1)
        with self._write() as conn:
            row = conn.execute(
                "SELECT version FROM concept_maps WHERE student_id = ? AND subject_id = ?",
                (pair.student_id, pair.subject_id),
            ).fetchone()
            if (row[0] if row else 0) != cmap.version:
                raise ConflictError(
                    f"the map of {pair} changed meanwhile (version {row[0] if row else 0}, "
                    f"expected {cmap.version}); nothing was saved"
                )
            conn.execute(
                "INSERT OR REPLACE INTO concept_maps VALUES (?, ?, ?, ?)",
                (pair.student_id, pair.subject_id, saved.version, map_to_blob(saved)),
            )
        return saved

    # --- beliefs ----------------------------------------------------------------------------

    def _beliefs(
        self, where: str, params: tuple[object, ...], *, indexed_by: str = ""
    ) -> list[Belief]:
        source = f"beliefs INDEXED BY {indexed_by}" if indexed_by else "beliefs"
        with self._connection() as conn:
            rows = conn.execute(f"SELECT * FROM {source} WHERE {where}", params).fetchall()
        return chronological(belief_from_record(dict(r)) for r in rows)

    def beliefs(self, pair: Pair) -> list[Belief]:
        # Named: without statistics the planner takes the primary key's pair prefix, which
        # walks every superseded belief too.
        current = self._beliefs(
            "student_id = ? AND subject_id = ? AND superseded_by IS NULL AND retired_at IS NULL",
            (pair.student_id, pair.subject_id),
            indexed_by="beliefs_current",
        )
        return sorted(current, key=lambda b: (b.concept_name.casefold(), b.concept_key))

    def belief_history(self, pair: Pair, concept_key: str) -> list[Belief]:
        return self._beliefs(
            "student_id = ? AND subject_id = ? AND concept_key = ?",
            (pair.student_id, pair.subject_id, concept_key),
        )

    def add_belief(self, new: Belief, supersedes: Belief | None) -> None:
        record = belief_to_record(new)
        pair = new.pair
        with self._write() as conn:
            if supersedes is not None:
                changed = conn.execute(
                    "UPDATE beliefs SET superseded_by = ? WHERE student_id = ? AND subject_id = ? "
                    "AND belief_id = ? AND superseded_by IS NULL AND retired_at IS NULL",
                    (new.belief_id, pair.student_id, pair.subject_id, supersedes.belief_id),
                ).rowcount
                if changed != 1:
                    raise ConflictError(
                        f"belief {supersedes.belief_id} is no longer current; nothing was written"
                    )
            marks = ", ".join("?" * len(record))
            conn.execute(
                f"INSERT INTO beliefs ({', '.join(record)}) VALUES ({marks})",
                tuple(record.values()),
            )

    def retire_beliefs(self, pair: Pair, at: datetime) -> int:
        with self._write() as conn:
            return int(
                conn.execute(
                    "UPDATE beliefs SET retired_at = ? WHERE student_id = ? AND subject_id = ? "
                    "AND superseded_by IS NULL AND retired_at IS NULL",
                    (format_time(at), pair.student_id, pair.subject_id),
                ).rowcount
            )

    def belief_generation(self, pair: Pair) -> int:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT max(generation) FROM beliefs WHERE student_id = ? AND subject_id = ?",
                (pair.student_id, pair.subject_id),
            ).fetchone()
        return int(row[0] or 0)

    # --- the nightly loop -------------------------------------------------------------------

    def active_pairs(self, window: TimeWindow) -> list[Pair]:
        days = utc_days(window)
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT DISTINCT student_id, subject_id FROM activity WHERE day IN "
                f"({', '.join('?' * len(days))}) ORDER BY student_id, subject_id",
                tuple(days),
            ).fetchall()
        return [Pair(r[0], r[1]) for r in rows]

    def mark_active(self, pair: Pair, at: datetime) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO activity (day, student_id, subject_id) VALUES (?, ?, ?)",
                (utc_day(at), pair.student_id, pair.subject_id),
            )

    def _citations(self, where: str, params: tuple[object, ...]) -> list[CitationEntry]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT student_id, subject_id, seq, episode_id, checked_at, value, final "
                f"FROM citations WHERE {where}",
                params,
            ).fetchall()
        return [
            CitationEntry(
                pair=Pair(r["student_id"], r["subject_id"]),
                seq=r["seq"],
                episode_id=r["episode_id"],
                checked_at=parse_time(r["checked_at"]) if r["checked_at"] else None,
                value=r["value"],
                final=bool(r["final"]),
            )
            for r in rows
        ]

    def citations_due(self, pair: Pair, *, before: datetime, limit: int) -> list[CitationEntry]:
        return self._citations(
            "student_id = ? AND subject_id = ? AND final = 0 AND "
            "(checked_at IS NULL OR checked_at < ?) ORDER BY checked_at, seq LIMIT ?",
            (pair.student_id, pair.subject_id, format_time(before), max(limit, 0)),
        )

    def citations_checked_at(self, pair: Pair, at: datetime) -> list[CitationEntry]:
        return self._citations(
            "student_id = ? AND subject_id = ? AND checked_at = ? ORDER BY seq",
            (pair.student_id, pair.subject_id, format_time(at)),
        )

    def citations(self, pair: Pair) -> list[CitationEntry]:
        return self._citations(
            "student_id = ? AND subject_id = ? ORDER BY final, checked_at, seq",
            (pair.student_id, pair.subject_id),
        )

    def record_citation_check(
        self, entry: CitationEntry, annotation: Annotation, *, final: bool
    ) -> None:
        pair = entry.pair
        before = format_time(entry.checked_at) if entry.checked_at else None
        record = annotation_to_record(annotation)
        with self._write() as conn:
            moved = conn.execute(
                "UPDATE citations SET checked_at = ?, value = ?, final = ? WHERE student_id = ? "
                "AND subject_id = ? AND seq = ? AND final = 0 AND checked_at IS ? "
                "AND checked_at IS NOT ?",
                (
                    record["at"],
                    annotation.value,
                    int(final),
                    pair.student_id,
                    pair.subject_id,
                    entry.seq,
                    before,
                    record["at"],
                ),
            ).rowcount
            if moved != 1:
                raise ConflictError(
                    f"the citation of {entry.episode_id} was checked meanwhile; nothing written"
                )
            conn.execute(
                f"INSERT INTO annotations ({', '.join(record)}) "
                f"VALUES ({', '.join('?' * len(record))})",
                tuple(record.values()),
            )

    def newest_touching(self, pair: Pair, concept_key: str, kind: Kind) -> Episode | None:
        found = self._select(
            "student_id = ? AND subject_id = ? AND kind = ? AND seq IN (SELECT seq FROM "
            "episode_concepts WHERE student_id = ? AND subject_id = ? AND concept_key = ?) "
            "ORDER BY seq DESC LIMIT 1",
            (pair.student_id, pair.subject_id, kind.value, *(pair.student_id, pair.subject_id),
             concept_key),
        )  # fmt: skip
        return found[0] if found else None

    def document(self, pair: Pair, name: str) -> StoredDocument | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT version, body FROM pair_documents WHERE student_id = ? AND subject_id = ? "
                "AND name = ?",
                (pair.student_id, pair.subject_id, name),
            ).fetchone()
        return StoredDocument(name, row["version"], json.loads(row["body"])) if row else None

    def put_document(
        self, pair: Pair, name: str, body: dict[str, Any], *, expected_version: int
    ) -> int:
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self._write() as conn:
            row = conn.execute(
                "SELECT version FROM pair_documents WHERE student_id = ? AND subject_id = ? "
                "AND name = ?",
                (pair.student_id, pair.subject_id, name),
            ).fetchone()
            stored = row[0] if row else 0
            if stored != expected_version:
                raise ConflictError(
                    f"{name} of {pair} is at version {stored}, not {expected_version}; "
                    "nothing was written"
                )
            conn.execute(
                "INSERT OR REPLACE INTO pair_documents VALUES (?, ?, ?, ?, ?)",
                (pair.student_id, pair.subject_id, name, stored + 1, text),
            )
        return stored + 1

    # --- erasure (see `tutor_memory.usecases.erasure`) --------------------------------------------
    # Erasing runs with ``secure_delete`` (SQLite zeroes the bytes it frees instead of leaving
    # them in free space), then checkpoints the WAL into the file and truncates it, so that the
    # erased text is neither in the database file nor in its ``-wal``.

    @contextmanager
    def _erasing(self) -> Iterator[sqlite3.Connection]:
        with self._connection() as conn:
            conn.execute("PRAGMA secure_delete = ON")
            try:
                with self._write() as written:
                    yield written
            finally:
                conn.execute("PRAGMA secure_delete = OFF")

    def compact(self) -> None:
        """After an erasure: rebuild the file (VACUUM: no free page or slack space keeps an old
        image of a row) and write the WAL into it and truncate it, so the erased bytes are in
        neither file. A reader still holding an old snapshot can delay the truncation; the next
        ``compact`` finishes it."""
        if self._memory:
            return
        with self._connection() as conn:
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("VACUUM")  # rebuilds the file: no freed page keeps an old image
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA secure_delete = OFF")

    def erasures(self, pair: Pair) -> tuple[list[Erasure], str | None]:
        """The pair's erasure records in order, and the last digest the chain head keeps."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT body FROM erasures WHERE student_id = ? AND subject_id = ? ORDER BY number",
                (pair.student_id, pair.subject_id),
            ).fetchall()
            head = conn.execute(
                "SELECT erasure_head FROM chain_heads WHERE student_id = ? AND subject_id = ?",
                (pair.student_id, pair.subject_id),
            ).fetchone()
        records = [Erasure.from_dict(pair, json.loads(r[0])) for r in rows]
        return records, head[0] if head else None

    def erase(
        self,
        pair: Pair,
        seqs: Sequence[int],
        *,
        at: datetime,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
    ) -> list[Episode]:
        """Erase the bodies of these episodes (those not erased already), with everything kept
        about them beside the log (annotations, queue entries, concept links, the idempotency
        key), and record each erasure. Returns the episodes as they were before."""
        key = (pair.student_id, pair.subject_id)
        done: list[Episode] = []
        with self._erasing() as conn:
            row = conn.execute(
                "SELECT erasure_head, counts FROM chain_heads WHERE student_id = ? "
                "AND subject_id = ?",
                key,
            ).fetchone()
            prev = (row[0] if row else None) or "0" * 64
            counts = json.loads(row[1]) if row else {}
            (number,) = conn.execute(
                "SELECT count(*) FROM erasures WHERE student_id = ? AND subject_id = ?", key
            ).fetchone()
            for seq in sorted(set(seqs)):
                found = conn.execute(
                    f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE student_id = ? "
                    "AND subject_id = ? AND seq = ?",
                    (*key, seq),
                ).fetchone()
                if found is None or found["erased"]:
                    continue
                episode = episode_from_record(dict(found))
                number += 1
                record = erasure_record(
                    episode,
                    number=number,
                    prev=prev,
                    at=at,
                    reason=reason,
                    requested_by=requested_by,
                    scope=scope,
                )
                prev = record.digest
                gone = episode_to_record(erase(episode))
                columns = [c for c in gone if c not in ("student_id", "subject_id", "seq")]
                conn.execute(
                    f"UPDATE episodes SET {', '.join(f'{c} = ?' for c in columns)} "
                    "WHERE student_id = ? AND subject_id = ? AND seq = ?",
                    (*(gone[c] for c in columns), *key, seq),
                )
                conn.execute(
                    "DELETE FROM annotations WHERE student_id = ? AND subject_id = ? "
                    "AND episode_id = ?",
                    (*key, episode.episode_id),
                )
                conn.execute(
                    "DELETE FROM citations WHERE student_id = ? AND subject_id = ? AND seq = ?",
                    (*key, seq),
                )
                conn.execute(
                    "DELETE FROM episode_concepts WHERE student_id = ? AND subject_id = ? "
                    "AND seq = ?",
                    (*key, seq),
                )
                self._rename_concepts(conn, pair, episode.concepts)
                conn.execute(
                    "INSERT INTO erasures VALUES (?, ?, ?, ?)",
                    (*key, number, json.dumps(record.to_dict(), sort_keys=True)),
                )
                if episode.idempotency_key is not None:  # its keyed hash, never its text
                    conn.execute(
                        "INSERT OR REPLACE INTO erased_keys VALUES (?, ?, ?, ?, ?)",
                        (
                            *key,
                            erased_key_digest(pair, episode.idempotency_key),
                            seq,
                            format_time(at),
                        ),
                    )
                done.append(episode)
            if done:
                # The head's counts are of what the log still tells (an erased check is no
                # check recorded), moved in the same transaction as the bodies.
                conn.execute(
                    "UPDATE chain_heads SET erasure_head = ?, counts = ? WHERE student_id = ? "
                    "AND subject_id = ?",
                    (prev, json.dumps(erased_from(counts, done), sort_keys=True), *key),
                )
        return done

    def _rename_concepts(self, conn: sqlite3.Connection, pair: Pair, names: Sequence[str]) -> None:
        """A concept's stored name comes from the first episode still touching it (or goes)."""
        key = (pair.student_id, pair.subject_id)
        for ckey in {concept_key(n) for n in names} - {""}:
            first = conn.execute(
                "SELECT e.concepts FROM episode_concepts c JOIN episodes e ON e.student_id = "
                "c.student_id AND e.subject_id = c.subject_id AND e.seq = c.seq WHERE "
                "c.student_id = ? AND c.subject_id = ? AND c.concept_key = ? ORDER BY c.seq "
                "LIMIT 1",
                (*key, ckey),
            ).fetchone()
            name = next(
                (n for n in json.loads(first[0]) if concept_key(n) == ckey) if first else iter(()),
                None,
            )
            if name is None:
                conn.execute(
                    "DELETE FROM concept_names WHERE student_id = ? AND subject_id = ? "
                    "AND concept_key = ?",
                    (*key, ckey),
                )
            else:
                conn.execute(
                    "UPDATE concept_names SET name = ? WHERE student_id = ? AND subject_id = ? "
                    "AND concept_key = ?",
                    (name, *key, ckey),
                )

    def delete_beliefs_citing(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        """Delete every belief row (current or past) resting on any of these episodes."""
        wanted = set(episode_ids)
        doomed = [
            b.belief_id
            for b in self._beliefs(
                "student_id = ? AND subject_id = ?", (pair.student_id, pair.subject_id)
            )
            if wanted & set(b.evidence_ids)
        ]
        with self._erasing() as conn:
            for belief in doomed:
                conn.execute(
                    "DELETE FROM beliefs WHERE student_id = ? AND subject_id = ? AND belief_id = ?",
                    (pair.student_id, pair.subject_id, belief),
                )
        return len(doomed)

    def delete_documents(self, pair: Pair, names: Sequence[str] | None = None) -> None:
        """Delete these per-pair documents (all of them when ``names`` is None)."""
        key = (pair.student_id, pair.subject_id)
        with self._erasing() as conn:
            if names is None:
                conn.execute(
                    "DELETE FROM pair_documents WHERE student_id = ? AND subject_id = ?", key
                )
            for name in names or ():
                conn.execute(
                    "DELETE FROM pair_documents WHERE student_id = ? AND subject_id = ? "
                    "AND name = ?",
                    (*key, name),
                )

    def forget_file_version(
        self, pair: Pair, file_id: str, fingerprint: str, *, name: str | None = None
    ) -> bool:
        key = (pair.student_id, pair.subject_id, file_id)
        with self._erasing() as conn:
            gone = conn.execute(
                "DELETE FROM file_versions WHERE student_id = ? AND subject_id = ? "
                "AND file_id = ? AND fingerprint = ?",
                (*key, fingerprint),
            ).rowcount
            (left,) = conn.execute(
                "SELECT count(*) FROM file_versions WHERE student_id = ? AND subject_id = ? "
                "AND file_id = ?",
                key,
            ).fetchone()
            if not left:
                conn.execute(
                    "DELETE FROM files WHERE student_id = ? AND subject_id = ? AND file_id = ?",
                    key,
                )
            elif gone and name is not None:
                conn.execute(
                    "UPDATE files SET name = ? WHERE student_id = ? AND subject_id = ? "
                    "AND file_id = ?",
                    (name, *key),
                )
        return bool(gone)

    def purge_pair(self, pair: Pair) -> None:
        """Everything kept about a pair beside its log: the map, beliefs, documents, the file
        registry, annotations, the queue, concept links and names. The log's envelopes and the
        erasure records stay."""
        key = (pair.student_id, pair.subject_id)
        with self._decoded_lock:  # its concept links go without an erasure of the log
            self._views.pop(key, None)
        with self._erasing() as conn:
            for table in (
                "concept_maps",
                "beliefs",
                "pair_documents",
                "files",
                "file_versions",
                "annotations",
                "citations",
                "episode_concepts",
                "concept_names",
            ):
                conn.execute(f"DELETE FROM {table} WHERE student_id = ? AND subject_id = ?", key)

    def pairs_of(self, student_id: str) -> list[Pair]:
        """Every pair of a student that has a chain."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT subject_id FROM chain_heads WHERE student_id = ? ORDER BY subject_id",
                (student_id,),
            ).fetchall()
        return [Pair(student_id, r[0]) for r in rows]

    def shred_student(self, student_id: str) -> bool:
        """False: the embedded store keeps no body under a student's key, so there is no key to
        destroy; erasing the student's bodies (``erase``, ``purge_pair``, ``compact``) is what
        removes them from the file."""
        return False

    def newest_rows(self, pair: Pair, limit: int) -> int:
        """Read the pair's newest ``limit`` episode rows by the (pair, time) index, undecoded,
        and return how many were read: the bare indexed read the perf bench sets as a floor
        beside a turn's store reads (no kept view, no decoding)."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT * FROM episodes WHERE student_id = ? AND subject_id = ? "
                "ORDER BY at DESC, seq DESC LIMIT ?",
                (pair.student_id, pair.subject_id, limit),
            ).fetchall()
        return len(rows)


def _canonical(text: str | None) -> bool:
    """The stored time is in ``format_time``'s form (so it sorts as text as it does as a time)."""
    if text is None:
        return True
    try:
        return format_time(parse_time(text)) == text
    except ValueError:
        return False


def _times(first: str | None, last: str | None) -> tuple[datetime | None, datetime | None]:
    return (
        parse_time(first) if first is not None else None,
        parse_time(last) if last is not None else None,
    )
