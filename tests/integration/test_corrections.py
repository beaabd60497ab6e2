"""Corrections (issue 30): a check marked wrong by mistake, a score typed wrong, a student's "that
is not what I meant" — each a new episode naming the one it corrects; nothing is rewritten.
The belief moves as a check with the corrected verdict would, the block shows the episode as
corrected ("(corrected on …)"), the report lists the correction, the chain verifies, and the
nightly's calibration counts the check once with its corrected verdict. Through the library
in five languages, REST with each role's refusal, MCP, and on DynamoDB (moto) as on the
embedded store."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Caller, Memory, Role
from tutor_memory.bootstrap import build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import ForbiddenError, NotFoundError, ValidationError
from tutor_memory.mcp_server import build_server
from tutor_memory.settings import Settings, on_folder

from .conftest import serving
from .test_profile import SAYINGS

SETTINGS = Settings(embedder="none", turn_deadline_s=30.0)
AT = datetime(2026, 3, 2, 9, tzinfo=UTC)
FIXED = AT + timedelta(days=1)  # the correction, "3 Mar"
ASKED = AT + timedelta(days=2)

# Per language: a check's topic and its question, a student's message, and what they meant.
WORDS = {
    "en": ("osmosis", "Explain osmosis in one line.", "My exam is on Friday.",
           "My exam is on Monday."),
    "es": ("ósmosis", "Explica la ósmosis en una línea.", "Mi examen es el viernes.",
           "Mi examen es el lunes."),
    "id": ("osmosis", "Jelaskan osmosis dalam satu kalimat.", "Ujian saya hari Jumat.",
           "Ujian saya hari Senin."),
    "ur": ("اوسموسس", "اوسموسس کو ایک سطر میں سمجھائیں۔", "میرا امتحان جمعہ کو ہے۔",
           "میرا امتحان پیر کو ہے۔"),
    "ar": ("التناضح", "اشرح التناضح في سطر واحد.", "امتحاني يوم الجمعة.",
           "امتحاني يوم الاثنين."),
}  # fmt: skip


@pytest.mark.parametrize("lang", list(WORDS))
def test_a_wrong_check_corrected_to_right_moves_the_belief_as_a_right_check_would(
    lang: str, tmp_path: Path
) -> None:
    topic, asked, said, meant = WORDS[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        mistaken, control = memory.pair("s1", "biology"), memory.pair("s2", "biology")
        check = mistaken.record_check(asked, topic=topic, verdict="wrong", at=AT)
        control.record_check(asked, topic=topic, verdict="right", at=AT)
        assert check.belief is not None and check.belief.startswith("struggles with")
        fixed = mistaken.correct(check.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        assert fixed.kind == "correction" and fixed.created
        # The same belief a right check gives, though the wrong verdict stays in the log.
        assert [b.line for b in mistaken.beliefs()] == [b.line for b in control.beliefs()]
        block = mistaken.turn(topic, at=ASKED).block
        # One line: the check as corrected, the correction's reason in its note (the
        # correction's own line would say "right, not wrong" a second time).
        assert f"check on {topic}: right (corrected on 3 Mar: marked wrong by mistake)" in block
        assert f"check on {topic}: right, not wrong" not in block
        message = mistaken.record_question(said, at=AT)
        mistaken.correct(message.id, "text", meant, "I typed the wrong day", at=FIXED)
        block = mistaken.turn(meant, at=ASKED).block
        assert f"{meant} (corrected on 3 Mar: I typed the wrong day)" in block
        # The message states a goal (its weekday): the profile holds it as corrected, and
        # the earlier work shows the message once, as corrected.
        about, work = block.split("EARLIER WORK")
        assert f"- goal: {meant} (" in about
        assert said not in block and work.count(meant) == 1
        history = [line["kind"] for line in mistaken.export().to_dict()["history"]]
        assert history.count("check") == 1 and history.count("correction") == 2
        assert mistaken.verify().intact


def test_a_missed_checks_note_is_shown_until_a_correction_says_it_was_right(
    tmp_path: Path,
) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        note = "Not quite: said salt moves; it is the water."
        check = pair.record_check(
            "Explain osmosis in one line.", topic="osmosis", verdict="wrong", evaluation=note, at=AT
        )
        asked = "What did I get wrong so far?"
        assert f"check on osmosis: wrong; you noted: {note}" in pair.turn(asked, at=FIXED).block
        pair.correct(check.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        block = pair.turn(asked, at=ASKED).block
        assert "check on osmosis: right (corrected on 3 Mar: marked wrong by mistake)" in block
        assert note not in block
        # asked before the correction, the turn still reads the miss and its note
        assert note in pair.turn(asked, at=AT + timedelta(hours=1)).block


def test_a_check_corrected_to_right_is_not_one_line_with_a_check_recorded_right(
    tmp_path: Path,
) -> None:
    # "8 Oct – 14 Oct · check on mitosis: right (and 1 more time like it) (corrected on …)"
    # said both were corrected, and when each was right
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        asked = "Explain mitosis in one line."
        pair.record_check(asked, topic="mitosis", verdict="right", at=AT - timedelta(days=6))
        marked = pair.record_check(asked, topic="mitosis", verdict="wrong", at=AT)
        pair.correct(marked.id, "verdict", "right", "re-read her answer", at=FIXED)
        work = pair.turn("What did I get wrong so far?", at=ASKED).block.split("EARLIER WORK")[1]
        assert "- 24 Feb · check on mitosis: right\n" in work
        assert "- 2 Mar · check on mitosis: right (corrected on 3 Mar: re-read her answer)" in work
        assert "more time like it" not in work


def test_a_quiz_score_typed_wrong_and_refusals(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        quiz = pair.record_quiz("Cells quiz", score=3, maximum=10, topics=["cells"], at=AT)
        pair.correct(quiz.id, "score", 8, "typed 3 for 8", at=FIXED)
        block = pair.turn("cells quiz", at=ASKED).block
        assert "quiz: 8/10 on cells (corrected on 3 Mar: typed 3 for 8)" in block
        with pytest.raises(ValidationError, match="maximum"):
            pair.correct(quiz.id, "score", 11, "too many")
        with pytest.raises(ValidationError, match="already says"):
            pair.correct(quiz.id, "score", 8, "again")
        with pytest.raises(ValidationError, match="'score'"):
            pair.correct(quiz.id, "verdict", "right", "wrong field")
        with pytest.raises(NotFoundError):
            pair.correct("e99-000000000000", "score", 1, "no such episode")
        answer = pair.record_answer("A cell is the unit of life.", at=AT)
        with pytest.raises(ValidationError, match="cannot be corrected"):
            pair.correct(answer.id, "text", "something else", "answers are not corrected")
        report = pair.report()
        assert [(c.kind, c.field, c.was, c.value) for c in report.corrections] == [
            ("quiz", "score", 3.0, 8.0)
        ]


def test_who_may_correct_what(tmp_path: Path) -> None:
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("alice", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        message = pair.record_question("My exam is on Friday.", at=AT)
    alice = Caller("default", Role.STUDENT, "alice")
    with Memory.local(folder, settings=SETTINGS, ready=False, caller=alice) as memory:
        pair = memory.pair("alice", "biology")
        with pytest.raises(ForbiddenError, match="student may not correct a check"):
            pair.correct(check.id, "verdict", "right", "I passed that")
        assert pair.correct(message.id, "text", "My exam is on Monday.", "typo").created


def test_rest_answers_each_role_and_a_retry_writes_once(tmp_path: Path) -> None:
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    pair = Pair("alice", "biology")
    check = app.episodes.add(
        pair, Kind.CHECK, "Explain osmosis", evidence={"topic": "osmosis", "verdict": "wrong"}
    ).episode
    message = app.episodes.add(pair, Kind.QUESTION, "My exam is on Friday.").episode
    teacher = app.access.create_key("default", Role.TEACHER, "t-1")[1]
    alice = app.access.create_key("default", Role.STUDENT, "alice")[1]
    bob = app.access.create_key("default", Role.STUDENT, "bob")[1]
    app.access.set_class("default", "7a", ["t-1"], ["alice"])

    def post(url: str, key: str, body: Any, retry_key: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        if retry_key:
            headers["Idempotency-Key"] = retry_key
        request = urllib.request.Request(
            url, method="POST", data=json.dumps(body).encode(), headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    right = {"field": "verdict", "value": "right", "reason": "marked wrong by mistake"}
    try:
        with serving(app, anonymous=None) as url:
            base = f"{url}/pairs/alice/biology/episodes"
            status, problem = post(f"{base}/{check.episode_id}/corrections", alice, right)
            assert status == 403 and "student may not correct a check" in problem["detail"]
            status, problem = post(f"{base}/{check.episode_id}/corrections", bob, right)
            assert status == 403  # not bob's record at all
            status, fixed = post(f"{base}/{check.episode_id}/corrections", teacher, right, "k1")
            assert status == 201 and fixed["belief"] == "understands osmosis (0.67)"
            status, again = post(f"{base}/{check.episode_id}/corrections", teacher, right, "k1")
            assert status == 200 and again["id"] == fixed["id"] and not again["created"]
            meant = {"field": "text", "value": "My exam is on Monday.", "reason": "typo"}
            status, _ = post(f"{base}/{message.episode_id}/corrections", teacher, meant)
            assert status == 403  # a teacher does not put words in a student's mouth
            status, done = post(f"{base}/{message.episode_id}/corrections", alice, meant)
            assert status == 201 and done["summary"] == "My exam is on Monday."
            status, problem = post(
                f"{base}/{message.episode_id}/corrections", alice, {**meant, "field": "score"}
            )
            assert status == 422 and "'text'" in problem["detail"]
            status, _ = post(f"{base}/e99-000000000000/corrections", alice, meant)
            assert status == 404
    finally:
        app.close()
    assert app.turns is not None


def test_an_agent_corrects_over_mcp_and_a_refusal_is_the_tools_error(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        server = build_server(memory)
        ids = {"student_id": "s1", "subject_id": "biology"}
        asyncio.run(server.call_tool("correct", {
            **ids, "episode_id": check.id, "field": "verdict", "value": "right",
            "reason": "marked wrong by mistake",
        }))  # fmt: skip
        assert [b.line for b in pair.beliefs()] == ["understands osmosis (0.67)"]
        with pytest.raises(Exception, match="already says"):
            asyncio.run(server.call_tool("correct", {
                **ids, "episode_id": check.id, "field": "verdict", "value": "right",
                "reason": "again",
            }))  # fmt: skip
        # the value refused as given, once (not as "value.str" and "value.float")
        with pytest.raises(Exception, match="must be the corrected words") as refused:
            asyncio.run(server.call_tool("correct", {
                **ids, "episode_id": check.id, "field": "verdict", "value": None,
                "reason": "again",
            }))  # fmt: skip
        assert "value.str" not in str(refused.value) and "value.float" not in str(refused.value)
        # words too long: in the memory's words, as the API and the library say it
        with pytest.raises(Exception) as refused:
            asyncio.run(server.call_tool("correct", {
                **ids, "episode_id": check.id, "field": "verdict", "value": "w" * 2001,
                "reason": "again",
            }))  # fmt: skip
        assert str(refused.value).endswith("value: String should have at most 2000 characters")


def test_the_nightly_calibration_counts_a_corrected_check_once(tmp_path: Path) -> None:
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    try:
        pair = Pair("s1", "biology")
        check = app.episodes.add(
            pair, Kind.CHECK, "Explain osmosis", at=AT,
            evidence={"topic": "osmosis", "verdict": "wrong", "predicted_mastery": 0.8},
        ).episode  # fmt: skip
        before = app.nightly.scan(pair).tally.calibration()
        assert before.checks == 1 and before.buckets[0].observed == 0.0
        app.episodes.correct(pair, check.episode_id, "verdict", "right", "mistake",
                             by=Role.TEACHER, at=FIXED)  # fmt: skip
        after = app.nightly.scan(pair).tally.calibration()
        assert after.checks == 1 and after.buckets[0].observed == 1.0
        report = app.reports.report(pair)
        assert report.calibration.checks == 1 and report.checks.right == 1
    finally:
        app.close()


def test_erasing_the_correction_gives_the_check_its_verdict_back(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        fixed = pair.correct(check.id, "verdict", "right", "mistake", at=FIXED)
        assert pair.beliefs()[0].line == "understands osmosis (0.67)"
        memory.erase("s1", "biology", fixed.id, reason="the correction was itself a mistake")
        assert pair.beliefs()[0].line == "struggles with osmosis (0.67)"
        block = pair.turn("osmosis", at=ASKED).block
        assert "corrected" not in block and "check on osmosis: wrong" in block
        assert pair.verify().intact


def _osmosis_marked_wrong(app: Any, pair: Pair) -> Any:
    """A check on osmosis marked wrong (to be corrected), written through the app's door."""
    return app.episodes.add(
        pair, Kind.CHECK, "Explain osmosis", at=AT,
        evidence={"topic": "osmosis", "verdict": "wrong"},
    ).episode  # fmt: skip


