"""Concept routing by meaning, without a model: a small fixed map and a fake embedder whose
vectors follow the topic words a text contains (domain/routing.py, SPEC §1)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.conceptmap import (
    Concept,
    ConceptDraft,
    ConceptMap,
    Layer,
    Source,
    concept_text,
    merge_file,
    with_vectors,
)
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.filetext import FileText
from tutor_memory.domain.mapmetrics import derive
from tutor_memory.domain.recall import route_concepts
from tutor_memory.domain.routing import decode_vector, encode_vector, route_by_meaning
from tutor_memory.ports import EmbedderProfile, FixedClock, Ports, Vectors
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.maps import MapUseCases, refresh_vectors

# One axis per topic; a text points along the topics whose words it contains.
TOPICS = {
    "water": 0, "swell": 0, "permeable": 0,
    "energy": 1, "glucose": 1, "sugar": 1,
    "light": 2, "food": 2, "sunlight": 2,
    "dna": 3, "control": 3,
    "proteins": 4, "built": 4,
    "jelly": 5, "fluid": 5,
    "cellulose": 6, "rigid": 6, "stiff": 6,
    "bacteria": 7, "free": 7,
    "green": 8, "organelle": 8,
    "pumped": 9, "gradient": 9,
}  # fmt: skip
DIMENSION = 12


class TopicEmbedder:
    """Deterministic: topic axes, a shared background, and a little noise seeded by the text."""

    def __init__(self, name: str = "fake/topics") -> None:
        self._profile = EmbedderProfile(name, DIMENSION, concept_merge_threshold=0.99)
        self.queries: list[str] = []
        self.passages: list[str] = []

    @property
    def profile(self) -> EmbedderProfile:
        return self._profile

    def _vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
        v = np.random.default_rng(seed).normal(0, 0.05, DIMENSION)
        v[DIMENSION - 1] += 1.0  # what every text shares
        for axis in {TOPICS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in TOPICS}:
            v[axis] += 1.0
        return v / np.linalg.norm(v)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.queries += texts
        return np.stack([self._vector(t) for t in texts]).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.passages += texts
        return np.stack([self._vector(t) for t in texts]).astype(np.float32)


DRAFTS = [
    ConceptDraft("Osmosis", "Osmosis is the movement of water across a permeable membrane."),
    ConceptDraft("Mitochondria", "Mitochondria release energy from glucose."),
    ConceptDraft("Photosynthesis", "Plants make food from light."),
    ConceptDraft("Nucleus", "The nucleus holds the DNA and is the control centre."),
    ConceptDraft("Ribosomes", "Ribosomes are where proteins are built."),
    ConceptDraft("Cytoplasm", "Cytoplasm is the jelly fluid inside."),
    ConceptDraft("Cell wall", "A rigid layer of cellulose."),
    ConceptDraft("Prokaryotic cells", "Bacteria: DNA lies free."),
    ConceptDraft("Chloroplast", "A green organelle."),
    ConceptDraft("Active transport", "Particles pumped against a gradient."),
]
BOOK = Source("book", 1, "f" * 64)
PARAPHRASE = "Why do cells swell when water passes across a semi-permeable barrier?"


def fixed_map(embedder: TopicEmbedder | None = None) -> ConceptMap:
    return refresh_vectors(
        derive(merge_file(ConceptMap(), DRAFTS, BOOK)), embedder or TopicEmbedder()
    )


def ask(cmap: ConceptMap, question: str, embedder: TopicEmbedder | None = None) -> list[str]:
    embedder = embedder or TopicEmbedder()
    known = {key: c.name for key, c in cmap.concepts.items()}
    return route_concepts(
        question,
        known,
        vector=embedder.embed_queries([question])[0].tolist(),
        concept_vectors=cmap.vectors,
        profile=embedder.profile.name,
    )


def test_a_question_that_paraphrases_a_concept_routes_to_it_by_meaning() -> None:
    cmap = fixed_map()
    assert ask(cmap, PARAPHRASE) == ["osmosis"]
    assert ask(cmap, "Where does the energy in sugar get released?") == ["mitochondria"]


def test_a_question_about_two_concepts_routes_to_both_on_a_map_large_enough() -> None:
    # Twenty concepts, each on its own axis; the question leans on the first two equally.
    rng = np.random.default_rng(3)
    axes = np.eye(24, dtype=np.float32)
    rows = {}
    for i in range(20):
        v = axes[i] + axes[23] + rng.normal(0, 0.05, 24).astype(np.float32)
        rows[f"concept {i:02d}"] = (f"text {i}", (v / np.linalg.norm(v)).tolist())
    concepts = {k: Concept(key=k, name=k, layer=Layer.FILE, gist=t) for k, (t, _v) in rows.items()}
    cmap = with_vectors(ConceptMap(concepts=concepts), "fake/axes", 24, rows)
    question = axes[0] + axes[1] + axes[23]
    routed = route_by_meaning(question.tolist(), cmap.vectors, profile="fake/axes")
    assert sorted(routed) == ["concept 00", "concept 01"]


def test_a_question_about_nothing_on_the_map_routes_nowhere() -> None:
    assert ask(fixed_map(), "Hi, how are you today?") == []


def test_an_exact_name_wins_and_meaning_adds_nothing_beside_it() -> None:
    # It paraphrases osmosis but names the nucleus: the name is certain, the meaning a guess.
    assert ask(fixed_map(), f"{PARAPHRASE} And the nucleus?") == ["nucleus"]


def test_vectors_of_another_embedder_are_never_compared() -> None:
    cmap = fixed_map(TopicEmbedder("fake/old-model"))
    assert cmap.vectors is not None and cmap.vectors.profile == "fake/old-model"
    assert ask(cmap, PARAPHRASE, TopicEmbedder("fake/new-model")) == []
    # The next change recomputes every vector under the new profile.
    newer = TopicEmbedder("fake/new-model")
    refreshed = refresh_vectors(cmap, newer)
    assert refreshed.vectors is not None and refreshed.vectors.profile == "fake/new-model"
    assert len(newer.passages) == len(DRAFTS)
    assert ask(refreshed, PARAPHRASE, newer) == ["osmosis"]


def test_a_question_vector_of_the_wrong_size_routes_nowhere() -> None:
    cmap = fixed_map()
    assert route_by_meaning([0.1] * 7, cmap.vectors, profile="fake/topics") == []


def test_a_map_saved_before_vectors_existed_loads_and_routes_by_name_only() -> None:
    old = fixed_map().to_dict()
    del old["vectors"]
    cmap = ConceptMap.from_dict(old)
    assert cmap.vectors is None and "osmosis" in cmap.concepts
    assert ask(cmap, PARAPHRASE) == []
    assert ask(cmap, "What is osmosis?") == ["osmosis"]


def test_vectors_survive_the_stored_form() -> None:
    cmap = fixed_map()
    assert ConceptMap.from_dict(cmap.to_dict()) == cmap


def test_an_unknown_vector_encoding_is_dropped_not_misread() -> None:
    data = fixed_map().to_dict()
    data["vectors"]["encoding"] = "float16-base64"
    assert ConceptMap.from_dict(data).vectors is None


def test_a_small_map_routes_by_name_only() -> None:
    small = refresh_vectors(merge_file(ConceptMap(), DRAFTS[:5], BOOK), TopicEmbedder())
    assert ask(small, PARAPHRASE) == []


def test_only_new_or_changed_concepts_are_embedded_when_the_map_changes() -> None:
    embedder = TopicEmbedder()
    cmap = fixed_map(embedder)
    assert len(embedder.passages) == len(DRAFTS)
    embedder.passages.clear()
    taught = replace(cmap.concepts["osmosis"], taught_note="in our class: water moves in")
    changed = refresh_vectors(
        replace(cmap, concepts={**cmap.concepts, "osmosis": taught}), embedder
    )
    assert embedder.passages == [concept_text(taught)]
    assert changed.vectors is not None and cmap.vectors is not None
    assert changed.vectors.rows["osmosis"] != cmap.vectors.rows["osmosis"]
    assert changed.vectors.rows["nucleus"] == cmap.vectors.rows["nucleus"]
    embedder.passages.clear()
    assert refresh_vectors(changed, embedder) == changed and embedder.passages == []


def test_a_bare_name_gets_no_vector() -> None:
    bare = Concept(key="diffusion", name="Diffusion", layer=Layer.ASSUMED)
    cmap = fixed_map()
    with_bare = refresh_vectors(replace(cmap, concepts={**cmap.concepts, "diffusion": bare}), None)
    assert with_bare.vectors == cmap.vectors  # no embedder: nothing changes
    embedder = TopicEmbedder()
    again = refresh_vectors(replace(cmap, concepts={**cmap.concepts, "diffusion": bare}), embedder)
    assert embedder.passages == [] and again.vectors is not None
    assert "diffusion" not in again.vectors.rows


def test_the_concept_text_is_the_name_then_what_is_said_about_it_once() -> None:
    c = Concept(
        key="osmosis",
        name="Osmosis",
        layer=Layer.FILE,
        gist="Osmosis is water crossing a membrane.",
        definition="Osmosis is water crossing a membrane. It needs a partially permeable one.",
        taught_note="we call it water sneaking in",
    )
    assert concept_text(c) == (
        "Osmosis: Osmosis is water crossing a membrane. It needs a partially permeable one. "
        "we call it water sneaking in"
    )


def test_a_stored_vector_keeps_its_direction() -> None:
    v = np.random.default_rng(7).normal(size=384).astype(np.float32)
    v /= np.linalg.norm(v)
    assert float(decode_vector(encode_vector(v)) @ v) > 0.999


# --- the use cases: the map's vectors are computed when it changes; a turn embeds once -------


class Drafts:
    def extract(self, name: str, text: FileText) -> list[ConceptDraft]:
        return list(DRAFTS)


@pytest.fixture
def wired(pair: Pair, clock: FixedClock) -> tuple[TutorMemory, MapUseCases, TopicEmbedder]:
    embedder = TopicEmbedder()
    store = SqliteStore()
    memory = TutorMemory(Ports(store, clock, index=EmbeddedIndex(), embedder=embedder))
    maps = MapUseCases(
        memory.ports,
        memory,
        read_file=read_file,
        extractor=Drafts(),
        derive=derive,
    )
    return memory, maps, embedder


def test_ingestion_and_teaching_store_the_vectors_with_the_map(
    wired: tuple[TutorMemory, MapUseCases, TopicEmbedder], pair: Pair
) -> None:
    _memory, maps, embedder = wired
    maps.ingest(pair, "book", "book.md", b"# Cells\n\nA chapter about cells.\n")
    stored = maps.maps.load_map(pair)
    assert stored.vectors is not None and set(stored.vectors.rows) == set(stored.concepts)
    assert stored.vectors.profile == embedder.profile.name
    embedder.passages.clear()
    message = "Remember that in our class we call osmosis water sneaking in"
    maps.teach(pair, message)
    # The `taught` episode itself (the log is written first); then the taught concept alone
    # is re-embedded for the map.
    osmosis = maps.maps.load_map(pair).concepts["osmosis"]
    assert embedder.passages == [message, concept_text(osmosis)]


def test_recall_routes_a_paraphrase_with_the_one_question_vector(
    wired: tuple[TutorMemory, MapUseCases, TopicEmbedder], pair: Pair
) -> None:
    memory, maps, embedder = wired
    maps.ingest(pair, "book", "book.md", b"# Cells\n\nA chapter about cells.\n")
    checked = memory.record(
        pair,
        Kind.CHECK,
        "Check on Osmosis: wrong",
        concepts=["Osmosis"],
        evidence={"topic": "Osmosis", "verdict": "wrong"},
    )
    embedder.queries.clear()
    embedder.passages.clear()
    result = memory.recall(pair, PARAPHRASE)
    assert result.concept_keys == ("osmosis",)
    assert embedder.queries == [PARAPHRASE] and embedder.passages == []  # one embedding
    assert checked.episode.episode_id in {i.episode.episode_id for i in result.items}


def test_refreshing_an_old_map_computes_its_missing_vectors_once(
    wired: tuple[TutorMemory, MapUseCases, TopicEmbedder], pair: Pair
) -> None:
    memory, maps, embedder = wired
    maps.maps.save_map(pair, derive(merge_file(ConceptMap(), DRAFTS, BOOK)))  # no vectors
    assert memory.recall(pair, PARAPHRASE).concept_keys == ()
    assert maps.refresh_vectors(pair).vectors is not None
    embedder.passages.clear()
    maps.refresh_vectors(pair)
    assert embedder.passages == []
    assert memory.recall(pair, PARAPHRASE).concept_keys == ("osmosis",)


def test_a_question_that_names_one_concept_and_means_another_is_routed_both_ways(
    wired: tuple[TutorMemory, MapUseCases, TopicEmbedder], pair: Pair
) -> None:
    memory, maps, embedder = wired
    maps.ingest(pair, "book", "book.md", b"# Cells\n\nA chapter about cells.\n")
    question = "Does the nucleus get its energy from glucose?"
    embedder.queries.clear()
    result = memory.recall(pair, question)
    assert result.concept_keys == ("nucleus",)  # the gate: the name the student wrote
    assert result.meaning_keys == ("mitochondria",)  # the map's focus may use the meaning too
    assert embedder.queries == [question]  # still one embedding


def test_the_concept_pool_alone_reads_no_vectors_when_a_name_matched() -> None:
    reads: list[str] = []

    def vectors() -> None:
        reads.append("read")

    cmap = fixed_map()
    known = {key: c.name for key, c in cmap.concepts.items()}
    vector = TopicEmbedder().embed_queries(["the nucleus and glucose"])[0].tolist()
    keys = route_concepts("the nucleus and glucose", known, vector=vector, concept_vectors=vectors)
    assert keys == ["nucleus"] and reads == []
