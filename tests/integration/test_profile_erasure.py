"""What the profile heard in an episode goes when the episode is erased: "Remember that I keep
a pet …" erased takes the statement's words out of the profile log, every subject's block, the
profile's history and export, and the bytes of both backends; the statement before it on the
same aspect holds again, and the log still verifies. Erasing a pair takes what was heard in
that subject; another subject's statements stay. A statement blanked by someone who can write
the profile, with no erasure of its episode behind it, is a break of the log.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest

from tutor_memory import Memory
from tutor_memory.adapters.profile_sqlite import SqliteProfileLog
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.block import PROFILE_HEADER
from tutor_memory.domain.chain import GENESIS_HASH, link_hash
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.profile import (
    Aspect,
    Speaker,
    Statement,
    canonical_v1,
    current,
    first_break,
)
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

from .conftest import REGION, TABLE

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
T0 = datetime(2026, 4, 30, 9, tzinfo=UTC)
MARKER = "Zanzibarquokka"
FIRST = "I prefer examples first, then the rule."
LATER = "Please always explain step by step."
PET = f"Remember that I keep a pet {MARKER}."
EXAM = "My chemistry exam is on 12 May."


def _said(app: App) -> dict[str, str]:
    """Biology hears a preference, a later one and the pet; chemistry the exam. Their ids."""
    biology, chemistry = Pair("s1", "biology"), Pair("s1", "chemistry")
    ids = {}
    for n, (pair, text) in enumerate(
        [(biology, FIRST), (biology, LATER), (biology, PET), (chemistry, EXAM)]
    ):
        added = app.episodes.add(pair, Kind.QUESTION, text, at=T0 + timedelta(minutes=n))
        assert added.profile is not None
        ids[text] = added.episode.episode_id
    return ids


def _block(app: App) -> str:
    return app.turns.turn(
        Pair("s1", "chemistry"), "What is a mole?", at=T0 + timedelta(days=1)
    ).block


def _erase_and_check(app: App) -> None:
    ids = _said(app)
    assert app.erasing is not None and app.profiles is not None
    assert LATER in _block(app) and MARKER in _block(app)

    app.erasing.erase_episode(Pair("s1", "biology"), ids[LATER], reason="typed by mistake")
    app.erasing.erase_episode(Pair("s1", "biology"), ids[PET], reason="asked by the student")
    block = _block(app)
    assert FIRST in block and LATER not in block and MARKER not in block  # the one before holds
    history = app.profiles.history("s1")
    assert first_break(history) is None  # the log still verifies
    assert app.profiles.verify("s1") is None  # and each erased statement's episode is erased
    gone = [s for s in history if s.erased_at is not None]
    assert [(s.aspect, s.key, s.value, s.due) for s in gone] == [
        (Aspect.PREFERENCE, "", "", None),
        (Aspect.OTHER, "", "", None),
    ]
    assert all(MARKER not in json.dumps(s.__dict__, default=str) for s in history)
    assert [s.value for s in current(history)] == [FIRST, EXAM]

    app.erasing.erase_pair(Pair("s1", "biology"), reason="the family asked")
    assert [s.value for s in current(app.profiles.history("s1"))] == [EXAM]  # chemistry's stays
    assert app.profiles.verify("s1") is None
    block = _block(app)
    assert PROFILE_HEADER in block and EXAM in block and FIRST not in block
    assert first_break(app.profiles.history("s1")) is None


def test_an_erased_episode_takes_what_the_profile_heard_in_it_on_the_embedded_store(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tm"
    app = build_app(on_folder(SETTINGS, folder))
    try:
        _erase_and_check(app)
    finally:
        app.close()
    for path in folder.rglob("*"):
        if path.is_file() and path.name.startswith("profile"):
            assert MARKER.encode() not in path.read_bytes(), path.name


def test_an_erased_episode_takes_what_the_profile_heard_in_it_on_dynamodb(cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app

    _erase_and_check(lambda_app())
    items = boto3.client("dynamodb", region_name=REGION).scan(TableName=TABLE)["Items"]
    profile = [i for i in items if "PROFILE#" in i["pk"]["S"]]
    assert len(profile) == 4 and MARKER not in json.dumps(profile)


def test_the_export_and_the_library_say_a_statement_was_erased(tmp_path: Path) -> None:
    """A tutor's "Hi Maya!" heard, its answer erased: the name goes, the history says when,
    the export carries the erased statement without its words, and a greeting tells it again."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        hello = pair.record_answer("Hi Maya! Ready?", at=T0)
        assert [s.value for s in memory.profile("s1").current] == ["Maya"]
        memory.erase("s1", "biology", hello.id, reason="typed by mistake")
        profile = memory.profile("s1")
        assert profile.current == [] and profile.intact
        (said,) = profile.history
        assert (said.aspect, said.value, said.said_by) == ("name", "", "service")
        assert said.erased_at is not None and said.line == ""
        exported = memory.export("s1").profile
        assert [(s["value"], s["erased_at"] is not None) for s in exported] == [("", True)]
        pair.record_answer("Hello Maya, shall we start?", at=T0 + timedelta(days=1))
        assert [s.value for s in memory.profile("s1").current] == ["Maya"]


