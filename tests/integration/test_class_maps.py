"""One course map for a whole class (issue 27): a teacher uploads the syllabus once; every
enrolled student's map is the course map plus what their own files add, with their own checks
and beliefs on it; leaving the class takes the course out and keeps the student's history."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.domain.access import Caller, Role
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.constants import READINESS_CONFIRMED, READINESS_EXPLAINED
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import ForbiddenError, NotFoundError
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)  # type: ignore[call-arg]
STUDENTS = [f"s{i:02d}" for i in range(30)]
OWN_NOTES = b"""# My biology notes

## Photosynthesis

Photosynthesis is how green plants make glucose from light, water and carbon dioxide.

## Chlorophyll

Chlorophyll is the green pigment that absorbs light for photosynthesis.
"""


class CountingExtractor:
    """The store's extractor, counting its calls (one per file version read)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def extract(self, name: str, text: Any) -> Any:
        self.calls.append(name)
        return self.inner.extract(name, text)


@pytest.fixture
def school(tmp_path: Path) -> Iterator[tuple[Memory, CountingExtractor, Path]]:
    """A store with class 7a (teacher t-1, thirty students), its extractor counted."""
    with Memory.local(tmp_path / "store", settings=SETTINGS) as memory:
        app = memory.backend.app  # type: ignore[attr-defined]
        counting = CountingExtractor(app.maps.extractor)
        app.maps.extractor = counting
        memory.set_class("7a", teachers=["t-1"], students=STUDENTS)
        name, data = sample_subject()[0]
        syllabus = tmp_path / name
        syllabus.write_bytes(data)
        yield memory, counting, syllabus


def course_map(memory: Memory, student: str) -> ConceptMap:
    return memory.pair(student, "biology").map()


def test_a_class_of_thirty_shares_one_course_map_read_once(
    school: tuple[Memory, CountingExtractor, Path],
) -> None:
    memory, counting, syllabus = school
    done = memory.ingest_class("7a", "biology", syllabus)
    assert counting.calls == [syllabus.name]  # once for the class, not once per student
    assert done.students_updated == 30 and not done.already_read
    maps = [course_map(memory, s) for s in STUDENTS]
    assert {"osmosis", "cell membrane", "mitochondria"} <= set(maps[0].concepts)
    assert all(m.concepts.keys() == maps[0].concepts.keys() for m in maps)
    assert all(m.courses == {"7a": done.course_version} for m in maps)
    source = maps[7].concepts["osmosis"].sources[0]
    assert (source.file_id, source.course) == (syllabus.name, "7a")
    again = memory.ingest_class("7a", "biology", syllabus)
    assert again.already_read and again.students_updated == 0
    assert counting.calls == [syllabus.name]


def test_each_students_block_shows_their_own_mastery(
    school: tuple[Memory, CountingExtractor, Path],
) -> None:
    memory, _, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    alice, bob = memory.pair("s01", "biology"), memory.pair("s02", "biology")
    alice.record_check("Explain osmosis in one line", topic="osmosis", verdict="right")
    bob.record_check("Explain osmosis in one line", topic="osmosis", verdict="wrong")
    mine, theirs = alice.turn("what is osmosis?").block, bob.turn("what is osmosis?").block
    assert "understands Osmosis" in mine and "struggles with Osmosis" not in mine
    assert "struggles with Osmosis" in theirs and "understands Osmosis" not in theirs
    assert "SUBJECT MAP" in mine and "SUBJECT MAP" in theirs
    assert alice.map().concepts["osmosis"].readiness == READINESS_CONFIRMED
    assert bob.map().concepts["osmosis"].readiness == READINESS_EXPLAINED
    # A new version of the course keeps what each student's checks confirmed on it.
    syllabus.write_bytes(syllabus.read_bytes() + b"\n")
    memory.ingest_class("7a", "biology", syllabus)
    assert alice.map().concepts["osmosis"].confirmed
    assert not bob.map().concepts["osmosis"].confirmed


def test_a_students_own_file_never_changes_a_classmates_map(
    school: tuple[Memory, CountingExtractor, Path], tmp_path: Path
) -> None:
    memory, _, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    before = course_map(memory, "s02").to_dict()
    notes = tmp_path / "my notes.md"
    notes.write_bytes(OWN_NOTES)
    memory.pair("s01", "biology").ingest(notes)
    mine = course_map(memory, "s01")
    assert "photosynthesis" in mine.concepts and "osmosis" in mine.concepts
    assert course_map(memory, "s02").to_dict() == before
    # The course's later version reaches the student's map and keeps their own file's concepts.
    syllabus.write_bytes(syllabus.read_bytes() + b"\n")
    memory.ingest_class("7a", "biology", syllabus)
    assert {"photosynthesis", "osmosis"} <= set(course_map(memory, "s01").concepts)
    assert "photosynthesis" not in course_map(memory, "s02").concepts


