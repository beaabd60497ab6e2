"""The cloud path whole, with the real OpenSearch node as the index (issue 18): an S3 upload
through the ingest handler, turns and writes through the API handler (API Gateway events),
the EventBridge schedule → nightly → SQS → consolidate handlers, DynamoDB, S3 and SQS on moto,
and the episodes' vectors searched by k-NN on the node. Bedrock is the real adapter
(``BedrockEmbedder``, Titan v2 at 256 dimensions) over a bedrock-runtime client under botocore's
Stubber, which validates every request and answers with a fixed vector per text; the embedded
default gets the same adapter over a stub of its own, so both sides embed alike.

The same history written into the embedded default (SQLite + FTS5 + numpy) gives the same
blocks: episode ids differ only by their random body salt (``chain.new_salt``), so ids are
compared by sequence number."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from moto import mock_aws

from tutor_memory import bootstrap
from tutor_memory.adapters.bedrock_embedder import BedrockEmbedder
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bench.embedding import HashEmbedder
from tutor_memory.bootstrap import App, build_app, lambda_app
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

from ..integration.conftest import (
    REGION,
    TABLE,
    TEST_TURN_DEADLINE_S,
    LambdaContext,
    event,
    load_handler,
)
from ..integration.test_api_handler import Api
from ..integration.test_ingest_handler import upload
from ..integration.test_nightly_handlers import received, sqs_event
from ..unit.bedrock_stubs import titan_answering_like

PAIR = Pair("s-42", "biology")
BASE = "/pairs/s-42/biology"
DAY = "2026-03-02"  # the schedule's event fires on 3 March, 00:30 UTC
DIMENSION = 256  # one of Titan's sizes
QUESTIONS = ("What is osmosis?", "what did I get wrong so far?", "What did we do today?", None)
_ID = re.compile(r"\be(\d+)-[0-9a-f]{12}\b")


def at(hour: int, minute: int = 0) -> str:
    return f"{DAY}T{hour:02d}:{minute:02d}:00Z"


def titan() -> BedrockEmbedder:
    """Bedrock's embedder, its client under a Stubber answering with fixed vectors per text."""
    client = titan_answering_like(HashEmbedder(DIMENSION), DIMENSION)
    return BedrockEmbedder(region=REGION, dimension=DIMENSION, client=client, max_concurrency=1)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def by_seq(text: str) -> str:
    """Episode ids as their sequence number (the salt makes the rest differ by store)."""
    return _ID.sub(r"e\1", text)


@pytest.fixture
def cloud(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opensearch_url: str, client: Any
) -> Iterator[DynamoStore]:
    index = f"tm-test-{uuid.uuid4().hex[:12]}"
    for name, value in {
        "TUTOR_MEMORY_BACKEND": "dynamodb",
        "TUTOR_MEMORY_TABLE_NAME": TABLE,
        "TUTOR_MEMORY_AWS_REGION": REGION,
        "TUTOR_MEMORY_EMBEDDER": "none",
        "TUTOR_MEMORY_EMBEDDING_DIMENSION": str(DIMENSION),
        "TUTOR_MEMORY_INDEX": "opensearch",
        "TUTOR_MEMORY_OPENSEARCH_URL": opensearch_url,
        "TUTOR_MEMORY_OPENSEARCH_INDEX": index,
        "TUTOR_MEMORY_OPENSEARCH_AUTH": "none",
        "TUTOR_MEMORY_OPENSEARCH_ENGINE": "lucene",  # the dev node has no faiss libraries
        "POWERTOOLS_SERVICE_NAME": "tutor-memory",
        "POWERTOOLS_METRICS_NAMESPACE": "TutorMemoryTest",
    }.items():
        monkeypatch.setenv(name, value)
    # Bedrock's stand-in, in the ports the Lambda functions' App is built over.
    monkeypatch.setattr(bootstrap, "build_embedder", lambda settings: titan())
    lambda_app.cache_clear()
    try:
        with mock_aws():
            store = DynamoStore(TABLE, REGION)
            store.create_table()
            app = lambda_app()
            app.turns.deadline_s = TEST_TURN_DEADLINE_S
            app.ports.index._refresh = True  # type: ignore[union-attr]  # reads see writes
            yield store
    finally:
        lambda_app.cache_clear()
        client.indices.delete(index=index, ignore_unavailable=True)


