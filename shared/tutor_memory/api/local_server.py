"""`tutor-memory serve`: the API's routes over local HTTP, on the embedded default.

Each request becomes an API Gateway REST-shaped event and goes through the very resolver the
Lambda uses, so local and cloud behave the same. Standard library only; bound to 127.0.0.1 by
default.

Whatever a client sends, it gets an answer in the API's one error shape (problem+json) and the
thread moves on: a Content-Length that is not a number, negative, or over the body limit is
refused before reading; a body that never arrives (or a client that never sends its request
line) times out after :data:`READ_TIMEOUT_S`; chunked bodies are refused (411, the API takes
JSON bodies with a length); anything the resolver cannot answer is a logged 500. Each request
leaves one access-log line: method, route template, status, bytes, milliseconds, correlation id,
then the path's ids (``api.access``: never a query, a body or a concept's name).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

from tutor_memory.api.access import described, logged_method, route_of
from tutor_memory.api.routes import PROBLEM_JSON, Problem, resolve

MAX_BODY_BYTES = 1_000_000  # ours: a 20,000-character episode in JSON is far below it
READ_TIMEOUT_S = 10.0  # ours: a client that stops sending frees its thread after this long

access_log = logging.getLogger("tutor_memory.access")
log = logging.getLogger(__name__)


class _Context:
    function_name = "tutor-memory-serve"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:tutor-memory-serve"

    def __init__(self, request_id: str) -> None:
        self.aws_request_id = request_id


def to_event(
    method: str, target: str, headers: dict[str, str], body: bytes, request_id: str = "local"
) -> dict[str, Any]:
    url = urlsplit(target)
    query = dict(parse_qsl(url.query)) or None
    return {
        "resource": "/{proxy+}",
        "path": url.path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": query,
        "multiValueQueryStringParameters": {k: [v] for k, v in (query or {}).items()} or None,
        "pathParameters": {"proxy": url.path.lstrip("/")},
        "requestContext": {"httpMethod": method, "path": url.path, "stage": "local",
                           "requestId": request_id, "identity": {"sourceIp": "127.0.0.1"}},
        "body": body.decode("utf-8", errors="replace") if body else None,
        "isBase64Encoded": False,
    }  # fmt: skip


def make_server(
    resolver: APIGatewayRestResolver,
    host: str,
    port: int,
    *,
    read_timeout_s: float = READ_TIMEOUT_S,
    max_body_bytes: int = MAX_BODY_BYTES,
) -> ThreadingHTTPServer:
    # Powertools' resolver keeps the request it is answering on itself (the event, the route's
    # arguments in ``app.context``), as a Lambda container answers one request at a time; two
    # threads in it at once mix their requests (seen: a KeyError '_route_args' under two
    # concurrent turns). Connections are still accepted and read concurrently; the resolver
    # answers one at a time (a turn's block is bounded by its own deadline).
    answering = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        timeout = read_timeout_s  # applied to the socket: every read waits at most this long
        protocol_version = "HTTP/1.1"

        def _handle(self) -> None:
            started, request_id = time.perf_counter(), str(uuid.uuid4())
            self._started, self._request_id, self._logged = started, request_id, False
            path = urlsplit(self.path).path
            status, size = 500, 0
            try:
                refused = self._refusal()
                if refused is not None:
                    status, size = self._problem(refused, path, request_id)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if len(body) < length:
                    self.close_connection = True
                    status, size = self._problem(
                        Problem(400, "short-body", f"the body ended after {len(body)} of "
                                f"{length} bytes"), path, request_id)  # fmt: skip
                    return
                event = to_event(
                    self.command, self.path, dict(self.headers.items()), body, request_id
                )
                with answering:
                    response = resolve(
                        resolver, event, cast(LambdaContext, _Context(request_id)), log
                    )
                status = int(response["statusCode"])
                size = self._send(status, response.get("body") or "", _headers(response))
            except TimeoutError:
                self.close_connection = True
                status, size = self._problem(
                    Problem(408, "request-timeout", f"no complete body within {read_timeout_s} s"),
                    path,
                    request_id,
                )
            except Exception as exc:  # never a dropped connection: a logged 500
                log.error("unhandled error serving %s (correlation id %s)",
                          described(resolver, self.command, path), request_id,
                          exc_info=exc)  # fmt: skip
                self.close_connection = True
                status, size = self._problem(
                    Problem(500, "internal", "the server failed to answer; the error is logged "
                            "under this correlation id"), path, request_id)  # fmt: skip
            finally:
                if not self._logged:  # no answer went out (the client had gone)
                    self._access(status, size)

        def _access(self, status: int, size: int) -> None:
            self._logged = True
            template, ids = route_of(resolver, self.command, urlsplit(self.path).path)
            access_log.info(
                "%s %s %d %d %.1fms %s%s", logged_method(self.command), template, status, size,
                (time.perf_counter() - self._started) * 1000, self._request_id,
                "".join(f" {k}={v}" for k, v in ids.items()),
            )  # fmt: skip

        def _refusal(self) -> Problem | None:
            """What is wrong with the request's framing, before a byte of body is read."""
            if self.headers.get("Transfer-Encoding"):
                self.close_connection = True
                return Problem(411, "length-required", "send the body with a Content-Length")
            raw = self.headers.get("Content-Length")
            if raw is None:
                return None
            text = raw.strip()
            if not text.isdigit() or not text.isascii():
                self.close_connection = True  # the body's end is unknown: nothing more to read
                return Problem(400, "bad-content-length", f"Content-Length {raw!r} is not a "
                               "whole number of bytes")  # fmt: skip
            if int(text) > max_body_bytes:
                self.close_connection = True
                return Problem(413, "payload-too-large", f"the body is over {max_body_bytes} "
                               "bytes")  # fmt: skip
            return None

        def _problem(self, problem: Problem, path: str, request_id: str) -> tuple[int, int]:
            body = json.dumps(problem.body(path, request_id), ensure_ascii=False)
            try:
                return problem.status, self._send(
                    problem.status, body, {"Content-Type": PROBLEM_JSON}
                )
            except OSError:  # the client is gone: nobody to answer
                return problem.status, 0

        def _send(self, status: int, body: Any, headers: dict[str, str]) -> int:
            payload = body if isinstance(body, str) else json.dumps(body)
            data = payload.encode("utf-8")
            if hasattr(self, "_started"):  # logged before the answer leaves, so it is never late
                self._access(status, len(data))
            self.send_response_only(status)
            self.send_header("Date", self.date_time_string())
            for name, value in headers.items():
                if name.lower() not in ("content-length", "connection"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":  # a HEAD answer has the headers of a body, not the body
                self.wfile.write(data)
            return len(data)

        def __getattr__(self, name: str) -> Any:
            # Every method (TRACE, HEAD, anything) goes to the routes, which answer 405 (or
            # 404) in the problem shape, never the standard library's own 501.
            if name.startswith("do_") and name[3:].isalpha():
                return self._handle
            raise AttributeError(name)

        def send_error(self, code: int, message: str | None = None, explain: str | None = None
                       ) -> None:  # fmt: skip
            """Errors the standard library finds itself (a bad request line, headers too long)
            in the same problem shape."""
            self.close_connection = True
            path = urlsplit(getattr(self, "path", "") or "").path
            self._problem(Problem(code, "bad-request-line", message or "the request is not "
                                  "HTTP/1.1"), path, str(uuid.uuid4()))  # fmt: skip

        def log_message(self, format: str, *args: Any) -> None:
            return  # the access log above says it once, in one line

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


def _headers(response: dict[str, Any]) -> dict[str, str]:
    """A resolver response's headers (REST events answer in multiValueHeaders)."""
    headers = {k: str(v) for k, v in (response.get("headers") or {}).items()}
    for name, values in (response.get("multiValueHeaders") or {}).items():
        headers[name] = ", ".join(str(v) for v in values)
    return headers or {"Content-Type": "application/json"}
