"""The turn an episode responds to, whose words the index reads with it (ours).

A reply carries its meaning in the turn it answers: "yes, we went bowling, she loved it" says
nothing of a birthday until it is read after "What did you do for your sister's birthday?".
So the index's **lexical terms** (``usecases.log.indexed``) read a conversational episode
together with that turn, its *context*. The episode itself, its hash, its chain and the block
are untouched: the context is only a search aid, never copied into the log.

The **passage embedding reads the episode's own text**, not its context (measured, issue 26,
``bench-recall``): with the context in the embedding too, a statement that carries its own
meaning ("Biscuit is a golden retriever") was embedded with the tutor's line before it and
lost its place among the question's neighbours. Words only: long conversations' pack .743 →
.792 (paraphrase .469 → .594, return .688 → .938, replies 1.000 both), synthetic .958 → .972,
MADial unchanged (no replies). An episode's vector is thus its text's alone: repeated texts are
embedded once, and erasing a neighbour changes no vector.

The rule, a function of the log alone (never of when a write ran):

* only conversational episodes have or give a context: ``question`` (whatever the student
  says, a question or not) and ``answer`` (whatever the tutor says);
* the context is the pair's immediately preceding episode (``seq - 1``), when it is of the
  *other* conversational kind (a question answers an answer, an answer a question);
* neither is erased (an erased body must not live on in its neighbour's index document);
* it came at most ``CONTEXT_MAX_GAP`` before (in either direction: a client's clock a little
  off does not break an exchange), else the episode starts a new exchange.

Otherwise the episode has no context and is indexed as itself alone.
"""

from __future__ import annotations

from typing import Final

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode

# Each conversational kind, and the kind it responds to.
RESPONDS_TO: Final[dict[Kind, Kind]] = {Kind.QUESTION: Kind.ANSWER, Kind.ANSWER: Kind.QUESTION}

Turn = Episode | NewEpisode  # sealed, or about to be appended (no sequence yet)


def may_respond(episode: Turn) -> bool:
    """Whether ``episode`` can have a context at all: conversational and not erased (what to
    check before reading the episode before it)."""
    return episode.kind in RESPONDS_TO and not (isinstance(episode, Episode) and episode.erased)


def responds_to(episode: Turn, previous: Turn | None) -> bool:
    """Whether ``episode`` responds to ``previous``, the episode just before it in its pair's
    log. Where both are sealed, their sequences must say so (``previous.seq == seq - 1``) and
    their pair be one; a new episode's place is the caller's to know (the head it read)."""
    if previous is None or not may_respond(episode) or not may_respond(previous):
        return False
    if previous.pair != episode.pair or RESPONDS_TO[episode.kind] is not previous.kind:
        return False
    if (
        isinstance(episode, Episode)
        and isinstance(previous, Episode)
        and previous.seq != episode.seq - 1
    ):
        return False
    return abs(episode.at - previous.at) <= C.CONTEXT_MAX_GAP


def context_of(episode: Turn, previous: Turn | None) -> Turn | None:
    """``previous`` when ``episode`` responds to it (see :func:`responds_to`), else None."""
    return previous if responds_to(episode, previous) else None


def context_words(context: Turn | None) -> str:
    """What the context adds to the episode's lexical terms: its text."""
    return "" if context is None else context.text
