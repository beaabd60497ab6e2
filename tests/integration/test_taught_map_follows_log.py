"""The map's taught layer follows the log. A student's "remember that osmosis is …" puts the
note on the concept, and the block shows it under SUBJECT MAP in every turn. Erasing that
message left the note — the student's words — on the map and in every block; correcting the
note changed the episode and not the map, so the block said both. Now an erased note leaves the
map (the previous note on the concept shows again, or none; a concept only the note put there
goes), an erased "X is the same as Y" takes its name along, retention does the same, and a
corrected note is what the map shows. Through the library in five languages, and on DynamoDB
(moto) as on the embedded store."""

from __future__ import annotations

import contextlib
import sqlite3
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory, Role
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
AT = datetime(2026, 3, 2, 9, tzinfo=UTC)
ASKED = AT + timedelta(days=3)

# Per language: a note the student asks to keep (its words marked by "zebra"), a second note on
# the same concept, and the question asked of the turn.
NOTES = {
    "en": ("Remember that osmosis is water moving across a zebra membrane.",
           "Remember that osmosis needs a partly permeable membrane.", "What is osmosis?"),
    "es": ("Recuerda que la ósmosis es el paso del agua a través de una membrana zebra.",
           "Recuerda que la ósmosis necesita una membrana semipermeable.",
           "¿Qué es la ósmosis?"),
    "id": ("Ingat bahwa osmosis adalah perpindahan air melalui membran zebra.",
           "Ingat bahwa osmosis butuh membran semipermeabel.", "Apa itu osmosis?"),
    "ur": ("یاد رکھو کہ اوسموسس پانی کا zebra جھلی سے گزرنا ہے۔",
           "یاد رکھو کہ اوسموسس کے لیے نیم پارگمی جھلی چاہیے۔", "اوسموسس کیا ہے؟"),
    "ar": ("تذكر أن التناضح هو انتقال الماء عبر غشاء zebra.",
           "تذكر أن التناضح يحتاج غشاء شبه منفذ.", "ما هو التناضح؟"),
}  # fmt: skip


def notes(pair: Any) -> dict[str, str | None]:
    return {c.name: c.taught_note for c in pair.map().concepts.values()}


@pytest.mark.parametrize("lang", list(NOTES))
def test_an_erased_note_leaves_the_map_and_every_block(lang: str, tmp_path: Path) -> None:
    first, _second, question = NOTES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_question("hello", at=AT)
        taught = pair.record_question(first, at=AT + timedelta(minutes=1))
        assert taught.kind == "taught"
        assert "zebra" in pair.turn(question, at=ASKED).block
        memory.erase("s1", "biology", taught.id, reason="the student asked")
        assert notes(pair) == {}  # the concept only the note put there went with it
        assert "zebra" not in pair.turn(question, at=ASKED).block
        assert pair.verify().intact


# Per language: the topic a check names, the concept the note put on the map
TOPICS = {"en": "osmosis", "es": "ósmosis", "id": "osmosis", "ur": "اوسموسس", "ar": "التناضح"}


