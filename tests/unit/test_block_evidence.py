"""The block shows what recall found: excerpts of long episodes (five languages), near-identical
lines made one, distinct sessions preferred when the budget cuts, the budget held, the same
text for the same inputs, and the fitting's running sum."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from tests.unit.test_block import (
    MAP,
    NOW,
    PLENTY,
    at,
    episode,
    recalled,
    work_lines,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.block import (
    FOOTER,
    HEADER,
    MemoryBlock,
    _fit,
    _Section,
    build_block,
    diverse_order,
    fill_order,
    merge_near_identical,
    work_line,
)
from tutor_memory.domain.episodes import AnswerEvidence, CheckEvidence, Episode, Kind
from tutor_memory.domain.excerpt import excerpt, sentences
from tutor_memory.domain.mapblock import MapSection
from tutor_memory.domain.question import understand
from tutor_memory.domain.recall import Mode, RecalledItem, RecallResult
from tutor_memory.domain.tokens import count_tokens


def terms_of(question: str) -> tuple[str, ...]:
    return understand(question, NOW, UTC).terms


def recall_with(
    items: Sequence[RecalledItem], question: str, mode: Mode = Mode.RELEVANT
) -> RecallResult:
    best_first = sorted(items, key=lambda i: i.score, reverse=True)
    return RecallResult(best_first, mode, None, False, terms_of(question), (), {}, {})


def block_for(
    question: str,
    items: Sequence[RecalledItem],
    *,
    budget: int = PLENTY,
    mode: Mode = Mode.RELEVANT,
    count: Callable[[str], int] = count_tokens,
    map_section: MapSection | None = None,
) -> MemoryBlock:
    return build_block(
        question=understand(question, NOW, UTC),
        recall=recall_with(items, question, mode),
        beliefs=[],
        map_section=map_section,
        changed_files={},
        checks_recorded=0,
        budget_tokens=budget,
        now=NOW,
        count=count,
    )


def long_episode(seq: int, kind: Kind, text: str, when: datetime | None = None) -> Episode:
    """An episode whose summary is its text's first line cut to the limit, as the log makes
    one."""
    ep = episode(seq, kind, when or at(8, 6), text)
    summary = text if len(text) <= C.MAX_SUMMARY_CHARS else text[:199].rstrip() + "…"
    evidence = AnswerEvidence() if kind is Kind.ANSWER else ep.evidence
    return replace(ep, summary=summary, evidence=evidence)


# --- sentences ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Osmosis is slow. Is it? Yes! Next…", ("Osmosis is slow.", "Is it?", "Yes!", "Next…")),
        ("The pH is 7.4 today.\nSee example.com", ("The pH is 7.4 today.", "See example.com")),
        (
            "¡Muy bien! ¿Qué es la ósmosis? Es el paso del agua.",
            ("¡Muy bien!", "¿Qué es la ósmosis?", "Es el paso del agua."),
        ),
        (
            "Estudiamos la célula ¿Recuerdas el núcleo? Hola, ¿Qué tal? Hola ¿qué tal?",
            ("Estudiamos la célula", "¿Recuerdas el núcleo?", "Hola, ¿Qué tal?", "Hola ¿qué tal?"),
        ),
        ("Bagus sekali. Ribosom membuat protein!", ("Bagus sekali.", "Ribosom membuat protein!")),
        ("بہت اچھا۔ کیا آپ کو یاد ہے؟ ٹھیک ہے", ("بہت اچھا۔", "کیا آپ کو یاد ہے؟", "ٹھیک ہے")),
        ("أحسنت، لنبدأ. هل تذكر النواة؟نعم", ("أحسنت، لنبدأ.", "هل تذكر النواة؟", "نعم")),
        ("الخلية لها غشاء، وهو رقيق، ونواة", ("الخلية لها غشاء، وهو رقيق، ونواة",)),
    ],
)
def test_sentences_end_where_each_language_ends_them(text: str, expected: tuple[str, ...]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize("marks", [".", "?!", "…", ".)"])
def test_a_message_of_marks_that_end_nothing_is_one_sentence(marks: str) -> None:
    # 20,000 marks not followed by a space end no sentence. They were retried from each mark
    # at each length: a message of 19,000 dots cost the next turn's block 7.5 s of CPU (the
    # turn dropped); this line's length would have cost minutes.
    line = "Osmosis " + marks * (20_000 // len(marks)) + "x"
    assert sentences(f"{line} Water moves.") == (f"{line} Water moves.",)
    assert sentences(f"{line}. Water moves.") == (f"{line}.", "Water moves.")


# --- excerpts -------------------------------------------------------------------------------

# Per language: a question, a long answer (five or six sentences, the evidence in the middle),
# and the line the block shows for it.
LONG_ANSWERS = {
    "en": (
        "Why do plant cells have a wall?",
        "Good question! Let's start with the basics. Every living thing is made of cells. "
        "Plant cells also have a rigid cell wall made of cellulose, which keeps their shape. "
        "Animals do not have one. We'll see more next week.",
        "… Every living thing is made of cells. Plant cells also have a rigid cell wall made of "
        "cellulose, which keeps their shape. …",
    ),
    "es": (
        "¿Qué hacen las mitocondrias?",
        "¡Muy bien! Hoy repasamos la célula. ¿Recuerdas el núcleo? Guarda el ADN. Las "
        "mitocondrias producen la energía de la célula mediante la respiración. Mañana "
        "seguimos con la fotosíntesis.",
        "… Las mitocondrias producen la energía de la célula mediante la respiración. …",
    ),
    "id": (
        "Apa fungsi ribosom?",
        "Bagus sekali. Kita mulai dari dasar. Sel punya membran. Ribosom membuat protein dari "
        "asam amino. Besok kita belajar fotosintesis!",
        "… Ribosom membuat protein dari asam amino. …",
    ),
    "ur": (
        "مائٹوکونڈریا کیا کرتا ہے؟",
        "بہت اچھا۔ آج ہم خلیے کو دہراتے ہیں۔ کیا آپ کو مرکزہ یاد ہے؟ مائٹوکونڈریا خلیے کے لیے "
        "توانائی بناتا ہے۔ کل ہم ضیائی تالیف پڑھیں گے۔",
        "… مائٹوکونڈریا خلیے کے لیے توانائی بناتا ہے۔ …",
    ),
    "ar": (
        "ماذا تفعل الميتوكوندريا؟",
        "أحسنت، لنبدأ من البداية. الخلية لها غشاء، وهو رقيق. هل تذكر النواة؟ الميتوكوندريا "
        "تنتج الطاقة للخلية. غدا ندرس البناء الضوئي.",
        "… الميتوكوندريا تنتج الطاقة للخلية. …",
    ),
}


@pytest.mark.parametrize("lang", sorted(LONG_ANSWERS))
def test_a_long_answer_is_shown_by_the_sentences_that_match_the_question(lang: str) -> None:
    question, text, shown = LONG_ANSWERS[lang]
    answer = long_episode(1, Kind.ANSWER, text)
    block = block_for(question, [recalled(answer, 0.9)])
    assert work_lines(block) == [f"- 6 Aug · you answered: {shown}"]
    assert block.memory_ids == (answer.episode_id,)
    assert len(shown) <= C.BLOCK_EXCERPT_CHARS


def test_matching_sentences_keep_their_order_and_a_gap_is_marked() -> None:
    text = (
        "Osmosis moves water across a membrane. Then we talked about your weekend. "
        "You went to the beach with your cousins. Diffusion moves other particles too. "
        "Remember the potato experiment for osmosis and diffusion."
    )
    cut = excerpt(text, terms_of("osmosis and diffusion in the potato experiment"))
    assert cut is not None and cut.matched
    # The best (three terms) is the last sentence; the next best, tied at one term, is the
    # earlier of them: shown in the text's order, the left-out sentences marked.
    assert cut.text == (
        "Osmosis moves water across a membrane. … Remember the potato experiment for osmosis "
        "and diffusion."
    )


def test_a_long_episode_that_matched_by_meaning_only_shows_its_opening() -> None:
    _question, text, _shown = LONG_ANSWERS["en"]
    answer = long_episode(1, Kind.ANSWER, text)
    block = block_for("How do sunflowers stay upright?", [recalled(answer, 0.9)])
    assert work_lines(block) == [
        "- 6 Aug · you answered: Good question! Let's start with the basics. …"
    ]


def test_a_summary_written_for_a_long_episode_is_preferred_to_its_opening() -> None:
    _question, text, _shown = LONG_ANSWERS["en"]
    answer = replace(long_episode(1, Kind.ANSWER, text), summary="Explained plant cell walls")
    block = block_for("How do sunflowers stay upright?", [recalled(answer, 0.9)])
    assert work_lines(block) == ["- 6 Aug · you answered: Explained plant cell walls"]


def test_a_short_episode_is_shown_as_it_always_was() -> None:
    short = long_episode(1, Kind.QUESTION, "Can we go over osmosis? I keep mixing it up.")
    item = recalled(short, 0.9)
    block = block_for("What is osmosis?", [item])
    assert work_lines(block) == [work_line(item, now=NOW)]
    assert work_lines(block) == [
        "- 6 Aug · you were asked: Can we go over osmosis? I keep mixing it up."
    ]


def test_without_terms_a_long_episode_is_its_summary_as_before() -> None:
    _question, text, _shown = LONG_ANSWERS["en"]
    item = recalled(long_episode(1, Kind.ANSWER, text), 0.9)
    assert work_line(item, now=NOW) == work_line(item, now=NOW, terms=())
    assert work_line(item, now=NOW) == f"- 6 Aug · you answered: {text[:199].rstrip()}…"


def test_checks_and_taught_notes_are_never_excerpted() -> None:
    topic = "osmosis. It was about water. Then the cell. Then more words on osmosis " * 3
    check = episode(1, Kind.CHECK, at(8, 6), "Check", CheckEvidence(topic.strip(), "right"))
    item = recalled(check, 0.9)
    assert work_line(item, now=NOW, terms=terms_of("osmosis")) == work_line(item, now=NOW)


def test_an_overlong_matching_sentence_is_cut_around_its_match() -> None:
    words = " ".join(f"word{i}" for i in range(60))
    text = f"Intro here. {words} but the student did not understand osmosis at all {words}."
    cut = excerpt(text, terms_of("osmosis"))
    assert cut is not None and cut.matched
    assert len(cut.text) <= C.BLOCK_EXCERPT_CHARS
    assert "did not understand osmosis" in cut.text  # the words before the match are kept
    assert cut.text.startswith("… ") and cut.text.endswith(" …")


def test_an_excerpt_never_exceeds_its_cap() -> None:
    rng = random.Random(7)
    vocabulary = [
        "osmosis",
        "water",
        "cell",
        "a",
        "the",
        "x" * 40,
        "membrane",
        "http://" + "y" * 200,
    ]
    marks = [".", "!", "?", "۔", "؟", ",", "", "\n"]
    for _ in range(400):
        text = " ".join(
            rng.choice(vocabulary) + rng.choice(marks) for _ in range(rng.randint(1, 60))
        )
        for question in ("osmosis", "water cell", "nothing here"):
            cut = excerpt(text, terms_of(question))
            if cut is not None:
                assert 0 < len(cut.text) <= C.BLOCK_EXCERPT_CHARS, text


# --- near-identical lines -------------------------------------------------------------------


def test_near_identical_lines_are_one_line_standing_for_both() -> None:
    named = long_episode(1, Kind.QUESTION, "Maya: hi Sam!", at(8, 6))
    plain = long_episode(2, Kind.QUESTION, "hi  SAM", at(8, 9))
    other = long_episode(3, Kind.QUESTION, "Maya: what is osmosis?", at(8, 7))
    block = block_for("hi", [recalled(named, 0.9), recalled(plain, 0.8), recalled(other, 0.5)])
    assert work_lines(block) == [
        "- 6 Aug – 9 Aug · the student said: Maya: hi Sam! (and 1 more time like it)",
        "- 7 Aug · you were asked: Maya: what is osmosis?",
    ]
    assert block.memory_ids == ("ep-0001", "ep-0003", "ep-0002")
    assert block.dropped_items == 0


def test_the_better_scored_line_is_the_one_kept() -> None:
    named = long_episode(1, Kind.QUESTION, "Maya: hi Sam!", at(8, 6))
    plain = long_episode(2, Kind.QUESTION, "hi Sam", at(8, 9))
    block = block_for("hi", [recalled(named, 0.5), recalled(plain, 0.8)])
    assert work_lines(block) == [
        "- 6 Aug – 9 Aug · the student said: hi Sam (and 1 more time like it)"
    ]
    assert block.memory_ids == ("ep-0002", "ep-0001")


def test_lines_of_different_kinds_or_numbers_are_not_merged() -> None:
    asked = long_episode(1, Kind.QUESTION, "Osmosis moves water.", at(8, 6))
    answered = long_episode(2, Kind.ANSWER, "Sam: osmosis moves water", at(8, 6, hour=11))
    right = episode(3, Kind.CHECK, at(8, 7), "Check", CheckEvidence("osmosis", "right"))
    wrong = episode(4, Kind.CHECK, at(8, 8), "Check", CheckEvidence("Osmosis", "wrong"))
    seven = long_episode(5, Kind.QUESTION, "I got 7/10", at(8, 9))
    other = long_episode(6, Kind.QUESTION, "I got 71/0", at(8, 10))
    items = [recalled(e, 0.5) for e in (asked, answered, right, wrong, seven, other)]
    assert len(work_lines(block_for("osmosis", items))) == 6


def test_checks_differing_only_by_case_are_one_line() -> None:
    lower = episode(1, Kind.CHECK, at(8, 7), "Check", CheckEvidence("osmosis", "right"))
    upper = episode(2, Kind.CHECK, at(8, 8), "Check", CheckEvidence("Osmosis", "right"))
    block = block_for("osmosis", [recalled(upper, 0.6), recalled(lower, 0.5)])
    assert work_lines(block) == [
        "- 7 Aug – 8 Aug · check on Osmosis: right (and 1 more time like it)"
    ]
    assert set(block.memory_ids) == {"ep-0001", "ep-0002"}


# --- distinct sessions ----------------------------------------------------------------------


def three_on_two_days() -> list[RecalledItem]:
    first = long_episode(1, Kind.QUESTION, "Maya: I started guitar lessons", at(3, 2))
    again = long_episode(2, Kind.QUESTION, "Maya: guitar is hard on my fingers", at(3, 2, hour=11))
    later = long_episode(3, Kind.QUESTION, "Maya: now I play violin instead", at(6, 9))
    return [recalled(first, 0.80), recalled(again, 0.78), recalled(later, 0.75)]


def budget_without(full: MemoryBlock, line: str) -> int:
    """The budget that holds ``full`` less ``line``, with the line saying one was cut."""
    more = "- … and 1 more earlier items, not shown here"
    return full.tokens - (count_tokens(line) + 1) + (count_tokens(more) + 1)


def test_a_second_item_of_a_shown_day_gives_way_to_a_close_item_of_another_day() -> None:
    items = three_on_two_days()
    full = block_for("which instruments does Maya play?", items)
    assert len(work_lines(full)) == 3 and full.dropped_items == 0  # room for all: none cut
    again = work_lines(full)[1]  # 0.78, the second of 2 Mar; 9 Jun's scores 0.75
    block = block_for(
        "which instruments does Maya play?", items, budget=budget_without(full, again)
    )
    assert work_lines(block) == [
        "- 2 Mar · the student said: Maya: I started guitar lessons",
        "- 9 Jun · the student said: Maya: now I play violin instead",
    ]
    assert block.dropped_items == 1 and block.memory_ids == ("ep-0001", "ep-0003")


def test_a_clearly_better_item_of_a_shown_day_is_still_kept() -> None:
    items = three_on_two_days()
    items[2] = replace(items[2], score=0.78 - C.BLOCK_SESSION_PENALTY - 0.01)
    full = block_for("which instruments does Maya play?", items)
    later = work_lines(full)[2]
    block = block_for(
        "which instruments does Maya play?", items, budget=budget_without(full, later)
    )
    assert block.memory_ids == ("ep-0001", "ep-0002")


def test_the_recent_past_is_cut_by_recency_alone() -> None:
    items = three_on_two_days()
    full = block_for("which instruments?", items, mode=Mode.NOTHING_MATCHED)
    later = work_lines(full)[2]
    block = block_for(
        "which instruments?",
        items,
        budget=budget_without(full, later),
        mode=Mode.NOTHING_MATCHED,
    )
    assert block.memory_ids == ("ep-0001", "ep-0002")


def greedy_mmr(items: Sequence[RecalledItem], tz: object = UTC) -> list[int]:
    """Maximal Marginal Relevance as written: pick, re-score the rest, pick again."""
    left, seen, order = list(range(len(items))), set(), []
    while left:

        def value(k: int) -> tuple[float, int]:
            day = items[k].episode.at.date()
            penalty = C.BLOCK_SESSION_PENALTY if day in seen else 0.0
            return (round(items[k].score - penalty, 9), -k)

        best = max(left, key=value)
        left.remove(best)
        order.append(best)
        seen.add(items[best].episode.at.date())
    return order


def test_the_diversity_order_is_the_greedy_mmr_order() -> None:
    rng = random.Random(11)
    for _ in range(200):
        items = [
            recalled(
                episode(i, Kind.QUESTION, at(8, 1 + rng.randrange(4), hour=8 + i % 10), f"q{i}"),
                round(rng.random(), 2),
            )
            for i in range(rng.randint(1, 25))
        ]
        items.sort(key=lambda i: (i.score, i.episode.at, i.episode.seq), reverse=True)
        assert diverse_order(items, UTC) == greedy_mmr(items)


# --- filling the room -----------------------------------------------------------------------

# Per language: a question, a long line recall ranks second (one sentence, shown whole), and the
# short line that answers the question, ranked third.
PASSED_OVER = {
    "en": (
        "What pet does Maya have?",
        "Maya: we spent the whole afternoon at the science museum looking at the dinosaur "
        "skeletons and the planetarium show about the outer planets",
        "Maya: my cat Luna is two now",
    ),
    "es": (
        "¿Qué mascota tiene Maya?",
        "Maya: pasamos toda la tarde en el museo de ciencias mirando los esqueletos de "
        "dinosaurios y el espectáculo del planetario sobre los planetas exteriores",
        "Maya: mi gata Luna ya tiene dos años",
    ),
    "id": (
        "Maya punya hewan peliharaan apa?",
        "Maya: kami menghabiskan sepanjang sore di museum sains melihat kerangka dinosaurus "
        "dan pertunjukan planetarium tentang planet-planet luar",
        "Maya: kucingku Luna sekarang berumur dua tahun",
    ),
    "ur": (
        "مایا کے پاس کون سا پالتو جانور ہے؟",
        "مایا: ہم نے پوری دوپہر سائنس میوزیم میں ڈائنوسار کے ڈھانچے اور بیرونی سیاروں کے بارے "
        "میں پلینیٹیریم شو دیکھتے ہوئے گزاری",
        "مایا: میری بلی لونا اب دو سال کی ہے",
    ),
    "ar": (
        "ما الحيوان الأليف الذي تملكه مايا؟",
        "مايا: قضينا العصر كله في متحف العلوم ننظر إلى هياكل الديناصورات وعرض القبة "
        "السماوية عن الكواكب الخارجية",
        "مايا: قطتي لونا عمرها سنتان الآن",
    ),
}


@pytest.mark.parametrize("lang", sorted(PASSED_OVER))
def test_a_short_line_of_evidence_fills_the_room_a_longer_line_could_not(lang: str) -> None:
    question, long_line, evidence = PASSED_OVER[lang]
    first = long_episode(1, Kind.QUESTION, "Maya: hi Sam!", at(3, 2))
    museum = long_episode(2, Kind.QUESTION, long_line, at(4, 5))
    cat = long_episode(3, Kind.QUESTION, evidence, at(6, 9))
    items = [recalled(first, 0.80), recalled(museum, 0.78), recalled(cat, 0.75)]
    full = block_for(question, items)
    museum_line, cat_line = work_lines(full)[1:]
    assert count_tokens(museum_line) > count_tokens(cat_line)
    block = block_for(question, items, budget=budget_without(full, museum_line))
    # Before, the museum's line ended the section although the cat's fitted the room left.
    assert block.memory_ids == ("ep-0001", "ep-0003")
    assert cat_line in work_lines(block) and block.dropped_items == 1
    assert block.tokens <= budget_without(full, museum_line)


def test_filling_shows_every_line_a_prefix_shows_and_holds_its_room() -> None:
    rng = random.Random(3)
    for _ in range(500):
        prices = [rng.randint(1, 60) for _ in range(rng.randint(0, 30))]
        room = rng.randint(-5, 600)
        order = fill_order(prices, room, lambda n: 12)
        assert sorted(order) == list(range(len(prices)))
        taken = 0
        while taken < len(order) and (
            sum(prices[k] for k in order[: taken + 1]) + (12 if taken + 1 < len(order) else 0)
            <= room
        ):
            taken += 1
        prefix = 0
        while prefix < len(prices) and (
            sum(prices[: prefix + 1]) + (12 if prefix + 1 < len(prices) else 0) <= room
        ):
            prefix += 1
        assert set(range(prefix)) <= set(order[:taken])  # never fewer than the prefix showed
        assert order[:taken] == sorted(order[:taken])  # taken in the budget's order


def _merged_one_by_one(kept: RecalledItem, other: RecalledItem) -> RecalledItem:
    """The merge as it was written before it was folded (one sort per step): the reference."""
    if len(kept.collapsed_at) == len(kept.collapsed_ids) and len(other.collapsed_at) == len(
        other.collapsed_ids
    ):
        pairs = sorted(
            {
                *zip(kept.collapsed_ids, kept.collapsed_at, strict=True),
                *zip(other.collapsed_ids, other.collapsed_at, strict=True),
            },
            key=lambda p: (p[1], p[0]),
        )
        ids, times = tuple(i for i, _ in pairs), tuple(t for _, t in pairs)
    else:
        ids, times = tuple(dict.fromkeys([*kept.collapsed_ids, *other.collapsed_ids])), ()
    return replace(
        kept,
        count=kept.count + other.count,
        first_at=min(kept.first_at, other.first_at),
        last_at=max(kept.last_at, other.last_at),
        collapsed_ids=ids,
        collapsed_at=times,
    )


def test_merging_many_near_identical_lines_is_merging_them_one_by_one() -> None:
    """Repeated lines (a greeting said 40 times) are folded in one pass: the same item, ids,
    times and count as merging each into the kept line in turn, with or without times."""
    rng = random.Random(11)
    for _ in range(400):
        items = []
        for n in range(rng.randint(1, 12)):
            seqs = rng.sample(range(1, 30), rng.randint(1, 4))
            when = [at(rng.randint(1, 12), rng.randint(1, 28)) for _ in seqs]
            base = recalled(episode(seqs[0], Kind.QUESTION, when[0], "ok thanks"), 0.9 - n / 50)
            ids = tuple(f"ep-{s:04d}" for s in seqs)
            timed = rng.random() < 0.8
            items.append(
                replace(
                    base,
                    count=len(seqs),
                    first_at=min(when),
                    last_at=max(when),
                    collapsed_ids=ids,
                    collapsed_at=tuple(when) if timed else tuple(when[: rng.randint(0, 1)]),
                )
            )
        whats = ["the student said: ok thanks"] * len(items)
        (folded,), _ = merge_near_identical(items, whats)
        expected = items[0]
        for other in items[1:]:
            expected = _merged_one_by_one(expected, other)
        assert folded == expected


# --- the budget and determinism -------------------------------------------------------------


def mixed_items() -> list[RecalledItem]:
    items: list[RecalledItem] = []
    for n, (lang, (_question, text, _shown)) in enumerate(sorted(LONG_ANSWERS.items())):
        answer = long_episode(10 + n, Kind.ANSWER, text, at(8, 1 + n))
        items.append(recalled(answer, 0.9 - n / 100))
        said = long_episode(20 + n, Kind.QUESTION, f"Maya: hi Sam! ({lang})", at(8, 1 + n, hour=9))
        items.append(recalled(said, 0.5 - n / 100))
    for i in range(30):
        when = at(7, 1 + i % 28, hour=8 + i % 9)
        ep = long_episode(40 + i, Kind.QUESTION, f"Maya: cell question number {i}?", when)
        items.append(recalled(ep, round(0.3 + i / 100, 2)))
    items.append(recalled(long_episode(80, Kind.QUESTION, "hi sam (en)", at(8, 20)), 0.2))
    return items


@pytest.mark.parametrize(
    "question", ["Why do plant cells have a wall?", "ماذا تفعل الميتوكوندريا؟"]
)
def test_the_block_never_exceeds_its_budget(question: str) -> None:
    items = mixed_items()
    for budget in [*range(0, 1500, 11), C.BLOCK_BUDGET_TOKENS]:
        block = block_for(question, items, budget=budget, map_section=MAP)
        assert count_tokens(block.text) == block.tokens <= budget
        assert block.text == "" or (block.text.startswith(HEADER) and block.text.endswith(FOOTER))
        shown = set(block.memory_ids)
        # every shown line's episodes are reported; merged items are never half shown
        assert ("ep-0021" in shown) == ("ep-0080" in shown)


def test_a_counter_whose_lines_do_not_add_up_is_still_respected() -> None:
    def lumpy(text: str) -> int:
        return count_tokens(text) + 5 * text.count("\n")

    items = mixed_items()
    for budget in range(150, 1500, 37):
        block = block_for("Why do plant cells have a wall?", items, budget=budget, count=lumpy)
        assert lumpy(block.text) == block.tokens <= budget


def test_the_same_inputs_give_the_same_block() -> None:
    items = mixed_items()
    first = block_for("Why do plant cells have a wall?", items, budget=700)
    again = block_for("Why do plant cells have a wall?", list(reversed(items)), budget=700)
    assert first == again
    assert first.text == block_for("Why do plant cells have a wall?", items, budget=700).text


def test_the_line_count_follows_the_budget() -> None:
    items = [
        recalled(long_episode(100 + i, Kind.QUESTION, f"Maya: osmosis {i}?", at(8, 1)), 0.5)
        for i in range(140)
    ]
    block = block_for("osmosis", items, budget=10_000)
    assert len(work_lines(block)) == 140 and block.dropped_items == 0


# --- the fitting's running sum --------------------------------------------------------------


def old_fit(section: _Section, budget: int, cost: Callable[[str], int]) -> tuple[int | None, int]:
    """The fitting as it was: every size's lines priced afresh."""
    for shown in section.choices():
        spent = sum(cost(line) for line in section.lines(shown))
        if spent <= budget:
            return shown, spent
    return None, 0


def priced(line: str) -> int:
    return count_tokens(line) + 1  # as the block prices a line: with its line break


def test_the_running_sum_fits_exactly_as_summing_every_size_did() -> None:
    rng = random.Random(5)
    for _ in range(500):
        body = tuple("x" * rng.randint(1, 60) for _ in range(rng.randint(0, 40)))
        head = tuple("h" * rng.randint(1, 20) for _ in range(rng.randint(0, 2)))
        section = _Section(
            head, body, rng.choice([None, "earlier items"]), whole=rng.random() < 0.2
        )
        budget = rng.randint(-5, 400)
        calls = 0

        def cost(line: str) -> int:
            nonlocal calls
            calls += 1
            return count_tokens(line) + 1

        assert _fit(section, budget, cost) == old_fit(section, budget, priced)
        # one price per head and body line, and one "… and N more" line per size tried
        assert calls <= len(head) + 2 * len(body) + 1
