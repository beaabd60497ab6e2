"""Real people's small talk for the long set (``bench-recall --real-small-talk``, ``--real-chat``).

Our generators' small talk is ours: a few dozen lines we wrote, repeated. Real chats wander —
naps, roommates, a phone that lags, a dog, an exam — in words no list of ours holds, and that
is what stands between a question and its evidence in a real history. The Chit-Chat
Challenge's conversations (BYU Perception, Control and Cognition lab, 2018; MIT; the
``chitchat-dataset`` package, 7,168 English chats between two people, 258,145 messages) are
such talk, written by people none of whom wrote this project. With ``--real-small-talk``
every small-talk exchange of the long set's English pairs is two turns of one of those chats,
in its order: a session follows one chat (two turns an exchange; the next chat when it runs
out), the first speaker's turns said by the student, the second's by the tutor. Everything
else — the stories, their near misses, the questions, the study talk, the people of the
student's life — is the plain set's, line for line: the generator draws the same numbers and
only the small talk's words change. The other languages keep the generated talk (the chats are
English).

With ``--real-chat`` every filler exchange of those pairs is real chat, the study talk and the
tutor's prompts too (about three lines in four): each line of the exchange is the chat's next
turn, said by whichever of the two speaks it there, and named as the plain line was (or not).
The stories, their near misses, the people of the student's life, the greetings and goodbyes
stay: a chat between two people with facts told among the rest, as public multi-session chat
sets are (LoCoMo's).

A turn is its messages joined by a space, spacing folded, cut after ``MAX_CHARS`` at a word;
only chats of at least ``MIN_TURNS`` turns are used (half the archive is a greeting and a
reply), in the archive's key order, each pair drawing its own.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

Role = Literal["student", "tutor"]

MIN_TURNS: Final = 10
MAX_CHARS: Final = 600


class RealTalkMissing(RuntimeError):
    """The archive's package is not installed."""


@lru_cache(maxsize=1)
def chats() -> tuple[tuple[str, ...], ...]:
    """The archive's chats of at least ``MIN_TURNS`` turns, each a tuple of turn texts."""
    try:
        import chitchat_dataset  # type: ignore[import-untyped]
    except ImportError:
        raise RealTalkMissing(
            "needs the chitchat-dataset package (pip install -e '.[dev]')"
        ) from None
    path = Path(chitchat_dataset.__file__).with_name("dataset.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for key in sorted(data):
        turns = tuple(
            text
            for turn in data[key]["messages"]
            if (text := _clean(" ".join(str(m["text"]) for m in turn)))
        )
        if len(turns) >= MIN_TURNS:
            found.append(turns)
    return tuple(found)


def _clean(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= MAX_CHARS:
        return text
    cut = text[:MAX_CHARS]
    return cut[: cut.rfind(" ")] if " " in cut else cut


class RealTalk:
    """One pair's real talk: a chat a session, taken two turns an exchange (small talk) or turn
    by turn (a whole chat)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.all = chats()
        self.used: set[int] = set()
        self.turns: tuple[str, ...] = ()
        self.at = 0

    def next_session(self) -> None:
        """A new session takes up a chat of its own."""
        self.turns, self.at = (), 0

    def exchange(self) -> tuple[str, str]:
        """The next two turns: the student's, then the tutor's (a turn of the chat's second
        speaker is passed over to get there)."""
        self.at += self.at % 2
        if self.at + 2 > len(self.turns):
            self.turns, self.at = self._new_chat(), 0
        first, second = self.turns[self.at], self.turns[self.at + 1]
        self.at += 2
        return first, second

    def turn(self) -> tuple[Role, str]:
        """The chat's next turn and who says it: its first speaker is the student."""
        if self.at >= len(self.turns):
            self.turns, self.at = self._new_chat(), 0
        said = self.turns[self.at]
        self.at += 1
        return ("student" if self.at % 2 else "tutor"), said

    def _new_chat(self) -> tuple[str, ...]:
        if len(self.used) == len(self.all):
            self.used.clear()
        k = self.rng.choice([i for i in range(len(self.all)) if i not in self.used])
        self.used.add(k)
        return self.all[k]
