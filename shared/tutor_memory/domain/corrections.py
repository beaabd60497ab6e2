"""Corrections: a later episode sets an earlier one right, and nothing is rewritten (issue 30).

A correction names the episode it corrects, the field that was wrong and its corrected value:

========  ===========  =============================  ===========================
field     corrects     value                          who may correct it
========  ===========  =============================  ===========================
verdict   a check      ``right`` or ``wrong``         a teacher or the service
score     a quiz       a number within its maximum    a teacher or the service
note      taught note  the note's corrected text      a teacher or the service
text      a student's  what they meant to say         the student, or the service
          message
========  ===========  =============================  ===========================

The student corrects their own words; the people who grade correct grades (a check marked wrong
by mistake, a score typed wrong). The service (the tutoring product's backend) may relay either.

**Reading.** Wherever the log is read for what it says — beliefs, the block, the report, the
nightly tally, the calibration — the episode is read as corrected (:func:`apply`): the newest
correction of each field wins, and the episode carries ``corrected_at`` so the block can say
"(corrected on 3 May: a typo)". The correction itself stays in the log: recalled (shown as its
own line where the episode it corrects is not shown beside it, ``domain.block``), exported,
verified, erasable like any episode. A corrected check counts once, with its
corrected verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Final

from tutor_memory.domain.access import Role
from tutor_memory.domain.episodes import (
    CORRECTED_FIELDS,
    CheckEvidence,
    CorrectedField,
    CorrectionEvidence,
    Episode,
    Kind,
    QuizEvidence,
    TaughtEvidence,
    Verdict,
    about_the_student,
    summarise,
)
from tutor_memory.domain.errors import ForbiddenError, ValidationError

# Who may correct which kind (the table above). A role not named may correct nothing.
CORRECTORS: Final[dict[Role, frozenset[Kind]]] = {
    Role.SERVICE: frozenset(CORRECTED_FIELDS.values()),
    Role.TEACHER: frozenset({Kind.CHECK, Kind.QUIZ, Kind.TAUGHT}),
    Role.STUDENT: frozenset({Kind.QUESTION}),
}


def may_correct(role: Role, kind: Kind) -> bool:
    return kind in CORRECTORS.get(role, frozenset())


def field_of(kind: Kind) -> CorrectedField | None:
    """The field a correction of this kind changes; None: the kind cannot be corrected."""
    for name, corrected in CORRECTED_FIELDS.items():
        if corrected is kind:
            return name  # type: ignore[return-value]  # a key of CORRECTED_FIELDS
    return None


def current_value(episode: Episode) -> str | float:
    """What the field a correction changes says now (the episode as corrected so far)."""
    evidence = episode.evidence
    if isinstance(evidence, CheckEvidence):
        return evidence.verdict
    if isinstance(evidence, QuizEvidence):
        return evidence.score
    if isinstance(evidence, TaughtEvidence):
        return evidence.note
    return episode.text


def correction_of(
    target: Episode, field: str, value: object, *, by: Role
) -> tuple[CorrectionEvidence, str]:
    """The evidence and the one-line summary of a correction of ``target`` (read as corrected
    so far): refused (422) where the field is not the kind's or the value is what it already
    says, and (403) where ``by`` may not correct such an episode."""
    if target.erased or not about_the_student(target) or target.kind is Kind.CORRECTION:
        raise ValidationError("episode_id", f"a {target.kind.value} cannot be corrected")
    expected = field_of(target.kind)
    if expected is None:
        fields = ", ".join(f"a {k.value}'s {f}" for f, k in CORRECTED_FIELDS.items())
        raise ValidationError(
            "episode_id", f"a {target.kind.value} cannot be corrected (only {fields})"
        )
    if field != expected:
        raise ValidationError("field", f"a {target.kind.value}'s correctable field is {expected!r}")
    if not may_correct(by, target.kind):
        raise ForbiddenError(f"a {by.value} may not correct a {target.kind.value}")
    was = current_value(target)
    evidence = target.evidence
    mastery = evidence.predicted_mastery if isinstance(evidence, CheckEvidence) else None
    # The old words are not copied into the correction (they stay, erasable, in the episode
    # corrected); a verdict or a score is not the student's words.
    kept_was = was if field in ("verdict", "score") else None
    try:
        corrected = CorrectionEvidence(
            corrects=target.episode_id, field=expected, value=value,  # type: ignore[arg-type]
            was=kept_was, by=by.value, mastery=mastery,
        )  # fmt: skip
    except ValidationError as bad:  # named as the request names it: "value"
        raise ValidationError(bad.field.removeprefix("evidence."), bad.problem) from None
    if isinstance(evidence, QuizEvidence) and float(corrected.value) > evidence.maximum:
        raise ValidationError(
            "value", f"({corrected.value:g}) exceeds the quiz's maximum ({evidence.maximum:g})"
        )
    if corrected.value == was:
        raise ValidationError("value", f"is what the {target.kind.value} already says")
    return corrected, summary_of(target, corrected)


def summary_of(target: Episode, correction: CorrectionEvidence) -> str:
    """What a correction's line says (its summary): the corrected fact, and for a verdict or a
    score what it replaces."""
    evidence = target.evidence
    if isinstance(evidence, CheckEvidence):
        return summarise(f"check on {evidence.topic}: {correction.value}, not {correction.was}")
    if isinstance(evidence, QuizEvidence):
        top = f"{evidence.maximum:g}"
        return summarise(f"quiz: {correction.value:g}/{top}, not {correction.was:g}/{top}")
    return summarise(str(correction.value))


def _corrected(episode: Episode, fix: Episode) -> Episode:
    found = fix.evidence
    assert isinstance(found, CorrectionEvidence)
    evidence = episode.evidence
    if isinstance(evidence, CheckEvidence) and found.field == "verdict":
        verdict: Verdict = "right" if found.value == "right" else "wrong"
        return replace(episode, evidence=replace(evidence, verdict=verdict), corrected_at=fix.at)
    if isinstance(evidence, QuizEvidence) and found.field == "score":
        score = min(float(found.value), evidence.maximum)
        return replace(episode, evidence=replace(evidence, score=score), corrected_at=fix.at)
    if isinstance(evidence, TaughtEvidence) and found.field == "note":
        note = str(found.value)
        return replace(
            episode, evidence=TaughtEvidence(note), summary=summarise(note), corrected_at=fix.at
        )
    if episode.kind is Kind.QUESTION and found.field == "text":
        text = str(found.value)
        return replace(episode, text=text, summary=summarise(text), corrected_at=fix.at)
    return episode  # a correction that does not fit its episode (never written so) is ignored


def newest_by_target(corrections: Iterable[Episode]) -> dict[str, Episode]:
    """Each corrected episode's id → its newest correction (by sequence; erased ones skipped)."""
    newest: dict[str, Episode] = {}
    for fix in sorted(corrections, key=lambda e: e.seq):
        if fix.erased or not isinstance(fix.evidence, CorrectionEvidence):
            continue
        newest[fix.evidence.corrects] = fix
    return newest


