"""The concept map on SQLite: one row per pair, saved whole under an optimistic version."""

from __future__ import annotations

from dataclasses import replace

from tutor_memory.adapters.records import map_from_blob, map_to_blob
from tutor_memory.adapters.sqlite.connection import SqliteConnection
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
