"""The MCP tools under generated arguments (``make fuzz``; bounded in ``make test``).

What Schemathesis does for the REST API, done for the tools: every tool is called through the
SDK's own client (in process: ``mcp.Client`` on the server object, the JSON-RPC messages and the
SDK's argument handling as over stdio) with arguments made from the tool's own input schema
(``arguments_of`` below), the same with the seeded student's ids put in (random ids name
no record, and the rules behind a found pair would go unreached), and arbitrary JSON objects
(wrong types, unknown arguments, nothing). Each answer must be a result or a tool error the
agent can read: never the SDK's bare "Error executing tool <name>", which is what a crash
inside a tool becomes, never a traceback or pydantic's pages. The server answers after all
of them, and the seeded pair's chain still verifies.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.types import CallToolResult, TextContent

from tutor_memory import Memory
from tutor_memory.api.models import EpisodeRequest
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings

EXAMPLES = 150 if os.environ.get("TUTOR_MEMORY_FUZZ_LONG") == "1" else 25
SEEDED = {"student_id": "alice", "subject_id": "biology"}
# erase last: what it erases, the tools after it would no longer reach
ORDER = (
    "memory_block", "record", "correct", "recall", "beliefs", "belief_history", "episodes",
    "map", "report", "verify", "export", "profile", "set_profile", "retract_profile", "erase",
)  # fmt: skip

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=8,
)


def arguments_of(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values shaped by a tool's input schema: its types, enums, consts, bounds, required and
    optional properties, ``$ref`` and ``anyOf``/``oneOf``. Not exact — patterns and
    ``if``/``then`` are not followed, so some values break the schema, which is as welcome
    here. Written here because ``hypothesis-jsonschema`` 0.23.1, its last release, fails on
    the Hypothesis that Schemathesis brings (``'many' object has no attribute 'more'``)."""
    defs = schema.get("$defs", {})

    def of(node: dict[str, Any]) -> st.SearchStrategy[Any]:
        if "$ref" in node:
            return st.deferred(lambda: of(defs[node["$ref"].rsplit("/", 1)[1]]))
        if "const" in node:
            return st.just(node["const"])
        if "enum" in node:
            return st.sampled_from(node["enum"])
        for either in ("anyOf", "oneOf"):
            if either in node:
                return st.one_of([of(choice) for choice in node[either]])
        kind = node.get("type")
        if kind == "string" and node.get("format") == "date-time":
            return st.datetimes(timezones=st.just(UTC)).map(datetime.isoformat)
        if kind == "string":
            return st.text(
                min_size=node.get("minLength", 0), max_size=min(node.get("maxLength", 40), 40)
            )
        if kind in ("integer", "number"):
            bounds = {"min_value": node.get("minimum"), "max_value": node.get("maximum")}
            if kind == "integer":
                return st.integers(**bounds)
            return st.floats(**bounds, allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        if kind == "array":
            return st.lists(of(node.get("items", {})), max_size=min(node.get("maxItems", 3), 3))
        if kind == "object" or "properties" in node:
            properties = node.get("properties", {})
            required = [name for name in node.get("required", []) if name in properties]
            optional = [name for name in properties if name not in required]
            return st.fixed_dictionaries(
                {name: of(properties[name]) for name in required},
                optional={name: of(properties[name]) for name in optional},
            )
        return JSON

    return of(schema)


class Connected:
    """The SDK's client on the server, driven from the test's own thread through a portal."""

    def __init__(self, portal: BlockingPortal, client: Client, memory: Memory) -> None:
        self.portal, self.client, self.memory = portal, client, memory
        self.schemas = {t.name: t.input_schema for t in portal.call(client.list_tools).tools}

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        return self.portal.call(self.client.call_tool, name, arguments)


@pytest.fixture(scope="module")
def connected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connected]:
    folder: Path = tmp_path_factory.mktemp("mcp-fuzz") / "tm"
    with Memory.local(folder, settings=Settings(embedder="none")) as memory:
        pair = memory.pair(SEEDED["student_id"], SEEDED["subject_id"])
        asked = pair.record(EpisodeRequest(kind="question", text="What is osmosis?"))
        pair.record(
            EpisodeRequest(
                kind="answer", text="Water crossing a membrane.", recalled_ids=[asked.id]
            )
        )
        pair.record(
            EpisodeRequest(
                kind="check",
                text="Explain osmosis",
                evidence={"topic": "osmosis", "verdict": "wrong"},
            )
        )
        with start_blocking_portal() as portal:
            client = Client(build_server(memory))
            with portal.wrap_async_context_manager(client):
                yield Connected(portal, client, memory)


def _text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


def _answered(name: str, arguments: dict[str, Any], result: CallToolResult) -> None:
    if not result.is_error:
        return
    said = _text(result)
    assert said.startswith(f"Error executing tool {name}: "), (arguments, said)  # not a crash
    assert "Traceback" not in said and "pydantic" not in said, (arguments, said)


@pytest.mark.parametrize("name", ORDER)
def test_every_tool_answers_generated_arguments_or_refuses_them_readably(
    connected: Connected, name: str
) -> None:
    schema = connected.schemas[name]
    valid = arguments_of(schema)
    seeded = valid.map(
        lambda args: {**args, **{k: v for k, v in SEEDED.items() if k in schema["properties"]}}
    )
    arguments = st.one_of(valid, seeded, st.dictionaries(st.text(max_size=15), JSON, max_size=5))

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,  # the same calls on every run
        suppress_health_check=list(HealthCheck),
    )
    @given(arguments)
    def call(args: dict[str, Any]) -> None:
        _answered(name, args, connected.call(name, args))

    call()
    assert {t.name for t in connected.portal.call(connected.client.list_tools).tools} >= set(ORDER)


def test_the_seeded_pair_still_verifies_after_the_calls(connected: Connected) -> None:
    """Runs after the tools (pytest keeps a module's order): what the calls wrote (records,
    corrections, erasures) left a chain that verifies."""
    result = connected.call("verify", dict(SEEDED))
    if result.is_error:  # erased whole by a generated erase: nothing left to verify
        assert "no record of alice/biology" in _text(result), _text(result)
    else:
        assert result.structured_content is not None
        assert result.structured_content["intact"] is True, result.structured_content
