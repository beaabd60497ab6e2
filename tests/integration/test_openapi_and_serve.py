"""The committed OpenAPI document matches the routes, and `serve` answers on local HTTP."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tutor_memory.api.local_server import make_server
from tutor_memory.api.routes import build_resolver, openapi_json
from tutor_memory.bootstrap import build_app
from tutor_memory.settings import Settings, on_folder

from .conftest import TEST_TURN_DEADLINE_S

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_openapi_document_matches_the_routes() -> None:
    committed = (ROOT / "infra" / "openapi.json").read_text(encoding="utf-8")
    assert committed == openapi_json(), "run `make openapi` and commit infra/openapi.json"
    paths = json.loads(committed)["paths"]
    assert "/pairs/{student_id}/{subject_id}/turn" in paths
    assert "/pairs/{student_id}/{subject_id}/beliefs/{concept}/history" in paths


def test_serve_answers_the_same_routes_on_loopback(tmp_path: Path) -> None:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the assertions are on content, not speed
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}/pairs/s1/biology"

    def call(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    try:
        assert call("POST", "/episodes", {"kind": "question", "text": "What is a cell?"})[0] == 201
        status, turn = call("POST", "/turn", {"question": "What is a cell?"})
        assert status == 200 and "you were asked: What is a cell?" in turn["block"]
        status, error = call("POST", "/episodes", {"kind": "question"})
        assert status == 422 and "body.text" in error["error"]
    finally:
        server.shutdown()
        server.server_close()


def test_every_route_documents_each_error_it_can_answer_as_a_problem() -> None:
    paths = json.loads(openapi_json())["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            statuses = set(operation["responses"])
            assert {"200", "400", "404", "422", "500", "503"} <= statuses, (method, path)
            if method == "post":
                assert {"409", "413", "415", "502"} <= statuses, (method, path)
            for status, response in operation["responses"].items():
                if status in ("200", "201", "202"):  # 202: an erasure a worker goes on with
                    assert list(response["content"]) == ["application/json"] or (
                        operation["operationId"] == "inspectPair"
                    )
                elif status == "403":  # API Gateway's own refusal, before the Lambda
                    assert list(response["content"]["application/json"]["schema"][
                        "properties"]) == ["message"]  # fmt: skip
                else:
                    assert list(response["content"]) == ["application/problem+json"]


def test_every_operation_requires_a_signature_or_a_key_and_documents_both_403s() -> None:
    document = json.loads(openapi_json())
    scheme = document["components"]["securitySchemes"]["sigv4"]
    assert scheme["type"] == "apiKey" and scheme["in"] == "header"
    assert scheme["name"] == "Authorization"
    assert scheme["x-amazon-apigateway-authtype"] == "awsSigv4"
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            # either one: SigV4 in AWS, an API key at `serve`
            assert operation["security"] == [{"sigv4": []}, {"apiKey": []}], (method, path)
            refused = operation["responses"]["403"]["content"]
            assert set(refused) == {"application/json", "application/problem+json"}, path
    assert document["components"]["securitySchemes"]["apiKey"]["scheme"] == "bearer"


def test_writing_an_episode_documents_201_and_the_retrys_200_with_links_to_read_it() -> None:
    operation = json.loads(openapi_json())["paths"]["/pairs/{student_id}/{subject_id}/episodes"]
    responses = operation["post"]["responses"]
    for status in ("201", "200"):
        schema = responses[status]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/EpisodeResponse"}
        links = responses[status]["links"]
        assert links["Sources"]["parameters"]["answer_id"] == "$response.body#/id"
        assert {"beliefs", "conceptMap", "report", "verifyChain"} <= {
            link["operationId"] for link in links.values()
        }
    assert "retry" in responses["200"]["description"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    app.turns.deadline_s = TEST_TURN_DEADLINE_S
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/pairs/s1/science"
    finally:
        server.shutdown()
        server.server_close()
        app.close()


def send(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_serve_answers_201_for_a_new_episode_and_200_for_its_retry(served: str) -> None:
    question = {"kind": "question", "text": "What is a cell?"}
    key = {"Idempotency-Key": "msg-1"}
    status, first = send("POST", f"{served}/episodes", question, key)
    assert status == 201 and first["created"]
    status, again = send("POST", f"{served}/episodes", question, key)
    assert status == 200 and not again["created"] and again["id"] == first["id"]


@pytest.mark.parametrize(
    ("topic", "typed", "key"),
    [
        ("pH scale", ["ph scale", "PH  Scale", "ph%20scale"], "ph scale"),  # en
        ("Indicator", ["indicator", "INDICATORS"], "indicator"),  # en: another form of it
        ("ósmosis", ["Ósmosis", "osmosis", "OSMOSIS"], "osmosis"),  # es: accents as typed
        ("sel", ["Sel", "sel-sel"], "sel"),  # id: the plural by reduplication
        ("خلیہ", ["خليه", " خلیہ "], "خليه"),  # ur: the Arabic letters for the Urdu ones
        ("الخلية", ["الخليّة", "أَلخلية"], "الخليه"),  # ar: with marks, hamza on the alef
    ],
)
def test_serve_decodes_the_path_and_finds_a_concept_by_the_name_users_see(
    served: str, topic: str, typed: list[str], key: str
) -> None:
    check = {"kind": "check", "text": "a check", "evidence": {"topic": topic, "verdict": "right"}}
    assert send("POST", f"{served}/episodes", check)[0] == 201
    for name in typed:
        # Percent-encoded as a client does; "ph%20scale" is sent as it is (encoded already).
        segment = quote(name, safe="") if "%" not in name else name
        status, page = send("GET", f"{served}/beliefs/{segment}/history")
        assert status == 200, (name, page)
        history = page["beliefs"]
        assert {row["concept_key"] for row in history} == {key}, name
        assert history[0]["concept"] == topic


def test_only_the_erasures_of_whole_pairs_may_answer_202_with_their_own_body() -> None:
    """In AWS an erasure its request's time does not cover goes on in a worker (202)."""
    paths = json.loads(openapi_json())["paths"]
    accepted = {
        operation["operationId"]: operation["responses"]["202"]
        for operations in paths.values()
        for operation in operations.values()
        if "202" in operation["responses"]
    }
    assert sorted(accepted) == ["erasePair", "eraseStudent"]
    for response in accepted.values():
        schema = response["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ErasureResponse"}
