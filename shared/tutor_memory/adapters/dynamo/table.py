"""What every part of the cloud store shares: the table's models and connection, its keys,
requests sent together, and items read back as episodes (their bodies opened).
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final, Protocol, TypeVar

from pynamodb.connection import Connection
from pynamodb.exceptions import PynamoDBException, TransactWriteError

from tutor_memory.adapters.dynamo.models import Models
from tutor_memory.adapters.records import episode_from_record
from tutor_memory.adapters.student_keys import DataKey, ShreddedError, StudentKeys
from tutor_memory.adapters.tenant_credentials import Credentials, credential_kwargs
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import ChainHead, format_time, parse_time
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.nightly import activity_shard, utc_day
from tutor_memory.domain.tenancy import DEFAULT_TENANT, key_prefix

EPISODE_FIELDS = (
    "student_id", "subject_id", "seq", "episode_id", "kind", "at", "summary", "text", "concepts",
    "salience", "evidence", "recalled_ids", "ref", "idempotency_key", "prev_hash", "hash",
    "request_hash", "chain_version", "salt", "commitment", "erased",
)  # fmt: skip


SEALED_FIELDS: Final = ("text", "summary", "evidence", "concepts")  # what the commitment covers
EMPTY_BODY: Final = {"text": "", "summary": "", "evidence": "{}", "concepts": "[]"}


def pair_key(pair: Pair, prefix: str = "") -> str:
    """A pair's partition key; ``prefix``: its tenant's (``domain.tenancy.key_prefix``)."""
    return f"{prefix}PAIR#{pair.student_id}#{pair.subject_id}"


_T = TypeVar("_T")
BATCH_GET_KEYS: Final = 100  # DynamoDB's BatchGetItem limit
TRANSACTION_ACTIONS: Final = 100  # DynamoDB's TransactWriteItems limit
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


# the sort key's prefix of what an erasure keeps of an idempotency key: its keyed hash
# (``domain.episodes.erased_key_digest``); not "ERASE#", which the erasure records hold
ERASED_KEY = "ERASEDKEY#"


class DynamoTable:
    """The table a store writes to, and what its ports share (see the package doc)."""

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
        tenant: str = DEFAULT_TENANT,
        credentials: Credentials | None = None,
    ) -> None:
        # Every partition key this store writes or reads begins with the tenant's prefix (none
        # for the default tenant: a store made before tenants reads as it was written), so a
        # store opened for one tenant cannot name another's items, and credentials scoped to
        # the prefix (template.yaml: dynamodb:LeadingKeys) refuse them if it tried.
        self.tenant = tenant
        self.prefix = key_prefix(tenant)
        # A table scan names no key, so credentials scoped to a tenant cannot be allowed one:
        # with them, what a scan found (a student's pairs, classes) is read from the student's
        # index items instead (``student_key``); with the process's own, both are read (a
        # store written before the index has no items for its pairs until ``migrate``).
        self.scans = credentials is None
        self.models = Models(
            table_name, region, host, keys_table=keys_table, credentials=credentials
        )
        # Bodies encrypted under per-student data keys (crypto-shredding) when a KMS key is
        # given; without one they are stored as plain attributes (both read back alike).
        self.keys = (
            StudentKeys(
                self.models.StudentKey, kms_key_id, region, kms=kms, prefix=self.prefix,
                credentials=credentials, tenant=tenant,
            )
            if kms_key_id
            else None
        )  # fmt: skip
        self._connection = Connection(region=region, host=host, **credential_kwargs(credentials))
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

    def pk(self, pair: Pair) -> str:
        """The pair's partition key in this store's tenant."""
        return pair_key(pair, self.prefix)

    def student_key(self, student_id: str) -> str:
        """The partition of a student's index in this store's tenant: ``HEAD#<subject>`` per
        chain, ``MAP#<subject>`` per map, ``CLASS#<class>`` per class followed (what a
        student's erasure and export look up without a scan)."""
        return f"{self.prefix}STUDENT#{student_id}"

    def index_item(self, student_id: str, sk: str) -> Any:
        return self.models.Item(self.student_key(student_id), sk)

    def index_student(self, student_id: str, sk: str) -> None:
        try:
            self.index_item(student_id, sk).save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def indexed(self, student_id: str, kind: str) -> list[str]:
        """The ids of the student's index items of ``kind`` (``HEAD``, ``MAP``, ``CLASS``)."""
        m = self.models.Item
        try:
            rows = m.query(self.student_key(student_id), m.sk.startswith(f"{kind}#"))
            return sorted(str(r.sk).removeprefix(f"{kind}#") for r in rows)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

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

    def _episode_at(self, pair: Pair, seq: int) -> Episode | None:
        try:
            item = self.models.Episode.get(self.pk(pair), episode_sk(seq), consistent_read=True)
        except self.models.Episode.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return self._episode(item)

    def head(self, pair: Pair) -> ChainHead | None:
        try:
            item = self.models.Head.get(self.pk(pair), "HEAD", consistent_read=True)
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


def concept_keys(episode: Episode) -> dict[str, str]:
    """Concept key → the name as this episode wrote it (first spelling wins)."""
    keys: dict[str, str] = {}
    for name in episode.concepts:
        key = concept_key(name)
        if key and key not in keys:
            keys[key] = name
    return keys


def _at_seq(episode: Episode) -> str:
    return f"{format_time(episode.at)}#{episode.seq:010d}"


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


def activity_key(prefix: str, day: str, shard: int) -> str:
    return f"{prefix}ACTIVE#{day}#{shard}"


def _activity_item(m: Models, pair: Pair, at: datetime, prefix: str = "") -> Any:
    expires = at + timedelta(days=C.ACTIVITY_TTL_DAYS)
    return m.Activity(
        activity_key(prefix, utc_day(at), activity_shard(pair)),
        pair_key(pair),
        student_id=pair.student_id,
        subject_id=pair.subject_id,
        expires_at=int(expires.timestamp()),
    )


def erasure_batches(episodes: Sequence[Episode]) -> list[list[Episode]]:
    """Episodes in batches whose transaction stays within DynamoDB's 100 actions: two a
    batch's episode (the item and its record), two more with an idempotency key, one the
    head."""
    batches: list[list[Episode]] = []
    batch: list[Episode] = []
    actions = 1  # the head's update
    for episode in episodes:
        cost = 2 if episode.idempotency_key is None else 4
        if batch and actions + cost > TRANSACTION_ACTIONS:
            batches.append(batch)
            batch, actions = [], 1
        batch.append(episode)
        actions += cost
    if batch:
        batches.append(batch)
    return batches
