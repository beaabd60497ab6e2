"""The map's derived numbers: centrality, readiness, subject readiness, teaching order."""

from __future__ import annotations

from dataclasses import replace

import networkx as nx
import numpy as np
import pytest

from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import (
    Concept,
    ConceptDraft,
    ConceptMap,
    Layer,
    Source,
    merge_file,
)
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.mapmetrics import derive

FILE = Source("biology.pdf", 1, "sha256:abc", (1,))


def node(
    name: str,
    *builds_on: str,
    explained: bool = True,
    layer: Layer = Layer.FILE,
    taught: str | None = None,
    confirmed: bool = False,
) -> Concept:
    return Concept(
        key=concept_key(name),
        name=name,
        layer=layer,
        gist=f"{name} is a thing.",
        sources=(FILE,) if explained else (),
        builds_on=tuple(concept_key(b) for b in builds_on),
        taught_note=taught,
        confirmed=confirmed,
    )


def cmap(*concepts: Concept) -> ConceptMap:
    return ConceptMap(concepts={c.key: c for c in concepts})


def k(name: str) -> str:
    return concept_key(name)


def layer_of(m: ConceptMap) -> dict[str, int]:
    return {key: i for i, layer in enumerate(m.teaching_order) for key in layer}


# A small cell-biology map: most things build on Cell.
BIOLOGY = cmap(
    node("Cell"),
    node("Cytoplasm", "Cell"),
    node("Cell membrane", "Cell"),
    node("Nucleus", "Cell"),
    node("Mitochondria", "Cytoplasm", "Cell"),
    node("Osmosis", "Cell membrane"),
    node("Cellular respiration", "Mitochondria"),
)


# --- centrality ------------------------------------------------------------------------------


def test_the_prerequisite_most_concepts_build_on_is_the_hub() -> None:
    m = derive(BIOLOGY)
    ranked = sorted(m.concepts.values(), key=lambda c: -c.centrality)
    assert ranked[0].key == k("Cell")
    assert all(ranked[0].centrality > c.centrality for c in ranked[1:])


def test_rank_flows_to_the_prerequisite_not_to_what_builds_on_it() -> None:
    # Respiration builds on Mitochondria, which builds on Cytoplasm.
    m = derive(
        cmap(
            node("Respiration", "Mitochondria"),
            node("Mitochondria", "Cytoplasm"),
            node("Cytoplasm"),
        )
    )
    c = {key: concept.centrality for key, concept in m.concepts.items()}
    assert c[k("Cytoplasm")] > c[k("Mitochondria")] > c[k("Respiration")]


def test_a_star_gets_the_exact_pagerank_numbers() -> None:
    # Two leaves build on one hub. Solving PageRank by hand (damping 0.85, three nodes):
    # hub = 27/47, each leaf = 10/47.
    m = derive(cmap(node("Hub"), node("Leaf one", "Hub"), node("Leaf two", "Hub")))
    assert m.concepts[k("Hub")].centrality == round(27 / 47, 6) == 0.574468
    assert m.concepts[k("Leaf one")].centrality == m.concepts[k("Leaf two")].centrality == 0.212766


def test_centrality_is_networkx_pagerank_over_concept_to_prerequisite_edges() -> None:
    m = derive(BIOLOGY)
    keys = sorted(m.concepts)
    g = nx.DiGraph()
    g.add_nodes_from(keys)
    g.add_edges_from(BIOLOGY.edges())  # (concept, prerequisite)
    google = np.asarray(nx.google_matrix(g, alpha=C.PAGERANK_DAMPING, nodelist=keys))
    x = np.full(len(keys), 1 / len(keys))
    for _ in range(500):
        x = x @ google
    for key, expected in zip(keys, x, strict=True):
        assert m.concepts[key].centrality == pytest.approx(float(expected), abs=2e-6)


