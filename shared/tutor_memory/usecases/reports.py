"""Reports (SPEC §11): read a pair's rows through the ports, build the report, render it.

The report itself is built in ``domain/report.py`` from the rows read here; this module only
reads and renders — as JSON (the API and ``--format json``), readable text and Markdown. The
pictures (``--plots DIR``) live in ``report_plots``, imported only when they are asked for, so
neither the API nor a text report ever loads matplotlib.

``tutor-memory report`` is defined in ``commands.py`` (the entry layer) and wired in by ``cli.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from typing import Any

from tutor_memory.domain.annotations import Annotation, Verification
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Kind, Pair, about_the_student
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.domain.report import (
    ABOUT_THE_MATERIAL,
    BANDS,
    Report,
    ReportRows,
    build_report,
    kind_count,
    plural,
)
from tutor_memory.ports import BeliefStore, MapStore, Ports

FORMATS = ("text", "markdown", "json")


class Reports:
    """The report use case over the three stores."""

    def __init__(self, ports: Ports) -> None:
        self.ports = ports
        self.beliefs: BeliefStore = ports.store
        self.maps: MapStore = ports.store

    def report(self, pair: Pair, *, history: str | None = None) -> Report:
        """The pair's report; ``history`` (a concept's name or key) adds that belief's chain.

        NotFoundError for a pair with no record, or a concept no belief was ever about.
        """
        return self.report_with_rows(pair, history=history)[0]

    def report_with_rows(
        self, pair: Pair, *, history: str | None = None
    ) -> tuple[Report, ReportRows]:
        """The report and the rows it was built from (the inspector reads both)."""
        rows, entries = self._rows(pair, history=history)
        built = build_report(rows)
        # The chain's length counts the erasures' entries; the student's episodes do not.
        return (replace(built, episodes=built.episodes - entries) if entries else built), rows

    def rows(self, pair: Pair, *, history: str | None = None) -> ReportRows:
        """The rows a report is built from (the student's episodes: no erasure's entry)."""
        return self._rows(pair, history=history)[0]

    def _rows(self, pair: Pair, *, history: str | None = None) -> tuple[ReportRows, int]:
        """The rows, and how many erasures' entries the chain holds up to the head."""
        store = self.ports.store
        head = store.head(pair)  # first: the report covers the log up to here
        if head is None:
            raise NotFoundError(f"no record of {pair}: nothing to report")
        key = None
        rows: list[Belief] = []
        if history is not None:
            key = concept_key(history)
            if not key:
                raise ValidationError("history", "must name a concept")
            rows = self.beliefs.belief_history(pair, key)
            if not rows:
                raise NotFoundError(f"no belief about {history!r} for {pair}")
        logged = [e for e in store.iter_episodes(pair) if e.seq <= head.seq]
        episodes = [e for e in logged if about_the_student(e)]  # not an erasure's entry
        # One read per answer (a report is not on the turn path). Only answers carry stances
        # (set_stance refuses anything else) and only answers are queued for verification.
        notes: dict[str, list[Annotation]] = {}
        for ep in episodes:
            if ep.kind is Kind.ANSWER and (found := store.annotations(pair, ep.episode_id)):
                notes[ep.episode_id] = found
        records, _ = store.erasures(pair)  # the erasure records, kept beside the chain
        read = ReportRows(
            pair=pair,
            erasures=[e for e in records if e.seq <= head.seq],
            generated_at=self.ports.clock.now(),
            head_seq=head.seq,
            # the last of the student's episodes (an erasure's entry is the chain's, not theirs)
            head_at=episodes[-1].at if episodes and len(episodes) < len(logged) else head.at,
            counts=dict(head.counts),
            episodes=episodes,
            annotations=notes,
            beliefs=self.beliefs.beliefs(pair),
            cmap=self.maps.load_map(pair),
            history_key=key,
            history=rows,
        )
        return read, len(logged) - len(episodes)


# --- JSON --------------------------------------------------------------------------------------


