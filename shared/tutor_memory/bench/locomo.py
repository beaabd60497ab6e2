"""LoCoMo's own file, read as ``--data`` conversations (``bench-recall --data locomo10.json``).

LoCoMo (Maharana et al., ACL 2024; ``locomo10.json`` in its public repository, CC BY-NC 4.0:
fetch it yourself, it is not shipped here) is the usual public set of long multi-session
chats: ten conversations of two named people over months (19–32 dated sessions, ~300 turns
each), 1,986 questions with the turns that answer them. Its layout, as the file has it::

    [{"sample_id": "conv-26",
      "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie",
                       "session_1_date_time": "1:56 pm on 8 May, 2023",
                       "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "…"},
                                     {"speaker": "Melanie", "dia_id": "D1:2", "text": "…",
                                      "img_url": ["…"], "blip_caption": "a photo of …"}, …],
                       …},
      "qa": [{"question": "When did Caroline go to the LGBTQ support group?",
              "answer": "7 May 2023", "evidence": ["D1:3"], "category": 2}, …],
      …}, …]

How it is read (``from_locomo``), each choice the plainest one:

* one pair per conversation, its id the ``sample_id``; ``speaker_a`` is the student (her
  lines ``question`` episodes), ``speaker_b`` the tutor (``answer`` episodes) — the product
  keeps one student's memory, and the other person's lines are what was said to her. Each
  line is written as ``"<speaker>: <text>"``, as the bench replays MADial's dialogues: half of
  the questions ask about ``speaker_b`` by name, and a line carries who said it;
* a line that shared a photo has its caption after it: ``… (photo: a photo of a sunset)``
  (the caption is all the file says of the picture); a line with neither text nor caption is
  left out;
* each session's first line at the session's time (``1:56 pm on 8 May, 2023``, taken as UTC),
  the others without one: a minute after the line above (``conversation_file``'s rule for
  sets that date their sessions);
* the questions of categories 1–4 — multi-hop, temporal, open-domain, single-hop, by the
  authors' numbering — with the lines their ``evidence`` names (every ``D<session>:<line>``
  in it: a few evidence strings hold two, "D8:6; D9:17"); category 5 (adversarial: what the
  conversation does not say) has nothing to find and is not asked, nor is a question none
  of whose evidence names a line of its conversation. ``skipped`` says how many of each;
* every question asked a day after the conversation's last line, as the built-in sets ask.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from tutor_memory.bench.ids import fit_id, unique
from tutor_memory.domain.errors import ValidationError

CATEGORIES: Final = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
ADVERSARIAL: Final = 5
_SESSION: Final = re.compile(r"^session_(\d+)$")
# The session times' form, read as C's strptime reads English month names (full or short).
_WHEN_FORMS: Final = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y")
_EVIDENCE: Final = re.compile(r"D\d+:\d+")


@dataclass(frozen=True)
class Skipped:
    """The questions ``from_locomo`` did not ask, by why."""

    adversarial: int = 0
    no_evidence: int = 0


def is_locomo(raw: Any) -> bool:
    """Whether a decoded document is LoCoMo's layout (a list of samples, each with its
    ``conversation`` and its ``qa``)."""
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(isinstance(s, dict) and "conversation" in s and "qa" in s for s in raw)
    )


def from_locomo(raw: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], Skipped]:
    """LoCoMo's samples as a ``--data`` document (``conversation_file``'s layout), and what
    was not asked (see the module). A ``ValidationError`` names a sample's place."""
    conversations, adversarial, no_evidence = [], 0, 0
    pairs: set[str] = set()
    for n, sample in enumerate(raw):
        where = f"[{n}]"
        chat = sample["conversation"]
        if not isinstance(chat, Mapping):
            raise ValidationError(f"{where}.conversation", "must be an object")
        student = _text(chat.get("speaker_a"), f"{where}.conversation.speaker_a")
        turns = _turns(chat, student, where)
        known = {t["id"] for t in turns}
        questions = []
        for m, qa in enumerate(sample["qa"]):
            if not isinstance(qa, Mapping):
                raise ValidationError(f"{where}.qa[{m}]", "must be an object")
            number = qa.get("category")
            if number == ADVERSARIAL:
                adversarial += 1
                continue
            named = CATEGORIES.get(number) if isinstance(number, int) else None
            category = named or f"category {number}"
            cited = _EVIDENCE.findall(" ".join(str(e) for e in qa.get("evidence") or ()))
            evidence = list(dict.fromkeys(e for e in cited if e in known))
            question = str(qa.get("question") or "").strip()
            if not evidence or not question:
                no_evidence += 1
                continue
            questions.append(
                {"id": f"q{m}", "text": question, "evidence": evidence, "category": category}
            )
        sample_id = str(sample.get("sample_id") or f"locomo-{n}")
        conversations.append(
            {"id": unique(fit_id(sample_id, f"locomo-{n}"), pairs), "language": "en",
             "turns": turns, "questions": questions}
        )  # fmt: skip
    return {"conversations": conversations}, Skipped(adversarial, no_evidence)


def _turns(chat: Mapping[str, Any], student: str, where: str) -> list[dict[str, Any]]:
    """Every line of every session, in the sessions' order (see the module)."""
    numbered = sorted(
        (int(found.group(1)), key) for key in chat if (found := _SESSION.match(key)) is not None
    )
    turns: list[dict[str, Any]] = []
    taken: set[str] = set()
    for number, key in numbered:
        lines = chat[key]
        if not isinstance(lines, list):
            raise ValidationError(f"{where}.conversation.{key}", "must be a list of lines")
        began: datetime | None = _when(
            chat.get(f"{key}_date_time"), f"{where}.conversation.{key}_date_time"
        )
        for m, line in enumerate(lines):
            place = f"{where}.conversation.{key}[{m}]"
            if not isinstance(line, Mapping):
                raise ValidationError(place, "must be an object")
            text = _said(line)
            if not text:
                continue
            speaker = _text(line.get("speaker"), f"{place}.speaker")
            turn = {
                # a repeated dia_id (the evidence names the first) gets a suffix
                "id": unique(str(line.get("dia_id") or f"D{number}:{m + 1}"), taken),
                "session": number,
                "role": "student" if speaker == student else "tutor",
                "text": f"{speaker}: {text}",
            }
            if began is not None:  # the session's first line; the rest a minute apart
                turn["at"], began = began.isoformat(), None
            turns.append(turn)
    if not turns:
        raise ValidationError(f"{where}.conversation", "has no session with a line")
    return turns


def _said(line: Mapping[str, Any]) -> str:
    text = " ".join(str(line.get("text") or "").split())
    caption = " ".join(str(line.get("blip_caption") or "").split())
    if caption:
        return f"{text} (photo: {caption})" if text else f"(photo: {caption})"
    return text


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(where, "must be a name")
    return value.strip()


def _when(value: Any, where: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as a UTC time."""
    said = " ".join(str(value or "").split()).upper()  # AM/PM and month names, any case
    for form in _WHEN_FORMS:
        try:
            return datetime.strptime(said, form).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValidationError(where, f"is not a time like '1:56 pm on 8 May, 2023' ({value!r})")
