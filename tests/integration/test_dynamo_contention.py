"""DynamoDB appends under a forced conflict, deterministically (moto, in process).

moto's in-process backend cannot be driven by concurrent threads (it is not thread-safe), so
here a racing writer is injected at the exact moment between reading the head and committing:
the transaction is cancelled by its condition and the append must retry against the new head.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from moto import mock_aws

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import ChainHead
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.domain.errors import ContentionError
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory

TABLE, REGION = "tm-contention", "us-east-1"


class RacedStore(DynamoStore):
    """Before each of its first `races` commits, another client appends to the same pair."""

    def __init__(self, rival: DynamoStore, races: int, clock: FixedClock) -> None:
        super().__init__(TABLE, REGION, sleep=self._record_sleep)
        self.rival, self.races, self.clock = rival, races, clock
        self.sleeps: list[float] = []

    def _record_sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def _head_for_append(self, pair: Pair) -> ChainHead | None:
        head = super()._head_for_append(pair)
        if self.races > 0:
            self.races -= 1
            self.rival.append(
                NewEpisode(pair, Kind.QUESTION, f"rival write {self.races}", self.clock.at)
            )
        return head


@pytest.fixture
def rival() -> Iterator[DynamoStore]:
    with mock_aws():
        store = DynamoStore(TABLE, REGION, sleep=lambda _s: None)
        store.create_table()
        yield store


def test_a_lost_race_is_retried_against_the_winners_head(
    rival: DynamoStore, pair: Pair, clock: FixedClock
) -> None:
    raced = RacedStore(rival, races=1, clock=clock)
    result = TutorMemory(Ports(raced, clock)).record(pair, "question", "What is osmosis?")
    assert result.created
    assert raced.conflicts == 1 and len(raced.sleeps) == 1
    texts = [e.text for e in rival.episodes(pair)]
    assert texts == ["rival write 0", "What is osmosis?"]
    assert result.episode.seq == 2
    assert TutorMemory(Ports(rival, clock)).verify_chain(pair).intact


def test_endless_conflicts_end_in_a_clear_error_and_write_nothing(
    rival: DynamoStore, pair: Pair, clock: FixedClock
) -> None:
    raced = RacedStore(rival, races=10_000, clock=clock)
    # every retry re-reads the head through the seam, where the rival wins again
    raced._head_from_reason = lambda *_a: None  # type: ignore[method-assign]
    with pytest.raises(ContentionError, match=f"after {C.APPEND_MAX_ATTEMPTS} conflicting"):
        TutorMemory(Ports(raced, clock)).record(pair, "question", "Will I ever be written?")
    texts = [e.text for e in rival.episodes(pair)]
    assert "Will I ever be written?" not in texts
    assert len(texts) == C.APPEND_MAX_ATTEMPTS + 1  # the rival's writes, nothing else
    assert TutorMemory(Ports(rival, clock)).verify_chain(pair).intact
    assert len(raced.sleeps) == C.APPEND_MAX_ATTEMPTS
    assert all(0 <= s <= C.APPEND_BACKOFF_CAP_S for s in raced.sleeps)


def test_an_idempotency_key_that_a_rival_used_first_returns_the_rivals_episode(
    rival: DynamoStore, pair: Pair, clock: FixedClock
) -> None:
    class KeyRace(RacedStore):
        def _head_for_append(self, p: Pair) -> ChainHead | None:
            head = DynamoStore._head_for_append(self, p)
            if self.races > 0:
                self.races -= 1
                self.rival.append(
                    NewEpisode(p, Kind.QUESTION, "sent twice", clock.at, idempotency_key="m-1")
                )
            return head

    raced = KeyRace(rival, races=1, clock=clock)
    result = TutorMemory(Ports(raced, clock)).record(
        pair, "question", "sent twice", idempotency_key="m-1"
    )
    assert not result.created
    assert [e.text for e in rival.episodes(pair)] == ["sent twice"]
