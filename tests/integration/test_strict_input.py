"""Strict input (issue 29, item 8): what a hostile or careless client sends is refused as
itself, a 4xx problem naming what was wrong, on every door — the Lambda's REST routes (real
API Gateway events on moto), ``tutor-memory serve`` (raw bytes over a socket) and the library
(the same pydantic models) — and nothing is written."""

from __future__ import annotations

import base64
import http.client
import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pydantic
import pytest

from tutor_memory import Memory
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api.models import EpisodeRequest
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.settings import Settings, on_folder

from .conftest import LambdaContext, event, load_handler, serving

BASE = "/pairs/s-42/biology"
JSON = {"Content-Type": "application/json"}
# A door takes (method, path, body bytes, headers, query, as base64) and answers (status, body).
Door = Callable[..., tuple[int, Any]]


@pytest.fixture
def lambda_door(cloud: DynamoStore) -> Door:
    module = load_handler("api")

    def send(
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        query: dict[str, str] | None = None,
        *,
        binary: bool = False,
    ) -> tuple[int, Any]:
        shaped = event("api-turn.json")
        shaped["httpMethod"] = shaped["requestContext"]["httpMethod"] = method
        shaped["path"] = path
        shaped["pathParameters"] = {"proxy": path.lstrip("/")}
        if body is None:
            shaped["body"], shaped["isBase64Encoded"] = None, False
        elif binary:  # as API Gateway sends bytes that are not text
            shaped["body"] = base64.b64encode(body).decode("ascii")
            shaped["isBase64Encoded"] = True
        else:
            shaped["body"], shaped["isBase64Encoded"] = body.decode("utf-8"), False
        shaped["headers"] = {**shaped["headers"], **JSON, **(headers or {})}
        shaped["multiValueHeaders"] = {k: [v] for k, v in shaped["headers"].items()}
        shaped["queryStringParameters"] = query
        shaped["multiValueQueryStringParameters"] = (
            {k: [v] for k, v in query.items()} if query else None
        )
        answer = module.handler(shaped, LambdaContext())
        return answer["statusCode"], json.loads(answer["body"]) if answer["body"] else None

    return send


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    with serving(app) as url:
        yield url.removeprefix("http://")
    app.close()


@pytest.fixture
def serve_door(served: str) -> Door:
    host, port = served.split(":")

    def send(
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        query: dict[str, str] | None = None,
        *,
        binary: bool = False,  # bytes go as they are: the server decides
    ) -> tuple[int, Any]:
        target = path + ("?" + urlencode(query, quote_via=quote) if query else "")
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        try:
            conn.request(method, target, body=body, headers={**JSON, **(headers or {})})
            answer = conn.getresponse()
            data = answer.read()
        finally:
            conn.close()
        return answer.status, json.loads(data) if data else None

    return send


@pytest.fixture(params=["lambda", "serve"])
def door(request: pytest.FixtureRequest) -> Door:
    found: Door = request.getfixturevalue(f"{request.param}_door")
    return found


def written(door: Door) -> int:
    """How many episodes the pair holds (0, or a 404 for a pair that was never written)."""
    status, chain = door("GET", f"{BASE}/chain/verify")
    return 0 if status == 404 else int(chain["episodes"])


def refused(answer: tuple[int, Any], status: int, field: str | None = None) -> dict[str, Any]:
    got, problem = answer
    assert got == status, problem
    assert problem["status"] == status and problem["type"].startswith("urn:tutor-memory:problem:")
    if field is not None:
        assert field in [f["field"] for f in problem["fields"]], problem
        assert field in problem["detail"], problem
    return dict(problem)


def body(data: Any) -> bytes:
    return json.dumps(data).encode("utf-8")


# --- numbers, flags and times: refused as themselves, never coerced ---------------------------


def test_an_integer_of_thousands_of_digits_is_a_422_naming_it_not_a_500(door: Door) -> None:
    huge = b'{"question": "hi", "budget_tokens": ' + b"7" * 5_000 + b"}"
    problem = refused(door("POST", f"{BASE}/turn", huge), 422, "body.budget_tokens")
    assert "5,000 digits" in problem["detail"]
    page = b'{"kind": "answer", "text": "A.", "evidence": {"file_id": "f", "page": 1' + b"0" * 4400
    problem = refused(door("POST", f"{BASE}/episodes", page + b"}}"), 422, "body.evidence.page")
    # within the parser's bound, but past the document's maximum
    over = {"kind": "answer", "text": "A.", "evidence": {"file_id": "f", "page": 10**30}}
    refused(door("POST", f"{BASE}/episodes", body(over)), 422, "body.evidence.page")
    assert written(door) == 0


