"""A class's course map: the concept map of one subject of a class, built once from the files a
teacher (or the service) uploads for the class, and folded into the map of every student who
follows the class (issue 27, "Classes and one course map").

Why folded, not merged on read: the turn reads one map per pair, with its derived numbers
(centrality, readiness, teaching order) computed when it changed; a merge on read would put the
graph library and a second read on the turn's path. So the course's files are read once (one
extractor call per file version, for the whole class) into the course map, and the course map
is then folded into each follower's own map (``conceptmap.fold_course``): a write per student,
no extraction. The student's map says which version of which course it holds
(``ConceptMap.courses``); every course source on it is tagged with its class, so that leaving
the class takes out what the class brought (``conceptmap.unfold_course``) and nothing else.
Each student's own files, checks and taught notes stay on their own map only.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tutor_memory.domain.conceptmap import ConceptMap


@dataclass(frozen=True)
class CourseFile:
    """One file of a course as last read: its version and fingerprint (its bytes' hash)."""

    file_id: str
    name: str
    version: int
    fingerprint: str


@dataclass(frozen=True)
class CourseMap:
    """The course map of one subject of a class, with the files read into it. Its version is
    its map's (the store saves it under that version, optimistically)."""

    class_id: str
    subject_id: str
    cmap: ConceptMap = field(default_factory=ConceptMap)
    files: dict[str, CourseFile] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.cmap.version

    def to_dict(self) -> dict[str, Any]:
        return {
            "class_id": self.class_id,
            "subject_id": self.subject_id,
            "map": self.cmap.to_dict(),
            "files": [
                {"file_id": f.file_id, "name": f.name, "version": f.version,
                 "fingerprint": f.fingerprint}
                for f in sorted(self.files.values(), key=lambda f: f.file_id)
            ],
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CourseMap:
        files = [
            CourseFile(str(f["file_id"]), str(f["name"]), int(f["version"]), str(f["fingerprint"]))
            for f in data.get("files", [])
        ]
        return cls(
            class_id=str(data["class_id"]),
            subject_id=str(data["subject_id"]),
            cmap=ConceptMap.from_dict(data.get("map", {})),
            files={f.file_id: f for f in files},
        )


@dataclass(frozen=True)
class FoldedFile:
    """A course file as a student's map holds it (what an answer citing it is checked against:
    the pair's own file registry does not list it): its class, its newest version on the map
    and that version's fingerprint, and the fingerprints of earlier versions the map still
    names (a concept the newer version no longer explains keeps the older source)."""

    class_id: str
    file_id: str
    version: int
    fingerprint: str
    earlier: Mapping[str, int] = field(default_factory=dict)  # fingerprint → version


def folded_files(cmap: ConceptMap) -> dict[str, tuple[FoldedFile, ...]]:
    """The course files folded into a student's map, by file id (one per class holding a file
    of that id, by class), read from the map's course sources: no other read. A course file
    that put no concept on the map is not among them."""
    versions: dict[tuple[str, str], dict[str, int]] = {}
    for concept in cmap.concepts.values():
        for s in concept.sources:
            if s.course:
                seen = versions.setdefault((s.file_id, s.course), {})
                seen[s.fingerprint] = max(s.version, seen.get(s.fingerprint, 0))
    found: dict[str, list[FoldedFile]] = {}
    for (file_id, class_id), seen in sorted(versions.items()):
        newest = max(seen, key=lambda f: (seen[f], f))
        earlier = {f: v for f, v in seen.items() if f != newest}
        found.setdefault(file_id, []).append(
            FoldedFile(class_id, file_id, seen[newest], newest, earlier)
        )
    return {k: tuple(v) for k, v in found.items()}
