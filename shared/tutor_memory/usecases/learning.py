"""Checks feed beliefs (SPEC §6): record a check, keep beliefs superseded never rewritten,
walk a belief's history, and re-derive every belief under today's rules."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from tutor_memory.domain import constants as C
from tutor_memory.domain import corrections
from tutor_memory.domain.beliefs import Belief, Topic, next_belief, replay_checks, route_check
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.concepts import concept_key, find_form
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind, Pair
from tutor_memory.domain.errors import retry_on_conflict
from tutor_memory.ports import AppendResult, BeliefStore, MapStore, Ports
from tutor_memory.usecases.log import APPLIED_BELIEFS, TutorMemory

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CheckResult:
    append: AppendResult
    topic: Topic | None  # None: the check stays evidence, about no concept
    belief: Belief | None  # the new row, when one was warranted
    confirmed_on_map: bool  # a passing check lifted the concept's readiness to 0.85


@dataclass
class AppliedChecks:
    """What a belief catch-up applied: the checks (by seq), the rows it wrote and the concepts
    it confirmed on the map."""

    checks: set[int] = field(default_factory=set)
    beliefs: dict[str, Belief] = field(default_factory=dict)
    confirmed: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Rederivation:
    retired: int
    created: int
    generation: int  # the generation now current (unchanged when nothing was to be done)
    changed: bool = True  # False: today's rules give the current beliefs already


def _claims(rows: Iterable[Belief]) -> set[tuple[str, str, float, tuple[str, ...], int]]:
    """What a set of current beliefs says, ignoring ids, times and generations."""
    return {
        (b.concept_key, b.claim.value, b.confidence, b.evidence_ids, b.rule_version) for b in rows
    }


class Learning:
    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        *,
        derive: Callable[[ConceptMap], ConceptMap],
    ) -> None:
        self.ports = ports
        self.memory = memory
        self.store: BeliefStore = ports.store
        self.maps: MapStore = ports.store
        self.derive = derive

    def known_concepts(self, pair: Pair) -> dict[str, str]:
        return {key: c.name for key, c in self.maps.load_map(pair).concepts.items()}

    def record_check(
        self,
        pair: Pair,
        text: str,
        evidence: CheckEvidence,
        *,
        at: datetime | None = None,
        ref: str | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        summary: str = "",
        salience: float | None = None,
    ) -> CheckResult:
        """Append the check (tied to its concept when it has one), then update the belief and,
        for a pass on a concept of the map, the concept's readiness."""
        topic = route_check(evidence, self.known_concepts(pair))
        appended = self.memory.record(
            pair,
            Kind.CHECK,
            text,
            evidence=evidence,
            at=at,
            concepts=[topic.name] if topic else [],
            summary=summary,
            salience=salience,
            ref=ref,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )
        # This check's belief, and any an earlier write (or this one, retried) left unapplied.
        applied = self.catch_up_beliefs(pair, new=appended.episode)
        if topic is None or appended.episode.seq not in applied.checks:
            return CheckResult(appended, topic, None, False)
        belief = applied.beliefs.get(topic.key)
        return CheckResult(appended, topic, belief, topic.key in applied.confirmed)

    def catch_up(self, pair: Pair) -> None:
        """Bring the pair's derived state up to its log: the index, then the beliefs."""
        self.memory.catch_up_index(pair)
        self.catch_up_beliefs(pair)

    def catch_up_beliefs(self, pair: Pair, *, new: Episode | None = None) -> AppliedChecks:
        """Apply the checks the beliefs have not seen yet, then move the pair's marker.

        The marker counts the checks applied and the last sequence looked at; the head counts
        the checks in the log, so "nothing to do" is two reads and the missing checks are
        found newest first (usually the one just written)."""
        through, version, body = self.memory.applied(pair, APPLIED_BELIEFS)
        done = int(body.get("checks", 0))
        head = self.ports.store.head(pair)
        total = corrections.belief_inputs(head.counts) if head is not None else 0
        if head is None or total <= done:
            return AppliedChecks()
        missing: list[Episode] = []
        if new is not None and new.kind in corrections.BELIEF_KINDS and new.seq > through:
            missing.append(new)
        span = 8
        while len(missing) < total - done:
            start = max(through, head.seq - span)
            page = self.ports.store.episodes(pair, after_seq=start, limit=head.seq - start)
            missing = [e for e in page if e.kind in corrections.BELIEF_KINDS]
            if start == through:
                break
            span *= 8
        applied = AppliedChecks(checks={e.seq for e in missing})
        known = self.known_concepts(pair)
        last: dict[str, Episode] = {}
        for ep in sorted(missing, key=lambda e: (e.at, e.seq)):
            if ep.concepts:
                last[concept_key(ep.concepts[0])] = ep
        for key, ep in last.items():
            topic = Topic(key, known.get(key, ep.concepts[0]), key in known)
            row = self._update_belief(pair, topic, ep.at)
            if row is not None:
                applied.beliefs[key] = row
            passed = any(
                corrections.passes(e)
                for e in missing
                if e.concepts and concept_key(e.concepts[0]) == key
            )
            if passed and topic.on_map and self._confirm(pair, key):
                applied.confirmed.add(key)
        mark = {"through": max([through, *applied.checks]), "checks": done + len(missing)}
        self.memory.mark_applied(pair, APPLIED_BELIEFS, mark, version)
        return applied

    def _update_belief(self, pair: Pair, topic: Topic, at: datetime) -> Belief | None:
        # Each check once, with its verdict as corrected (a correction carries its check's
        # concepts, so the concept's links find both).
        found = [
            e for e in self.ports.store.touching(pair, [topic.key])
            if e.kind in corrections.BELIEF_KINDS and not e.erased
        ]  # fmt: skip
        checks = sorted(
            (e for e in corrections.as_corrected(found) if isinstance(e.evidence, CheckEvidence)),
            key=lambda e: (e.at, e.seq),  # the tally is in the order they happened
        )
        outcomes = [e.evidence.passed for e in checks if isinstance(e.evidence, CheckEvidence)]
        ids = [e.episode_id for e in checks]

        def update() -> Belief | None:
            previous = next(
                (b for b in self.store.beliefs(pair) if b.concept_key == topic.key), None
            )
            row = next_belief(
                previous,
                topic,
                outcomes,
                ids,
                pair=pair,
                at=at,
                generation=self.store.belief_generation(pair),
            )
            if row is not None:
                self.store.add_belief(row, previous)
            return row

        return retry_on_conflict(
            update,
            attempts=C.BELIEF_SAVE_ATTEMPTS,
            gave_up=f"the beliefs of {pair} kept changing; {topic.name} was not updated",
        )

    def _confirm(self, pair: Pair, key: str) -> bool:
        def confirm() -> bool:
            cmap = self.maps.load_map(pair)
            node = cmap.concepts.get(key)
            if node is None or node.confirmed:
                return False
            updated = replace(cmap, concepts={**cmap.concepts, key: replace(node, confirmed=True)})
            self.maps.save_map(pair, self.derive(updated))
            return True

        return retry_on_conflict(
            confirm,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the map of {pair} kept changing; {key} was not confirmed",
        )

    def beliefs(self, pair: Pair) -> list[Belief]:
        return self.store.beliefs(pair)

    def belief_history(self, pair: Pair, concept_key: str) -> list[Belief]:
        """Every row about a concept, oldest first; each row's ``reason`` says what changed."""
        return self.store.belief_history(pair, concept_key)

    def belief_history_named(self, pair: Pair, name: str) -> list[Belief]:
        """The history of the concept a user names as they see it: any case, accents or
        spacing ("pH  Scale", "Ósmosis" → its key), or another form of the name ("Indicators"
        for "Indicator"); the key itself works too. Empty: no belief about such a concept."""
        key = concept_key(name)
        rows = self.store.belief_history(pair, key) if key else []
        if rows:
            return rows
        # Not the key of a belief: another form of a believed concept's name, or of a map node's.
        names = {**self.known_concepts(pair)}
        names.update((b.concept_key, b.concept_name) for b in self.store.beliefs(pair))
        found = find_form(name, names)
        return self.store.belief_history(pair, found) if found and found != key else []

    def rederive(
        self,
        pair: Pair,
        *,
        at: datetime | None = None,
        force: bool = False,
        as_recorded: bool = False,
    ) -> Rederivation:
        """Retire the current beliefs (never delete) and replay the recorded checks under
        today's rules. No episode is touched: the chain is the same before and after.
        ``as_recorded`` (an erasure's): each check stays on the concept its recording routed
        it to, unless the map no longer has it (``replay_checks``) — the beliefs the rest of
        the log gives.

        An operator action: it is logged (without the caller's reason: a log holds no
        words, so the use case takes none), and it is idempotent — when today's rules give the
        current beliefs already (a retry, a second run), nothing is retired or written, unless
        ``force`` (the bench builds every belief once this way)."""
        when = at or self.ports.clock.now()
        current_generation = self.store.belief_generation(pair)
        generation = current_generation + 1
        told = [
            e for e in self.ports.store.iter_episodes(pair)
            if e.kind in corrections.BELIEF_KINDS and not e.erased
        ]  # fmt: skip
        known = self.known_concepts(pair)
        rows = replay_checks(told, known, generation=generation, as_recorded=as_recorded)
        latest = {row.concept_key: row for row, _supersedes in rows}
        if not force and _claims(latest.values()) == _claims(self.store.beliefs(pair)):
            log.info(
                "re-derivation of %s: the current beliefs already follow today's rules", pair,
                extra={"pair": str(pair), "operator_action": "rederive", "changed": False},
            )  # fmt: skip
            return Rederivation(0, 0, current_generation, changed=False)
        # Before and after the rows: a working set built meanwhile is stale either way.
        self.memory.touch_applied(pair, APPLIED_BELIEFS)
        retired = self.store.retire_beliefs(pair, when)
        for row, supersedes in rows:
            self.store.add_belief(row, supersedes)
        self.memory.touch_applied(pair, APPLIED_BELIEFS)
        log.info(
            "re-derivation of %s: %d beliefs retired, %d rows written, generation %d",
            pair, retired, len(rows), generation,
            extra={"pair": str(pair), "operator_action": "rederive", "changed": True,
                   "retired": retired, "rows_written": len(rows), "generation": generation},
        )  # fmt: skip
        return Rederivation(retired=retired, created=len(rows), generation=generation)
