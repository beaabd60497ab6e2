"""The turn an episode responds to, which the index reads with it (ours).

A reply carries its meaning in the turn it answers: "yes, we went bowling, she loved it" says
nothing of a birthday until it is read after "What did you do for your sister's birthday?".
So the index (the lexical terms and the passage embedding of ``usecases.log``) reads a
conversational episode together with that turn, its *context*. The episode itself, its hash,
its chain and the block are untouched: the context is only a search aid, never copied into the
log.

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


def passage(text: str, context: Turn | None) -> str:
    """What the passage embedding reads: the context's text, then the episode's. Without a
    context, the episode's text alone (as before contexts were read)."""
    return text if context is None else f"{context.text}\n{text}"


def context_words(context: Turn | None) -> str:
    """What the context adds to the episode's lexical terms: its text."""
    return "" if context is None else context.text
