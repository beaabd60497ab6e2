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

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.domain.chain import parse_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Embedder, EmbedderProfile, Vectors


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


class Waits:
    """When every remote call of a turn started and ended (DynamoDB, OpenSearch, the
    embedding), each made to last at least ``latency_s`` — a network round trip — so that
    calls issued together overlap. ``sequential()`` counts the waits the turn sat through:
    calls that overlap are one wait; a call that starts after all before it ended is another."""

    def __init__(self, latency_s: float = 0.02) -> None:
        self.latency_s = latency_s
        self._spans: list[tuple[float, float]] = []
        self._lock = threading.Lock()
        self._local = threading.local()

    def reset(self) -> None:
        with self._lock:
            self._spans.clear()

    def start(self) -> None:
        self._local.__dict__.setdefault("stack", []).append(time.perf_counter())

    def end(self) -> None:
        began = self._local.stack.pop()
        # The round trip: at least the latency (the call's own work counts towards it).
        left = self.latency_s - (time.perf_counter() - began)
        if left > 0:
            time.sleep(left)
        with self._lock:
            self._spans.append((began, time.perf_counter()))

    @contextmanager
    def call(self) -> Iterator[None]:
        self.start()
        try:
            yield
        finally:
            self.end()

    def sequential(self) -> int:
        waits, until = 0, float("-inf")
        for began, ended in sorted(self._spans):
            if began >= until:
                waits += 1
                until = ended
            else:
                until = max(until, ended)
        return waits


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

    def search(self, *, index: str, body: dict[str, Any]) -> Any:
        """The term counts (``OpenSearchIndex.term_counts``): one ``_search`` with filters."""
        with self.waits.call():
            return self._search(body)

    def _search(self, body: dict[str, Any]) -> Any:
        self.tally.requests["_search"] += 1
        self.tally.bytes_sent += len(json.dumps(body).encode())
        pair, _ = _scope(body["query"]["bool"]["filter"])
        words = {name: agg["filter"]["term"]["terms"] for name, agg in body["aggs"].items()}
        counts = self.inner.term_counts(pair, list(words.values()))
        answer = {
            "hits": {"total": {"value": counts.documents}},
            "aggregations": {
                name: {"doc_count": counts.containing.get(w, 0)} for name, w in words.items()
            },
        }
        self.tally.bytes_read += len(json.dumps(answer).encode())
        return answer

    def _answer(self, query: dict[str, Any]) -> dict[str, Any]:
        clause = query["query"]
        if "knn" in clause:
            knn = clause["knn"]["vector"]
            pair, window = _scope(knn["filter"]["bool"]["filter"])
            _, hits = self.inner.search(
                pair, terms=(), vector=knn["vector"], lexical_limit=0, k=knn["k"], window=window
            )
            scores = [(1.0 + h.score) / 2.0 for h in hits]  # cosinesimil's score
        else:
            words = [c["match"]["terms"]["query"] for c in clause["bool"]["should"]]
            pair, window = _scope(clause["bool"]["filter"])
            hits, _ = self.inner.search(
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