def test_both_backends_show_the_same_corrected_block(tmp_path: Path, cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app

    texts = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        check = _osmosis_marked_wrong(app, pair)
        app.episodes.correct(pair, check.episode_id, "verdict", "right", "mistake",
                             by=Role.SERVICE, at=FIXED)  # fmt: skip
        assert len(app.ports.store.corrections(pair)) == 1
        texts.append(app.turns.turn(pair, "osmosis", at=ASKED).block)
    assert "(corrected on 3 Mar: mistake)" in texts[0] and texts[0] == texts[1]


def test_a_verdict_corrected_back_and_forth_at_one_time_keeps_the_pair_working(
    tmp_path: Path, cloud: Any
) -> None:
    # A teacher's tool sends the session's time with each correction: wrong → right → wrong →
    # right, all at one time. The last row says what the first correction's said; it was
    # refused as a row already there, and every later check and turn of the pair with it.
    from tutor_memory.bootstrap import lambda_app

    seen = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        pair = Pair("s1", "bio")
        check = _osmosis_marked_wrong(app, pair)
        lines = []
        for verdict in ("right", "wrong", "right"):
            app.episodes.correct(pair, check.episode_id, "verdict", verdict, "marked by mistake",
                                 by=Role.SERVICE, at=FIXED)  # fmt: skip
            lines.append([b.line() for b in app.learning.beliefs(pair)])
        assert lines == [["understands osmosis (0.67)"], ["struggles with osmosis (0.67)"],
                         ["understands osmosis (0.67)"]]  # fmt: skip
        app.episodes.add(pair, Kind.CHECK, "Explain diffusion", at=ASKED,
                         evidence={"topic": "diffusion", "verdict": "right"})  # fmt: skip
        assert len(app.learning.beliefs(pair)) == 2
        block = app.turns.turn(pair, "osmosis", at=ASKED).block
        assert "understands osmosis (0.67)" in block and "understands diffusion (0.67)" in block
        seen.append(block)
    assert seen[0] == seen[1]


def test_both_backends_hear_a_corrected_message_alike(tmp_path: Path, cloud: Any) -> None:
    from tutor_memory.bootstrap import lambda_app

    said, meant = EXAM_DATES["ar"]
    seen = []
    for app in (build_app(on_folder(SETTINGS, tmp_path / "tm")), lambda_app()):
        assert app.profiles is not None
        pair = Pair("s1", "chemistry")
        message = app.episodes.add(pair, Kind.QUESTION, said, at=SAID).episode
        app.episodes.correct(pair, message.episode_id, "text", meant, "the wrong date",
                             by=Role.STUDENT, at=SAID)  # fmt: skip
        in_force = app.profiles.in_force("s1")
        seen.append(([(s.aspect, s.key, s.value) for s in in_force],
                     app.turns.turn(pair, "ما هو المول؟", at=SAID).block))  # fmt: skip
    assert seen[0] == seen[1] and seen[0][0] == [("goal", "2026-05-15", meant)]


def test_the_inspector_shows_each_correction_beside_what_it_corrected(tmp_path: Path) -> None:
    from tutor_memory.inspector_html import render_page

    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        message = pair.record_question("My exam is on Friday.", at=AT)
        pair.correct(check.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        pair.correct(message.id, "text", "My exam is on Monday.", "typed the wrong day", at=FIXED)
        app = memory.backend.app  # type: ignore[attr-defined]
        data = app.inspector.inspect(Pair("s1", "biology"))
        page = render_page(data, served=False)
    beside = [(c["as_recorded"], c["now"], c["by"]) for c in data["corrections"]]
    assert beside == [
        ("check on osmosis: wrong", "check on osmosis: right", "service"),
        ("My exam is on Friday.", "My exam is on Monday.", "service"),
    ]
    assert data["beliefs"][0]["checks"][0]["verdict"] == "right"  # the belief's checks, corrected
    assert 'id="corrections"' in page and "marked wrong by mistake" in page
    assert "right (corrected on 3 Mar 2026)" in page


def test_erasing_a_message_erases_its_corrections_too(tmp_path: Path) -> None:
    marker = "Zanzibarquokka"
    folder = tmp_path / "tm"
    with Memory.local(folder, settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        message = pair.record_question("My dog is called Rex.", at=AT)
        pair.correct(message.id, "text", f"My dog is called {marker}.", "typo", at=FIXED)
        assert marker in pair.turn("dog", at=ASKED).block
        memory.erase("s1", "biology", message.id, reason="the family asked")
        assert marker not in pair.turn("dog", at=ASKED).block
        assert pair.report().corrections == [] and pair.verify().intact
        assert marker not in json.dumps(pair.export().to_dict())


# --- the issue's scenarios in five languages, through each door --------------------------------

# A preference stated in biology, the later one that replaces it, an exam date.
PREFER = SAYINGS
SAID = datetime(2026, 4, 30, 9, tzinfo=UTC)  # the exam on 12 May is 12 days away


class Door:
    """One way in: the library's local door, REST (``Memory.remote`` against ``serve``) or
    MCP (the tools of ``build_server`` over the same store)."""

    def __init__(self, name: str, memory: Memory) -> None:
        self.name, self.memory = name, memory
        self.server = build_server(memory) if name == "mcp" else None

    def _tool(self, tool: str, **arguments: Any) -> Any:
        assert self.server is not None
        result = asyncio.run(self.server.call_tool(tool, arguments))
        found = result.structured_content or {}  # type: ignore[union-attr]
        return found.get("result", found)

    def say(self, subject: str, text: str, at: datetime) -> None:
        if self.server is None:
            self.memory.pair("s1", subject).record_question(text, at=at)
        else:
            self._tool("record", student_id="s1", subject_id=subject, kind="question",
                       text=text, at=at.isoformat())  # fmt: skip

    def check(self, subject: str, topic: str, text: str, verdict: str) -> str:
        if self.server is None:
            return (
                self.memory.pair("s1", subject)
                .record_check(
                    text,
                    topic=topic,
                    verdict=verdict,
                    at=AT,  # type: ignore[arg-type]
                )
                .id
            )
        found = self._tool("record", student_id="s1", subject_id=subject, kind="check",
                           text=text, evidence={"topic": topic, "verdict": verdict},
                           at=AT.isoformat())  # fmt: skip
        return str(found["id"])

    def correct(self, subject: str, episode_id: str, value: str) -> None:
        if self.server is None:
            self.memory.pair("s1", subject).correct(
                episode_id, "verdict", value, "marked wrong by mistake", at=FIXED
            )
        else:
            self._tool("correct", student_id="s1", subject_id=subject, episode_id=episode_id,
                       field="verdict", value=value, reason="marked wrong by mistake",
                       at=FIXED.isoformat())  # fmt: skip

    def block(self, subject: str, question: str, at: datetime) -> str:
        if self.server is None:
            return self.memory.pair("s1", subject).turn(question, at=at).block
        return str(self._tool("memory_block", student_id="s1", subject_id=subject,
                              question=question, at=at.isoformat())["block"])  # fmt: skip

    def beliefs(self, subject: str) -> list[str]:
        if self.server is None:
            return [b.line for b in self.memory.pair("s1", subject).beliefs()]
        return [b["line"] for b in self._tool("beliefs", student_id="s1", subject_id=subject)]


@pytest.fixture(params=["library", "rest", "mcp"])
def door(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "rest":
        app = build_app(on_folder(SETTINGS, tmp_path / "served"))
        try:
            with serving(app) as url, Memory.remote(url) as memory:
                yield Door("rest", memory)
        finally:
            app.close()
    else:
        with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
            yield Door(request.param, memory)


@pytest.mark.parametrize("lang", list(WORDS))
def test_the_issues_scenarios_in_each_language_through_each_door(door: Door, lang: str) -> None:
    first, later, exam = PREFER[lang]
    topic, asked, _, _ = WORDS[lang]
    door.say("chemistry", "What is a mole?", SAID)
    door.say("biology", first, SAID)
    assert first in door.block("chemistry", "What is a mole?", SAID)  # said in biology
    door.say("biology", later, SAID)
    door.say("biology", exam, SAID)
    block = door.block("chemistry", "What is a mole?", SAID)
    assert later in block and first not in block and "12 May, in 12 days" in block
    check = door.check("biology", topic, asked, "wrong")
    assert door.beliefs("biology")[0].startswith("struggles with")
    door.correct("biology", check, "right")
    assert door.beliefs("biology")[0].startswith("understands")
    fixed = "right (corrected on 3 Mar: marked wrong by mistake)"
    assert fixed in door.block("biology", topic, SAID)


def test_an_export_with_corrections_replays_to_the_same_beliefs_and_block(tmp_path: Path) -> None:
    from tutor_memory.replay import replay

    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        pair.correct(check.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        history = pair.export().write(tmp_path / "export")
        before = (pair.turn("osmosis", at=ASKED).block, [b.line for b in pair.beliefs()])
    replay(history, tmp_path / "replayed", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "replayed", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        after = (pair.turn("osmosis", at=ASKED).block, [b.line for b in pair.beliefs()])
        assert pair.verify().intact
    assert after == before and "(corrected on 3 Mar: marked wrong by mistake)" in after[0]


def test_a_replayed_correction_moves_the_map_and_the_profile_as_it_did(tmp_path: Path) -> None:
    """A replayed history's correction came in as an episode and moved only the belief: the
    replayed store's map showed the note as first taught, its profile the name first said."""
    from tutor_memory.replay import replay

    def seen(memory: Memory) -> tuple[Any, ...]:
        pair = memory.pair("s1", "biology")
        cmap = pair.map().concepts.values()
        return (
            [(c.name, c.taught_note) for c in cmap],
            [(s.aspect, s.value) for s in memory.profile("s1").current],
            pair.turn("osmosis", at=ASKED).block,
        )

    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        note = pair.record_question("Remember that osmosis moves water across a membrane.", at=AT)
        named = pair.record_question("My name is Maya.", at=AT)
        pair.correct(note.id, "note", "osmosis moves water into the cell", "typo", at=FIXED)
        pair.correct(named.id, "text", "My name is Mia.", "typo", at=FIXED)
        history = memory.export("s1").write(tmp_path / "export")
        before = seen(memory)
    assert before[:2] == ([("osmosis", "osmosis moves water into the cell")], [("name", "Mia")])
    replay(history, tmp_path / "replayed", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "replayed", settings=SETTINGS, ready=False) as memory:
        assert seen(memory) == before


@pytest.mark.parametrize("lang", list(WORDS))
def test_correcting_a_question_on_a_concept_no_check_touched_makes_no_belief(
    lang: str, tmp_path: Path
) -> None:
    """The fuzzer's 500: a correction names the concepts of what it corrects, and the beliefs
    follow corrections; a question on a concept nobody checked has no check to tally."""
    topic, _asked, said, meant = WORDS[lang]
    app = build_app(on_folder(SETTINGS, tmp_path / "tm"))
    pair = Pair("s1", "biology")
    question = app.memory.record(pair, "question", said, at=AT, concepts=[topic]).episode
    fixed = app.episodes.correct(
        pair, question.episode_id, "text", meant, "I typed the wrong day", by=Role.SERVICE,
        at=FIXED,
    )  # fmt: skip
    assert fixed.episode.kind is Kind.CORRECTION
    assert app.learning.store.beliefs(pair) == []
    app.close()


# A student's message stating their exam date, and the date they meant (the profile hears both)
EXAM_DATES = {
    "en": ("My chemistry exam is on 12 May.", "My chemistry exam is on 15 May."),
    "es": ("Mi examen de química es el 12 de mayo.", "Mi examen de química es el 15 de mayo."),
    "id": ("Ujian kimia saya tanggal 12 Mei.", "Ujian kimia saya tanggal 15 Mei."),
    "ur": ("میرا کیمسٹری کا امتحان 12 مئی کو ہے۔", "میرا کیمسٹری کا امتحان 15 مئی کو ہے۔"),
    "ar": ("امتحاني في الكيمياء يوم 12 مايو.", "امتحاني في الكيمياء يوم 15 مايو."),
}


def _profile(memory: Memory) -> list[tuple[str, str, str]]:
    return [(s.aspect, s.key, s.value) for s in memory.profile("s1").current]


@pytest.mark.parametrize("lang", list(EXAM_DATES))
def test_a_corrected_message_is_what_the_profile_holds(lang: str, tmp_path: Path) -> None:
    """The profile heard "my exam is on 12 May" and kept it after the message was corrected
    to 15 May: the block said both. It hears the message as corrected; erasing the correction
    gives the first date back; a later statement is never replaced by an old message's."""
    said, meant = EXAM_DATES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "chemistry")
        message = pair.record_question(said, at=SAID)
        assert _profile(memory) == [("goal", "2026-05-12", said)]
        fixed = pair.correct(message.id, "text", meant, "the wrong date", at=SAID)
        assert _profile(memory) == [("goal", "2026-05-15", meant)]
        block = pair.turn("What is a mole?", at=SAID).block
        assert "15 May, in 15 days" in block and "12 May, in 12 days" not in block
        memory.erase("s1", "chemistry", fixed.id, reason="the correction was a mistake")
        assert _profile(memory) == [("goal", "2026-05-12", said)]
        # corrected to something that states nothing of the student: the goal is retracted
        pair.correct(message.id, "text", "What is a mole?", "not what I meant", at=SAID)
        assert _profile(memory) == []
        assert memory.profile("s1").intact


@pytest.mark.parametrize("lang", list(EXAM_DATES))
def test_a_message_corrected_back_and_forth_is_heard_as_it_reads_each_time(
    lang: str, tmp_path: Path
) -> None:
    """The profile took a statement of the message's own earlier correction for a later
    message's, and left it: "12 May" → "15 May" → "12 May" again still said 15 May, and a
    message corrected to say nothing was never heard again. A replay hears it alike, and the
    block shows no correction that a newer one replaced."""
    from tutor_memory.replay import replay

    said, meant = EXAM_DATES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "chemistry")
        message = pair.record_question(said, at=SAID)
        seen = []
        for text in (meant, said, "What is a mole?", meant):
            pair.correct(message.id, "text", text, "the wrong date", at=SAID)
            seen.append(_profile(memory))
        assert seen == [[("goal", "2026-05-15", meant)], [("goal", "2026-05-12", said)], [],
                        [("goal", "2026-05-15", meant)]]  # fmt: skip
        # The record as its newest correction says, and no replaced correction's line: the
        # third one matched the question's words and said "corrected … : What is a mole?".
        block = pair.turn("What is a mole?", at=SAID).block
        assert f"{meant} (corrected on" in block and "What is a mole? (" not in block
        assert memory.profile("s1").intact
        history = memory.export("s1").write(tmp_path / "export")
    replay(history, tmp_path / "replayed", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "replayed", settings=SETTINGS, ready=False) as memory:
        assert _profile(memory) == [("goal", "2026-05-15", meant)]


@pytest.mark.parametrize("lang", list(EXAM_DATES))
def test_erasing_the_later_message_lets_the_correction_it_held_back_hold(
    lang: str, tmp_path: Path
) -> None:
    """A message corrected while a later one said the same left the profile alone (the later
    one stands); erasing that later message brought back the first message's old words,
    though the message reads as corrected — and a replay of the export heard the correction."""
    from tutor_memory.replay import replay

    said, meant = EXAM_DATES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "chemistry")
        first = pair.record_question(said, at=SAID)
        again = pair.record_question(said, at=SAID)
        pair.correct(first.id, "text", meant, "the wrong date", at=SAID)
        assert _profile(memory) == [("goal", "2026-05-12", said)]  # the later message stands
        memory.erase("s1", "chemistry", again.id, reason="said twice")
        assert _profile(memory) == [("goal", "2026-05-15", meant)]
        assert memory.profile("s1").intact
        history = memory.export("s1").write(tmp_path / "export")
    replay(history, tmp_path / "replayed", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "replayed", settings=SETTINGS, ready=False) as memory:
        assert _profile(memory) == [("goal", "2026-05-15", meant)]


# A student naming themselves, in five languages
NAMINGS = {
    "en": "My name is Maya.",
    "es": "Me llamo Lucía.",
    "id": "Nama saya Putri.",
    "ur": "میرا نام مریم ہے۔",
    "ar": "اسمي مريم.",
}


@pytest.mark.parametrize("lang", list(NAMINGS))
def test_a_naming_replaced_then_corrected_to_a_goal_hears_the_goal(
    lang: str, tmp_path: Path
) -> None:
    """The student named themselves, the service then set another name, and the message was
    corrected to say when the exam is: the profile heard nothing of it (every statement of the
    message had been replaced), while a replay of the export heard the goal. The later name
    stands; the goal, an aspect the message had not stated, is heard — as the replay does."""
    from tutor_memory.replay import replay

    said, _meant = EXAM_DATES[lang]
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "chemistry")
        message = pair.record_question(NAMINGS[lang], at=SAID)
        memory.set_profile("s1", "name", "Zoe")
        pair.correct(message.id, "text", said, "I wrote the wrong thing", at=SAID)
        assert _profile(memory) == [("name", "", "Zoe"), ("goal", "2026-05-12", said)]
        assert memory.profile("s1").intact
        history = memory.export("s1").write(tmp_path / "export")
    replay(history, tmp_path / "replayed", lambda folder: build_app(on_folder(SETTINGS, folder)))
    with Memory.local(tmp_path / "replayed", settings=SETTINGS, ready=False) as memory:
        assert _profile(memory) == [("name", "", "Zoe"), ("goal", "2026-05-12", said)]


def test_a_name_corrected_and_a_later_statement_left_alone(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        message = pair.record_question("My name is Maya.", at=AT)
        pair.correct(message.id, "text", "My name is Mia.", "typo", at=FIXED)
        assert _profile(memory) == [("name", "", "Mia")]
        other = pair.record_question("My name is Mya.", at=FIXED)
        memory.set_profile("s1", "name", "Amelia")  # a teacher's, later
        pair.correct(other.id, "text", "My name is Maya.", "typo", at=FIXED)
        assert _profile(memory) == [("name", "", "Amelia")]  # the later statement stays


def test_two_corrections_for_the_same_reason_are_two_memories(tmp_path: Path) -> None:
    """A correction's text is its reason: two corrections "a typo" of two episodes were one
    memory to recall's collapse, shown once as the first's line "(and 1 more time like it)".
    Each corrected episode is shown as corrected, with the reason in its note."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        note = pair.record_question("Remember that osmosis moves water across a membrane.", at=AT)
        dog = pair.record_question("My dog is called Rex.", at=AT)
        pair.correct(note.id, "note", "osmosis moves water into the cell", "a typo", at=FIXED)
        pair.correct(dog.id, "text", "My dog is called Biscuit.", "a typo", at=FIXED)
        question = "What did I correct about osmosis and my dog?"
        fixes = [i for i in pair.recall(question, at=ASKED).items if i.kind == "correction"]
        assert len(fixes) == 2 and all(i.count == 1 for i in fixes)
        block = pair.turn(question, at=ASKED).block
        fixed = [line for line in block.splitlines() if "(corrected on 3 Mar: a typo)" in line]
        assert len(fixed) == 2 and "more time like it" not in block
        assert any("Biscuit" in line for line in fixed)
        assert any("into the cell" in line for line in fixed)
        assert "corrected an earlier record" not in block  # each said once, on its own line


def test_a_corrected_check_no_longer_collapses_with_the_ones_it_matched(tmp_path: Path) -> None:
    """Recall collapsed the episodes as recorded and the block showed them corrected: two
    checks on osmosis marked wrong, the second corrected to right, became one line "right
    (and 1 more time like it)" — the student's wrong answer shown as right. And two quizzes of
    3/10, one corrected to 8/10, as "8/10 (and 1 more time like it)"."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        fixed = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong",
                                  at=AT + timedelta(hours=1))  # fmt: skip
        pair.record_quiz("Weekly quiz", score=3, maximum=10, topics=["osmosis"], at=AT)
        typed = pair.record_quiz("Weekly quiz", score=3, maximum=10, topics=["osmosis"],
                                 at=AT + timedelta(hours=1))  # fmt: skip
        pair.correct(fixed.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        pair.correct(typed.id, "score", 8, "typed wrong", at=FIXED)
        block = pair.turn("What did I get wrong about osmosis so far?", at=ASKED).block
        lines = [line for line in block.splitlines() if line.startswith("- 2 Mar")]
        assert "- 2 Mar · check on osmosis: wrong" in lines
        right = "- 2 Mar · check on osmosis: right (corrected on 3 Mar: marked wrong by mistake)"
        assert right in lines
        assert "- 2 Mar · quiz: 3/10 on osmosis" in lines
        assert "- 2 Mar · quiz: 8/10 on osmosis (corrected on 3 Mar: typed wrong)" in lines
        assert "more time like it" not in block


def test_a_turn_asked_before_a_correction_shows_the_record_as_it_stood(tmp_path: Path) -> None:
    """The turn's ``at`` is the question's time: nothing recorded after it is recalled, and a
    correction made after it was not yet known (a probe's `ask --at` a month back showed a
    check "(corrected on 2 Nov)")."""
    with Memory.local(tmp_path / "tm", settings=SETTINGS, ready=False) as memory:
        pair = memory.pair("s1", "biology")
        check = pair.record_check("Explain osmosis", topic="osmosis", verdict="wrong", at=AT)
        pair.correct(check.id, "verdict", "right", "marked wrong by mistake", at=FIXED)
        between = pair.turn("osmosis", at=AT + timedelta(hours=12)).block
        after = pair.turn("osmosis", at=FIXED + timedelta(hours=1)).block
    assert "check on osmosis: wrong" in between and "corrected" not in between
    assert "(corrected on 3 Mar: marked wrong by mistake)" in after
