"""A memory that checks itself (SPEC §9): does an answer's citation still hold?

A lookup, never a model call: an answer's evidence carries the fingerprint its file had when it
was written, and the file registry keeps every version, so the check compares two hashes.

* **holds** — the cited file is still registered and its current version has that fingerprint;
* **changed_replaced** — the file is there but its current version has another fingerprint;
* **changed_removed** — the file was removed (or is no longer registered at all);
* **course files** (issue 27): a file of a class the student follows is on their map, not in
  their registry (``classmaps.folded_files``); an answer citing it holds while the map holds
  the version it cited, is **changed_replaced** when the class has a newer one, and
  **changed_removed** once no course on the map has the file (the student left the class);
* **unverifiable** — the episode cites no file (a conversation, a check), or cites one without
  a fingerprint to compare. A first-class result, not an error; it is also **final**: an
  episode is never edited, so what it cites can never change.

**The queue** (ours). Every answer is queued when it is written, in the append's own
transaction, so no answer is ever missed and no night reads the log to find them. A queue entry
is small — the answer's sequence, id, when it was last checked and what was found — and the
store keeps entries in the order a night takes them: never checked first (oldest answer first),
then oldest checked. A night checks a bounded batch and moves each entry to the time it was
checked, atomically with the annotation that records the result; a final entry leaves the
rotation. So the cost of a night is the batch, whatever the size of the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tutor_memory.domain.annotations import Verification
from tutor_memory.domain.classmaps import FoldedFile
from tutor_memory.domain.episodes import AnswerEvidence, Episode, Pair
from tutor_memory.domain.files import FileRecord


@dataclass(frozen=True)
class CitationEntry:
    """One answer in the verification queue."""

    pair: Pair
    seq: int
    episode_id: str
    checked_at: datetime | None = None  # None: never checked
    value: str | None = None  # the last result, a Verification value
    final: bool = False  # unverifiable for good: out of the rotation


def queue_order(entry: CitationEntry) -> tuple[bool, datetime | None, int]:
    """The order a night takes entries in: never checked first, then oldest checked."""
    return (entry.checked_at is not None, entry.checked_at, entry.seq)


@dataclass(frozen=True)
class CitationCheck:
    value: Verification
    detail: str  # says which change, and when, in words a report can quote

    @property
    def final(self) -> bool:
        return self.value is Verification.UNVERIFIABLE


def _day(at: datetime) -> str:
    return at.strftime("%Y-%m-%d")


def check_citation(
    episode: Episode, record: FileRecord | None, folded: Sequence[FoldedFile] = ()
) -> CitationCheck:
    """The verification of one episode against the registry's record of the file it cites
    (``record`` is None when no such file is registered) and the course files of that id
    folded into the student's map (``folded``)."""
    evidence = episode.evidence
    if not isinstance(evidence, AnswerEvidence) or evidence.file_id is None:
        return CitationCheck(
            Verification.UNVERIFIABLE, "cites no file (a conversation, a check): nothing to check"
        )
    if evidence.fingerprint is None:
        return CitationCheck(
            Verification.UNVERIFIABLE,
            f"cites {evidence.file_id} but recorded no fingerprint to compare",
        )
    course = check_course_citation(evidence.fingerprint, record, folded)
    if course is not None:
        return course
    if record is None:
        return CitationCheck(
            Verification.CHANGED_REMOVED, f"the file {evidence.file_id} is no longer registered"
        )
    if record.removed_at is not None:
        return CitationCheck(
            Verification.CHANGED_REMOVED,
            f"the file {record.name} was removed on {_day(record.removed_at)}",
        )
    current = record.current
    if current.fingerprint == evidence.fingerprint:
        return CitationCheck(
            Verification.HOLDS, f"the file {record.name} is unchanged (version {current.version})"
        )
    cited = next((v for v in record.versions if v.fingerprint == evidence.fingerprint), None)
    was = f"; the answer cited version {cited.version}" if cited is not None else ""
    return CitationCheck(
        Verification.CHANGED_REPLACED,
        f"the file {record.name} was replaced by version {current.version} "
        f"on {_day(current.at)}{was}",
    )


def check_course_citation(
    fingerprint: str, record: FileRecord | None, folded: Sequence[FoldedFile]
) -> CitationCheck | None:
    """The verification of a citation of a course file, or None when it cites the pair's own
    file (or no course file of its id is on the map): it holds when a course on the map has
    the cited version; it was replaced when the map has the file, newer, and the pair's own
    registry has no version with that fingerprint (the pair's own file is checked as ever)."""
    if not folded:
        return None
    for f in folded:
        if f.fingerprint == fingerprint:
            return CitationCheck(
                Verification.HOLDS,
                f"the course file {f.file_id} of class {f.class_id} is unchanged "
                f"(version {f.version})",
            )
    if record is not None and any(v.fingerprint == fingerprint for v in record.versions):
        return None
    f = next((f for f in folded if fingerprint in f.earlier), folded[0])
    cited = f.earlier.get(fingerprint)
    was = f"; the answer cited version {cited}" if cited is not None else ""
    return CitationCheck(
        Verification.CHANGED_REPLACED,
        f"the course file {f.file_id} of class {f.class_id} was replaced by version "
        f"{f.version}{was}",
    )
