"""``tutor-memory mcp`` end to end: the server started as a subprocess over stdio and driven by
the MCP SDK's own client (``stdio_client`` and ``ClientSession``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from tutor_memory import Memory
from tutor_memory.settings import Settings

SHARED = Path(__file__).resolve().parents[2] / "shared"
# What an agent sees over stdio: every operation the table marks as a tool.
TOOLS = {
    "memory_block", "record", "recall", "beliefs", "belief_history", "episodes", "map", "report",
    "verify", "export", "erase", "profile", "set_profile", "retract_profile", "correct",
}  # fmt: skip


def server(store: Path) -> StdioServerParameters:
    """``mcp`` on ``store``, made first (``mcp`` serves a store, it never makes one)."""
    with Memory.local(store, settings=Settings(embedder="none"), ready=False):
        pass
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "tutor_memory.cli", "mcp", "--store", str(store)],
        env={
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", ""),
            "PYTHONPATH": str(SHARED),
            "TUTOR_MEMORY_EMBEDDER": "none",
            "TUTOR_MEMORY_TURN_DEADLINE": "30",  # the longest allowed: no test races the clock
        },
    )


def text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


async def talk(store: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with stdio_client(server(store)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        seen["tools"] = {t.name for t in (await session.list_tools()).tools}
        alice = {"student_id": "alice", "subject_id": "biology"}

        async def call(name: str, **arguments: Any) -> CallToolResult:
            return await session.call_tool(name, {**alice, **arguments})

        seen["unknown pair"] = await call("memory_block", question="hi")
        seen["check"] = await call(
            "record",
            kind="check",
            text="Explain osmosis in one line",
            evidence={"topic": "osmosis", "verdict": "wrong"},
        )
        seen["no evidence"] = await call("record", kind="check", text="Check")
        seen["no verdict"] = await call(
            "record", kind="check", text="Check", evidence={"topic": "osmosis"}
        )
        seen["bad kind"] = await call("record", kind="gossip", text="hi")
        seen["reserved key"] = await call(  # the night's own key: refused by the use case
            "record", kind="question", text="hi", idempotency_key="consolidation:2026-12-02"
        )
        seen["bad id"] = await session.call_tool(
            "beliefs", {"student_id": "bad id", "subject_id": "biology"}
        )
        seen["question"] = await call("record", kind="question", text="What is osmosis?")
        seen["taught"] = await call(
            "record", kind="question", text="Remember that osmosis is water crossing a membrane"
        )
        seen["block"] = await call("memory_block", question="what did I get wrong so far?")
        seen["recall"] = await call("recall", question="osmosis")
        seen["beliefs"] = await call("beliefs")
        seen["map"] = await call("map")
        seen["report"] = await call("report")
        # Arguments the SDK checks, and arguments it would have ignored.
        seen["schemas"] = {t.name: t.input_schema for t in (await session.list_tools()).tools}
        seen["misspelt"] = await call("memory_block", question="osmosis", budget=300)
        seen["wrong type"] = await call("recall", question=5)
        seen["missing"] = await call("record", kind="question")
        seen["small budget"] = await call("memory_block", question="osmosis", budget_tokens=120)
        seen["budget too small"] = await call("memory_block", question="osmosis", budget_tokens=10)
        seen["tagged"] = await call(
            "record",
            kind="question",
            text="Why does salt water make cells shrink? My notes say water leaves them",
            summary="salt water and shrinking cells",
            concepts=["osmosis"],
            salience=0.9,
        )
        seen["salience too high"] = await call("record", kind="question", text="hi", salience=3)
        seen["recall tagged"] = await call("recall", question="osmosis")
    return seen


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One server, one conversation (a subprocess is started once for the module)."""
    return anyio.run(talk, tmp_path_factory.mktemp("mcp") / "store")


