"""The concept map on SQLite: one row per pair, saved whole under an optimistic version; a
class's course maps (one row per subject) and the students who follow the class likewise."""

from __future__ import annotations

import json
from dataclasses import replace

from tutor_memory.adapters.records import (
    course_from_blob,
    course_to_blob,
    map_from_blob,
    map_to_blob,
)
from tutor_memory.adapters.sqlite.connection import SqliteConnection
from tutor_memory.domain.classmaps import CourseMap
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.routing import ConceptVectors


class SqliteMaps(SqliteConnection):
    """:class:`tutor_memory.ports.MapStore` and its concept vectors on SQLite."""

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

    # --- a class's course maps (ports.CourseStore) -------------------------------------------

    def load_course(self, class_id: str, subject_id: str) -> CourseMap:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT body FROM course_maps WHERE class_id = ? AND subject_id = ?",
                (class_id, subject_id),
            ).fetchone()
        return course_from_blob(row[0]) if row else CourseMap(class_id, subject_id)

    def save_course(self, course: CourseMap) -> CourseMap:
        saved = replace(course, cmap=replace(course.cmap, version=course.version + 1))
        with self._write() as conn:
            row = conn.execute(
                "SELECT version FROM course_maps WHERE class_id = ? AND subject_id = ?",
                (course.class_id, course.subject_id),
            ).fetchone()
            if (row[0] if row else 0) != course.version:
                raise ConflictError(
                    f"the course map of {course.class_id}/{course.subject_id} changed meanwhile "
                    f"(version {row[0] if row else 0}, expected {course.version}); "
                    "nothing was saved"
                )
            conn.execute(
                "INSERT OR REPLACE INTO course_maps VALUES (?, ?, ?, ?)",
                (course.class_id, course.subject_id, saved.version, course_to_blob(saved)),
            )
        return saved

    def course_subjects(self, class_id: str) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT subject_id FROM course_maps WHERE class_id = ? ORDER BY subject_id",
                (class_id,),
            ).fetchall()
        return [r[0] for r in rows]

    def followers(self, class_id: str) -> tuple[str, ...]:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT students FROM class_followers WHERE class_id = ?", (class_id,)
            ).fetchone()
        return tuple(json.loads(row[0])) if row else ()

    def set_followers(self, class_id: str, students: tuple[str, ...]) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO class_followers VALUES (?, ?)",
                (class_id, json.dumps(sorted(set(students)))),
            )

    def leave_classes(self, student_id: str) -> list[str]:
        left = []
        with self._write() as conn:
            for class_id, students in conn.execute(
                "SELECT class_id, students FROM class_followers ORDER BY class_id"
            ).fetchall():
                followers = json.loads(students)
                if student_id in followers:
                    left.append(class_id)
                    conn.execute(
                        "UPDATE class_followers SET students = ? WHERE class_id = ?",
                        (json.dumps([s for s in followers if s != student_id]), class_id),
                    )
        return left
