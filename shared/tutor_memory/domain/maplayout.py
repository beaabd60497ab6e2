"""Where each concept of a map is drawn: columns in teaching order (pure; no drawing library).

Both pictures of a map — the report's PNG (``report_plots``) and the inspector's SVG
(``inspector_html``) — place the nodes with this, so they show the same arrangement.
"""

from __future__ import annotations

from collections.abc import Iterable

from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.conceptmap import ConceptMap


def map_columns(cmap: ConceptMap) -> list[list[str]]:
    """The stored teaching order as columns, each column top to bottom.

    The first column keeps the stored order (hubs first). Each later one is sorted by where its
    prerequisites sit (the barycentre heuristic, one pass), so that arrows cross less; a node
    with no placed prerequisite keeps its stored place. A node the order does not list (an old
    map) goes last.
    """
    stored = [[k for k in layer if k in cmap.concepts] for layer in cmap.teaching_order]
    listed = {k for layer in stored for k in layer}
    stored.append(sorted(k for k in cmap.concepts if k not in listed))
    placed: dict[str, float] = {}  # key → height, centred on 0 as the layout centres a column
    columns: list[list[str]] = []
    for layer in (layer for layer in stored if layer):
        rank = centred(layer)
        where = {k: _barycentre(cmap, k, placed, rank[k]) for k in layer}
        ordered = sorted(layer, key=lambda k: (where[k], rank[k]))
        placed |= centred(ordered)
        columns.append(ordered)
    return columns


def centred(column: list[str]) -> dict[str, float]:
    """Each key's height in its column, centred on 0 (the first on top is the lowest)."""
    return {k: i - (len(column) - 1) / 2 for i, k in enumerate(column)}


def _barycentre(cmap: ConceptMap, key: str, placed: dict[str, float], default: float) -> float:
    ys = [placed[p] for p in cmap.concepts[key].builds_on if p in placed]
    return sum(ys) / len(ys) if ys else default


def beliefs_on_map(beliefs: Iterable[Belief], cmap: ConceptMap) -> dict[str, Belief]:
    """The student's current belief about each concept of the map that has one.

    A picture of the map shows it beside the concept's readiness, never instead of it: readiness
    is about the material (one passing check once confirmed it), the belief about the student
    (every check since).
    """
    return {b.concept_key: b for b in beliefs if b.current and b.concept_key in cmap.concepts}
