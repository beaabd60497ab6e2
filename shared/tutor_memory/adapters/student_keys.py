"""Crypto-shredding for a whole student on DynamoDB: one data key per student.

Erasure deletes every body the table holds, but not the copies outside its reach: DynamoDB
point-in-time recovery and on-demand backups keep the items as they were for up to 35 days (or
as long as a backup is kept). So, when ``TUTOR_MEMORY_KMS_KEY_ID`` is set, episode bodies are
stored encrypted under the student's own data key, and erasing the student deletes that key
first: every copy of a body, in the table or in any backup, is then ciphertext nobody can
decrypt.

* The data key: 256 random bits from KMS ``GenerateDataKey``, stored only wrapped (KMS
  ciphertext, bound to the student by the encryption context) in one item,
  ``STUDENT#<student>`` / ``KEY``, with a random key id, in a table of its own that is never
  backed up (no point-in-time recovery, left out of backup plans): a wrapped key kept in the
  backed-up table would come back with a restore, and KMS would unwrap it again. A process
  keeps unwrapped keys in memory (bounded); KMS ``Decrypt`` runs once per student per process.
* A body: AES-256-GCM, a random 96-bit nonce, the item's ``pk|sk`` as associated data (a
  ciphertext moved to another item does not decrypt). Stored as ``format (1) ‖ key id (8) ‖
  nonce (12) ‖ ciphertext+tag``.
* The encryption context names the student (``tutor_memory_student``) and, for a tenant other
  than ``default``, the tenant (``tenant``): the tenant role's policy lets a session unwrap
  only keys whose context names its own tenant (``kms:EncryptionContext:tenant`` =
  ``${aws:PrincipalTag/tenant}``; the default tenant's session only keys naming none), so a
  key item that reached another tenant's store, by a bug or a copy, does not unwrap there. The
  default tenant's context is as it always was. A key item says whether its context names the
  tenant (``tenant_bound``); one of another tenant wrapped before (the student alone) is read
  with that context and re-wrapped under the tenant's by ``tutor-memory migrate`` (``rewrap``:
  KMS ReEncrypt, the key never leaves KMS).
* Shredding deletes the key item. A process that still holds the key in memory cannot write
  under it any more: an append checks the key item in its transaction (see the store).

The chain does not change: hashes and commitments are computed over the plaintext canonical
body, so ``verify`` and chain v1/v2 work as before, and every backend renders the same block.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.tenancy import DEFAULT_TENANT

FORMAT: Final = b"\x01"
KEY_ID_BYTES: Final = 8
NONCE_BYTES: Final = 12  # GCM's standard nonce; random per body (ours: 2**-32 risk at 2**32)
CACHED_KEYS: Final = 4096  # unwrapped keys a process keeps (32 bytes each; ours)
CONTEXT_KEY: Final = "tutor_memory_student"  # the KMS encryption context's key
TENANT_CONTEXT_KEY: Final = (
    "tenant"  # and the tenant's (the policies' kms:EncryptionContext:tenant)
)


def key_pk(student_id: str, prefix: str = "") -> str:
    """The student's key item (``prefix``: the tenant's, ``domain.tenancy.key_prefix``)."""
    return f"{prefix}STUDENT#{student_id}"


KEY_SK: Final = "KEY"


@dataclass(frozen=True)
class DataKey:
    key_id: str  # hex
    secret: bytes = b""

    def __repr__(self) -> str:  # never the secret
        return f"DataKey({self.key_id})"


class ShreddedError(StoreError):
    """A body whose student's key is gone (erased): it can no longer be read."""


