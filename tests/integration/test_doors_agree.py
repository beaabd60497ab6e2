"""The doors cannot drift apart: one scenario that calls every operation of the library (record,
turn, prompt, sources, stance, beliefs, their history page by page, re-derivation, the log page by
page, the map, the report, recall, a refusal, export page by page, erasure and the chain after it)
through
``Memory.local`` and through ``Memory.remote`` against a real local ``serve`` (unsigned, as a
laptop runs it) answers the same, ids, hashes and times of writing aside (each store writes its
own); and the MCP tools answer as the library does."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from tutor_memory import Memory
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.errors import TutorMemoryError
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.export import Export

from .conftest import NODE, NPM, serving
from .conftest import run_in_client as run

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
AT = datetime(2026, 3, 2, 9, tzinfo=UTC)

# What differs between two stores by construction: the ids, hashes and times of writing.
_VARYING = [
    (re.compile(r"\be\d+-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"\bb-[0-9a-f]{16}\b"), "<belief id>"),
    (re.compile(r"\b[0-9a-f]{64}\b"), "<hash>"),
    (re.compile(r"\b[0-9a-f]{16}…"), "<hash>…"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?"), "<time>"),
    # who read the record: the door's own service (the library's, or the gateway's at serve)
    (re.compile(r"service:(library|gateway)"), "service:<door>"),
]


def comparable(value: Any) -> Any:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    for pattern, placeholder in _VARYING:
        text = pattern.sub(placeholder, text)
    return json.loads(text)


def outcome(call: Callable[[], Any]) -> Any:
    """An answer as JSON, or the error a door raised (its class and words)."""
    try:
        found = call()
    except TutorMemoryError as exc:
        return {"error": type(exc).__name__, "message": str(exc)}
    if isinstance(found, list):
        return [x.model_dump(mode="json") for x in found]
    if isinstance(found, Export):
        return found.to_dict()
    if isinstance(found, dict):
        return found
    return found.model_dump(mode="json", exclude={"timings_ms"})


# A course file read into a class's map (the same words as scripts/doors-scenario.mjs's).
SYLLABUS = "# Cells\n\n## Osmosis\n\nOsmosis is the movement of water across a membrane.\n"


def scenario(memory: Memory) -> dict[str, Any]:
    """Every operation of the library, in an order a tutor's product would meet them."""
    alice = memory.pair("alice", "biology")
    later = AT + timedelta(hours=1)
    seen: dict[str, Any] = {"unknown pair": outcome(lambda: alice.turn("hi"))}
    seen["question"] = outcome(lambda: alice.record_question("What is osmosis?", ref="m1", at=AT))
    check = alice.record_check(
        "Explain osmosis in one line", topic="osmosis", verdict="wrong", at=AT
    )
    seen["check"] = outcome(lambda: check)
    turn = alice.turn("what did I get wrong?", at=later)
    seen["turn"] = outcome(lambda: turn)
    seen["prompt"] = outcome(
        lambda: alice.prompt("what did I get wrong?", system="You are a tutor.", at=later)
    )
    answer = alice.record_answer(
        "Osmosis moves water across a membrane.", recalled_ids=turn.memory_ids, at=later
    )
    seen["answer"] = outcome(lambda: answer)
    seen["sources"] = outcome(lambda: alice.sources(answer.id))
    seen["stance"] = outcome(lambda: alice.set_stance(answer.id, "partial"))
    seen["correct"] = outcome(
        lambda: alice.correct(check.id, "verdict", "right", "marked wrong by mistake", at=later)
    )
    seen["beliefs"] = outcome(alice.beliefs)
    seen["belief history"] = outcome(lambda: alice.belief_history("Osmosis"))
    seen["rederive"] = outcome(lambda: alice.rederive(reason="rules changed", force=True))
    held = alice.belief_history("Osmosis", limit=1)
    seen["belief pages"] = [
        outcome(lambda: held),
        outcome(lambda: alice.belief_history("Osmosis", limit=10, next=held.next)),
    ]
    first = alice.episodes(limit=2)
    seen["episodes"] = [outcome(lambda: first), outcome(lambda: alice.episodes(next=first.next))]
    seen["map"] = outcome(lambda: alice.map().to_dict())
    seen["report"] = outcome(lambda: alice.report(history="osmosis"))
    seen["recall"] = outcome(lambda: alice.recall("osmosis", at=later))
    seen["no file"] = outcome(lambda: alice.remove_file("f-none"))
    page = alice.export_page(limit=2)
    seen["export pages"] = [
        outcome(lambda: page),
        outcome(lambda: alice.export_page(limit=2, next=page.next)),
    ]
    seen["export"] = outcome(lambda: alice.export(limit=2))  # every page, put together
    seen["erase episode"] = outcome(
        lambda: memory.erase("alice", "biology", first.episodes[0]["id"], reason="asked")
    )
    seen["verify"] = outcome(alice.verify)
    seen["erase pair"] = outcome(lambda: memory.erase("alice", "biology", reason="left"))
    seen["export student"] = outcome(lambda: memory.export("alice", limit=2))
    seen["erase student"] = outcome(lambda: memory.erase("alice", reason="left the school"))
    # A class with one course map (bob's, apart from alice's erasures).
    seen["set class"] = outcome(lambda: memory.set_class("7a", teachers=["t-1"], students=["bob"]))
    seen["get class"] = outcome(lambda: memory.get_class("7a"))
    syllabus = Path(tempfile.mkdtemp()) / "syllabus.md"
    syllabus.write_text(SYLLABUS, encoding="utf-8")
    seen["class file"] = outcome(lambda: memory.ingest_class("7a", "biology", syllabus))
    return comparable(seen)


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``tutor-memory serve``'s server over its own store, on a free loopback port."""
    app = build_app(on_folder(SETTINGS, tmp_path_factory.mktemp("served")))
    try:
        with serving(app) as url:
            yield url
    finally:
        app.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with Memory.local(tmp_path_factory.mktemp("reference"), settings=SETTINGS) as memory:
        return scenario(memory)


