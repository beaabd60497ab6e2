"""Erasure: of one episode, of a pair, of a student, and of bodies past a retention period.

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
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Protocol, cast
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    ChainReport,
    Erasure,
    ErasureScope,
    envelope_episode,
    format_time,
    parse_time,
    pre_entry_records,
    seq_of_id,
)
from tutor_memory.domain.corrections import BELIEF_KINDS
from tutor_memory.domain.episodes import (
    ERASURE_ENTRY_MAX_ITEMS,
    SYSTEM_KINDS,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    ErasedItem,
    ErasureEvidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    about_the_student,
    check_id,
    clean_text,
    erasure_text,
)
from tutor_memory.domain.errors import ConflictError, NotFoundError, ValidationError
from tutor_memory.domain.forgetting import forget_words
from tutor_memory.domain.nightly import consolidation, day_window, night_name
from tutor_memory.domain.profile import heard_at, heard_in_subject
from tutor_memory.domain.profile_phrases import addressed
from tutor_memory.domain.taughtmap import shapes_the_map
from tutor_memory.ports import Ports, Store
from tutor_memory.usecases.learning import Learning
from tutor_memory.usecases.log import APPLIED_BELIEFS, TutorMemory
from tutor_memory.usecases.maps import MapUseCases
from tutor_memory.usecases.nightly import SCAN, SELF_MODEL, WORKING_SET, Nightly
from tutor_memory.usecases.profile import Profiles

log = logging.getLogger(__name__)

# The pair document that says an erasure left deleted documents in the search index's history
# (OpenSearch keeps them until its retention lease moves, ~30 s; the API cannot wait): the
# pair's night purges the index again and drops the mark once nothing is held.
PURGE_PENDING = "purge-pending"


class Rosters(Protocol):
    """The class rosters a store keeps beside it (``usecases.access.Access``)."""

    def leave_classes(self, student_id: str) -> list[str]: ...


class UploadedFiles(Protocol):
    """Deletes uploaded objects with every version (the uploads bucket keeps versions)."""

    def delete_all_versions(self, prefix: str) -> int: ...


@dataclass
class ErasureResult:
    """What one request erased: per pair, the sequences erased now (empty on a retry)."""

    scope: str
    reason: str
    at: datetime
    erased: dict[str, list[int]] = field(default_factory=dict)
    derived: dict[str, list[int]] = field(default_factory=dict)
    objects_deleted: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "reason": self.reason,
            "at": format_time(self.at),
            "erased": self.erased,
            "derived": self.derived,
            "episodes_erased": sum(len(v) for v in self.erased.values()),
            "objects_deleted": self.objects_deleted,
        }


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


def append_entry(
    store: Store, pair: Pair, said: ErasureEvidence, at: datetime, *, raced: str
) -> Episode:
    """Append an erasure's entry (kind ``erasure``) under the key of its first record, once:
    a retry finds it written; another entry under the key is a ConflictError (``raced``)."""
    new = NewEpisode(
        pair,
        Kind.ERASURE,
        erasure_text(said),
        at,
        evidence=said,
        idempotency_key=f"erasure:{said.erased[0].number}",
    )
    written = store.append(new)
    if not written.created and written.episode.evidence != said:
        raise ConflictError(f"{pair}: {raced}")
    return written.episode


@dataclass(frozen=True)
class LogRead:
    """What one pass over a pair's log tells an erasure (``read_for_erasure``): the bodies
    still stored (their sequences), the erasures' entries, the asked episodes (erased or not)
    and what may quote them (day summaries, corrections). At 100,000 episodes a pass costs
    seconds, and an erasure of one episode had read the log three times before its check."""

    alive: frozenset[int]
    entries: tuple[tuple[Episode, ErasureEvidence], ...]
    asked: dict[int, Episode]
    quoting: tuple[Episode, ...]
    # the tutor's lines that call the student by name, in order (None: not looked for)
    greetings: tuple[Episode, ...] | None = None

    def after(self, gone: Sequence[Episode], asked: Sequence[Episode]) -> LogRead:
        """The log as an erasure that took ``gone`` (finishing every entry) left it, asking
        ``asked`` next (what quoted them: the same pass serves the second erasure)."""
        left = self.alive - {e.seq for e in gone}
        return LogRead(left, (), {e.seq: e for e in asked}, ())


def read_for_erasure(
    store: Store,
    pair: Pair,
    seqs: Sequence[int],
    asking: Callable[[Episode], bool] | None = None,
    *,
    greetings: bool = False,
) -> LogRead:
    """One pass over the pair's log for an erasure of ``seqs``, or of the episodes ``asking``
    accepts (see :class:`LogRead`); with ``greetings``, the tutor's greetings by name too."""
    wanted = set(seqs)
    alive: set[int] = set()
    entries: list[tuple[Episode, ErasureEvidence]] = []
    asked: dict[int, Episode] = {}
    quoting: list[Episode] = []
    greeting: list[Episode] = []
    for ep in store.iter_episodes(pair):
        if ep.seq in wanted or (asking is not None and asking(ep)):
            asked[ep.seq] = ep
        if ep.erased:
            continue
        if isinstance(ep.evidence, ErasureEvidence):
            entries.append((ep, ep.evidence))
        elif about_the_student(ep):
            alive.add(ep.seq)
            if isinstance(ep.evidence, ConsolidationEvidence | CorrectionEvidence):
                quoting.append(ep)
            elif greetings and ep.kind is Kind.ANSWER and addressed(ep.text) is not None:
                greeting.append(ep)
    return LogRead(
        frozenset(alive), tuple(entries), asked, tuple(quoting),
        tuple(greeting) if greetings else None,
    )  # fmt: skip


