"""The profile log in DynamoDB: the store's own table, one item a statement under the
partition ``PROFILE#<student>`` (sort key: the zero-padded sequence), written only if the
sequence is free. When the deployment seals bodies under per-student data keys (crypto-
shredding, ``student_keys``), a statement's words are sealed under the same key, so the
shredding that erases the student leaves their profile unreadable in every backup too."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from pynamodb.attributes import BinaryAttribute, UnicodeAttribute
from pynamodb.exceptions import PutError
from pynamodb.models import Model

from tutor_memory.adapters.student_keys import StudentKeys
from tutor_memory.adapters.tenant_credentials import Credentials, credential_kwargs
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.profile import Aspect, Speaker, Statement, erased
from tutor_memory.domain.tenancy import DEFAULT_TENANT, key_prefix


def profile_pk(student_id: str, prefix: str = "") -> str:
    """The student's profile partition (``prefix``: the tenant's, ``domain.tenancy``)."""
    return f"{prefix}PROFILE#{student_id}"


class DynamoProfileLog:
    def __init__(
        self,
        table_name: str,
        region: str,
        host: str | None = None,
        *,
        keys: StudentKeys | None = None,
        tenant: str = DEFAULT_TENANT,
        credentials: Credentials | None = None,
    ) -> None:
        self.prefix = key_prefix(tenant)
        meta: Any = type(
            "Meta",
            (),
            {"table_name": table_name, "region": region, "host": host,
             "billing_mode": "PAY_PER_REQUEST", **credential_kwargs(credentials)},
        )  # fmt: skip

        class ProfileItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            envelope = UnicodeAttribute()  # sequence, links, time, aspect, who: never sealed
            body = UnicodeAttribute(null=True)  # key, value, due, source (plain)
            sealed = BinaryAttribute(null=True, legacy_encoding=False)  # or sealed

        self._model = ProfileItem
        self._keys = keys

    def _item(self, s: Statement) -> Any:
        envelope: dict[str, Any] = {
            "seq": s.seq, "aspect": s.aspect.value, "said_by": s.said_by.value,
            "at": format_time(s.at), "prev_hash": s.prev_hash, "hash": s.hash,
        }  # fmt: skip
        if s.erased_at is not None:
            envelope["erased_at"] = format_time(s.erased_at)
        if s.version >= 2:  # the form and the commitment; the salt is the words' (in the body)
            envelope["v"], envelope["commitment"] = s.version, s.commitment
        words: dict[str, Any] = {
            "key": s.key, "value": s.value, "source": s.source,
            "due": None if s.due is None else s.due.isoformat(),
        }  # fmt: skip
        if s.salt is not None:
            words["salt"] = s.salt
        body = json.dumps(words, ensure_ascii=False)
        item = self._model(
            profile_pk(s.student_id, self.prefix), f"{s.seq:012d}", envelope=json.dumps(envelope)
        )
        if self._keys is not None:
            key = self._keys.key(s.student_id, create=True)
            assert key is not None
            item.sealed = self._keys.seal(key, body.encode("utf-8"), self._where(s))
        else:
            item.body = body
        return item

    def append_statement(self, statement: Statement) -> None:
        s = statement
        item = self._item(s)
        try:
            item.save(condition=self._model.sk.does_not_exist())
        except PutError as exc:
            if "ConditionalCheckFailed" in str(exc):
                raise ConflictError(
                    f"statement {s.seq} of {s.student_id}'s profile is already written"
                ) from None
            raise

    def _where(self, s: Statement) -> str:
        return f"{profile_pk(s.student_id, self.prefix)}#{s.seq:012d}"

    def statements(self, student_id: str) -> list[Statement]:
        found = []
        for item in self._model.query(profile_pk(student_id, self.prefix), consistent_read=True):
            envelope = json.loads(item.envelope)
            seq = int(envelope["seq"])
            where = f"{profile_pk(student_id, self.prefix)}#{seq:012d}"
            if item.sealed is not None and self._keys is not None:
                raw = self._keys.open(student_id, bytes(item.sealed), where).decode("utf-8")
            else:
                raw = item.body or "{}"
            body = json.loads(raw)
            found.append(
                Statement(
                    student_id=student_id,
                    seq=seq,
                    aspect=Aspect(envelope["aspect"]),
                    key=str(body.get("key", "")),
                    value=str(body.get("value", "")),
                    said_by=Speaker(envelope["said_by"]),
                    at=parse_time(envelope["at"]),
                    due=None if body.get("due") is None else date.fromisoformat(body["due"]),
                    source=body.get("source"),
                    prev_hash=envelope["prev_hash"],
                    hash=envelope["hash"],
                    erased_at=(
                        parse_time(envelope["erased_at"]) if envelope.get("erased_at") else None
                    ),
                    version=int(envelope.get("v", 1)),
                    salt=body.get("salt"),
                    commitment=envelope.get("commitment"),
                )
            )
        return found

    def erase_statements(self, student_id: str, seqs: Sequence[int], at: datetime) -> int:
        """Each statement written again in place, its words gone (``domain.profile.erased``):
        the item's body, plain or sealed, holds only where it was heard."""
        wanted = set(seqs)
        done = 0
        for s in self.statements(student_id):
            if s.seq in wanted and s.erased_at is None:
                self._item(erased(s, at)).save(condition=self._model.sk.exists())
                done += 1
        return done

    def erase_profile(self, student_id: str) -> int:
        items = list(self._model.query(profile_pk(student_id, self.prefix), consistent_read=True))
        with self._model.batch_write() as batch:
            for item in items:
                batch.delete(item)
        return len(items)

    def close(self) -> None:
        return None
