"""The hash chain of one pair's episodes: canonical forms, sealing, verification (SPEC §2).

Two canonical forms exist; every episode records the one it was sealed under (``chain_version``)
and is verified by it, so a chain may hold both (the older episodes first). New episodes are
sealed under version 2.

**Version 1** (``tm-chain-1``; episodes written before chain v2), stable across backends and
Python versions:

* The content is a JSON object: ``v`` (1), ``pair`` (``student``, ``subject``), ``seq``, ``at``,
  ``kind``, ``summary``, ``text``, ``concepts``, ``salience``, ``evidence``, ``recalled``,
  ``ref``. The idempotency key and the episode id are not content: the key is a property of
  the write, the id is derived from the hash.
* Keys are sorted; no whitespace (``,`` and ``:`` separators); UTF-8 without ``\\u`` escapes
  except the control characters JSON requires (``\\n`` and friends, ``\\u001f`` lowercase). Text
  has been NFC-normalised on the way in. With ASCII keys and the number rule below this is the
  same byte string RFC 8785 (JSON Canonicalization Scheme) produces.
* Numbers: whole numbers (seq, page, counts) are JSON integers. Fractions (salience, predicted
  mastery, quiz scores) are rounded to 4 decimals on the way in and written as *strings* in
  fixed-point notation with exactly 4 decimals (``"0.3500"``), so no float formatting rule of
  any language or database can change a hash. Absent values are ``null``.
* Time is UTC, ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (microseconds, four-digit year).

``hash = sha256(prev_hash_hex || "\\n" || canonical_bytes)`` in lowercase hex; the first
episode's ``prev_hash`` is :data:`GENESIS_HASH`. The pair is part of the content, so the same
text in two pairs never shares a hash, and moving an episode to another chain is a break.

**Version 2** (``tm-chain-2``): the link hashes an *envelope* and a salted *commitment* to the
body, so that a body can be erased and the chain still verifies.

* The body is the JSON object ``summary``, ``text``, ``concepts``, ``evidence``, ``recalled``,
  ``ref``, in the same canonical JSON as version 1 (:func:`canonical_body`).
* ``commitment = sha256(salt || body_bytes)`` in lowercase hex, where ``salt`` is
  ``CHAIN_SALT_BYTES`` random bytes drawn for this episode and stored (hex) beside its body.
* The envelope is the JSON object ``v`` (2), ``pair``, ``seq``, ``at``, ``kind``,
  ``salience``, ``body`` (the commitment), in the same canonical JSON
  (:func:`canonical_envelope`), and ``hash = sha256(prev_hash_hex || "\\n" || envelope_bytes)``.

Erasing a version-2 episode deletes its body *and its salt* and keeps the envelope and the
commitment: the chain still links and every envelope is still checked, and without the salt the
commitment says nothing about the body (no dictionary of likely texts can be tried against it).
Erasing a version-1 episode keeps its hash but no commitment can be separated from it, so its
link (the next episode's ``prev_hash``) is checked and its content no longer can be; the report
says how many such episodes there are.

Each erasure is recorded beside the chain (:class:`Erasure`): which episode (sequence, id and
link hash), when, why, who asked. The records of a pair form their own small chain
(``digest = sha256(prev_digest || "\\n" || canonical record)``) whose last digest is kept with
the chain head, so an edited, removed or invented record is a break, and so is an episode whose
body is gone without a record.

A record beside the chain is only as good as the store's writer, who can compute its digests
too. So **an erasure is also an entry in the chain**: an episode of kind ``erasure``
(:class:`~tutor_memory.domain.episodes.ErasureEvidence`), appended through the ordinary append
before the bodies go and sealed like any other, naming what it erases (each sequence, its
commitment, its record's number), why, who asked and when. ``verify`` holds every erased body
and every record to an entry: a forged record, a body erased without an entry, or an entry
altered is a break; forging an entry means rewriting the chain from it on, which a checkpoint
shows.

Erasures made before entries were kept (a store written by the release before them) have a
record and no entry. Such a record is told apart from a forged one only where it can be: while
no checkpoint of the chain has been anchored (every chain anchored since verified, so held every
record to an entry), and only for the records before the first an entry names, of episodes
before the first entry. ``verify`` then reports them as ``erasure before entries`` (run
``tutor-memory migrate``, which appends their entries and anchors a checkpoint), never
``intact``; any other break is reported first. Anywhere else a record without an entry is a
forgery.

**Checkpoints** (:class:`Checkpoint`: a pair, a length and the head's hash at a time) are kept
elsewhere, signed (:class:`AnchoredCheckpoint`, a MAC of :func:`checkpoint_message`) by an
anchor the store's writer cannot rewrite (``ports.CheckpointAnchor``); ``verify`` checks the
chain against the newest one by default, so a history rewritten and re-hashed before it, or a
tail cut together with the head, is a break, and so is a checkpoint whose MAC does not verify.

This is tamper *evidence*: a rewrite is detected (at its exact position), never prevented, and
only while the chain or a checkpoint of it is kept. A writer who can also sign checkpoints (or
who appends a well-formed erasure entry after the newest checkpoint) is not caught by them.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Literal

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import (
    ERASURE_SCOPES as ERASURE_SCOPES,  # re-exported: erasure records and entries share them
)
from tutor_memory.domain.episodes import (
    SYSTEM_KINDS,
    Episode,
    ErasedItem,
    ErasureEvidence,
    Kind,
    NewEpisode,
    NoEvidence,
    Pair,
)
from tutor_memory.domain.episodes import ErasureScope as ErasureScope

CHAIN_FORMAT = 2  # what new episodes are sealed under
CHAIN_FORMATS = (1, 2)
CHECKPOINT_FORMAT = "tm-chain-1"  # the checkpoint's own layout (unchanged by chain v2)
GENESIS_HASH = "0" * 64
_ID_RE = re.compile(r"^e(\d+)-([0-9a-f]{12})$")
_SHORT_YEAR_RE = re.compile(r"^(\d{1,3})-\d{2}-\d{2}T")


_TIME_LENGTH = len("2026-01-01T00:00:00.000000Z")


# A pair a worker is erasing whole (usecases/erasure.py ``ErasureTask``; ``purge_pair``, the
# erasure's last step, deletes it): its turns show nothing of it, its nights write nothing, and
# ``verify`` reads the bodies its entries name and a worker has not reached yet (and those a
# shredded key no longer opens) as pending, not as an erasure cut short.
ERASURE_PENDING_DOCUMENT = "erasure-pending"
# A mark older than this whose pair is still not erased: its worker's message was lost (the
# dead-letter queue); asking again sends another. Past the queue's visibility timeout (18 min)
# and a worker's batch (3 min).
WORKER_SILENT_S = 1_800


def worker_on_it(mark: Mapping[str, Any], now: datetime) -> bool:
    """Whether the pair's erasure-pending mark (its body) says a worker is erasing the pair
    now: written less than ``WORKER_SILENT_S`` ago."""
    return (now - parse_time(str(mark["since"]))).total_seconds() < WORKER_SILENT_S


def format_time(at: datetime) -> str:
    """The canonical time. The year is always four digits: the C library's ``%Y`` writes year 999
    as ``999``, which no reader parses back (and which sorts after ``2024`` as text)."""
    utc = at.astimezone(UTC)
    # fields formatted one by one: strftime("%m-%dT%H:%M:%S.%fZ") wrote the same, 3x slower
    return (
        f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
        f"{utc.second:02d}.{utc.microsecond:06d}Z"
    )


def parse_time(text: str) -> datetime:
    """The inverse of ``format_time``. ``fromisoformat`` reads it 50× faster than ``strptime``
    (0.15 µs against 7.8 µs: a turn reads thousands); the shape is checked, as the format
    string did, so a malformed row still fails here. A row written before years were padded
    (``999-…``) still reads, so its pair keeps working and ``verify`` reports that row's hash,
    not a crash."""
    short = _SHORT_YEAR_RE.match(text)
    if short:
        text = f"{int(short.group(1)):04d}{text[short.end(1) :]}"
    if len(text) != _TIME_LENGTH or text[-1] != "Z" or text[10] != "T" or text[19] != ".":
        raise ValueError(f"time data {text!r} does not match format '%Y-%m-%dT%H:%M:%S.%fZ'")
    return datetime.fromisoformat(text)


def _canonical_value(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # most values, first
        return value
    if isinstance(value, str | int):  # subclasses too (an enum of strings, a bool)
        return value
    if isinstance(value, float):
        return f"{value:.{C.FRACTION_DECIMALS}f}"
    if isinstance(value, dict):
        return {str(k): _canonical_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical_value(v) for v in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def canonical_json(content: Mapping[str, Any]) -> bytes:
    """The chain's canonical JSON (the module's docstring): what every signed or hashed form is
    written in."""
    return _dumped(_canonical_value(dict(content)))


def _dumped(canonical: Mapping[str, Any]) -> bytes:
    """A value already in its canonical form, written out."""
    return json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def canonical_content(episode: NewEpisode | Episode, seq: int) -> bytes:
    """Version 1's canonical form: the whole episode in one object."""
    content = {
        "v": 1,
        "pair": {"student": episode.pair.student_id, "subject": episode.pair.subject_id},
        "seq": seq,
        "at": format_time(episode.at),
        "kind": episode.kind.value,
        "summary": episode.summary,
        "text": episode.text,
        "concepts": list(episode.concepts),
        "salience": float(episode.salience or 0.0),
        "evidence": (NoEvidence() if episode.evidence is None else episode.evidence).to_dict(),
        "recalled": list(episode.recalled_ids),
        "ref": episode.ref,
    }
    return canonical_json(content)


