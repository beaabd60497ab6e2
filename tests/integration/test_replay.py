"""Replay a JSONL history into an isolated store, and ask it from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.bootstrap import build_app
from tutor_memory.cli import main, on_folder
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import Ports
from tutor_memory.replay import ReplayError, parse_history, replay
from tutor_memory.settings import Settings
from tutor_memory.usecases.log import TutorMemory

PAIR = Pair("s1", "biology")

GOOD = [
    {
        "student": "s1",
        "subject": "biology",
        "at": "2026-03-10T10:00:00Z",
        "kind": "question",
        "text": "What is osmosis?",
        "ref": "m1",
        "concepts": ["Osmosis"],
    },
    {
        "student": "s1",
        "subject": "biology",
        "at": "2026-03-10T10:01:00+07:00",
        "kind": "answer",
        "text": "Osmosis is water crossing a membrane.",
        "ref": "m2",
    },
    {
        "student": "s1",
        "subject": "biology",
        "at": "2026-07-14T10:00:00Z",
        "kind": "check",
        "text": "Check on osmosis",
        "evidence": {"topic": "osmosis", "verdict": "wrong", "predicted_mastery": 0.4},
    },
    {
        "student": "s1",
        "subject": "biology",
        "at": "2026-07-30T10:00:00Z",
        "kind": "answer",
        "text": "In March we covered osmosis.",
        "recalled_refs": ["m1", "m2"],
        "ref": "m3",
    },
    {
        "student": "s2",
        "subject": "biology",
        "at": "2026-03-11T10:00:00Z",
        "kind": "question",
        "text": "¿Qué es una célula?",
        "ref": "m1",
    },
]


def write(path: Path, rows: list[object]) -> Path:
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows)
        + "\n",
        encoding="utf-8",
    )
    return path


def test_a_history_is_rebuilt_pair_by_pair_into_a_new_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = write(tmp_path / "h.jsonl", [*GOOD[:2], "", *GOOD[2:]])
    store = tmp_path / "replayed"
    assert main(["replay", str(history), "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "replayed 5 events for 2 pair(s)" in out and "events/s" in out
    memory = TutorMemory(Ports(SqliteStore(store / "memory.db")))
    episodes = memory.history(PAIR)
    assert [e.ref for e in episodes] == ["m1", "m2", None, "m3"]
    assert episodes[3].recalled_ids == (episodes[0].episode_id, episodes[1].episode_id)
    assert memory.verify_chain(PAIR).intact
    assert [e.text for e in memory.history(Pair("s2", "biology"))] == ["¿Qué es una célula?"]
    assert not (tmp_path / "replayed.partial").exists()


def test_bad_lines_are_reported_by_number_and_nothing_is_built(tmp_path: Path) -> None:
    rows: list[object] = [
        GOOD[0],
        "{not json",
        {**GOOD[1], "kind": "gossip"},
        {**GOOD[2], "evidence": {"topic": "osmosis", "verdict": "maybe"}},
        {**GOOD[3], "recalled_refs": ["nope"]},
        {**GOOD[0], "colour": "blue"},
        # a taught line whose instruction is followed by a page: no note that long
        {**GOOD[0], "kind": "taught", "text": "Remember that osmosis is " + "water, " * 400},
    ]
    history = write(tmp_path / "h.jsonl", rows)
    store = tmp_path / "replayed"
    with pytest.raises(ReplayError) as caught:
        replay(history, store, lambda folder: build_app(on_folder(Settings(), folder)))
    assert [n for n, _ in caught.value.problems] == [2, 3, 4, 5, 6, 7]
    message = str(caught.value)
    assert "line 3: kind: unknown kind 'gossip'" in message
    assert "line 4: evidence.verdict" in message
    assert "line 5: recalled_refs: no earlier line has ref 'nope'" in message
    assert "line 6: colour: is not a field" in message
    assert "line 7: text: teaches a note of 2809 characters" in message
    assert not store.exists() and not (tmp_path / "replayed.partial").exists()


def test_the_cli_reports_bad_lines_as_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = write(tmp_path / "h.jsonl", [GOOD[0], "{not json"])
    assert main(["replay", str(history), "--store", str(tmp_path / "x")]) == 1  # refused
    assert "line 2: line: is not JSON" in capsys.readouterr().err


def test_lines_nested_past_reason_or_not_utf8_are_named_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each was a traceback (RecursionError, UnicodeDecodeError) and an exit code 1 with no line
    # named; --skip-bad could not skip them.
    history = tmp_path / "h.jsonl"
    latin = json.dumps(dict(GOOD[0], text="¿Qué es la ósmosis?"), ensure_ascii=False)
    history.write_bytes(
        (json.dumps(GOOD[0]) + "\n").encode()
        + b"[" * 100_000 + b"]" * 100_000 + b"\n"
        + latin.encode("latin-1") + b"\n"
        + (json.dumps(GOOD[4]) + "\n").encode()
    )  # fmt: skip
    assert main(["replay", str(history), "--store", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert "2 bad line(s), nothing written" in err
    assert "line 2: line: nests too deeply to read" in err
    assert "line 3: line: is not UTF-8 text (byte " in err
    assert main(["replay", str(history), "--store", str(tmp_path / "y"), "--skip-bad"]) == 0
    assert "skipped 2 bad line(s)" in capsys.readouterr().out


def test_skip_bad_skips_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    history = write(tmp_path / "h.jsonl", [GOOD[0], "{not json", GOOD[4]])
    store = tmp_path / "replayed"
    assert main(["replay", str(history), "--store", str(store), "--skip-bad"]) == 0
    assert "skipped 1 bad line(s)" in capsys.readouterr().out
    assert len(TutorMemory(Ports(SqliteStore(store / "memory.db"))).history(PAIR)) == 1


def test_replay_never_writes_into_an_existing_store(tmp_path: Path) -> None:
    store = tmp_path / "live"
    store.mkdir()
    (store / "memory.db").write_bytes(b"")
    history = write(tmp_path / "h.jsonl", GOOD)
    assert main(["replay", str(history), "--store", str(store)]) == 1  # refused
    assert (store / "memory.db").read_bytes() == b""


@pytest.fixture
def replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The GOOD history, replayed into a store folder."""
    store = tmp_path / "replayed"
    main(["replay", str(write(tmp_path / "h.jsonl", GOOD)), "--store", str(store)])
    capsys.readouterr()
    return store


