"""The recall bench's scoring, on hand-made rankings, and the shipped MADial-Bench files."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tutor_memory.bench.recall_bench import (
    madial_at,
    madial_dialogues,
    madial_folder,
    madial_memories,
    madial_owners,
    madial_published,
    madial_query,
)
from tutor_memory.bench.retrieval import Bm25, Ranked, recall_at_ids, rrf, score_ranking
from tutor_memory.domain.tokens import count_tokens

LINES = [
    Ranked(("a",), "- 3 Jan · you were asked: what is osmosis?"),
    Ranked(
        ("b", "c"), "- 4 Jan – 9 Feb · you were asked: what is a cell? (and 1 more time like it)"
    ),
    Ranked(("d",), "- 5 Jan · you answered: a membrane lets water through"),
    Ranked(("e",), "- 6 Jan · you were asked: hi"),
]


def _cost(n: int) -> int:
    """What the first ``n`` lines cost, joined by line breaks as the block prints them."""
    return count_tokens("\n".join(r.line for r in LINES[:n]))


def test_r_at_k_is_the_share_of_relevant_ids_the_first_k_lines_stand_for() -> None:
    scores = score_ranking(LINES, ["c", "e"])
    assert scores.recall_at == {5: 1.0, 10: 1.0, 20: 1.0}
    assert score_ranking(LINES[:2], ["c", "e"]).recall_at[5] == 0.5
    assert score_ranking(LINES[2:], ["a"]).recall_at[10] == 0.0


def test_a_collapsed_line_shows_every_id_it_stands_for() -> None:
    scores = score_ranking(LINES, ["b", "c"], budget=_cost(2))
    assert scores.in_budget and scores.packed == 2


def test_all_relevant_in_budget_needs_every_relevant_id_inside_the_pack() -> None:
    assert score_ranking(LINES, ["a", "d"], budget=_cost(3)).in_budget
    tight = score_ranking(LINES, ["a", "d"], budget=_cost(3) - 1)
    assert tight.packed == 2 and not tight.in_budget


def test_the_first_line_that_does_not_fit_ends_the_pack() -> None:
    long = Ranked(("x",), "- 1 Jan · you were asked: " + "word " * 400)
    scores = score_ranking([LINES[0], long, LINES[3]], ["e"], budget=200)
    assert scores.packed == 1 and not scores.in_budget


def test_a_case_without_relevant_ids_is_refused() -> None:
    with pytest.raises(ValueError):
        score_ranking(LINES, [])


def test_rrf_adds_one_over_sixty_plus_rank_across_lists() -> None:
    # a: 1/61 + 1/62, c: 1/63 + 1/61, b: 1/62
    assert rrf([["a", "b", "c"], ["c", "a"]]) == ["a", "c", "b"]
    assert rrf([["x"], []]) == ["x"]


def test_bm25_ranks_only_episodes_that_share_a_word() -> None:
    bm25 = Bm25(["1", "2", "3"], ["the cell membrane", "a quiz on osmosis", "osmosis and cells"])
    assert set(bm25.rank("osmosis")) == {"2", "3"}
    assert bm25.rank("membrane")[0] == "1"
    assert bm25.rank("the a and") == []  # stopwords only
    assert bm25.rank("zebra") == []


@pytest.mark.parametrize(
    ("language", "texts", "question"),
    [
        ("es", ["el perro de Lucía", "la casa de la playa"], "¿de quién es la casa?"),
        ("id", ["kucing yang lucu", "rumah dan kebun"], "rumah yang mana?"),
        ("ur", ["میری بلی بیمار ہے", "اسکول کا گھر"], "گھر کہاں ہے؟"),
        ("ar", ["قطتي في البيت", "المدرسة في المدينة"], "المدرسة في أي مدينة؟"),
    ],
)
def test_bm25_leaves_out_the_function_words_of_the_pairs_language(
    language: str, texts: list[str], question: str
) -> None:
    """A plain BM25 for a Spanish pair drops "la", "de", as it drops "the" for an English
    one: otherwise every line sharing a function word with the question is a hit."""
    own = Bm25(["1", "2"], texts, language)
    assert own.rank(question) == ["2"]
    assert len(Bm25(["1", "2"], texts).rank(question)) == 2  # English stop words keep them


def test_published_lists_score_what_the_folders_readme_says() -> None:
    """The shipped files and the scoring agree with the README's table (bge-m3, openai)."""
    dialogues = madial_dialogues()
    published = madial_published()
    expected = {"bge_m3": (0.553, 0.705, 0.860), "openai": (0.695, 0.806, 0.896)}
    for name, (r5, r10, r20) in expected.items():
        lists = published[name]
        assert len(lists) == len(dialogues) == 160
        for k, want in ((5, r5), (10, r10), (20, r20)):
            got = sum(
                recall_at_ids(top, d["relevant-id"], k)
                for top, d in zip(lists, dialogues, strict=True)
            ) / len(dialogues)
            assert got == pytest.approx(want, abs=0.0005)


def test_madial_ships_its_licence_and_160_dated_memories() -> None:
    assert "MIT" in (madial_folder() / "LICENSE").read_text(encoding="utf-8")
    memories = madial_memories()
    assert len(memories) == 160
    assert madial_at(memories) == datetime(2024, 10, 24, 12, tzinfo=UTC)


def test_each_madial_memory_belongs_to_one_child_as_the_authors_files_say() -> None:
    """The archive is two children's: the per-student replay gives each child's memories to
    their own pair, and every list the authors published searched its own child's alone."""
    owners = madial_owners()
    assert set(owners) == set(madial_memories())
    names = {1: "Bart", 2: "Lisa"}
    assert {owners[m] for m in owners} == set(names)
    memories = madial_memories()
    assert all(names[owners[m]] in memories[m]["event"] for m in owners)  # told about them
    dialogues = madial_dialogues()
    for lists in madial_published().values():
        for top, d in zip(lists, dialogues, strict=True):
            assert {owners[m] for m in [*top, *d["relevant-id"]]} == {d["user-id"]}


def test_the_madial_query_is_every_line_before_the_first_test_turn() -> None:
    dialogue = ["<BOD>\n", '<Bart>: "hi"\n', '<Assistant>: "hello"\n', '<Bart>: "x"\n', "<EOD>\n"]
    assert madial_query(dialogue, 3) == "Bart: hi\nAssistant: hello"


def test_a_question_is_counted_once_under_its_most_upstream_failure() -> None:
    from tutor_memory.bench.recall_bench import FAILURE_CLASSES, failure_cause

    trace = {
        "recent": (("recent",), "dropped"),
        "topical": (("recent", "semantic"), "dropped"),
        "kept": (("lexical",), "demoted"),
    }
    assert failure_cause(["kept"], ["kept"], trace, True) == "found"
    assert failure_cause(["kept"], ["kept"], trace, False) == FAILURE_CLASSES[4]
    assert failure_cause(["kept"], [], trace, None) == FAILURE_CLASSES[3]
    assert failure_cause(["kept", "topical"], [], trace, None) == FAILURE_CLASSES[2]
    assert failure_cause(["topical", "recent"], [], trace, None) == FAILURE_CLASSES[1]
    assert failure_cause(["recent", "nowhere"], ["recent"], trace, None) == FAILURE_CLASSES[0]
