"""Recall: widen first (every pool reaches the whole history), then cut (SPEC §3)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.bench.long_conversations import cast
from tutor_memory.bench.long_words import WORDS
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import AnswerEvidence, Kind, NewEpisode, Pair
from tutor_memory.domain.recall import Mode
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory

from .conftest import CountingEmbedder

MARCH = datetime(2026, 3, 10, 16, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
FILLERS = (
    "Let's do more practice problems on fractions",
    "Can you check my homework on long division?",
    "I finished the reading about the French revolution",
    "What time is our next session?",
    "Thanks, see you tomorrow!",
)


def bury(memory: TutorMemory, pair: Pair, first: NewEpisode, newer: int = 600) -> str:
    """Write `first` in March, then `newer` unrelated episodes after it; return its id."""
    target = memory.record_many([first])[0].episode.episode_id
    memory.record_many(
        [
            NewEpisode(
                pair, "question", FILLERS[i % len(FILLERS)], MARCH + timedelta(days=1, hours=i)
            )  # type: ignore[arg-type]
            for i in range(newer)
        ]
    )
    return target


def ids(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [item.episode.episode_id for item in result.items]


def test_a_march_episode_behind_600_newer_ones_is_found_by_a_distinctive_word(
    pair: Pair, clock: FixedClock
) -> None:
    memory = TutorMemory(Ports(SqliteStore(), clock, index=EmbeddedIndex()))  # lexical pool only
    target = bury(
        memory,
        pair,
        NewEpisode(pair, "question", "Where does the Krebs cycle happen?", MARCH),  # type: ignore[arg-type]
    )
    result = memory.recall(pair, "Explain the Krebs cycle again", at=NOW)
    assert result.mode is Mode.RELEVANT
    assert ids(result)[0] == target
    assert result.items[0].pools == ("lexical",)
    assert result.pool_sizes["recent"] == 500  # the March episode was not among the recent


def test_a_march_episode_is_found_by_its_concept(pair: Pair, clock: FixedClock) -> None:
    memory = TutorMemory(Ports(SqliteStore(), clock))  # no index at all: the concept pool alone
    target = bury(
        memory,
        pair,
        NewEpisode(
            pair, "question", "Can you go over that again?", MARCH, concepts=("Mitochondria",)
        ),  # type: ignore[arg-type]
    )
    result = memory.recall(pair, "tell me about the mitochondria", at=NOW)
    assert result.concept_keys == ("mitochondria",)
    assert ids(result) == [target]
    assert result.items[0].pools == ("concept",)


def test_a_march_episode_is_found_by_meaning_in_another_language(
    memory: TutorMemory, pair: Pair
) -> None:
    target = bury(
        memory,
        pair,
        NewEpisode(
            pair, "answer", "La ósmosis es el paso del agua a través de una membrana.", MARCH
        ),  # type: ignore[arg-type]
    )
    result = memory.recall(pair, "What is osmosis?", at=NOW)
    assert result.terms == ("osmosi",)  # the English stem: no shared word with the Spanish
    assert ids(result)[0] == target  # relevance beats the 600 fresher fillers
    assert result.items[0].pools == ("semantic",)


def test_a_turn_embeds_the_question_once_and_nothing_without_one(
    memory: TutorMemory, embedder: CountingEmbedder, pair: Pair
) -> None:
    memory.record(pair, "question", "What is a cell?", at=MARCH)
    embedder.query_calls = 0
    memory.recall(pair, "What is a cell?", at=NOW)
    assert embedder.query_calls == 1
    memory.recall(pair, None, at=NOW)
    memory.recall(pair, "   ", at=NOW)
    assert embedder.query_calls == 1


def test_episode_vectors_are_computed_once_at_write_time(
    memory: TutorMemory, embedder: CountingEmbedder, pair: Pair
) -> None:
    memory.record(pair, "question", "What is a cell?", at=MARCH)
    assert embedder.passage_calls == 1
    for _ in range(3):
        memory.recall(pair, "cells", at=NOW)
    assert embedder.passage_calls == 1


def test_repeated_questions_collapse_with_their_count_and_span(
    memory: TutorMemory, pair: Pair
) -> None:
    for day in (1, 8, 20, 40):
        memory.record(pair, "question", "What is a cell?", at=MARCH + timedelta(days=day))
    memory.record(pair, "question", "What is osmosis?", at=MARCH + timedelta(days=50))
    result = memory.recall(pair, "what is a cell", at=NOW)
    top = result.items[0]
    assert top.episode.text == "What is a cell?" and top.count == 4
    assert top.first_at == MARCH + timedelta(days=1) and top.last_at == MARCH + timedelta(days=40)


def test_without_a_question_the_recent_past_comes_newest_first(
    memory: TutorMemory, pair: Pair
) -> None:
    for day in range(5):
        memory.record(pair, "question", f"question number {day}", at=MARCH + timedelta(days=day))
    result = memory.recall(pair, None, at=NOW)
    assert result.mode is Mode.RECENT_ONLY
    assert [i.episode.text for i in result.items][:2] == ["question number 4", "question number 3"]


def test_a_named_month_is_a_filter_and_an_empty_one_says_so(
    memory: TutorMemory, pair: Pair
) -> None:
    july = datetime(2026, 7, 14, 10, 0, tzinfo=UTC)
    memory.record(pair, "question", "Can we go over osmosis?", at=july, concepts=("Osmosis",))
    memory.record(pair, "question", "Osmosis again please", at=datetime(2026, 9, 2, tzinfo=UTC))
    in_july = memory.recall(pair, "what did we cover in July about osmosis?", at=NOW)
    assert in_july.window is not None and not in_july.window_empty
    assert [i.episode.at for i in in_july.items] == [july]
    in_august = memory.recall(pair, "what did we do in August?", at=NOW)
    assert in_august.window_empty and in_august.items == []


def test_a_time_in_a_statement_does_not_hide_the_earlier_lessons(
    memory: TutorMemory, pair: Pair
) -> None:
    september = datetime(2026, 9, 2, tzinfo=UTC)
    memory.record(pair, "question", "What is osmosis?", at=september, concepts=("Osmosis",))
    for text in [
        "I have a test on osmosis today, can you explain it again?",
        "Ayer estudié la ósmosis, ¿me la explicas otra vez?",
        "Kemarin saya belajar osmosis, bisa jelaskan lagi?",
    ]:
        result = memory.recall(pair, text, at=NOW)
        assert result.window is None and not result.window_empty, text
        assert [i.episode.at for i in result.items] == [september], text


def test_since_a_month_is_everything_from_its_start(memory: TutorMemory, pair: Pair) -> None:
    memory.record(pair, "question", "What is osmosis?", at=datetime(2026, 2, 20, tzinfo=UTC))
    later = datetime(2026, 9, 2, tzinfo=UTC)
    memory.record(pair, "question", "Osmosis in plants?", at=later)
    result = memory.recall(pair, "What have we covered since March?", at=NOW)
    assert result.window is not None and result.window.label == "since March 2026"
    assert [i.episode.at for i in result.items] == [later]


def test_a_narration_is_never_recalled_for_its_month(memory: TutorMemory, pair: Pair) -> None:
    july = datetime(2026, 7, 14, 10, 0, tzinfo=UTC)
    source = memory.record(pair, "question", "What is osmosis?", at=july).episode
    memory.record(
        pair,
        "answer",
        "In July we covered osmosis: water crossing a membrane.",
        at=datetime(2026, 7, 30, tzinfo=UTC),
        recalled_ids=[source.episode_id],
    )
    result = memory.recall(pair, "what did we cover in July?", at=NOW)
    assert ids(result) == [source.episode_id]


def test_recall_never_returns_another_pairs_episodes(memory: TutorMemory, pair: Pair) -> None:
    other = Pair("student-2", "biology")
    memory.record(other, "question", "What is osmosis?", at=MARCH)
    mine = memory.record(pair, "question", "What is osmosis?", at=MARCH).episode
    result = memory.recall(pair, "osmosis", at=NOW)
    assert ids(result) == [mine.episode_id]


def test_recall_as_of_a_past_time_knows_nothing_after_it(memory: TutorMemory, pair: Pair) -> None:
    memory.record(pair, "question", "What is osmosis?", at=MARCH)
    memory.record(pair, "question", "Osmosis in plants?", at=MARCH + timedelta(days=60))
    result = memory.recall(pair, "osmosis", at=MARCH + timedelta(days=1))
    assert [i.episode.at for i in result.items] == [MARCH]


SMALL_TALK = (
    "Maya: haha ok",
    "Maya: good morning!",
    "Maya: thanks, that helps",
    "Maya: can we start?",
    "Maya: I'm back, sorry I was late",
    "Maya: lol that's funny",
)


def test_a_speakers_name_in_every_line_does_not_put_small_talk_first(
    memory: TutorMemory, pair: Pair
) -> None:
    """The name matches every line; the question is about the ER visit months ago."""
    visit = NewEpisode(pair, "question", "Maya: I had to go to the ER after my fall", MARCH)  # type: ignore[arg-type]
    target = memory.record_many([visit])[0].episode.episode_id
    memory.record_many(
        [
            NewEpisode(
                pair,
                "question",
                f"{SMALL_TALK[i % len(SMALL_TALK)]} ({i})",
                MARCH + timedelta(days=1 + i),
            )  # type: ignore[arg-type]
            for i in range(120)
        ]
    )
    result = memory.recall(pair, "Maya: why did I end up in the ER?", at=NOW)
    assert ids(result)[0] == target
    # Lines that share only the name are not memories of the question: the gate lets through
    # only the few nearest by meaning (what plain fusion would show is kept, but below them).
    passed = [i for i in result.items if not i.demoted]
    assert len(passed) <= 1 + C.RECALL_SEMANTIC_MATCHES * 2
    assert all(i.demoted for i in result.items[len(passed) :])
    assert result.mode is Mode.RELEVANT


def test_recall_hands_over_every_matching_memory_the_budget_could_hold(
    memory: TutorMemory, pair: Pair
) -> None:
    """Sixty different osmosis questions among 600 others: none is cut by a fixed count."""
    bury(memory, pair, NewEpisode(pair, "question", "Thanks!", MARCH))  # type: ignore[arg-type]
    memory.record_many(
        [
            NewEpisode(
                pair,
                "question",
                f"Osmosis question number {i}: why does water move {i}?",
                MARCH + timedelta(days=i),
            )  # type: ignore[arg-type]
            for i in range(60)
        ]
    )
    result = memory.recall(pair, "What is osmosis?", at=NOW)
    assert len(result.items) == 60


# A question in another language about an English-only memory, sharing no word with it.
ACROSS = {
    "ur": "خلیے کی جھلی کیا کام کرتی ہے؟",
    "ar": "ما وظيفة الغشاء الذي يحيط بالخلية؟",
    "es": "¿Para qué sirve la capa que rodea la célula?",
    "id": "Apa fungsi selaput yang membungkus sel?",
}


@pytest.mark.parametrize("lang", sorted(ACROSS))
@pytest.mark.parametrize("copies", [30, C.RECALL_SEMANTIC_K // 2 + 10], ids=["30", "pool"])
def test_a_meaning_across_languages_is_found_behind_nine_copies_of_another_question(
    memory: TutorMemory, pair: Pair, lang: str, copies: int
) -> None:
    """The trap of the held-out set: copies of two repeated questions near it in meaning fill
    every nearest slot by episode (60 of them, or more than the semantic pool's k: the pool
    counts texts, not copies), and nine copies of an unrelated one stand beside; the English
    membrane memory, a few texts down and out of the recent pool, must still be recalled and
    pass the gate."""
    target = bury(
        memory,
        pair,
        NewEpisode(
            pair,
            "answer",
            "The cell membrane controls what goes in and out of the cell.",
            MARCH,
        ),  # type: ignore[arg-type]
        newer=300,
    )
    repeated = [("What is a cell?", copies), ("What does the cell wall do?", copies)]
    repeated.append(("Can you give me a harder example?", 9))
    memory.record_many(
        [
            NewEpisode(pair, "question", text, MARCH + timedelta(days=40 + i, hours=n))  # type: ignore[arg-type]
            for n, (text, copies) in enumerate(repeated)
            for i in range(copies)
        ]
    )
    result = memory.recall(pair, ACROSS[lang], at=NOW)
    assert not set(result.terms) & {"cell", "membran", "control"}  # no word shared
    found = {i.episode.episode_id: i for i in result.items}
    assert target in found and not found[target].demoted
    assert ids(result).index(target) < 5


def _chatty_pair(
    memory: TutorMemory, lang: str, discussion: Sequence[str] = ()
) -> tuple[Pair, str, str, set[str]]:
    """A long chat in ``lang`` made of the long bench's words (bench/long_words.py): every
    greeting, thanks, goodbye and bit of small talk of its student and tutor, most with a
    name before them, and the subject's questions and explanations, all said twice over two
    months; before them, once, a fact about the student's pet. Returns the pair, the fact's
    id, the question about it in other words, and the small talk's texts."""
    words = WORDS[lang]
    people = cast(words, 0)

    def fill(template: str) -> str:
        return people.fill(template, day=words.days[0], c=words.subjects[0].concepts[0][0])

    lines: list[tuple[Kind, str]] = []
    small_talk: set[str] = set()
    for template in [*words.greet_student, *words.ack, *words.bye_student]:
        said = [f"{people.student}: {fill(template)}", fill(template)]
        lines += [(Kind.QUESTION, text) for text in said]
        small_talk.update(said)
    lines += [(Kind.QUESTION, f"{people.student}: {fill(t)}") for t in words.small_talk]
    lines += [(Kind.QUESTION, fill(t)) for t in words.small_talk]
    for template in [*words.greet_tutor, *words.bye_tutor, *words.tutor_prompts, *words.reaction]:
        lines.append((Kind.ANSWER, f"{people.tutor}: {fill(template)}"))
        small_talk.add(lines[-1][1])
    for concept, explanation in words.subjects[0].concepts:
        lines += [
            (Kind.QUESTION, f"{people.student}: {a.format(c=concept)}") for a in words.ask[:2]
        ]
        lines.append((Kind.ANSWER, explanation))
    pet = next(s for s in words.stories if s.key == "pet")
    pair = Pair(f"chatty-{lang}", "conversation")
    fact = NewEpisode(pair, Kind.QUESTION, fill(pet.evidence[0]), MARCH)
    said = [
        NewEpisode(
            pair,
            kind,
            text,
            MARCH + timedelta(days=10 + 60 * rep + n // 8, minutes=n),
            evidence=AnswerEvidence() if kind is Kind.ANSWER else None,
        )
        for rep in range(2)
        for n, (kind, text) in enumerate(lines)
    ]
    talk = [
        NewEpisode(pair, Kind.QUESTION, line, MARCH + timedelta(minutes=1 + n))
        for n, line in enumerate(discussion)
    ]  # the rest of the session the fact was told in, when given
    target = memory.record_many([fact, *talk, *said])[0].episode.episode_id
    return pair, target, people.fill(pet.question), small_talk


@pytest.mark.parametrize("lang", ["en", "es", "id", "ur", "ar"])
def test_small_talk_with_the_students_name_does_not_stand_above_a_fact_said_once(
    memory: TutorMemory, lang: str
) -> None:
    """The long chats' trap: a short line that carries the student's name stands near every
    question about them by meaning, because it stands near everything the pair says. The
    near rule reads each cosine less its text's crowding, so the greetings and thanks that
    stood above the pet's line (11 to 16 of them in each language before) no longer do."""
    pair, target, question, small_talk = _chatty_pair(memory, lang)
    result = memory.recall(pair, question, at=NOW)
    found = ids(result)
    assert target in found and not result.items[found.index(target)].demoted
    above = [i.episode.text for i in result.items[: found.index(target)]]
    assert len([t for t in above if t in small_talk]) <= 5


DOG_TALK = (
    "Maya: super friendly, he sleeps on my bed every night",
    "Maya: he loves chasing tennis balls in the park",
    "Maya: we take him for a long walk every Sunday",
    "Maya: he can sit, roll over and give a paw",
    "Maya: he stole a sausage from the table last week haha",
    "Maya: the vet said he needs to lose a bit of weight",
    "Maya: my brother taught him to bring the newspaper",
    "Maya: he gets scared of thunder and hides under the stairs",
    "Maya: he snores so loudly when he sleeps",
    "Maya: he was so tiny when we got him as a puppy",
)


def test_a_fact_told_in_a_long_talk_about_it_is_not_taken_for_small_talk(
    memory: TutorMemory,
) -> None:
    """The crowding's risk: a fact told among ten more lines on its topic stands in a dense
    neighbourhood too. Those lines are near one another but not near everything the pair says,
    so the fact still passes the gate ahead of the greetings (16th before, under five of them)."""
    pair, target, question, small_talk = _chatty_pair(memory, "en", DOG_TALK)
    result = memory.recall(pair, question, at=NOW)
    found = ids(result)
    assert target in found[:5] and not result.items[found.index(target)].demoted
    assert not {i.episode.text for i in result.items[: found.index(target)]} & small_talk


class _CountingIndex(EmbeddedIndex):
    def __init__(self) -> None:
        super().__init__()
        self.vector_reads = 0

    def vectors(self, pair: Pair, episode_ids: Sequence[str]) -> dict[str, Any]:
        self.vector_reads += 1
        return super().vectors(pair, episode_ids)


@pytest.mark.parametrize("distinct", [10, C.RECALL_GATE_MIN_DOCUMENTS + 10])
def test_the_crowds_vectors_are_read_only_where_there_is_a_crowd(
    embedder: CountingEmbedder, clock: FixedClock, pair: Pair, distinct: int
) -> None:
    """120 lines: ten texts said over and over are no crowd to measure (the rule reads no
    crowding, and a cloud index is not asked for their vectors); sixty texts are."""
    index = _CountingIndex()
    memory = TutorMemory(Ports(SqliteStore(), clock, index=index, embedder=embedder))
    memory.record_many(
        [
            NewEpisode(
                pair, "question", f"{FILLERS[i % 5]} ({i % distinct})", MARCH + timedelta(hours=i)
            )  # type: ignore[arg-type]
            for i in range(120)
        ]
    )
    memory.recall(pair, "What is osmosis?", at=NOW)
    assert index.vector_reads == (0 if distinct < C.RECALL_GATE_MIN_DOCUMENTS else 1)