def test_each_replayed_chain_is_anchored_as_written(
    replayed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A replayed store verified intact but anchored nothing until its first night: its
    chains had no checkpoint to be held against."""
    args = ["verify", "--store", str(replayed), "--student", "s1", "--subject", "biology"]
    assert main(args) == 0
    assert "; extends the checkpoint of " in capsys.readouterr().out


def test_recall_from_the_command_line_gives_ids_refs_scores_pools_and_timings(
    replayed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["recall", "--store", str(replayed), "--student", "s1", "--subject", "biology"]
    assert (
        main([*args, "--at", "2026-11-30T09:00:00Z", "--json", "what did we cover in March?"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["window"]["label"] == "March 2026" and not result["window"]["empty"]
    # newest first (m2 was written at 10:01 in UTC+7, before m1); the narration m3 is not a memory
    assert [i["ref"] for i in result["items"]] == ["m1", "m2"]
    assert set(result["items"][0]) >= {"id", "ref", "score", "pools", "count", "at"}
    assert set(result["timings_ms"]) == {"understand", "pools", "rank"}

    assert main([*args, "--at", "2026-11-30T09:00:00Z", "what did we do in May?"]) == 0
    assert "time window: May 2026 — nothing recorded" in capsys.readouterr().out


def test_recall_on_a_folder_without_a_store_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["recall", "--store", str(tmp_path), "--student", "s1", "--subject", "b", "q"])
    assert code == 1  # not found
    assert "no store in" in capsys.readouterr().err


def test_parsing_keeps_line_numbers_past_blank_lines() -> None:
    events, problems = parse_history(["", json.dumps(GOOD[0]), "", "[]"])
    assert [e.line for e in events] == [2]
    assert problems == [(4, "line: must be a JSON object")]


def test_the_sample_history_replays_files_checks_teaching_and_citations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = Path(__file__).resolve().parents[2] / "shared/tutor_memory/data/sample-history.jsonl"
    store = tmp_path / "replayed"
    assert main(["replay", str(history), "--store", str(store), "--skip-bad"]) == 0
    assert "replayed 25 events" in capsys.readouterr().out
    app = build_app(on_folder(Settings(embedder="none"), store))
    pair = Pair("demo-student", "biology")
    cmap = app.ports.store.load_map(pair)  # type: ignore[attr-defined]
    assert len(cmap.concepts) == 14  # the two files were read into the map
    assert cmap.concepts["mitochondria"].taught_note is not None  # the teaching message taught
    assert cmap.concepts["cytoplasm"].readiness == 0.85  # a passing check confirmed it
    lines = [b.line() for b in app.learning.beliefs(pair)]
    assert "struggles with Osmosis (0.55)" in lines  # wrong, wrong, then right
    assert not any("ask me the questions" in line for line in lines)  # an utterance topic
    cited = next(e for e in app.memory.history(pair) if e.ref == "m-004")
    assert (
        cited.evidence.to_dict()["fingerprint"]
        == app.ports.store.file(pair, "cell-biology.pdf").current.fingerprint
    )  # type: ignore[union-attr]
    narration = next(e for e in app.memory.history(pair) if e.ref == "m-012")
    assert len(narration.recalled_ids) == 2


def test_a_file_line_must_name_a_readable_path(tmp_path: Path) -> None:
    events, problems = parse_history(
        [json.dumps({"student": "s1", "subject": "b", "at": "2026-07-01T09:00:00Z",
                     "kind": "file", "path": "missing.pdf"})],
        tmp_path,
    )  # fmt: skip
    assert events == [] and problems[0][0] == 1 and "path: cannot read" in problems[0][1]


def test_ask_prints_the_block_and_its_ids_as_json(
    replayed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ask", "--store", str(replayed), "--student", "s1", "--subject", "biology"]
    assert (
        main([*args, "--at", "2026-11-30T09:00:00Z", "--json", "what did we cover in March?"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["block"].startswith("===== YOUR MEMORY OF THIS STUDENT AND SUBJECT =====")
    assert result["window"] == "March 2026"
    assert [i["ref"] for i in result["recalled"]] == ["m1", "m2"]
    assert set(result["memory_ids"]) == {i["id"] for i in result["recalled"]}
    assert main([*args, "--at", "2026-11-30T09:00:00Z", "what did we do in May?"]) == 0
    assert "NO RECORD" in capsys.readouterr().out


def test_a_conversation_is_embedded_once_each_text_as_itself(tmp_path: Path) -> None:
    """Replay embeds ahead what the log will index (each episode's own text; its context is
    read as words, not embedded), so the writes find every vector ready: each distinct text
    goes to the model once."""
    from tutor_memory.bench.embedding import HashEmbedder

    class Counting(HashEmbedder):
        def __init__(self) -> None:
            super().__init__(384)
            self.seen: list[str] = []

        def embed_passages(self, texts):  # type: ignore[no-untyped-def]
            self.seen += list(texts)
            return super().embed_passages(texts)

    counting = Counting()
    rows = [
        {"student": "s1", "subject": "chat", "at": f"2026-03-10T10:{2 * i:02d}:00Z",
         "kind": "question" if i % 2 == 0 else "answer",
         "text": f"line {i}" if i % 4 else "hello again"}
        for i in range(12)
    ]  # fmt: skip
    store = tmp_path / "replayed"
    replay(
        write(tmp_path / "h.jsonl", rows),
        store,
        lambda folder: build_app(on_folder(Settings(), folder)).with_ports(embedder=counting),
    )
    assert len(counting.seen) == len(set(counting.seen))  # nothing embedded twice
    assert sorted(counting.seen) == sorted({r["text"] for r in rows})  # each text, as itself
