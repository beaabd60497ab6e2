"""The command line as a user meets it: a new store made on first use by the commands that add
to it, `--version`, help on every flag, the exit codes (0 done, 1 not found or refused, 2 usage)
in `--help` and the README, one-line messages instead of tracebacks, progress only on a
terminal, and `record` for each kind of episode through the one door."""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.cli import Progress, _parser, main

ROOT = Path(__file__).resolve().parents[2]
PAIR = ["--student", "s1", "--subject", "biology"]


@pytest.fixture(autouse=True)
def cli_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The CLI reads its settings from the environment: no model, a generous deadline, and a
    default home that is the test's own."""
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    monkeypatch.setenv("TUTOR_MEMORY_TURN_DEADLINE", "30")
    monkeypatch.setenv("TUTOR_MEMORY_HOME", str(tmp_path / "home"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# --- the parser: version, help, exit codes --------------------------------------------------


def test_the_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == "tutor-memory 0.1.0"


def test_every_command_flag_and_argument_says_what_it_is() -> None:
    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helped = {a.dest for a in action._choices_actions if a.help}
                missing.extend(f"{path} {name}" for name in action.choices if name not in helped)
                for name, child in action.choices.items():
                    walk(child, f"{path} {name}")
            elif not action.help:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")

    walk(_parser(), "tutor-memory")
    assert missing == []


def test_the_exit_codes_are_in_the_help_and_the_readme(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in (shown, readme):
        assert "exit codes" in text.lower()
        codes = (("0", "done"), ("1", "not found or refused"), ("2", "usage"),
                 ("3", "failed unexpectedly"))  # fmt: skip
        for code, meaning in codes:
            assert any(
                line.lstrip(" |`").startswith(code) and meaning in line
                for line in text.splitlines()
            ), (code, meaning)


def test_a_usage_error_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["record", "check", "--store", str(tmp_path / "tm"), *PAIR, "a check"])
    assert exited.value.code == 2  # --topic and --verdict are required
    assert "--topic" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["no-such-command"])
    assert exited.value.code == 2
    capsys.readouterr()
    # A flag whose value does not parse is a usage error too, said in one line.
    store = str(tmp_path / "tm")
    assert run(capsys, "record", "question", "--store", store, *PAIR, "What is osmosis?")[0] == 0
    code, _, err = run(capsys, "ask", "--store", store, *PAIR, "--at", "monday")
    assert (code, one_line_error(err)) == (2, "error: --at: is not an ISO 8601 time ('monday')")


# --- stores: created by the commands that add, required by the others -----------------------


@pytest.mark.parametrize(
    ("command", "given"),
    [
        (["teach"], "Remember that in our class the Golgi body is the post office"),
        (["record", "question"], "What is osmosis?"),
        (["ingest"], "NOTES"),
    ],
)
def test_a_command_that_adds_creates_a_new_store_folder_on_first_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str], given: str
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Osmosis\n\nOsmosis moves water across a membrane.\n", encoding="utf-8")
    store = tmp_path / "new" / "store"
    argument = str(notes) if given == "NOTES" else given
    code, _, err = run(capsys, *command, "--store", str(store), *PAIR, argument)
    assert code == 0, err
    assert (store / "memory.db").exists()
    assert run(capsys, "log", "--store", str(store), *PAIR)[0] == 0


@pytest.mark.parametrize("command", ["log", "verify", "map", "recall", "report", "rederive"])
def test_a_command_that_reads_refuses_a_folder_without_a_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    code, _, err = run(capsys, command, "--store", str(tmp_path / "nothing"), *PAIR)
    assert code == 1
    assert "no store in" in one_line_error(err)
    assert not (tmp_path / "nothing").exists()  # nothing was made by looking


@pytest.mark.parametrize(
    "command",
    [
        ["serve", "--port", "0"],
        ["mcp"],
        ["keys", "list"],
        ["keys", "revoke", "e113b4ea43a2"],
        ["classes", "show", "7a"],
        ["profile", "show", "--student", "alice"],
        ["profile", "retract", "name", "--student", "alice"],
        ["nightly"],
    ],
    ids=" ".join,
)
def test_serving_or_listing_a_mistyped_store_is_refused_and_makes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a typo in an MCP client's --store served an empty store, and wrote students' data to it
    def served(*_: object, **__: object) -> int:
        raise AssertionError("served a folder without a store")

    monkeypatch.setattr("tutor_memory.api.local_server.make_server", served)  # never a port
    monkeypatch.setattr("tutor_memory.mcp_server.run", served)
    code, _, err = run(capsys, *command, "--store", str(tmp_path / "my-tutor-memroy"))
    assert code == 1
    assert "no store in" in one_line_error(err)
    assert not (tmp_path / "my-tutor-memroy").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["keys", "create", "--role", "service"],  # the README's first step over HTTP
        ["classes", "set", "7a", "--teacher", "t-1", "--student", "alice"],
        ["profile", "set", "name", "Alice", "--student", "alice"],
    ],
    ids=" ".join,
)
def test_a_command_that_adds_to_a_store_makes_a_new_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    store = tmp_path / "new"
    code, _, err = run(capsys, *command, "--store", str(store))
    assert code == 0, err
    assert (store / "memory.db").exists()
    assert run(capsys, "keys", "list", "--store", str(store))[0] == 0