def test_leaving_the_class_takes_the_course_out_and_keeps_the_history(
    school: tuple[Memory, CountingExtractor, Path], tmp_path: Path
) -> None:
    memory, counting, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    bob = memory.pair("s02", "biology")
    bob.record_check("Explain osmosis in one line", topic="osmosis", verdict="wrong")
    notes = tmp_path / "my notes.md"
    notes.write_bytes(OWN_NOTES)
    bob.ingest(notes)
    memory.set_class("7a", teachers=["t-1"], students=[s for s in STUDENTS if s != "s02"])
    left = bob.map()
    assert "osmosis" not in left.concepts and "mitochondria" not in left.concepts
    assert "photosynthesis" in left.concepts  # his own file's concepts stay
    assert left.courses == {}
    assert not any(s.course for c in left.concepts.values() for s in c.sources)
    assert [b.line for b in bob.beliefs()] == ["struggles with Osmosis (0.67)"]
    assert [e["kind"] for e in bob.episodes().episodes] == [Kind.CHECK, Kind.FILE]
    assert bob.verify().intact
    assert "osmosis" in course_map(memory, "s03").concepts  # the others still follow it
    # Joining again brings the course back without reading the file again.
    memory.set_class("7a", teachers=["t-1"], students=STUDENTS)
    assert "osmosis" in bob.map().concepts
    assert counting.calls == [syllabus.name, notes.name]


def test_a_student_who_joins_later_gets_the_course_map(
    school: tuple[Memory, CountingExtractor, Path],
) -> None:
    memory, counting, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    with pytest.raises(NotFoundError):  # no record of them yet
        course_map(memory, "late")
    memory.set_class("7a", teachers=["t-1"], students=[*STUDENTS, "late"])
    assert "osmosis" in course_map(memory, "late").concepts
    assert len(counting.calls) == 1


def test_report_and_teaching_order_work_on_the_combined_map(
    school: tuple[Memory, CountingExtractor, Path], tmp_path: Path
) -> None:
    memory, _, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    alice = memory.pair("s01", "biology")
    notes = tmp_path / "my notes.md"
    notes.write_bytes(OWN_NOTES)
    alice.ingest(notes)
    combined = alice.map()
    ordered = [key for layer in combined.teaching_order for key in layer]
    assert {"osmosis", "photosynthesis"} <= set(ordered)
    assert ordered.index("cell membrane") < ordered.index("osmosis")  # prerequisites first
    report = alice.report()
    text = report.model_dump_json()
    assert "Osmosis" in text and "Photosynthesis" in text
    assert 0 < combined.subject_readiness <= 1
    block = alice.turn("what should I learn first?").block
    assert "SUBJECT MAP" in block and "Photosynthesis" in block and "Osmosis" in block


def test_students_may_not_upload_to_a_class_and_teachers_only_to_their_own(
    school: tuple[Memory, CountingExtractor, Path], tmp_path: Path
) -> None:
    memory, counting, syllabus = school
    app = memory.backend.app  # type: ignore[attr-defined]
    memory.set_class("8b", teachers=["t-2"], students=["s40"])
    as_student = Memory._opened(app, True, Caller("default", Role.STUDENT, "s01"))
    with pytest.raises(ForbiddenError, match="student may not"):
        as_student.ingest_class("7a", "biology", syllabus)
    other_teacher = Memory._opened(app, True, Caller("default", Role.TEACHER, "t-2"))
    with pytest.raises(ForbiddenError, match="classes they teach"):
        other_teacher.ingest_class("7a", "biology", syllabus)
    other_tenant = Memory._opened(app, True, Caller("other", Role.SERVICE, "svc"))
    with pytest.raises(NotFoundError):
        other_tenant.ingest_class("7a", "biology", syllabus)
    assert counting.calls == []
    teacher = Memory._opened(app, True, Caller("default", Role.TEACHER, "t-1"))
    assert teacher.ingest_class("7a", "biology", syllabus).students_updated == 30


def test_the_cli_reads_a_file_into_a_class(tmp_path: Path, capsys: Any) -> None:
    from tutor_memory.cli import main

    store = tmp_path / "store"
    name, data = sample_subject()[0]
    (tmp_path / name).write_bytes(data)
    main(["classes", "set", "7a", "--teacher", "t-1", "--student", "a", "--student", "b",
          "--store", str(store)])  # fmt: skip
    capsys.readouterr()
    assert main(["classes", "ingest", "7a", "biology", str(tmp_path / name), "--store",
                 str(store)]) == 0  # fmt: skip
    said = capsys.readouterr().out
    assert "into the course map of 7a/biology" in said and "2 students' maps follow it" in said
    with Memory.local(store, settings=SETTINGS) as memory:
        assert "osmosis" in memory.pair("b", "biology").map().concepts
        assert memory.pair("b", "biology").episodes().episodes == []  # the class's: none


