"""Reads an uploaded object from S3 (the uploads bucket), one exact version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import NotFoundError, StoreError
from tutor_memory.domain.files import fingerprint


class S3Files:
    def __init__(
        self,
        region: str,
        client: Any = None,
        bucket: str | None = None,
        prefix: str = "uploads/",
        *,
        credentials: Any = None,
    ) -> None:
        self._region = region
        # a tenant's scoped credentials (dynamo.models.Credentials), else the process's own
        self._credentials = credentials
        self._client = client
        self.bucket = bucket  # the uploads bucket an erasure deletes from and an export reads
        self.prefix = prefix

    def _s3(self) -> Any:
        if self._client is None:  # built on first use, never at import
            extra = {} if self._credentials is None else self._credentials.boto3_kwargs()
            self._client = boto3.client("s3", region_name=self._region, **extra)
        return self._client

    def fetch(self, bucket: str, key: str, version_id: str | None = None) -> bytes:
        """The object's bytes (the version the event named, so a later upload can't race it),
        read no further than one byte past the upload bound (a ranged read): a 5 GB object is
        refused by the file reader as too large, not read into the function's memory."""
        extra = {"VersionId": version_id} if version_id else {}
        try:
            body = self._s3().get_object(
                Bucket=bucket, Key=key, Range=f"bytes=0-{C.MAX_FILE_BYTES}", **extra
            )["Body"]
            return bytes(body.read())
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code == "InvalidRange":  # S3's answer to a range of an empty object
                return b""
            if code in ("NoSuchKey", "NoSuchVersion", "404"):
                raise NotFoundError(f"s3://{bucket}/{key} is gone ({code})") from exc
            raise StoreError(f"cannot read s3://{bucket}/{key}: {code or exc}") from exc
        except BotoCoreError as exc:
            raise StoreError(f"cannot read s3://{bucket}/{key}: {exc}") from exc

    def stands(self, bucket: str, key: str) -> bool:
        """Whether a current version of ``key`` stands (not deleted, no delete marker on top):
        asked by listing the key's versions, which a tenant's credentials may (``s3:prefix``
        under the tenant's), so a removed object is told from a refused read without the
        bucket-wide ``s3:ListBucket`` that a missing object's 404 would need."""
        s3 = self._s3()
        try:
            pages = s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=key)
            for page in pages:
                if any(v["Key"] == key and v.get("IsLatest") for v in page.get("Versions", [])):
                    return True
                if any(
                    m["Key"] == key and m.get("IsLatest") for m in page.get("DeleteMarkers", [])
                ):
                    return False
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot list s3://{bucket}/{key}: {exc}") from exc
        return False

    def find(self, pair: Pair, name: str, digest: str) -> bytes | None:
        """The version of the pair's upload ``name`` whose bytes have this fingerprint (an
        export's file), or None when the bucket no longer holds it."""
        if self.bucket is None:
            return None
        key = f"{self.prefix}{pair.student_id}/{pair.subject_id}/{name}"
        s3 = self._s3()
        try:
            pages = s3.get_paginator("list_object_versions").paginate(
                Bucket=self.bucket, Prefix=key
            )
            versions = [v for page in pages for v in page.get("Versions", []) if v["Key"] == key]
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot list s3://{self.bucket}/{key}: {exc}") from exc
        for version in versions:
            try:
                data = self.fetch(self.bucket, key, version["VersionId"])
            except NotFoundError:
                continue
            if fingerprint(data) == digest:
                return data
        return None

    def delete_all_versions(self, prefix: str, spare: Callable[[str], bool] | None = None) -> int:
        """Delete every version and delete marker of the object ``prefix`` names, or of every
        object under it when it ends in "/" (a pair's or a student's folder) but those whose
        key ``spare`` keeps, in the uploads bucket (a versioned bucket keeps an overwritten or
        deleted object's bytes as an old version; deleting only the key would add a marker and
        keep them). Returns how many versions were deleted. S3 lists by string prefix:
        ``notes.md`` would also list ``notes.md.bak``, so a key is matched exactly."""
        if self.bucket is None:
            return 0
        s3, deleted = self._s3(), 0
        try:
            pages = s3.get_paginator("list_object_versions").paginate(
                Bucket=self.bucket, Prefix=prefix
            )
            for page in pages:
                doomed = [
                    {"Key": v["Key"], "VersionId": v["VersionId"]}
                    for v in [*page.get("Versions", []), *page.get("DeleteMarkers", [])]
                    if (prefix.endswith("/") or v["Key"] == prefix)
                    and not (spare is not None and spare(v["Key"]))
                ]
                for start in range(0, len(doomed), 1000):  # DeleteObjects takes 1000 at most
                    chunk = doomed[start : start + 1000]
                    s3.delete_objects(Bucket=self.bucket, Delete={"Objects": chunk, "Quiet": True})
                    deleted += len(chunk)
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot delete s3://{self.bucket}/{prefix}*: {exc}") from exc
        return deleted
