"""The pre-registered question set: generated per pair from that pair's own stored data,
written to disk before any design runs, then loaded back and used as loaded.

Six categories, each with its gold taken from the store, never from the generator's
intentions:

* ``explain`` — "Can you explain X?"; gold: X's gist as the map stores it (from the file);
* ``prerequisites`` — "What should I revise before X?"; gold: the concepts X builds on, read
  from the stored map's edges (X → Y, so Y is revised *before* X), with the concepts that build
  on X kept beside as ``dependents`` — the wrong direction, to diagnose it when a block shows
  them instead;
* ``wrong`` — "What did I get wrong so far?"; gold: the concepts of every recorded check whose
  verdict is "wrong" and that was tied to a concept;
* ``active_month`` — "What did we cover in July?"; gold: the ids of that month's episodes (the
  tutor's narrations excluded from what must be shown, allowed to be shown);
* ``empty_month`` — a month with no episode at all; gold: its label, which the block's
  explicit no-record line must name;
* ``taught`` — "What did I teach you about X?"; gold: the taught note as stored.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from tutor_memory.bench import phrasing as P
from tutor_memory.bench.generator import NOW, YEAR, PairHistory
from tutor_memory.bootstrap import App
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair, TaughtEvidence
from tutor_memory.domain.recall import is_narration

T = TypeVar("T")

CATEGORIES: Final = ("explain", "prerequisites", "wrong", "active_month", "empty_month", "taught")

PER_PAIR: Final = {  # how many questions of each category a pair gets (at most)
    "explain": 3,
    "prerequisites": 3,
    "wrong": 1,
    "active_month": 2,
    "empty_month": 2,
    "taught": 2,
}


@dataclass(frozen=True)
class Question:
    qid: str
    student: str
    subject: str
    language: str
    category: str
    text: str
    at: str  # ISO 8601, UTC
    gold: dict[str, Any]

    @property
    def pair(self) -> Pair:
        return Pair(self.student, self.subject)

    @property
    def when(self) -> datetime:
        return parse_time(self.at)


def questions_for(app: App, history: PairHistory, seed: int) -> list[Question]:
    """One pair's questions, from what its store holds now."""
    pair, lang = history.pair, history.language
    rng = random.Random(f"{seed}:questions:{pair}")
    cmap = app.ports.store.load_map(pair)
    episodes = app.memory.history(pair)
    out: list[Question] = []

    def add(category: str, text: str, gold: dict[str, Any]) -> None:
        n = sum(1 for q in out if q.category == category) + 1
        qid = f"{pair.student_id}-{pair.subject_id}-{category}-{n}"
        out.append(
            Question(
                qid, pair.student_id, pair.subject_id, lang, category, text, format_time(NOW), gold
            )
        )

    concepts = sorted(cmap.concepts.values(), key=lambda c: c.key)
    explained = [c for c in concepts if c.gist]
    for c in _sample(rng, explained, PER_PAIR["explain"]):
        add("explain", P.ASK_EXPLAIN[lang].format(x=P.student_name(c.name, lang)),
            {"concept": c.name, "gist": c.gist})  # fmt: skip

    with_edges = [c for c in concepts if any(k in cmap.concepts for k in c.builds_on)]
    for c in _sample(rng, with_edges, PER_PAIR["prerequisites"]):
        needs = sorted(cmap.concepts[k].name for k in c.builds_on if k in cmap.concepts)
        dependents = sorted(d.name for d in concepts if c.key in d.builds_on)
        add(
            "prerequisites",
            P.ASK_PREREQUISITES[lang].format(x=P.student_name(c.name, lang)),
            {"concept": c.name, "prerequisites": needs, "dependents": dependents},
        )

    missed = [
        e.concepts[0]
        for e in episodes
        if e.kind is Kind.CHECK
        and isinstance(e.evidence, CheckEvidence)
        and not e.evidence.passed
        and e.concepts
    ]
    if missed:
        add("wrong", P.ASK_WRONG[lang], {"concepts": sorted(set(missed))})

    by_month: dict[int, list[str]] = {}
    shown_ok: dict[int, list[str]] = {}
    for e in episodes:
        if e.at.year != YEAR:
            continue
        shown_ok.setdefault(e.at.month, []).append(e.episode_id)
        if e.kind is not Kind.FILE and not is_narration(e):
            by_month.setdefault(e.at.month, []).append(e.episode_id)
    for month in _sample(rng, sorted(by_month), PER_PAIR["active_month"]):
        add(
            "active_month",
            P.ASK_MONTH[lang].format(month=P.month_name(month, lang)),
            {
                "month": f"{YEAR}-{month:02d}",
                "label": f"{P.english_month(month)} {YEAR}",
                "episode_ids": by_month[month],
                "allowed_ids": shown_ok[month],
            },
        )

    first, last = min(shown_ok), max(shown_ok)
    empty = [m for m in range(1, NOW.month) if m not in shown_ok]
    inside = [m for m in empty if first < m < last]
    chosen = _sample(rng, inside, 1)
    chosen += _sample(rng, [m for m in empty if m not in chosen], PER_PAIR["empty_month"] - 1)
    for month in sorted(chosen):
        add(
            "empty_month",
            P.ASK_MONTH[lang].format(month=P.month_name(month, lang)),
            {"month": f"{YEAR}-{month:02d}", "label": f"{P.english_month(month)} {YEAR}"},
        )

    taught = [
        e for e in episodes if e.kind is Kind.TAUGHT and isinstance(e.evidence, TaughtEvidence)
    ]
    for e in _sample(rng, taught, PER_PAIR["taught"]):
        assert isinstance(e.evidence, TaughtEvidence)
        name = e.concepts[0]
        add(
            "taught",
            P.ASK_TAUGHT[lang].format(x=P.student_name(name, lang)),
            {"concept": name, "note": e.evidence.note, "episode_id": e.episode_id},
        )
    return out


def _sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """``k`` of ``items`` at random, kept in their order."""
    return [items[i] for i in sorted(rng.sample(range(len(items)), k=min(k, len(items))))]


# --- pre-registration -------------------------------------------------------------------------


def write_questions(path: Path, questions: Sequence[Question], meta: dict[str, Any]) -> str:
    """Write the question set (before any design runs); returns the file's sha256."""
    body = {"meta": meta, "questions": [asdict(q) for q in questions]}
    data = json.dumps(body, ensure_ascii=False, indent=1).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def load_questions(path: Path) -> tuple[list[Question], str]:
    """The registered question set as written, and the sha256 of the file read."""
    data = path.read_bytes()
    body = json.loads(data)
    return [Question(**q) for q in body["questions"]], hashlib.sha256(data).hexdigest()
