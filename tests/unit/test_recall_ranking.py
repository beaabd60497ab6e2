"""Recall's decisions: relevance beats recency, the gate, repetition collapses, narrations."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from tutor_memory.domain import chain
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    Episode,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
    TaughtEvidence,
)
from tutor_memory.domain.language import analyse
from tutor_memory.domain.recall import (
    Candidates,
    Mode,
    RecalledItem,
    fusion_order,
    rank,
    recency,
    score,
)
from tutor_memory.domain.tokens import count_tokens

PAIR = Pair("student-1", "biology")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def matched(items: list[RecalledItem]) -> list[RecalledItem]:
    """The items that passed the gate (the others are kept for fusion's sake, ranked below)."""
    return [i for i in items if not i.demoted]


def ep(seq: int, text: str, days_ago: float, kind: Kind = Kind.QUESTION, **kw: object) -> Episode:
    new = NewEpisode(PAIR, kind, text, NOW - timedelta(days=days_ago), **kw)  # type: ignore[arg-type]
    sealed = chain.seal(new, None)
    return replace(sealed, seq=seq, episode_id=f"e{seq}-{seq:012x}")


def test_recency_halves_every_75_days_as_the_articles_figure_says() -> None:
    assert recency(NOW, NOW) == 1.0
    assert recency(NOW - timedelta(days=75), NOW) == pytest.approx(0.5)
    assert recency(NOW - timedelta(days=200), NOW) == pytest.approx(0.156, abs=0.002)


def test_an_old_exact_match_beats_a_fresh_irrelevant_note() -> None:
    march = ep(1, "What is osmosis?", days_ago=200)
    fresh = ep(
        2, "Remember to bring a pen", days_ago=0, kind=Kind.TAUGHT, evidence=TaughtEvidence("pen")
    )
    pool = Candidates()
    pool.add_recent([fresh, march])
    pool.add_lexical([(march, 7.5, ())])
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert mode is Mode.RELEVANT
    assert [i.episode.seq for i in items] == [1]  # the gate dropped the fresh note entirely


def test_the_gate_keeps_every_matching_pool() -> None:
    lexical, semantic, concept, recent = (ep(i, f"episode {i}", days_ago=i) for i in range(1, 5))
    pool = Candidates()
    pool.add_recent([recent, lexical])
    pool.add_lexical([(lexical, 2.0, ())])
    pool.add_semantic([(semantic, 0.91)])
    pool.add_concept([concept])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert {i.episode.seq for i in items} == {1, 2, 3}
    found = {i.episode.seq: i.pools for i in items}
    assert found[1] == ("lexical", "recent")


def test_without_a_question_recency_orders_everything() -> None:
    old, new = ep(1, "old question", days_ago=100), ep(2, "new question", days_ago=1)
    pool = Candidates()
    pool.add_recent([new, old])
    items, mode = rank(pool.values(), now=NOW, has_question=False, limit=10)
    assert mode is Mode.RECENT_ONLY and [i.episode.seq for i in items] == [2, 1]


def test_a_question_that_matches_nothing_gets_the_recent_past_labelled() -> None:
    pool = Candidates()
    pool.add_recent([ep(1, "a", days_ago=3), ep(2, "b", days_ago=1)])
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert mode is Mode.NOTHING_MATCHED and [i.episode.seq for i in items] == [2, 1]


def test_identical_questions_collapse_into_one_that_counts_them() -> None:
    copies = [ep(s, "What is a cell?", days_ago=d) for s, d in ((1, 90), (2, 60), (3, 30), (4, 5))]
    copies.append(ep(5, "  what IS a   cell? ", days_ago=2))
    other = ep(6, "What is a cell wall?", days_ago=1)
    pool = Candidates()
    pool.add_lexical([(e, 3.0, ()) for e in [*copies, other]])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert len(items) == 2
    cell = next(i for i in items if i.count > 1)
    assert cell.count == 5 and cell.episode.seq == 5  # the newest stands for the others
    assert cell.first_at == copies[0].at and cell.last_at == copies[-1].at
    assert cell.collapsed_ids[0] == copies[0].episode_id


def test_a_quiz_collapses_only_with_the_same_score() -> None:
    """Two "Weekly quiz on cells" of 3/10 and 9/10 were one memory, shown as "quiz: 9/10
    (and 1 more time like it)": the tutor read the student's 3/10 as a second 9/10."""
    scores = ((1, 3.0, 14), (2, 9.0, 7), (3, 9.0, 1))
    quizzes = [
        ep(s, "Weekly quiz on cells", days_ago=d, kind=Kind.QUIZ,
           evidence=QuizEvidence(score=score, maximum=10.0, topics=("osmosis",)))
        for s, score, d in scores
    ]  # fmt: skip
    pool = Candidates()
    pool.add_lexical([(e, 3.0, ()) for e in quizzes])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    shown = sorted((i.episode.seq, i.count) for i in items)
    assert shown == [(1, 1), (3, 2)]  # 3/10 alone; the two 9/10 as one, counted


def test_a_narration_is_not_recalled_when_narrations_are_excluded() -> None:
    source = ep(1, "What is osmosis?", days_ago=130)
    narration = ep(
        2,
        "In July we covered osmosis.",
        days_ago=1,
        kind=Kind.ANSWER,
        evidence=AnswerEvidence(),
        recalled_ids=(source.episode_id,),
    )
    pool = Candidates()
    pool.add_lexical([(narration, 5.0, ()), (source, 4.0, ())])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10, exclude_narrations=True)
    assert [i.episode.seq for i in items] == [1]
    everything, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert {i.episode.seq for i in everything} == {1, 2}


