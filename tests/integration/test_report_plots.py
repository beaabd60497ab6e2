"""The report's pictures say what the report says, and no more: the material's readiness and the
student's belief are two marks on the map; the calibration curve shows counts and intervals,
never joins sparse buckets, and draws nothing before five predicted checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.colors import to_hex

from tutor_memory.bootstrap import App
from tutor_memory.domain.beliefs import Claim
from tutor_memory.domain.calibration import wilson_interval
from tutor_memory.domain.episodes import Pair
from tutor_memory.report_plots import (
    BAND_COLOURS,
    BELIEF_RINGS,
    concept_map_figure,
    concept_marks,
    legend_handles,
    reliability_figure,
)
from tutor_memory.samples import sample_subject

from .test_reports import JULY, check, new_app


@pytest.fixture
def app(tmp_path: Path) -> App:
    return new_app(tmp_path / "tm")


def with_map(app: App, pair: Pair) -> None:
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=JULY)


def test_a_concept_passed_once_and_failed_since_is_confirmed_material_and_a_struggle(
    app: App, pair: Pair
) -> None:
    with_map(app, pair)
    check(app, pair, "osmosis", "right", None, 1)  # confirms the material, once and for all
    for n in range(2, 6):
        check(app, pair, "osmosis", "wrong", None, n)
    check(app, pair, "nucleus", "right", None, 6)
    report = app.reports.report(pair)

    marks = concept_marks(report)
    osmosis, nucleus = marks["osmosis"], marks["nucleus"]
    assert osmosis.band == "confirmed" and osmosis.fill == BAND_COLOURS["confirmed"]
    assert osmosis.belief is not None and osmosis.belief.claim is Claim.STRUGGLES
    assert osmosis.ring == BELIEF_RINGS[Claim.STRUGGLES][0]
    assert osmosis.label == f"struggles with ({osmosis.belief.confidence:.2f})"
    assert nucleus.ring == BELIEF_RINGS[Claim.UNDERSTANDS][0]
    assert marks["cytoplasm"].ring is None  # no check, no belief: no ring
    # no fill can be mistaken for a student's colour
    assert not set(BAND_COLOURS.values()) & {colour for colour, _ in BELIEF_RINGS.values()}

    figure = concept_map_figure(report)
    (ax,) = figure.axes
    rings = {c.get_gid(): c for c in ax.collections if (c.get_gid() or "").startswith("belief")}
    assert set(rings) == {"belief-understands", "belief-struggles"}
    struggling = rings["belief-struggles"]
    assert len(struggling.get_offsets()) == 1  # osmosis alone
    assert {to_hex(c) for c in struggling.get_edgecolors()} == {BELIEF_RINGS[Claim.STRUGGLES][0]}
    labels = [t.get_text() for t in ax.texts]
    assert any(t.startswith("Osmosis\nstruggles with") for t in labels)


def test_the_map_legend_names_the_material_and_the_student_apart(app: App, pair: Pair) -> None:
    with_map(app, pair)
    labels = [h.get_label() for h in legend_handles(app.reports.report(pair))]
    assert "Fill — the material's readiness (about the files):" in labels
    assert "Ring — the student's belief (from their checks):" in labels
    assert "confirmed by a passing check (0.85)" in labels
    assert "student understands it" in labels and "student struggles with it (dashed)" in labels
    material = labels.index("Fill — the material's readiness (about the files):")
    student = labels.index("Ring — the student's belief (from their checks):")
    assert material < labels.index("confirmed by a passing check (0.85)") < student


def curve_marks(report_figure: object) -> tuple[list[object], list[str]]:
    curve = report_figure.axes[0]  # type: ignore[attr-defined]
    return list(curve.lines) + list(curve.collections), [t.get_text() for t in curve.texts]


def test_under_five_predicted_checks_no_curve_is_drawn(app: App, pair: Pair) -> None:
    for n, (verdict, predicted) in enumerate(
        [("right", 0.7), ("wrong", 0.2), ("right", 0.9), ("right", 0.75)]
    ):
        check(app, pair, "osmosis", verdict, predicted, n)
    report = app.reports.report(pair)
    assert report.calibration.checks == 4

    figure = reliability_figure(report)
    marks, texts = curve_marks(figure)
    (diagonal,) = marks  # the perfect-calibration line, nothing of the student's
    assert list(diagonal.get_xdata()) == [0, 1]  # type: ignore[attr-defined]
    assert any("4 checks carry a prediction" in t and "drawn from 5" in t for t in texts)
    assert not figure.axes[1].patches  # no count bars either


def test_from_five_predicted_checks_buckets_are_dots_with_counts_and_intervals_never_joined(
    app: App, pair: Pair
) -> None:
    outcomes = [("right", 0.72), ("right", 0.75), ("wrong", 0.71), ("right", 0.3), ("wrong", 0.9)]
    for n, (verdict, predicted) in enumerate(outcomes):
        check(app, pair, "osmosis", verdict, predicted, n)
    report = app.reports.report(pair)
    cal = report.calibration
    assert cal.calibrated and [b.count for b in cal.buckets] == [1, 3, 1]

    figure = reliability_figure(report)
    curve = figure.axes[0]
    for line in curve.lines:
        xs = list(line.get_xdata())
        joined = line.get_linestyle() not in ("None", "") and len(set(xs)) > 1
        # only the diagonal spans x; every other mark is a dot or a vertical interval
        assert not joined or xs == [0, 1], xs
    texts = [t.get_text() for t in curve.texts]
    assert texts == ["n=1", "n=3", "n=1"]
    # each interval is Wilson's, around the dot
    seventy = next(b for b in cal.buckets if b.low == 0.7)
    assert (seventy.right, seventy.count) == (2, 3)
    low, high = wilson_interval(2, 3)
    assert seventy.interval == (low, high) and low < seventy.observed < high
    spans = [
        sorted(seg[:, 1]) for c in curve.collections for seg in c.get_segments() if len(seg) == 2
    ]
    assert [pytest.approx(low, abs=1e-3), pytest.approx(high, abs=1e-3)] in spans
    bars = [round(p.get_height()) for p in figure.axes[1].patches]
    assert sorted(h for h in bars if h) == [1, 1, 3]


def test_the_wilson_interval_is_wide_for_few_checks_and_stays_inside_zero_and_one() -> None:
    assert wilson_interval(2, 2) == pytest.approx((0.3424, 1.0), abs=1e-4)
    assert wilson_interval(0, 1) == pytest.approx((0.0, 0.7935), abs=1e-4)
    low, high = wilson_interval(80, 100)
    assert (round(low, 3), round(high, 3)) == (0.711, 0.867)
    assert wilson_interval(0, 0) == (0.0, 1.0)
