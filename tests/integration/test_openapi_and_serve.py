"""The committed OpenAPI document matches the routes, and `serve` answers on local HTTP."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tutor_memory.api.local_server import make_server
from tutor_memory.api.openapi import openapi_json
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import build_app
from tutor_memory.cli import on_folder
from tutor_memory.settings import Settings

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
        assert call("POST", "/episodes", {"kind": "question", "text": "What is a cell?"})[0] == 200
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
                if status != "200":
                    assert list(response["content"]) == ["application/problem+json"]
