"""A report of one pair, built from its rows and nothing else (SPEC §11).

Pure: the caller reads the rows (``reports.py``) and hands them over; every figure here is a
count or a value of those rows, so it can be traced back to them. Sentences that carry a
figure are built here, next to the figure, so the wording is tested with the number it states.

Decisions (ours):

* **A snapshot.** The report covers the log up to the chain head read first (``head_seq``);
  an episode appended while the report is being read is left for the next report, so the
  per-kind counts of the head and the episodes counted here always agree.
* **Checks tied to a concept** are the check episodes whose ``concepts`` are not empty (a check
  is tied when it is written, SPEC §6); "on the map" counts those whose concept is a node of
  the current map. With none tied the report says so in the article's words, never "no checks".
* **The question an answer answered** is the latest question before it in the log: the log
  keeps no explicit link, so the report shows the question that preceded it and says that.
* **Verification and stance** are the newest annotation of each kind on an episode.
* **A belief's history** is shown chain by chain: a re-derivation replays the same checks at
  the same times, so the rows of each generation are listed together, oldest first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import (
    Annotation,
    AnnotationKind,
    Stance,
    Verification,
    current,
)
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.calibration import Calibration, calibrate, predictions
from tutor_memory.domain.chain import Erasure
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.corrections import as_corrected
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    CheckEvidence,
    CorrectionEvidence,
    Episode,
    Kind,
    Pair,
)
from tutor_memory.domain.mapblock import percent

ABOUT_THE_MATERIAL = "this is about the material, not the student"

# The readiness bands (SPEC §4), highest first: name, value, what it means.
BANDS: tuple[tuple[str, float, str], ...] = (
    ("taught", C.READINESS_TAUGHT, "taught by a person (1.0)"),
    ("confirmed", C.READINESS_CONFIRMED, "confirmed by a passing check (0.85)"),
    ("explained", C.READINESS_EXPLAINED, "explained by a file (0.60)"),
    ("named", C.READINESS_NAMED, "only named (0.35)"),
)


def band_of(readiness: float) -> str:
    """The band a stored readiness belongs to (the nearest, so a float read back still fits)."""
    return min(BANDS, key=lambda band: abs(band[1] - readiness))[0]


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


@dataclass(frozen=True)
class ReportRows:
    """Everything a report is made of, as read from the stores."""

    pair: Pair
    generated_at: datetime
    head_seq: int  # the chain head when the report began (0: nothing recorded)
    head_at: datetime | None
    counts: Mapping[str, int]  # episodes per kind, as kept with the head
    episodes: Sequence[Episode]  # oldest first
    annotations: Mapping[str, Sequence[Annotation]]  # episode id → its annotations
    beliefs: Sequence[Belief]  # the current rows
    cmap: ConceptMap
    history_key: str | None = None  # the concept whose belief history was asked for
    history: Sequence[Belief] = ()  # every row about it, oldest first
    erasures: Sequence[Erasure] = ()  # the erasure records kept beside the chain, in order


# --- the sections ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Checks:
    recorded: int
    right: int
    wrong: int
    tied: int  # tied to a concept when written
    on_map: int  # of those, tied to a concept that is a node of the current map

    @property
    def line(self) -> str:
        if self.recorded == 0:
            return "No check has been recorded yet."
        if self.tied == 0:
            if self.recorded == 1:
                return "1 check recorded, but it could not yet be tied to a concept on the map."
            return (
                f"{self.recorded} checks recorded, but none could yet be tied to a concept on "
                "the map."
            )
        untied = self.recorded - self.tied
        return (
            f"{plural(self.recorded, 'check')} recorded ({self.right} right, {self.wrong} "
            f"wrong): {self.tied} tied to a concept ({self.on_map} of them on the map), "
            f"{untied} not tied to any."
        )


@dataclass(frozen=True)
class Unanswered:
    """An answer whose current stance is "could not": the files did not answer it."""

    answer_id: str
    answered_at: datetime
    answer: str  # its one-line summary
    stance_at: datetime
    question_id: str | None  # the latest question before it in the log
    question: str | None
    asked_at: datetime | None


@dataclass(frozen=True)
class Stances:
    answers: int
    counts: Mapping[str, int]  # every Stance value, and "none" for answers without a stance
    could_not: tuple[Unanswered, ...]

    @property
    def line(self) -> str:
        if self.answers == 0:
            return "No answer has been recorded yet."
        n = len(self.could_not)
        said = ", ".join(f"{self.counts[s.value]} {s.value.replace('_', ' ')}" for s in Stance)
        if n == 0:
            which = "The one answer" if self.answers == 1 else f"None of the {self.answers} answers"
            return (
                f"{which} is marked as one the files could not give ({said}; "
                f"{self.counts['none']} without a stance)."
            )
        return (
            f"{plural(n, 'answer')} of {self.answers} could not be answered from the files "
            f"({said}; {self.counts['none']} without a stance)."
        )


@dataclass(frozen=True)
class ChangedCitation:
    episode_id: str
    result: str  # changed_replaced or changed_removed
    checked_at: datetime
    summary: str
    detail: str


@dataclass(frozen=True)
class ErasureGroup:
    """Erasure records of one request: the same day (UTC), reason, requester and scope."""

    at: datetime  # the first record's time
    reason: str
    requested_by: str
    scope: str
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class Erasures:
    """What was erased, from the records kept beside the chain (never from the bodies, which
    are gone): how many episodes, and each request's day, reason, requester and sequences."""

    erased: int
    groups: tuple[ErasureGroup, ...]

    @property
    def line(self) -> str:
        if not self.erased:
            return "Nothing has been erased."
        return (
            f"{plural(self.erased, 'episode')} erased: each keeps its envelope in the chain "
            "(time, kind, sequence), its body is gone; the chain still verifies."
        )