def canonical_body(episode: NewEpisode | Episode) -> bytes:
    """Version 2's body: what erasure removes. Only the evidence can hold a value that is not
    already canonical (a float); the rest are strings (``verify`` writes every body of a chain:
    at 100,000 episodes, walking them all cost seconds)."""
    return _dumped(
        {
            "summary": episode.summary,
            "text": episode.text,
            "concepts": list(episode.concepts),
            "evidence": _canonical_value(
                (NoEvidence() if episode.evidence is None else episode.evidence).to_dict()
            ),
            "recalled": list(episode.recalled_ids),
            "ref": episode.ref,
        }
    )


def commit(salt: str, body: bytes) -> str:
    """``sha256(salt || body)``: binds the envelope to the body; useless without the salt."""
    return hashlib.sha256(bytes.fromhex(salt) + body).hexdigest()


def canonical_envelope(episode: NewEpisode | Episode, seq: int, commitment: str) -> bytes:
    """Version 2's envelope: what stays after an erasure, and what the link hashes. Written
    in its canonical form directly (strings, an int, the salience as its fraction)."""
    return _dumped(
        {
            "v": 2,
            "pair": {"student": episode.pair.student_id, "subject": episode.pair.subject_id},
            "seq": seq,
            "at": format_time(episode.at),
            "kind": episode.kind.value,
            "salience": _canonical_value(float(episode.salience or 0.0)),
            "body": commitment,
        }
    )


