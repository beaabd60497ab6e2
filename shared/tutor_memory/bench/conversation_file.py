"""Your own conversations, for ``tutor-memory bench-recall --data FILE``.

The bench's own sets are MADial-Bench (public, short dated memories) and two generators
written here, which agree with our assumptions. A team with real chats — its own transcripts,
or a public multi-session set converted to this format — measures recall on them with the
same run: the product's recall and block beside BM25, dense and RRF over every turn, the
pack, and why evidence was missed. The file is one JSON document:

.. code-block:: json

    {"conversations": [{
        "id": "maya-biology",
        "language": "en",
        "turns": [
            {"id": "t1", "at": "2025-09-01T16:00:00+00:00", "role": "student",
             "text": "my dog Biscuit ate my homework"},
            {"id": "t2", "at": "2025-09-01T16:00:30+00:00", "role": "tutor",
             "text": "Oh no! Let's redo it together."}
        ],
        "questions": [
            {"id": "q1", "text": "What is the name of Maya's dog?", "evidence": ["t1"],
             "category": "single"}
        ],
        "asked_at": "2025-09-02T16:00:00+00:00"
    }]}

* ``id``: the pair's student id (letters, digits and ``. _ @ -``), one per conversation;
* ``turns``, oldest first (times never go back): ``role`` is ``student`` (recorded as a
  ``question`` episode, whatever it says) or ``tutor`` (an ``answer``), ``at`` an ISO 8601
  time with its zone; ``session`` is optional — given for every turn or for none; without
  it a session ends after more than ``SESSION_GAP`` without a turn (the usual inactivity
  rule of web analytics; it is also the gap after which a reply stops answering a turn);
* ``at`` may be left out of a turn that continues a session: it is then said ``TURN_STEP``
  after the turn above. Public multi-session sets often date their sessions and not their
  turns; give each session's first turn the session's time and leave the rest out. The
  first turn needs a time, and so does each turn that starts a given ``session`` (a session
  begins when its people meet again, which no step can guess);
* ``questions``: ``evidence`` names the turns that answer it (all must be in the pack for the
  question to count as found); ``category`` is a free label the report groups by;
* ``language`` (en, es, id, ur, ar) only groups the report; by default the language most of
  the student's turns are written in;
* ``student_name``: what the student is called, when the team knows it — the pair's profile
  is given it (its ``name`` aspect) before the questions are asked, as a product that knows
  its students sets it;
* ``asked_at``: when the questions are asked, after the last turn; by default a day after
  it, as the built-in sets ask. A question may carry its own ``asked_at``, anywhere after its
  evidence: it is then asked in the middle of the conversation, and what was said after it is
  known neither to recall nor to the baselines.

Unknown fields are refused (a misspelt ``evidance`` would otherwise pass silently), and an
error names its place: ``conversations[0].questions[2].evidence: t9 is not a turn of this
conversation``. Nothing is replayed until the whole file has been read.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints
from pydantic import ValidationError as PydanticValidationError

from tutor_memory.bench.conversations import Conversation, GoldQuestion, Utterance
from tutor_memory.bench.locomo import from_locomo, is_locomo
from tutor_memory.bench.longmemeval import from_longmemeval, is_longmemeval
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import LANGUAGES, detect_language

SESSION_GAP: Final = C.CONTEXT_MAX_GAP  # 30 minutes
# A chat's turns are seconds to minutes apart; any step under SESSION_GAP keeps an untimed
# turn in the session above it and a reply the answer to the turn before it.
TURN_STEP: Final = timedelta(minutes=1)
_UNTIMED: Final = "; a turn without a time is a minute after the one above it"
ASKED_AFTER: Final = timedelta(days=1)  # the built-in sets ask a day after the last session
_SHOWN: Final = 2  # problems named after the first one (a file with many says how many more)

_Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Turn(_Strict):
    id: _Label
    at: AwareDatetime | None = None  # None: TURN_STEP after the turn above (see the module)
    role: Literal["student", "tutor"]
    text: str
    session: _Label | int | None = None


class _Question(_Strict):
    id: _Label
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
    evidence: Annotated[list[_Label], Field(min_length=1)]
    category: _Label = "question"
    asked_at: AwareDatetime | None = None


class _Conversation(_Strict):
    id: str
    language: str | None = None  # one of the registry's (checked with the conversation)
    student_name: _Label | None = None  # the profile's name aspect, when the team knows it
    turns: Annotated[list[_Turn], Field(min_length=1)]
    questions: Annotated[list[_Question], Field(min_length=1)]
    asked_at: AwareDatetime | None = None


class _File(_Strict):
    conversations: Annotated[list[_Conversation], Field(min_length=1)]


def read_conversations(path: Path, note: Callable[[str], None] | None = None) -> list[Conversation]:
    """The file's conversations, checked whole (see the module); a ``ValidationError`` names
    the first problem's place. LoCoMo's and LongMemEval's own files are read too
    (``bench.locomo``, ``bench.longmemeval``): ``note`` is told what of them is asked."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ValidationError(str(path), "is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValidationError(
            str(path), f"is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:  # the decoder recurses once per level of nesting
        raise ValidationError(str(path), "nests arrays or objects too deeply") from None
    said = None
    if is_locomo(raw):
        raw, locomo = from_locomo(raw)
        asked = sum(len(c["questions"]) for c in raw["conversations"])
        said = (
            f"LoCoMo's layout: {len(raw['conversations'])} conversations, {asked} questions of "
            f"categories 1-4 asked; not asked: {locomo.adversarial} adversarial (category 5), "
            f"{locomo.no_evidence} naming no line"
        )
    elif is_longmemeval(raw):
        raw, lme = from_longmemeval(raw)
        said = (
            f"LongMemEval's layout: {len(raw['conversations'])} questions asked, each over its "
            f"own history; not asked: {lme.abstention} abstention (_abs), {lme.no_evidence} "
            f"marking no turn; {lme.turns_cut} turns cut to {C.MAX_TEXT_CHARS:,} characters"
        )
    if said is not None and note is not None:
        note(said)
    return parse_conversations(raw)


def parse_conversations(raw: Any) -> list[Conversation]:
    """``read_conversations`` for a document already decoded from JSON."""
    try:
        parsed = _File.model_validate(raw)
    except PydanticValidationError as exc:
        errors = exc.errors(include_url=False)
        first, more = errors[0], errors[1:]
        also = "".join(f"; also {_place(e['loc'])}: {e['msg']}" for e in more[:_SHOWN])
        if len(more) > _SHOWN:
            also += f"; and {len(more) - _SHOWN} more"
        raise ValidationError(_place(first["loc"]) or "file", first["msg"] + also) from None
    _unique([c.id for c in parsed.conversations], "conversations", "conversations")
    return [_conversation(c, f"conversations[{n}]") for n, c in enumerate(parsed.conversations)]


def _unique(ids: Sequence[str], where: str, what: str) -> None:
    """Refuse the first id that repeats one before it, by its place."""
    seen: set[str] = set()
    for n, one in enumerate(ids):
        if one in seen:
            raise ValidationError(f"{where}[{n}].id", f"{one!r} names two {what}")
        seen.add(one)


def _conversation(c: _Conversation, where: str) -> Conversation:
    try:
        pair = Pair(c.id, "conversation")
    except ValidationError as exc:
        raise ValidationError(f"{where}.id", exc.problem) from None
    if c.language is not None and c.language not in LANGUAGES:
        raise ValidationError(f"{where}.language", f"must be one of {', '.join(LANGUAGES)}")
    _unique([t.id for t in c.turns], f"{where}.turns", "turns")
    _unique([q.id for q in c.questions], f"{where}.questions", "questions")
    given = _given_sessions(c.turns, where)
    times = _times(c.turns, given, where)
    sessions = given or _derived_sessions(times)
    lines: list[Utterance] = []
    tids: dict[str, tuple[int, str, datetime]] = {}  # turn id → (session, the bench's tid, at)
    for n, (turn, session, when) in enumerate(zip(c.turns, sessions, times, strict=True)):
        at = f"{where}.turns[{n}]"
        try:  # the log's own rules for a text and a time, before anything is replayed
            kind = Kind.QUESTION if turn.role == "student" else Kind.ANSWER
            NewEpisode(pair, kind, turn.text, when)
        except ValidationError as exc:
            raise ValidationError(f"{at}.{exc.field}", exc.problem) from None
        tid = f"{c.id}/{turn.id}"
        tids[turn.id] = (session, tid, when)
        lines.append(Utterance(tid, session, when, turn.role, turn.text))
    last = times[-1]
    asked_at = c.asked_at or last + ASKED_AFTER
    if asked_at < last:
        raise ValidationError(f"{where}.asked_at", "is before the last turn")
    questions: list[GoldQuestion] = []
    for n, q in enumerate(c.questions):
        at = f"{where}.questions[{n}]"
        missing = [e for e in q.evidence if e not in tids]
        if missing:
            raise ValidationError(
                f"{at}.evidence", f"{missing[0]} is not a turn of this conversation"
            )
        if q.asked_at is not None:
            told = max(tids[e][2] for e in q.evidence)
            if q.asked_at < told:
                raise ValidationError(f"{at}.asked_at", "is before its evidence was said")
        gold = tuple(dict.fromkeys(tids[e][1] for e in q.evidence))
        spans = len({tids[e][0] for e in q.evidence})
        questions.append(
            GoldQuestion(f"{c.id}/{q.id}", q.category, q.text, gold, spans, q.asked_at)
        )
    language = c.language or _language(c.turns)
    return Conversation(
        pair,
        language,
        "student",
        "tutor",
        tuple(lines),
        tuple(questions),
        asked_at,
        profile_name=c.student_name,
    )


def _given_sessions(turns: Sequence[_Turn], where: str) -> list[int] | None:
    """Each turn's session as the file gives it, numbered from 0 in order of appearance;
    None when the file gives none (see the module)."""
    given = [t.session is not None for t in turns]
    if not any(given):
        return None
    if not all(given):
        n = given.index(not given[0])
        raise ValidationError(
            f"{where}.turns[{n}].session", "is given for some turns and not others"
        )
    numbers: dict[str | int, int] = {}
    return [numbers.setdefault(t.session, len(numbers)) for t in turns if t.session is not None]


def _times(turns: Sequence[_Turn], sessions: Sequence[int] | None, where: str) -> list[datetime]:
    """Each turn's time: its own, or ``TURN_STEP`` after the turn above (see the module)."""
    out: list[datetime] = []
    for n, turn in enumerate(turns):
        at = f"{where}.turns[{n}].at"
        if turn.at is None:
            if not n:
                raise ValidationError(at, "is needed for the first turn")
            if sessions is not None and sessions[n] != sessions[n - 1]:
                raise ValidationError(at, "is needed for a turn that starts a session")
            out.append(out[-1] + TURN_STEP)
            continue
        if n and turn.at < out[-1]:
            untimed = "" if turns[n - 1].at is not None else _UNTIMED
            raise ValidationError(at, f"is before the turn above it (oldest first{untimed})")
        out.append(turn.at)
    return out


def _derived_sessions(times: Sequence[datetime]) -> list[int]:
    """A session ends after more than ``SESSION_GAP`` without a turn."""
    out, session = [], 0
    for n, when in enumerate(times):
        if n and when - times[n - 1] > SESSION_GAP:
            session += 1
        out.append(session)
    return out


def _language(turns: Sequence[_Turn]) -> str:
    """The language most of the student's turns (else all turns) are written in; a tie goes
    to the registry's order."""
    said = [t.text for t in turns if t.role == "student"] or [t.text for t in turns]
    counts = Counter(detect_language(text) for text in said)
    return max(LANGUAGES, key=lambda lang: (counts[lang], -LANGUAGES.index(lang)))


def _place(loc: Sequence[int | str]) -> str:
    """A pydantic error's location as a path: ``conversations[0].turns[3].at``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
