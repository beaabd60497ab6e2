"""The recall bench end to end on a tiny slice: 10 MADial dialogues and one short synthetic
pair, through the real record_many, recall and turn (a meaningless hash embedder keeps it
fast). The report's shape is checked, never its numbers."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bench import recall_bench
from tutor_memory.bench.commands import run_bench_command
from tutor_memory.bench.conversations import generate_conversations
from tutor_memory.bench.long_conversations import generate_long_conversations
from tutor_memory.bench.recall_bench import madial_owners, run_recall_bench, tables
from tutor_memory.bootstrap import build_app
from tutor_memory.cli import _parser, main
from tutor_memory.domain.profile import Aspect, names_of
from tutor_memory.settings import Settings, on_folder

METHODS = {"recall", "bm25", "dense", "rrf"}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conversations.json"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    short = generate_conversations(3, plan=(("es", 150),))
    return run_recall_bench(
        tmp_path_factory.mktemp("bench-recall"),
        limit=10,
        conversations=short,
        embedder="hash",
        log=lambda _line: None,
    )


def _bench(out: Path, *flags: str) -> tuple[dict[str, Any], str]:
    """``tutor-memory bench-recall --out OUT --embedder none FLAGS``: its JSON and its table."""
    args = _parser().parse_args(["bench-recall", "--out", str(out), "--embedder", "none", *flags])
    assert run_bench_command(args) == 0
    written = json.loads((out / "bench-recall.json").read_text(encoding="utf-8"))
    return written, (out / "bench-recall.txt").read_text(encoding="utf-8")


def _is_summary(summary: dict[str, Any], n: int) -> bool:
    shares = [summary[key] for key in ("R@5", "R@10", "R@20", "in_budget")]
    return summary["n"] == n and all(0.0 <= s <= 1.0 for s in shares)


def test_madial_is_asked_ten_times_and_scored_for_every_method(report: dict[str, Any]) -> None:
    madial = report["madial"]
    assert madial["questions"] == 10 and madial["memories"] == 160
    assert set(madial["methods"]) == METHODS
    assert all(_is_summary(s, 10) for s in madial["methods"].values())
    assert set(madial["published"]) == {"bge_m3", "gte", "jina", "openai"}
    assert madial["block"]["n"] == 10 and madial["block"]["dropped"] == 0
    windows = madial["windows"]
    assert windows["of"] == 10 and 0 <= windows["opened"] <= 10
    assert len(madial["details"]) == 10
    # the details name archive memory ids, as the dialogue file does
    assert all(isinstance(i, int) for row in madial["details"] for i in row["relevant"])


def test_madial_is_asked_again_with_each_childs_memories_their_own_pair(
    report: dict[str, Any],
) -> None:
    """The protocol of the published lists: a dialogue searches its own child's memories."""
    one, per_student = report["madial"], report["madial_per_student"]
    assert (one["pairs"], one["per_student"]) == (1, False)
    assert (per_student["pairs"], per_student["per_student"]) == (2, True)
    assert per_student["questions"] == 10 and per_student["memories"] == 160
    assert set(per_student["methods"]) == METHODS
    assert per_student["block"]["n"] == 10 and per_student["block"]["dropped"] == 0
    # the same questions and evidence, asked of a smaller history
    assert [d["relevant"] for d in per_student["details"]] == [
        d["relevant"] for d in one["details"]
    ]
    owners = madial_owners()
    for row in per_student["details"]:  # recall answers from the asking child's memories only
        assert len({owners[m] for m in [*row["relevant"], *row["recall_top10"]]}) == 1


def test_the_synthetic_pair_is_scored_per_category_and_language(report: dict[str, Any]) -> None:
    synthetic = report["synthetic"]
    assert [p["language"] for p in synthetic["pairs"]] == ["es"]
    assert synthetic["questions"] == 10
    assert set(synthetic["methods"]) == METHODS
    assert set(synthetic["by_language"]) == {"es"}
    assert set(synthetic["by_category"]) <= {"single", "paraphrase", "multi-hop", "return", "dated"}
    counted = sum(g["methods"]["recall"]["n"] for g in synthetic["by_category"].values())
    assert counted == 10