def new_salt() -> str:
    """A fresh body salt (the OS's random source)."""
    return secrets.token_hex(C.CHAIN_SALT_BYTES)


# The salts a replay of an export gives back, by (pair, sequence). A context variable, not an
# argument: an exported episode re-enters through its kind's use case (a check through the
# beliefs, a file through ingestion, …), and only the store, at the seal, knows the sequence.
_GIVEN_SALTS: ContextVar[Mapping[tuple[Pair, int], str] | None] = ContextVar(
    "given_salts", default=None
)


@contextmanager
def given_salts(salts: Mapping[tuple[Pair, int], str]) -> Iterator[None]:
    """Within this block, the episode sealed at (pair, seq) commits with the salt given here
    (a replay of an export: same salt, same body, same place → same commitment, hash and id)."""
    token = _GIVEN_SALTS.set(salts)
    try:
        yield
    finally:
        _GIVEN_SALTS.reset(token)


def salt_for(new: NewEpisode, head: ChainHead | None) -> str | None:
    """The salt an append must use, if one is given (the episode's own, or the replay's for
    this place), else None: the store draws a fresh one."""
    if new.salt is not None:
        return new.salt
    given = _GIVEN_SALTS.get()
    if not given:
        return None
    return given.get((new.pair, 1 if head is None else head.seq + 1))


def envelope_episode(
    pair: Pair,
    kind: Kind,
    at: datetime,
    salience: float,
    commitment: str,
    head: ChainHead | None,
) -> Episode:
    """An episode whose body is gone, sealed after ``head`` from its envelope alone (a replay
    of an export that carried an erased episode): the same envelope after the same link gives
    the same hash and id. The store then erases it, which writes its erasure record."""
    seq = 1 if head is None else head.seq + 1
    prev = GENESIS_HASH if head is None else head.hash
    draft = Episode(
        pair=pair,
        seq=seq,
        episode_id="",
        kind=kind,
        at=at,
        summary="",
        text="",
        concepts=(),
        salience=salience,
        evidence=NoEvidence(),
        recalled_ids=(),
        ref=None,
        idempotency_key=None,
        prev_hash=prev,
        hash="",
        chain_version=2,
        commitment=commitment,
    )
    digest = link_hash(prev, canonical_envelope(draft, seq, commitment))
    return replace(draft, hash=digest, episode_id=episode_id(seq, digest))


def link_hash(prev_hash: str, canonical: bytes) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + b"\n" + canonical).hexdigest()


def episode_id(seq: int, hash_hex: str) -> str:
    """``e<seq>-<12 hex of the hash>``: unique across pairs, and a store finds it by sequence."""
    return f"e{seq}-{hash_hex[:12]}"


# Remembered: a turn looks up the same ~400 hits' ids turn after turn (a third of reading them)
@lru_cache(maxsize=C.DECODED_EPISODE_CACHE)
def seq_of_id(ident: str) -> int | None:
    match = _ID_RE.match(ident)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class ChainHead:
    """The newest link of a pair's chain, kept in its own row so a deleted tail shows."""

    pair: Pair
    seq: int
    hash: str
    at: datetime
    # Episodes per kind, kept with the head (same transaction), so "how many checks" is one read.
    counts: Mapping[str, int] = field(default_factory=dict)
    # The erasure records' last digest, where a store keeps it in the head's own row (DynamoDB:
    # an append must carry it on). Not part of the link: two heads of one chain compare equal.
    erasure_head: str | None = field(default=None, compare=False)

    def after(self, episode: Episode) -> ChainHead:
        return head_of(episode, self)


def seal(
    new: NewEpisode, head: ChainHead | None, *, salt: str | None = None, version: int = CHAIN_FORMAT
) -> Episode:
    """Give a validated episode its place in the chain. Called by a store inside its transaction.

    Version 2 (the default) commits to the body with ``salt`` (else the episode's own, from a
    replayed export, else a fresh one); ``version=1`` seals as the code before chain v2 did (what
    the tests of old chains write)."""
    seq = 1 if head is None else head.seq + 1
    prev = GENESIS_HASH if head is None else head.hash
    commitment: str | None = None
    if version == 1:
        salt = None
        digest = link_hash(prev, canonical_content(new, seq))
    elif version == 2:
        salt = salt or new.salt or new_salt()
        commitment = commit(salt, canonical_body(new))
        digest = link_hash(prev, canonical_envelope(new, seq, commitment))
    else:
        raise ValueError(f"no chain format {version}")
    return Episode(
        pair=new.pair,
        seq=seq,
        episode_id=episode_id(seq, digest),
        kind=new.kind,
        at=new.at,
        summary=new.summary,
        text=new.text,
        concepts=new.concepts,
        salience=new.salience_value,
        evidence=new.evidence_value,
        recalled_ids=new.recalled_ids,
        ref=new.ref,
        idempotency_key=new.idempotency_key,
        prev_hash=prev,
        hash=digest,
        request_hash=new.request_hash,
        chain_version=version,
        salt=salt,
        commitment=commitment,
    )


