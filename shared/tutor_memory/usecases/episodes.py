"""``Episodes.add``: the one door an episode enters by.

The API, the CLI, replay, the library (``Memory``) and the MCP server all record through here,
so no caller can append a check without moving its belief, or a "remember that …" without
teaching the map. Each kind goes to the use case it belongs to:

=============  ===========================================================================
kind           what happens
=============  ===========================================================================
question       read for an explicit instruction to remember: one teaches the map (and is
               recorded as ``taught``); any other question is recorded as it was asked;
               one about the student ("my name is …") tells their profile
taught         teaches the map; a message that is no instruction is refused, unless it
               carries its note (a recorded history keeps it as it was told)
check          ``Learning.record_check``: tied to its concept, moves the belief, and a pass
               confirms the concept on the map
quiz           recorded with its score
answer         ``Turns.record_answer``: the recalled ids must exist; the cited file's
               fingerprint is stamped; one that opens by calling the student by name
               ("Hi Maya!") tells a profile that holds no name (``Profiles.hear_tutor``)
consolidation  recorded as told (a history may carry the nightly loop's day summaries)
correction     ``Episodes.correct`` (a corrected check moves its belief, as a check with that
               verdict would); recorded as told from a history
file           refused: a file enters by ingestion, which reads it into the map
=============  ===========================================================================

The episode's shape is the replay shape (``evidence`` follows the kind: a check's ``topic``,
``verdict``, ``evaluation``, ``predicted_mastery``; a quiz's ``score``, ``maximum``,
``topics``; an answer's ``file_id``, ``page``; a taught message's ``note``), given as the
domain's typed evidence or as plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tutor_memory.domain import corrections
from tutor_memory.domain.access import Role
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import (
    EVIDENCE_TYPES,
    AnswerEvidence,
    CheckEvidence,
    CorrectionEvidence,
    Episode,
    Evidence,
    Kind,
    NewEpisode,
    Pair,
    TaughtEvidence,
    check_client_key,
    check_id,
    evidence_from_dict,
    parse_kind,
    request_digest,
)
from tutor_memory.domain.errors import NotFoundError, ValidationError

# NotTeachingError lives with the domain's errors (a remote client raises it too); raised here.
from tutor_memory.domain.errors import NotTeachingError as NotTeachingError
from tutor_memory.domain.profile import Aspect, Statement
from tutor_memory.domain.profile_phrases import Heard, addressed, heard
from tutor_memory.domain.teaching import detect_teaching
from tutor_memory.ports import AppendResult, Ports
from tutor_memory.usecases.learning import CheckResult, Learning
from tutor_memory.usecases.log import TutorMemory, arguments_digest
from tutor_memory.usecases.maps import MapUseCases, TeachResult
from tutor_memory.usecases.profile import Profiles
from tutor_memory.usecases.turns import Turns


@dataclass(frozen=True)
class Added:
    """One episode recorded, and what it changed."""

    append: AppendResult
    taught: TeachResult | None = None  # the message taught the map
    check: CheckResult | None = None  # a check: its topic and the belief it moved
    profile: Statement | None = None  # a message about the student: what their profile heard

    @property
    def episode(self) -> Episode:
        return self.append.episode

    @property
    def created(self) -> bool:
        return self.append.created

    corrected: Belief | None = None  # a correction of a check: the belief row it warranted

    @property
    def belief(self) -> Belief | None:
        return self.check.belief if self.check else self.corrected


EvidenceInput = Evidence | Mapping[str, Any] | None


class Episodes:
    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        learning: Learning,
        maps: MapUseCases,
        turns: Turns,
        *,
        profiles: Profiles | None = None,
    ) -> None:
        self.ports = ports
        self.memory = memory
        self.learning = learning
        self.maps = maps
        self.turns = turns
        self.profiles = profiles  # a question about the student themselves goes to their profile

    def add(
        self,
        pair: Pair,
        kind: Kind | str,
        text: str,
        *,
        evidence: EvidenceInput = None,
        at: datetime | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        salience: float | None = None,
        recalled_ids: Sequence[str] = (),
        ref: str | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> Added:
        """Record one episode through the use case of its kind (see the module's table).
        Everything is validated before anything is written. ``request_hash`` binds the
        idempotency key to the request as the client sent it (a reuse with another is a 409;
        by default, the arguments as given). A retry under the key writes nothing and
        answers the episode written first (``created`` False), after catching the pair's
        index and beliefs up with the log: every door gets the same retry.
        A key in the namespace the system writes under itself (a night's consolidation, a
        file's arrival: ``INTERNAL_KEY_PREFIXES``) is refused, whoever the caller: those writes
        do not enter by this door."""
        idempotency_key = check_client_key("idempotency_key", idempotency_key)
        kind = parse_kind(kind)
        given = _evidence(kind, evidence)
        if recalled_ids and kind is not Kind.ANSWER:
            raise ValidationError("recalled_ids", "only an answer carries recalled memory ids")
        if idempotency_key is not None:
            if request_hash is None:  # the request as given, whatever it derives later
                request_hash = arguments_digest(
                    kind,
                    text,
                    given if given is not None else evidence_from_dict(kind, None),
                    at=at,
                    summary=summary,
                    concepts=concepts,
                    salience=salience,
                    recalled_ids=recalled_ids,
                    ref=ref,
                )
            # A retry (409: another request under the key; 410: its episode was erased since)
            # writes nothing, and finishes what the first attempt may have left undone: the
            # index and the beliefs, whichever door it came by.
            prior = self.memory.retried(pair, idempotency_key, request_hash)
            if prior is not None:
                self.learning.catch_up(pair)
                self.maps.reattach(pair, prior.episode)  # a note the map may not show yet
                return Added(prior)
        common: dict[str, Any] = {
            "at": at,
            "ref": ref,
            "idempotency_key": idempotency_key,
            "request_hash": request_hash,
        }
        about = self._about_student(text, at) if kind is Kind.QUESTION and self.profiles else None
        if about is not None and self.profiles is not None:
            # "I have dyslexia", "remember that I …": the student, in every subject; not a
            # note on this subject's map. The message stays in the log as it was said. A name
            # is said in passing ("My name is Maya. Remember that osmosis …"): the rest of
            # the message may still teach the map — unless what it asks to remember is the
            # name itself ("Remember that my name is Maya" put a concept "name" on the map).
            taught = (
                self.maps.teach(pair, text, **common)
                if about.aspect is Aspect.NAME and not self._remembers_the_student(text, at)
                else None
            )
            appended = taught.append if taught is not None else self.memory.record(
                pair, kind, text, evidence=given, summary=summary, concepts=concepts,
                salience=salience, **common,
            )  # fmt: skip
            statement = None
            if appended.created:
                statement = self.profiles.hear_episode(appended.episode, found=about)
            return Added(appended, taught=taught, profile=statement)
        if kind in (Kind.QUESTION, Kind.TAUGHT):
            taught = self.maps.teach(pair, text, explicit=kind is Kind.TAUGHT, **common)
            if taught is not None:
                return Added(taught.append, taught=taught)
            if kind is Kind.TAUGHT and given is None:
                raise NotTeachingError
        if kind is Kind.CORRECTION:  # as a history tells it: the belief follows it too
            appended = self.memory.record(
                pair, kind, text, evidence=given, summary=summary, concepts=concepts,
                salience=salience, **common,
            )  # fmt: skip
            if appended.created and isinstance(given, CorrectionEvidence):
                target = self.ports.store.get(pair, given.corrects)
                if target is not None and not target.erased:
                    earlier = [
                        e for e in self.ports.store.corrections(pair)
                        if e.seq < appended.episode.seq
                    ]  # fmt: skip
                    (target,) = corrections.apply([target], earlier)
                    self._follow(pair, target, given, appended.episode)
            self.learning.catch_up_beliefs(pair, new=appended.episode)
            return Added(appended)
        if kind is Kind.CHECK:
            assert isinstance(given, CheckEvidence)  # _evidence requires it
            result = self.learning.record_check(
                pair, text, given, summary=summary, salience=salience, **common
            )
            return Added(result.append, check=result)
        if kind is Kind.ANSWER:
            cited = given if isinstance(given, AnswerEvidence) else AnswerEvidence()
            answered = self.turns.record_answer(
                pair, text, recalled_ids=recalled_ids, file_id=cited.file_id, page=cited.page,
                summary=summary, concepts=concepts, salience=salience, **common,
            )  # fmt: skip
            statement = None
            if self.profiles is not None and answered.created:  # "Hi Maya!": the student's name
                statement = self.profiles.hear_episode(answered.episode)
            return Added(answered, profile=statement)
        return Added(
            self.memory.record(
                pair,
                kind,
                text,
                evidence=given,
                summary=summary,
                concepts=concepts,
                salience=salience,
                **common,
            )
        )

    def correct(
        self,
        pair: Pair,
        episode_id: str,
        field: str,
        value: object,
        reason: str,
        *,
        by: Role,
        at: datetime | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> Added:
        """Correct an earlier episode of the pair (``domain.corrections``): a new episode naming
        it, the field and the corrected value, and ``reason`` as its text. Nothing is rewritten;
        a corrected check's belief is derived again with the corrected verdict. 404: no such
        episode (or it was erased); 422: the field is not the kind's, the value is what it
        says already; 403: ``by`` may not correct such an episode."""
        idempotency_key = check_client_key("idempotency_key", idempotency_key)
        if idempotency_key is not None:
            request_hash = request_hash or request_digest(
                {"correct": episode_id, "field": field, "value": value, "reason": reason,
                 "at": None if at is None else at.isoformat()}
            )  # fmt: skip
            prior = self.memory.retried(pair, idempotency_key, request_hash)
            if prior is not None:
                self.learning.catch_up(pair)
                return Added(prior)
        target = self.ports.store.get(pair, check_id("episode_id", episode_id))
        if target is None or target.erased:
            raise NotFoundError(f"no episode {episode_id} in {pair}")
        (target,) = corrections.apply_newest([target], self.memory.corrections_of(pair))
        evidence, summary = corrections.correction_of(target, field, value, by=by)
        appended = self.memory.record(
            pair, Kind.CORRECTION, reason, evidence=evidence, at=at, summary=summary,
            concepts=target.concepts, idempotency_key=idempotency_key, request_hash=request_hash,
        )  # fmt: skip
        if appended.created:
            self._follow(pair, target, evidence, appended.episode)
        applied = self.learning.catch_up_beliefs(pair, new=appended.episode)
        key = concept_key(target.concepts[0]) if target.concepts else ""
        return Added(appended, corrected=applied.beliefs.get(key))

    def _follow(
        self, pair: Pair, target: Episode, fix: CorrectionEvidence, correction: Episode
    ) -> None:
        """What else reads the corrected episode follows the correction (``target`` as
        corrected before it), whether it came by ``correct`` or in a replayed history: the
        profile hears a message as corrected ("My name is Maya" → "… Mia"), and the map shows
        a corrected note, in every block from now on."""
        if target.kind is Kind.QUESTION and self.profiles is not None:
            fixes = self.ports.store.corrections(pair)
            earlier = corrections.corrected_before(fixes, target.episode_id, correction.seq)
            self.profiles.hear_corrected(target, str(fix.value), correction, earlier)
        if isinstance(target.evidence, TaughtEvidence):
            self.maps.correct_note(pair, target, was=target.evidence.note, now=str(fix.value))

    def _about_student(self, text: str, at: datetime | None) -> Heard | None:
        when = at or self.ports.clock.now()
        return heard(text, when.date())

    def _remembers_the_student(self, text: str, at: datetime | None) -> bool:
        """Whether what the message asks to remember is itself about the student."""
        intent = detect_teaching(text)
        return intent is not None and self._about_student(intent.note, at) is not None

    def add_many(
        self,
        episodes: Sequence[NewEpisode],
        *,
        batch_size: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
        unheard: Callable[[NewEpisode], bool] | None = None,
    ) -> list[Added]:
        """Record a history in order. Episodes whose use case is the log alone (questions that
        teach nothing, quizzes, answers, consolidations) are embedded and appended in batches;
        every other goes through :meth:`add` one by one, in its place. ``unheard``: answers
        the profile is not to hear (a replayed export's greetings its profile did not hear:
        live, a name was in force then), recorded as the log alone."""
        results: list[Added] = []
        batch: list[NewEpisode] = []

        def flush() -> None:
            if not batch:
                return
            self._check_recalled(batch)
            appended = self.memory.record_many(batch, batch_size=len(batch))
            results.extend(Added(a) for a in appended)
            batch.clear()
            if on_progress is not None:
                on_progress(len(results), len(episodes))

        for new in episodes:
            if _log_only(new) or (new.kind is Kind.ANSWER and unheard is not None and unheard(new)):
                if new.recalled_ids:
                    flush()  # its sources may be in the batch still
                batch.append(new)
                if len(batch) >= batch_size:
                    flush()
                continue
            flush()
            results.append(
                self.add(
                    new.pair,
                    new.kind,
                    new.text,
                    evidence=new.evidence,
                    at=new.at,
                    summary=new.summary,
                    concepts=new.concepts,
                    salience=new.salience,
                    ref=new.ref,
                    idempotency_key=new.idempotency_key,
                )
            )
            if on_progress is not None:
                on_progress(len(results), len(episodes))
        flush()
        return results

    def _check_recalled(self, batch: Sequence[NewEpisode]) -> None:
        """The batched form of the check ``Turns.record_answer`` makes: recalled ids exist."""
        wanted: dict[Pair, set[str]] = {}
        for new in batch:
            if new.recalled_ids:
                wanted.setdefault(new.pair, set()).update(new.recalled_ids)
        for pair, ids in wanted.items():
            known = {e.episode_id for e in self.ports.store.get_many(pair, sorted(ids))}
            unknown = sorted(ids - known)
            if unknown:
                raise ValidationError("recalled_ids", f"no episode {unknown[0]!r} in this pair")


def _evidence(kind: Kind, evidence: EvidenceInput) -> Evidence | None:
    """The kind's typed evidence (None: none was given and the kind may go without)."""
    if kind is Kind.FILE:
        raise ValidationError("kind", "a file enters by ingestion (ingest), not as an episode")
    if evidence is None:
        if kind in (Kind.CHECK, Kind.QUIZ):
            shape = "topic, verdict" if kind is Kind.CHECK else "score, maximum"
            raise ValidationError("evidence", f"is required for a {kind.value} ({shape}, …)")
        return None
    typed: Evidence = (
        evidence_from_dict(kind, evidence) if isinstance(evidence, Mapping) else evidence
    )
    expected = EVIDENCE_TYPES[kind]
    matches = isinstance(typed, expected)  # (a bool: the type[Any] would narrow typed to Any)
    if not matches:
        raise ValidationError(
            "evidence", f"a {kind.value} needs {expected.__name__}, not {type(typed).__name__}"
        )
    return typed


def _log_only(new: NewEpisode) -> bool:
    """Whether the episode's whole use case is the append (so it may be batched)."""
    if new.kind is Kind.QUESTION:
        return detect_teaching(new.text) is None and heard(new.text, new.at.date()) is None
    if new.kind is Kind.ANSWER:  # "Hi Maya!" may name the student
        return addressed(new.text) is None
    return new.kind in (Kind.QUIZ, Kind.CONSOLIDATION)
