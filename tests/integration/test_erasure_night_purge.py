"""An erasure through the API cannot wait for OpenSearch to let go of the deleted documents
(their shard history, until the retention lease moves): it marks the pair, files it as active
that day, and the pair's night purges the index again and drops the mark (DynamoDB on moto; the
index's purge is a stand-in that says how many deleted documents it still holds)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import boto3
import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import App, build_app, lambda_app
from tutor_memory.commands import run_nightly_command
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.nightly import day_window
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.erasure import PURGE_PENDING

from .conftest import REGION, Api, LambdaContext, event, load_handler
from .test_nightly_handlers import queue_url, received, sqs_event  # noqa: F401 (a fixture)

PAIR = Pair("s-42", "biology")
WRITTEN = datetime(2026, 2, 20, 9, 0, tzinfo=UTC)  # long before the erasure's day
ERASED = datetime(2026, 3, 2, 14, 0, tzinfo=UTC)
NIGHT = date(2026, 3, 2)
AFTER_NIGHT = datetime(2026, 3, 3, 0, 30, tzinfo=UTC)
NEXT_NIGHT = date(2026, 3, 3)
AFTER_NEXT_NIGHT = datetime(2026, 3, 4, 0, 30, tzinfo=UTC)


class HeldHistory:
    """The index's purge: each call answers the next count of deleted documents still held
    (the last one again once they run out), and remembers how long it was let wait."""

    def __init__(self, held: list[int]) -> None:
        self.held = held
        self.waits: list[float] = []

    def __call__(self, *, wait: float = 0.0) -> int:
        self.waits.append(wait)
        return self.held[min(len(self.waits), len(self.held)) - 1]


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


@pytest.fixture
def app(cloud: DynamoStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    """The API's and the worker's App (one per container), on a clock the test moves."""
    built = lambda_app()
    clock = Clock(WRITTEN)
    monkeypatch.setattr(built.ports.clock, "now", clock.now)
    built.clock_for_test = clock  # type: ignore[attr-defined]
    yield built


def at(app: App, moment: datetime) -> None:
    app.clock_for_test.at = moment  # type: ignore[attr-defined]


def held_by_the_index(app: App, monkeypatch: pytest.MonkeyPatch, held: list[int]) -> HeldHistory:
    purge = HeldHistory(held)
    monkeypatch.setattr(app.ports.index, "purge", purge)
    return purge


def erase_through_the_api(app: App) -> None:
    at(app, WRITTEN)
    api = Api()
    asked_for = {"kind": "question", "text": "What is quorvantine?"}
    status, asked = api("POST", "/pairs/s-42/biology/episodes", asked_for)
    assert status == 201
    at(app, ERASED)
    status, body = api(
        "DELETE", f"/pairs/s-42/biology/episodes/{asked['id']}", query={"reason": "by mistake"}
    )
    assert status == 200 and body["erased"] == {"s-42/biology": [1]}


def night(queue: str, day: date) -> list[dict[str, Any]]:
    """The schedule's fan-out for ``day``: the messages it sent."""
    schedule = event("nightly-scheduled.json")
    schedule["detail"] = {"day": day.isoformat()}
    load_handler("nightly").handler(schedule, LambdaContext())
    return received(queue)


def work(messages: list[dict[str, Any]]) -> None:
    worker = load_handler("consolidate")
    assert worker.handler(sqs_event(messages), LambdaContext()) == {"batchItemFailures": []}


