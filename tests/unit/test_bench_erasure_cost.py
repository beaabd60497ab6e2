"""The erasure cost bench runs end to end on a small history (its figures are printed, never
asserted: only what it counts, which the machine's speed does not change)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tutor_memory.bench.erasure_cost import erase_one, write_history


def test_each_case_erases_one_episode_and_counts_its_reads_of_the_log(tmp_path: Path) -> None:
    built = tmp_path / "built"
    write_history(built, 40)
    for name in ("newest", "first", "operator"):
        shutil.copytree(built, tmp_path / name)
    newest = erase_one(tmp_path / "newest", "newest")
    first = erase_one(tmp_path / "first", "first")
    operator = erase_one(tmp_path / "operator", "newest", operator=True)
    # a request's erasure reads the log once (its checkpoint is the night's); the name's
    # erasure looks for a tutor's greeting among those its pass kept; an operator's reads it
    # once more, to check the chain before the checkpoint it anchors at once
    assert (newest["reads"], first["reads"], operator["reads"]) == (1, 1, 2)
    assert (newest["as"], operator["as"]) == ("request", "operator")
    assert "greeting" in first and "greeting" not in newest
    assert "verify" not in newest and operator["verify"] >= 0 and newest["cpu_s"] >= 0


def test_the_dynamodb_count_says_each_operation_of_an_erasure_on_moto() -> None:
    from tutor_memory.bench.erasure_cost import dynamo_requests

    row = dynamo_requests(12, "pair")
    operations = {k: v for k, v in row.items() if k not in ("erase", "episodes", "requests")}
    assert (row["erase"], row["episodes"]) == ("pair", 12)
    assert row["requests"] == sum(operations.values()) and row["TransactWriteItems"] >= 1
