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
* A student's profile log is anchored the same way under ``<prefix><student>/-profile/``
  (no subject id begins with "-"), its checkpoints in their own signed format.
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
from tutor_memory.domain.profile import (
    AnchoredProfileCheckpoint,
    ProfileCheckpoint,
    profile_checkpoint_message,
)

MAC_ALGORITHM = "HMAC_SHA_256"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LAST_MICROSECOND = 10**17 - 1  # past the year 5000 in microseconds: the time counted down
_LAST_SEQ = 10**12 - 1


# Where a student's profile checkpoints are kept, beside their pairs': no subject id begins
# with "-" (``episodes.check_id``), so no pair's folder can be this one.
PROFILE_FOLDER = "-profile"


def object_key(prefix: str, checkpoint: Checkpoint | ProfileCheckpoint) -> str:
    """Where a checkpoint is kept: under its pair (a profile's: under its student's
    ``PROFILE_FOLDER``), the newest (latest time, then highest sequence) first in the
    bucket's listing order."""
    if isinstance(checkpoint, Checkpoint):
        folder = f"{checkpoint.pair.student_id}/{checkpoint.pair.subject_id}/"
    else:
        folder = f"{checkpoint.student_id}/{PROFILE_FOLDER}/"
    micros = (checkpoint.at - _EPOCH) // timedelta(microseconds=1)
    return (
        f"{prefix}{folder}{_LAST_MICROSECOND - micros:017d}-{_LAST_SEQ - checkpoint.seq:012d}.json"
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
        key_id, mac = self._sign(checkpoint_message(point))
        key = self._keep(point, AnchoredCheckpoint(point, key_id, mac).to_dict())
        return AnchoredCheckpoint(point, key_id, mac, self._where(key))

    def anchor_profile(self, checkpoint: ProfileCheckpoint) -> AnchoredProfileCheckpoint:
        key_id, mac = self._sign(profile_checkpoint_message(checkpoint))
        key = self._keep(checkpoint, AnchoredProfileCheckpoint(checkpoint, key_id, mac).to_dict())
        return AnchoredProfileCheckpoint(checkpoint, key_id, mac, self._where(key))

    def newest_profile(self, student_id: str) -> AnchoredProfileCheckpoint | None:
        found = self._newest(f"{self.prefix}{student_id}/{PROFILE_FOLDER}/", student_id)
        if found is None:
            return None
        key, body = found
        try:
            return AnchoredProfileCheckpoint.from_dict(json.loads(body), self._where(key))
        except (ValueError, KeyError, TypeError) as exc:  # as ``newest`` says
            point = ProfileCheckpoint(student_id, _seq_of(key), "", _EPOCH)
            return AnchoredProfileCheckpoint(point, "", "", self._where(key) + f" ({exc})")

    def authentic_profile(self, anchored: AnchoredProfileCheckpoint) -> bool:
        return self._verify(profile_checkpoint_message(anchored.checkpoint), anchored.mac)

    def _sign(self, message: bytes) -> tuple[str, str]:
        """The KMS key's name for itself and the MAC of ``message``, in hex."""
        try:
            signed = self.kms().generate_mac(
                KeyId=self.key_id, Message=message, MacAlgorithm=MAC_ALGORITHM
            )
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot sign a checkpoint with {self.key_id}: {exc}") from exc
        return str(signed["KeyId"]), bytes(signed["Mac"]).hex()

    def _keep(self, point: Checkpoint | ProfileCheckpoint, data: dict[str, Any]) -> str:
        key = object_key(self.prefix, point)
        try:
            # A bucket under Object Lock takes a write only with a checksum of its body.
            self.s3().put_object(
                Bucket=self.bucket,
                Key=key,
                Body=json.dumps(data, sort_keys=True).encode("utf-8"),
                ContentType="application/json",
                ChecksumAlgorithm="SHA256",
            )
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot keep a checkpoint in {self._where(key)}: {exc}") from exc
        return key

    def _newest(self, prefix: str, what: object) -> tuple[str, bytes] | None:
        """The key and body of the newest object under ``prefix`` (the first listed)."""
        try:
            listed = self.s3().list_objects_v2(Bucket=self.bucket, Prefix=prefix, MaxKeys=1)
            found = listed.get("Contents") or []
            if not found:
                return None
            key = str(found[0]["Key"])
            return key, bytes(self.s3().get_object(Bucket=self.bucket, Key=key)["Body"].read())
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(f"cannot read the checkpoints of {what}: {exc}") from exc

    def newest(self, pair: Pair) -> AnchoredCheckpoint | None:
        found = self._newest(f"{self.prefix}{pair.student_id}/{pair.subject_id}/", pair)
        if found is None:
            return None
        key, body = found
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
        return self._verify(checkpoint_message(anchored.checkpoint), anchored.mac)

    def _verify(self, message: bytes, mac_hex: str) -> bool:
        if not mac_hex:
            return False
        try:
            mac = bytes.fromhex(mac_hex)
        except ValueError:
            return False
        try:
            answer = self.kms().verify_mac(
                KeyId=self.key_id, Message=message, MacAlgorithm=MAC_ALGORITHM, Mac=mac
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
