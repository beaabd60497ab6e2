"""The student's profile: what holds about the student in every subject (pure).

A per-student log, hash-chained like a pair's (``sha256(prev ‖ "\\n" ‖ canonical)``, genesis
``0…0``), of statements about the student. Each has an **aspect** from a small set, a **key**
within it, a **value**, who said it (the student, a teacher, the service) and when; a later
statement on the same aspect and key supersedes the earlier, which stays in the history (as a
belief does). A statement with an empty value retracts the aspect. A statement heard in an
episode (its ``source``) loses its words when that episode is erased (``erased``): it keeps its
place and link, and the statement before it on the aspect holds again.

Sealing (version 2, as a pair's chain: ``domain.chain``): the link hashes an *envelope* — the
student, sequence, aspect, who said it, when, where it was heard, and ``words``, a salted
commitment ``sha256(salt ‖ {key, value, due})`` — so that the words and their salt can be
erased and every statement, erased or not, is still checked. Statements sealed before
(version 1) hash their words directly: erased, only their place is checked. An erased statement
must have been heard in an episode that is erased in its pair's log (where each erasure is an
entry of the chain, held to the anchored checkpoints): a statement blanked by someone with write
access to the profile, with no erasure behind it, is a break (``first_break``). A log re-hashed
from some statement on shows against its **anchored checkpoint** (:class:`ProfileCheckpoint`,
signed and kept where the store's writer cannot rewrite it, as a pair's are: anchored after
every statement, ``checkpoint_break``).

==============  ===================================================  =========================
aspect          what it holds                                        key
==============  ===================================================  =========================
name            what the student is called, as they want to be       "" (one at a time)
                addressed ("Maya", "Maya Lopez")
preference      how the student wants to be taught ("examples        "" (one at a time)
                first", "short answers")
accommodation   what the student needs ("I have dyslexia, keep       the need's word
                sentences short", "I get extra time in tests")       ("dyslexia", "extra time")
language        the language of instruction ("explain in Urdu")      "" (one at a time)
goal            a goal, with its date when it has one ("my           its date (ISO), or ""
                chemistry exam is on 12 May")
other           anything else the student asks to be remembered      "" (one at a time)
                about themselves ("remember that I play violin")
==============  ===================================================  =========================

Every subject's block shows the current statements under ABOUT THE STUDENT, each with who said
it and when, a goal's date as days from today ("in 12 days"). The name also tells recall who the
student is: in a question, the student's own name says whom it is about, not what
(``names_of``; ``usecases.recall``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, tzinfo
from enum import StrEnum
from typing import Any

from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    GENESIS_HASH,
    canonical_json,
    commit,
    format_time,
    link_hash,
    new_salt,
    parse_time,
)
from tutor_memory.domain.errors import ValidationError


class Aspect(StrEnum):
    NAME = "name"
    PREFERENCE = "preference"
    ACCOMMODATION = "accommodation"
    LANGUAGE = "language"
    GOAL = "goal"
    OTHER = "other"


class Speaker(StrEnum):
    """Who said it: the student (in a message, or through their own app), a teacher, the
    tutor product's backend."""

    STUDENT = "student"
    TEACHER = "teacher"
    SERVICE = "service"


@dataclass(frozen=True)
class Statement:
    """One sealed statement of a student's profile log."""

    student_id: str
    seq: int
    aspect: Aspect
    key: str
    value: str  # "" retracts the aspect (and key)
    said_by: Speaker
    at: datetime
    due: date | None = None  # a goal's date
    source: str | None = None  # where it was heard: "<subject>/<episode id>"
    prev_hash: str = GENESIS_HASH
    hash: str = ""
    # When the episode it was heard in was erased (``erased``): its words (key, value, date)
    # are gone; its place in the log, its link and its hash stay. Not part of the hash.
    erased_at: datetime | None = None
    # The form it was sealed under (``seal``): 1, its words in the hash; 2, an envelope with a
    # salted commitment to its words (the salt goes with the words when erased).
    version: int = 1
    salt: str | None = None
    commitment: str | None = None

    @property
    def retracts(self) -> bool:
        return self.value == "" and self.erased_at is None


def erased(s: Statement, at: datetime) -> Statement:
    """``s`` with its words gone (the episode it was heard in was erased): the key, the value
    and the date are the student's words; who said it, when, where and the links are not."""
    return replace(s, key="", value="", due=None, salt=None, erased_at=at)