def test_the_table_names_every_method_and_the_published_lists(report: dict[str, Any]) -> None:
    text = tables(report)
    for label in ("MADial-Bench", "Synthetic", "recall", "BM25", "dense", "RRF", "openai"):
        assert label in text
    assert "all relevant in 1,500 tokens" in text and "CPU time" in text
    # every method by language as well as by category, each with its share and its count
    languages = text[text.index("all relevant in budget  es") :].splitlines()
    assert [row.split()[0] for row in languages[2:7]] == [
        "recall",
        "BM25",
        "dense",
        "RRF",
        "memory",
    ]
    assert all("(n=10)" in row for row in languages[2:6])


def test_the_command_writes_the_json_and_the_table(tmp_path: Path) -> None:
    written, text = _bench(tmp_path, "--only", "madial", "--limit", "3")
    assert written["madial"]["questions"] == 3 and "synthetic" not in written
    assert written["madial_per_student"]["questions"] == 3
    assert set(written["madial"]["methods"]) == {"recall", "bm25"}  # no embedder: no dense
    assert "MADial-Bench (en), each child's memories their own pair" in text
    assert "MADial-Bench (en), both children's memories in one pair" in text


def test_the_long_set_can_be_asked_in_its_other_shapes(tmp_path: Path) -> None:
    """The tutor explaining in paragraphs and the student's facts inside longer messages."""
    shape = ("--long-answers", "--merged-turns")
    written, text = _bench(tmp_path, "--only", "long", "--limit", "1", *shape)
    assert written["meta"]["long_answers"] is True and written["meta"]["merged_turns"] is True
    assert set(written) == {"meta", "long"} and written["long"]["questions"] == 8  # one a pair
    # the pairs asked are the shaped ones, not the default set under another title
    distinct = [p["distinct_lines"] for p in written["long"]["pairs"]]
    shaped = generate_long_conversations(7, long_answers=True, merged_turns=True)
    assert distinct == [len({u.text for u in c.lines}) for c in shaped]
    assert distinct != [len({u.text for u in c.lines}) for c in generate_long_conversations(7)]
    assert (
        "Long conversations (bench/long_conversations.py), the tutor's explanations as "
        "paragraphs, the student's facts inside longer messages (seed 7)"
    ) in text


@pytest.mark.parametrize(
    ("flag", "title"),
    [
        ("--real-small-talk", "the English pairs' small talk real people's (chitchat-dataset)"),
        (
            "--real-chat",
            "every filler line of the English pairs real people's chat (chitchat-dataset)",
        ),
    ],
)
def test_the_long_set_can_talk_in_real_peoples_words(tmp_path: Path, flag: str, title: str) -> None:
    written, text = _bench(tmp_path, "--only", "long", "--limit", "1", flag)
    key = flag.removeprefix("--").replace("-", "_")
    assert written["meta"][key] is True and written["long"]["questions"] == 8
    distinct = [p["distinct_lines"] for p in written["long"]["pairs"]]
    real = generate_long_conversations(7, **{key: True})
    plain = generate_long_conversations(7)
    assert distinct == [len({u.text for u in c.lines}) for c in real]
    changed = [d != len({u.text for u in c.lines}) for d, c in zip(distinct, plain, strict=True)]
    assert changed == [c.language == "en" for c in plain]  # the English pairs' only
    assert f"Long conversations (bench/long_conversations.py), {title} (seed 7)" in text


def test_the_long_set_can_be_asked_and_recorded_as_the_product_gets_them(tmp_path: Path) -> None:
    shape = ("--first-person", "--no-speaker-names")
    written, text = _bench(tmp_path, "--only", "long", "--limit", "1", *shape)
    assert written["meta"]["first_person"] is True and written["long"]["questions"] == 8
    assert written["meta"]["speaker_names"] is False
    asked = [d["question"] for d in written["long"]["details"]]
    own = generate_long_conversations(7, first_person=True, speaker_names=False)
    assert asked == [c.questions[0].text for c in own]  # the first story of each pair
    # the lines replayed are the unnamed ones ("Maya: ok" and "ok" are one text there)
    distinct = [p["distinct_lines"] for p in written["long"]["pairs"]]
    assert distinct == [len({u.text for u in c.lines}) for c in own]
    assert distinct != [len({u.text for u in c.lines}) for c in generate_long_conversations(7)]
    assert asked[0] == "Do you remember what happened to my ankle?"
    assert (
        "Long conversations (bench/long_conversations.py), asked in the student's own words, "
        "no speaker's name before a line (seed 7)"
    ) in text


