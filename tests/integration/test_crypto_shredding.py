"""Crypto-shredding on DynamoDB under moto (KMS included): with a KMS key, a body is ciphertext in
the raw item and plain text through the store; erasing the student deletes the student's data
key first, so a copy of an item kept from before the erasure (what a backup holds) can no longer
be read, while the chain still verifies."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.chain import ERASURE_PENDING_DOCUMENT, format_time
from tutor_memory.domain.episodes import Kind, Pair, about_the_student
from tutor_memory.domain.errors import StoreError
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings

T0 = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
REGION, TABLE, KEYS = "us-east-1", "tm-shred", "tm-shred-keys"
BIOLOGY, CHEMISTRY = Pair("s-shred", "biology"), Pair("s-shred", "chemistry")
OTHER = Pair("s-other", "biology")
MARKER = "zorblaxquint"


@pytest.fixture
def aws() -> Iterator[str]:
    """A moto account with a KMS key; yields the key's id."""
    with mock_aws():
        yield boto3.client("kms", region_name=REGION).create_key()["KeyMetadata"]["KeyId"]


def make_app(tmp_path: Path, kms_key_id: str | None) -> App:
    from tutor_memory.adapters.dynamo_store import DynamoStore

    DynamoStore(TABLE, REGION, kms_key_id=kms_key_id, keys_table=KEYS).create_table()
    settings = Settings(
        backend="dynamodb",
        table_name=TABLE,
        aws_region=REGION,
        embedder="none",
        index_path=tmp_path / "index.db",
        kms_key_id=kms_key_id,
        keys_table=KEYS,
    )
    return build_app(settings, clock=FixedClock(T0 + timedelta(hours=1)))


def write(app: App, pair: Pair) -> None:
    app.episodes.add(pair, Kind.QUESTION, f"What does {MARKER} mean?", at=T0)
    app.episodes.add(
        pair,
        Kind.CHECK,
        f"Explain {MARKER}",
        evidence={"topic": "Osmosis", "verdict": "wrong", "evaluation": f"confused {MARKER}"},
        concepts=["Osmosis"],
        at=T0 + timedelta(minutes=1),
    )


def raw_items(table: str = TABLE) -> list[dict[str, Any]]:
    return list(boto3.client("dynamodb", region_name=REGION).scan(TableName=table)["Items"])


def episode_items(pair: Pair) -> list[dict[str, Any]]:
    pk = f"PAIR#{pair.student_id}#{pair.subject_id}"
    return [i for i in raw_items() if i["pk"]["S"] == pk and i["sk"]["S"].startswith("EP#")]


def test_a_body_is_ciphertext_in_the_raw_item_and_plain_text_through_the_store(
    aws: str, tmp_path: Path
) -> None:
    app = make_app(tmp_path, aws)
    write(app, BIOLOGY)

    items = episode_items(BIOLOGY)
    assert len(items) == 2 and all("sealed" in i for i in items)
    assert MARKER not in repr(items)  # nor in the by_time index, which projects the same item
    history = app.memory.history(BIOLOGY)
    assert [e.text for e in history] == [f"What does {MARKER} mean?", f"Explain {MARKER}"]
    assert history[1].evidence.to_dict()["evaluation"] == f"confused {MARKER}"
    assert history[1].concepts == ("Osmosis",)
    assert app.memory.verify_chain(BIOLOGY).intact
    recalled = app.memory.recall(BIOLOGY, f"What about {MARKER}?").items
    assert any(MARKER in item.episode.text for item in recalled)
    keys = raw_items(KEYS)
    assert [k["pk"]["S"] for k in keys] == ["STUDENT#s-shred"]  # one key per student, wrapped
    assert MARKER not in repr(keys)


def test_without_a_kms_key_bodies_stay_plain_and_both_kinds_read_alike(
    aws: str, tmp_path: Path
) -> None:
    plain = make_app(tmp_path / "plain", None)
    write(plain, BIOLOGY)
    assert MARKER in repr(episode_items(BIOLOGY)) and "sealed" not in repr(episode_items(BIOLOGY))
    # Turning encryption on later: old plain items and new sealed ones read side by side.
    sealed = make_app(tmp_path / "sealed", aws)
    sealed.episodes.add(BIOLOGY, Kind.QUESTION, "And osmosis?", at=T0 + timedelta(minutes=2))
    assert [e.text for e in sealed.memory.history(BIOLOGY)][1:] == [
        f"Explain {MARKER}",
        "And osmosis?",
    ]
    assert sealed.memory.verify_chain(BIOLOGY).intact


