"""Replay embeds ahead: full batches of distinct texts, each identical text once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tutor_memory.ports import EmbedderProfile, Vectors
from tutor_memory.replay import REPLAY_EMBED_BATCH, TimedEmbedder


class CountingEmbedder:
    profile = EmbedderProfile("counting", 4, concept_merge_threshold=1.0)

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self.embed_passages(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        return np.asarray([[len(t), 1, 0, 0] for t in texts], dtype=np.float32)


def test_texts_read_ahead_are_embedded_in_full_batches_of_distinct_texts() -> None:
    inner = CountingEmbedder()
    embedder = TimedEmbedder(inner)
    texts = [f"question {i % 150}" for i in range(600)]  # 150 distinct, each four times

    embedder.prefetch(texts)

    assert [len(call) for call in inner.calls] == [REPLAY_EMBED_BATCH, REPLAY_EMBED_BATCH, 22]
    assert all(len(set(call)) == len(call) for call in inner.calls)


def test_a_text_embedded_ahead_is_not_embedded_again_when_it_is_written() -> None:
    inner = CountingEmbedder()
    embedder = TimedEmbedder(inner)
    embedder.prefetch(["What is osmosis?", "¿Qué es la ósmosis?"])

    rows = embedder.embed_passages(["¿Qué es la ósmosis?", "What is osmosis?", "new"])

    assert inner.calls == [["What is osmosis?", "¿Qué es la ósmosis?"], ["new"]]
    assert rows[:, 0].tolist() == [19.0, 16.0, 3.0]
