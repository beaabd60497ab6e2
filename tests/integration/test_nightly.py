"""The nightly loop on the embedded default, over a recorded history (SPEC §9, §10)."""

from __future__ import annotations

import argparse
import json
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.commands import add_nightly_command, run_nightly_command
from tutor_memory.domain.annotations import AnnotationKind, current
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair, QuizEvidence
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.nightly import Nightly

PAIR = Pair("s-42", "biology")
DAY = date(2026, 3, 2)
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NIGHT_RUN = datetime(2026, 3, 3, 0, 30, tzinfo=UTC)  # the schedule fires after midnight
NIGHT = datetime(2026, 3, 3, tzinfo=UTC)  # the end of the day: what the night stamps
PDF, NOTES = "cell-biology.pdf", "plant-and-animal-cells.md"
TO_CONFIRM = ", to confirm at the next check"


def open_app(folder: Path, at: datetime) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder)
    return build_app(settings, clock=FixedClock(at))


def check(app: App, topic: str, verdict: str, at: datetime, predicted: float | None = None) -> None:
    evidence = CheckEvidence(topic, verdict, predicted_mastery=predicted)  # type: ignore[arg-type]
    app.learning.record_check(PAIR, f"Check on {topic}", evidence, at=at)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two months of one student's biology, written once and copied for each test."""
    folder = tmp_path_factory.mktemp("history") / "tm"
    app = open_app(folder, MORNING - timedelta(days=70))
    for name, data in sample_subject():
        app.maps.ingest(PAIR, name, name, data, at=MORNING - timedelta(days=70))
    for n in range(6):  # mitochondria: settled early, then one check that moves nothing
        check(app, "mitochondria", "right", MORNING - timedelta(days=70, minutes=-n))
    check(app, "mitochondria", "right", MORNING - timedelta(days=20))
    check(app, "cytoplasm", "right", MORNING - timedelta(days=60), 0.6)  # then silence
    check(app, "cytoplasm", "right", MORNING - timedelta(days=60, minutes=-5), 0.6)
    app.turns.record_answer(
        PAIR, "Plant cells have a cell wall.", file_id=NOTES, page=1,
        at=MORNING - timedelta(days=60),
    )  # fmt: skip
    check(app, "osmosis", "wrong", MORNING - timedelta(days=10), 0.5)
    app.memory.register_file(
        PAIR, NOTES, NOTES, b"# Cells\nRewritten notes.", at=MORNING - timedelta(days=5)
    )
    # The day itself.
    ask = lambda text, minutes: app.memory.record(  # noqa: E731
        PAIR, Kind.QUESTION, text, concepts=["Osmosis"], at=MORNING + timedelta(minutes=minutes)
    )
    ask("What is osmosis?", 0)
    app.turns.record_answer(
        PAIR, "Osmosis is water crossing a membrane.", file_id=PDF, page=2,
        at=MORNING + timedelta(minutes=1),
    )  # fmt: skip
    ask("What is osmosis?", 10)
    app.turns.record_answer(PAIR, "Let us try a check.", at=MORNING + timedelta(minutes=11))
    check(app, "osmosis", "wrong", MORNING + timedelta(minutes=12), 0.7)
    check(app, "cytoplasm", "right", MORNING - timedelta(days=200))  # a replayed, older check
    app.memory.record(
        PAIR, Kind.QUIZ, "Quiz on osmosis", evidence=QuizEvidence(3, 5, ("osmosis",)),
        at=MORNING + timedelta(minutes=30),
    )  # fmt: skip
    app.close()
    return folder


@pytest.fixture
def app(history: Path, tmp_path: Path) -> App:
    shutil.copytree(history, tmp_path / "tm")
    return open_app(tmp_path / "tm", NIGHT_RUN)


class Crash(RuntimeError):
    """The process dying (not a domain error: nothing catches it)."""


WRITES = {"append", "add_belief", "record_citation_check", "put_document", "annotate", "save_map"}


