"""What one turn costs on the cloud path: DynamoDB and OpenSearch requests, and bytes.

DynamoDB runs under moto through the real ``DynamoStore``; every botocore call is counted by
an ``after-call`` hook on the clients pynamodb creates (the operation name, and the bytes of
the HTTP response body it read). moto has no OpenSearch data plane, so the real
``OpenSearchIndex`` talks to a counting client that answers each ``_msearch`` from an embedded
index holding the same documents (its BM25 is OpenSearch's, so the hits — and the response's
size — are the ones OpenSearch would send); the request is serialised as opensearch-py sends
it (NDJSON), to count the bytes sent. The embedder is a stand-in of Titan's size (1024
floats), so the k-NN query carries a real-sized vector; in the cloud that one embedding is one
Bedrock call per turn with a question.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.domain.chain import parse_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Embedder, EmbedderProfile, Vectors

if TYPE_CHECKING:
    from tutor_memory.adapters.dynamo_store import DynamoStore


@dataclass
class Tally:
    requests: Counter[str] = field(default_factory=Counter)
    bytes_read: int = 0
    bytes_sent: int = 0

    def reset(self) -> None:
        self.requests.clear()
        self.bytes_read = self.bytes_sent = 0

    def snapshot(self) -> dict[str, Any]:
        return {
            "requests": sum(self.requests.values()),
            "by_operation": dict(sorted(self.requests.items())),
            "bytes_read": self.bytes_read,
            "bytes_sent": self.bytes_sent,
        }


class _Node:
    """How many remote calls one thread of a turn has waited for, one after another."""

    def __init__(self, depth: int) -> None:
        self.depth = depth


class Waits:
    """Sequential waits of a turn, counted on its causal path, not by the clock (the machine
    is shared: wall-clock overlap would say nothing). Every remote call — DynamoDB, OpenSearch,
    the embedding — adds one wait to the thread that makes it; a read started with
    ``Reads.soon`` (ports.py) or sent with the DynamoDB store's ``together`` starts from the
    waits of the thread that started it, and whoever takes its result continues from the
    larger of the two. Calls issued together are therefore one wait. ``latency_s`` makes
    every call last at least a round trip, so the turn's wall time shows the overlap too."""

    def __init__(self, latency_s: float = 0.02) -> None:
        self.latency_s = latency_s
        self._local = threading.local()
        self._lock = threading.Lock()
        self.root = _Node(0)

    def reset(self) -> None:
        self.root = _Node(0)

    def node(self) -> _Node:
        found: _Node | None = getattr(self._local, "node", None)
        return found if found is not None else self.root

    def enter(self, node: _Node) -> _Node | None:
        previous = getattr(self._local, "node", None)
        self._local.node = node
        return previous

    def leave(self, previous: _Node | None) -> None:
        self._local.node = previous

    def start(self) -> None:
        self._local.__dict__.setdefault("began", []).append(time.perf_counter())

    def end(self) -> None:
        began = self._local.began.pop()
        left = self.latency_s - (time.perf_counter() - began)
        if left > 0:
            time.sleep(left)
        self.node().depth += 1

    @contextmanager
    def call(self) -> Iterator[None]:
        self.start()
        try:
            yield
        finally:
            self.end()

    def sequential(self) -> int:
        return self.root.depth

    @contextmanager
    def instrument(self) -> Iterator[None]:
        """Follow the turn's threads: the build, ``soon``, ``aside`` and ``aside_long`` (a
        DynamoDB store's requests sent together: :meth:`follow`)."""
        from tutor_memory.ports import Reads
        from tutor_memory.usecases.turns import Turns

        waits = self
        original_soon, original_aside, original_long = Reads.soon, Reads.aside, Reads.aside_long
        original_build = Turns._build

        def build(turns: Turns, *args: Any, **kwargs: Any) -> Any:
            previous = waits.enter(waits.root)
            try:
                return original_build(turns, *args, **kwargs)
            finally:
                waits.leave(previous)

        def followed(original: Any) -> Any:
            def start(reads: Reads, call: Any, /, *args: Any, **kwargs: Any) -> Any:
                parent = waits.node()
                child = _Node(parent.depth)

                def run() -> Any:
                    previous = waits.enter(child)
                    try:
                        return call(*args, **kwargs)
                    finally:
                        waits.leave(previous)

                return _Joined(original(reads, run), child, waits)

            return start

        Reads.soon = followed(original_soon)  # type: ignore[method-assign]
        Reads.aside = followed(original_aside)  # type: ignore[method-assign]
        Reads.aside_long = followed(original_long)  # type: ignore[method-assign]
        Turns._build = build  # type: ignore[method-assign,assignment]
        try:
            yield
        finally:
            Reads.soon, Reads.aside = original_soon, original_aside  # type: ignore[method-assign]
            Reads.aside_long = original_long  # type: ignore[method-assign]
            Turns._build = original_build  # type: ignore[method-assign]

    def follow(self, store: DynamoStore) -> None:
        """Follow the requests ``store`` sends together (its public ``together``): each starts
        from the waits of the thread that sent them, and that thread continues from the
        longest of them."""
        waits = self
        original = store.together

        def together(calls: Sequence[Any]) -> list[Any]:
            parent = waits.node()
            children = [_Node(parent.depth) for _ in calls]

            def wrap(call: Any, child: _Node) -> Any:
                def run() -> Any:
                    previous = waits.enter(child)
                    try:
                        return call()
                    finally:
                        waits.leave(previous)

                return run

            results: list[Any] = original(
                [wrap(c, n) for c, n in zip(calls, children, strict=True)]
            )
            parent.depth = max([parent.depth, *(n.depth for n in children)])
            return results

        store.together = together


