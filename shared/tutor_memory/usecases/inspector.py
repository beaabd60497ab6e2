"""The inspector: one pair's memory as a page a person looks at (``tutor-memory inspect``,
``GET /pairs/{student_id}/{subject_id}/inspect``).

This module gathers the page's data as a plain dict (JSON types only) from the same rows the
report reads; ``inspector_html`` draws it. Nothing here is new arithmetic: every figure is a
count of the log, a stored belief row, the stored map, or the report's calibration — so the
page and ``tutor-memory report`` can never disagree. The same history gives the same dict, and
so the same page, byte for byte (the clock is the app's, the order is always stated).

``why_recalled`` turns one ``TutorMemory.recall`` result into the JSON the page's question
form shows (``GET …/recall?q=``): the pools each memory came from, its score, how many copies
it stands for, and what the gate did.

Decisions (ours):

* **Weeks** start on Monday in the students' time zone; every week from the first episode to
  the last is listed, empty ones too, so a gap in the work shows as a gap.
* **A belief over time** is drawn from the rows of its current generation (a re-derivation
  replays every check, so older generations repeat the same times); the page says how many
  rows the earlier generations hold.
* **The checks behind a belief** are the check episodes tied to its concept when they were
  written (``concepts``), in log order — every one, not only the newest ids a row keeps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.corrections import apply
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind, Pair, QuizEvidence
from tutor_memory.domain.maplayout import beliefs_on_map, centred, map_columns
from tutor_memory.domain.profile import current, line
from tutor_memory.domain.recall import Mode, RecallResult
from tutor_memory.domain.report import (
    ABOUT_THE_MATERIAL,
    BANDS,
    Correction,
    Report,
    band_of,
)
from tutor_memory.ports import BeliefStore, Ports
from tutor_memory.usecases.profile import Profiles
from tutor_memory.usecases.reports import Reports, iso

KINDS = tuple(k.value for k in Kind)  # the timeline's stacking order


class Inspector:
    """The inspector use case: a pair's rows → the page's data."""

    def __init__(self, ports: Ports, reports: Reports, profiles: Profiles | None = None) -> None:
        self.reports = reports
        self.beliefs: BeliefStore = ports.store
        self.timezone = ports.timezone
        self.profiles = profiles  # the student's profile: shown beside the pair's record

    def inspect(self, pair: Pair) -> dict[str, Any]:
        """NotFoundError for a pair with no record (as the report)."""
        report, rows = self.reports.report_with_rows(pair)  # the report's own counts
        told = [e for e in rows.episodes if e.seq <= rows.head_seq]
        episodes = apply(told, [e for e in told if e.kind is Kind.CORRECTION])  # as corrected
        tz = ZoneInfo(self.timezone)
        believed = beliefs_on_map(report.beliefs, report.cmap)
        return {
            "pair": {"student_id": pair.student_id, "subject_id": pair.subject_id},
            "generated_at": iso(report.generated_at),
            "timezone": self.timezone,
            "episodes": report.recorded,  # as the report counts them: bodies that stand
            "erased": report.episodes - report.recorded,
            "last_at": iso(report.last_at),
            "by_kind": dict(report.counts),
            "checks_line": report.checks.line,
            "timeline": timeline(episodes, tz),
            "beliefs": [
                self._belief(pair, b, episodes, on_map=b.concept_key in report.cmap.concepts)
                for b in sorted(
                    report.beliefs, key=lambda b: (b.concept_name.casefold(), b.concept_key)
                )
            ],
            "map": concept_map(report.cmap, believed, report.subject.line),
            "calibration": calibration(report),
            "profile": self._profile(pair.student_id, report.generated_at, tz),
            "corrections": corrections_beside(report, told),
        }

    def _profile(self, student_id: str, now: datetime, tz: tzinfo) -> list[dict[str, Any]]:
        """The student's profile in force, as every subject's block shows it, with the
        statements each replaced (what was said before on the same aspect)."""
        if self.profiles is None:
            return []
        said = self.profiles.history(student_id)
        shown = []
        for s in current(said):
            before = [
                p
                for p in said
                if (p.aspect, p.key) == (s.aspect, s.key) and p.seq < s.seq and not p.erased_at
            ]
            shown.append(
                {
                    "aspect": s.aspect.value,
                    "line": line(s, now=now, tz=tz),
                    "replaced": [
                        p.value or "(retracted)" for p in sorted(before, key=lambda p: p.seq)
                    ],
                }
            )
        return shown

    def _belief(
        self, pair: Pair, current: Belief, episodes: Sequence[Episode], *, on_map: bool
    ) -> dict[str, Any]:
        rows = self.beliefs.belief_history(pair, current.concept_key)
        chain = [b for b in rows if b.generation == current.generation]
        chain.sort(key=lambda b: (b.created_at, b.belief_id))
        checks = [
            e
            for e in episodes
            if e.kind is Kind.CHECK
            and isinstance(e.evidence, CheckEvidence)
            and any(concept_key(c) == current.concept_key for c in e.concepts)
        ]
        return {
            "key": current.concept_key,
            "concept": current.concept_name,
            "claim": current.claim.value,
            "confidence": current.confidence,
            "p_understands": p_understands(current),
            "line": current.line(),
            "since": iso(current.created_at),
            "on_map": on_map,
            "needs_confirmation": current.needs_confirmation,
            "history": [
                {
                    "id": b.belief_id,
                    "at": iso(b.created_at),
                    "claim": b.claim.value,
                    "confidence": b.confidence,
                    "p_understands": p_understands(b),
                    "reason": b.reason,
                    "current": b.belief_id == current.belief_id,
                }
                for b in chain
            ],
            "earlier_generation_rows": len(rows) - len(chain),
            "checks": [_check(e) for e in checks],
        }


def _by_name(b: Belief) -> tuple[str, str]:
    return b.concept_name.casefold(), b.concept_key


def p_understands(b: Belief) -> float:
    """The belief on one axis: a confidence is the probability of its claim, so a struggle at
    0.74 is 0.26 that the student understands."""
    return b.confidence if b.claim is Claim.UNDERSTANDS else round(1.0 - b.confidence, 2)


def corrections_beside(report: Report, told: Sequence[Episode]) -> list[dict[str, Any]]:
    """Each correction beside what it corrects: the episode's line as it was recorded (the
    words stay in the log; this page is for the people who keep the record)."""
    by_id = {e.episode_id: e for e in told}
    shown = []
    for c in report.corrections:
        target = by_id.get(c.corrects)
        shown.append(
            {
                "at": iso(c.at),
                "id": c.episode_id,
                "by": c.by,
                "reason": c.reason,
                "line": c.line,
                "corrects": c.corrects,
                "recorded_at": iso(target.at) if target else None,
                "as_recorded": _as_recorded(target) if target else "(erased)",
                "now": work_line_of(target, c) if target else "",
            }
        )
    return shown


def _as_recorded(e: Episode) -> str:
    evidence = e.evidence
    if isinstance(evidence, CheckEvidence):
        return f"check on {evidence.topic}: {evidence.verdict}"
    if isinstance(evidence, QuizEvidence):
        return f"quiz: {evidence.score:g}/{evidence.maximum:g}"
    return "(erased)" if e.erased else e.summary


def work_line_of(target: Episode, c: Correction) -> str:
    value = c.value
    if c.field == "verdict":
        return f"{_as_recorded(target).rsplit(':', 1)[0]}: {value}"
    if c.field == "score" and isinstance(target.evidence, QuizEvidence):
        return f"quiz: {float(value):g}/{target.evidence.maximum:g}"
    return str(value)


def _check(e: Episode) -> dict[str, Any]:
    assert isinstance(e.evidence, CheckEvidence)
    return {
        "id": e.episode_id,
        "at": iso(e.at),
        "corrected_at": iso(e.corrected_at) if e.corrected_at else None,
        "verdict": e.evidence.verdict,
        "topic": e.evidence.topic,
        "predicted_mastery": e.evidence.predicted_mastery,
        "summary": e.summary,
    }


def monday(at: datetime, tz: ZoneInfo) -> date:
    local = at.astimezone(tz).date()
    return local - timedelta(days=local.weekday())


def timeline(episodes: Sequence[Episode], tz: ZoneInfo) -> dict[str, Any]:
    """Episodes per week by kind, and the week's checks right and wrong."""
    if not episodes:
        return {"kinds": [], "weeks": []}
    kinds: dict[date, Counter[str]] = {}
    right: Counter[date] = Counter()
    wrong: Counter[date] = Counter()
    for e in episodes:
        week = monday(e.at, tz)
        kinds.setdefault(week, Counter())[e.kind.value] += 1
        if e.kind is Kind.CHECK and isinstance(e.evidence, CheckEvidence):
            (right if e.evidence.passed else wrong)[week] += 1
    first, last = min(kinds), max(kinds)
    weeks = []
    week = first
    while week <= last:
        counts = kinds.get(week, Counter())
        weeks.append(
            {
                "start": week.isoformat(),
                "counts": {k: counts[k] for k in KINDS if counts[k]},
                "total": sum(counts.values()),
                "right": right[week],
                "wrong": wrong[week],
            }
        )
        week += timedelta(days=7)
    present = {k for c in kinds.values() for k in c}
    return {"kinds": [k for k in KINDS if k in present], "weeks": weeks}