def embedded(folder: Path) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder)
    app = build_app(settings, clock=FixedClock(when(at(23))))
    return app.with_ports(embedder=titan())  # the index takes its first vectors' size


def test_the_cloud_path_on_the_real_node_gives_the_embedded_defaults_blocks(
    cloud: DynamoStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import boto3

    url = boto3.client("sqs", region_name=REGION).create_queue(QueueName="tm-nightly")["QueueUrl"]
    monkeypatch.setenv("TUTOR_MEMORY_NIGHTLY_QUEUE_URL", url)
    local = embedded(tmp_path / "tm")
    name, data = sample_subject()[0]

    # The file: an S3 event in the cloud, an ingest call on the embedded default.
    ingested = load_handler("ingest").handler(
        upload(f"uploads/s-42/biology/{name}", data), LambdaContext()
    )
    assert ingested["outcomes"][0]["status"] == "ingested"
    arrived = next(e for e in cloud.episodes(PAIR) if e.kind is Kind.FILE).at
    local.maps.ingest(PAIR, name, name, data, at=arrived)

    api = Api()
    blocks: list[tuple[str, str]] = []

    def both_turn(question: str | None, time: str) -> None:
        status, turn = api("POST", f"{BASE}/turn", {"question": question, "at": time})
        assert status == 200 and not turn["dropped"]
        here = local.turns.turn(PAIR, question, at=when(time))
        assert by_seq(" ".join(turn["memory_ids"])) == by_seq(" ".join(here.memory_ids))
        blocks.append((by_seq(turn["block"]), by_seq(here.block)))

    def both_write(body: dict[str, Any]) -> None:
        status, _ = api("POST", f"{BASE}/episodes", body)
        assert status == 201
        t = when(body["at"])
        if body["kind"] == "check":
            c = body["check"]
            evidence = CheckEvidence(
                c["topic"], c["verdict"], predicted_mastery=c["predicted_mastery"]
            )
            local.learning.record_check(PAIR, body["text"], evidence, at=t)
        elif body["kind"] == "answer":
            local.turns.record_answer(PAIR, body["text"], file_id=name, page=3, at=t)
        else:
            local.memory.record(PAIR, Kind(body["kind"]), body["text"], at=t)

    both_write({"kind": "question", "text": "What is osmosis?", "at": at(9)})
    both_turn("What is osmosis?", at(9, 1))
    both_write({"kind": "answer", "text": "Osmosis is water crossing a membrane (p. 3).",
                "at": at(9, 2), "citation": {"file_id": name, "page": 3}})  # fmt: skip
    for minute, verdict in ((5, "wrong"), (9, "right"), (11, "wrong")):
        both_write({"kind": "check", "text": "Check on osmosis", "at": at(9, minute),
                    "check": {"topic": "osmosis", "verdict": verdict,
                              "predicted_mastery": 0.5}})  # fmt: skip
    for question in QUESTIONS:
        both_turn(question, at(10))

    # The night: the schedule fans out, the worker consolidates; the embedded default in-process.
    load_handler("nightly").handler(event("nightly-scheduled.json"), LambdaContext())
    worked = load_handler("consolidate").handler(sqs_event(received(url)), LambdaContext())
    assert worked["batchItemFailures"] == []
    local.ports.clock.at = when("2026-03-03T00:30:00Z")  # type: ignore[attr-defined]  # the schedule's time
    local.nightly.run_pair(PAIR, date.fromisoformat(DAY))
    for question in QUESTIONS:
        both_turn(question, "2026-03-03T08:00:00Z")

    # The turns after the night took their beliefs from the night's working set, in both.
    morning = when("2026-03-03T08:00:00Z")
    assert lambda_app().turns.turn(PAIR, QUESTIONS[1], at=morning).working_set
    assert local.turns.turn(PAIR, QUESTIONS[1], at=morning).working_set
    for cloud_block, local_block in blocks:
        assert cloud_block == local_block
    assert any("SUBJECT MAP" in c and "Osmosis" in c for c, _ in blocks)
    assert any("struggles with Osmosis" in c or "understands Osmosis" in c for c, _ in blocks)
    assert len({c for c, _ in blocks}) >= 5  # the turns did differ