@pytest.mark.parametrize("role", ["student", "teacher"])
def test_a_students_or_teachers_key_without_its_id_names_the_flag_and_makes_no_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, role: str
) -> None:
    code, _, err = run(capsys, "keys", "create", "--role", role, "--store", str(tmp_path / "tm"))
    assert code == 2  # usage: a flag the role needs
    assert one_line_error(err) == f"error: --id: a {role} key needs --id (the {role}'s id)"
    assert not (tmp_path / "tm").exists()


def test_the_log_of_an_unknown_pair_says_so_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = str(tmp_path / "tm")
    assert run(capsys, "record", "question", "--store", store, *PAIR, "What is osmosis?")[0] == 0
    code, out, err = run(capsys, "log", "--store", store, "--student", "s1", "--subject", "art")
    assert (code, out) == (1, "")
    assert one_line_error(err) == (
        f"error: no record of s1/art in {store}: nothing was recorded for this pair"
    )
    code, out, _ = run(capsys, "log", "--store", store, *PAIR)
    assert code == 0 and "question" in out and "What is osmosis?" in out


# --- messages instead of tracebacks ----------------------------------------------------------


def test_ingesting_a_missing_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "lecture.pdf"
    code, _, err = run(capsys, "ingest", "--store", str(tmp_path / "tm"), *PAIR, str(missing))
    assert (code, one_line_error(err)) == (1, f"error: no file {missing}")


def test_ingesting_a_file_over_the_bound_is_one_line_and_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    big = tmp_path / "lecture.pdf"
    with big.open("wb") as file:  # 30 MB of size, nothing written: refused by its size
        file.truncate(30 * 1024 * 1024)
    code, _, err = run(capsys, "ingest", "--store", str(tmp_path / "tm"), *PAIR, str(big))
    assert (code, one_line_error(err)) == (
        1,
        "error: lecture.pdf: too large (30 MB; the limit is 20 MB)",
    )


def test_a_prompt_section_file_that_is_not_utf8_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    latin = tmp_path / "system.txt"
    latin.write_bytes("Eres un tutor amable y paciente.".encode("utf-16"))
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    assert run(capsys, "teach", "Recuerda que la ósmosis mueve agua", *store)[0] == 0
    code, _, err = run(capsys, "prompt", "hola", "--system", f"@{latin}", *store)
    assert (code, one_line_error(err)) == (
        1,
        f"error: section: {str(latin)!r} is not UTF-8 text (byte 1)",
    )


def test_serving_on_a_busy_port_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        store = str(tmp_path / "tm")
        assert run(capsys, "keys", "create", "--role", "service", "--store", store)[0] == 0
        code, _, err = run(capsys, "serve", "--store", store, "--port", str(port))
    assert code == 1
    assert one_line_error(err) == f"error: cannot listen on 127.0.0.1:{port}: is in use " + (
        "(another serve?)"
    )