def test_with_student_names_each_pairs_profile_names_its_student(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--student-names``: the profile's name aspect set for every long pair, and recall (not
    only the turn's block) reads it: named questions on unnamed lines are answered otherwise.
    Without the flag the replay hears the names where the product would, in the tutor's
    greetings ("Hi Maya!"), and recall is the same; replayed as the log alone, it is not."""
    shape = ("--only", "long", "--limit", "1", "--no-speaker-names")
    plain, heard = _bench(tmp_path / "plain", *shape)
    named, text = _bench(tmp_path / "named", *shape, "--student-names")
    with monkeypatch.context() as deaf:
        deaf.setattr(recall_bench, "_hear", lambda _app, _results: None)
        unheard, _ = _bench(tmp_path / "unheard", *shape)
    assert plain["meta"]["student_names"] is False and named["meta"]["student_names"] is True
    assert "no speaker's name before a line, each profile naming its student (seed 7)" in text
    assert "the student's name known in 8 of 8 pairs (set 8, said by the student 0" in text
    assert "8 of 8 pairs (set 0, said by the student 0, heard in the tutor's greeting 8)" in heard
    assert [p["student_name"]["from"] for p in plain["long"]["pairs"]] == ["tutor"] * 8
    students = {c.pair.student_id: c.student for c in generate_long_conversations(7)}
    for run, said in (("named", {None}), ("plain", {"conversation"})):
        app = build_app(on_folder(Settings(embedder="none"), tmp_path / run / "recall-store"))
        try:
            assert {s: names_of(app.profiles.in_force(s)) for s in students} == {
                s: (name,) for s, name in students.items()
            }
            sources = {
                st.source and st.source.split("/")[0]
                for s in students
                for st in app.profiles.in_force(s)
                if st.aspect is Aspect.NAME  # (the students' "I have a test on Friday": goals)
            }
            assert sources == said  # set by the flag; heard in an answer of the pair
        finally:
            app.close()

    def seqs(report: dict[str, Any]) -> list[list[str]]:  # an id's seq: the same line in both
        return [[i.split("-")[0] for i in d["recall_top10"]] for d in report["long"]["details"]]

    assert seqs(unheard) != seqs(named) and seqs(plain) == seqs(named)


def test_a_file_of_your_own_conversations_is_asked_alone(tmp_path: Path) -> None:
    """``--data``: the shipped example, replayed and asked like the long set, nothing else."""
    written, text = _bench(tmp_path, "--data", str(EXAMPLE))
    assert set(written) == {"meta", "data"} and written["meta"]["data"] == "conversations.json"
    data = written["data"]
    assert [(p["pair"], p["language"], p["lines"]) for p in data["pairs"]] == [
        ("maya-biology/conversation", "en", 12),
        ("lucia-historia/conversation", "es", 6),
    ]
    assert data["questions"] == 5 and set(data["methods"]) == {"recall", "bm25"}
    assert set(data["by_category"]) == {"multi-turn", "reply", "multi-session", "question"}
    assert data["multi_session"]["several sessions"]["methods"]["recall"]["n"] == 1
    assert data["block"]["n"] == 5
    assert [d["qid"] for d in data["details"]][:1] == ["maya-biology/dog"]
    assert "Conversations from conversations.json: 2 pairs (language and lines: en 12, es 6)" in (
        text
    )
    assert "MADial" not in text and "seed" not in text


def test_a_file_is_refused_whole_and_beside_the_built_in_sets_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["bench-recall", "--out", str(out), "--embedder", "none", "--data"]
    assert main([*argv, str(EXAMPLE), "--only", "long"]) == 2
    assert "--only: picks among the built-in sets" in capsys.readouterr().err
    assert main([*argv, str(EXAMPLE), "--echoing-tutor"]) == 2
    assert "--echoing-tutor: picks among the built-in sets" in capsys.readouterr().err
    assert main([*argv, str(EXAMPLE), "--real-small-talk"]) == 2
    assert "--real-small-talk: picks among the built-in sets" in capsys.readouterr().err
    assert main([*argv, str(EXAMPLE), "--real-chat"]) == 2
    assert "--real-chat: picks among the built-in sets" in capsys.readouterr().err
    bad = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad["conversations"][1]["questions"][0]["evidence"] = ["t7"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bad), encoding="utf-8")
    assert main([*argv, str(broken)]) == 1
    assert capsys.readouterr().err == (
        "error: conversations[1].questions[0].evidence: t7 is not a turn of this conversation\n"
    )
    assert not out.exists()  # nothing replayed, nothing written


def test_a_question_asked_mid_conversation_knows_only_what_was_said_before_it(
    tmp_path: Path,
) -> None:
    """A file's question with its own time: recall, the block and the baselines all answer
    from the turns said by then (the same words come back later, and must not be found)."""
    said = [
        ("student", "my cat Luna is sick, she will not eat"),
        ("tutor", "I'm sorry, I hope Luna gets better soon."),
        ("student", "can we do fractions today?"),
        ("student", "Luna the cat is fine again, she eats everything"),
        ("tutor", "Great news about Luna!"),
        ("student", "my cat Luna caught a mouse"),
    ]
    turns = [
        {"id": f"t{n}", "at": f"2025-03-0{n}T10:00:00+00:00", "role": role, "text": text}
        for n, (role, text) in enumerate(said, start=1)
    ]
    question = {
        "id": "cat",
        "text": "How is my cat Luna?",
        "evidence": ["t1"],
        "asked_at": "2025-03-03T12:00:00+00:00",
    }
    chats = tmp_path / "chats.json"
    document = {"conversations": [{"id": "ana", "turns": turns, "questions": [question]}]}
    chats.write_text(json.dumps(document), encoding="utf-8")
    report = run_recall_bench(tmp_path / "out", data=chats, embedder="hash", log=lambda _line: None)
    (row,) = report["data"]["details"]
    assert row["dense"]["packed"] == 3  # every turn said by the third day, none after
    assert 1 <= row["bm25"]["packed"] <= 2  # the two earlier turns that name Luna
    assert 1 <= row["recall"]["packed"] <= 3
    assert row["recall"]["in_budget"] and row["block_covered"]


def test_real_small_talk_without_its_archive_is_refused_before_anything_is_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tutor_memory.bench import real_small_talk

    monkeypatch.setitem(sys.modules, "chitchat_dataset", None)  # as if not installed
    real_small_talk.chats.cache_clear()
    try:
        out = tmp_path / "out"
        argv = ["bench-recall", "--out", str(out), "--only", "long", "--real-small-talk"]
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            "error: --real-small-talk: needs the chitchat-dataset package (pip install -e "
            "'.[dev]')\n"
        )
        assert main(["bench-recall", "--out", str(out), "--only", "real-chat"]) == 2
        assert capsys.readouterr().err.startswith("error: --only: needs the chitchat-dataset")
    finally:
        real_small_talk.chats.cache_clear()
    assert not out.exists()


def test_the_long_set_with_real_chat_is_a_set_of_its_own(tmp_path: Path) -> None:
    """``--only real-chat``: the long set with real people's chat as its English pairs'
    filler, reported as a set of its own (a full run asks it beside the plain long set)."""
    written, text = _bench(tmp_path, "--only", "real-chat", "--limit", "1")
    assert set(written) == {"meta", "long_real_chat"}
    real = written["long_real_chat"]
    assert real["questions"] == 8 and written["meta"]["real_chat"] is False
    distinct = [p["distinct_lines"] for p in real["pairs"]]
    assert distinct == [
        len({u.text for u in c.lines}) for c in generate_long_conversations(7, real_chat=True)
    ]
    assert (
        "Long conversations (bench/long_conversations.py), every filler line of the English "
        "pairs real people's chat (chitchat-dataset) (seed 7): 8 pairs"
    ) in text


def test_a_full_run_asks_the_real_chat_set_in_a_store_of_its_own(tmp_path: Path) -> None:
    """Its pairs are the long set's pairs by name: replayed into the long set's store, each
    would hold both histories."""
    report = run_recall_bench(
        tmp_path, limit=1, embedder="none", block=False, log=lambda _line: None
    )
    assert {"madial", "synthetic", "long", "long_real_chat"} <= set(report)
    assert "every filler line of the English pairs real people's chat" in tables(report)
    for store, made in (
        ("recall-store", generate_long_conversations(7)),
        ("recall-store-real-chat", generate_long_conversations(7, real_chat=True)),
    ):
        settings = Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"})
        app = build_app(on_folder(settings, tmp_path / store))
        try:
            for c in made:
                assert [e.text for e in app.memory.history(c.pair)] == [u.text for u in c.lines]
        finally:
            app.close()
