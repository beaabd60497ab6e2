"""The student's name in the profile (``name`` aspect): a question that names the student is
about what it asks, not about every line that says the name. A tutor says "Hi Maya!" once a
session: in too few lines to be an everyday word, so without the name every greeting matched
"What is Maya's dog called?" by words and took the block's room. In five languages, through
the library as a tutoring product calls it (lexical recall alone: no embedder)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.domain.errors import ValidationError
from tutor_memory.settings import Settings

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
START = datetime(2026, 1, 5, 16, tzinfo=UTC)
SESSIONS = 12  # one greeting each: the name is said in 12 of 133 lines, under the gate's tenth

# name, the fact (said once, in the first session), the question naming the student, the
# tutor's greeting (one that does not open with a greeting word: "Hi Maya!" would tell the
# profile the name, below), and a student's and a tutor's line of each session's work
LANGUAGES = {
    "en": ("Maya", "We adopted a dog last spring, his name is Biscuit.",
           "What is Maya's dog called?", "How are you today, Maya?",
           "can you check exercise {k}", "Exercise {k} looks right."),
    "es": ("Lucía", "Adoptamos un perro la primavera pasada, se llama Galleta.",
           "¿Cómo se llama el perro de Lucía?", "¿Cómo estás hoy, Lucía?",
           "¿puedes revisar el ejercicio {k}?", "El ejercicio {k} está bien."),
    "id": ("Putri", "Kami mengadopsi anjing musim semi lalu, namanya Biskuit.",
           "Siapa nama anjing Putri?", "Apa kabar hari ini, Putri?",
           "bisa cek latihan {k}?", "Latihan {k} sudah benar."),
    "ur": ("مریم", "ہمارے کتے کا نام بسکٹ ہے، ہم نے اسے پچھلی بہار گود لیا۔",
           "مریم کے کتے کا نام کیا ہے؟", "آج آپ کیسی ہیں، مریم؟",
           "کیا آپ مشق {k} دیکھ سکتے ہیں؟", "مشق {k} ٹھیک ہے۔"),
    "ar": ("مريم", "عندنا كلب جديد اسمه بسكويت، تبنيناه في الربيع الماضي.",
           "ما اسم كلب مريم؟", "كيف حالك اليوم يا مريم؟",
           "هل يمكنك مراجعة التمرين {k}؟", "التمرين {k} صحيح."),
}  # fmt: skip


# The tutor opening each session by calling the student by name
ADDRESSED = {
    "en": "Hi Maya! Ready to start?",
    "es": "¡Hola Lucía! ¿Empezamos?",
    "id": "Halo Putri, siap mulai?",
    "ur": "السلام علیکم مریم! شروع کریں؟",
    "ar": "أهلا يا مريم، هل نبدأ؟",
}


def _said(lang: str, greeting: str | None = None) -> Iterator[tuple[str, str, datetime]]:
    """The pair's history: (kind, text, time), oldest first (``greeting``: the tutor's)."""
    _name, fact, _question, usual, work, checked = LANGUAGES[lang]
    greeting = greeting or usual
    for session in range(SESSIONS):
        at = START + timedelta(days=7 * session)
        yield "answer", greeting, at
        if session == 0:
            yield "question", fact, at + timedelta(seconds=30)
        for j in range(5):
            k = 10 * session + j
            at += timedelta(minutes=1)
            yield "question", work.format(k=k), at
            yield "answer", checked.format(k=k), at + timedelta(seconds=20)


def _history(memory: Memory, student: str, lang: str, greeting: str | None = None) -> None:
    pair = memory.pair(student, "biology")
    for kind, text, at in _said(lang, greeting):
        (pair.record_question if kind == "question" else pair.record_answer)(text, at=at)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_students_name_in_a_question_does_not_make_every_greeting_a_match(
    lang: str, tmp_path: Path
) -> None:
    name, fact, question, greeting, *_ = LANGUAGES[lang]
    asked = START + timedelta(days=7 * SESSIONS)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        for student in ("named", "unnamed"):
            _history(memory, student, lang)
        memory.set_profile("named", "name", name)
        named = memory.pair("named", "biology")
        unnamed = memory.pair("unnamed", "biology")

        # Without the name in the profile, the greetings match by the name and crowd the block.
        before = unnamed.recall(question, at=asked)
        assert greeting in [item.summary for item in before.items]
        assert greeting in unnamed.turn(question, at=asked).block

        # With it, the question is about the dog: the fact comes first, no greeting matches.
        after = named.recall(question, at=asked)
        assert len(after.terms) == len(before.terms) - 1  # the name, and only the name, left out
        assert after.items[0].summary == fact
        assert greeting not in [item.summary for item in after.items]
        block = named.turn(question, at=asked).block
        assert fact in block and greeting not in block
        assert f"- name: {name} (said by the service" in block  # ABOUT THE STUDENT


def test_the_name_retracted_or_replaced_is_what_recall_reads(tmp_path: Path) -> None:
    name, _fact, question, greeting, *_ = LANGUAGES["en"]
    asked = START + timedelta(days=7 * SESSIONS)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        _history(memory, "s1", "en")
        pair = memory.pair("s1", "biology")
        memory.set_profile("s1", "name", f"{name} Lopez")  # every word of it is the name
        assert "lopez" not in pair.recall(f"Where does Lopez live? {question}", at=asked).terms
        memory.set_profile("s1", "name", "Mai")  # a new name replaces the old
        assert greeting in [item.summary for item in pair.recall(question, at=asked).items]
        memory.retract_profile("s1", "name")
        assert "mai" in pair.recall("Is Mai here?", at=asked).terms


def test_a_name_the_student_gives_in_one_subject_is_read_in_another(tmp_path: Path) -> None:
    name, fact, question, greeting, *_ = LANGUAGES["es"]
    asked = START + timedelta(days=7 * SESSIONS)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        _history(memory, "s1", "es")
        memory.pair("s1", "chemistry").record_question("Hola, me llamo Lucía.", at=START)
        (said,) = memory.profile("s1").current
        assert (said.aspect, said.value, said.said_by) == ("name", name, "student")
        block = memory.pair("s1", "biology").turn(question, at=asked).block
        assert fact in block and greeting not in block


def test_the_command_line_recalls_with_the_name_as_the_library_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tutor_memory.cli import main

    name, fact, question, greeting, *_ = LANGUAGES["en"]
    store = tmp_path / "tm"
    with Memory.local(store, settings=SETTINGS, ready=False) as memory:
        _history(memory, "s1", "en")
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    where = ["--store", str(store), "--student", "s1"]
    asked = (START + timedelta(days=7 * SESSIONS)).isoformat()
    ask = ["recall", *where, "--subject", "biology", "--at", asked, "--json", question]
    assert main(ask) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["profile", "set", "name", name, *where]) == 0
    capsys.readouterr()
    assert main(ask) == 0
    after = json.loads(capsys.readouterr().out)
    assert "maya" in before["terms"] and "maya" not in after["terms"]
    assert greeting in [i["summary"] for i in before["items"]]
    assert after["items"][0]["summary"] == fact


@pytest.mark.parametrize(
    "value", ["my dog is called Biscuit and he", "Maya 2", "Maya !!", "Ana María García López Ruiz"]
)
def test_a_sentence_given_as_a_name_is_refused_and_nothing_is_written(
    value: str, tmp_path: Path
) -> None:
    """Recall drops a name's words from every question: a sentence kept as a name would hide
    its words from the lexical pool for good."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        memory.set_profile("s1", "name", "Maya")
        with pytest.raises(ValidationError) as refused:
            memory.set_profile("s1", "name", value)
        assert refused.value.field == "value" and "at most 4 words" in refused.value.problem
        with pytest.raises(ValidationError, match="a word of a name is at most 35 characters"):
            memory.set_profile("s1", "name", "Maya " + "L" * 36)
        with pytest.raises(ValidationError, match="a name has no key"):
            memory.set_profile("s1", "name", "Mai", key="nickname")
        assert [(s.aspect, s.value) for s in memory.profile("s1").current] == [("name", "Maya")]


