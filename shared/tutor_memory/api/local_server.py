"""`tutor-memory serve`: the API's routes over local HTTP, on the embedded default.

Each request becomes an API Gateway REST-shaped event and goes through the very resolver the
Lambda uses, so local and cloud behave the same. The HTTP is waitress's (a pure-Python WSGI
server): it reads every connection on one event loop and buffers a whole request (headers
and body) before a worker thread sees it, so a slow or stalled client holds a socket, never a
thread. Bound to 127.0.0.1 by default.

Whatever a client sends, it gets an answer in the API's one error shape (problem+json) or, if it
hung up, nothing and no error: a Content-Length that is not a number is a 400, one over the body
limit a 413 (refused before the body is read; what the client still sends is then read and
dropped, within bounds, so that it reads the 413 rather than a reset: ``_Channel``); chunked
bodies are refused (411, the API takes JSON bodies with a length), and so is a request framed
twice (two Content-Lengths, or one with a Transfer-Encoding: 400); bytes that do not begin as an
HTTP request (a TLS handshake) are a 400 at once; a body or a query that is not UTF-8 is a 400,
never read with U+FFFD in its place; a request that stalls for :data:`READ_TIMEOUT_S`, or is not
whole within :data:`REQUEST_DEADLINE_S` however steadily it trickles in, is answered 408 and
closed; anything the resolver cannot answer is a logged 500. A client that hangs up is at most
one info line, never a 500 (a request it reset before its answer may not have been carried out:
nobody was told either way). At most :data:`CONNECTION_LIMIT` connections are open at once (more
wait in a listen backlog of :data:`LISTEN_BACKLOG`): far above a crowd of idle ones (a thousand
held open are a socket each, and the others are answered), watched with ``poll()`` (``select()``
cannot see a descriptor numbered past 1,023), and within the process's open-file limit, whose
soft value is raised toward its hard one when it is lower (logged, and the limit lowered to fit
when the hard one is lower still). Each request leaves one access-log line: method, route
template, status, bytes, milliseconds, correlation id, then the path's ids (``api.access``:
never a query, a body or a concept's name).
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import resource
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError, TransferEncodingNotImplemented
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask
from waitress.utilities import BadRequest, Error

from tutor_memory.api.access import described, logged_method, route_of
from tutor_memory.api.routes import PROBLEM_JSON, Problem, resolve
from tutor_memory.domain.failures import failure_trace

MAX_BODY_BYTES = 1_000_000  # ours: a 20,000-character episode in JSON is far below it
READ_TIMEOUT_S = 10.0  # ours: a request that stops arriving for this long is answered 408
# ours: a whole request (line, headers, body) must arrive within this, however steadily it
# trickles: the probe held connections with a byte every 5 s for the whole 90 s
REQUEST_DEADLINE_S = 30.0
LISTEN_BACKLOG = 1024  # ours: the kernel's queue of connections not yet accepted (was 5)
# ours: open connections, more wait in the backlog. Was 500: 1,000 idle connections held every
# slot until their timeout, and a normal request waited up to 22 s in the backlog.
CONNECTION_LIMIT = 4096
FILES_KEPT = 256  # descriptors kept beside the connections: the store, the index, logs, pipes
# ours: after an answer that closes the connection, how long (and how much) the client's
# remaining bytes are read and dropped (nginx's lingering_time is 30 s); silence for
# READ_TIMEOUT_S ends it sooner.
LINGER_S = 30.0
LINGER_BYTES = 64 * 1024 * 1024
SHUTDOWN_WAIT_S = 30  # how long shutdown waits for the loop and for a request being answered
THREADS = 4  # waitress's worker threads (the resolver answers one at a time: make_server)

access_log = logging.getLogger("tutor_memory.access")
log = logging.getLogger(__name__)


class _Context:
    function_name = "tutor-memory-serve"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:tutor-memory-serve"

    def __init__(self, request_id: str) -> None:
        self.aws_request_id = request_id


class UndecodableQueryError(ValueError):
    """A query string whose percent-escapes are not UTF-8 (answered 400, never read with
    U+FFFD in place of what could not be decoded)."""


def to_event(
    method: str, target: str, headers: dict[str, str], body: bytes, request_id: str = "local"
) -> dict[str, Any]:
    """The request as API Gateway's REST event. A parameter given empty (``?history=``) is
    kept as the empty string, as API Gateway keeps it; a body that is not UTF-8 goes as base64
    (as API Gateway sends a binary body), and the resolver refuses it (``routes.resolve``)."""
    url = urlsplit(target)
    try:
        query = dict(parse_qsl(url.query, keep_blank_values=True, errors="strict")) or None
    except UnicodeDecodeError as exc:
        raise UndecodableQueryError(str(exc)) from None
    try:
        text, encoded = (body.decode("utf-8") if body else None), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode("ascii"), True
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
        "body": text,
        "isBase64Encoded": encoded,
    }  # fmt: skip


class _LengthRequired(Error):  # type: ignore[misc]
    code = 411
    reason = "Length Required"


class _RequestTimeout(Error):  # type: ignore[misc]
    code = 408
    reason = "Request Timeout"


_SLUGS = {400: "bad-request", 408: "request-timeout", 411: "length-required",
          413: "payload-too-large", 431: "headers-too-large", 500: "internal",
          501: "not-implemented"}  # fmt: skip


_FRAMING = (b"content-length", b"transfer-encoding")


class _Parser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's parser, which refuses a chunked body (411), conflicting framing (400) and
    bytes that are no HTTP request (400 at once: a TLS handshake sent to this plain-HTTP port
    is answered, not waited on), and notes when a request began."""

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.began = time.monotonic()

    def received(self, data: bytes) -> int:
        if not self.header_plus and self.body_rcv is None and not getattr(self, "completed", 0):
            first = data.lstrip(b"\r\n")[:1]
            if first and not b"A" <= first <= b"Z":  # a method is upper-case letters
                self.error = BadRequest(
                    "the request does not begin with an HTTP method; this server speaks plain "
                    "HTTP (was it a TLS handshake?)"
                )
                self.completed = True
                self.connection_close = True
                return len(data)
        return int(super().received(data))

    def parse_header(self, header_plus: bytes) -> None:
        # Framing the request twice (two Content-Lengths, even equal ones, or a length and a
        # transfer coding) is how requests are smuggled past a proxy: refused, named.
        names = [line.split(b":", 1)[0].strip().lower() for line in header_plus.split(b"\n")[1:]]
        framing = [name.decode("latin-1") for name in names if name in _FRAMING]
        if len(framing) > 1:
            # parsed for the request line (the answer's instance), whatever else it holds
            with contextlib.suppress(ParsingError, TransferEncodingNotImplemented):
                super().parse_header(header_plus)
            self.body_rcv, self.chunked, self.content_length = None, False, 0
            self.connection_close = True
            shown = " and ".join(sorted({n.title() for n in framing}))
            raise ParsingError(f"conflicting framing: {len(framing)} headers ({shown})")
        try:
            super().parse_header(header_plus)
            framed = not getattr(self, "chunked", False)
        except TransferEncodingNotImplemented:
            framed = False
        if not framed:
            self.error = _LengthRequired("send the body with a Content-Length")
            self.body_rcv, self.chunked, self.content_length = None, False, 0
            self.connection_close = True