def test_one_pair_store_keeps_course_sources_apart_from_its_own_file(tmp_path: Path) -> None:
    """Erasing a student's own file of the same name and bytes as the course's leaves the
    course's sources on their map."""
    name, data = sample_subject()[0]
    (tmp_path / name).write_bytes(data)
    with Memory.local(tmp_path / "store", settings=SETTINGS) as memory:
        memory.set_class("7a", students=["a"])
        memory.ingest_class("7a", "biology", tmp_path / name)
        a = memory.pair("a", "biology")
        a.ingest(tmp_path / name)
        app = memory.backend.app  # type: ignore[attr-defined]
        digest = next(iter(a.map().concepts["osmosis"].sources)).fingerprint
        app.maps.forget_file(Pair("a", "biology"), name, digest)
        sources = a.map().concepts["osmosis"].sources
        assert [s.course for s in sources] == ["7a"]


def test_erasing_a_student_takes_them_off_every_class_to_the_last_byte(tmp_path: Path) -> None:
    """Erasure of a student (issue 27's privacy gap): off the roster and the class's
    followers, and every map folded for them deleted — of one who never recorded anything,
    no byte of their id is left in any file of the store; of one who did, only what any
    erased pair keeps (the chain's envelopes, heads, erasure records, activity days)."""
    ghost, talker = "Ghostquokka", "Talkquokka"  # ids found by their bytes
    folder = tmp_path / "store"
    name, data = sample_subject()[0]
    (tmp_path / name).write_bytes(data)
    with Memory.local(folder, settings=SETTINGS) as memory:
        memory.set_class("7a", teachers=["t-1"], students=[ghost, talker, "s01"])
        memory.ingest_class("7a", "biology", tmp_path / name)
        memory.pair(talker, "biology").record_question("What is osmosis?")
        teacher = Caller("default", Role.TEACHER, "t-1")
        as_teacher = Memory._opened(memory.backend.app, True, teacher)  # type: ignore[attr-defined]
        assert "osmosis" in as_teacher.pair(ghost, "biology").map().concepts  # a read, kept
        for student in (ghost, talker):
            done = memory.erase(student, reason="the family asked")
            assert f"{student}/biology" in done.erased
        assert memory.get_class("7a").students == ["s01"]
        app = memory.backend.app  # type: ignore[attr-defined]
        assert app.ports.store.followers("7a") == ("s01",)
        # (read from the store: a read at a door is itself kept in the record of reads)
        assert app.ports.store.load_map(Pair(ghost, "biology")).version == 0  # none at all
        assert app.ports.store.load_map(Pair(talker, "biology")).version == 0
        # A later version of the course builds no map under an erased student's id.
        (tmp_path / name).write_bytes(data + b"\n")
        assert memory.ingest_class("7a", "biology", tmp_path / name).students_updated == 1
        assert app.ports.store.maps_of(ghost) == [] and app.ports.store.maps_of(talker) == []
        with pytest.raises(NotFoundError):
            memory.erase(ghost, reason="asked again")
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert any(p.name == "access.db" for p in files)
    for path in files:
        assert ghost.encode() not in path.read_bytes(), path.name
        assert ghost.lower().encode() not in path.read_bytes().lower(), path.name
    import sqlite3

    kept = {"episodes", "chain_heads", "erasures", "erased_keys", "activity"}
    with sqlite3.connect(folder / "tutor_memory.db") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in set(tables) - kept:
            rows = db.execute(f"SELECT * FROM {table}").fetchall()
            assert talker not in repr(rows), table
    assert talker.encode() not in (folder / "access.db").read_bytes()


def test_an_answer_citing_a_course_file_verifies_against_the_course(
    school: tuple[Memory, CountingExtractor, Path],
) -> None:
    """A course file is on the student's map, not in their file registry: an answer citing
    it is stamped with its fingerprint, holds while the class keeps that version, is replaced
    by a newer one (the night's check and the turn's note both say so) and removed once the
    student leaves the class."""
    memory, _, syllabus = school
    memory.ingest_class("7a", "biology", syllabus)
    app = memory.backend.app  # type: ignore[attr-defined]
    alice = memory.pair("s01", "biology")
    answer = alice.record_answer("Osmosis moves water across a membrane.", file_id=syllabus.name)
    pair = Pair("s01", "biology")
    stamped = app.ports.store.get(pair, answer.id).evidence
    assert (
        stamped.fingerprint
        == app.class_maps.course("7a", "biology").files[syllabus.name].fingerprint
    )

    def verified() -> str:
        found = app.ports.store.annotations(pair, answer.id)
        return [a.value for a in found if a.kind.value == "verification"][-1]

    def noted() -> str:
        return alice.turn("what is osmosis? membrane water").block

    app.nightly.verify_citations(pair, at=app.ports.clock.now())
    assert verified() == "holds"
    assert "has since been" not in noted()
    syllabus.write_bytes(syllabus.read_bytes() + b"\n")
    memory.ingest_class("7a", "biology", syllabus)
    app.nightly.verify_citations(pair, at=app.ports.clock.now() + timedelta(days=1))
    assert verified() == "changed_replaced"
    assert "the file this cited has since been replaced" in noted()
    memory.set_class("7a", teachers=["t-1"], students=[s for s in STUDENTS if s != "s01"])
    app.nightly.verify_citations(pair, at=app.ports.clock.now() + timedelta(days=2))
    assert verified() == "changed_removed"
    assert "the file this cited has since been removed" in noted()


