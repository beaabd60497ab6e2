"""Who may call what, tried as each caller would: every operation of the table × every kind of
caller through a real ``serve`` that asks for keys (401 without one, 403 for what the role may
not do, 404 for another tenant's record as for a record that does not exist), and the same
rule through the library's local door, the remote client, MCP and the CLI's keys."""

from __future__ import annotations

import asyncio
import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from tutor_memory import Caller, Memory, Role
from tutor_memory.api.operations import OPERATIONS, Operation
from tutor_memory.bootstrap import build_app
from tutor_memory.cli import main
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import ForbiddenError, NotAuthenticatedError, NotFoundError
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings, on_folder

from .conftest import serving

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
TENANT = "default"
SYLLABUS = base64.b64encode(
    b"# Biology\n\n## Osmosis\n\nOsmosis is the movement of water across a membrane.\n"
).decode()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A store with two students' records, a class (t-1 teaches alice), a key for each kind of
    caller, and ``serve`` over it asking for keys."""
    folder = tmp_path_factory.mktemp("school")
    app = build_app(on_folder(SETTINGS, folder))
    access = app.access
    keys = {
        "service": access.create_key(TENANT, Role.SERVICE)[1],
        "teacher of alice": access.create_key(TENANT, Role.TEACHER, "t-1")[1],
        "teacher of no one": access.create_key(TENANT, Role.TEACHER, "t-2")[1],
        "alice": access.create_key(TENANT, Role.STUDENT, "alice")[1],
        "bob": access.create_key(TENANT, Role.STUDENT, "bob")[1],
        "another school": access.create_key("school-b", Role.SERVICE)[1],
    }
    access.set_class(TENANT, "7a", ["t-1"], ["alice"])
    for student in ("alice", "bob"):
        app.episodes.add(Pair(student, "biology"), Kind.QUESTION, "What is osmosis?")
    try:
        with serving(app, anonymous=None) as url:
            yield {"url": url, "keys": keys, "folder": folder}
    finally:
        app.close()


def send(url: str, op: Operation, key: str | None, student: str) -> tuple[int, dict[str, Any]]:
    params = {
        "student_id": student, "subject_id": "biology", "concept": "osmosis",
        "answer_id": "e1-000000000000", "episode_id": "e1-000000000000", "file_id": "f-1",
        "class_id": "7a", "aspect": "language",
    }  # fmt: skip
    path = op.url(**{k: v for k, v in params.items() if "{" + k + "}" in op.path})
    query = {"reason": "asked", "q": "osmosis"} if op.method in ("DELETE", "GET") else {}
    bodies = {
        "turn": {"question": "osmosis?"}, "prompt": {"question": "osmosis?"},
        "addEpisode": {"kind": "question", "text": "And diffusion?"},
        "rederiveBeliefs": {"reason": "test"}, "setStance": {"stance": "partial"},
        "setClass": {"teachers": ["t-1"], "students": ["alice"]},
        "setProfile": {"value": "Urdu"},
        "correctEpisode": {"field": "verdict", "value": "right", "reason": "a mistake"},
        "putClassFile": {"name": "syllabus.md", "content": SYLLABUS},
    }  # fmt: skip
    body = bodies.get(op.name)
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(
        url + path + ("?" + urlencode(query) if query else ""),
        data=None if body is None else json.dumps(body).encode(),
        method=op.method,
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw.startswith(b"{") else {}
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


# Erasures last: what they erase is then not missed by the reads that follow.
ORDERED = sorted(OPERATIONS, key=lambda op: op.name.startswith("erase"))
PER_STUDENT = [op for op in ORDERED if "{student_id}" in op.path]


def expected(who: str, op: Operation, student: str) -> str:
    """What each caller should meet: "allowed", 401, 403 or 404."""
    role = {"service": Role.SERVICE, "alice": Role.STUDENT, "bob": Role.STUDENT}.get(who)
    if who == "another school":
        return "404"
    if who.startswith("teacher"):
        if Role.TEACHER not in op.roles:
            return "403"
        teaches = who == "teacher of alice" and student == "alice"
        if "{student_id}" in op.path and not teaches:
            return "403"
        if op.name in ("getClass", "putClassFile") and who != "teacher of alice":
            return "403"  # only the classes they teach
        return "allowed"
    assert role is not None
    if role not in op.roles:
        return "403"
    if role is Role.STUDENT and (who != student or "{student_id}" not in op.path):
        return "403"
    return "allowed"


@pytest.mark.parametrize("op", ORDERED, ids=lambda op: op.name)
def test_every_operation_answers_each_caller_by_their_role(
    world: dict[str, Any], op: Operation
) -> None:
    url, keys = world["url"], world["keys"]
    status, problem = send(url, op, None, "alice")
    assert status == 401 and problem["type"].endswith(":not-authenticated"), op.name
    assert send(url, op, "tm_0000_wrong", "alice")[0] == 401
    for who, key in keys.items():
        for student in ("alice", "bob"):
            if who in ("alice", "bob") and "{student_id}" not in op.path and student == "bob":
                continue
            status, body = send(url, op, key, student)
            wanted = expected(who, op, student)
            if wanted == "allowed":
                assert status not in (401, 403), (op.name, who, student, status, body)
            else:
                assert status == int(wanted), (op.name, who, student, status, body)
            if status == 404 and who == "another school" and op.path.startswith("/pairs/"):
                # word for word what a pair that does not exist answers
                assert body["detail"] == (
                    f"no record of {student}/biology: record an episode or upload a file for "
                    "it first"
                )


def test_a_revoked_key_is_refused_from_the_next_call(world: dict[str, Any]) -> None:
    folder = world["folder"]
    app = build_app(on_folder(SETTINGS, folder))
    try:
        key, secret = app.access.create_key(TENANT, Role.SERVICE, "short-lived")
        beliefs = next(op for op in OPERATIONS if op.name == "beliefs")
        assert send(world["url"], beliefs, secret, "alice")[0] == 200
        app.access.revoke_key(key.key_id)
    finally:
        app.close()
    assert send(world["url"], beliefs, secret, "alice")[0] == 401


def test_the_remote_client_raises_the_refusals_as_the_local_door_does(
    world: dict[str, Any],
) -> None:
    with Memory.remote(world["url"], api_key=world["keys"]["alice"]) as memory:
        assert memory.pair("alice", "biology").beliefs() == []
        with pytest.raises(ForbiddenError, match="only their own record"):
            memory.pair("bob", "biology").beliefs()
    with Memory.remote(world["url"]) as memory, pytest.raises(NotAuthenticatedError):
        memory.pair("alice", "biology").beliefs()
    with Memory.local(world["folder"], settings=SETTINGS, ready=False) as memory:
        local = memory.backend
        assert local.caller.role is Role.SERVICE  # type: ignore[attr-defined]


def test_the_local_door_acts_as_its_caller(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?")
        memory.pair("bob", "biology").record_question("What is a cell?")
        memory.set_class("7a", teachers=["t-1"], students=["alice"])
    bob = Caller(TENANT, Role.STUDENT, "bob")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=bob) as memory:
        assert memory.pair("bob", "biology").turn("cells?").memory_ids
        with pytest.raises(ForbiddenError):
            memory.pair("alice", "biology").turn("osmosis?")
        with pytest.raises(ForbiddenError):
            memory.set_class("7a", students=["bob"])
        memory.erase("bob", reason="my own record")  # a student's own erasure
    teacher = Caller(TENANT, Role.TEACHER, "t-1")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=teacher) as memory:
        assert memory.pair("alice", "biology").beliefs() == []
        assert memory.get_class("7a").students == ["alice"]
        with pytest.raises(ForbiddenError, match="may not call"):
            memory.erase("alice", "biology", reason="a teacher may not")
    stranger = Caller("school-b", Role.SERVICE, "backend")
    with (
        Memory.local(folder, settings=SETTINGS, ready=False, caller=stranger) as memory,
        pytest.raises(NotFoundError),
    ):
        memory.pair("alice", "biology").beliefs()


def test_an_mcp_server_with_a_students_key_reaches_only_that_student(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?")
        memory.pair("bob", "biology").record_question("What is a cell?")
        local = memory.backend
        _, secret = local.app.access.create_key(TENANT, Role.STUDENT, "bob")  # type: ignore[attr-defined]
        local.caller = local.app.access.caller_of(secret)  # type: ignore[attr-defined]
        server = build_server(memory)
        own = asyncio.run(
            server.call_tool("beliefs", {"student_id": "bob", "subject_id": "biology"})
        )
        assert not getattr(own, "is_error", False)
        with pytest.raises(ToolError, match="only their own record"):
            asyncio.run(
                server.call_tool("beliefs", {"student_id": "alice", "subject_id": "biology"})
            )


def test_keys_are_shown_once_listed_without_secrets_and_revoked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "tm")
    assert main(["keys", "create", "--store", store, "--role", "student", "--id", "alice"]) == 0
    secret = capsys.readouterr().out.splitlines()[0]
    assert secret.startswith("tm_")
    assert main(["keys", "list", "--store", store, "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(k["role"], k["id"], k["revoked_at"]) for k in listed] == [("student", "alice", None)]
    assert secret.split("_", 2)[2] not in json.dumps(listed)  # the secret is nowhere
    assert main(["keys", "revoke", "--store", store, listed[0]["key_id"]]) == 0
    capsys.readouterr()
    assert main(["keys", "list", "--store", store, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["revoked_at"] is not None
    assert main(["serve", "--store", store, "--insecure-no-auth", "--host", "0.0.0.0"]) == 2
    assert "127.0.0.1 only" in capsys.readouterr().err


def test_every_read_is_kept_for_the_school_and_goes_with_an_erased_student(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tm"
    marker = "Quokkaquestion"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?")
        memory.set_class("7a", teachers=["t-1"], students=["alice"])
    teacher = Caller(TENANT, Role.TEACHER, "t-1")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=teacher) as memory:
        memory.pair("alice", "biology").turn(f"{marker}?")
        memory.pair("alice", "biology").beliefs()
    alice = Caller(TENANT, Role.STUDENT, "alice")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=alice) as memory:
        told = memory.export("alice").disclosures
        readers = [(d["reader"], d["operation"], d["subject"]) for d in told]
        assert ("teacher:t-1", "turn", "biology") in readers
        assert ("teacher:t-1", "beliefs", "biology") in readers
        assert marker not in str(told)  # who and when, never what was asked
        memory.erase("alice", reason="my own record")
    app = build_app(on_folder(SETTINGS, folder))
    try:
        assert app.access.reads_of("alice") == []
        assert app.access.directory is not None
        assert app.access.directory.erased_reads(TENANT) >= 3  # the count stays
    finally:
        app.close()
    assert marker.encode() not in (folder / "access.db").read_bytes()