def _problem_task(access: Callable[[str, str, int, int, float, str], None]) -> type[ErrorTask]:
    class ProblemTask(ErrorTask):  # type: ignore[misc]
        """waitress's own refusals (framing, size, time) in the API's problem shape."""

        def execute(self) -> None:
            started, request_id = time.perf_counter(), str(uuid.uuid4())
            error = self.request.error
            status = int(error.code)
            detail = str(error.body)
            if status == 400 and detail.startswith("conflicting framing"):
                slug = "conflicting-framing"
            elif status == 400 and detail.startswith("the request does not begin"):
                slug = "not-http"
            elif status == 400 and "Content-Length" in detail:
                slug = "bad-content-length"
            else:
                slug = _SLUGS.get(status, "bad-request")
            # A request refused before its request line was read has no path or method.
            path = urlsplit(getattr(self.request, "path", "") or "").path
            command = getattr(self.request, "command", "") or ""
            body = json.dumps(
                Problem(status, slug, detail).body(path, request_id), ensure_ascii=False
            ).encode("utf-8")
            self.status = f"{status} {HTTPStatus(status).phrase}"
            self.response_headers.append(("Content-Type", PROBLEM_JSON))
            self.set_close_on_finish()
            self.content_length = len(body)
            access(command, path, status, len(body), started, request_id)
            self.write(body)

    return ProblemTask


