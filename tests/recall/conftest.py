"""Recall over a real store, the embedded index and the real offline embedder."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.ports import EmbedderProfile, FixedClock, Ports, Vectors
from tutor_memory.usecases.log import TutorMemory


class CountingEmbedder:
    """The real embedder, counting how often each side is asked."""

    def __init__(self, inner: LocalEmbedder) -> None:
        self.inner = inner
        self.query_calls = 0
        self.passage_calls = 0

    @property
    def profile(self) -> EmbedderProfile:
        return self.inner.profile

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.query_calls += 1
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.passage_calls += 1
        return self.inner.embed_passages(texts)


@pytest.fixture(scope="session")
def local_embedder() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.fixture
def embedder(local_embedder: LocalEmbedder) -> CountingEmbedder:
    return CountingEmbedder(local_embedder)


@pytest.fixture
def memory(embedder: CountingEmbedder, clock: FixedClock) -> TutorMemory:
    return TutorMemory(Ports(SqliteStore(), clock, index=EmbeddedIndex(), embedder=embedder))
