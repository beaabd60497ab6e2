"""A class's course map in the cloud, on moto: a file uploaded under
``uploads/<tenant>/classes/<class>/<subject>/`` is read once by the ingest Lambda into the
class's course map in DynamoDB, and every student who follows the class has it on their map."""

from __future__ import annotations

from typing import Any

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.samples import sample_subject

from .conftest import LambdaContext, load_handler
from .test_ingest_handler import upload

STUDENTS = [f"s{i:02d}" for i in range(30)]


class CountingExtractor:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def extract(self, name: str, text: Any) -> Any:
        self.calls += 1
        return self.inner.extract(name, text)


def test_a_class_upload_builds_one_course_map_for_thirty_students(cloud: DynamoStore) -> None:
    app = lambda_app()
    counting = CountingExtractor(app.maps.extractor)
    app.maps.extractor = counting
    app.class_maps.enrol("7a", STUDENTS)
    name, data = sample_subject()[0]
    key = f"uploads/default/classes/7a/biology/{name}"
    result = load_handler("ingest").handler(upload(key, data), LambdaContext())
    assert result["outcomes"] == [
        {"key": key, "status": "ingested", "detail": "8 concepts; 30 students' maps follow it"}
    ]
    assert counting.calls == 1
    course = cloud.load_course("7a", "biology")
    assert "osmosis" in course.cmap.concepts and course.files[name].version == 1
    assert cloud.course_subjects("7a") == ["biology"]
    for student in STUDENTS:
        cmap = cloud.load_map(Pair(student, "biology"))
        assert cmap.courses == {"7a": course.version}
        assert cmap.concepts["osmosis"].sources[0].course == "7a"
    assert cloud.episodes(Pair("s01", "biology")) == []  # the class's file is no student's
    again = load_handler("ingest").handler(upload(key, data), LambdaContext())
    assert again["outcomes"][0]["status"] == "already read" and counting.calls == 1
    # Each student's check stays on their own map; leaving the class takes the course out.
    app.class_maps.enrol("7a", STUDENTS[1:])
    assert cloud.load_map(Pair("s00", "biology")).concepts == {}
    assert "osmosis" in cloud.load_map(Pair("s01", "biology")).concepts
    assert cloud.followers("7a") == tuple(STUDENTS[1:])


def test_another_tenants_class_upload_is_refused(cloud: DynamoStore) -> None:
    name, data = sample_subject()[0]
    key = f"uploads/other-school/classes/7a/biology/{name}"
    result = load_handler("ingest").handler(upload(key, data), LambdaContext())
    (outcome,) = result["outcomes"]
    assert outcome["status"] == "refused" and "not this store's" in outcome["detail"]
    assert cloud.load_course("7a", "biology").version == 0
