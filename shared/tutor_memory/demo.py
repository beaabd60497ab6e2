"""`make demo`: a fresh embedded store, a short history, recall, the chain, a tampered copy."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.episodes import Episode, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_episodes
from tutor_memory.service import TutorMemory

DEMO_PAIR = Pair("demo-student", "biology")
ASKED_AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DEMO_QUESTIONS = (
    "What is a cell?",
    "¿Qué es la ósmosis?",
    "what did we cover in July?",
    "what did we do in October?",
)


def describe(ep: Episode) -> str:
    extra = ""
    evidence = ep.evidence.to_dict()
    if "verdict" in evidence:
        extra = f" [{evidence['topic']}: {evidence['verdict']}]"
    elif "score" in evidence:
        extra = f" [{evidence['score']:g}/{evidence['maximum']:g}]"
    return (
        f"  {ep.seq:>3}  {ep.at:%d %b %Y}  {ep.kind.value:<13} {ep.summary}{extra}"
        f"   ({ep.episode_id}, salience {ep.salience:.2f})"
    )


def run_demo(home: Path, out: Callable[[str], None] = print) -> int:
    home.mkdir(parents=True, exist_ok=True)
    db = home / "demo.db"
    for stale in (db, db.with_suffix(".db-wal"), db.with_suffix(".db-shm")):
        stale.unlink(missing_ok=True)

    index_file = home / "demo-index.db"
    index_file.unlink(missing_ok=True)
    clock = FixedClock(ASKED_AT)
    store = SqliteStore(db)
    memory = TutorMemory(
        store=store, clock=clock, index=EmbeddedIndex(index_file), embedder=LocalEmbedder()
    )
    out(f"A fresh embedded store: {db}")
    out(f"Appending a short history for {DEMO_PAIR} (five languages), embedding each episode:")
    memory.record_many(sample_episodes(DEMO_PAIR, repeats=(2, 30, 61)))
    for episode in memory.history(DEMO_PAIR):
        out(describe(episode))

    for question in DEMO_QUESTIONS:
        result = memory.recall(DEMO_PAIR, question)
        out(f"\nRecall for {question!r} (asked {ASKED_AT:%d %b %Y}):")
        if result.window is not None:
            found = "nothing recorded" if result.window_empty else "recall stays inside it"
            out(f"  time window: {result.window.label} — {found}")
        for item in result.items[:5]:
            repeat = f" (and {item.count - 1} more times like it)" if item.count > 1 else ""
            out(
                f"  {item.score:.3f}  {item.episode.at:%d %b}  {item.episode.summary}{repeat}"
                f"  [{', '.join(item.pools)}]"
            )

    report = memory.verify_chain(DEMO_PAIR)
    out(f"\nChain check: {report}")
    checkpoint = memory.checkpoint(DEMO_PAIR)
    out(f"Checkpoint to keep elsewhere: seq {checkpoint.seq}, head {checkpoint.head_hash[:16]}…")
    memory.close()

    tampered = home / "demo-tampered.db"
    shutil.copyfile(db, tampered)
    conn = sqlite3.connect(tampered)
    conn.execute(
        "UPDATE episodes SET text = ? WHERE student_id = ? AND subject_id = ? AND seq = 5",
        ("Check on osmosis (quietly marked right)", DEMO_PAIR.student_id, DEMO_PAIR.subject_id),
    )
    conn.commit()
    conn.close()
    out("\nA copy where someone edited episode 5 directly in the table:")
    copy = TutorMemory(store=SqliteStore(tampered), clock=clock)
    broken = copy.verify_chain(DEMO_PAIR)
    out(f"Chain check of the copy: {broken}")
    return 0 if report.intact and not broken.intact else 1
