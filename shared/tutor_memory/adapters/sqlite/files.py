"""Annotations beside the log, and the file registry, on SQLite."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from tutor_memory.adapters.records import annotation_from_record, annotation_to_record
from tutor_memory.adapters.sqlite.connection import SqliteConnection
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import NotFoundError
from tutor_memory.domain.files import FileRecord, FileVersion


class SqliteFiles(SqliteConnection):
    """The annotations and files of :class:`tutor_memory.ports.EpisodeStore` on SQLite."""

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
