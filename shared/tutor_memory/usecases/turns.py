"""One chat turn: one memory block within a token budget and a hard time cap (SPEC §7, §8).

The block is built on a worker thread; the caller waits at most the deadline (2.5 s, the
article's cap) and then returns at once with ``dropped: true`` — a slow memory never holds back
the first token. A dropped build finishes in the background and its result is discarded.

Also here: recording an answer with the memories recalled into its prompt, its sources (each
recalled episode as a citable source, labelled with when it happened), and its stance.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain import corrections
from tutor_memory.domain.annotations import Annotation, AnnotationKind, Stance, Verification
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.block import build_block, calibration_line
from tutor_memory.domain.chain import ERASURE_PENDING_DOCUMENT, ChainHead
from tutor_memory.domain.classmaps import FoldedFile, folded_files
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import AnswerEvidence, Episode, Kind, Pair, check_time_range
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.files import FileRecord
from tutor_memory.domain.mapblock import render_map_section
from tutor_memory.domain.mapfocus import map_focus
from tutor_memory.domain.nightly import SelfModel, WorkingSet
from tutor_memory.domain.profile import Statement, names_of, shown
from tutor_memory.domain.profile import line as profile_line
from tutor_memory.domain.prompt import is_memory_section, place_block
from tutor_memory.domain.question import understand
from tutor_memory.domain.recall import RecalledItem, RecallResult
from tutor_memory.domain.verify import check_course_citation
from tutor_memory.ports import (
    AppendResult,
    BeliefStore,
    MapStore,
    NightlyStore,
    Ports,
    ready_within,
)
from tutor_memory.usecases.log import APPLIED_BELIEFS, APPLIED_INDEX, TutorMemory


@dataclass(frozen=True)
class TurnResult:
    block: str
    memory_ids: tuple[str, ...]
    belief_ids: tuple[str, ...]
    map_concepts: tuple[str, ...]
    dropped: bool  # the deadline passed: no block this turn
    record_question: bool = False
    window: str | None = None
    window_empty: bool = False
    tokens: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    recall: RecallResult | None = None  # what recall found, before the budget cut
    working_set: bool = False  # the beliefs came from the nightly working set (it was current)


@dataclass(frozen=True)
class PromptResult:
    """The tutor's prompt with the block in its memory slot, and the turn that built it."""

    sections: tuple[tuple[str, str], ...]  # (title, text), in order
    turn: TurnResult

    @property
    def text(self) -> str:
        """The sections as one prompt: the block as it is (it has its own header), every
        other section under its title."""
        return "\n\n".join(
            text if is_memory_section(title) else f"{title.upper()}:\n{text}"
            for title, text in self.sections
        )


# The titles the tutor's named sections get (``place_block`` reads them as words).
SYSTEM_TITLE = "System"
MATERIAL_TITLE = "Material"
ASSESSMENT_TITLE = "Assessment results"
QUESTION_TITLE = "Question"


@dataclass(frozen=True)
class Source:
    """A recalled episode offered as one more source of an answer, with when it happened."""

    episode: Episode
    label: str  # "from our session on 12 Jul 2026"


# The nightly loop's document names (usecases.nightly writes them, a turn reads them).
SELF_MODEL_DOCUMENT = "self_model"
WORKING_SET_DOCUMENT = "working_set"

Applied = tuple[int, int, dict[str, Any]]  # a derived-state marker: (through, version, body)


class _CaughtUp(Exception):
    """Raised inside a turn's build when derived state had to catch up with the log first."""