def erase_with_entry(
    store: Store,
    pair: Pair,
    seqs: Sequence[int],
    *,
    at: datetime,
    reason: str,
    requested_by: str,
    scope: ErasureScope,
    read: LogRead | None = None,
) -> list[Episode]:
    """Erase the bodies of these episodes of the pair (those not erased yet; never an
    erasure's entry), as every erasure does: first the erasure's entry naming each, with its
    commitment and the number its record will get, appended like any episode (under the key
    ``erasure:<first number>``, so a concurrent erasure cannot write a second entry for the
    same records); then the bodies, each recorded (``ErasingStore.erase``). An erasure cut
    short between its entry and its bodies is finished first, as its entry says. Returns the
    episodes whose bodies went now (as they were), those finished included. ``read``: the
    pass over the log already made (else one is made here)."""
    if read is None:
        read = read_for_erasure(store, pair, seqs)
    alive = set(read.alive)
    done: list[Episode] = []
    for entry, said in read.entries:  # cut short: the entry is written, its bodies are not
        left = [item.seq for item in said.erased if item.seq in alive]
        if left:
            log.warning(
                "finishing the erasure of %d episodes of %s its entry (episode %d) names",
                len(left), pair, entry.seq, extra={"operator_action": "erase"},
            )  # fmt: skip
            done += store.erase(
                pair,
                left,
                at=entry.at,
                reason=said.reason,
                requested_by=said.requested_by,
                scope=cast(ErasureScope, said.scope),
            )
            alive -= set(left)
    todo = [read.asked[seq] for seq in sorted(set(seqs)) if seq in alive and seq in read.asked]
    if not todo:
        return done
    number = len(store.erasures(pair)[0])  # the store numbers records in seq order
    items = [
        ErasedItem(ep.seq, number + i, ep.commitment or ep.hash)
        for i, ep in enumerate(todo, start=1)
    ]
    for start in range(0, len(items), ERASURE_ENTRY_MAX_ITEMS):
        chunk = tuple(items[start : start + ERASURE_ENTRY_MAX_ITEMS])
        said = ErasureEvidence(chunk, reason, requested_by, scope)
        append_entry(
            store, pair, said, at,
            raced="another erasure wrote its entry meanwhile; ask again (nothing of this one "
            "was erased)",
        )  # fmt: skip
    return done + store.erase(
        pair,
        [ep.seq for ep in todo],
        at=at,
        reason=reason,
        requested_by=requested_by,
        scope=scope,
    )


