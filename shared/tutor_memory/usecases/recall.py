"""Recall: gather (here: the I/O — the question's one embedding, the four pools, the routes)
then rank (``domain.recall.rank``, pure). The question is understood once
(``domain.question.understand``); a turn passes the ``Question`` it understood, so nothing
reads the text again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import chain
from zoneinfo import ZoneInfo

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Episode, ErasureEvidence, Pair
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.domain.question import Question, understand
from tutor_memory.domain.recall import (
    Candidates,
    RecallResult,
    Routes,
    distinctive_terms_of,
    rank,
    route_question,
)
from tutor_memory.domain.routing import ConceptVectors
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import ConceptVectorSource, Hits, Ports

log = logging.getLogger(__name__)


def _besides(*found: Sequence[str], pooled: Sequence[str]) -> list[str]:
    """The candidates ``found`` by the other pools (first seen first) that a pool did not
    score itself (``pooled``): what the index is asked to score for that pool."""
    scored = set(pooled)
    return [i for i in dict.fromkeys(chain(*found)) if i not in scored]


def _lap(since: float) -> tuple[float, float]:
    now = time.perf_counter()
    return round((now - since) * 1000, 3), now


class Recall:
    def __init__(self, ports: Ports) -> None:
        self.ports = ports

    def recall(
        self,
        pair: Pair,
        question: str | Question | None,
        *,
        at: datetime | None = None,
        limit: int = C.RECALL_LIMIT,
        exclude_narrations: bool = False,
        also_ids: Sequence[str] | Callable[[], Sequence[str]] = (),
        record: bool = False,
        before_search: Callable[[], None] | None = None,
        trace: dict[str, tuple[tuple[str, ...], str]] | None = None,
        names: Sequence[str] | Callable[[], Sequence[str]] = (),
        corrections: Callable[[], Mapping[str, Episode]] | None = None,
        vector_left: Callable[[], float] | None = None,
    ) -> RecallResult:
        """Widen (four pools over the whole history, or inside a named time), then cut.

        The question is embedded once; that one vector serves the semantic pool (and, with the
        map, concept routing). Episodes after ``at`` are not known yet and never recalled.
        ``also_ids`` adds episodes to the concept pool (a record question passes the checks
        behind its beliefs), and ``record`` keeps the conversation that matches nothing
        (ranked lower, not dropped). ``before_search`` runs once the question is understood
        and before the index is asked (the turn checks there, beside its first reads, that the
        index has caught up with the log). ``trace`` (for the recall bench) is filled with each
        candidate's pools and fate: "match", "demoted" (kept below the matches) or "dropped".
        ``names`` are the student's own (``Question.without_names``); a callable is asked once
        the question's vector is in, so the profile's read can still be on its way.
        ``corrections`` gives each corrected episode's newest correction (asked once the
        candidates are in): they are ranked and collapsed as corrected. ``vector_left`` (the
        turn's): the seconds still left to wait for the question's vector; past them, recall
        goes on by words, as when the model cannot answer.
        """
        now = at or self.ports.clock.now()
        timings: dict[str, float] = {}
        tick = time.perf_counter()
        if not isinstance(question, Question):
            question = understand(question, now, ZoneInfo(self.ports.timezone))
        pool, sizes, question = self._gather(
            pair, question, now, also_ids, before_search, timings, tick, names, vector_left
        )
        tick = time.perf_counter()
        fixes = corrections() if corrections is not None else None
        if fixes:
            pool.correct(fixes)
        candidates = pool.values()
        items, mode = rank(
            candidates,
            now=now,
            has_question=question.gated,
            limit=limit,
            exclude_narrations=exclude_narrations or record or question.window is not None,
            gate=not record,
            terms=question.terms,
        )
        timings["rank"], _ = _lap(tick)
        if trace is not None:
            for c in candidates:
                fate = "match" if c.matches else "demoted" if c.kept_by_fusion else "dropped"
                trace[c.episode.episode_id] = (tuple(sorted(p.value for p in c.pools)), fate)
        return RecallResult(
            items=items,
            mode=mode,
            window=question.window,
            window_empty=question.window is not None and not items,
            terms=question.terms,
            concept_keys=question.routes.keys,
            pool_sizes=sizes,
            timings_ms=timings,
            meaning_keys=question.routes.meaning,
            concept_similarity=question.routes.similarity,
            meaning_missed=(
                bool(question.text) and self.ports.embedder is not None and question.vector is None
            ),
        )

    def _gather(
        self,
        pair: Pair,
        question: Question,
        now: datetime,
        also_ids: Sequence[str] | Callable[[], Sequence[str]],
        before_search: Callable[[], None] | None,
        timings: dict[str, float],
        tick: float,
        names: Sequence[str] | Callable[[], Sequence[str]],
        vector_left: Callable[[], float] | None = None,
    ) -> tuple[Candidates, dict[str, int], Question]:
        """The four pools (and the record question's evidence), and the question with its
        vector and routes filled in. Reads that need nothing from the question go out together
        with its embedding: in the cloud, one wait for all of them (ARCHITECTURE rule 10: at
        most three per turn)."""
        soon, store, index = self.ports.reads.soon, self.ports.store, self.ports.index
        text = question.text
        scope = question.scope(now)
        recent_soon = soon(store.recent, pair, C.RECALL_RECENT_POOL, scope)
        names_soon = soon(store.concept_names, pair) if text else None
        behind_soon = soon(self._beliefs_evidence, pair, also_ids, scope)
        # The map's concept vectors, for routing by meaning: read beside the embedding, so a
        # question that names no concept does not wait for them after it.
        vectors_soon = soon(self._concept_vectors, pair) if text else None
        embedder = self.ports.embedder
        if text and embedder is not None:
            # Remembered for a question asked again; awaited when the turn started it early.
            # A model that cannot answer (a remote one down, throttled past its retries) or
            # not in the time the turn gives it (a long question) costs this turn its meaning,
            # not its block: recall goes on by words and recency, as with no embedder, and
            # says so in the log (the error holds no student's words).
            try:
                aside = self.ports.reads.embedding(text) if vector_left is not None else None
                vector = self.ports.queries.vector(embedder, text, left=vector_left, start=aside)
                question = question.with_vector(vector)
            except EmbedderError as exc:
                log.warning("recall by words only this turn: %s", exc)
        if question.terms:
            question = question.without_names(names() if callable(names) else names)
        terms = question.terms
        timings["understand"], tick = _lap(tick)

        pool = Candidates()
        # An erased episode keeps its envelope in the log but is never recalled; nor is one an
        # erasure of the whole pair names while a worker still erases it (its entries, the
        # newest lines, are in the recent pool: usecases/erasure.py ErasureTask).
        newest = recent_soon.result()
        wiped = erased_wholly_before(newest)
        recent = [e for e in newest if not e.erased and e.seq > wiped]
        pool.add_recent(recent)
        sizes = {"recent": len(recent), "lexical": 0, "semantic": 0, "concept": 0}
        # By name and, with the same one question vector, by meaning against the map's. The
        # concept pool takes names first, meaning only when no name matched (``Routes``).
        routes = (
            route_question(
                text,
                names_soon.result(),
                vector=question.vector,
                concept_vectors=vectors_soon.result if vectors_soon else lambda: None,
                profile=embedder.profile.name if embedder is not None else "",
            )
            if names_soon
            else Routes()
        )
        question = question.with_routes(routes)
        keys = list(routes.keys)
        touching_soon = (
            soon(store.touching, pair, keys, scope, newest=C.RECALL_CONCEPT_POOL) if text else None
        )
        lexical = semantic = Hits()
        found: dict[str, Episode] = {}
        distinctive = None
        cosines_soon = bm25_soon = crowd_soon = None
        searched_vector = question.searched_vector
        if before_search is not None:
            before_search()
        if text and index is not None:  # while the concept pool is on its way
            lexical, semantic, counts = index.search(
                pair,
                terms=terms,
                vector=searched_vector,
                lexical_limit=C.RECALL_LEXICAL_POOL,
                k=C.RECALL_SEMANTIC_K,
                window=scope,
            )
            # Every candidate is scored by meaning, not only the k nearest: the cosines of
            # the others are read beside the hits' episodes (no wait of their own).
            recent_ids = [e.episode_id for e in recent]
            if searched_vector is not None:
                others = _besides(recent_ids, lexical.episode_ids, pooled=semantic.episode_ids)
                if others:
                    cosines_soon = soon(index.cosines, pair, others, searched_vector)
                # And the vectors of the texts the near rule weighs (the semantic pool's) and
                # of its crowd (the recent pool's): how crowded each one's neighbourhood is.
                # Fewer distinct texts than a crowd: the rule reads no crowding, read nothing.
                crowd = len({e.text for e in recent}) >= C.RECALL_GATE_MIN_DOCUMENTS
                if crowd and semantic:
                    wanted = list(dict.fromkeys(chain(recent_ids, semantic.episode_ids)))
                    crowd_soon = soon(index.vectors, pair, wanted)
            # And by words: when the lexical pool was cut at its limit, a candidate past the
            # cut may still hold the question's words (below the cut, every one is a hit).
            if terms and len(lexical) >= C.RECALL_LEXICAL_POOL:
                others = _besides(recent_ids, semantic.episode_ids, pooled=lexical.episode_ids)
                if others:
                    bm25_soon = soon(index.lexical_scores, pair, others, terms)
            found = {
                e.episode_id: e
                for e in store.get_many(pair, lexical.episode_ids + semantic.episode_ids)
                if not e.erased  # an index may still hold an erased episode's document
                and e.seq > wiped
            }
            if counts is not None and lexical:
                distinctive = distinctive_terms_of(counts)
        behind = behind_soon.result()
        if behind is not None:
            behind = [e for e in behind if e.seq > wiped]
            # A record question also reaches the checks behind the current beliefs, from the
            # whole history (bounded: a belief keeps its newest evidence ids).
            pool.add_concept(behind)
            sizes["beliefs' evidence"] = len(behind)
        if text:
            assert touching_soon is not None
            touching = [e for e in touching_soon.result() if e.seq > wiped]
            pool.add_concept(touching)
            sizes["concept"] = len(touching)
            if index is not None:
                if terms:
                    pool.add_lexical(
                        (
                            (found[i], s, matched)
                            for i, s, matched in lexical.scored()
                            if i in found
                        ),
                        distinctive,
                    )
                if searched_vector is not None:
                    pool.add_semantic((found[i], s) for i, s, _ in semantic.scored() if i in found)
                    if cosines_soon is not None:
                        pool.add_cosines(cosines_soon.result())
                    if crowd_soon is not None:
                        pool.add_vectors(crowd_soon.result())
                if bm25_soon is not None:
                    pool.add_lexical_scores(bm25_soon.result())
                sizes["lexical"], sizes["semantic"] = len(lexical), len(semantic)
        timings["pools"], _ = _lap(tick)
        return pool, sizes, question

    def _concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The map's routing vectors, when the store keeps a map (both adapters do)."""
        if isinstance(self.ports.store, ConceptVectorSource):
            return self.ports.store.concept_vectors(pair)
        return None

    def _beliefs_evidence(
        self,
        pair: Pair,
        also_ids: Sequence[str] | Callable[[], Sequence[str]],
        scope: TimeWindow,
    ) -> list[Episode] | None:
        """The episodes behind ``also_ids`` inside ``scope`` (None when there are none to
        read); ``also_ids`` may be a callable, so the beliefs can still be on their way."""
        ids = list(also_ids() if callable(also_ids) else also_ids)
        if not ids:
            return None
        return [e for e in self.ports.store.get_many(pair, ids) if e.at in scope and not e.erased]


def erased_wholly_before(newest: Sequence[Episode]) -> int:
    """The sequence of the newest entry of an erasure of a whole pair (or student) among these
    episodes, 0 when none: every episode before it is erased, or is being erased by a worker."""
    return max(
        (
            e.seq
            for e in newest
            if isinstance(e.evidence, ErasureEvidence) and e.evidence.scope in ("pair", "student")
        ),
        default=0,
    )