def test_erasing_the_student_shreds_the_key_so_a_backed_up_item_can_no_longer_be_read(
    aws: str, tmp_path: Path
) -> None:
    app = make_app(tmp_path, aws)
    write(app, BIOLOGY)
    write(app, CHEMISTRY)
    write(app, OTHER)
    backup = episode_items(BIOLOGY) + episode_items(CHEMISTRY)  # what a backup of the table keeps

    assert app.erasing is not None
    result = app.erasing.erase_student("s-shred", reason="parent's request")
    assert result.to_dict()["episodes_erased"] == 4
    assert [k["pk"]["S"] for k in raw_items(KEYS)] == ["STUDENT#s-other"]  # the key is gone
    for pair in (BIOLOGY, CHEMISTRY):
        report = app.memory.verify_chain(pair)
        assert report.intact and report.erased == 2 and report.episodes == 3  # and its entry

    # Restoring the backed-up items (a point-in-time restore of the table): still ciphertext,
    # and no key left anywhere to open it; the store reads them as bodies it cannot open.
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    for item in backup:
        dynamodb.put_item(TableName=TABLE, Item=item)
    assert MARKER not in repr(raw_items())
    # the restored bodies (the erasure's own entry, unsealed, names no word of the student's)
    restored = [e for e in app.memory.history(BIOLOGY) if about_the_student(e)]
    assert [e.text for e in restored] == ["", ""] and not any(e.erased for e in restored)
    assert not app.memory.verify_chain(BIOLOGY).intact  # an unreadable body is reported

    # Even a new key for the same student (they come back) opens none of the old items.
    app.episodes.add(BIOLOGY, Kind.QUESTION, "Hello again", at=T0 + timedelta(minutes=5))
    again = [e.text for e in app.memory.history(BIOLOGY) if about_the_student(e)]
    assert again == ["", "", "Hello again"]

    # Another student's bodies are untouched.
    assert app.memory.history(OTHER)[0].text == f"What does {MARKER} mean?"


def test_while_a_worker_erases_a_shredded_students_bodies_verify_says_it_is_under_way(
    aws: str, tmp_path: Path
) -> None:
    """A student's erasure handed to the worker shreds the key first, then erases the bodies
    in steps: meanwhile a body reads as none. ``verify`` reported "content changed" there
    while the docs promise "intact, an erasure is under way"; once the worker is silent (its
    mark older than 30 minutes), or with no mark, the unread body is a break again."""
    app = make_app(tmp_path, aws)
    write(app, BIOLOGY)
    assert app.ports.store.keys is not None  # type: ignore[attr-defined]
    mark = {"since": format_time(T0 + timedelta(minutes=50))}  # ten minutes before the clock
    app.ports.store.put_document(BIOLOGY, ERASURE_PENDING_DOCUMENT, mark, expected_version=0)
    app.ports.store.keys.shred("s-shred")  # type: ignore[attr-defined]
    report = app.memory.verify_chain(BIOLOGY)
    assert report.intact and report.pending == 2, report
    assert "an erasure is under way: 2 bodies" in str(report)
    app.ports.store.delete_documents(BIOLOGY, [ERASURE_PENDING_DOCUMENT])
    report = app.memory.verify_chain(BIOLOGY)
    assert not report.intact and report.break_kind == "content changed"


def test_a_process_still_holding_a_shredded_key_never_writes_under_it(
    aws: str, tmp_path: Path
) -> None:
    from tutor_memory.adapters.dynamo_store import DynamoStore
    from tutor_memory.domain.episodes import NewEpisode

    make_app(tmp_path, aws)  # the tables
    warm = DynamoStore(TABLE, REGION, kms_key_id=aws, keys_table=KEYS)  # a warm Lambda
    eraser = DynamoStore(TABLE, REGION, kms_key_id=aws, keys_table=KEYS)
    new = NewEpisode(BIOLOGY, Kind.QUESTION, "before", T0)
    warm.append(new)
    assert eraser.shred_student("s-shred")

    warm.append(NewEpisode(BIOLOGY, Kind.QUESTION, "after", T0 + timedelta(minutes=1)))
    fresh = DynamoStore(TABLE, REGION, kms_key_id=aws, keys_table=KEYS)  # another process
    assert [e.text for e in fresh.episodes(BIOLOGY)] == ["", "after"]


def tenant_app(tmp_path: Path, kms_key_id: str, tenant: str) -> App:
    make_app(tmp_path / "default", kms_key_id).close()  # the tables
    settings = Settings(
        backend="dynamodb", table_name=TABLE, aws_region=REGION, embedder="none",
        index_path=tmp_path / f"index-{tenant}.db", kms_key_id=kms_key_id, keys_table=KEYS,
        tenant=tenant,
    )  # fmt: skip
    return build_app(settings, clock=FixedClock(T0 + timedelta(hours=1)))


def key_item(pk: str) -> dict[str, Any]:
    (item,) = [k for k in raw_items(KEYS) if k["pk"]["S"] == pk]
    return item


