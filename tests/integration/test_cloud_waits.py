"""A cloud turn waits at most three times, one after another (ARCHITECTURE rule 10): counted on
the turn's causal path by the bench's instrument, on moto, never by the clock."""

from __future__ import annotations

import pytest

from tutor_memory.bench.perf import CLOUD_QUESTIONS, cloud


@pytest.mark.slow
def test_every_kind_of_cloud_turn_waits_at_most_three_times() -> None:
    result = cloud(40, seed=7)

    assert [t["question"] for t in result["turns"]] == [kind for kind, _ in CLOUD_QUESTIONS]
    waits = {t["question"]: t["sequential_waits"] for t in result["turns"]}
    assert max(waits.values()) <= 3, waits
    assert all(t["sequential_waits"] >= 2 for t in result["turns"])  # it did count


@pytest.mark.slow
def test_a_cloud_turn_that_takes_its_beliefs_from_the_working_set_waits_no_longer() -> None:
    result = cloud(40, seed=7, night=True)

    assert all(t["working_set"] for t in result["turns"])  # the night's set was current
    waits = {t["question"]: t["sequential_waits"] for t in result["turns"]}
    assert max(waits.values()) <= 3, waits