class _Channel(HTTPChannel):  # type: ignore[misc]
    """waitress's channel with a lingering close (as nginx's ``lingering_close``): a refusal
    sent before the body was read (413, 408, 400) is followed by a FIN, and what the client
    still sends is read and dropped until it stops, :data:`LINGER_S` or :data:`LINGER_BYTES`.
    Closed at once, the socket's unread bytes made the kernel answer with a reset, which can
    reach the client before the answer: a 5 MB body got "connection reset" instead of 413."""

    parser_class = _Parser
    lingering_since: float | None = None
    lingered = 0

    def handle_close(self) -> None:
        if self.lingering_since is None and self.connected:
            try:
                self.socket.shutdown(socket.SHUT_WR)  # the answer is flushed: then a FIN
            except OSError:
                pass  # the client has gone: close now
            else:
                self.lingering_since = time.monotonic()
                self.will_close = self.close_when_flushed = False
                return
        super().handle_close()

    def readable(self) -> bool:
        return self.lingering_since is not None or bool(super().readable())

    def writable(self) -> bool:
        return self.lingering_since is None and bool(super().writable())

    def handle_read(self) -> None:
        if self.lingering_since is None:
            super().handle_read()
            return
        try:
            data = self.recv(self.adj.recv_bytes)  # b"" once the client closes (then closed)
        except OSError:
            data = b""
        self.lingered += len(data)
        if not data or self.lingered > LINGER_BYTES:
            self.finish()
        else:
            self.last_activity = time.time()

    def finish(self) -> None:
        """Closes the socket, lingering or not."""
        if self.lingering_since is None:
            self.lingering_since = time.monotonic()  # no second linger
        if self.socket is not None:
            super().handle_close()


