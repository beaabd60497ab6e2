"""The surface is the operation table (api/operations.py): the REST routes, the OpenAPI document
served by ``serve``, the library's two doors and the MCP tools are each compared with it, so an
operation added, renamed or dropped in one place and not in the table fails here."""

from __future__ import annotations

import asyncio
import inspect
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import AsyncMemory, AsyncPairMemory, Memory, PairMemory
from tutor_memory.api.models import EpisodeRequest
from tutor_memory.api.operations import OPERATIONS
from tutor_memory.api.routes import openapi_json
from tutor_memory.bootstrap import build_app
from tutor_memory.library import Backend
from tutor_memory.local_backend import LocalBackend
from tutor_memory.mcp_server import build_server
from tutor_memory.remote_backend import RemoteBackend
from tutor_memory.settings import Settings, on_folder

from .conftest import serving

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("get", "post", "put", "delete", "patch")


def test_the_openapi_document_has_exactly_the_tables_operations() -> None:
    document = json.loads(openapi_json())
    routed = {
        (op["operationId"], method.upper(), path, tuple(op["x-roles"]))
        for path, ops in document["paths"].items()
        for method, op in ops.items()
        if method in METHODS
    }
    table = {(op.name, op.method, op.path, tuple(sorted(op.roles))) for op in OPERATIONS}
    assert routed == table


def test_every_operation_says_who_may_call_it_and_where_it_is_missing() -> None:
    for op in OPERATIONS:
        assert op.roles, op.name
        if op.library is None or op.mcp is None:
            assert op.elsewhere, f"{op.name}: say why it is not in the library or MCP"


@pytest.mark.parametrize("op", [op for op in OPERATIONS if op.library], ids=lambda op: op.name)
def test_each_library_operation_exists_on_the_sync_and_async_handles(op: object) -> None:
    owner, name = op.library.split(".")  # type: ignore[attr-defined]
    sync, awaited = {"PairMemory": (PairMemory, AsyncPairMemory), "Memory": (Memory, AsyncMemory)}[
        owner
    ]
    assert callable(getattr(sync, name, None)), f"{owner}.{name}"
    assert callable(getattr(awaited, name, None)), f"Async{owner}.{name}"


def _public(cls: type) -> set[str]:
    return {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}


def test_both_library_doors_implement_every_backend_method() -> None:
    wanted = _public(Backend)  # type: ignore[type-abstract]
    assert _public(LocalBackend) == wanted
    assert _public(RemoteBackend) == wanted


def test_the_mcp_tools_are_the_tables(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=Settings(embedder="none"), ready=False) as memory:
        tools = {t.name for t in asyncio.run(build_server(memory).list_tools())}
    assert tools == {op.mcp for op in OPERATIONS if op.mcp}


# Where an MCP tool's arguments may differ from its REST operation's parameters and body, and
# why; everything else must be the same names (a header's dashes read as underscores).
REST_ONLY = {
    # the earlier names of `evidence` for those kinds, kept for existing REST callers
    "addEpisode": {"check", "quiz", "citation"},
    # the erasure record names the door it came through: the library's ("library")
    "eraseEpisode": {"requested_by"},
    "erasePair": {"requested_by"},
    "eraseStudent": {"requested_by"},
    # a query string's short name: the tool says `question`, as memory_block does
    "whyRecalled": {"q"},
}
MCP_ONLY = {
    "whyRecalled": {"question"},
    # one tool for three routes (an episode, a pair, a student): each route lacks the others'
    "erasePair": {"episode_id"},
    "eraseStudent": {"episode_id", "subject_id"},
    "exportStudent": {"subject_id"},  # one tool for a pair's and a student's export
}


def _rest_arguments(document: dict[str, Any], path: str, method: str) -> set[str]:
    operation = document["paths"][path][method.lower()]
    names = {p["name"].replace("-", "_") for p in operation.get("parameters", [])}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    schema = body.get("schema", {})
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return names | set(schema.get("properties", {}))


def test_each_mcp_tool_takes_what_its_rest_operation_takes(tmp_path: Path) -> None:
    """A parameter added to a route (the block's budget) and not to its tool fails here."""
    document = json.loads(openapi_json())
    with Memory.local(tmp_path / "tm", settings=Settings(embedder="none"), ready=False) as memory:
        tools = {t.name: t for t in asyncio.run(build_server(memory).list_tools())}
    for op in OPERATIONS:
        if op.mcp is None:
            continue
        rest = _rest_arguments(document, op.path, op.method)
        tool = set(tools[op.mcp].input_schema["properties"])
        assert rest - tool == REST_ONLY.get(op.name, set()), op.name
        assert tool - rest == MCP_ONLY.get(op.name, set()), op.name


# Where a library method's parameters may differ from its REST operation's, and why (the
# pair's ids are the PairMemory handle's own, never a method's parameter).
LIBRARY_DIFFERS = {
    # the episode is one EpisodeRequest, the REST body's own model
    "addEpisode": (set(EpisodeRequest.model_fields), {"episode"}),
    "whyRecalled": ({"q"}, {"question"}),
    # the erasure record names the door it came through ("library"; REST's default "api")
    "eraseEpisode": ({"requested_by"}, set()),
    "erasePair": ({"requested_by"}, {"episode_id"}),
    "eraseStudent": ({"requested_by"}, {"episode_id", "subject_id"}),
    # the library follows the pages itself and writes them to a file (`export_page` pages)
    "exportPair": ({"next"}, {"out"}),
    "exportStudent": ({"next"}, {"out", "subject_id"}),
    # the file is read from a path; REST carries its name and content in the body
    "putClassFile": ({"content", "name"}, {"file"}),
}


@pytest.mark.parametrize("op", [op for op in OPERATIONS if op.library], ids=lambda op: op.name)
def test_each_library_method_takes_what_its_rest_operation_takes(op: Any) -> None:
    document = json.loads(openapi_json())
    rest = _rest_arguments(document, op.path, op.method)
    owner, name = op.library.split(".")
    method = getattr({"PairMemory": PairMemory, "Memory": Memory}[owner], name)
    takes = set(inspect.signature(method).parameters) - {"self"}
    if owner == "PairMemory":
        rest -= {"student_id", "subject_id"}
    rest_only, library_only = LIBRARY_DIFFERS.get(op.name, (set(), set()))
    assert (rest - takes, takes - rest) == (rest_only, library_only)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    try:
        with serving(app) as url:
            yield url
    finally:
        app.close()


def test_serve_serves_the_committed_document_and_a_page_of_every_operation(served: str) -> None:
    with urllib.request.urlopen(f"{served}/openapi.json", timeout=30) as response:
        assert response.headers["Content-Type"].startswith("application/json")
        served_document = response.read().decode()
    assert served_document == (ROOT / "infra" / "openapi.json").read_text(encoding="utf-8")
    with urllib.request.urlopen(f"{served}/docs", timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/html")
        page = response.read().decode()
    for op in OPERATIONS:
        assert f"id='{op.name}'" in page and op.summary.replace("'", "&#x27;") in page
    assert "<script" not in page and "http" not in page.split("</style>")[1]  # nothing fetched