class Recording:
    """The store as the night sees it: counts the writes that land, and can crash once, just
    before or just after the Nth of them."""

    def __init__(self, inner: Any, crash_at: int | None = None, after: bool = False) -> None:
        self.inner, self.crash_at, self.after, self.writes = inner, crash_at, after, 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name not in WRITES:
            return method

        def write(*args: Any, **kwargs: Any) -> Any:
            if not self.after and self.crash_at == self.writes + 1:
                raise Crash(f"before write {self.crash_at} ({name})")
            result = method(*args, **kwargs)
            if name != "append" or result.created:
                self.writes += 1
                if self.after and self.crash_at == self.writes:
                    raise Crash(f"after write {self.crash_at} ({name})")
            return result

        return write


def recorded(app: App, store: Recording) -> Nightly:
    memory = TutorMemory(
        Ports(store=store, clock=app.ports.clock, index=app.ports.index, timezone="UTC")
    )  # type: ignore[arg-type]
    return Nightly(memory.ports, memory)


def snapshot(app: App) -> dict[str, Any]:
    """Everything the night may write, as a user of the stores would read it."""
    store: Any = app.ports.store
    episodes = list(store.iter_episodes(PAIR))
    keys = sorted({b.concept_key for b in store.beliefs(PAIR)} | set(store.concept_names(PAIR)))
    docs = ("scan", "working_set", "self_model", f"night:{DAY}")
    return {
        "episodes": [(e.seq, e.episode_id) for e in episodes],
        "annotations": {
            e.episode_id: [(a.kind, a.value, a.at, a.detail)
                           for a in store.annotations(PAIR, e.episode_id)]
            for e in episodes
        },
        "beliefs": {key: store.belief_history(PAIR, key) for key in keys},
        "citations": store.citations(PAIR),
        "documents": {name: getattr(store.document(PAIR, name), "body", None) for name in docs},
    }  # fmt: skip


# --- the night --------------------------------------------------------------------------------


def test_a_day_of_work_becomes_one_summary_the_next_night(app: App) -> None:
    nightly = app.nightly
    assert nightly.night_of() == DAY and nightly.active_pairs(DAY) == [PAIR]
    run = nightly.run()
    (report,) = run.reports
    assert (run.day, report.status, run.failures) == ("2026-03-02", "done", ())
    summary = app.memory.episode(PAIR, report.consolidation_id or "")
    assert summary.kind is Kind.CONSOLIDATION and summary.at.date() == DAY
    assert summary.text.splitlines() == [
        "Day 2026-03-02: 6 episodes — 2 questions, 2 answers, 1 check, 1 quiz.",
        "Checks: 0 right, 1 wrong.",
        "Topics: Osmosis.",
        "Most salient:",
        "- check on osmosis: wrong",
        "- quiz: 3/5 on osmosis",
        "- answered: Osmosis is water crossing a membrane.",
        "- answered: Let us try a check.",
        "- asked: What is osmosis? (2 times)",
    ]  # the replayed check of last September belongs to its own day
    recalled = app.memory.recall(PAIR, "what did we cover yesterday?", at=NIGHT_RUN)
    assert summary.episode_id in [item.episode.episode_id for item in recalled.items]


def test_a_quiet_day_writes_nothing(app: App) -> None:
    nightly = app.nightly
    quiet = date(2026, 2, 26)
    before = snapshot(app)
    assert nightly.active_pairs(quiet) == []
    assert nightly.run(quiet).reports == ()
    assert nightly.run_pair(PAIR, quiet).status == "quiet"
    assert snapshot(app) == before


def test_a_day_that_has_not_ended_has_no_night_yet(app: App) -> None:
    from tutor_memory.domain.errors import ValidationError

    before = snapshot(app)
    with pytest.raises(ValidationError, match="2026-03-03 has not ended yet in UTC"):
        app.nightly.run_pair(PAIR, date(2026, 3, 3))
    assert snapshot(app) == before


def test_the_same_night_run_twice_writes_nothing_the_second_time(app: App) -> None:
    first = app.nightly.run_pair(PAIR, DAY)
    after_first = snapshot(app)
    store = Recording(app.ports.store)
    second = recorded(app, store).run_pair(PAIR, DAY)
    assert store.writes == 0 and snapshot(app) == after_first
    assert second.status == "already done" and second.consolidation_id == first.consolidation_id
    assert app.nightly.night(PAIR, DAY) == first


