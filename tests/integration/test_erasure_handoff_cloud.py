"""The API's erasure of a pair or a student that its Lambda's time does not cover: 202 with what
went and what is pending, the rest on the nightly queue (SQS) for the consolidate worker, and
200 once it is done — DynamoDB and SQS on moto, the functions called as Lambda calls them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import App, lambda_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.usecases import erasure_entries

from .conftest import REGION, TABLE, Api, LambdaContext, load_handler
from .test_nightly_handlers import queue_url, received, sqs_event  # noqa: F401 (a fixture)

T0 = datetime(2026, 9, 1, 15, 0, tzinfo=UTC)
BIOLOGY, HISTORY = Pair("s-7", "biology"), Pair("s-7", "history")
EPISODES = 12  # three steps of five bodies


class LateContext(LambdaContext):
    """A Lambda invocation with 6 s left: under the 7 s an erasure keeps for its answer."""

    def get_remaining_time_in_millis(self) -> int:
        return 6_000


@pytest.fixture
def app(
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[App]:
    monkeypatch.setattr(erasure_entries, "STEP_BODIES", 5)
    lambda_app.cache_clear()  # built again, with the queue the environment now names
    built = lambda_app()
    for pair in (BIOLOGY, HISTORY):
        for n in range(EPISODES):
            built.memory.record(
                pair, Kind.QUESTION, f"What is osmosis, part {n}?", at=T0 + timedelta(minutes=n)
            )
    yield built


def alive(app: App, pair: Pair) -> list[int]:
    return [e.seq for e in app.memory.history(pair) if e.kind is Kind.QUESTION and not e.erased]


def work(messages: list[dict[str, Any]]) -> None:
    """The consolidate function, with all the time it needs."""
    worker = load_handler("consolidate")
    assert worker.handler(sqs_event(messages), LambdaContext()) == {"batchItemFailures": []}


def test_a_pair_the_request_cannot_finish_answers_202_and_the_worker_finishes_it(
    app: App,
    queue_url: str,  # noqa: F811
) -> None:
    api = Api()
    status, body = api(
        "DELETE", "/pairs/s-7/biology", query={"reason": "parent asked"}, context=LateContext()
    )
    assert status == 202, body
    assert api.last["multiValueHeaders"]["Retry-After"] == ["60"]  # when to ask again
    assert body["finished"] is False and body["pending"] == ["s-7/biology"]
    assert body["erased"] == {"s-7/biology": [1, 2, 3, 4, 5]}
    messages = received(queue_url)
    assert [json.loads(m["Body"]) for m in messages] == [
        {"erase": "pair", "student_id": "s-7", "subjects": ["biology"],
         "reason": "parent asked", "requested_by": "api"}
    ]  # fmt: skip

    # Meanwhile no turn shows a line the worker still has to erase.
    status, turn = api("POST", "/pairs/s-7/biology/turn", {"question": "What is osmosis?"})
    assert status == 200 and "osmosis" not in turn["block"].lower()
    status, turn = api("POST", "/pairs/s-7/history/turn", {"question": "What is osmosis?"})
    assert status == 200 and "osmosis" in turn["block"].lower()

    # Asked again while the worker has it: still 202, nothing erased, nothing sent twice.
    status, body = api(
        "DELETE", "/pairs/s-7/biology", query={"reason": "parent asked"}, context=LateContext()
    )
    assert status == 202 and body["erased"] == {"s-7/biology": []}
    assert received(queue_url) == []

    work(messages)
    assert alive(app, BIOLOGY) == [] and alive(app, HISTORY) == list(range(1, EPISODES + 1))
    assert app.memory.verify_chain(BIOLOGY).intact
    status, body = api(
        "DELETE", "/pairs/s-7/biology", query={"reason": "parent asked"}, context=LateContext()
    )
    assert status == 200 and body["finished"] is True and body["pending"] == []
    assert body["erased"] == {"s-7/biology": []} and received(queue_url) == []


def test_a_students_erasure_goes_on_in_the_worker_pair_by_pair(
    app: App,
    queue_url: str,  # noqa: F811
) -> None:
    api = Api()
    status, body = api(
        "DELETE", "/students/s-7", query={"reason": "left school"}, context=LateContext()
    )
    assert status == 202, body
    assert body["pending"] == ["s-7/biology", "s-7/history"]
    assert body["erased"] == {"s-7/biology": [1, 2, 3, 4, 5], "s-7/history": []}
    messages = received(queue_url)
    assert json.loads(messages[0]["Body"])["subjects"] == ["biology", "history"]
    work(messages)
    assert alive(app, BIOLOGY) == [] and alive(app, HISTORY) == []
    status, body = api(
        "DELETE", "/students/s-7", query={"reason": "left school"}, context=LateContext()
    )
    assert status == 200 and body["finished"] is True, body
    for pair in (BIOLOGY, HISTORY):
        assert app.memory.verify_chain(pair).intact


def test_with_its_time_the_api_erases_the_whole_pair_and_sends_nothing(
    app: App,
    queue_url: str,  # noqa: F811
) -> None:
    status, body = Api()("DELETE", "/pairs/s-7/biology", query={"reason": "parent asked"})
    assert status == 200 and body["finished"] is True
    assert body["erased"] == {"s-7/biology": list(range(1, EPISODES + 1))}
    assert received(queue_url) == []


def test_the_worker_takes_an_erasure_beside_the_nights_and_a_bad_one_fails_alone(
    app: App,
    queue_url: str,  # noqa: F811
) -> None:
    status, _ = Api()(
        "DELETE", "/pairs/s-7/biology", query={"reason": "parent asked"}, context=LateContext()
    )
    assert status == 202
    (erasure,) = received(queue_url)
    night = {
        "MessageId": "night-1",
        "ReceiptHandle": "rh-night",
        "Body": json.dumps({"student_id": "s-7", "subject_id": "history", "day": "2026-09-01"}),
    }
    unnamed = {"MessageId": "bad-1", "ReceiptHandle": "rh-1",
               "Body": json.dumps({"erase": "everything", "student_id": "s-7",
                                   "subjects": ["history"], "reason": "x",
                                   "requested_by": "api"})}  # fmt: skip
    bad_pair = {"MessageId": "bad-2", "ReceiptHandle": "rh-2",
                "Body": json.dumps({"erase": "pair", "student_id": "s 7/..",
                                    "subjects": ["history"], "reason": "x",
                                    "requested_by": "api"})}  # fmt: skip
    worker = load_handler("consolidate")
    result = worker.handler(sqs_event([unnamed, erasure, night, bad_pair]), LambdaContext())
    assert result == {
        "batchItemFailures": [{"itemIdentifier": "bad-1"}, {"itemIdentifier": "bad-2"}]
    }
    assert alive(app, BIOLOGY) == []
    assert alive(app, HISTORY) == list(range(1, EPISODES + 1))  # the bad ones erased nothing
    assert app.nightly.run_pair(HISTORY, T0.date()).status == "already done"


class TimelyContext(LambdaContext):
    """A Lambda invocation with the time a pair's erasure needs."""

    def get_remaining_time_in_millis(self) -> int:
        return 14_000


