"""Belief rows on SQLite: inserted, superseded, retired."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from tutor_memory.adapters.sqlite.connection import SqliteConnection
from tutor_memory.domain.beliefs import Belief, belief_from_record, belief_to_record, chronological
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError


class SqliteBeliefs(SqliteConnection):
    """:class:`tutor_memory.ports.BeliefStore` on SQLite."""

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
            try:
                conn.execute(
                    f"INSERT INTO beliefs ({', '.join(record)}) VALUES ({marks})",
                    tuple(record.values()),
                )
            except sqlite3.IntegrityError as exc:  # that row is there already: as DynamoDB's
                raise ConflictError(  # condition says, a conflict (rolled back), not a crash
                    f"belief {new.belief_id} was written meanwhile; nothing was written"
                ) from exc

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