@pytest.mark.parametrize("door", ["local", "remote"])
def test_every_door_answers_the_scenario_alike(
    door: str, serve: str, reference: dict[str, Any], tmp_path: Path
) -> None:
    memory = (
        Memory.local(tmp_path / "local", settings=SETTINGS)
        if door == "local"
        else Memory.remote(serve)
    )
    with memory:
        answers = scenario(memory)
    for part, expected in reference.items():
        assert answers[part] == expected, part
    assert answers["unknown pair"]["error"] == "NotFoundError"
    assert answers["check"]["belief"] == "struggles with osmosis (0.67)"
    assert answers["sources"] and answers["stance"]["stance"] == "partial"
    assert answers["correct"]["kind"] == "correction" and answers["correct"]["created"]
    assert answers["correct"]["belief"] == "understands osmosis (0.67)"
    assert len(answers["episodes"][0]["episodes"]) == 2 and answers["episodes"][1]["next"] is None
    first_beliefs, last_beliefs = answers["belief pages"]
    assert len(first_beliefs["beliefs"]) == 1 and first_beliefs["next"] == "1"
    assert last_beliefs["beliefs"] and last_beliefs["next"] is None
    first_page, second_page = answers["export pages"]
    assert first_page["manifest"]["format"] and second_page["manifest"] is None
    assert len(first_page["history"]) == 2 and first_page["next"]
    paged = first_page["history"] + second_page["history"]
    assert paged == answers["export"]["history"]  # nothing written between the reads
    assert "You are a tutor." in answers["prompt"]["prompt"]
    assert answers["no file"]["error"] == "NotFoundError"
    assert answers["verify"]["intact"] and answers["recall"]["kept"] >= 2
    assert answers["erase pair"]["episodes_erased"] >= 3


