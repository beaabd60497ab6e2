"""The synthetic conversations of the recall bench: seeded, in five languages, with what real
conversations have (names, repetition, gaps, returns) and questions whose gold is right."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from itertools import pairwise

import pytest

from tutor_memory.bench.conversation_words import CATEGORIES, WORDS
from tutor_memory.bench.conversations import PLAN, Conversation, generate_conversations


@pytest.fixture(scope="module")
def conversations() -> list[Conversation]:
    return generate_conversations(7)


def _words(text: str) -> set[str]:
    """Words folded to lower case, without Arabic's article (العرس is عرس)."""
    words = re.findall(r"\w+", text.casefold())
    return {w[2:] if w.startswith("ال") and len(w) > 4 else w for w in words}


def _share_a_word(question: str, evidence: str) -> bool:
    """A shared word, or two words of four letters or more that begin alike (cell, cells)."""
    asked, said = _words(question), _words(evidence)
    if asked & said:
        return True
    return any(a[:4] == s[:4] for a in asked for s in said if len(a) >= 4 and len(s) >= 4)


def test_the_same_seed_gives_the_same_conversations(conversations: list[Conversation]) -> None:
    assert generate_conversations(7) == conversations
    assert generate_conversations(8) != conversations


def test_pairs_speak_five_languages_over_hundreds_to_about_1500_lines(
    conversations: list[Conversation],
) -> None:
    assert {c.language for c in conversations} == {"en", "es", "id", "ur", "ar"}
    assert len({c.pair for c in conversations}) == len(PLAN)
    for c, (_language, size) in zip(conversations, PLAN, strict=True):
        assert size <= len(c.lines) <= size + 80
    assert max(len(c.lines) for c in conversations) >= 1_500


def test_most_lines_carry_the_speakers_name(conversations: list[Conversation]) -> None:
    for c in conversations:
        named = sum(u.text.startswith((f"{c.student}: ", f"{c.tutor}: ")) for u in c.lines)
        assert 0.75 <= named / len(c.lines) < 0.95, c.pair


def test_a_favourite_question_is_asked_word_for_word_in_many_sessions(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        said = Counter(u.text for u in c.lines if u.role == "student")
        assert said.most_common(1)[0][1] >= 6, c.pair


def test_every_pair_has_a_break_of_two_months_and_a_topic_that_returns_after_it(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        starts: dict[int, datetime] = {}
        for u in c.lines:
            starts.setdefault(u.session, u.at)
        assert max((b - a).days for a, b in pairwise(sorted(starts.values()))) >= 60
        at = {u.tid: u.at for u in c.lines}
        returns = [q for q in c.questions if q.category == "return"]
        assert returns and all((at[q.gold[-1]] - at[q.gold[0]]).days >= 60 for q in returns)


def test_questions_have_one_to_four_gold_lines_and_multi_hop_ones_span_sessions(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        tids = {u.tid: u for u in c.lines}
        assert {q.category for q in c.questions} == set(CATEGORIES)
        for q in c.questions:
            assert 1 <= len(q.gold) <= 4 and all(t in tids for t in q.gold)
            assert all(tids[t].at < c.asked_at for t in q.gold)
            if q.category in ("multi-hop", "return"):
                assert len(q.gold) >= 2 and q.sessions == len(q.gold)


@pytest.mark.parametrize("language", sorted(WORDS))
def test_paraphrase_questions_share_no_word_with_their_evidence(language: str) -> None:
    w = WORDS[language]
    for story in w.stories:
        if story.category != "paraphrase":
            continue
        for student, tutor in zip(w.students, w.tutors, strict=True):
            question = story.question.format(s=student, t=tutor)
            for line in story.evidence:
                evidence = line.format(s=student, t=tutor)
                assert not _share_a_word(question, evidence), (question, evidence)


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_other_questions_share_a_word_with_some_evidence(language: str) -> None:
    """Single, multi-hop, return and dated questions are findable by their words."""
    w = WORDS[language]
    for story in w.stories:
        if story.category == "paraphrase":
            continue
        question = story.question.format(s=w.students[0], t=w.tutors[0], month="")
        bare = [line.split(": ", 1)[1] for line in story.evidence]
        assert any(_share_a_word(question, line) for line in bare), question


def test_a_dated_question_names_the_month_of_its_evidence(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        at = {u.tid: u.at for u in c.lines}
        for q in c.questions:
            if q.category == "dated":
                month = WORDS[c.language].months[at[q.gold[0]].month - 1]
                assert month in q.text
                assert (c.asked_at - at[q.gold[0]]).days < 365