def test_ties_break_by_time_then_sequence() -> None:
    a, b = ep(1, "first", days_ago=10), ep(2, "second", days_ago=10)
    pool = Candidates()
    pool.add_lexical([(a, 1.0, ()), (b, 1.0, ())])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert [i.episode.seq for i in items] == [2, 1]
    assert items[0].score == items[1].score


def test_the_score_is_the_documented_weighted_sum() -> None:
    e = ep(1, "What is osmosis?", days_ago=75)
    pool = Candidates()
    pool.add_lexical([(e, 4.0, ())])
    (cand,) = pool.values()
    assert score(cand, NOW) == pytest.approx(0.55 * 1.0 + 0.30 * 0.35 + 0.15 * 0.5)


def test_only_the_nearest_few_by_meaning_match_the_question() -> None:
    """E5 always returns k neighbours; the far ones are candidates, not matches."""
    near = [ep(i, f"near {i}", days_ago=50) for i in range(1, C.RECALL_SEMANTIC_MATCHES + 1)]
    far = ep(99, "far away", days_ago=1)
    pool = Candidates()
    pool.add_recent([far])
    pool.add_semantic([(e, 0.9 - i * 0.001) for i, e in enumerate([*near, far])])
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=50)
    assert mode is Mode.RELEVANT
    assert {i.episode.seq for i in matched(items)} == {e.seq for e in near}
    # plain fusion would show the far one in a pack this small: kept, below every match
    assert items[-1].episode.seq == 99 and items[-1].demoted and items[-1].score < 0


def test_semantic_relevance_is_relative_to_this_questions_neighbours() -> None:
    best, middle, worst = ep(1, "a", 1), ep(2, "b", 1), ep(3, "c", 1)
    pool = Candidates()
    pool.add_semantic([(best, 0.86), (middle, 0.84), (worst, 0.82)])
    relevance = {c.episode.seq: c.relevance for c in pool.values()}
    assert relevance == pytest.approx({1: 1.0, 2: 0.5, 3: 0.0})


def test_without_the_gate_what_matches_nothing_is_kept_but_ranked_lower() -> None:
    """A record question: the conversation is the record too."""
    check, chat = ep(1, "Check on osmosis", days_ago=30), ep(2, "Hello again!", days_ago=1)
    pool = Candidates()
    pool.add_recent([chat, check])
    pool.add_concept([check])
    gated, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert [i.episode.seq for i in gated] == [1]
    kept, mode = rank(pool.values(), now=NOW, has_question=True, limit=10, gate=False)
    assert mode is Mode.RELEVANT and [i.episode.seq for i in kept] == [1, 2]