def iso(at: datetime | None) -> str | None:
    """UTC ISO 8601 with a Z, exactly as the API's models write a time."""
    return None if at is None else at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def belief_json(b: Belief) -> dict[str, Any]:
    return {
        "id": b.belief_id,
        "concept_key": b.concept_key,
        "concept": b.concept_name,
        "claim": b.claim.value,
        "confidence": b.confidence,
        "line": b.line(),
        "evidence_ids": list(b.evidence_ids),
        "created_at": iso(b.created_at),
        "reason": b.reason,
        "needs_confirmation": b.needs_confirmation,
        "superseded_by": b.superseded_by,
        "retired_at": iso(b.retired_at),
    }


def report_json(report: Report) -> dict[str, Any]:
    """The report as plain JSON data (the shape of the API's ``ReportResponse``)."""
    r, cal, ver, sub = report, report.calibration, report.verification, report.subject
    return {
        "pair": {"student_id": r.pair.student_id, "subject_id": r.pair.subject_id},
        "generated_at": iso(r.generated_at),
        "episodes": {"total": r.episodes, "last_at": iso(r.last_at), "by_kind": dict(r.counts)},
        "beliefs": [belief_json(b) for b in r.beliefs],
        "history": None
        if r.history_key is None
        else {"concept_key": r.history_key, "rows": [belief_json(b) for b in r.history]},
        "checks": {
            "recorded": r.checks.recorded,
            "right": r.checks.right,
            "wrong": r.checks.wrong,
            "tied": r.checks.tied,
            "on_map": r.checks.on_map,
            "line": r.checks.line,
        },
        "answers": {
            "total": r.stances.answers,
            "stances": dict(r.stances.counts),
            "could_not": [
                {
                    "answer_id": u.answer_id,
                    "answered_at": iso(u.answered_at),
                    "answer": u.answer,
                    "stance_at": iso(u.stance_at),
                    "question_id": u.question_id,
                    "question": u.question,
                    "asked_at": iso(u.asked_at),
                }
                for u in r.stances.could_not
            ],
            "line": r.stances.line,
        },
        "calibration": {
            "predictions": cal.checks,
            "without_prediction": r.checks_without_prediction,
            "calibrated": cal.calibrated,
            "ece": cal.ece,
            "limit": cal.limit,
            "buckets": [
                {
                    "low": b.low,
                    "high": b.high,
                    "count": b.count,
                    "mean_predicted": b.mean_predicted,
                    "observed": b.observed,
                }
                for b in cal.buckets
            ],
        },
        "verification": {
            "verified": ver.verified,
            "results": dict(ver.results),
            "citing_a_file": ver.citing,
            "citing_unverified": ver.citing_unverified,
            "last_checked_at": iso(ver.last_checked_at),
            "changed": [
                {
                    "episode_id": c.episode_id,
                    "result": c.result,
                    "checked_at": iso(c.checked_at),
                    "summary": c.summary,
                    "detail": c.detail,
                }
                for c in ver.changed
            ],
            "lines": list(ver.lines),
        },
        "subject": {
            "concepts": sub.concepts,
            "readiness": sub.readiness,
            "percent": sub.percent,
            "about": ABOUT_THE_MATERIAL,
            "bands": dict(sub.bands),
            "teaching_order": [list(layer) for layer in sub.teaching_order],
            "line": sub.line,
        },
        "erasures": {
            "erased": r.erasures.erased,
            "requests": [
                {
                    "at": iso(g.at),
                    "reason": g.reason,
                    "requested_by": g.requested_by,
                    "scope": g.scope,
                    "seqs": list(g.seqs),
                }
                for g in r.erasures.groups
            ],
            "line": r.erasures.line,
        },
        "corrections": [
            {
                "at": iso(c.at),
                "episode_id": c.episode_id,
                "corrects": c.corrects,
                "kind": c.kind,
                "field": c.field,
                "was": c.was,
                "value": c.value,
                "by": c.by,
                "reason": c.reason,
                "line": c.line,
            }
            for c in r.corrections
        ],
    }