class Turns:
    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        *,
        deadline_s: float = C.TURN_DEADLINE_S,
        budget_tokens: int = C.BLOCK_BUDGET_TOKENS,
        workers: int = 4,
        catch_up: Callable[[Pair], None] | None = None,
        timer: Callable[[], float] = time.perf_counter,
        profile: Callable[[str], list[Statement]] | None = None,
    ) -> None:
        self.ports = ports
        self.memory = memory
        # The student's profile in force (every subject's block shows it), when one is kept.
        self.profile = profile
        # Brings the pair's index and beliefs up to its log first (a cheap check when they are).
        self.catch_up = catch_up
        self.beliefs: BeliefStore = ports.store
        self.maps: MapStore = ports.store
        self.documents: NightlyStore = ports.store  # the nightly loop's self-model
        self.deadline_s = deadline_s
        self.budget_tokens = budget_tokens
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="turn")
        self._building: set[Future[TurnResult]] = set()  # builds not finished yet
        self.timer = timer  # what the deadline is measured with (a test injects its own)
        # Pairs whose state (the index's postings and vectors, the store's kept view) was
        # loaded before a turn's deadline started, most recent last.
        self._prepared: OrderedDict[Pair, None] = OrderedDict()

    def settle(self, timeout: float | None = None) -> None:
        """Wait until every build started so far has finished (a dropped one keeps running in
        the background): the bench runs turns one after another, never one under the next."""
        futures_wait(list(self._building), timeout=timeout)

    def turn(
        self,
        pair: Pair,
        question: str | None,
        *,
        at: datetime | None = None,
        budget_tokens: int | None = None,
    ) -> TurnResult:
        # Checked before the turn starts: a time outside the store's range is a 422 naming `at`.
        now = self.ports.clock.now() if at is None else check_time_range("at", at)
        # The pair's state is loaded before the deadline starts (once per pair): the first
        # turn after opening a big history would otherwise spend its deadline loading it.
        self.prepare(pair)
        start = self.timer()
        future = self._pool.submit(
            self._build, pair, question, now, budget_tokens or self.budget_tokens, start
        )
        self._building.add(future)
        future.add_done_callback(self._building.discard)
        try:
            return self._within_deadline(future, start)
        except FutureTimeout:
            future.cancel()  # not started yet: never starts; running: its result is dropped
            waited = round((self.timer() - start) * 1000, 3)
            return TurnResult("", (), (), (), dropped=True, timings_ms={"waited": waited})

    def _within_deadline(self, future: Future[TurnResult], start: float) -> TurnResult:
        """The build's result if it comes before the deadline (measured with ``timer``), else
        ``FutureTimeout`` (``ports.ready_within``: an injected timer is read too)."""

        def left() -> float:
            return self.deadline_s - (self.timer() - start)

        if not ready_within(future, left) or left() < 0:
            raise FutureTimeout
        return future.result()

    def prepare(self, pair: Pair) -> None:
        """Load the pair's state the turn path keeps (the embedded index's postings and
        vectors, the embedded store's newest episodes) unless done already: at 100,000
        episodes this is seconds of CPU, and a turn calls it before its deadline starts.
        Adapters without such state (the cloud's) have nothing to prepare."""
        if pair in self._prepared:
            self._prepared.move_to_end(pair)
            return
        self.ports.store.prepare(pair)
        if self.ports.index is not None:
            self.ports.index.prepare(pair)
        self._prepared[pair] = None
        while len(self._prepared) > C.KEPT_PAIR_VIEWS:
            self._prepared.popitem(last=False)

    def prompt(
        self,
        pair: Pair,
        question: str | None,
        *,
        system: str = "",
        material: str = "",
        assessment: str | None = None,
        at: datetime | None = None,
        budget_tokens: int | None = None,
    ) -> PromptResult:
        """One turn, placed in the tutor's prompt (SPEC §7): the block goes in the memory slot
        before the material; a legacy assessment section that only says nothing is recorded is
        dropped, any other is kept after the block with a bridging note. The turn's
        ``memory_ids`` are what the answer records as its recalled memories, as for ``turn``."""
        result = self.turn(pair, question, at=at, budget_tokens=budget_tokens)
        sections = [(SYSTEM_TITLE, system)] if system else []
        sections.append((MATERIAL_TITLE, material))
        if assessment is not None:
            sections.append((ASSESSMENT_TITLE, assessment))
        sections.append((QUESTION_TITLE, question or ""))
        return PromptResult(tuple(place_block(sections, result.block)), result)

    def _build(
        self, pair: Pair, question: str | None, now: datetime, budget: int, start: float
    ) -> TurnResult:
        tick = time.perf_counter()

        # How long recall may still wait for the question's vector (``C.TURN_MEANING_SHARE``):
        # past it the turn recalls by words, so a long question's slow embedding costs the
        # block its meaning, not the whole block.
        def meaning_left() -> float:
            return self.deadline_s * C.TURN_MEANING_SHARE - (self.timer() - start)

        try:
            return self._build_once(pair, question, now, budget, tick, meaning_left, check=True)
        except _CaughtUp:  # derived state was behind the log: repaired, so build again
            return self._build_once(pair, question, now, budget, tick, meaning_left, check=False)

    def _behind(
        self,
        pair: Pair,
        head_soon: Future[ChainHead | None],
        beliefs_soon: Future[Applied],
    ) -> Callable[[], None]:
        """Start reading the index's marker beside the turn's first reads (the beliefs' is
        read there already), and return the check recall runs before it asks the index: when
        the index or the beliefs are behind the log (a write that crashed after its commit),
        catch them up and build the turn again. The usual turn finds nothing behind and waits
        for nothing more."""
        if self.catch_up is None:
            return lambda: None
        index_soon = self.ports.reads.soon(self.memory.applied, pair, APPLIED_INDEX)
        catch_up = self.catch_up

        def check() -> None:
            head = head_soon.result()
            if head is None or not self.memory.keeps_markers:
                return
            checks = corrections.belief_inputs(head.counts)  # what the beliefs follow
            index_through = index_soon.result()[0]
            beliefs_done = int(beliefs_soon.result()[2].get("checks", 0))
            index_behind = self.ports.index is not None and head.seq > index_through
            if index_behind or checks > beliefs_done:
                catch_up(pair)
                raise _CaughtUp

        return check

    def _build_once(
        self,
        pair: Pair,
        question: str | None,
        now: datetime,
        budget: int,
        tick: float,
        meaning_left: Callable[[], float],
        *,
        check: bool,
    ) -> TurnResult:
        # Every read that needs nothing else goes out at once, beside recall's own (one wait
        # in the cloud instead of one per read); a record question's evidence waits for the
        # beliefs inside recall, not before it.
        soon = self.ports.reads.soon
        # The question's embedding first, on an I/O thread (even where the reads run inline):
        # it runs beside the reads below and the question's understanding, and recall's
        # gather waits for it (see ``ports.QueryVectors``; a question asked again is not
        # embedded again).
        text = (question or "").strip()
        if text and self.ports.embedder is not None:
            self.ports.queries.soon(self.ports.embedder, text, self.ports.reads.embedding(text))
        head_soon = soon(self.ports.store.head, pair)
        erasing_soon = soon(self._being_erased, pair)
        marker_soon = soon(self.memory.applied, pair, APPLIED_BELIEFS)
        held_soon = soon(self._working_set, pair)
        # Taken after the three above, on an I/O thread: no wait of its own when the working
        # set is current, one beside recall's search when the beliefs must be queried.
        beliefs_soon = soon(self._current_beliefs, pair, head_soon, marker_soon, held_soon)
        map_soon = soon(self.maps.load_map, pair)
        files_soon = soon(self.ports.store.files, pair)
        calibration_soon = soon(self._calibration, pair)
        profile_soon = soon(self.profile, pair.student_id) if self.profile else None
        # The question, understood once (while the reads are on their way): recall, the map's
        # focus and the block all read this one value.
        zone = ZoneInfo(self.ports.timezone)
        asked = understand(question, now, zone)
        record = asked.record
        # as known at the question's time: a correction made after it is not applied
        fixes_soon = soon(lambda: self.memory.corrections_of(pair, head_soon.result(), at=now))
        recall = self.memory.recall(
            pair,
            asked,
            at=now,
            record=record,
            before_search=self._behind(pair, head_soon, marker_soon) if check else None,
            also_ids=(
                (lambda: [i for b in beliefs_soon.result()[0] for i in b.evidence_ids])
                if record
                else ()
            ),
            # the student's names, from the profile read above (not read a second time)
            names=(lambda: names_of(profile_soon.result())) if profile_soon else (),
            corrections=fixes_soon.result,
            vector_left=meaning_left,
        )
        beliefs, from_working_set = beliefs_soon.result()
        cmap = map_soon.result()
        files = {f.file_id: f for f in files_soon.result()}
        if erasing_soon.result():
            # A worker is erasing the whole pair: nothing of it, the lines it has not reached
            # yet included, and nothing derived from it (the profile is the student's, and
            # a student's erasure deletes it first).
            recall = replace(recall, items=[])
            beliefs, cmap, files = [], ConceptMap(), {}
        section = render_map_section(
            cmap, budget, focus=map_focus(cmap, recall, beliefs, record=record)
        )
        head = head_soon.result()
        checks = int(head.counts.get(Kind.CHECK.value, 0)) if head else 0
        block = build_block(
            question=asked,
            recall=recall,
            beliefs=beliefs,
            map_section=section,
            changed_files=self._changed_files(files, recall.items, cmap),
            checks_recorded=checks,
            budget_tokens=budget,
            now=now,
            tz=zone,
            calibration=calibration_soon.result() if beliefs else None,
            profile=[
                profile_line(statement, now=now, tz=zone)
                for statement in shown(
                    profile_soon.result() if profile_soon else (), now.astimezone(zone).date()
                )
            ],
        )
        timings = dict(recall.timings_ms)
        timings["total"] = round((time.perf_counter() - tick) * 1000, 3)
        return TurnResult(
            block=block.text,
            memory_ids=block.memory_ids,
            belief_ids=block.belief_ids,
            map_concepts=block.map_concepts,
            dropped=False,
            record_question=record,
            window=recall.window.label if recall.window else None,
            window_empty=recall.window_empty,
            tokens=block.tokens,
            timings_ms=timings,
            recall=recall,
            working_set=from_working_set,
        )

    def _being_erased(self, pair: Pair) -> bool:
        """Whether a worker is erasing the whole pair (one document read, beside the turn's
        others; none from a store that keeps no documents)."""
        if not self.memory.keeps_markers:
            return False
        return self.documents.document(pair, ERASURE_PENDING_DOCUMENT) is not None

    def _working_set(self, pair: Pair) -> WorkingSet | None:
        """The nightly loop's working set, if it wrote one (one document read)."""
        if not self.memory.keeps_markers:
            return None
        doc = self.documents.document(pair, WORKING_SET_DOCUMENT)
        return WorkingSet.from_dict(doc.body) if doc is not None else None

    def _current_beliefs(
        self,
        pair: Pair,
        head_soon: Future[ChainHead | None],
        marker_soon: Future[Applied],
        held_soon: Future[WorkingSet | None],
    ) -> tuple[list[Belief], bool]:
        """The pair's current beliefs: the working set's rows while it is current (its stamp
        still the head's sequence and the beliefs marker's version, see ``WorkingSet``), else
        the belief store's. True when they came from the working set."""
        held = held_soon.result()
        if held is not None and held.belief_rows is not None:
            head = head_soon.result()
            version = marker_soon.result()[1]
            if held.current(head.seq if head is not None else 0, version):
                return list(held.belief_rows), True
        return self.beliefs.beliefs(pair), False

    def _calibration(self, pair: Pair) -> str:
        """The self-model's calibration status as the block's one line (see
        ``calibration_line``); one document read, none from a store that keeps no documents."""
        if not self.memory.keeps_markers:
            return calibration_line(None)
        doc = self.documents.document(pair, SELF_MODEL_DOCUMENT)
        if doc is None:
            return calibration_line(None)
        model = SelfModel.from_dict(doc.body)
        return calibration_line(model.calibration, as_of=model.day)

    @staticmethod
    def _changed_files(
        files: Mapping[str, FileRecord], items: Sequence[RecalledItem], cmap: ConceptMap
    ) -> dict[str, str]:
        """Recalled answers whose cited file was since replaced or removed (the pair's file
        registry, and the course files folded into its map, both read with the turn's other
        reads; never a model call)."""
        changed: dict[str, str] = {}
        folded: dict[str, tuple[FoldedFile, ...]] | None = None
        for item in items:
            evidence = item.episode.evidence
            if not isinstance(evidence, AnswerEvidence) or evidence.file_id is None:
                continue
            record = files.get(evidence.file_id)
            if evidence.fingerprint is not None and cmap.courses:
                folded = folded_files(cmap) if folded is None else folded
                course = folded.get(evidence.file_id, ())
                checked = check_course_citation(evidence.fingerprint, record, course)
                if checked is not None:
                    if checked.value is Verification.CHANGED_REPLACED:
                        changed[item.episode.episode_id] = "replaced"
                    continue
            if record is None or record.removed:
                changed[item.episode.episode_id] = "removed"
            elif record.current.fingerprint != evidence.fingerprint:
                changed[item.episode.episode_id] = "replaced"
        return changed

    # --- answers, their sources and their stance --------------------------------------------

    def record_answer(
        self,
        pair: Pair,
        text: str,
        *,
        recalled_ids: Sequence[str] = (),
        file_id: str | None = None,
        page: int | None = None,
        at: datetime | None = None,
        ref: str | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        salience: float | None = None,
    ) -> AppendResult:
        """The tutor's answer, with the memories recalled into the prompt that produced it."""
        known = {e.episode_id for e in self.ports.store.get_many(pair, list(recalled_ids))}
        unknown = [i for i in recalled_ids if i not in known]
        if unknown:
            raise ValidationError("recalled_ids", f"no episode {unknown[0]!r} in this pair")
        return self.memory.record(
            pair,
            Kind.ANSWER,
            text,
            evidence=AnswerEvidence(file_id, page),
            recalled_ids=list(recalled_ids)[: C.MAX_RECALLED_IDS],
            summary=summary,
            concepts=concepts,
            salience=salience,
            at=at,
            ref=ref,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )

    def sources(self, pair: Pair, answer_id: str) -> list[Source]:
        answer = self.memory.episode(pair, answer_id)
        if answer.kind is not Kind.ANSWER:
            raise ValidationError(
                "answer_id", f"{answer_id} is a {answer.kind.value}, not an answer"
            )
        recalled = self.ports.store.get_many(pair, list(answer.recalled_ids))
        tz = ZoneInfo(self.ports.timezone)
        sources = []
        for e in sorted(recalled, key=lambda e: (e.at, e.seq)):
            day = e.at.astimezone(tz)
            sources.append(Source(e, f"from our session on {day.day} {day:%b %Y}"))
        return sources

    def set_stance(self, pair: Pair, answer_id: str, stance: str) -> Annotation:
        answer = self.memory.episode(pair, answer_id)
        if answer.kind is not Kind.ANSWER:
            raise ValidationError(
                "answer_id", f"{answer_id} is a {answer.kind.value}, not an answer"
            )
        if stance not in {s.value for s in Stance}:
            raise ValidationError("stance", "must be answered, partial or could_not")
        return self.memory.annotate(pair, answer_id, AnnotationKind.STANCE, stance)