def heard_at(subject_id: str, episode_id: str) -> str:
    """A statement's ``source``: the episode it was heard in, "<subject>/<episode id>" (ids
    hold no "/": ``episodes.check_id``)."""
    return f"{subject_id}/{episode_id}"


def heard_in_subject(source: str, subject_id: str) -> bool:
    return source.split("/", 1)[0] == subject_id


def heard_in(statements: Sequence[Statement], sources: Callable[[str], bool]) -> list[int]:
    """The sequences of the statements heard in an episode ``sources`` accepts (by their
    ``source``, "<subject>/<episode id>"), not erased yet."""
    return [
        s.seq
        for s in statements
        if s.source is not None and s.erased_at is None and sources(s.source)
    ]


def _json(body: dict[str, object]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def canonical_words(s: Statement) -> bytes:
    """What a version-2 statement commits to: its words."""
    return _json(
        {"key": s.key, "value": s.value, "due": None if s.due is None else s.due.isoformat()}
    )


def canonical_envelope(s: Statement, commitment: str) -> bytes:
    """What a version-2 statement's link hashes: everything but its words, and their
    commitment."""
    return _json(
        {
            "v": 2,
            "student": s.student_id,
            "seq": s.seq,
            "aspect": s.aspect.value,
            "said_by": s.said_by.value,
            "at": format_time(s.at),
            "source": s.source,
            "words": commitment,
        }
    )


def canonical_v1(s: Statement) -> bytes:
    """What a version-1 statement's link hashes (statements sealed before version 2)."""
    body = {
        "student": s.student_id,
        "seq": s.seq,
        "aspect": s.aspect.value,
        "key": s.key,
        "value": s.value,
        "said_by": s.said_by.value,
        "at": format_time(s.at),
        "due": None if s.due is None else s.due.isoformat(),
        "source": s.source,
    }
    return _json(body)


def check_aspect(aspect: Aspect | str) -> Aspect:
    """The aspect; a ValidationError naming it otherwise."""
    try:
        return Aspect(aspect)
    except ValueError:
        raise ValidationError(
            "aspect", f"must be one of {', '.join(a.value for a in Aspect)}"
        ) from None


def is_name_length(name: str) -> bool:
    """Whether every word of ``name`` is no longer than a word of a name may be."""
    return all(len(word) <= C.MAX_NAME_WORD_CHARS for word in name.split())


def check_statement(aspect: Aspect | str, key: str, value: str) -> tuple[Aspect, str, str]:
    """The aspect, key and value as kept; a ValidationError naming the field otherwise."""
    parsed = check_aspect(aspect)
    key = " ".join(key.split())
    value = " ".join(value.split())
    if len(key) > C.MAX_PROFILE_KEY_CHARS:
        raise ValidationError("key", f"must be at most {C.MAX_PROFILE_KEY_CHARS} characters")
    if len(value) > C.MAX_PROFILE_VALUE_CHARS:
        raise ValidationError("value", f"must be at most {C.MAX_PROFILE_VALUE_CHARS} characters")
    for name, text in (("key", key), ("value", value)):
        if any(ord(ch) < 32 for ch in text):  # what the document's patterns refuse, no more
            raise ValidationError(name, "must not contain control characters")
    if parsed is Aspect.NAME and value:
        words = value.split()
        if len(words) > C.MAX_NAME_WORDS or not all(any(ch.isalpha() for ch in w) for w in words):
            raise ValidationError(
                "value", f"a name is at most {C.MAX_NAME_WORDS} words, each with a letter"
            )
        if not is_name_length(value):
            raise ValidationError(
                "value", f"a word of a name is at most {C.MAX_NAME_WORD_CHARS} characters"
            )
        if key:
            raise ValidationError("key", "a name has no key (one at a time)")
    return parsed, key, value


def seal(draft: Statement, previous: Statement | None, salt: str | None = None) -> Statement:
    """``draft`` chained after ``previous`` (None: the first of the log), under version 2
    with ``salt`` (a new one when not given)."""
    prev = previous.hash if previous is not None else GENESIS_HASH
    seq = previous.seq + 1 if previous is not None else 1
    salt = salt or new_salt()
    placed = replace(draft, seq=seq, prev_hash=prev, hash="", erased_at=None, version=2)
    commitment = commit(salt, canonical_words(placed))
    digest = link_hash(prev, canonical_envelope(placed, commitment))
    return replace(placed, hash=digest, salt=salt, commitment=commitment)


def first_break(
    statements: Sequence[Statement], heard_erased: Callable[[str], bool] | None = None
) -> str | None:
    """Where the log stops verifying (None: intact), in words. Each statement's place (its
    sequence, its link); a version-2 statement's envelope always, its words while it has
    them; a version-1 statement's words while it has them (erased, its hash can no longer be
    recomputed). An erased statement must have been heard in an episode, and — given
    ``heard_erased`` ("<subject>/<episode id>" → is that episode erased in its pair's log) —
    that episode must be erased: anything else was blanked without an erasure."""
    prev, expected, version = GENESIS_HASH, 1, 1
    for s in statements:
        if s.seq != expected:
            return f"statement {expected} is missing (found {s.seq})"
        if s.prev_hash != prev:
            return f"statement {s.seq}: its link does not follow statement {s.seq - 1}"
        if s.version < version:  # every statement is sealed under the newest form
            return f"statement {s.seq}: sealed under version {s.version} after version {version}"
        version = s.version
        if s.version >= 2:
            if s.commitment is None or link_hash(prev, canonical_envelope(s, s.commitment)) != (
                s.hash
            ):
                return f"statement {s.seq}: content changed"
            if s.erased_at is None and (
                s.salt is None or commit(s.salt, canonical_words(s)) != s.commitment
            ):
                return f"statement {s.seq}: its words changed"
        elif s.erased_at is None and link_hash(prev, canonical_v1(s)) != s.hash:
            return f"statement {s.seq}: content changed"
        if s.erased_at is not None:
            if s.source is None:
                return f"statement {s.seq}: erased, but it was not heard in an episode"
            if heard_erased is not None and not heard_erased(s.source):
                return f"statement {s.seq}: erased, but the episode it was heard in is not"
        prev, expected = s.hash, expected + 1
    return None


# --- anchored checkpoints ---------------------------------------------------------------------

PROFILE_ANCHOR_FORMAT = "tm-anchored-profile-checkpoint-1"


@dataclass(frozen=True)
class ProfileCheckpoint:
    """A point of a student's profile log (its length and head hash, at a time): a later log
    must extend it unchanged. Length 0 (the genesis hash): an empty log, as a student's
    erasure leaves it."""

    student_id: str
    seq: int
    head_hash: str
    at: datetime


def _checkpoint_fields(checkpoint: ProfileCheckpoint) -> dict[str, Any]:
    return {
        "format": PROFILE_ANCHOR_FORMAT,
        "student_id": checkpoint.student_id,
        "seq": checkpoint.seq,
        "head_hash": checkpoint.head_hash,
        "at": format_time(checkpoint.at),
    }


def profile_checkpoint_message(checkpoint: ProfileCheckpoint) -> bytes:
    """The bytes an anchored profile checkpoint's MAC signs; its own format, so that no
    signature of a pair's checkpoint (``chain.checkpoint_message``) passes for one."""
    return canonical_json(_checkpoint_fields(checkpoint))


@dataclass(frozen=True)
class AnchoredProfileCheckpoint:
    """A profile checkpoint signed (a MAC of :func:`profile_checkpoint_message`) and kept out
    of the store writer's reach (``ports.CheckpointAnchor``)."""

    checkpoint: ProfileCheckpoint
    key_id: str
    mac: str  # lowercase hex
    where: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {**_checkpoint_fields(self.checkpoint), "key_id": self.key_id, "mac": self.mac}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "") -> AnchoredProfileCheckpoint:
        """Raises ValueError (or KeyError, TypeError) on anything but one."""
        if data.get("format") != PROFILE_ANCHOR_FORMAT:
            raise ValueError(f"not an anchored profile checkpoint ({data.get('format')!r})")
        point = ProfileCheckpoint(
            str(data["student_id"]),
            int(data["seq"]),
            str(data["head_hash"]),
            parse_time(str(data["at"])),
        )
        return cls(point, str(data["key_id"]), str(data["mac"]), where)


