"""An erasure on DynamoDB takes its requests by the batch of episodes, not by the episode
(moto; every call counted as the cloud bench counts it: ``bench.cloudcost``).

Each request is a wait of its own. At about ten a episode (its item read, the head read, a
transaction, then a Query of its annotations, one of the whole citation queue, a delete per
concept link and a concept's name taken again), a pair of a few hundred episodes outlasted the
API's Lambda (15 s) on DynamoDB's real latency. Now: one transaction of up to 100 actions a
batch, the episodes read in BatchGetItem requests, and the items beside the log found in one
Query each and deleted in BatchWriteItem requests."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from moto import mock_aws

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bench.cloudcost import Tally, counting_dynamodb
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair, erased_key_digest
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings

TABLE, REGION = "tm-erasure-requests", "us-east-1"
PAIR = Pair("s-long", "biology")
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
EPISODES = 150  # four transactions: a question in three carries a request's key


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[tuple[App, DynamoStore, Tally]]:
    """An app on DynamoDB (moto) whose every request is counted (its clients are made inside
    the count), with a long history of one pair."""
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        tally = Tally()
        with counting_dynamodb(tally):
            settings = Settings(  # type: ignore[call-arg]
                backend="dynamodb",
                table_name=TABLE,
                aws_region=REGION,
                embedder="none",
                index_path=tmp_path / "index.db",
            )
            app = build_app(settings, clock=FixedClock(T0 + timedelta(days=60)))
            history = []
            for i in range(EPISODES):
                at = T0 + timedelta(hours=i)
                if i % 2:
                    text, concepts = f"Osmosis moves water, part {i}.", ("Osmosis", "Diffusion")
                    history.append(NewEpisode(PAIR, Kind.ANSWER, text, at, concepts=concepts))
                else:
                    key = f"turn-{i}" if i % 3 == 0 else None
                    history.append(
                        NewEpisode(PAIR, Kind.QUESTION, f"Osmosis {i}?", at, idempotency_key=key)
                    )
            app.episodes.add_many(history, batch_size=100)
            store = app.ports.store
            assert isinstance(store, DynamoStore)
            yield app, store, tally


def test_a_pairs_erasure_takes_a_few_requests_a_hundred_episodes(
    counted: tuple[App, DynamoStore, Tally],
) -> None:
    app, _store, tally = counted
    assert app.erasing is not None
    tally.reset()
    done = app.erasing.erase_pair(PAIR, reason="end of year")
    assert len(done.erased[str(PAIR)]) == EPISODES
    requests = sum(tally.requests.values())
    # (2,863 requests before, for 300 episodes: about ten an episode)
    assert requests < EPISODES / 3, tally.snapshot()
    # 150 episodes, 25 with a key: 350 actions in transactions of 100 (a head's update each),
    # and the erasure's entries appended
    assert tally.requests["TransactWriteItems"] <= 6
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.erased == EPISODES, str(report)


def test_the_night_erasure_of_part_of_a_pair_leaves_the_rest_as_it_was(
    counted: tuple[App, DynamoStore, Tally],
) -> None:
    # Erased in batches, with what stands beside each erased episode: its annotations, its
    # place in the citation queue, its concept links and its request's key; a concept's stored
    # name is taken again from the first episode still touching it.
    app, store, tally = counted
    assert app.erasing is not None
    history = app.memory.history(PAIR)
    cutoff = history[120].at  # 120 episodes before it, over three transactions
    for ep in (history[1], history[119], history[121]):
        app.memory.annotate(PAIR, ep.episode_id, "stance", "answered")
    tally.reset()
    done = app.erasing.erase_older_than(PAIR, cutoff)
    assert done.erased[str(PAIR)] == list(range(1, 121))
    assert sum(tally.requests.values()) < 120, tally.snapshot()  # it was about ten each
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.erased == 120, str(report)
    told = (Kind.QUESTION, Kind.ANSWER)
    left = [e for e in app.memory.history(PAIR) if not e.erased and e.kind in told]
    assert [e.seq for e in left] == list(range(121, EPISODES + 1))
    assert store.annotations(PAIR, history[1].episode_id) == []
    assert store.annotations(PAIR, history[119].episode_id) == []
    assert [a.value for a in store.annotations(PAIR, history[121].episode_id)] == ["answered"]
    assert {c.seq for c in store.citations(PAIR)} == {e.seq for e in left if e.kind is Kind.ANSWER}
    assert store.concept_names(PAIR) == {"osmosis": "Osmosis", "diffusion": "Diffusion"}
    touched = {e.seq for e in store.touching(PAIR, ["osmosis"])}
    assert touched.isdisjoint(range(1, 121))
    assert {e.seq for e in left if e.kind is Kind.ANSWER} <= touched
    keyed = history[0]
    assert keyed.idempotency_key == "turn-0"
    assert store.erased_key(PAIR, erased_key_digest(PAIR, "turn-0")) is not None
    # the kept key still answers for its own turn
    kept = history[126]
    assert (
        kept.idempotency_key == "turn-126"
        and store.erased_key(PAIR, erased_key_digest(PAIR, "turn-126")) is None
    )
