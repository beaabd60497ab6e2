"""The cloud store: DynamoDB through pynamodb.

Table design — one table, every item of a pair under one partition key:

====================================  ============================================================
``pk``                                ``sk``  → item
====================================  ============================================================
``PAIR#<student>#<subject>``          ``EP#<seq, 10 digits>`` → an episode (fields as in SQLite)
``PAIR#<student>#<subject>``          ``HEAD`` → the chain head: seq, hash, time
``PAIR#<student>#<subject>``          ``IDEM#<idempotency key>`` → the seq that key wrote
``PAIR#<student>#<subject>``          ``ANN#<episode id>#<time>#<kind>#<8 hex>`` → an annotation
``PAIR#<student>#<subject>``          ``FILE#<file id>`` → a file: name, removed at, versions
``PAIR#<student>#<subject>``          ``FVER#<file id>#<version, 6 digits>`` → one version
``PAIR#<student>#<subject>``          ``CON#<concept key>#<seq, 10 digits>`` → an episode touches it
``PAIR#<student>#<subject>``          ``CNAME#<concept key>`` → the name it was first written as
``PAIR#<student>#<subject>``          ``MAP`` → the concept map: version, zlib-compressed JSON
``PAIR#<student>#<subject>``          ``BEL#<belief id>`` → a belief row (fields as in SQLite)
``PAIR#<student>#<subject>``          ``CITE#<state>#<seq, 10 digits>`` → an answer in the
                                      verification queue; state ``0`` never checked, else the
                                      time it was last checked, ``~#<time>`` final (unverifiable)
``PAIR#<student>#<subject>``          ``ERASE#<number, 10 digits>`` → an erasure record (JSON)
``PAIR#<student>#<subject>``          ``DOC#<name>`` → a small JSON document: version, body
                                      (the nightly scan state, working set, self-model, a
                                      ``night:<day>`` marker per finished night, and
                                      ``purge-pending`` while an erasure waits for the night's
                                      purge of the search index)
``ACTIVE#<UTC day>#<shard, 0-7>``     ``PAIR#<student>#<subject>`` → the pair was active that
                                      day, or has a purge pending for that night (expires after
                                      ``ACTIVITY_TTL_DAYS``: ``expires_at``)
====================================  ============================================================

With ``TUTOR_MEMORY_KMS_KEY_ID``, a second table (``TUTOR_MEMORY_KEYS_TABLE``, no backups) holds
one item per student, ``STUDENT#<student>`` / ``KEY``: the student's data key wrapped by KMS,
under which episode bodies are sealed (see ``student_keys``).

Why: a pair is the unit of every read and write, so a pair's items are one item collection —
every read is a ``Query`` on one key (no read can reach another pair), the chain reads in order
by its sort key (ascending for replays, descending with a limit for "recent"), and an append is
one ``TransactWriteItems`` inside one partition. A sparse global secondary index ``by_time``
(``pk``, ``at_seq`` = ``<time>#<seq>``, episodes only, all attributes) serves the recent pool
and time windows newest first. Episode ids carry their sequence
(``e<seq>-<hash>``), so a lookup by id is a ``GetItem`` with no index. There is no LSI (it
would cap a pair at 10 GB).

The nightly loop needs two lookups that must not read every item: *which pairs were active on a
day* and *which answers to verify next*. ``ACTIVE#`` items are the only ones outside a pair's
partition: the nightly scheduler queries each day's shards (a pair's shard is a stable hash, so
one busy day spreads over several keys instead of one hot one) and learns only pair ids. The
``CITE#`` sort key is the queue's order — never checked first, then oldest checked — so a
night's batch is one ``Query`` with a limit; checking an entry moves it (delete and put, with
the annotation, in one transaction).

Append: read the head (strongly consistent), seal the episode against it, then one transaction
puts the episode (``attribute_not_exists``), puts the head under a condition on the sequence it
was read at, with an idempotency key puts ``IDEM#key`` (``attribute_not_exists``), and links
the episode's concepts (``CON#``, ``CNAME#``), queues an answer (``CITE#0#``) and, for the
first episode of a pair on a UTC day, marks the day active (``ACTIVE#``; a later episode of the
same day finds the head on that day, whose own append already marked it) — at most 69 items
with 32 concepts, within the transaction limit of 100 (one more, a check that the student's
data key is still the one the body was sealed under, when bodies are encrypted). A lost
race cancels the whole transaction; we re-read and retry with full-jitter backoff, and give up
with :class:`ContentionError` after ``APPEND_MAX_ATTEMPTS``. Nothing is half-written.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Final, Protocol, TypeVar

from pynamodb.attributes import BinaryAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.connection import Connection
from pynamodb.exceptions import PutError, PynamoDBException, TransactWriteError, UpdateError
from pynamodb.expressions.update import Action
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.records import (
    annotation_from_record,
    annotation_to_record,
    episode_from_record,
    episode_to_record,
    map_from_blob,
    map_to_blob,
)
from tutor_memory.adapters.student_keys import (
    KEY_SK,
    DataKey,
    ShreddedError,
    StudentKeys,
    key_pk,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.beliefs import (
    Belief,
    belief_from_record,
    belief_to_record,
    chronological,
)
from tutor_memory.domain.chain import (
    ChainHead,
    Erasure,
    ErasureScope,
    erase,
    erased_from,
    erasure_record,
    format_time,
    head_of,
    new_salt,
    parse_time,
    salt_for,
    seal,
    seq_of_id,
)
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair, erased_key_digest
from tutor_memory.domain.errors import ConflictError, ContentionError, NotFoundError, StoreError
from tutor_memory.domain.files import FileRecord, FileVersion
from tutor_memory.domain.nightly import activity_shard, utc_day, utc_days
from tutor_memory.domain.routing import ConceptVectors
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import AppendResult, StoredDocument

EPISODE_FIELDS = (
    "student_id", "subject_id", "seq", "episode_id", "kind", "at", "summary", "text", "concepts",
    "salience", "evidence", "recalled_ids", "ref", "idempotency_key", "prev_hash", "hash",
    "request_hash", "chain_version", "salt", "commitment", "erased",
)  # fmt: skip


SEALED_FIELDS: Final = ("text", "summary", "evidence", "concepts")  # what the commitment covers
EMPTY_BODY: Final = {"text": "", "summary": "", "evidence": "{}", "concepts": "[]"}


def pair_key(pair: Pair) -> str:
    return f"PAIR#{pair.student_id}#{pair.subject_id}"


_T = TypeVar("_T")
BATCH_GET_KEYS: Final = 100  # DynamoDB's BatchGetItem limit
_IO_THREADS: Final = 16  # requests of one read in flight at once (ours)
_io: ThreadPoolExecutor | None = None
_io_lock = threading.Lock()


class Together(Protocol):
    """How a store sends independent requests at once and waits for all (``together``)."""

    def __call__(self, calls: Sequence[Callable[[], _T]], /) -> list[_T]: ...


def together(calls: Sequence[Callable[[], _T]]) -> list[_T]:
    """Run independent requests at once and wait for all: one wait instead of one per call
    (a turn's cloud path has a budget of three sequential waits). botocore clients are
    thread-safe; the pool is made on first use, never at import."""
    global _io
    if len(calls) <= 1:
        return [call() for call in calls]
    if _io is None:
        with _io_lock:
            if _io is None:
                _io = ThreadPoolExecutor(max_workers=_IO_THREADS, thread_name_prefix="dynamo")
    return list(_io.map(lambda call: call(), calls))


def episode_sk(seq: int) -> str:
    return f"EP#{seq:010d}"


class Models:
    """The pynamodb models bound to one table (names come from settings, not from import time)."""

    def __init__(
        self,
        table_name: str,
        region: str,
        host: str | None = None,
        *,
        keys_table: str | None = None,
    ) -> None:
        keys_meta: Any = type(
            "Meta",
            (),
            {
                "table_name": keys_table or f"{table_name}-keys",
                "region": region,
                "host": host,
                "billing_mode": "PAY_PER_REQUEST",
            },
        )
        meta: Any = type(
            "Meta",
            (),
            {
                "table_name": table_name,
                "region": region,
                "host": host,
                "billing_mode": "PAY_PER_REQUEST",
            },
        )

        class Item(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)

        class ByTime(GlobalSecondaryIndex[Any]):  # type: ignore[no-untyped-call]
            class Meta:
                index_name = "by_time"
                projection = AllProjection()

            pk = UnicodeAttribute(hash_key=True)
            at_seq = UnicodeAttribute(range_key=True)

        class EpisodeItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            at_seq = UnicodeAttribute()
            by_time = ByTime()
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            seq = NumberAttribute()
            episode_id = UnicodeAttribute()
            kind = UnicodeAttribute()
            at = UnicodeAttribute()
            summary = UnicodeAttribute()
            text = UnicodeAttribute()
            concepts = UnicodeAttribute()
            salience = NumberAttribute()
            evidence = UnicodeAttribute()
            recalled_ids = UnicodeAttribute()
            ref = UnicodeAttribute(null=True)
            idempotency_key = UnicodeAttribute(null=True)
            request_hash = UnicodeAttribute(null=True)
            prev_hash = UnicodeAttribute()
            hash = UnicodeAttribute()
            chain_version = NumberAttribute(null=True)  # absent: chain v1
            salt = UnicodeAttribute(null=True)
            commitment = UnicodeAttribute(null=True)
            erased = NumberAttribute(null=True)
            # With a KMS key: text, summary, evidence and concepts sealed under the student's
            # data key (the plain attributes then hold empty values); see student_keys.
            sealed = BinaryAttribute(null=True, legacy_encoding=False)

        class HeadItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True, default="HEAD")
            seq = NumberAttribute()
            hash = UnicodeAttribute()
            at = UnicodeAttribute()
            counts = UnicodeAttribute(null=True)  # JSON: episodes per kind
            erasure_head = UnicodeAttribute(null=True)  # the last erasure record's digest

        class ErasureItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            body = UnicodeAttribute()

        class IdempotencyItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()

        class AnnotationItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            episode_id = UnicodeAttribute()
            kind = UnicodeAttribute()
            value = UnicodeAttribute()
            at = UnicodeAttribute()
            detail = UnicodeAttribute(null=True)

        class FileItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            file_id = UnicodeAttribute()
            name = UnicodeAttribute()
            versions = NumberAttribute()
            removed_at = UnicodeAttribute(null=True)

        class ConceptLinkItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()
            at = UnicodeAttribute()

        class ConceptNameItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            name = UnicodeAttribute()

        class BeliefItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            belief_id = UnicodeAttribute()
            concept_key = UnicodeAttribute()
            concept_name = UnicodeAttribute()
            claim = UnicodeAttribute()
            confidence = NumberAttribute()
            evidence_ids = UnicodeAttribute()
            created_at = UnicodeAttribute()
            rule_version = NumberAttribute()
            reason = UnicodeAttribute()
            needs_confirmation = NumberAttribute()
            generation = NumberAttribute()
            superseded_by = UnicodeAttribute(null=True)
            retired_at = UnicodeAttribute(null=True)

        class MapItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True, default="MAP")
            version = NumberAttribute()
            body = BinaryAttribute(legacy_encoding=False)

        class FileVersionItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()
            fingerprint = UnicodeAttribute()
            at = UnicodeAttribute()

        class ActivityItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            expires_at = NumberAttribute()  # epoch seconds: the table's TTL attribute

        class CitationItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()
            episode_id = UnicodeAttribute()
            checked_at = UnicodeAttribute(null=True)
            value = UnicodeAttribute(null=True)

        class StudentKeyItem(Model):  # in the keys table, which has no backups
            Meta = keys_meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            key_id = UnicodeAttribute()
            wrapped = BinaryAttribute(legacy_encoding=False)  # KMS ciphertext of the data key
            created_at = UnicodeAttribute()

        class DocumentItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()
            body = UnicodeAttribute()

        self.Item = Item
        self.Activity = ActivityItem
        self.Citation = CitationItem
        self.Document = DocumentItem
        self.Episode = EpisodeItem
        self.Head = HeadItem
        self.Idempotency = IdempotencyItem
        self.Annotation = AnnotationItem
        self.File = FileItem
        self.FileVersion = FileVersionItem
        self.ConceptLink = ConceptLinkItem
        self.ConceptName = ConceptNameItem
        self.Map = MapItem
        self.Belief = BeliefItem
        self.Erasure = ErasureItem
        self.StudentKey = StudentKeyItem


class DynamoStore:
    """:class:`tutor_memory.ports.EpisodeStore` on DynamoDB (see the module doc for the design)."""

    def __init__(
        self,
        table_name: str,
        region: str,
        host: str | None = None,
        *,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] = time.sleep,
        kms_key_id: str | None = None,
        keys_table: str | None = None,
        kms: Any = None,
    ) -> None:
        self.models = Models(table_name, region, host, keys_table=keys_table)
        # Bodies encrypted under per-student data keys (crypto-shredding) when a KMS key is
        # given; without one they are stored as plain attributes (both read back alike).
        self.keys = (
            StudentKeys(self.models.StudentKey, kms_key_id, region, kms=kms) if kms_key_id else None
        )
        self._connection = Connection(region=region, host=host)
        self._rng = rng or random.Random(0)
        self._sleep = sleep
        # Threads of one process append to a pair one at a time: they would only waste round
        # trips beating each other. Other processes (other Lambdas) are held off by the
        # transaction's conditions; `conflicts` counts how often one of those cancelled us.
        self._pair_locks: dict[Pair, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.conflicts = 0
        # Sends the independent requests of one read at once (a turn's cloud path has a budget
        # of three sequential waits); replaceable, so the cloud-cost bench can follow which
        # waits overlap without patching this module.
        self.together: Together = together

    def create_table(self) -> None:
        """Create the table if it is missing (tests and local runs; the template owns it in AWS)."""
        try:
            # the episode model carries the by_time index, so it creates the table
            if not self.models.Episode.exists():
                self.models.Episode.create_table(wait=True)
            if self.keys is not None and not self.models.StudentKey.exists():
                self.models.StudentKey.create_table(wait=True)
        except PynamoDBException as exc:
            raise StoreError(
                f"cannot create table {self.models.Item.Meta.table_name}: {exc}"
            ) from exc

    # --- episodes ---------------------------------------------------------------------------

    def append(self, new: NewEpisode) -> AppendResult:
        with self._locks_guard:
            lock = self._pair_locks.setdefault(new.pair, threading.Lock())
        with lock:
            return self._append(new)

    def _append(self, new: NewEpisode) -> AppendResult:
        pk = pair_key(new.pair)
        if new.idempotency_key is not None:
            existing = self._by_idempotency_key(new.pair, new.idempotency_key)
            if existing is not None:
                return AppendResult(existing, created=False)
        head = self._head_for_append(new.pair)
        for attempt in range(C.APPEND_MAX_ATTEMPTS):
            episode = seal(new, head, salt=salt_for(new, head) or new_salt())
            try:
                self._commit_append(pk, episode, head)
                return AppendResult(episode, created=True)
            except TransactWriteError as exc:
                if not _is_condition_failure(exc):
                    raise StoreError(f"append failed for {new.pair}: {exc}") from exc
                self.conflicts += 1
                reasons = exc.cancellation_reasons
                if self.keys is not None:
                    # pynamodb sends condition checks before puts: the key check is first.
                    if _failed(reasons, 0):
                        # The student's key was shredded (or replaced) since this process
                        # read it: the next attempt reads (or makes) the current one.
                        self.keys.forget(new.pair.student_id)
                    reasons = reasons[1:]
                if new.idempotency_key is not None and _failed(reasons, _IDEM_SLOT):
                    existing = self._by_idempotency_key(new.pair, new.idempotency_key)
                    if existing is not None:
                        return AppendResult(existing, created=False)
                # The cancelled head put returns the head that won (ALL_OLD): no re-read needed.
                head = self._head_from_reason(new.pair, reasons) or self._head_for_append(new.pair)
            backoff = min(C.APPEND_BACKOFF_CAP_S, C.APPEND_BACKOFF_BASE_S * 2**attempt)
            self._sleep(self._rng.uniform(0, backoff))
        raise ContentionError(
            f"gave up appending to {new.pair} after {C.APPEND_MAX_ATTEMPTS} conflicting attempts; "
            "nothing was written, retry later"
        )

    def append_sealed(self, episode: Episode) -> AppendResult:
        """Append an episode sealed elsewhere (a replayed export's erased envelope, see
        ``chain.envelope_episode``): it must link to the current head."""
        head = self.head(episode.pair)
        if episode.seq != (head.seq if head else 0) + 1 or episode.prev_hash != (
            head.hash if head else "0" * 64
        ):
            raise ConflictError(f"episode {episode.seq} does not follow the head of {episode.pair}")
        try:
            self._commit_append(pair_key(episode.pair), episode, head)
        except TransactWriteError as exc:
            raise ConflictError(f"{episode.pair} changed during the append: {exc}") from exc
        return AppendResult(episode, created=True)

    def _head_for_append(self, pair: Pair) -> ChainHead | None:
        """The head an append seals against (a seam where tests simulate a racing writer)."""
        return self.head(pair)

    def _head_from_reason(self, pair: Pair, reasons: list[Any]) -> ChainHead | None:
        reason = reasons[_HEAD_SLOT] if len(reasons) > _HEAD_SLOT else None
        raw = getattr(reason, "raw_item", None)
        if not raw or "seq" not in raw:
            return None
        return ChainHead(
            pair=pair,
            seq=int(raw["seq"]["N"]),
            hash=raw["hash"]["S"],
            at=parse_time(raw["at"]["S"]),
            counts=json.loads(raw.get("counts", {}).get("S", "{}")),
            erasure_head=raw.get("erasure_head", {}).get("S"),
        )

    def _commit_append(self, pk: str, episode: Episode, head: ChainHead | None) -> None:
        """One transaction; the order of the puts is fixed (see the ``_…_SLOT`` constants)."""
        m = self.models
        record = episode_to_record(episode)
        data_key = (
            None if self.keys is None else self.keys.key(episode.pair.student_id, create=True)
        )
        stored = self._seal(pk, episode_sk(episode.seq), record, data_key)
        with TransactWrite(connection=self._connection) as tx:
            tx.save(
                m.Episode(pk, episode_sk(episode.seq), at_seq=_at_seq(episode), **stored),
                condition=m.Episode.sk.does_not_exist(),
            )
            counts = json.dumps(dict(head_of(episode, head).counts), sort_keys=True)
            # The head item also keeps the erasure records' last digest: the put carries it on
            # (a put without it would make every earlier erasure read as tampered), and is
            # conditioned on it too, so an erasure in between makes this append retry.
            kept = head.erasure_head if head is not None else None
            head_item = m.Head(
                pk, "HEAD", seq=episode.seq, hash=episode.hash, at=record["at"], counts=counts,
                erasure_head=kept,
            )  # fmt: skip
            head_condition = (
                m.Head.sk.does_not_exist()
                if head is None
                else (m.Head.seq == head.seq)
                & (
                    m.Head.erasure_head.does_not_exist()
                    if kept is None
                    else m.Head.erasure_head == kept
                )
            )
            tx.save(head_item, condition=head_condition, return_values="ALL_OLD")
            if episode.idempotency_key is not None:
                tx.save(
                    m.Idempotency(pk, f"IDEM#{episode.idempotency_key}", seq=episode.seq),
                    condition=m.Idempotency.sk.does_not_exist(),
                )
            for key, name in _concept_keys(episode).items():
                tx.save(
                    m.ConceptLink(
                        pk, f"CON#{key}#{episode.seq:010d}", seq=episode.seq, at=record["at"]
                    )
                )
                tx.update(
                    m.ConceptName(pk, f"CNAME#{key}"),
                    actions=[m.ConceptName.name.set(m.ConceptName.name | name)],
                )
            if episode.kind is Kind.ANSWER:
                tx.save(
                    m.Citation(
                        pk, _citation_sk("0", episode.seq), seq=episode.seq,
                        episode_id=episode.episode_id,
                    )
                )  # fmt: skip
            if head is None or utc_day(head.at) != utc_day(episode.at):
                tx.save(_activity_item(m, episode.pair, episode.at))
            if data_key is not None:  # sent first (pynamodb: condition checks, then puts)
                tx.condition_check(
                    m.StudentKey,
                    key_pk(episode.pair.student_id),
                    KEY_SK,
                    condition=m.StudentKey.key_id == data_key.key_id,
                )

    def _seal(
        self, pk: str, sk: str, record: dict[str, Any], key: DataKey | None
    ) -> dict[str, Any]:
        """The record as stored: with a key, the body fields sealed into ``sealed``."""
        if key is None or self.keys is None:
            return record
        body = {name: record[name] for name in SEALED_FIELDS}
        plain = json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return {
            **record,
            **EMPTY_BODY,
            "sealed": self.keys.seal(key, plain, f"{pk}|{sk}"),
        }

    def _episode(self, item: Any) -> Episode:
        """An item as an episode, its body opened. A body whose key is shredded (the student
        is being erased) reads as none: verification then reports it, erasure finishes it."""
        row = {name: getattr(item, name) for name in EPISODE_FIELDS}
        sealed = getattr(item, "sealed", None)
        if sealed is None:
            return episode_from_record(row)
        if self.keys is None:
            raise StoreError(
                f"episode {item.sk} of {item.pk} is encrypted and no KMS key is configured "
                "(TUTOR_MEMORY_KMS_KEY_ID)"
            )
        try:
            body = json.loads(
                self.keys.open(row["student_id"], bytes(sealed), f"{item.pk}|{item.sk}")
            )
        except ShreddedError:
            unread = episode_from_record({**row, **EMPTY_BODY, "erased": 1})
            return replace(unread, erased=bool(row.get("erased")))
        return episode_from_record({**row, **body})

    def by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        return self._by_idempotency_key(pair, key)

    def erased_key(self, pair: Pair, digest: str) -> datetime | None:
        """The erased key's item names the episode; its erasure record says when."""
        m = self.models
        try:
            item = m.Idempotency.get(pair_key(pair), f"{ERASED_KEY}{digest}", consistent_read=True)
        except m.Idempotency.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        records, _ = self.erasures(pair)
        return next((r.at for r in records if r.seq == int(item.seq)), None)

    def _by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        try:
            item = self.models.Idempotency.get(pair_key(pair), f"IDEM#{key}", consistent_read=True)
        except self.models.Idempotency.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return self._episode_at(pair, int(item.seq))

    def _episode_at(self, pair: Pair, seq: int) -> Episode | None:
        try:
            item = self.models.Episode.get(pair_key(pair), episode_sk(seq), consistent_read=True)
        except self.models.Episode.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return self._episode(item)

    def head(self, pair: Pair) -> ChainHead | None:
        try:
            item = self.models.Head.get(pair_key(pair), "HEAD", consistent_read=True)
        except self.models.Head.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return ChainHead(
            pair=pair,
            seq=int(item.seq),
            hash=item.hash,
            at=parse_time(item.at),
            counts=json.loads(item.counts or "{}"),
            erasure_head=item.erasure_head,
        )

    def get(self, pair: Pair, episode_id: str) -> Episode | None:
        seq = seq_of_id(episode_id)
        if seq is None:
            return None
        episode = self._episode_at(pair, seq)
        return episode if episode is not None and episode.episode_id == episode_id else None

    def _query_episodes(
        self, pair: Pair, condition: Any, *, forward: bool, limit: int | None
    ) -> list[Episode]:
        try:
            items = self.models.Episode.query(
                pair_key(pair),
                condition,
                consistent_read=True,
                scan_index_forward=forward,
                limit=limit,
                page_size=min(limit or 500, 500),
            )
            return [self._episode(item) for item in items]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def episodes(
        self, pair: Pair, *, after_seq: int = 0, limit: int | None = None
    ) -> list[Episode]:
        condition = self.models.Episode.sk.between(
            episode_sk(after_seq + 1), episode_sk(10**10 - 1)
        )
        return self._query_episodes(pair, condition, forward=True, limit=limit)

    def iter_episodes(self, pair: Pair, *, page_size: int = 500) -> Iterator[Episode]:
        after = 0
        while True:
            page = self.episodes(pair, after_seq=after, limit=page_size)
            yield from page
            if len(page) < page_size:
                return
            after = page[-1].seq

    def recent(self, pair: Pair, limit: int, window: TimeWindow | None = None) -> list[Episode]:
        m = self.models.Episode
        span = (
            m.at_seq.between(format_time(window.start), format_time(window.end)) if window else None
        )
        try:
            items = m.by_time.query(
                pair_key(pair),
                span,
                scan_index_forward=False,
                limit=limit,
                page_size=min(limit, 500),
            )
            episodes = [self._episode(item) for item in items]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        # `between` is inclusive; a window is half-open
        return [e for e in episodes if window is None or e.at in window]

    def get_many(self, pair: Pair, episode_ids: Sequence[str]) -> list[Episode]:
        wanted = {i: s for i in episode_ids if (s := seq_of_id(i)) is not None}
        if not wanted:
            return []
        found = {
            e.episode_id: e for e in self._batch_get(pair, list(dict.fromkeys(wanted.values())))
        }
        return [found[i] for i in episode_ids if i in found]

    def _batch_get(self, pair: Pair, seqs: Sequence[int]) -> list[Episode]:
        """The episodes at these sequences, in BatchGetItem requests of 100 sent together."""
        keys = [(pair_key(pair), episode_sk(s)) for s in seqs]
        chunks = [keys[i : i + BATCH_GET_KEYS] for i in range(0, len(keys), BATCH_GET_KEYS)]

        def read(chunk: list[tuple[str, str]]) -> Callable[[], list[Episode]]:
            return lambda: [self._episode(item) for item in self.models.Episode.batch_get(chunk)]

        try:
            return [e for part in self.together([read(c) for c in chunks]) for e in part]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def touching(
        self,
        pair: Pair,
        concept_keys: Sequence[str],
        window: TimeWindow | None = None,
        *,
        newest: int | None = None,
    ) -> list[Episode]:
        m = self.models.ConceptLink
        span = None
        if window is not None:  # half-open, as a TimeWindow is
            span = (m.at >= format_time(window.start)) & (m.at < format_time(window.end))

        def links(key: str) -> Callable[[], list[int]]:
            # The sort key ends in the 10-digit sequence: a descending Query with a limit
            # reads the concept's newest links only.
            return lambda: [
                int(link.seq)
                for link in m.query(
                    pair_key(pair),
                    m.sk.startswith(f"CON#{key}#"),
                    filter_condition=span,
                    scan_index_forward=False,
                    limit=newest,
                    page_size=min(newest, 1000) if newest else None,
                )
            ]

        try:  # one Query per concept, sent together; then the episodes, together
            found = self.together([links(key) for key in dict.fromkeys(concept_keys)])
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        seqs = sorted({seq for part in found for seq in part})
        return sorted(self._batch_get(pair, seqs), key=lambda e: e.seq)

    def concept_names(self, pair: Pair) -> dict[str, str]:
        m = self.models.ConceptName
        try:
            items = m.query(pair_key(pair), m.sk.startswith("CNAME#"))
            return {item.sk.removeprefix("CNAME#"): item.name for item in items}
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    # --- annotations ------------------------------------------------------------------------

    def annotate(self, annotation: Annotation) -> None:
        record = annotation_to_record(annotation)
        try:
            self.models.Annotation(
                pair_key(annotation.pair), _annotation_sk(record), **record
            ).save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def annotations(self, pair: Pair, episode_id: str) -> list[Annotation]:
        m = self.models.Annotation
        try:
            items = m.query(
                pair_key(pair), m.sk.startswith(f"ANN#{episode_id}#"), consistent_read=True
            )
            return [
                annotation_from_record({name: getattr(item, name) for name in _ANNOTATION_FIELDS})
                for item in items
            ]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    # --- files ------------------------------------------------------------------------------

    def register_file(
        self, pair: Pair, file_id: str, name: str, fingerprint: str, at: datetime
    ) -> tuple[FileRecord, bool]:
        m, pk = self.models, pair_key(pair)
        for attempt in range(C.APPEND_MAX_ATTEMPTS):
            current = self.file(pair, file_id)
            if (
                current is not None
                and not current.removed
                and current.current.fingerprint == fingerprint
            ):
                return current, False
            version = 1 if current is None else current.current.version + 1
            try:
                with TransactWrite(connection=self._connection) as tx:
                    tx.save(
                        m.File(pk, f"FILE#{file_id}", file_id=file_id, name=name, versions=version),
                        condition=(
                            m.File.sk.does_not_exist()
                            if current is None
                            else m.File.versions == version - 1
                        ),
                    )
                    tx.save(
                        m.FileVersion(
                            pk,
                            f"FVER#{file_id}#{version:06d}",
                            version=version,
                            fingerprint=fingerprint,
                            at=format_time(at),
                        ),
                        condition=m.FileVersion.sk.does_not_exist(),
                    )
            except TransactWriteError as exc:
                if not _is_condition_failure(exc):
                    raise StoreError(f"registering {file_id} failed: {exc}") from exc
                self._sleep(self._rng.uniform(0, C.APPEND_BACKOFF_BASE_S * 2**attempt))
                continue
            record = self.file(pair, file_id)
            assert record is not None
            return record, True
        raise ContentionError(f"gave up registering {file_id} for {pair}: too many conflicts")

    def remove_file(self, pair: Pair, file_id: str, at: datetime) -> FileRecord:
        m = self.models.File
        try:
            item = m.get(pair_key(pair), f"FILE#{file_id}", consistent_read=True)
        except m.DoesNotExist:
            raise NotFoundError(f"no file {file_id!r} for {pair}") from None
        if item.removed_at is None:
            item.update(actions=[m.removed_at.set(format_time(at))])
        record = self.file(pair, file_id)
        assert record is not None
        return record

    def file(self, pair: Pair, file_id: str) -> FileRecord | None:
        m = self.models
        try:
            item = m.File.get(pair_key(pair), f"FILE#{file_id}", consistent_read=True)
        except m.File.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        versions = m.FileVersion.query(
            pair_key(pair), m.FileVersion.sk.startswith(f"FVER#{file_id}#"), consistent_read=True
        )
        return FileRecord(
            pair=pair,
            file_id=file_id,
            name=item.name,
            versions=tuple(
                FileVersion(int(v.version), v.fingerprint, parse_time(v.at)) for v in versions
            ),
            removed_at=parse_time(item.removed_at) if item.removed_at else None,
        )

    def files(self, pair: Pair) -> list[FileRecord]:
        m = self.models.File
        ids = [item.file_id for item in m.query(pair_key(pair), m.sk.startswith("FILE#"))]
        records = self.together([partial(self.file, pair, i) for i in sorted(ids)])
        return [r for r in records if r is not None]

    # --- the concept map --------------------------------------------------------------------

    def load_map(self, pair: Pair) -> ConceptMap:
        m = self.models.Map
        try:
            item = m.get(pair_key(pair), "MAP", consistent_read=True)
        except m.DoesNotExist:
            return ConceptMap()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return map_from_blob(bytes(item.body))

    def concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The routing vectors, read with the map (one row; they stay encoded until used)."""
        return self.load_map(pair).vectors

    def save_map(self, pair: Pair, cmap: ConceptMap) -> ConceptMap:
        m = self.models.Map
        saved = replace(cmap, version=cmap.version + 1)
        condition = m.sk.does_not_exist() if cmap.version == 0 else m.version == cmap.version
        try:
            m(pair_key(pair), "MAP", version=saved.version, body=map_to_blob(saved)).save(
                condition=condition
            )
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"the map of {pair} changed meanwhile (expected version {cmap.version}); "
                    "nothing was saved"
                ) from exc
            raise StoreError(str(exc)) from exc
        return saved

    # --- beliefs ----------------------------------------------------------------------------

    def _all_beliefs(self, pair: Pair) -> list[Belief]:
        m = self.models.Belief
        try:
            items = m.query(pair_key(pair), m.sk.startswith("BEL#"), consistent_read=True)
            return chronological(
                belief_from_record({name: getattr(i, name) for name in _BELIEF_FIELDS})
                for i in items
            )
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def beliefs(self, pair: Pair) -> list[Belief]:
        current = [b for b in self._all_beliefs(pair) if b.current]
        return sorted(current, key=lambda b: (b.concept_name.casefold(), b.concept_key))

    def belief_history(self, pair: Pair, concept_key: str) -> list[Belief]:
        return [b for b in self._all_beliefs(pair) if b.concept_key == concept_key]

    def add_belief(self, new: Belief, supersedes: Belief | None) -> None:
        m = self.models.Belief
        pk = pair_key(new.pair)
        try:
            with TransactWrite(connection=self._connection) as tx:
                tx.save(
                    m(pk, f"BEL#{new.belief_id}", **belief_to_record(new)),
                    condition=m.sk.does_not_exist(),
                )
                if supersedes is not None:
                    tx.update(
                        m(pk, f"BEL#{supersedes.belief_id}"),
                        actions=[m.superseded_by.set(new.belief_id)],
                        condition=m.sk.exists()
                        & m.superseded_by.does_not_exist()
                        & m.retired_at.does_not_exist(),
                    )
        except TransactWriteError as exc:
            if _is_condition_failure(exc):
                raise ConflictError(
                    f"belief {supersedes.belief_id if supersedes else new.belief_id} changed "
                    "meanwhile; nothing was written"
                ) from exc
            raise StoreError(str(exc)) from exc

    def retire_beliefs(self, pair: Pair, at: datetime) -> int:
        m = self.models.Belief
        retired = 0
        for belief in self.beliefs(pair):
            try:
                m(pair_key(pair), f"BEL#{belief.belief_id}").update(
                    actions=[m.retired_at.set(format_time(at))],
                    condition=m.superseded_by.does_not_exist() & m.retired_at.does_not_exist(),
                )
                retired += 1
            except UpdateError as exc:
                if exc.cause_response_code != "ConditionalCheckFailedException":
                    raise StoreError(str(exc)) from exc
        return retired

    def belief_generation(self, pair: Pair) -> int:
        return max((b.generation for b in self._all_beliefs(pair)), default=0)

    # --- the nightly loop -------------------------------------------------------------------

    def active_pairs(self, window: TimeWindow) -> list[Pair]:
        m = self.models.Activity
        found: set[Pair] = set()
        try:
            for day in utc_days(window):
                for shard in range(C.ACTIVITY_SHARDS):
                    for item in m.query(f"ACTIVE#{day}#{shard}"):
                        found.add(Pair(item.student_id, item.subject_id))
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return sorted(found)

    def mark_active(self, pair: Pair, at: datetime) -> None:
        try:
            _activity_item(self.models, pair, at).save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _citations(self, pair: Pair, condition: Any, limit: int | None = None) -> list[Any]:
        m = self.models.Citation
        try:
            return list(
                m.query(
                    pair_key(pair),
                    condition,
                    consistent_read=True,
                    limit=limit,
                    page_size=min(limit or 500, 500),
                )
            )
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def citations_due(self, pair: Pair, *, before: datetime, limit: int) -> list[CitationEntry]:
        if limit <= 0:
            return []
        # "CITE#0#…" (never checked) sorts before every "CITE#<time>#…", and an entry checked
        # at `before` ("CITE#<before>#…") after the inclusive upper bound: half-open, as asked.
        span = self.models.Citation.sk.between("CITE#0", f"CITE#{format_time(before)}")
        return [_citation(pair, i) for i in self._citations(pair, span, limit)]

    def citations_checked_at(self, pair: Pair, at: datetime) -> list[CitationEntry]:
        sk, when = self.models.Citation.sk, format_time(at)
        items = [
            *self._citations(pair, sk.startswith(f"CITE#{when}#")),
            *self._citations(pair, sk.startswith(f"CITE#~#{when}#")),  # final ones that night
        ]
        return sorted((_citation(pair, i) for i in items), key=lambda c: c.seq)

    def citations(self, pair: Pair) -> list[CitationEntry]:
        prefix = self.models.Citation.sk.startswith("CITE#")
        return [_citation(pair, i) for i in self._citations(pair, prefix)]

    def record_citation_check(
        self, entry: CitationEntry, annotation: Annotation, *, final: bool
    ) -> None:
        m, pk = self.models, pair_key(entry.pair)
        old = _citation_sk(format_time(entry.checked_at) if entry.checked_at else "0", entry.seq)
        record = annotation_to_record(annotation)
        new = _citation_sk(f"~#{record['at']}" if final else record["at"], entry.seq)
        if entry.final or new == old:
            raise ConflictError(f"the citation of {entry.episode_id} is already checked")
        try:
            with TransactWrite(connection=self._connection) as tx:
                tx.delete(m.Citation(pk, old), condition=m.Citation.sk.exists())
                tx.save(
                    m.Citation(
                        pk,
                        new,
                        seq=entry.seq,
                        episode_id=entry.episode_id,
                        checked_at=record["at"],
                        value=annotation.value,
                    ),
                    condition=m.Citation.sk.does_not_exist(),
                )
                tx.save(m.Annotation(pk, _annotation_sk(record), **record))
        except TransactWriteError as exc:
            if _is_condition_failure(exc):
                raise ConflictError(
                    f"the citation of {entry.episode_id} was checked meanwhile; nothing written"
                ) from exc
            raise StoreError(str(exc)) from exc

    def newest_touching(self, pair: Pair, concept_key: str, kind: Kind) -> Episode | None:
        m = self.models.ConceptLink
        page = 25  # ours: the newest few links usually hold the newest episode of a kind
        try:
            links = m.query(
                pair_key(pair),
                m.sk.startswith(f"CON#{concept_key}#"),
                scan_index_forward=False,
                page_size=page,
            )
            seqs: list[int] = []
            for link in links:
                seqs.append(int(link.seq))
                if len(seqs) == page:
                    found = self._newest_of_kind(pair, seqs, kind)
                    if found is not None:
                        return found
                    seqs = []
            return self._newest_of_kind(pair, seqs, kind) if seqs else None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _newest_of_kind(self, pair: Pair, seqs: list[int], kind: Kind) -> Episode | None:
        keys = [(pair_key(pair), episode_sk(s)) for s in seqs]
        episodes = [self._episode(i) for i in self.models.Episode.batch_get(keys)]
        of_kind = [e for e in episodes if e.kind is kind]
        return max(of_kind, key=lambda e: e.seq) if of_kind else None

    def document(self, pair: Pair, name: str) -> StoredDocument | None:
        m = self.models.Document
        try:
            item = m.get(pair_key(pair), f"DOC#{name}", consistent_read=True)
        except m.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return StoredDocument(name, int(item.version), json.loads(item.body))

    def put_document(
        self, pair: Pair, name: str, body: dict[str, Any], *, expected_version: int
    ) -> int:
        m = self.models.Document
        version = expected_version + 1
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        condition = (
            m.sk.does_not_exist() if expected_version == 0 else m.version == expected_version
        )
        try:
            m(pair_key(pair), f"DOC#{name}", version=version, body=text).save(condition=condition)
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"{name} of {pair} is no longer at version {expected_version}; "
                    "nothing was written"
                ) from exc
            raise StoreError(str(exc)) from exc
        return version

    # --- erasure (see `tutor_memory.usecases.erasure`) --------------------------------------------
    # One transaction per episode writes the erased item, its record and the head's erasure
    # digest (under a condition on the digest it read) and deletes its idempotency item; the
    # items about it beside the log (annotations, queue entries, concept links) are deleted
    # after, again on a retry, so an interrupted erasure finishes when asked again.

    def erasures(self, pair: Pair) -> tuple[list[Erasure], str | None]:
        m = self.models.Erasure
        try:
            items = m.query(pair_key(pair), m.sk.startswith("ERASE#"), consistent_read=True)
            records = [Erasure.from_dict(pair, json.loads(i.body)) for i in items]
            head = self.models.Head.get(pair_key(pair), "HEAD", consistent_read=True)
        except self.models.Head.DoesNotExist:
            return records, None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return records, head.erasure_head

    def erase(
        self,
        pair: Pair,
        seqs: Sequence[int],
        *,
        at: datetime,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
    ) -> list[Episode]:
        m, pk = self.models, pair_key(pair)
        records, prev = self.erasures(pair)
        number, prev = len(records), prev or "0" * 64
        done: list[Episode] = []
        for seq in sorted(set(seqs)):
            episode = self._episode_at(pair, seq)
            if episode is None:
                continue
            if episode.erased:
                self._erase_beside(pair, episode, episode.concepts)
                continue
            record = erasure_record(
                episode,
                number=number + 1,
                prev=prev,
                at=at,
                reason=reason,
                requested_by=requested_by,
                scope=scope,
            )
            gone = erase(episode)
            erased_condition = (
                m.Head.erasure_head.does_not_exist()
                if prev == "0" * 64
                else m.Head.erasure_head == prev
            )
            for _attempt in range(C.APPEND_MAX_ATTEMPTS):
                # The head's counts are of what the log still tells (an erased check is no
                # check recorded): moved with the body, under the head's place as read, so an
                # append in between makes this try again (its count is not lost).
                head = self.head(pair)
                if head is None:
                    raise StoreError(f"{pair} has episodes but no chain head")
                counts = json.dumps(erased_from(head.counts, [episode]), sort_keys=True)
                try:
                    with TransactWrite(connection=self._connection) as tx:
                        tx.save(
                            m.Episode(
                                pk, episode_sk(seq), at_seq=_at_seq(gone),
                                **episode_to_record(gone),
                            )
                        )  # fmt: skip
                        tx.save(
                            m.Erasure(
                                pk,
                                f"ERASE#{record.number:010d}",
                                body=json.dumps(record.to_dict()),
                            ),
                            condition=m.Erasure.sk.does_not_exist(),
                        )
                        tx.update(
                            m.Head(pk, "HEAD"),
                            actions=[
                                m.Head.erasure_head.set(record.digest),
                                m.Head.counts.set(counts),
                            ],
                            condition=erased_condition & (m.Head.seq == head.seq),
                        )
                        if episode.idempotency_key is not None:
                            # The key's item goes; its keyed hash (never its text) stays.
                            tx.delete(m.Idempotency(pk, f"IDEM#{episode.idempotency_key}"))
                            digest = erased_key_digest(pair, episode.idempotency_key)
                            tx.save(m.Idempotency(pk, f"{ERASED_KEY}{digest}", seq=seq))
                    break
                except TransactWriteError as exc:
                    if not _is_condition_failure(exc):
                        raise StoreError(str(exc)) from exc
                    if (self.head(pair) or head).erasure_head != (
                        None if prev == "0" * 64 else prev
                    ):
                        raise ConflictError(
                            f"{pair} was being erased meanwhile; ask again (nothing is lost)"
                        ) from exc
            else:
                raise ContentionError(f"{pair} kept being appended to while being erased")
            number, prev = record.number, record.digest
            self._erase_beside(pair, episode, episode.concepts)
            done.append(episode)
        return done

    def _erase_beside(self, pair: Pair, episode: Episode, names: Sequence[str]) -> None:
        m, pk = self.models, pair_key(pair)
        try:
            for ann in m.Annotation.query(
                pk, m.Annotation.sk.startswith(f"ANN#{episode.episode_id}#")
            ):
                ann.delete()
            for cite in m.Citation.query(pk, m.Citation.sk.startswith("CITE#")):
                if int(cite.seq) == episode.seq:
                    cite.delete()
            for ckey in {concept_key(n) for n in names} - {""}:
                m.ConceptLink(pk, f"CON#{ckey}#{episode.seq:010d}").delete()
                self._rename_concept(pair, ckey)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _rename_concept(self, pair: Pair, ckey: str) -> None:
        m, pk = self.models, pair_key(pair)
        first = next(
            iter(m.ConceptLink.query(pk, m.ConceptLink.sk.startswith(f"CON#{ckey}#"), limit=1)),
            None,
        )
        episode = self._episode_at(pair, int(first.seq)) if first is not None else None
        name = next(
            (n for n in episode.concepts if concept_key(n) == ckey) if episode else iter(()), None
        )
        if name is None:
            m.ConceptName(pk, f"CNAME#{ckey}").delete()
        else:
            m.ConceptName(pk, f"CNAME#{ckey}", name=name).save()

    def delete_beliefs_citing(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        wanted = set(episode_ids)
        doomed = [b for b in self._all_beliefs(pair) if wanted & set(b.evidence_ids)]
        try:
            for belief in doomed:
                self.models.Belief(pair_key(pair), f"BEL#{belief.belief_id}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return len(doomed)

    def delete_documents(self, pair: Pair, names: Sequence[str] | None = None) -> None:
        m, pk = self.models.Document, pair_key(pair)
        try:
            if names is None:
                for item in m.query(pk, m.sk.startswith("DOC#")):
                    item.delete()
            for name in names or ():
                m(pk, f"DOC#{name}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def forget_file_version(
        self, pair: Pair, file_id: str, fingerprint: str, *, name: str | None = None
    ) -> bool:
        m, pk = self.models, pair_key(pair)
        try:
            versions = list(
                m.FileVersion.query(
                    pk, m.FileVersion.sk.startswith(f"FVER#{file_id}#"), consistent_read=True
                )
            )
            doomed = [v for v in versions if v.fingerprint == fingerprint]
            for v in doomed:
                v.delete()
            left = [int(v.version) for v in versions if v.fingerprint != fingerprint]
            entry = m.File(pk, f"FILE#{file_id}")
            if not left:
                entry.delete()
            elif doomed:
                # The entry counts the newest version (register_file writes under it).
                actions: list[Action] = [m.File.versions.set(max(left))]
                if name is not None:
                    actions.append(m.File.name.set(name))
                entry.update(actions=actions)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return bool(doomed)

    def purge_pair(self, pair: Pair) -> None:
        """Every item of the pair but its episodes (erased: envelopes), head and erasure
        records: the map, beliefs, documents, files, annotations, queue, concepts, keys."""
        kept = ("EP#", "HEAD", "ERASE#", ERASED_KEY)
        try:
            for item in self.models.Item.query(pair_key(pair), consistent_read=True):
                if not item.sk.startswith(kept):
                    item.delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def pairs_of(self, student_id: str) -> list[Pair]:
        """Every pair of a student with a chain: a filtered scan of the heads (the table keeps
        no index by student; erasing a student is rare and reads it once)."""
        m = self.models.Head
        prefix = f"PAIR#{student_id}#"
        try:
            heads = m.scan((m.sk == "HEAD") & m.pk.startswith(prefix))
            subjects = sorted(h.pk.removeprefix(prefix) for h in heads)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return [Pair(student_id, s) for s in subjects]

    def compact(self) -> None:
        """Nothing to do: DynamoDB keeps no deleted item readable."""

    def prepare(self, pair: Pair) -> None:
        """Nothing to load: the store keeps no pair's rows in the process (every read is a
        request)."""

    def close(self) -> None:
        """Nothing to release: botocore's clients hold their own connection pools."""

    def shred_student(self, student_id: str) -> bool:
        """Delete the student's data key (True if bodies were encrypted under one): every
        sealed body of the student, here and in every backup, is then unreadable. Erasing a
        student does this first, then erases the bodies as for any pair."""
        return self.keys.shred(student_id) if self.keys is not None else False