def test_a_word_in_most_of_the_pairs_episodes_does_not_make_a_match() -> None:
    """A speaker's name is in nearly every line: sharing it says nothing about the question."""
    small_talk = ep(1, "Maya: haha ok see you tomorrow", days_ago=1)
    er_visit = ep(2, "Maya: I had to go to the ER after basketball", days_ago=120)
    pool = Candidates()
    pool.add_recent([small_talk, er_visit])
    pool.add_lexical(
        [(small_talk, 2.0, ("maya",)), (er_visit, 6.0, ("er", "maya"))], distinctive={"er"}
    )
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert mode is Mode.RELEVANT
    assert [i.episode.seq for i in matched(items)] == [2]
    assert [i.episode.seq for i in items] == [2, 1]  # the fresher small talk ranks below


def test_a_term_is_everyday_vocabulary_only_in_a_long_enough_history() -> None:
    from tutor_memory.domain.recall import TermCounts, distinctive_terms_of

    counts = {"maya": 600, "cell": 30, "er": 2}
    assert distinctive_terms_of(TermCounts(200, counts)) == {"er"}
    assert distinctive_terms_of(TermCounts(1_000, counts)) == {"cell", "er"}
    short = TermCounts(C.RECALL_GATE_MIN_DOCUMENTS - 1, {"maya": 40, "er": 1})
    assert distinctive_terms_of(short) == {"maya", "er"}


def test_repetitions_take_one_place_among_the_nearest_by_meaning() -> None:
    """Nine copies of one question are one text: they do not fill every matching place."""
    copies = [ep(i, "What is a cell?", days_ago=i) for i in range(1, 10)]
    others = [ep(20 + i, f"other text {i}", days_ago=30) for i in range(20)]
    membrane = ep(99, "The cell membrane lets water through", days_ago=200)
    ranked = [*copies, *others[: C.RECALL_SEMANTIC_MATCHES - 2], membrane, *others[6:]]
    pool = Candidates()
    pool.add_semantic([(e, 0.95 - i * 0.002) for i, e in enumerate(ranked)])
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=50)
    assert 99 in {i.episode.seq for i in items}
    assert next(i for i in items if i.episode.seq == 1).count == 9


def test_texts_much_closer_than_the_crowd_all_match_beyond_the_nearest_few() -> None:
    close = [ep(i, f"close {i}", days_ago=10) for i in range(1, 13)]
    crowd = [ep(100 + i, f"crowd {100 + i}", days_ago=1) for i in range(38)]
    scored = [(e, 0.95 - i * 0.001) for i, e in enumerate(close)]
    scored += [(e, 0.80 - i * 0.0001) for i, e in enumerate(crowd)]
    pool = Candidates()
    pool.add_semantic(scored)
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=100)
    assert {i.episode.seq for i in matched(items)} == {e.seq for e in close}
    assert {i.episode.seq for i in items[: len(close)]} == {e.seq for e in close}


def test_a_memory_both_pools_found_outranks_one_only_words_found() -> None:
    both = ep(1, "osmosis moves water across a membrane", days_ago=30)
    words_only = ep(2, "osmosis osmosis osmosis", days_ago=30)
    pool = Candidates()
    pool.add_lexical([(words_only, 4.0, ("osmosis",)), (both, 4.0, ("osmosis",))])
    pool.add_semantic([(both, 0.9), (ep(3, "far", days_ago=30), 0.8)])
    relevance = {c.episode.seq: c.relevance for c in pool.values()}
    assert relevance[1] == pytest.approx(1.0)
    assert relevance[2] == pytest.approx(0.5)
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert [i.episode.seq for i in items][:2] == [1, 2]


def test_a_pool_the_question_did_not_run_does_not_halve_relevance() -> None:
    """No embedder (or no vector): relevance is the lexical figure alone."""
    e = ep(1, "What is osmosis?", days_ago=75)
    pool = Candidates()
    pool.add_lexical([(e, 4.0, ("osmosi",))])
    (cand,) = pool.values()
    assert cand.relevance == pytest.approx(1.0)