def rehash(episode: Episode, prev_hash: str) -> Episode:
    """The episode re-sealed after ``prev_hash`` under its own version and salt (what a careful
    forger, or a migration that rewrites history, would compute)."""
    if episode.chain_version == 1:
        digest = link_hash(prev_hash, canonical_content(episode, episode.seq))
        commitment = None
    else:
        commitment = (
            episode.commitment
            if episode.salt is None
            else commit(episode.salt, canonical_body(episode))
        )
        digest = link_hash(prev_hash, canonical_envelope(episode, episode.seq, commitment or ""))
    return replace(
        episode,
        prev_hash=prev_hash,
        hash=digest,
        commitment=commitment,
        episode_id=episode_id(episode.seq, digest),
    )


def has_body(episode: Episode) -> bool:
    """Whether anything of the episode's body is still stored."""
    return bool(
        episode.text
        or episode.summary
        or episode.concepts
        or episode.evidence.to_dict()
        or episode.recalled_ids
        or episode.ref
    )


def head_of(episode: Episode, previous: ChainHead | None = None) -> ChainHead:
    """The head once ``episode`` is appended after ``previous``. Its counts are the student's
    episodes per kind: an erasure's entry (``SYSTEM_KINDS``) is in the chain, not counted."""
    counts = dict(previous.counts) if previous else {}
    if episode.kind not in SYSTEM_KINDS:
        counts[episode.kind.value] = counts.get(episode.kind.value, 0) + 1
    return ChainHead(
        pair=episode.pair,
        seq=episode.seq,
        hash=episode.hash,
        at=episode.at,
        counts=dict(sorted(counts.items())),
    )


def erased_from(counts: Mapping[str, int], erased: Iterable[Episode]) -> dict[str, int]:
    """The head's counts once ``erased`` (episodes just erased) no longer count: a kind with
    none left goes, as if it had never been recorded."""
    left = dict(counts)
    for episode in erased:
        left[episode.kind.value] = left.get(episode.kind.value, 0) - 1
    return {k: n for k, n in sorted(left.items()) if n > 0}


BreakKind = Literal[
    "content changed",
    "link broken",
    "gap",
    "missing",
    "checkpoint mismatch",
    "erasure record changed",
    "erased without a record",
    "erased without an entry",
    "erasure record without an entry",
    "erasure entry mismatch",
    "checkpoint not authentic",
    "erasure before entries",
]

# What ``verify`` says of an erasure the release before erasure entries made (its record, no
# entry): not a tamper alarm, a step to take (``tutor-memory migrate``).
BEFORE_ENTRIES = "erasure made before entries were kept: run tutor-memory migrate"


