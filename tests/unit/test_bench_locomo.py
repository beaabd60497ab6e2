"""LoCoMo's own file as ``bench-recall --data``: a miniature in its layout (two people, dated
sessions numbered past 9, a shared photo, an evidence string naming two lines, the five
categories) read as the bench's conversations, and asked end to end."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bench.commands import run_bench_command
from tutor_memory.bench.conversation_file import read_conversations
from tutor_memory.bench.locomo import is_locomo
from tutor_memory.cli import _parser
from tutor_memory.domain.errors import ValidationError


def _sample() -> dict[str, Any]:
    return {
        "sample_id": "conv-26",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! Good to see you!"},
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "Hey Caroline! I'm swamped."},
                {"speaker": "Caroline", "dia_id": "D1:3",
                 "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
                {"speaker": "Melanie", "dia_id": "D1:4", "text": "Look what I painted!",
                 "img_url": ["https://example.org/p.jpg"],
                 "blip_caption": "a photo of a painting of a sunset over a lake"},
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Melanie", "dia_id": "D2:1", "text": "I ran a charity race!"},
                {"speaker": "Caroline", "dia_id": "D2:2", "text": ""},  # nothing said
                {"speaker": "Caroline", "dia_id": "D2:3", "text": "That's amazing, Mel."},
            ],
            "session_10_date_time": "8:18 pm on 3 August, 2023",  # after session 2, not 1
            "session_10": [
                {"speaker": "Caroline", "dia_id": "D10:1",
                 "text": "I'm researching adoption agencies."},
            ],
        },
        "qa": [
            {"question": "When did Caroline go to the LGBTQ support group?",
             "answer": "7 May 2023", "evidence": ["D1:3"], "category": 2},
            {"question": "What did Melanie paint?", "answer": "A sunset",
             "evidence": ["D1:4"], "category": 4},
            {"question": "What do Melanie's hobbies include?", "answer": "painting, running",
             "evidence": ["D1:4; D2:1"], "category": 1},
            {"question": "What did Caroline paint?", "adversarial_answer": "A sunset",
             "evidence": ["D1:4"], "category": 5},
            {"question": "What is Melanie's cat called?", "answer": "Oliver",
             "evidence": ["D9:9"], "category": 4},  # names no line of the conversation
        ],
        "event_summary": {},  # the file's other fields are not read
        "session_summary": {},
    }  # fmt: skip


def _write(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "locomo10.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_locomos_layout_is_read_as_conversations(tmp_path: Path) -> None:
    notes: list[str] = []
    (chat,) = read_conversations(_write(tmp_path, [_sample()]), note=notes.append)
    assert chat.pair.student_id == "conv-26" and chat.language == "en"
    lines = chat.lines
    assert [u.role for u in lines] == ["student", "tutor", "student", "tutor", "tutor",
                                       "student", "student"]  # fmt: skip
    assert lines[0].text == "Caroline: Hey Mel! Good to see you!"
    assert lines[3].text == (
        "Melanie: Look what I painted! (photo: a photo of a painting of a sunset over a lake)"
    )
    may8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert [u.at for u in lines[:4]] == [may8 + timedelta(minutes=n) for n in range(4)]
    assert lines[4].at == datetime(2023, 6, 27, 10, 37, tzinfo=UTC)
    assert lines[6].at == datetime(2023, 8, 3, 20, 18, tzinfo=UTC)  # session 10 comes last
    assert len({u.session for u in lines}) == 3
    asked = {q.text: q for q in chat.questions}
    assert set(asked) == {
        "When did Caroline go to the LGBTQ support group?",
        "What did Melanie paint?",
        "What do Melanie's hobbies include?",
    }
    hobbies = asked["What do Melanie's hobbies include?"]
    assert hobbies.category == "multi-hop" and hobbies.gold == ("conv-26/D1:4", "conv-26/D2:1")
    assert hobbies.sessions == 2
    assert asked["When did Caroline go to the LGBTQ support group?"].category == "temporal"
    assert notes == [
        "LoCoMo's layout: 1 conversations, 3 questions of categories 1-4 asked; not asked: "
        "1 adversarial (category 5), 1 naming no line"
    ]


def test_our_own_layout_is_not_taken_for_locomos() -> None:
    assert is_locomo([_sample()])
    assert not is_locomo({"conversations": []}) and not is_locomo([]) and not is_locomo([{}])


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda s: s["conversation"].update(session_2_date_time="27/06/2023"),
         "[0].conversation.session_2_date_time"),
        (lambda s: s["conversation"].update(speaker_a=""), "[0].conversation.speaker_a"),
        (lambda s: s["conversation"]["session_1"][0].pop("speaker"),
         "[0].conversation.session_1[0].speaker"),
    ],
)  # fmt: skip
def test_a_broken_sample_is_refused_naming_its_place(
    tmp_path: Path, change: Any, place: str
) -> None:
    sample = _sample()
    change(sample)
    with pytest.raises(ValidationError) as caught:
        read_conversations(_write(tmp_path, [sample]))
    assert caught.value.field == place


def test_the_bench_asks_locomos_file(tmp_path: Path) -> None:
    path = _write(tmp_path, [_sample()])
    out = tmp_path / "out"
    args = ["bench-recall", "--out", str(out), "--embedder", "none", "--data", str(path)]
    assert run_bench_command(_parser().parse_args(args)) == 0
    report = json.loads((out / "bench-recall.json").read_text(encoding="utf-8"))
    details = report["data"]["details"]
    assert sorted(d["category"] for d in details) == ["multi-hop", "single-hop", "temporal"]
    assert all(set(d) >= {"recall", "bm25", "block_covered"} for d in details)  # no dense: none
