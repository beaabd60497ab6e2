"""Episodes: the append-only log of what happened between the tutor and one student (SPEC §2).

A caller builds a :class:`NewEpisode` (validated on construction: a bad field raises
:class:`ValidationError` naming it, before anything is written); a store seals it into an
:class:`Episode` with its sequence number and hashes (see :mod:`tutor_memory.domain.chain`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, ClassVar, Final, Literal, TypeAlias

from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import IdempotencyConflictError, ValidationError

_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]*$")
# The same rule as a JSON Schema pattern (the OpenAPI document's ids say what check_id refuses).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._@-]*$"

# Characters that show nothing (ours, as a regular-expression class: the OpenAPI document's
# patterns are built from it, so the document and these checks agree character for character):
# the controls (C0, DEL, C1), the spaces and separators, the format characters (soft hyphen,
# zero-width spaces and joiners, bidi marks and isolates, invisible operators, the BOM), the
# variation selectors, and the characters that are letters or symbols by category but draw
# nothing (the Hangul fillers, the Khmer inherent vowels, the blank Braille pattern). Every
# character Python counts as whitespace is among them. Only the Basic Multilingual Plane is
# named: a JSON Schema pattern (ECMA-262) cannot name a code point above it in a class.
INVISIBLE_CLASS = (
    r"\x00-\x20\x7f-\xa0\xad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f"
    r"\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0"
    r"\ufff0-\ufffb"
)
CONTROL_CLASS = r"\x00-\x1f\x7f-\x9f"  # Unicode's controls (category Cc)
# Text that must say something: at least one visible character (a search, as JSON Schema's
# ``pattern`` is), and a name or an id: that, and no control character anywhere.
VISIBLE_PATTERN = f"[^{INVISIBLE_CLASS}]"
NAME_PATTERN = f"^[^{CONTROL_CLASS}]*[^{INVISIBLE_CLASS}][^{CONTROL_CLASS}]*$"
_VISIBLE_RE = re.compile(VISIBLE_PATTERN)
_CONTROL_RE = re.compile(f"[{CONTROL_CLASS}]")
# What ``str.strip`` strips (every character Python counts as whitespace), as a class.
SPACE_CLASS = r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# One line: no line break once the ends are stripped (a summary; an erasure's reason, which
# must also say something: ONE_LINE_PATTERN is it with a character that is not a space).
ONE_LINE_PATTERN = f"^[{SPACE_CLASS}]*[^\\n]*[{SPACE_CLASS}]*$"
SOME_LINE_PATTERN = f"^[{SPACE_CLASS}]*[^{SPACE_CLASS}][^\\n]*[{SPACE_CLASS}]*$"
# A file id as the document can say it: check_file_id's letters and digits of any script cannot
# be named by an ECMA-262 class, so every character past Latin-1's symbols may stand for one
# (the server refuses those that are not, naming ``file_id``).
FILE_ID_PATTERN = r"^[A-Za-z0-9\u00aa-\uffff][A-Za-z0-9._@\u00aa-\uffff-]*$"


class Kind(StrEnum):
    QUESTION = "question"
    ANSWER = "answer"
    CHECK = "check"
    QUIZ = "quiz"
    FILE = "file"
    TAUGHT = "taught"
    CONSOLIDATION = "consolidation"
    ERASURE = "erasure"  # written by an erasure, about the log itself (see ErasureEvidence)
    CORRECTION = "correction"  # names an earlier episode and the value it should have had


# Kinds the system writes about the log itself, never about the student (an erasure's entry):
# sealed and verified like every episode and exported, but never recalled, shown in a block,
# indexed, or counted among the student's episodes.
SYSTEM_KINDS: frozenset[Kind] = frozenset({Kind.ERASURE})


def about_the_student(episode: Episode | NewEpisode) -> bool:
    """Whether an episode is the student's (every kind but :data:`SYSTEM_KINDS`)."""
    return episode.kind not in SYSTEM_KINDS


def embedded(episode: Episode | NewEpisode) -> bool:
    """Whether an episode's index document carries its text's vector: every kind but a day's
    summary, which the night indexes by its words alone (it calls no model for its own
    writing). Every path that indexes one — the night, a write, a replay, a rebuilt index —
    follows this, so the same log recalls the same way whichever built the index."""
    return episode.kind is not Kind.CONSOLIDATION