class _Joined:
    """A future whose result carries the waits of the thread that computed it."""

    def __init__(self, inner: Any, child: _Node, waits: Waits) -> None:
        self.inner, self.child, self.waits = inner, child, waits

    def result(self, timeout: float | None = None) -> Any:
        value = self.inner.result(timeout)
        node = self.waits.node()
        node.depth = max(node.depth, self.child.depth)
        return value

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return self.inner.exception(timeout)  # type: ignore[no-any-return]

    def cancel(self) -> bool:  # a turn that gives up on a question's vector cancels it
        return self.inner.cancel()  # type: ignore[no-any-return]


@contextmanager
def counting_dynamodb(tally: Tally, waits: Waits | None = None) -> Iterator[None]:
    """Count every DynamoDB call of clients created inside the block."""
    from botocore.session import Session

    original = Session.create_client

    def after_call(http_response: Any, model: Any, **_: Any) -> None:
        tally.requests[model.name] += 1
        tally.bytes_read += len(http_response.content or b"")
        if waits is not None:
            waits.end()

    def before_call(params: Any, **_: Any) -> None:
        if waits is not None:
            waits.start()
        body = params.get("body") or b""
        tally.bytes_sent += len(body if isinstance(body, bytes) else str(body).encode())

    def create_client(self: Session, *args: Any, **kwargs: Any) -> Any:
        client = original(self, *args, **kwargs)
        if client.meta.service_model.service_name == "dynamodb":
            client.meta.events.register("after-call.dynamodb", after_call)
            client.meta.events.register("before-call.dynamodb", before_call)
        return client

    Session.create_client = create_client  # type: ignore[method-assign]
    try:
        yield
    finally:
        Session.create_client = original  # type: ignore[method-assign]


