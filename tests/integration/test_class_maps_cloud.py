"""A class's course map in the cloud, on moto: a file uploaded under
``uploads/<tenant>/classes/<class>/<subject>/`` is read once by the ingest Lambda into the
class's course map in DynamoDB, and every student who follows the class has it on their map."""

from __future__ import annotations

import base64
import contextlib
import json
import zlib
from typing import Any

import boto3

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.samples import sample_subject

from .conftest import REGION, TABLE, TEST_TURN_DEADLINE_S, Api, LambdaContext, load_handler
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


def test_erasing_a_student_leaves_no_item_naming_them(cloud: DynamoStore) -> None:
    """On DynamoDB as on the embedded store: erasing a student takes them off the class's
    followers and deletes the maps folded for them; of one who never recorded anything no
    item names them, of one who did only what any erased pair keeps (envelopes, head, erasure
    records, and the day's activity, which expires)."""
    app = lambda_app()
    ghost, talker = "Ghostquokka", "Talkquokka"
    app.class_maps.enrol("7a", [ghost, talker, "s01"])
    name, data = sample_subject()[0]
    app.class_maps.ingest("7a", "biology", name, name, data)
    app.episodes.add(Pair(talker, "biology"), Kind.QUESTION, "What is osmosis?")
    assert app.erasing is not None
    for student in (ghost, talker):
        done = app.erasing.erase_student(student, reason="the family asked")
        assert f"{student}/biology" in done.erased
    assert cloud.followers("7a") == ("s01",)
    assert app.class_maps.ingest("7a", "biology", name, name, data + b"\n").students_updated == 1
    items = every_item()
    assert [i for i in items if ghost in text_of(i)] == []
    kept = ("EP#", "HEAD", "ERASE#", "ERASEDKEY#")
    for item in items:
        if talker in text_of(item):
            sk = item["sk"]["S"]
            assert sk.startswith(kept) or item["pk"]["S"].startswith("ACTIVE#"), sk


def every_item() -> list[dict[str, Any]]:
    """Every item of the table, every attribute (all pages of a scan)."""
    client = boto3.client("dynamodb", region_name=REGION)
    return [
        i for page in client.get_paginator("scan").paginate(TableName=TABLE) for i in page["Items"]
    ]


def text_of(item: dict[str, Any]) -> str:
    """An item as text, its binary attributes (compressed maps) opened where they can be."""
    parts = []
    for value in item.values():
        for kind, raw in value.items():
            if kind == "B":
                with contextlib.suppress(zlib.error):
                    raw = zlib.decompress(raw)
                parts.append(raw.decode("utf-8", "replace"))
            else:
                parts.append(json.dumps(raw, default=str))
    return "\n".join(parts)


def test_the_rest_route_reads_a_class_file_into_dynamodb(cloud: DynamoStore) -> None:
    """The API function's ``PUT /classes/{class_id}/subjects/{subject_id}/files/{file_id}``
    (behind API Gateway's IAM authorisation: the tenant's service)."""
    app = lambda_app()
    app.class_maps.enrol("7a", STUDENTS[:3])
    name, data = sample_subject()[0]
    body = {"name": name, "content": base64.b64encode(data).decode()}
    path = f"/classes/7a/subjects/biology/files/{name}"
    status, done = Api()("PUT", path, body)
    assert status == 201 and done["students_updated"] == 3 and "Osmosis" in done["concepts"]
    assert "osmosis" in cloud.load_map(Pair("s02", "biology")).concepts
    status, again = Api()("PUT", path, body)
    assert status == 200 and again["already_read"]


