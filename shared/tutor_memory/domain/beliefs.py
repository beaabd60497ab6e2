"""Beliefs about the student, from their checks; superseded, never rewritten (SPEC §6).

**What a check is about.** Its topic is routed to a concept by exact canonical name; when the
topic is a sentence, by a concept name inside it or, failing that, inside the tutor's own
evaluation text (exact, whole words; the first named wins, the longer at the same place). A
topic that matches nothing:

* reads like an utterance (a question word, an asking verb, a pronoun, a filler — in en, es,
  id, ur, ar) or is longer than a concept name can be: evidence only, never a belief;
* is otherwise a short name the map does not have yet: the belief is about that name.

**Confidence** (ours; the article gives none). For one concept, the checks so far in order,
each weighted ``BELIEF_RECENCY_WEIGHT ** k`` for the k-th most recent (the latest counts most),
on a uniform prior: ``p = (1 + Σ w·right) / (2 + Σ w)``. The claim is *understands* when
``p ≥ 0.5``, else *struggles with*; its confidence is the probability of the claim, ``p`` or
``1 - p``, rounded to 2 decimals (so 0.5–1.0; a first right check gives 0.67).

**A new row** is warranted when the claim changes, when the confidence moves by at least
``BELIEF_MIN_CHANGE``, or when the current row waits for a confirming check (the nightly decay
sets that flag); otherwise the current row stands and the check stays evidence in the log. A
new row supersedes the old one: only the old row's ``superseded_by`` is ever written.
"""

from __future__ import annotations

import hashlib
import json
from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import CheckEvidence, CorrectionEvidence, Episode, Kind, Pair
from tutor_memory.domain.language import fold, folded_tokens
from tutor_memory.domain.languages import LANGUAGES

RULE_VERSION = 1  # bump when the routing or confidence rules change; then re-derive


class Claim(StrEnum):
    UNDERSTANDS = "understands"
    STRUGGLES = "struggles with"


@dataclass(frozen=True)
class Belief:
    pair: Pair
    belief_id: str
    concept_key: str
    concept_name: str
    claim: Claim
    confidence: float
    evidence_ids: tuple[str, ...]  # the checks behind it, oldest first
    created_at: datetime
    rule_version: int
    reason: str  # what changed and why, for the history
    needs_confirmation: bool = False  # set by the nightly decay; the next check clears it
    generation: int = 0  # how many re-derivations came before this row's
    superseded_by: str | None = None
    retired_at: datetime | None = None

    @property
    def current(self) -> bool:
        return self.superseded_by is None and self.retired_at is None

    def line(self) -> str:
        """As the block shows it: ``understands cytoplasm (0.72)``."""
        flag = ", to confirm at the next check" if self.needs_confirmation else ""
        return f"{self.claim.value} {self.concept_name} ({self.confidence:.2f}{flag})"


def belief_id(
    pair: Pair,
    concept: str,
    claim: Claim,
    confidence: float,
    evidence: Sequence[str],
    created_at: datetime,
    generation: int,
    supersedes: str | None = None,
) -> str:
    """Deterministic: the same history gives the same ids on every backend.

    ``supersedes`` is the id of the row this one replaces: a concept's rows form a chain, so
    a row that says again what an earlier one said (a verdict corrected and corrected back,
    at one time) still has an id of its own — without it, the repeat's id was the earlier
    row's, the write was refused, and every later check and turn of the pair with it."""
    fields: list[object] = [
        pair.student_id,
        pair.subject_id,
        concept,
        claim.value,
        f"{confidence:.2f}",
        list(evidence),
        format_time(created_at),
        generation,
    ]
    if supersedes is not None:  # a concept's first row keeps the id it always had
        fields.append(supersedes)
    body = json.dumps(fields, ensure_ascii=False)
    return "b-" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


# --- what a check is about ----------------------------------------------------------------------


_UTTERANCE_WORDS = frozenset(
    fold(w)
    for pack in LANGUAGES.values()
    for words in (
        pack.utterance_verbs,
        pack.utterance_pronouns,
        pack.utterance_fillers,
        pack.question_words,
        pack.asking_words,
    )
    for w in words
)


def reads_like_utterance(text: str) -> bool:
    """A piece of conversation rather than the name of an idea."""
    words = folded_tokens(fold(text))
    if not words:
        return True
    if len(words) > C.MAX_CONCEPT_NAME_WORDS or text.strip().endswith(("?", "؟")):
        return True
    return any(w in _UTTERANCE_WORDS for w in words)