def parse_kind(value: object) -> Kind:
    try:
        return Kind(str(value))
    except ValueError:
        allowed = ", ".join(k.value for k in Kind)
        raise ValidationError(
            "kind", f"unknown kind {value!r}; expected one of {allowed}"
        ) from None


def check_id(field_name: str, value: object) -> str:
    """Ids end up in table keys and object keys, so they are short and plain ASCII."""
    if not isinstance(value, str) or not value:
        raise ValidationError(field_name, "must be a non-empty string")
    if len(value) > C.MAX_ID_CHARS:
        raise ValidationError(field_name, f"must be at most {C.MAX_ID_CHARS} characters")
    if not _ID_RE.match(value):
        raise ValidationError(
            field_name, "may contain only letters A-Z a-z, digits and . _ @ - (not first)"
        )
    return value


def _file_id_char(ch: str) -> bool:
    return ch.isalnum() or ch in "._@-" or unicodedata.category(ch).startswith("M")


def check_file_id(field_name: str, value: object) -> str:
    """A file id keeps its name's script: letters and digits of any language (NFC, with their
    combining marks) and ``. _ @ -``, starting with a letter or digit; short, as a key."""
    if not isinstance(value, str) or not value:
        raise ValidationError(field_name, "must be a non-empty string")
    if len(value) > C.MAX_FILE_ID_CHARS:
        raise ValidationError(field_name, f"must be at most {C.MAX_FILE_ID_CHARS} characters")
    if (
        unicodedata.normalize("NFC", value) != value
        or not value[0].isalnum()
        or not all(_file_id_char(ch) for ch in value)
    ):
        raise ValidationError(
            field_name, "may contain only letters, digits (any script) and . _ @ - (not first)"
        )
    return value


def file_id_for(name: str) -> str:
    """The file id of an upload's name: the name itself where it is already an id (so an upload
    under the same name is a new version of the same file), else a slug of it (NFKC, anything
    but letters, digits and ``. _ @ -`` becomes ``-``, cut to fit) with a short hash of the whole
    name, so two different names never share an id (``a b`` and ``a-b``, two long names that
    differ only at the end, two Arabic names)."""
    text = unicodedata.normalize("NFC", name)
    slug = "".join(ch if _file_id_char(ch) else "-" for ch in unicodedata.normalize("NFKC", text))
    slug = unicodedata.normalize("NFC", re.sub(r"-{2,}", "-", slug))
    while slug and not slug[0].isalnum():
        slug = slug[1:]
    slug = slug.rstrip("-.")
    if slug == text and len(slug) <= C.MAX_FILE_ID_CHARS:
        return slug
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[: C.FILE_ID_HASH_CHARS]
    room = C.MAX_FILE_ID_CHARS - C.FILE_ID_HASH_CHARS - 1
    stem = slug[:room].rstrip("-.")
    return f"{stem}-{digest}" if stem else f"file-{digest}"


@dataclass(frozen=True, order=True)
class Pair:
    """One student in one subject: the scope of every read and write."""

    student_id: str
    subject_id: str

    def __post_init__(self) -> None:
        check_id("student_id", self.student_id)
        check_id("subject_id", self.subject_id)

    def __str__(self) -> str:
        return f"{self.student_id}/{self.subject_id}"


# --- idempotency keys -------------------------------------------------------------------------

# Keys the system writes under itself: a day's consolidation, a file's version, an unreadable
# file, an erasure's entry. A client may not use them (it could pre-claim a night or a file's
# arrival).
INTERNAL_KEY_PREFIXES: tuple[str, ...] = (
    "consolidation:", "file:", "file-unreadable:", "erasure:",
)  # fmt: skip


def check_client_key(field_name: str, key: str | None) -> str | None:
    """A client's idempotency key, outside the namespace the system keeps for itself."""
    if key is None:
        return None
    text = name_text(field_name, key, limit=C.MAX_IDEMPOTENCY_KEY_CHARS)
    if text.startswith(INTERNAL_KEY_PREFIXES):
        reserved = ", ".join(f"{p}…" for p in INTERNAL_KEY_PREFIXES)
        raise ValidationError(field_name, f"keys {reserved} are reserved for the system")
    return text