def test_a_closed_stdout_ends_the_command_quietly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = str(tmp_path / "tm")
    for n in range(3):
        run(capsys, "record", "question", "--store", store, *PAIR, f"Question {n}?")
    # The reader is gone before the first line is written (as `| head -0` would leave it).
    reader, writer = os.pipe()
    os.close(reader)
    command = [sys.executable, "-m", "tutor_memory.cli", "log", "--store", store, *PAIR]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "shared")}
    try:
        done = subprocess.run(
            command, stdout=writer, stderr=subprocess.PIPE, text=True, env=env, timeout=120
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")


# --- progress -------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_and_never_written_into_a_log() -> None:
    terminal, log = Terminal(), io.StringIO()
    for stream in (terminal, log):
        progress = Progress("replaying", stream)
        for done in (100, 200, 300):
            progress(done, 300)
    assert "replaying: 100%" in terminal.getvalue() and "300/300" in terminal.getvalue()
    assert log.getvalue() == ""


def test_a_replay_into_a_pipe_writes_no_carriage_return(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    history = tmp_path / "h.jsonl"
    lines = [
        {"student": "s1", "subject": "biology", "kind": "question", "text": f"Question {n}?",
         "at": f"2026-03-0{n + 1}T10:00:00Z"}
        for n in range(5)
    ]  # fmt: skip
    history.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(history), "--store", str(tmp_path / "tm"))
    assert code == 0 and "replayed 5 events" in out
    assert "\r" not in out + err


# --- record: one episode of each kind, through Episodes.add ---------------------------------


def test_record_writes_each_kind_and_a_check_moves_its_belief(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    code, out, _ = run(capsys, "record", "question", *store, "What is osmosis?", "--json")
    asked = json.loads(out)
    assert code == 0 and asked["kind"] == "question" and asked["created"]

    code, out, _ = run(
        capsys, "record", "check", *store, "Explain osmosis", "--topic", "osmosis",
        "--verdict", "wrong", "--predicted-mastery", "0.4",
    )  # fmt: skip
    assert code == 0 and "belief: struggles with osmosis (0.67)" in out

    code, out, _ = run(
        capsys, "record", "quiz", *store, "Quiz 1", "--score", "3", "--maximum", "5",
        "--topic", "osmosis", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["kind"] == "quiz"

    code, out, _ = run(
        capsys, "record", "answer", *store, "Water moves to the saltier side.",
        "--recalled", asked["id"], "--json",
    )  # fmt: skip
    answer = json.loads(out)
    assert code == 0 and answer["kind"] == "answer"

    code, out, _ = run(
        capsys, "record", "taught", *store, "Remember that the Golgi body is the post office"
    )
    assert code == 0 and "taught the concept 'Golgi body'" in out

    code, out, _ = run(capsys, "log", *store, "--json")
    kinds = [json.loads(line)["kind"] for line in out.splitlines()]
    assert kinds == ["question", "check", "quiz", "answer", "taught"]
    code, out, _ = run(capsys, "recall", *store, "osmosis", "--json")
    assert asked["id"] in {item["id"] for item in json.loads(out)["items"]}


def test_a_retried_record_with_the_same_key_is_written_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["record", "question", "--store", str(tmp_path / "tm"), *PAIR, "What is osmosis?",
            "--idempotency-key", "msg-1"]  # fmt: skip
    code, first, _ = run(capsys, *args)
    assert code == 0 and first.startswith("recorded question")
    code, again, _ = run(capsys, *args)
    assert code == 0 and again.startswith("already recorded (the same --idempotency-key)")
    code, out, _ = run(capsys, "log", "--store", str(tmp_path / "tm"), *PAIR)
    assert len(out.splitlines()) == 1


def test_record_refuses_what_the_memory_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    code, _, err = run(capsys, "record", "taught", *store, "Osmosis is boring")
    assert code == 1 and "not an instruction to remember" in one_line_error(err)
    code, _, err = run(capsys, "record", "answer", *store, "An answer", "--recalled", "e9-nope")
    assert code == 1 and "no episode 'e9-nope'" in one_line_error(err)
    # a time more than a day ahead, as the library and the API refuse it; nothing written
    ahead = (datetime.now(UTC) + timedelta(days=365)).isoformat()
    code, _, err = run(capsys, "record", "question", *store, "When?", "--at", ahead)
    assert code == 1 and "a day after now" in one_line_error(err)
    code, out, _ = run(capsys, "log", *store)
    assert "When?" not in out


def test_record_reads_the_text_from_standard_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("A long question\nover two lines?"))
    code, out, _ = run(capsys, "record", "question", "--store", str(tmp_path / "tm"), *PAIR, "-")
    assert code == 0 and "A long question" in out


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Remember that a buffer resists changes in pH", "buffer"),
        ("Recuerda que un tampón resiste los cambios de pH", "tampón"),
        ("Ingat bahwa larutan penyangga menahan perubahan pH", "larutan penyangga"),
        ("یاد رکھو کہ بفر pH کی تبدیلی کو روکتا ہے", "بفر"),
        ("تذكر أن المحلول المنظم يقاوم تغيرات الحموضة", "المحلول المنظم"),
    ],
)
def test_a_recorded_question_that_says_remember_teaches_in_each_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, message: str, name: str
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    code, out, _ = run(capsys, "record", "question", *store, message, "--json")
    recorded = json.loads(out)
    assert code == 0 and recorded["kind"] == "taught" and recorded["taught"] == name


