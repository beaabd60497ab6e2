"""Recall gives the same list, byte for byte, whichever store holds the log.

Episodes are named by sequence here: an id carries 12 hex digits of the link hash, which under
chain v2 commits to a random per-episode salt, so the same history has other ids in each store."""

from __future__ import annotations

from datetime import UTC, datetime

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import EpisodeStore, FixedClock, Ports
from tutor_memory.samples import sample_episodes
from tutor_memory.usecases.log import TutorMemory

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
QUESTIONS = (
    "What is osmosis?",
    "Can we go over eukaryotic cells again?",
    "what did we cover in July?",
    "¿Qué hicimos en agosto?",
    "Apa itu sel?",
    "ماذا تعلمنا عن الخلية؟",
    "what did we do in June?",
    "",
)


def recalled(
    store: EpisodeStore, pair: Pair
) -> list[list[tuple[str, float, tuple[str, ...], int]]]:
    memory = TutorMemory(
        Ports(store, FixedClock(NOW), index=EmbeddedIndex(), embedder=LocalEmbedder())
    )
    memory.record_many(sample_episodes(pair, repeats=(3, 30, 60)))
    return [
        [(f"e{i.episode.seq}", i.score, i.pools, i.count) for i in memory.recall(pair, q).items]
        for q in QUESTIONS
    ]


def test_the_same_history_and_question_give_the_same_list_on_every_store(
    store: EpisodeStore, pair: Pair
) -> None:
    reference = recalled(SqliteStore(), pair)
    assert recalled(store, pair) == reference
    assert all(reference[:6])  # each of these questions recalls something
    assert reference[6] == []  # June is empty