@dataclass(frozen=True)
class Migrated:
    """What migrating one pair did: the erasure records (by number) made before entries were
    kept that now have their entry, the entries appended (their sequences), the chain's
    verification after, and whether a checkpoint was anchored; or why nothing was done
    (``refused``: the chain has another break, which a migration must not paper over)."""

    pair: Pair
    adopted: tuple[int, ...] = ()
    entries: tuple[int, ...] = ()
    report: ChainReport | None = None
    anchored: bool = False
    refused: str = ""

    def __str__(self) -> str:
        if self.refused:
            return f"{self.pair}: not migrated — {self.refused}"
        if not self.adopted:
            return f"{self.pair}: nothing to migrate ({self.report})"
        episodes = ", ".join(str(seq) for seq in self.entries)
        anchored = "; a checkpoint anchored" if self.anchored else ""
        return (
            f"{self.pair}: {len(self.adopted)} erasure records made before entries were kept "
            f"now have their entry (episode {episodes}); {self.report}{anchored}"
        )


def _groups(records: Sequence[Erasure]) -> list[list[Erasure]]:
    """Consecutive records of one erasure (same time, reason, requester and scope), at most
    ``ERASURE_ENTRY_MAX_ITEMS`` a group: one entry each, as that erasure would have written."""
    groups: list[list[Erasure]] = []
    for record in records:
        said = (record.at, record.reason, record.requested_by, record.scope)
        last = groups[-1] if groups else None
        if (
            last is not None
            and (last[0].at, last[0].reason, last[0].requested_by, last[0].scope) == said
            and len(last) < ERASURE_ENTRY_MAX_ITEMS
        ):
            last.append(record)
        else:
            groups.append([record])
    return groups


