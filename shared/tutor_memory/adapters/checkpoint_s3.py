"""The cloud's checkpoint anchor: one S3 object per checkpoint, in a bucket under Object Lock in
compliance mode, signed by a KMS HMAC key (``ports.CheckpointAnchor``).

* The MAC is KMS ``GenerateMac`` (``HMAC_SHA_256``) over ``chain.checkpoint_message``; the key
  never leaves KMS, and ``authentic`` asks KMS ``VerifyMac``. The key's ARN (as KMS returns it)
  is kept with the checkpoint.
* Each checkpoint is its own object, written once under a key of its own
  (``<prefix><student>/<subject>/<newest-first time>-<newest-first seq>.json``); the bucket's
  default retention (compliance mode, ``template.yaml``) keeps every object version from being
  deleted or overwritten by anyone, the account's root user included, until it expires. The
  functions' roles may put and get objects, never delete one or shorten a retention.
* The key sorts the newest checkpoint of a pair first (time and sequence counted down), so
  ``newest`` is one ``ListObjectsV2`` of one key and one ``GetObject``.

Clients are built on first use, never at import.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from tutor_memory.domain.chain import AnchoredCheckpoint, Checkpoint, checkpoint_message
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError

MAC_ALGORITHM = "HMAC_SHA_256"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LAST_MICROSECOND = 10**17 - 1  # past the year 5000 in microseconds: the time counted down
_LAST_SEQ = 10**12 - 1


def object_key(prefix: str, checkpoint: Checkpoint) -> str:
    """Where a checkpoint is kept: under its pair, the newest (latest time, then highest
    sequence) first in the bucket's listing order."""
    pair = checkpoint.pair
    micros = (checkpoint.at - _EPOCH) // timedelta(microseconds=1)
    return (
        f"{prefix}{pair.student_id}/{pair.subject_id}/"
        f"{_LAST_MICROSECOND - micros:017d}-{_LAST_SEQ - checkpoint.seq:012d}.json"
    )


class S3Anchor:
    """Anchored checkpoints in ``bucket`` under ``prefix``, signed by the KMS key ``key_id``."""

    def __init__(
        self,
        region: str,
        bucket: str,
        key_id: str,
        *,
        prefix: str = "checkpoints/",
        s3: Any = None,
        kms: Any = None,
        credentials: Any = None,
    ) -> None:
        self.region = region
        self.bucket = bucket
        self.key_id = key_id
        self.prefix = prefix
        self._s3 = s3
        self._kms = kms
        # a tenant's scoped credentials (dynamo.models.Credentials), else the process's own
        self._signing = {} if credentials is None else credentials.boto3_kwargs()

    def s3(self) -> Any:
        if self._s3 is None:
            self._s3 = boto3.client("s3", region_name=self.region, **self._signing)
        return self._s3

    def kms(self) -> Any:
        if self._kms is None:
            self._kms = boto3.client("kms", region_name=self.region, **self._signing)
        return self._kms

    def anchor(self, checkpoint: Checkpoint) -> AnchoredCheckpoint:
        point = Checkpoint(checkpoint.pair, checkpoint.seq, checkpoint.head_hash, checkpoint.at)
        try:
            signed = self.kms().generate_mac(
                KeyId=self.key_id, Message=checkpoint_message(point), MacAlgorithm=MAC_ALGORITHM
            )
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot sign a checkpoint with {self.key_id}: {exc}") from exc
        anchored = AnchoredCheckpoint(point, str(signed["KeyId"]), bytes(signed["Mac"]).hex())
        key = object_key(self.prefix, point)
        try:
            # A bucket under Object Lock takes a write only with a checksum of its body.
            self.s3().put_object(
                Bucket=self.bucket,
                Key=key,
                Body=json.dumps(anchored.to_dict(), sort_keys=True).encode("utf-8"),
                ContentType="application/json",
                ChecksumAlgorithm="SHA256",
            )
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot keep a checkpoint in {self._where(key)}: {exc}") from exc
        return AnchoredCheckpoint(point, anchored.key_id, anchored.mac, self._where(key))

    def newest(self, pair: Pair) -> AnchoredCheckpoint | None:
        prefix = f"{self.prefix}{pair.student_id}/{pair.subject_id}/"
        try:
            listed = self.s3().list_objects_v2(Bucket=self.bucket, Prefix=prefix, MaxKeys=1)
            found = listed.get("Contents") or []
            if not found:
                return None
            key = str(found[0]["Key"])
            body = self.s3().get_object(Bucket=self.bucket, Key=key)["Body"].read()
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot read the checkpoints of {pair}: {exc}") from exc
        try:
            anchored = AnchoredCheckpoint.from_dict(json.loads(body), self._where(key))
        except (ValueError, KeyError, TypeError) as exc:
            # Kept where only a signed checkpoint is ever written: an object that is none is
            # reported as a checkpoint that does not verify, at the place its key names.
            return AnchoredCheckpoint(
                Checkpoint(pair, _seq_of(key), "", _EPOCH), "", "", self._where(key) + f" ({exc})"
            )
        return anchored  # under another pair's name: verify reports it as that pair's

    def authentic(self, anchored: AnchoredCheckpoint) -> bool:
        if not anchored.mac:
            return False
        try:
            mac = bytes.fromhex(anchored.mac)
        except ValueError:
            return False
        try:
            answer = self.kms().verify_mac(
                KeyId=self.key_id,
                Message=checkpoint_message(anchored.checkpoint),
                MacAlgorithm=MAC_ALGORITHM,
                Mac=mac,
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "KMSInvalidMacException":
                return False
            raise StoreError(f"cannot verify a checkpoint with {self.key_id}: {exc}") from exc
        except BotoCoreError as exc:
            raise StoreError(f"cannot verify a checkpoint with {self.key_id}: {exc}") from exc
        return bool(answer.get("MacValid"))

    def _where(self, key: str) -> str:
        return f"s3://{self.bucket}/{key}"


def _seq_of(key: str) -> int:
    """The sequence a checkpoint's object key names (0 when it names none)."""
    try:
        return _LAST_SEQ - int(key.rsplit("-", 1)[1].split(".", 1)[0])
    except (IndexError, ValueError):
        return 0
