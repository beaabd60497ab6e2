"""An idempotency key outlives its episode's erasure as a keyed hash, on every store: a retry of
the erased write is refused (``ErasedError``, saying when) and writes nothing, no byte of the
key's text is kept, and the system's own keys are written again after an erasure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain.episodes import Kind, Pair, erased_key_digest
from tutor_memory.domain.errors import ErasedError
from tutor_memory.ports import FixedClock
from tutor_memory.usecases.log import TutorMemory

KEY = "retry-zorblaxquint-7"
ERASED_AT = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def test_a_retry_of_an_erased_write_is_refused_and_writes_nothing(
    memory: TutorMemory, clock: FixedClock
) -> None:
    pair = Pair("s-keys", "biology")
    store = memory.ports.store
    first = memory.record(pair, Kind.QUESTION, "What is osmosis?", idempotency_key=KEY)
    retry = memory.record(pair, Kind.QUESTION, "What is osmosis?", idempotency_key=KEY)
    assert retry.episode == first.episode and not retry.created
    store.erase(
        pair, [first.episode.seq], at=ERASED_AT, reason="asked", requested_by="test",
        scope="episode",
    )  # fmt: skip
    assert store.erased_key(pair, erased_key_digest(pair, KEY)) == ERASED_AT
    assert store.erased_key(Pair("s-other", "biology"), erased_key_digest(pair, KEY)) is None

    with pytest.raises(ErasedError, match="erased at 2026-12-03T09:00:00Z") as refused:
        memory.record(pair, Kind.QUESTION, "What is osmosis?", idempotency_key=KEY)
    assert refused.value.erased_at == ERASED_AT
    with pytest.raises(ErasedError):  # another request under the key: refused alike
        memory.record(pair, Kind.QUESTION, "Something else", idempotency_key=KEY)
    head = store.head(pair)
    assert head is not None and head.seq == 1  # nothing was written
    assert KEY not in repr(store.get(pair, first.episode.episode_id))

    # A new key writes; the same key in another pair is another key.
    assert memory.record(pair, Kind.QUESTION, "Again", idempotency_key="new-key").created
    assert memory.record(
        Pair("s-other", "biology"), Kind.QUESTION, "Hi", idempotency_key=KEY
    ).created


def test_the_systems_own_key_is_written_again_after_an_erasure(
    memory: TutorMemory, clock: FixedClock
) -> None:
    pair = Pair("s-night", "biology")
    store = memory.ports.store
    key = "consolidation:2026-12-02"
    night = memory.record(pair, Kind.QUESTION, "Written by the night", idempotency_key=key)
    store.erase(
        pair, [night.episode.seq], at=clock.now() + timedelta(hours=1), reason="quoted",
        requested_by="test", scope="derived",
    )  # fmt: skip
    again = memory.record(pair, Kind.QUESTION, "Written again", idempotency_key=key)
    assert again.created and again.episode.seq == 2
