"""LongMemEval's own files, read as ``--data`` conversations (``bench-recall --data FILE``).

LongMemEval (Wu et al., ICLR 2025; ``longmemeval_s.json``, ``longmemeval_m.json`` and
``longmemeval_oracle.json`` from its authors, MIT: fetch them yourself, they are not shipped
here) asks 500 questions of a user's long chat history with an assistant. Each question has
its own history, a list of dated sessions::

    [{"question_id": "e47becba", "question_type": "single-session-user",
      "question": "What degree did I graduate with?", "answer": "Business Administration",
      "question_date": "2023/05/30 (Tue) 23:40",
      "haystack_session_ids": ["sharegpt_yywfmr8_0", …],
      "haystack_dates": ["2023/05/20 (Sat) 02:21", …],
      "haystack_sessions": [[{"role": "user", "content": "…", "has_answer": true},
                             {"role": "assistant", "content": "…"}, …], …],
      "answer_session_ids": ["answer_280352e9"]}, …]

How it is read (``from_longmemeval``), each choice the plainest one:

* one pair per question (its history is its own), its id the ``question_id``; the user's
  turns are the student's messages, the assistant's the tutor's answers, as written (a
  first-person chat, the product's own shape);
* the sessions in time order (the oracle file does not sort them), each turn a minute after
  the one above and a session's first at the session's time (or a minute after the turn above
  when two sessions share a minute); a turn longer than the log takes (an assistant's long
  answer) is cut to it, an empty one left out;
* the evidence is the turns marked ``has_answer``, the question's category its
  ``question_type``, asked at its ``question_date`` (a minute after the last turn when that is
  earlier). Abstention questions (``_abs``: the history does not say) and questions with no
  marked turn have nothing to find and are not asked; ``skipped`` says how many of each.

The S file replays 500 histories of ~50 sessions (~250,000 turns, ~115k tokens each): hours
on two cores with the offline model. The oracle file (the evidence sessions alone) runs in
minutes but has nothing to search past; a cut of the S file (its first N questions) is
a file of the same layout.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from tutor_memory.bench.ids import fit_id, unique
from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import ValidationError

# A minute between turns, as ``conversation_file.TURN_STEP`` (a test holds them equal): any
# step under its session gap keeps a turn in its session and a reply the answer to it.
STEP: Final = timedelta(minutes=1)
_WHEN: Final = re.compile(
    r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})"
)


@dataclass(frozen=True)
class Skipped:
    """The questions ``from_longmemeval`` did not ask, and the turns it cut, by why."""

    abstention: int = 0
    no_evidence: int = 0
    turns_cut: int = 0


def is_longmemeval(raw: Any) -> bool:
    """Whether a decoded document is LongMemEval's layout (a list of questions, each with its
    own ``haystack_sessions``)."""
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(
            isinstance(q, dict) and "haystack_sessions" in q and "question_id" in q for q in raw
        )
    )


def from_longmemeval(raw: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], Skipped]:
    """LongMemEval's questions as a ``--data`` document (``conversation_file``'s layout), and
    what was not asked (see the module). A ``ValidationError`` names a question's place."""
    conversations: list[dict[str, Any]] = []
    abstention = no_evidence = cut = 0
    taken: set[str] = set()
    for n, item in enumerate(raw):
        where = f"[{n}]"
        qid = str(item.get("question_id") or "")
        if qid.endswith("_abs"):
            abstention += 1
            continue
        turns, evidence, trimmed = _history(item, where)
        cut += trimmed
        question = str(item.get("question") or "").strip()
        if not evidence or not question:
            no_evidence += 1
            continue
        pair = unique(fit_id(qid, f"longmemeval-{n}"), taken, "-")
        last = datetime.fromisoformat(turns[-1]["at"])
        asked = _when(item.get("question_date"), f"{where}.question_date")
        conversations.append(
            {"id": pair, "language": "en", "turns": turns,
             "questions": [{"id": "q", "text": question, "evidence": evidence,
                            "category": str(item.get("question_type") or "question")}],
             "asked_at": max(asked, last + STEP).isoformat()}
        )  # fmt: skip
    return {"conversations": conversations}, Skipped(abstention, no_evidence, cut)


def _history(item: Mapping[str, Any], where: str) -> tuple[list[dict[str, Any]], list[str], int]:
    """The question's turns, oldest first, every one timed; the ids of its marked turns; how
    many turns were cut to the log's limit."""
    sessions = item.get("haystack_sessions")
    dates = item.get("haystack_dates")
    if not isinstance(sessions, list) or not isinstance(dates, list) or len(sessions) != len(dates):
        raise ValidationError(
            f"{where}.haystack_sessions", "must be a list of sessions, one per haystack_dates"
        )
    ids = item.get("haystack_session_ids") or [f"s{m}" for m in range(len(sessions))]
    dated = sorted(
        ((_when(d, f"{where}.haystack_dates[{m}]"), m) for m, d in enumerate(dates)),
    )
    turns: list[dict[str, Any]] = []
    evidence: list[str] = []
    cut = 0
    last: datetime | None = None
    for began, m in dated:
        session = sessions[m]
        if not isinstance(session, list):
            raise ValidationError(f"{where}.haystack_sessions[{m}]", "must be a list of turns")
        first = True
        for k, turn in enumerate(session):
            place = f"{where}.haystack_sessions[{m}][{k}]"
            if not isinstance(turn, Mapping) or turn.get("role") not in ("user", "assistant"):
                raise ValidationError(place, "must be a turn with role user or assistant")
            text = str(turn.get("content") or "").strip()
            if not text:
                continue
            if len(text) > C.MAX_TEXT_CHARS:
                text, cut = text[: C.MAX_TEXT_CHARS], cut + 1
            # the next minute; a session that shares the last one's minute follows it
            at = began if last is None or (first and began > last) else last + STEP
            tid = f"{ids[m]}:{k}"
            turns.append(
                {"id": tid, "at": at.isoformat(), "session": str(ids[m]),
                 "role": "student" if turn["role"] == "user" else "tutor", "text": text}
            )  # fmt: skip
            if turn.get("has_answer") is True:
                evidence.append(tid)
            first, last = False, at
    if not turns:
        raise ValidationError(f"{where}.haystack_sessions", "holds no turn with text")
    return turns, evidence, cut


def _when(value: Any, where: str) -> datetime:
    """``"2023/05/30 (Tue) 23:40"`` as a UTC time."""
    found = _WHEN.match(str(value or ""))
    if found is None:
        raise ValidationError(where, f"is not a time like '2023/05/30 (Tue) 23:40' ({value!r})")
    year, month, day, hour, minute = (int(g) for g in found.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise ValidationError(where, f"is not a date ({exc})") from None
