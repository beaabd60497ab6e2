"""The order a student's pairs are replayed in (``replay.in_time_order``): each pair's own
order, the pairs interleaved by time, and the episodes the profile heard something in in the
order the profile heard them (an export's manifest says which)."""

from __future__ import annotations

import json

from tutor_memory.replay import HistoryEvent, in_time_order, parse_line


def _line(n: int, subject: str, day: int, seq: int) -> HistoryEvent:
    return parse_line(n, json.dumps({
        "student": "s1", "subject": subject, "at": f"2026-01-{day:02d}T10:00:00Z",
        "kind": "question", "text": f"line {n}", "seq": seq, "id": f"e{seq}-{n:012x}",
    }))  # fmt: skip


# biology: a question on day 5, then a message back-dated to day 1; chemistry: day 2
LINES = [_line(1, "bio", 5, 1), _line(2, "bio", 1, 2), _line(3, "chem", 2, 1)]


def _texts(events: list[HistoryEvent]) -> list[str]:
    return [e.episode.text for e in events]


def test_by_time_each_pair_keeping_its_own_order() -> None:
    assert _texts(in_time_order(LINES)) == ["line 3", "line 1", "line 2"]


def test_what_the_profile_heard_comes_in_the_order_it_heard_it() -> None:
    heard = {("bio", "e2-000000000002"): 1, ("chem", "e1-000000000003"): 2}
    assert _texts(in_time_order(LINES, heard)) == ["line 1", "line 2", "line 3"]


def test_an_order_no_interleaving_keeps_still_replays_every_line() -> None:
    # biology's own order contradicts the profile's (its second line heard first): every next
    # line waits, and the one the profile placed first among them goes
    heard = {("bio", "e1-000000000001"): 2, ("bio", "e2-000000000002"): 1,
             ("chem", "e1-000000000003"): 3}  # fmt: skip
    assert _texts(in_time_order(LINES, heard)) == ["line 1", "line 2", "line 3"]
