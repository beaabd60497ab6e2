"""Reading files into the map once, and teaching it (SPEC §4, §5), on the embedded default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.conceptmap import Layer
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.filetext import UnreadableFileError
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

from ..conftest import T0


@pytest.fixture
def app(tmp_path: Path) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    return build_app(settings, clock=FixedClock(T0))


def ingest_sample(app: App, pair: Pair) -> None:
    for name, data in sample_subject():
        app.maps.ingest(pair, name.replace(" ", "-"), name, data)


def test_the_sample_subject_becomes_one_map_with_provenance_from_both_files(
    app: App, pair: Pair
) -> None:
    ingest_sample(app, pair)
    cmap = app.ports.store.load_map(pair)  # type: ignore[attr-defined]
    assert len(cmap.concepts) == 14
    osmosis = cmap.concepts["osmosis"]
    assert sorted(s.file_id for s in osmosis.sources) == [
        "cell-biology.pdf",
        "plant-and-animal-cells.md",
    ]
    assert ("osmosis", "cell membrane") in cmap.edges()
    diffusion = cmap.concepts["diffusion"]
    assert diffusion.layer is Layer.ASSUMED and diffusion.readiness == 0.35
    assert "Respiration" in cmap.concepts["mitochondria"].assumed
    assert "respiration" not in cmap.concepts
    assert cmap.concepts["cell membrane"].readiness == 0.6
    assert 0 < cmap.subject_readiness < 0.6  # an unexplained hub costs something
    first_layer = cmap.teaching_order[0]
    assert "cell" in first_layer and "osmosis" not in first_layer
    hub = max(cmap.concepts.values(), key=lambda c: c.centrality)
    assert hub.key in {"cell", "cell membrane"}


def test_each_file_arrival_is_an_episode_naming_its_concepts(app: App, pair: Pair) -> None:
    ingest_sample(app, pair)
    files = [e for e in app.memory.history(pair) if e.kind is Kind.FILE]
    assert [e.summary for e in files] == [
        "File arrived: cell-biology.pdf",
        "File arrived: plant-and-animal-cells.md",
    ]
    assert "Osmosis" in files[0].concepts
    assert [f.file_id for f in app.ports.store.files(pair)] == [
        "cell-biology.pdf",
        "plant-and-animal-cells.md",
    ]


def test_the_same_bytes_uploaded_twice_are_read_once(app: App, pair: Pair) -> None:
    name, data = sample_subject()[0]
    first = app.maps.ingest(pair, "cells", name, data)
    again = app.maps.ingest(pair, "cells", name, data)
    assert not first.already_read and again.already_read
    assert again.map_version == first.map_version
    assert len([e for e in app.memory.history(pair) if e.kind is Kind.FILE]) == 1


def test_furniture_is_refused_and_said_so(app: App, pair: Pair) -> None:
    name, data = sample_subject()[0]
    result = app.maps.ingest(pair, "cells", name, data)
    refused = {n for n, _why in result.rejected}
    assert {"Introduction", "Summary", "Review questions"} <= refused
    assert "Introduction" not in result.concepts


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("grades.xlsx", b"PK\x03\x04 not really a workbook", "unsupported"),
        ("broken.pdf", b"%PDF-1.7 garbage", "PDF"),
        ("empty.md", b"", "empty"),
    ],
)
def test_an_unreadable_file_is_a_clear_error_and_an_episode_and_nothing_else(
    app: App, pair: Pair, name: str, data: bytes, reason: str
) -> None:
    with pytest.raises(UnreadableFileError) as caught:
        app.maps.ingest(pair, "upload-1", name, data)
    assert name in str(caught.value) and reason in str(caught.value)
    (episode,) = app.memory.history(pair)
    assert episode.kind is Kind.FILE and episode.text.startswith("File could not be read:")
    assert app.ports.store.files(pair) == []
    assert app.ports.store.load_map(pair).concepts == {}  # type: ignore[attr-defined]


def test_teaching_attaches_a_note_to_the_named_concept(app: App, pair: Pair) -> None:
    ingest_sample(app, pair)
    said = "Remember that in our class we call the mitochondria the powerhouse of the cell"
    result = app.maps.teach(pair, said)
    assert result is not None and result.concept_key == "mitochondria" and not result.new_node
    node = app.ports.store.load_map(pair).concepts["mitochondria"]  # type: ignore[attr-defined]
    assert node.taught_note == "mitochondria = the powerhouse of the cell"  # the claim
    assert node.readiness == 1.0
    taught = app.memory.episode(pair, result.episode_id)
    assert taught.kind is Kind.TAUGHT and taught.salience == 0.85
    # the student's sentence is kept whole as the episode's text
    assert taught.text == said


def test_teaching_an_unknown_concept_mints_a_short_named_node(app: App, pair: Pair) -> None:
    ingest_sample(app, pair)
    result = app.maps.teach(
        pair, "Remember that in our class we call the Golgi body the post office of the cell"
    )
    assert result is not None and result.new_node and result.concept_name == "Golgi body"
    node = app.ports.store.load_map(pair).concepts[result.concept_key]  # type: ignore[attr-defined]
    assert node.layer is Layer.TAUGHT and node.readiness == 1.0


@pytest.mark.parametrize(
    "message",
    [
        "Do you remember that the mitochondria is the powerhouse?",
        "¿Recuerdas que la mitocondria produce energía?",
        "What is the mitochondria?",
    ],
)
def test_a_question_never_teaches(app: App, pair: Pair, message: str) -> None:
    ingest_sample(app, pair)
    before = app.ports.store.load_map(pair)  # type: ignore[attr-defined]
    assert app.maps.teach(pair, message) is None
    assert app.ports.store.load_map(pair) == before  # type: ignore[attr-defined]


def test_a_file_past_its_reading_budget_is_recorded_unreadable_and_never_read_again(
    app: App, pair: Pair
) -> None:
    reads: list[str] = []

    def slow_reader(name: str, data: bytes) -> Any:
        reads.append(name)
        raise UnreadableFileError(name, "reading took longer than 120 s (stopped after page 3)")

    app.maps.read_file = slow_reader
    for _attempt in range(2):  # the upload's event delivered again, or the same bytes re-sent
        with pytest.raises(UnreadableFileError) as caught:
            app.maps.ingest(pair, "heavy.pdf", "heavy.pdf", b"%PDF-1.7 heavy")
        assert "longer than 120 s" in str(caught.value)
    assert reads == ["heavy.pdf"]
    (episode,) = app.memory.history(pair)
    assert episode.kind is Kind.FILE and "longer than 120 s" in episode.text