# A student naming themselves, and the tutor greeting them by name, in five languages
NAMED = {
    "en": ("My name is Maya.", "Hi Maya! Ready to start?", "Maya"),
    "es": ("Me llamo Lucía.", "¡Hola Lucía! ¿Empezamos?", "Lucía"),
    "id": ("Nama saya Putri.", "Halo Putri, siap mulai?", "Putri"),
    "ur": ("میرا نام مریم ہے۔", "السلام علیکم مریم! شروع کریں؟", "مریم"),
    "ar": ("اسمي مريم.", "أهلا يا مريم، هل نبدأ؟", "مريم"),
}


@pytest.mark.parametrize("lang", list(NAMED))
def test_the_students_naming_erased_the_tutors_greeting_tells_the_name_as_a_replay_does(
    lang: str, tmp_path: Path
) -> None:
    """The student named themselves, then the tutor greeted them by name in two subjects (not
    heard: a name was in force). Erasing the student's message left the profile with no name
    while the greetings stayed in the log, and a replay of the export heard the first: the
    same history, two profiles. Now the erasure hears the first greeting, as the replay does."""
    from tutor_memory.replay import replay

    naming, greeting, name = NAMED[lang]
    with Memory.local(tmp_path / "a", settings=SETTINGS, ready=False) as memory:
        biology, chemistry = memory.pair("s1", "biology"), memory.pair("s1", "chemistry")
        said = biology.record_question(naming, at=T0)
        chemistry.record_answer(greeting, at=T0 + timedelta(days=1))
        biology.record_answer(greeting, at=T0 + timedelta(days=2))
        (stated,) = memory.profile("s1").current
        assert (stated.value, stated.said_by) == (name, "student")
        memory.erase("s1", "biology", said.id, reason="the student asked")
        profile = memory.profile("s1")
        (heard,) = profile.current
        assert (heard.value, heard.said_by) == (name, "service") and profile.intact
        assert heard.source is not None and heard.source.startswith("chemistry/")
        history = memory.export("s1").write(tmp_path / "export")
        seen = [(s.aspect, s.value, s.said_by, s.source) for s in profile.current]
    replay(history, tmp_path / "b", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "b", settings=SETTINGS, ready=False) as replayed:
        again = [(s.aspect, s.value, s.said_by, s.source) for s in replayed.profile("s1").current]
    assert again == seen


