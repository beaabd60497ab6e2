"""A glossary file read through the CLI puts its terms on the map with their definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor_memory.cli import main

PAIR = ["--student", "s1", "--subject", "biology"]


@pytest.mark.parametrize(
    ("name", "body", "line"),
    [
        ("glossary.csv", "Term,Definition\nDiffusion,The spreading of particles.\n"
         'Osmosis,"The diffusion of water, across a membrane."\n',
         "- Osmosis: The diffusion of water, across a membrane. (builds on: Diffusion)"),
        ("notas.md", "# Biología\n\n## Glosario\n\n| Difusión | El movimiento de partículas. |\n"
         "| Ósmosis | La difusión del agua. |\n",
         "- Ósmosis: La difusión del agua. (builds on: Difusión)"),
    ],
)  # fmt: skip
def test_an_ingested_glossary_shows_its_terms_and_definitions_on_the_map(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, body: str, line: str
) -> None:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    store = ["--store", str(tmp_path / "tm")]
    assert main(["ingest", *store, *PAIR, str(path)]) == 0
    capsys.readouterr()
    assert main(["map", *store, *PAIR]) == 0
    shown = capsys.readouterr().out
    assert line in shown.splitlines(), shown
    assert "Glosario" not in shown and "Term" not in shown
