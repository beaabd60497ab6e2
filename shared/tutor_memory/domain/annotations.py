"""Things learned about an episode after it was written, stored beside it, never inside it.

An annotation is its own row keyed by (pair, episode id, kind, time). Writing one never touches
the episode or its hash; the newest row of a kind is the current value, older rows stay as history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Pair, clean_text, utc_timestamp
from tutor_memory.domain.errors import ValidationError


class AnnotationKind(StrEnum):
    STANCE = "stance"  # did the answer answer? (SPEC §8)
    VERIFICATION = "verification"  # does the cited file still hold? (SPEC §9)


class Stance(StrEnum):
    ANSWERED = "answered"
    PARTIAL = "partial"
    COULD_NOT = "could_not"


class Verification(StrEnum):
    HOLDS = "holds"
    CHANGED_REPLACED = "changed_replaced"
    CHANGED_REMOVED = "changed_removed"
    UNVERIFIABLE = "unverifiable"  # cites no file: a first-class result, not an error


ALLOWED_VALUES: dict[AnnotationKind, frozenset[str]] = {
    AnnotationKind.STANCE: frozenset(s.value for s in Stance),
    AnnotationKind.VERIFICATION: frozenset(v.value for v in Verification),
}


@dataclass(frozen=True)
class Annotation:
    pair: Pair
    episode_id: str
    kind: AnnotationKind
    value: str
    at: datetime
    detail: str = ""

    def __post_init__(self) -> None:
        try:
            kind = AnnotationKind(self.kind)
        except ValueError:
            raise ValidationError("kind", "must be 'stance' or 'verification'") from None
        object.__setattr__(self, "kind", kind)
        if self.value not in ALLOWED_VALUES[kind]:
            allowed = ", ".join(sorted(ALLOWED_VALUES[kind]))
            raise ValidationError("value", f"a {kind.value} is one of {allowed}")
        object.__setattr__(self, "at", utc_timestamp("at", self.at))
        object.__setattr__(
            self,
            "detail",
            clean_text("detail", self.detail, limit=C.MAX_NOTE_CHARS, required=False),
        )


def current(annotations: list[Annotation], kind: AnnotationKind) -> Annotation | None:
    """The newest annotation of a kind (ties: the later-written row wins)."""
    of_kind = [a for a in annotations if a.kind is kind]
    return max(of_kind, key=lambda a: a.at) if of_kind else None