def mcp_scenario(memory: Memory) -> dict[str, Any]:
    """The scenario's operations that are MCP tools, through the tools (in process: the
    transport is tests/integration/test_mcp.py's)."""
    server = build_server(memory)
    alice = {"student_id": "alice", "subject_id": "biology"}
    later = (AT + timedelta(hours=1)).isoformat()

    def call(name: str, **arguments: Any) -> Any:
        try:
            result = asyncio.run(server.call_tool(name, {**alice, **arguments}))
        except ToolError as exc:  # what the agent reads as the tool's error
            return {"message": str(exc)}
        assert isinstance(result, CallToolResult) and not result.is_error
        found = result.structured_content or {}
        return found.get("result", found)

    seen: dict[str, Any] = {"unknown pair": call("memory_block", question="hi")}
    seen["question"] = call("record", kind="question", text="What is osmosis?", ref="m1", at=AT)
    seen["check"] = call(
        "record",
        kind="check",
        text="Explain osmosis in one line",
        evidence={"topic": "osmosis", "verdict": "wrong"},
        at=AT,
    )
    seen["turn"] = call("memory_block", question="what did I get wrong?", at=later)
    seen["turn"].pop("timings_ms")  # this run's own
    seen["answer"] = call(
        "record",
        kind="answer",
        text="Osmosis moves water across a membrane.",
        recalled_ids=seen["turn"]["memory_ids"],
        at=later,
    )
    seen["correct"] = call(
        "correct",
        episode_id=seen["check"]["id"],
        field="verdict",
        value="right",
        reason="marked wrong by mistake",
        at=later,
    )
    seen["beliefs"] = call("beliefs")
    seen["belief history"] = call("belief_history", concept="Osmosis")
    seen["episodes"] = call("episodes", limit=2)
    first = seen["episodes"]["episodes"][0]["id"]
    pages = [call("export", limit=2)]
    while pages[-1]["next"] is not None:
        pages.append(call("export", limit=2, next=pages[-1]["next"]))
    seen["export pages"] = pages
    seen["export whole"] = memory.export("alice", "biology").to_dict()
    seen["bad next"] = call("export", next="not-a-cursor")
    seen["erase episode"] = call("erase", episode_id=first, reason="asked")
    seen["verify"] = call("verify")
    return comparable(seen)


def test_the_mcp_tools_answer_as_the_library_does(
    reference: dict[str, Any], tmp_path: Path
) -> None:
    with Memory.local(tmp_path / "mcp", settings=SETTINGS) as memory:
        answers = mcp_scenario(memory)
    assert answers["unknown pair"]["message"].endswith(reference["unknown pair"]["message"])
    for part in ("question", "check", "turn", "answer", "correct", "beliefs", "belief history"):
        assert answers[part] == reference[part], part
    assert answers["episodes"] == reference["episodes"][0]
    pages = answers["export pages"]
    assert len(pages) >= 2 and pages[0]["manifest"] and pages[-1]["next"] is None
    assert all(page["manifest"] is None for page in pages[1:])
    assert [line for page in pages for line in page["history"]] == answers["export whole"][
        "history"
    ]
    assert "next" in answers["bad next"]["message"]
    assert answers["erase episode"] == reference["erase episode"]
    assert answers["verify"]["intact"]


@pytest.mark.slow
@pytest.mark.skipif(NODE is None or NPM is None, reason="node and npm build the TypeScript client")
def test_the_typescript_client_answers_the_scenario_as_the_library_does(
    reference: dict[str, Any], installed: Path, tmp_path: Path
) -> None:
    """The same scenario through clients/typescript (scripts/doors-scenario.mjs) against
    ``serve``: every answer equal to the library's (ids, hashes and times aside)."""
    assert NODE is not None and NPM is not None
    run([NPM, "run", "build"], timeout_s=300)
    app = build_app(on_folder(SETTINGS, tmp_path / "ts"))
    try:
        with serving(app) as url:
            done = subprocess.run(
                [NODE, "scripts/doors-scenario.mjs", url],
                cwd=installed,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
    finally:
        app.close()
    assert done.returncode == 0, done.stderr
    answers = comparable(json.loads(done.stdout))
    shared = set(reference) - {"map"}  # the map's shape is the library's ConceptMap
    assert set(answers) == shared
    expected = json.loads(json.dumps(reference))
    manifests = [expected[part]["manifest"] for part in ("export", "export student")]
    manifests.append(expected["export pages"][0]["manifest"])
    for manifest in manifests:  # the map's read is not in its record either
        manifest["disclosures"] = [
            d for d in manifest.get("disclosures", []) if d["operation"] != "conceptMap"
        ]
    for part in sorted(shared):
        assert answers[part] == expected[part], part