def erased_key_digest(pair: Pair, key: str) -> str:
    """What an erasure keeps of an episode's idempotency key, so that a retry of the erased
    write is recognised and refused: an HMAC-SHA256 of the key under its pair, never the key's
    text (a client may have put words in it). The same key in another pair hashes apart."""
    tag = f"tutor-memory:erased-idempotency-key:{pair.student_id}/{pair.subject_id}"
    return hmac.new(tag.encode("utf-8"), key.encode("utf-8"), hashlib.sha256).hexdigest()


def request_digest(request: Mapping[str, Any]) -> str:
    """The sha256 of a request's canonical JSON: what an idempotency key is bound to, so the same
    key with a different request is refused instead of silently answered with the first."""
    canonical = json.dumps(
        request, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def check_same_request(stored: Episode, new_hash: str | None) -> None:
    """A retry under a used key must be the same request (rows written before keys were bound,
    and writes that bind none, compare equal to anything)."""
    if stored.idempotency_key is None or stored.request_hash is None or new_hash is None:
        return
    if stored.request_hash != new_hash:
        raise IdempotencyConflictError(stored.idempotency_key)


# --- small validators -------------------------------------------------------------------------


def clean_text(field_name: str, value: object, *, limit: int, required: bool = True) -> str:
    """NFC-normalised text within a limit. NFC makes the same visible text hash the same."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError(field_name, "must be a string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(field_name, "is not valid Unicode text") from None
    text = unicodedata.normalize("NFC", value)
    if required and not text.strip():
        raise ValidationError(field_name, "must not be empty")
    if len(text) > limit:
        raise ValidationError(field_name, f"is {len(text)} characters; the limit is {limit}")
    return text


def has_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a character outside :data:`INVISIBLE_CLASS`."""
    return _VISIBLE_RE.search(text) is not None


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (:data:`CONTROL_CLASS`: NUL, ESC, DEL, …)."""
    return _CONTROL_RE.search(text) is not None


def visible_text(field_name: str, value: object, *, limit: int) -> str:
    """:func:`clean_text` that must show something: text of only spaces, controls or invisible
    characters (a zero-width space, a Hangul filler) says nothing and is refused. (Read paths
    keep :func:`clean_text`, so a row written before this rule still reads.)"""
    text = clean_text(field_name, value, limit=limit)
    if not has_visible(text):
        raise ValidationError(
            field_name,
            "must contain a visible character (not only spaces, controls or invisible ones)",
        )
    return text


def name_text(field_name: str, value: object, *, limit: int) -> str:
    """A name or a client's id (a concept, a topic, a ``ref``, an idempotency key): visible text
    with no control character anywhere (a NUL, an escape, a line break)."""
    text = visible_text(field_name, value, limit=limit)
    if has_control(text):
        raise ValidationError(field_name, "must not contain control characters")
    return text


def fraction(field_name: str, value: object) -> float:
    """A number in [0, 1], rounded so every backend stores and hashes the same value."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError(field_name, "must be a number between 0 and 1")
    number = float(value)
    if not 0.0 <= number <= 1.0:  # also rejects NaN
        raise ValidationError(field_name, f"must be between 0 and 1 (got {value})")
    return round(number, C.FRACTION_DECIMALS)


def non_negative(field_name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError(field_name, "must be a number")
    number = float(value)
    if not number >= 0.0 or number == float("inf"):
        raise ValidationError(field_name, f"must be a finite number >= 0 (got {value})")
    return round(number, C.FRACTION_DECIMALS)


def utc_timestamp(field_name: str, value: object) -> datetime:
    if not isinstance(value, datetime):
        raise ValidationError(field_name, "must be a datetime")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValidationError(field_name, "must carry a time zone (naive times are ambiguous)")
    try:
        return value.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59:59-01:00 is past the last representable instant
        raise ValidationError(field_name, "is outside the range of representable times") from None


def check_time_range(field_name: str, value: object, now: datetime | None = None) -> datetime:
    """A time in UTC inside :data:`C.EARLIEST_AT` .. ``now`` + :data:`C.LATEST_AHEAD` (the API
    passes its clock's now); without ``now``, inside the store's range :data:`C.LATEST_AT`."""
    at = utc_timestamp(field_name, value)
    latest = C.LATEST_AT if now is None else min(now.astimezone(UTC) + C.LATEST_AHEAD, C.LATEST_AT)
    if not C.EARLIEST_AT <= at <= latest:
        ahead = "" if now is None else " (a day after now)"
        raise ValidationError(
            field_name,
            f"must lie between {C.EARLIEST_AT:%Y-%m-%d} and {latest:%Y-%m-%dT%H:%M}Z{ahead}, "
            f"in UTC; got {at.isoformat()}",
        )
    return at


def string_list(
    field_name: str,
    values: object,
    *,
    limit: int,
    item_limit: int,
    item: Callable[..., str] = clean_text,
) -> tuple[str, ...]:
    """Distinct items, each checked by ``item`` (``clean_text``; ``name_text`` for names)."""
    if values is None:
        return ()
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise ValidationError(field_name, "must be a list of strings")
    out: list[str] = []
    for i, value in enumerate(values):
        text = item(f"{field_name}[{i}]", value, limit=item_limit).strip()
        if text not in out:
            out.append(text)
    if len(out) > limit:
        raise ValidationError(field_name, f"has {len(out)} items; the limit is {limit}")
    return tuple(out)


# --- evidence, one type per kind --------------------------------------------------------------


@dataclass(frozen=True)
class NoEvidence:
    kind_name: ClassVar[str] = "none"

    def to_dict(self) -> dict[str, Any]:
        return {}


# One for every episode that carries none (frozen, with no fields: one object serves all, and a
# process holding 20k decoded episodes keeps ~9k fewer objects for the collector to walk).
NO_EVIDENCE: Final = NoEvidence()


@dataclass(frozen=True)
class AnswerEvidence:
    """The file and page an answer cited, stamped with the file's fingerprint at that moment."""

    file_id: str | None = None
    page: int | None = None
    fingerprint: str | None = None

    def __post_init__(self) -> None:
        if self.file_id is not None:
            check_file_id("evidence.file_id", self.file_id)
        if self.page is not None and (
            isinstance(self.page, bool) or not isinstance(self.page, int) or self.page < 1
        ):
            raise ValidationError("evidence.page", "must be a whole number >= 1")
        if self.fingerprint is not None:
            check_fingerprint("evidence.fingerprint", self.fingerprint)
        if self.file_id is None and (self.page is not None or self.fingerprint is not None):
            raise ValidationError("evidence.file_id", "is required when a page or fingerprint is")

    def to_dict(self) -> dict[str, Any]:
        return {"file_id": self.file_id, "page": self.page, "fingerprint": self.fingerprint}


Verdict: TypeAlias = Literal["right", "wrong"]


@dataclass(frozen=True)
class CheckEvidence:
    """A check: its topic, the verdict, the tutor's evaluation, the mastery it predicted before."""

    topic: str
    verdict: Verdict
    evaluation: str = ""
    predicted_mastery: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "topic", clean_text("evidence.topic", self.topic, limit=C.MAX_NOTE_CHARS)
        )
        if self.verdict not in ("right", "wrong"):
            raise ValidationError("evidence.verdict", "must be 'right' or 'wrong'")
        object.__setattr__(
            self,
            "evaluation",
            clean_text(
                "evidence.evaluation", self.evaluation, limit=C.MAX_NOTE_CHARS, required=False
            ),
        )
        if self.predicted_mastery is not None:
            object.__setattr__(
                self,
                "predicted_mastery",
                fraction("evidence.predicted_mastery", self.predicted_mastery),
            )

    @property
    def passed(self) -> bool:
        return self.verdict == "right"

    def to_dict(self) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "verdict": self.verdict,
            "evaluation": self.evaluation,
            "predicted_mastery": self.predicted_mastery,
        }


