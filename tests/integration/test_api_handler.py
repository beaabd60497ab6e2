"""The turn API through the real Lambda handler, real-shaped API Gateway events, on moto."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain.episodes import Pair

from .conftest import Api

PAIR = Pair("s-42", "biology")
BASE = "/pairs/s-42/biology"


@pytest.fixture
def api(cloud: DynamoStore) -> Api:
    return Api()


def test_a_conversation_through_the_api(api: Api, cloud: DynamoStore) -> None:
    status, asked = api(
        "POST", f"{BASE}/episodes", {"kind": "question", "text": "What is osmosis?"}
    )
    assert status == 201 and asked["kind"] == "question" and asked["created"]
    status, checked = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "check", "text": "Check on osmosis",
         "check": {"topic": "osmosis", "verdict": "wrong", "predicted_mastery": 0.4}},
    )  # fmt: skip
    assert status == 201 and checked["belief"] == "struggles with osmosis (0.67)"
    status, turn = api("POST", f"{BASE}/turn", {"question": "what did I get wrong so far?"})
    assert status == 200 and not turn["dropped"] and turn["record_question"]
    assert "- struggles with osmosis (0.67)" in turn["block"]
    assert asked["id"] in turn["memory_ids"]

    status, answer = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "answer", "text": "You missed osmosis once.", "recalled_ids": turn["memory_ids"]},
    )
    assert status == 201
    status, sources = api("GET", f"{BASE}/answers/{answer['id']}/sources")
    assert status == 200 and {s["id"] for s in sources} == set(turn["memory_ids"])
    status, stance = api("POST", f"{BASE}/answers/{answer['id']}/stance", {"stance": "answered"})
    assert status == 200 and stance["stance"] == "answered"

    status, beliefs = api("GET", f"{BASE}/beliefs")
    assert status == 200 and [b["line"] for b in beliefs] == ["struggles with osmosis (0.67)"]
    status, history = api("GET", f"{BASE}/beliefs/osmosis/history")
    assert status == 200 and history["beliefs"][0]["reason"].startswith("first check on it")
    assert history["next"] is None
    status, chain = api("GET", f"{BASE}/chain/verify")
    assert status == 200 and chain["intact"] and chain["episodes"] == 3
    status, cmap = api("GET", f"{BASE}/map")
    assert status == 200 and cmap["concepts"] == []


def test_a_student_message_that_says_remember_that_teaches(api: Api, cloud: DynamoStore) -> None:
    status, body = api(
        "POST",
        f"{BASE}/episodes",
        {
            "kind": "question",
            "text": "Remember that in our class the Golgi body is the post office",
        },
    )
    assert status == 201 and body["kind"] == "taught" and body["taught"] == "Golgi body"
    status, cmap = api("GET", f"{BASE}/map")
    assert [c["name"] for c in cmap["concepts"]] == ["Golgi body"]


def test_an_episode_takes_the_replay_shape_and_the_earlier_names_of_its_evidence(
    api: Api, cloud: DynamoStore
) -> None:
    status, checked = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "check", "text": "Check on osmosis",
         "evidence": {"topic": "osmosis", "verdict": "wrong"}, "summary": "missed osmosis"},
    )  # fmt: skip
    assert status == 201 and checked["belief"] == "struggles with osmosis (0.67)"
    assert checked["summary"] == "missed osmosis"
    status, quiz = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "quiz", "text": "Quiz 1", "evidence": {"score": 3, "maximum": 5}},
    )
    assert status == 201 and quiz["kind"] == "quiz"
    status, again = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "check", "text": "Check on osmosis",
         "check": {"topic": "osmosis", "verdict": "wrong"}},
    )  # fmt: skip
    assert status == 201 and again["belief"].startswith("struggles with osmosis")
    assert again["belief"] != checked["belief"]  # the second miss moved it
    status, twice = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "check", "text": "Check",
         "evidence": {"topic": "osmosis", "verdict": "right"},
         "check": {"topic": "osmosis", "verdict": "right"}},
    )  # fmt: skip
    assert status == 422 and "give the evidence once" in twice["error"]
    status, mismatched = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "quiz", "text": "Quiz", "evidence": {"topic": "osmosis", "verdict": "right"}},
    )
    assert status == 422 and "body.evidence.topic: Extra inputs" in mismatched["error"]
    assert len(cloud.episodes(PAIR)) == 3


def test_a_check_without_its_verdict_is_refused_for_the_fields_of_a_check_only(
    api: Api, cloud: DynamoStore
) -> None:
    status, problem = api(
        "POST",
        f"{BASE}/episodes",
        {"kind": "check", "text": "Check", "evidence": {"topic": "osmosis"}},
    )
    assert status == 422 and problem["type"] == "urn:tutor-memory:problem:invalid-request"
    assert problem["fields"] == [{"field": "body.evidence.verdict", "problem": "Field required"}]
    assert problem["detail"] == "the request is not valid: body.evidence.verdict: Field required"
    assert cloud.episodes(PAIR) == []


def test_an_idempotency_key_makes_a_retry_write_once(api: Api, cloud: DynamoStore) -> None:
    payload = {"kind": "question", "text": "What is osmosis?"}
    headers = {"Idempotency-Key": "msg-0001"}
    first = api("POST", f"{BASE}/episodes", payload, headers=headers)
    again = api("POST", f"{BASE}/episodes", payload, headers=headers)
    assert first[1]["created"] and not again[1]["created"]
    assert first[1]["id"] == again[1]["id"]
    assert len(cloud.episodes(PAIR)) == 1


@pytest.mark.parametrize(
    ("request_args", "status", "says"),
    [
        ({"raw": "{not json"}, 400, "JSON"),  # malformed JSON is a bad request, not a field
        ({"body": {"kind": "question"}}, 422, "body.text"),
        ({"body": {"kind": "question", "text": "hi", "colour": "blue"}}, 422, "colour"),
        ({"body": {"kind": "gossip", "text": "hi"}}, 422, "body.kind"),
        ({"body": {"kind": "question", "text": "x" * 20_001}}, 422, "body.text"),
        ({"body": {"kind": "check", "text": "Check on osmosis"}}, 422, "evidence: is required"),
        (
            {"body": {"kind": "check", "text": "c", "check": {"topic": "x", "verdict": "maybe"}}},
            422,
            "body.check.verdict",
        ),
        (
            {"body": {"kind": "check", "text": "c", "evidence": {"kind": "quiz", "score": 1}}},
            422,
            "body.evidence.kind: is quiz evidence, and a check takes the evidence of a check",
        ),
        (
            {"body": {"kind": "answer", "text": "a", "recalled_ids": ["e9-000000000000"]}},
            422,
            "recalled_ids: no episode",
        ),
        ({"body": {"kind": "taught", "text": "Osmosis is boring"}}, 422, "not an instruction"),
    ],
)
def test_a_bad_episode_gets_a_4xx_that_names_the_problem_and_writes_nothing(
    api: Api, cloud: DynamoStore, request_args: dict[str, Any], status: int, says: str
) -> None:
    api("POST", f"{BASE}/episodes", {"kind": "question", "text": "the one good episode"})
    got, body = api("POST", f"{BASE}/episodes", **request_args)
    assert got == status and says in body["error"]
    assert len(cloud.episodes(PAIR)) == 1


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/pairs/nobody/biology/beliefs", None),
        ("POST", "/pairs/nobody/biology/turn", {"question": "hi"}),
        ("GET", "/pairs/nobody/biology/chain/verify", None),
    ],
)
def test_an_unknown_pair_is_a_404_that_says_so(
    api: Api, cloud: DynamoStore, method: str, path: str, body: Any
) -> None:
    status, answer = api(method, path, body)
    assert status == 404 and "no record of nobody/biology" in answer["error"]


def test_bad_ids_and_values_elsewhere_are_4xx(api: Api, cloud: DynamoStore) -> None:
    _, asked = api("POST", f"{BASE}/episodes", {"kind": "question", "text": "What is osmosis?"})
    status, body = api("POST", f"{BASE}/answers/{asked['id']}/stance", {"stance": "answered"})
    assert status == 422 and "not an answer" in body["error"]
    status, body = api("POST", f"{BASE}/answers/e99-000000000000/stance", {"stance": "answered"})
    assert status == 404
    status, body = api("POST", f"{BASE}/answers/{asked['id']}/stance", {"stance": "great"})
    assert status == 422 and "body.stance" in body["error"]
    status, body = api("GET", f"{BASE}/beliefs/nothing/history")
    assert status == 404
    status, body = api("POST", "/pairs/bad id/biology/episodes", {"kind": "question", "text": "x"})
    assert status == 422 and "student_id" in body["error"]


def test_a_turn_emits_its_latency_drop_and_pool_metrics(
    api: Api, cloud: DynamoStore, capsys: pytest.CaptureFixture[str]
) -> None:
    api("POST", f"{BASE}/episodes", {"kind": "question", "text": "What is osmosis?"})
    capsys.readouterr()
    status, answered = api("POST", f"{BASE}/turn", {"question": "What is osmosis?"})
    assert status == 200 and answered["meaning_missed"] is False
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    emf = [line for line in lines if "_aws" in line]
    assert emf, "no embedded-metrics record was printed"
    names = {m["Name"] for m in emf[-1]["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    assert {"TurnLatency", "DroppedBlocks", "RecallPoolRecent", "RecallPoolLexical"} <= names
    assert emf[-1]["DroppedBlocks"] == 0.0 or emf[-1]["DroppedBlocks"] == [0.0]
    assert "RecallWithoutMeaning" in names  # 1 when the model failed or was late


def test_a_concept_is_found_by_the_name_users_see_with_the_path_percent_encoded(
    api: Api, cloud: DynamoStore
) -> None:
    # API Gateway's REST events carry the path as the client encoded it.
    for topic in ("pH scale", "Indicator"):
        evidence = {"topic": topic, "verdict": "wrong"}
        body = {"kind": "check", "text": "a check", "evidence": evidence}
        assert api("POST", f"{BASE}/episodes", body)[0] == 201
    for typed, key in (
        ("ph%20scale", "ph scale"),
        ("PH%20%20Scale", "ph scale"),
        ("pH%20scale", "ph scale"),
        ("Indicator", "indicator"),
        ("indicators", "indicator"),  # another form of the name
    ):
        status, history = api("GET", f"{BASE}/beliefs/{typed}/history")
        assert status == 200, (typed, history)
        assert {row["concept_key"] for row in history["beliefs"]} == {key}
    status, missing = api("GET", f"{BASE}/beliefs/ph%20scales%20chart/history")
    assert status == 404 and "ph scales chart" in missing["detail"]


def test_an_episode_is_created_with_201_and_its_retry_answers_200(
    api: Api, cloud: DynamoStore
) -> None:
    key = {"Idempotency-Key": "msg-201"}
    question = {"kind": "question", "text": "What is osmosis?"}
    status, first = api("POST", f"{BASE}/episodes", question, headers=key)
    assert status == 201 and first["created"]
    status, again = api("POST", f"{BASE}/episodes", question, headers=key)
    assert status == 200 and not again["created"] and again["id"] == first["id"]
