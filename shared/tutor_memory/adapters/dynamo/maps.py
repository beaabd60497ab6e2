"""The concept map on DynamoDB: one item per pair, saved whole under an optimistic version; a
class's course maps under ``CLASS#<class>`` (``COURSE#<subject>``, saved as a pair's map is)
and the students who follow the class (``FOLLOWERS``)."""

from __future__ import annotations

import json
from dataclasses import replace

from pynamodb.exceptions import PutError, PynamoDBException

from tutor_memory.adapters.dynamo.table import DynamoTable
from tutor_memory.adapters.records import (
    course_from_blob,
    course_to_blob,
    map_from_blob,
    map_to_blob,
)
from tutor_memory.domain.classmaps import CourseMap
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError, StoreError
from tutor_memory.domain.routing import ConceptVectors


class DynamoMaps(DynamoTable):
    """:class:`tutor_memory.ports.MapStore` and its concept vectors on DynamoDB."""

    # --- the concept map --------------------------------------------------------------------

    def load_map(self, pair: Pair) -> ConceptMap:
        m = self.models.Map
        try:
            item = m.get(self.pk(pair), "MAP", consistent_read=True)
        except m.DoesNotExist:
            return ConceptMap()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return map_from_blob(bytes(item.body))

    def concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The routing vectors, read with the map (one row; they stay encoded until used)."""
        return self.load_map(pair).vectors

    def save_map(self, pair: Pair, cmap: ConceptMap) -> ConceptMap:
        m = self.models.Map
        saved = replace(cmap, version=cmap.version + 1)
        condition = m.sk.does_not_exist() if cmap.version == 0 else m.version == cmap.version
        if cmap.version == 0:  # a new map: into the student's index first (erasure finds it)
            self.index_student(pair.student_id, f"MAP#{pair.subject_id}")
        try:
            m(self.pk(pair), "MAP", version=saved.version, body=map_to_blob(saved)).save(
                condition=condition
            )
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"the map of {pair} changed meanwhile (expected version {cmap.version}); "
                    "nothing was saved"
                ) from exc
            raise StoreError(str(exc)) from exc
        return saved

    # --- a class's course maps (ports.CourseStore) -------------------------------------------

    def load_course(self, class_id: str, subject_id: str) -> CourseMap:
        m = self.models.Map
        try:
            item = m.get(
                class_key(class_id, self.prefix), f"COURSE#{subject_id}", consistent_read=True
            )
        except m.DoesNotExist:
            return CourseMap(class_id, subject_id)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return course_from_blob(bytes(item.body))

    def save_course(self, course: CourseMap) -> CourseMap:
        m = self.models.Map
        saved = replace(course, cmap=replace(course.cmap, version=course.version + 1))
        condition = m.sk.does_not_exist() if course.version == 0 else m.version == course.version
        item = m(
            class_key(course.class_id, self.prefix), f"COURSE#{course.subject_id}",
            version=saved.version, body=course_to_blob(saved),
        )  # fmt: skip
        try:
            item.save(condition=condition)
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"the course map of {course.class_id}/{course.subject_id} changed meanwhile "
                    f"(expected version {course.version}); nothing was saved"
                ) from exc
            raise StoreError(str(exc)) from exc
        return saved

    def course_subjects(self, class_id: str) -> list[str]:
        m = self.models.Map
        try:
            rows = m.query(
                class_key(class_id, self.prefix),
                m.sk.startswith("COURSE#"),
                attributes_to_get=["pk", "sk"],
            )
            return sorted(str(r.sk).removeprefix("COURSE#") for r in rows)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def followers(self, class_id: str) -> tuple[str, ...]:
        d = self.models.Document
        try:
            item = d.get(class_key(class_id, self.prefix), "FOLLOWERS", consistent_read=True)
        except d.DoesNotExist:
            return ()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return tuple(json.loads(item.body))

    def set_followers(self, class_id: str, students: tuple[str, ...]) -> None:
        d = self.models.Document
        body = json.dumps(sorted(set(students)))
        before = set(self.followers(class_id))
        for student in sorted(set(students) - before):  # indexed before they follow
            self.index_student(student, f"CLASS#{class_id}")
        try:
            d(class_key(class_id, self.prefix), "FOLLOWERS", version=1, body=body).save()
            for student in sorted(before - set(students)):
                self.models.Item(self.student_key(student), f"CLASS#{class_id}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def leave_classes(self, student_id: str) -> list[str]:
        """The classes the student's index says they follow (and, with the process's own
        credentials, a scan of the follower lists too: a store written before the index)."""
        d = self.models.Document
        classes = set(self.indexed(student_id, "CLASS"))
        try:
            if self.scans:  # a class followed before the student's index was kept
                mine = (d.sk == "FOLLOWERS") & d.pk.startswith(f"{self.prefix}CLASS#")
                for item in d.scan(mine):
                    if student_id in json.loads(item.body):
                        classes.add(str(item.pk).removeprefix(f"{self.prefix}CLASS#"))
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        left = []
        for class_id in sorted(classes):
            followers = self.followers(class_id)
            if student_id in followers:
                left.append(class_id)
                self.set_followers(class_id, tuple(s for s in followers if s != student_id))
        return left


def class_key(class_id: str, prefix: str = "") -> str:
    """A class's partition (in the tenant of ``prefix``): ids never contain ``#``, so it meets
    no pair's ``PAIR#…``."""
    return f"{prefix}CLASS#{class_id}"
