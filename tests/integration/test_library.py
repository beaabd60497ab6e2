"""The library door: ``Memory.local`` and ``Memory.remote`` answer the same typed methods the
same way; the remote one signs every call (SigV4), checked by recomputing the signature on the
server's side; ``AsyncMemory`` is the awaited twin."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from tutor_memory import AsyncMemory, Memory, NotServedError, PairMemory
from tutor_memory.api.client import SignedClient, region_of
from tutor_memory.api.local_server import make_server
from tutor_memory.api.models import (
    BeliefResponse,
    EpisodeResponse,
    RecallResponse,
    TurnResponse,
)
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ForbiddenError, NotFoundError, ValidationError
from tutor_memory.library import RemoteBackend
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

# No test waits on the machine's speed: the turn's deadline is the longest settings allow.
SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
REGION = "eu-west-1"
KEYS = Credentials("AKIDTUTORMEMORYTEST", "the-secret-key", "the-session-token")


def conversation(alice: PairMemory) -> dict[str, Any]:
    """One short conversation through the typed methods; what a user would look at."""
    asked = alice.record_question("What is osmosis?", ref="m1")
    checked = alice.record_check(
        "Explain osmosis in one line", topic="osmosis", verdict="wrong", predicted_mastery=0.4
    )
    taught = alice.record_question("Remember that in our class the Golgi body is the post office")
    quiz = alice.record_quiz("Quiz 1", score=3, maximum=5, topics=["osmosis"])
    turn = alice.turn("what did I get wrong so far?")
    answer = alice.record_answer("You missed osmosis once.", recalled_ids=turn.memory_ids)
    again = alice.record_answer(
        "You missed osmosis once.", recalled_ids=turn.memory_ids, idempotency_key="msg-7"
    )
    retried = alice.record_answer(
        "You missed osmosis once.", recalled_ids=turn.memory_ids, idempotency_key="msg-7"
    )
    return {
        "kinds": [e.kind for e in (asked, checked, taught, quiz, answer)],
        "belief": checked.belief,
        "taught": taught.taught,
        "block has the belief": "- struggles with osmosis (0.67)" in turn.block,
        "asked is recalled": asked.id in turn.memory_ids,
        "retry wrote once": (again.created, retried.created, again.id == retried.id),
        "beliefs": [b.line for b in alice.beliefs()],
        "history": [b.reason.split(":")[0] for b in alice.belief_history("Osmosis").beliefs],
        "map": sorted(c.name for c in alice.map().concepts.values()),
        "report checks": alice.report().checks.line,
        "report history": (alice.report(history="osmosis").history or object()).__class__.__name__,
        "chain": (alice.verify().intact, alice.verify().episodes),
    }


EXPECTED = {
    "kinds": ["question", "check", "taught", "quiz", "answer"],
    "belief": "struggles with osmosis (0.67)",
    "taught": "Golgi body",
    "block has the belief": True,
    "asked is recalled": True,
    "retry wrote once": (True, False, True),
    "beliefs": ["struggles with osmosis (0.67)"],
    "history": ["first check on it"],
    "map": ["Golgi body"],
    "chain": (True, 6),
}


def shown(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k in EXPECTED}


# --- local ----------------------------------------------------------------------------------


def test_a_local_memory_is_created_on_first_use_and_answers_every_method(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "yet"
    with Memory.local(folder, settings=SETTINGS) as memory:
        result = conversation(memory.pair("alice", "biology"))
    assert (folder / "memory.db").exists()
    assert shown(result) == EXPECTED
    assert result["report history"] == "ReportHistory"
    assert result["report checks"].startswith("1 check recorded (0 right, 1 wrong)")


def test_a_local_memory_reads_a_file_into_the_map_and_recalls(tmp_path: Path) -> None:
    name, data = sample_subject()[0]
    (tmp_path / name).write_bytes(data)
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        bob = memory.pair("bob", "biology")
        ingested = bob.ingest(tmp_path / name)
        assert ingested.concepts and not ingested.already_read
        assert bob.ingest(tmp_path / name).already_read
        assert set(ingested.concepts) <= {c.name for c in bob.map().concepts.values()}
        asked = bob.record_question("What is osmosis?")
        assert asked.id in [i.id for i in bob.recall("osmosis").items]


def test_the_pair_is_bound_by_a_handle_and_pairs_never_mix(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        memory.pair("alice", "biology").record_check("c", topic="osmosis", verdict="wrong")
        memory.pair("bob", "biology").record_question("hello")
        assert memory.pair("bob", "biology").beliefs() == []
        with pytest.raises(NotFoundError, match="no record of carol/biology"):
            memory.pair("carol", "biology").turn("hi")


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda p: p.record_check("c", topic="osmosis", verdict="maybe"), "verdict"),
        (lambda p: p.record_quiz("q", score=3, maximum=0), "maximum"),
        (lambda p: p.record_taught("Osmosis is boring"), "not an instruction"),
        (lambda p: p.record_answer("a", recalled_ids=["e9-000000000000"]), "no episode"),
        (lambda p: p.record_question(""), "text"),
    ],
)
def test_bad_input_is_a_validation_error_that_names_the_field(
    tmp_path: Path, call: Any, says: str
) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        with pytest.raises(ValidationError, match=says):
            call(memory.pair("alice", "biology"))
        with pytest.raises(ValidationError, match="student_id"):
            memory.pair("bad id", "biology")


# --- remote: the real local server, every signature checked ---------------------------------


class SignatureChecking:
    """The API's resolver behind a SigV4 check, as API Gateway's IAM authoriser does it: the
    signature is recomputed with botocore from the headers the request says it signed."""

    def __init__(self, inner: Any, base_url: str) -> None:
        self.inner = inner
        self.base_url = base_url
        self.seen: list[dict[str, str]] = []
        self.statuses: list[int] = []

    def valid(self, event: dict[str, Any], headers: dict[str, str]) -> bool:
        found = re.fullmatch(
            r"AWS4-HMAC-SHA256 Credential=(\w+)/\d{8}/([\w-]+)/execute-api/aws4_request, "
            r"SignedHeaders=([\w;-]+), Signature=([0-9a-f]{64})",
            headers.get("authorization", ""),
        )
        if found is None or found.group(1) != KEYS.access_key or found.group(2) != REGION:
            return False
        signed = found.group(3).split(";")
        query = event.get("queryStringParameters")
        # SigV4 encodes a space as %20, never "+"
        url = (
            self.base_url
            + event["path"]
            + ("?" + urlencode(query, quote_via=quote) if query else "")
        )
        body = (event.get("body") or "").encode("utf-8") or None
        request = AWSRequest(
            method=event["httpMethod"],
            url=url,
            data=body,
            headers={h: headers[h] for h in signed if h != "host"},
        )
        request.context["timestamp"] = headers["x-amz-date"]
        signer = SigV4Auth(KEYS.get_frozen_credentials(), "execute-api", REGION)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        return expected == found.group(4) and "host" in signed

    def resolve(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        headers = {k.lower(): v for k, v in event["headers"].items()}
        self.seen.append(headers)
        if not self.valid(event, headers):
            return {
                "statusCode": 403,
                "headers": {"Content-Type": "application/json"},
                "body": json.dumps({"message": "The request signature we calculated does not "
                                    "match the signature you provided."}),
            }  # fmt: skip
        response: dict[str, Any] = self.inner.resolve(event, context)
        self.statuses.append(int(response["statusCode"]))
        return response


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, SignatureChecking]]:
    app = build_app(on_folder(SETTINGS, tmp_path / "served"))
    checking = SignatureChecking(build_resolver(lambda: app), "")
    server = make_server(checking, "127.0.0.1", 0)  # type: ignore[arg-type]
    checking.base_url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield checking.base_url, checking
    finally:
        server.shutdown()
        server.server_close()
        app.close()


def test_a_remote_memory_answers_as_the_local_one_with_every_call_signed(
    served: tuple[str, SignatureChecking], tmp_path: Path
) -> None:
    url, checking = served
    with Memory.remote(url, region=REGION, credentials=KEYS) as memory:
        remote = conversation(memory.pair("alice", "biology"))
    with Memory.local(tmp_path / "local", settings=SETTINGS) as memory:
        local = conversation(memory.pair("alice", "biology"))
    assert shown(remote) == EXPECTED
    assert remote == local  # the same answers, whichever side of the API
    assert len(checking.seen) >= 15
    for headers in checking.seen:
        assert headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDTUTOR")
        assert headers["x-amz-security-token"] == "the-session-token"
        assert re.fullmatch(r"\d{8}T\d{6}Z", headers["x-amz-date"])


def test_the_remote_client_takes_a_201_for_a_new_episode_and_a_200_for_its_retry(
    served: tuple[str, SignatureChecking],
) -> None:
    url, checking = served
    alice = Memory.remote(url, region=REGION, credentials=KEYS).pair("alice", "biology")
    first = alice.record_question("What is osmosis?", idempotency_key="msg-1")
    again = alice.record_question("What is osmosis?", idempotency_key="msg-1")
    assert checking.statuses == [201, 200]
    assert first.created and not again.created and again.id == first.id
    alice.record_check("Check on pH", topic="pH scale", verdict="wrong")
    assert [b.concept_key for b in alice.belief_history("PH  Scale").beliefs] == ["ph scale"]


def test_a_remote_call_with_the_wrong_secret_is_refused(
    served: tuple[str, SignatureChecking],
) -> None:
    url, _ = served
    forged = Credentials(KEYS.access_key, "not-the-secret", KEYS.token)
    # API Gateway's refusal (its own body, not a problem) is the domain's ForbiddenError
    with pytest.raises(ForbiddenError, match="The request signature"):
        Memory.remote(url, region=REGION, credentials=forged).pair("a", "b").record_question("hi")


def test_remote_errors_are_the_domain_errors_the_api_mapped(
    served: tuple[str, SignatureChecking],
) -> None:
    url, _ = served
    alice = Memory.remote(url, region=REGION, credentials=KEYS).pair("alice", "biology")
    with pytest.raises(NotFoundError, match="no record of alice/biology"):
        alice.beliefs()
    with pytest.raises(ValidationError, match="not an instruction"):
        alice.record_taught("Osmosis is boring")
    with pytest.raises(ValidationError, match="verdict"):
        alice.record_check("c", topic="osmosis", verdict="maybe")  # type: ignore[arg-type]
    with pytest.raises(NotServedError):
        alice.ingest("notes.txt")


def test_the_region_is_read_from_an_api_gateway_url() -> None:
    assert region_of("https://abc123.execute-api.ap-southeast-3.amazonaws.com/prod") == (
        "ap-southeast-3"
    )
    assert region_of("http://127.0.0.1:8765") is None


# --- the asynchronous twin ------------------------------------------------------------------


def test_the_async_twin_awaits_the_same_answers_locally_and_remotely(
    served: tuple[str, SignatureChecking], tmp_path: Path
) -> None:
    url, _ = served

    async def talk(
        memory: AsyncMemory,
    ) -> tuple[EpisodeResponse, TurnResponse, list[BeliefResponse]]:
        async with memory:
            alice = memory.pair("alice", "biology")
            checked = await alice.record_check("Check", topic="osmosis", verdict="wrong")
            # Two turns at once: neither blocks the loop, both see the belief.
            first, second = await asyncio.gather(
                alice.turn("what did I get wrong?"), alice.turn("what did I get wrong?")
            )
            assert first.block == second.block
            return checked, first, await alice.beliefs()

    for memory in (
        AsyncMemory.local(tmp_path / "async", settings=SETTINGS),
        AsyncMemory.remote(url, region=REGION, credentials=KEYS),
    ):
        checked, turn, beliefs = asyncio.run(talk(memory))
        assert checked.belief == "struggles with osmosis (0.67)"
        assert "- struggles with osmosis (0.67)" in turn.block
        assert [b.line for b in beliefs] == ["struggles with osmosis (0.67)"]


def test_verify_counts_an_erased_episode_as_the_api_does(
    served: tuple[str, SignatureChecking], tmp_path: Path
) -> None:
    """The chain's answer is built once (``ChainResponse.of``): locally as over REST, an
    erasure is counted in ``erased`` as its report text says."""
    url, _ = served
    answers = []
    for memory in (
        Memory.local(tmp_path / "local", settings=SETTINGS),
        Memory.remote(url, region=REGION, credentials=KEYS),
    ):
        with memory:
            alice = memory.pair("alice", "biology")
            asked = alice.record_question("What is osmosis?")
            alice.record_question("And diffusion?")
            memory.erase("alice", "biology", asked.id, reason="asked by the student")
            answers.append(alice.verify())
    local, remote = answers
    assert local.erased == remote.erased == 1
    assert "1 erased" in local.report
    same = {"head_hash", "report"}  # the hash differs with the time of writing
    assert local.model_dump(exclude=same) == remote.model_dump(exclude=same)
    assert local.report.split(", head")[0] == remote.report.split(", head")[0]


def test_recall_answers_the_same_model_locally_and_over_rest(
    served: tuple[str, SignatureChecking], tmp_path: Path
) -> None:
    """``GET …/recall?q=`` is the remote door's recall: the same ``RecallResponse`` as the
    local one, item for item (ids and times aside: each store writes its own)."""
    url, _ = served
    at = datetime(2026, 3, 2, 9, tzinfo=UTC)
    answers = []
    for memory in (
        Memory.local(tmp_path / "local", settings=SETTINGS),
        Memory.remote(url, region=REGION, credentials=KEYS),
    ):
        with memory:
            alice = memory.pair("alice", "biology")
            asked = alice.record_question("What is osmosis?", ref="m1", at=at)
            alice.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=at)
            found = alice.recall("osmosis", at=at + timedelta(days=1))
            assert isinstance(found, RecallResponse)
            assert asked.id in [i.id for i in found.items]
            answers.append(
                found.model_dump(exclude={"items": {"__all__": {"id", "collapsed_ids"}}})
            )
            if isinstance(memory.backend, RemoteBackend):
                with pytest.raises(ValidationError, match="question"):
                    alice.recall()
    local, remote = answers
    assert local == remote
    assert local["concepts"] == ["osmosis"] and "m1" in [i["ref"] for i in local["items"]]


@pytest.fixture
def served_plain(tmp_path: Path) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """``serve`` as it runs on a laptop: no authoriser in front; the headers each call sent."""
    app = build_app(on_folder(SETTINGS, tmp_path / "plain"))
    resolver = build_resolver(lambda: app)
    seen: list[dict[str, str]] = []

    class Recording:
        def resolve(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
            seen.append({k.lower(): v for k, v in event["headers"].items()})
            answer: dict[str, Any] = resolver.resolve(event, context)
            return answer

    server = make_server(Recording(), "127.0.0.1", 0)  # type: ignore[arg-type]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", seen
    finally:
        server.shutdown()
        server.server_close()
        app.close()


@pytest.fixture
def no_aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A machine with no AWS region and no credentials anywhere botocore looks."""
    for name in (
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_PROFILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.mark.usefixtures("no_aws")
def test_a_local_serve_is_reached_unsigned_with_no_aws_setup(
    served_plain: tuple[str, list[dict[str, str]]],
) -> None:
    url, seen = served_plain
    with Memory.remote(url) as memory:
        alice = memory.pair("alice", "biology")
        checked = alice.record_check("Explain osmosis", topic="osmosis", verdict="wrong")
        assert checked.belief == "struggles with osmosis (0.67)"
        assert [b.line for b in alice.beliefs()] == ["struggles with osmosis (0.67)"]
    localhost = url.replace("127.0.0.1", "localhost")
    assert Memory.remote(localhost).pair("alice", "biology").verify().intact
    assert seen and not any("authorization" in headers for headers in seen)


@pytest.mark.usefixtures("no_aws")
def test_signing_is_kept_for_api_gateway_and_chosen_by_the_caller() -> None:
    gateway = "https://abc123.execute-api.eu-west-1.amazonaws.com/prod"
    assert SignedClient(gateway).signing  # the region read from the URL
    with pytest.raises(ValidationError, match="region"):
        SignedClient("https://api.example.org/prod")  # signed, and no region anywhere
    assert SignedClient("https://api.example.org/prod", signing=False).signing is False
    assert SignedClient("http://127.0.0.1:8799", signing=True, region=REGION).signing
    assert SignedClient("http://127.0.0.1:8799", credentials=KEYS, region=REGION).signing
    assert not SignedClient("http://[::1]:8799").signing
    assert SignedClient("http://10.0.0.5:8799", region=REGION).signing  # not this machine


class Killed(BaseException):
    """The process dying mid-write (nothing catches it)."""


def test_a_local_retry_finishes_what_the_first_attempt_left_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The idempotent retry is the use case's, so the local door gets it as REST does: the
    retry catches the pair's beliefs up with the log, whichever episode it retries."""
    from tutor_memory.usecases.log import APPLIED_BELIEFS

    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        app = memory.backend.app  # type: ignore[attr-defined]
        alice = memory.pair("alice", "biology")
        asked = alice.record_question("What is osmosis?", idempotency_key="q-1")
        store = app.ports.store
        with monkeypatch.context() as patch:

            def dying(*args: Any, **kwargs: Any) -> Any:
                raise Killed("killed before the belief was written")

            patch.setattr(store, "add_belief", dying)
            with pytest.raises(Killed):
                alice.record_check("Explain osmosis", topic="osmosis", verdict="wrong")
        pair = alice.pair
        assert app.memory.applied(pair, APPLIED_BELIEFS)[0] < store.head(pair).seq
        again = alice.record_question("What is osmosis?", idempotency_key="q-1")
        assert (again.created, again.id) == (False, asked.id)
        assert app.memory.applied(pair, APPLIED_BELIEFS)[0] == store.head(pair).seq


def test_a_local_retry_is_bound_to_the_request_as_sent_as_over_rest(
    served: tuple[str, SignatureChecking], tmp_path: Path
) -> None:
    """A check retried after the map has learned its topic is the same request (its key is
    bound to what was sent, not to the concept it was tied to): a retry, not a 409."""
    url, _ = served
    for memory in (
        Memory.local(tmp_path / "local", settings=SETTINGS),
        Memory.remote(url, region=REGION, credentials=KEYS),
    ):
        with memory:
            alice = memory.pair("alice", "biology")
            first = alice.record_check(
                "Explain the pH scale", topic="pH scale", verdict="wrong", idempotency_key="c-1"
            )
            alice.record_question("Remember that the pH scale runs from 0 to 14")
            again = alice.record_check(
                "Explain the pH scale", topic="pH scale", verdict="wrong", idempotency_key="c-1"
            )
            assert (again.created, again.id) == (False, first.id)


def test_a_bad_page_is_refused_as_the_domain_refuses_it_naming_the_field(tmp_path: Path) -> None:
    """record_answer's citation is judged with the episode: a domain ValidationError naming
    ``evidence.page``, as over REST (not a pydantic error from a model built on the side)."""
    from tutor_memory.domain.errors import ValidationError as Refused
    from tutor_memory.settings import Settings

    settings = Settings(embedder="none")
    with (
        Memory.local(tmp_path / "tm", settings=settings, ready=False) as memory,
        pytest.raises(Refused) as refused,
    ):
        memory.pair("s1", "bio").record_answer("x", file_id="f1", page=0)
    assert refused.value.field == "evidence.page"


# What a route refuses in its path or query, both library doors refuse in front of the backend,
# naming the same field (a concept with a control character was "no belief about …", a 404).
BAD = "os\x00mosis"
REFUSED_ALIKE = [
    ("concept", lambda m: m.pair("alice", "biology").belief_history(BAD),
     lambda b: b.belief_history(Pair("alice", "biology"), BAD, 20, None)),
    ("concept", lambda m: m.pair("alice", "biology").belief_history("x" * 121),
     lambda b: b.belief_history(Pair("alice", "biology"), "x" * 121, 20, None)),
    # a blank name: the remote door used to send it as an empty path segment ("no route")
    ("concept", lambda m: m.pair("alice", "biology").belief_history("   "), None),
    ("history", lambda m: m.pair("alice", "biology").report(history=BAD),
     lambda b: b.report(Pair("alice", "biology"), BAD)),
    ("file_id", lambda m: m.pair("alice", "biology").remove_file("a/b"),
     lambda b: b.remove_file(Pair("alice", "biology"), "a/b")),
    ("answer_id", lambda m: m.pair("alice", "biology").sources("e1 x"),
     lambda b: b.sources(Pair("alice", "biology"), "e1 x")),
    ("answer_id", lambda m: m.pair("alice", "biology").set_stance("e1 x", "answered"),
     lambda b: b.set_stance(Pair("alice", "biology"), "e1 x", "answered")),
    ("episode_id", lambda m: m.erase("alice", "biology", "e1 x", reason="asked"),
     lambda b: b.erase("alice", "biology", "e1 x", "asked")),
    ("class_id", lambda m: m.get_class("class 7"), lambda b: b.get_class("class 7")),
    ("key", lambda m: m.retract_profile("alice", "preference", key="a\x00b"),
     lambda b: b.retract_profile("alice", "preference", "a\x00b")),
]  # fmt: skip


@pytest.mark.parametrize(("field", "library", "over_rest"), REFUSED_ALIKE)
def test_a_path_the_api_refuses_is_refused_by_the_library_naming_the_same_field(
    served: tuple[str, SignatureChecking], tmp_path: Path, field: str, library: Any, over_rest: Any
) -> None:
    url, _checking = served
    with Memory.remote(url, region=REGION, credentials=KEYS) as remote:
        remote.pair("alice", "biology").record_question("What is osmosis?")
        if over_rest is not None:
            with pytest.raises(ValidationError) as by_rest:  # the route's own refusal (a 422)
                over_rest(remote.backend)
            # the route names where the value was: "path.concept", "query.history"
            assert by_rest.value.field.removeprefix("path.").removeprefix("query.") == field
            assert "items" not in str(by_rest.value)  # a long name's length is in characters
        with pytest.raises(ValidationError) as by_remote_library:
            library(remote)
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as local:
        local.pair("alice", "biology").record_question("What is osmosis?")
        with pytest.raises(ValidationError) as by_local_library:
            library(local)
    assert by_remote_library.value.field == by_local_library.value.field == field


def test_the_errors_the_readme_names_come_from_the_package_and_record_takes_a_mapping(
    tmp_path: Path,
) -> None:
    # `from tutor_memory import ValidationError` was an ImportError, and record({...}) an
    # AttributeError from inside the door (a probe following the README)
    import tutor_memory
    from tutor_memory import EpisodeRequest, ForbiddenError, NotFoundError, ValidationError
    from tutor_memory.domain import errors

    assert (ValidationError, NotFoundError, ForbiddenError) == (
        errors.ValidationError,
        errors.NotFoundError,
        errors.ForbiddenError,
    )
    assert sorted(tutor_memory.__all__) == sorted(tutor_memory._HOMES)
    settings = Settings(embedder="none", turn_deadline_s=30.0)
    with Memory.local(tmp_path / "tm", settings=settings, ready=False) as memory:
        pair = memory.pair("alice", "biology")
        asked = pair.record({"kind": "question", "text": "What is osmosis?"})
        again = pair.record(EpisodeRequest(kind="question", text="What is osmosis?"))
        assert asked.kind == again.kind == "question"
        with pytest.raises(ValidationError, match="text"):
            pair.record({"kind": "question"})
        with pytest.raises(ValidationError, match=r"evidence\.verdict"):
            pair.record({"kind": "check", "text": "x", "evidence": {"topic": "t", "verdict": "?"}})
        with pytest.raises(ValidationError, match="mapping"):
            pair.record(["question", "What is osmosis?"])  # type: ignore[arg-type]
        assert len(pair.export().to_dict()["history"]) == 2