# The second hop: (best evidence, an earlier line sharing only the name with the question but
# a distinctive word with the best evidence, small talk sharing only the name, the name).
HOP = {
    "en": (
        "Maya: I quit guitar, now I play violin in the school orchestra.",
        "Maya: I started guitar lessons with my uncle.",
        "Maya: see you on Friday, I have to run",
        "Maya",
    ),
    "es": (
        "Lucía: Dejé la guitarra, ahora toco el violín en la orquesta del colegio.",
        "Lucía: Empecé clases de guitarra con mi tío.",
        "Lucía: nos vemos el viernes, tengo que irme",
        "Lucía",
    ),
    "id": (
        "Putri: Aku berhenti main gitar, sekarang aku main biola di orkestra sekolah.",
        "Putri: Aku mulai les gitar dengan pamanku.",
        "Putri: sampai jumpa hari Jumat, aku harus pergi",
        "Putri",
    ),
    "ur": (
        "عائشہ: میں نے گٹار چھوڑ دیا، اب اسکول کے آرکسٹرا میں وائلن بجاتی ہوں۔",
        "عائشہ: میں نے اپنے چچا سے گٹار سیکھنا شروع کیا۔",
        "عائشہ: جمعہ کو ملتے ہیں، مجھے جانا ہے",
        "عائشہ",
    ),
    "ar": (
        "ليلى: تركت الغيتار، والآن أعزف الكمان في أوركسترا المدرسة.",
        "ليلى: بدأت دروس الغيتار مع عمي.",
        "ليلى: أراك يوم الجمعة، يجب أن أذهب",
        "ليلى",
    ),
}


def _hop_pool(lang: str, *, bridged_signal: bool = True, others: int = 60) -> Candidates:
    best_text, earlier_text, small_text, name = HOP[lang]
    best = ep(1, best_text, days_ago=20)
    earlier = ep(2, earlier_text, days_ago=200)
    small_talk = ep(3, small_text, days_ago=1)
    # the rest of the pair's history: the name in every line, nothing the question asks about
    rest = [ep(10 + n, f"{name}: {n * 7919}", days_ago=2 + n) for n in range(others)]
    pool = Candidates()
    pool.add_recent([small_talk, *rest, earlier, best])
    name_hits = [(small_talk, 1.0, (name,))] + ([(earlier, 1.0, (name,))] if bridged_signal else [])
    pool.add_lexical([(best, 5.0, ("instrument",)), *name_hits], distinctive={"instrument"})
    return pool


@pytest.mark.parametrize("lang", sorted(HOP))
def test_an_earlier_line_sharing_a_rare_word_with_the_best_evidence_is_recalled(lang: str) -> None:
    """Multi-session evidence told in different words: the earlier line shares only the name
    with the question, but "guitar" with the best evidence; the small talk only the name."""
    items, mode = rank(_hop_pool(lang).values(), now=NOW, has_question=True, limit=10)
    assert mode is Mode.RELEVANT
    assert [i.episode.seq for i in matched(items)] == [1, 2]


@pytest.mark.parametrize("lang", sorted(HOP))
def test_a_line_no_pool_found_for_the_question_is_not_reached_by_the_hop_alone(lang: str) -> None:
    pool = _hop_pool(lang, bridged_signal=False)
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert [i.episode.seq for i in matched(items)] == [1]


@pytest.mark.parametrize("lang", sorted(HOP))
def test_in_a_short_history_no_word_is_rare_enough_to_hop_by(lang: str) -> None:
    pool = _hop_pool(lang, others=C.RECALL_GATE_MIN_DOCUMENTS - 10)
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert [i.episode.seq for i in matched(items)] == [1]


# A message that says several things: (small talk before the fact — on the study topic, so
# that a seed read from it would reach the study question too —, a study question after it,
# the question's word for the instrument the fact names).
ASIDE = {
    "en": ("the osmosis homework took ages.", "can you explain osmosis again?", "violin"),
    "es": ("la tarea de ósmosis fue eterna.", "¿me explicas otra vez la ósmosis?", "violín"),
    "id": ("PR osmosis tadi lama banget.", "bisa jelasin osmosis lagi?", "biola"),
    "ur": ("اوسموسس کا کام بہت لمبا تھا۔", "کیا آپ اوسموسس دوبارہ سمجھا سکتی ہیں؟", "وائلن"),
    "ar": ("واجب الأسموزية كان طويلا.", "هل يمكنك شرح الخاصية الأسموزية مرة أخرى؟", "الكمان"),
}


