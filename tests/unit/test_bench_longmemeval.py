"""LongMemEval's own files as ``bench-recall --data``: a miniature in their layout (a history
of sessions out of time order, as the oracle file keeps them, two sharing a minute, marked
turns on both sides, an answer longer than the log takes, an abstention question, one that
marks nothing) read as the bench's conversations, and asked end to end."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bench.commands import run_bench_command
from tutor_memory.bench.conversation_file import TURN_STEP, read_conversations
from tutor_memory.bench.locomo import is_locomo
from tutor_memory.bench.longmemeval import STEP, is_longmemeval
from tutor_memory.cli import _parser
from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import ValidationError

LONG = "Here is a plan. " * 1_500  # 24,000 characters: past what the log takes


def _question(qid: str, *, marked: bool = True) -> dict[str, Any]:
    return {
        "question_id": qid,
        "question_type": "single-session-user",
        "question": "What degree did I graduate with?",
        "answer": "Business Administration",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ["s_late", "s_early", "s_same"],
        "haystack_dates": [
            "2023/05/25 (Thu) 10:00",
            "2023/05/20 (Sat) 02:21",
            "2023/05/25 (Thu) 10:00",  # the same minute as s_late: it follows it
        ],
        "haystack_sessions": [
            [{"role": "user", "content": "Can you plan my week?"},
             {"role": "assistant", "content": LONG}],
            [{"role": "user", "content": "I graduated with a degree in Business Administration.",
              "has_answer": marked},
             {"role": "assistant", "content": ""},  # nothing said: left out
             {"role": "assistant", "content": "Congratulations on your BBA!",
              "has_answer": marked}],
            [{"role": "user", "content": "Thanks!"}],
        ],
        "answer_session_ids": ["s_early"],
    }  # fmt: skip


def _write(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "longmemeval_s.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_longmemevals_layout_is_read_as_conversations(tmp_path: Path) -> None:
    document = [_question("e47becba"), _question("e47becba_abs"), _question("x1", marked=False)]
    notes: list[str] = []
    (chat,) = read_conversations(_write(tmp_path, document), note=notes.append)
    assert chat.pair.student_id == "e47becba"
    lines = chat.lines
    assert [u.text[:12] for u in lines] == [
        "I graduated ", "Congratulati", "Can you plan", "Here is a pl", "Thanks!",
    ]  # fmt: skip
    assert [u.role for u in lines] == ["student", "tutor", "student", "tutor", "student"]
    early, late = datetime(2023, 5, 20, 2, 21, tzinfo=UTC), datetime(2023, 5, 25, 10, tzinfo=UTC)
    assert [u.at for u in lines] == [
        early, early + STEP, late, late + STEP, late + 2 * STEP
    ]  # fmt: skip
    assert len(lines[3].text) == C.MAX_TEXT_CHARS
    assert len({u.session for u in lines}) == 3
    (question,) = chat.questions
    assert question.category == "single-session-user"
    assert question.gold == ("e47becba/s_early:0", "e47becba/s_early:2")
    assert chat.asked_at == datetime(2023, 5, 30, 23, 40, tzinfo=UTC)
    assert notes == [
        "LongMemEval's layout: 1 questions asked, each over its own history; not asked: "
        "1 abstention (_abs), 1 marking no turn; 2 turns cut to 20,000 characters"
    ]


def test_the_layouts_are_told_apart_and_the_step_is_the_files() -> None:
    assert is_longmemeval([_question("q")]) and not is_locomo([_question("q")])
    assert not is_longmemeval({"conversations": []}) and not is_longmemeval([])
    assert STEP == TURN_STEP


def test_a_broken_question_is_refused_naming_its_place(tmp_path: Path) -> None:
    item = _question("q")
    item["haystack_dates"][1] = "20 May 2023"
    with pytest.raises(ValidationError) as caught:
        read_conversations(_write(tmp_path, [item]))
    assert caught.value.field == "[0].haystack_dates[1]"
    item = _question("q")
    item["haystack_sessions"][0][0]["role"] = "system"
    with pytest.raises(ValidationError) as caught:
        read_conversations(_write(tmp_path, [item]))
    assert caught.value.field == "[0].haystack_sessions[0][0]"


def test_the_bench_asks_longmemevals_file(tmp_path: Path) -> None:
    path = _write(tmp_path, [_question("a1"), _question("a2")])
    out = tmp_path / "out"
    args = ["bench-recall", "--out", str(out), "--embedder", "none", "--data", str(path)]
    assert run_bench_command(_parser().parse_args(args)) == 0
    report = json.loads((out / "bench-recall.json").read_text(encoding="utf-8"))
    details = report["data"]["details"]
    assert [d["category"] for d in details] == ["single-session-user"] * 2
    assert all(d["recall"]["in_budget"] for d in details)  # "degree", "graduated": by words
