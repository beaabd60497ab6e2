"""The erasure cost bench runs end to end on a small history (its figures are printed, never
asserted: only what it counts, which the machine's speed does not change)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tutor_memory.bench.erasure_cost import erase_one, write_history


def test_each_case_erases_one_episode_and_counts_its_reads_of_the_log(tmp_path: Path) -> None:
    built = tmp_path / "built"
    write_history(built, 40)
    shutil.copytree(built, tmp_path / "newest")
    shutil.copytree(built, tmp_path / "first")
    newest = erase_one(tmp_path / "newest", "newest")
    first = erase_one(tmp_path / "first", "first")
    # the erasure's pass and the check before its checkpoint; the name's erasure looks for a
    # tutor's greeting among those its pass kept
    assert (newest["reads"], first["reads"]) == (2, 2)
    assert "greeting" in first and "greeting" not in newest
    assert newest["cpu_s"] >= 0 and first["verify"] >= 0
