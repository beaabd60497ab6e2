"""A retry of a write erased since (same Idempotency-Key, same request) is refused at every
door and writes nothing: ``410 Gone`` with a problem body saying it was erased and when over
REST, ``ErasedError`` from the library (MCP answers the library's error), a one-line error from
the CLI. The stores' side is in ``tests/contract/test_erased_keys.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.cli import main
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ErasedError
from tutor_memory.library import Memory
from tutor_memory.settings import Settings

from .conftest import Api

BASE = "/pairs/s-keys/biology"
SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)  # type: ignore[call-arg]


def test_over_rest_a_retry_of_an_erased_write_is_410_gone_and_writes_nothing(
    cloud: DynamoStore,
) -> None:
    api = Api()
    body = {"kind": "question", "text": "What does zorblaxquint mean?"}
    headers = {"Idempotency-Key": "k-1"}
    status, written = api("POST", f"{BASE}/episodes", body, headers=headers)
    assert status == 201
    status, _ = api("POST", f"{BASE}/episodes", body, headers=headers)
    assert status == 200  # a retry while it is there: found written
    status, _ = api(
        "DELETE", f"{BASE}/episodes/{written['id']}", query={"reason": "asked by the student"}
    )
    assert status == 200

    status, problem = api("POST", f"{BASE}/episodes", body, headers=headers)
    assert status == 410
    assert problem["type"] == "urn:tutor-memory:problem:erased"
    assert problem["title"] == "Gone"
    assert "was erased at 20" in problem["detail"] and "nothing was written" in problem["detail"]
    status, verified = api("GET", f"{BASE}/chain/verify")
    # nothing written again: the question, erased, and its erasure's entry
    assert verified["episodes"] == 2 and verified["erased"] == 1
    head = cloud.head(Pair("s-keys", "biology"))
    assert head is not None and head.seq == 2


def test_the_library_refuses_a_retry_of_an_erased_write(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        alice = memory.pair("alice", "biology")
        asked = alice.record_question("What is osmosis?", idempotency_key="k-1")
        memory.erase("alice", "biology", asked.id, reason="asked by the student")
        with pytest.raises(ErasedError, match="erased at 20"):
            alice.record_question("What is osmosis?", idempotency_key="k-1")
        assert alice.verify().episodes == 2  # nothing written again (the entry is the erasure's)


def test_the_cli_refuses_a_retry_of_an_erased_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    monkeypatch.setenv("TUTOR_MEMORY_HOME", str(tmp_path / "home"))
    store = str(tmp_path / "tm")
    record = ["record", "question", "--store", store, "--student", "s1", "--subject", "biology"]
    assert main([*record, "--json", "--idempotency-key", "k-1", "What is osmosis?"]) == 0
    episode_id = json.loads(capsys.readouterr().out)["id"]
    assert main(["erase", "--store", store, "--student", "s1", "--subject", "biology",
                 "--episode", episode_id, "--reason", "asked"]) == 0  # fmt: skip
    capsys.readouterr()

    assert main([*record, "--idempotency-key", "k-1", "What is osmosis?"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "was erased at 20" in err and "Traceback" not in err
