"""A hostile client through the real Lambda handler (moto): every answer is a documented
status with a problem body; nothing it sends breaks a pair."""

from __future__ import annotations

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore

from .test_api_handler import BASE, Api


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
    assert api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Hi?"})[0] == 200
    status, error = api("POST", f"{BASE}/episodes", {"kind": "question", "text": "?", "at": at})
    assert status == 422 and error["fields"][0]["field"] == "at", error
    status, error = api("POST", f"{BASE}/turn", {"question": "what did we do last week?", "at": at})
    assert status == 422 and error["fields"][0]["field"] == "at", error
    status, chain = api("GET", f"{BASE}/chain/verify")
    assert status == 200 and chain["intact"] and chain["episodes"] == 1
    assert api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Again?"})[0] == 200