def _erasures(records: Sequence[Erasure]) -> Erasures:
    groups: list[ErasureGroup] = []
    for r in records:
        last = groups[-1] if groups else None
        if last is not None and (last.at.date(), last.reason, last.requested_by, last.scope) == (
            r.at.date(), r.reason, r.requested_by, r.scope
        ):  # fmt: skip
            groups[-1] = ErasureGroup(
                last.at, last.reason, last.requested_by, last.scope, (*last.seqs, r.seq)
            )
        else:
            groups.append(ErasureGroup(r.at, r.reason, r.requested_by, r.scope, (r.seq,)))
    return Erasures(len(records), tuple(groups))


@dataclass(frozen=True)
class Verifications:
    results: Mapping[str, int]  # every Verification value → episodes whose current result it is
    citing: int  # answers that cite a file
    citing_unverified: int  # of those, never verified
    last_checked_at: datetime | None
    changed: tuple[ChangedCitation, ...]

    @property
    def verified(self) -> int:
        return sum(self.results.values())

    @property
    def headline(self) -> str:
        if self.verified == 0:
            return f"Nothing has been verified yet ({memories(self.citing, 'cite')} a file)."
        have = "has" if self.verified == 1 else "have"
        return f"{plural(self.verified, 'memory', 'memories')} {have} been verified."

    @property
    def result_lines(self) -> tuple[str, ...]:
        """One sentence per result that any memory has, most worrying first."""
        said = (
            (Verification.CHANGED_REMOVED, "a file that no longer exists."),
            (Verification.CHANGED_REPLACED, "a file that has since been replaced."),
            (Verification.HOLDS, "a file that is still there, unchanged (holds)."),
            (Verification.UNVERIFIABLE, "no file, so there is nothing to look up (unverifiable)."),
        )
        return tuple(
            f"{memories(self.results[v], 'cite')} {what}" for v, what in said if self.results[v]
        )

    @property
    def unverified_line(self) -> str | None:
        if not self.citing_unverified or self.verified == 0:
            return None
        n = self.citing_unverified
        return (
            f"{memories(n, 'cite')} a file and {'has' if n == 1 else 'have'} not been verified yet."
        )

    @property
    def lines(self) -> tuple[str, ...]:
        extra = (self.unverified_line,) if self.unverified_line else ()
        return (self.headline, *self.result_lines, *extra)


