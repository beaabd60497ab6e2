"""Reads an uploaded object from S3 (the uploads bucket), one exact version."""

from __future__ import annotations

from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from tutor_memory.domain.errors import NotFoundError, StoreError


class S3Files:
    def __init__(self, region: str, client: Any = None) -> None:
        self._region = region
        self._client = client

    def _s3(self) -> Any:
        if self._client is None:  # built on first use, never at import
            self._client = boto3.client("s3", region_name=self._region)
        return self._client

    def fetch(self, bucket: str, key: str, version_id: str | None = None) -> bytes:
        """The object's bytes (the version the event named, so a later upload can't race it)."""
        extra = {"VersionId": version_id} if version_id else {}
        try:
            body = self._s3().get_object(Bucket=bucket, Key=key, **extra)["Body"]
            return bytes(body.read())
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code in ("NoSuchKey", "NoSuchVersion", "404"):
                raise NotFoundError(f"s3://{bucket}/{key} is gone ({code})") from exc
            raise StoreError(f"cannot read s3://{bucket}/{key}: {code or exc}") from exc
        except BotoCoreError as exc:
            raise StoreError(f"cannot read s3://{bucket}/{key}: {exc}") from exc
