"""``bench-recall --data``: a team's own conversations read from the documented JSON format,
and every mistake in a file named by its place before anything is replayed."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bench.conversation_file import parse_conversations, read_conversations
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ValidationError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversations.json"


def _turn(tid: str, at: str, role: str = "student", text: str = "hello", **more: Any) -> dict:
    return {"id": tid, "at": at, "role": role, "text": text, **more}


def _file(**conversation: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "ana",
        "turns": [
            _turn("t1", "2025-03-01T10:00:00+00:00", text="my cat Luna is sick"),
            _turn("t2", "2025-03-01T10:01:00+00:00", "tutor", "I'm sorry to hear that."),
            _turn("t3", "2025-03-01T11:00:00+00:00", text="she is better now"),
        ],
        "questions": [{"id": "q1", "text": "What is Ana's cat called?", "evidence": ["t1"]}],
    }
    return {"conversations": [{**base, **conversation}]}


def _refused(raw: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        parse_conversations(raw)
    return str(caught.value)


def test_the_shipped_example_reads_as_two_pairs_with_their_questions_and_evidence() -> None:
    maya, lucia = read_conversations(EXAMPLE)
    assert maya.pair == Pair("maya-biology", "conversation") and maya.language == "en"
    assert lucia.language == "es"  # not given: the language the student writes in
    assert [u.role for u in maya.lines[:3]] == ["tutor", "student", "tutor"]
    swim = next(q for q in maya.questions if q.qid == "maya-biology/swim")
    assert swim.gold == ("maya-biology/t8", "maya-biology/t11") and swim.sessions == 2
    assert swim.category == "multi-session"
    assert {q.category for q in lucia.questions} == {"question"}  # the default label
    # asked a day after the last turn when the file does not say
    assert maya.asked_at == datetime(2025, 10, 21, 16, 0, 30, tzinfo=UTC)


def test_sessions_end_after_thirty_minutes_without_a_turn_or_follow_the_file() -> None:
    (derived,) = parse_conversations(_file())
    assert [u.session for u in derived.lines] == [0, 0, 1]  # 59 minutes before the third
    raw = _file()
    for turn, label in zip(raw["conversations"][0]["turns"], ["a", "b", "a"], strict=True):
        turn["session"] = label
    (given,) = parse_conversations(raw)
    assert [u.session for u in given.lines] == [0, 1, 0]
    raw["conversations"][0]["questions"][0]["evidence"] = ["t1", "t2", "t3"]
    (spread,) = parse_conversations(raw)
    assert spread.questions[0].sessions == 2


def test_a_session_dated_by_its_first_turn_spaces_the_rest_a_minute_apart() -> None:
    """Public multi-session sets date their sessions, not their turns."""
    turns = [
        _turn("t1", "2025-03-01T10:00:00+00:00", text="my cat Luna is sick", session="s1"),
        {"id": "t2", "role": "tutor", "text": "I'm sorry to hear that.", "session": "s1"},
        {"id": "t3", "role": "student", "text": "thanks", "session": "s1"},
        _turn("t4", "2025-03-08T10:00:00+00:00", text="she is better now", session="s2"),
        {"id": "t5", "role": "tutor", "text": "Great news!", "session": "s2"},
    ]
    (c,) = parse_conversations(_file(turns=turns))
    assert [u.at.strftime("%d %H:%M") for u in c.lines] == [
        "01 10:00", "01 10:01", "01 10:02", "08 10:00", "08 10:01",
    ]  # fmt: skip
    assert [u.session for u in c.lines] == [0, 0, 0, 1, 1]
    assert c.asked_at == datetime(2025, 3, 9, 10, 1, tzinfo=UTC)  # a day after the last turn
    for turn in turns:  # no sessions given: the gap still tells them apart
        del turn["session"]
    (derived,) = parse_conversations(_file(turns=turns))
    assert [u.session for u in derived.lines] == [0, 0, 0, 1, 1]


@pytest.mark.parametrize(
    ("untimed", "sessions", "message"),
    [
        (0, None, "conversations[0].turns[0].at: is needed for the first turn"),
        (2, ["a", "a", "b"], "conversations[0].turns[2].at: is needed for a turn that starts"),
    ],
)
def test_the_first_turn_and_each_given_session_need_a_time(
    untimed: int, sessions: list[str] | None, message: str
) -> None:
    raw = _file()
    turns = raw["conversations"][0]["turns"]
    del turns[untimed]["at"]
    for turn, label in zip(turns, sessions or [], strict=False):
        turn["session"] = label
    assert _refused(raw).startswith(message)


def test_a_time_before_an_untimed_turn_above_says_where_that_turn_was_put() -> None:
    raw = _file()
    turns = raw["conversations"][0]["turns"]
    del turns[1]["at"]  # 10:01, a minute after the first
    turns[2]["at"] = "2025-03-01T10:00:30+00:00"
    assert _refused(raw) == (
        "conversations[0].turns[2].at: is before the turn above it (oldest first; a turn "
        "without a time is a minute after the one above it)"
    )


def test_an_explicit_time_to_ask_is_kept() -> None:
    (c,) = parse_conversations(_file(asked_at="2025-04-01T09:00:00+02:00"))
    assert c.asked_at == datetime(2025, 4, 1, 7, tzinfo=UTC)
    assert c.questions[0].asked_at is None  # asked with the rest


def test_the_students_name_is_given_to_the_pairs_profile_when_the_file_knows_it() -> None:
    (unnamed,) = parse_conversations(_file())
    (named,) = parse_conversations(_file(student_name="Ana"))
    assert (unnamed.profile_name, named.profile_name) == (None, "Ana")


def test_a_question_may_be_asked_mid_conversation_but_not_before_its_evidence() -> None:
    raw = _file()
    raw["conversations"][0]["questions"][0]["asked_at"] = "2025-03-01T10:30:00+00:00"
    (c,) = parse_conversations(raw)
    assert c.questions[0].asked_at == datetime(2025, 3, 1, 10, 30, tzinfo=UTC)
    assert c.asked_at == datetime(2025, 3, 2, 11, tzinfo=UTC)  # the rest: a day after the last
    raw["conversations"][0]["questions"][0]["evidence"] = ["t3"]  # said at 11:00
    assert (
        _refused(raw) == "conversations[0].questions[0].asked_at: is before its evidence was said"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda c: c["questions"][0].update(evidence=["t9"]),
            "conversations[0].questions[0].evidence: t9 is not a turn of this conversation",
        ),
        (
            lambda c: c["questions"][0].update(evidance=["t1"]),
            "conversations[0].questions[0].evidance: Extra inputs are not permitted",
        ),
        (
            lambda c: c["questions"][0].update(evidence=[]),
            "conversations[0].questions[0].evidence: List should have at least 1 item",
        ),
        (
            lambda c: c["turns"][1].update(at="2025-03-01T10:01:00"),
            "conversations[0].turns[1].at: Input should have timezone info",
        ),
        (
            lambda c: c["turns"][1].update(at="2025-02-01T10:00:00+00:00"),
            "conversations[0].turns[1].at: is before the turn above it (oldest first)",
        ),
        (
            lambda c: c["turns"][1].update(role="teacher"),
            "conversations[0].turns[1].role: Input should be 'student' or 'tutor'",
        ),
        (
            lambda c: c["turns"][2].update(id="t1"),
            "conversations[0].turns[2].id: 't1' names two turns",
        ),
        (
            lambda c: c["turns"][2].update(text="   "),
            "conversations[0].turns[2].text:",
        ),
        (
            lambda c: c["turns"][0].update(session=1),
            "conversations[0].turns[1].session: is given for some turns and not others",
        ),
        (
            lambda c: c.update(id="ana maria"),
            "conversations[0].id: may contain only letters",
        ),
        (
            lambda c: c.update(language="fr"),
            "conversations[0].language: must be one of en, es, id, ur, ar",
        ),
        (
            lambda c: c.update(asked_at="2025-03-01T10:30:00+00:00"),
            "conversations[0].asked_at: is before the last turn",
        ),
        (
            lambda c: c["questions"].append(dict(c["questions"][0])),
            "conversations[0].questions[1].id: 'q1' names two questions",
        ),
    ],
)
def test_every_mistake_is_named_by_its_place(change: Any, message: str) -> None:
    raw = _file()
    change(raw["conversations"][0])
    assert _refused(raw).startswith(message)


def test_two_conversations_may_not_share_an_id_and_an_empty_file_is_refused() -> None:
    raw = _file()
    raw["conversations"].append(copy.deepcopy(raw["conversations"][0]))
    assert _refused(raw) == "conversations[1].id: 'ana' names two conversations"
    assert _refused({"conversations": []}).startswith("conversations: List should have at least")
    assert _refused([]).startswith("file: Input should be a valid dictionary")


def test_a_file_that_is_not_json_says_where_it_broke(tmp_path: Path) -> None:
    broken = tmp_path / "chats.json"
    broken.write_text('{"conversations": [\n  {"id": "ana",}\n]}', encoding="utf-8")
    with pytest.raises(ValidationError, match=r"is not JSON \(line 2, column"):
        read_conversations(broken)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ValidationError, match="nests arrays or objects too deeply"):
        read_conversations(deep)
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"conversations": "ol\u00e1"}'.encode("latin-1"))
    with pytest.raises(ValidationError, match="is not UTF-8 text"):
        read_conversations(latin1)


def test_the_long_set_written_in_the_format_reads_back_as_the_same_conversations() -> None:
    """Everything the long generator's pairs have (speakers, sessions, gaps, evidence over
    several sessions, five languages) can be said in the file, and is read back unchanged."""
    from tutor_memory.bench.long_conversations import generate_long_conversations

    generated = generate_long_conversations(7)
    document = {
        "conversations": [
            {
                "id": c.pair.student_id,
                "language": c.language,
                "turns": [
                    {
                        "id": u.tid,
                        "at": u.at.isoformat(),
                        "role": u.role,
                        "text": u.text,
                        "session": u.session,
                    }
                    for u in c.lines
                ],
                "questions": [
                    {"id": q.qid, "text": q.text, "evidence": list(q.gold), "category": q.category}
                    for q in c.questions
                ],
                "asked_at": c.asked_at.isoformat(),
            }
            for c in generated
        ]
    }
    read = parse_conversations(json.loads(json.dumps(document)))
    assert len(read) == len(generated) == 8
    for mine, theirs in zip(read, generated, strict=True):
        assert (mine.pair, mine.language, mine.asked_at) == (
            theirs.pair,
            theirs.language,
            theirs.asked_at,
        )
        assert [(u.at, u.role, u.text) for u in mine.lines] == [
            (u.at, u.role, u.text) for u in theirs.lines
        ]
        renumbered = {s: n for n, s in enumerate(dict.fromkeys(u.session for u in theirs.lines))}
        assert [u.session for u in mine.lines] == [renumbered[u.session] for u in theirs.lines]
        assert [(q.text, q.category, q.sessions, len(q.gold)) for q in mine.questions] == [
            (q.text, q.category, q.sessions, len(q.gold)) for q in theirs.questions
        ]
        by_tid = {u.tid: u.text for u in mine.lines}
        their_text = {u.tid: u.text for u in theirs.lines}
        assert [[by_tid[t] for t in q.gold] for q in mine.questions] == [
            [their_text[t] for t in q.gold] for q in theirs.questions
        ]


def test_a_long_replay_says_how_far_its_embedding_has_come() -> None:
    """A team's file of thousands of turns takes minutes to embed (~22 texts/s): the bench
    tells of each batch instead of falling silent."""
    from tutor_memory.bench.embedding import WARM_BATCH, CachedEmbedder, HashEmbedder

    heard: list[tuple[int, int]] = []
    texts = [f"line {n}" for n in range(2 * WARM_BATCH + 5)]
    embedder = CachedEmbedder(HashEmbedder())
    embedder.warm(passages=texts, progress=lambda done, total: heard.append((done, total)))
    total = len(texts)
    assert heard == [(WARM_BATCH, total), (2 * WARM_BATCH, total), (total, total)]
    assert embedder.embedded == total