def test_the_greeting_tells_the_name_after_the_erasure_on_dynamodb(cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app

    app = lambda_app()
    assert app.erasing is not None and app.profiles is not None
    naming, greeting, name = NAMED["ar"]
    biology, chemistry = Pair("s1", "biology"), Pair("s1", "chemistry")
    said = app.episodes.add(biology, Kind.QUESTION, naming, at=T0).append.episode
    hello = app.episodes.add(chemistry, Kind.ANSWER, greeting, at=T0 + timedelta(days=1))
    assert hello.profile is None  # the student's own name holds
    app.erasing.erase_episode(biology, said.episode_id, reason="the student asked")
    (heard,) = current(app.profiles.history("s1"))
    source = f"chemistry/{hello.append.episode.episode_id}"
    assert (heard.value, heard.said_by, heard.source) == (name, Speaker.SERVICE, source)


def test_the_greeting_heard_after_the_naming_is_erased_comes_from_the_erasures_own_pass(
    tmp_path: Path,
) -> None:
    """The pass that erases the student's naming keeps the pair's greetings, so the profile
    hears the first without reading the log again (a read of the whole log costs seconds at
    100,000 episodes): the erasure's pass, and no more (a request's erasure leaves the check
    before its checkpoint to the night)."""
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"), clock=FixedClock(T0 + timedelta(days=3)))
    assert app.erasing is not None and app.profiles is not None
    pair = Pair("s1", "biology")
    said = app.episodes.add(pair, Kind.QUESTION, "My name is Maya.", at=T0).append.episode
    app.episodes.add(pair, Kind.ANSWER, "Osmosis moves water.", at=T0 + timedelta(hours=1))
    hello = app.episodes.add(pair, Kind.ANSWER, "Hi Maya! Ready?", at=T0 + timedelta(days=1))
    app.episodes.add(pair, Kind.ANSWER, "Welcome back, Maya!", at=T0 + timedelta(days=2))
    store, reads = app.ports.store, []
    whole = store.iter_episodes

    def counted(read: Pair, **kwargs: Any) -> Any:
        reads.append(read)
        return whole(read, **kwargs)

    store.iter_episodes = counted  # type: ignore[method-assign]
    app.erasing.erase_episode(pair, said.episode_id, reason="the student asked")
    assert reads == [pair]
    (heard,) = current(app.profiles.history("s1"))
    source = f"biology/{hello.append.episode.episode_id}"
    assert (heard.value, heard.said_by, heard.source) == ("Maya", Speaker.SERVICE, source)


def test_a_name_a_teacher_retracted_is_not_told_again_by_an_earlier_greeting(
    tmp_path: Path,
) -> None:
    clock = FixedClock(T0 + timedelta(hours=1))  # the teacher's retraction, after "Hi Maya!"
    with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=clock, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_answer("Hi Maya! Ready?", at=T0)
        memory.retract_profile("s1", "name")  # not her name
        said = pair.record_question("My name is Mia.", at=T0 + timedelta(hours=2))
        pair.record_answer("Hi Mia! Shall we go on?", at=T0 + timedelta(hours=3))
        memory.erase("s1", "biology", said.id, reason="the student asked")
        (heard,) = memory.profile("s1").current
        assert (heard.value, heard.said_by) == ("Mia", "service")


def sealed_v1(s: Statement) -> Statement:
    """The first statement of a log as the release before version 2 sealed it."""
    return replace(s, prev_hash=GENESIS_HASH, hash=link_hash(GENESIS_HASH, canonical_v1(s)))


def test_a_profile_written_before_erasure_existed_is_read_and_erased(tmp_path: Path) -> None:
    """The embedded log's file without the ``erased_at`` column (written by an earlier
    version) gains it when opened, and its statements read as they were."""
    import sqlite3

    path = tmp_path / "profile.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE statements (student TEXT NOT NULL, seq INTEGER NOT NULL, aspect TEXT "
        "NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, said_by TEXT NOT NULL, at TEXT NOT "
        "NULL, due TEXT, source TEXT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY "
        "(student, seq))"
    )
    first = sealed_v1(
        Statement("s1", 1, Aspect.NAME, "", "Maya", Speaker.STUDENT, T0, source="b/e1")
    )
    old.execute(
        "INSERT INTO statements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ("s1", 1, "name", "", "Maya", "student", "2026-04-30T09:00:00.000000Z", None, "b/e1",
         first.prev_hash, first.hash),
    )  # fmt: skip
    old.commit()
    old.close()
    log = SqliteProfileLog(path)
    try:
        assert log.statements("s1") == [first]
        assert log.erase_statements("s1", [1], T0) == 1
        assert log.erase_statements("s1", [1], T0) == 0  # erased once
        (gone,) = log.statements("s1")
        assert (gone.value, gone.erased_at, gone.hash) == ("", T0, first.hash)
        assert first_break([gone]) is None
    finally:
        log.close()


# --- a statement blanked without an erasure ----------------------------------------------------


def _forge(app: App, forge: Any) -> str | None:
    """Biology hears a preference and the pet; the service sets the language. ``forge`` then
    writes to the profile's storage as someone with write access would; what verify says."""
    assert app.profiles is not None
    ids = _said(app)
    app.profiles.set("s1", "language", "Urdu", said_by="service")
    assert app.profiles.verify("s1") is None
    forge(app, ids)
    return app.profiles.verify("s1")


def _sql(app: App, statement: str, *args: object) -> None:
    db = app.profiles.log._db  # type: ignore[union-attr]
    db.execute(statement, args)


