"""Logs carry a request's route template and ids, never its words: a marker sent in a query, a
body and a concept's path segment is found in nothing that `serve` or the Lambda API logged."""

from __future__ import annotations

import io
import json
import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api.access import described
from tutor_memory.api.local_server import make_server
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app, lambda_app
from tutor_memory.settings import Settings, on_folder

from .conftest import Api

MARKER = "Zqxmarker"  # a word no log line would hold by chance
BASE = "/pairs/s1/biology"

Send = Callable[[str, str, Any, dict[str, str] | None], int]


def requests(send: Send, app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The marker in every place a client's words go: bodies, queries, a concept, a bad id, an
    unknown route, and a request that fails inside (a logged 500)."""
    assert send("POST", f"{BASE}/episodes", {"kind": "question", "text": f"{MARKER} q?"}, None) in (
        200,
        201,
    )
    check = {"kind": "check", "text": f"{MARKER} check",
             "check": {"topic": f"{MARKER} topic", "verdict": "wrong"}}  # fmt: skip
    assert send("POST", f"{BASE}/episodes", check, None) == 201
    assert send("POST", f"{BASE}/turn", {"question": f"what about {MARKER}?"}, None) == 200
    assert send("GET", f"{BASE}/recall", None, {"q": f"{MARKER} recall"}) == 200
    assert send("GET", f"{BASE}/beliefs/{MARKER}%20topic/history", None, None) == 200
    assert send("GET", f"{BASE}/beliefs/{MARKER}-unknown/history", None, None) == 404
    assert send("GET", f"/pairs/{MARKER}%20id/biology/beliefs", None, None) == 422
    assert send("GET", f"/{MARKER}/nowhere", None, None) == 404
    assert send("POST", f"{BASE}/episodes", None, None) != 500  # no body at all

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"a bug while reading {MARKER}")  # a message that quotes words

    monkeypatch.setattr(app.memory, "recall", broken)
    assert send("GET", f"{BASE}/recall", None, {"q": f"{MARKER} again"}) == 500


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[App, str]]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_serve_logs_the_route_template_and_ids_never_the_words(
    served: tuple[App, str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    app, base = served

    def send(method: str, path: str, body: Any, query: dict[str, str] | None) -> int:
        url = base + path + ("?" + "&".join(f"{k}={quote(v)}" for k, v in query.items())
                             if query else "")  # fmt: skip
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    with caplog.at_level(logging.DEBUG):
        requests(send, app, monkeypatch)
    logged = caplog.text + "".join(capfd.readouterr())
    assert MARKER.casefold() not in logged.casefold()
    access = [r.getMessage() for r in caplog.records if r.name == "tutor_memory.access"]
    assert len(access) == 10
    assert access[3].startswith("GET /pairs/{student_id}/{subject_id}/recall 200 ")
    assert access[3].endswith(" student_id=s1 subject_id=biology")
    assert access[4].startswith("GET /pairs/{student_id}/{subject_id}/beliefs/{concept}/history ")
    assert " student_id=? subject_id=biology" in access[6]
    assert access[7].startswith("GET (no route) 404 ")
    # the 500 is logged with where it was raised, its message withheld
    (failed,) = [r.getMessage() for r in caplog.records if "unhandled error" in r.getMessage()]
    assert "builtins.RuntimeError (its message withheld" in failed and " in broken" in failed


def test_the_lambda_api_logs_the_route_template_and_ids_never_the_words(
    cloud: DynamoStore,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "DEBUG")  # everything the Logger could say
    api = Api()
    # The Powertools Logger's lines as it writes them (its own handler may hold the stdout of
    # an earlier test, so a handler of ours beside it, with its formatter).
    powertools = io.StringIO()
    handler = logging.StreamHandler(powertools)
    handler.setFormatter(api.module.logger.registered_formatter)
    api.module.logger.addHandler(handler)

    def send(method: str, path: str, body: Any, query: dict[str, str] | None) -> int:
        return api(method, path, body, query=query)[0]

    try:
        with caplog.at_level(logging.DEBUG):
            requests(send, lambda_app(), monkeypatch)
    finally:
        api.module.logger.handlers.remove(handler)
    out, err = capfd.readouterr()
    logged = caplog.text + out + err + powertools.getvalue()
    assert MARKER.casefold() not in logged.casefold()
    lines = powertools.getvalue().splitlines()
    errors = [json.loads(line) for line in lines if '"unhandled error' in line]
    assert errors and errors[0]["route"] == (
        "GET /pairs/{student_id}/{subject_id}/recall student_id=s1 subject_id=biology"
    )
    assert "builtins.RuntimeError (its message withheld" in errors[0]["message"]


def test_a_route_is_described_by_its_template_and_well_formed_ids() -> None:
    resolver = build_resolver(lambda: None)  # type: ignore[arg-type,return-value]
    assert described(resolver, "get", "/pairs/s1/bio/beliefs/pH scale/history") == (
        "GET /pairs/{student_id}/{subject_id}/beliefs/{concept}/history "
        "student_id=s1 subject_id=bio"
    )
    assert described(resolver, "DELETE", "/pairs/s1/bio/files/notes-ab12") == (
        "DELETE /pairs/{student_id}/{subject_id}/files/{file_id} student_id=s1 subject_id=bio"
    )
    assert described(resolver, "GET", "/pairs/a b/bio/answers/x y/sources") == (
        "GET /pairs/{student_id}/{subject_id}/answers/{answer_id}/sources "
        "student_id=? subject_id=bio answer_id=?"
    )
    assert described(resolver, "PUT", "/pairs/s1/bio/turn").startswith("PUT /pairs/")  # a 405
    assert described(resolver, "GET", "/what is osmosis") == "GET (no route)"
