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
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.domain.chain import parse_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.timewindow import TimeWindow


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


@contextmanager
def counting_dynamodb(tally: Tally) -> Iterator[None]:
    """Count every DynamoDB call of clients created inside the block."""
    from botocore.session import Session

    original = Session.create_client

    def after_call(http_response: Any, model: Any, **_: Any) -> None:
        tally.requests[model.name] += 1
        tally.bytes_read += len(http_response.content or b"")

    def before_call(params: Any, **_: Any) -> None:
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

    def __init__(self, inner: EmbeddedIndex, tally: Tally) -> None:
        self.inner = inner
        self.tally = tally

    def msearch(self, *, index: str, body: list[dict[str, Any]], filter_path: str) -> Any:
        self.tally.requests["_msearch"] += 1
        self.tally.bytes_sent += sum(len(json.dumps(line).encode()) + 1 for line in body)
        answers = [self._answer(query) for query in body[1::2]]
        response = {"responses": answers}
        self.tally.bytes_read += len(json.dumps(response).encode())
        return response

    def search(self, *, index: str, body: dict[str, Any]) -> Any:
        """The term counts (``OpenSearchIndex.term_counts``): one ``_search`` with filters."""
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
