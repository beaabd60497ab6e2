"""Belief rows on every backend: superseded, never rewritten; retired, never deleted."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError

AT = datetime(2026, 7, 12, tzinfo=UTC)


def row(pair: Pair, n: int, claim: Claim, confidence: float, concept: str = "osmosis") -> Belief:
    return Belief(
        pair=pair,
        belief_id=f"b-{concept[:4]}{n}",
        concept_key=concept,
        concept_name=concept.title(),
        claim=claim,
        confidence=confidence,
        evidence_ids=(f"e{n}-{n:012x}",),
        created_at=AT + timedelta(days=n),
        rule_version=1,
        reason=f"check {n}",
    )


def test_a_change_inserts_a_row_and_only_points_the_old_one_at_it(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    first = row(pair, 1, Claim.STRUGGLES, 0.67)
    store.add_belief(first, None)
    second = row(pair, 2, Claim.UNDERSTANDS, 0.56)
    store.add_belief(second, first)
    assert store.beliefs(pair) == [second]
    history = store.belief_history(pair, "osmosis")
    assert history == [replace(first, superseded_by=second.belief_id), second]
    assert history[0].claim is Claim.STRUGGLES and history[0].confidence == 0.67  # unchanged


def test_superseding_a_row_that_is_no_longer_current_writes_nothing(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    first = row(pair, 1, Claim.STRUGGLES, 0.67)
    store.add_belief(first, None)
    store.add_belief(row(pair, 2, Claim.UNDERSTANDS, 0.56), first)
    with pytest.raises(ConflictError):
        store.add_belief(row(pair, 3, Claim.UNDERSTANDS, 0.7), first)
    assert [b.belief_id for b in store.belief_history(pair, "osmosis")] == ["b-osmo1", "b-osmo2"]


def test_a_row_whose_id_is_there_already_is_a_conflict_writing_nothing(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    first = row(pair, 1, Claim.STRUGGLES, 0.67)
    store.add_belief(first, None)
    second = row(pair, 2, Claim.UNDERSTANDS, 0.56)
    store.add_belief(second, first)
    # The first row's id again, superseding the current one: refused as a conflict (what a
    # retry reads again), and the current row is still current.
    with pytest.raises(ConflictError):
        store.add_belief(replace(first, confidence=0.8), second)
    assert store.beliefs(pair) == [second]
    assert [b.belief_id for b in store.belief_history(pair, "osmosis")] == ["b-osmo1", "b-osmo2"]


def test_retiring_keeps_every_row_and_leaves_none_current(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    store.add_belief(row(pair, 1, Claim.STRUGGLES, 0.67), None)
    store.add_belief(row(pair, 1, Claim.UNDERSTANDS, 0.67, "cell"), None)
    assert store.retire_beliefs(pair, AT + timedelta(days=30)) == 2
    assert store.beliefs(pair) == []
    (kept,) = store.belief_history(pair, "cell")
    assert kept.retired_at == AT + timedelta(days=30)
    assert store.retire_beliefs(pair, AT + timedelta(days=31)) == 0


def test_beliefs_are_per_pair_and_sorted_by_concept(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    store.add_belief(row(pair, 1, Claim.STRUGGLES, 0.67, "osmosis"), None)
    store.add_belief(row(pair, 2, Claim.UNDERSTANDS, 0.67, "cell"), None)
    assert [b.concept_key for b in store.beliefs(pair)] == ["cell", "osmosis"]
    assert store.beliefs(Pair("student-2", "biology")) == []
    assert store.belief_generation(pair) == 0