@pytest.mark.parametrize("lang", sorted(HOP))
def test_the_hop_follows_the_sentence_of_the_best_evidence_that_answers(lang: str) -> None:
    """Students tell a fact among other things. The hop starts from the sentence that holds
    the question's word ("violin"), so the earlier guitar line is reached and the study
    question said after the fact ("can you explain osmosis again?") is not; the name, in the
    message's first sentence, is everyday and says nothing."""
    fact, earlier_text, _small, name = HOP[lang]
    before, after, instrument = ASIDE[lang]
    told = fact.removeprefix(f"{name}: ")
    best = ep(1, f"{name}: {before} {told} {after}", days_ago=20)
    earlier = ep(2, earlier_text, days_ago=200)
    study = ep(3, f"{name}: {after}", days_ago=1)
    rest = [ep(10 + n, f"{name}: {n * 7919}", days_ago=2 + n) for n in range(60)]
    (word,) = analyse(instrument, lang)
    (called,) = analyse(name, lang)
    pool = Candidates()
    pool.add_recent([study, *rest, earlier, best])
    pool.add_lexical(
        [(best, 5.0, (word, called)), (earlier, 1.0, (called,)), (study, 1.0, (called,))],
        distinctive={word},
    )
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10, terms=(word, called))
    assert [i.episode.seq for i in matched(items)] == [1, 2]


def test_a_record_question_needs_no_hop_it_keeps_everything() -> None:
    items, _ = rank(_hop_pool("en").values(), now=NOW, has_question=True, limit=100, gate=False)
    assert {1, 2, 3} <= {i.episode.seq for i in items}


# --- every candidate scored by every pool; the gate never drops what plain fusion keeps ------


def test_a_memory_found_by_words_alone_is_scored_by_meaning_too() -> None:
    """Its cosine comes with the others (the index scores every candidate), so a lexical hit
    is not counted "0 by meaning" and halved, and filler gets its real, low figure."""
    evidence = ep(1, "Maya: we went bowling for my sister's birthday", days_ago=150)
    nearest = ep(2, "Maya: birthday party games", days_ago=100)
    filler = ep(3, "Maya: ok see you", days_ago=0)
    pool = Candidates()
    pool.add_recent([filler])
    pool.add_lexical([(evidence, 5.0, ("bowl",))], distinctive={"bowl"})
    pool.add_semantic([(nearest, 0.90)])
    pool.add_cosines({evidence.episode_id: 0.88, filler.episode_id: 0.80})
    figures = {c.episode.seq: (c.lexical, c.semantic) for c in pool.values()}
    assert figures[1] == pytest.approx((1.0, 0.8))  # (0.88 - 0.80) / (0.90 - 0.80)
    assert figures[3] == pytest.approx((0.0, 0.0))
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert items[0].episode.seq == 1  # the fresh filler cannot lift itself above


def test_a_memory_found_by_meaning_past_the_lexical_cut_is_scored_by_words_too() -> None:
    """Past the lexical pool's cut (filler holding the speaker's name fills it), evidence
    found by meaning that holds the question's words gets its BM25 score on the pool's scale
    instead of 0, so fresh filler inside the cut no longer outranks it; the score adds no
    candidate and makes no match, and a candidate inside the cut keeps its own."""
    evidence = ep(1, "Maya: Biscuit, my golden retriever, turned eight", days_ago=150)
    filler = ep(2, "Maya: can you explain DNA again??", days_ago=0)
    pool = Candidates()
    pool.add_recent([filler])
    pool.add_lexical([(filler, 4.0, ("maya",))], distinctive=set())  # the cut: one hit
    pool.add_semantic([(evidence, 0.90), (filler, 0.89)])
    pool.add_lexical_scores({evidence.episode_id: 3.0, filler.episode_id: 1.0, "other": 2.0})
    figures = {c.episode.seq: c.lexical for c in pool.values()}
    assert figures == {1: pytest.approx(0.75), 2: 1.0}  # 3.0 / 4.0; the hit keeps its own
    assert len(pool.by_id) == 2 and not pool.by_id[evidence.episode_id].distinctive_hit
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=10)
    assert items[0].episode.seq == 1
    without = Candidates()
    without.add_recent([filler])
    without.add_lexical([(filler, 4.0, ("maya",))], distinctive=set())
    without.add_semantic([(evidence, 0.90), (filler, 0.89)])
    items, _ = rank(without.values(), now=NOW, has_question=True, limit=10)
    assert items[0].episode.seq == 2  # before: halved by the mean with 0, recency won