def test_the_rest_door_reads_a_class_file_as_the_local_door_does(
    school: tuple[Memory, CountingExtractor, Path], tmp_path: Path
) -> None:
    """``PUT /classes/{class_id}/subjects/{subject_id}/files/{file_id}`` with the file in the
    body (base64): ``Memory.remote(…).ingest_class`` answers as the local door (201, then 200
    for the same bytes); a student and another class's teacher 403, another tenant 404; a
    body that is not base64 or a file too large for a body 422."""
    from tutor_memory.bootstrap import build_app
    from tutor_memory.domain.errors import ValidationError
    from tutor_memory.settings import on_folder

    from .conftest import serving

    memory, _, syllabus = school
    local = memory.ingest_class("7a", "biology", syllabus)
    app = build_app(on_folder(SETTINGS, tmp_path / "served"))
    access = app.access
    keys = {
        who: access.create_key("default", role, caller)[1]
        for who, role, caller in (
            ("service", Role.SERVICE, ""),
            ("teacher", Role.TEACHER, "t-1"),
            ("other teacher", Role.TEACHER, "t-2"),
            ("student", Role.STUDENT, "s01"),
            ("other tenant", Role.SERVICE, ""),
        )
    }
    keys["other tenant"] = access.create_key("school-b", Role.SERVICE)[1]
    access.set_class("default", "7a", ["t-1"], STUDENTS)
    app.class_maps.enrol("7a", STUDENTS)
    try:
        with serving(app, anonymous=None) as url:

            def remote(who: str) -> Memory:
                return Memory.remote(url, api_key=keys[who])

            for who, error in (
                ("student", ForbiddenError),
                ("other teacher", ForbiddenError),
                ("other tenant", NotFoundError),
            ):
                with remote(who) as door, pytest.raises(error):
                    door.ingest_class("7a", "biology", syllabus)
            with remote("teacher") as door:
                read = door.ingest_class("7a", "biology", syllabus)
                again = door.ingest_class("7a", "biology", syllabus)
                assert "osmosis" in door.pair("s01", "biology").map().concepts
            assert read.model_dump() == local.model_dump()
            assert not read.already_read and read.students_updated == 30
            assert again.already_read and again.students_updated == 0
            statuses = []
            for body in (
                {"name": syllabus.name, "content": "not base64!"},
                {"name": "big.md", "content": base64.b64encode(b"#" * 700_001).decode()},
            ):
                request = urllib.request.Request(
                    f"{url}/classes/7a/subjects/biology/files/f-2",
                    data=json.dumps(body).encode(),
                    method="PUT",
                    headers={"Content-Type": "application/json",
                             "Authorization": f"Bearer {keys['service']}"},
                )  # fmt: skip
                try:
                    urllib.request.urlopen(request, timeout=60)
                except urllib.error.HTTPError as error:
                    statuses.append(error.code)
            assert statuses == [422, 422]
            with remote("service") as door, pytest.raises(ValidationError, match="content"):
                bad = tmp_path / "empty.md"
                bad.write_bytes(b"   ")
                door.ingest_class("7a", "biology", bad)
    finally:
        app.close()


def test_a_teacher_cannot_tell_a_class_they_do_not_teach_from_one_that_does_not_exist(
    school: tuple[Memory, CountingExtractor, Path],
) -> None:
    # a 404 for an unknown id against a 403 for another teacher's class told a teacher which
    # class ids their school has (a probe's finding); an upload already answered 403 for both
    memory, _counting, _syllabus = school
    app = memory.backend.app  # type: ignore[attr-defined]
    other_teacher = Memory._opened(app, True, Caller("default", Role.TEACHER, "t-2"))
    refusals = []
    for class_id in ("7a", "never-a-class"):
        with pytest.raises(ForbiddenError) as refused:
            other_teacher.get_class(class_id)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] == "a teacher may read only the classes they teach"
    with pytest.raises(NotFoundError):  # the service may know which ids exist
        memory.get_class("never-a-class")
    assert Memory._opened(app, True, Caller("default", Role.TEACHER, "t-1")).get_class("7a")