def test_an_isolated_concept_keeps_its_share_and_the_shares_add_up_to_one() -> None:
    m = derive(cmap(node("Cell"), node("Nucleus", "Cell"), node("Photosynthesis")))
    assert m.concepts[k("Photosynthesis")].centrality > 0
    assert sum(c.centrality for c in m.concepts.values()) == pytest.approx(1.0, abs=1e-5)


# --- readiness -------------------------------------------------------------------------------


def test_each_concept_gets_the_readiness_band_of_its_evidence() -> None:
    m = derive(
        cmap(
            node("Named", explained=False),
            node("Explained"),
            node("Confirmed", confirmed=True),
            node("Taught", taught="we call it the powerhouse"),
        )
    )
    assert [m.concepts[k(n)].readiness for n in ("Named", "Explained", "Confirmed", "Taught")] == [
        0.35,
        0.60,
        0.85,
        1.0,
    ]


def test_subject_readiness_is_the_centrality_weighted_mean() -> None:
    # Hub 27/47 unexplained (0.35), two leaves 10/47 each explained (0.60).
    m = derive(
        cmap(
            node("Hub", explained=False),
            node("Leaf one", "Hub"),
            node("Leaf two", "Hub"),
        )
    )
    assert m.subject_readiness == round((27 * 0.35 + 20 * 0.60) / 47, 6) == 0.456383


def test_an_unexplained_hub_costs_more_than_an_unexplained_leaf() -> None:
    hub_missing = derive(
        cmap(node("Hub", explained=False), node("Leaf one", "Hub"), node("Leaf two", "Hub"))
    )
    leaf_missing = derive(
        cmap(node("Hub"), node("Leaf one", "Hub", explained=False), node("Leaf two", "Hub"))
    )
    everything = derive(cmap(node("Hub"), node("Leaf one", "Hub"), node("Leaf two", "Hub")))
    assert hub_missing.subject_readiness < leaf_missing.subject_readiness
    assert leaf_missing.subject_readiness < everything.subject_readiness == 0.6


def test_explaining_the_hub_raises_subject_readiness_more_than_explaining_a_leaf() -> None:
    base = cmap(
        node("Hub", explained=False),
        node("Leaf one", "Hub", explained=False),
        node("Leaf two", "Hub", explained=False),
    )
    before = derive(base).subject_readiness
    hub = derive(replace(base, concepts={**base.concepts, k("Hub"): node("Hub")}))
    leaf = derive(replace(base, concepts={**base.concepts, k("Leaf one"): node("Leaf one", "Hub")}))
    assert before == 0.35
    assert hub.subject_readiness - before > leaf.subject_readiness - before > 0


# --- teaching order --------------------------------------------------------------------------


def test_a_prerequisite_is_taught_before_what_builds_on_it() -> None:
    m = derive(
        cmap(
            node("Respiration", "Mitochondria"),
            node("Mitochondria", "Cytoplasm"),
            node("Cytoplasm"),
        )
    )
    assert m.teaching_order == ((k("Cytoplasm"),), (k("Mitochondria"),), (k("Respiration"),))


def test_every_edge_points_to_an_earlier_layer() -> None:
    m = derive(BIOLOGY)
    layer = layer_of(m)
    assert sorted(layer) == sorted(BIOLOGY.concepts)
    for concept, prerequisite in BIOLOGY.edges():
        assert layer[prerequisite] < layer[concept], (concept, prerequisite)


def test_the_first_layer_holds_exactly_the_concepts_that_build_on_nothing() -> None:
    m = derive(replace(BIOLOGY, concepts={**BIOLOGY.concepts, k("Enzyme"): node("Enzyme")}))
    assert set(m.teaching_order[0]) == {k("Cell"), k("Enzyme")}


def test_a_concept_waits_for_its_deepest_prerequisite() -> None:
    # Mitochondria builds on Cell directly and through Cytoplasm: it comes after both.
    m = derive(BIOLOGY)
    layer = layer_of(m)
    assert layer[k("Cell")] == 0
    assert layer[k("Cytoplasm")] == 1
    assert layer[k("Mitochondria")] == 2
    assert layer[k("Cellular respiration")] == 3


