"""The nightly loop and self-verification (SPEC §9, §10): the use cases.

Once a night, for every pair active on the day just ended, with no model call: compress the
day into one consolidation, decay stale beliefs, fold new checks into the calibration tally,
verify a bounded batch of citations, rebuild the working set, recompose the self-model, and
mark the night done. The decisions are in ``domain/nightly.py`` and ``domain/verify.py``.

**Idempotency.** Every write is keyed by the night, never by the wall clock:

* the consolidation carries the idempotency key ``consolidation:<day>`` (an append that finds
  the key writes nothing and returns the episode already there);
* a decayed row supersedes a current row under the store's condition that it is still current,
  and a row waiting for confirmation is never decayed again;
* the calibration tally advances with a condition on the sequence it was read at;
* a verified answer moves in the queue to the night's time with its annotation, atomically, and
  a night checks at most ``VERIFY_BATCH`` answers counting those already moved to its time;
* the working set and self-model are written only when they differ from what is stored;
* a checkpoint of the pair's chain is anchored (signed, kept where the store's writer cannot
  rewrite it: ``TutorMemory.anchor_checkpoint``) once the night's writes are done, and only
  when the chain verifies; a rerun finds it anchored already. A quiet night anchors it too
  when the chain's head has moved past its newest checkpoint: a request's erasure leaves its
  checkpoint to the night (``Erasing.anchor_at_once``);
* the night's report is written last, as the marker ``night:<day>``: a second run finds it and
  writes nothing at all.

So a run interrupted anywhere and started again finishes the night without a duplicate, and a
finished night run again changes nothing.

``tutor-memory nightly`` is defined in ``commands.py`` (the entry layer).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.chain import ERASURE_PENDING_DOCUMENT
from tutor_memory.domain.classmaps import FoldedFile, folded_files
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    Episode,
    Kind,
    NewEpisode,
    Pair,
    about_the_student,
)
from tutor_memory.domain.errors import ConflictError, ValidationError
from tutor_memory.domain.failures import failure_kind
from tutor_memory.domain.files import FileRecord
from tutor_memory.domain.mapblock import map_header
from tutor_memory.domain.nightly import (
    NightReport,
    ScanState,
    SelfModel,
    WorkingSet,
    consolidation,
    day_window,
    decayed,
    decayed_tonight,
    is_stale,
    night_name,
    previous_day,
    self_model,
    verified_tonight,
    working_set,
)
from tutor_memory.domain.tenancy import DEFAULT_TENANT
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry, check_citation
from tutor_memory.ports import BeliefStore, MapStore, NightlyStore, Ports
from tutor_memory.usecases.log import APPLIED_BELIEFS, APPLIED_INDEX, TutorMemory
from tutor_memory.usecases.turns import (
    SELF_MODEL_DOCUMENT,
    WORKING_SET_DOCUMENT,
)

if TYPE_CHECKING:
    from tutor_memory.usecases.learning import Learning

SCAN, WORKING_SET, SELF_MODEL = "scan", WORKING_SET_DOCUMENT, SELF_MODEL_DOCUMENT


@dataclass(frozen=True)
class NightTask:
    """One pair's night, as the scheduler sends it to the workers."""

    pair: Pair
    day: str  # YYYY-MM-DD in the students' time zone
    tenant: str = DEFAULT_TENANT  # whose store the pair is in (the message names another)

    def to_json(self) -> str:
        other = {} if self.tenant == DEFAULT_TENANT else {"tenant": self.tenant}
        return json.dumps(
            {"student_id": self.pair.student_id, "subject_id": self.pair.subject_id,
             "day": self.day, **other},
            sort_keys=True,
        )  # fmt: skip


@dataclass(frozen=True)
class FanOut:
    day: str
    tasks: tuple[NightTask, ...]


@dataclass(frozen=True)
class NightRun:
    """The nights of every pair asked for; one pair failing does not stop the others."""

    day: str
    reports: tuple[NightReport, ...]
    failures: tuple[tuple[Pair, str], ...]


log = logging.getLogger(__name__)


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValidationError("day", f"must be a date YYYY-MM-DD (got {text!r})") from None


