"""Export → replay into an empty store: the same episodes (ids and chain head), beliefs, map,
files, annotations and erasure records, on the embedded store (and on DynamoDB and S3 under
moto, in test_export_cloud.py)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import NotFoundError
from tutor_memory.ports import FixedClock
from tutor_memory.replay import parse_history, replay, replay_into
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.export import Export

from .conftest import TEST_TURN_DEADLINE_S
from .test_library import KEYS, REGION, SETTINGS, served  # noqa: F401 (a fixture)

T0 = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
PAIR = Pair("s-export", "biology")
OTHER = Pair("s-export", "chemistry")
SUBJECT = (
    Path(__file__).resolve().parents[2] / "shared" / "tutor_memory" / "data" / "sample-subject"
)
SECRET = "zorblaxquint"


def make_app(folder: Path, clock: FixedClock) -> App:
    app = build_app(on_folder(Settings(embedder="none"), folder), clock=clock)
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the block is compared, not timed
    return app


def live_history(app: App, clock: FixedClock, pair: Pair = PAIR) -> dict[str, str]:
    """A day and its night: a file read into the map, a question, a teaching, checks, an
    answer that recalls, an annotation, then the night's consolidation; a second day."""
    ids: dict[str, str] = {}
    data = (SUBJECT / "plant-and-animal-cells.md").read_bytes()
    app.maps.ingest(pair, "cells", "plant-and-animal-cells.md", data, at=T0)
    ids["question"] = app.episodes.add(
        pair, Kind.QUESTION, f"What does {SECRET} do to a cell?", at=T0 + timedelta(minutes=1)
    ).episode.episode_id
    app.episodes.add(
        pair, Kind.QUESTION, "Remember that the nucleus holds the DNA",
        at=T0 + timedelta(minutes=2),
    )  # fmt: skip
    ids["check"] = app.episodes.add(
        pair, Kind.CHECK, f"Explain {SECRET}",
        evidence={"topic": "Nucleus", "verdict": "wrong", "evaluation": f"mixed up {SECRET}"},
        at=T0 + timedelta(minutes=3),
    ).episode.episode_id  # fmt: skip
    app.episodes.add(
        pair, Kind.CHECK, "Explain the nucleus again",
        evidence={"topic": "Nucleus", "verdict": "right"}, at=T0 + timedelta(minutes=4),
    )  # fmt: skip
    ids["answer"] = app.episodes.add(
        pair, Kind.ANSWER, "The nucleus holds the DNA, as you said.",
        recalled_ids=[ids["question"]], at=T0 + timedelta(minutes=5),
    ).episode.episode_id  # fmt: skip
    app.memory.annotate(pair, ids["answer"], "stance", "partial", at=T0 + timedelta(minutes=6))
    clock.at = T0 + timedelta(days=1, hours=1)
    app.nightly.run_pair(pair, date(2026, 7, 12))
    app.episodes.add(
        pair, Kind.QUIZ, "Quiz on cells",
        evidence={"score": 3, "maximum": 4, "topics": ["Nucleus"]},
        at=T0 + timedelta(days=1, hours=2),
    )  # fmt: skip
    return ids


def state(app: App, pair: Pair, question: str = "What does the nucleus hold?") -> dict[str, Any]:
    """What a user of the pair sees: its episodes, beliefs, map, files, annotations, chain."""
    store = app.ports.store
    episodes = list(store.iter_episodes(pair))
    report = app.memory.verify_chain(pair)
    return {
        "episodes": [(e.seq, e.episode_id, e.kind, e.text, e.erased) for e in episodes],
        "beliefs": sorted(
            (b.concept_key, b.claim, b.confidence, b.evidence_ids) for b in store.beliefs(pair)
        ),
        "map": app.maps.maps.load_map(pair).to_dict(),
        "files": [(f.file_id, [v.fingerprint for v in f.versions]) for f in store.files(pair)],
        "annotations": [
            [(a.kind, a.value, a.at) for a in store.annotations(pair, e.episode_id)]
            for e in episodes
        ],
        "head": store.head(pair),
        "verify": (report.intact, report.episodes, report.erased, report.head_hash),
        "erasures": app.ports.store.erasures(pair),  # type: ignore[attr-defined]
        "block": app.turns.turn(pair, question, at=T0 + timedelta(days=2)).block,
    }


