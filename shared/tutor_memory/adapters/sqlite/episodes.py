"""The episode log on SQLite: appends, the chain head, and the log's reads.

Appends run in one ``BEGIN IMMEDIATE`` transaction: the write lock is taken before the head is
read, so two writers (threads or processes) can never seal against the same head.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence

from tutor_memory.adapters.pair_view import from_start
from tutor_memory.adapters.records import episode_from_record, episode_to_record
from tutor_memory.adapters.sqlite.connection import _EPISODE_COLUMNS
from tutor_memory.adapters.sqlite.kept_reads import SqliteKeptReads
from tutor_memory.adapters.sqlite.schema import _link_concepts
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    GENESIS_HASH,
    ChainHead,
    format_time,
    head_of,
    new_salt,
    parse_time,
    salt_for,
    seal,
    seq_of_id,
)
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.nightly import utc_day
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import AppendResult


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


class SqliteEpisodes(SqliteKeptReads):
    """The log of :class:`tutor_memory.ports.EpisodeStore` on SQLite (its annotations and files
    are in ``files``)."""

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

    def corrections(self, pair: Pair) -> list[Episode]:
        return self._select(
            "student_id = ? AND subject_id = ? AND kind = 'correction' ORDER BY seq",
            (pair.student_id, pair.subject_id),
        )

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

    def concept_names(self, pair: Pair) -> dict[str, str]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT concept_key, name FROM concept_names WHERE student_id = ? "
                "AND subject_id = ? ORDER BY concept_key",
                (pair.student_id, pair.subject_id),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

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