class _Server(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server whose sweep answers a stalled or overlong request 408, itself."""

    request_deadline_s = REQUEST_DEADLINE_S

    def maintenance(self, now: float) -> None:
        cutoff = now - self.adj.channel_timeout
        late = time.monotonic() - self.request_deadline_s
        lingered = time.monotonic() - LINGER_S
        for channel in list(self.active_channels.values()):
            if channel.lingering_since is not None:  # its answer is sent: reading what is left
                if channel.lingering_since < lingered or channel.last_activity < cutoff:
                    channel.finish()
                continue
            if channel.requests:
                continue  # a request is being answered: its own deadlines apply
            pending = channel.request
            if pending is None or pending.completed:
                if channel.last_activity < cutoff:
                    channel.will_close = True  # an idle keep-alive connection: closed
                continue
            stalled = channel.last_activity < cutoff
            if not stalled and pending.began > late:
                continue
            why = (f"no complete request within {self.adj.channel_timeout:g} s of silence"
                   if stalled else
                   f"the request was not whole within {self.request_deadline_s:g} s")  # fmt: skip
            answer = channel.parser_class(self.adj)
            answer.error = _RequestTimeout(why)
            answer.completed = True  # what the request line said, if it came whole
            answer.path = getattr(pending, "path", "") or ""
            answer.command = getattr(pending, "command", "") or ""
            answer.version = "1.1"  # the parser's default is 1.0: we speak 1.1
            with channel.requests_lock:
                channel.request = None
                channel.requests.append(answer)
            # Answered here, on the loop's thread, not queued for a worker: behind a burst of
            # requests waiting for the resolver (it answers one at a time) the 408 would wait
            # too, and the stalled client would hold its connection past the deadline. Safe on
            # this thread: no worker holds this channel (it had no request queued), and the
            # answer is a few hundred bytes, far below the buffer mark at which a write waits.
            channel.service()


class LocalServer:
    """The running server: ``serve_forever`` on one thread, ``shutdown`` from another."""

    def __init__(self, server: _Server) -> None:
        self._server = server
        self._stopped = threading.Event()
        self._closed = False

    @property
    def server_port(self) -> int:
        return int(self._server.effective_port)

    def serve_forever(self) -> None:
        try:
            self._server.run()
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stops the loop (from any thread) and waits for it to end."""
        if self._closed:
            return
        self._closed = True
        server = self._server
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        except OSError:  # the loop has already ended and closed its trigger
            wasyncore.close_all(server._map)
        self._stopped.wait(SHUTDOWN_WAIT_S)
        # Workers still finishing a request write to their sockets and pull the trigger; they
        # end before this returns, so no closed descriptor's number is touched once reused.
        server.task_dispatcher.shutdown(timeout=SHUTDOWN_WAIT_S)

    def server_close(self) -> None:
        if not self._closed:
            self._closed = True
            wasyncore.close_all(self._server._map)
            self._server.task_dispatcher.shutdown(timeout=SHUTDOWN_WAIT_S)


def room_for_connections(wanted: int) -> int:
    """How many connections this process can hold open, up to ``wanted``: each is a descriptor,
    beside :data:`FILES_KEPT` for everything else. A soft open-file limit lower than that is
    raised (toward the hard limit, never past it) and logged; when even the hard limit is lower,
    the connection limit is lowered to fit, and that is logged as a warning (a connection over
    the limit waits in the backlog; a descriptor over it would fail ``accept()`` in a loop)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + FILES_KEPT
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        if raised > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            except (ValueError, OSError) as exc:
                log.warning("could not raise the open-file limit from %d: %s", soft, exc)
            else:
                log.info("raised the open-file limit from %d to %d (hard limit %s) for %d "
                         "connections", soft, raised, hard, wanted)  # fmt: skip
                soft = raised
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return wanted
    fits = max(1, soft - FILES_KEPT)
    log.warning("the open-file limit (%d) leaves room for %d connections, not %d: raise the hard "
                "limit (ulimit -Hn) to hold more", soft, fits, wanted)  # fmt: skip
    return fits


class _HangUps(logging.Filter):
    """waitress's lines name the request's path; ours name no path (``api.access``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message.startswith("Client disconnected while serving"):
            record.msg, record.args = "a client hung up before its answer was sent", ()
        elif " while serving " in message:
            record.msg, record.args = message.split(" while serving ")[0], ()
        return True


_hang_ups = _HangUps()


def make_server(
    resolver: APIGatewayRestResolver,
    host: str,
    port: int,
    *,
    read_timeout_s: float = READ_TIMEOUT_S,
    request_deadline_s: float = REQUEST_DEADLINE_S,
    max_body_bytes: int = MAX_BODY_BYTES,
    connection_limit: int = CONNECTION_LIMIT,
    backlog: int = LISTEN_BACKLOG,
    threads: int = THREADS,
) -> LocalServer:
    # Powertools' resolver keeps the request it is answering on itself (the event, the route's
    # arguments in ``app.context``), as a Lambda container answers one request at a time; two
    # threads in it at once mix their requests (seen: a KeyError '_route_args' under two
    # concurrent turns). Connections are still accepted and read concurrently (waitress's
    # loop); the resolver answers one at a time (a turn's block is bounded by its own deadline).
    answering = threading.Lock()

    def access(
        method: str, path: str, status: int, size: int, started: float, request_id: str
    ) -> None:
        template, ids = route_of(resolver, method, path)
        access_log.info(
            "%s %s %d %d %.1fms %s%s", logged_method(method), template, status, size,
            (time.perf_counter() - started) * 1000, request_id,
            "".join(f" {k}={v}" for k, v in ids.items()),
        )  # fmt: skip

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started, request_id = time.perf_counter(), str(uuid.uuid4())
        method = str(environ.get("REQUEST_METHOD") or "")
        target = str(environ.get("REQUEST_URI") or environ.get("PATH_INFO") or "/")
        path = urlsplit(target).path
        try:
            body = environ["wsgi.input"].read() if environ.get("CONTENT_LENGTH") else b""
            try:
                event = to_event(method, target, _request_headers(environ), body, request_id)
            except UndecodableQueryError:
                problem = Problem(400, "bad-encoding", "the query string is not UTF-8 once decoded")
                response: dict[str, Any] = {
                    "statusCode": 400, "headers": {"Content-Type": PROBLEM_JSON},
                    "body": json.dumps(problem.body(path, request_id)),
                }  # fmt: skip
            else:
                with answering:
                    context = cast(LambdaContext, _Context(request_id))
                    response = resolve(resolver, event, context, log)
            status = int(response["statusCode"])
            payload = response.get("body") or ""
            headers = _headers(response)
        except Exception as exc:  # never a dropped connection: a logged 500
            # not exc_info: the exception's message may quote the request's words
            route = described(resolver, method, path)
            log.error("unhandled error serving %s (correlation id %s)\n%s",
                      route, request_id, failure_trace(exc))  # fmt: skip
            status, headers = 500, {"Content-Type": PROBLEM_JSON}
            payload = json.dumps(
                Problem(500, "internal", "the server failed to answer; the error is logged "
                        "under this correlation id").body(path, request_id),
                ensure_ascii=False,
            )  # fmt: skip
        text = payload if isinstance(payload, str) else json.dumps(payload)
        data = text.encode("utf-8")
        access(method, path, status, len(data), started, request_id)
        out = [
            (k, v) for k, v in headers.items() if k.lower() not in ("content-length", "connection")
        ]
        out.append(("Content-Length", str(len(data))))
        start_response(f"{status} {_phrase(status)}", out)
        return [] if method == "HEAD" else [data]

    logging.getLogger("waitress").addFilter(_hang_ups)  # once: filters are a set
    # Bound here, before waitress makes its trigger pipe and worker threads: an address in use
    # then fails with nothing left open or running (waitress would bind after making them).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
    except OSError:
        listening.close()
        raise
    server = _Server(
        application,
        _start=True,
        _sock=listening,
        bind_socket=False,
        host=host,
        port=port,
        threads=threads,
        backlog=backlog,
        connection_limit=room_for_connections(connection_limit),
        asyncore_use_poll=True,  # select() fails on a descriptor numbered 1,024 or more
        max_request_body_size=max_body_bytes + 1,  # waitress refuses at >=
        channel_timeout=max(1, int(read_timeout_s)),
        cleanup_interval=1,
        ident="tutor-memory",
        clear_untrusted_proxy_headers=True,
    )
    # waitress takes whole seconds; the sweep compares floats, so a test may set less
    server.adj.channel_timeout = read_timeout_s
    server.request_deadline_s = request_deadline_s
    # this server's channels answer waitress's refusals with its access log
    server.channel_class = type("Channel", (_Channel,), {"error_task_class": _problem_task(access)})
    return LocalServer(server)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _request_headers(environ: dict[str, Any]) -> dict[str, str]:
    """The request's headers from a WSGI environ, named as a client sends them."""
    headers = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-").title()] = str(value)
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            headers[key.replace("_", "-").title()] = str(environ[key])
    return headers


def _headers(response: dict[str, Any]) -> dict[str, str]:
    """A resolver response's headers (REST events answer in multiValueHeaders)."""
    headers = {k: str(v) for k, v in (response.get("headers") or {}).items()}
    for name, values in (response.get("multiValueHeaders") or {}).items():
        headers[name] = ", ".join(str(v) for v in values)
    return headers or {"Content-Type": "application/json"}
