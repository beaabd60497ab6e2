"""Beliefs from checks: what a check is about, confidence, when a row is warranted (SPEC §6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain.beliefs import (
    Claim,
    Topic,
    next_belief,
    reads_like_utterance,
    replay_checks,
    route_check,
    tally,
)
from tutor_memory.domain.chain import seal
from tutor_memory.domain.episodes import CheckEvidence, Kind, NewEpisode, Pair

PAIR = Pair("student-1", "biology")
AT = datetime(2026, 7, 12, tzinfo=UTC)
KNOWN = {"cytoplasm": "Cytoplasm", "osmosis": "Osmosis", "cell membrane": "Cell membrane",
         "cell": "Cell", "الخليه": "الخلية"}  # fmt: skip


@pytest.mark.parametrize(
    "topic",
    [
        "ask me the questions",  # the article's real examples
        "bueno ahora explícame todos los pasos",
        "can you quiz me again?",
        "tolong tanya saya lagi",
        "مجھ سے سوال پوچھو",
        "mujh se sawal poocho",  # Urdu in Latin letters
        "mujhe dobara samjhao",
        "اسألني الأسئلة",
    ],
)
def test_a_topic_that_reads_like_an_utterance_never_becomes_a_belief(topic: str) -> None:
    assert reads_like_utterance(topic)
    assert route_check(CheckEvidence(topic, "right", "Good answers."), KNOWN) is None


@pytest.mark.parametrize(
    ("topic", "evaluation", "key"),
    [
        ("cytoplasm", "", "cytoplasm"),
        ("Ósmosis", "", "osmosis"),
        (
            "La pregunta sobre la membrana",
            "Correct: the cell membrane lets water through.",
            "cell membrane",
        ),
        ("soal nomor tiga", "Benar, osmosis memindahkan air.", "osmosis"),
        ("ask me the questions", "You explained the cytoplasm well.", "cytoplasm"),
        ("سوال ٣", "ما هي الخلية؟ أجاب بشكل صحيح", "الخليه"),
    ],
)
def test_a_check_routes_by_exact_name_then_by_the_tutors_evaluation(
    topic: str, evaluation: str, key: str
) -> None:
    routed = route_check(CheckEvidence(topic, "right", evaluation), KNOWN)
    assert routed is not None and routed.key == key and routed.on_map


def test_the_longer_name_wins_where_two_start_together() -> None:
    routed = route_check(CheckEvidence("the cell membrane question", "right"), KNOWN)
    assert routed is not None and routed.key == "cell membrane"


def test_a_clean_name_not_on_the_map_is_still_a_concept() -> None:
    routed = route_check(CheckEvidence("Photosynthesis", "wrong"), KNOWN)
    assert routed == Topic("photosynthesis", "Photosynthesis", False)


@pytest.mark.parametrize(
    ("outcomes", "claim", "confidence"),
    [
        ([True], Claim.UNDERSTANDS, 0.67),
        ([False], Claim.STRUGGLES, 0.67),
        ([True, True, True], Claim.UNDERSTANDS, 0.77),
        ([False, True], Claim.UNDERSTANDS, 0.53),  # the latest counts most
        ([False, False, True], Claim.STRUGGLES, 0.55),  # but two misses outweigh one pass
        ([True, True, False], Claim.UNDERSTANDS, 0.55),
    ],
)
def test_confidence_is_a_recency_weighted_smoothed_tally(
    outcomes: list[bool], claim: Claim, confidence: float
) -> None:
    assert tally(outcomes) == (claim, confidence)


def check(seq: int, topic: str, verdict: str, day: int) -> object:
    new = NewEpisode(
        PAIR,
        Kind.CHECK,
        f"Check on {topic}",
        AT + timedelta(days=day),
        evidence=CheckEvidence(topic, verdict),
    )  # type: ignore[arg-type]
    from dataclasses import replace

    sealed = seal(new, None)
    return replace(sealed, seq=seq, episode_id=f"e{seq}-{seq:012x}")


def test_a_change_of_mind_inserts_a_row_that_supersedes_and_says_why() -> None:
    rows = replay_checks(
        [
            check(1, "osmosis", "wrong", 0),
            check(2, "osmosis", "right", 1),
            check(3, "osmosis", "right", 2),
        ],  # type: ignore[list-item]
        KNOWN,
        generation=0,
    )
    assert [(r.claim, r.confidence) for r, _ in rows] == [
        (Claim.STRUGGLES, 0.67),
        (Claim.UNDERSTANDS, 0.53),
        (Claim.UNDERSTANDS, 0.63),
    ]
    assert rows[1][1] is rows[0][0] and rows[2][1] is rows[1][0]
    assert "changed its mind: struggles with → understands" in rows[1][0].reason
    assert rows[2][0].evidence_ids == ("e1-000000000001", "e2-000000000002", "e3-000000000003")


def test_a_small_move_keeps_the_current_row() -> None:
    outcomes = [True] * 12
    ids = [f"e{i}-{i:012x}" for i in range(1, 13)]
    previous = next_belief(
        None, Topic("cell", "Cell", True), outcomes[:11], ids[:11], pair=PAIR, at=AT
    )
    assert previous is not None
    again = next_belief(previous, Topic("cell", "Cell", True), outcomes, ids, pair=PAIR, at=AT)
    assert again is None  # 0.83 → 0.83: the check stays evidence, the row stands


def test_a_row_waiting_for_confirmation_is_renewed_by_the_next_check() -> None:
    from dataclasses import replace

    ids = ["e1-000000000001", "e2-000000000002"]
    first = next_belief(None, Topic("cell", "Cell", True), [True], ids[:1], pair=PAIR, at=AT)
    assert first is not None
    decayed = replace(first, needs_confirmation=True)
    renewed = next_belief(decayed, Topic("cell", "Cell", True), [True, True], ids, pair=PAIR, at=AT)
    assert renewed is not None and not renewed.needs_confirmation
    assert "confirmed by a new check" in renewed.reason or "confidence" in renewed.reason


def test_belief_ids_are_deterministic_and_differ_by_generation() -> None:
    checks = [check(1, "osmosis", "wrong", 0)]
    a = replay_checks(checks, KNOWN, generation=0)[0][0]  # type: ignore[arg-type]
    b = replay_checks(checks, KNOWN, generation=0)[0][0]  # type: ignore[arg-type]
    c = replay_checks(checks, KNOWN, generation=1)[0][0]  # type: ignore[arg-type]
    assert a.belief_id == b.belief_id != c.belief_id


def test_a_row_that_says_again_what_an_earlier_one_said_has_an_id_of_its_own() -> None:
    # A verdict corrected and corrected back at one time: the third row says what the first
    # correction's row said, on the same evidence at the same time; it supersedes another row.
    topic, ids = Topic("osmosis", "Osmosis", True), ["e1-000000000001"]
    start = next_belief(None, topic, [False], ids, pair=PAIR, at=AT)
    rows = [start]
    for passed in (True, False, True):
        row = next_belief(rows[-1], topic, [passed], ids, pair=PAIR, at=AT + timedelta(days=1))
        assert row is not None
        rows.append(row)
    assert rows[1] is not None and rows[3] is not None
    assert (rows[1].claim, rows[1].confidence) == (rows[3].claim, rows[3].confidence)
    assert len({r.belief_id for r in rows if r is not None}) == 4


def test_the_block_line_reads_as_the_article_shows() -> None:
    rows = replay_checks([check(1, "cytoplasm", "right", 0)], KNOWN, generation=0)  # type: ignore[list-item]
    assert rows[0][0].line() == "understands Cytoplasm (0.67)"


def test_replayed_checks_write_the_rows_recording_them_in_their_order_wrote() -> None:
    # Recorded: "ósmosis" on day 2, then "osmosis" back-dated to day 0. Recording names the
    # belief after the check that made its last row; re-derivation read the checks by time
    # and named it after the latest by time ("ósmosis"), unlike a replay of the export.
    rows = replay_checks(
        [check(1, "ósmosis", "right", 2), check(2, "osmosis", "wrong", 0)],  # type: ignore[list-item]
        {},
        generation=1,
    )
    assert [(r.concept_name, r.confidence, r.created_at) for r, _ in rows] == [
        ("ósmosis", 0.67, AT + timedelta(days=2)),
        ("osmosis", 0.53, AT),
    ]
    assert rows[1][0].evidence_ids == ("e2-000000000002", "e1-000000000001")  # by time