class CountingOpenSearchClient:
    """An opensearch-py stand-in for ``OpenSearchIndex.search``: counts and answers."""

    def __init__(self, inner: EmbeddedIndex, tally: Tally, waits: Waits | None = None) -> None:
        self.inner = inner
        self.tally = tally
        self.waits = waits or Waits(0.0)

    def msearch(self, *, index: str, body: list[dict[str, Any]], filter_path: str) -> Any:
        with self.waits.call():
            return self._msearch(body)

    def _msearch(self, body: list[dict[str, Any]]) -> Any:
        self.tally.requests["_msearch"] += 1
        self.tally.bytes_sent += sum(len(json.dumps(line).encode()) + 1 for line in body)
        answers = [self._answer(query) for query in body[1::2]]
        response = {"responses": answers}
        self.tally.bytes_read += len(json.dumps(response).encode())
        return response

    def search(self, *, index: str, body: dict[str, Any], filter_path: str | None = None) -> Any:
        """The term counts (``OpenSearchIndex.term_counts``), the cosines, vectors or BM25
        scores of named episodes (``cosines``, ``vectors``, ``lexical_scores``) or which are held
        (``known_ids``, a catch-up's): one ``_search``."""
        with self.waits.call():
            return self._search(body)

    def _search(self, body: dict[str, Any]) -> Any:
        self.tally.requests["_search"] += 1
        self.tally.bytes_sent += len(json.dumps(body).encode())
        scoring = body["query"].get("script_score")
        if scoring:
            answer = self._cosines(scoring)
        elif {"vector", "vector_bytes"} & set(body.get("_source", ())):
            answer = self._vectors(body)
        elif "should" in body["query"].get("bool", {}):
            answer = self._lexical_scores(body)
        elif "aggs" in body:
            answer = self._counted(body)
        else:
            answer = self._known(body)
        self.tally.bytes_read += len(json.dumps(answer).encode())
        return answer

    def _cosines(self, scoring: dict[str, Any]) -> dict[str, Any]:
        """``OpenSearchIndex.cosines``: named episodes scored by ``1 + cosineSimilarity``."""
        filters = scoring["query"]["bool"]["filter"]
        pair, _ = _scope(filters)
        ids = next(c["terms"]["episode_id"] for c in filters if "terms" in c)
        vector = scoring["script"]["params"]["query_value"]
        found = self.inner.cosines(pair, ids, vector)
        return {
            "hits": {
                "hits": [
                    {"_score": 1.0 + cos, "fields": {"episode_id": [i]}} for i, cos in found.items()
                ]
            }
        }

    def _vectors(self, body: dict[str, Any]) -> dict[str, Any]:
        """``OpenSearchIndex.vectors``: named episodes' vectors from their ``_source``, as
        the adapter writes them (float32 bytes in base64, or JSON numbers)."""
        filters = body["query"]["bool"]["filter"]
        pair, _ = _scope(filters)
        ids = next(c["terms"]["episode_id"] for c in filters if "terms" in c)
        found = self.inner.vectors(pair, ids)
        packed = "vector_bytes" in body["_source"]
        return {
            "hits": {
                "hits": [
                    {
                        "_source": {
                            "episode_id": i,
                            **(
                                {"vector_bytes": base64.b64encode(v.tobytes()).decode("ascii")}
                                if packed
                                else {"vector": v.tolist()}
                            ),
                        }
                    }
                    for i, v in found.items()
                ]
            }
        }

    def _lexical_scores(self, body: dict[str, Any]) -> dict[str, Any]:
        """``OpenSearchIndex.lexical_scores``: named episodes scored by the lexical query."""
        clause = body["query"]["bool"]
        pair, _ = _scope(clause["filter"])
        ids = next(c["terms"]["episode_id"] for c in clause["filter"] if "terms" in c)
        words = [c["match"]["terms"]["query"] for c in clause["should"]]
        found = self.inner.lexical_scores(pair, ids, words)
        return {
            "hits": {
                "hits": [
                    {"_score": s, "fields": {"episode_id": [i], "seq": [0]}}
                    for i, s in found.items()
                ]
            }
        }

    def _known(self, body: dict[str, Any]) -> dict[str, Any]:
        """``OpenSearchIndex.known_ids``: the named episodes the pair's documents hold."""
        filters = body["query"]["bool"]["filter"]
        pair, _ = _scope(filters)
        ids = next(c["terms"]["episode_id"] for c in filters if "terms" in c)
        found = sorted(self.inner.known_ids(pair, ids))
        return {"hits": {"hits": [{"fields": {"episode_id": [i]}} for i in found]}}

    def _counted(self, body: dict[str, Any]) -> dict[str, Any]:
        pair, _ = _scope(body["query"]["bool"]["filter"])
        words = {name: agg["filter"]["term"]["terms"] for name, agg in body["aggs"].items()}
        counts = self.inner.term_counts(pair, list(words.values()))
        return {
            "hits": {"total": {"value": counts.documents}},
            "aggregations": {
                name: {"doc_count": counts.containing.get(w, 0)} for name, w in words.items()
            },
        }

    def _answer(self, query: dict[str, Any]) -> dict[str, Any]:
        if "aggs" in query:  # the gate's term counts, in the same round trip
            return {"status": 200, **self._counted(query)}
        clause = query["query"]
        if "script_score" in clause:  # the semantic pool: the pair's documents, scored exactly
            scoring = clause["script_score"]
            pair, window = _scope(scoring["query"]["bool"]["filter"])
            vector = scoring["script"]["params"]["query_value"]
            _, hits, _counts = self.inner.search(
                pair, terms=(), vector=vector, lexical_limit=0, k=query["size"], window=window
            )
            scores = [1.0 + h.score for h in hits]  # the script's 1 + cosineSimilarity
        else:
            words = [c["match"]["terms"]["query"] for c in clause["bool"]["should"]]
            pair, window = _scope(clause["bool"]["filter"])
            hits, _, _counts = self.inner.search(
                pair, terms=words, vector=None, lexical_limit=query["size"], k=0, window=window
            )
            scores = [h.score for h in hits]
        return {
            "status": 200,
            "hits": {
                "hits": [
                    {
                        "_score": s,
                        "fields": {"episode_id": [h.episode_id], "seq": [h.seq]},
                        "matched_queries": list(h.matched),
                    }
                    for h, s in zip(hits, scores, strict=True)
                ]
            },
        }


def _scope(clauses: list[dict[str, Any]]) -> tuple[Pair, TimeWindow | None]:
    pair: Pair | None = None
    window = None
    for clause in clauses:
        if "term" in clause:
            student, subject = clause["term"]["pair"].split("#", 1)
            pair = Pair(student, subject)
        elif "range" in clause:
            bounds = clause["range"]["at"]
            window = TimeWindow(parse_time(bounds["gte"]), parse_time(bounds["lt"]))
    if pair is None:
        raise ValueError("a query without a pair filter: the adapter must never send one")
    return pair, window


class WaitingEmbedder:
    """An embedder whose question embedding is a remote call (Bedrock in the cloud): it lasts
    a round trip and counts as a wait."""

    def __init__(self, inner: Embedder, waits: Waits) -> None:
        self.inner = inner
        self.waits = waits

    @property
    def profile(self) -> EmbedderProfile:
        return self.inner.profile

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        with self.waits.call():
            return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_passages(texts)
