"""The map's derived numbers (SPEC §4): centrality, readiness, subject readiness, teaching order.

This is the only module that imports networkx, and only the ingestion and teaching use cases
import it: the numbers are computed when the map changes and stored with it, so the turn path
reads them and never pays for the graph library.

Direction, once and for all: an edge points from a concept to a prerequisite it builds on
(``ConceptMap.edges()`` gives ``(concept, prerequisite)``). PageRank follows those edges, so rank
flows *to* prerequisites and a prerequisite that many concepts build on is a hub. The teaching
order runs the other way: prerequisites first.

Decisions (ours; the article names the measures, not these details):

* **Edge weight 1.0 per edge.** ``Concept.builds_on`` is the union of what every file asserted,
  without a count per file, so there is no honest stronger weight to use. The power iteration
  below is weighted, so a per-edge weight can be introduced where edges are built.
* **Our own power iteration, not ``networkx.pagerank``.** networkx 3 computes PageRank with
  scipy, which is not a dependency (and would weigh on the Lambda layer). The iteration below
  is the same definition (uniform teleport, dangling mass spread uniformly, networkx's stopping
  rule) in plain Python over sorted nodes, so the arithmetic happens in one fixed order and the
  result is identical, bit for bit, on every platform. A unit test checks it against networkx's
  own Google matrix.
* **Rounded to 6 decimals** when stored, so a number read back from any store compares equal.
"""

from __future__ import annotations

from dataclasses import replace

import networkx as nx

from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import Concept, ConceptMap, readiness_of


def derive(cmap: ConceptMap) -> ConceptMap:
    """The map with centrality, readiness, subject readiness and teaching order filled in.

    Pure and deterministic: the same map gives the same numbers, byte for byte.
    """
    edges = [(c, p) for c, p in cmap.edges() if c != p]  # a concept cannot build on itself
    rank = pagerank(sorted(cmap.concepts), edges)
    concepts = {
        key: replace(c, centrality=rank[key], readiness=readiness_of(c))
        for key, c in sorted(cmap.concepts.items())
    }
    return replace(
        cmap,
        concepts=concepts,
        subject_readiness=_weighted_readiness(concepts),
        teaching_order=_teaching_order(concepts, edges),
    )


def pagerank(
    nodes: list[str],
    edges: list[tuple[str, str]],
    *,
    damping: float = C.PAGERANK_DAMPING,
) -> dict[str, float]:
    """Weighted PageRank along ``edges`` (each ``MAP_EDGE_WEIGHT``), rounded to ``MAP_DECIMALS``.

    A node with no out-edge (a concept that builds on nothing) spreads its rank over every
    node, as networkx does; an isolated node therefore keeps its share.
    """
    order = sorted(nodes)
    n = len(order)
    if n == 0:
        return {}
    out: dict[str, dict[str, float]] = {u: {} for u in order}
    for u, v in sorted(edges):
        out[u][v] = out[u].get(v, 0.0) + C.MAP_EDGE_WEIGHT
    share: dict[str, dict[str, float]] = {}
    for u, vs in out.items():
        total = sum(vs.values())
        share[u] = {v: w / total for v, w in sorted(vs.items())}
    dangling = [u for u in order if not share[u]]

    x = dict.fromkeys(order, 1.0 / n)
    for _ in range(C.PAGERANK_MAX_ITER):
        spread = damping * sum(x[u] for u in dangling) / n + (1.0 - damping) / n
        nxt = dict.fromkeys(order, spread)
        for u in order:
            for v, w in share[u].items():
                nxt[v] += damping * x[u] * w
        err = sum(abs(nxt[u] - x[u]) for u in order)
        x = nxt
        if err < n * C.PAGERANK_TOLERANCE:
            break
    return {u: round(x[u], C.MAP_DECIMALS) for u in order}


def _weighted_readiness(concepts: dict[str, Concept]) -> float:
    """Centrality-weighted mean readiness: an unexplained hub costs more than a leaf."""
    if not concepts:
        return 0.0
    cs = [concepts[k] for k in sorted(concepts)]
    total = sum(c.centrality for c in cs)
    if total <= 0:  # cannot happen with teleport, but never divide by zero
        return round(sum(c.readiness for c in cs) / len(cs), C.MAP_DECIMALS)
    return round(sum(c.centrality * c.readiness for c in cs) / total, C.MAP_DECIMALS)


def _hub_first(c: Concept) -> tuple[float, str, str]:
    return (-c.centrality, c.name, c.key)


def _teaching_order(
    concepts: dict[str, Concept], edges: list[tuple[str, str]]
) -> tuple[tuple[str, ...], ...]:
    """Topological layers, prerequisites first; hubs first within a layer.

    Layer 0 holds the concepts that build on nothing; every other concept sits one layer after
    the deepest prerequisite it builds on. A cycle (A builds on B builds on A) cannot be
    ordered, so its members are condensed into one unit and share a layer.
    """
    if not concepts:
        return ()
    g = nx.DiGraph()
    g.add_nodes_from(sorted(concepts))
    g.add_edges_from(sorted((p, c) for c, p in edges))  # prerequisite → what builds on it
    dag = nx.condensation(g)
    layers: list[tuple[str, ...]] = []
    for generation in nx.topological_generations(dag):
        members = [concepts[k] for scc in generation for k in dag.nodes[scc]["members"]]
        layers.append(tuple(c.key for c in sorted(members, key=_hub_first)))
    return tuple(layers)
