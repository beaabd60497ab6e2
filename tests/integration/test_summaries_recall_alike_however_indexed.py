"""A day's summary is indexed by its words alone, whichever path indexes it.

The night writes its summary without a vector (it calls no model for its own writing). A
replayed export and ``reindex`` gave every summary one, so on the same log the semantic pool
filled with summaries: a probe saw 14 "summary of the day" lines where the night's store showed
one, and 2 checks where it showed 12. The same log must give the same block whichever path
built its index (here with a deterministic hash embedder: vectors without meaning, which let no
summary into these blocks, so the index is read too)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from tutor_memory.bench.embedding import HashEmbedder
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.replay import replay
from tutor_memory.settings import Settings, on_folder

PAIR = Pair("s1", "biology")
DAY0 = datetime(2026, 9, 1, 15, 0, tzinfo=UTC)
ASKED = DAY0 + timedelta(days=30)
QUESTIONS = ("What was my quiz score?", "osmosis", "What did we do on the second day?", None)


def open_app(folder: Path) -> App:
    app = build_app(on_folder(Settings(), folder), clock=FixedClock(ASKED))
    return app.with_ports(embedder=HashEmbedder(384))


def blocks(app: App) -> list[str]:
    return [app.turns.turn(PAIR, q, at=ASKED).block for q in QUESTIONS]


def summaries_with_a_vector(app: App) -> int:
    ids = [
        e.episode_id for e in app.ports.store.iter_episodes(PAIR) if e.kind is Kind.CONSOLIDATION
    ]
    assert len(ids) == 12 and app.ports.index is not None
    return len(app.ports.index.vectors(PAIR, ids))


def history(app: App) -> None:
    for day in range(12):
        at = DAY0 + timedelta(days=day)
        app.episodes.add(PAIR, Kind.QUESTION, f"Question {day} about osmosis and cells", at=at)
        app.episodes.add(
            PAIR,
            Kind.CHECK,
            f"Explain osmosis, day {day}",
            evidence={"topic": "Osmosis", "verdict": "right" if day % 3 else "wrong"},
            concepts=["Osmosis"],
            at=at + timedelta(minutes=1),
        )
        app.nightly.run(date(2026, 9, 1) + timedelta(days=day), pairs=[PAIR])


def test_a_rebuilt_index_and_a_replayed_export_give_the_nights_blocks(tmp_path: Path) -> None:
    app = open_app(tmp_path / "night")
    history(app)
    assert summaries_with_a_vector(app) == 0  # the night's own
    before = blocks(app)
    exported = app.exporting.student(PAIR.student_id).write(tmp_path / "export")

    app.memory.reindex(PAIR)
    assert summaries_with_a_vector(app) == 0
    assert blocks(app) == before

    replay(exported, tmp_path / "replayed", open_app)
    replayed = open_app(tmp_path / "replayed")
    assert summaries_with_a_vector(replayed) == 0
    assert blocks(replayed) == before