def test_both_backends_read_the_name_alike(tmp_path: Path, cloud: Any) -> None:
    """DynamoDB (moto) and the embedded store: the same history, the same name, the same
    block, and recall on its own reads the name from each backend's profile log."""
    from tutor_memory.bootstrap import build_app, lambda_app
    from tutor_memory.domain.episodes import Kind, Pair
    from tutor_memory.settings import on_folder

    name, fact, question, greeting, *_ = LANGUAGES["id"]
    asked = START + timedelta(days=7 * SESSIONS)
    blocks, terms = [], []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        assert app.profiles is not None
        app.profiles.set("s1", "name", name, said_by="service")
        for kind, text, at in _said("id"):
            app.episodes.add(pair, Kind(kind), text, at=at)
        blocks.append(app.turns.turn(pair, question, at=asked).block)
        terms.append(app.memory.recall(pair, question, at=asked).terms)
    assert blocks[0] == blocks[1] and fact in blocks[0] and greeting not in blocks[0]
    assert terms[0] == terms[1] and "putri" not in terms[0]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_tutor_calling_the_student_by_name_tells_the_profile(lang: str, tmp_path: Path) -> None:
    """No one set the name: the tutor's "Hi Maya!" at each session's start tells it, and the
    question about the dog is then about the dog, as when the name was set."""
    name, fact, question, _greeting, *_ = LANGUAGES[lang]
    greeting = ADDRESSED[lang]
    asked = START + timedelta(days=7 * SESSIONS)
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        _history(memory, "s1", lang, greeting)
        (said,) = memory.profile("s1").current
        assert (said.aspect, said.value, said.said_by) == ("name", name, "service")
        pair = memory.pair("s1", "biology")
        found = pair.recall(question, at=asked)
        assert found.items[0].summary == fact
        assert greeting not in [item.summary for item in found.items]
        block = pair.turn(question, at=asked).block
        assert fact in block and greeting not in block
        assert f"- name: {name} (heard in your greeting" in block