def test_a_cosine_never_replaces_the_semantic_pools_own() -> None:
    e = ep(1, "osmosis", days_ago=1)
    pool = Candidates()
    pool.add_semantic([(e, 0.9)])
    pool.add_cosines({e.episode_id: 0.1, "not-a-candidate": 0.5})
    (cand,) = pool.values()
    assert cand.cosine == 0.9 and len(pool.by_id) == 1


def _crowd(n: int, days: float = 1.0) -> list[Episode]:
    return [ep(100 + i, f"Maya: small talk number {i}", days_ago=days + i) for i in range(n)]


def test_what_plain_fusion_would_pack_is_demoted_below_the_matches_never_dropped() -> None:
    """A reply ranked high by both pools but matching nothing the gate reads (an everyday
    word, a neighbour by meaning that does not stand out) stays, below every match."""
    match = ep(1, "Maya: the ER visit after my fall", days_ago=200)
    reply = ep(2, "Maya: yes it was scary, my knee hurt for weeks", days_ago=199)
    crowd = _crowd(80)
    pool = Candidates()
    pool.add_recent(crowd)
    pool.add_lexical(
        [(match, 6.0, ("er", "maya")), (reply, 3.0, ("maya",))]
        + [(c, 0.5, ("maya",)) for c in crowd],
        distinctive={"er"},
    )
    pool.add_semantic([(match, 0.90), (reply, 0.84)])
    pool.add_cosines({c.episode_id: 0.80 + (i % 7) * 0.001 for i, c in enumerate(crowd)})
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=200)
    assert mode is Mode.RELEVANT
    order = [i.episode.seq for i in items]
    assert order[:2] == [1, 2]
    # 0.84 is closer to the crowd (~0.803) than to the nearest (0.90): no match by meaning
    assert not items[0].demoted and items[1].demoted
    assert all(i.score < items[0].score for i in items[1:])


def test_while_the_budget_has_room_nothing_found_is_dropped_beyond_it_the_gate_cuts() -> None:
    match = ep(1, "Maya: the ER visit after my fall", days_ago=200)
    few = _crowd(10)
    pool = Candidates()
    pool.add_recent(few)
    pool.add_lexical([(match, 6.0, ("er",))] + [(c, 0.5, ("maya",)) for c in few], {"er"})
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=200)
    assert {i.episode.seq for i in items} == {1} | {c.seq for c in few}  # room for all of them
    many = _crowd(400)
    pool = Candidates()
    pool.add_recent(many)
    pool.add_lexical([(match, 6.0, ("er",))] + [(c, 0.5, ("maya",)) for c in many], {"er"})
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=500)
    kept = sum(count_tokens(i.episode.summary) + C.RECALL_LINE_TOKENS for i in items if i.demoted)
    assert items[0].episode.seq == 1 and 1 < len(items) < 401
    assert kept <= C.RECALL_FUSION_PACK_TOKENS  # fusion's pack and the room left, no more


def test_fusion_ranks_distinct_texts_by_both_pools() -> None:
    both = ep(1, "both pools", days_ago=5)
    words = ep(2, "words only", days_ago=5)
    copies = [ep(10 + i, "meaning only", days_ago=i) for i in range(9)]
    pool = Candidates()
    pool.add_lexical([(both, 5.0, ("x",)), (words, 4.0, ("x",))])
    pool.add_semantic([(c, 0.95) for c in copies] + [(both, 0.9)])
    order = fusion_order(pool.values())
    # the nine copies are one text; the one both pools found leads
    assert [key[1] for key in order] == ["both pools", "meaning only", "words only"]


