"""`make demo`: the whole story on the embedded default, in well under a minute after set-up.

A fresh store; the sample subject (a PDF and a Markdown file) read into the concept map; a
sample history spanning July to November in five languages (repeated questions, checks right
and wrong, a teaching message, an answer that narrates July, an empty October) replayed through
the same use cases a chat uses; the nightly loop for every past day; then the block for an
ordinary question, a record question, a month with work and an empty month; the report; the
hash chain verified, and a tampered copy caught.
"""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from importlib.resources import as_file, files
from pathlib import Path
from zoneinfo import ZoneInfo

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import FixedClock
from tutor_memory.replay import replay
from tutor_memory.settings import Settings
from tutor_memory.usecases.reports import render_text

DEMO_PAIR = Pair("demo-student", "biology")
ASKED_AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
QUESTIONS = (
    ("An ordinary question", "Why does water move into a plant cell?"),
    ("A record question", "what did I get wrong so far?"),
    ("A month with work", "what did we cover in July?"),
    ("An empty month", "what did we do in October?"),
)


def _app(folder: Path) -> App:
    from tutor_memory.settings import on_folder

    return build_app(on_folder(Settings.from_env(), folder), clock=FixedClock(ASKED_AT))


def _progress(out: Callable[[str], None]) -> Callable[[int, int], None]:
    def show(done: int, total: int) -> None:
        if done == total or done % 5 == 0:
            out(f"  … {done}/{total} events")

    return show


def _sections(out: Callable[[str], None]) -> Callable[[str], None]:
    """A section's heading, numbered 1, 2, 3, … in the order shown (a blank line before all
    but the first)."""
    numbers = itertools.count(1)

    def heading(title: str) -> None:
        number = next(numbers)
        out(("" if number == 1 else "\n") + f"{number}. {title}")

    return heading


def run_demo(home: Path, out: Callable[[str], None] = print) -> int:
    store = home / "demo"
    shutil.rmtree(store, ignore_errors=True)
    shutil.rmtree(home / "demo-tampered", ignore_errors=True)
    home.mkdir(parents=True, exist_ok=True)
    section = _sections(out)

    section(f"A fresh embedded store in {store}; replaying the sample history (files first):")
    with as_file(files("tutor_memory") / "data" / "sample-history.jsonl") as history:
        report = replay(history, store, _app, on_progress=_progress(out))
    out(
        f"   {report.events} events in {sum(report.seconds.values()):.1f} s "
        f"(embedding {report.seconds.get('embed', 0):.1f} s of it)"
    )
    app = _app(store)
    assert report.first_at is not None and report.last_at is not None
    day, nights, consolidated = report.first_at.date(), 0, 0
    while day <= report.last_at.date():  # the nightly loop, for each past day in order
        consolidated += sum(1 for r in app.nightly.run(day).reports if r.consolidation_id)
        day, nights = day + timedelta(days=1), nights + 1
    out(f"   The nightly loop ran for {nights} nights; {consolidated} days were consolidated.")
    cmap = app.ports.store.load_map(DEMO_PAIR)
    out(
        f"   The map has {len(cmap.concepts)} concepts; the files explain "
        f"{round(100 * cmap.subject_readiness)}% of the material."
    )

    for title, question in QUESTIONS:
        result = app.turns.turn(DEMO_PAIR, question)
        section(f"{title} — {question!r} (asked {ASKED_AT:%d %b %Y}):")
        out(result.block)
        out(f"   ({result.tokens} tokens; {len(result.memory_ids)} memories shown)")

    section("The report:")
    out(render_text(app.reports.report(DEMO_PAIR), ZoneInfo(app.settings.timezone)))

    chain = app.memory.verify_chain(DEMO_PAIR)
    section(f"The hash chain: {chain}")
    app.close()

    tampered = home / "demo-tampered"
    shutil.copytree(store, tampered)
    conn = sqlite3.connect(tampered / "memory.db")
    conn.execute(
        "UPDATE episodes SET text = ? WHERE student_id = ? AND subject_id = ? AND seq = 10",
        ("Check on osmosis (quietly marked right)", DEMO_PAIR.student_id, DEMO_PAIR.subject_id),
    )
    conn.commit()
    conn.close()
    broken = _app(tampered).memory.verify_chain(DEMO_PAIR)
    out(f"   A copy where someone edited episode 10 in the table: {broken}")
    return 0 if chain.intact and not broken.intact else 1
