"""Calibration of predicted mastery against outcomes."""

from __future__ import annotations

import pytest

from tutor_memory.domain.calibration import calibrate


def test_a_perfectly_calibrated_tutor_has_no_error() -> None:
    pairs = [(0.25, True)] + [(0.25, False)] * 3 + [(0.85, True)] * 17 + [(0.85, False)] * 3
    result = calibrate(pairs)
    assert result.checks == 24 and result.calibrated
    assert [(b.low, b.count, b.observed) for b in result.buckets] == [
        (0.2, 4, 0.25),
        (0.8, 20, 0.85),
    ]
    assert result.ece == pytest.approx(0.0)


def test_an_overconfident_tutor_shows_its_gap() -> None:
    result = calibrate([(0.9, False)] * 3 + [(0.9, True)] * 2)
    assert result.ece == pytest.approx(0.5)
    assert result.buckets[0].mean_predicted == 0.9 and result.buckets[0].observed == 0.4


def test_fewer_than_five_predictions_are_a_ranking_not_a_probability() -> None:
    result = calibrate([(0.7, True)] * 4)
    assert not result.calibrated
    assert result.limit is not None and "treat confidence as a ranking" in result.limit


def test_no_prediction_at_all_has_no_error_figure() -> None:
    result = calibrate([])
    assert result.checks == 0 and result.ece is None and result.buckets == ()


def test_a_prediction_of_one_falls_in_the_last_bin() -> None:
    (bucket,) = calibrate([(1.0, True)]).buckets
    assert (bucket.low, bucket.high) == (0.9, 1.0)