def test_nan_infinity_and_a_member_given_twice_are_refused(door: Door) -> None:
    nan = b'{"kind": "question", "text": "Why?", "salience": NaN}'
    assert refused(door("POST", f"{BASE}/episodes", nan), 400)["type"].endswith("malformed-json")
    infinite = b'{"kind": "quiz", "text": "Q", "evidence": {"score": 1, "maximum": 1e999}}'
    refused(door("POST", f"{BASE}/episodes", infinite), 422, "body.evidence.maximum")
    twice = b'{"kind": "question", "text": "Why?", "kind": "check"}'
    refused(door("POST", f"{BASE}/episodes", twice), 422, "body.kind")
    assert written(door) == 0


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"kind": "question", "text": "Why?", "salience": True}, "body.salience"),
        ({"kind": "question", "text": "Why?", "salience": "0.5"}, "body.salience"),
        ({"kind": "question", "text": "Why?", "at": 100_000_000_000}, "body.at"),
        ({"kind": "question", "text": "Why?", "at": "100000000000"}, "body.at"),
        ({"kind": "question", "text": "Why?", "at": "2026-03-02"}, "body.at"),
        ({"kind": "question", "text": "Why?", "at": "2026-03-02T10:00:00"}, "body.at"),
        (
            {"kind": "check", "text": "C", "evidence": {"topic": "osmosis", "verdict": "right",
                                                        "predicted_mastery": False}},
            "body.evidence.predicted_mastery",
        ),
    ],
)  # fmt: skip
def test_numbers_flags_and_times_are_taken_only_as_json_writes_them(
    door: Door, sent: dict[str, Any], field: str
) -> None:
    refused(door("POST", f"{BASE}/episodes", body(sent)), 422, field)
    assert written(door) == 0


def test_force_is_true_or_false_and_at_a_string_on_the_other_routes(door: Door) -> None:
    assert door("POST", f"{BASE}/episodes", body({"kind": "question", "text": "Hi?"}))[0] == 201
    refused(door("POST", f"{BASE}/beliefs/rederive", body({"force": "yes"})), 422, "body.force")
    refused(door("POST", f"{BASE}/beliefs/rederive", body({"force": 1})), 422, "body.force")
    turn = {"question": "What did we do?", "at": 1_700_000_000}
    refused(door("POST", f"{BASE}/turn", body(turn)), 422, "body.at")
    refused(door("POST", f"{BASE}/turn", body({"budget_tokens": True})), 422, "body.budget_tokens")
    recall = {"q": "osmosis", "at": "1700000000"}
    refused(door("GET", f"{BASE}/recall", query=recall), 422, "query.at")
    ok = {"q": "osmosis", "at": "2026-03-02T10:00:00Z"}
    assert door("GET", f"{BASE}/recall", query=ok)[0] == 200
    assert written(door) == 1


# --- text that says nothing, names with control characters ------------------------------------


@pytest.mark.parametrize(
    "text", ["\u200b", "\x01\x02\x03", " \u3164 \u2800\ufeff", "\u00ad\u2060\t\n"]
)
def test_text_of_only_control_or_invisible_characters_is_a_422_naming_it(
    door: Door, text: str
) -> None:
    sent = {"kind": "question", "text": text}
    refused(door("POST", f"{BASE}/episodes", body(sent)), 422, "body.text")
    taught = {"kind": "taught", "text": "Remember this", "evidence": {"note": text}}
    refused(door("POST", f"{BASE}/episodes", body(taught)), 422, "body.evidence.note")
    assert written(door) == 0


def test_a_concept_topic_ref_or_id_with_a_control_character_is_a_422(door: Door) -> None:
    sent = {"kind": "question", "text": "What is osmosis?", "concepts": ["osmo\x00sis"]}
    refused(door("POST", f"{BASE}/episodes", body(sent)), 422, "body.concepts.0")
    check = {
        "kind": "check",
        "text": "C",
        "evidence": {"topic": "osmosis\x1b[2J", "verdict": "right"},
    }
    refused(door("POST", f"{BASE}/episodes", body(check)), 422, "body.evidence.topic")
    quiz = {"kind": "quiz", "text": "Q", "evidence": {"score": 1, "maximum": 2, "topics": ["a\nb"]}}
    refused(door("POST", f"{BASE}/episodes", body(quiz)), 422, "body.evidence.topics.0")
    ref = {"kind": "question", "text": "Why?", "ref": "msg\x007"}
    refused(door("POST", f"{BASE}/episodes", body(ref)), 422, "body.ref")
    answer = {"kind": "answer", "text": "A.", "recalled_ids": ["e1-ab\x00"]}
    refused(door("POST", f"{BASE}/episodes", body(answer)), 422, "body.recalled_ids.0")
    assert written(door) == 0
    assert door("POST", f"{BASE}/episodes", body({"kind": "question", "text": "Hi?"}))[0] == 201
    refused(door("GET", f"{BASE}/beliefs/osmo%00sis/history"), 422, "path.concept")
    refused(door("GET", f"{BASE}/report", query={"history": "osmo\x00sis"}), 422, "query.history")
    refused(door("GET", f"{BASE}/report", query={"history": "\u200b"}), 422, "query.history")
    assert written(door) == 1