def concept_map(cmap: ConceptMap, believed: dict[str, Belief], line: str) -> dict[str, Any]:
    columns = map_columns(cmap)
    nodes = []
    for index, column in enumerate(columns):
        rows = centred(column)
        for key in column:
            c = cmap.concepts[key]
            b = believed.get(key)
            nodes.append(
                {
                    "key": key,
                    "name": c.name,
                    "layer": c.layer.value,
                    "readiness": c.readiness,
                    "band": band_of(c.readiness),
                    "centrality": c.centrality,
                    "column": index,
                    "row": rows[key],
                    "belief": None
                    if b is None
                    else {"claim": b.claim.value, "confidence": b.confidence, "line": b.line()},
                }
            )
    return {
        "line": line,
        "about": ABOUT_THE_MATERIAL,
        "bands": [
            {"name": name, "readiness": value, "label": label} for name, value, label in BANDS
        ],
        "columns": len(columns),
        "tallest": max((len(c) for c in columns), default=0),
        "nodes": nodes,
        "edges": [[a, b] for a, b in cmap.edges() if a != b],
    }


def calibration(report: Report) -> dict[str, Any]:
    cal = report.calibration
    return {
        "predictions": cal.checks,
        "without_prediction": report.checks_without_prediction,
        "min_checks": C.CALIBRATION_MIN_CHECKS,
        "drawn": cal.calibrated,
        "ece": cal.ece,
        "limit": cal.limit,
        "nothing": report.nothing_to_calibrate if cal.checks == 0 else None,
        "buckets": [
            {
                "low": b.low,
                "high": b.high,
                "count": b.count,
                "right": b.right,
                "mean_predicted": b.mean_predicted,
                "observed": b.observed,
                "interval": list(b.interval),
            }
            for b in cal.buckets
        ],
    }