# --- text and Markdown: one list of sections, two renderings -----------------------------------


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)  # paragraphs; "- " starts a list item
    table: tuple[Sequence[str], list[Sequence[str]]] | None = None  # (header, rows)


def _day(at: datetime, tz: tzinfo) -> str:
    local = at.astimezone(tz)
    return f"{local.day} {local:%b %Y}"


def _num(x: float, places: int = 2) -> str:
    return f"{x:.{places}f}"


def sections(report: Report, tz: tzinfo) -> list[Section]:
    """The report as titled sections, in reading order (text and Markdown both render these)."""
    history = [_history(report, tz)] if report.history_key is not None else []
    return [
        _header(report, tz),
        _beliefs(report, tz),
        *history,
        Section("Checks", [report.checks.line]),
        _unanswered(report, tz),
        _calibration(report),
        _verification(report, tz),
        _erasures(report, tz),
        _corrections(report, tz),
        _subject(report),
    ]


def _header(r: Report, tz: tzinfo) -> Section:
    # The head's counts leave out erased episodes; the chain's length does not.
    kinds = ", ".join(kind_count(k, n) for k, n in r.counts.items() if n)
    erased = r.episodes - r.recorded
    last = f", the last on {_day(r.last_at, tz)}" if r.last_at else ""
    line = f"As of {_day(r.generated_at, tz)}: {plural(r.recorded, 'episode')} recorded{last}"
    gone = f"; {plural(erased, 'episode')} erased" if erased else ""
    return Section(
        f"Report: {r.pair.student_id} in {r.pair.subject_id}",
        [line + (f" ({kinds})" if kinds else "") + gone + "."],
    )


def _beliefs(r: Report, tz: tzinfo) -> Section:
    section = Section("What the tutor currently believes (from checks; confidence 0–1)")
    for b in r.beliefs:
        checks = plural(len(b.evidence_ids), "check")
        section.lines.append(f"- {b.line()} — from {checks}, since {_day(b.created_at, tz)}")
    if not r.beliefs:
        section.lines.append("No belief yet. " + r.checks.line)
    return section


def _history(r: Report, tz: tzinfo) -> Section:
    name = r.history[-1].concept_name if r.history else r.history_key
    rows: list[Sequence[str]] = []
    for b in r.history:
        if b.superseded_by:
            then = f"superseded by {b.superseded_by}"
        elif b.retired_at:
            then = f"retired {_day(b.retired_at, tz)}"
        else:
            then = "current"
        rows.append((_day(b.created_at, tz), b.line(), b.reason, then))
    return Section(
        f"How the belief about {name} changed (oldest first)",
        [f"{plural(len(r.history), 'row')}; a row is never rewritten, only superseded."],
        (("since", "belief", "why", "then"), rows),
    )


def _unanswered(r: Report, tz: tzinfo) -> Section:
    section = Section("Questions the files could not answer", [r.stances.line])
    for u in r.stances.could_not:
        asked = (
            f'asked {_day(u.asked_at, tz)}: "{u.question}"'
            if u.question is not None and u.asked_at is not None
            else "no question before it in the log"
        )
        section.lines.append(
            f'- {asked} → answered {_day(u.answered_at, tz)}: "{u.answer}" ({u.answer_id})'
        )
    return section


def _verification(r: Report, tz: tzinfo) -> Section:
    ver = r.verification
    section = Section("Do the memories still hold? (citations checked against the files)")
    checked = ver.last_checked_at
    when = f" The last check was on {_day(checked, tz)}." if checked else ""
    section.lines.append(ver.headline + when)
    section.lines += [f"- {line}" for line in ver.result_lines]
    if ver.unverified_line:
        section.lines.append(ver.unverified_line)
    if ver.changed:
        section.lines.append("The memories whose file changed:")
    for c in ver.changed:
        how = "removed" if c.result == Verification.CHANGED_REMOVED else "replaced"
        note = f" — {c.detail}" if c.detail else ""
        section.lines.append(
            f'- {c.episode_id} "{c.summary}": file {how} (checked {_day(c.checked_at, tz)}){note}'
        )
    return section