def _first_named(text: str, known: dict[str, str]) -> str | None:
    words = concept_key(text).split()
    best: tuple[int, int, str] | None = None
    for key in known:
        parts = key.split()
        for i in range(len(words) - len(parts) + 1):
            if words[i : i + len(parts)] == parts:
                candidate = (i, -len(parts), key)
                best = candidate if best is None or candidate < best else best
                break
    return best[2] if best else None


@dataclass(frozen=True)
class Topic:
    key: str
    name: str
    on_map: bool


def route_check(evidence: CheckEvidence, known: dict[str, str]) -> Topic | None:
    """The concept a check is about, or None: it stays evidence (see the module doc)."""
    exact = concept_key(evidence.topic)
    if exact in known:
        return Topic(exact, known[exact], True)
    for text in (evidence.topic, evidence.evaluation):
        named = _first_named(text, known)
        if named is not None:
            return Topic(named, known[named], True)
    if not exact or reads_like_utterance(evidence.topic):
        return None
    return Topic(exact, evidence.topic.strip(), False)


# --- confidence ---------------------------------------------------------------------------------


def tally(outcomes: Sequence[bool]) -> tuple[Claim, float]:
    """(claim, confidence) from right/wrong outcomes, oldest first."""
    weight_sum = right = 0.0
    for age, passed in enumerate(reversed(outcomes)):
        w = C.BELIEF_RECENCY_WEIGHT**age
        weight_sum += w
        right += w * passed
    p = (1.0 + right) / (2.0 + weight_sum)
    claim = Claim.UNDERSTANDS if p >= 0.5 else Claim.STRUGGLES
    confidence = p if claim is Claim.UNDERSTANDS else 1.0 - p
    return claim, round(confidence, 2)


def next_belief(
    previous: Belief | None,
    topic: Topic,
    outcomes: Sequence[bool],
    evidence_ids: Sequence[str],
    *,
    pair: Pair,
    at: datetime,
    generation: int = 0,
) -> Belief | None:
    """The row a new check warrants on top of ``previous`` (None: the current row stands).

    ``outcomes`` and ``evidence_ids`` are every check on this concept so far, oldest first,
    the new one last. None checked it (a correction of a question that names the concept is
    not a check): no row.
    """
    if not outcomes:
        return None
    claim, confidence = tally(outcomes)
    latest, verdict = evidence_ids[-1], "right" if outcomes[-1] else "wrong"
    if previous is not None:
        changed_claim = claim is not previous.claim
        moved = abs(confidence - previous.confidence) >= C.BELIEF_MIN_CHANGE
        if not (changed_claim or moved or previous.needs_confirmation):
            return None
        if changed_claim:
            why = f"changed its mind: {previous.claim.value} → {claim.value}"
        elif previous.needs_confirmation:
            why = "confirmed by a new check after a long quiet"
        else:
            why = f"confidence {previous.confidence:.2f} → {confidence:.2f}"
        reason = f"{why} after check {latest} ({verdict})"
    else:
        reason = f"first check on it: {latest} ({verdict})"
    evidence = tuple(evidence_ids[-C.BELIEF_MAX_EVIDENCE :])
    return Belief(
        pair=pair,
        belief_id=belief_id(
            pair,
            topic.key,
            claim,
            confidence,
            evidence,
            at,
            generation,
            previous.belief_id if previous is not None else None,
        ),
        concept_key=topic.key,
        concept_name=topic.name,
        claim=claim,
        confidence=confidence,
        evidence_ids=evidence,
        created_at=at,
        rule_version=RULE_VERSION,
        reason=reason,
        generation=generation,
    )


