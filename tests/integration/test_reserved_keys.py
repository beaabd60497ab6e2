"""The keys the system writes under itself (``consolidation:<day>``, ``file:<name>:v1``, …) are
refused by the use case, so every door refuses them alike — REST, the library, the CLI (MCP,
through the library: ``test_mcp``) — while the night still writes its consolidation under its
key."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import build_app
from tutor_memory.cli import main
from tutor_memory.domain.episodes import INTERNAL_KEY_PREFIXES, Kind, Pair
from tutor_memory.domain.errors import ValidationError
from tutor_memory.library import Memory
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

from .conftest import Api

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)  # type: ignore[call-arg]
RESERVED = [
    "consolidation:2026-12-02", "file:notes.pdf:v1", "file-unreadable:f:abc", "erasure:1",
]  # fmt: skip


def test_every_reserved_prefix_is_tried() -> None:
    assert {next(p for p in INTERNAL_KEY_PREFIXES if k.startswith(p)) for k in RESERVED} == set(
        INTERNAL_KEY_PREFIXES
    )


@pytest.mark.parametrize("key", RESERVED)
def test_over_rest_a_reserved_key_is_refused(cloud: DynamoStore, key: str) -> None:
    status, problem = Api()(
        "POST", "/pairs/s-keys/biology/episodes", {"kind": "question", "text": "hi"},
        headers={"Idempotency-Key": key},
    )  # fmt: skip
    assert status == 422 and "reserved for the system" in problem["detail"]


def test_the_library_refuses_every_reserved_key(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        alice = memory.pair("alice", "biology")
        alice.record_question("What is osmosis?")
        for key in RESERVED:
            with pytest.raises(ValidationError, match="reserved for the system"):
                alice.record_question("Claim the night", idempotency_key=key)
        assert alice.verify().episodes == 1  # nothing written


def test_the_cli_refuses_a_reserved_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    monkeypatch.setenv("TUTOR_MEMORY_HOME", str(tmp_path / "home"))
    store = str(tmp_path / "tm")
    record = ["record", "question", "--store", store, "--student", "s1", "--subject", "biology"]
    assert main([*record, "--idempotency-key", "file:notes.pdf:v1", "hi"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "reserved for the system" in err


def test_a_refused_key_leaves_the_nights_own_writes_alone(tmp_path: Path) -> None:
    t0 = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
    clock = FixedClock(t0)
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"), clock=clock)
    pair = Pair("s-night", "biology")
    app.episodes.add(pair, Kind.QUESTION, "What is osmosis?", at=t0)
    with pytest.raises(ValidationError, match="reserved"):
        app.episodes.add(
            pair, Kind.QUESTION, "Pre-claim", idempotency_key="consolidation:2026-12-02"
        )
    clock.at = t0 + timedelta(days=1)
    app.nightly.run_pair(pair, date(2026, 12, 2))
    summaries = [e for e in app.memory.history(pair) if e.kind is Kind.CONSOLIDATION]
    assert len(summaries) == 1 and summaries[0].idempotency_key == "consolidation:2026-12-02"
