"""Write generated histories through the real use cases, on the embedded default.

Files go through ``maps.ingest`` (the offline extractor builds the real map), checks through
``learning.record_check`` (routing and beliefs), teaching through ``maps.teach``, narrations
through ``turns.record_answer`` with the recalled ids of the month they narrate; questions,
answers and quizzes are appended in batches with ``memory.record_many``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal

from tutor_memory.bench.embedding import CachedEmbedder
from tutor_memory.bench.generator import Event, PairHistory
from tutor_memory.bench.subjects import Subject
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.beliefs import route_check
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    CheckEvidence,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
)
from tutor_memory.domain.recall import is_narration
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

EmbedderChoice = Literal["none", "local"]


def open_app(
    folder: Path, embedder: EmbedderChoice, now: datetime, *, deadline_s: float | None = None
) -> App:
    """The embedded default in ``folder``; the local embedder behind a per-run cache.
    ``deadline_s``: the turn's deadline (the product's by default; a test that counts what a
    turn did, not its time, gives a long one so that a loaded machine drops no turn)."""
    env: dict[str, str] = {"TUTOR_MEMORY_EMBEDDER": embedder}
    if deadline_s is not None:
        env["TUTOR_MEMORY_TURN_DEADLINE_S"] = str(deadline_s)
    settings = on_folder(Settings.from_env(env), folder)
    app = build_app(settings, clock=FixedClock(now))
    if app.ports.embedder is not None:
        app = app.with_ports(embedder=CachedEmbedder(app.ports.embedder))
    return app


def write_history(app: App, history: PairHistory) -> None:
    write_events(app, history.pair, history.subject, history.events)


def write_events(
    app: App,
    pair: Pair,
    subject: Subject,
    events: Sequence[Event],
    *,
    batch_size: int = 256,
    fast_checks: bool = False,
) -> None:
    """Write ``events`` in order. ``fast_checks`` (the performance bench's 100k histories)
    appends checks in the batches too, tied to their concept by the same routing, and derives
    the beliefs once at the end (``learning.rederive``) instead of after every check."""
    files = dict(subject.file_bytes())
    known: dict[str, str] = {}
    fingerprints: dict[str, str] = {}
    batch: list[NewEpisode] = []

    def flush() -> None:
        if batch:
            app.memory.record_many(batch, batch_size=batch_size)
            batch.clear()

    for event in events:
        if event.kind in ("question", "answer", "quiz") or (fast_checks and event.kind == "check"):
            batch.append(_episode(pair, event, fingerprints, known))
            if len(batch) >= batch_size:
                flush()
            continue
        flush()
        if event.kind == "file":
            app.maps.ingest(
                pair, event.file_name, event.file_name, files[event.file_name], at=event.at
            )
            record = app.ports.store.file(pair, event.file_name)
            assert record is not None
            fingerprints[event.file_name] = record.current.fingerprint
            known = app.learning.known_concepts(pair)
        elif event.kind == "check":
            app.learning.record_check(
                pair, event.text, CheckEvidence(**event.evidence), at=event.at
            )
        elif event.kind == "teach":
            if app.maps.teach(pair, event.text, at=event.at) is None:
                raise ValueError(
                    f"the generator wrote a teaching message that does not teach: {event.text!r}"
                )
        elif event.kind == "narration":
            recalled = [
                e.episode_id
                for e in app.memory.history(pair)
                if e.at.month == event.recall_month
                and e.at.year == event.at.year
                and not is_narration(e)
            ]
            app.turns.record_answer(pair, event.text, recalled_ids=recalled[:12], at=event.at)
    flush()
    if fast_checks:
        app.learning.rederive(pair, at=events[-1].at if events else None)


def _episode(
    pair: Pair, event: Event, fingerprints: dict[str, str], known: dict[str, str]
) -> NewEpisode:
    if event.kind == "check":
        check = CheckEvidence(**event.evidence)
        topic = route_check(check, known)
        concepts = (topic.name,) if topic else ()
        return NewEpisode(pair, Kind.CHECK, event.text, event.at, concepts=concepts, evidence=check)
    if event.kind == "answer":
        evidence = AnswerEvidence()
        if event.evidence:
            file_id = str(event.evidence["file_id"])
            # The fingerprint the cited file has now, as memory.record would stamp it.
            evidence = AnswerEvidence(file_id, int(event.evidence["page"]), fingerprints[file_id])
        return NewEpisode(
            pair, Kind.ANSWER, event.text, event.at, concepts=event.concepts, evidence=evidence
        )
    if event.kind == "quiz":
        quiz = QuizEvidence(
            event.evidence["score"], event.evidence["maximum"], tuple(event.evidence["topics"])
        )
        return NewEpisode(
            pair, Kind.QUIZ, event.text, event.at, concepts=event.concepts, evidence=quiz
        )
    return NewEpisode(pair, Kind.QUESTION, event.text, event.at, concepts=event.concepts)
