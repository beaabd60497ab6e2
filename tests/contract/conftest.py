"""The contract suite runs unchanged against every store adapter.

Each backend also brings a `Tamper` that edits its underlying table directly — an UPDATE in
SQLite, a ``put_item``/``delete_item`` through boto3 in DynamoDB — the way a careless migration
or an attacker would, bypassing the store; and an ``anchor`` where checkpoints are kept beside
it, out of the tamperer's reach (the embedded file and key beside SQLite; an Object Lock bucket
signed by a KMS HMAC key beside DynamoDB, on moto).
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import boto3
import pytest
from moto import mock_aws
from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

from tutor_memory.adapters.checkpoint_file import FileAnchor
from tutor_memory.adapters.checkpoint_s3 import S3Anchor
from tutor_memory.adapters.dynamo_store import DynamoStore, episode_sk, pair_key
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.chain import Erasure
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import CheckpointAnchor, EpisodeStore, FixedClock, Ports, Store
from tutor_memory.usecases.log import TutorMemory

TABLE = "tutor-memory-test"
REGION = "us-east-1"
CHECKPOINT_BUCKET = "tutor-memory-test-checkpoints"


class Tamper(Protocol):
    def set_text(self, pair: Pair, seq: int, text: str) -> None: ...
    def delete(self, pair: Pair, seq: int) -> None: ...
    def swap(self, pair: Pair, seq_a: int, seq_b: int) -> None: ...
    def overwrite(self, record: dict[str, Any]) -> None: ...
    def set_head(self, pair: Pair, seq: int, hash_hex: str) -> None: ...
    def put_erasure(self, record: Erasure, erasure_head: str) -> None:
        """Write an erasure record (a new one, or over the one of its number) and move the
        digest the head keeps of the records, as a forger who computed them would."""
        ...


class SqliteTamper:
    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)

    def set_text(self, pair: Pair, seq: int, text: str) -> None:
        self.conn.execute(
            "UPDATE episodes SET text = ? WHERE student_id = ? AND subject_id = ? AND seq = ?",
            (text, pair.student_id, pair.subject_id, seq),
        )

    def delete(self, pair: Pair, seq: int) -> None:
        self.conn.execute(
            "DELETE FROM episodes WHERE student_id = ? AND subject_id = ? AND seq = ?",
            (pair.student_id, pair.subject_id, seq),
        )

    def swap(self, pair: Pair, seq_a: int, seq_b: int) -> None:
        key = (pair.student_id, pair.subject_id)
        self.conn.execute("BEGIN")
        self.conn.execute(
            "UPDATE episodes SET seq = -1 WHERE student_id = ? AND subject_id = ? AND seq = ?",
            (*key, seq_a),
        )
        self.conn.execute(
            "UPDATE episodes SET seq = ? WHERE student_id = ? AND subject_id = ? AND seq = ?",
            (seq_a, *key, seq_b),
        )
        self.conn.execute(
            "UPDATE episodes SET seq = ? WHERE student_id = ? AND subject_id = ? AND seq = -1",
            (seq_b, *key),
        )
        self.conn.execute("COMMIT")

    def overwrite(self, record: dict[str, Any]) -> None:
        cols = ", ".join(record)
        self.conn.execute(
            f"INSERT OR REPLACE INTO episodes ({cols}) VALUES ({', '.join('?' * len(record))})",
            tuple(record.values()),
        )

    def set_head(self, pair: Pair, seq: int, hash_hex: str) -> None:
        self.conn.execute(
            "UPDATE chain_heads SET seq = ?, hash = ? WHERE student_id = ? AND subject_id = ?",
            (seq, hash_hex, pair.student_id, pair.subject_id),
        )

    def put_erasure(self, record: Erasure, erasure_head: str) -> None:
        key = (record.pair.student_id, record.pair.subject_id)
        self.conn.execute(
            "INSERT OR REPLACE INTO erasures (student_id, subject_id, number, body) "
            "VALUES (?, ?, ?, ?)",
            (*key, record.number, json.dumps(record.to_dict(), sort_keys=True)),
        )
        self.conn.execute(
            "UPDATE chain_heads SET erasure_head = ? WHERE student_id = ? AND subject_id = ?",
            (erasure_head, *key),
        )


class DynamoTamper:
    def __init__(self) -> None:
        self.client = boto3.client("dynamodb", region_name=REGION)

    def _key(self, pair: Pair, seq: int) -> dict[str, Any]:
        return {"pk": {"S": pair_key(pair)}, "sk": {"S": episode_sk(seq)}}

    def _item(self, pair: Pair, seq: int) -> dict[str, Any]:
        return dict(self.client.get_item(TableName=TABLE, Key=self._key(pair, seq))["Item"])

    def set_text(self, pair: Pair, seq: int, text: str) -> None:
        item = self._item(pair, seq)
        item["text"] = {"S": text}
        self.client.put_item(TableName=TABLE, Item=item)

    def delete(self, pair: Pair, seq: int) -> None:
        self.client.delete_item(TableName=TABLE, Key=self._key(pair, seq))

    def swap(self, pair: Pair, seq_a: int, seq_b: int) -> None:
        a, b = self._item(pair, seq_a), self._item(pair, seq_b)
        a["sk"], b["sk"] = b["sk"], a["sk"]
        a["seq"], b["seq"] = b["seq"], a["seq"]
        self.client.put_item(TableName=TABLE, Item=a)
        self.client.put_item(TableName=TABLE, Item=b)

    def overwrite(self, record: dict[str, Any]) -> None:
        pair = Pair(record["student_id"], record["subject_id"])
        item: dict[str, Any] = dict(self._key(pair, record["seq"]))
        for name, value in record.items():
            if value is None:
                continue
            item[name] = {"N": repr(value)} if isinstance(value, int | float) else {"S": value}
        self.client.put_item(TableName=TABLE, Item=item)

    def set_head(self, pair: Pair, seq: int, hash_hex: str) -> None:
        key = {"pk": {"S": pair_key(pair)}, "sk": {"S": "HEAD"}}
        item = dict(self.client.get_item(TableName=TABLE, Key=key)["Item"])
        item.update({"seq": {"N": str(seq)}, "hash": {"S": hash_hex}})
        self.client.put_item(TableName=TABLE, Item=item)

    def put_erasure(self, record: Erasure, erasure_head: str) -> None:
        pk = {"S": pair_key(record.pair)}
        body = {"S": json.dumps(record.to_dict())}
        sk = {"S": f"ERASE#{record.number:010d}"}
        self.client.put_item(TableName=TABLE, Item={"pk": pk, "sk": sk, "body": body})
        key = {"pk": pk, "sk": {"S": "HEAD"}}
        item = dict(self.client.get_item(TableName=TABLE, Key=key)["Item"])
        item["erasure_head"] = {"S": erasure_head}
        self.client.put_item(TableName=TABLE, Item=item)


@pytest.fixture(params=["sqlite", "dynamodb"])
def backend(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[EpisodeStore, Tamper]]:
    if request.param == "sqlite":
        path = tmp_path / "memory.db"
        sqlite_store = SqliteStore(path)
        yield sqlite_store, SqliteTamper(path)
        sqlite_store.close()
        return
    with mock_aws():
        dynamo_store = DynamoStore(TABLE, REGION, sleep=lambda _s: None)
        dynamo_store.create_table()
        yield dynamo_store, DynamoTamper()


class SerialMotoServer(ThreadedMotoServer):
    """moto's server handling one request at a time.

    moto's in-process backend is not thread-safe (concurrent calls fail with "dictionary changed
    size during iteration") and has no locks, so it cannot stand for DynamoDB under concurrent
    writers. Served one request at a time over HTTP, each request is atomic — as each
    TransactWriteItems is in DynamoDB — while the clients still race between reading the head
    and committing, so conflicts and retries happen for real.
    """

    def _server_entry(self) -> None:
        app = DomainDispatcherApplication(create_backend_app)
        self._server = make_server(
            self._ip_address, self._port, app, False, request_handler=MotoRequestHandler
        )
        self._server_ready_event.set()
        self._server.serve_forever()


@pytest.fixture(params=["sqlite", "dynamodb"])
def store_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], EpisodeStore]]:
    """Makes clients of one shared store, as separate processes would have: each call gives a
    new client (its own connections and locks) on the same SQLite file or DynamoDB table, and
    the DynamoDB table is served over HTTP so that threads may use it at once."""
    if request.param == "sqlite":
        made: list[SqliteStore] = []

        def sqlite_client() -> EpisodeStore:
            made.append(SqliteStore(tmp_path / "memory.db"))
            return made[-1]

        yield sqlite_client
        for client in made:
            client.close()
        return
    server = SerialMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()

    def dynamo_client() -> EpisodeStore:
        return DynamoStore(TABLE, REGION, host=f"http://{host}:{port}")

    try:
        # moto's backends are process-global: start from an empty account.
        urllib.request.urlopen(
            urllib.request.Request(f"http://{host}:{port}/moto-api/reset", method="POST")
        ).close()
        DynamoStore(TABLE, REGION, host=f"http://{host}:{port}").create_table()
        yield dynamo_client
    finally:
        server.stop()


@pytest.fixture
def store(backend: tuple[EpisodeStore, Tamper]) -> EpisodeStore:
    return backend[0]


@pytest.fixture
def tamper(backend: tuple[EpisodeStore, Tamper]) -> Tamper:
    return backend[1]


@pytest.fixture
def memory(store: EpisodeStore, clock: FixedClock) -> TutorMemory:
    return TutorMemory(Ports(store=store, clock=clock))


@pytest.fixture
def anchor(store: EpisodeStore, tmp_path: Path) -> CheckpointAnchor:
    """Where checkpoints are anchored beside the backend: the embedded store's append-only file
    and local key (SQLite); an S3 bucket under Object Lock in compliance mode, signed by a KMS
    HMAC key (DynamoDB, both on moto)."""
    if isinstance(store, SqliteStore):
        return FileAnchor(tmp_path / "anchor")
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=CHECKPOINT_BUCKET, ObjectLockEnabledForBucket=True)
    s3.put_object_lock_configuration(
        Bucket=CHECKPOINT_BUCKET,
        ObjectLockConfiguration={
            "ObjectLockEnabled": "Enabled",
            "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": 1}},
        },
    )
    key = boto3.client("kms", region_name=REGION).create_key(
        KeySpec="HMAC_256", KeyUsage="GENERATE_VERIFY_MAC"
    )["KeyMetadata"]["Arn"]
    return S3Anchor(REGION, CHECKPOINT_BUCKET, key)


@pytest.fixture
def anchored(store: Store, clock: FixedClock, anchor: CheckpointAnchor) -> TutorMemory:
    """The log's use cases with checkpoints anchored beside the backend: ``verify_chain``
    checks against the newest one by default."""
    return TutorMemory(Ports(store=store, clock=clock), anchor=anchor)