# --- crowding: a text near everything the pair says is not near for it (CSLS) ---------------


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _hubbed_pool(
    with_vectors: bool, order: int = 1, variant: bool = False
) -> tuple[Candidates, Episode, list[Episode]]:
    """The long chats' trap, by numbers: twelve greetings that carry the student's name stand
    nearest to the question (the name weighs in a short line's embedding), each one a variant
    of the others; the fact said once stands a little further, alone; sixty lines of everyday
    talk make the crowd. Without the crowding the greetings take every near place. With
    ``variant``, the first greeting is also written in lower case (one text once folded) with
    a vector of its own, a little further, alone, and listed first when ``order`` is 1."""
    rng = np.random.default_rng(7)
    dim = 96  # unrelated lines stand apart (cosines ~0 ± 0.1)
    greetings = [ep(200 + i, f"Hi Maya! How are you{'!' * i}", days_ago=2 + i) for i in range(12)]
    fact = ep(1, "Maya: Biscuit is a golden retriever, he turned eight", days_ago=150)
    crowd = [ep(100 + i, f"Maya: everyday line {i}", days_ago=1 + i) for i in range(60)]
    hello = rng.normal(size=dim)
    vectors = {
        **{g.episode_id: hello + 0.05 * rng.normal(size=dim) for g in greetings},
        fact.episode_id: rng.normal(size=dim),
        **{c.episode_id: rng.normal(size=dim) for c in crowd},
    }
    unit = dict(zip(vectors, _unit(np.stack(list(vectors.values()))), strict=True))
    cosines = {
        **{g.episode_id: 0.92 - 0.001 * i for i, g in enumerate(greetings)},
        fact.episode_id: 0.845,
        **{c.episode_id: 0.78 + 0.0005 * (i % 9) for i, c in enumerate(crowd)},
    }
    if variant:
        lower = ep(300, "hi maya! how are you", days_ago=1.5)
        unit[lower.episode_id] = _unit(rng.normal(size=(1, dim)))[0]
        cosines[lower.episode_id] = 0.9195
        greetings = [lower, *greetings]
    recent = [*greetings, *crowd][::order]
    semantic = sorted([*greetings, fact, *crowd[:20]], key=lambda e: -cosines[e.episode_id])
    pool = Candidates()
    pool.add_recent(recent)
    pool.add_semantic([(e, cosines[e.episode_id]) for e in semantic][::order])
    pool.add_cosines(cosines)
    if with_vectors:
        pool.add_vectors(dict(list(unit.items())[::order]))
    return pool, fact, greetings


def test_a_greeting_near_every_question_is_not_near_for_it_a_fact_said_once_is() -> None:
    pool, fact, _greetings = _hubbed_pool(with_vectors=True)
    items, mode = rank(pool.values(), now=NOW, has_question=True, limit=200)
    assert mode is Mode.RELEVANT
    assert [i.episode.seq for i in matched(items)] == [fact.seq]
    assert all(i.demoted for i in items if i.episode.seq >= 200)


def test_without_the_texts_vectors_the_near_rule_reads_the_plain_cosines() -> None:
    pool, fact, greetings = _hubbed_pool(with_vectors=False)
    items, _ = rank(pool.values(), now=NOW, has_question=True, limit=200)
    assert {i.episode.seq for i in matched(items)} == {g.seq for g in greetings}
    assert next(i for i in items if i.episode.seq == fact.seq).demoted


def test_the_near_rule_does_not_depend_on_the_order_an_index_lists_texts_in() -> None:
    """Both indexes must give the same block: the crowding's matrix goes by the texts' keys,
    and a text folded alike from two lines is measured by its nearest line's vector, not by
    whichever the index listed first (here the lower-case line, alone: taken first, the
    greetings' text would pass as near)."""
    shown = []
    for order in (1, -1):
        pool, fact, _greetings = _hubbed_pool(with_vectors=True, order=order, variant=True)
        candidates = pool.values()
        items, _ = rank(candidates, now=NOW, has_question=True, limit=200)
        assert [i.episode.seq for i in matched(items)] == [fact.seq]
        shown.append(sorted((c.episode.seq, c.near) for c in candidates))
    assert shown[0] == shown[1]


def test_crowding_is_the_mean_cosine_to_the_nearest_others_itself_left_out() -> None:
    from tutor_memory.domain.recall import crowding

    rows = _unit(np.array([[1, 0, 0], [1, 0.1, 0], [1, -0.1, 0], [0, 0, 1], [0, 1, 0]], float))
    figures = crowding(rows, reference=4, neighbours=2)
    twins = rows[:3] @ rows[:3].T
    assert figures[0] == pytest.approx((twins[0, 1] + twins[0, 2]) / 2)
    assert figures[3] == pytest.approx((0.0 + 0.0) / 2)  # alone: its nearest are orthogonal
    # a row outside the reference: its nearest among all four
    assert figures[4] == pytest.approx((rows[4] @ rows[1] + rows[4] @ rows[0]) / 2)
    assert crowding(rows, reference=1).tolist() == [0.0] * 5  # no other text to stand near