@dataclass(frozen=True)
class Erasure:
    """The record of one erased episode, kept beside the chain (never inside the erased body).

    ``number`` is its place among the pair's erasures (1, 2, …); ``prev`` the digest of the
    record before it (:data:`GENESIS_HASH` for the first); ``digest`` its own (see
    :func:`erasure_digest`). ``scope`` says what was asked: one episode, the pair, the student,
    the retention period, or ``derived`` (a summary that quoted an erased episode)."""

    pair: Pair
    number: int
    seq: int
    episode_id: str
    hash: str  # the erased episode's link hash, which stays in the chain
    at: datetime
    reason: str
    requested_by: str
    scope: ErasureScope
    prev: str
    digest: str

    def canonical(self) -> bytes:
        return canonical_json(
            {
                "v": 1,
                "pair": {"student": self.pair.student_id, "subject": self.pair.subject_id},
                "number": self.number,
                "seq": self.seq,
                "episode_id": self.episode_id,
                "hash": self.hash,
                "at": format_time(self.at),
                "reason": self.reason,
                "requested_by": self.requested_by,
                "scope": self.scope,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seq": self.seq,
            "episode_id": self.episode_id,
            "hash": self.hash,
            "at": format_time(self.at),
            "reason": self.reason,
            "requested_by": self.requested_by,
            "scope": self.scope,
            "prev": self.prev,
            "digest": self.digest,
        }

    @classmethod
    def from_dict(cls, pair: Pair, data: Mapping[str, Any]) -> Erasure:
        return cls(
            pair=pair,
            number=int(data["number"]),
            seq=int(data["seq"]),
            episode_id=str(data["episode_id"]),
            hash=str(data["hash"]),
            at=parse_time(str(data["at"])),
            reason=str(data["reason"]),
            requested_by=str(data["requested_by"]),
            scope=data["scope"],
            prev=str(data["prev"]),
            digest=str(data["digest"]),
        )


def erasure_digest(record: Erasure) -> str:
    return link_hash(record.prev, record.canonical())


def erasure_record(
    episode: Episode,
    *,
    number: int,
    prev: str,
    at: datetime,
    reason: str,
    requested_by: str,
    scope: ErasureScope,
) -> Erasure:
    """The sealed record of erasing ``episode`` (as stored before the erasure)."""
    draft = Erasure(
        pair=episode.pair,
        number=number,
        seq=episode.seq,
        episode_id=episode.episode_id,
        hash=episode.hash,
        at=at,
        reason=reason,
        requested_by=requested_by,
        scope=scope,
        prev=prev,
        digest="",
    )
    return replace(draft, digest=erasure_digest(draft))


def erasure_records(
    episodes: Sequence[Episode],
    after: tuple[int, str],
    asked: tuple[datetime, str, str, ErasureScope],
) -> list[Erasure]:
    """The records of erasing ``episodes``, in their order, each chained to the one before:
    ``after`` is the pair's newest record's number and digest (0 and the genesis hash: none),
    ``asked`` the erasure's time, reason, who asked and scope, as ``erasure_record`` takes
    them (both stores number and chain a batch of records alike)."""
    (number, prev), (at, reason, requested_by, scope) = after, asked
    records: list[Erasure] = []
    for episode in episodes:
        number += 1
        record = erasure_record(
            episode,
            number=number,
            prev=prev,
            at=at,
            reason=reason,
            requested_by=requested_by,
            scope=scope,
        )
        records.append(record)
        prev = record.digest
    return records


def erase(episode: Episode) -> Episode:
    """The episode as an erasure leaves it: the envelope, the links and the commitment."""
    return replace(
        episode,
        summary="",
        text="",
        concepts=(),
        evidence=NoEvidence(),
        recalled_ids=(),
        ref=None,
        idempotency_key=None,
        request_hash=None,
        salt=None,
        erased=True,
    )


@dataclass(frozen=True)
class ErasureSummary:
    """Erasures as a report lists them: one line per UTC day and reason."""

    day: str
    reason: str
    episodes: int

    def __str__(self) -> str:
        return f"{self.day} '{self.reason}' ×{self.episodes}"


def summarise_erasures(records: Iterable[Erasure]) -> tuple[ErasureSummary, ...]:
    groups: dict[tuple[str, str], int] = {}
    for r in records:
        key = (format_time(r.at)[:10], r.reason)
        groups[key] = groups.get(key, 0) + 1
    return tuple(ErasureSummary(day, reason, n) for (day, reason), n in sorted(groups.items()))


@dataclass(frozen=True)
class ChainReport:
    """The outcome of recomputing a chain: intact, or the first break and what broke."""

    pair: Pair
    intact: bool
    episodes: int
    head_hash: str
    break_seq: int | None = None
    break_kind: BreakKind | None = None
    detail: str = ""
    erased: int = 0  # episodes whose body was erased (their envelopes were checked)
    erased_v1: int = 0  # of those, sealed under version 1: only their place could be checked
    erasures: tuple[ErasureSummary, ...] = ()
    entries: int = 0  # erasures' entries in the chain (counted in ``episodes``, not erased)
    # The checkpoint the chain was checked against (an anchored one by default), if any.
    checkpoint_seq: int | None = None
    checkpoint_at: datetime | None = None
    # Bodies named by the entries of an erasure a worker is carrying out now, not erased yet.
    pending: int = 0

    def __str__(self) -> str:
        if self.intact:
            erased = ""
            if self.erased:
                listed = "; ".join(str(e) for e in self.erasures)
                erased = f", {self.erased} erased ({listed})"
                if self.erased_v1:
                    erased += (
                        f" — {self.erased_v1} of them sealed before chain v2: their place is "
                        "checked, their content no longer can be"
                    )
            entries = ""
            if self.entries:
                some = "an erasure entry" if self.entries == 1 else "erasure entries"
                entries = f" ({self.entries} of them {some})"
            point = ""
            if self.checkpoint_seq is not None and self.checkpoint_at is not None:
                point = (
                    f"; extends the checkpoint of {format_time(self.checkpoint_at)[:10]} "
                    f"(episode {self.checkpoint_seq})"
                )
            underway = ""
            if self.pending:
                bodies = "body" if self.pending == 1 else "bodies"
                underway = (
                    f"; an erasure is under way: {self.pending} {bodies} still to be erased by "
                    "the worker that has it"
                )
            return (
                f"intact: {self.episodes} episodes{entries}{erased}, head {self.head_hash[:16]}…"
                f"{point}{underway}"
            )
        if self.break_kind == "erasure before entries":
            return f"not verified from episode {self.break_seq}: {self.detail}"
        return f"broken at episode {self.break_seq}: {self.break_kind} — {self.detail}"


@dataclass(frozen=True)
class Checkpoint:
    """A point of a chain worth remembering elsewhere: a later chain must extend it unchanged."""

    pair: Pair
    seq: int
    head_hash: str
    at: datetime
    # Every episode id through ``seq``, oldest first (an id carries 12 hex digits of its link's
    # hash): against a rewritten history, the first id that differs is the first damaged
    # episode. Empty in checkpoints exported before; then only the head's position is known.
    ids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": CHECKPOINT_FORMAT,
            "student_id": self.pair.student_id,
            "subject_id": self.pair.subject_id,
            "seq": self.seq,
            "head_hash": self.head_hash,
            "at": format_time(self.at),
        }
        if self.ids:
            data["ids"] = list(self.ids)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Checkpoint:
        return cls(
            pair=Pair(data["student_id"], data["subject_id"]),
            seq=int(data["seq"]),
            head_hash=str(data["head_hash"]),
            at=parse_time(str(data["at"])),
            ids=tuple(str(i) for i in data.get("ids") or ()),
        )


ANCHOR_FORMAT = "tm-anchored-checkpoint-1"


def checkpoint_message(checkpoint: Checkpoint) -> bytes:
    """The bytes an anchored checkpoint's MAC signs: the pair, the length, the head's hash and
    the time, in the chain's canonical JSON (the ids are not signed, nor kept by an anchor)."""
    return canonical_json(
        {
            "format": ANCHOR_FORMAT,
            "student_id": checkpoint.pair.student_id,
            "subject_id": checkpoint.pair.subject_id,
            "seq": checkpoint.seq,
            "head_hash": checkpoint.head_hash,
            "at": format_time(checkpoint.at),
        }
    )


