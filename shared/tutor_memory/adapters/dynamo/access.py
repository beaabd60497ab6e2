"""The access directory in the cloud (``ports.AccessDirectory``): each tenant's class rosters
and its record of disclosures, in the store's own table, every partition key behind the
tenant's prefix (``domain.tenancy``) like the rest, so credentials scoped to a tenant reach
only its own.

====================================  ============================================================
``pk``                                ``sk``  → item
====================================  ============================================================
``ROSTER``                            ``CLASS#<class>`` → a class's roster: teachers, students
                                      (JSON), version, and ``pending`` while the teachers' items
                                      below are being brought in line with it
``TEACHER#<teacher>``                 ``CLASS#<class>`` → the students the teacher teaches in
                                      the class, and the roster version it was written from
                                      (``[]``: no longer the class's teacher)
``READS#<student>``                   ``<time>#<16 hex>`` → one read of the student's record:
                                      operation, subject, reader's role and id, time; never
                                      what was asked
``READS``                             ``ERASED`` → how many reads of erased students' records
                                      were deleted (the count a school keeps)
====================================  ============================================================

Why these keys: a teacher's every request asks whether they teach the student, so that is one
``Query`` of the teacher's own partition (a teacher has a handful of classes), not a read of
rosters; the rosters are one partition per tenant, so listing a tenant's classes (and finding
an erased student's) is a ``Query``, never a scan a tenant's credentials may not make. A read
is one ``PutItem`` into the student's own partition, which an export queries and an erasure
deletes whole.

A roster and its teachers' items are not one transaction (a class's teachers × students can
pass the 100 items a transaction takes): the roster is written first, under a version and
naming in ``pending`` every teacher whose item may need changing (the old teachers, the new,
and those a change that failed midway left pending); then each of those items is written
with the roster's version, only over an older one, so a slow writer never undoes a newer
roster; then ``pending`` is cleared. A change that failed midway (a 503) is completed by the
next change of that class, which finds its teachers still pending.

API keys are the embedded store's alone: the cloud's callers come from API Gateway's
authorisers (IAM, a Cognito pool's tokens), so this directory holds none and refuses to make
one.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, Final

from pynamodb.exceptions import PutError, PynamoDBException, UpdateError

from tutor_memory.adapters.dynamo.models import Models
from tutor_memory.adapters.dynamo.table import together
from tutor_memory.adapters.tenant_credentials import Credentials
from tutor_memory.domain.access import ApiKey, Disclosure, Role, SchoolClass
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.errors import ConflictError, StoreError, ValidationError, retry_on_conflict
from tutor_memory.domain.tenancy import DEFAULT_TENANT, key_prefix

NO_KEYS: Final = (
    "the cloud keeps no API keys: its callers sign in with the stack's Cognito pool "
    "(ClientApiUrl) or sign with IAM (ApiUrl); keys are for the embedded store's serve"
)
Roster = tuple[str, ...]  # ids, as a roster lists them
ROSTER_ATTEMPTS: Final = 5  # concurrent changes of one class before a 409


class DynamoAccessDirectory:
    """:class:`tutor_memory.ports.AccessDirectory` for one tenant, on DynamoDB."""

    def __init__(
        self,
        table_name: str,
        region: str,
        host: str | None = None,
        *,
        tenant: str = DEFAULT_TENANT,
        credentials: Credentials | None = None,
    ) -> None:
        self.tenant = tenant
        self.prefix = key_prefix(tenant)
        self.models = Models(table_name, region, host, credentials=credentials)

    # --- keys: none in the cloud ----------------------------------------------------------

    def add_key(self, key: ApiKey) -> None:
        raise ValidationError("keys", NO_KEYS)

    def key(self, key_id: str) -> ApiKey | None:
        return None  # a presented key is no one's: 401

    def keys(self, tenant: str | None = None) -> list[ApiKey]:
        raise ValidationError("keys", NO_KEYS)

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        raise ValidationError("keys", NO_KEYS)

    # --- the roster -------------------------------------------------------------------------

    def _roster_key(self) -> str:
        return f"{self.prefix}ROSTER"

    def _teacher_key(self, teacher_id: str) -> str:
        return f"{self.prefix}TEACHER#{teacher_id}"

    def _own(self, tenant: str) -> None:
        """Writes of another tenant's roster are refused (this directory's keys are its
        tenant's alone; the credentials it signs with may reach no other)."""
        if tenant != self.tenant:
            raise ValidationError("tenant", f"this directory holds {self.tenant!r}'s rosters only")

    def set_class(self, school_class: SchoolClass) -> None:
        c = school_class
        self._own(c.tenant)
        self._change(c.class_id, lambda _teachers, _students: (c.teachers, c.students))

    def _change(
        self,
        class_id: str,
        change: Callable[[Roster, Roster], tuple[Roster, Roster] | None],
    ) -> bool:
        """Rewrite the class's roster as ``change`` (given its teachers and students as
        stored) says (None: leave it); retried on what is stored when another writer came
        first (the last writer wins, as in the embedded directory). Whether it was written."""

        def attempt() -> bool:
            old = self._roster(class_id)
            teachers: tuple[str, ...] = ()
            students: tuple[str, ...] = ()
            lagging: set[str] = set()
            if old is not None:
                teachers = tuple(json.loads(old.teachers))
                students = tuple(json.loads(old.students))
                lagging = set(json.loads(old.pending or "[]"))
            wanted = change(teachers, students)
            if wanted is None:
                return False
            new_teachers, new_students = (tuple(sorted(set(w))) for w in wanted)
            pending = sorted(set(teachers) | lagging | set(new_teachers))
            version = (int(old.version) if old is not None else 0) + 1
            r = self.models.Roster
            item = r(
                self._roster_key(), f"CLASS#{class_id}", version=version,
                teachers=json.dumps(new_teachers), students=json.dumps(new_students),
                pending=json.dumps(pending),
            )  # fmt: skip
            condition = r.sk.does_not_exist() if old is None else r.version == old.version
            try:
                item.save(condition=condition)
            except PutError as exc:
                if exc.cause_response_code == "ConditionalCheckFailedException":
                    raise ConflictError(f"the roster of {class_id} changed meanwhile") from exc
                raise StoreError(str(exc)) from exc
            self._settle(class_id, version, new_teachers, new_students, pending)
            return True

        return retry_on_conflict(
            attempt,
            attempts=ROSTER_ATTEMPTS,
            gave_up=f"the roster of {class_id} kept changing meanwhile; try again",
        )

    def _settle(
        self,
        class_id: str,
        version: int,
        teachers: tuple[str, ...],
        students: tuple[str, ...],
        pending: list[str],
    ) -> None:
        """Each pending teacher's item as the roster of ``version`` says, then nothing
        pending (unless a newer roster was written meanwhile: it has its own)."""
        t = self.models.Teaching
        taught = json.dumps(list(students))

        def write(teacher: str) -> None:
            item = t(
                self._teacher_key(teacher), f"CLASS#{class_id}", version=version,
                students=taught if teacher in teachers else "[]",
            )  # fmt: skip
            try:
                item.save(condition=t.sk.does_not_exist() | (t.version < version))
            except PutError as exc:
                if exc.cause_response_code != "ConditionalCheckFailedException":
                    raise StoreError(str(exc)) from exc  # else a newer roster's is there

        together([functools.partial(write, teacher) for teacher in pending])
        r = self.models.Roster
        try:
            r(self._roster_key(), f"CLASS#{class_id}").update(
                actions=[r.pending.remove()], condition=r.version == version
            )
        except UpdateError as exc:
            if exc.cause_response_code != "ConditionalCheckFailedException":
                raise StoreError(str(exc)) from exc

    def _roster(self, class_id: str) -> Any:
        r = self.models.Roster
        try:
            return r.get(self._roster_key(), f"CLASS#{class_id}", consistent_read=True)
        except r.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def get_class(self, tenant: str, class_id: str) -> SchoolClass | None:
        if tenant != self.tenant:
            return None
        found = self._roster(class_id)
        return None if found is None else self._class(found)

    def _class(self, item: Any) -> SchoolClass:
        return SchoolClass(
            self.tenant,
            str(item.sk).removeprefix("CLASS#"),
            teachers=tuple(json.loads(item.teachers)),
            students=tuple(json.loads(item.students)),
        )

    def _rosters(self) -> list[Any]:
        r = self.models.Roster
        try:
            rows = r.query(self._roster_key(), r.sk.startswith("CLASS#"), consistent_read=True)
            return list(rows)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def classes(self, tenant: str) -> list[SchoolClass]:
        if tenant != self.tenant:
            return []
        return [self._class(item) for item in self._rosters()]

    def teaches(self, tenant: str, teacher_id: str, student_id: str) -> bool:
        """One query of the teacher's own partition (their classes' students)."""
        if tenant != self.tenant:
            return False
        t = self.models.Teaching
        try:
            rows = t.query(
                self._teacher_key(teacher_id), t.sk.startswith("CLASS#"), consistent_read=True
            )
            return any(student_id in json.loads(row.students) for row in rows)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def leave_classes(self, tenant: str, student_id: str) -> list[str]:
        if tenant != self.tenant:
            return []
        left = []
        for item in self._rosters():
            if student_id not in json.loads(item.students):
                continue
            class_id = str(item.sk).removeprefix("CLASS#")
            if self._change(
                class_id,
                lambda teachers, students: (
                    None
                    if student_id not in students
                    else (teachers, tuple(s for s in students if s != student_id))
                ),
            ):
                left.append(class_id)
        return sorted(left)

    # --- the record of disclosures ----------------------------------------------------------

    def _reads_key(self, student_id: str) -> str:
        return f"{self.prefix}READS#{student_id}"

    def record_read(self, disclosure: Disclosure) -> None:
        d = disclosure
        self._own(d.tenant)
        # ordered by time, then by when it was written (a clock held still in tests)
        sk = f"{format_time(d.at)}#{time.time_ns():016x}"
        item = self.models.Read(
            self._reads_key(d.student_id), sk, subject_id=d.subject_id, operation=d.operation,
            reader_role=d.reader_role.value, reader_id=d.reader_id, at=format_time(d.at),
        )  # fmt: skip
        try:
            item.save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _reads(self, student_id: str) -> list[Any]:
        m = self.models.Read
        try:
            return list(m.query(self._reads_key(student_id), consistent_read=True))
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def reads_of(self, tenant: str, student_id: str) -> list[Disclosure]:
        if tenant != self.tenant:
            return []
        return [self._disclosure(student_id, row) for row in self._reads(student_id)]

    def _disclosure(self, student_id: str, row: Any) -> Disclosure:
        return Disclosure(
            self.tenant, student_id, row.subject_id, row.operation, Role(row.reader_role),
            row.reader_id, parse_time(row.at),
        )  # fmt: skip

    def forget_reads(self, tenant: str, student_id: str) -> int:
        self._own(tenant)
        rows = self._reads(student_id)
        if not rows:
            return 0
        c = self.models.Count
        try:
            with self.models.Read.batch_write() as batch:
                for row in rows:
                    batch.delete(row)
            c(f"{self.prefix}READS", "ERASED").update(actions=[c.total.add(len(rows))])
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return len(rows)

    def erased_reads(self, tenant: str) -> int:
        if tenant != self.tenant:
            return 0
        c = self.models.Count
        try:
            return int(c.get(f"{self.prefix}READS", "ERASED", consistent_read=True).total)
        except c.DoesNotExist:
            return 0
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def close(self) -> None:
        return None