def test_a_tenants_data_key_is_wrapped_under_a_context_naming_the_tenant(
    aws: str, tmp_path: Path
) -> None:
    """The default tenant's context is as it was (the student alone); another tenant's names
    the tenant too, so KMS unwraps it only for that tenant: a key item copied into another
    tenant's store (a bug, a copy) opens nothing there."""
    kms = boto3.client("kms", region_name=REGION)
    write(make_app(tmp_path, aws), BIOLOGY)
    acme = tenant_app(tmp_path, aws, "acme")
    write(acme, BIOLOGY)
    default_key, acme_key = key_item("STUDENT#s-shred"), key_item("T#acme#STUDENT#s-shred")
    assert "tenant_bound" not in default_key and acme_key["tenant_bound"] == {"N": "1"}
    student = {"tutor_memory_student": "s-shred"}
    kms.decrypt(CiphertextBlob=default_key["wrapped"]["B"], EncryptionContext=student)
    acme_wrapped = acme_key["wrapped"]["B"]
    with pytest.raises(kms.exceptions.InvalidCiphertextException):  # not without the tenant
        kms.decrypt(CiphertextBlob=acme_wrapped, EncryptionContext=student)
    kms.decrypt(CiphertextBlob=acme_wrapped, EncryptionContext={**student, "tenant": "acme"})
    assert acme.memory.history(BIOLOGY)[0].text == f"What does {MARKER} mean?"

    # acme's key item and bodies copied into globex's keys: globex's store cannot unwrap them
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    dynamodb.put_item(TableName=KEYS, Item={**acme_key, "pk": {"S": "T#globex#STUDENT#s-shred"}})
    for item in episode_items_of("T#acme#", BIOLOGY):
        moved = item["pk"]["S"].replace("T#acme#", "T#globex#")
        dynamodb.put_item(TableName=TABLE, Item={**item, "pk": {"S": moved}})
    globex = tenant_app(tmp_path, aws, "globex")
    with pytest.raises(StoreError, match="KMS Decrypt"):
        globex.ports.store.episodes(BIOLOGY)


def episode_items_of(prefix: str, pair: Pair) -> list[dict[str, Any]]:
    pk = f"{prefix}PAIR#{pair.student_id}#{pair.subject_id}"
    return [i for i in raw_items() if i["pk"]["S"] == pk and i["sk"]["S"].startswith("EP#")]


def test_a_tenants_key_wrapped_before_the_tenant_was_named_reads_and_migrate_wraps_it_again(
    aws: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key of another tenant wrapped before (the student alone in its context, no
    ``tenant_bound``) still reads, with that context; ``tutor-memory migrate`` (the
    operator's credentials) wraps it again under the tenant's by ReEncrypt: the same key,
    every body still open, the chain intact, and from then on only the tenant's context
    unwraps it."""
    from tutor_memory.cli import main

    kms = boto3.client("kms", region_name=REGION)
    acme = tenant_app(tmp_path, aws, "acme")
    write(acme, BIOLOGY)
    pk = "T#acme#STUDENT#s-shred"
    bound = key_item(pk)
    plain = kms.decrypt(
        CiphertextBlob=bound["wrapped"]["B"],
        EncryptionContext={"tutor_memory_student": "s-shred", "tenant": "acme"},
    )["Plaintext"]
    before = kms.encrypt(  # as the previous release wrapped it: the student alone
        KeyId=aws, Plaintext=plain, EncryptionContext={"tutor_memory_student": "s-shred"}
    )["CiphertextBlob"]
    old = {k: v for k, v in bound.items() if k != "tenant_bound"}
    boto3.client("dynamodb", region_name=REGION).put_item(
        TableName=KEYS, Item={**old, "wrapped": {"B": before}}
    )
    reopened = tenant_app(tmp_path, aws, "acme")  # a new process: nothing cached
    assert reopened.memory.history(BIOLOGY)[0].text == f"What does {MARKER} mean?"
    assert reopened.ports.store.keys.unbound() == ["s-shred"]  # type: ignore[attr-defined]

    for name, value in {
        "TUTOR_MEMORY_BACKEND": "dynamodb", "TUTOR_MEMORY_TABLE_NAME": TABLE,
        "TUTOR_MEMORY_AWS_REGION": REGION, "TUTOR_MEMORY_EMBEDDER": "none",
        "TUTOR_MEMORY_INDEX_PATH": str(tmp_path / "index-migrate.db"),
        "TUTOR_MEMORY_KMS_KEY_ID": aws, "TUTOR_MEMORY_KEYS_TABLE": KEYS,
        "TUTOR_MEMORY_TENANT": "acme",
    }.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    assert main(["migrate"]) == 0
    assert "1 data keys wrapped again under their tenant's context" in capsys.readouterr().out
    again = key_item(pk)
    assert again["tenant_bound"] == {"N": "1"} and again["key_id"] == bound["key_id"]
    with pytest.raises(kms.exceptions.InvalidCiphertextException):
        kms.decrypt(
            CiphertextBlob=again["wrapped"]["B"],
            EncryptionContext={"tutor_memory_student": "s-shred"},
        )
    fresh = tenant_app(tmp_path, aws, "acme")
    assert fresh.memory.history(BIOLOGY)[0].text == f"What does {MARKER} mean?"
    assert fresh.memory.verify_chain(BIOLOGY).intact
    assert main(["migrate"]) == 0 and "wrapped again" not in capsys.readouterr().out
