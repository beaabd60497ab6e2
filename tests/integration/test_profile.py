"""The student's profile (issue 30): said once in any subject, it holds in every subject's
block; a later statement on the same aspect replaces the earlier; a goal's date counts down;
erasing the student removes it from every byte. Through the library, REST (with the caller's
role as who said it), MCP, and on DynamoDB (moto) as on the embedded store."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Caller, Memory, Role
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.block import PROFILE_HEADER
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError, ForbiddenError
from tutor_memory.domain.profile import Aspect, Speaker, Statement, seal
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings, on_folder

from .conftest import REGION, TABLE, serving

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
SAID = datetime(2027, 4, 30, 9, tzinfo=UTC)  # the exam on 12 May is then 12 days away


class Fixed:
    def now(self) -> datetime:
        return SAID


# Per language: a preference, a later one that replaces it, and an exam on 12 May.
SAYINGS = {
    "en": ("I prefer examples first, then the rule.", "Please always explain step by step.",
           "My chemistry exam is on 12 May."),
    "es": ("Prefiero ejemplos primero y luego la regla.",
           "Por favor siempre explícame paso a paso.", "Mi examen de química es el 12 de mayo."),
    "id": ("Saya lebih suka contoh dulu, baru aturannya.",
           "Tolong selalu jelaskan langkah demi langkah.", "Ujian kimia saya tanggal 12 Mei."),
    "ur": ("مجھے زیادہ پسند ہے کہ آپ پہلے مثالیں دیں۔", "براہ کرم ہمیشہ قدم بہ قدم سمجھائیں۔",
           "میرا کیمسٹری کا امتحان 12 مئی کو ہے۔"),
    "ar": ("أفضل أن تعطيني أمثلة أولا.", "من فضلك دائما اشرح خطوة بخطوة.",
           "امتحاني في الكيمياء يوم 12 مايو."),
}  # fmt: skip


@pytest.mark.parametrize("lang", list(SAYINGS))
def test_said_in_biology_it_holds_in_chemistry_and_a_later_preference_replaces_it(
    lang: str, tmp_path: Path
) -> None:
    first, later, exam = SAYINGS[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=Fixed(), ready=False) as memory:
        biology, chemistry = memory.pair("s1", "biology"), memory.pair("s1", "chemistry")
        chemistry.record_question("What is a mole?", at=SAID)
        heard = biology.record_question(first, at=SAID)
        assert heard.taught is None  # about the student: not a note on biology's map
        block = chemistry.turn("What is a mole?", at=SAID).block
        assert PROFILE_HEADER in block and first in block
        assert "said by the student, 30 Apr" in block
        biology.record_question(later, at=SAID)
        biology.record_question(exam, at=SAID)
        block = chemistry.turn("What is a mole?", at=SAID).block
        assert later in block and first not in block  # replaced, on the same aspect
        assert "12 May, in 12 days" in block
        profile = memory.profile("s1")
        assert [s.aspect for s in profile.current] == ["preference", "goal"]
        assert len(profile.history) == 3 and profile.intact
        assert profile.current[1].due == date(2027, 5, 12)


def test_a_claim_about_the_subject_still_teaches_the_map(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        taught = memory.pair("s1", "biology").record_question(
            "Remember that osmosis is water crossing a membrane."
        )
        assert taught.taught is not None and memory.profile("s1").history == []


def test_a_name_said_in_passing_leaves_the_rest_of_the_message_to_teach(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        said = memory.pair("s1", "biology").record_question(
            "My name is Maya. Remember that osmosis is water crossing a membrane."
        )
        assert said.taught is not None  # the map learnt it
        (name,) = memory.profile("s1").current  # and the profile heard the name
        assert (name.aspect, name.value) == ("name", "Maya")
        plain = memory.pair("s2", "biology").record_question("Hi, my name is Sam.")
        assert plain.taught is None and memory.profile("s2").current[0].value == "Sam"
        # Urdu's "call me …", the name between two phrases: heard, in every subject
        memory.pair("s3", "chemistry").record_question("السلام علیکم، مجھے ماہ نور کہیں۔")
        assert memory.profile("s3").current[0].value == "ماہ نور"
        memory.pair("s3", "biology").record_question("اوسموسس کیا ہے؟")
        turn = memory.pair("s3", "biology").turn("اوسموسس کیا ہے؟")
        assert "ماہ نور" in turn.block


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Remember that my name is Maya", "Maya"),
        ("Recuerda que me llamo Lucía", "Lucía"),
        ("Ingat bahwa nama saya Putri", "Putri"),
        ("یاد رکھو کہ میرا نام علی ہے", "علی"),
        ("yaad rakho ke mera naam Ali hai", "Ali"),  # Urdu in Latin letters
        ("تذكر أن اسمي مريم", "مريم"),
    ],
)
def test_remembering_the_students_own_name_names_them_and_teaches_nothing(
    tmp_path: Path, message: str, name: str
) -> None:
    """The note is the name: before, the map gained a concept "name" ("naam Ali", "نام علی")
    whose taught note was the student's name."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        said = pair.record_question(message)
        assert said.kind == "question" and said.taught is None
        assert pair.map().concepts == {}
        (heard,) = memory.profile("s1").current
        assert (heard.aspect, heard.value) == ("name", name)


