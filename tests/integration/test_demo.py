"""``tutor-memory demo``: the walkthrough runs on a fresh store and its sections read in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
