"""A short multilingual history of one student in one subject, used by the benches and the tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib.resources import files
from typing import Any

from tutor_memory.domain.episodes import Kind, NewEpisode, Pair, evidence_from_dict

START = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)


@dataclass(frozen=True)
class SampleEvent:
    kind: Kind
    text: str
    at: datetime
    evidence: dict[str, Any] = field(default_factory=dict)
    concepts: tuple[str, ...] = ()
    ref: str | None = None


def _at(days: int, minutes: int = 0) -> datetime:
    return START + timedelta(days=days, minutes=minutes)


SAMPLE_HISTORY: tuple[SampleEvent, ...] = (
    SampleEvent(
        Kind.QUESTION,
        "Can we go over Eukaryotic Cells today? I keep mixing it up.",
        _at(0),
        concepts=("Eukaryotic cells",),
        ref="chat-0001",
    ),
    SampleEvent(
        Kind.ANSWER,
        "Of course. Eukaryotic Cells: Eukaryotic cells contain a nucleus and organelles.",
        _at(0, 1),
        concepts=("Eukaryotic cells",),
        ref="chat-0002",
    ),
    SampleEvent(
        Kind.CHECK,
        "Check on cytoplasm",
        _at(0, 5),
        evidence={
            "topic": "cytoplasm",
            "verdict": "right",
            "evaluation": "Correct: the cytoplasm is the gel that fills the cell.",
            "predicted_mastery": 0.6,
        },
        concepts=("Cytoplasm",),
    ),
    SampleEvent(
        Kind.QUESTION, "¿Qué es la ósmosis?", _at(9), concepts=("Osmosis",), ref="chat-0003"
    ),
    SampleEvent(
        Kind.CHECK,
        "Check on osmosis",
        _at(9, 4),
        evidence={
            "topic": "osmosis",
            "verdict": "wrong",
            "evaluation": "Not quite: osmosis moves water, not salt, across the membrane.",
            "predicted_mastery": 0.5,
        },
        concepts=("Osmosis",),
    ),
    SampleEvent(Kind.QUESTION, "Apa itu sel?", _at(21), concepts=("Cell",), ref="chat-0004"),
    SampleEvent(
        Kind.QUIZ,
        "Quiz: cell structure",
        _at(21, 30),
        evidence={"score": 4, "maximum": 5, "topics": ["Cell", "Cytoplasm"]},
    ),
    SampleEvent(Kind.QUESTION, "مائٹوکونڈریا کیا کرتا ہے؟", _at(45), concepts=("Mitochondria",)),
    SampleEvent(
        Kind.TAUGHT,
        "Remember that in our class we call the mitochondria the powerhouse of the cell",
        _at(68),
        evidence={"note": "in our class we call the mitochondria the powerhouse of the cell"},
        concepts=("Mitochondria",),
    ),
    SampleEvent(
        Kind.QUESTION, "ما هي الخلية حقيقية النواة؟", _at(70), concepts=("Eukaryotic cells",)
    ),
)


def sample_episodes(pair: Pair, *, repeats: tuple[int, ...] = ()) -> list[NewEpisode]:
    """The sample history as episodes of ``pair``; ``repeats`` adds "What is a cell?" again on
    those days after the start (students repeat themselves)."""
    episodes = [
        NewEpisode(
            pair,
            e.kind,
            e.text,
            e.at,
            concepts=e.concepts,
            ref=e.ref,
            evidence=evidence_from_dict(e.kind, e.evidence),
        )
        for e in SAMPLE_HISTORY
    ]
    episodes += [
        NewEpisode(pair, Kind.QUESTION, "What is a cell?", START + timedelta(days=day))
        for day in repeats
    ]
    return episodes


SAMPLE_SUBJECT_FILES = ("cell-biology.pdf", "plant-and-animal-cells.md")


def sample_subject() -> list[tuple[str, bytes]]:
    """The sample subject's files (package data): a 4-page PDF and a Markdown file."""
    folder = files("tutor_memory") / "data" / "sample-subject"
    return [(name, (folder / name).read_bytes()) for name in SAMPLE_SUBJECT_FILES]
