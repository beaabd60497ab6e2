"""A removed file leaves the map. ``remove_file`` (the library, ``DELETE …/files/{file_id}``,
``tutor-memory remove-file``, an upload's deletion) said "take a file out of the concept map"
and only marked it removed in the registry: its concepts stayed on the map and in every block's
SUBJECT MAP. Now a concept only that file explains goes; one another file or a student's note
explains stays, with what remains; answers that cited it still read "removed"; its arrival
stays in the log; reading it again brings it back; a replay of the export gives the same map."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor_memory import Memory
from tutor_memory.cli import main
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
PDF_ONLY = {"cell", "cytoplasm", "mitochondria", "active transport"}  # the PDF explains alone
SHARED = {"osmosis", "nucleus", "cell membrane"}  # the Markdown file explains too


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    paths = []
    for name, data in sample_subject():  # cell-biology.pdf, plant-and-animal-cells.md
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    return paths


def test_a_removed_file_takes_what_only_it_explains_off_the_map(
    files: list[Path], tmp_path: Path
) -> None:
    pdf, md = files
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.ingest(pdf)
        pair.ingest(md)
        pair.record_taught("Remember that ribosomes build proteins from amino acids")
        before = pair.map().concepts
        assert PDF_ONLY | SHARED | {"ribosomes"} <= set(before)
        removed = pair.remove_file(pdf.name)
        assert removed.removed_at is not None
        after = pair.map().concepts
        assert not PDF_ONLY & set(after) and set(after) >= SHARED
        assert all(s.file_id == md.name for k in SHARED for s in after[k].sources)
        ribosomes = after["ribosomes"]  # the student's note keeps it, as taught
        assert ribosomes.layer == "taught" and not ribosomes.sources and ribosomes.taught_note
        block = pair.turn("What do mitochondria do?").block
        assert "Mitochondria" not in block and "Cytoplasm" not in block
        kinds = [e["kind"] for e in pair.episodes(limit=50).episodes]
        assert kinds.count("file") == 2  # its arrival stays in the log
        pair.ingest(pdf)  # read again: back on the map
        assert set(pair.map().concepts) >= PDF_ONLY


def test_every_door_takes_it_off_the_map_and_a_replay_keeps_it_off(
    files: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf, md = files
    store = tmp_path / "tm"
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.ingest(pdf)
        pair.ingest(md)
    args = ["--store", str(store), "--student", "s1", "--subject", "biology"]
    assert main(["remove-file", *args, pdf.name]) == 0
    capsys.readouterr()
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        concepts = memory.pair("s1", "biology").map().concepts
        assert not PDF_ONLY & set(concepts)
        memory.pair("s1", "biology").export(out=tmp_path / "export")
    assert (
        main(
            [
                "replay",
                "--store",
                str(tmp_path / "again"),
                str(tmp_path / "export" / "history.jsonl"),
            ]
        )
        == 0
    )
    with Memory.local(tmp_path / "again", settings=SETTINGS, ready=False) as replayed:
        assert set(replayed.pair("s1", "biology").map().concepts) == set(concepts)
