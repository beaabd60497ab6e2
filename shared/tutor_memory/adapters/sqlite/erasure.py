"""Erasure and export on SQLite (see ``tutor_memory.usecases.erasure``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from tutor_memory.adapters.records import episode_from_record, episode_to_record
from tutor_memory.adapters.sqlite.beliefs import SqliteBeliefs
from tutor_memory.adapters.sqlite.connection import _EPISODE_COLUMNS
from tutor_memory.domain.chain import (
    Erasure,
    ErasureScope,
    erase,
    erased_from,
    erasure_records,
    format_time,
    parse_time,
)
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Pair, erased_key_digest


class SqliteErasure(SqliteBeliefs):
    """:class:`tutor_memory.ports.ErasingStore` on SQLite."""

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

    def erasure_number(self, pair: Pair) -> int:
        """The count of the pair's records: what ``erase`` numbers on from."""
        with self._connection() as conn:
            (number,) = conn.execute(
                "SELECT count(*) FROM erasures WHERE student_id = ? AND subject_id = ?",
                (pair.student_id, pair.subject_id),
            ).fetchone()
        return int(number)

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

    def erased_pairs(self) -> list[Pair]:
        """Every pair with an erasure record (what ``tutor-memory migrate`` looks at)."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT DISTINCT student_id, subject_id FROM erasures ORDER BY 1, 2"
            ).fetchall()
        return [Pair(*row) for row in rows]

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
            rows = [
                conn.execute(
                    f"SELECT {_EPISODE_COLUMNS} FROM episodes WHERE student_id = ? "
                    "AND subject_id = ? AND seq = ?",
                    (*key, seq),
                ).fetchone()
                for seq in sorted(set(seqs))
            ]
            todo = [episode_from_record(dict(r)) for r in rows if r is not None and not r["erased"]]
            records = erasure_records(todo, (number, prev), (at, reason, requested_by, scope))
            for episode, record in zip(todo, records, strict=True):
                seq, number, prev = episode.seq, record.number, record.digest
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
        self._forget_decoded(pair)
        return done

    def _forget_decoded(self, pair: Pair) -> None:
        """Let go of the pair's episodes as decoded before (its view with them): the turn path
        would not serve an erased one (it checks each row), but the process would still hold
        its words."""
        key = (pair.student_id, pair.subject_id)
        with self._decoded_lock:
            self._views.pop(key, None)
            for gone in [k for k in self._decoded if (k[0], k[1]) == key]:
                del self._decoded[gone]

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
        self._forget_decoded(pair)  # its concept links go without an erasure of the log
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

    def maps_of(self, student_id: str) -> list[Pair]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT subject_id FROM concept_maps WHERE student_id = ? ORDER BY subject_id",
                (student_id,),
            ).fetchall()
        return [Pair(student_id, r[0]) for r in rows]

    def shred_student(self, student_id: str) -> bool:
        """False: the embedded store keeps no body under a student's key, so there is no key to
        destroy; erasing the student's bodies (``erase``, ``purge_pair``, ``compact``) is what
        removes them from the file."""
        return False

    def erased_key(self, pair: Pair, digest: str) -> datetime | None:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT at FROM erased_keys WHERE student_id = ? AND subject_id = ? AND digest = ?",
                (pair.student_id, pair.subject_id, digest),
            ).fetchone()
        return parse_time(row[0]) if row else None
