"""Erasure through the real Lambda handler (API Gateway events, DynamoDB on moto)."""

from __future__ import annotations

from typing import Any

from tutor_memory.adapters.dynamo_store import DynamoStore

from .conftest import Api

BASE = "/pairs/s-42/biology"


def call(method: str, path: str, body: Any = None, query: dict[str, str] | None = None) -> Any:
    return Api()(method, path, body, query=query)


def test_delete_erases_an_episode_then_the_pair_then_the_student_and_verify_says_so(
    cloud: DynamoStore,
) -> None:
    status, asked = call("POST", f"{BASE}/episodes", {"kind": "question", "text": "Mistake!"})
    assert status == 201
    call("POST", f"{BASE}/episodes", {"kind": "question", "text": "What is osmosis?"})
    path = f"{BASE}/episodes/{asked['id']}"
    status, body = call("DELETE", path, query={"reason": "typed by mistake"})
    assert status == 200 and body["erased"] == {"s-42/biology": [1]}
    status, again = call("DELETE", path, query={"reason": "typed by mistake"})
    assert status == 200 and again["episodes_erased"] == 0  # idempotent
    status, _ = call("DELETE", path)
    assert status == 422  # the reason is required
    status, verified = call("GET", f"{BASE}/chain/verify")
    assert verified["intact"] and verified["erased"] == 1
    assert verified["report"].startswith(
        "intact: 3 episodes (1 of them an erasure entry), 1 erased ("
    )
    assert "'typed by mistake' ×1" in verified["report"]

    status, body = call("DELETE", BASE, query={"reason": "end of year", "requested_by": "school"})
    assert status == 200 and body["erased"] == {"s-42/biology": [2]}
    status, body = call("DELETE", "/students/s-42", query={"reason": "left"})
    assert status == 200 and body["episodes_erased"] == 0  # nothing left with a body
    status, _ = call("DELETE", "/students/nobody", query={"reason": "left"})
    assert status == 404
    status, verified = call("GET", f"{BASE}/chain/verify")
    # every body erased; the chain also holds the two erasures' entries
    assert verified["intact"] and (verified["erased"], verified["episodes"]) == (2, 4)