def corrected_before(corrections: Iterable[Episode], target_id: str, seq: int) -> list[str]:
    """The ids of the corrections of episode ``target_id`` recorded before sequence ``seq``
    (erased ones too: what was heard in them is the message's own, whatever became of it)."""
    return [
        e.episode_id for e in corrections
        if isinstance(e.evidence, CorrectionEvidence)
        and e.evidence.corrects == target_id and e.seq < seq
    ]  # fmt: skip


def apply(episodes: Sequence[Episode], corrections: Iterable[Episode]) -> list[Episode]:
    """``episodes`` as corrected: each one a correction names is read with its newest
    correction's value (and ``corrected_at``); the rest as they are, in the same order."""
    return apply_newest(episodes, newest_by_target(corrections))


def apply_newest(episodes: Sequence[Episode], newest: Mapping[str, Episode]) -> list[Episode]:
    """``apply`` with each episode's newest correction already found (``newest_by_target``)."""
    if not newest:
        return list(episodes)
    return [
        _corrected(ep, newest[ep.episode_id]) if ep.episode_id in newest else ep for ep in episodes
    ]


def as_corrected(episodes: Sequence[Episode]) -> list[Episode]:
    """A stretch of the log read as corrected by the corrections inside it, without them: what
    a tally of checks (beliefs, calibration) counts, each check once with its last verdict."""
    fixes = [e for e in episodes if e.kind is Kind.CORRECTION]
    if not fixes:
        return list(episodes)
    return [e for e in apply(episodes, fixes) if e.kind is not Kind.CORRECTION]


# What beliefs are derived from: checks, and the corrections that may change a check's verdict.
# The beliefs' marker counts both (a correction recorded and not yet applied is caught up).
BELIEF_KINDS: Final = (Kind.CHECK, Kind.CORRECTION)


def belief_inputs(counts: Mapping[str, int]) -> int:
    """How many episodes of the kinds beliefs follow a head counts."""
    return sum(int(counts.get(kind.value, 0)) for kind in BELIEF_KINDS)


def passes(episode: Episode) -> bool:
    """A check that passed, or a correction that made one right."""
    evidence = episode.evidence
    if isinstance(evidence, CheckEvidence):
        return evidence.passed
    return (
        isinstance(evidence, CorrectionEvidence)
        and evidence.field == "verdict"
        and evidence.value == "right"
    )
