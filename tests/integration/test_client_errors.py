"""The remote client raises the domain error the API mapped, as the local door raises it: the
same class (by the problem's type) and the same message, never a field named twice."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.api.client import _error
from tutor_memory.api.routes import ERROR_HANDLERS
from tutor_memory.domain.errors import (
    ConflictError,
    ContentionError,
    EmbedderError,
    ErasedError,
    IdempotencyConflictError,
    ModelCallError,
    NotFoundError,
    NotTeachingError,
    StoreError,
    TutorMemoryError,
    ValidationError,
)

from .test_library import KEYS, REGION, SETTINGS, SignatureChecking, served  # noqa: F401


def answered(exc: Exception) -> tuple[int, bytes]:
    """The status and body the API answers for ``exc`` (the most specific handler, as
    Powertools picks it)."""
    handlers = dict(ERROR_HANDLERS)
    handler = next(handlers[c] for c in type(exc).__mro__ if c in handlers)
    problem = handler(exc)
    return problem.status, json.dumps(problem.body("/pairs/a/b/x", "c-1")).encode()


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (ValidationError("recalled_ids", "no episode 'e9' in this pair"), ValidationError),
        (NotTeachingError(), NotTeachingError),
        (NotFoundError("no record of a/b: record an episode first"), NotFoundError),
        (ConflictError("the pair changed under the erasure"), ConflictError),
        (ContentionError("too many writers; retry"), ContentionError),
        (IdempotencyConflictError("msg-7"), IdempotencyConflictError),
        (ErasedError(datetime(2026, 3, 1, tzinfo=UTC)), ErasedError),
        (StoreError("throttled"), StoreError),
        (EmbedderError("titan", "throttled", retryable=True), ModelCallError),
        (TutorMemoryError("something else"), TutorMemoryError),
    ],
)
def test_each_problem_type_comes_back_as_the_error_it_was_mapped_from(
    raised: TutorMemoryError, expected: type[TutorMemoryError]
) -> None:
    back = _error(*answered(raised))
    assert type(back) is expected
    assert str(back) == str(raised)
    if isinstance(raised, ValidationError):
        assert isinstance(back, ValidationError)
        assert (back.field, back.problem) == (raised.field, raised.problem)
    if isinstance(raised, IdempotencyConflictError):
        assert getattr(back, "key", None) == "msg-7"
    if isinstance(raised, ModelCallError):
        assert isinstance(back, ModelCallError) and back.retryable == raised.retryable


def refusals(memory: Memory) -> list[tuple[str, str]]:
    said = []
    alice = memory.pair("alice", "biology")
    asked = alice.record_question("What is osmosis?")
    calls: list[Any] = [
        lambda: alice.record_taught("Osmosis is boring"),
        lambda: alice.record_answer("a", recalled_ids=["e9-000000000000"]),
        lambda: alice.record_taught("Remember that osmosis is " + "water, " * 400),
        # a turn's limits are the operation's, not the transport's: the local door had none
        # (a budget of -5 gave an empty block)
        lambda: alice.turn("What is osmosis? " * 1200),
        lambda: alice.turn("What is osmosis?", budget_tokens=-5),
        lambda: alice.turn("What is osmosis?", budget_tokens=10**9),
        lambda: alice.belief_history("nothing"),
        # the remote door said "query.reason: String should have …" and "path.aspect: Input
        # should be …": the same refusals in other words, naming other fields
        lambda: memory.erase("alice", "biology", asked.id, reason=""),
        lambda: memory.erase("alice", "biology", asked.id, reason="x" * 600),
        lambda: memory.set_profile("alice", "hobby", "chess"),
        lambda: memory.retract_profile("alice", "hobby"),
    ]
    for call in calls:
        with pytest.raises(TutorMemoryError) as caught:
            call()
        said.append((type(caught.value).__name__, str(caught.value)))
    return said


def test_the_remote_door_refuses_as_the_local_one_does(
    served: tuple[str, SignatureChecking],  # noqa: F811
    tmp_path: Path,
) -> None:
    url, _ = served
    with Memory.local(tmp_path / "local", settings=SETTINGS) as memory:
        local = refusals(memory)
    with Memory.remote(url, region=REGION, credentials=KEYS) as memory:
        remote = refusals(memory)
    assert remote == local
    assert local[0][0] == "NotTeachingError"
    assert local[1] == (
        "ValidationError",
        "recalled_ids: no episode 'e9-000000000000' in this pair",
    )
    assert local[2] == (
        "ValidationError",
        "text: teaches a note of 2809 characters; a taught note holds at most 2000: say what "
        "to remember in fewer words",
    )
    assert local[3:6] == [
        ("ValidationError", "question: String should have at most 20000 characters"),
        ("ValidationError", "budget_tokens: Input should be greater than or equal to 50"),
        ("ValidationError", "budget_tokens: Input should be less than or equal to 100000"),
    ]
    aspects = "name, preference, accommodation, language, goal, other"
    assert local[7:] == [
        ("ValidationError", "reason: must not be empty"),
        ("ValidationError", "reason: is 600 characters; the limit is 500"),
        ("ValidationError", f"aspect: must be one of {aspects}"),
        ("ValidationError", f"aspect: must be one of {aspects}"),
    ]