def test_a_tenants_class_from_its_roster_in_the_cloud_reads_the_syllabus_once(
    cloud: DynamoStore,
) -> None:
    """Another tenant, all through the cloud's doors: its service sets the roster (``PUT
    /classes``, kept in DynamoDB) and uploads the syllabus once under
    ``uploads/T/acme/classes/7a/biology/``; the ingest function reads it once for the thirty
    students (the extractor counted), each of whom then has it on their map with their own
    mastery; the class's teacher adds a file through the token API, a teacher of another class
    and a student may not."""
    api = Api()
    service = {"custom:tenant": "acme", "custom:role": "service", "custom:id": "backend"}
    acme = lambda_app.for_tenant("acme")
    acme.turns.deadline_s = TEST_TURN_DEADLINE_S
    counting = CountingExtractor(acme.maps.extractor)
    acme.maps.extractor = counting  # before the class maps are built: they read it then
    status, roster = api(
        "PUT", "/classes/7a", {"teachers": ["t-1"], "students": STUDENTS}, claims=service
    )
    assert status == 200 and roster["students"] == STUDENTS, roster
    assert acme.ports.store.followers("7a") == tuple(STUDENTS)
    name, data = sample_subject()[0]
    key = f"uploads/T/acme/classes/7a/biology/{name}"
    result = load_handler("ingest").handler(upload(key, data), LambdaContext())
    assert result["outcomes"] == [
        {"key": key, "status": "ingested", "detail": "8 concepts; 30 students' maps follow it"}
    ]
    assert counting.calls == 1  # once for the class, not once per student
    for student in STUDENTS:
        cmap = acme.ports.store.load_map(Pair(student, "biology"))
        assert cmap.concepts["osmosis"].sources[0].course == "7a", student
    assert cloud.load_map(Pair("s00", "biology")).concepts == {}  # not the default tenant's
    # each student's own checks on the shared map
    for student, verdict in (("s01", "right"), ("s02", "wrong")):
        status, _ = api(
            "POST", f"/pairs/{student}/biology/episodes",
            {"kind": "check", "text": "Explain osmosis in one line",
             "evidence": {"topic": "osmosis", "verdict": verdict}},
            claims=service,
        )  # fmt: skip
        assert status == 201
    blocks = {}
    for student in ("s01", "s02"):
        status, turn = api(
            "POST", f"/pairs/{student}/biology/turn", {"question": "what is osmosis?"},
            claims={**service, "custom:role": "teacher", "custom:id": "t-1"},
        )  # fmt: skip
        assert status == 200, turn
        blocks[student] = turn["block"]
    assert "understands Osmosis" in blocks["s01"] and "struggles" not in blocks["s01"]
    assert "struggles with Osmosis" in blocks["s02"] and "SUBJECT MAP" in blocks["s02"]
    # a file from the class's teacher through the token API: read once more, for all
    notes = b"# Diffusion\n\nDiffusion spreads particles from high to low concentration.\n"
    body = {"name": "diffusion.md", "content": base64.b64encode(notes).decode()}
    path = "/classes/7a/subjects/biology/files/diffusion.md"
    teacher = {**service, "custom:role": "teacher", "custom:id": "t-1"}
    status, done = api("PUT", path, body, claims=teacher)
    assert status == 201 and done["students_updated"] == 30, done
    assert counting.calls == 2
    for refused in (
        {**service, "custom:role": "teacher", "custom:id": "t-9"},
        {**service, "custom:role": "student", "custom:id": "s01"},
    ):
        status, problem = api("PUT", path, body, claims=refused)
        assert status == 403, problem
    assert counting.calls == 2
    # a student who joins later follows the course as read (nothing read again); one who
    # leaves keeps their own checks and loses the course
    status, _ = api(
        "PUT", "/classes/7a", {"teachers": ["t-1"], "students": [*STUDENTS[1:], "s30"]},
        claims=service,
    )  # fmt: skip
    assert status == 200 and counting.calls == 2
    late = acme.ports.store.load_map(Pair("s30", "biology"))
    assert {"osmosis", "diffusion"} <= set(late.concepts)
    assert acme.ports.store.load_map(Pair("s00", "biology")).concepts == {}
    # the roster's reads are kept: s02's record shows the teacher's turn
    status, page = api("GET", "/students/s02/export", claims=service)
    readers = {(d["reader"], d["operation"]) for d in page["manifest"]["disclosures"]}
    assert ("teacher:t-1", "turn") in readers