# --- why recalled ------------------------------------------------------------------------------

GATE_SAYS = {
    Mode.RELEVANT: (
        "The gate put first the memories that match the question: a distinctive word, a "
        "concept it names, a neighbour by meaning that stands out from the pair's everyday "
        "talk, or a rare word shared with the best of them. What a plain fusion of the words "
        "and the meaning would show besides comes below them (its score below zero); the rest "
        "of the pools was dropped."
    ),
    Mode.NOTHING_MATCHED: (
        "Nothing matched the question, so the gate let the recent past through, ordered by "
        "recency alone."
    ),
    Mode.RECENT_ONLY: "No question: recency is all that is left, and nothing is gated.",
}


def gate_says(result: RecallResult) -> str:
    """What the gate did, in words. A question that only names a time ("what did we cover in
    July?") has no word left to match, so recency ranks within the window it found: it is not
    "no question"."""
    window = result.window
    if result.mode is Mode.RECENT_ONLY and window is not None:
        if result.window_empty:
            return (
                f"The question names a time, {window.label}, and nothing was recorded in it: "
                "nothing from outside it is shown in its place."
            )
        return (
            f"The question names a time, {window.label}, and nothing else to match: what was "
            "recorded in it, ordered by recency, and nothing is gated."
        )
    return GATE_SAYS[result.mode]


def why_recalled(question: str, result: RecallResult) -> dict[str, Any]:
    """One recall, explained: the JSON the inspector's question form shows."""
    window = result.window
    found = sum(result.pool_sizes.values())
    return {
        "question": question,
        "mode": result.mode.value,
        "gate": gate_says(result),
        "terms": list(result.terms),
        "concepts": list(result.concept_keys),
        "window": None
        if window is None
        else {
            "label": window.label,
            "start": iso(window.start),
            "end": iso(window.end),
            "empty": result.window_empty,
        },
        "pool_sizes": dict(sorted(result.pool_sizes.items())),
        "candidates_found": found,
        "kept": len(result.items),
        "collapsed": sum(i.count - 1 for i in result.items),
        "items": [
            {
                "id": i.episode.episode_id,
                "kind": i.episode.kind.value,
                "at": iso(i.episode.at),
                "summary": i.episode.summary,
                "score": i.score,
                "pools": list(i.pools),
                "count": i.count,
                "first_at": iso(i.first_at),
                "last_at": iso(i.last_at),
                "collapsed_ids": list(i.collapsed_ids),
            }
            for i in result.items
        ],
    }