class Nightly:
    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        *,
        learning: Learning | None = None,
        tenant: str = DEFAULT_TENANT,
    ) -> None:
        self.ports = ports
        self.memory = memory
        self.tenant = tenant  # the store's: its tasks name it
        self.learning = learning  # None (the scheduler): the beliefs are not reconciled
        self.beliefs: BeliefStore = ports.store
        self.maps: MapStore = ports.store
        self.store: NightlyStore = ports.store

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.ports.timezone)

    # --- which night, which pairs ------------------------------------------------------------

    def night_of(self, now: datetime | None = None) -> date:
        """The day a night run at ``now`` (default: the clock) compresses: yesterday, locally."""
        return previous_day(now or self.ports.clock.now(), self.tz)

    def active_pairs(self, day: date) -> list[Pair]:
        """Pairs that may have been active on ``day`` (read from the activity index, never a
        scan); a pair that turns out quiet is left alone by ``run_pair``."""
        return self.store.active_pairs(day_window(day, self.tz))

    def fan_out(
        self,
        send: Callable[[Sequence[NightTask]], None],
        *,
        now: datetime | None = None,
        day: date | None = None,
        retention_days: int | None = None,
    ) -> FanOut:
        """The scheduler's half: one task per active pair, handed to ``send`` (the queue). With
        a retention period, also one per pair the retention sweep looks at (see
        ``tutor_memory.usecases.retention``): its worker erases what is past the period."""
        night = day or self.night_of(now)
        pairs = self.active_pairs(night)
        if retention_days is not None:
            from tutor_memory.usecases.retention import pairs_to_sweep

            swept = pairs_to_sweep(self.store, night, retention_days, self.ports.timezone)
            pairs = sorted({*pairs, *swept})
        tasks = tuple(NightTask(p, night.isoformat(), self.tenant) for p in pairs)
        send(tasks)
        return FanOut(night.isoformat(), tasks)

    def run(self, day: date | None = None, *, pairs: Sequence[Pair] | None = None) -> NightRun:
        """Every active pair's night, in-process (the embedded default's scheduler). A day
        that has not ended is refused before any pair (each pair's night would refuse it)."""
        night = day or self.night_of()
        self._ended(night)
        reports, failures = [], []
        for pair in self.active_pairs(night) if pairs is None else pairs:
            try:
                reports.append(self.run_pair(pair, night))
            except Exception as exc:  # one bad pair (a damaged row, say) never stops the others
                reason = failure_kind(exc)  # a library's message may quote a student's words
                log.warning("night of %s for %s skipped: %s", night, pair, reason)
                failures.append((pair, reason))
        return NightRun(night.isoformat(), tuple(reports), tuple(failures))

    def _ended(self, day: date) -> TimeWindow:
        """The day's window; a ValidationError while the day has not ended where the students
        are: its summary would be frozen half-written under the day's idempotency key."""
        window = day_window(day, self.tz)
        if window.end > self.ports.clock.now():
            raise ValidationError(
                "day", f"{day} has not ended yet in {self.ports.timezone}: its night comes later"
            )
        return window

    # --- one pair's night ---------------------------------------------------------------------

    def run_pair(self, pair: Pair, day: date) -> NightReport:
        """The six steps for one pair and one day (see the module doc for why it is safe to
        run again, whole or after an interruption)."""
        name = night_name(day.isoformat())
        done = self.store.document(pair, name)
        if done is not None:
            return replace(NightReport.from_dict(done.body), status="already done")
        # A pair a worker is erasing whole: a summary of the day's lines could land after the
        # erasure's entries and outlive them.
        if self.store.document(pair, ERASURE_PENDING_DOCUMENT) is not None:
            return NightReport(pair, day.isoformat(), "erasing")
        self.reconcile(pair)
        window = self._ended(day)
        as_of = window.end
        limit = C.CONSOLIDATION_MAX_EPISODES
        day_episodes = [
            e
            for e in self.ports.store.recent(pair, limit + 1, window)
            if not e.erased and about_the_student(e)  # an erasure's entry is not the day's work
        ]
        new = consolidation(
            pair, day, window, day_episodes[:limit], truncated=len(day_episodes) > limit
        )
        if new is None:
            self.anchor_moved(pair)  # e.g. a request's erasure, which leaves its anchor to us
            return NightReport(pair, day.isoformat(), "quiet")
        summary = self._consolidate(new)
        self.decay(pair, as_of)
        scan = self.scan(pair)
        self.verify_citations(pair, at=as_of)
        beliefs = self.beliefs.beliefs(pair)
        citations = self.store.citations(pair)
        self._rebuild_working_set(pair, day.isoformat(), summary, citations)
        self._recompose_self_model(pair, day.isoformat(), scan, beliefs, citations)
        report = NightReport(
            pair=pair,
            day=day.isoformat(),
            status="done",
            consolidation_id=summary.episode_id,
            decayed=decayed_tonight(beliefs, as_of),
            through_seq=scan.through_seq,
            verified=verified_tonight(self.store.citations_checked_at(pair, as_of)),
        )
        self.anchor(pair)
        # A concurrent run of the same night may have finished first: the night is done either way.
        with suppress(ConflictError):
            self.store.put_document(pair, name, report.to_dict(), expected_version=0)
        return report

    def anchor(self, pair: Pair) -> None:
        """Anchor a checkpoint of the pair's chain as the night leaves it (when the memory has
        an anchor). A chain that does not verify is not anchored, and says so in the log."""
        if self.memory.anchor is None:
            return
        anchoring = self.memory.anchor_checkpoint(pair)
        if anchoring.refused:
            log.warning(
                "night: no checkpoint anchored for %s: %s", pair, anchoring.refused,
                extra={"pair": str(pair), "operator_action": "anchor"},
            )  # fmt: skip

    def anchor_moved(self, pair: Pair) -> None:
        """On a quiet night: anchor the chain when its head has moved past the newest
        checkpoint (an erasure's entry, which is not the day's work; ``Erasing.anchor_at_once``)
        — two reads when it has not, without the verification anchoring costs."""
        anchor, head = self.memory.anchor, self.ports.store.head(pair)
        if anchor is None or head is None:
            return
        newest = anchor.newest(pair)
        if newest is None or (newest.checkpoint.seq, newest.checkpoint.head_hash) != (
            head.seq,
            head.hash,
        ):
            self.anchor(pair)

    def reconcile(self, pair: Pair) -> None:
        """Derived state follows the log: index every episode, and apply every check to the
        beliefs, that a crashed write left behind (nothing to do is a few reads). Only then
        does the embedder run at night, for episodes the index lacks."""
        while True:  # in bounded steps, for as long as the marker moves
            before = self.memory.applied(pair, APPLIED_INDEX)[0]
            self.memory.catch_up_index(pair)
            if self.memory.applied(pair, APPLIED_INDEX)[0] == before:
                break
        if self.learning is not None:
            self.learning.catch_up_beliefs(pair)

    def _consolidate(self, new: NewEpisode) -> Episode:
        appended = self.ports.store.append(new)
        # Lexical terms only (no vector): the night calls no model for its own summary. A rerun
        # after an interruption between the append and the index finds the marker behind.
        episode = appended.episode
        self.memory.catch_up_index(new.pair, upto=episode.seq, ready={episode.seq: (episode, None)})
        return episode

    def decay(self, pair: Pair, as_of: datetime) -> list[str]:
        """Supersede every belief untouched for 45 days at ``as_of``; returns their concepts."""
        keys = []
        for belief in self.beliefs.beliefs(pair):
            if not is_stale(belief, None, as_of):  # its own row is recent: no lookup needed
                continue
            last = self.store.newest_touching(pair, belief.concept_key, Kind.CHECK)
            row = decayed(belief, last.at if last else None, as_of)
            if row is None:
                continue
            try:
                self.beliefs.add_belief(row, belief)
            except ConflictError:
                continue  # a check renewed it meanwhile: it is not stale any more
            keys.append(belief.concept_key)
        return keys

    def scan(self, pair: Pair) -> ScanState:
        """Fold the episodes appended since the last night into the running tally, a page at
        a time, each page saved under a condition (an interruption loses at most a page)."""
        doc = self.store.document(pair, SCAN)
        state = ScanState.from_dict(doc.body) if doc else ScanState()
        version = doc.version if doc else 0
        while True:
            page = self.ports.store.episodes(
                pair, after_seq=state.through_seq, limit=C.NIGHTLY_SCAN_PAGE
            )
            if not page:
                return state
            try:
                folded = state.fold(page)
                version = self.store.put_document(
                    pair, SCAN, folded.to_dict(), expected_version=version
                )
                state = folded
            except ConflictError:  # another run advanced it: continue from there
                doc = self.store.document(pair, SCAN)
                state = ScanState.from_dict(doc.body) if doc else ScanState()
                version = doc.version if doc else 0

    # --- verification (SPEC §9) ----------------------------------------------------------------

    def verify_citations(
        self, pair: Pair, limit: int = C.VERIFY_BATCH, *, at: datetime | None = None
    ) -> dict[str, int]:
        """Check a bounded batch of answers' citations against the file registry — never
        checked first, then oldest checked, none answered after ``at`` — and annotate each
        with the result and ``at``.
        Returns how many answers got each result. A lookup, never a model call."""
        when = at or self.ports.clock.now()
        already = len(self.store.citations_checked_at(pair, when))
        due = self.store.citations_due(pair, before=when, limit=limit - already)
        if not due:
            return {}
        found = {
            e.episode_id: e for e in self.ports.store.get_many(pair, [d.episode_id for d in due])
        }
        files: dict[str, FileRecord | None] = {}
        folded: list[dict[str, tuple[FoldedFile, ...]]] = []  # the map's course files, once
        results: Counter[str] = Counter()
        for entry in due:
            episode = found.get(entry.episode_id)
            if episode is None:
                continue  # queued with its episode in one transaction: cannot happen
            if episode.at > when:
                continue  # answered after this night (a night run late): its own night checks it
            if result := self._check(pair, episode, files, folded, entry, when):
                results[result] += 1
        return dict(sorted(results.items()))

    def _check(
        self,
        pair: Pair,
        episode: Episode,
        files: dict[str, FileRecord | None],
        folded: list[dict[str, tuple[FoldedFile, ...]]],
        entry: CitationEntry,
        when: datetime,
    ) -> str | None:
        evidence = episode.evidence
        file_id = evidence.file_id if isinstance(evidence, AnswerEvidence) else None
        if file_id is not None and file_id not in files:
            files[file_id] = self.ports.store.file(pair, file_id)  # once per file per batch
        record = files[file_id] if file_id is not None else None
        course: tuple[FoldedFile, ...] = ()
        if file_id is not None:
            if not folded:  # a course file is on the map, not in the registry: read once
                folded.append(folded_files(self.ports.store.load_map(pair)))
            course = folded[0].get(file_id, ())
        result = check_citation(episode, record, course)
        kind = AnnotationKind.VERIFICATION
        note = Annotation(pair, episode.episode_id, kind, result.value, when, result.detail)
        try:
            self.store.record_citation_check(entry, note, final=result.final)
        except ConflictError:
            return None  # checked meanwhile by a concurrent run
        return result.value.value

    # --- the working set and the self-model ---------------------------------------------------

    def _save(self, pair: Pair, name: str, body: dict[str, Any]) -> bool:
        """Write a document unless it already says exactly this; True when written."""
        stored = self.store.document(pair, name)
        if stored is not None and stored.body == json.loads(json.dumps(body)):
            return False
        try:
            self.store.put_document(
                pair, name, body, expected_version=stored.version if stored else 0
            )
        except ConflictError:
            return False  # a concurrent run wrote its own, equally current, version
        return True

    def _rebuild_working_set(
        self,
        pair: Pair,
        day: str,
        summary: Episode,
        citations: Sequence[CitationEntry],
    ) -> bool:
        # The stamp is read before the beliefs, so a write between them leaves the set stale
        # rather than current with rows older than its stamp (see ``WorkingSet``).
        head = self.ports.store.head(pair)
        _, beliefs_version, _ = self.memory.applied(pair, APPLIED_BELIEFS)
        beliefs = self.beliefs.beliefs(pair)
        cmap = self.maps.load_map(pair)
        previous = self.working_set(pair)
        built = working_set(
            pair,
            day,
            through_seq=head.seq if head else 0,
            beliefs_version=beliefs_version,
            beliefs=beliefs,
            map_header=map_header(cmap) if cmap.concepts else None,
            recent=[
                e
                for e in self.ports.store.recent(pair, C.WORKING_SET_RECENT + C.WORKING_SET_DAYS)
                if not e.erased and about_the_student(e)
            ],
            consolidation_id=summary.episode_id,
            previous=previous,
            citations=citations,
        )
        return self._save(pair, WORKING_SET, built.to_dict())

    def _recompose_self_model(
        self,
        pair: Pair,
        day: str,
        scan: ScanState,
        beliefs: Sequence[Belief],
        citations: Sequence[CitationEntry],
    ) -> bool:
        head = self.ports.store.head(pair)
        model = self_model(
            pair,
            day,
            counts=head.counts if head else {},
            scan=scan,
            beliefs=beliefs,
            citations=citations,
        )
        return self._save(pair, SELF_MODEL, model.to_dict())

    def refresh(self, pair: Pair, day: str) -> None:
        """After an erasure: fold the log again from the start (erased checks no longer count),
        then rebuild the working set and the self-model from what remains."""
        scan = self.scan(pair)
        beliefs = self.beliefs.beliefs(pair)
        citations = self.store.citations(pair)
        summary = next(
            (
                e
                for e in self.ports.store.recent(pair, C.WORKING_SET_RECENT * 4)
                if e.kind is Kind.CONSOLIDATION and not e.erased
            ),
            None,
        )
        if summary is not None:
            self._rebuild_working_set(pair, day, summary, citations)
        self._recompose_self_model(pair, day, scan, beliefs, citations)

    # --- reads --------------------------------------------------------------------------------

    def working_set(self, pair: Pair) -> WorkingSet | None:
        """The pair's working set as the last active night left it (None before any)."""
        doc = self.store.document(pair, WORKING_SET)
        return WorkingSet.from_dict(doc.body) if doc else None

    def self_model(self, pair: Pair) -> SelfModel | None:
        """The pair's self-model as the last active night composed it (None before any).
        Its fields are documented on :class:`tutor_memory.domain.nightly.SelfModel`."""
        doc = self.store.document(pair, SELF_MODEL)
        return SelfModel.from_dict(doc.body) if doc else None

    def night(self, pair: Pair, day: date) -> NightReport | None:
        """What the night of ``day`` did for the pair, once it finished."""
        doc = self.store.document(pair, night_name(day.isoformat()))
        return NightReport.from_dict(doc.body) if doc else None