class StudentKeys:
    """The students' data keys: made on first write, unwrapped by KMS, shredded on erasure.

    ``model`` is the store's pynamodb model of the key item (``pk``, ``sk``, ``key_id``,
    ``wrapped``, ``created_at``); ``kms`` a boto3 KMS client (built on first use).
    """

    def __init__(
        self,
        model: Any,
        kms_key_id: str,
        region: str,
        *,
        kms: Any = None,
        prefix: str = "",
        credentials: Any = None,
        tenant: str = DEFAULT_TENANT,
    ) -> None:
        self.model = model
        self.prefix = prefix  # the tenant's: every key item of this store begins with it
        self.tenant = tenant
        self._credentials = credentials  # a tenant's scoped credentials (models.Credentials)
        self.kms_key_id = kms_key_id
        self._region = region
        self._kms = kms
        self._keys: OrderedDict[str, DataKey] = OrderedDict()
        self._lock = threading.Lock()

    def _client(self) -> Any:
        if self._kms is None:
            import boto3

            extra = {} if self._credentials is None else self._credentials.boto3_kwargs()
            self._kms = boto3.client("kms", region_name=self._region, **extra)
        return self._kms

    # --- keys ---------------------------------------------------------------------------------

    def key(self, student_id: str, *, create: bool) -> DataKey | None:
        """The student's current key (None: there is none and ``create`` is False)."""
        with self._lock:
            if student_id in self._keys:
                self._keys.move_to_end(student_id)
                return self._keys[student_id]
        key = self._load(student_id)
        if key is None and create:
            key = self._create(student_id)
        if key is not None:
            with self._lock:
                self._keys[student_id] = key
                while len(self._keys) > CACHED_KEYS:
                    self._keys.popitem(last=False)
        return key

    def context(self, student_id: str, *, bound: bool = True) -> dict[str, str]:
        """The encryption context a student's key is wrapped under: the student, and the
        tenant unless it is the default one (``bound=False``: the student alone, as keys of
        every tenant were wrapped before)."""
        context = {CONTEXT_KEY: student_id}
        if bound and self.tenant != DEFAULT_TENANT:
            context[TENANT_CONTEXT_KEY] = self.tenant
        return context

    @property
    def binds(self) -> bool:
        """Whether this tenant's keys name it in their context (every tenant but default)."""
        return self.tenant != DEFAULT_TENANT

    def forget(self, student_id: str) -> None:
        with self._lock:
            self._keys.pop(student_id, None)

    def _load(self, student_id: str) -> DataKey | None:
        from pynamodb.exceptions import PynamoDBException

        try:
            item = self.model.get(key_pk(student_id, self.prefix), KEY_SK, consistent_read=True)
        except self.model.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(f"cannot read the data key of {student_id!r}: {exc}") from exc
        bound = bool(item.tenant_bound)  # else wrapped under the student alone (before)
        return DataKey(item.key_id, self._unwrap(student_id, bytes(item.wrapped), bound))

    def _create(self, student_id: str) -> DataKey:
        from pynamodb.exceptions import PutError

        made = self._kms_call(
            "GenerateDataKey",
            student_id,
            KeyId=self.kms_key_id,
            KeySpec="AES_256",
            EncryptionContext=self.context(student_id),
        )
        key_id = os.urandom(KEY_ID_BYTES).hex()
        item = self.model(
            key_pk(student_id, self.prefix),
            KEY_SK,
            key_id=key_id,
            wrapped=made["CiphertextBlob"],
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            tenant_bound=1 if self.binds else None,
        )
        try:
            item.save(condition=self.model.pk.does_not_exist())
        except PutError as exc:
            # Another process made the student's key first: use theirs.
            theirs = self._load(student_id)
            if theirs is None:
                raise StoreError(f"cannot store the data key of {student_id!r}: {exc}") from exc
            return theirs
        return DataKey(key_id, bytes(made["Plaintext"]))

    def _unwrap(self, student_id: str, wrapped: bytes, bound: bool) -> bytes:
        answer = self._kms_call(
            "Decrypt",
            student_id,
            CiphertextBlob=wrapped,
            KeyId=self.kms_key_id,
            EncryptionContext=self.context(student_id, bound=bound),
        )
        return bytes(answer["Plaintext"])

    def unbound(self) -> list[str]:
        """The students of this (non-default) tenant whose keys were wrapped before the context
        named the tenant (a scan of the keys table: the operator's credentials)."""
        from pynamodb.exceptions import PynamoDBException

        if not self.binds:
            return []
        m = self.model
        mine = f"{self.prefix}STUDENT#"
        try:
            rows = m.scan(
                m.pk.startswith(mine) & (m.sk == KEY_SK) & m.tenant_bound.does_not_exist()
            )
            return sorted(str(r.pk).removeprefix(mine) for r in rows)
        except PynamoDBException as exc:
            raise StoreError(f"cannot list the data keys: {exc}") from exc

    def rewrap(self, student_id: str) -> bool:
        """Wrap the student's key again under the tenant's context (KMS ReEncrypt: the key
        never leaves KMS) if it was wrapped under the student alone; whether it was. The key
        and every body sealed under it stay as they are."""
        from pynamodb.exceptions import PutError, PynamoDBException

        if not self.binds:
            return False
        m = self.model
        try:
            item = m.get(key_pk(student_id, self.prefix), KEY_SK, consistent_read=True)
        except m.DoesNotExist:
            return False
        except PynamoDBException as exc:
            raise StoreError(f"cannot read the data key of {student_id!r}: {exc}") from exc
        if item.tenant_bound:
            return False
        answer = self._kms_call(
            "ReEncrypt",
            student_id,
            CiphertextBlob=bytes(item.wrapped),
            SourceEncryptionContext=self.context(student_id, bound=False),
            SourceKeyId=self.kms_key_id,
            DestinationKeyId=self.kms_key_id,
            DestinationEncryptionContext=self.context(student_id),
        )
        item.wrapped, item.tenant_bound = answer["CiphertextBlob"], 1
        try:  # only over the key as read (a shredding meanwhile wins)
            item.save(condition=(m.key_id == item.key_id) & m.tenant_bound.does_not_exist())
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                return False
            raise StoreError(f"cannot store the data key of {student_id!r}: {exc}") from exc
        self.forget(student_id)
        return True

    def _kms_call(self, operation: str, student_id: str, **kwargs: Any) -> dict[str, Any]:
        from botocore.exceptions import BotoCoreError, ClientError

        method = {
            "GenerateDataKey": "generate_data_key", "Decrypt": "decrypt", "ReEncrypt": "re_encrypt",
        }[operation]  # fmt: skip
        try:
            answer: dict[str, Any] = getattr(self._client(), method)(**kwargs)
        except (ClientError, BotoCoreError) as exc:
            raise StoreError(
                f"KMS {operation} for the data key of {student_id!r} failed: {exc}"
            ) from exc
        return answer

    def shred(self, student_id: str) -> bool:
        """Delete the student's key (True if there was one): every body encrypted under it, in
        the table and in every backup of it, can no longer be decrypted."""
        from pynamodb.exceptions import PynamoDBException

        self.forget(student_id)
        try:
            item = self.model.get(key_pk(student_id, self.prefix), KEY_SK, consistent_read=True)
            item.delete()
        except self.model.DoesNotExist:
            return False
        except PynamoDBException as exc:
            raise StoreError(f"cannot delete the data key of {student_id!r}: {exc}") from exc
        finally:
            self.forget(student_id)  # a read meanwhile may have cached it again
        return True

    # --- bodies -------------------------------------------------------------------------------

    def seal(self, key: DataKey, plaintext: bytes, where: str) -> bytes:
        # Imported here: only a deployment with a KMS key loads it (cold starts stay short).
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(NONCE_BYTES)
        sealed = AESGCM(key.secret).encrypt(nonce, plaintext, where.encode("utf-8"))
        return FORMAT + bytes.fromhex(key.key_id) + nonce + sealed

    def open(self, student_id: str, blob: bytes, where: str) -> bytes:
        """The plaintext of a sealed body; :class:`ShreddedError` when the key it was sealed
        under is gone (the student was erased) or the blob was altered or moved."""
        if blob[:1] != FORMAT or len(blob) < 1 + KEY_ID_BYTES + NONCE_BYTES + 16:
            raise ShreddedError(f"{where}: not a sealed body this version reads")
        key_id = blob[1 : 1 + KEY_ID_BYTES].hex()
        key = self.key(student_id, create=False)
        if key is not None and key.key_id != key_id:  # another process's newer key, maybe
            self.forget(student_id)
            key = self.key(student_id, create=False)
        if key is None or key.key_id != key_id:
            raise ShreddedError(f"{where}: the key it was sealed under is shredded")
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = blob[1 + KEY_ID_BYTES : 1 + KEY_ID_BYTES + NONCE_BYTES]
        try:
            return AESGCM(key.secret).decrypt(
                nonce, blob[1 + KEY_ID_BYTES + NONCE_BYTES :], where.encode("utf-8")
            )
        except InvalidTag as exc:
            raise ShreddedError(f"{where}: the sealed body does not decrypt") from exc
