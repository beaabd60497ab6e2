"""Shared fixtures. Unit tests never touch the network: AWS calls go to moto, in process."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import FixedClock

# Fake credentials so that no test can ever reach a real AWS account.
for _name, _value in {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
}.items():
    os.environ[_name] = _value

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _heap_unfrozen_after_each_test() -> Iterator[None]:
    """``App.warm`` freezes the heap, as a server's start should; one test process runs many
    "starts", and what each froze must be collectable again once its test is over."""
    yield
    gc.unfreeze()


@pytest.fixture
def pair() -> Pair:
    return Pair("student-1", "biology")


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)