@dataclass(frozen=True)
class AnchoredCheckpoint:
    """A checkpoint signed with a MAC (HMAC-SHA256 of :func:`checkpoint_message`) and kept
    where the store's writer cannot rewrite it (``ports.CheckpointAnchor``). ``key_id`` names
    the key that signed it (a KMS key's ARN, a local key's fingerprint); ``where`` says where
    it is kept, for a report."""

    checkpoint: Checkpoint
    key_id: str
    mac: str  # lowercase hex
    where: str = field(default="", compare=False)

    @property
    def pair(self) -> Pair:
        return self.checkpoint.pair

    def to_dict(self) -> dict[str, Any]:
        cp = self.checkpoint
        return {
            "format": ANCHOR_FORMAT,
            "student_id": cp.pair.student_id,
            "subject_id": cp.pair.subject_id,
            "seq": cp.seq,
            "head_hash": cp.head_hash,
            "at": format_time(cp.at),
            "key_id": self.key_id,
            "mac": self.mac,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "") -> AnchoredCheckpoint:
        """Raises ValueError (or KeyError, TypeError) on anything but an anchored checkpoint."""
        if data.get("format") != ANCHOR_FORMAT:
            raise ValueError(f"not an anchored checkpoint ({data.get('format')!r})")
        point = Checkpoint(
            pair=Pair(str(data["student_id"]), str(data["subject_id"])),
            seq=int(data["seq"]),
            head_hash=str(data["head_hash"]),
            at=parse_time(str(data["at"])),
        )
        return cls(point, str(data["key_id"]), str(data["mac"]), where)


def _check_body(ep: Episode, records: Mapping[int, Erasure]) -> tuple[BreakKind, str] | None:
    """What is wrong with one episode's content or erasure, or None."""
    record = records.get(ep.seq)
    if ep.erased:
        if record is None:
            return "erased without a record", "its body is gone but no erasure record names it"
        if (record.episode_id, record.hash) != (ep.episode_id, ep.hash):
            return "erasure record changed", f"erasure record {record.number} names another episode"
        if has_body(ep) or ep.salt is not None:
            return "content changed", "it is marked erased but still holds a body or a salt"
        if ep.chain_version == 2:
            envelope = canonical_envelope(ep, ep.seq, ep.commitment or "")
            if not ep.commitment or link_hash(ep.prev_hash, envelope) != ep.hash:
                return "content changed", "its envelope no longer produces its stored hash"
        return None
    if record is not None:
        return "erasure record changed", (
            f"erasure record {record.number} names it, but its body is still stored"
        )
    if ep.chain_version == 1:
        if link_hash(ep.prev_hash, canonical_content(ep, ep.seq)) != ep.hash:
            return "content changed", "its content no longer produces its stored hash"
        return None
    if ep.chain_version != 2:
        return "content changed", f"it names chain format {ep.chain_version}, which does not exist"
    if ep.salt is None:
        return "erased without a record", "its body's salt is gone but it is not marked erased"
    if ep.commitment != commit(ep.salt, canonical_body(ep)):
        return "content changed", "its body no longer produces its stored commitment"
    if link_hash(ep.prev_hash, canonical_envelope(ep, ep.seq, ep.commitment)) != ep.hash:
        return "content changed", "its envelope no longer produces its stored hash"
    return None


def _shredded_in_place(ep: Episode, records: Mapping[int, Erasure]) -> bool:
    """A body that reads as none, not erased nor named by a record, whose envelope still gives
    its stored hash: what a store returns for a body sealed under a shredded key."""
    if ep.erased or ep.seq in records or has_body(ep) or ep.chain_version != 2:
        return False
    envelope = canonical_envelope(ep, ep.seq, ep.commitment or "")
    return bool(ep.commitment) and link_hash(ep.prev_hash, envelope) == ep.hash


def _check_erasures(
    pair: Pair, erasures: Sequence[Erasure], erasure_head: str | None
) -> tuple[int, str] | None:
    """The erasure records' own chain: (the first bad record's sequence, why), or None."""
    prev = GENESIS_HASH
    for expected, record in enumerate(erasures, start=1):
        if record.number != expected or record.pair != pair:
            return record.seq, f"erasure record {expected} is missing or out of place"
        if record.prev != prev or erasure_digest(record) != record.digest:
            return record.seq, f"erasure record {record.number} was edited"
        prev = record.digest
    if (erasure_head or GENESIS_HASH) != prev:
        last = erasures[-1].seq if erasures else 1
        return last, "the erasure records do not end where the chain head says they end"
    return None


def pre_entry_records(entries: Sequence[Episode], records: Sequence[Erasure]) -> list[Erasure]:
    """The records that may be erasures made before entries were kept: no entry names them,
    and they come before every record an entry names and before the chain's first entry (the
    release that wrote entries numbered its records after those it found, and wrote its entries
    after the episodes they erased). Whether the chain may hold such records at all (no
    checkpoint anchored) is the caller's to say."""
    named: set[int] = set()
    first_entry = min((e.seq for e in entries), default=None)
    for entry in entries:
        if isinstance(entry.evidence, ErasureEvidence):
            named |= {item.number for item in entry.evidence.erased}
    lowest = min(named, default=None)
    return [
        r
        for r in records
        if r.number not in named
        and (lowest is None or r.number < lowest)
        and (first_entry is None or r.seq < first_entry)
    ]


