"""`tutor-memory serve` under a hostile client: every request gets an answer in the one error
shape (RFC 9457 problem+json), no thread hangs, and each request leaves one access-log line."""

from __future__ import annotations

import gc
import json
import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.api.local_server import make_server
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app
from tutor_memory.settings import Settings, on_folder

BASE = "/pairs/s1/biology"
PROBLEM_FIELDS = {"type", "title", "status", "detail", "instance"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[App, int]]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    # A short read timeout, so that a stalled client is seen within the test.
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0, read_timeout_s=0.5)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, server.server_port
    finally:
        server.shutdown()
        server.server_close()


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], Any]:
    """Send raw bytes, read the whole answer (the server must answer, never just close)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"the connection was dropped without an answer: {data!r}"
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk, "the answer's body was cut short"
            body += chunk
    status = int(lines[0].split()[1])
    return status, headers, json.loads(body) if body else None


def request(method: str, path: str, body: bytes = b"", **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: localhost", "Connection: close"]
    if "Content_Length" not in headers and "Transfer_Encoding" not in headers:
        headers["Content_Length"] = str(len(body))
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def assert_problem(answer: tuple[int, dict[str, str], Any], status: int) -> dict[str, Any]:
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/problem+json"
    assert set(body) >= PROBLEM_FIELDS and body["status"] == status
    return dict(body)


def test_a_malformed_content_length_is_a_400_not_a_dropped_connection(
    served: tuple[App, int],
) -> None:
    _, port = served
    for value in ("abc", "-1", "1e3", " "):
        raw = request("POST", f"{BASE}/episodes", b"{}", Content_Length=value)
        assert "Content-Length" in assert_problem(exchange(port, raw), 400)["detail"]


def test_a_body_that_never_arrives_times_out_with_a_408(served: tuple[App, int]) -> None:
    _, port = served
    raw = request("POST", f"{BASE}/episodes", b'{"kind":', Content_Length="500")
    assert_problem(exchange(port, raw), 408)


def test_a_body_over_the_limit_is_refused_unread(served: tuple[App, int]) -> None:
    _, port = served
    assert_problem(exchange(port, request("POST", f"{BASE}/episodes", Content_Length="9" * 9)), 413)


def test_a_chunked_body_is_refused_with_411(served: tuple[App, int]) -> None:
    _, port = served
    raw = request("POST", f"{BASE}/episodes", b"0\r\n\r\n", Transfer_Encoding="chunked")
    assert_problem(exchange(port, raw), 411)


def test_json_nested_100k_deep_and_broken_json_are_400s(served: tuple[App, int]) -> None:
    _, port = served
    for body in (b"[" * 100_000 + b"]" * 100_000, b'{"kind": "question", "text": ', b"\xff\xfe"):
        assert_problem(exchange(port, request("POST", f"{BASE}/episodes", body)), 400)


def test_unknown_routes_are_404s_and_wrong_methods_405s_in_the_same_shape(
    served: tuple[App, int],
) -> None:
    _, port = served
    assert_problem(exchange(port, request("GET", "/nowhere")), 404)
    status, headers, body = exchange(port, request("DELETE", f"{BASE}/turn"))
    assert status == 405 and headers["allow"] == "POST" and body["instance"] == f"{BASE}/turn"
    status, headers, _ = exchange(port, request("DELETE", f"{BASE}/episodes"))
    assert status == 405 and headers["allow"] == "GET, POST"  # the log's page, and a write


def test_an_unexpected_error_is_a_logged_500_with_its_correlation_id(
    served: tuple[App, int], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app, port = served

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug nobody foresaw")

    monkeypatch.setattr(app.memory, "record", broken)
    body = json.dumps({"kind": "question", "text": "What is a cell?"}).encode()
    with caplog.at_level(logging.INFO):
        problem = assert_problem(exchange(port, request("POST", f"{BASE}/episodes", body)), 500)
    assert problem["instance"] == f"{BASE}/episodes" and "a bug" not in problem["detail"]
    # logged by its type and frames; not its message, which may quote the request's words
    said = [r.getMessage() for r in caplog.records if problem["correlation_id"] in r.message]
    (logged,) = [line for line in said if line.startswith("unhandled error")]
    assert "builtins.RuntimeError (its message withheld" in logged and " in broken" in logged
    assert "a bug nobody foresaw" not in caplog.text
    access = [r.getMessage() for r in caplog.records if r.name == "tutor_memory.access"]
    assert access == [f"POST /pairs/{{student_id}}/{{subject_id}}/episodes 500 "
                      f"{len(json.dumps(problem))} {access[0].split()[4]} "
                      f"{problem['correlation_id']} student_id=s1 subject_id=biology"]  # fmt: skip


def test_the_server_still_answers_after_every_hostile_request(served: tuple[App, int]) -> None:
    _, port = served
    exchange(port, request("POST", f"{BASE}/episodes", Content_Length="abc"))
    exchange(port, request("POST", f"{BASE}/episodes", b"[" * 50_000))
    body = json.dumps({"kind": "question", "text": "What is a cell?"}).encode()
    status, headers, episode = exchange(port, request("POST", f"{BASE}/episodes", body))
    assert status == 201 and episode["created"] and headers["content-type"] == "application/json"


def test_any_method_and_a_multipart_body_are_answered_in_the_problem_shape(
    served: tuple[App, int],
) -> None:
    _, port = served
    for method in ("TRACE", "BREW"):
        assert_problem(exchange(port, request(method, f"{BASE}/episodes")), 405)
    form = b"--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--\r\n"
    for media in ("multipart/form-data", "multipart/form-data; boundary=x", "text/plain"):
        raw = request("POST", f"{BASE}/episodes", form, Content_Type=media)
        assert_problem(exchange(port, raw), 415)


def test_a_port_in_use_is_refused_with_no_thread_or_descriptor_left_behind(tmp_path: Path) -> None:
    # A tool that tries ports until one is free must not pile up worker threads and pipes.
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    resolver = build_resolver(lambda: app)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        gc.collect()  # earlier tests' garbage closes its descriptors now, not in the count
        threads, descriptors = threading.active_count(), _open_descriptors()
        for _ in range(3):
            with pytest.raises(OSError):
                make_server(resolver, "127.0.0.1", port)
        gc.collect()
        assert threading.active_count() == threads
        assert _open_descriptors() <= descriptors
    app.close()


def test_stopping_a_server_waits_for_its_workers(tmp_path: Path) -> None:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))

    def served_by() -> int:  # the App's own I/O threads end with the App, not the server
        return sum(1 for t in threading.enumerate() if not t.name.startswith("turn-io"))

    threads = served_by()
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=30) as client:
        client.sendall(b"GET /pairs/s1/biology/report HTTP/1.1\r\nHost: x\r\n\r\n")
        assert client.recv(12).startswith(b"HTTP/1.1")
    server.shutdown()
    thread.join(30)
    assert served_by() == threads  # the loop and every worker have ended
    server.server_close()  # after shutdown: nothing more to close, and no error
    app.close()


def _open_descriptors() -> int:
    fds = Path("/proc/self/fd")
    return len(list(fds.iterdir())) if fds.is_dir() else 0  # Linux (CI); elsewhere not counted