def test_a_ref_concept_or_topic_too_long_is_refused_in_characters(door: Door) -> None:
    # pydantic said "Value should have at most 256 items after validation" of a long ref
    sent = {"kind": "question", "text": "Why?", "ref": "r" * 257, "concepts": ["c" * 121]}
    problem = refused(door("POST", f"{BASE}/episodes", body(sent)), 422, "body.ref")
    said = {f["field"]: f["problem"] for f in problem["fields"]}
    assert said == {
        "body.ref": "String should have at most 256 characters",
        "body.concepts.0": "String should have at most 120 characters",
    }
    quiz = {"kind": "quiz", "text": "Q", "evidence": {"score": 1, "maximum": 2, "topics": ["t"]}}
    quiz["evidence"]["topics"] = ["t" * 121]  # type: ignore[index]
    problem = refused(door("POST", f"{BASE}/episodes", body(quiz)), 422, "body.evidence.topics.0")
    assert "at most 120 characters" in problem["detail"] and "items" not in problem["detail"]
    assert written(door) == 0


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("x" * 2001, "String should have at most 2000 characters"),
        ("   ", "must contain a visible character (not only spaces, controls or invisible ones)"),
        (True, "must be the corrected words (a string) or a number"),
        (None, "must be the corrected words (a string) or a number"),
        (["right"], "must be the corrected words (a string) or a number"),
    ],
)
def test_a_correction_value_is_refused_as_what_was_given(
    door: Door, value: Any, problem: str
) -> None:
    """pydantic named each member of the value's union: "body.value.function-after[functools.
    partial(<function max_length_validator at 0x…>, max_length=2000)(), …]: Value should have
    at most 2000 items after validation", and a second line for the number it was not."""
    status, taught = door("POST", f"{BASE}/episodes", body({"kind": "question", "text": "Hi"}))
    assert status == 201
    sent = {"field": "text", "value": value, "reason": "a typo"}
    path = f"{BASE}/episodes/{taught['id']}/corrections"
    refused_as = refused(door("POST", path, body(sent)), 422, "body.value")
    assert refused_as["fields"] == [{"field": "body.value", "problem": problem}]
    assert written(door) == 1


# --- bytes that are not UTF-8 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        '{"kind": "question", "text": "café"}'.encode("latin-1"),  # a latin-1 body
        b'{"kind": "question", "text": "\xff\xfe\xc3"}',  # bytes that are no text at all
        b'{"kind": "question", "text": "\xed\xa0\x80"}',  # an encoded surrogate
    ],
)
def test_a_body_that_is_not_utf8_is_a_400_and_nothing_is_stored(door: Door, raw: bytes) -> None:
    problem = refused(door("POST", f"{BASE}/episodes", raw, binary=True), 400)
    assert problem["type"] == "urn:tutor-memory:problem:bad-encoding", problem
    assert written(door) == 0


def test_a_body_in_another_charset_is_refused_as_a_415(door: Door) -> None:
    sent = body({"kind": "question", "text": "Hi?"})
    latin = {"Content-Type": "application/json; charset=iso-8859-1"}
    refused(door("POST", f"{BASE}/episodes", sent, latin), 415)
    utf8 = {"Content-Type": "application/json; charset=UTF-8"}
    assert door("POST", f"{BASE}/episodes", sent, utf8)[0] == 201


def test_a_query_that_is_not_utf8_once_decoded_is_a_400(serve_door: Door) -> None:
    assert serve_door("POST", f"{BASE}/episodes", body({"kind": "question", "text": "Hi?"}))[0]
    problem = refused(serve_door("GET", f"{BASE}/recall?q=os%FFmosis"), 400)
    assert problem["type"] == "urn:tutor-memory:problem:bad-encoding"


# --- framing, and bytes that are no HTTP request (serve) ---------------------------------------


def exchange(served: str, raw: bytes, timeout_s: float = 5.0) -> tuple[str, dict[str, Any]]:
    """Raw bytes in; the status line and the problem out (the server must answer, not drop)."""
    host, port = served.split(":")
    with socket.create_connection((host, int(port)), timeout=timeout_s) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1."), f"no status line: {data[:200]!r}"
    return head.split(b"\r\n")[0].decode("latin-1"), json.loads(payload)