def _check_entries(
    entries: Sequence[Episode],
    erased: Mapping[int, Episode],
    records: Sequence[Erasure],
    *,
    before_entries: bool = False,
    pending: list[int] | None = None,
) -> tuple[int, BreakKind, str] | None:
    """Erasures against their entries in the chain: every erased body must be named by an
    entry (before which it lies, with the commitment the chain holds), and every erasure record
    kept beside the chain must be the one an entry names (same episode, number, time, reason,
    requester and scope). Returns the earliest problem (position, kind, why), or None.

    ``pending`` (a worker is erasing the pair now): the bodies an entry names that are still
    stored are put there, not reported — the worker has not reached them yet.

    With ``before_entries`` (no checkpoint of the chain was ever anchored), the records of
    :func:`pre_entry_records` and their erased bodies are reported as ``erasure before
    entries``, and only when nothing else is wrong."""
    problems: list[tuple[int, int, BreakKind, str]] = []  # (position, rank, kind, why)
    by_number = {r.number: r for r in records}
    named: dict[int, tuple[Episode, ErasedItem]] = {}
    for entry in entries:
        evidence = entry.evidence
        where = f"the erasure entry at episode {entry.seq}"
        if not isinstance(evidence, ErasureEvidence):
            problems.append((entry.seq, 3, "erasure entry mismatch", f"{where} records nothing"))
            continue
        for item in evidence.erased:
            mismatch = f"{where} names episode {item.seq}"
            if item.seq >= entry.seq:
                problems.append(
                    (entry.seq, 3, "erasure entry mismatch", f"{mismatch}, which comes after it")
                )
                continue
            if item.seq in named:
                problems.append(
                    (entry.seq, 3, "erasure entry mismatch",
                     f"{mismatch}, which the entry at episode {named[item.seq][0].seq} named")
                )  # fmt: skip
                continue
            named[item.seq] = (entry, item)
            ep = erased.get(item.seq)
            if ep is None and pending is not None:
                pending.append(item.seq)
                continue
            if ep is None:
                problems.append(
                    (entry.seq, 3, "erasure entry mismatch",
                     f"{mismatch}, whose body is still stored (an erasure cut short: asking "
                     "again finishes it)")
                )  # fmt: skip
                continue
            if (ep.commitment or ep.hash) != item.commitment:
                problems.append(
                    (entry.seq, 3, "erasure entry mismatch",
                     f"{mismatch} with a commitment the chain does not hold")
                )  # fmt: skip
            record = by_number.get(item.number)
            if record is None or record.seq != item.seq:
                problems.append(
                    (entry.seq, 3, "erasure entry mismatch",
                     f"{mismatch} as erasure record {item.number}, which is not that "
                     "episode's record")
                )  # fmt: skip
                continue
            said = (evidence.reason, evidence.requested_by, evidence.scope, entry.at)
            if (record.reason, record.requested_by, record.scope, record.at) != said:
                problems.append(
                    (record.seq, 0, "erasure record changed",
                     f"erasure record {record.number} no longer says what its entry (episode "
                     f"{entry.seq}) says: when, why, who asked or the scope was edited")
                )  # fmt: skip
    legacy = {r.number: r for r in pre_entry_records(entries, records)} if before_entries else {}
    legacy_seqs = {r.seq for r in legacy.values()}
    for record in records:
        found = named.get(record.seq)
        if (found is None or found[1].number != record.number) and record.number not in legacy:
            problems.append(
                (record.seq, 1, "erasure record without an entry",
                 f"erasure record {record.number} (episode {record.seq}, {record.scope}, "
                 f"{record.reason!r}) is named by no erasure entry in the chain: no erasure "
                 "wrote it")
            )  # fmt: skip
    for seq in erased:
        if seq not in named and seq not in legacy_seqs:
            problems.append(
                (seq, 2, "erased without an entry",
                 "its body is gone but no erasure entry in the chain names it")
            )  # fmt: skip
    if problems:
        seq, _, kind, detail = min(problems, key=lambda p: (p[0], p[1]))
        return seq, kind, detail
    if legacy:
        first = min(legacy.values(), key=lambda r: r.number)
        more = f"{len(legacy)} erasure records" if len(legacy) > 1 else "1 erasure record"
        return (
            first.seq,
            "erasure before entries",
            (
                f"{BEFORE_ENTRIES} ({more} without an entry, the first: record {first.number}, "
                f"episode {first.seq}, {first.scope}, {first.reason!r}, "
                f"{format_time(first.at)[:10]})"
            ),
        )
    return None


