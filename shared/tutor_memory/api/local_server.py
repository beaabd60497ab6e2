"""`tutor-memory serve`: the API's routes over local HTTP, on the embedded default.

Each request becomes an API Gateway REST-shaped event and goes through the very resolver the
Lambda uses, so local and cloud behave the same. Standard library only; bound to 127.0.0.1 by
default.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

MAX_BODY_BYTES = 1_000_000


class _Context:
    function_name = "tutor-memory-serve"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:tutor-memory-serve"
    aws_request_id = "local"


def to_event(method: str, target: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
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
                           "requestId": "local", "identity": {"sourceIp": "127.0.0.1"}},
        "body": body.decode("utf-8", errors="replace") if body else None,
        "isBase64Encoded": False,
    }  # fmt: skip


def make_server(resolver: APIGatewayRestResolver, host: str, port: int) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self._reply(413, {"error": f"the body is over {MAX_BODY_BYTES} bytes"})
                return
            body = self.rfile.read(length) if length else b""
            event = to_event(self.command, self.path, dict(self.headers.items()), body)
            response = resolver.resolve(event, cast(LambdaContext, _Context()))
            self._reply(response["statusCode"], response.get("body") or "", response)

        def _reply(self, status: int, body: Any, response: dict[str, Any] | None = None) -> None:
            payload = body if isinstance(body, str) else json.dumps(body)
            data = payload.encode("utf-8")
            self.send_response(status)
            # A REST resolver answers multiValueHeaders (an HTML page's Content-Type is there)
            multi = (response or {}).get("multiValueHeaders") or {}
            headers = (response or {}).get("headers") or {k: v[-1] for k, v in multi.items()}
            for name, value in (headers or {"Content-Type": "application/json"}).items():
                self.send_header(name, str(value))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = _handle

        def log_message(self, format: str, *args: Any) -> None:
            return

    return ThreadingHTTPServer((host, port), Handler)