def migrate_pre_entry_erasures(memory: TutorMemory, pair: Pair) -> Migrated:
    """Give the erasures made before entries were kept their entries in the chain
    (``tutor-memory migrate``), then anchor a checkpoint.

    Only a chain whose one problem is such erasures is migrated (``verify`` says ``erasure
    before entries``: no checkpoint of it was ever anchored, the records come before every one
    an entry names): a chain with any other break is refused as it stands. Each erasure gets
    the entry it would have written, appended at the end of the chain: the episodes, their
    commitments and record numbers, the reason, who asked, the scope and the erasure's own
    time (its record's), under the key ``erasure:<first number>`` (asking again finds it
    written). After the checkpoint, a record without an entry is a forgery again; before it,
    a record forged by someone with the store's write access cannot be told from an old one —
    the migration adopts what the store holds, as the operator who runs it vouches."""
    report = memory.verify_chain(pair)
    if report.intact:
        return Migrated(pair, report=report)
    if report.break_kind != "erasure before entries":
        return Migrated(pair, report=report, refused=f"the chain is {report}")
    store = memory.ports.store
    records, _ = store.erasures(pair)
    episodes = {ep.seq: ep for ep in store.iter_episodes(pair)}
    entries = [ep for ep in episodes.values() if ep.kind in SYSTEM_KINDS and not ep.erased]
    legacy = pre_entry_records(entries, records)
    written: list[int] = []
    for group in _groups(legacy):
        first = group[0]
        said = ErasureEvidence(
            tuple(
                ErasedItem(r.seq, r.number, episodes[r.seq].commitment or episodes[r.seq].hash)
                for r in group
            ),
            first.reason,
            first.requested_by,
            first.scope,
        )
        raced = f"an erasure wrote an entry for record {first.number} meanwhile; migrate again"
        written.append(append_entry(store, pair, said, first.at, raced=raced).seq)
    log.warning(
        "migrated %s: %d erasure records made before entries were kept now have entries %s",
        pair, len(legacy), written, extra={"operator_action": "migrate"},
    )  # fmt: skip
    after = memory.verify_chain(pair)
    anchoring = memory.anchor_checkpoint(pair) if after.intact else None
    return Migrated(
        pair,
        adopted=tuple(r.number for r in legacy),
        entries=tuple(written),
        report=after,
        anchored=bool(anchoring and anchoring.anchored),
        refused="" if after.intact else f"after the migration the chain is {after}",
    )


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
        self, pair: Pair, *, reason: str, requested_by: str = "api", scope: ErasureScope = "pair"
    ) -> ErasureResult:
        """Erase every body of a pair and everything kept beside its log. An unknown pair is
        NotFoundError."""
        reason = check_reason(reason)
        if self.ports.store.head(pair) is None:
            raise NotFoundError(f"no history for {pair}")
        result = ErasureResult(scope, reason, self.ports.clock.now())
        self._erase_whole_pair(pair, result, requested_by, scope)
        self._finish([pair], anchor=self.anchor_at_once)
        return result

    def erase_student(
        self, student_id: str, *, reason: str, requested_by: str = "api"
    ) -> ErasureResult:
        """Erase every pair of a student (every subject), take them off every class and
        delete every map folded for them. An unknown student is NotFoundError."""
        check_id("student_id", student_id)
        reason = check_reason(reason)
        # Off every class first: from here on no course map is folded for them again.
        rosters = self.rosters()
        classes = rosters.leave_classes(student_id) if rosters is not None else []
        classes += self.store.leave_classes(student_id)
        pairs = self.store.pairs_of(student_id)
        mapped = [p for p in self.store.maps_of(student_id) if p not in pairs]
        profile = self.profiles.history(student_id) if self.profiles is not None else []
        if not pairs and not profile and not classes and not mapped:
            raise NotFoundError(f"no history for student {student_id!r}")
        result = ErasureResult("student", reason, self.ports.clock.now())
        if self.profiles is not None:  # statements about the student, in no pair: deleted
            self.profiles.erase(student_id)
        # Crypto-shredding first (when bodies are encrypted): from here on no copy of any body,
        # in the table or a backup of it, can be decrypted, even if what follows is cut short.
        # (A store that keeps no body under a student's key has none to shred: False.)
        self.store.shred_student(student_id)
        for pair in pairs:
            self._erase_whole_pair(pair, result, requested_by, "student")
        for pair in mapped:  # a class's course map folded in, and no chain: nothing to erase
            self.store.purge_pair(pair)
            result.erased[str(pair)] = []
        self._finish(pairs, anchor=self.anchor_at_once)
        return result

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
        self, pair: Pair, result: ErasureResult, requested_by: str, scope: ErasureScope
    ) -> None:
        head = self.ports.store.head(pair)
        seqs = list(range(1, (head.seq if head else 0) + 1))
        gone = self._erase(
            pair,
            seqs,
            at=result.at,
            reason=result.reason,
            requested_by=requested_by,
            scope=scope,
        )
        result.erased[str(pair)] = [e.seq for e in gone]
        if scope != "student":  # a student's erasure deleted their whole profile first
            self._erase_heard(
                pair, lambda source: heard_in_subject(source, pair.subject_id), result.at
            )
        self.store.purge_pair(pair)
        if self.ports.index is not None:
            self.ports.index.delete_pair(pair)
        if self.files is not None:
            prefix = f"{self.uploads_prefix}{pair.student_id}/{pair.subject_id}/"
            result.objects_deleted += self.files.delete_all_versions(prefix)
        log.info(
            "erased %s: %d episodes (%s)", pair, len(gone), result.reason,
            extra={"pair": str(pair), "operator_action": "erase", "scope": scope},
        )  # fmt: skip

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
            learning.rederive(pair, at=at, force=True, reason="erasure", as_recorded=True)
        # The nightly tally counts checks and their corrections only: folded again from the
        # start (a read of the whole log) when the erasure took one of them.
        names = [WORKING_SET, SELF_MODEL, *(night_name(d.isoformat()) for d in days)]
        names += [SCAN] if counted else []
        self.store.delete_documents(pair, names)
        if self.nightly is not None:
            self.nightly.refresh(pair, (days[-1] if days else at.date()).isoformat())
        log.info(
            "erased %d episodes of %s (%s)", len(gone), pair, reason,
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
    ) -> list[Episode]:
        """:func:`erase_with_entry` on this app's store."""
        return erase_with_entry(
            self.store, pair, seqs, at=at, reason=reason, requested_by=requested_by,
            scope=scope, read=read,
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