def memories(count: int, verb: str) -> str:
    """E.g. 1 memory cites, 11 memories cite."""
    return f"{plural(count, 'memory', 'memories')} {verb + 's' if count == 1 else verb}"


KIND_NOUNS: dict[str, tuple[str, str]] = {
    "question": ("question", "questions"),
    "answer": ("answer", "answers"),
    "check": ("check", "checks"),
    "quiz": ("quiz", "quizzes"),
    "file": ("file arrival", "file arrivals"),
    "taught": ("taught note", "taught notes"),
    "consolidation": ("nightly summary", "nightly summaries"),
    "correction": ("correction", "corrections"),
}


def kind_count(kind: str, count: int) -> str:
    one, many = KIND_NOUNS.get(kind, (kind, kind))
    return plural(count, one, many)


@dataclass(frozen=True)
class Subject:
    concepts: int
    readiness: float  # the stored subject readiness (centrality-weighted mean)
    bands: Mapping[str, int]  # band name → concepts in it
    teaching_order: tuple[tuple[str, ...], ...]  # concept names, prerequisites first

    @property
    def percent(self) -> int:
        return percent(self.readiness)

    @property
    def line(self) -> str:
        if self.concepts == 0:
            return "No file has been read into the concept map yet: no subject readiness."
        return (
            f"The files explain {self.percent}% of the subject "
            f"({plural(self.concepts, 'concept')}; {ABOUT_THE_MATERIAL})."
        )


@dataclass(frozen=True)
class Correction:
    """One correction in the log: when, what it corrected (id and kind), the field, the value
    it replaced (a verdict or a score; never the student's words), the corrected value, who
    corrected it and why."""

    at: datetime
    episode_id: str
    corrects: str
    kind: str  # the corrected episode's kind
    field: str
    was: str | float | None
    value: str | float
    by: str
    reason: str

    @property
    def line(self) -> str:
        def shown(v: str | float) -> str:
            return f"{v:g}" if isinstance(v, float) else f'"{v}"'

        was = f" (was {shown(self.was)})" if self.was is not None else ""
        return (
            f"the {self.by} corrected {self.kind} {self.corrects}: {self.field} is now "
            f'{shown(self.value)}{was} — "{self.reason}"'
        )


def _corrections(episodes: Sequence[Episode]) -> tuple[Correction, ...]:
    kinds = {e.episode_id: e.kind.value for e in episodes}
    out = []
    for e in episodes:
        fix = e.evidence
        if e.kind is Kind.CORRECTION and not e.erased and isinstance(fix, CorrectionEvidence):
            out.append(
                Correction(
                    at=e.at, episode_id=e.episode_id, corrects=fix.corrects,
                    kind=kinds.get(fix.corrects, "episode"), field=fix.field, was=fix.was,
                    value=fix.value, by=fix.by, reason=e.text,
                )
            )  # fmt: skip
    return tuple(out)


@dataclass(frozen=True)
class Report:
    pair: Pair
    generated_at: datetime
    episodes: int  # the chain head's sequence number
    last_at: datetime | None
    counts: Mapping[str, int]
    beliefs: tuple[Belief, ...]
    history_key: str | None
    history: tuple[Belief, ...]
    checks: Checks
    stances: Stances
    calibration: Calibration
    verification: Verifications
    subject: Subject
    cmap: ConceptMap  # the stored map the subject section reads (for the picture of it)
    erasures: Erasures = Erasures(0, ())
    corrections: tuple[Correction, ...] = ()

    @property
    def recorded(self) -> int:
        """The student's episodes whose bodies stand: the head's count less the erased."""
        return self.episodes - min(self.erasures.erased, self.episodes)

    @property
    def checks_without_prediction(self) -> int:
        return self.checks.recorded - self.calibration.checks

    @property
    def nothing_to_calibrate(self) -> str:
        """What to say when no check carries a prediction (never "no checks" when some exist)."""
        n = self.checks.recorded
        if n == 0:
            return "Nothing to calibrate: no check has been recorded yet."
        if n == 1:
            return "Nothing to calibrate yet: the one check recorded carries no predicted mastery."
        return f"Nothing to calibrate yet: none of the {n} checks carries a predicted mastery."


# --- building it -------------------------------------------------------------------------------


