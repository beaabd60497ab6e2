"""Erasure: of one episode, of a pair, of a student, and of bodies past a retention period (the
chain's side of it — entries, the pass over the log, erasing in steps — is
``usecases.erasure_entries``).

The chain keeps every envelope (sequence, time, kind, salience, links and, under chain v2, the
commitment to the body; see :mod:`tutor_memory.domain.chain`) and loses the body and its salt.
Each erasure first appends its **entry to the chain** (an episode of kind ``erasure``, sealed
like any other: which episodes, their commitments and record numbers, who asked, when, why;
at most ``ERASURE_ENTRY_MAX_ITEMS`` episodes an entry), then erases the bodies it names, each
with an erasure record beside the chain; ``verify`` holds every record and every erased body
to an entry. An erasure cut short between its entry and its bodies is finished, as its entry
says, by the next erasure of the pair (asking again). An entry is never erased, recalled or
counted as the student's. The checkpoint of each pair's chain after it
(``TutorMemory.anchor_checkpoint``) is anchored as the erasure finishes when its caller can
wait (``anchor_at_once``: the CLI; the night's retention), else by the pair's night (the
entry files the pair as active today; ``Nightly.run_pair``). Anchoring verifies the whole
chain first — half of an episode's erasure at 100,000 episodes (docs/benchmarks.md) — and a
request (the API, whose Lambda answers within 15 s; the library; MCP) does not wait for that,
as it does not for its ordinary turns' checkpoints, which are the night's too. Then everything
derived from the erased bodies goes too:

* the store: annotations, the citation queue entry, concept links (and a concept's stored name,
  taken again from the first episode still touching it), the idempotency key;
* the index: the document, its terms (FTS5 merged so its vocabulary forgets them) and vector;
  when the index's history still holds deleted documents after the purge (OpenSearch, and a
  caller that cannot wait: the API), the pair gets a ``purge-pending`` mark and is filed as
  active today, and its night purges again (``purge_pending``) and drops the mark;
* a day's consolidation that quoted an erased episode is erased too (scope ``derived``) and the
  day consolidated again without it, under the day's usual key;
* belief rows resting on an erased check are deleted and the beliefs re-derived from the checks
  that remain;
* the working set, self-model and the affected nights' reports are dropped and rebuilt from
  what remains, and so is the nightly scan's tally when a check or a correction went;
* a file arrival's uploaded object, every version of it (when an uploads bucket is configured,
  or the embedded store keeps its copies), and — when one episode is erased — that file
  version's registry entry (the file's name goes with its last version) and its traces on the
  concept map (``conceptmap.without_file``).

A pair's or a student's erasure also deletes the pair's map, beliefs, documents and file
registry, its index documents and its uploaded objects. A student's erasure also takes them
off every class (issue 27): off each class's followers in the store and each roster the store
keeps (``access.db``), first, so that no later version of a course map is folded for them, and
then deletes every map folded for them, those of subjects they never recorded anything in
included. What it keeps of the student is what it keeps of any erased pair: the chain's
envelopes, heads, erasure records and erased keys. Asking again is harmless (idempotent):
nothing is erased twice, and what an interrupted erasure left behind is cleaned.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal, Protocol
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    ERASURE_PENDING_DOCUMENT,
    ErasureScope,
    envelope_episode,
    format_time,
    parse_time,
    seq_of_id,
    worker_on_it,
)
from tutor_memory.domain.corrections import BELIEF_KINDS
from tutor_memory.domain.episodes import (
    SYSTEM_KINDS,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    ErasureEvidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    about_the_student,
    check_id,
    clean_text,
)
from tutor_memory.domain.errors import ConflictError, NotFoundError, StoreError, ValidationError
from tutor_memory.domain.forgetting import forget_words
from tutor_memory.domain.nightly import consolidation, day_window, night_name
from tutor_memory.domain.profile import heard_at, heard_in_subject
from tutor_memory.domain.taughtmap import shapes_the_map
from tutor_memory.domain.tenancy import DEFAULT_TENANT, no_students
from tutor_memory.ports import Ports, Queue, Store
from tutor_memory.usecases.erasure_entries import (
    ErasureUnfinished,
    LogRead,
    erase_with_entry,
    read_for_erasure,
)
from tutor_memory.usecases.learning import Learning
from tutor_memory.usecases.log import APPLIED_BELIEFS, TutorMemory
from tutor_memory.usecases.maps import MapUseCases
from tutor_memory.usecases.nightly import (
    SCAN,
    SELF_MODEL,
    WORKING_SET,
    Nightly,
)
from tutor_memory.usecases.profile import Profiles

log = logging.getLogger(__name__)

# The pair document that says an erasure left deleted documents in the search index's history
# (OpenSearch keeps them until its retention lease moves, ~30 s; the API cannot wait): the
# pair's night purges the index again and drops the mark once nothing is held.
PURGE_PENDING = "purge-pending"
# ERASURE_PENDING_DOCUMENT (domain.chain, with the worker's silence): a request's erasure of
# whole pairs that may be left to the workers (``ErasureTask``) marks each pair before it
# starts, and again as it is sent on, that one is on it (asking again meanwhile answers
# "pending" and sends nothing); ``purge_pair``, the erasure's last step, deletes it. Without a
# mark, a head that counts no episode says the pair is wholly erased: asking again then has
# nothing to do, and never passes over the log.
# A request passes over the pair's log once before its first step: past this many episodes it
# leaves the whole pair to a worker at once (a pass over 100,000 envelopes took ~4 s CPU on the
# embedded store; on DynamoDB add its Query pages). Estimated, not measured on AWS.
REQUEST_MAX_EPISODES = 20_000


class Rosters(Protocol):
    """The class rosters a store keeps beside it (``usecases.access.Access``)."""

    def leave_classes(self, student_id: str) -> list[str]: ...


class UploadedFiles(Protocol):
    """Deletes uploaded objects with every version (the uploads bucket keeps versions)."""

    def delete_all_versions(
        self, prefix: str, spare: Callable[[str], bool] | None = None
    ) -> int: ...


@dataclass
class ErasureResult:
    """What one request erased: per pair, the sequences erased now (empty on a retry)."""

    scope: str
    reason: str
    at: datetime
    erased: dict[str, list[int]] = field(default_factory=dict)
    derived: dict[str, list[int]] = field(default_factory=dict)
    objects_deleted: int = 0
    # Pairs whose erasure a worker goes on with (``ErasureTask``): the caller's time ran out
    # in them or before them, or they were too long to start, or a worker already has them.
    pending: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return not self.pending

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "reason": self.reason,
            "at": format_time(self.at),
            "erased": self.erased,
            "derived": self.derived,
            "episodes_erased": sum(len(v) for v in self.erased.values()),
            "objects_deleted": self.objects_deleted,
            "finished": self.finished,
            "pending": list(self.pending),
        }


@dataclass(frozen=True)
class ErasureTask:
    """An erasure of whole pairs that ran out of its request's time, as it is sent to the
    workers (the nightly queue's consumers, which have minutes): they continue it, and send
    it on again while it still runs out of theirs. The same erasure asked again: what went
    is not erased twice, and the entries already written name what is left."""

    student_id: str
    subjects: tuple[str, ...]
    scope: ErasureScope  # "pair", or "student": the student's pairs left
    reason: str
    requested_by: str
    tenant: str = DEFAULT_TENANT

    @property
    def pairs(self) -> list[Pair]:
        return [Pair(self.student_id, subject) for subject in self.subjects]

    def to_json(self) -> str:
        other = {} if self.tenant == DEFAULT_TENANT else {"tenant": self.tenant}
        return json.dumps(
            {"erase": self.scope, "student_id": self.student_id, "subjects": list(self.subjects),
             "reason": self.reason, "requested_by": self.requested_by, **other},
            sort_keys=True,
        )  # fmt: skip


@dataclass(frozen=True)
class RecordedErasure:
    """One erasure record as an export carries it (without its chain's digests, which the
    store computes again): what :meth:`Erasing.erase_as_recorded` writes back."""

    number: int  # its place among the pair's erasures: they are written again in this order
    at: datetime
    reason: str
    requested_by: str
    scope: ErasureScope


def check_reason(reason: object) -> str:
    text = clean_text("reason", reason, limit=C.MAX_ERASURE_REASON_CHARS)
    if "\n" in text.strip():
        raise ValidationError("reason", "must be one line")
    return text.strip()


def derived_reason(reason: str) -> str:
    """The reason a summary that quoted an erased episode is erased under (cut to fit)."""
    room = C.MAX_ERASURE_REASON_CHARS - len("quoted an erased episode ()")
    quoted = reason if len(reason) <= room else reason[: room - 1].rstrip() + "…"
    return f"quoted an erased episode ({quoted})"


class Erasing:
    """The erasure use cases over an app's parts (``learning`` and ``nightly`` optional)."""

    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        *,
        learning: Learning | None = None,
        nightly: Nightly | None = None,
        files: UploadedFiles | None = None,
        maps: MapUseCases | None = None,
        uploads_prefix: str = "uploads/",
        index_purge_wait: float = 0.0,
        profiles: Profiles | None = None,
        queue: Queue | None = None,
        tenant: str = DEFAULT_TENANT,
    ) -> None:
        self.profiles = profiles  # the student's profile goes with the student
        # The rosters an erased student goes off (built on first use: the App sets it).
        self.rosters: Callable[[], Rosters | None] = lambda: None
        self.ports = ports
        self.memory = memory
        self.learning = learning
        self.nightly = nightly
        self.files = files
        self.maps = maps
        self.uploads_prefix = uploads_prefix
        # Seconds the index's purge may wait for its history to let go of the deleted
        # documents (OpenSearch; see OpenSearchIndex.purge): the CLI waits, the API cannot.
        self.index_purge_wait = index_purge_wait
        # Anchor the chain's checkpoint as the erasure finishes (the CLI: an operator waits),
        # or leave it to the pair's night (a request: see the module).
        self.anchor_at_once = False
        # Where an erasure of whole pairs that ran out of its caller's time goes on
        # (``ErasureTask``, to the workers); without one, a caller's ``until`` is not heeded.
        self.queue = queue
        self.tenant = tenant

    @property
    def store(self) -> Store:
        return self.ports.store

    # --- the three requests -------------------------------------------------------------------

    def erase_episode(
        self, pair: Pair, episode_id: str, *, reason: str, requested_by: str = "api"
    ) -> ErasureResult:
        """Erase one episode's body. An unknown id is NotFoundError; an erased one, a no-op."""
        reason = check_reason(reason)
        episode = self.ports.store.get(pair, episode_id)
        if episode is None or seq_of_id(episode_id) is None:
            raise NotFoundError(f"no episode {episode_id!r} for {pair}")
        if not about_the_student(episode):
            raise ValidationError(
                "episode_id", f"{episode_id} is an erasure's entry: the record that an erasure "
                "happened is never erased",
            )  # fmt: skip
        result = ErasureResult("episode", reason, self.ports.clock.now())
        if isinstance(episode.evidence, FileEvidence):
            # Before the body: while it is there, a retry after a crash knows which file it was.
            self._forget_file(pair, episode)
        unmapped = self._forget_taught(pair, [episode])
        self._erase_bodies(pair, [episode.seq], result, requested_by, "episode", unmapped)
        self._finish([pair], anchor=self.anchor_at_once)
        return result

    def erase_pair(
        self,
        pair: Pair,
        *,
        reason: str,
        requested_by: str = "api",
        scope: ErasureScope = "pair",
        until: Callable[[], bool] | None = None,
    ) -> ErasureResult:
        """Erase every body of a pair and everything kept beside its log. An unknown pair is
        NotFoundError. ``until``: whether the caller's time is up (the API's Lambda answers
        within 15 s); when it is, and the app has a queue, what is left goes to a worker
        (``ErasureTask``) and the result says the pair is pending."""
        reason = check_reason(reason)
        if self.ports.store.head(pair) is None:
            raise NotFoundError(f"no history for {pair}")
        return self.continue_erasure(
            [pair], reason=reason, requested_by=requested_by, scope=scope, until=until,
            request=True,
        )  # fmt: skip

    def erase_student(
        self,
        student_id: str,
        *,
        reason: str,
        requested_by: str = "api",
        until: Callable[[], bool] | None = None,
    ) -> ErasureResult:
        """Erase every pair of a student (every subject), take them off every class and
        delete every map folded for them. An unknown student is NotFoundError. ``until``: as
        for :meth:`erase_pair`; what is done at once whatever the time (classes, profile, the
        key's shredding, the folded maps) is never left to the worker."""
        check_id("student_id", student_id)
        reason = check_reason(reason)
        # Off every class first: from here on no course map is folded for them again.
        rosters = self.rosters()
        classes = rosters.leave_classes(student_id) if rosters is not None else []
        classes += self.store.leave_classes(student_id)
        pairs = self.store.pairs_of(student_id)
        mapped = [p for p in self.store.maps_of(student_id) if p not in pairs]
        profile = self.profiles.history(student_id) if self.profiles is not None else []
        folder = f"{self.uploads_prefix}{student_id}/"
        result = ErasureResult("student", reason, self.ports.clock.now())
        if not pairs and not profile and not classes and not mapped:
            # only objects no pair ever read (off the layout): they go; nothing at all is a 404
            result.objects_deleted = self._delete_uploads(folder)
            if not result.objects_deleted:
                raise NotFoundError(f"no history for student {student_id!r}")
            return result
        if self.profiles is not None:  # statements about the student, in no pair: deleted
            self.profiles.erase(student_id)
        # Crypto-shredding first (when bodies are encrypted): from here on no copy of any body,
        # in the table or a backup of it, can be decrypted, even if what follows is cut short.
        # (A store that keeps no body under a student's key has none to shred: False.)
        self.store.shred_student(student_id)
        for pair in mapped:  # a class's course map folded in, and no chain: nothing to erase
            self.store.purge_pair(pair)
            result.erased[str(pair)] = []
        self._erase_pairs(pairs, result, requested_by, "student", until, request=True)
        # What else lies in the student's folder (an object off the layout, a subject with no
        # pair): the pairs' own folders went with each pair, or go with the worker's.
        waiting = [self._folder(p) for p in pairs if str(p) in result.pending]
        result.objects_deleted += self._delete_uploads(
            folder, lambda key: any(key.startswith(left) for left in waiting)
        )
        return result

    def continue_erasure(
        self,
        pairs: Sequence[Pair],
        *,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
        until: Callable[[], bool] | None = None,
        request: bool = False,
    ) -> ErasureResult:
        """Erase these whole pairs (a pair's erasure, or what a student's left to a worker:
        ``ErasureTask``) as far as ``until`` lets; what is left is sent on to a worker.
        ``request``: a caller asks (see ``_erase_pairs``), not the worker."""
        result = ErasureResult(scope, check_reason(reason), self.ports.clock.now())
        self._erase_pairs(pairs, result, requested_by, scope, until, request=request)
        return result

    def _erase_pairs(
        self,
        pairs: Sequence[Pair],
        result: ErasureResult,
        requested_by: str,
        scope: ErasureScope,
        until: Callable[[], bool] | None,
        *,
        request: bool = True,
    ) -> None:
        """``request``: a caller's ask (else a worker's continuation): with a queue and
        ``until``, a pair a worker is on, a pair too long for one pass, and what the time did
        not cover go to (or stay with) the workers."""
        if self.queue is None:
            until = None  # nobody to continue it: the caller waits for all of it
        send: list[Pair] = []
        worked = False  # each ask erases in at least one pair, however late it is
        cut = False  # a pair was cut short: the pairs after it wait for the worker too
        deleted = False  # a pair left to the worker unstarted: its index documents deleted
        for pair in pairs:
            state = self._asked_before(pair) if until is not None and request else "here"
            if state == "erased":  # no episode left: what stands beside the log goes still
                result.erased[str(pair)] = []  # (one by one, or by retention, they left it)
                self._purge_beside(pair, result)
                continue
            late = cut or (worked and until is not None and until())
            if state != "here" or late:
                result.pending.append(str(pair))
                result.erased.setdefault(str(pair), [])
                if state == "worker":
                    continue  # one is on it: nothing sent again
                if self.ports.index is not None:  # nothing recalled by topic meanwhile
                    self.ports.index.delete_pair(pair)
                    deleted = True
                send.append(pair)
                continue
            worked = True
            self._erase_whole_pair(pair, result, requested_by, scope, until)
            if str(pair) in result.pending:
                send.append(pair)
                cut = True
            elif not request:  # a worker finished it: filed as active today, so that its
                # night anchors the chain (an earlier night may have found it still erasing)
                self.store.mark_active(pair, self.ports.clock.now())
        if send and self.queue is not None:
            at = format_time(self.ports.clock.now())
            for pair in send:
                self._put(pair, ERASURE_PENDING_DOCUMENT, {"since": at})
            task = ErasureTask(
                pairs[0].student_id, tuple(p.subject_id for p in send), scope, result.reason,
                requested_by, self.tenant,
            )  # fmt: skip
            try:
                self.queue.send([task.to_json()])
            except Exception as exc:  # SQS refused it or is out of reach (botocore's errors)
                # No worker will come: the marks go, so that asking again erases here again
                # (503: the caller asks again) instead of waiting for a silent mark.
                for pair in send:
                    with contextlib.suppress(StoreError):
                        self.store.delete_documents(pair, [ERASURE_PENDING_DOCUMENT])
                raise StoreError(
                    f"the erasure of {len(send)} pair(s) could not be handed to the workers "
                    f"({type(exc).__name__}); what went is recorded: ask again"
                ) from exc
            log.info(
                "erasure of %d pairs left to a worker", len(send),
                extra={"operator_action": "erase", "scope": scope},
            )  # fmt: skip
        if worked or deleted:  # else asked again while a worker has it, or once done: nothing
            # to purge (an index's purge force-merges: a client that polls must not set one off)
            self._finish(pairs, anchor=self.anchor_at_once and not result.pending)

    def _put(self, pair: Pair, name: str, body: dict[str, Any]) -> None:
        """A pair document written over what is stored (a conflict: another erasure wrote it
        meanwhile, and it says the same)."""
        stored = self.store.document(pair, name)
        with contextlib.suppress(ConflictError):
            self.store.put_document(
                pair, name, body, expected_version=stored.version if stored else 0
            )

    def _asked_before(self, pair: Pair) -> Literal["erased", "worker", "hand-off", "here"]:
        """Where a request's erasure of a whole pair stands before it starts: a worker on it,
        wholly erased already, too long for the request, or to be erased here (marked first:
        a request cut short by its Lambda's end leaves the mark, which then goes silent)."""
        mark = self.store.document(pair, ERASURE_PENDING_DOCUMENT)
        if mark is not None:
            if worker_on_it(mark.body, self.ports.clock.now()):
                return "worker"
            return "hand-off"  # its worker's message was lost: sent again
        head = self.store.head(pair)
        if head is None or not head.counts:  # (the counts are the episodes not erased)
            return "erased"
        if head.seq > REQUEST_MAX_EPISODES:
            return "hand-off"
        self._put(pair, ERASURE_PENDING_DOCUMENT, {"since": format_time(self.ports.clock.now())})
        return "here"

    def erase_older_than(self, pair: Pair, cutoff: datetime) -> ErasureResult:
        """The retention period: erase the bodies of the pair's episodes dated before
        ``cutoff`` (the envelopes stay)."""
        result = ErasureResult("retention", C.ERASURE_REASON_RETENTION, self.ports.clock.now())
        read = read_for_erasure(
            self.store, pair, (), lambda e: e.at < cutoff and not e.erased and about_the_student(e)
        )
        old = [read.asked[seq] for seq in sorted(read.asked)]
        if old:
            unmapped = self._forget_taught(pair, old)
            seqs = [e.seq for e in old]
            self._erase_bodies(pair, seqs, result, "retention", "retention", unmapped, read)
            self._finish([pair], anchor=True)  # the night's own erasure: it can wait
        return result

    # --- a replayed export's erased episodes ---------------------------------------------------

    def restore_envelope(
        self, pair: Pair, kind: Kind, at: datetime, salience: float, commitment: str
    ) -> Episode:
        """Seal an erased episode's envelope, as an export carries it, after the pair's head
        (``chain.envelope_episode``: the same envelope after the same link gives the same id);
        :meth:`erase_as_recorded` then erases it again with its record."""
        head = self.store.head(pair)
        sealed = envelope_episode(pair, kind, at, salience, commitment, head)
        return self.store.append_sealed(sealed).episode

    def restore_entry(self, new: NewEpisode) -> Episode:
        """Append an erasure's entry, as an export carries it, after the pair's head (a replay:
        the given salt makes it the same entry, with the same hash and id). The bodies it names
        are erased again by :meth:`erase_as_recorded`, with their records."""
        if new.kind not in SYSTEM_KINDS or not isinstance(new.evidence, ErasureEvidence):
            raise ValidationError("kind", "only an erasure's entry is restored here")
        return self.store.append(new).episode

    def erase_as_recorded(
        self, pair: Pair, erased: Sequence[tuple[Episode, RecordedErasure]]
    ) -> None:
        """Erase these envelopes of the pair (sealed by :meth:`restore_envelope`) again, each
        with the record it was erased under, in the records' order, so that each record and
        the records' own chain come back as they were; then their documents leave the index.
        Nothing else is derived again: what an erasure derived (a day summary that quoted the
        episode) is among the export's erased envelopes too."""
        for episode, record in sorted(erased, key=lambda e: e[1].number):
            self.store.erase(
                pair,
                [episode.seq],
                at=record.at,
                reason=check_reason(record.reason),
                requested_by=check_id("requested_by", record.requested_by),
                scope=record.scope,
            )
        if self.ports.index is not None and erased:
            self.ports.index.delete_episodes(pair, sorted(e.episode_id for e, _ in erased))

    # --- the work -----------------------------------------------------------------------------

    def _erase_whole_pair(
        self,
        pair: Pair,
        result: ErasureResult,
        requested_by: str,
        scope: ErasureScope,
        until: Callable[[], bool] | None = None,
    ) -> None:
        # The index first: from here on no turn recalls the pair's words by topic, even while
        # a worker erases the bodies an ask left (``until``).
        if self.ports.index is not None:
            self.ports.index.delete_pair(pair)
        head = self.ports.store.head(pair)
        seqs = list(range(1, (head.seq if head else 0) + 1))
        try:
            gone = self._erase(
                pair,
                seqs,
                at=result.at,
                reason=result.reason,
                requested_by=requested_by,
                scope=scope,
                until=until,
            )
        except ErasureUnfinished as cut:
            result.erased[str(pair)] = [e.seq for e in cut.gone]
            result.pending.append(str(pair))
            log.info(
                "erased %s in part: %d episodes now, the rest by a worker", pair, len(cut.gone),
                extra={"pair": str(pair), "operator_action": "erase", "scope": scope},
            )  # fmt: skip
            return
        result.erased[str(pair)] = [e.seq for e in gone]
        if scope != "student":  # a student's erasure deleted their whole profile first
            self._erase_heard(
                pair, lambda source: heard_in_subject(source, pair.subject_id), result.at
            )
        self._purge_beside(pair, result)
        log.info(
            "erased %s: %d episodes", pair, len(gone),  # never the reason: a student's words
            extra={"pair": str(pair), "operator_action": "erase", "scope": scope},
        )  # fmt: skip

    def _purge_beside(self, pair: Pair, result: ErasureResult) -> None:
        """What a pair keeps beside its log (its map, file registry, documents) and every
        uploaded object under its prefix: idempotent, so a pair whose episodes were all erased
        before (one by one, or by the retention period, which leave these) loses them too."""
        self.store.purge_pair(pair)
        result.objects_deleted += self._delete_uploads(self._folder(pair))

    def _folder(self, pair: Pair) -> str:
        return f"{self.uploads_prefix}{pair.student_id}/{pair.subject_id}/"

    def _delete_uploads(self, prefix: str, spare: Callable[[str], bool] = lambda _: False) -> int:
        """Every version of every object under ``prefix`` but those ``spare`` keeps and those
        of no student (a class's, another tenant's: a student may be called ``default``,
        ``classes`` or ``T``)."""
        if self.files is None:
            return 0
        start, tenant = len(self.uploads_prefix), self.tenant
        return self.files.delete_all_versions(
            prefix, lambda key: spare(key) or no_students(key[start:], tenant)
        )

    def _erase_bodies(
        self,
        pair: Pair,
        seqs: Sequence[int],
        result: ErasureResult,
        requested_by: str,
        scope: ErasureScope,
        unmapped: frozenset[str] = frozenset(),
        read: LogRead | None = None,
    ) -> None:
        """``unmapped``: the concepts the erased notes took off the map (``_forget_taught``);
        a belief on one is re-derived, as one on an erased check is. ``read``: the pass over
        the log that chose ``seqs``, when one did."""
        at, reason = result.at, result.reason
        if read is None:
            greetings = self._may_take_the_name(pair, seqs)
            read = read_for_erasure(self.store, pair, seqs, greetings=greetings)
        gone = self._erase(
            pair, seqs, at=at, reason=reason, requested_by=requested_by, scope=scope, read=read
        )
        result.erased[str(pair)] = [e.seq for e in gone]
        tz = ZoneInfo(self.ports.timezone)
        days = sorted(
            {e.at.astimezone(tz).date() for e in gone if e.kind is not Kind.CONSOLIDATION}
        )
        # Every asked id leaves the index (also on a retry, after an interrupted erasure), and
        # the summaries that quoted an erased episode go: their days are summarised again. So
        # do the corrections of an erased episode: they hold its corrected words. (Both come
        # from the pass the erasure made: nothing else touched those rows since.)
        ids = {e.episode_id for e in read.asked.values()}
        erased_ids = {e.episode_id for e in gone}
        went = {e.seq for e in gone}
        quoting = [
            e
            for e in read.quoting
            if e.seq not in read.asked
            and e.seq not in went
            and (
                (
                    isinstance(e.evidence, ConsolidationEvidence)
                    and date.fromisoformat(e.evidence.day) in days
                )
                or (
                    isinstance(e.evidence, CorrectionEvidence) and e.evidence.corrects in erased_ids
                )
            )
        ]
        # (nothing quotes them: no erasure, no second pass)
        derived = (
            self._erase(
                pair,
                [e.seq for e in quoting],
                at=at,
                reason=derived_reason(reason),
                requested_by=requested_by,
                scope="derived",
                read=read.after(gone, quoting),
            )
            if quoting
            else []
        )
        if derived:
            result.derived[str(pair)] = [e.seq for e in derived]
        ids |= {e.episode_id for e in derived}
        left = None
        if read.greetings is not None:  # the erasure's pass kept them: the profile reads no more
            went |= {e.seq for e in derived}
            left = {pair: [e for e in read.greetings if e.seq not in went]}
        self._erase_heard(pair, {heard_at(pair.subject_id, i) for i in ids}.__contains__, at, left)
        if self.ports.index is not None:
            self.ports.index.delete_episodes(pair, sorted(ids))
            # The next episode's document may hold an erased body as its context: rebuilt.
            self.memory.reindex_following(pair, seqs)
        self._delete_objects(pair, gone, result)
        for day in days:
            self._consolidate_again(pair, day)
        counted = [e.seq for e in (*gone, *derived) if e.kind in BELIEF_KINDS]
        if counted:  # checks, and corrections of them
            self._uncount_checks(pair, counted)
        learning = self.learning
        believed = (
            bool(unmapped)
            and learning is not None
            and any(b.concept_key in unmapped for b in learning.beliefs(pair))
        )
        if (counted or believed) and learning is not None:
            self.store.delete_beliefs_citing(pair, sorted(ids))
            learning.rederive(pair, at=at, force=True, as_recorded=True)
        # The nightly tally counts checks and their corrections only: folded again from the
        # start (a read of the whole log) when the erasure took one of them.
        names = [WORKING_SET, SELF_MODEL, *(night_name(d.isoformat()) for d in days)]
        names += [SCAN] if counted else []
        self.store.delete_documents(pair, names)
        if self.nightly is not None:
            self.nightly.refresh(pair, (days[-1] if days else at.date()).isoformat())
        log.info(
            "erased %d episodes of %s", len(gone), pair,  # never the reason: a student's words
            extra={"pair": str(pair), "operator_action": "erase", "scope": scope},
        )  # fmt: skip

    def _erase(
        self,
        pair: Pair,
        seqs: Sequence[int],
        *,
        at: datetime,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
        read: LogRead | None = None,
        until: Callable[[], bool] | None = None,
    ) -> list[Episode]:
        """:func:`erase_with_entry` on this app's store."""
        return erase_with_entry(
            self.store, pair, seqs, at=at, reason=reason, requested_by=requested_by,
            scope=scope, read=read, until=until,
        )  # fmt: skip

    def _may_take_the_name(self, pair: Pair, seqs: Sequence[int]) -> bool:
        """Whether the name in force was heard in one of these episodes of the pair: the
        profile then looks for a greeting to hear instead, among those the erasure's own pass
        keeps (a read of the whole log less; heard in a correction of one, it reads its own)."""
        if self.profiles is None:
            return False
        source = self.profiles.name_heard_in(pair.student_id)
        if source is None or not heard_in_subject(source, pair.subject_id):
            return False
        return seq_of_id(source.split("/", 1)[1]) in set(seqs)

    def _erase_heard(
        self,
        pair: Pair,
        sources: Callable[[str], bool],
        at: datetime,
        greetings: dict[Pair, list[Episode]] | None = None,
    ) -> None:
        """What the student's profile heard in the erased episodes ("I have dyslexia", the
        tutor's "Hi Maya!") goes with them: its words, in every subject's block.
        ``greetings``: the pair's greetings by name that the erasure's pass found and left."""
        if self.profiles is None:
            return
        count = self.profiles.erase_heard(pair.student_id, sources, at, greetings)
        if count:
            log.info(
                "erased %d profile statements heard in %s's erased episodes", count, pair,
                extra={"pair": str(pair), "operator_action": "erase"},
            )  # fmt: skip

    def _uncount_checks(self, pair: Pair, seqs: Sequence[int]) -> None:
        """The beliefs' marker counts the checks it applied, against the head's count of the
        checks the log still tells, which the erasure just lowered: the erased checks it had
        applied leave its count too (else the next check recorded would look applied)."""
        for _attempt in range(C.PROGRESS_SAVE_ATTEMPTS):
            through, version, body = self.memory.applied(pair, APPLIED_BELIEFS)
            if version == 0:
                return
            applied = sum(1 for seq in seqs if seq <= through)
            body["checks"] = max(0, int(body.get("checks", 0)) - applied)
            try:
                self.store.put_document(pair, APPLIED_BELIEFS, body, expected_version=version)
                return
            except ConflictError:
                continue  # a check recorded meanwhile moved it: counted again from there

    def _forget_file(self, pair: Pair, episode: Episode) -> None:
        """What one file version left beside its episode: its registry entry and its traces on
        the map. The file keeps the name of its newest other version still told in the log."""
        evidence = episode.evidence
        assert isinstance(evidence, FileEvidence)
        others = [
            e.evidence
            for e in self.store.iter_episodes(pair)
            if e.seq != episode.seq
            and isinstance(e.evidence, FileEvidence)
            and e.evidence.file_id == evidence.file_id
            and e.evidence.fingerprint != evidence.fingerprint
        ]
        name = others[-1].name if others else None
        self.store.forget_file_version(pair, evidence.file_id, evidence.fingerprint, name=name)
        if self.maps is not None:
            self.maps.forget_file(pair, evidence.file_id, evidence.fingerprint)

    def _forget_taught(self, pair: Pair, episodes: Sequence[Episode]) -> frozenset[str]:
        """What the taught notes among ``episodes`` (and corrections of notes) put on the map:
        taken off it before their bodies go (while they are there, a retry after a crash knows
        which concepts they named). A note is the student's words: the map shows it in every
        block (``taughtmap.without_taught``). The concepts that left the map with them."""
        leaving = [e for e in episodes if shapes_the_map(e)]
        if not leaving or self.maps is None:
            return frozenset()
        before = set(self.ports.store.load_map(pair).concepts)
        return frozenset(before - set(self.maps.forget_taught(pair, leaving).concepts))

    def _consolidate_again(self, pair: Pair, day: date) -> None:
        """The day's summary without the erased episodes (a quiet day gets none). Written under
        the day's usual key, which the erased summary no longer holds."""
        window = day_window(day, ZoneInfo(self.ports.timezone))
        if window.end > self.ports.clock.now():
            return  # the night has not come yet: it will summarise what remains
        limit = C.CONSOLIDATION_MAX_EPISODES
        eps = [
            e
            for e in self.ports.store.recent(pair, limit + 1, window)
            if not e.erased and about_the_student(e)
        ]
        new = consolidation(pair, day, window, eps[:limit], truncated=len(eps) > limit)
        if new is None:
            return
        episode = self.ports.store.append(new).episode
        self.memory.catch_up_index(pair, upto=episode.seq, ready={episode.seq: (episode, None)})

    def _delete_objects(self, pair: Pair, gone: Sequence[Episode], result: ErasureResult) -> None:
        if self.files is None:
            return
        deleted = 0
        for ep in gone:
            if isinstance(ep.evidence, FileEvidence):
                key = f"{self.uploads_prefix}{pair.student_id}/{pair.subject_id}/{ep.evidence.name}"
                deleted += self.files.delete_all_versions(key)
        result.objects_deleted += deleted

    def _finish(self, pairs: Sequence[Pair], *, anchor: bool) -> None:
        kept = self._purge_index(self.index_purge_wait)
        if kept:
            # What the index's history still holds goes at a later purge: the pairs' nights
            # run it (the mark, and the pair filed as active today so the fan-out sends it).
            log.warning(
                "the search index still holds %s deleted documents as history; the night "
                "purges them (an erasure from the CLI waits for them)", kept,
                extra={"operator_action": "erase"},
            )  # fmt: skip
            at = self.ports.clock.now()
            for pair in pairs:
                self._mark_purge(pair, at, kept, erased=at)
        self.store.compact()
        # The chain with its new entries, signed where the store's writer can't reach: now, or
        # by the pairs' nights (an entry's append files its pair as active today, as any does).
        for pair in pairs if anchor else ():
            anchoring = self.memory.anchor_checkpoint(pair)
            if anchoring.refused and self.memory.anchor is not None:
                log.warning(
                    "no checkpoint anchored after the erasure: %s", anchoring,
                    extra={"pair": str(pair), "operator_action": "erase"},
                )  # fmt: skip
        # Last: what this process remembers of students' words (decoded texts, their analyses,
        # the questions' vectors) is keyed by the words, not the student, so all of it goes.
        forget_words()
        self.ports.queries.clear()

    # --- the night's purge --------------------------------------------------------------------

    def purge_pending(self, pairs: Sequence[Pair]) -> int | None:
        """The night's half of an erasure that could not wait for the index: when any of
        ``pairs`` carries the purge mark, purge the index once (without waiting: by night its
        history has let go) and clear a mark once the purge holds nothing more **or** its
        erasure is older than the history's wait (``INDEX_HISTORY_WAIT_S``): the lease has
        then moved past its deletions and the purge (a full merge when deletions remain)
        dropped every deleted document it no longer retains, so what it still counts are later
        deletions (re-indexing on a busy index; other erasures carry their own marks) — a
        count of the whole index would otherwise keep a mark, and a nightly full merge, for
        ever. A younger mark is kept and its pair filed as active today, so the next night
        tries again. Returns how many deleted documents the index still holds, or None when
        no pair was marked."""
        marks = {p: self.store.document(p, PURGE_PENDING) for p in pairs}
        marked = {p: m for p, m in marks.items() if m is not None}
        if not marked:
            return None
        kept = self._purge_index(0.0)
        at = self.ports.clock.now()
        settled = at - timedelta(seconds=C.INDEX_HISTORY_WAIT_S)
        for pair, mark in marked.items():
            erased_at = parse_time(str(mark.body.get("erased_at") or mark.body["since"]))
            if kept and erased_at > settled:
                self._mark_purge(pair, at, kept)
            else:
                self.store.delete_documents(pair, [PURGE_PENDING])
        log.info(
            "night purge of the search index for %d pair(s): %d deleted documents still held",
            len(marked), kept, extra={"operator_action": "purge"},
        )  # fmt: skip
        return kept

    def _purge_index(self, wait: float) -> int:
        index = self.ports.index
        return 0 if index is None else index.purge(wait=wait)

    def _mark_purge(
        self, pair: Pair, at: datetime, kept: int, *, erased: datetime | None = None
    ) -> None:
        """The mark: since when, the latest erasure it stands for, what the index held."""
        body: dict[str, Any] = {"since": format_time(at), "held": kept}
        if erased is not None:
            body["erased_at"] = format_time(erased)
        stored = self.store.document(pair, PURGE_PENDING)
        if stored is not None:
            body["since"] = stored.body.get("since", body["since"])
            body.setdefault("erased_at", stored.body.get("erased_at", body["since"]))
        # A conflict: another erasure (or night) wrote the mark meanwhile, and it is there.
        with contextlib.suppress(ConflictError):
            self.store.put_document(
                pair, PURGE_PENDING, body, expected_version=stored.version if stored else 0
            )
        self.store.mark_active(pair, at)