def head_checkpoint(
    student_id: str, statements: Sequence[Statement], at: datetime
) -> ProfileCheckpoint:
    """The log as it stands, as a checkpoint."""
    last = statements[-1] if statements else None
    return ProfileCheckpoint(
        student_id, last.seq if last else 0, last.hash if last else GENESIS_HASH, at
    )


def checkpoint_break(
    statements: Sequence[Statement], anchored: AnchoredProfileCheckpoint, authentic: bool
) -> str | None:
    """Where the log stops extending its newest anchored checkpoint (None: it does)."""
    cp = anchored.checkpoint
    where = f" ({anchored.where})" if anchored.where else ""
    if not authentic:
        return (
            f"its newest anchored checkpoint{where}, of statement {cp.seq}, does not carry a "
            "valid signature of this anchor's key"
        )
    if cp.seq == 0:
        return None
    if len(statements) < cp.seq:
        return (
            f"statement {len(statements) + 1} is missing: the anchored checkpoint of "
            f"{format_time(cp.at)[:10]} names statement {cp.seq}"
        )
    if statements[cp.seq - 1].hash != cp.head_hash:
        return (
            f"statement {cp.seq} is not the one anchored on {format_time(cp.at)[:10]}: the "
            "log was rewritten"
        )
    return None


def profile_report(statements: Sequence[Statement], broken: str | None) -> str:
    """The log's state in one line: "intact: 3 statements" or where it stops verifying
    (``first_break``)."""
    if broken is not None:
        return f"broken: {broken}"
    count = len(statements)
    return f"intact: {count} statement{'' if count == 1 else 's'}"


