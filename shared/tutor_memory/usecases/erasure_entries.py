"""The chain's side of every erasure: its entries, the one pass over the log an erasure makes,
the bodies erased (at once, or in steps while the caller's time lasts), and the migration of
erasures made before entries were kept. The use cases around it are in ``usecases.erasure``.

Each erasure first appends its **entry to the chain** (an episode of kind ``erasure``, sealed
like any other: which episodes, their commitments and record numbers, who asked, when, why;
at most ``ERASURE_ENTRY_MAX_ITEMS`` episodes an entry), then erases the bodies it names, each
with an erasure record beside the chain; ``verify`` holds every record and every erased body
to an entry. An erasure cut short between its entry and its bodies is finished, as its entry
says, by the next erasure of the pair (asking again).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from tutor_memory.domain.chain import (
    ERASURE_PENDING_DOCUMENT,
    ChainReport,
    Erasure,
    ErasureScope,
    pre_entry_records,
)
from tutor_memory.domain.episodes import (
    ERASURE_ENTRY_MAX_ITEMS,
    SYSTEM_KINDS,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    ErasedItem,
    ErasureEvidence,
    Kind,
    NewEpisode,
    Pair,
    about_the_student,
    erasure_text,
)
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.profile_phrases import addressed
from tutor_memory.ports import Store
from tutor_memory.usecases.log import TutorMemory

log = logging.getLogger(__name__)

# Bodies erased between two looks at the caller's time: one entry's worth (on DynamoDB about
# five consistent batch reads and ten transactions).
STEP_BODIES = ERASURE_ENTRY_MAX_ITEMS


class ErasureUnfinished(Exception):
    """An erasure's time ran out (its ``until``) with bodies left. Every one of them is named
    by an entry already in the chain, so asking again finishes them (``ErasureTask``)."""

    def __init__(self, gone: list[Episode]) -> None:
        super().__init__(f"{len(gone)} bodies erased; the rest is left to the next ask")
        self.gone = gone


@dataclass
class _Steps:
    """The store's erasure of bodies, all at once, or — with ``until`` (the time is up) — in
    steps of one entry's items, asking ``until`` before every step but the first, so that
    each ask moves the erasure on however little time it has."""

    store: Store
    pair: Pair
    until: Callable[[], bool] | None
    done: list[Episode] = field(default_factory=list)
    started: bool = False

    def stop_if_late(self) -> None:
        if self.started and self.until is not None and self.until():
            raise ErasureUnfinished(self.done)

    def erase(self, seqs: Sequence[int], **record: Any) -> None:
        step = len(seqs) if self.until is None else STEP_BODIES
        for start in range(0, len(seqs), max(step, 1)):
            self.stop_if_late()
            self.started = True
            self.done += self.store.erase(self.pair, list(seqs[start : start + step]), **record)


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
    until: Callable[[], bool] | None = None,
) -> list[Episode]:
    """Erase the bodies of these episodes of the pair (those not erased yet; never an
    erasure's entry), as every erasure does: first the erasure's entry naming each, with its
    commitment and the number its record will get, appended like any episode (under the key
    ``erasure:<first number>``, so a concurrent erasure cannot write a second entry for the
    same records); then the bodies, each recorded (``ErasingStore.erase``). An erasure cut
    short between its entry and its bodies is finished first, as its entry says. Returns the
    episodes whose bodies went now (as they were), those finished included. ``read``: the
    pass over the log already made (else one is made here). ``until``: whether the caller's
    time is up (see ``_Steps``); when it is with bodies left, ErasureUnfinished says what
    went, and the entries what is left."""
    if read is None:
        read = read_for_erasure(store, pair, seqs)
    alive = set(read.alive)
    steps = _Steps(store, pair, until)
    handed_on: bool | None = None  # a worker's to go on with (its mark), read when needed
    for entry, said in read.entries:  # cut short: the entry is written, its bodies are not
        left = [item.seq for item in said.erased if item.seq in alive]
        if left:
            if handed_on is None:
                handed_on = store.document(pair, ERASURE_PENDING_DOCUMENT) is not None
            # Handed on to a worker, it is the erasure's normal path; without the mark, an
            # erasure was cut short (a crash, a queue that refused it): an operator should know.
            log.log(
                logging.INFO if handed_on else logging.WARNING,
                "%s the erasure of %d episodes of %s its entry (episode %d) names",
                "going on with" if handed_on else "finishing, cut short before,",
                len(left), pair, entry.seq, extra={"operator_action": "erase"},
            )  # fmt: skip
            steps.erase(
                left,
                at=entry.at,
                reason=said.reason,
                requested_by=said.requested_by,
                scope=cast(ErasureScope, said.scope),
            )
            alive -= set(left)
    todo = [read.asked[seq] for seq in sorted(set(seqs)) if seq in alive and seq in read.asked]
    if not todo:
        return steps.done
    steps.stop_if_late()  # (the new entries are written only when time is left for a step)
    number = store.erasure_number(pair)  # the store numbers records on from it, in seq order
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
    steps.erase(
        [ep.seq for ep in todo], at=at, reason=reason, requested_by=requested_by, scope=scope
    )
    return steps.done


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