def replay_checks(
    told: Iterable[Episode],
    known: dict[str, str],
    *,
    generation: int,
    as_recorded: bool = False,
) -> list[tuple[Belief, Belief | None]]:
    """Every row the recorded checks warrant under today's rules, each with the row it
    supersedes (None for a concept's first): the rows recording them would have written, one
    by one in the order they were recorded. Each check, and each correction of one, is its
    concept's occasion for a row, tallying every check of the concept recorded by then in the
    order they happened, with its verdict as corrected by then — so a history re-derived
    (after an erasure) gives the beliefs, names included, that recording the rest of it gives
    (a back-dated check named "osmosis" after an "ósmosis" one names the belief, as it did).
    ``known``: the map's concepts to route each check by, under today's rules.
    ``as_recorded`` (what an erasure re-derives by, so that the beliefs are those the rest of
    the log gives): each check stays on the concept its recording routed it to (its
    episode's concept) — a note that later put "osmosis" on the map does not rename a belief
    on "ósmosis" — unless that was a map concept the map no longer has (the erased note that
    put it there took it along): then it is routed by ``known``.
    Used by re-derivation; touches no episode."""
    passed: dict[str, bool] = {}  # a check's id → its verdict as corrected so far
    topics: dict[str, Topic] = {}  # a check's id → the concept it is about
    tallied: dict[str, list[tuple[datetime, int, str]]] = {}  # a concept's checks by time
    current: dict[str, Belief] = {}
    rows: list[tuple[Belief, Belief | None]] = []
    for told_one in sorted(told, key=lambda e: e.seq):
        evidence = told_one.evidence
        if told_one.erased:
            continue
        if told_one.kind is Kind.CHECK and isinstance(evidence, CheckEvidence):
            routed = (
                _as_routed(told_one, evidence, known)
                if as_recorded
                else route_check(evidence, known)
            )
            if routed is None:
                continue
            topic, checked = routed, told_one.episode_id
            passed[checked], topics[checked] = evidence.passed, topic
            insort(tallied.setdefault(topic.key, []), (told_one.at, told_one.seq, checked))
        elif (
            isinstance(evidence, CorrectionEvidence)
            and evidence.field == "verdict"
            and evidence.corrects in topics
        ):
            topic = topics[evidence.corrects]
            passed[evidence.corrects] = evidence.value == "right"
        else:
            continue
        ids = [check_id for _at, _seq, check_id in tallied[topic.key]]
        previous = current.get(topic.key)
        row = next_belief(
            previous,
            topic,
            [passed[i] for i in ids],
            ids,
            pair=told_one.pair,
            at=told_one.at,
            generation=generation,
        )
        if row is not None:
            rows.append((row, previous))
            current[topic.key] = row
    return rows


def _as_routed(check: Episode, evidence: CheckEvidence, known: dict[str, str]) -> Topic | None:
    """The concept a check's recording routed it to (its episode's concept; none: it stayed
    evidence), or, where that was a concept of the map the map no longer has, the one
    ``known`` routes it to today."""
    if not check.concepts:
        return None
    name = check.concepts[0]
    key = concept_key(name)
    if not key:
        return None
    its_own = name == evidence.topic.strip()  # the check's own words, not a map concept's
    if its_own or key in known:
        return Topic(key, name, key in known)
    return route_check(evidence, known)


def belief_to_record(b: Belief) -> dict[str, Any]:
    return {
        "student_id": b.pair.student_id,
        "subject_id": b.pair.subject_id,
        "belief_id": b.belief_id,
        "concept_key": b.concept_key,
        "concept_name": b.concept_name,
        "claim": b.claim.value,
        "confidence": b.confidence,
        "evidence_ids": json.dumps(list(b.evidence_ids)),
        "created_at": format_time(b.created_at),
        "rule_version": b.rule_version,
        "reason": b.reason,
        "needs_confirmation": int(b.needs_confirmation),
        "generation": b.generation,
        "superseded_by": b.superseded_by,
        "retired_at": format_time(b.retired_at) if b.retired_at else None,
    }


def belief_from_record(row: dict[str, Any]) -> Belief:
    retired = row.get("retired_at")
    return Belief(
        pair=Pair(str(row["student_id"]), str(row["subject_id"])),
        belief_id=str(row["belief_id"]),
        concept_key=str(row["concept_key"]),
        concept_name=str(row["concept_name"]),
        claim=Claim(str(row["claim"])),
        confidence=float(str(row["confidence"])),
        evidence_ids=tuple(json.loads(str(row["evidence_ids"]))),
        created_at=parse_time(str(row["created_at"])),
        rule_version=int(str(row["rule_version"])),
        reason=str(row["reason"]),
        needs_confirmation=bool(int(str(row["needs_confirmation"]))),
        generation=int(str(row["generation"])),
        superseded_by=str(row["superseded_by"]) if row.get("superseded_by") else None,
        retired_at=parse_time(str(retired)) if retired else None,
    )


def chronological(beliefs: Iterable[Belief]) -> list[Belief]:
    return sorted(beliefs, key=lambda b: (b.created_at, b.generation, b.belief_id))
