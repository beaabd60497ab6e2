"""The long, hard synthetic conversations of the recall bench: seeded, in five languages, with
what real long chats have (a cast, repetition, gaps, replies, paraphrases, evidence over several
sessions, near misses) and questions whose gold is right."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from itertools import pairwise
from typing import Any

import pytest

from tutor_memory.bench.conversations import Conversation
from tutor_memory.bench.long_conversations import (
    PLAN,
    SESSION_LINES,
    Cast,
    cast,
    generate_long_conversations,
)
from tutor_memory.bench.long_first_person import FIRST_PERSON
from tutor_memory.bench.long_words import CATEGORIES, WORDS, content_words, words

MAX_DISTINCT_TEXTS = 5_000


@pytest.fixture(
    scope="module",
    params=[(False, False), (True, False), (False, True)],
    ids=["lines", "long-answers", "merged-turns"],
)
def conversations(request: pytest.FixtureRequest) -> list[Conversation]:
    """Every shape: every rule below holds whether the tutor explains in a line or in a
    paragraph (``--long-answers``) and whether the student tells a fact alone or inside a
    longer message (``--merged-turns``)."""
    long_answers, merged_turns = request.param
    return generate_long_conversations(7, long_answers=long_answers, merged_turns=merged_turns)


def _casts(conversations: list[Conversation]) -> list[Cast]:
    seen: Counter[str] = Counter()
    casts = []
    for c in conversations:
        casts.append(cast(WORDS[c.language], seen[c.language]))
        seen[c.language] += 1
    return casts


def _share_a_word(language: str, names: tuple[str, ...], question: str, line: str) -> bool:
    """A shared content word, or two of four letters or more that begin alike (exam, exams)."""
    asked = content_words(question, language, names)
    said = content_words(line, language, names)
    if asked & said:
        return True
    return any(a[:4] == s[:4] for a in asked for s in said if len(a) >= 4 and len(s) >= 4)


def test_the_same_seed_gives_the_same_conversations() -> None:
    conversations = generate_long_conversations(7)
    assert generate_long_conversations(7) == conversations
    assert generate_long_conversations(7, long_answers=False) == conversations
    assert generate_long_conversations(8) != conversations
    paragraphs = generate_long_conversations(7, long_answers=True)
    assert generate_long_conversations(7, long_answers=True) == paragraphs
    assert paragraphs != conversations


def test_pairs_speak_five_languages_within_the_plan(conversations: list[Conversation]) -> None:
    assert {c.language for c in conversations} == set(WORDS) == {"en", "es", "id", "ur", "ar"}
    assert 6 <= len(PLAN) <= 10
    assert [str(c.pair) for c in conversations] == [
        f"long{i}-{language}/conversation" for i, (language, _) in enumerate(PLAN, start=1)
    ]
    for c, (_language, size) in zip(conversations, PLAN, strict=True):
        assert 400 <= size <= 1_200
        assert size <= len(c.lines) <= size + 40, c.pair


def test_the_distinct_texts_stay_few_enough_to_embed_in_minutes(
    conversations: list[Conversation],
) -> None:
    texts = {u.text for c in conversations for u in c.lines}
    texts |= {q.text for c in conversations for q in c.questions}
    assert len(texts) < MAX_DISTINCT_TEXTS


def test_sessions_of_10_to_40_lines_over_months_with_one_gap_of_two_months(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        sizes = Counter(u.session for u in c.lines)
        assert sorted(sizes) == list(range(len(sizes)))
        assert all(SESSION_LINES[0] <= n <= SESSION_LINES[1] for n in sizes.values()), c.pair
        starts: dict[int, datetime] = {}
        for u in c.lines:
            starts.setdefault(u.session, u.at)
        days = [start.date() for start in starts.values()]
        assert days == sorted(days) and len(set(days)) == len(days)  # one session a day at most
        gaps = [(b - a).days for a, b in pairwise(days)]
        assert sum(gap >= 60 for gap in gaps) == 1, c.pair
        assert any(14 <= gap < 60 for gap in gaps), c.pair
        assert (days[-1] - days[0]).days >= 100
        assert (c.asked_at.date() - days[-1]).days == 1
        assert [u.at for u in c.lines] == sorted(u.at for u in c.lines)


def test_most_lines_carry_the_speakers_name_and_the_cast_recurs(
    conversations: list[Conversation],
) -> None:
    for c, people in zip(conversations, _casts(conversations), strict=True):
        assert (c.student, c.tutor) == (people.student, people.tutor)
        named = sum(u.text.startswith((f"{c.student}: ", f"{c.tutor}: ")) for u in c.lines)
        assert 0.75 <= named / len(c.lines) < 0.97, c.pair
        for other in (people.sister, people.friend, people.coach, people.pet):
            sessions = {u.session for u in c.lines if other in u.text}
            assert len(sessions) >= 4, (c.pair, other)


def test_small_talk_repeats_and_a_favourite_question_comes_back_word_for_word(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        asked = Counter(u.text for u in c.lines if u.role == "student")
        favourite, times = asked.most_common(1)[0]
        assert times >= 6, c.pair
        sessions = {u.session for u in c.lines if u.text == favourite}
        assert len(sessions) >= 5, c.pair
        # far fewer distinct texts than lines; near-duplicates differ only in punctuation
        assert len(set(u.text for u in c.lines)) < 0.6 * len(c.lines)
        bare = Counter(re.sub(r"[.!?۔؟]+$", "", u.text) for u in c.lines)
        assert len(bare) < len({u.text for u in c.lines})


def test_every_category_in_every_pair_and_gold_lines_are_unique(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        assert {q.category for q in c.questions} == set(CATEGORIES), c.pair
        assert 15 <= len(c.questions) <= 25
        assert len({q.qid for q in c.questions}) == len(c.questions)
        said = Counter(u.text for u in c.lines)
        tids = {u.tid: u for u in c.lines}
        assert len(tids) == len(c.lines)
        for q in c.questions:
            assert 1 <= len(q.gold) <= 4 and all(t in tids for t in q.gold), q.qid
            assert all(tids[t].at < c.asked_at for t in q.gold)
            assert all(said[tids[t].text] == 1 for t in q.gold), q.qid
            assert q.sessions == len({tids[t].session for t in q.gold})
        # no line is gold for two questions
        gold = [t for q in c.questions for t in q.gold]
        assert len(gold) == len(set(gold))


def test_multi_session_evidence_spans_two_to_four_sessions(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        for q in c.questions:
            if q.category == "multi-session":
                assert 2 <= q.sessions == len(q.gold) <= 4, q.qid
            elif q.category == "return":
                assert q.sessions == len(q.gold) == 2, q.qid
            else:
                assert q.sessions == len(q.gold) == 1, q.qid


def test_paraphrase_and_reply_questions_share_no_content_word_with_their_gold(
    conversations: list[Conversation],
) -> None:
    for c, people in zip(conversations, _casts(conversations), strict=True):
        text = {u.tid: u.text for u in c.lines}
        for q in c.questions:
            if q.category in ("paraphrase", "reply"):
                for t in q.gold:
                    assert not _share_a_word(c.language, people.names, q.text, text[t]), (
                        q.text,
                        text[t],
                    )


@pytest.mark.parametrize("first_person", [False, True], ids=["named", "first-person"])
@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_words_keep_their_promises_for_every_cast(language: str, first_person: bool) -> None:
    """Checked on the templates with every cast, not only the ones a plan happens to use; the
    questions in the student's own words keep the same promises."""
    w = WORDS[language]
    for nth in range(len(w.students)):
        people = cast(w, nth)
        for story in w.stories:
            template = FIRST_PERSON[language][story.key] if first_person else story.question
            question = people.fill(template, month=w.months[0])
            evidence = [people.fill(e) for e in story.evidence]
            if story.category in ("paraphrase", "reply"):
                for line in evidence:
                    assert not _share_a_word(language, people.names, question, line), line
            if story.category in ("single", "return", "dated"):
                assert any(_share_a_word(language, people.names, question, e) for e in evidence)
            # a reply answers a line of the other speaker, which holds the question's topic
            assert bool(story.prompt) == (story.category == "reply")
            if story.prompt:
                prompt = people.fill(story.prompt)
                assert story.prompt.startswith("{t}") != story.evidence[0].startswith("{t}")
                assert _share_a_word(language, people.names, question, prompt), prompt
            # a near miss shares the question's words and is no evidence
            near = [people.fill(n, day=w.days[0]) for n in story.near]
            assert near and not set(near) & set(evidence)
            assert any(_share_a_word(language, people.names, question, n) for n in near), story