def build_report(rows: ReportRows) -> Report:
    told = [e for e in rows.episodes if e.seq <= rows.head_seq]
    episodes = as_corrected(told)  # each check once, with its verdict as corrected
    return Report(
        pair=rows.pair,
        generated_at=rows.generated_at,
        episodes=rows.head_seq,
        last_at=rows.head_at,
        counts={k: rows.counts[k] for k in sorted(rows.counts)},
        beliefs=tuple(rows.beliefs),
        history_key=rows.history_key,
        history=tuple(sorted(rows.history, key=_chain_order)),
        checks=_checks(episodes, rows.cmap),
        stances=_stances(episodes, rows.annotations),
        calibration=calibrate(predictions(episodes)),
        verification=_verifications(episodes, rows.annotations),
        subject=_subject(rows.cmap),
        cmap=rows.cmap,
        erasures=_erasures(rows.erasures),
        corrections=_corrections(told),
    )


def _chain_order(b: Belief) -> tuple[int, datetime, str]:
    return (b.generation, b.created_at, b.belief_id)


def _checks(episodes: Sequence[Episode], cmap: ConceptMap) -> Checks:
    checks = [e for e in episodes if e.kind is Kind.CHECK and isinstance(e.evidence, CheckEvidence)]
    tied = [e for e in checks if e.concepts]
    on_map = [e for e in tied if any(concept_key(c) in cmap.concepts for c in e.concepts)]
    right = sum(1 for e in checks if isinstance(e.evidence, CheckEvidence) and e.evidence.passed)
    return Checks(len(checks), right, len(checks) - right, len(tied), len(on_map))


def _stances(episodes: Sequence[Episode], notes: Mapping[str, Sequence[Annotation]]) -> Stances:
    counts = Counter({s.value: 0 for s in Stance} | {"none": 0})
    could_not: list[Unanswered] = []
    question: Episode | None = None
    answers = 0
    for ep in episodes:  # in log order, so `question` is the latest one before each answer
        if ep.kind is Kind.QUESTION:
            question = ep
        if ep.kind is not Kind.ANSWER:
            continue
        answers += 1
        stance = current(list(notes.get(ep.episode_id, ())), AnnotationKind.STANCE)
        counts[stance.value if stance else "none"] += 1
        if stance is not None and stance.value == Stance.COULD_NOT:
            could_not.append(
                Unanswered(
                    answer_id=ep.episode_id,
                    answered_at=ep.at,
                    answer=ep.summary,
                    stance_at=stance.at,
                    question_id=question.episode_id if question else None,
                    question=question.summary if question else None,
                    asked_at=question.at if question else None,
                )
            )
    return Stances(answers, dict(counts), tuple(could_not))


def _verifications(
    episodes: Sequence[Episode], notes: Mapping[str, Sequence[Annotation]]
) -> Verifications:
    results = Counter({v.value: 0 for v in Verification})
    citing = unverified = 0
    last: datetime | None = None
    changed: list[ChangedCitation] = []
    for ep in episodes:
        cites = isinstance(ep.evidence, AnswerEvidence) and ep.evidence.file_id is not None
        note = current(list(notes.get(ep.episode_id, ())), AnnotationKind.VERIFICATION)
        citing += cites
        if note is None:
            unverified += cites
            continue
        results[note.value] += 1
        last = note.at if last is None else max(last, note.at)
        if note.value in (Verification.CHANGED_REPLACED, Verification.CHANGED_REMOVED):
            changed.append(
                ChangedCitation(ep.episode_id, note.value, note.at, ep.summary, note.detail)
            )
    return Verifications(dict(results), citing, unverified, last, tuple(changed))


def _subject(cmap: ConceptMap) -> Subject:
    bands = Counter({band[0]: 0 for band in BANDS})
    for concept in cmap.concepts.values():  # the stored number, read back into its band
        bands[band_of(concept.readiness)] += 1
    order = tuple(
        tuple(cmap.concepts[k].name for k in layer if k in cmap.concepts)
        for layer in cmap.teaching_order
    )
    return Subject(len(cmap.concepts), cmap.subject_readiness, dict(bands), order)
