"""The nightly loop in the cloud, on moto: the schedule fans out one SQS message per active
pair, and the worker consumes them in batches, reporting only the records that failed."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory

from .conftest import REGION, LambdaContext, event, load_handler

PAIRS = [Pair("s-1", "biology"), Pair("s-2", "biology"), Pair("s-3", "chemistry")]
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # the event's time is 3 March, 00:30 UTC


@pytest.fixture
def queue_url(cloud: DynamoStore, monkeypatch: pytest.MonkeyPatch) -> str:
    url: str = boto3.client("sqs", region_name=REGION).create_queue(
        QueueName="tutor-memory-nightly"
    )["QueueUrl"]
    monkeypatch.setenv("TUTOR_MEMORY_NIGHTLY_QUEUE_URL", url)
    return url


def a_day_of_work(store: DynamoStore, pairs: list[Pair]) -> None:
    memory = TutorMemory(Ports(store=store, clock=FixedClock(MORNING)))
    for n, pair in enumerate(pairs):
        memory.record(pair, Kind.QUESTION, "What is osmosis?", at=MORNING + timedelta(minutes=n))
        memory.record(
            pair, Kind.CHECK, "Check on osmosis", evidence=CheckEvidence("osmosis", "right"),
            concepts=["Osmosis"], at=MORNING + timedelta(minutes=n, seconds=30),
        )  # fmt: skip
    memory.record(Pair("s-9", "biology"), Kind.QUESTION, "Last week?", at=MORNING - timedelta(7))


def received(queue_url: str) -> list[dict[str, Any]]:
    sqs = boto3.client("sqs", region_name=REGION)
    messages: list[dict[str, Any]] = []
    while batch := sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get(
        "Messages", []
    ):
        messages += batch
    return messages


def sqs_event(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The records Lambda would hand the worker for these messages."""
    shaped = event("consolidate-sqs-batch.json")
    template = shaped["Records"][0]
    shaped["Records"] = [
        {
            **template,
            "messageId": m["MessageId"],
            "receiptHandle": m["ReceiptHandle"],
            "body": m["Body"],
            "md5OfBody": hashlib.md5(m["Body"].encode()).hexdigest(),
        }
        for m in messages
    ]
    return shaped


def consolidations(store: DynamoStore, pair: Pair) -> list[str]:
    return [e.summary for e in store.episodes(pair) if e.kind is Kind.CONSOLIDATION]


def test_activity_on_three_pairs_becomes_three_messages_and_three_consolidations(
    cloud: DynamoStore, queue_url: str
) -> None:
    a_day_of_work(cloud, PAIRS)
    fanned = load_handler("nightly").handler(event("nightly-scheduled.json"), LambdaContext())
    assert fanned == {"day": "2026-03-02", "enqueued": 3}
    messages = received(queue_url)
    assert sorted(json.loads(m["Body"])["student_id"] for m in messages) == ["s-1", "s-2", "s-3"]
    assert all(json.loads(m["Body"])["day"] == "2026-03-02" for m in messages)

    worker = load_handler("consolidate")
    assert worker.handler(sqs_event(messages), LambdaContext()) == {"batchItemFailures": []}
    for pair in PAIRS:
        assert consolidations(cloud, pair) == [
            "2026-03-02: 1 question, 1 check (1 right, 0 wrong); topics: Osmosis"
        ]
    assert worker.handler(sqs_event(messages), LambdaContext()) == {"batchItemFailures": []}
    assert [len(consolidations(cloud, pair)) for pair in PAIRS] == [1, 1, 1]  # delivered twice


def test_a_poison_message_fails_alone_and_the_others_are_done(
    cloud: DynamoStore, queue_url: str
) -> None:
    a_day_of_work(cloud, PAIRS[:1])
    good = {
        "MessageId": "good-1",
        "ReceiptHandle": "rh-good",
        "Body": json.dumps({"student_id": "s-1", "subject_id": "biology", "day": "2026-03-02"}),
    }
    not_json = {"MessageId": "poison-1", "ReceiptHandle": "rh-1", "Body": "consolidate s-1 please"}
    bad_pair = {"MessageId": "poison-2", "ReceiptHandle": "rh-2",
                "Body": json.dumps({"student_id": "s 1/..", "subject_id": "biology",
                                    "day": "2026-03-02"})}  # fmt: skip
    result = load_handler("consolidate").handler(
        sqs_event([not_json, good, bad_pair]), LambdaContext()
    )
    assert result == {
        "batchItemFailures": [{"itemIdentifier": "poison-1"}, {"itemIdentifier": "poison-2"}]
    }
    assert consolidations(cloud, PAIRS[0]) == [
        "2026-03-02: 1 question, 1 check (1 right, 0 wrong); topics: Osmosis"
    ]


def test_a_manual_run_may_name_the_night(cloud: DynamoStore, queue_url: str) -> None:
    a_day_of_work(cloud, PAIRS[:2])
    manual = event("nightly-scheduled.json")
    manual["detail"] = {"day": "2026-02-23"}
    fanned = load_handler("nightly").handler(manual, LambdaContext())
    assert fanned == {"day": "2026-02-23", "enqueued": 1}  # only s-9 was active that day
    (message,) = received(queue_url)
    assert json.loads(message["Body"]) == {
        "day": "2026-02-23", "student_id": "s-9", "subject_id": "biology",
    }  # fmt: skip


def test_the_nights_of_another_tenant_named_in_the_settings_are_fanned_out_and_run(
    cloud: DynamoStore, queue_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tenant's activity index is under its own keys, listed nowhere: the scheduler reads
    those of the tenants ``TUTOR_MEMORY_TENANTS`` names, and each message names its tenant
    (the deployment's own stay as they were), so the worker runs the night in that store."""
    from tutor_memory.bootstrap import lambda_app, lambda_scheduler

    monkeypatch.setenv("TUTOR_MEMORY_TENANTS", "acme, globex")
    lambda_scheduler.cache_clear()
    lambda_app.cache_clear()
    acme = DynamoStore(cloud.models.Item.Meta.table_name, REGION, tenant="acme")
    a_day_of_work(cloud, PAIRS[:1])
    a_day_of_work(acme, PAIRS[1:])
    fanned = load_handler("nightly").handler(event("nightly-scheduled.json"), LambdaContext())
    assert fanned == {"day": "2026-03-02", "enqueued": 3}
    messages = received(queue_url)
    bodies = sorted((json.loads(m["Body"]) for m in messages), key=lambda b: b["student_id"])
    assert [(b["student_id"], b.get("tenant")) for b in bodies] == [
        ("s-1", None), ("s-2", "acme"), ("s-3", "acme"),
    ]  # fmt: skip
    result = load_handler("consolidate").handler(sqs_event(messages), LambdaContext())
    assert result == {"batchItemFailures": []}
    assert consolidations(cloud, PAIRS[0]) and consolidations(acme, PAIRS[1])
    assert consolidations(cloud, PAIRS[1]) == []  # s-2 of the default tenant had no night
    lambda_scheduler.cache_clear()
    lambda_app.cache_clear()