def round_trip(source: App, target: Path, clock: FixedClock, export_dir: Path) -> App:
    history = source.exporting.student(PAIR.student_id).write(export_dir)
    replay(history, target, lambda folder: make_app(folder, clock))
    return make_app(target, clock)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


def test_an_export_replayed_into_an_empty_store_gives_back_the_same_ids_head_beliefs_and_map(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    before = state(source, PAIR)
    assert before["beliefs"] and before["map"]["concepts"] and before["files"]

    copy = round_trip(source, tmp_path / "copy", clock, tmp_path / "export")

    after = state(copy, PAIR)
    assert after == before
    assert after["verify"][0] and after["head"] == before["head"]


def test_after_an_erasure_the_export_carries_the_envelope_and_record_and_no_byte_of_the_body(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    ids = live_history(source, clock)
    assert source.erasing is not None
    source.erasing.erase_episode(PAIR, ids["question"], reason="asked by the family")
    source.erasing.erase_episode(PAIR, ids["check"], reason="a mistaken check")
    before = state(source, PAIR)
    assert before["verify"][:1] == (True,) and before["verify"][2] >= 2

    export = source.exporting.pair(PAIR)
    export.write(tmp_path / "export")
    raw = b"".join(p.read_bytes() for p in (tmp_path / "export").rglob("*") if p.is_file())
    assert SECRET.encode() not in raw
    erased = [line for line in export.lines if "erased" in line]
    assert {line["id"] for line in erased} >= {ids["question"], ids["check"]}
    assert all("text" not in line and "salt" not in line for line in erased)
    assert {line["erased"]["reason"] for line in erased} >= {"asked by the family"}

    replay(tmp_path / "export" / "history.jsonl", tmp_path / "copy", lambda f: make_app(f, clock))
    copy = make_app(tmp_path / "copy", clock)
    after = state(copy, PAIR)
    assert after["head"] == before["head"]
    assert after["erasures"] == before["erasures"]
    assert after["verify"] == before["verify"]
    assert after["beliefs"] == before["beliefs"]
    assert after["map"] == before["map"]
    assert after["block"] == before["block"]
    assert after["episodes"] == before["episodes"]


def test_a_student_export_holds_every_subject_in_one_history_and_replays_each(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    source.episodes.add(OTHER, Kind.QUESTION, "What is an ion?", at=T0)
    export = source.exporting.student(PAIR.student_id)
    manifest = export.manifest()
    first = manifest["pairs"][0]
    assert (first["subject"], first["episodes"]) == ("biology", 8)
    assert {(line["student"], line["subject"]) for line in export.lines} == {
        (PAIR.student_id, "biology"), (OTHER.student_id, "chemistry"),
    }  # fmt: skip
    history = export.write(tmp_path / "export")
    assert json.loads((tmp_path / "export" / "manifest.json").read_text())["format"]
    report = replay(history, tmp_path / "copy", lambda f: make_app(f, clock))
    assert report.pairs == 2 and report.ids_changed == 0 and report.ids_kept == report.events
    copy = make_app(tmp_path / "copy", clock)
    assert copy.memory.ports.store.head(OTHER) == source.memory.ports.store.head(OTHER)


def test_an_export_travels_as_one_json_body_and_comes_back_the_same(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    export = source.exporting.pair(PAIR)
    again = Export.from_dict(json.loads(json.dumps(export.to_dict())))
    assert again.lines == export.lines and again.files == export.files
    assert again.manifest() == export.manifest()


def test_an_unknown_pair_or_student_has_nothing_to_export(
    tmp_path: Path, clock: FixedClock
) -> None:
    app = make_app(tmp_path / "tm", clock)
    with pytest.raises(NotFoundError):
        app.exporting.pair(PAIR)
    with pytest.raises(NotFoundError):
        app.exporting.student("nobody")


def test_a_file_whose_bytes_are_not_kept_is_exported_as_told_and_says_so(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    for kept in (tmp_path / "source" / "files").rglob("*"):
        if kept.is_file():
            kept.unlink()
    export = source.exporting.pair(PAIR)
    assert not export.files
    assert export.pairs[0]["files_not_kept"][0]["file_id"] == "cells"
    history = export.write(tmp_path / "export")
    report = replay(history, tmp_path / "copy", lambda f: make_app(f, clock))
    copy = make_app(tmp_path / "copy", clock)
    # The file's version and episode come back (same id: recorded as told); the map does not
    # get the file's concepts back, so what depended on them may differ (the report counts it).
    assert copy.memory.ports.store.file(PAIR, "cells") is not None
    assert report.ids_kept >= 1


def test_the_export_fields_are_checked_like_every_other(tmp_path: Path) -> None:
    line = {"student": "s", "subject": "t", "at": "2026-07-12T15:00:00Z", "kind": "question"}
    bad = [
        {**line, "text": "hi", "seq": 1, "id": "e2-000000000000"},
        {**line, "text": "hi", "seq": 1, "salt": "xyz"},
        {**line, "seq": 1, "id": "e1-000000000000", "text": "body", "erased": {}},
        {**line, "kind": "answer", "text": "a", "recalled_ids": ["e9-000000000000"]},
    ]
    events, problems = parse_history([json.dumps(b) for b in bad])
    assert not events and [n for n, _ in problems] == [1, 2, 3, 4]


def test_replay_into_a_pair_that_has_a_history_is_refused(
    tmp_path: Path, clock: FixedClock
) -> None:
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    history = source.exporting.pair(PAIR).write(tmp_path / "export")
    with pytest.raises(Exception, match="already has a history"):
        replay_into(source, history)


# --- the CLI and the library door -----------------------------------------------------------


def test_the_cli_exports_a_student_and_replay_rebuilds_the_same_chain(
    tmp_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from tutor_memory.cli import main

    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    source = make_app(tmp_path / "source", clock)
    live_history(source, clock)
    head = source.memory.ports.store.head(PAIR)
    source.memory.ports.close()
    out = tmp_path / "export"
    args = ["export", "--store", str(tmp_path / "source"), "--student", PAIR.student_id]
    assert main([*args, "--out", str(out)]) == 0
    assert "s-export/biology: 8 episodes (0 erased" in capsys.readouterr().out
    assert main([*args, "--out", str(out)]) == 1  # an export never overwrites
    assert main(["export", "--store", str(tmp_path / "source"), "--student", "nobody",
                 "--out", str(tmp_path / "none")]) == 1  # fmt: skip
    assert main(["replay", str(out / "history.jsonl"), "--store", str(tmp_path / "copy")]) == 0
    assert "8 came back the same, 0 did not" in capsys.readouterr().out
    assert make_app(tmp_path / "copy", clock).memory.ports.store.head(PAIR) == head


def test_memory_export_is_the_same_locally_remotely_and_awaited(
    tmp_path: Path,
    served: tuple[str, Any],  # noqa: F811 (the fixture imported above)
) -> None:
    import asyncio

    from tutor_memory import AsyncMemory, Memory

    url, _ = served
    local = Memory.local(tmp_path / "served", settings=SETTINGS)  # the folder the API serves
    alice = local.pair("alice", "biology")
    alice.record_question("What is osmosis?")
    alice.record_check("Explain osmosis", topic="osmosis", verdict="right")
    mine = local.export("alice", out=tmp_path / "mine")
    assert (tmp_path / "mine" / "history.jsonl").is_file() and len(mine.lines) == 2
    with Memory.remote(url, region=REGION, credentials=KEYS) as remote:
        theirs = remote.export("alice")
        assert theirs.lines == mine.lines
        assert remote.pair("alice", "biology").export().lines == mine.lines
        with pytest.raises(NotFoundError):
            remote.export("alice", "chemistry")
    awaited = asyncio.run(AsyncMemory(local).export("alice", "biology"))
    assert awaited.lines == mine.lines
    local.close()


def test_what_was_stated_in_the_profile_comes_back_at_its_place(
    tmp_path: Path, clock: FixedClock, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A student's export lists every profile statement, but replay only heard again what
    the lines say: a teacher's accommodation, the service's name and a retraction were lost,
    and with them what every block says about the student."""
    from tutor_memory.cli import main
    from tutor_memory.domain.profile import Speaker

    source = make_app(tmp_path / "source", clock)
    profiles = source.profiles
    assert profiles is not None
    student = PAIR.student_id
    profiles.set(student, "name", "Amelia", said_by=Speaker.SERVICE, at=T0)
    profiles.set(student, "accommodation", "extra time in tests", key="extra time",
                 said_by=Speaker.TEACHER, at=T0)  # fmt: skip
    profiles.set(student, "preference", "examples first", said_by=Speaker.TEACHER, at=T0)
    # the student's own word on their name, later: it replaces the service's
    source.episodes.add(PAIR, Kind.QUESTION, "My name is Maya.", at=T0 + timedelta(minutes=1))
    profiles.retract(student, "preference", said_by=Speaker.TEACHER,
                     at=T0 + timedelta(minutes=2))  # fmt: skip
    source.episodes.add(PAIR, Kind.QUESTION, "What is osmosis?", at=T0 + timedelta(minutes=3))

    def seen(app: App) -> tuple[Any, ...]:
        assert app.profiles is not None
        said = [(s.aspect, s.key, s.value, s.said_by) for s in app.profiles.in_force(student)]
        return said, app.turns.turn(PAIR, "osmosis", at=T0 + timedelta(days=1)).block

    before = seen(source)
    assert [s[2] for s in before[0]] == ["Maya", "extra time in tests"]
    history = source.exporting.student(student).write(tmp_path / "export")
    source.memory.ports.close()
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    assert main(["replay", str(history), "--store", str(tmp_path / "copy")]) == 0
    assert "profile: 4 statement(s) stated again" in capsys.readouterr().out
    assert seen(make_app(tmp_path / "copy", clock)) == before
    # a statement today's rules refuse (an export of an older version) is counted, not stated
    manifest = history.parent / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["profile"][0]["value"] = "A" + "a" * 40
    hostile = {**data["profile"][1], "source": None}
    data["profile"] += [
        {**hostile, "value": 5}, {**hostile, "said_by": "hacker"}, {**hostile, "at": "never"},
        {**hostile, "at": "2026-07-12T15:00:00"}, {**hostile, "key": ["x"]}, "not a statement",
    ]  # fmt: skip
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(history), "--store", str(tmp_path / "again")]) == 0
    said = capsys.readouterr().out
    assert "3 statement(s) stated again, 7 refused (malformed, or against today's" in said


def test_a_students_subjects_are_replayed_in_time_order_for_the_profile(
    tmp_path: Path, clock: FixedClock
) -> None:
    """The export writes a student's subjects pair by pair; replayed so, "my name is Mia" said
    in chemistry came back after "my name is Maya" said later in biology, and the replayed
    profile named the student Mia. Each pair's own order stays (its chain comes back)."""
    source = make_app(tmp_path / "source", clock)
    source.episodes.add(PAIR, Kind.QUESTION, "My name is Ana.", at=T0)
    source.episodes.add(OTHER, Kind.QUESTION, "My name is Mia.", at=T0 + timedelta(days=1))
    source.episodes.add(PAIR, Kind.QUESTION, "My name is Maya.", at=T0 + timedelta(days=2))
    source.episodes.add(OTHER, Kind.QUESTION, "What is an ion?", at=T0 + timedelta(days=3))
    assert source.profiles is not None
    before = [(s.aspect, s.value) for s in source.profiles.in_force(PAIR.student_id)]
    assert before == [("name", "Maya")]
    history = source.exporting.student(PAIR.student_id).write(tmp_path / "export")
    report = replay(history, tmp_path / "copy", lambda f: make_app(f, clock))
    assert report.ids_kept == report.events == 4
    copy = make_app(tmp_path / "copy", clock)
    assert copy.profiles is not None
    assert [(s.aspect, s.value) for s in copy.profiles.in_force(PAIR.student_id)] == before
    for pair in (PAIR, OTHER):
        assert copy.memory.ports.store.head(pair) == source.memory.ports.store.head(pair)


def _profile_replayed(source: App, tmp_path: Path, clock: FixedClock) -> tuple[App, list[Any]]:
    """The student's export replayed into a new store: the store, and its profile in force as
    (aspect, value, said by)."""
    history = source.exporting.student(PAIR.student_id).write(tmp_path / "export")
    replay(history, tmp_path / "copy", lambda f: make_app(f, clock))
    copy = make_app(tmp_path / "copy", clock)
    assert copy.profiles is not None
    return copy, [(s.aspect, s.value, s.said_by) for s in copy.profiles.in_force(PAIR.student_id)]


def _profile(app: App) -> list[Any]:
    assert app.profiles is not None
    return [(s.aspect, s.value, s.said_by) for s in app.profiles.in_force(PAIR.student_id)]


def test_a_teachers_statement_is_replayed_before_a_later_back_dated_message(
    tmp_path: Path, clock: FixedClock
) -> None:
    """A teacher set the name (stamped now), then the student's own "my name is Maya" came,
    written back-dated: it holds. The replay stated the teacher's name at its time, after
    every line before it, and the student was Zoe again; the profile's log says which came
    first, and the replay keeps it."""
    source = make_app(tmp_path / "source", clock)
    assert source.profiles is not None
    source.episodes.add(PAIR, Kind.QUESTION, "What is an ion?", at=T0 - timedelta(days=9))
    source.profiles.set(PAIR.student_id, "name", "Zoe", said_by="teacher")
    source.episodes.add(PAIR, Kind.QUESTION, "My name is Maya.", at=T0 - timedelta(days=3))
    assert _profile(source) == [("name", "Maya", "student")]
    copy, after = _profile_replayed(source, tmp_path, clock)
    assert after == _profile(source)
    assert copy.profiles is not None
    assert [s.value for s in copy.profiles.history(PAIR.student_id)] == ["Zoe", "Maya"]


def test_a_greeting_the_profile_did_not_hear_is_not_heard_by_the_replay(
    tmp_path: Path, clock: FixedClock
) -> None:
    """Chemistry's tutor said "Hi Maya!" (heard: the student's name), then biology's, at the
    same time, "¡Hola Lucía!" (not heard: a name was in force). The export writes biology
    first, and the replay heard Lucía. A greeting the export's profile did not hear is now
    recorded as the log alone; a history file of one's own (no manifest) is heard whole."""
    source = make_app(tmp_path / "source", clock)
    assert source.profiles is not None
    source.episodes.add(PAIR, Kind.QUESTION, "What is an ion?", at=T0)
    source.episodes.add(OTHER, Kind.ANSWER, "Hi Maya! Ready?", at=T0)
    source.episodes.add(PAIR, Kind.ANSWER, "¡Hola Lucía! ¿Empezamos?", at=T0)
    assert _profile(source) == [("name", "Maya", "service")]
    assert _profile_replayed(source, tmp_path, clock)[1] == _profile(source)
    history = tmp_path / "export" / "history.jsonl"
    (history.parent / "manifest.json").unlink()  # the lines alone, in the file's order
    replay(history, tmp_path / "lines", lambda f: make_app(f, clock))
    lines = make_app(tmp_path / "lines", clock)
    assert lines.profiles is not None
    assert [s.value for s in lines.profiles.in_force(PAIR.student_id)] == ["Lucía"]


def test_what_the_profile_heard_is_replayed_in_the_order_it_heard_it(
    tmp_path: Path, clock: FixedClock
) -> None:
    """A pair's own order is not always by time: biology's "my name is Maya" was written
    back-dated, after a later question, and chemistry's "my name is Mia" after it. Interleaved
    by time, the replay heard Mia first and named the student Maya; the export's profile says
    which it heard first, and the replay keeps that order."""
    source = make_app(tmp_path / "source", clock)
    source.episodes.add(PAIR, Kind.QUESTION, "What is an ion?", at=T0 + timedelta(days=5))
    source.episodes.add(PAIR, Kind.QUESTION, "My name is Maya.", at=T0)
    source.episodes.add(OTHER, Kind.QUESTION, "My name is Mia.", at=T0 + timedelta(days=1))
    assert _profile(source) == [("name", "Mia", "student")]
    copy, after = _profile_replayed(source, tmp_path, clock)
    assert after == _profile(source)
    for pair in (PAIR, OTHER):
        assert copy.memory.ports.store.head(pair) == source.memory.ports.store.head(pair)
