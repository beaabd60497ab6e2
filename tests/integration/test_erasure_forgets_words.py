"""An erasure forgets what the process remembers of the erased words, not only what it wrote:
the decoded episodes the turn path keeps, their analyses (folded, stemmed, priced) and the
questions' vectors, keyed by their words. Before, a whole student erased left every decoded
episode of theirs in the store's cache and in ranking's, text and all, for as long as the
process ran."""

from __future__ import annotations

import gc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.bench.embedding import HashEmbedder
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind, Pair
from tutor_memory.domain.forgetting import lru_caches
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

T0 = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
PAIR = Pair("s-forget", "biology")
OTHER = Pair("s-other", "biology")
# Kept reversed: the words themselves exist only where the product put them (a test that held
# them in a constant would find its own copy).
REVERSED = "brolxevtniuq"


def secret() -> str:
    return REVERSED[::-1]


@pytest.fixture
def app(tmp_path: Path) -> App:
    settings = on_folder(Settings(embedder="none", turn_deadline_s=30.0), tmp_path / "tm")  # type: ignore[call-arg]
    built = build_app(settings, clock=FixedClock(T0 + timedelta(days=1)))
    return built.with_ports(embedder=HashEmbedder(384))


def cached_with(needle: str) -> int:
    """Entries of the caches of words whose key holds ``needle`` (an lru_cache keeps its
    entries in a dict the collector reaches through the function; other tests' threads may
    fill the caches meanwhile, so only this test's words are counted)."""
    found = 0
    for cache in lru_caches():
        for ref in gc.get_referents(cache):
            if isinstance(ref, dict) and "__module__" not in ref:
                for key in ref:
                    parts = key if isinstance(key, tuple | list) else (key,)
                    found += any(isinstance(p, str) and needle in p.casefold() for p in parts)
    return found


def remembered(app: App) -> dict[str, int]:
    """What the process holds of the secret: live episodes whose text has it, strings that
    contain it inside any container the collector tracks, the caches of words and the
    questions' vectors."""
    episodes = strings = 0
    needle = secret()
    for obj in gc.get_objects():
        if isinstance(obj, Episode) and needle in obj.text:
            episodes += 1
        for ref in gc.get_referents(obj):
            if isinstance(ref, str) and needle in ref.casefold():
                strings += 1
    return {
        "episodes": episodes,
        "strings": strings,
        "cached": cached_with(needle),
        "questions": len(app.ports.queries),
    }


def told(app: App) -> str:
    """The secret told in a question, an answer and a check, and asked about twice."""
    asked = app.episodes.add(PAIR, Kind.QUESTION, f"My cat {secret()} likes osmosis?", at=T0)
    app.episodes.add(PAIR, Kind.ANSWER, f"Then {secret()} knows water moves.", at=T0)
    app.learning.record_check(
        PAIR, f"Explain {secret()} and osmosis", CheckEvidence("osmosis", "wrong"), at=T0
    )
    app.episodes.add(OTHER, Kind.QUESTION, "What is a cell membrane?", at=T0)
    for _ in range(2):
        turn = app.turns.turn(PAIR, f"What did I say about {secret()} and osmosis?")
        assert secret() in turn.block
    del turn
    return asked.episode.episode_id


@pytest.mark.parametrize("scope", ["episode", "pair", "student"])
def test_an_erasure_leaves_no_copy_of_the_words_in_the_process(app: App, scope: str) -> None:
    episode_id = told(app)
    gc.collect()
    before = remembered(app)
    assert before["episodes"] > 0 and before["cached"] > 0 and before["questions"] > 0
    assert app.erasing is not None
    if scope == "episode":
        ids = [e.episode_id for e in app.ports.store.iter_episodes(PAIR) if secret() in e.text]
        for erased in ids:
            app.erasing.erase_episode(PAIR, erased, reason="asked by the student")
    elif scope == "pair":
        app.erasing.erase_pair(PAIR, reason="asked by the student")
    else:
        app.erasing.erase_student(PAIR.student_id, reason="asked by the student")
    gc.collect()
    assert remembered(app) == {"episodes": 0, "strings": 0, "cached": 0, "questions": 0}
    # The memory works on: another student's turn derives what it reads again.
    assert "cell membrane" in app.turns.turn(OTHER, "What is a cell membrane?").block
    assert episode_id  # (the erased episode's id stays: its envelope is kept)