def test_an_api_erasure_the_index_history_outlives_is_purged_by_the_pairs_night_once(
    app: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    purge = held_by_the_index(app, monkeypatch, [2, 0])
    erase_through_the_api(app)
    assert purge.waits == [0.0]  # the API does not wait
    assert cloud.document(PAIR, PURGE_PENDING) is not None
    assert cloud.active_pairs(day_window(NIGHT, ZoneInfo("UTC"))) == [PAIR]

    at(app, AFTER_NIGHT)
    messages = night(queue_url, NIGHT)  # the pair was quiet that day, but the erasure filed it
    assert [json.loads(m["Body"])["student_id"] for m in messages] == ["s-42"]
    work(messages)
    assert purge.waits == [0.0, 0.0]
    assert cloud.document(PAIR, PURGE_PENDING) is None

    work(messages)  # delivered twice: nothing is pending any more, nothing purged again
    assert purge.waits == [0.0, 0.0]
    at(app, AFTER_NEXT_NIGHT)
    assert night(queue_url, NEXT_NIGHT) == []  # and the next night does not send the pair


def test_a_purge_within_a_minute_of_the_erasure_that_still_finds_documents_held_keeps_the_mark(
    app: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lease may not have moved yet: the mark stays and the next night tries again.
    purge = held_by_the_index(app, monkeypatch, [3, 1, 0])
    erase_through_the_api(app)
    at(app, ERASED + timedelta(seconds=20))
    assert app.purge_pending([PAIR]) == 1
    stored = cloud.document(PAIR, PURGE_PENDING)
    assert stored is not None and stored.body["held"] == 1
    at(app, AFTER_NIGHT)
    messages = night(queue_url, NIGHT)  # that day's night sends the pair
    assert [json.loads(m["Body"])["student_id"] for m in messages] == ["s-42"]
    work(messages)
    assert purge.waits == [0.0, 0.0, 0.0]
    assert cloud.document(PAIR, PURGE_PENDING) is None


def test_on_a_busy_index_a_night_past_the_erasure_clears_the_mark_though_others_are_held(
    app: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Re-indexing keeps deleted documents of its own in the index: hours after the erasure its
    # deletions are past the lease and merged away, so the count no longer speaks of it (else
    # the mark, and a full merge, would come back every night).
    purge = held_by_the_index(app, monkeypatch, [4, 7, 7])
    erase_through_the_api(app)
    at(app, AFTER_NIGHT)
    work(night(queue_url, NIGHT))
    assert purge.waits == [0.0, 0.0]
    assert cloud.document(PAIR, PURGE_PENDING) is None
    at(app, AFTER_NEXT_NIGHT)
    assert night(queue_url, NEXT_NIGHT) == []


def test_an_erasure_whose_purge_held_nothing_leaves_no_mark_and_a_quiet_night(
    app: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    purge = held_by_the_index(app, monkeypatch, [0])
    erase_through_the_api(app)
    assert cloud.document(PAIR, PURGE_PENDING) is None
    at(app, AFTER_NIGHT)
    # The erasure's entry in the chain is a write of its day, so the pair has a night; the
    # night finds none of the student's work in that day: nothing is written, nothing purged.
    work(night(queue_url, NIGHT))
    assert [e.kind for e in cloud.iter_episodes(PAIR)] == [Kind.QUESTION, Kind.ERASURE]
    assert purge.waits == [0.0]


def test_a_pair_erasure_after_it_leaves_its_own_mark_once_its_documents_are_gone(
    app: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    purge = held_by_the_index(app, monkeypatch, [4, 5])
    erase_through_the_api(app)
    status, _ = Api()("DELETE", "/pairs/s-42/biology", query={"reason": "end of year"})
    assert status == 200  # the pair's documents went, and its own purge held 5
    stored = cloud.document(PAIR, PURGE_PENDING)
    assert stored is not None and stored.body["held"] == 5
    assert purge.waits == [0.0, 0.0]


def test_the_embedded_nightly_purges_a_marked_pair_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = FixedClock(WRITTEN)
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"), clock=clock)
    purge = held_by_the_index(app, monkeypatch, [2, 0])
    episode = app.episodes.add(PAIR, Kind.QUESTION, "What is quorvantine?", at=WRITTEN).episode
    clock.at = ERASED
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, episode.episode_id, reason="by mistake")
    assert app.ports.store.document(PAIR, PURGE_PENDING) is not None

    clock.at = AFTER_NIGHT
    args = argparse.Namespace(day=NIGHT.isoformat(), student=None, subject=None, json=True)
    assert run_nightly_command(args, app) == 0
    assert {"purge": {"held": 0}} in [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert app.ports.store.document(PAIR, PURGE_PENDING) is None
    assert purge.waits == [0.0, 0.0]
    run_nightly_command(args, app)
    assert purge.waits == [0.0, 0.0]
    app.close()


# --- the chain's checkpoint after an API erasure ------------------------------------------------


@pytest.fixture
def anchored(cloud: DynamoStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    """The API's and the worker's App with the deployment's checkpoint anchor: a bucket under
    Object Lock and a KMS HMAC key (moto)."""
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket="tm-checkpoints", ObjectLockEnabledForBucket=True)
    kms = boto3.client("kms", region_name=REGION)
    key = kms.create_key(KeySpec="HMAC_256", KeyUsage="GENERATE_VERIFY_MAC")["KeyMetadata"]
    monkeypatch.setenv("TUTOR_MEMORY_CHECKPOINT_BUCKET", "tm-checkpoints")
    monkeypatch.setenv("TUTOR_MEMORY_CHECKPOINT_KEY_ID", key["Arn"])
    lambda_app.cache_clear()
    built = lambda_app()
    assert built.memory.anchor is not None
    clock = Clock(WRITTEN)
    monkeypatch.setattr(built.ports.clock, "now", clock.now)
    built.clock_for_test = clock  # type: ignore[attr-defined]
    yield built


def test_an_api_erasure_leaves_the_chains_checkpoint_to_the_pairs_quiet_night(
    anchored: App,
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
) -> None:
    # The API answers without verifying the whole chain (half an erasure's cost at 100,000
    # episodes, against the Lambda's 15 s): the night of the erasure's day anchors it, though
    # it finds none of the student's work in that day.
    anchor = anchored.memory.anchor
    assert anchor is not None
    erase_through_the_api(anchored)
    assert anchor.newest(PAIR) is None
    at(anchored, AFTER_NIGHT)
    work(night(queue_url, NIGHT))
    head, newest = cloud.head(PAIR), anchor.newest(PAIR)
    assert head is not None and newest is not None
    assert [e.kind for e in cloud.iter_episodes(PAIR)] == [Kind.QUESTION, Kind.ERASURE]
    assert (newest.checkpoint.seq, newest.checkpoint.head_hash) == (2, head.hash)
    report = anchored.memory.verify_chain(PAIR)
    assert report.intact and report.erased == 1 and report.checkpoint_seq == 2
