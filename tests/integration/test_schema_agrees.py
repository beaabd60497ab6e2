"""The OpenAPI document says what the server accepts (issue 29, item 10): each request below is
checked against the committed document (its schemas and parameters, as a validator reads them)
and sent to ``tutor-memory serve``; the two agree — allowed and answered 2xx, or forbidden and
refused with a 4xx. The cases are the fuzz's mismatches and their neighbours; the fuzz itself
(``tests/fuzz``) looks for the rest."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jsonschema_rs
import pytest

from tutor_memory.api.operations import operation
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.settings import Settings, on_folder

from .conftest import serving

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "infra" / "openapi.json").read_text(encoding="utf-8"))
PAIR = Pair("s-42", "biology")
QUIZ = {"score": 3, "maximum": 5}
CHECK = {"topic": "osmosis", "verdict": "wrong"}


def schema_of(op_name: str) -> tuple[str, dict[str, Any]]:
    op = operation(op_name)
    return op.path, DOCUMENT["paths"][op.path][op.method.lower()]


def allows(
    op_name: str, body: Any = None, query: dict[str, str] | None = None, **path: str
) -> bool:
    """Whether the document allows the request: its body and every parameter given."""
    _, spec = schema_of(op_name)
    path = {"student_id": PAIR.student_id, "subject_id": PAIR.subject_id, **path}
    checks: list[tuple[dict[str, Any], Any]] = []
    if body is not None:
        checks.append((spec["requestBody"]["content"]["application/json"]["schema"], body))
    for parameter in spec.get("parameters", []):
        given = {"query": query or {}, "path": path}.get(parameter["in"], {})
        if parameter["name"] in given:
            checks.append((parameter["schema"], given[parameter["name"]]))
        elif parameter.get("required") and parameter["in"] in ("query", "path"):
            return False
    return all(
        jsonschema_rs.validator_for({**schema, "components": DOCUMENT["components"]}).is_valid(
            value
        )
        for schema, value in checks
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[App, str]]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path_factory.mktemp("tm")))
    app.episodes.add(PAIR, "question", "What does osmosis move?")
    app.episodes.add(PAIR, "check", "Which way does water move?", evidence=CHECK)
    with serving(app) as url:
        yield app, url.removeprefix("http://")
    app.close()


def send(
    served: tuple[App, str],
    op_name: str,
    body: Any = None,
    query: dict[str, str] | None = None,
    **path: str,
) -> int:
    op = operation(op_name)
    params = {"student_id": PAIR.student_id, "subject_id": PAIR.subject_id, **path}
    target = op.url(**{k: v for k, v in params.items() if "{" + k + "}" in op.path})
    if query:
        target += "?" + urlencode(query, quote_via=quote)
    host, port = served[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    try:
        data = None if body is None else json.dumps(body).encode("utf-8")
        conn.request(op.method, target, body=data, headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    finally:
        conn.close()


def agree(served: tuple[App, str], op_name: str, body: Any = None, **params: Any) -> bool:
    """Whether the document and the server agree; returns whether the document allows it."""
    query = params.pop("query", None)
    allowed = allows(op_name, body, query, **params)
    status = send(served, op_name, body, query, **params)
    assert (200 <= status < 300) == allowed, (op_name, body, query, params, status, allowed)
    assert status < 500
    return allowed


def episode(**fields: Any) -> dict[str, Any]:
    return {"kind": "question", "text": "What is osmosis?", **fields}


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        # the evidence each kind requires, once, under its name or its earlier one
        ({"kind": "quiz", "text": "Quiz 1"}, False),
        ({"kind": "quiz", "text": "Quiz 1", "evidence": None}, False),
        ({"kind": "quiz", "text": "Quiz 1", "evidence": QUIZ}, True),
        ({"kind": "quiz", "text": "Quiz 1", "quiz": QUIZ}, True),
        ({"kind": "quiz", "text": "Quiz 1", "quiz": QUIZ, "evidence": QUIZ}, False),
        ({"kind": "check", "text": "Check", "check": CHECK}, True),
        ({"kind": "check", "text": "Check"}, False),
        ({"kind": "check", "text": "Check", "evidence": QUIZ}, False),
        ({"kind": "question", "text": "Why?", "evidence": {}}, True),
        ({"kind": "question", "text": "Why?", "check": CHECK}, False),
        ({"kind": "question", "text": "Why?", "quiz": None}, True),
        ({"kind": "answer", "text": "Water.", "evidence": {}}, True),
        ({"kind": "answer", "text": "Water.", "evidence": {"page": 3}}, False),
        ({"kind": "answer", "text": "Water.", "citation": None, "evidence": None}, True),
        ({"kind": "answer", "text": "Water.", "citation": {"file_id": "no!tes"}}, False),
        ({"kind": "taught", "text": "Remember that osmosis moves water", "evidence": CHECK}, False),
        # only an answer carries recalled ids
        (episode(recalled_ids=["e1-abc"]), False),
        # a summary is one line; a time is RFC 3339 from 1970; text shows something
        (episode(summary="osmosis\nagain"), False),
        (episode(summary="  osmosis, again \n"), True),
        (episode(at="1969-12-31T23:59:59Z"), False),
        (episode(at="2026-01-02T03:04:05.678+01:00"), True),
        (episode(at="2026-01-02T03:04Z"), False),
        (episode(text="\u2060\u200b"), False),
        (episode(concepts=["osmosis", "água"]), True),
        (episode(concepts=[" "]), False),
        (episode(ref=""), False),
        (episode(salience=1), True),
        (episode(salience=True), False),
        ({"kind": "quiz", "text": "Q", "evidence": {"score": 0, "maximum": 0.00005}}, False),
        ({"kind": "quiz", "text": "Q", "evidence": {"score": 0, "maximum": 0.0001}}, True),
    ],
)
def test_an_episode_is_allowed_by_the_document_exactly_when_the_server_takes_it(
    served: tuple[App, str], body: dict[str, Any], allowed: bool
) -> None:
    assert agree(served, "addEpisode", body) is allowed


def test_bounds_and_flags_of_the_other_bodies_agree(served: tuple[App, str]) -> None:
    assert not agree(served, "turn", {"question": "Why?", "budget_tokens": 49})
    assert agree(served, "turn", {"question": "Why?", "budget_tokens": 50.0})
    assert not agree(served, "turn", {"at": "100000000000"})
    assert not agree(served, "rederiveBeliefs", {"force": "yes"})
    assert agree(served, "rederiveBeliefs", {"force": True, "reason": "new rules"})
    assert not agree(served, "setClass", {"teachers": [""], "students": []}, class_id="c1")
    assert not agree(served, "setClass", {"teachers": ["t 1"], "students": []}, class_id="c1")
    assert agree(served, "setClass", {"teachers": ["t-1"], "students": ["s-42"]}, class_id="c1")


def test_query_and_path_parameters_agree(served: tuple[App, str]) -> None:
    # an empty history= is refused as API Gateway passes it (it was read as absent by serve)
    assert not agree(served, "report", query={"history": ""})
    assert not agree(served, "report", query={"history": "\u200b"})
    assert agree(served, "report", query={"history": "Osmosis"})
    assert not agree(served, "whyRecalled", query={"q": "osmosis", "at": "1700000000"})
    assert agree(served, "whyRecalled", query={"q": "osmosis", "at": "2026-03-02T10:00:00Z"})
    assert not agree(served, "listEpisodes", query={"limit": "0"})
    assert not agree(served, "listEpisodes", query={"next": ""})
    assert not agree(served, "beliefHistory", concept="osmo\x00sis")
    assert not agree(served, "removeFile", file_id="no!tes")
    # an erasure's reason is one line that says something; who asked is an id
    for reason in (" ", "one\ntwo"):
        assert not agree(served, "erasePair", query={"reason": reason})
    assert not agree(served, "erasePair", query={"reason": "asked", "requested_by": "a b"})


def test_a_refusal_that_depends_on_stored_state_is_documented_in_the_operation(
    served: tuple[App, str],
) -> None:
    # Not a mismatch: no schema of the request can know the pair's records. The operation lists
    # the status, and the parameter says when it is answered.
    app, _ = served
    first = app.memory.history(PAIR)[0].episode_id  # a question, not an answer
    assert allows("setStance", {"stance": "answered"}, answer_id=first)
    assert send(served, "setStance", {"stance": "answered"}, answer_id=first) == 422
    assert send(served, "sources", answer_id=first) == 422
    assert send(served, "report", query={"history": "photosynthesis"}) == 404
    cites = {"kind": "answer", "text": "Water.", "citation": {"file_id": "notes", "page": 3}}
    assert allows("addEpisode", cites)  # a file the pair has not registered: the store's
    assert send(served, "addEpisode", cites) == 422
    for name in ("setStance", "sources", "report"):
        _, spec = schema_of(name)
        assert {"404", "422"} <= set(spec["responses"]), name
    _, stance = schema_of("setStance")
    described = {p["name"]: p.get("description", "") for p in stance["parameters"]}
    assert "another kind is a 422" in described["answer_id"]


def test_a_corrections_value_is_of_its_fields_type_in_the_document_as_on_the_server(
    served: tuple[App, str],
) -> None:
    # the fuzz's mismatch: a number as a student's corrected words was allowed by the document
    app, _ = served
    history = app.memory.history(PAIR)
    question = next(e.episode_id for e in history if e.kind.value == "question")
    check = next(e.episode_id for e in history if e.kind.value == "check")
    why = {"reason": "misheard"}
    assert not agree(served, "correctEpisode", {"field": "text", "value": 3, **why},
                     episode_id=question)  # fmt: skip
    assert not agree(served, "correctEpisode", {"field": "verdict", "value": 1, **why},
                     episode_id=check)  # fmt: skip
    for score in (-1, "3"):
        assert not allows("correctEpisode", {"field": "score", "value": score, **why},
                          episode_id=check)  # fmt: skip
    assert allows("correctEpisode", {"field": "score", "value": 3, **why}, episode_id=check)
    assert agree(served, "correctEpisode", {"field": "verdict", "value": "right", **why},
                 episode_id=check)  # fmt: skip
