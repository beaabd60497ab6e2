"""Who may call an operation: the callers of a tenant and the one rule applied to them (pure:
no I/O, no framework).

A tenant (a school, a tutoring company) has three kinds of caller:

=========  =============================================================================
role       what it may reach
=========  =============================================================================
service    the tenant's tutor backend: every pair of the tenant, every operation
teacher    the students of the teacher's classes: read them, record, re-derive beliefs;
           never erase, never a whole student's export
student    their own pairs only: their block, beliefs, report and export; record their
           own episodes; ask for their own erasure
=========  =============================================================================

Each operation of the surface names the roles that may call it (``api/operations.py``'s
table); ``decide`` is the one rule every entry point applies. Another tenant's record answers
as if it did not exist, so its existence does not leak.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class Role(StrEnum):
    SERVICE = "service"
    TEACHER = "teacher"
    STUDENT = "student"


EVERYONE = frozenset(Role)
STAFF = frozenset({Role.SERVICE, Role.TEACHER})
SERVICE_ONLY = frozenset({Role.SERVICE})
# a student's own data rights (erasure, a whole export), and the backend's
NOT_TEACHER = frozenset({Role.SERVICE, Role.STUDENT})


@dataclass(frozen=True)
class Caller:
    """Who is calling: a tenant, a role and an id (the student's own id for a student, the
    teacher's for a teacher, a name for a service)."""

    tenant: str
    role: Role
    id: str = ""

    def __str__(self) -> str:
        return f"{self.role} {self.id} of {self.tenant}".replace("  ", " ")


class Decision(StrEnum):
    ALLOW = "allow"
    FORBID = "forbid"  # a known caller, not theirs: 403
    HIDE = "hide"  # another tenant's: answered as not found (404)


def decide(
    caller: Caller,
    roles: frozenset[Role],
    tenant: str,
    student_id: str | None,
    *,
    teaches: bool = False,
) -> tuple[Decision, str]:
    """May ``caller`` call an operation open to ``roles`` on ``student_id``'s record (None: an
    operation on no one student) in ``tenant``? ``teaches``: the student is in one of the
    teacher's classes. The decision and, when refused, why in a caller's words."""
    if caller.tenant != tenant:
        return Decision.HIDE, "not found"
    if caller.role not in roles:
        return Decision.FORBID, f"a {caller.role} may not call this operation"
    if caller.role is Role.STUDENT and caller.id != student_id:
        return Decision.FORBID, "a student may reach only their own record"
    if caller.role is Role.TEACHER and student_id is not None and not teaches:
        return Decision.FORBID, "this student is in none of the teacher's classes"
    return Decision.ALLOW, ""


@dataclass(frozen=True)
class ApiKey:
    """A key as the memory keeps it: its id, the digest of its secret (never the secret), and
    the caller it stands for. Revoked keys are kept (who had access, and until when)."""

    key_id: str
    digest: str
    caller: Caller
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class SchoolClass:
    """A class of a tenant: its teachers and enrolled students (the roster)."""

    tenant: str
    class_id: str
    teachers: tuple[str, ...]
    students: tuple[str, ...]


KEY_PREFIX = "tm_"


def split_key(key: str) -> tuple[str, str] | None:
    """A presented key's id and secret (``tm_<id>_<secret>``), or None: not one of ours."""
    if not key.startswith(KEY_PREFIX):
        return None
    key_id, _, secret = key.removeprefix(KEY_PREFIX).partition("_")
    if not key_id or not secret:
        return None
    return key_id, secret


@dataclass(frozen=True)
class Disclosure:
    """One read of a student's record (the record of disclosures a school keeps): who read
    it, when, through which operation, and in which subject. Never what was asked."""

    tenant: str
    student_id: str
    subject_id: str | None  # None: a read across the student's subjects (their export)
    operation: str
    reader_role: Role
    reader_id: str
    at: datetime
