"""Signed checkpoints anchored out of the store writer's reach, and erasures as entries in the
chain, through the doors people use: the nightly (one checkpoint per pair it touched), the
CLI's ``checkpoint`` and ``verify``, an erasure, an export replayed, and the two anchors
themselves (the embedded file and key; S3 under Object Lock with a KMS HMAC key, on moto)."""

from __future__ import annotations

import json
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from tutor_memory.adapters.checkpoint_file import CHECKPOINTS, KEY, PAIR_CHECKPOINTS, FileAnchor
from tutor_memory.adapters.checkpoint_s3 import S3Anchor
from tutor_memory.bootstrap import App, build_anchor, build_app
from tutor_memory.cli import main
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.replay import replay
from tutor_memory.settings import Settings, on_folder

PAIR = Pair("s-anchor", "biology")
QUIET = Pair("s-anchor", "chemistry")
MORNING = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = date(2026, 3, 2)
AFTER = datetime(2026, 3, 3, 0, 30, tzinfo=UTC)
REGION = "us-east-1"
BUCKET = "tm-checkpoints"


def open_app(folder: Path, at: datetime) -> App:
    settings = on_folder(Settings(embedder="none"), folder)  # type: ignore[call-arg]
    return build_app(settings, clock=FixedClock(at))


def write(app: App, pair: Pair, at: datetime, n: int = 4) -> list[str]:
    added = [
        app.episodes.add(pair, Kind.QUESTION, f"Cell part {i}?", at=at + timedelta(minutes=i))
        for i in range(n)
    ]
    return [a.episode.episode_id for a in added]


def lines(folder: Path) -> list[dict[str, object]]:
    """Every pair's anchored checkpoints, pair by pair (their files in name order)."""
    return [
        json.loads(line)
        for path in sorted((folder / PAIR_CHECKPOINTS).glob("*/*.jsonl"))
        for line in path.read_text().splitlines()
    ]


def cut_tail(folder: Path, pair: Pair, keep: int) -> None:
    """Delete the pair's episodes after ``keep`` and move its head back to match, in SQL (as
    someone with the store's file and no key could): the log and its head agree."""
    conn = sqlite3.connect(folder / "memory.db", isolation_level=None)
    key = (pair.student_id, pair.subject_id)
    conn.execute(
        "DELETE FROM episodes WHERE student_id = ? AND subject_id = ? AND seq > ?", (*key, keep)
    )
    last = conn.execute(
        "SELECT hash FROM episodes WHERE student_id = ? AND subject_id = ? AND seq = ?",
        (*key, keep),
    ).fetchone()[0]
    conn.execute(
        "UPDATE chain_heads SET seq = ?, hash = ? WHERE student_id = ? AND subject_id = ?",
        (keep, last, *key),
    )
    conn.close()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the embedded anchor -----------------------------------------------------------------------