@dataclass(frozen=True)
class QuizEvidence:
    score: float
    maximum: float
    topics: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        score = non_negative("evidence.score", self.score)
        maximum = non_negative("evidence.maximum", self.maximum)
        if maximum == 0:
            raise ValidationError("evidence.maximum", "must be greater than 0")
        if score > maximum:
            raise ValidationError("evidence.score", f"({score}) exceeds the maximum ({maximum})")
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "maximum", maximum)
        object.__setattr__(
            self,
            "topics",
            string_list(
                "evidence.topics",
                self.topics,
                limit=C.MAX_CONCEPTS_PER_EPISODE,
                item_limit=C.MAX_CONCEPT_CHARS,
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "maximum": self.maximum, "topics": list(self.topics)}


@dataclass(frozen=True)
class FileEvidence:
    file_id: str
    name: str
    fingerprint: str

    def __post_init__(self) -> None:
        check_file_id("evidence.file_id", self.file_id)
        object.__setattr__(
            self, "name", clean_text("evidence.name", self.name, limit=C.MAX_CONCEPT_CHARS * 2)
        )
        check_fingerprint("evidence.fingerprint", self.fingerprint)

    def to_dict(self) -> dict[str, Any]:
        return {"file_id": self.file_id, "name": self.name, "fingerprint": self.fingerprint}


@dataclass(frozen=True)
class TaughtEvidence:
    note: str

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "note", clean_text("evidence.note", self.note, limit=C.MAX_NOTE_CHARS)
        )

    def to_dict(self) -> dict[str, Any]:
        return {"note": self.note}