def test_a_greeting_never_replaces_a_name_the_profile_holds(tmp_path: Path) -> None:
    """A nickname in a greeting, or someone else greeted, leaves the name in force; a student
    greeting the tutor names no one; once the name is retracted, a greeting tells it again."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_question("Hi Jordan! Can we start?", at=START)  # the student's line
        assert memory.profile("s1").current == []
        pair.record_answer("Hi Maya! Ready?", at=START + timedelta(minutes=1))
        pair.record_answer("Hi Nadia! Is Maya there?", at=START + timedelta(days=1))
        assert [s.value for s in memory.profile("s1").current] == ["Maya"]
        pair.record_question("My name is Maya Lopez.", at=START + timedelta(days=2))
        pair.record_answer("Welcome back, Mai!", at=START + timedelta(days=2, minutes=1))
        assert [(s.value, s.said_by) for s in memory.profile("s1").current] == [
            ("Maya Lopez", "student")
        ]
        memory.retract_profile("s1", "name")
        pair.record_answer("Hello Mai, ready?", at=START + timedelta(days=3))
        assert [s.value for s in memory.profile("s1").current] == ["Mai"]
        assert len(memory.profile("s1").history) == 4  # heard, set, retracted, heard


def test_a_history_imported_in_batches_hears_the_greeting_on_both_backends(
    tmp_path: Path, cloud: Any
) -> None:
    """``Episodes.add_many`` (a history imported, ``tutor-memory replay``) batches the tutor's
    lines, except one that may name the student: DynamoDB (moto) and the embedded store."""
    from tutor_memory.bootstrap import build_app, lambda_app
    from tutor_memory.domain.episodes import AnswerEvidence, Kind, NewEpisode, Pair
    from tutor_memory.domain.profile import names_of
    from tutor_memory.settings import on_folder

    name, fact, question, *_ = LANGUAGES["ar"]
    asked = START + timedelta(days=7 * SESSIONS)
    blocks = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        history = [
            NewEpisode(pair, Kind(kind), text, at, evidence=AnswerEvidence() if answer else None)
            for kind, text, at in _said("ar", ADDRESSED["ar"])
            for answer in [kind == "answer"]
        ]
        added = app.episodes.add_many(history, batch_size=16)
        assert len(added) == len(history)
        assert app.profiles is not None
        assert names_of(app.profiles.in_force("s1")) == (name,)
        blocks.append(app.turns.turn(pair, question, at=asked).block)
    assert blocks[0] == blocks[1] and fact in blocks[0] and ADDRESSED["ar"] not in blocks[0]