def verify(
    pair: Pair,
    episodes: Iterable[Episode],
    head: ChainHead | None,
    checkpoint: Checkpoint | None = None,
    *,
    erasures: Sequence[Erasure] = (),
    erasure_head: str | None = None,
    before_entries: bool = False,
    erasing: bool = False,
) -> ChainReport:
    """Recompute a chain from its stored rows (ascending by seq) and report the first break.

    Checked at every position, in this order: a sequence number skipped (gap), a stored link
    that is not the previous episode's hash (link broken), a stored hash that the content no
    longer produces (content changed; version 2: the body against its commitment, the envelope
    against the hash; an erased episode: its envelope, and its erasure record). Then the head
    row must name the last episode (else the tail is missing), the erasure records must form
    their chain up to the head's, every erasure must match its entry in the chain
    (:func:`_check_entries`), and a checkpoint, if given, must be a link of the chain.

    ``before_entries``: no checkpoint of this chain was ever anchored, so it may hold erasures
    made before entries were kept (reported as such, after every other check has passed).
    ``erasing``: a worker is erasing the pair now (its mark, ``worker_on_it``): the bodies its
    entries name and it has not reached are counted (``ChainReport.pending``), not a break, and
    so is a body that reads as none (its student's key shredded: a student's erasure shreds
    first, then erases) whose envelope still gives its hash; every other check stands.
    """
    expected_seq, prev, count, erased, erased_v1 = 1, GENESIS_HASH, 0, 0, 0
    hashes: dict[int, str] = {}
    ids: dict[int, str] = {}
    erased_eps: dict[int, Episode] = {}
    entries: list[Episode] = []
    records = {r.seq: r for r in erasures}
    bad_records = _check_erasures(pair, erasures, erasure_head)

    unread = 0  # bodies no longer readable while a worker erases them (``erasing``)

    def broken(seq: int, kind: BreakKind, detail: str) -> ChainReport:
        return ChainReport(pair, False, count, prev, seq, kind, detail)

    for ep in episodes:
        if ep.seq != expected_seq:
            if ep.seq < expected_seq:
                return broken(ep.seq, "link broken", f"sequence {ep.seq} appears twice")
            return broken(
                expected_seq,
                "gap",
                f"episode {expected_seq} is missing (the next stored one is {ep.seq})",
            )
        if ep.pair != pair:
            return broken(ep.seq, "content changed", f"the row belongs to pair {ep.pair}")
        if ep.prev_hash != prev:
            return broken(
                ep.seq, "link broken", "its stored link does not match the previous episode's hash"
            )
        if bad_records is not None and bad_records[0] <= ep.seq:
            return broken(bad_records[0], "erasure record changed", bad_records[1])
        problem = _check_body(ep, records)
        if problem is not None and erasing and _shredded_in_place(ep, records):
            unread, problem = unread + 1, None
        if problem is not None:
            return broken(ep.seq, *problem)
        if ep.episode_id != episode_id(ep.seq, ep.hash):
            return broken(
                ep.seq,
                "content changed",
                f"its id {ep.episode_id!r} is not the id its hash gives "
                f"({episode_id(ep.seq, ep.hash)!r})",
            )
        if ep.erased:
            erased += 1
            erased_v1 += ep.chain_version == 1
            erased_eps[ep.seq] = ep
        elif ep.kind in SYSTEM_KINDS:
            entries.append(ep)
        hashes[ep.seq] = ep.hash
        ids[ep.seq] = ep.episode_id
        prev, count, expected_seq = ep.hash, count + 1, expected_seq + 1
    if bad_records is not None:
        return broken(bad_records[0], "erasure record changed", bad_records[1])
    stray = sorted(seq for seq in records if seq > count)
    if stray:
        return broken(stray[0], "erasure record changed", "an erasure record names no episode")
    head_seq = head.seq if head else 0
    if head_seq > count:
        return broken(
            count + 1,
            "missing",
            f"the head records {head_seq} episodes but the log ends at {count}",
        )
    if head_seq < count:
        return broken(
            head_seq + 1,
            "link broken",
            f"episode {head_seq + 1} lies beyond the head, which records {head_seq} episodes",
        )
    if head is not None and head.hash != prev:
        return broken(
            head_seq, "link broken", "the head's hash is not the hash of the log's last episode"
        )
    pending: list[int] | None = [] if erasing else None
    unmatched = _check_entries(
        entries, erased_eps, erasures, before_entries=before_entries, pending=pending
    )
    if unmatched is not None and unmatched[1] != "erasure before entries":
        return broken(*unmatched)
    if checkpoint is not None:
        if checkpoint.pair != pair:
            return broken(
                checkpoint.seq, "checkpoint mismatch", "the checkpoint is for another pair"
            )
        if checkpoint.seq > count:
            return broken(
                checkpoint.seq,
                "checkpoint mismatch",
                f"the checkpoint covers {checkpoint.seq} episodes but the log has {count}",
            )
        if checkpoint.seq > 0 and hashes.get(checkpoint.seq) != checkpoint.head_hash:
            first = next(
                (seq for seq, kept in enumerate(checkpoint.ids, start=1) if ids.get(seq) != kept),
                None,
            )
            if first is not None:
                return broken(
                    first,
                    "checkpoint mismatch",
                    f"episode {first} is not the one the checkpoint recorded (it was "
                    f"{checkpoint.ids[first - 1]}, it is now {ids.get(first)}): history was "
                    "rewritten from here",
                )
            return broken(
                checkpoint.seq,
                "checkpoint mismatch",
                "the chain no longer passes through the checkpoint's hash: history was rewritten",
            )
    if unmatched is not None:  # erasures made before entries were kept, and nothing else
        return broken(*unmatched)
    return ChainReport(
        pair,
        True,
        count,
        prev,
        erased=erased,
        erased_v1=erased_v1,
        erasures=summarise_erasures(erasures),
        entries=len(entries),
        checkpoint_seq=None if checkpoint is None else checkpoint.seq,
        checkpoint_at=None if checkpoint is None else checkpoint.at,
        pending=len(pending or ()) + unread,
    )
