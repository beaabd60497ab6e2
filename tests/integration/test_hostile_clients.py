"""A hostile client through the real Lambda handler (moto): every answer is a documented
status with a problem body; nothing it sends breaks a pair."""

from __future__ import annotations

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore

from .test_api_handler import BASE, PAIR, Api


@pytest.fixture
def api(cloud: DynamoStore) -> Api:
    return Api()


@pytest.mark.parametrize(
    "at",
    [
        "0999-12-31T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "1969-12-31T23:59:59Z",
        "9999-12-31T23:59:59-01:00",
        "2999-01-01T00:00:00Z",  # far past the server's clock
    ],
)
def test_a_time_outside_the_range_is_a_422_naming_at_and_the_pair_keeps_working(
    api: Api, at: str
) -> None:
    assert api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Hi?"})[0] == 201
    status, error = api("POST", f"{BASE}/episodes", {"kind": "question", "text": "?", "at": at})
    assert status == 422 and error["fields"][0]["field"] == "at", error
    status, error = api("POST", f"{BASE}/turn", {"question": "what did we do last week?", "at": at})
    assert status == 422 and error["fields"][0]["field"] == "at", error
    status, chain = api("GET", f"{BASE}/chain/verify")
    assert status == 200 and chain["intact"] and chain["episodes"] == 1
    assert api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Again?"})[0] == 201


def test_an_unexpected_error_in_lambda_is_a_problem_500_not_a_502(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Hi?"})[0] == 201
    app = api.module.lambda_app()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug nobody foresaw")

    monkeypatch.setattr(app.learning, "beliefs", broken)
    status, problem = api("GET", f"{BASE}/beliefs")
    assert status == 500 and problem["type"] == "urn:tutor-memory:problem:internal"
    assert problem["instance"] == f"{BASE}/beliefs" and problem["correlation_id"]
    assert {"title", "detail"} <= set(problem) and "a bug" not in problem["detail"]


def test_malformed_json_and_unknown_routes_answer_problems_in_lambda(api: Api) -> None:
    status, problem = api("POST", f"{BASE}/episodes", raw='{"kind": "question", ')
    assert status == 400 and problem["type"].endswith("malformed-json")
    status, problem = api("POST", f"{BASE}/episodes", raw="[" * 100_000)
    assert status == 400 and problem["type"].endswith("malformed-json")
    assert api("GET", "/nowhere")[1]["status"] == 404
    assert api("PUT", f"{BASE}/beliefs")[1]["status"] == 405


def test_a_reused_key_with_another_body_is_a_409_naming_the_key_and_nothing_is_written(
    api: Api, cloud: DynamoStore
) -> None:
    key = {"Idempotency-Key": "msg-0001"}
    question = {"kind": "question", "text": "What is osmosis?"}
    assert api("POST", f"{BASE}/episodes", question, headers=key)[1]["created"]
    check = {"kind": "check", "text": "Check on osmosis",
             "check": {"topic": "osmosis", "verdict": "wrong"}}  # fmt: skip
    status, problem = api("POST", f"{BASE}/episodes", check, headers=key)
    assert status == 409 and "msg-0001" in problem["detail"]
    assert problem["type"] == "urn:tutor-memory:problem:idempotency-key-reused"
    status, problem = api("POST", f"{BASE}/episodes", {**question, "text": "Why?"}, headers=key)
    assert status == 409
    status, again = api("POST", f"{BASE}/episodes", question, headers=key)
    assert status == 200 and not again["created"]
    assert [e.text for e in cloud.episodes(PAIR)] == ["What is osmosis?"]
    assert api("GET", f"{BASE}/beliefs")[1] == []  # the refused check moved no belief


@pytest.mark.parametrize("key", ["consolidation:2026-03-02", "file:notes.md:v1"])
def test_a_client_cannot_pre_claim_the_systems_keys(api: Api, cloud: DynamoStore, key: str) -> None:
    body = {"kind": "question", "text": "What is osmosis?"}
    status, problem = api("POST", f"{BASE}/episodes", body, headers={"Idempotency-Key": key})
    assert status == 422 and problem["fields"][0]["field"] == "Idempotency-Key"
    assert cloud.episodes(PAIR) == []