# the sort key's prefix of what an erasure keeps of an idempotency key: its keyed hash
# (``domain.episodes.erased_key_digest``); not "ERASE#", which the erasure records hold
ERASED_KEY = "ERASEDKEY#"

# positions of the head and idempotency puts in an append (after the key check, if any)
_HEAD_SLOT, _IDEM_SLOT = 1, 2

_BELIEF_FIELDS = (
    "student_id", "subject_id", "belief_id", "concept_key", "concept_name", "claim",
    "confidence", "evidence_ids", "created_at", "rule_version", "reason", "needs_confirmation",
    "generation", "superseded_by", "retired_at",
)  # fmt: skip

_ANNOTATION_FIELDS = ("student_id", "subject_id", "episode_id", "kind", "value", "at", "detail")


def _at_seq(episode: Episode) -> str:
    return f"{format_time(episode.at)}#{episode.seq:010d}"


def _concept_keys(episode: Episode) -> dict[str, str]:
    """Concept key → the name as this episode wrote it (first spelling wins)."""
    keys: dict[str, str] = {}
    for name in episode.concepts:
        key = concept_key(name)
        if key and key not in keys:
            keys[key] = name
    return keys


def _failed(reasons: list[Any], slot: int) -> bool:
    return len(reasons) > slot and reasons[slot] is not None and reasons[slot].code != "None"


