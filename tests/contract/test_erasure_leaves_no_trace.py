"""After an erasure nothing of the erased episodes renders, on every store: not in a turn's
block or its memory ids (no blank "- 2 Dec · you answered: " line from an index document
rebuilt out of the empty envelope), not in the beliefs section ("1 check recorded, but it
could not yet be tied to a concept" for an erased check), not in the report's counts."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import cast

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.ports import EpisodeStore, FixedClock, Ports, Store
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.reports import render_text

T0 = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)
QUESTION = "what did we do about osmosis?"
BLANK = re.compile(r"^- [^:\n]*: *(\(.*\))?$", re.MULTILINE)  # "- 2 Dec · check: "


def make_app(store: EpisodeStore, clock: FixedClock, folder: Path) -> App:
    ports = Ports(cast(Store, store), clock, index=EmbeddedIndex(), embedder=LocalEmbedder())
    return build_app(on_folder(Settings(), folder), ports=ports)  # type: ignore[call-arg]


def a_day(app: App, pair: Pair) -> list[str]:
    """A question, its answer, a check, another question: their ids."""
    told = [
        app.episodes.add(pair, Kind.QUESTION, "What is osmosis?", at=T0),
        app.episodes.add(
            pair, Kind.ANSWER, "Osmosis moves water across a membrane.",
            at=T0 + timedelta(minutes=1),
        ),
        app.episodes.add(
            pair, Kind.CHECK, "Explain osmosis", evidence={"topic": "Osmosis", "verdict": "wrong"},
            at=T0 + timedelta(minutes=2),
        ),
        app.episodes.add(
            pair, Kind.QUESTION, "Tell me about mitochondria", at=T0 + timedelta(minutes=3)
        ),
    ]  # fmt: skip
    return [a.episode.episode_id for a in told]


def assert_no_trace(app: App, pair: Pair, erased: list[str]) -> str:
    result = app.turns.turn(pair, QUESTION)
    assert not result.dropped
    assert not set(erased) & set(result.memory_ids)
    assert not BLANK.search(result.block), result.block
    assert "could not yet be tied" not in result.block
    assert "checks recorded, but" not in result.block
    report = app.reports.report(pair)
    assert "check" not in report.counts
    assert report.checks.recorded == 0
    text = render_text(report)
    assert "could not yet be tied" not in text
    assert "check," not in text.split("\n", 2)[1]  # the header's count by kind
    return result.block


def test_an_erased_pair_leaves_nothing_that_renders(
    store: EpisodeStore, clock: FixedClock, tmp_path: Path
) -> None:
    pair = Pair("s-gone", "biology")
    app = make_app(store, clock, tmp_path)
    erased = a_day(app, pair)
    clock.at = T0 + timedelta(days=1, hours=3)
    app.nightly.run_pair(pair, date(2026, 12, 2))  # a consolidation quoting the day
    assert "struggles with Osmosis" in app.turns.turn(pair, QUESTION).block
    erased += [e.episode_id for e in app.memory.history(pair) if e.kind is Kind.CONSOLIDATION]

    assert app.erasing is not None
    app.erasing.erase_pair(pair, reason="asked by the student")
    kept = app.episodes.add(pair, Kind.QUESTION, "A new start: what is a cell?").episode
    block = assert_no_trace(app, pair, erased)
    assert "No checks recorded yet." in block
    assert app.turns.turn(pair, QUESTION).memory_ids == (kept.episode_id,)


def test_an_erased_episode_leaves_nothing_that_renders_and_the_next_check_counts(
    store: EpisodeStore, clock: FixedClock, tmp_path: Path
) -> None:
    pair = Pair("s-part", "biology")
    app = make_app(store, clock, tmp_path)
    ids = a_day(app, pair)
    clock.at = T0 + timedelta(hours=1)
    assert app.erasing is not None
    for episode_id in (ids[1], ids[2]):  # the answer and the check
        app.erasing.erase_episode(pair, episode_id, reason="asked by the student")
    block = assert_no_trace(app, pair, [ids[1], ids[2]])
    assert "No checks recorded yet." in block
    assert "What is osmosis?" in block  # what was not erased is still recalled

    # A check recorded after the erasure is applied (the beliefs' marker was recounted too).
    app.episodes.add(
        pair, Kind.CHECK, "Explain diffusion", evidence={"topic": "Diffusion", "verdict": "right"}
    )
    assert [b.concept_key for b in app.ports.store.beliefs(pair)] == ["diffusion"]
    report = app.reports.report(pair)
    assert report.counts.get("check") == 1
    assert report.checks.recorded == 1
