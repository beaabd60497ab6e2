"""`make demo`, first cut: a fresh embedded store, a short history, the chain, a tampered copy."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.episodes import Episode, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import SAMPLE_HISTORY
from tutor_memory.service import TutorMemory

DEMO_PAIR = Pair("demo-student", "biology")


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

    clock = FixedClock(SAMPLE_HISTORY[0].at)
    store = SqliteStore(db)
    memory = TutorMemory(store=store, clock=clock)
    out(f"A fresh embedded store: {db}")
    out(f"Appending a short history for {DEMO_PAIR} (five languages):")
    for event in SAMPLE_HISTORY:
        memory.record(
            DEMO_PAIR,
            event.kind,
            event.text,
            evidence=event.evidence,
            at=event.at,
            concepts=event.concepts,
            ref=event.ref,
        )
    for episode in memory.history(DEMO_PAIR):
        out(describe(episode))

    report = memory.verify_chain(DEMO_PAIR)
    out(f"\nChain check: {report}")
    checkpoint = memory.checkpoint(DEMO_PAIR)
    out(f"Checkpoint to keep elsewhere: seq {checkpoint.seq}, head {checkpoint.head_hash[:16]}…")
    store.close()

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