def test_an_agent_records_a_check_and_sees_it_in_the_block(seen: dict[str, Any]) -> None:
    assert seen["tools"] == TOOLS

    check = seen["check"]
    assert not check.is_error and check.structured_content["belief"] == (
        "struggles with osmosis (0.67)"
    )
    block = seen["block"]
    assert not block.is_error
    assert "- struggles with osmosis (0.67)" in block.structured_content["block"]
    assert seen["taught"].structured_content["taught"] == "osmosis"

    asked = seen["question"].structured_content["id"]
    assert asked in [item["id"] for item in seen["recall"].structured_content["result"]]
    assert [b["line"] for b in seen["beliefs"].structured_content["result"]] == [
        "struggles with osmosis (0.67)"
    ]
    (concept,) = seen["map"].structured_content["concepts"]
    assert concept["taught_note"] == "osmosis is water crossing a membrane"
    assert seen["report"].structured_content["checks"]["recorded"] == 1


def test_bad_input_is_a_tool_error_the_agent_can_read_and_the_server_lives_on(
    seen: dict[str, Any],
) -> None:
    expected = {
        "unknown pair": "no record of alice/biology",
        "no evidence": "evidence: is required for a check",
        "no verdict": "evidence.verdict: Field required",
        "bad kind": "kind",
        "reserved key": "reserved for the system",
        "bad id": "student_id",
    }
    for name, says in expected.items():
        result = seen[name]
        assert result.is_error, name
        assert says in text(result), (name, text(result))
    assert not seen["report"].is_error  # every later call was still answered


def test_a_check_without_its_verdict_is_refused_for_its_own_fields_only(
    seen: dict[str, Any],
) -> None:
    said = text(seen["no verdict"])
    assert said.endswith("the episode is not valid: evidence.verdict: Field required"), said
    assert "errors.pydantic.dev" not in text(seen["bad kind"])


def test_an_argument_no_tool_takes_is_refused_not_ignored(seen: dict[str, Any]) -> None:
    """As the REST API refuses a misspelt field: an agent that wrote ``budget`` for
    ``budget_tokens`` is told so, rather than given a block of the default size."""
    said = text(seen["misspelt"])
    assert seen["misspelt"].is_error
    assert said == (
        "Error executing tool memory_block: the arguments are not valid: budget: not an "
        "argument of memory_block (it takes at, budget_tokens, question, student_id, "
        "subject_id)"
    ), said
    for name, schema in seen["schemas"].items():  # and every schema says so
        assert schema["additionalProperties"] is False, name


def test_the_sdks_own_argument_errors_name_the_argument_without_the_value_or_a_link(
    seen: dict[str, Any],
) -> None:
    expected = {
        "wrong type": "recall: the arguments are not valid: question: Input should be a valid "
        "string",
        "missing": "record: the arguments are not valid: text: Field required",
    }
    for name, says in expected.items():
        said = text(seen[name])
        assert seen[name].is_error and said == f"Error executing tool {says}", said
        assert "pydantic" not in said and "input_value" not in said and "Arguments" not in said


def test_the_block_takes_its_budget_as_the_rest_route_does(seen: dict[str, Any]) -> None:
    small = seen["small budget"]
    assert not small.is_error
    assert small.structured_content["tokens"] <= 120
    assert small.structured_content["memory_ids"] == []  # the fixed lines leave no room
    assert len(seen["block"].structured_content["memory_ids"]) > 0  # the default has room
    refused = text(seen["budget too small"])
    assert refused.endswith("budget_tokens: Input should be greater than or equal to 50"), refused


def test_an_episode_is_recorded_with_its_summary_concepts_and_salience(
    seen: dict[str, Any],
) -> None:
    tagged = seen["tagged"].structured_content
    assert tagged["summary"] == "salt water and shrinking cells"
    (item,) = [i for i in seen["recall tagged"].structured_content["result"]
               if i["id"] == tagged["id"]]  # fmt: skip
    assert item["summary"] == "salt water and shrinking cells"
    # its text never says "osmosis": found by the concept it was tagged with
    assert "concept" in item["pools"]
    said = text(seen["salience too high"])
    assert said.endswith("salience: Input should be less than or equal to 1"), said
