"""Fixtures for the OpenSearch adapter tests, against a REAL node (never an imitation).

``OPENSEARCH_URL`` points at a running node; otherwise the session starts the dev node
(``infra/opensearch-node/node.sh start``, Java 17 + Maven) and stops it at the end if it
started it. If the node cannot start the tests fail, loudly, with the node log's tail: nothing
here is skipped. Each test gets fresh, uniquely named ``tm-test-*`` indices, deleted afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.adapters.opensearch_index import OpenSearchIndex, connect

REPO = Path(__file__).resolve().parents[2]
NODE = REPO / "infra" / "opensearch-node" / "node.sh"
NODE_LOG = REPO / "infra" / "opensearch-node" / "target" / "opensearch.log"


def _log_tail(lines: int = 60) -> str:
    try:
        return "\n".join(NODE_LOG.read_text(errors="replace").splitlines()[-lines:])
    except OSError as e:
        return f"(no node log at {NODE_LOG}: {e})"


@pytest.fixture(scope="session")
def opensearch_url() -> Iterator[str]:
    url = os.environ.get("OPENSEARCH_URL")
    if url:
        yield url.rstrip("/")
        return
    was_running = subprocess.run([str(NODE), "status"], capture_output=True).returncode == 0
    started = time.monotonic()
    try:
        proc = subprocess.run([str(NODE), "start"], capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{NODE} start timed out after {e.timeout} s\n{_log_tail()}", pytrace=False)
    if proc.returncode != 0 or not proc.stdout.strip().startswith("http"):
        pytest.fail(
            f"the OpenSearch test node did not start ({NODE} start exited {proc.returncode}).\n"
            f"stderr:\n{proc.stderr}\nnode log tail ({NODE_LOG}):\n{_log_tail()}",
            pytrace=False,
        )
    if not was_running:  # -s shows it; `make bench` is the place for real timings
        print(f"\nOpenSearch node ready in {time.monotonic() - started:.1f} s", file=sys.stderr)
    try:
        yield proc.stdout.strip()
    finally:
        if not was_running:
            subprocess.run([str(NODE), "stop"], capture_output=True, timeout=120)


@pytest.fixture(scope="session")
def client(opensearch_url: str) -> Any:
    return connect(opensearch_url, timeout=30)


@pytest.fixture
def index_names(client: Any) -> Iterator[list[str]]:
    """Every index a test makes is registered here and deleted after it."""
    names: list[str] = []
    yield names
    for name in names:
        client.indices.delete(index=name, ignore_unavailable=True)


@pytest.fixture
def make_index(client: Any, index_names: list[str]) -> Callable[..., OpenSearchIndex]:
    def make(
        dimension: int = 4,
        *,
        name: str | None = None,
        engine: str = "lucene",
        on: Any = None,
        create: bool = True,
        graph: bool | None = None,
        model: str | None = None,
    ) -> OpenSearchIndex:
        name = name or f"tm-test-{uuid.uuid4().hex[:12]}"
        index_names.append(name)
        index = OpenSearchIndex(
            on if on is not None else client,
            index=name,
            dimension=dimension,
            engine=engine,  # the dev node has no faiss native libraries
            refresh=True,  # reads in a test must see its writes
            shards=1,
            replicas=0,  # one node: green, not yellow
            graph=graph,
            model=model,
        )
        if create:
            index.ensure_index()
        return index

    return make


class RecordingTransport:
    """Wraps a real client's transport and keeps every request it sends, bodies decoded."""

    def __init__(self, client: Any) -> None:
        self.requests: list[tuple[str, str, list[Any]]] = []
        self._send = client.transport.perform_request
        client.transport.perform_request = self

    def __call__(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        body = kwargs.get("body", args[1] if len(args) > 1 else None)
        if isinstance(body, bytes):
            body = body.decode()
        if isinstance(body, str):  # _msearch and _bulk bodies arrive as NDJSON
            decoded = [json.loads(line) for line in body.splitlines() if line.strip()]
        else:
            decoded = [] if body is None else [body]
        self.requests.append((method, url, decoded))
        return self._send(method, url, *args, **kwargs)

    def to(self, endpoint: str) -> list[tuple[str, str, list[Any]]]:
        return [r for r in self.requests if r[1].split("?")[0].endswith(endpoint)]


@pytest.fixture
def recorded(opensearch_url: str) -> tuple[Any, RecordingTransport]:
    """A separate real client whose requests are recorded (the session client stays clean)."""
    own = connect(opensearch_url, timeout=30)
    return own, RecordingTransport(own)
