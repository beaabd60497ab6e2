"""Handlers on moto: the real Lambda modules, real-shaped events, no AWS."""

from __future__ import annotations

import importlib.util
import json
import shlex
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from moto import mock_aws

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import App, lambda_app, lambda_scheduler

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "infra" / "events"  # the sample events `sam local invoke -e` takes, too
TABLE, REGION = "tutor-memory-it", "us-east-1"
TEST_TURN_DEADLINE_S = 600.0  # tests assert what a turn says, never how fast it said it


@dataclass
class LambdaContext:
    function_name: str = "tutor-memory-test"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:tutor-memory-test"
    aws_request_id: str = "5f0e2a8e-0000-4000-8000-000000000000"


def load_handler(name: str) -> ModuleType:
    """functions/<name>/app.py as Lambda loads it (a file, not a package)."""
    path = ROOT / "functions" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"lambda_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def event(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / name).read_text()))


class Api:
    """The API function (functions/api/app.py) called with API Gateway REST events; or, given
    ``handler``, that handler (a resolver of the test's own Apps, called as Lambda calls)."""

    def __init__(self, handler: Callable[[dict[str, Any], Any], dict[str, Any]] | None = None):
        self.module = load_handler("api")
        self.handler = handler or self.module.handler

    def __call__(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: str | None = None,
        headers: dict[str, str] | None = None,
        query: dict[str, str] | None = None,
        claims: dict[str, str] | None = None,
        context: Any = None,
    ) -> tuple[int, Any]:
        """``claims``: what API Gateway's JWT authoriser verified (``custom:tenant``, …);
        ``context``: Lambda's (one with no time limit unless given)."""
        shaped = event("api-turn.json")
        if claims is not None:
            shaped["requestContext"]["authorizer"] = {"claims": claims}
        shaped["httpMethod"] = shaped["requestContext"]["httpMethod"] = method
        shaped["path"] = path
        shaped["pathParameters"] = {"proxy": path.lstrip("/")}
        shaped["body"] = raw if raw is not None else (None if body is None else json.dumps(body))
        shaped["headers"] = {**shaped["headers"], **(headers or {})}
        shaped["multiValueHeaders"] = {k: [v] for k, v in shaped["headers"].items()}
        shaped["queryStringParameters"] = query
        shaped["multiValueQueryStringParameters"] = {
            k: [v] for k, v in (query or {}).items()
        } or None
        response = self.handler(shaped, context or LambdaContext())
        self.last = response  # the whole answer (its headers), for a test that reads them
        body = response["body"]
        if body and body.startswith("<!DOCTYPE html>"):  # the inspector's page
            return response["statusCode"], body
        return response["statusCode"], json.loads(body) if body else None


def set_cloud_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Lambda functions' environment on moto: DynamoDB for the log and the map; the
    embedded index stands in for OpenSearch (moto has no OpenSearch data plane)."""
    for name, value in {
        "TUTOR_MEMORY_BACKEND": "dynamodb",
        "TUTOR_MEMORY_TABLE_NAME": TABLE,
        "TUTOR_MEMORY_AWS_REGION": REGION,
        "TUTOR_MEMORY_EMBEDDER": "none",
        "TUTOR_MEMORY_INDEX_PATH": str(tmp_path / "index.db"),
        "POWERTOOLS_SERVICE_NAME": "tutor-memory",
        "POWERTOOLS_METRICS_NAMESPACE": "TutorMemoryTest",
    }.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def cloud(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DynamoStore]:
    """The cloud configuration on moto (``set_cloud_env``)."""
    set_cloud_env(tmp_path, monkeypatch)
    lambda_app.cache_clear()
    lambda_scheduler.cache_clear()
    with mock_aws():
        store = DynamoStore(TABLE, REGION)
        store.create_table()
        # The product keeps its 2.5 s deadline; a test that asserts on a turn must not fail
        # because the machine is busy, so the app's turns wait as long as they need.
        lambda_app().turns.deadline_s = TEST_TURN_DEADLINE_S
        yield store
    lambda_app.cache_clear()
    lambda_scheduler.cache_clear()


@contextmanager
def serving(app: App, **resolver_options: Any) -> Iterator[str]:
    """``tutor-memory serve``'s server over ``app`` on a free loopback port (its base URL),
    stopped, with every worker, when the block ends. ``resolver_options`` go to
    ``build_resolver`` (``anonymous=None``: a key on every call, as ``serve`` asks)."""
    from tutor_memory.api.local_server import make_server
    from tutor_memory.api.routes import build_resolver

    server = make_server(build_resolver(lambda: app, **resolver_options), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


# --- the TypeScript client (clients/typescript) ------------------------------------------------

CLIENT = ROOT / "clients" / "typescript"
NODE, NPM = shutil.which("node"), shutil.which("npm")


def run_in_client(argv: list[str], *, timeout_s: float, env: dict[str, str] | None = None) -> str:
    """``argv`` in the client's folder; its output, or the test fails showing it."""
    done = subprocess.run(
        argv,
        cwd=CLIENT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
    )
    output = f"$ {shlex.join(argv)}\n{done.stdout}\n{done.stderr}"
    if done.returncode != 0:
        pytest.fail(f"exit status {done.returncode}\n{output}", pytrace=False)
    return output


@pytest.fixture(scope="session")
def installed() -> Path:
    """The client's dependencies, as the lockfile pins them."""
    assert NPM is not None
    installed_lock = CLIENT / "node_modules" / ".package-lock.json"  # npm writes it on install
    lock = CLIENT / "package-lock.json"
    if not installed_lock.exists() or installed_lock.stat().st_mtime < lock.stat().st_mtime:
        run_in_client([NPM, "ci", "--no-audit", "--no-fund"], timeout_s=300)
    return CLIENT
