"""A turn's question, understood once: its language, the time it names, its analysed terms,
whether it asks about the student's record, and (filled in by recall's gather, which does the
I/O) the one question vector and the concepts it routes to. Recall's pools, its rank and the
block all read this one value instead of reading the text again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo

from tutor_memory.domain.language import analyse, detect_language, distinctive_terms
from tutor_memory.domain.recall import Routes
from tutor_memory.domain.record_question import is_record_question
from tutor_memory.domain.routing import F32
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.timewords import find_window

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # the start of "the whole history"


@dataclass(frozen=True)
class Question:
    text: str = ""  # stripped; "" when the turn asks nothing
    language: str = "en"
    record: bool = False  # about the student's own record ("where do I keep going wrong?")
    window: TimeWindow | None = None  # the time it names ("in July"), in the student's days
    terms: tuple[str, ...] = ()  # distinctive analysed terms, the named time's words left out
    # The one query embedding (None: no embedder), as the embedder gives it: float32, handed
    # on to routing and the index as it is (no list made and packed back per turn).
    vector: F32 | None = field(default=None, compare=False)
    routes: Routes = field(default_factory=Routes)  # the concepts it routes to, both ways

    @property
    def asked(self) -> bool:
        return bool(self.text)

    @property
    def topical(self) -> bool:
        """It has a topic: a term to search for or a concept it routes to."""
        return bool(self.terms) or bool(self.routes.keys)

    @property
    def gated(self) -> bool:
        """Rank gates on relevance: a question that is not only a named time ("what did we do
        in July?" wants the whole period, which recency orders)."""
        return self.asked and (self.window is None or self.topical)

    @property
    def searched_vector(self) -> F32 | None:
        """The vector the semantic pool is asked with: none for a bare named time."""
        return self.vector if self.window is None or self.topical else None

    def scope(self, now: datetime) -> TimeWindow:
        """Where every pool looks: inside the named time, and never past ``now``."""
        upto = now + timedelta(microseconds=1)
        if self.window is None:
            return TimeWindow(EPOCH, upto)
        return TimeWindow(self.window.start, min(self.window.end, upto), self.window.label)

    def with_vector(self, vector: F32 | None) -> Question:
        return replace(self, vector=vector)

    def with_routes(self, routes: Routes) -> Question:
        return replace(self, routes=routes)

    def without_names(self, names: Sequence[str]) -> Question:
        """The question with the student's own ``names`` (``profile.names_of``) out of its
        terms: "What kind of dog does Maya have?" is about a dog. The name says whom it asks
        about — every memory of the pair is about the student — and the tutor's "Hi Maya!",
        said once a session, holds it in too few lines to be an everyday word, so that every
        greeting matched the question by words. Analysed in the question's language, as its
        terms were. The text is not changed: its vector is the one the turn already asked for.
        """
        if not names or not self.terms:
            return self
        named = set(analyse(" ".join(names), self.language))
        return replace(self, terms=tuple(t for t in self.terms if t not in named))


def understand(question: str | None, now: datetime, tz: tzinfo) -> Question:
    """Read the question's text once (pure): language, named time, terms, record or not."""
    text = (question or "").strip()
    if not text:
        return Question(record=is_record_question(question))
    lang = detect_language(text)
    window = find_window(text, now, tz)
    terms = tuple(distinctive_terms(text))
    if window is not None:  # "July" names the time, not the topic
        named = set(distinctive_terms(" ".join(window.phrase), lang)) if window.phrase else set()
        terms = tuple(t for t in terms if t not in named)
    return Question(text, lang, is_record_question(question), window, terms)
