"""A cloud turn waits at most three times, one after another (ARCHITECTURE rule 10): counted on
the turn's causal path by the bench's instrument, on moto, never by the clock; a teacher's turn
once more (whether they teach the student). The turn's deadline is a test's (no turn is
dropped because the machine is busy: a dropped turn failed one clean-clone run)."""

from __future__ import annotations

import pytest

from tutor_memory.bench.perf import CLOUD_QUESTIONS, TEACHER_QUESTION, cloud

LONG = 30.0  # the longest turn deadline the settings take (s): moto's turns take well under it


@pytest.mark.slow
def test_every_kind_of_cloud_turn_waits_at_most_three_times() -> None:
    """Each turn asked as the API asks it: its read kept in the record of disclosures (one
    PutItem), written while the turn reads, so no wait is added."""
    result = cloud(40, seed=7, deadline_s=LONG)

    turns = [t for t in result["turns"] if t["caller"] == "service"]
    assert [t["question"] for t in turns] == [kind for kind, _ in CLOUD_QUESTIONS]
    waits = {t["question"]: t["sequential_waits"] for t in turns}
    assert max(waits.values()) <= 3, waits
    assert all(t["sequential_waits"] >= 2 for t in turns)  # it did count
    assert all(t["dynamodb"]["by_operation"]["PutItem"] == 1 for t in turns)  # the read's record
    # A teacher's turn first asks whether they teach the student (one query of their
    # classes): one wait more, before anything of the student is read.
    (taught,) = [t for t in result["turns"] if t["question"] == TEACHER_QUESTION]
    assert taught["caller"] == "teacher"
    assert taught["sequential_waits"] == waits[CLOUD_QUESTIONS[0][0]] + 1, taught


@pytest.mark.slow
def test_a_cloud_turn_that_takes_its_beliefs_from_the_working_set_waits_no_longer() -> None:
    result = cloud(40, seed=7, night=True, deadline_s=LONG)

    assert all(t["working_set"] for t in result["turns"])  # the night's set was current
    waits = {t["question"]: t["sequential_waits"] for t in result["turns"]}
    assert max(w for q, w in waits.items() if q != TEACHER_QUESTION) <= 3, waits
    assert waits[TEACHER_QUESTION] <= 4, waits


@pytest.mark.slow
def test_reading_the_crowds_vectors_adds_no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a crowd to measure (50 episodes or more in the recent pool), a turn also reads
    the vectors of the recent and semantic pools: beside the cosines, not after them."""
    from tutor_memory.adapters.opensearch_index import OpenSearchIndex

    asked: list[int] = []
    vectors = OpenSearchIndex.vectors

    def counted(self: OpenSearchIndex, pair: object, ids: list[str]) -> object:
        asked.append(len(ids))
        return vectors(self, pair, ids)  # type: ignore[arg-type]

    monkeypatch.setattr(OpenSearchIndex, "vectors", counted)
    result = cloud(120, seed=7, deadline_s=LONG)

    assert asked and min(asked) >= 50
    turns = [t for t in result["turns"] if t["caller"] == "service"]
    assert not any(t["dropped"] for t in turns)
    assert max(t["sequential_waits"] for t in turns) <= 3
