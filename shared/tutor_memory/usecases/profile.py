"""The student's profile (``domain/profile.py``): set and retract an aspect, hear statements in
a student's message, read what is in force. One profile per student, shared by every subject.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import date, datetime

from tutor_memory.domain.corrections import corrected_before, newest_by_target
from tutor_memory.domain.episodes import CorrectionEvidence, Episode, Kind, Pair
from tutor_memory.domain.errors import ConflictError, StoreError, ValidationError
from tutor_memory.domain.profile import (
    AnchoredProfileCheckpoint,
    Aspect,
    Speaker,
    Statement,
    check_statement,
    checkpoint_break,
    current,
    first_break,
    head_checkpoint,
    heard_at,
    heard_in,
    latest,
    names_of,
    seal,
)
from tutor_memory.domain.profile_phrases import Heard, addressed, heard
from tutor_memory.ports import CheckpointAnchor, Clock, ProfileLog, Store

logger = logging.getLogger(__name__)

_ATTEMPTS = 5  # a sequence taken by another writer: read the head again, re-seal


class Profiles:
    def __init__(
        self,
        log: ProfileLog,
        clock: Clock,
        store: Store | None = None,
        anchor: CheckpointAnchor | None = None,
    ) -> None:
        self.log = log
        self.clock = clock
        # The pairs' logs: an erased statement is checked against the episode it was heard in
        self.store = store
        # Where the log's checkpoints are signed and kept (the pairs' anchor): one after every
        # statement (a student says a few), so a log re-hashed after it shows
        self.anchor = anchor

    def _append(self, draft: Statement) -> Statement:
        sealed = self._append_unless(draft, None)
        assert sealed is not None  # nothing to be unless
        return sealed

    def _append_unless(
        self, draft: Statement, unless: Callable[[list[Statement]], bool] | None
    ) -> Statement | None:
        """Append ``draft``, or nothing when ``unless`` holds of the history it would follow
        (read again on each attempt, so that a writer in between is seen)."""
        for _ in range(_ATTEMPTS):
            history = self.log.statements(draft.student_id)
            if unless is not None and unless(history):
                return None
            sealed = seal(draft, history[-1] if history else None)
            try:
                self.log.append_statement(sealed)
            except ConflictError:
                continue
            self.anchor_checkpoint(draft.student_id, [*history, sealed])
            return sealed
        raise ConflictError(f"{draft.student_id}'s profile is being written by others: retry")

    def set(
        self,
        student_id: str,
        aspect: Aspect | str,
        value: str,
        *,
        said_by: Speaker | str,
        key: str = "",
        due: date | None = None,
        at: datetime | None = None,
        source: str | None = None,
    ) -> Statement:
        """States ``value`` for the aspect (and key): it supersedes what was stated before."""
        parsed, key, value = check_statement(aspect, key, value)
        if not value:
            raise ValidationError("value", "is required (retract an aspect to clear it)")
        if due is not None and parsed is not Aspect.GOAL:
            raise ValidationError("due", "only a goal has a date")
        return self._append(
            Statement(
                student_id=student_id, seq=0, aspect=parsed, key=key, value=value,
                said_by=Speaker(said_by), at=at or self.clock.now(), due=due, source=source,
            )
        )  # fmt: skip

    def retract(
        self,
        student_id: str,
        aspect: Aspect | str,
        *,
        said_by: Speaker | str,
        key: str = "",
        at: datetime | None = None,
    ) -> Statement:
        """Clears the aspect (and key): nothing of it is in force; its history stays."""
        parsed, key, _ = check_statement(aspect, key, "")
        return self._append(
            Statement(
                student_id=student_id, seq=0, aspect=parsed, key=key, value="",
                said_by=Speaker(said_by), at=at or self.clock.now(),
            )
        )  # fmt: skip

    def hear(
        self,
        student_id: str,
        text: str,
        *,
        at: datetime | None,
        source: str,
        found: Heard | None = None,
    ) -> Statement | None:
        """A student's message that states something about the student, recorded as said by
        the student (None: it states nothing about them). ``found``: what ``heard`` read in
        ``text`` already (a caller that asked first does not read the message twice)."""
        when = at or self.clock.now()
        found = found or heard(text, when.date())
        if found is None:
            return None
        return self._append(
            Statement(
                student_id=student_id, seq=0, aspect=found.aspect, key=found.key,
                value=found.value, said_by=Speaker.STUDENT, at=when, due=found.due,
                source=source,
            )
        )  # fmt: skip

    def hear_corrected(
        self, episode: Episode, text: str, correction: Episode, earlier: Collection[str] = ()
    ) -> list[Statement]:
        """What the profile heard in a student's message, as the message reads corrected to
        ``text`` ("My name is Maya" → "My name is Mia"): each statement heard in it that is
        still in force gives way to what the corrected text states (retracted where it states
        nothing of that aspect), and what it states is heard. Heard in ``correction``, so that
        erasing the correction gives the first statements back. A statement of the message that
        a later one replaced stays replaced: on its aspect the profile is left as it is.
        ``earlier``: the ids of the message's earlier corrections — what they stated is the
        message's own, not a later message's ("Maya" → "Mia" → "Maya" again hears "Maya")."""
        student = episode.pair.student_id
        subject = episode.pair.subject_id
        own = {heard_at(subject, episode.episode_id), *(heard_at(subject, e) for e in earlier)}
        history = self.log.statements(student)
        said = [s for s in history if s.source in own and s.erased_at is None]
        # The latest word on each aspect, a retraction included: one of the message's own
        # (its text, or a correction of it) is the message's to replace.
        was = [s for s in latest(history) if s.source in own]
        found = heard(text, episode.at.date())
        # Everything the message stated was replaced since: on those aspects the later word
        # stands. What the corrected words state on another aspect is new, and heard ("My
        # name is Maya", the name then set to Zoe, corrected to "My exam is on 12 July").
        if said and not was and (found is None or found.aspect in {s.aspect for s in said}):
            return []
        fix = heard_at(correction.pair.subject_id, correction.episode_id)
        out = []
        for s in was:
            if s.retracts:
                continue  # nothing of it in force: nothing to retract
            if found is None or (found.aspect, found.key) != (s.aspect, s.key):
                retracted = Statement(
                    student_id=student, seq=0, aspect=s.aspect, key=s.key, value="",
                    said_by=Speaker.STUDENT, at=correction.at, source=fix,
                )  # fmt: skip
                out.append(self._append(retracted))
        if found is not None:
            stated = self.hear(student, text, at=correction.at, source=fix, found=found)
            out += [stated] if stated is not None else []
        return out

    def hear_tutor(
        self, student_id: str, text: str, *, at: datetime | None, source: str
    ) -> Statement | None:
        """A tutor's line that calls the student by name ("Hi Maya!", ``addressed``), recorded
        as the service's statement of the student's name — only while the profile holds no
        name: a name the student, a teacher or the service stated stays (a nickname in a
        greeting does not replace it), and so does the first one heard. None otherwise."""
        name = addressed(text)
        if name is None:
            return None
        _aspect, _key, value = check_statement(Aspect.NAME, "", name)
        draft = Statement(
            student_id=student_id, seq=0, aspect=Aspect.NAME, key="", value=value,
            said_by=Speaker.SERVICE, at=at or self.clock.now(), source=source,
        )  # fmt: skip
        return self._append_unless(draft, lambda history: bool(names_of(current(history))))

    def name_heard_in(self, student_id: str) -> str | None:
        """Where the name in force was heard ("<subject>/<episode id>"), or None (no name, or
        one a teacher or the service set)."""
        in_force = current(self.log.statements(student_id))
        return next((s.source for s in in_force if s.aspect is Aspect.NAME), None)

    def erase_heard(
        self,
        student_id: str,
        sources: Callable[[str], bool],
        at: datetime | None = None,
        greetings: Mapping[Pair, Sequence[Episode]] | None = None,
    ) -> int:
        """Erase the words of the statements heard in the episodes ``sources`` accepts (by
        "<subject>/<episode id>"): an erased episode takes what was heard in it along, and
        the statement before it on the same aspect holds again. How many were erased.
        ``greetings``: a pair's tutor lines that call the student by name, in order, that
        the erasure's own pass found and left (the pair is then not read again)."""
        history = self.log.statements(student_id)
        seqs = heard_in(history, sources)
        if not seqs:
            return 0
        named = bool(names_of(current(history)))
        erased = self.log.erase_statements(student_id, seqs, at or self.clock.now())
        self._follow_corrections(student_id)
        if named:
            self._hear_a_greeting_again(student_id, greetings or {})
        return erased

    def _hear_a_greeting_again(
        self, student_id: str, known: Mapping[Pair, Sequence[Episode]]
    ) -> None:
        """After an erasure took the name in force and left none: the tutor's first greeting
        by name ("Hi Maya!") that the student's log still holds is heard. A greeting is heard
        only while no name is in force, so the name the erased message stated had kept it
        out; a replay of the log, which never saw that name, hears it — and so does this.
        The first across the student's subjects is the earliest of each subject's first.
        ``known``: the greetings of a pair already read (``erase_heard``)."""
        history = self.log.statements(student_id)
        if self.store is None or names_of(current(history)):
            return
        # A name retracted (by a teacher) stays retracted: only a greeting after it is heard.
        cleared = max((s.at for s in latest(history) if s.aspect is Aspect.NAME), default=None)
        firsts = []
        for pair in self.store.pairs_of(student_id):
            lines: Iterable[Episode] | None = known.get(pair)
            if lines is None:
                lines = (
                    e for e in self.store.iter_episodes(pair)
                    if e.kind is Kind.ANSWER and not e.erased and addressed(e.text) is not None
                )  # fmt: skip
            first = next((e for e in lines if cleared is None or e.at > cleared), None)
            if first is not None:
                firsts.append(first)
        for greeting in sorted(firsts, key=lambda e: (e.at, e.pair.subject_id)):
            if self.hear_episode(greeting) is not None:
                return

    def _follow_corrections(self, student_id: str) -> None:
        """After an erasure: a statement in force again whose message was corrected since
        gives way to the message as its newest correction reads. The correction was left
        alone when it came ("Maya" corrected to "Mia" while a later message said "Maya"); the
        erasure took that later message, and the old words are not what the message says —
        a replay of the log hears the correction, and so does this."""
        if self.store is None:
            return
        fixes: dict[str, list[Episode]] = {}  # a subject's corrections, read once
        newest_of: dict[str, dict[str, Episode]] = {}  # and each target's newest among them
        for s in current(self.log.statements(student_id)):
            subject, _, episode_id = (s.source or "").partition("/")
            if not episode_id:
                continue  # set by a teacher or the service: no message to follow
            pair = Pair(student_id, subject)
            if subject not in fixes:
                fixes[subject] = self.store.corrections(pair)
                newest_of[subject] = newest_by_target(fixes[subject])
            heard_in_episode = self.store.get(pair, episode_id)
            if heard_in_episode is None:
                continue
            evidence = heard_in_episode.evidence
            if isinstance(evidence, CorrectionEvidence):
                target_id = evidence.corrects  # heard in an earlier correction of a message
            else:
                target_id = episode_id
            newest = newest_of[subject].get(target_id)
            if newest is None or newest.episode_id == episode_id:
                continue  # not corrected, or already heard as its newest correction reads
            target = self.store.get(pair, target_id)
            if target is None or target.erased or target.kind is not Kind.QUESTION:
                continue
            earlier = corrected_before(fixes[subject], target_id, newest.seq)
            assert isinstance(newest.evidence, CorrectionEvidence)  # newest_by_target's
            self.hear_corrected(target, str(newest.evidence.value), newest, earlier)

    def hear_episode(self, episode: Episode, found: Heard | None = None) -> Statement | None:
        """What a recorded line tells the profile: a student's message about the student
        (``hear``; ``found``: what ``heard`` read in it already), a tutor's greeting by name
        (``hear_tutor``). Nothing for any other kind."""
        student, text, at = episode.pair.student_id, episode.text, episode.at
        source = heard_at(episode.pair.subject_id, episode.episode_id)
        if episode.kind in (Kind.QUESTION, Kind.TAUGHT):
            return self.hear(student, text, at=at, source=source, found=found)
        if episode.kind is Kind.ANSWER:
            return self.hear_tutor(student, text, at=at, source=source)
        return None

    def history(self, student_id: str) -> list[Statement]:
        return self.log.statements(student_id)

    def in_force(self, student_id: str) -> list[Statement]:
        return current(self.log.statements(student_id))

    def verify(self, student_id: str, history: Sequence[Statement] | None = None) -> str | None:
        """Where the student's profile log stops verifying (None: intact); ``history``: the
        statements already read. Each erased statement's episode must be erased in its pair's
        log (when this memory keeps the pairs' logs), and the log must extend its newest
        anchored checkpoint (when it has an anchor)."""
        said = self.log.statements(student_id) if history is None else history
        return self._check(student_id, said)[0]

    def _check(
        self, student_id: str, said: Sequence[Statement]
    ) -> tuple[str | None, AnchoredProfileCheckpoint | None]:
        """The first break, and the newest anchored checkpoint (read once)."""
        store = self.store
        heard_erased = None
        if store is not None:

            def heard_erased(source: str) -> bool:
                subject_id, _, episode_id = source.partition("/")
                try:
                    episode = store.get(Pair(student_id, subject_id), episode_id)
                except ValueError:  # not a pair's id: no episode was heard there
                    return False
                return episode is not None and episode.erased

        broken = first_break(said, heard_erased)
        anchor = self.anchor
        newest = anchor.newest_profile(student_id) if anchor is not None else None
        if broken is None and anchor is not None and newest is not None:
            broken = checkpoint_break(said, newest, anchor.authentic_profile(newest))
        return broken, newest

    def anchor_checkpoint(
        self, student_id: str, history: Sequence[Statement] | None = None
    ) -> AnchoredProfileCheckpoint | None:
        """Sign and keep the log's head (when this memory has an anchor, the log verifies and
        its newest checkpoint names another head). A failure to anchor is logged, not raised:
        the statement is written, and the next one anchors again."""
        if self.anchor is None:
            return None
        said = self.log.statements(student_id) if history is None else history
        try:
            broken, newest = self._check(student_id, said)
            if broken is not None:
                logger.warning(
                    "profile of %s not anchored: its log does not verify", student_id,
                    extra={"operator_action": "anchor"},
                )  # fmt: skip
                return None
            point = head_checkpoint(student_id, said, self.clock.now())
            if newest is not None and (newest.checkpoint.seq, newest.checkpoint.head_hash) == (
                point.seq,
                point.head_hash,
            ):
                return newest
            return self.anchor.anchor_profile(point)
        except StoreError as exc:
            logger.warning(
                "profile of %s not anchored: %s", student_id, exc,
                extra={"operator_action": "anchor"},
            )  # fmt: skip
            return None

    def erase(self, student_id: str) -> int:
        """Delete the student's whole profile; an empty log is anchored after it, so that the
        profile a later statement starts verifies (the checkpoints before stay where they are
        kept: they can be neither rewritten nor removed)."""
        count = self.log.erase_profile(student_id)
        if self.anchor is not None and self.anchor.newest_profile(student_id) is not None:
            self.anchor.anchor_profile(head_checkpoint(student_id, [], self.clock.now()))
        return count