def test_a_night_interrupted_at_any_write_finishes_on_restart_without_duplicates(
    history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Runs are compared with each other: the night's summary gets the same body salt in each
    # (in use it is random, so its id would differ from run to run).
    monkeypatch.setattr("tutor_memory.adapters.sqlite.episodes.new_salt", lambda: "00" * 32)

    def fresh(name: str) -> App:
        shutil.copytree(history, tmp_path / name)
        return open_app(tmp_path / name, NIGHT_RUN)

    clean = fresh("clean")
    counted = Recording(clean.memory.ports.store)
    recorded(clean, counted).run_pair(PAIR, DAY)
    expected, total = snapshot(clean), counted.writes
    assert total >= 8  # summary, decay, tally, three citations, working set, self-model, marker
    for n in range(1, total + 1):
        for after in (False, True):
            app = fresh(f"crash-{n}-{after}")
            crashing = Recording(app.ports.store, crash_at=n, after=after)
            with pytest.raises(Crash):
                recorded(app, crashing).run_pair(PAIR, DAY)
            restarted = Recording(app.ports.store)
            recorded(app, restarted).run_pair(PAIR, DAY)
            where = f"crash {'after' if after else 'before'} write {n} of {total}"
            assert snapshot(app) == expected, where
            assert crashing.writes + restarted.writes == total, where  # nothing written twice
            app.close()


def test_a_belief_untouched_for_45_days_decays_and_the_next_check_confirms_it(app: App) -> None:
    report = app.nightly.run_pair(PAIR, DAY)
    assert report.decayed == ("cytoplasm",)  # mitochondria was checked 20 days ago
    beliefs = {b.concept_key: b for b in app.learning.beliefs(PAIR)}
    assert beliefs["cytoplasm"].line() == f"understands Cytoplasm (0.63{TO_CONFIRM})"
    assert not beliefs["mitochondria"].needs_confirmation
    assert not beliefs["osmosis"].needs_confirmation
    history = app.learning.belief_history(PAIR, "cytoplasm")
    assert history[-2].superseded_by == history[-1].belief_id
    assert history[-1].reason.startswith("decayed: no check for 60 days (since 2026-01-01)")
    assert history[-1].created_at == NIGHT
    check(app, "cytoplasm", "right", NIGHT_RUN + timedelta(hours=9))
    confirmed = {b.concept_key: b for b in app.learning.beliefs(PAIR)}["cytoplasm"]
    assert not confirmed.needs_confirmation
    assert confirmed.reason.startswith("confirmed by a new check after a long quiet")


def test_the_night_checks_each_citation_against_the_files(app: App) -> None:
    report = app.nightly.run_pair(PAIR, DAY)
    assert report.verified == {"changed_replaced": 1, "holds": 1, "unverifiable": 1}
    found = {}
    for answer in (e for e in app.memory.history(PAIR) if e.kind is Kind.ANSWER):
        note = current(
            app.ports.store.annotations(PAIR, answer.episode_id), AnnotationKind.VERIFICATION
        )
        assert note is not None and note.at == NIGHT
        found[answer.text] = (note.value, note.detail)
    assert found == {
        "Plant cells have a cell wall.": (
            "changed_replaced",
            f"the file {NOTES} was replaced by version 2 on 2026-02-25; the answer cited version 1",
        ),
        "Osmosis is water crossing a membrane.": (
            "holds", f"the file {PDF} is unchanged (version 1)",
        ),
        "Let us try a check.": (
            "unverifiable", "cites no file (a conversation, a check): nothing to check",
        ),
    }  # fmt: skip


def test_a_night_run_late_checks_no_answer_given_after_it(app: App, tmp_path: Path) -> None:
    """A backfill (nights run after the fact, ``replay --nightly``) ran an early night when
    later answers stood in the queue: it verified them, stamped before they were given."""
    app.turns.record_answer(
        PAIR, "Cells have a nucleus.", file_id=PDF, page=1, at=MORNING + timedelta(days=2)
    )
    assert app.nightly.run_pair(PAIR, DAY).verified == {
        "changed_replaced": 1, "holds": 1, "unverifiable": 1,
    }  # fmt: skip
    later = next(e for e in app.memory.history(PAIR) if e.text == "Cells have a nucleus.")
    verification = AnnotationKind.VERIFICATION
    assert current(app.ports.store.annotations(PAIR, later.episode_id), verification) is None
    app.close()
    later_app = open_app(tmp_path / "tm", NIGHT_RUN + timedelta(days=3))
    later_app.nightly.run_pair(PAIR, DAY + timedelta(days=2))  # its own night checks it
    note = current(later_app.ports.store.annotations(PAIR, later.episode_id), verification)
    assert note is not None and (note.value, note.at) == ("holds", NIGHT + timedelta(days=2))


def test_the_self_model_treats_confidence_as_a_ranking_until_five_predictions(app: App) -> None:
    nightly = app.nightly
    nightly.run_pair(PAIR, DAY)
    model = nightly.self_model(PAIR)
    assert model is not None and model.calibration.checks == 4 and not model.calibrated
    assert model.limits[0] == (
        "only 4 check(s) carry a prediction (calibration needs 5): "
        "treat confidence as a ranking, not a probability"
    )
    assert model.checks == 12 and model.beliefs == 3 and model.to_confirm == 1
    assert model.verification["changed_replaced"] == 1 and model.never_verified == 0

    check(app, "osmosis", "right", NIGHT_RUN + timedelta(hours=10), 0.4)
    app.ports.clock.at += timedelta(days=1)  # type: ignore[attr-defined]
    head = app.ports.store.head(PAIR)
    assert nightly.run_pair(PAIR, date(2026, 3, 3)).through_seq == (head.seq + 1 if head else 0)
    model = nightly.self_model(PAIR)
    assert model is not None and model.calibrated and model.calibration.checks == 5
    assert model.calibration.ece is not None and not any("ranking" in x for x in model.limits)


def test_the_working_set_holds_the_belief_lines_and_the_days_summary(app: App) -> None:
    nightly = app.nightly
    report = nightly.run_pair(PAIR, DAY)
    held = nightly.working_set(PAIR)
    assert held is not None and held.day == "2026-03-02"
    assert held.belief_ids == tuple(b.belief_id for b in app.learning.beliefs(PAIR))
    assert f"understands Cytoplasm (0.63{TO_CONFIRM})" in dict(held.beliefs).values()
    assert held.to_confirm == ("Cytoplasm",)
    assert held.map_header is not None and held.map_header.startswith("SUBJECT MAP (")
    assert held.day_ids == (report.consolidation_id,)
    assert report.consolidation_id not in held.recent_ids and len(held.recent_ids) == 20
    head = app.ports.store.head(PAIR)
    assert head is not None and held.through_seq == head.seq
    assert held.changed_ids == tuple(
        e.episode_id for e in app.memory.history(PAIR) if e.text == "Plant cells have a cell wall."
    )


# --- the command line -------------------------------------------------------------------------


def command(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tutor-memory")
    add_nightly_command(parser.add_subparsers(dest="command"))
    return parser.parse_args(["nightly", *argv])


def test_the_nightly_command_runs_yesterday_and_says_what_each_pair_did(
    app: App, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_nightly_command(command(), app) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "night of 2026-03-02 (UTC): 1 pair(s)"
    assert out[1].startswith("  s-42/biology  done: summary e") and "1 belief(s) decayed" in out[1]
    assert run_nightly_command(command("--day", "2026-03-02", "--json"), app) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["status"] == "already done"


def test_the_nightly_command_refuses_half_a_pair(app: App) -> None:
    from tutor_memory.domain.errors import ValidationError

    with pytest.raises(ValidationError, match="give both"):
        run_nightly_command(command("--student", "s-42"), app)


def test_the_nightly_command_refuses_a_day_that_has_not_ended_before_any_pair(app: App) -> None:
    from tutor_memory.domain.errors import ValidationError

    before = snapshot(app)
    with pytest.raises(ValidationError, match="2026-03-03 has not ended yet in UTC"):
        run_nightly_command(command("--day", "2026-03-03"), app)
    assert snapshot(app) == before