@dataclass(frozen=True)
class ConsolidationEvidence:
    """What one day held, written by the nightly loop (SPEC §10)."""

    day: str  # YYYY-MM-DD in the student's time zone
    counts: Mapping[str, int] = field(default_factory=dict)
    checks_right: int = 0
    checks_wrong: int = 0
    topics: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.day, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", self.day):
            raise ValidationError("evidence.day", "must be a date YYYY-MM-DD")
        counts = dict(self.counts)
        for name, count in counts.items():
            parse_kind(name)
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValidationError(f"evidence.counts.{name}", "must be a whole number >= 0")
        object.__setattr__(self, "counts", dict(sorted(counts.items())))
        for name in ("checks_right", "checks_wrong"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValidationError(f"evidence.{name}", "must be a whole number >= 0")
        object.__setattr__(
            self,
            "topics",
            string_list("evidence.topics", self.topics, limit=64, item_limit=C.MAX_CONCEPT_CHARS),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "counts": dict(self.counts),
            "checks_right": self.checks_right,
            "checks_wrong": self.checks_wrong,
            "topics": list(self.topics),
        }


# What a correction may change, by the kind it corrects (``domain.corrections`` holds the rules).
CorrectedField = Literal["verdict", "score", "note", "text"]
CORRECTED_FIELDS: dict[str, Kind] = {
    "verdict": Kind.CHECK,
    "score": Kind.QUIZ,
    "note": Kind.TAUGHT,
    "text": Kind.QUESTION,
}
CORRECTORS: tuple[str, ...] = ("student", "teacher", "service")


@dataclass(frozen=True)
class CorrectionEvidence:
    """A correction of an earlier episode of the same pair (issue 30): which one, the field that
    was wrong, its corrected value, the value it replaces where that is a verdict or a score
    (never the student's words: those stay in the episode corrected), and who corrected it.
    ``mastery`` is the corrected check's predicted mastery, so the nightly tally can move the
    check's outcome without reading the check again. The episode's text says why."""

    corrects: str
    field: CorrectedField
    value: str | float
    was: str | float | None = None
    by: str = "service"
    mastery: float | None = None

    def __post_init__(self) -> None:
        check_id("evidence.corrects", self.corrects)
        if self.field not in CORRECTED_FIELDS:
            allowed = ", ".join(CORRECTED_FIELDS)
            raise ValidationError("evidence.field", f"must be one of {allowed}")
        if self.by not in CORRECTORS:
            raise ValidationError("evidence.by", f"must be one of {', '.join(CORRECTORS)}")
        object.__setattr__(
            self, "value", _corrected_value("evidence.value", self.field, self.value)
        )
        if self.was is not None:
            object.__setattr__(self, "was", _corrected_value("evidence.was", self.field, self.was))
        if self.mastery is not None:
            object.__setattr__(self, "mastery", fraction("evidence.mastery", self.mastery))

    def to_dict(self) -> dict[str, Any]:
        return {
            "corrects": self.corrects,
            "field": self.field,
            "value": self.value,
            "was": self.was,
            "by": self.by,
            "mastery": self.mastery,
        }


def _corrected_value(field_name: str, corrected: str, value: object) -> str | float:
    if corrected == "verdict":
        if value not in ("right", "wrong"):
            raise ValidationError(field_name, "a verdict is 'right' or 'wrong'")
        return str(value)
    if corrected == "score":
        return non_negative(field_name, value)
    return clean_text(field_name, value, limit=C.MAX_NOTE_CHARS)


ErasureScope = Literal["episode", "pair", "student", "retention", "derived"]
ERASURE_SCOPES: tuple[str, ...] = ("episode", "pair", "student", "retention", "derived")
# The most episodes one erasure entry names (ours): a pair's erasure names every episode, and
# one entry must stay a small item (DynamoDB's limit is 400 KB; 500 names are ~55 KB); a bigger
# erasure writes one entry per 500, each before the bodies it names go.
ERASURE_ENTRY_MAX_ITEMS: Final = 500
# An erasure entry's salience (ours): it is never recalled, so it is never ranked.
ERASURE_SALIENCE: Final = 0.0
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class ErasedItem:
    """One episode an erasure entry names: its sequence, the number of its erasure record,
    and its commitment (chain v2; for a version-1 episode, its link hash stands in)."""

    seq: int
    number: int
    commitment: str

    def __post_init__(self) -> None:
        for name in ("seq", "number"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValidationError(f"evidence.erased.{name}", "must be a whole number >= 1")
        if not isinstance(self.commitment, str) or not _HEX64.match(self.commitment):
            raise ValidationError("evidence.erased.commitment", "must be 64 lowercase hex digits")

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "number": self.number, "commitment": self.commitment}


@dataclass(frozen=True)
class ErasureEvidence:
    """An erasure, as its entry in the chain records it (``Kind.ERASURE``): which episodes
    were erased (``erased``), why (an operator's line, never the student's words), who asked,
    and the scope asked for; the entry's time is the erasure's. Written before the bodies it
    names go, so an erasure cut short is finished by asking again. ``verify`` holds every
    erased body and every erasure record kept beside the chain to an entry."""

    erased: tuple[ErasedItem, ...]
    reason: str
    requested_by: str
    scope: str

    def __post_init__(self) -> None:
        items = self.erased
        if isinstance(items, str) or not isinstance(items, Sequence) or not items:
            raise ValidationError("evidence.erased", "must name at least one erased episode")
        if len(items) > ERASURE_ENTRY_MAX_ITEMS:
            raise ValidationError(
                "evidence.erased", f"names {len(items)} episodes; the limit is "
                f"{ERASURE_ENTRY_MAX_ITEMS}",
            )  # fmt: skip
        typed = tuple(
            item if isinstance(item, ErasedItem) else _erased_item(item) for item in items
        )
        if len({item.seq for item in typed}) != len(typed):
            raise ValidationError("evidence.erased", "names an episode twice")
        object.__setattr__(self, "erased", typed)
        reason = clean_text("evidence.reason", self.reason, limit=C.MAX_ERASURE_REASON_CHARS)
        if "\n" in reason.strip():
            raise ValidationError("evidence.reason", "must be one line")
        object.__setattr__(self, "reason", reason.strip())
        check_id("evidence.requested_by", self.requested_by)
        if self.scope not in ERASURE_SCOPES:
            raise ValidationError("evidence.scope", f"must be one of {', '.join(ERASURE_SCOPES)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "erased": [item.to_dict() for item in self.erased],
            "reason": self.reason,
            "requested_by": self.requested_by,
            "scope": self.scope,
        }


def _erased_item(data: object) -> ErasedItem:
    if not isinstance(data, Mapping) or set(data) != {"seq", "number", "commitment"}:
        raise ValidationError("evidence.erased", "each is {seq, number, commitment}")
    return ErasedItem(data["seq"], data["number"], data["commitment"])


def erasure_text(evidence: ErasureEvidence) -> str:
    """An erasure entry's line: how many, the scope, who asked and why (no student's word)."""
    n = len(evidence.erased)
    seqs = ", ".join(f"#{item.seq}" for item in evidence.erased[:10])
    more = f" and {n - 10} more" if n > 10 else ""
    return (
        f"Erased {n} episode{'s' if n != 1 else ''} ({seqs}{more}; {evidence.scope}, asked by "
        f'{evidence.requested_by}): "{evidence.reason}"'
    )


Evidence: TypeAlias = (
    NoEvidence
    | AnswerEvidence
    | CheckEvidence
    | QuizEvidence
    | FileEvidence
    | TaughtEvidence
    | ConsolidationEvidence
    | ErasureEvidence
    | CorrectionEvidence
)

EVIDENCE_TYPES: dict[Kind, type[Any]] = {
    Kind.QUESTION: NoEvidence,
    Kind.ANSWER: AnswerEvidence,
    Kind.CHECK: CheckEvidence,
    Kind.QUIZ: QuizEvidence,
    Kind.FILE: FileEvidence,
    Kind.TAUGHT: TaughtEvidence,
    Kind.CONSOLIDATION: ConsolidationEvidence,
    Kind.ERASURE: ErasureEvidence,
    Kind.CORRECTION: CorrectionEvidence,
}


def check_fingerprint(field_name: str, value: object) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ValidationError(field_name, "must be a sha256 hex digest (64 lowercase hex digits)")
    return value


def evidence_from_dict(kind: Kind, data: Mapping[str, Any] | None) -> Evidence:
    """Build the typed evidence of a kind from plain data (an API body, a stored row)."""
    data = dict(data or {})
    cls = EVIDENCE_TYPES[kind]
    if cls is NoEvidence:
        if any(v not in (None, "", [], {}) for v in data.values()):
            raise ValidationError("evidence", f"a {kind.value} carries no evidence")
        return NO_EVIDENCE
    allowed = set(cls.__dataclass_fields__)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ValidationError(f"evidence.{unknown[0]}", f"is not a field of {kind.value} evidence")
    missing = [
        name
        for name, spec in cls.__dataclass_fields__.items()
        if name not in data
        and spec.default is spec.default_factory  # both MISSING: the field is required
    ]
    if missing:
        raise ValidationError(f"evidence.{missing[0]}", f"is required for a {kind.value}")
    if "topics" in data and isinstance(data["topics"], list):
        data["topics"] = tuple(data["topics"])
    evidence: Evidence = cls(**data)
    return evidence


def default_salience(kind: Kind, evidence: Evidence) -> float:
    if kind is Kind.ERASURE:
        return ERASURE_SALIENCE
    if isinstance(evidence, CheckEvidence):
        return C.SALIENCE["check_passed" if evidence.passed else "check_missed"]
    return C.SALIENCE[kind.value]


def file_arrived(name: str, version: int = 1) -> str:
    """The line of a ``file`` episode: the file arrived (a version after the first says so)."""
    return f"File arrived: {name}" + (f" (version {version})" if version > 1 else "")


def summarise(text: str) -> str:
    """The default one-line summary: the first line, cut to the limit with an ellipsis."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    first = " ".join(first.split())
    if len(first) <= C.MAX_SUMMARY_CHARS:
        return first
    return first[: C.MAX_SUMMARY_CHARS - 1].rstrip() + "…"


def _id_item(field_name: str, value: object, *, limit: int) -> str:
    """An id in a list (an answer's recalled memory ids): as :func:`check_id` has it."""
    return check_id(field_name, value)


def _says_something(evidence: Evidence) -> None:
    """A new episode's evidence in words that show: a check's topic and a quiz's topics name
    concepts (no control characters), a taught note is visible text. (Evidence read back from
    a row is checked as it was written: these rules are for what is written now.)"""
    if isinstance(evidence, CheckEvidence):
        name_text("evidence.topic", evidence.topic, limit=C.MAX_NOTE_CHARS)
    elif isinstance(evidence, QuizEvidence):
        for i, topic in enumerate(evidence.topics):
            name_text(f"evidence.topics[{i}]", topic, limit=C.MAX_CONCEPT_CHARS)
    elif isinstance(evidence, TaughtEvidence):
        visible_text("evidence.note", evidence.note, limit=C.MAX_NOTE_CHARS)
    elif isinstance(evidence, CorrectionEvidence) and isinstance(evidence.value, str):
        visible_text("evidence.value", evidence.value, limit=C.MAX_NOTE_CHARS)


@dataclass(frozen=True)
class NewEpisode:
    """An episode as a caller proposes it. Validated on construction; nothing is stored yet."""

    pair: Pair
    kind: Kind
    text: str
    at: datetime
    summary: str = ""
    concepts: tuple[str, ...] = ()
    salience: float | None = None
    evidence: Evidence | None = None  # None: the kind's empty evidence, where it has one
    recalled_ids: tuple[str, ...] = ()
    ref: str | None = None
    idempotency_key: str | None = None
    request_hash: str | None = None  # see `request_digest`; bound to the idempotency key
    # Chain v2's body salt, hex. None: the store draws a fresh one. Given only by a replay of an
    # export, so that the replayed episode commits to its body exactly as the exported one did.
    salt: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.pair, Pair):
            raise ValidationError("pair", "must be a Pair")
        kind = parse_kind(self.kind)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", visible_text("text", self.text, limit=C.MAX_TEXT_CHARS))
        object.__setattr__(self, "at", check_time_range("at", self.at))
        summary = clean_text("summary", self.summary, limit=C.MAX_SUMMARY_CHARS, required=False)
        if "\n" in summary.strip():
            raise ValidationError("summary", "must be one line")
        object.__setattr__(self, "summary", summary.strip() or summarise(self.text))
        object.__setattr__(
            self,
            "concepts",
            string_list(
                "concepts",
                self.concepts,
                limit=C.MAX_CONCEPTS_PER_EPISODE,
                item_limit=C.MAX_CONCEPT_CHARS,
                item=name_text,
            ),
        )
        expected = EVIDENCE_TYPES[kind]
        if self.evidence is None:
            object.__setattr__(self, "evidence", evidence_from_dict(kind, {}))
        if not isinstance(self.evidence, expected):
            raise ValidationError(
                "evidence",
                f"a {kind.value} needs {expected.__name__}, not {type(self.evidence).__name__}",
            )
        salience = (
            default_salience(kind, self.evidence_value)
            if self.salience is None
            else fraction("salience", self.salience)
        )
        object.__setattr__(self, "salience", salience)
        _says_something(self.evidence_value)
        recalled = string_list(
            "recalled_ids",
            self.recalled_ids,
            limit=C.MAX_RECALLED_IDS,
            item_limit=C.MAX_ID_CHARS,
            item=_id_item,
        )
        if recalled and kind is not Kind.ANSWER:
            raise ValidationError("recalled_ids", "only an answer carries recalled memory ids")
        object.__setattr__(self, "recalled_ids", recalled)
        if self.ref is not None:
            object.__setattr__(self, "ref", name_text("ref", self.ref, limit=C.MAX_REF_CHARS))
        if self.idempotency_key is not None:
            object.__setattr__(
                self,
                "idempotency_key",
                clean_text(
                    "idempotency_key", self.idempotency_key, limit=C.MAX_IDEMPOTENCY_KEY_CHARS
                ),
            )

        if self.request_hash is not None:
            check_fingerprint("request_hash", self.request_hash)
        if self.salt is not None and not re.fullmatch(
            f"[0-9a-f]{{{2 * C.CHAIN_SALT_BYTES}}}", str(self.salt)
        ):
            raise ValidationError("salt", f"must be {C.CHAIN_SALT_BYTES} bytes as lowercase hex")

    @property
    def evidence_value(self) -> Evidence:
        assert self.evidence is not None  # set in __post_init__
        return self.evidence

    @property
    def salience_value(self) -> float:
        assert self.salience is not None  # set in __post_init__
        return self.salience


@dataclass(frozen=True)
class Episode:
    """A sealed episode: what the log stores. Never edited after it is written."""

    pair: Pair
    seq: int
    episode_id: str
    kind: Kind
    at: datetime
    summary: str
    text: str
    concepts: tuple[str, ...]
    salience: float
    evidence: Evidence
    recalled_ids: tuple[str, ...]
    ref: str | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    # The digest of the request that wrote it under its idempotency key (not chain content: a
    # property of the write, like the key). None on rows written before keys were bound.
    request_hash: str | None = None
    # The canonical form it was sealed under (see `chain`): 1, or 2 (an envelope and a salted
    # commitment to the body). Version 2 keeps the salt and the commitment beside the body.
    chain_version: int = 1
    salt: str | None = None
    commitment: str | None = None
    # Its body (summary, text, concepts, evidence, recalled ids, ref) and salt were erased; the
    # envelope (sequence, time, kind, salience, links) and the commitment stay.
    erased: bool = False
    # Not stored: when a later correction changed what this episode shows (its evidence or
    # text, as ``domain.corrections.apply`` gives it); None for an episode as written.
    corrected_at: datetime | None = field(default=None, compare=False)


def missed_note(ep: Episode) -> str:
    """What the tutor wrote about a check the student missed ("forgot to multiply by 2"): the
    what of "what did I get wrong?", which the verdict alone does not say. Empty for a passed
    check (its verdict says it), a check with no evaluation, and a corrected check (the
    evaluation was written for the verdict first recorded, which a correction changed)."""
    evidence = ep.evidence
    if not isinstance(evidence, CheckEvidence) or evidence.passed or ep.corrected_at is not None:
        return ""
    return evidence.evaluation
