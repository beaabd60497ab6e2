"""A pair's report on the embedded default: every figure traced back to the rows (SPEC §11)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.commands import add_report_command, run_report_command
from tutor_memory.domain.episodes import CheckEvidence, Episode, Pair
from tutor_memory.domain.errors import NotFoundError
from tutor_memory.domain.mapblock import percent
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.reports import render_markdown, render_text, report_json

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
JULY = datetime(2026, 7, 1, tzinfo=UTC)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def day(n: int, minute: int = 0) -> datetime:
    return JULY + timedelta(days=n, minutes=minute)


def new_app(folder: Path) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder)
    return build_app(settings, clock=FixedClock(NOW))


def check(app: App, pair: Pair, topic: str, verdict: str, predicted: float | None, n: int) -> None:
    evidence = CheckEvidence(topic, verdict, predicted_mastery=predicted)  # type: ignore[arg-type]
    app.learning.record_check(pair, f"Check on {topic}", evidence, at=day(n))


def ask_and_answer(
    app: App, pair: Pair, question: str, answer: str, n: int, file_id: str | None = None
) -> tuple[Episode, Episode]:
    asked = app.memory.record(pair, "question", question, at=day(n)).episode
    said = app.turns.record_answer(pair, answer, file_id=file_id, at=day(n, 1)).episode
    return asked, said


@pytest.fixture
def app(tmp_path: Path) -> App:
    return new_app(tmp_path / "tm")


@pytest.fixture
def known(app: App, pair: Pair) -> dict[str, Episode]:
    """A pair with known rows: the sample subject's map, five checks (four with a prediction),
    four answers with stances, verification results written beside them, one taught concept."""
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=JULY)
    check(app, pair, "osmosis", "wrong", 0.8, 1)
    check(app, pair, "osmosis", "right", 0.3, 2)
    check(app, pair, "cytoplasm", "right", 0.7, 3)
    check(app, pair, "ask me the questions", "wrong", None, 4)  # an utterance: tied to nothing
    check(app, pair, "nucleus", "right", 0.75, 5)
    _, a1 = ask_and_answer(
        app, pair, "What is osmosis?", "Water crossing a membrane.", 6, "cell-biology.pdf"
    )
    q2, a2 = ask_and_answer(app, pair, "Why do plants wilt in salty soil?", "Not in your files.", 7)
    q3, a3 = ask_and_answer(
        app,
        pair,
        "Who discovered the cell?",
        "The files do not say who.",
        8,
        "plant-and-animal-cells.md",
    )
    a4 = app.turns.record_answer(pair, "See page 2.", file_id="cell-biology.pdf", at=day(9)).episode
    note = app.memory.annotate
    note(pair, a1.episode_id, "stance", "answered", at=day(6, 2))
    note(pair, a2.episode_id, "stance", "could_not", at=day(7, 2))
    note(pair, a3.episode_id, "stance", "partial", at=day(8, 2))
    note(pair, a3.episode_id, "stance", "could_not", at=day(8, 3))  # the newest stance counts
    note(pair, a1.episode_id, "verification", "holds", at=day(20))
    note(
        pair,
        a1.episode_id,
        "verification",
        "changed_replaced",
        at=day(40),
        detail="cell-biology.pdf has a version 2",
    )
    note(pair, a2.episode_id, "verification", "unverifiable", at=day(40))
    note(pair, a3.episode_id, "verification", "changed_removed", at=day(41))
    app.maps.teach(
        pair, "Remember that in our class we call the Golgi body the post office", at=day(10)
    )
    return {"q2": q2, "a2": a2, "q3": q3, "a3": a3, "a1": a1, "a4": a4}


def test_every_figure_of_the_report_comes_from_the_rows(
    app: App, pair: Pair, known: dict[str, Episode]
) -> None:
    report = app.reports.report(pair)
    assert report.generated_at == NOW

    # The log: 2 file arrivals, 5 checks, 3 questions, 4 answers, 1 taught note.
    assert report.episodes == 15
    assert dict(report.counts) == {"answer": 4, "check": 5, "file": 2, "question": 3, "taught": 1}
    assert report.last_at == day(10)

    # Beliefs, as the block shows them.
    assert [b.line() for b in report.beliefs] == [
        "understands Cytoplasm (0.67)",
        "understands Nucleus (0.67)",
        "understands Osmosis (0.53)",
    ]

    # Checks: the utterance is recorded but tied to nothing.
    c = report.checks
    assert (c.recorded, c.right, c.wrong, c.tied, c.on_map) == (5, 3, 2, 4, 4)

    # The questions the files could not answer, with the question before each.
    stances = report.stances
    assert stances.answers == 4
    assert stances.counts == {"answered": 1, "partial": 0, "could_not": 2, "none": 1}
    assert [(u.answer_id, u.question, u.asked_at, u.answered_at) for u in stances.could_not] == [
        (known["a2"].episode_id, "Why do plants wilt in salty soil?", day(7), day(7, 1)),
        (known["a3"].episode_id, "Who discovered the cell?", day(8), day(8, 1)),
    ]
    assert stances.could_not[1].stance_at == day(8, 3)

    # Calibration: (0.8, wrong), (0.3, right), (0.7, right), (0.75, right); one check without.
    cal = report.calibration
    assert (cal.checks, report.checks_without_prediction, cal.calibrated) == (4, 1, False)
    assert [(b.low, b.count, b.mean_predicted, b.observed) for b in cal.buckets] == [
        (0.3, 1, 0.3, 1.0),
        (0.7, 2, 0.725, 1.0),
        (0.8, 1, 0.8, 0.0),
    ]
    assert cal.ece == pytest.approx((0.7 + 2 * 0.275 + 0.8) / 4)
    assert cal.limit is not None and "treat confidence as a ranking, not a probability" in cal.limit

    # Verification: the newest result of each episode.
    ver = report.verification
    assert ver.results == {
        "holds": 0,
        "changed_replaced": 1,
        "changed_removed": 1,
        "unverifiable": 1,
    }
    assert (ver.verified, ver.citing, ver.citing_unverified) == (3, 3, 1)
    assert ver.last_checked_at == day(41)
    assert [(x.episode_id, x.result, x.detail) for x in ver.changed] == [
        (known["a1"].episode_id, "changed_replaced", "cell-biology.pdf has a version 2"),
        (known["a3"].episode_id, "changed_removed", ""),
    ]

    # The subject, from the stored map.
    cmap = app.maps.maps.load_map(pair)
    sub = report.subject
    assert sub.concepts == len(cmap.concepts) == 15
    assert sub.readiness == cmap.subject_readiness and sub.percent == percent(
        cmap.subject_readiness
    )
    assert Counter(c.readiness for c in cmap.concepts.values()) == {
        1.0: sub.bands["taught"],
        0.85: sub.bands["confirmed"],
        0.6: sub.bands["explained"],
        0.35: sub.bands["named"],
    }
    assert sub.bands == {"taught": 1, "confirmed": 3, "explained": 10, "named": 1}
    assert [list(layer) for layer in sub.teaching_order] == [
        [cmap.concepts[k].name for k in layer] for layer in cmap.teaching_order
    ]
    assert "Golgi body" in sub.teaching_order[0]


def test_the_text_and_markdown_say_each_figure_in_words(
    app: App, pair: Pair, known: dict[str, Episode]
) -> None:
    report = app.reports.report(pair)
    for rendered in (render_text(report), render_markdown(report)):
        assert "- understands Osmosis (0.53) — from 2 checks, since 3 Jul 2026" in rendered
        assert (
            "5 checks recorded (3 right, 2 wrong): 4 tied to a concept (4 of them on the map), "
            "1 not tied to any."
        ) in rendered
        assert "2 answers of 4 could not be answered from the files" in rendered
        assert (
            '- asked 9 Jul 2026: "Who discovered the cell?" → answered 9 Jul 2026: '
            f'"The files do not say who." ({known["a3"].episode_id})'
        ) in rendered
        assert "4 checks carry the mastery predicted before them (1 does not)" in rendered
        assert "expected calibration error 0.512" in rendered
        assert "treat confidence as a ranking, not a probability" in rendered
        assert "- 1 memory cites a file that no longer exists." in rendered
        assert "- 1 memory cites a file that has since been replaced." in rendered
        assert "1 memory cites a file and has not been verified yet." in rendered
        assert (
            f"The files explain {report.subject.percent}% of the subject (15 concepts; "
            "this is about the material, not the student)."
        ) in rendered
        for i, layer in enumerate(report.subject.teaching_order, 1):
            assert f"\n{i}. {', '.join(layer)}\n" in rendered
    assert "| 0.7–0.8 | 2 | 0.72 | 1.00 |" in render_markdown(report)


def test_the_history_of_one_belief_shows_what_changed_and_why(
    app: App, pair: Pair, known: dict[str, Episode]
) -> None:
    app.learning.rederive(pair, at=NOW, force=True)  # retire every belief, replay the checks
    report = app.reports.report(pair, history="Osmosis")  # a name finds its key
    assert report.history_key == "osmosis"
    rows = report.history
    assert [(b.line(), b.generation) for b in rows] == [
        ("struggles with Osmosis (0.67)", 0),
        ("understands Osmosis (0.53)", 0),
        ("struggles with Osmosis (0.67)", 1),
        ("understands Osmosis (0.53)", 1),
    ]
    assert rows[0].superseded_by == rows[1].belief_id and rows[1].retired_at == NOW
    assert rows[1].reason.startswith("changed its mind: struggles with → understands")
    data = report_json(report)
    assert [r["id"] for r in data["history"]["rows"]] == [b.belief_id for b in rows]
    text = render_text(report)
    assert "HOW THE BELIEF ABOUT OSMOSIS CHANGED (OLDEST FIRST)" in text
    assert f"superseded by {rows[1].belief_id}" in text and "retired 30 Nov 2026" in text


def test_asking_for_a_belief_that_never_was_is_not_found(
    app: App, pair: Pair, known: dict[str, Episode]
) -> None:
    with pytest.raises(NotFoundError, match="no belief about 'Meiosis'"):
        app.reports.report(pair, history="Meiosis")


def test_a_pair_with_no_record_has_no_report(app: App) -> None:
    with pytest.raises(NotFoundError, match="no record of nobody/biology"):
        app.reports.report(Pair("nobody", "biology"))


def test_thirty_two_checks_none_tied_never_read_as_no_checks(app: App, pair: Pair) -> None:
    utterances = ("ask me the questions", "bueno ahora explícame todos los pasos", "what now?")
    for n in range(32):
        check(app, pair, utterances[n % 3], "right" if n % 2 else "wrong", None, n)
    report = app.reports.report(pair)
    said = "32 checks recorded, but none could yet be tied to a concept on the map."
    assert report.checks.recorded == 32 and report.checks.tied == 0 and report.beliefs == ()
    assert report_json(report)["checks"]["line"] == said
    for rendered in (render_text(report), render_markdown(report)):
        assert f"No belief yet. {said}" in rendered
        assert "no checks yet" not in rendered.lower() and "no check has" not in rendered.lower()
    assert "none of the 32 checks carries a predicted mastery" in render_text(report)


def run_cli(app: App, *argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tutor-memory")
    add_report_command(parser.add_subparsers(dest="command", required=True))
    return run_report_command(parser.parse_args(["report", *argv]), app)


def test_the_command_prints_json_that_is_the_report(
    app: App, pair: Pair, known: dict[str, Episode], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("--student", pair.student_id, "--subject", pair.subject_id)
    assert run_cli(app, *args, "--format", "json", "--history", "osmosis") == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == report_json(app.reports.report(pair, history="osmosis"))
    assert run_cli(app, *args, "--format", "markdown") == 0
    assert capsys.readouterr().out.startswith(f"# Report: {pair.student_id} in biology\n")
    assert run_cli(app, *args) == 0
    assert "QUESTIONS THE FILES COULD NOT ANSWER" in capsys.readouterr().out


def test_plots_are_written_as_png_files(
    app: App, pair: Pair, known: dict[str, Episode], tmp_path: Path
) -> None:
    folder = tmp_path / "plots"
    run_cli(app, "--student", pair.student_id, "--subject", pair.subject_id, "--plots", str(folder))
    for name in ("reliability.png", "concept-map.png"):
        data = (folder / name).read_bytes()
        assert data.startswith(PNG_SIGNATURE) and len(data) > 20_000


def test_plots_of_a_pair_with_no_map_and_no_prediction_are_still_drawn(
    app: App, pair: Pair, tmp_path: Path
) -> None:
    check(app, pair, "ask me the questions", "wrong", None, 0)
    folder = tmp_path / "plots"
    run_cli(app, "--student", pair.student_id, "--subject", pair.subject_id, "--plots", str(folder))
    assert sorted(p.name for p in folder.iterdir()) == ["concept-map.png", "reliability.png"]
    assert all(p.read_bytes().startswith(PNG_SIGNATURE) for p in folder.iterdir())


def test_a_report_without_plots_never_loads_matplotlib() -> None:
    code = (
        "import sys\n"
        "import tutor_memory.api.routes, tutor_memory.usecases.reports\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"
