"""GET /pairs/{student}/{subject}/report through the real Lambda handler, on moto."""

from __future__ import annotations

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api.models import ReportResponse
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.usecases.reports import report_json

from .conftest import Api

PAIR = Pair("s-42", "biology")
BASE = "/pairs/s-42/biology"


@pytest.fixture
def api(cloud: DynamoStore) -> Api:
    api = Api()
    for check in (
        {"topic": "osmosis", "verdict": "wrong", "predicted_mastery": 0.4},
        {"topic": "osmosis", "verdict": "right", "predicted_mastery": 0.6},
        {"topic": "tell me more", "verdict": "right"},
    ):
        status, _ = api(
            "POST", f"{BASE}/episodes", {"kind": "check", "text": "a check", "check": check}
        )
        assert status == 201
    api("POST", f"{BASE}/episodes", {"kind": "question", "text": "Why do plants wilt?"})
    status, answer = api("POST", f"{BASE}/episodes", {"kind": "answer", "text": "Not in files."})
    assert status == 201
    api("POST", f"{BASE}/answers/{answer['id']}/stance", {"stance": "could_not"})
    return api


def test_the_report_route_returns_the_report_of_the_pair(api: Api) -> None:
    status, body = api("GET", f"{BASE}/report")
    assert status == 200
    again = report_json(lambda_app().reports.report(PAIR))
    assert body | {"generated_at": ""} == again | {"generated_at": ""}  # the same report
    ReportResponse.model_validate(body)
    assert body["checks"] | {"line": ""} == {
        "recorded": 3,
        "right": 2,
        "wrong": 1,
        "tied": 2,
        "on_map": 0,
        "line": "",
    }
    assert [b["line"] for b in body["beliefs"]] == ["understands osmosis (0.53)"]
    assert body["answers"]["stances"]["could_not"] == 1
    assert body["answers"]["could_not"][0]["question"] == "Why do plants wilt?"
    assert body["calibration"]["predictions"] == 2 and not body["calibration"]["calibrated"]
    assert body["verification"]["lines"] == [
        "Nothing has been verified yet (0 memories cite a file)."
    ]
    assert body["subject"]["concepts"] == 0 and body["history"] is None


def test_history_of_one_belief_is_asked_for_in_the_query(api: Api) -> None:
    status, body = api("GET", f"{BASE}/report", query={"history": "Osmosis"})
    assert status == 200 and body["history"]["concept_key"] == "osmosis"
    rows = body["history"]["rows"]
    assert [r["line"] for r in rows] == [
        "struggles with osmosis (0.67)",
        "understands osmosis (0.53)",
    ]
    assert rows[0]["superseded_by"] == rows[1]["id"]
    assert rows[1]["reason"].startswith("changed its mind: struggles with → understands")


@pytest.mark.parametrize(
    ("path", "query", "status", "says"),
    [
        ("/pairs/nobody/biology/report", None, 404, "no record of nobody/biology"),
        (f"{BASE}/report", {"history": "meiosis"}, 404, "no belief about 'meiosis'"),
        (f"{BASE}/report", {"history": "x" * 121}, 422, "query.history"),
    ],
)
def test_a_report_that_cannot_be_made_is_a_4xx_that_says_why(
    api: Api, path: str, query: dict[str, str] | None, status: int, says: str
) -> None:
    got, body = api("GET", path, query=query)
    assert got == status and says in body["error"]
