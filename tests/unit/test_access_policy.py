"""The one access rule (domain/access.decide): every role against every kind of operation."""

from __future__ import annotations

import pytest

from tutor_memory.domain.access import (
    EVERYONE,
    NOT_TEACHER,
    SERVICE_ONLY,
    STAFF,
    Caller,
    Decision,
    Role,
    decide,
    split_key,
)

SERVICE = Caller("school-a", Role.SERVICE, "backend")
TEACHER = Caller("school-a", Role.TEACHER, "t-1")
ALICE = Caller("school-a", Role.STUDENT, "alice")
OTHER = Caller("school-b", Role.SERVICE, "backend")


@pytest.mark.parametrize(
    ("caller", "roles", "student", "teaches", "expected"),
    [
        (SERVICE, SERVICE_ONLY, None, False, Decision.ALLOW),
        (SERVICE, EVERYONE, "bob", False, Decision.ALLOW),
        (TEACHER, STAFF, "alice", True, Decision.ALLOW),
        (TEACHER, STAFF, "alice", False, Decision.FORBID),  # not in the teacher's classes
        (TEACHER, NOT_TEACHER, "alice", True, Decision.FORBID),  # erasure is not a teacher's
        (TEACHER, SERVICE_ONLY, None, False, Decision.FORBID),
        (ALICE, EVERYONE, "alice", False, Decision.ALLOW),
        (ALICE, NOT_TEACHER, "alice", False, Decision.ALLOW),  # her own erasure
        (ALICE, EVERYONE, "bob", False, Decision.FORBID),
        (ALICE, STAFF, "alice", False, Decision.FORBID),
        (ALICE, STAFF, None, False, Decision.FORBID),
        (OTHER, EVERYONE, "alice", False, Decision.HIDE),  # existence does not leak
        (OTHER, SERVICE_ONLY, None, False, Decision.HIDE),
    ],
)
def test_the_rule(
    caller: Caller, roles: frozenset[Role], student: str | None, teaches: bool, expected: Decision
) -> None:
    decision, why = decide(caller, roles, "school-a", student, teaches=teaches)
    assert decision is expected
    assert (why == "") == (decision is Decision.ALLOW)


@pytest.mark.parametrize(
    ("key", "parts"),
    [
        ("tm_0a1b2c3d4e5f_s3cr3t-value", ("0a1b2c3d4e5f", "s3cr3t-value")),
        ("tm_0a1b_", None),
        ("tm__secret", None),
        ("Bearer tm_0a1b_secret", None),
        ("AWS4-HMAC-SHA256 Credential=…", None),
        ("", None),
    ],
)
def test_a_presented_key_is_split_only_when_it_is_one_of_ours(
    key: str, parts: tuple[str, str] | None
) -> None:
    assert split_key(key) == parts