def latest(statements: Sequence[Statement]) -> list[Statement]:
    """The latest word on each aspect and key, a retraction included (in the order each
    aspect was first said): what ``current`` keeps before it drops the retractions."""
    last: dict[tuple[Aspect, str], Statement] = {}
    for s in sorted(statements, key=lambda s: s.seq):
        if s.erased_at is None:  # an erased statement was never said: the one before holds
            last[(s.aspect, s.key)] = s
    return list(last.values())


def current(statements: Sequence[Statement]) -> list[Statement]:
    """The statements in force: the latest per aspect and key, retractions removed; who the
    student is and what they need first (the name, accommodations, the language), then how
    they like to be taught, their goals by date, the rest (the order a tight budget keeps
    them in)."""
    order = [
        Aspect.NAME,
        Aspect.ACCOMMODATION,
        Aspect.LANGUAGE,
        Aspect.PREFERENCE,
        Aspect.GOAL,
        Aspect.OTHER,
    ]
    kept = [s for s in latest(statements) if not s.retracts]
    return sorted(kept, key=lambda s: (order.index(s.aspect), s.due or date.max, s.key, s.seq))


def shown(in_force: Sequence[Statement], today: date) -> list[Statement]:
    """What the block shows of the statements in force (``current``), in their order: every
    one but a goal whose day passed more than ``GOAL_SHOWN_DAYS_AFTER`` days before ``today``
    (it stays in force, in the profile and its history)."""
    return [
        s for s in in_force
        if s.due is None or (today - s.due).days <= C.GOAL_SHOWN_DAYS_AFTER
    ]  # fmt: skip


def names_of(in_force: Sequence[Statement]) -> tuple[str, ...]:
    """The words of the student's name among the statements in force (``current``): ("Maya",
    "Lopez") for "Maya Lopez"; () when none."""
    return next((tuple(s.value.split()) for s in in_force if s.aspect is Aspect.NAME), ())


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _day(d: date, today: date) -> str:
    text = f"{d.day} {_MONTHS[d.month - 1]}"
    return text if d.year == today.year else f"{text} {d.year}"


def countdown(due: date, today: date) -> str:
    days = (due - today).days
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    if days > 1:
        return f"in {days} days"
    return "passed" if days < -1 else "yesterday"


def heard_in_greeting(s: Statement) -> bool:
    """A name the service stated because a tutor's line called the student by it."""
    return s.said_by is Speaker.SERVICE and s.source is not None


def line(s: Statement, *, now: datetime, tz: tzinfo = UTC) -> str:
    """One statement as the block shows it: '- goal: my chemistry exam is on 12 May (in 12
    days; said by the student, 3 Dec)'."""
    today = now.astimezone(tz).date()
    # the service's statement heard in an episode is a tutor's line that named the student
    # ("Hi Maya!", ``usecases.profile.hear_tutor``): "said by the service" read as a setting
    who = "heard in your greeting" if heard_in_greeting(s) else f"said by the {s.said_by.value}"
    said = f"{who}, {_day(s.at.astimezone(tz).date(), today)}"
    if s.due is not None:
        said = f"{_day(s.due, today)}, {countdown(s.due, today)}; {said}"
    return f"- {s.aspect.value}: {s.value} ({said})"