@pytest.mark.parametrize(
    ("topic", "again"),
    [
        ("pH scale", "PH  Scale"),
        ("ósmosis", "Ósmosis"),
        ("fotosintesis", "Fotosintesis"),
        ("خلیہ", "خليه"),
        ("الخلية", "الخليّة"),
    ],
)
def test_recorded_checks_on_one_concept_as_typed_in_each_language_move_one_belief(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, topic: str, again: str
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    for typed, verdict in ((topic, "wrong"), (again, "wrong")):
        code, out, _ = run(
            capsys, "record", "check", *store, "a check", "--topic", typed, "--verdict", verdict
        )
        assert code == 0 and "belief: struggles with" in out
    code, out, _ = run(capsys, "report", *store, "--format", "json")
    beliefs = json.loads(out)["beliefs"]
    assert len(beliefs) == 1 and beliefs[0]["confidence"] > 0.67  # two misses, one belief


# --- --json: one flag, one JSON document ------------------------------------------------------

# Commands that print no result of their own (a walkthrough, a server, a document that is JSON
# already, the benches that write their results to files).
NO_JSON = {"demo", "serve", "mcp", "openapi", "scenarios", "bench-quality", "bench",
           "bench-recall"}  # fmt: skip
JSON_LINES = {"log", "nightly"}  # one JSON object per line: a log can be long


def _commands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    found: dict[str, argparse.ArgumentParser] = {}
    for name, child in sub.choices.items():
        kinds = [a for a in child._actions if isinstance(a, argparse._SubParsersAction)]
        for kind in kinds:  # record's kinds
            found.update({f"{name} {k}": p for k, p in kind.choices.items()})
        if not kinds:
            found[name] = child
    return found


def test_every_command_that_prints_a_result_takes_json_and_no_other_name() -> None:
    without = sorted(
        name
        for name, parser in _commands().items()
        if name not in NO_JSON
        and "--json" not in {o for a in parser._actions for o in a.option_strings}
    )
    assert without == []


def test_each_command_with_json_prints_one_json_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    notes = tmp_path / "cells.md"
    notes.write_text(
        "# Cells\n\n## Osmosis\n\nOsmosis is the movement of water across a membrane.\n\n"
        "## Diffusion\n\nDiffusion is the spread of particles from high to low concentration.\n",
        encoding="utf-8",
    )
    commands: dict[str, list[str]] = {
        "ingest": ["ingest", str(notes), *store],
        "question": ["record", "question", "What is osmosis?", *store],
        "check": ["record", "check", "Explain osmosis", "--topic", "osmosis",
                  "--verdict", "wrong", *store],
        "teach": ["teach", "Remember that osmosis is water crossing a membrane", *store],
        "not taught": ["teach", "Hello there", *store],
        "map": ["map", *store],
        "ask": ["ask", "what did I get wrong?", *store],
        "prompt": ["prompt", "what did I get wrong?", *store],
        "recall": ["recall", "osmosis", *store],
        "verify": ["verify", *store],
        "checkpoint": ["checkpoint", *store],
        "report": ["report", *store],
        "rederive": ["rederive", *store],
        "reindex": ["reindex", *store],
        "correct": ["correct", "CHECK_ID", "verdict", "right", "--reason", "a mistake", *store],
        "inspect": ["inspect", "--out", str(tmp_path / "page.html"), *store],
        "export": ["export", "--out", str(tmp_path / "export"), *store],
        "remove-file": ["remove-file", "cells.md", *store],
        "erase": ["erase", "--reason", "asked", *store],
        "migrate": ["migrate", *store],
        "replay": ["replay", str(tmp_path / "export" / "history.jsonl"),
                   "--store", str(tmp_path / "new")],
    }  # fmt: skip
    seen: dict[str, Any] = {}
    for name, argv in commands.items():
        if name == "correct":  # the check recorded above
            argv = [seen["check"]["id"] if a == "CHECK_ID" else a for a in argv]
        code, out, err = run(capsys, *argv, "--json")
        assert code == 0, (argv, err)
        seen[name] = json.loads(out)  # one document: json.loads refuses anything after it
    assert seen["ingest"]["concepts"] and seen["teach"]["taught"] is True
    assert seen["not taught"]["taught"] is False
    assert seen["verify"]["intact"] is True and seen["verify"]["episodes"] == 4
    assert "Osmosis" in seen["map"]["section"]
    assert seen["correct"]["belief"] == "understands Osmosis (0.67)"  # the map's name
    assert seen["reindex"]["indexed"] == 4  # every episode of the log (before the correction)
    assert seen["replay"]["events"] > 0 and seen["replay"]["pairs"] == 1


def test_report_format_json_is_the_same_as_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ["--store", str(tmp_path / "tm"), *PAIR]
    assert run(capsys, "record", "question", "What is osmosis?", *store)[0] == 0
    _, by_flag, _ = run(capsys, "report", *store, "--json")
    _, by_format, _ = run(capsys, "report", *store, "--format", "json")
    shown, formatted = json.loads(by_flag), json.loads(by_format)
    assert shown.keys() == formatted.keys() and shown["episodes"] == formatted["episodes"]
