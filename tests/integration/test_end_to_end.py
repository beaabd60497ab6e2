"""The whole story through the real Lambda handlers, with real-shaped events, on moto.

An S3 upload → ingest → the map; chat turns through the API (questions, answers citing the
file, checks, a teaching message) → blocks; the EventBridge schedule → nightly → SQS →
consolidate; then the report. The embedded vector search stands in for OpenSearch here (moto
has no OpenSearch data plane); the OpenSearch adapter is tested against a real node in
tests/opensearch.
"""

from __future__ import annotations

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings

from .conftest import TEST_TURN_DEADLINE_S, LambdaContext, event, load_handler
from .test_api_handler import Api
from .test_ingest_handler import upload
from .test_nightly_handlers import queue_url as queue_url  # the fixture
from .test_nightly_handlers import received, sqs_event

PAIR = Pair("s-42", "biology")
BASE = "/pairs/s-42/biology"
DAY = "2026-03-02"  # the schedule's event fires on 3 March, 00:30 UTC


def at(hour: int, minute: int = 0) -> str:
    return f"{DAY}T{hour:02d}:{minute:02d}:00Z"


def test_turns_in_tests_wait_for_their_answer_while_the_product_keeps_its_deadline(
    cloud: DynamoStore,
) -> None:
    assert lambda_app().turns.deadline_s == TEST_TURN_DEADLINE_S
    assert Settings.from_env({}).turn_deadline_s == C.TURN_DEADLINE_S == 2.5


def test_upload_chat_night_and_report(cloud: DynamoStore, queue_url: str) -> None:
    name, data = sample_subject()[0]
    ingested = load_handler("ingest").handler(
        upload(f"uploads/s-42/biology/{name}", data), LambdaContext()
    )
    assert ingested["outcomes"][0]["status"] == "ingested"

    api = Api()
    status, asked = api(
        "POST", f"{BASE}/episodes", {"kind": "question", "text": "¿Qué es la ósmosis?", "at": at(9)}
    )
    assert status == 201
    status, turn = api("POST", f"{BASE}/turn", {"question": "¿Qué es la ósmosis?", "at": at(9, 1)})
    assert status == 200 and "SUBJECT MAP" in turn["block"] and not turn["dropped"]
    assert turn["block"].index("SUBJECT MAP") < turn["block"].index("EARLIER WORK")
    status, answer = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "answer", "text": "La ósmosis es el paso del agua por una membrana (p. 3).",
         "at": at(9, 2), "citation": {"file_id": name, "page": 3},
         "recalled_ids": turn["memory_ids"]},
    )  # fmt: skip
    assert status == 201
    for minute, verdict in ((5, "wrong"), (9, "right")):
        status, _ = api(
            "POST",
            f"{BASE}/episodes",
            {"kind": "check", "text": "Check on osmosis", "at": at(9, minute),
             "check": {"topic": "osmosis", "verdict": verdict, "predicted_mastery": 0.5}},
        )  # fmt: skip
        assert status == 201
    status, taught = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "question", "at": at(9, 12),
         "text": "Remember that in our class we call the mitochondria the powerhouse of the cell"},
    )  # fmt: skip
    assert status == 201 and taught["taught"] == "Mitochondria"
    status, record = api(
        "POST", f"{BASE}/turn", {"question": "what did I get wrong so far?", "at": at(10)}
    )
    assert status == 200 and record["record_question"]
    assert asked["id"] in record["memory_ids"]
    # the answer was built from recalled memories: for a record question, its sources speak
    assert answer["id"] not in record["memory_ids"]
    assert "- understands Osmosis (0.53)" in record["block"]
    assert "[taught: mitochondria = the powerhouse of the cell]" in record["block"]

    load_handler("nightly").handler(event("nightly-scheduled.json"), LambdaContext())
    messages = received(queue_url)
    assert len(messages) == 1
    worked = load_handler("consolidate").handler(sqs_event(messages), LambdaContext())
    assert worked["batchItemFailures"] == []
    summaries = [e.summary for e in cloud.episodes(PAIR) if e.kind is Kind.CONSOLIDATION]
    assert len(summaries) == 1 and DAY in summaries[0]

    status, report = api("GET", f"{BASE}/report")
    assert status == 200
    assert report["checks"]["recorded"] == 2 and report["checks"]["tied"] == 2
    assert report["verification"]["results"]["holds"] >= 1  # the answer's citation still holds
    assert report["subject"]["concepts"] >= 8
    status, chain = api("GET", f"{BASE}/chain/verify")
    assert status == 200 and chain["intact"]
