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
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import boto3
import pytest
from mcp.server.mcpserver.exceptions import ToolError
from moto import mock_aws

from tutor_memory import Caller, Memory, Role
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.adapters.jwt_tokens import TokenVerifier
from tutor_memory.api.models import EpisodeRequest
from tutor_memory.api.operations import OPERATIONS, Operation
from tutor_memory.api.routes import build_resolver, resolve
from tutor_memory.bootstrap import App, build_app
from tutor_memory.cli import main
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import (
    ForbiddenError,
    IdentityProviderError,
    NotAuthenticatedError,
    NotFoundError,
)
from tutor_memory.local_backend import LocalBackend
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings, on_folder

from ..signing_keys import ISSUER, SigningKey
from .conftest import REGION, TABLE, Api, serving, set_cloud_env

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
TENANT = "default"
SYLLABUS = base64.b64encode(
    b"# Biology\n\n## Osmosis\n\nOsmosis is the movement of water across a membrane.\n"
).decode()


CALLERS = {  # who calls: their tenant, role and id
    "service": (TENANT, Role.SERVICE, "service"),
    "teacher of alice": (TENANT, Role.TEACHER, "t-1"),
    "teacher of no one": (TENANT, Role.TEACHER, "t-2"),
    "alice": (TENANT, Role.STUDENT, "alice"),
    "bob": (TENANT, Role.STUDENT, "bob"),
    "another school": ("school-b", Role.SERVICE, "service"),
}
MARKER = "Quokkaosmosis"  # in every word the two students recorded: no other tenant sees it


@dataclass
class World:
    """One store, two students' records, a class (t-1 teaches alice), and a way to send a
    request as each kind of caller: ``serve`` with API keys (the embedded store), or the API
    function's routes with the claims of a pool token (DynamoDB on moto)."""

    backend: str
    app: App  # the default tenant's
    # (operation, who, student, bad): ``bad`` sends a request the operation does not take
    send_as: Callable[..., tuple[int, dict[str, Any]]]
    folder: Path
    url: str = ""
    keys: dict[str, str] = field(default_factory=dict)


def seed(app: App) -> None:
    app.access.set_class(TENANT, "7a", ["t-1"], ["alice"])
    app.class_maps.enrol("7a", ["alice"])
    for student in ("alice", "bob"):
        app.episodes.add(Pair(student, "biology"), Kind.QUESTION, f"What is {MARKER}?")


@pytest.fixture(scope="module")
def sqlite_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The embedded store, behind ``serve`` asking for a key on every call."""
    folder = tmp_path_factory.mktemp("school-sqlite")
    app = build_app(on_folder(SETTINGS, folder))
    keys = {who: app.access.create_key(*CALLERS[who])[1] for who in CALLERS}
    seed(app)
    try:
        with serving(app, anonymous=None) as url:

            def by_key(op: Operation, who: str | None, student: str, bad: bool = False) -> Any:
                key = {None: None, "wrong": "tm_0000_wrong"}.get(who, keys.get(who or ""))
                return send(url, op, key, student, bad)

            yield World("sqlite", app, by_key, folder, url, keys)
    finally:
        app.close()


@pytest.fixture(scope="module")
def dynamodb_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """DynamoDB on moto, behind the API function's routes (one App per tenant, as
    ``lambda_app.for_tenant`` opens them), called with a pool token's claims."""
    folder = tmp_path_factory.mktemp("school-dynamodb")
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        base = SETTINGS.model_copy(
            update={"backend": "dynamodb", "table_name": TABLE, "aws_region": REGION,
                    "home": folder},
        )  # fmt: skip
        apps: dict[str, App] = {}

        def tenant_app(tenant: str) -> App:
            if tenant not in apps:  # each tenant its own index (in the cloud, OpenSearch's)
                opened = base.for_tenant(tenant)
                apps[tenant] = build_app(
                    opened.model_copy(update={"index_path": folder / f"index-{tenant}.db"})
                )
            return apps[tenant]

        resolver = build_resolver(lambda: tenant_app(TENANT), tenant_app=tenant_app)
        api = Api(lambda event, context: resolve(resolver, event, context))
        seed(tenant_app(TENANT))

        def by_claims(op: Operation, who: str | None, student: str, bad: bool = False) -> Any:
            """As API Gateway passes a pool token's verified claims; a request without any
            never reaches the function (the authoriser refuses it): the function's 401s are
            a token naming no role, and an API key (the cloud keeps none)."""
            headers: dict[str, str] = {}
            if who is None:
                claims: dict[str, str] | None = {"custom:tenant": TENANT, "sub": "u-1"}
            elif who == "wrong":
                claims, headers = None, {"X-API-Key": "tm_0000_wrong"}
            else:
                tenant, role, caller_id = CALLERS[who]
                claims = {"custom:tenant": tenant, "custom:role": role, "custom:id": caller_id}
            method, path, query, body = request_of(op, student, bad)
            status, answer = api(method, path, body, query=query, claims=claims, headers=headers)
            return status, answer if isinstance(answer, dict) else {"page": answer}

        try:
            yield World("dynamodb", tenant_app(TENANT), by_claims, folder)
        finally:
            for app in apps.values():
                app.close()