def test_the_local_key_is_made_once_private_and_checkpoints_are_only_appended(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tm"
    anchor = FileAnchor(folder)
    assert anchor.newest(PAIR) is None and not (folder / KEY).exists()  # nothing made to read
    first = anchor.anchor(chain.Checkpoint(PAIR, 3, "a" * 64, MORNING))
    key = (folder / KEY).read_bytes()
    assert len(key) == 32 and stat.S_IMODE((folder / KEY).stat().st_mode) == 0o600
    own = anchor.pair_path(PAIR)
    assert own == folder / PAIR_CHECKPOINTS / "s-anchor" / "biology.jsonl"
    written = own.read_text()
    again = FileAnchor(folder)  # another process: the same key
    second = again.anchor(chain.Checkpoint(PAIR, 5, "b" * 64, AFTER))
    assert (folder / KEY).read_bytes() == key
    assert own.read_text().startswith(written)  # appended, never rewritten
    assert again.newest(PAIR) == second and anchor.authentic(first) and anchor.authentic(second)
    assert again.newest(QUIET) is None
    assert not anchor.authentic(replace(second, mac="0" * 64))
    moved = replace(second, checkpoint=replace(second.checkpoint, head_hash="c" * 64))
    assert not anchor.authentic(moved)  # the signature is of the head it was given
    (folder / KEY).unlink()  # a key lost (or replaced) verifies nothing it did not sign
    (folder / KEY).write_bytes(b"\0" * 32)
    assert not FileAnchor(folder).authentic(second)


def test_each_pair_keeps_its_own_file_and_a_line_naming_another_pair_is_not_its(
    tmp_path: Path,
) -> None:
    """One file a pair, so a night's lookups read one pair's nights, not every pair's; on a
    filesystem that folds case two pairs may share a file, and each line says whose it is."""
    folder = tmp_path / "tm"
    anchor = FileAnchor(folder)
    mine = anchor.anchor(chain.Checkpoint(PAIR, 3, "a" * 64, MORNING))
    theirs = anchor.anchor(chain.Checkpoint(QUIET, 7, "b" * 64, MORNING))
    assert anchor.pair_path(PAIR) != anchor.pair_path(QUIET)
    for pair in (PAIR, QUIET):
        assert len(anchor.pair_path(pair).read_text().splitlines()) == 1
    with anchor.pair_path(PAIR).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(theirs.to_dict()) + "\n")  # the other pair's line, moved here
    assert anchor.newest(PAIR) == mine and anchor.newest(QUIET) == theirs
    assert not (folder / CHECKPOINTS).exists()  # the shared file of before is never written


