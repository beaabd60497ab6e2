"""The doors cannot drift apart: one scenario (record a question and a check, a turn, the
beliefs, the report, the chain, recall) through ``Memory.local`` and through ``Memory.remote``
against a real local ``serve`` (unsigned, as a laptop runs it) answers the same, ids, hashes
and times of writing aside (each store writes its own)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.api.local_server import make_server
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import build_app
from tutor_memory.settings import Settings, on_folder

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
AT = datetime(2026, 3, 2, 9, tzinfo=UTC)

# What differs between two stores by construction: the ids, hashes and times of writing.
_VARYING = [
    (re.compile(r"\be\d+-[0-9a-f]{12}\b"), "<id>"),
    (re.compile(r"\bb-[0-9a-f]{16}\b"), "<belief id>"),
    (re.compile(r"\b[0-9a-f]{64}\b"), "<hash>"),
    (re.compile(r"\b[0-9a-f]{16}…"), "<hash>…"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?"), "<time>"),
]


def comparable(value: Any) -> Any:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    for pattern, placeholder in _VARYING:
        text = pattern.sub(placeholder, text)
    return json.loads(text)


def scenario(memory: Memory) -> dict[str, Any]:
    alice = memory.pair("alice", "biology")
    asked = alice.record_question("What is osmosis?", ref="m1", at=AT)
    checked = alice.record_check(
        "Explain osmosis in one line", topic="osmosis", verdict="wrong", at=AT
    )
    later = AT + timedelta(hours=1)
    return comparable(
        {
            "question": asked.model_dump(mode="json"),
            "check": checked.model_dump(mode="json"),
            "turn": alice.turn("what did I get wrong?", at=later).model_dump(
                mode="json", exclude={"timings_ms"}
            ),
            "beliefs": [b.model_dump(mode="json") for b in alice.beliefs()],
            "report": alice.report(history="osmosis").model_dump(mode="json"),
            "verify": alice.verify().model_dump(mode="json"),
            "recall": alice.recall("osmosis", at=later).model_dump(mode="json"),
        }
    )


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``tutor-memory serve``'s server over its own store, on a free loopback port."""
    app = build_app(on_folder(SETTINGS, tmp_path_factory.mktemp("served")))
    server = make_server(build_resolver(lambda: app), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
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
    assert answers["check"]["belief"] == "struggles with osmosis (0.67)"
    assert answers["verify"]["intact"] and answers["recall"]["kept"] >= 2