@pytest.mark.parametrize("lang", list(NOTES))
def test_a_concept_a_check_confirmed_goes_with_the_note_that_put_it_there(
    lang: str, tmp_path: Path
) -> None:
    """The note put the concept on the map and a passing check confirmed it; erasing the note
    left the concept (the check's confirmation kept it) where a replay of the export, which
    never saw the note, has no such concept: a check puts none on the map. Now it goes, and
    the check's belief stays."""
    from tutor_memory.replay import replay

    first, _second, question = NOTES[lang]
    with Memory.local(tmp_path / "a", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        taught = pair.record_question(first, at=AT)
        checked = pair.record_check("Explain it", topic=TOPICS[lang], verdict="right", at=AT)
        assert [c.confirmed for c in pair.map().concepts.values()] == [True]
        memory.erase("s1", "biology", taught.id, reason="the student asked")
        assert notes(pair) == {}
        assert [b.line.split(" (")[0] for b in pair.beliefs()] == [f"understands {TOPICS[lang]}"]
        seen = (pair.turn(question, at=ASKED).block, [b.line for b in pair.beliefs()])
        assert checked.id in [e["id"] for e in pair.episodes().episodes]
        history = memory.export("s1").write(tmp_path / "export")
    replay(history, tmp_path / "b", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "b", settings=SETTINGS, ready=False) as replayed:
        again = replayed.pair("s1", "biology")
        assert notes(again) == {}
        assert (again.turn(question, at=ASKED).block, [b.line for b in again.beliefs()]) == seen


# Per language: the note's concept written another way (its case, an accent, a vowel mark)
SPELLED = {"en": "Osmosis", "es": "osmosis", "id": "OSMOSIS", "ur": "اوسموسِس", "ar": "التّناضح"}


@pytest.mark.parametrize("lang", list(NOTES))
def test_a_belief_named_after_an_erased_notes_concept_takes_its_checks_name(
    lang: str, tmp_path: Path
) -> None:
    """The note put its concept on the map, and a check spelling it another way was routed
    to it and named its belief after it. Erasing the note took the concept off the map and
    left the belief named as the note spelled it, where a replay of the export (no note)
    names it as the check did. Now the erasure re-derives that belief, and the check's own
    spelling names it."""
    from tutor_memory.replay import replay

    first, _second, question = NOTES[lang]
    with Memory.local(tmp_path / "a", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        taught = pair.record_question(first, at=AT)
        (concept,) = [c.name for c in pair.map().concepts.values()]
        assert concept != SPELLED[lang]
        pair.record_check("Explain it", topic=SPELLED[lang], verdict="wrong", at=AT)
        assert [b.concept for b in pair.beliefs()] == [concept]
        memory.erase("s1", "biology", taught.id, reason="the student asked")
        assert [b.concept for b in pair.beliefs()] == [SPELLED[lang]]
        seen = (pair.turn(question, at=ASKED).block, [b.line for b in pair.beliefs()])
        history = memory.export("s1").write(tmp_path / "export")
    replay(history, tmp_path / "b", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "b", settings=SETTINGS, ready=False) as replayed:
        again = replayed.pair("s1", "biology")
        assert (again.turn(question, at=ASKED).block, [b.line for b in again.beliefs()]) == seen


@pytest.mark.parametrize("lang", list(NOTES))
def test_the_earlier_note_shows_again_and_a_later_one_stays(lang: str, tmp_path: Path) -> None:
    first, second, _question = NOTES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        older = pair.record_question(first, at=AT)
        newer = pair.record_question(second, at=AT + timedelta(minutes=1))
        (name,) = notes(pair)
        assert older.taught == newer.taught == name
        second_note = notes(pair)[name]
        assert second_note is not None and "zebra" not in second_note
        memory.erase("s1", "biology", older.id, reason="the student asked")
        assert notes(pair) == {name: second_note}  # a newer note stays
        older = pair.record_question(first, at=AT + timedelta(minutes=2))
        assert "zebra" in str(notes(pair)[name])
        memory.erase("s1", "biology", older.id, reason="the student asked")
        assert notes(pair) == {name: second_note}  # the earlier note shows again


@pytest.mark.parametrize("lang", list(NOTES))
def test_a_corrected_note_is_what_the_map_shows(lang: str, tmp_path: Path) -> None:
    first, _second, question = NOTES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        taught = pair.record_question(first, at=AT)
        (name,) = notes(pair)
        meant = str(notes(pair)[name]).replace("zebra", "giraffe")
        fixed = pair.correct(taught.id, "note", meant, "a typo", at=AT + timedelta(days=1))
        assert notes(pair) == {name: meant}
        block = pair.turn(question, at=ASKED).block
        assert "giraffe" in block and "zebra" not in block
        memory.erase("s1", "biology", fixed.id, reason="the correction was a mistake")
        assert "zebra" in str(notes(pair)[name])  # the note as the log tells it again


def test_a_note_on_a_concept_of_the_files_leaves_the_concept(tmp_path: Path) -> None:
    name, data = sample_subject()[0]  # the PDF: Mitochondria among its concepts
    (tmp_path / name).write_bytes(data)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.ingest(tmp_path / name)
        before = pair.map().concepts
        (on_file,) = [c for c in before.values() if c.name.lower() == "mitochondria"]
        taught = pair.record_question("Remember that mitochondria are the zebra of the cell.")
        assert taught.taught == on_file.name
        alias = pair.record_question("Remember that mitocondria is the same as mitochondria.")
        after = pair.map().concepts[on_file.key]
        assert "zebra" in str(after.taught_note) and "mitocondria" in after.aliases
        memory.erase("s1", "biology", taught.id, reason="the student asked")
        memory.erase("s1", "biology", alias.id, reason="the student asked")
        assert pair.map().concepts[on_file.key] == before[on_file.key]  # as the file made it


# "X is the same as Y" taught before any file explains Y, X the student's own word: the file's
# concept then joins the note's node, under X.
NAMINGS = {
    "en": ("Remember that zebrakite is the same as mitochondria", "zebrakite"),
    "es": ("Recuerda que zebrakite es lo mismo que mitochondria", "zebrakite"),
    "id": ("Ingat bahwa zebrakite sama dengan mitochondria", "zebrakite"),
    "ur": ("یاد رکھو کہ زیبراکائٹ اور mitochondria ایک ہی ہیں", "زيبراكائٹ"),  # keyed folded
    "ar": ("تذكر أن زيبراكايت هي نفسها mitochondria", "زيبراكايت"),
}


def stored_words(folder: Path) -> str:
    """Every text and (decompressed) blob of every row of the store's database."""
    db = sqlite3.connect(folder / "memory.db")
    found = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for row in db.execute(f'SELECT * FROM "{table}"'):  # the schema's own table names
            for value in row:
                if isinstance(value, bytes):
                    with contextlib.suppress(zlib.error):
                        value = zlib.decompress(value)
                    value = value.decode("utf-8", "replace")
                found.append(str(value))
    db.close()
    return "\n".join(found)


@pytest.mark.parametrize("lang", list(NAMINGS))
def test_an_erased_naming_leaves_the_files_concept_as_the_file_named_it(
    lang: str, tmp_path: Path
) -> None:
    note, word = NAMINGS[lang]
    name, data = sample_subject()[0]  # the PDF: Mitochondria among its concepts
    (tmp_path / name).write_bytes(data)
    with Memory.local(tmp_path / "alone", settings=SETTINGS, ready=False) as memory:
        memory.pair("s1", "biology").ingest(tmp_path / name)
        file_alone = memory.pair("s1", "biology").map().concepts
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        taught = pair.record_taught(note)
        pair.ingest(tmp_path / name)
        assert word in pair.map().concepts  # the file's Mitochondria joined the student's word
        memory.erase("s1", "biology", taught.id, reason="the student asked")
        assert pair.map().concepts == file_alone  # the map the log gives without the note
        block = pair.turn("What do mitochondria do?").block
    stored = stored_words(tmp_path / "tm")
    written = note.split()[3 if lang == "ur" else 2]
    for form in (word, written):  # as the map keyed it, as the student wrote it
        assert form not in block and form not in stored


def test_retention_takes_the_old_notes_off_the_map(tmp_path: Path) -> None:
    first, second, _question = NOTES["en"]
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    pair = Pair("s1", "biology")
    app.episodes.add(pair, Kind.QUESTION, first, at=AT)
    app.episodes.add(pair, Kind.QUESTION, "Remember that a diffusion zebra is slow.", at=AT)
    app.episodes.add(pair, Kind.QUESTION, second, at=AT + timedelta(days=40))
    assert app.erasing is not None
    app.erasing.erase_older_than(pair, AT + timedelta(days=30))
    taught = {c.name: c.taught_note for c in app.maps.maps.load_map(pair).concepts.values()}
    assert list(taught) == ["osmosis"] and "zebra" not in str(taught)


def test_both_backends_keep_the_same_map_after_an_erasure_and_a_correction(
    tmp_path: Path, cloud: Any
) -> None:
    from tutor_memory.bootstrap import lambda_app

    first, second, question = NOTES["es"]
    seen = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        older = app.episodes.add(pair, Kind.QUESTION, first, at=AT).episode
        newer = app.episodes.add(pair, Kind.QUESTION, second, at=AT).episode
        app.episodes.correct(pair, newer.episode_id, "note", "la ósmosis mueve agua", "typo",
                             by=Role.SERVICE, at=AT + timedelta(days=1))  # fmt: skip
        assert app.erasing is not None
        app.erasing.erase_episode(pair, older.episode_id, reason="the student asked")
        cmap = app.maps.maps.load_map(pair)
        seen.append(
            (
                {c.name: c.taught_note for c in cmap.concepts.values()},
                app.turns.turn(pair, question, at=ASKED).block,
            )
        )
    assert seen[0] == seen[1]
    assert seen[0][0] == {"ósmosis": "la ósmosis mueve agua"}
    assert "zebra" not in seen[0][1] and "la ósmosis mueve agua" in seen[0][1]


def test_a_store_failing_between_the_log_and_the_map_leaves_no_orphan_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is written first: a failed append writes nothing anywhere (the map got the
    note before, which no episode held and no erasure could take off); a failed map save
    leaves the episode, and the client's retry under its key puts the note on the map."""
    first, _second, _question = NOTES["en"]
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    pair = Pair("s1", "biology")
    app.episodes.add(pair, Kind.QUESTION, "hello", at=AT)
    store, maps = app.ports.store, app.maps.maps

    def failing(*_args: Any, **_kwargs: Any) -> Any:
        raise StoreError("the store is unavailable")

    with monkeypatch.context() as patch:
        patch.setattr(store, "append", failing)
        with pytest.raises(StoreError):
            app.episodes.add(pair, Kind.QUESTION, first, at=AT, idempotency_key="m-1")
    assert maps.load_map(pair).concepts == {}
    with monkeypatch.context() as patch:
        patch.setattr(maps, "save_map", failing)
        with pytest.raises(StoreError):
            app.episodes.add(pair, Kind.QUESTION, first, at=AT, idempotency_key="m-2")
    assert maps.load_map(pair).concepts == {}
    assert [e.kind for e in store.iter_episodes(pair)] == [Kind.QUESTION, Kind.TAUGHT]
    again = app.episodes.add(pair, Kind.QUESTION, first, at=AT, idempotency_key="m-2")
    assert not again.append.created
    notes = {c.name: c.taught_note for c in maps.load_map(pair).concepts.values()}
    assert notes == {"osmosis": "osmosis is water moving across a zebra membrane"}
    assert [e.kind for e in store.iter_episodes(pair)] == [Kind.QUESTION, Kind.TAUGHT]