def test_the_direction_survives_a_file_read_through_merge() -> None:
    # What an extractor returns: "Mitochondria builds on Cytoplasm".
    drafts = [
        ConceptDraft("Mitochondria", "Mitochondria release energy.", builds_on=("Cytoplasm",)),
        ConceptDraft("Ribosome", "Ribosomes make proteins.", builds_on=("Cytoplasm",)),
        ConceptDraft("Cytoplasm", "The jelly that fills the cell."),
    ]
    m = derive(merge_file(ConceptMap(), drafts, FILE))
    assert m.teaching_order[0] == (k("Cytoplasm"),)
    hub = max(m.concepts.values(), key=lambda c: c.centrality)
    assert hub.key == k("Cytoplasm")


def test_hubs_come_first_within_a_layer_then_names() -> None:
    m = derive(
        cmap(
            node("Zinc"),
            node("Alpha"),
            node("Beta"),
            node("Uses zinc", "Zinc"),
            node("Also uses zinc", "Zinc"),
        )
    )
    # Zinc is built on twice, so it leads its layer; Alpha and Beta tie and go by name.
    assert m.teaching_order[0] == (k("Zinc"), k("Alpha"), k("Beta"))


def test_a_cycle_shares_one_layer_ordered_by_centrality() -> None:
    # Osmosis and Diffusion each claim to build on the other; Turgor builds on Osmosis.
    # Nothing can come first inside a cycle, so its members share a layer.
    m = derive(
        cmap(
            node("Water"),
            node("Osmosis", "Diffusion", "Water"),
            node("Diffusion", "Osmosis"),
            node("Turgor", "Osmosis"),
        )
    )
    layer = layer_of(m)
    assert layer[k("Water")] == 0
    assert layer[k("Osmosis")] == layer[k("Diffusion")] == 1
    assert layer[k("Turgor")] == 2
    # Osmosis is built on by two concepts, Diffusion by one: Osmosis leads the shared layer.
    assert m.concepts[k("Osmosis")].centrality > m.concepts[k("Diffusion")].centrality
    assert m.teaching_order[1] == (k("Osmosis"), k("Diffusion"))


def test_a_concept_that_claims_to_build_on_itself_is_still_ordered() -> None:
    m = derive(cmap(node("Cell", "Cell"), node("Nucleus", "Cell")))
    assert m.teaching_order == ((k("Cell"),), (k("Nucleus"),))


# --- the whole map ---------------------------------------------------------------------------


def test_the_same_map_gives_the_same_numbers_byte_for_byte() -> None:
    reordered = ConceptMap(concepts=dict(reversed(list(BIOLOGY.concepts.items()))))
    first, second, third = derive(BIOLOGY), derive(BIOLOGY), derive(reordered)
    assert first.to_dict() == second.to_dict() == third.to_dict()
    assert repr(first.to_dict()) == repr(third.to_dict())


def test_deriving_twice_changes_nothing() -> None:
    once = derive(BIOLOGY)
    assert derive(once).to_dict() == once.to_dict()


def test_derived_numbers_survive_a_round_trip_through_storage() -> None:
    m = derive(BIOLOGY)
    assert ConceptMap.from_dict(m.to_dict()) == m


def test_an_empty_map_has_no_order_and_no_readiness() -> None:
    m = derive(ConceptMap(version=3))
    assert m.concepts == {}
    assert m.teaching_order == ()
    assert m.subject_readiness == 0.0
    assert m.version == 3


def test_deriving_keeps_everything_that_is_not_derived() -> None:
    m = derive(BIOLOGY)
    for key, before in BIOLOGY.concepts.items():
        assert replace(m.concepts[key], centrality=0.0, readiness=before.readiness) == before