def test_a_reply_follows_the_line_it_answers(conversations: list[Conversation]) -> None:
    for c, people in zip(conversations, _casts(conversations), strict=True):
        index = {u.tid: i for i, u in enumerate(c.lines)}
        for story, q in zip(WORDS[c.language].stories, c.questions, strict=True):
            if q.category == "reply":
                i = index[q.gold[0]]
                asked, reply = c.lines[i - 1], c.lines[i]
                prompt = people.fill(story.prompt)  # inside a longer message when merged
                assert asked.text == prompt or prompt.split(": ", 1)[1] in asked.text, q.qid
                assert asked.session == reply.session and asked.role != reply.role, q.qid


def test_near_misses_are_said_once_in_other_sessions(conversations: list[Conversation]) -> None:
    for c, people in zip(conversations, _casts(conversations), strict=True):
        w = WORDS[c.language]
        said = Counter(u.text for u in c.lines)
        for story, q in zip(w.stories, c.questions, strict=True):
            gold = {u.session for u in c.lines if u.tid in q.gold}
            gold_months = {u.at.month for u in c.lines if u.tid in q.gold}
            for template in story.near:
                near = {people.fill(template, day=day).split(": ", 1)[-1] for day in w.days}
                # the line itself, or a message that holds it (merged turns)
                found = [u for u in c.lines if any(n in u.text for n in near)]
                assert len(found) == 1 and said[found[0].text] == 1, template
                assert found[0].session not in gold
                if q.category == "dated":
                    assert found[0].at.month not in gold_months


