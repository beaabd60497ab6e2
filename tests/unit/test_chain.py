"""The hash chain's canonical form and verification, independent of any store."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

from tutor_memory.domain import chain
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind, NewEpisode, Pair

PAIR = Pair("student-1", "biology")
AT = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
SALT = "5a" * 32  # a fixed body salt: equal bodies then commit equally
FIRST = NewEpisode(
    pair=PAIR,
    kind=Kind.QUESTION,
    text="What is a cell? / ¿Qué es una célula? / ما هي الخلية؟",
    at=AT,
)


def build(n: int) -> list[Episode]:
    episodes: list[Episode] = []
    head = None
    for i in range(n):
        ep = chain.seal(replace(FIRST, text=f"question {i}", at=AT + timedelta(minutes=i)), head)
        episodes.append(ep)
        head = chain.head_of(ep)
    return episodes


def test_the_hash_of_a_known_first_episode_is_pinned() -> None:
    """If this changes, every stored chain breaks: the canonical form is a public contract."""
    sealed = chain.seal(FIRST, None, version=1)  # sealed under chain v1, as before chain v2
    assert sealed.hash == "5da2360dc7d9408cf5c8009a7580c1e0d9ba597a2605af5c02df57ec3196a167"
    assert sealed.episode_id == "e1-5da2360dc7d9"
    assert sealed.prev_hash == chain.GENESIS_HASH == "0" * 64


def test_a_version_2_episode_with_fractions_and_a_zone_is_pinned_body_and_envelope() -> None:
    """Version 2's body and envelope, written in their canonical form directly (``verify``
    writes every episode's): the bytes of the generic form, pinned — a check's predicted
    mastery and the salience as fixed-point fractions, the time in UTC to the microsecond."""
    check = NewEpisode(
        pair=PAIR,
        kind=Kind.CHECK,
        text="Explica la ósmosis / اشرح",
        at=datetime(2026, 7, 12, 17, 4, 5, 123456, tzinfo=timezone(timedelta(hours=2))),
        summary="ósmosis",
        concepts=("Osmosis", "Cell membrane"),
        salience=0.625,
        evidence=CheckEvidence("Ósmosis", "wrong", "confundió soluto", predicted_mastery=0.4375),
        ref="chat-9",
    )
    sealed = chain.seal(check, None, salt=SALT)
    assert chain.canonical_body(sealed).decode() == (
        '{"concepts":["Osmosis","Cell membrane"],"evidence":{"evaluation":"confundió soluto",'
        '"predicted_mastery":"0.4375","topic":"Ósmosis","verdict":"wrong"},"recalled":[],'
        '"ref":"chat-9","summary":"ósmosis","text":"Explica la ósmosis / اشرح"}'
    )
    assert chain.canonical_envelope(sealed, 1, sealed.commitment or "").decode() == (
        '{"at":"2026-07-12T15:04:05.123456Z","body":'
        '"fa5af632558985e8f924dd1fc8e1bb179778505eb484b582e3af890963b718e9","kind":"check",'
        '"pair":{"student":"student-1","subject":"biology"},"salience":"0.6250","seq":1,"v":2}'
    )
    assert sealed.hash == "67f032c5096ab195b62cad9d04a87c67198977f8e6bd7c35bf68c97d23048137"


def test_the_canonical_form_is_sorted_compact_utf8_with_fixed_point_fractions() -> None:
    canonical = chain.canonical_content(FIRST, 1).decode("utf-8")
    assert canonical == (
        '{"at":"2026-07-12T15:00:00.000000Z","concepts":[],"evidence":{},"kind":"question",'
        '"pair":{"student":"student-1","subject":"biology"},"recalled":[],"ref":null,'
        '"salience":"0.3500","seq":1,'
        '"summary":"What is a cell? / ¿Qué es una célula? / ما هي الخلية؟",'
        '"text":"What is a cell? / ¿Qué es una célula? / ما هي الخلية؟","v":1}'
    )
    digest = hashlib.sha256(
        chain.GENESIS_HASH.encode() + b"\n" + canonical.encode("utf-8")
    ).hexdigest()
    assert digest == chain.seal(FIRST, None, version=1).hash


def test_visually_equal_text_hashes_equally_after_nfc() -> None:
    composed = replace(FIRST, text="célula")
    decomposed = replace(FIRST, text="ce\u0301lula")
    assert (
        chain.seal(composed, None, salt=SALT).hash == chain.seal(decomposed, None, salt=SALT).hash
    )


def test_fractions_hash_the_same_however_the_float_was_spelled() -> None:
    a = replace(
        FIRST,
        kind=Kind.CHECK,
        evidence=CheckEvidence("osmosis", "wrong", predicted_mastery=0.1 + 0.2),
    )
    b = replace(
        FIRST, kind=Kind.CHECK, evidence=CheckEvidence("osmosis", "wrong", predicted_mastery=0.3)
    )
    assert chain.seal(a, None, salt=SALT).hash == chain.seal(b, None, salt=SALT).hash


def test_time_is_hashed_in_utc_whatever_zone_it_came_in() -> None:
    jakarta = AT.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Jakarta"))
    assert (
        chain.seal(replace(FIRST, at=jakarta), None, salt=SALT).hash
        == chain.seal(FIRST, None, salt=SALT).hash
    )


def test_verify_reports_intact_and_the_head() -> None:
    episodes = build(5)
    report = chain.verify(PAIR, episodes, chain.head_of(episodes[-1]))
    assert report.intact and report.episodes == 5 and report.head_hash == episodes[-1].hash


def test_verify_names_the_first_break_only() -> None:
    episodes = build(6)
    episodes[2] = replace(episodes[2], text="edited")
    episodes[4] = replace(episodes[4], text="edited too")
    report = chain.verify(PAIR, episodes, chain.head_of(episodes[-1]))
    assert (report.break_seq, report.break_kind) == (3, "content changed")


def test_an_episode_moved_to_another_pair_is_a_break() -> None:
    episodes = build(3)
    other = Pair("student-2", "biology")
    episodes[1] = replace(episodes[1], pair=other)
    report = chain.verify(PAIR, episodes, chain.head_of(episodes[-1]))
    assert (report.break_seq, report.break_kind) == (2, "content changed")


def test_an_episode_past_the_head_is_a_break() -> None:
    episodes = build(4)
    report = chain.verify(PAIR, episodes, chain.head_of(episodes[2]))
    assert (report.break_seq, report.break_kind) == (4, "link broken")


def test_a_checkpoint_round_trips_through_its_exported_form() -> None:
    episodes = build(3)
    point = chain.Checkpoint(PAIR, 3, episodes[-1].hash, AT)
    assert chain.Checkpoint.from_dict(point.to_dict()) == point
    assert point.to_dict()["format"] == "tm-chain-1"  # the checkpoint's layout, unchanged


def test_a_checkpoint_beyond_the_chain_is_a_mismatch() -> None:
    episodes = build(2)
    point = chain.Checkpoint(PAIR, 5, "ab" * 32, AT)
    report = chain.verify(PAIR, episodes, chain.head_of(episodes[-1]), point)
    assert report.break_kind == "checkpoint mismatch"
    assert "covers 5 episodes but the log has 2" in report.detail