def _erasures(r: Report, tz: tzinfo) -> Section:
    section = Section("Erasures (records kept beside the chain)", [r.erasures.line])
    for g in r.erasures.groups:
        seqs = ", ".join(f"#{s}" for s in g.seqs)
        by = f", asked by {g.requested_by}" if g.requested_by else ""
        section.lines.append(
            f"- {_day(g.at, tz)}: {plural(len(g.seqs), 'episode')} ({g.scope}{by}) — "
            f'"{g.reason}": {seqs}'
        )
    return section


def _corrections(r: Report, tz: tzinfo) -> Section:
    if not r.corrections:
        return Section("Corrections", ["Nothing has been corrected."])
    return Section(
        "Corrections (each a later episode; nothing was rewritten)",
        [f"- {_day(c.at, tz)}: {c.line}" for c in r.corrections],
    )


def _subject(r: Report) -> Section:
    sub = r.subject
    section = Section(f"The subject ({ABOUT_THE_MATERIAL})", [sub.line])
    if sub.concepts:
        bands = ", ".join(f"{sub.bands[name]} {label}" for name, _, label in BANDS)
        section.lines.append(f"Concepts by readiness: {bands}.")
        section.lines.append("Teaching order (prerequisites first, hubs first in a layer):")
        section.lines += [
            f"{i}. {', '.join(layer)}" for i, layer in enumerate(sub.teaching_order, 1)
        ]
    return section


def _calibration(r: Report) -> Section:
    cal = r.calibration
    section = Section("Calibration (mastery predicted before a check against its outcome)")
    if cal.checks == 0:
        section.lines.append(r.nothing_to_calibrate)
    else:
        assert cal.ece is not None  # set whenever there is a prediction
        carry = "carries the mastery predicted before it"
        if cal.checks != 1:
            carry = "carry the mastery predicted before them"
        rest = r.checks_without_prediction
        section.lines.append(
            f"{plural(cal.checks, 'check')} {carry} "
            f"({rest} {'does' if rest == 1 else 'do'} not); expected calibration error "
            f"{_num(cal.ece, 3)}."
        )
        rows: list[Sequence[str]] = [
            (
                f"{_num(b.low, 1)}–{_num(b.high, 1)}",
                str(b.count),
                _num(b.mean_predicted),
                _num(b.observed),
            )
            for b in cal.buckets
        ]
        section.table = (("predicted", "checks", "mean predicted", "observed right"), rows)
    if cal.limit:
        section.lines.append(f"Limit: {cal.limit}.")
    return section


def render_text(report: Report, tz: tzinfo = UTC) -> str:
    blocks = []
    for i, s in enumerate(sections(report, tz)):
        lines = [s.title if i == 0 else s.title.upper(), *s.lines]
        if s.table is not None:
            lines += _fixed_width(*s.table)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _fixed_width(header: Sequence[str], rows: list[Sequence[str]]) -> list[str]:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def render_markdown(report: Report, tz: tzinfo = UTC) -> str:
    blocks = []
    for i, s in enumerate(sections(report, tz)):
        lines = [f"{'#' if i == 0 else '##'} {s.title}"]
        previous_item = False
        for text in s.lines:
            item = _LIST_ITEM.match(text) is not None
            if not (item and previous_item):
                lines.append("")  # paragraphs stand apart; list items stay together
            lines.append(text)
            previous_item = item
        if s.table is not None:
            header, rows = s.table
            lines += ["", _md_row(header), _md_row(["---"] * len(header))]
            lines += [_md_row(row) for row in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


_LIST_ITEM = re.compile(r"^(- |\d+\. )")


def _md_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