def test_the_long_gap_splits_every_return_story(conversations: list[Conversation]) -> None:
    for c in conversations:
        at = {u.tid: u.at for u in c.lines}
        for q in c.questions:
            if q.category == "return":
                assert (at[q.gold[-1]] - at[q.gold[0]]).days >= 60, q.qid


def test_a_dated_question_names_the_month_of_its_evidence(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        months = [m.casefold() for m in WORDS[c.language].months]
        at = {u.tid: u.at for u in c.lines}
        dated = [q for q in c.questions if q.category == "dated"]
        assert 1 <= len(dated) <= len(c.questions) // 4
        for q in dated:
            month = at[q.gold[0]].month
            said = set(words(q.text, c.language))
            assert months[month - 1] in said
            assert not any(m in said for k, m in enumerate(months, start=1) if k != month)
            assert (c.asked_at - at[q.gold[0]]).days < 365
        for q in c.questions:
            if q.category != "dated":
                assert not set(months) & set(words(q.text, c.language)), q.text


def test_paraphrased_facts_are_said_early_and_asked_much_later(
    conversations: list[Conversation],
) -> None:
    for c in conversations:
        last = c.lines[-1].session
        session = {u.tid: u.session for u in c.lines}
        for q in c.questions:
            if q.category == "paraphrase":
                assert session[q.gold[0]] < last / 2, q.qid


@pytest.mark.parametrize("language", ["ur", "ar"])
def test_urdu_and_arabic_are_written_in_their_own_script(
    language: str, conversations: list[Conversation]
) -> None:
    texts = [u.text for c in conversations if c.language == language for u in c.lines]
    texts += [q.text for c in conversations if c.language == language for q in c.questions]
    assert texts
    urdu_only = set("ٹڈڑںےگچپژھہۓیک")  # Arabic writes ي ك ه where Urdu writes ی ک ہ
    arabic_only = set("يكةه")
    for text in texts:
        assert not re.search(r"[A-Za-z]", text), text
        assert not any(unicodedata.category(ch) == "Mn" for ch in text), text  # no harakat
    letters = set("".join(texts))
    if language == "ur":
        assert letters & urdu_only and not letters & arabic_only
    else:
        assert letters & arabic_only and not letters & urdu_only


def test_arabic_words_drop_their_article_and_and() -> None:
    assert words("والكتاب للمكتبة الكتاب", "ar") == ["كتاب", "مكتبة", "كتاب"]
    assert words("Maya's DOG", "en") == ["maya", "s", "dog"]
    assert content_words("What did Maya's dog do?", "en", ["Maya"]) == {"dog"}


def test_with_long_answers_the_tutor_explains_in_paragraphs() -> None:
    """As a chat model writes: the concept asked about first, two to five more of the subject,
    a check on the first last; a quarter to a third of a pair's distinct texts are such."""
    for c, people in zip(
        paragraphs := generate_long_conversations(7, long_answers=True),
        _casts(paragraphs),
        strict=True,
    ):
        concepts = {e: name for s in WORDS[c.language].subjects for name, e in s.concepts}
        found = 0
        for asked, answer in pairwise(c.lines):
            text = answer.text.removeprefix(f"{people.tutor}: ")
            told = [e for e in concepts if e in text]
            if answer.role != "tutor" or len(told) < 3:
                continue
            found += 1
            first = next(e for e in told if text.startswith(e))
            assert asked.role == "student"
            assert concepts[first].casefold() in asked.text.casefold()
            assert 3 <= len(told) <= 6
            assert any(
                text.endswith(check.replace("{c}", concepts[first]))
                for check in WORDS[c.language].check
            )
        distinct = {u.text for u in c.lines}
        long_texts = {u.text for u in c.lines if len(u.text.split()) > 30}
        assert found > 0
        assert 0.15 <= len(long_texts) / len(distinct) <= 0.5, c.pair


def test_with_merged_turns_the_student_tells_a_fact_inside_a_longer_message() -> None:
    """As students write: small talk before the fact, a question on the subject after it, or
    both, in one message; the fact itself is said as in the plain shape."""
    merged = generate_long_conversations(7, merged_turns=True)
    longer = 0
    for c, people in zip(merged, _casts(merged), strict=True):
        w = WORDS[c.language]
        by_tid = {u.tid: u for u in c.lines}
        for story, q in zip(w.stories, c.questions, strict=True):
            for j, tid in enumerate(q.gold):
                said = by_tid[tid]
                if said.role != "student":
                    continue
                facts = {people.fill(story.evidence[j], day=d).split(": ", 1)[1] for d in w.days}
                fact = next(f for f in facts if f in said.text)
                assert said.text.startswith(f"{people.student}: ")
                longer += len(said.text) > len(f"{people.student}: {fact}") + 1
    assert longer > 100  # nearly every fact the student tells (a few have nothing to add)


def test_in_the_first_person_the_same_history_is_asked_in_the_students_words() -> None:
    """The turn's question is the student's own message: the same lines, the same evidence,
    every question reworded and naming no one."""
    named = generate_long_conversations(7)
    own = generate_long_conversations(7, first_person=True)
    for a, b, people in zip(named, own, _casts(named), strict=True):
        assert a.lines == b.lines and a.asked_at == b.asked_at
        assert [(q.qid, q.gold, q.category, q.sessions) for q in a.questions] == [
            (q.qid, q.gold, q.category, q.sessions) for q in b.questions
        ]
        assert set(FIRST_PERSON[b.language]) == {s.key for s in WORDS[b.language].stories}
        for before, after in zip(a.questions, b.questions, strict=True):
            assert before.text != after.text
            assert not any(name in after.text for name in (people.student, people.tutor))
            if after.category == "dated":  # still names its month, the same one
                months = WORDS[b.language].months
                named_in = [m for m in months if re.search(rf"\b{m}\b", before.text)]
                assert named_in and all(re.search(rf"\b{m}\b", after.text) for m in named_in)


def test_without_speaker_names_the_same_lines_are_recorded_as_the_product_records_them() -> None:
    """No line begins with its speaker's name (the episode's kind says who spoke); the name is
    left only where someone says it, in a greeting or a story."""
    named = generate_long_conversations(7)
    plain = generate_long_conversations(7, speaker_names=False)
    for a, b, people in zip(named, plain, _casts(named), strict=True):
        assert a.questions == b.questions and a.asked_at == b.asked_at
        assert [(u.tid, u.role, u.at) for u in a.lines] == [(u.tid, u.role, u.at) for u in b.lines]
        for before, after in zip(a.lines, b.lines, strict=True):
            speaker = people.student if before.role == "student" else people.tutor
            assert not after.text.startswith(f"{speaker}: ")
            assert before.text in (after.text, f"{speaker}: {after.text}")
        said = [u.text for u in b.lines]
        assert any(people.student in text for text in said)  # "Hi Maya! How are you today?"
        assert sum(people.student in text for text in said) < len(said) / 5


@pytest.mark.parametrize("language", ["en", "es", "id", "ur", "ar"])
def test_an_echoing_tutor_says_the_students_news_back_in_every_language(language: str) -> None:
    """As a chat model answers news: the same history, but the tutor's reply to a student's
    line says that line's word back ("Oh, pottery? Tell me more about that.") where the plain
    set's tutor says "I see."; the questions and their gold stay as they were."""
    plain = [c for c in generate_long_conversations(7) if c.language == language]
    echo = [c for c in generate_long_conversations(7, echoing_tutor=True) if c.language == language]
    echoed = 0
    for a, b, people in zip(plain, echo, _casts(plain), strict=True):
        assert a.questions == b.questions and a.asked_at == b.asked_at
        assert [(u.tid, u.role, u.at) for u in a.lines] == [(u.tid, u.role, u.at) for u in b.lines]
        assert a.lines[0] == b.lines[0]
        for i in range(1, len(a.lines)):
            before, after, line = a.lines[i], b.lines[i], b.lines[i - 1]
            if after.text == before.text:
                continue
            assert before.role == "tutor" and line.role == "student"  # only replies changed
            news = content_words(line.text, language, people.names)
            assert news & set(words(after.text, language)), (line.text, after.text)
            echoed += 1
    assert echoed > 60  # a reply to most of a pair's news and small talk


def _real_lines(**shape: bool) -> Iterator[tuple[Conversation, Cast, list[tuple[Any, Any]]]]:
    """Each English pair of the shape with real talk, its cast and its changed lines (plain
    line, real line), once what holds for every such shape is checked: seeded; the same
    questions, gold, times and sessions as the plain set; no gold line changed; the other
    languages' pairs the plain set's line for line."""
    plain = generate_long_conversations(7)
    real = generate_long_conversations(7, **shape)
    assert generate_long_conversations(7, **shape) == real  # seeded
    for a, b, people in zip(plain, real, _casts(plain), strict=True):
        assert a.questions == b.questions and a.asked_at == b.asked_at
        assert [(u.tid, u.at, u.session) for u in a.lines] == [
            (u.tid, u.at, u.session) for u in b.lines
        ]
        changed = [(x, y) for x, y in zip(a.lines, b.lines, strict=True) if x.text != y.text]
        if a.language != "en":
            assert not changed
            continue
        gold = {t for q in b.questions for t in q.gold}
        assert not gold & {after.tid for _before, after in changed}
        yield b, people, changed


@cache
def _archive() -> tuple[set[str], set[tuple[str, str]]]:
    """Every turn of the chat archive, and every two turns one after the other in a chat."""
    from tutor_memory.bench.real_small_talk import chats

    turns = {turn for chat in chats() for turn in chat}
    following = {(chat[i], chat[i + 1]) for chat in chats() for i in range(len(chat) - 1)}
    return turns, following


def test_real_small_talk_puts_real_peoples_chats_in_the_english_pairs_small_talk() -> None:
    """``--real-small-talk``: the same history, but each small-talk exchange of an English
    pair is two turns of one real chat (chitchat-dataset), in the chat's order, the speakers
    named as before; every other line, every question and its gold stay as they were, and the
    other languages' pairs are the plain set's line for line."""
    turns, following = _archive()
    plain = {c.pair: c for c in generate_long_conversations(7)}
    for b, people, changed in _real_lines(real_small_talk=True):
        a = plain[b.pair]
        assert [(u.tid, u.role) for u in a.lines] == [(u.tid, u.role) for u in b.lines]
        assert len(changed) > len(a.lines) / 10
        heard = []
        for before, after in changed:
            speaker = people.student if after.role == "student" else people.tutor
            named = before.text.startswith(f"{speaker}: ")
            said = after.text.removeprefix(f"{speaker}: ") if named else after.text
            assert after.text.startswith(f"{speaker}: ") == named
            assert said in turns, said  # a real turn, as the chat has it
            heard.append((after.role, said))
        # in a chat's own order: a student's turn, then the next one by the tutor
        assert all(
            s[0] == "student" and t[0] == "tutor" and (s[1], t[1]) in following
            for s, t in zip(heard[::2], heard[1::2], strict=True)
        )


def test_real_chat_puts_real_peoples_chats_in_every_filler_line_of_the_english_pairs() -> None:
    """``--real-chat``: every filler line of an English pair (study talk, prompts, small talk)
    is the next turn of a real chat, said by whichever of its two speakers says it there; the
    stories, their near misses, the people of the student's life, the greetings and goodbyes,
    every question and its gold stay as they were; the other languages' pairs are unchanged."""
    turns, following = _archive()
    for b, people, changed in _real_lines(real_chat=True):
        assert len(changed) > len(b.lines) / 2  # most of the pair is real chat
        said = []
        for _before, after in changed:
            speaker = people.student if after.role == "student" else people.tutor
            words = after.text.removeprefix(f"{speaker}: ")
            assert words in turns, words
            said.append((after.session, words))
        # within a session the real lines follow their chats' order for the most part (a chat
        # that runs out gives way to the next)
        pairs = [(s, t) for (n, s), (m, t) in pairwise(said) if n == m]
        assert sum((s, t) in following for s, t in pairs) > 0.8 * len(pairs)
