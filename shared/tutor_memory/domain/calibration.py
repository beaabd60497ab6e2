"""Calibration: the mastery the tutor predicted before each check against the outcome (SPEC §10).

Predictions are bucketed into equal-width bins over [0, 1] (a prediction of exactly 1.0 falls
in the last bin); each bin reports how many checks it holds, their mean prediction and the
share that were right — the reliability curve. The expected calibration error is the
count-weighted mean gap between the two. The self-model may say "calibrated" only with at least
``CALIBRATION_MIN_CHECKS`` checks that carry a prediction (the article's five); before that its
limits say to treat confidence as a ranking, not a probability.

Each bucket's share right carries its Wilson score interval: a bucket of two checks, both right,
is "somewhere between 0.34 and 1", not "1.0". Pictures draw no curve before the five checks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind


@dataclass(frozen=True)
class Bucket:
    low: float
    high: float
    count: int
    mean_predicted: float
    observed: float  # share of these checks that were right

    @property
    def right(self) -> int:
        """The checks right in this bucket (``observed`` is ``right / count``, rounded)."""
        return round(self.observed * self.count)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the share right."""
        return wilson_interval(self.right, self.count)


@dataclass(frozen=True)
class Calibration:
    checks: int  # checks that carry a prediction
    buckets: tuple[Bucket, ...]  # only the non-empty ones
    ece: float | None  # None without any prediction

    @property
    def calibrated(self) -> bool:
        """Enough predictions to speak of calibration at all (it says nothing about how good)."""
        return self.checks >= C.CALIBRATION_MIN_CHECKS

    @property
    def limit(self) -> str | None:
        if self.calibrated:
            return None
        return (
            f"only {self.checks} check(s) carry a prediction (calibration needs "
            f"{C.CALIBRATION_MIN_CHECKS}): treat confidence as a ranking, not a probability"
        )


def wilson_interval(
    right: int, count: int, z: float = C.CALIBRATION_INTERVAL_Z
) -> tuple[float, float]:
    """Wilson's score interval for ``right`` successes in ``count`` trials, rounded to 4
    places; (0.0, 1.0) when there is no trial (nothing is known)."""
    if count <= 0:
        return 0.0, 1.0
    share = right / count
    denominator = 1 + z * z / count
    centre = (share + z * z / (2 * count)) / denominator
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / denominator
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def predictions(episodes: Iterable[Episode]) -> list[tuple[float, bool]]:
    """(predicted mastery, right?) for every check that carries a prediction, in log order."""
    out = []
    for ep in episodes:
        evidence = ep.evidence
        if ep.kind is Kind.CHECK and isinstance(evidence, CheckEvidence):
            mastery = evidence.predicted_mastery
            if mastery is not None:
                out.append((mastery, evidence.passed))
    return out


def calibrate(pairs: Iterable[tuple[float, bool]], bins: int = C.CALIBRATION_BINS) -> Calibration:
    grouped: dict[int, list[tuple[float, bool]]] = {}
    for predicted, right in pairs:
        index = min(int(predicted * bins), bins - 1)
        grouped.setdefault(index, []).append((predicted, right))
    total = sum(len(g) for g in grouped.values())
    buckets = []
    gap = 0.0
    for index in sorted(grouped):
        group = grouped[index]
        mean = sum(p for p, _ in group) / len(group)
        observed = sum(1 for _, r in group if r) / len(group)
        buckets.append(
            Bucket(
                low=round(index / bins, 4),
                high=round((index + 1) / bins, 4),
                count=len(group),
                mean_predicted=round(mean, 4),
                observed=round(observed, 4),
            )
        )
        gap += len(group) * abs(mean - observed)
    return Calibration(
        checks=total, buckets=tuple(buckets), ece=round(gap / total, 4) if total else None
    )