@pytest.fixture(scope="module")
def jwt_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The embedded store, behind ``serve --jwks``: each caller signs in with an identity
    provider's token (RS256, the claims a Cognito pool puts in) instead of an API key."""
    folder = tmp_path_factory.mktemp("school-jwt")
    provider, stranger = SigningKey.rsa("idp-1"), SigningKey.rsa("idp-1")  # same kid, other key
    jwks = folder / "jwks.json"
    jwks.write_text(json.dumps({"keys": [provider.public_jwk()]}))
    app = build_app(on_folder(SETTINGS, folder))
    seed(app)
    verifier = TokenVerifier(str(jwks), issuer=ISSUER)
    try:
        with serving(app, anonymous=None, tokens=verifier.claims) as url:

            def by_token(op: Operation, who: str | None, student: str, bad: bool = False) -> Any:
                if who is None:
                    return send(url, op, None, student, bad)
                signer = stranger if who == "wrong" else provider
                tenant, role, caller_id = CALLERS.get(who, CALLERS["service"])
                claims = {"custom:tenant": tenant, "custom:role": role.value,
                          "custom:id": caller_id}  # fmt: skip
                return send(url, op, signer.token(claims), student, bad)

            yield World("sqlite", app, by_token, folder, url)
    finally:
        app.close()


@pytest.fixture(scope="module", params=["sqlite", "dynamodb", "jwt"])
def world(request: pytest.FixtureRequest) -> World:
    found: World = request.getfixturevalue(f"{request.param}_world")
    return found


def request_of(
    op: Operation, student: str, bad: bool = False
) -> tuple[str, str, dict[str, str] | None, dict[str, Any] | None]:
    """The operation's method, path, query and body, for ``student``'s biology (``bad``: no
    query, and a body with a field no operation takes)."""
    params = {
        "student_id": student, "subject_id": "biology", "concept": "osmosis",
        "answer_id": "e1-000000000000", "episode_id": "e1-000000000000", "file_id": "f-1",
        "class_id": "7a", "aspect": "language",
    }  # fmt: skip
    path = op.url(**{k: v for k, v in params.items() if "{" + k + "}" in op.path})
    query = {"reason": "asked", "q": "osmosis"} if op.method in ("DELETE", "GET") else None
    bodies = {
        "turn": {"question": "osmosis?"}, "prompt": {"question": "osmosis?"},
        "addEpisode": {"kind": "question", "text": "And diffusion?"},
        "rederiveBeliefs": {"reason": "test"}, "setStance": {"stance": "partial"},
        "setClass": {"teachers": ["t-1"], "students": ["alice"]},
        "setProfile": {"value": "Urdu"},
        "correctEpisode": {"field": "verdict", "value": "right", "reason": "a mistake"},
        "putClassFile": {"name": "syllabus.md", "content": SYLLABUS},
    }  # fmt: skip
    if bad:
        return op.method, path, None, {"bogus": 1} if op.method in ("POST", "PUT") else None
    return op.method, path, query, bodies.get(op.name)