def post(*headers: str, payload: bytes = b'{"kind": "question", "text": "Hi?"}') -> bytes:
    lines = [f"POST {BASE}/episodes HTTP/1.1", "Host: localhost", "Content-Type: application/json",
             *headers]  # fmt: skip
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload


@pytest.mark.parametrize(
    "headers",
    [
        ("Content-Length: 35", "Content-Length: 5"),  # two lengths
        ("Content-Length: 35", "Content-Length: 35"),  # the same length twice
        ("Content-Length: 35", "Transfer-Encoding: chunked"),  # a length and a coding
        ("Transfer-Encoding: chunked", "Content-Length: 35"),
    ],
)
def test_a_request_framed_twice_is_a_400_and_nothing_is_stored(
    served: str, serve_door: Door, headers: tuple[str, str]
) -> None:
    status, problem = exchange(served, post(*headers))
    assert status.split()[1] == "400", (status, problem)
    assert problem["type"] == "urn:tutor-memory:problem:conflicting-framing", problem
    assert "conflicting framing" in problem["detail"]
    assert written(serve_door) == 0


def test_a_tls_client_hello_is_answered_400_at_once_with_a_status_line(served: str) -> None:
    # The first bytes of a TLS 1.2 ClientHello, as a browser sends to https:// on this port.
    hello = bytes.fromhex("16030100f8010000f40303") + bytes(range(32)) + b"\x00\x02\x13\x01"
    status, problem = exchange(served, hello, timeout_s=3.0)  # well inside the read timeout
    assert status.split()[1] == "400", (status, problem)
    assert problem["type"] == "urn:tutor-memory:problem:not-http"


@pytest.mark.parametrize(
    "raw",
    [
        b"GET / HTTP/1.1\r\nthis is no header\r\n\r\n",  # refused before the request line is kept
        b"get /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n",  # a method in lower case
        b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n\x16\x03\x01\r\n\r\n",
    ],
)
def test_a_request_refused_before_its_path_is_read_is_still_answered(
    served: str, raw: bytes
) -> None:
    status, problem = exchange(served, raw)
    assert status.split()[1] == "400", (status, problem)
    assert problem["status"] == 400


# --- the library: the same models, the same refusals -------------------------------------------


def test_the_library_refuses_the_same_input_naming_the_field(tmp_path: Path) -> None:
    memory = Memory.local(tmp_path / "tm", settings=Settings(embedder="none"))
    pair = memory.pair("s-42", "biology")
    cases: list[tuple[str, Callable[[], object]]] = [
        ("text", lambda: pair.record_question("\u200b\u3164")),
        ("concepts.0", lambda: pair.record_question("Why?", concepts=["osmo\x00sis"])),
        ("topic", lambda: pair.record_check("C", topic="os\x07mosis", verdict="right")),
        ("at", lambda: pair.record_question("Why?", at=100_000_000_000)),  # type: ignore[arg-type]
        ("force", lambda: pair.rederive(force="yes")),  # type: ignore[arg-type]
    ]
    for field, call in cases:
        with pytest.raises(ValidationError) as refusal:
            call()
        assert field in refusal.value.field, (field, refusal.value)
    # (record_answer builds its citation itself: pydantic's own error, naming the page)
    with pytest.raises((ValidationError, pydantic.ValidationError), match="page"):
        pair.record_answer("A.", file_id="f", page=10**5000)
    with pytest.raises(pydantic.ValidationError, match="salience"):
        EpisodeRequest(kind="question", text="Why?", salience=True)  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        pair.verify()  # nothing was written: the pair is unknown
    memory.close()


def test_a_body_that_is_not_a_json_object_is_a_422_naming_the_body(door: Door) -> None:
    """Every body the API takes is an object; the fuzz found ``[{"kind": ...}]`` answered as if
    it were the object inside (the validation unwrapped a one-item list)."""
    one = {"kind": "question", "text": "Hi?"}
    for sent in ([one], [], "hi", 3, None):
        refused(door("POST", f"{BASE}/episodes", body(sent)), 422, "body")
        refused(door("POST", f"{BASE}/turn", body([{}])), 422, "body")
    assert written(door) == 0  # nothing was written


def test_an_idempotency_key_too_long_is_refused_in_characters(door: Door) -> None:
    # it read "List should have at most 128 items after validation" (a header may repeat)
    question = body({"kind": "question", "text": "What is osmosis?"})
    problem = refused(
        door("POST", f"{BASE}/episodes", question, {"Idempotency-Key": "k" * 129}),
        422,
        "header.idempotency-key",
    )
    assert "at most 128 characters" in problem["detail"] and "items" not in problem["detail"]
    assert written(door) == 0
    assert door("POST", f"{BASE}/episodes", question, {"Idempotency-Key": "k" * 128})[0] == 201
