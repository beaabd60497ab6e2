"""Erasing a file's bytes deletes that file's versions only: S3 and the embedded copy both list
by string prefix, so "notes.md" must not reach "notes.md.bak" (another upload of the student)."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.local_files import LocalFiles
from tutor_memory.adapters.s3_files import S3Files
from tutor_memory.domain.constants import MAX_FILE_BYTES
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.filetext import UnreadableFileError

PAIR = Pair("s-42", "biology")
BUCKET = "tutor-memory-uploads-test"


def test_erasing_one_upload_in_the_bucket_keeps_a_file_whose_name_begins_the_same() -> None:
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        for key in ("uploads/s-42/biology/notes.md", "uploads/s-42/biology/notes.md.bak"):
            s3.put_object(Bucket=BUCKET, Key=key, Body=b"first")
            s3.put_object(Bucket=BUCKET, Key=key, Body=b"second")  # an overwrite: 2 versions
        files = S3Files("us-east-1", client=s3, bucket=BUCKET)

        assert files.delete_all_versions("uploads/s-42/biology/notes.md") == 2
        left = s3.list_object_versions(Bucket=BUCKET)["Versions"]
        assert {v["Key"] for v in left} == {"uploads/s-42/biology/notes.md.bak"}
        assert len(left) == 2
        # a pair's folder (ending in "/") still takes everything under it
        assert files.delete_all_versions("uploads/s-42/biology/") == 2
        assert "Versions" not in s3.list_object_versions(Bucket=BUCKET)


def test_erasing_one_kept_file_on_the_embedded_store_keeps_a_file_whose_name_begins_the_same(
    tmp_path: Path,
) -> None:
    files = LocalFiles(tmp_path / "files")
    for name in ("notes.md", "notes.md.bak"):
        files.keep(PAIR, name, b"first " + name.encode())
        files.keep(PAIR, name, b"second " + name.encode())

    assert files.delete_all_versions("uploads/s-42/biology/notes.md") == 2
    kept = sorted(p.parent.name for p in (tmp_path / "files").rglob("*") if p.is_file())
    assert kept == ["notes.md.bak", "notes.md.bak"]
    assert not (tmp_path / "files/uploads/s-42/biology/notes.md").exists()
    assert files.delete_all_versions("uploads/s-42/biology/") == 2


def test_an_upload_is_read_no_further_than_one_byte_past_the_bound() -> None:
    # A 25 MB object was read whole into the function's memory before it was refused; a ranged
    # read takes what the file reader needs to refuse it. An empty object reads as empty
    # (S3 answers a range of nothing with InvalidRange).
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket=BUCKET)
        s3.put_object(Bucket=BUCKET, Key="uploads/s-42/biology/video.pdf", Body=b"%" * 25_000_000)
        s3.put_object(Bucket=BUCKET, Key="uploads/s-42/biology/empty.md", Body=b"")
        s3.put_object(Bucket=BUCKET, Key="uploads/s-42/biology/notes.md", Body=b"# Osmosis\n")
        files = S3Files("us-east-1", client=s3, bucket=BUCKET)
        big = files.fetch(BUCKET, "uploads/s-42/biology/video.pdf")
        assert len(big) == MAX_FILE_BYTES + 1
        with pytest.raises(UnreadableFileError, match=r"too large \(over 20 MB; the limit"):
            read_file("video.pdf", big)
        assert files.fetch(BUCKET, "uploads/s-42/biology/empty.md") == b""
        assert files.fetch(BUCKET, "uploads/s-42/biology/notes.md") == b"# Osmosis\n"
