"""Who may call an operation: the roles of a tenant's callers (pure: no I/O, no framework).

A tenant (a school, a tutoring company) has three kinds of caller:

=========  =============================================================================
role       what it may reach
=========  =============================================================================
service    the tenant's tutor backend: every pair of the tenant, every operation
teacher    the students of the teacher's classes: read them, record, re-derive beliefs
student    their own pairs only: their block, beliefs, report and export; record their
           own episodes; ask for their own erasure
=========  =============================================================================

Each operation of the surface names the roles that may call it (``api/operations.py``'s
table); ``refusal`` is the one rule every entry point applies.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    """Who is calling: a tenant, a role and, for a student, which student they are."""

    tenant: str
    role: Role
    student_id: str | None = None


def refusal(
    caller: Caller, roles: frozenset[Role], student_id: str | None, teaches: bool = False
) -> str | None:
    """Why ``caller`` may not call an operation open to ``roles`` on ``student_id``'s data
    (None: allowed). ``teaches``: the student is in one of the teacher's classes."""
    if caller.role not in roles:
        return f"a {caller.role} may not call this operation"
    if caller.role is Role.STUDENT and (student_id is None or caller.student_id != student_id):
        return "a student may reach only their own record"
    if caller.role is Role.TEACHER and student_id is not None and not teaches:
        return "this student is in none of the teacher's classes"
    return None
