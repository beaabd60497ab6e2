"""Who is calling, and may they: API keys (made, shown once, kept as a digest, revoked), the
roster of classes, and the check every entry point makes before an operation runs.

The rule itself is the domain's (``domain/access.decide``); this use case supplies what it
needs from the directory (whether a teacher teaches a student) and turns a refusal into the
error each door maps: 403 (``ForbiddenError``), or for another tenant's record the very 404 an
unknown pair gets (``NotFoundError``), so existence does not leak.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from tutor_memory.domain.access import (
    KEY_PREFIX,
    STAFF,
    ApiKey,
    Caller,
    Decision,
    Disclosure,
    Role,
    SchoolClass,
    decide,
    split_key,
)
from tutor_memory.domain.episodes import check_id
from tutor_memory.domain.errors import (
    ForbiddenError,
    NotAuthenticatedError,
    NotFoundError,
    ValidationError,
)
from tutor_memory.ports import AccessDirectory, Clock, Reads

DEFAULT_TENANT = "default"  # a store made before tenants: every record belongs to it


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class Access:
    def __init__(
        self,
        directory: AccessDirectory | None,
        clock: Clock,
        tenant: str = DEFAULT_TENANT,
        reads: Reads | None = None,
    ) -> None:
        self.directory = directory
        self.clock = clock
        self.tenant = tenant  # the tenant whose records this store holds
        self.reads = reads  # the turn path's reads (a read's record is written as one)

    def _kept(self) -> AccessDirectory:
        if self.directory is None:
            raise ValidationError(
                "keys", "a store in memory keeps no API keys or rosters (open one in a folder)"
            )
        return self.directory

    # --- keys -----------------------------------------------------------------------------

    def create_key(self, tenant: str, role: Role, caller_id: str = "") -> tuple[ApiKey, str]:
        """A new key for a caller, and its secret form (``tm_<id>_<secret>``): shown once,
        kept only as a digest."""
        check_id("tenant", tenant)
        if role is Role.SERVICE:
            caller_id = caller_id or "service"
        if role is not Role.SERVICE or caller_id:
            check_id("student" if role is Role.STUDENT else "id", caller_id)
        key_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
        key = ApiKey(
            key_id=key_id,
            digest=_digest(secret),
            caller=Caller(tenant, role, caller_id),
            created_at=self.clock.now(),
        )
        self._kept().add_key(key)
        return key, f"{KEY_PREFIX}{key_id}_{secret}"

    def revoke_key(self, key_id: str) -> None:
        if not self._kept().revoke_key(key_id, self.clock.now()):
            raise NotFoundError(f"no key {key_id!r}")

    def keys(self, tenant: str | None = None) -> list[ApiKey]:
        return self._kept().keys(tenant)

    def caller_of(self, presented: str | None) -> Caller:
        """The caller a presented key stands for; ``NotAuthenticatedError`` for no key, one
        that is not ours, a wrong secret or a revoked key (one message for all: a guesser
        learns nothing)."""
        parts = split_key(presented or "")
        found = None if parts is None or self.directory is None else self.directory.key(parts[0])
        if (
            parts is None
            or found is None
            or found.revoked_at is not None
            or not hmac.compare_digest(found.digest, _digest(parts[1]))
        ):
            raise NotAuthenticatedError(
                "send a valid API key (Authorization: Bearer tm_…); see `tutor-memory keys`"
            )
        return found.caller

    # --- the roster -------------------------------------------------------------------------

    def set_class(
        self, tenant: str, class_id: str, teachers: Sequence[str], students: Sequence[str]
    ) -> SchoolClass:
        check_id("tenant", tenant)
        check_id("class_id", class_id)
        for i, teacher in enumerate(teachers):
            check_id(f"teachers[{i}]", teacher)
        for i, student in enumerate(students):
            check_id(f"students[{i}]", student)
        school_class = SchoolClass(
            tenant, class_id, tuple(sorted(set(teachers))), tuple(sorted(set(students)))
        )
        self._kept().set_class(school_class)
        return school_class

    def get_class(self, tenant: str, class_id: str) -> SchoolClass:
        found = self._kept().get_class(tenant, class_id)
        if found is None:
            raise NotFoundError(f"no class {class_id!r}")
        return found

    def leave_classes(self, student_id: str) -> list[str]:
        """An erased student goes off every roster of this store's tenant; the classes they
        were in (a store without a directory, one in memory, keeps no roster)."""
        return (
            [] if self.directory is None else self.directory.leave_classes(self.tenant, student_id)
        )

    # --- the check ------------------------------------------------------------------------

    def check(
        self,
        caller: Caller,
        roles: frozenset[Role],
        student_id: str | None,
        subject_id: str | None = None,
    ) -> None:
        """Raises unless ``caller`` may call an operation open to ``roles`` on ``student_id``'s
        record (None: an operation on no one student), in ``subject_id`` if one."""
        teaches = (
            caller.role is Role.TEACHER
            and student_id is not None
            and self.directory is not None
            and self.directory.teaches(caller.tenant, caller.id, student_id)
        )
        decision, why = decide(caller, roles, self.tenant, student_id, teaches=teaches)
        if decision is Decision.HIDE:
            # word for word what an unknown pair answers (api/calls.known)
            what = (
                f"{student_id}/{subject_id}" if student_id and subject_id else (student_id or "it")
            )
            raise NotFoundError(
                f"no record of {what}: record an episode or upload a file for it first"
            )
        if decision is Decision.FORBID:
            raise ForbiddenError(f"{why} (the caller is a {caller.role} of {caller.tenant})")

    @contextmanager
    def allowed(
        self,
        caller: Caller,
        roles: frozenset[Role],
        student_id: str | None,
        subject_id: str | None = None,
        *,
        read: str | None = None,
        alongside: bool = True,
    ) -> Iterator[None]:
        """``check``, then the operation in the block. ``read``: the operation's name when it
        reads the student's record, which is then kept in the record of disclosures — written
        as the turn's reads run (in the cloud on an I/O thread while the block runs: a write
        is a round trip, and a turn's sequential waits are counted: ARCHITECTURE rule 10), and
        waited for before the block ends, so the answer leaves only once its record is kept:
        a record that cannot be written fails the call (a 503), and no read goes unrecorded.
        When the block fails, its error is the one raised. ``alongside=False``: written before
        the block runs (an export, which lists the record, lists its own read)."""
        self.check(caller, roles, student_id, subject_id)
        if read is None or student_id is None:
            yield
            return
        if self.reads is None or not alongside:
            self.record_read(caller, read, student_id, subject_id)
            yield
            return
        kept = self.reads.soon(self.record_read, caller, read, student_id, subject_id)
        try:
            yield
        except BaseException:
            kept.exception()  # written (or not) before the block's error leaves
            raise
        kept.result()

    def check_class(self, caller: Caller, class_id: str) -> None:
        """Raises unless ``caller`` may change what the class is taught from (upload a file to
        its course map): the service, or one of the class's teachers; never a student."""
        decision, why = decide(caller, STAFF, self.tenant, None)
        if decision is Decision.HIDE:
            raise NotFoundError(f"no class {class_id!r}")
        if decision is Decision.FORBID:
            raise ForbiddenError(f"{why} (the caller is a {caller.role} of {caller.tenant})")
        if caller.role is Role.TEACHER:
            found = None if self.directory is None else self.directory.get_class(
                caller.tenant, class_id
            )  # fmt: skip
            if found is None or caller.id not in found.teachers:
                raise ForbiddenError("a teacher may upload only to the classes they teach")

    # --- the record of disclosures ----------------------------------------------------------

    def record_read(
        self, caller: Caller, operation: str, student_id: str, subject_id: str | None
    ) -> None:
        """Keeps that ``caller`` read the student's record (who, when, which operation: never
        what was asked); a store without a directory (one in memory) keeps none."""
        if self.directory is None:
            return
        self.directory.record_read(
            Disclosure(
                caller.tenant, student_id, subject_id, operation, caller.role, caller.id,
                self.clock.now(),
            )
        )  # fmt: skip

    def reads_of(self, student_id: str) -> list[Disclosure]:
        return [] if self.directory is None else self.directory.reads_of(self.tenant, student_id)

    def forget_reads(self, student_id: str) -> int:
        """An erased student's reads go; their number stays (``erased_reads``)."""
        return 0 if self.directory is None else self.directory.forget_reads(self.tenant, student_id)
