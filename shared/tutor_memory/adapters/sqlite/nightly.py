"""What the nightly loop keeps on SQLite: the activity index, the verification queue and the
per-pair documents.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tutor_memory.adapters.records import annotation_to_record
from tutor_memory.adapters.sqlite.connection import SqliteConnection
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import Episode, Kind, Pair
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.nightly import utc_day, utc_days
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import StoredDocument


class SqliteNightly(SqliteConnection):
    """:class:`tutor_memory.ports.NightlyStore` on SQLite."""

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