def test_the_profile_yields_to_the_questions_evidence_when_the_budget_is_tight(
    tmp_path: Path,
) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=Fixed(), ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_question("What does the mitochondrion do in a cell?", at=SAID)
        for n in range(6):
            memory.set_profile("s1", "other", f"plays in band number {n} " + "x " * 30,
                               key=f"band {n}")  # fmt: skip
        memory.set_profile("s1", "accommodation", "I have dyslexia", key="dyslexia")
        roomy = pair.turn("mitochondrion?", at=SAID, budget_tokens=1200)
        tight = pair.turn("mitochondrion?", at=SAID, budget_tokens=260)
        assert "mitochondrion" in roomy.block and "mitochondrion" in tight.block
        assert "more about the student" in tight.block  # cut from the end, and said so
        assert "I have dyslexia" in tight.block  # an accommodation is the last to go


def test_a_record_question_shows_the_profile_first(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong")
        memory.set_profile("s1", "language", "Urdu")
        block = pair.turn("What did I get wrong so far?").block
        assert block.index(PROFILE_HEADER) < block.index("struggles with")


def test_rest_says_who_said_it_and_a_student_cannot_speak_for_another(tmp_path: Path) -> None:
    import json
    import urllib.error
    import urllib.request

    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    teacher = app.access.create_key("default", Role.TEACHER, "t-1")[1]
    bob = app.access.create_key("default", Role.STUDENT, "bob")[1]
    app.access.set_class("default", "7a", ["t-1"], ["alice"])

    def call(url: str, method: str, key: str, body: Any = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            url, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    try:
        with serving(app, anonymous=None) as url:
            put = f"{url}/students/alice/profile/accommodation"
            status, said = call(put, "PUT", teacher, {"value": "extra time in tests",
                                                      "key": "extra time"})  # fmt: skip
            assert status == 200 and said["said_by"] == "teacher"
            assert call(put, "PUT", bob, {"value": "nothing"})[0] == 403
            status, profile = call(f"{url}/students/alice/profile", "GET", teacher)
            assert status == 200 and profile["current"][0]["value"] == "extra time in tests"
            status, gone = call(put + "?key=extra+time", "DELETE", teacher)
            assert status == 200 and gone["value"] == ""
            assert call(f"{url}/students/alice/profile", "GET", teacher)[1]["current"] == []
    finally:
        app.close()


def test_an_agent_sets_the_profile_over_mcp_and_the_block_shows_it(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        memory.pair("s1", "biology").record_question("What is a cell?")
        server = build_server(memory)
        asyncio.run(server.call_tool(
            "set_profile", {"student_id": "s1", "aspect": "language", "value": "Arabic"}
        ))  # fmt: skip
        block = memory.pair("s1", "biology").turn("cells?").block
        assert "- language: Arabic (said by the service" in block


def test_a_student_may_state_only_their_own_profile(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        memory.pair("alice", "biology").record_question("hi")
    alice = Caller("default", Role.STUDENT, "alice")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=alice) as memory:
        assert memory.set_profile("alice", "language", "Urdu").said_by == "student"
        with pytest.raises(ForbiddenError):
            memory.set_profile("bob", "language", "Urdu")


def test_erasing_the_student_removes_the_profile_from_every_byte(tmp_path: Path) -> None:
    marker = "Zanzibarquokka"
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        memory.pair("s1", "biology").record_question(f"Remember that I keep a pet {marker}.")
        assert marker in memory.profile("s1").history[0].value
        export = memory.export("s1")
        assert export.profile and marker in export.profile[0]["value"]
        memory.erase("s1", reason="the family asked")
        assert memory.profile("s1").history == []
    for path in folder.rglob("*"):
        if path.is_file() and path.name.startswith("profile"):
            assert marker.encode() not in path.read_bytes(), path.name


def test_the_dynamodb_profile_log_keeps_the_chain_and_refuses_a_taken_sequence(
    cloud: Any,
) -> None:
    from tutor_memory.adapters.profile_dynamo import DynamoProfileLog

    log = DynamoProfileLog(TABLE, REGION)
    first = seal(Statement("s1", 0, Aspect.LANGUAGE, "", "Urdu", Speaker.STUDENT, SAID), None)
    log.append_statement(first)
    with pytest.raises(ConflictError):
        log.append_statement(first)
    second = seal(Statement("s1", 0, Aspect.LANGUAGE, "", "", Speaker.TEACHER, SAID), first)
    log.append_statement(second)
    assert log.statements("s1") == [first, second]
    assert log.erase_profile("s1") == 2 and log.statements("s1") == []


def test_both_backends_show_the_same_block(tmp_path: Path, cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app
    from tutor_memory.domain.episodes import Kind

    texts = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        app.episodes.add(pair, Kind.QUESTION, "Please always explain step by step.", at=SAID)
        app.episodes.add(pair, Kind.QUESTION, "My chemistry exam is on 12 May.", at=SAID)
        texts.append(app.turns.turn(pair, "step?", at=SAID).block)
    assert PROFILE_HEADER in texts[0] and texts[0] == texts[1]


def test_the_inspector_shows_the_profile_and_what_each_statement_replaced(
    tmp_path: Path,
) -> None:
    from tutor_memory.inspector_html import render_page

    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        memory.pair("s1", "biology").record_question("I prefer examples first, then the rule.")
        memory.pair("s1", "biology").record_question("Please always explain step by step.")
        memory.set_profile("s1", "language", "Urdu")
        app = memory.backend.app  # type: ignore[attr-defined]
        data = app.inspector.inspect(
            __import__("tutor_memory").domain.episodes.Pair("s1", "biology")
        )
        page = render_page(data, served=False)
    assert [s["aspect"] for s in data["profile"]] == ["language", "preference"]
    assert data["profile"][1]["replaced"] == ["I prefer examples first, then the rule."]
    assert 'id="profile"' in page and "Please always explain step by step." in page
    assert "(replaced: I prefer examples first, then the rule.)" in page


# A test on a weekday, said in five languages on Monday 3 May 2027 (the test: Friday 7 May)
TEST_ON_FRIDAY = {
    "en": "I have a test on Friday.",
    "es": "Tengo examen el viernes.",
    "id": "Aku ada ulangan hari Jumat.",
    "ur": "جمعہ کو میرا ٹیسٹ ہے۔",
    "ar": "عندي اختبار يوم الجمعة.",
}


@pytest.mark.parametrize("lang", list(TEST_ON_FRIDAY))
def test_a_goal_shows_until_a_week_after_its_day(lang: str, tmp_path: Path) -> None:
    """A student who says "I have a test on Friday" every few weeks: each is a goal of its own
    day, and every passed one stayed in every block ("7 May, passed"), oldest first. A goal
    shows for a week after its day; then only the profile and its history keep it."""
    from datetime import timedelta

    from tutor_memory.ports import FixedClock

    said_on = datetime(2027, 5, 3, 16, tzinfo=UTC)
    clock = FixedClock(said_on + timedelta(days=20))
    with Memory.local(tmp_path / "tm", settings=SETTINGS, clock=clock, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_question(TEST_ON_FRIDAY[lang], at=said_on)
        (goal,) = memory.profile("s1").current
        assert (goal.aspect, goal.key) == ("goal", "2027-05-07")

        def shown(days_on: int) -> bool:
            at = said_on + timedelta(days=days_on)
            return f"- goal: {TEST_ON_FRIDAY[lang]} (" in pair.turn("What is osmosis?", at=at).block

        assert shown(0) and "7 May, in 4 days" in pair.turn("hi", at=said_on).block
        assert shown(4 + 7)  # a week after its day: "how did the test go?"
        assert not shown(4 + 8)
        assert [s.value for s in memory.profile("s1").current] == [TEST_ON_FRIDAY[lang]]