def test_a_statement_blanked_without_an_erasure_is_a_break(tmp_path: Path) -> None:
    """The preference heard in an episode that was never erased, blanked in place (the
    adapter's own erasure, as a writer with access could call it): a break naming the
    statement, and the library's ``intact`` says so."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        app = memory.backend.app  # type: ignore[attr-defined]
        said = _forge(app, lambda app, ids: app.profiles.log.erase_statements("s1", [2], T0))
        assert said == "statement 2: erased, but the episode it was heard in is not"
        assert memory.profile("s1").intact is False
        assert LATER not in _block(app)  # what the forgery did: the preference is gone


def test_a_statement_set_by_the_service_cannot_be_erased_in_place(tmp_path: Path) -> None:
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    try:
        said = _forge(
            app,
            lambda app, ids: _sql(
                app, "UPDATE statements SET value = '', salt = NULL, erased_at = ? WHERE seq = 5",
                "2026-05-01T00:00:00.000000Z",
            ),
        )  # fmt: skip
        assert said == "statement 5: erased, but it was not heard in an episode"
    finally:
        app.close()


def test_an_erased_statement_is_still_checked_and_so_are_the_words(tmp_path: Path) -> None:
    """Version 2: an erased statement's envelope still verifies (its aspect changed is a
    break), a kept statement's words are held to their commitment, and a statement may not
    be relabelled as sealed by the release before (whose erased statements were not checked)."""
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    try:
        assert app.erasing is not None and app.profiles is not None
        ids = _said(app)
        app.erasing.erase_episode(Pair("s1", "biology"), ids[PET], reason="asked by the student")
        assert app.profiles.verify("s1") is None
        (gone,) = [s for s in app.profiles.history("s1") if s.erased_at is not None]
        assert (gone.salt, gone.commitment is not None) == (None, True)
        _sql(app, "UPDATE statements SET aspect = 'goal' WHERE seq = ?", gone.seq)
        assert app.profiles.verify("s1") == f"statement {gone.seq}: content changed"
        _sql(app, "UPDATE statements SET aspect = 'other' WHERE seq = ?", gone.seq)
        assert app.profiles.verify("s1") is None
        _sql(app, "UPDATE statements SET value = 'short answers' WHERE seq = 1")
        assert app.profiles.verify("s1") == "statement 1: its words changed"
        _sql(app, "UPDATE statements SET value = ? WHERE seq = 1", FIRST)
        _sql(app, "UPDATE statements SET version = 1, value = '', erased_at = ? WHERE seq = 2",
             "2026-05-01T00:00:00.000000Z")  # fmt: skip
        assert app.profiles.verify("s1") == "statement 2: sealed under version 1 after version 2"
    finally:
        app.close()


def test_a_statement_blanked_without_an_erasure_is_a_break_on_dynamodb(cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app

    app = lambda_app()
    said = _forge(app, lambda app, ids: app.profiles.log.erase_statements("s1", [3], T0))
    assert said == "statement 3: erased, but the episode it was heard in is not"
    app.erasing.erase_episode(Pair("s1", "biology"), ids_of_pet(app), reason="asked")
    assert app.profiles.verify("s1") is None  # erased with its episode: intact again


def ids_of_pet(app: App) -> str:
    """The pet's episode: the statement's source says where it was heard."""
    (pet,) = [s for s in app.profiles.history("s1") if s.aspect is Aspect.OTHER]
    assert pet.source is not None
    return pet.source.split("/", 1)[1]


def test_the_profile_says_where_its_log_stops_verifying(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    """`profile show` and the library's profile give the log's report, as `verify` does a
    pair's: "intact: N statements", or the first break (exit code 1 on the command line)."""
    from tutor_memory.cli import main

    store = tmp_path / "tm"
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        _said(memory.backend.app)  # type: ignore[attr-defined]
        assert memory.profile("s1").report == "intact: 4 statements"
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    show = ["profile", "show", "--store", str(store), "--student", "s1"]
    assert main(show) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "log: intact: 4 statements"
    log = SqliteProfileLog(store / "profile.db")
    log.erase_statements("s1", [2], T0)  # as a writer with access could
    log.close()
    assert main([*show, "--json"]) == 1
    shown = json.loads(capsys.readouterr().out)
    broken = "broken: statement 2: erased, but the episode it was heard in is not"
    assert (shown["intact"], shown["report"]) == (False, broken)
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        profile = memory.profile("s1")
        assert (profile.intact, profile.report) == (False, broken)