def _is_condition_failure(exc: TransactWriteError) -> bool:
    reasons = [r for r in exc.cancellation_reasons if r is not None]
    return bool(reasons) and all(
        r.code in ("ConditionalCheckFailed", "TransactionConflict") for r in reasons
    )


def _annotation_sk(record: dict[str, Any]) -> str:
    digest = hashlib.sha256(f"{record['value']}|{record['detail']}".encode()).hexdigest()[:8]
    return f"ANN#{record['episode_id']}#{record['at']}#{record['kind']}#{digest}"


def _citation_sk(state: str, seq: int) -> str:
    return f"CITE#{state}#{seq:010d}"


def _citation(pair: Pair, item: Any) -> CitationEntry:
    state = item.sk.split("#")[1]
    return CitationEntry(
        pair=pair,
        seq=int(item.seq),
        episode_id=item.episode_id,
        checked_at=parse_time(item.checked_at) if item.checked_at else None,
        value=item.value,
        final=state == "~",
    )


def _activity_item(m: Models, pair: Pair, at: datetime) -> Any:
    expires = at + timedelta(days=C.ACTIVITY_TTL_DAYS)
    return m.Activity(
        f"ACTIVE#{utc_day(at)}#{activity_shard(pair)}",
        pair_key(pair),
        student_id=pair.student_id,
        subject_id=pair.subject_id,
        expires_at=int(expires.timestamp()),
    )
