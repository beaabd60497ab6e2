"""The nightly loop's decisions (SPEC §10): pure, deterministic, no model call.

Decisions (ours where the article is silent):

* **The night of a day.** A day is a calendar day in the students' time zone (the service's
  ``timezone``); its window is ``[local midnight, next local midnight)`` in UTC, and its night
  comes only once the window has ended. Everything a night writes is stamped with the window's
  end (``as_of``) — not the wall clock — so running the same night again decides the same
  things, whenever it runs.
* **Active.** A pair is active on a day when an episode other than a consolidation has its time
  inside that day's window. Every append files its pair under the episode's UTC day (an
  activity index), so the night finds its candidates by querying the one or two UTC days the
  local day touches, never by scanning; a candidate with nothing inside the local window is
  quiet. A quiet day writes nothing: no summary, no decay, no marker.
* **Compress.** One ``consolidation`` episode per active day, timed at the day's last
  microsecond (so "what did we do on Tuesday" finds it inside Tuesday), idempotency key
  ``consolidation:<day>``. Counts per kind, the check tally, the topics (concepts the day
  touched, most touched first) and the five most salient headlines (identical headlines are one,
  with how many times). Consolidations are never counted or summarised again.
* **Decay.** A current belief is *touched* when its row was written or a check on its concept
  was recorded (a check that moved nothing still shows the tutor looked; the newest check is the
  newest in the log's order, which is time order but for episodes written back in time).
  Untouched for 45 days
  at ``as_of``: a new row supersedes it with confidence × 0.85 and ``needs_confirmation``; the
  next check clears that (``beliefs.next_belief``). A row already waiting for confirmation is
  not decayed again: its confidence is a probability of its claim, and shaving it night after
  night would end by asserting the opposite claim with no evidence at all.
* **Calibrate.** A running tally of (prediction, outcome) per bin, folded in from the episodes
  appended since the last night (a sequence cursor), so a night never rereads the log; the
  tally gives the buckets and error ``calibration.calibrate`` gives on the whole log (tested).
* **Working set** and **self-model**: see their classes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Verification
from tutor_memory.domain.beliefs import (
    Belief,
    Claim,
    belief_from_record,
    belief_id,
    belief_to_record,
)
from tutor_memory.domain.calibration import Bucket, Calibration, predictions
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.corrections import as_corrected
from tutor_memory.domain.episodes import (
    CheckEvidence,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
    TaughtEvidence,
    about_the_student,
    summarise,
)
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry

# --- days ---------------------------------------------------------------------------------------


def day_window(day: date, tz: tzinfo) -> TimeWindow:
    """The local calendar day as a half-open UTC window (23 or 25 hours across a DST change)."""
    start = datetime.combine(day, time(), tzinfo=tz).astimezone(UTC)
    end = datetime.combine(day + timedelta(days=1), time(), tzinfo=tz).astimezone(UTC)
    return TimeWindow(start, end, label=day.isoformat())


def previous_day(now: datetime, tz: tzinfo) -> date:
    """The last complete local day at ``now``: what a night run at ``now`` compresses."""
    return now.astimezone(tz).date() - timedelta(days=1)


def utc_day(at: datetime) -> str:
    """The UTC calendar day the activity index files an episode under."""
    return at.astimezone(UTC).strftime("%Y-%m-%d")


def utc_days(window: TimeWindow) -> list[str]:
    """Every UTC day the window touches: the activity index is read for these."""
    first = window.start.astimezone(UTC).date()
    last = (window.end - timedelta(microseconds=1)).astimezone(UTC).date()
    return [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]


def activity_shard(pair: Pair) -> int:
    """A stable shard of the activity index for a pair (not Python's salted ``hash``)."""
    digest = hashlib.sha256(f"{pair.student_id}\n{pair.subject_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % C.ACTIVITY_SHARDS


# --- compress -----------------------------------------------------------------------------------

_NOUNS: dict[Kind, tuple[str, str]] = {
    Kind.QUESTION: ("question", "questions"),
    Kind.ANSWER: ("answer", "answers"),
    Kind.CHECK: ("check", "checks"),
    Kind.QUIZ: ("quiz", "quizzes"),
    Kind.FILE: ("file arrival", "file arrivals"),
    Kind.TAUGHT: ("taught note", "taught notes"),
    Kind.CORRECTION: ("correction", "corrections"),
}
_HEADLINE_CHARS = 160  # ours: a headline is one short line


def _count(n: int, kind: Kind) -> str:
    one, many = _NOUNS[kind]
    return f"{n} {one if n == 1 else many}"


def _clip(text: str, limit: int = _HEADLINE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def headline(ep: Episode) -> str:
    """One line saying what an episode was."""
    evidence = ep.evidence
    if isinstance(evidence, CheckEvidence):
        return _clip(f"check on {evidence.topic}: {evidence.verdict}")
    if isinstance(evidence, QuizEvidence):
        topics = f" on {', '.join(evidence.topics)}" if evidence.topics else ""
        return _clip(f"quiz: {evidence.score:g}/{evidence.maximum:g}{topics}")
    if isinstance(evidence, TaughtEvidence):
        return _clip(f"taught: {evidence.note}")
    if isinstance(evidence, FileEvidence):
        return _clip(f"file arrived: {evidence.name}")
    verb = {Kind.QUESTION: "asked", Kind.ANSWER: "answered"}.get(ep.kind, ep.kind.value)
    return _clip(f"{verb}: {ep.summary}")


def salient_headlines(episodes: Sequence[Episode], limit: int) -> list[str]:
    """The ``limit`` most salient headlines; a repeated one is one line with its count.

    Order: salience, then how often, then the earliest time it happened (then sequence).
    """
    groups: dict[str, list[Episode]] = {}
    for ep in episodes:
        groups.setdefault(headline(ep).casefold(), []).append(ep)

    def rank(group: list[Episode]) -> tuple[float, int, datetime, int]:
        first = min(group, key=lambda e: (e.at, e.seq))
        return (-max(e.salience for e in group), -len(group), first.at, first.seq)

    lines = []
    for group in sorted(groups.values(), key=rank)[:limit]:
        first = min(group, key=lambda e: (e.at, e.seq))
        times = f" ({len(group)} times)" if len(group) > 1 else ""
        lines.append(headline(first) + times)
    return lines


def day_topics(episodes: Sequence[Episode], limit: int) -> list[str]:
    """Concepts the day touched (quiz topics too), most touched first, then first touched."""
    seen: dict[str, str] = {}
    touches: Counter[str] = Counter()
    for ep in episodes:
        names = list(ep.concepts)
        if isinstance(ep.evidence, QuizEvidence):
            names += ep.evidence.topics
        keys = set()
        for name in names:
            key = concept_key(name)
            if not key or key in keys:
                continue
            keys.add(key)
            seen.setdefault(key, name)
            touches[key] += 1
    order = {key: i for i, key in enumerate(seen)}
    ranked = sorted(seen, key=lambda k: (-touches[k], order[k]))
    return [seen[k] for k in ranked[:limit]]


def consolidation(
    pair: Pair, day: date, window: TimeWindow, episodes: Sequence[Episode], *, truncated: bool
) -> NewEpisode | None:
    """The day compressed into one episode, or None for a quiet day.

    ``episodes`` are the day's (any order); consolidations among them are ignored.
    """
    eps = sorted(  # the student's episodes: an erasure's entry is about the log, not the day
        (
            e
            for e in episodes
            if e.kind is not Kind.CONSOLIDATION and about_the_student(e) and e.at in window
        ),
        key=lambda e: (e.at, e.seq),
    )
    if not eps:
        return None
    counts = Counter(e.kind for e in eps)
    checks = [e.evidence for e in eps if isinstance(e.evidence, CheckEvidence)]
    right = sum(1 for c in checks if c.passed)
    topics = day_topics(eps, C.CONSOLIDATION_TOPICS)
    kinds = [k for k in _NOUNS if counts[k]]
    tally = ", ".join(_count(counts[k], k) for k in kinds)
    lines = [
        f"Day {day.isoformat()}: {len(eps)} episode{'s' if len(eps) != 1 else ''} — {tally}."
        + (f" (The newest {len(eps)} of a longer day.)" if truncated else "")
    ]
    if checks:
        lines.append(f"Checks: {right} right, {len(checks) - right} wrong.")
    if topics:
        lines.append(f"Topics: {', '.join(topics)}.")
    lines.append("Most salient:")
    lines += [f"- {h}" for h in salient_headlines(eps, C.CONSOLIDATION_HEADLINES)]
    check_part = f" ({right} right, {len(checks) - right} wrong)" if checks else ""
    topic_part = f"; topics: {', '.join(topics)}" if topics else ""
    return NewEpisode(
        pair=pair,
        kind=Kind.CONSOLIDATION,
        text="\n".join(lines),
        at=window.end - timedelta(microseconds=1),
        summary=summarise(f"{day.isoformat()}: {tally}{check_part}{topic_part}"),
        concepts=tuple(topics[: C.MAX_CONCEPTS_PER_EPISODE]),
        evidence=ConsolidationEvidence(
            day=day.isoformat(),
            counts={k.value: counts[k] for k in kinds},
            checks_right=right,
            checks_wrong=len(checks) - right,
            topics=tuple(topics),
        ),
        idempotency_key=consolidation_key(day),
    )


def consolidation_key(day: date) -> str:
    return f"consolidation:{day.isoformat()}"


# --- decay --------------------------------------------------------------------------------------


def is_stale(belief: Belief, last_check_at: datetime | None, as_of: datetime) -> bool:
    """Untouched for ``DECAY_AFTER_DAYS`` and not already waiting for a check."""
    if not belief.current or belief.needs_confirmation:
        return False
    touched = max(belief.created_at, last_check_at or belief.created_at)
    return as_of - touched >= timedelta(days=C.DECAY_AFTER_DAYS)


def decayed(belief: Belief, last_check_at: datetime | None, as_of: datetime) -> Belief | None:
    """The row that supersedes a stale belief (None: it is not stale)."""
    if not is_stale(belief, last_check_at, as_of):
        return None
    touched = max(belief.created_at, last_check_at or belief.created_at)
    confidence = round(belief.confidence * C.DECAY_FACTOR, 2)
    return replace(
        belief,
        belief_id=belief_id(
            belief.pair,
            belief.concept_key,
            belief.claim,
            confidence,
            belief.evidence_ids,
            as_of,
            belief.generation,
            belief.belief_id,
        ),
        confidence=confidence,
        created_at=as_of,
        reason=(
            f"decayed: no check for {(as_of - touched).days} days (since {touched:%Y-%m-%d}), "
            f"confidence {belief.confidence:.2f} → {confidence:.2f}; to confirm at the next check"
        ),
        needs_confirmation=True,
        superseded_by=None,
        retired_at=None,
    )


# --- calibrate ----------------------------------------------------------------------------------

_UNITS = 10**C.FRACTION_DECIMALS  # predictions are stored to 4 decimals: sum them exactly


@dataclass(frozen=True)
class CalibrationTally:
    """Per bin: (checks, sum of predicted mastery in 1/10 000, how many were right)."""

    bins: Mapping[int, tuple[int, int, int]] = field(default_factory=dict)

    def add(self, pairs: Iterable[tuple[float, bool]]) -> CalibrationTally:
        bins = dict(self.bins)
        for predicted, right in pairs:
            index = min(int(predicted * C.CALIBRATION_BINS), C.CALIBRATION_BINS - 1)
            count, units, hits = bins.get(index, (0, 0, 0))
            bins[index] = (count + 1, units + round(predicted * _UNITS), hits + int(right))
        return CalibrationTally(dict(sorted(bins.items())))

    def moved(self, predicted: float, was: bool, now: bool) -> CalibrationTally:
        """One counted check's outcome corrected from ``was`` to ``now`` (its count stays)."""
        index = min(int(predicted * C.CALIBRATION_BINS), C.CALIBRATION_BINS - 1)
        if was == now or index not in self.bins:
            return self
        count, units, hits = self.bins[index]
        bins = {**self.bins, index: (count, units, max(0, min(count, hits + int(now) - int(was))))}
        return CalibrationTally(dict(sorted(bins.items())))

    def calibration(self) -> Calibration:
        """What ``calibration.calibrate`` gives on the same (prediction, outcome) pairs."""
        n = C.CALIBRATION_BINS
        total = sum(count for count, _, _ in self.bins.values())
        buckets, gap = [], 0.0
        for index in sorted(self.bins):
            count, units, hits = self.bins[index]
            mean, observed = units / _UNITS / count, hits / count
            buckets.append(
                Bucket(
                    low=round(index / n, 4),
                    high=round((index + 1) / n, 4),
                    count=count,
                    mean_predicted=round(mean, 4),
                    observed=round(observed, 4),
                )
            )
            gap += count * abs(mean - observed)
        return Calibration(
            checks=total, buckets=tuple(buckets), ece=round(gap / total, 4) if total else None
        )


@dataclass(frozen=True)
class ScanState:
    """What the nightly loop has folded in of a pair's log: every episode up to
    ``through_seq``. Stored per pair and advanced with a condition on ``through_seq``."""

    through_seq: int = 0
    tally: CalibrationTally = field(default_factory=CalibrationTally)
    checks: int = 0
    checks_untied: int = 0  # checks tied to no concept: evidence that holds up no belief

    def fold(self, episodes: Iterable[Episode]) -> ScanState:
        new = [e for e in episodes if e.seq > self.through_seq]
        if not new:
            return self
        checks = [e for e in new if e.kind is Kind.CHECK and not e.erased]  # erased: no check
        # A check corrected in the same page is folded with its corrected verdict; a correction
        # of a check folded on an earlier night moves that check's outcome (counted once).
        read = as_corrected([e for e in new if not e.erased])
        folded = {e.episode_id for e in read}
        tally = self.tally.add(predictions(read))
        for e in new:
            fix = e.evidence
            if (
                not e.erased
                and isinstance(fix, CorrectionEvidence)
                and fix.field == "verdict"
                and fix.mastery is not None
                and fix.corrects not in folded
                and fix.was is not None
            ):
                tally = tally.moved(fix.mastery, fix.was == "right", fix.value == "right")
        return ScanState(
            through_seq=max(e.seq for e in new),
            tally=tally,
            checks=self.checks + len(checks),
            checks_untied=self.checks_untied + sum(1 for e in checks if not e.concepts),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "through_seq": self.through_seq,
            "bins": {str(i): list(v) for i, v in self.tally.bins.items()},
            "checks": self.checks,
            "checks_untied": self.checks_untied,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScanState:
        bins = {int(i): (int(v[0]), int(v[1]), int(v[2])) for i, v in data["bins"].items()}
        return cls(
            through_seq=int(data["through_seq"]),
            tally=CalibrationTally(dict(sorted(bins.items()))),
            checks=int(data["checks"]),
            checks_untied=int(data["checks_untied"]),
        )


# --- the working set ----------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkingSet:
    """The small part of a pair's memory worth having at hand without a search, rebuilt each
    active night and stored as one item (one ``GetItem`` in the cloud).

    It is a snapshot, stamped with what it was built from: the chain head's ``through_seq``
    and ``beliefs_version``, the version of the pair's beliefs marker (``applied:beliefs``),
    read *before* the beliefs. Every write that changes the beliefs moves one of the two: a
    check appends (the head) and its belief is applied before the marker moves; a re-derivation
    (and so an erasure's) moves the marker before and after its rows, and the nightly decay
    follows the night's own append. So the snapshot is current exactly while both are
    unchanged (``current``), and a turn that finds it current takes its belief rows instead of
    querying them (``Turns``). A file's removal moves neither, and need not: the turn reads the
    file registry itself, never the snapshot's ``changed_ids``.
    Other readers: the self-model and reports (what the tutor carries into tomorrow).
    """

    pair: Pair
    day: str
    through_seq: int
    beliefs: tuple[tuple[str, str], ...]  # (belief id, line as the block shows it), by concept
    to_confirm: tuple[str, ...]  # concepts whose belief waits for a confirming check
    map_header: str | None  # the SUBJECT MAP header line; None without a map
    recent_ids: tuple[str, ...]  # newest first, consolidations left out
    day_ids: tuple[str, ...]  # the last WORKING_SET_DAYS consolidations, newest first
    changed_ids: tuple[str, ...]  # answers whose citation was last found replaced or removed
    # The current belief rows whole (None: more than WORKING_SET_BELIEF_ROWS, or an older set).
    belief_rows: tuple[Belief, ...] | None = None
    beliefs_version: int = 0  # the beliefs marker's version it was built at (0: unstamped)

    @property
    def belief_ids(self) -> tuple[str, ...]:
        return tuple(i for i, _ in self.beliefs)

    def current(self, head_seq: int, beliefs_version: int) -> bool:
        """Whether a turn may take this set's belief rows: nothing that changes the beliefs was
        written since it was built (see the class)."""
        return (
            self.belief_rows is not None
            and self.beliefs_version > 0
            and self.through_seq == head_seq
            and self.beliefs_version == beliefs_version
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "student_id": self.pair.student_id,
            "subject_id": self.pair.subject_id,
            "day": self.day,
            "through_seq": self.through_seq,
            "beliefs": [list(b) for b in self.beliefs],
            "to_confirm": list(self.to_confirm),
            "map_header": self.map_header,
            "recent_ids": list(self.recent_ids),
            "day_ids": list(self.day_ids),
            "changed_ids": list(self.changed_ids),
            "belief_rows": (
                None
                if self.belief_rows is None
                else [belief_to_record(b) for b in self.belief_rows]
            ),
            "beliefs_version": self.beliefs_version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WorkingSet:
        rows = data.get("belief_rows")  # absent from a set written before turns read it
        return cls(
            pair=Pair(data["student_id"], data["subject_id"]),
            day=data["day"],
            through_seq=int(data["through_seq"]),
            beliefs=tuple((str(i), str(line)) for i, line in data["beliefs"]),
            to_confirm=tuple(data["to_confirm"]),
            map_header=data["map_header"],
            recent_ids=tuple(data["recent_ids"]),
            day_ids=tuple(data["day_ids"]),
            changed_ids=tuple(data["changed_ids"]),
            belief_rows=(
                None if rows is None else tuple(belief_from_record(dict(r)) for r in rows)
            ),
            beliefs_version=int(data.get("beliefs_version", 0)),
        )


_CHANGED = frozenset({Verification.CHANGED_REPLACED.value, Verification.CHANGED_REMOVED.value})


def working_set(
    pair: Pair,
    day: str,
    *,
    through_seq: int,
    beliefs: Sequence[Belief],
    map_header: str | None,
    recent: Sequence[Episode],
    consolidation_id: str | None,
    previous: WorkingSet | None,
    citations: Sequence[CitationEntry],
    beliefs_version: int = 0,
) -> WorkingSet:
    days = [consolidation_id] if consolidation_id else []
    days += previous.day_ids if previous else ()
    changed = sorted((c for c in citations if c.value in _CHANGED), key=lambda c: -c.seq)
    return WorkingSet(
        pair=pair,
        day=day,
        through_seq=through_seq,
        beliefs=tuple((b.belief_id, b.line()) for b in beliefs),
        to_confirm=tuple(b.concept_name for b in beliefs if b.needs_confirmation),
        map_header=map_header,
        recent_ids=tuple(e.episode_id for e in recent if e.kind is not Kind.CONSOLIDATION)[
            : C.WORKING_SET_RECENT
        ],
        day_ids=tuple(dict.fromkeys(days))[: C.WORKING_SET_DAYS],
        changed_ids=tuple(c.episode_id for c in changed[: C.WORKING_SET_CHANGED]),
        belief_rows=tuple(beliefs) if len(beliefs) <= C.WORKING_SET_BELIEF_ROWS else None,
        beliefs_version=beliefs_version,
    )


# --- the self-model -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SelfModel:
    """What the tutor's memory knows about itself, recomposed each active night.

    * ``episodes``, ``counts``: the log's size and episodes per kind (from the chain head);
    * ``checks``: checks recorded; ``checks_untied``: of those, tied to no concept;
    * ``calibration``: predicted mastery against outcomes — buckets (the reliability curve),
      ``ece``, and ``calibrated`` (at least five checks carry a prediction);
    * ``beliefs``, ``understands``, ``struggles``, ``to_confirm``: the current belief rows;
    * ``verification``: every Verification value → the answers whose last check found it;
      ``never_verified``: answers not checked yet;
    * ``limits``: what the tutor must not claim, in sentences (the calibration limit first:
      before five predictions, "treat confidence as a ranking, not a probability").
    """

    pair: Pair
    day: str
    episodes: int
    counts: Mapping[str, int]
    checks: int
    checks_untied: int
    calibration: Calibration
    beliefs: int
    understands: int
    struggles: int
    to_confirm: int
    verification: Mapping[str, int]
    never_verified: int
    limits: tuple[str, ...]

    @property
    def calibrated(self) -> bool:
        return self.calibration.calibrated

    def to_dict(self) -> dict[str, Any]:
        cal = self.calibration
        return {
            "student_id": self.pair.student_id,
            "subject_id": self.pair.subject_id,
            "day": self.day,
            "episodes": self.episodes,
            "counts": dict(self.counts),
            "checks": self.checks,
            "checks_untied": self.checks_untied,
            "calibration": {
                "checks": cal.checks,
                "calibrated": cal.calibrated,
                "ece": cal.ece,
                "buckets": [
                    [b.low, b.high, b.count, b.mean_predicted, b.observed] for b in cal.buckets
                ],
            },
            "beliefs": self.beliefs,
            "understands": self.understands,
            "struggles": self.struggles,
            "to_confirm": self.to_confirm,
            "verification": dict(self.verification),
            "never_verified": self.never_verified,
            "limits": list(self.limits),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SelfModel:
        cal = data["calibration"]
        return cls(
            pair=Pair(data["student_id"], data["subject_id"]),
            day=data["day"],
            episodes=int(data["episodes"]),
            counts={str(k): int(v) for k, v in data["counts"].items()},
            checks=int(data["checks"]),
            checks_untied=int(data["checks_untied"]),
            calibration=Calibration(
                checks=int(cal["checks"]),
                buckets=tuple(
                    Bucket(float(lo), float(hi), int(n), float(m), float(o))
                    for lo, hi, n, m, o in cal["buckets"]
                ),
                ece=None if cal["ece"] is None else float(cal["ece"]),
            ),
            beliefs=int(data["beliefs"]),
            understands=int(data["understands"]),
            struggles=int(data["struggles"]),
            to_confirm=int(data["to_confirm"]),
            verification={str(k): int(v) for k, v in data["verification"].items()},
            never_verified=int(data["never_verified"]),
            limits=tuple(data["limits"]),
        )


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def self_model(
    pair: Pair,
    day: str,
    *,
    counts: Mapping[str, int],
    scan: ScanState,
    beliefs: Sequence[Belief],
    citations: Sequence[CitationEntry],
) -> SelfModel:
    calibration = scan.tally.calibration()
    results = Counter({v.value: 0 for v in Verification})
    results.update(c.value for c in citations if c.value is not None)
    never = sum(1 for c in citations if c.checked_at is None)
    to_confirm = sum(1 for b in beliefs if b.needs_confirmation)
    checks = int(counts.get(Kind.CHECK.value, 0))
    changed = results[Verification.CHANGED_REPLACED] + results[Verification.CHANGED_REMOVED]
    limits = [calibration.limit] if calibration.limit else []
    if scan.checks_untied:
        limits.append(
            f"{scan.checks_untied} of {_n(scan.checks, 'check', 'checks')} could not be tied "
            "to a concept: kept as evidence, they hold up no belief"
        )
    if to_confirm:
        limits.append(
            f"{_n(to_confirm, 'belief', 'beliefs')} went {C.DECAY_AFTER_DAYS} days without a "
            f"check: confidence lowered by {round((1 - C.DECAY_FACTOR) * 100)}%, to be "
            "confirmed by the next check"
        )
    if changed:
        limits.append(
            f"{_n(changed, 'answer cites', 'answers cite')} a file that has since been "
            "replaced or removed"
        )
    if never:
        limits.append(
            f"{_n(never, 'answer has', 'answers have')} not been checked against the files yet"
        )
    return SelfModel(
        pair=pair,
        day=day,
        episodes=sum(int(v) for v in counts.values()),
        counts=dict(sorted(counts.items())),
        checks=checks,
        checks_untied=scan.checks_untied,
        calibration=calibration,
        beliefs=len(beliefs),
        understands=sum(1 for b in beliefs if b.claim is Claim.UNDERSTANDS),
        struggles=sum(1 for b in beliefs if b.claim is Claim.STRUGGLES),
        to_confirm=to_confirm,
        verification=dict(results),
        never_verified=never,
        limits=tuple(limits),
    )


# --- what a night did ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NightReport:
    """What one pair's night did, read back from what it left (so a night finished by a
    restarted run reports exactly what an uninterrupted one would). ``status``: ``done``;
    ``quiet`` (nothing happened that day: nothing was written); ``already done`` (an earlier
    run finished this night: nothing was written, its report is returned); ``erasing`` (a
    worker is erasing the whole pair: nothing was written)."""

    pair: Pair
    day: str
    status: str
    consolidation_id: str | None = None
    decayed: tuple[str, ...] = ()  # concept keys whose belief decayed this night
    through_seq: int = 0  # the calibration tally covers the log up to here
    verified: Mapping[str, int] = field(default_factory=dict)  # result → answers checked

    def to_dict(self) -> dict[str, Any]:
        return {
            "student_id": self.pair.student_id,
            "subject_id": self.pair.subject_id,
            "day": self.day,
            "status": self.status,
            "consolidation_id": self.consolidation_id,
            "decayed": list(self.decayed),
            "through_seq": self.through_seq,
            "verified": dict(self.verified),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NightReport:
        return cls(
            pair=Pair(data["student_id"], data["subject_id"]),
            day=data["day"],
            status=data["status"],
            consolidation_id=data["consolidation_id"],
            decayed=tuple(data["decayed"]),
            through_seq=int(data["through_seq"]),
            verified={str(k): int(v) for k, v in data["verified"].items()},
        )


def decayed_tonight(beliefs: Iterable[Belief], as_of: datetime) -> tuple[str, ...]:
    """Concepts whose current row the night of ``as_of`` wrote (only decay flags a row)."""
    return tuple(
        sorted(b.concept_key for b in beliefs if b.needs_confirmation and b.created_at == as_of)
    )


def verified_tonight(entries: Iterable[CitationEntry]) -> dict[str, int]:
    """Answers checked by one night, by result."""
    return dict(sorted(Counter(e.value for e in entries if e.value is not None).items()))


def night_name(day: str) -> str:
    """The per-pair document that marks a night as finished (written last)."""
    return f"night:{day}"