def test_a_store_anchored_in_the_shared_file_of_before_still_verifies_against_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stores anchored before one file a pair kept every pair's checkpoints in one file. A
    pair with no file of its own has its newest there: a tail cut is still a break; its next
    checkpoint goes to its own file, which then holds its newest; the old file is not touched."""
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    write(app, PAIR, MORNING, n=5)
    write(app, QUIET, MORNING, n=2)
    for pair in (PAIR, QUIET):
        assert app.memory.anchor_checkpoint(pair).anchored
    app.close()
    # The layout of before: both pairs' lines in the one shared file, no file a pair.
    shared = folder / CHECKPOINTS
    shared.write_text(
        "".join(p.read_text() for p in sorted((folder / PAIR_CHECKPOINTS).glob("*/*.jsonl")))
    )
    for path in (folder / PAIR_CHECKPOINTS).glob("*/*.jsonl"):
        path.unlink()
    before = shared.read_bytes()

    app = open_app(folder, AFTER)
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.checkpoint_seq == 5
    write(app, PAIR, AFTER, n=1)
    anchored = app.memory.anchor_checkpoint(PAIR)
    assert anchored.anchored and anchored.checkpoint is not None
    assert anchored.checkpoint.where == f"{PAIR_CHECKPOINTS}/s-anchor/biology.jsonl"
    assert app.memory.verify_chain(PAIR).checkpoint_seq == 6
    assert app.memory.verify_chain(QUIET).checkpoint_seq == 2  # still read from the old file
    assert shared.read_bytes() == before
    app.close()

    # A tail cut of the pair anchored only in the old file: the old file's checkpoint remembers.
    cut_tail(folder, QUIET, keep=1)
    where = ["--store", str(folder), "--student", QUIET.student_id, "--subject", QUIET.subject_id]
    code, out, _ = cli(capsys, "verify", *where, "--json")
    report = json.loads(out)
    assert code == 1 and (report["break_seq"], report["break_kind"]) == (2, "checkpoint mismatch")


# --- the cloud anchor --------------------------------------------------------------------------


@pytest.fixture
def cloud() -> Iterator[tuple[S3Anchor, str]]:
    """A bucket under Object Lock (compliance mode by default) and a KMS HMAC key, on moto."""
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET, ObjectLockEnabledForBucket=True)
        s3.put_object_lock_configuration(
            Bucket=BUCKET,
            ObjectLockConfiguration={
                "ObjectLockEnabled": "Enabled",
                "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": 365}},
            },
        )
        kms = boto3.client("kms", region_name=REGION)
        key = kms.create_key(KeySpec="HMAC_256", KeyUsage="GENERATE_VERIFY_MAC")["KeyMetadata"]
        yield S3Anchor(REGION, BUCKET, key["Arn"]), key["Arn"]


def test_in_the_cloud_each_checkpoint_is_an_object_signed_by_kms_and_locked(
    cloud: tuple[S3Anchor, str],
) -> None:
    anchor, key_arn = cloud
    first = anchor.anchor(chain.Checkpoint(PAIR, 3, "a" * 64, MORNING))
    second = anchor.anchor(chain.Checkpoint(PAIR, 5, "b" * 64, AFTER))
    anchor.anchor(chain.Checkpoint(QUIET, 9, "c" * 64, AFTER + timedelta(days=1)))
    # the key as KMS names it (moto: its id; KMS: its ARN)
    assert first.key_id in key_arn and second.where.startswith(f"s3://{BUCKET}/checkpoints/")
    assert anchor.newest(PAIR) == second  # the newest of this pair, not of another
    assert anchor.authentic(first) and anchor.authentic(second)
    assert not anchor.authentic(replace(second, mac="00" * 32))
    moved = replace(second, checkpoint=replace(second.checkpoint, seq=4))
    assert not anchor.authentic(moved)

    s3 = boto3.client("s3", region_name=REGION)
    listed = s3.list_object_versions(Bucket=BUCKET, Prefix="checkpoints/")["Versions"]
    assert len(listed) == 3  # one object per checkpoint
    version = listed[0]
    # Compliance mode: no one deletes a locked version, whatever their permissions.
    with pytest.raises(ClientError, match="AccessDenied"):
        s3.delete_object(Bucket=BUCKET, Key=version["Key"], VersionId=version["VersionId"])
    held = s3.head_object(Bucket=BUCKET, Key=version["Key"], VersionId=version["VersionId"])
    assert held["ObjectLockMode"] == "COMPLIANCE"


def test_a_checkpoint_signed_by_another_key_is_not_authentic(
    cloud: tuple[S3Anchor, str],
) -> None:
    anchor, _ = cloud
    other = boto3.client("kms", region_name=REGION).create_key(
        KeySpec="HMAC_256", KeyUsage="GENERATE_VERIFY_MAC"
    )["KeyMetadata"]["Arn"]
    forged = S3Anchor(REGION, BUCKET, other).anchor(chain.Checkpoint(PAIR, 3, "a" * 64, MORNING))
    assert anchor.newest(PAIR) == forged and not anchor.authentic(forged)


def test_the_settings_choose_the_anchor(tmp_path: Path) -> None:
    embedded = build_anchor(on_folder(Settings(), tmp_path / "tm"))  # type: ignore[call-arg]
    assert isinstance(embedded, FileAnchor) and embedded.path == tmp_path / "tm" / CHECKPOINTS
    assert build_anchor(Settings(sqlite_path=":memory:")) is None  # type: ignore[call-arg,arg-type]
    assert build_anchor(Settings(backend="dynamodb")) is None  # type: ignore[call-arg]
    cloud = build_anchor(
        Settings(backend="dynamodb", checkpoint_bucket=BUCKET, checkpoint_key_id="alias/tm")  # type: ignore[call-arg]
    )
    assert isinstance(cloud, S3Anchor) and (cloud.bucket, cloud.key_id) == (BUCKET, "alias/tm")


# --- the nightly, the CLI, an erasure, a replay ------------------------------------------------


def test_the_night_anchors_one_checkpoint_per_pair_it_touched(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    write(app, PAIR, MORNING)
    write(app, QUIET, MORNING - timedelta(days=3))  # not active on the night's day
    app.ports.clock.at = AFTER  # type: ignore[attr-defined]
    run = app.nightly.run(DAY)
    assert [r.status for r in run.reports] == ["done"]
    kept = lines(folder)
    assert [(k["student_id"], k["subject_id"]) for k in kept] == [("s-anchor", "biology")]
    head = app.ports.store.head(PAIR)
    assert head is not None and (kept[0]["seq"], kept[0]["head_hash"]) == (head.seq, head.hash)
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.checkpoint_seq == head.seq
    app.nightly.run(DAY)  # the night again: done already, nothing anchored again
    assert len(lines(folder)) == 1


def test_the_cli_anchors_a_checkpoint_and_verify_catches_a_tail_cut_with_its_head(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    ids = write(app, PAIR, MORNING, n=5)
    app.close()
    where = ["--store", str(folder), "--student", PAIR.student_id, "--subject", PAIR.subject_id]
    code, out, _ = cli(capsys, "checkpoint", *where, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["seq"] == 5 and shown["anchored"]["new"] is True
    assert shown["anchored"]["where"] == f"{PAIR_CHECKPOINTS}/s-anchor/biology.jsonl"
    code, out, _ = cli(capsys, "checkpoint", *where, "--json")
    assert code == 0 and json.loads(out)["anchored"]["new"] is False  # nothing new to anchor

    # The last two episodes deleted and the head moved back to the third: the log and its head
    # agree with each other; only the anchored checkpoint remembers there were five.
    cut_tail(folder, PAIR, keep=3)
    assert ids[3]
    code, out, _ = cli(capsys, "verify", *where, "--json")
    report = json.loads(out)
    assert code == 1 and (report["break_seq"], report["break_kind"]) == (5, "checkpoint mismatch")
    code, _, err = cli(capsys, "checkpoint", *where)
    assert code == 1 and "not anchored" in err and "checkpoint mismatch" in err
    assert len(lines(folder)) == 1  # a broken chain is never anchored


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"{not json", "is not JSON (Expecting property name enclosed in double quotes at line 1"),
        (b'{"seq": 5}', "has no 'student_id': give what `checkpoint --json` printed"),
        (b"[1, 2]", "is not a checkpoint (not a JSON object)"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nests too deeply to read"),
    ],
)
def test_verify_names_a_checkpoint_file_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, said: str
) -> None:
    # Each was a traceback (JSONDecodeError, KeyError, UnicodeDecodeError, RecursionError).
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    write(app, PAIR, MORNING, n=2)
    app.close()
    given = tmp_path / "head.json"
    given.write_bytes(content)
    where = ["--store", str(folder), "--student", PAIR.student_id, "--subject", PAIR.subject_id]
    code, _, err = cli(capsys, "verify", *where, "--checkpoint", str(given))
    assert code == 1 and err.startswith(f"error: checkpoint: {given} {said}")


def test_an_operators_erasure_anchors_its_entry_and_a_forged_record_beside_it_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    ids = write(app, PAIR, MORNING)
    assert app.erasing is not None
    app.erasing.anchor_at_once = True  # as the CLI's `erase` sets it: an operator waits
    app.erasing.erase_episode(PAIR, ids[1], reason="typed by mistake", requested_by="tutor")
    entry = app.memory.history(PAIR)[-1]
    assert entry.kind is Kind.ERASURE and "typed by mistake" in entry.text
    assert (lines(folder)[-1]["seq"], lines(folder)[-1]["head_hash"]) == (entry.seq, entry.hash)
    report = app.memory.verify_chain(PAIR)
    assert report.intact and (report.erased, report.entries) == (1, 1)
    # An entry is not the student's: never recalled, shown, counted or erased.
    block = app.turns.turn(PAIR, "what did I erase by mistake?").block
    assert "typed by mistake" not in block and "Erased" not in block
    assert "erasure" not in app.reports.report(PAIR).counts
    assert app.reports.report(PAIR).episodes == 4  # the chain holds 5
    with pytest.raises(Exception, match="never erased"):
        app.erasing.erase_episode(PAIR, entry.episode_id, reason="tidy up")

    # The probe: a body erased and a record forged beside the chain, its digests and
    # the head's record digest recomputed; everything the records can say about themselves holds.
    store = app.ports.store
    victim = app.memory.history(PAIR)[2]
    records, head = store.erasures(PAIR)
    forged = chain.erasure_record(
        victim, number=len(records) + 1, prev=head or chain.GENESIS_HASH, at=AFTER,
        reason="parent's request", requested_by="api", scope="episode",
    )  # fmt: skip
    app.close()
    conn = sqlite3.connect(folder / "memory.db", isolation_level=None)
    key = (PAIR.student_id, PAIR.subject_id)
    conn.execute(
        "UPDATE episodes SET text = '', summary = '', salt = NULL, erased = 1, concepts = '[]' "
        "WHERE student_id = ? AND subject_id = ? AND seq = ?",
        (*key, victim.seq),
    )
    conn.execute(
        "INSERT INTO erasures (student_id, subject_id, number, body) VALUES (?, ?, ?, ?)",
        (*key, forged.number, json.dumps(forged.to_dict(), sort_keys=True)),
    )
    conn.execute(
        "UPDATE chain_heads SET erasure_head = ? WHERE student_id = ? AND subject_id = ?",
        (forged.digest, *key),
    )
    conn.close()
    where = ["--store", str(folder), "--student", PAIR.student_id, "--subject", PAIR.subject_id]
    code, out, _ = cli(capsys, "verify", *where)
    assert code == 1
    assert f"broken at episode {victim.seq}: erasure record without an entry" in out


def test_a_requests_erasure_leaves_its_checkpoint_to_the_night_even_a_quiet_one(
    tmp_path: Path,
) -> None:
    # A request (the API, the library) does not wait for the whole chain's verification that
    # anchoring costs: the pair is filed as active today, and its night anchors the chain with
    # the erasure's entry, though the day holds nothing else for the night to do.
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    ids = write(app, PAIR, MORNING)
    app.ports.clock.at = AFTER  # type: ignore[attr-defined]
    app.nightly.run(DAY)
    night = app.ports.store.head(PAIR)
    assert night is not None and [k["seq"] for k in lines(folder)] == [night.seq]
    app.ports.clock.at = MORNING + timedelta(days=1)  # type: ignore[attr-defined]
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, ids[1], reason="typed by mistake")
    head = app.ports.store.head(PAIR)
    assert head is not None and head.seq > night.seq
    assert [k["seq"] for k in lines(folder)] == [night.seq]  # not yet
    report = app.memory.verify_chain(PAIR)  # against the night's checkpoint, which it extends
    assert report.intact and report.erased >= 1 and report.checkpoint_seq == night.seq
    assert PAIR in app.nightly.active_pairs(DAY + timedelta(days=1))

    app.ports.clock.at = AFTER + timedelta(days=1)  # type: ignore[attr-defined]
    run = app.nightly.run(DAY + timedelta(days=1))
    assert [(r.pair, r.status) for r in run.reports] == [(PAIR, "quiet")]
    assert [(k["seq"], k["head_hash"]) for k in lines(folder)][1:] == [(head.seq, head.hash)]
    app.nightly.run(DAY + timedelta(days=1))  # again: the checkpoint names the head already
    assert len(lines(folder)) == 2
    assert app.memory.verify_chain(PAIR).checkpoint_seq == head.seq


def test_an_export_with_an_erasure_replays_to_the_same_chain_with_its_entry(
    tmp_path: Path,
) -> None:
    app = open_app(tmp_path / "tm", MORNING)
    ids = write(app, PAIR, MORNING)
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, ids[2], reason="typed by mistake")
    original = app.memory.history(PAIR)
    history = app.exporting.pair(PAIR).write(tmp_path / "export")
    exported = [json.loads(line) for line in history.read_text().splitlines()]
    assert [line["kind"] for line in exported].count("erasure") == 1

    target = tmp_path / "replayed"
    replay(history, target, lambda folder: open_app(folder, AFTER))
    again = open_app(target, AFTER)
    replayed = again.memory.history(PAIR)
    assert [(e.episode_id, e.kind, e.erased) for e in replayed] == [
        (e.episode_id, e.kind, e.erased) for e in original
    ]
    report = again.memory.verify_chain(PAIR)
    assert report.intact and (report.erased, report.entries) == (1, 1), str(report)
    assert again.ports.store.erasures(PAIR)[0] == app.ports.store.erasures(PAIR)[0]