def test_a_pair_whose_episodes_were_all_erased_loses_its_map_files_and_uploads(
    cloud: DynamoStore,
    queue_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Erasing a pair whose every episode had gone already (one by one, or by the retention
    period, which leave the map, the file registry and the uploads) took a request's short
    way out — "nothing left to erase" — and left them: the file's name and words in the
    table, its bytes in the bucket. (With a Lambda's time and a queue only: the conftest's
    context has no time left to tell, so no test met it.)"""
    from .test_ingest_handler import BUCKET, upload

    monkeypatch.setenv("TUTOR_MEMORY_UPLOADS_BUCKET", BUCKET)
    lambda_app.cache_clear()
    ingest = load_handler("ingest").handler
    ingest(upload("uploads/s-9/biology/zqxfilename.md", b"# Osmosis\n\nZqxbody moves water.\n"),
           LambdaContext())  # fmt: skip
    # off the layout (refused), but under the pair's prefix; the arrival's erasure takes the other
    ingest(upload("uploads/s-9/biology/drafts/zqdeep.md", b"Zqdeep"), LambdaContext())
    api = Api()
    (arrival,) = api("GET", "/pairs/s-9/biology/episodes")[1]["episodes"]
    assert (
        api("DELETE", f"/pairs/s-9/biology/episodes/{arrival['id']}", query={"reason": "x"})[0]
        == 200
    )
    status, body = api(
        "DELETE", "/pairs/s-9/biology", query={"reason": "left"}, context=TimelyContext()
    )
    assert status == 200 and body["finished"] is True and body["objects_deleted"] == 1
    items = boto3.client("dynamodb", region_name=REGION).scan(TableName=TABLE)["Items"]
    assert "zqxfilename" not in repr(items).lower() and "zqxbody" not in repr(items).lower()
    s3 = boto3.client("s3", region_name=REGION)
    assert s3.list_object_versions(Bucket=BUCKET).get("Versions", []) == []
