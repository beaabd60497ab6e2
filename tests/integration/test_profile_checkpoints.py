"""A student's profile log is anchored as a pair's chain is: a signed checkpoint after every
statement, kept where the store's writer cannot rewrite it (the embedded store's append-only
file and key; S3 under Object Lock with a KMS HMAC key, on moto). A log re-hashed from some
statement on — consistent in itself, so its own links verify — a tail cut, or a checkpoint
forged where it is kept, is a break of the profile; a student's erasure leaves an empty log
that a new profile extends."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from tutor_memory.adapters.checkpoint_file import PROFILE_CHECKPOINTS
from tutor_memory.adapters.checkpoint_s3 import S3Anchor
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.profile import (
    AnchoredProfileCheckpoint,
    ProfileCheckpoint,
    first_break,
    seal,
)
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

T0 = datetime(2026, 4, 30, 9, tzinfo=UTC)
REGION = "us-east-1"
BUCKET = "tm-checkpoints"


def open_app(folder: Path) -> App:
    settings = on_folder(Settings(embedder="none"), folder)  # type: ignore[call-arg]
    return build_app(settings, clock=FixedClock(T0))


def said(app: App) -> None:
    """Four statements by the service: a name, a need, a preference, a language."""
    assert app.profiles is not None
    for aspect, value, key in (
        ("name", "Maya", ""),
        ("accommodation", "I get extra time in tests", "extra time"),
        ("preference", "examples first", ""),
        ("language", "Urdu", ""),
    ):
        app.profiles.set("s1", aspect, value, key=key, said_by="service")


def kept(folder: Path, student: str = "s1") -> list[dict[str, object]]:
    path = folder / PROFILE_CHECKPOINTS / f"{student}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite_from(app: App, folder: Path, seq: int) -> None:
    """What a writer with the profile's file, and no key, could do: change statement ``seq``
    and seal it and every statement after it again, so that the log's own links hold."""
    assert app.profiles is not None
    history = app.profiles.history("s1")
    db = sqlite3.connect(folder / "profile.db")
    previous = history[seq - 2] if seq > 1 else None
    for s in history[seq - 1 :]:
        changed = replace(s, value="short answers") if s.seq == seq else s
        again = seal(changed, previous)
        db.execute(
            "UPDATE statements SET value = ?, salt = ?, commitment = ?, prev_hash = ?, hash = ? "
            "WHERE student = 's1' AND seq = ?",
            (again.value, again.salt, again.commitment, again.prev_hash, again.hash, s.seq),
        )
        previous = again
    db.commit()
    db.close()


def test_every_statement_is_anchored_and_a_rewritten_log_is_a_break(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder)
    try:
        assert app.profiles is not None
        said(app)
        assert [(c["seq"], c["student_id"]) for c in kept(folder)] == [
            (1, "s1"), (2, "s1"), (3, "s1"), (4, "s1"),
        ]  # fmt: skip
        assert app.profiles.verify("s1") is None
        assert [f.name for f in (folder / PROFILE_CHECKPOINTS).iterdir()] == ["s1.jsonl"]
        assert app.profiles.anchor_checkpoint("s1") is not None
        assert len(kept(folder)) == 4  # the head anchored already: nothing new

        rewrite_from(app, folder, 2)
        history = app.profiles.history("s1")
        assert first_break(history) is None  # consistent in itself
        assert app.profiles.verify("s1") == (
            "statement 4 is not the one anchored on 2026-04-30: the log was rewritten"
        )
        assert app.profiles.anchor_checkpoint("s1") is None  # a broken log is never vouched for
        assert len(kept(folder)) == 4
    finally:
        app.close()


def test_a_tail_cut_and_a_forged_checkpoint_are_breaks(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder)
    try:
        assert app.profiles is not None
        said(app)
        db = sqlite3.connect(folder / "profile.db")
        db.execute("DELETE FROM statements WHERE student = 's1' AND seq = 4")
        db.commit()
        db.close()
        assert app.profiles.verify("s1") == (
            "statement 4 is missing: the anchored checkpoint of 2026-04-30 names statement 4"
        )
        # A line that names the cut log's head, written beside the file's without the key
        head = app.profiles.history("s1")[-1]
        point = ProfileCheckpoint("s1", 3, head.hash, T0 + timedelta(hours=1))
        forged = AnchoredProfileCheckpoint(point, kept(folder)[0]["key_id"], "00" * 32)  # type: ignore[arg-type]
        with (folder / PROFILE_CHECKPOINTS / "s1.jsonl").open("a") as handle:
            handle.write(json.dumps(forged.to_dict()) + "\n")
        assert app.profiles.verify("s1") == (
            f"its newest anchored checkpoint ({PROFILE_CHECKPOINTS}/s1.jsonl line 5), of "
            "statement 3, does not carry a valid signature of this anchor's key"
        )
    finally:
        app.close()


def test_after_a_students_erasure_a_new_profile_verifies(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder)
    try:
        assert app.profiles is not None and app.erasing is not None
        said(app)
        app.erasing.erase_student("s1", reason="the family asked")
        assert app.profiles.history("s1") == []
        assert kept(folder)[-1]["seq"] == 0  # the empty log, anchored
        assert app.profiles.verify("s1") is None
        app.profiles.set("s1", "name", "Maya", said_by="service")
        assert app.profiles.verify("s1") is None and kept(folder)[-1]["seq"] == 1
    finally:
        app.close()


@pytest.fixture
def cloud() -> Iterator[S3Anchor]:
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET, ObjectLockEnabledForBucket=True)
        kms = boto3.client("kms", region_name=REGION)
        key = kms.create_key(KeySpec="HMAC_256", KeyUsage="GENERATE_VERIFY_MAC")["KeyMetadata"]
        yield S3Anchor(REGION, BUCKET, key["Arn"])


def test_in_the_cloud_a_profile_checkpoint_is_its_own_signed_object(cloud: S3Anchor) -> None:
    """Kept under the student's ``-profile`` folder (no subject id begins with "-"), signed in
    its own format: a pair's checkpoint's signature does not pass for a profile's."""
    anchor = cloud
    first = anchor.anchor_profile(ProfileCheckpoint("s1", 2, "a" * 64, T0))
    second = anchor.anchor_profile(ProfileCheckpoint("s1", 3, "b" * 64, T0 + timedelta(hours=1)))
    anchor.anchor_profile(ProfileCheckpoint("s2", 9, "c" * 64, T0 + timedelta(hours=2)))
    assert second.where.startswith(f"s3://{BUCKET}/checkpoints/s1/-profile/")
    assert anchor.newest_profile("s1") == second and anchor.newest_profile("s9") is None
    assert anchor.authentic_profile(first) and anchor.authentic_profile(second)
    assert not anchor.authentic_profile(replace(second, mac="00" * 32))
    moved = replace(second, checkpoint=replace(second.checkpoint, seq=4))
    assert not anchor.authentic_profile(moved)
    # the same numbers signed as a pair's checkpoint
    as_pair = anchor.anchor(
        chain.Checkpoint(Pair("s1", "biology"), 3, "b" * 64, second.checkpoint.at)
    )
    assert not anchor.authentic_profile(replace(second, mac=as_pair.mac))
    assert anchor.newest(Pair("s1", "biology")) == as_pair  # the pair's folder holds only its own
