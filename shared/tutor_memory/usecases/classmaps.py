"""One course map for a whole class (issue 27): a file uploaded to a class's subject is read
once into the class's course map, which is then folded into the map of every student who
follows the class (``domain/classmaps.py`` says why folded, not merged on read).

* ``ingest``: read the file (one extractor call per version, whoever follows the class), merge
  it into the course map as a pair's ingestion merges a file into its map, save the course map
  under its version, then ``sync`` it to the followers. The same bytes again read nothing and
  only re-sync (a crash between the save and the last follower is mended by a retry).
* ``enrol``: the class's students from now on (the roster's ``set_class`` calls it): the course
  maps are folded into the maps of the students who joined and taken out of the maps of those
  who left; a student who left keeps every episode, belief and file of their own.
* ``sync``: fold the course map into each follower's map not already at its version (a write
  per student, no extraction).

A student's own uploads, checks and taught notes go to their own map only, as before: a
classmate's map never sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tutor_memory.domain import constants as C
from tutor_memory.domain.classmaps import CourseFile, CourseMap
from tutor_memory.domain.conceptmap import (
    ConceptMap,
    Source,
    fold_course,
    merge_file,
    unfold_course,
)
from tutor_memory.domain.episodes import Pair, check_file_id, check_id, clean_text
from tutor_memory.domain.errors import retry_on_conflict
from tutor_memory.domain.files import fingerprint
from tutor_memory.domain.filetext import FileText
from tutor_memory.domain.routing import ConceptVectors
from tutor_memory.domain.validator import validate
from tutor_memory.ports import Extractor, Ports
from tutor_memory.usecases.maps import refresh_vectors, similar_nodes


@dataclass(frozen=True)
class ClassIngestResult:
    class_id: str
    subject_id: str
    file_id: str
    already_read: bool  # the same bytes were read for the class before: nothing was extracted
    concepts: tuple[str, ...]  # names kept from this file
    rejected: tuple[tuple[str, str], ...]  # (name, reason) the validator refused
    course_version: int
    students_updated: int  # followers whose maps took this version of the course map


@dataclass(frozen=True)
class Enrolment:
    class_id: str
    joined: tuple[str, ...]
    left: tuple[str, ...]
    subjects: tuple[str, ...]  # the class's course maps, folded in or taken out


class ClassMaps:
    def __init__(
        self,
        ports: Ports,
        *,
        read_file: Callable[[str, bytes], FileText],
        extractor: Extractor,
        derive: Callable[[ConceptMap], ConceptMap],
    ) -> None:
        self.ports = ports
        self.store = ports.store
        self.read_file = read_file
        self.extractor = extractor
        self.derive = derive

    def course(self, class_id: str, subject_id: str) -> CourseMap:
        return self.store.load_course(check_id("class_id", class_id), subject_id)

    def ingest(
        self,
        class_id: str,
        subject_id: str,
        file_id: str,
        name: str,
        data: bytes,
    ) -> ClassIngestResult:
        """Read one file into the class's course map (once per content), then fold the course
        map into every follower's map. An unreadable file raises ``UnreadableFileError`` and
        changes nothing (a class has no log to record it in)."""
        check_id("class_id", class_id)
        check_id("subject_id", subject_id)
        check_file_id("file_id", file_id)
        name = clean_text("name", name, limit=240)
        digest = fingerprint(data)
        current = self.store.load_course(class_id, subject_id).files.get(file_id)
        if current is not None and current.fingerprint == digest:
            course = self.store.load_course(class_id, subject_id)
            updated = self.sync(class_id, subject_id, course)
            return ClassIngestResult(
                class_id, subject_id, file_id, True, (), (), course.version, updated
            )
        drafts = self.extractor.extract(name, self.read_file(name, data))
        report = validate(drafts)
        kept = list(report.kept)
        version = 1 if current is None else current.version + 1
        source = Source(file_id, version, digest)
        embedder = self.ports.embedder

        def merge() -> CourseMap:
            course = self.store.load_course(class_id, subject_id)
            merged = similar_nodes(kept, course.cmap, embedder)
            cmap = self.derive(merge_file(course.cmap, kept, source, same_as=merged))
            files = {**course.files, file_id: CourseFile(file_id, name, version, digest)}
            changed = replace(course, cmap=refresh_vectors(cmap, embedder), files=files)
            return self.store.save_course(changed)

        saved = retry_on_conflict(
            merge,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the course map of {class_id}/{subject_id} kept changing; {name} "
            "was not merged",
        )
        updated = self.sync(class_id, subject_id, saved)
        return ClassIngestResult(
            class_id,
            subject_id,
            file_id,
            already_read=False,
            concepts=tuple(d.name for d in kept),
            rejected=tuple((d.name, why) for d, why in report.rejected),
            course_version=saved.version,
            students_updated=updated,
        )

    def sync(self, class_id: str, subject_id: str, course: CourseMap | None = None) -> int:
        """Fold the course map into each follower's map not already at its version; how many
        maps changed."""
        course = course or self.store.load_course(class_id, subject_id)
        if course.version == 0:
            return 0
        return sum(
            self._fold(Pair(student, subject_id), course)
            for student in self.store.followers(class_id)
        )

    def enrol(self, class_id: str, students: Sequence[str]) -> Enrolment:
        """The class's students from now on: its course maps are folded into the maps of
        those who joined and taken out of the maps of those who left. The followers are saved
        last, so that a crash part way is mended by calling it again."""
        check_id("class_id", class_id)
        for i, student in enumerate(students):
            check_id(f"students[{i}]", student)
        before, after = set(self.store.followers(class_id)), set(students)
        subjects = self.store.course_subjects(class_id)
        for subject in subjects:
            course = self.store.load_course(class_id, subject)
            for student in sorted(after):
                self._fold(Pair(student, subject), course)
            for student in sorted(before - after):
                self._unfold(Pair(student, subject), class_id)
        self.store.set_followers(class_id, tuple(sorted(after)))
        return Enrolment(
            class_id, tuple(sorted(after - before)), tuple(sorted(before - after)), tuple(subjects)
        )

    def _fold(self, pair: Pair, course: CourseMap) -> bool:
        embedder = self.ports.embedder

        def fold() -> bool:
            cmap = self.store.load_map(pair)
            if cmap.courses.get(course.class_id) == course.version:
                return False
            folded = fold_course(cmap, course.class_id, course.cmap, course.version)
            folded = self.derive(_with_course_vectors(folded, course.cmap))
            self.store.save_map(pair, refresh_vectors(folded, embedder))
            return True

        return retry_on_conflict(
            fold,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the map of {pair} kept changing; the course {course.class_id} was not folded",
        )

    def _unfold(self, pair: Pair, class_id: str) -> bool:
        embedder = self.ports.embedder

        def unfold() -> bool:
            cmap = self.store.load_map(pair)
            out = unfold_course(cmap, class_id)
            if out is cmap:
                return False
            self.store.save_map(pair, refresh_vectors(self.derive(out), embedder))
            return True

        return retry_on_conflict(
            unfold,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the map of {pair} kept changing; the course {class_id} was not taken out",
        )


def _with_course_vectors(cmap: ConceptMap, course: ConceptMap) -> ConceptMap:
    """The folded map with the course map's routing vectors for the concepts it lacks one for
    (a vector is kept with the digest of its text, so one whose text differs on the student's
    map is computed again): the course's concepts are embedded once, not once per student."""
    theirs = course.vectors
    if theirs is None:
        return cmap
    mine = cmap.vectors
    if mine is not None and mine.profile != theirs.profile:
        return cmap
    rows = {k: r for k, r in theirs.rows.items() if k in cmap.concepts}
    rows.update(mine.rows if mine is not None else {})
    return replace(
        cmap, vectors=ConceptVectors(theirs.profile, theirs.dimension, dict(sorted(rows.items())))
    )