def send(
    url: str, op: Operation, key: str | None, student: str, bad: bool = False
) -> tuple[int, dict[str, Any]]:
    method, path, query, body = request_of(op, student, bad)
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(
        url + path + ("?" + urlencode(query) if query else ""),
        data=None if body is None else json.dumps(body).encode(),
        method=method,
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


def expected(who: str, op: Operation, student: str, backend: str = "sqlite") -> str:
    """What each caller should meet: "allowed", 401, 403 or 404. Another school's service
    meets a 404 in the embedded store (a store of one tenant); in the cloud its requests are
    served by its own tenant's stores, where these students' records do not exist."""
    role = {"service": Role.SERVICE, "alice": Role.STUDENT, "bob": Role.STUDENT}.get(who)
    if who == "another school":
        return "404" if backend == "sqlite" else "its own"
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
def test_every_operation_answers_each_caller_by_their_role(world: World, op: Operation) -> None:
    status, problem = world.send_as(op, None, "alice")
    assert status == 401 and problem["type"].endswith(":not-authenticated"), op.name
    assert world.send_as(op, "wrong", "alice")[0] == 401
    for who in CALLERS:
        for student in ("alice", "bob"):
            if who in ("alice", "bob") and "{student_id}" not in op.path and student == "bob":
                continue
            status, body = world.send_as(op, who, student)
            wanted = expected(who, op, student, world.backend)
            if wanted == "allowed":
                assert status not in (401, 403), (op.name, who, student, status, body)
            elif wanted == "its own":  # another tenant: none of these students' words
                assert status not in (401, 403, 500) and MARKER not in json.dumps(body), (
                    op.name, who, student, status, body,
                )  # fmt: skip
            else:
                assert status == int(wanted), (op.name, who, student, status, body)
            if status == 404 and wanted == "404" and op.path.startswith("/pairs/"):
                # another tenant's: word for word what a pair that does not exist answers
                assert body["detail"] == (
                    f"no record of {student}/biology: record an episode or upload a file for "
                    "it first"
                )


@pytest.mark.parametrize("op", ORDERED, ids=lambda op: op.name)
def test_a_caller_is_refused_before_the_request_is_judged(world: World, op: Operation) -> None:
    """What a role may not do is a 403 (401 without a caller, another tenant's 404) whatever
    it sends: a request the operation does not take is judged (a 422) only for a caller who
    may make it. Before, Powertools judged the request first: a student's rederive with no
    reason, a teacher's erasure with none, answered 422."""
    status, problem = world.send_as(op, None, "alice", True)
    assert status == 401 and problem["type"].endswith(":not-authenticated"), op.name
    for who in CALLERS:
        for student in ("alice", "bob"):
            wanted = expected(who, op, student, world.backend)
            if wanted in ("401", "403", "404"):
                status, body = world.send_as(op, who, student, True)
                assert status == int(wanted), (op.name, who, student, status, body)
    if op.method in ("POST", "PUT"):  # the service may call each: its bad request is a 422
        status, body = world.send_as(op, "service", "alice", True)
        assert status == 422 and "bogus" in body["detail"], (op.name, status, body)


def test_a_revoked_key_is_refused_from_the_next_call(sqlite_world: World) -> None:
    world = sqlite_world
    folder = world.folder
    app = build_app(on_folder(SETTINGS, folder))
    try:
        key, secret = app.access.create_key(TENANT, Role.SERVICE, "short-lived")
        beliefs = next(op for op in OPERATIONS if op.name == "beliefs")
        assert send(world.url, beliefs, secret, "alice")[0] == 200
        app.access.revoke_key(key.key_id)
    finally:
        app.close()
    assert send(world.url, beliefs, secret, "alice")[0] == 401


def test_the_remote_client_raises_the_refusals_as_the_local_door_does(
    sqlite_world: World,
) -> None:
    world = sqlite_world
    with Memory.remote(world.url, api_key=world.keys["alice"]) as memory:
        assert memory.pair("alice", "biology").beliefs() == []
        with pytest.raises(ForbiddenError, match="only their own record"):
            memory.pair("bob", "biology").beliefs()
    with Memory.remote(world.url) as memory, pytest.raises(NotAuthenticatedError):
        memory.pair("alice", "biology").beliefs()
    with Memory.local(world.folder, settings=SETTINGS, ready=False) as memory:
        local = memory.backend
        assert local.caller.role is Role.SERVICE  # type: ignore[attr-defined]


@dataclass
class Doors:
    """The library's local door over one store, opened as any caller: the embedded store in a
    folder, or DynamoDB on moto (the default tenant's, as the API function opens it)."""

    backend: str
    settings: Settings

    @contextmanager
    def open(self, caller: Caller | None = None) -> Iterator[Memory]:
        with Memory(LocalBackend(build_app(self.settings), caller)) as memory:
            yield memory

    def items(self) -> list[dict[str, Any]]:
        """DynamoDB's every item (a raw scan past the store)."""
        client = boto3.client("dynamodb", region_name=REGION)
        pages = client.get_paginator("scan").paginate(TableName=self.settings.table_name)
        return [item for page in pages for item in page["Items"]]


@pytest.fixture(params=["sqlite", "dynamodb"])
def doors(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Doors]:
    folder = tmp_path / "tm"
    if request.param == "sqlite":
        yield Doors("sqlite", on_folder(SETTINGS, folder))
        return
    # a table of its own: the module's world keeps moto's state alive meanwhile
    table = f"{TABLE}-{uuid.uuid4().hex[:8]}"
    with mock_aws():
        DynamoStore(table, REGION).create_table()
        settings = SETTINGS.model_copy(
            update={"backend": "dynamodb", "table_name": table, "aws_region": REGION,
                    "home": folder, "index_path": tmp_path / "index.db"},
        )  # fmt: skip
        yield Doors("dynamodb", settings)


def test_the_local_door_acts_as_its_caller(doors: Doors) -> None:
    with doors.open() as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?")
        memory.pair("bob", "biology").record_question("What is a cell?")
        memory.set_class("7a", teachers=["t-1"], students=["alice"])
    bob = Caller(TENANT, Role.STUDENT, "bob")
    with doors.open(bob) as memory:
        assert memory.pair("bob", "biology").turn("cells?").memory_ids
        with pytest.raises(ForbiddenError):
            memory.pair("alice", "biology").turn("osmosis?")
        with pytest.raises(ForbiddenError):
            memory.set_class("7a", students=["bob"])
        memory.erase("bob", reason="my own record")  # a student's own erasure
    teacher = Caller(TENANT, Role.TEACHER, "t-1")
    with doors.open(teacher) as memory:
        assert memory.pair("alice", "biology").beliefs() == []
        assert memory.get_class("7a").students == ["alice"]
        with pytest.raises(ForbiddenError, match="none of the teacher's classes"):
            memory.pair("bob", "biology").beliefs()
        with pytest.raises(ForbiddenError, match="may not call"):
            memory.erase("alice", "biology", reason="a teacher may not")
    with doors.open() as memory:  # the roster replaced: t-1 no longer teaches alice
        memory.set_class("7a", teachers=["t-2"], students=["alice"])
    with doors.open(teacher) as memory, pytest.raises(ForbiddenError):
        memory.pair("alice", "biology").beliefs()
    with doors.open(Caller(TENANT, Role.TEACHER, "t-2")) as memory:
        assert memory.pair("alice", "biology").beliefs() == []
    stranger = Caller("school-b", Role.SERVICE, "backend")
    with doors.open(stranger) as memory, pytest.raises(NotFoundError):
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
    # the MCP server started with the revoked key: refused, in the words of its own flag
    assert main(["mcp", "--store", store, "--key", secret]) == 1
    err = capsys.readouterr().err
    assert "--key (or TUTOR_MEMORY_API_KEY) is no valid key of this store" in err
    assert "Authorization" not in err and secret not in err


def test_every_read_is_kept_for_the_school_and_goes_with_an_erased_student(
    doors: Doors,
) -> None:
    marker = "Quokkaquestion"
    with doors.open() as memory:
        memory.pair("alice", "biology").record_question("What is osmosis?")
        memory.set_class("7a", teachers=["t-1"], students=["alice", "bob"])
    teacher = Caller(TENANT, Role.TEACHER, "t-1")
    with doors.open(teacher) as memory:
        memory.pair("alice", "biology").turn(f"{marker}?")
        memory.pair("alice", "biology").beliefs()
    alice = Caller(TENANT, Role.STUDENT, "alice")
    with doors.open(alice) as memory:
        told = memory.export("alice").disclosures
        readers = [(d["reader"], d["operation"], d["subject"]) for d in told]
        assert readers[:2] == [("teacher:t-1", "turn", "biology"), ("teacher:t-1", "beliefs",
                                                                    "biology")]  # fmt: skip
        assert marker not in str(told)  # who and when, never what was asked
        memory.erase("alice", reason="my own record")
    app = build_app(doors.settings)
    try:
        assert app.access.reads_of("alice") == []
        assert app.access.directory is not None
        assert app.access.directory.erased_reads(TENANT) >= 3  # the count stays
        assert app.access.get_class(TENANT, "7a").students == ("bob",)
        assert not app.access.directory.teaches(TENANT, "t-1", "alice")
    finally:
        app.close()
    if doors.backend == "sqlite":
        assert marker.encode() not in (doors.settings.home / "access.db").read_bytes()
    else:  # no item of the table names her in the roster, a teacher's classes or a read
        roster = ("ROSTER", "TEACHER#", "READS")
        for item in doors.items():
            text = json.dumps(item)
            assert marker not in text
            if item["pk"]["S"].startswith(roster):
                assert "alice" not in text, item


def test_the_cloud_keeps_no_api_keys_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_cloud_env(tmp_path, monkeypatch)
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        assert main(["keys", "create", "--role", "service"]) == 1
        assert "the cloud keeps no API keys" in capsys.readouterr().err
        assert main(["keys", "list"]) == 1
        app = build_app()
        try:
            with pytest.raises(NotAuthenticatedError):  # a presented key is no one's
                app.access.caller_of("tm_0123_secret")
        finally:
            app.close()


def test_a_forged_token_and_bad_token_options_are_refused(
    jwt_world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``Memory.remote(token=…)`` against ``serve --jwks``: a token signed by a key that only
    claims the provider's kid raises as a bad key does; the CLI refuses options it cannot
    serve before it listens."""
    forged = SigningKey.rsa("idp-1").token(
        {"custom:tenant": TENANT, "custom:role": "service", "custom:id": "x"}
    )
    with (
        Memory.remote(jwt_world.url, token=forged) as memory,
        pytest.raises(NotAuthenticatedError, match="signature does not verify"),
    ):
        memory.pair("alice", "biology").beliefs()
    with pytest.raises(ValueError, match="an API key or a token, not both"):
        Memory.remote(jwt_world.url, token="a.b.c", api_key="tm_1_x")
    store = str(tmp_path / "tm")
    assert main(["serve", "--store", store, "--issuer", ISSUER]) == 2
    assert "need --jwks" in capsys.readouterr().err
    assert main(["serve", "--store", store, "--jwks", str(tmp_path / "none.json")]) == 2
    assert "cannot read the JWKS file" in capsys.readouterr().err


def test_a_students_token_reads_only_their_own_record(tmp_path: Path) -> None:
    provider = SigningKey.rsa("idp-1")
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [provider.public_jwk()]}))
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    seed(app)
    student = {"custom:tenant": TENANT, "custom:role": "student", "custom:id": "alice"}
    try:
        verifier = TokenVerifier(str(jwks), issuer=ISSUER)
        with serving(app, anonymous=None, tokens=verifier.claims) as url:
            with Memory.remote(url, token=provider.token(student)) as memory:
                assert memory.pair("alice", "biology").beliefs() == []
                assert MARKER in memory.pair("alice", "biology").turn("osmosis?").block
                with pytest.raises(ForbiddenError, match="only their own record"):
                    memory.pair("bob", "biology").beliefs()
            nameless = {k: v for k, v in student.items() if k != "custom:tenant"}
            roleless = {k: v for k, v in student.items() if k != "custom:role"}
            beliefs = next(op for op in OPERATIONS if op.name == "beliefs")
            for claims, why in ((nameless, "names no tenant"), (roleless, "custom:role is none")):
                status, problem = send(url, beliefs, provider.token(claims), "alice")
                assert status == 401 and why in problem["detail"], problem
            expired = provider.token(student, expires_at=1_000_000_000)
            status, problem = send(url, beliefs, expired, "alice")
            assert status == 401 and "expired" in problem["detail"]
        # the provider's keys out of reach: the token may be good, so a 503, not a 401
        unreachable = TokenVerifier("http://127.0.0.1:9/jwks.json", issuer=ISSUER)
        with serving(app, anonymous=None, tokens=unreachable.claims) as url:
            status, problem = send(url, beliefs, provider.token(student), "alice")
            assert status == 503
            assert problem["type"].endswith(":identity-provider-unavailable")
            with (
                Memory.remote(url, token=provider.token(student)) as memory,
                pytest.raises(IdentityProviderError),
            ):
                memory.pair("alice", "biology").beliefs()
    finally:
        app.close()


# --- every operation x every caller through the library's local door and MCP ------------------

ANSWER = "e1-000000000000"  # an answer id no one recorded: allowed callers meet a 404 for it

LIBRARY_CALLS: dict[str, Callable[[Memory, str, Path], Any]] = {
    "turn": lambda m, s, _: m.pair(s, "biology").turn("osmosis?"),
    "prompt": lambda m, s, _: m.pair(s, "biology").prompt("osmosis?"),
    "addEpisode": lambda m, s, _: m.pair(s, "biology").record(
        EpisodeRequest(kind=Kind.QUESTION, text="And diffusion?")
    ),
    "correctEpisode": lambda m, s, _: m.pair(s, "biology").correct(
        ANSWER, "verdict", "right", "a mistake"
    ),
    "listEpisodes": lambda m, s, _: m.pair(s, "biology").episodes(),
    "beliefs": lambda m, s, _: m.pair(s, "biology").beliefs(),
    "beliefHistory": lambda m, s, _: m.pair(s, "biology").belief_history("osmosis"),
    "rederiveBeliefs": lambda m, s, _: m.pair(s, "biology").rederive(reason="test"),
    "setStance": lambda m, s, _: m.pair(s, "biology").set_stance(ANSWER, "partial"),
    "sources": lambda m, s, _: m.pair(s, "biology").sources(ANSWER),
    "conceptMap": lambda m, s, _: m.pair(s, "biology").map(),
    "report": lambda m, s, _: m.pair(s, "biology").report(),
    "whyRecalled": lambda m, s, _: m.pair(s, "biology").recall("osmosis?"),
    "verifyChain": lambda m, s, _: m.pair(s, "biology").verify(),
    "removeFile": lambda m, s, _: m.pair(s, "biology").remove_file("f-1"),
    "eraseEpisode": lambda m, s, _: m.erase(s, "biology", ANSWER, reason="asked"),
    "erasePair": lambda m, s, _: m.erase(s, "biology", reason="asked"),
    "eraseStudent": lambda m, s, _: m.erase(s, reason="asked"),
    "exportPair": lambda m, s, _: m.pair(s, "biology").export(),
    "exportStudent": lambda m, s, _: m.export(s),
    "getProfile": lambda m, s, _: m.profile(s),
    "setProfile": lambda m, s, _: m.set_profile(s, "language", "Urdu"),
    "retractProfile": lambda m, s, _: m.retract_profile(s, "language"),
    "setClass": lambda m, s, _: m.set_class("7a", teachers=["t-1"], students=["alice"]),
    "getClass": lambda m, s, _: m.get_class("7a"),
    "putClassFile": lambda m, s, syllabus: m.ingest_class("7a", "biology", syllabus),
}

MCP_ARGUMENTS: dict[str, dict[str, Any]] = {  # each tool's arguments beside the pair's ids
    "memory_block": {"question": "osmosis?"},
    "record": {"kind": "question", "text": "And diffusion?"},
    "correct": {"episode_id": ANSWER, "field": "verdict", "value": "right", "reason": "a mistake"},
    "recall": {"question": "osmosis?"},
    "belief_history": {"concept": "osmosis"},
    "set_profile": {"aspect": "language", "value": "Urdu"},
    "retract_profile": {"aspect": "language"},
    "erase": {"reason": "asked"},
}
NO_SUBJECT = ("profile", "set_profile", "retract_profile")


def _outcome(error: Exception | None) -> str:
    """What a call met, in the REST test's words: "allowed" unless refused by the policy."""
    text = str(error)
    if isinstance(error, ForbiddenError) or "(the caller is a" in text:
        return "403"
    if isinstance(error, NotFoundError | ToolError) and "no record of" in text:
        return "404"
    return "allowed"


def _seeded_store(tmp_path_factory: pytest.TempPathFactory, name: str) -> tuple[Path, Path]:
    """A store seeded as the REST worlds are, and a syllabus file to give a class."""
    folder = tmp_path_factory.mktemp(name)
    app = build_app(on_folder(SETTINGS, folder))
    try:
        seed(app)
    finally:
        app.close()
    syllabus = folder.parent / f"{folder.name}-syllabus.md"
    syllabus.write_bytes(base64.b64decode(SYLLABUS))
    return folder, syllabus


@pytest.fixture(scope="module")
def library_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _seeded_store(tmp_path_factory, "school-library")


@pytest.fixture(scope="module")
def mcp_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _seeded_store(tmp_path_factory, "school-mcp")


@pytest.mark.parametrize("op", [op for op in ORDERED if op.library], ids=lambda op: op.name)
def test_the_library_door_answers_each_caller_of_every_operation_by_role(
    library_store: tuple[Path, Path], op: Operation
) -> None:
    folder, syllabus = library_store
    call = LIBRARY_CALLS[op.name]
    for who, (tenant, role, caller_id) in CALLERS.items():
        caller = Caller(tenant, role, caller_id)
        for student in ("alice", "bob"):
            with Memory.local(folder, settings=SETTINGS, ready=False, caller=caller) as memory:
                try:
                    call(memory, student, syllabus)
                    error: Exception | None = None
                except (ForbiddenError, NotFoundError) as exc:  # past the check: an unknown id
                    error = exc
            wanted = expected(who, op, student)
            assert _outcome(error) == wanted, (op.name, who, student, error)


@pytest.mark.parametrize("op", [op for op in ORDERED if op.mcp], ids=lambda op: op.name)
def test_the_mcp_tools_answer_each_caller_of_every_operation_by_role(
    mcp_store: tuple[Path, Path], op: Operation
) -> None:
    """Each tool, as the MCP server acting for each caller (``tutor-memory mcp --key``)."""
    folder, _ = mcp_store
    assert op.mcp is not None
    for who, (tenant, role, caller_id) in CALLERS.items():
        caller = Caller(tenant, role, caller_id)
        for student in ("alice", "bob"):
            arguments = {"student_id": student, **MCP_ARGUMENTS.get(op.mcp, {})}
            if op.mcp not in NO_SUBJECT and op.name not in ("eraseStudent", "exportStudent"):
                arguments["subject_id"] = "biology"
            if op.name == "eraseEpisode":
                arguments["episode_id"] = ANSWER
            with Memory.local(folder, settings=SETTINGS, ready=False, caller=caller) as memory:
                try:
                    asyncio.run(build_server(memory).call_tool(op.mcp, arguments))
                    error: Exception | None = None
                except ToolError as exc:
                    error = exc
            wanted = expected(who, op, student)
            assert _outcome(error) == wanted, (op.name, who, student, error)
