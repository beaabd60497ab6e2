"""Recall's second half: score the widened candidates, gate, collapse, order (SPEC §3).

The pools (recent, lexical, concept, semantic — each over the whole history) are gathered by
the service; this module only decides. *Widen first, cut later*: nothing here limits a pool.

Relevance of a candidate, 0–1 (ours; the article does not define it):

* lexical: its BM25 score divided by the best BM25 score of this question (1.0 for the best);
* semantic: the cosine rescaled over this question's candidates, ``(cos - worst) / (best -
  worst)`` over their distinct texts (1.0 for the nearest) — relative, because cosines are not
  comparable across models (E5's are compressed into ~0.8–0.9). **Every candidate is scored by
  meaning**, whichever pool found it: the index gives the cosines of the recent pool and the
  lexical hits beside the k nearest (``Candidates.add_cosines``), so a memory found by words
  alone is not counted as "0 by meaning" and a recent line gets its real figure;
* concept: 1.0 when the episode touches a concept the question routes to;
* relevance is the **mean** of the lexical and the semantic figure over the pools this question
  ran (CombSUM, Fox & Shaw 1994: a memory both pools found is likelier relevant than one only
  one of them found; a pool that did not run — no vector, no term — does not count), or 1.0 on
  a routed concept. A candidate another pool found past the lexical pool's 200 hits gets its
  own BM25 score from the index (``Candidates.add_lexical_scores``), on the pool's scale: 0 by
  words only when it holds none of the question's terms.

What *matches* the question (the gate's test) is narrower than what is a candidate:

* a lexical hit matches only through a **distinctive** term — one found in at most
  ``RECALL_GATE_TERM_SHARE`` of the pair's episodes (once the pair has
  ``RECALL_GATE_MIN_DOCUMENTS``). A speaker's name or the subject's own word ("cell" in a
  biology pair) is in most episodes: sharing it says nothing, and counting it let every
  episode "match", so recency put the latest small talk on top;
* a semantic hit matches when it is **closer to the nearest text than to the question's crowd
  in this pair**: ``(cos - median) / (best - median) >= RECALL_SEMANTIC_RELATIVE`` (one half,
  the midpoint), the median taken over the pair's own distinct texts as the recent pool
  samples them (no search chose them; repetitions collapsed, so nine copies of "What is a
  cell?" weigh as one). The rule reads how far apart the cosines are, not their rank: a
  question with one clear answer keeps one, a question whose answer was told in six sessions
  keeps six. Each cosine is read **less half its text's crowding** (CSLS's hubness
  correction; ``crowding``: the text's mean cosine to its ``RECALL_HUB_NEIGHBOURS`` nearest
  texts of the same crowd), the nearest then being the best of the pool's and the crowd's
  texts so read: "Hi Maya! How are you?" and "Maya: thanks" stand near every question about
  Maya because they stand near everything the pair says, while a fact said once stands near
  the question alone. The figure tempers the near rule only: the semantic figure and fusion
  read the plain cosine, and so does the rule when one of these texts has no vector. With too
  few texts to measure a crowd (fewer than ``RECALL_GATE_MIN_DOCUMENTS``), the
  ``RECALL_SEMANTIC_MATCHES`` nearest distinct texts of the semantic pool match, and any
  closer to its nearest than to its median. (An outlier rule — a modified z-score of 3.5 over
  the same crowd — was measured and dropped: evidence told in conversation is rarely an
  outlier by meaning.)
* an episode on a concept the question routes to matches;
* **a second hop** (``bridge``): a candidate with a weak signal of its own (a lexical hit on an
  everyday word, or a neighbour by meaning that does not stand out) matches when it shares a
  distinctive word with the question's **best evidence** — the matching candidate most
  relevant to it. Evidence spread over several sessions is told in different words: "I quit
  guitar, now I play violin in the school orchestra" answers "which instruments has Maya
  learned to play?", "I started guitar lessons with my uncle", said months earlier, shares
  only the name with the question and is not among its nearest by meaning, but it shares
  "guitar" with the best evidence. When the best evidence says several things in one message
  ("Maya: school was so long today. I quit guitar… can you explain osmosis again?"), the hop
  starts from its sentences that hold a distinctive word of the question (``_seed``, the
  sentences as the block's excerpt reads them): the other sentences are about other things.
  Distinctive here is the gate's own rule (``distinctive_terms_of``) over the candidates,
  which are what rank has: the pair's recent history and its hits, analysed as the index
  analyses an episode (``index_words``). No read:
  the hop runs over the candidates already gathered. A candidate with no signal of its own
  (only the recent pool found it) is not bridged: a link through the best evidence alone
  would let small talk in by a shared word; nor is one among fewer than
  ``RECALL_GATE_MIN_DOCUMENTS`` candidates, too few to tell a distinctive word.

**The gate never drops what plain fusion keeps** (``keep_fused``, after the hop). The
candidates' distinct texts are ranked by a reciprocal rank fusion of the lexical and the
semantic ranking (``fusion_order``, k = 60; the semantic ranking holds every candidate, since
every candidate has a cosine) and taken in that order while their lines fit
``RECALL_FUSION_PACK_TOKENS``: a plain fusion would have put them in the pack. Then, while the
matches and those still leave room in the same budget, the next texts in fusion's order are
kept too: while the budget has room, nothing a pool found is gated out. A kept candidate that
matches nothing is **demoted** — its score minus one, so it ranks below every match whatever
its recency — never dropped: the gate may say it is weaker than what matches, not that it is
absent. What is neither a match nor kept is dropped.

A dropped candidate keeps its relevance for the two exceptions (no question; nothing
matched).

"""

from __future__ import annotations

import statistics
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from functools import lru_cache
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from tutor_memory.domain import constants as C
from tutor_memory.domain import forgetting
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.corrections import apply_newest
from tutor_memory.domain.episodes import (
    SYSTEM_KINDS,
    CheckEvidence,
    CorrectionEvidence,
    Episode,
    Kind,
    QuizEvidence,
    missed_note,
)
from tutor_memory.domain.excerpt import analysed_sentences
from tutor_memory.domain.language import analysed
from tutor_memory.domain.routing import F32, ConceptVectors, concept_cosines, routed_by_meaning
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.tokens import count_tokens


@dataclass(frozen=True)
class TermCounts:
    """How common the question's terms are in one pair's history: ``documents`` is how many
    documents the pair has, ``containing[t]`` how many of them contain ``t`` (0 if none)."""

    documents: int
    containing: Mapping[str, int]


class Pool(StrEnum):
    RECENT = "recent"
    LEXICAL = "lexical"
    CONCEPT = "concept"
    SEMANTIC = "semantic"


# The members as plain names: an enum attribute costs a descriptor call, ~1M times a turn
_RECENT, _LEXICAL, _SEMANTIC, _CONCEPT = Pool.RECENT, Pool.LEXICAL, Pool.SEMANTIC, Pool.CONCEPT


class Mode(StrEnum):
    RELEVANT = "relevant"  # a question, and these match it
    RECENT_ONLY = "recent"  # no question: recency is all that is left
    NOTHING_MATCHED = "nothing-matched"  # a question that matched nothing: the recent past


@dataclass(slots=True)  # slots: ranking reads a turn's ~850 candidates' fields ~40k times
class Candidate:
    episode: Episode
    # its text's ``collapse_key``, once: ranking groups, fuses and counts texts by it
    key: tuple[str, str, str]
    pools: set[Pool]
    lexical: float = 0.0
    semantic: float = 0.0
    concept: bool = False
    distinctive_hit: bool = False  # a lexical hit on a distinctive term
    near: bool = False  # among the nearest distinct texts by meaning
    bridged: bool = False  # a weak hit sharing a distinctive word with the best evidence
    fused: frozenset[Pool] = frozenset()  # the content pools the question ran (see the module)
    cosine: float | None = None  # to the question's vector, whichever pool found it
    vector: F32 | None = None  # its text's vector, for the crowding of the near rule
    kept_by_fusion: bool = False  # plain fusion of the two rankings puts it in the pack

    @property
    def relevance(self) -> float:
        # The mean of the pools the question ran (summed in this order, as ``sum`` would),
        # without a list per call: ranking asks each candidate several times.
        total, ran = 0.0, 0
        if _LEXICAL in self.fused:
            total, ran = total + self.lexical, 1
        if _SEMANTIC in self.fused:
            total, ran = total + self.semantic, ran + 1
        content = total / ran if ran else max(self.lexical, self.semantic)
        return max(content, 1.0 if self.concept else 0.0)

    @property
    def matches(self) -> bool:
        return self.distinctive_hit or self.concept or self.near or self.bridged

    @property
    def signalled(self) -> bool:
        """A content pool found it (a lexical hit on any word, or a neighbour by meaning)."""
        return self.lexical > 0 or _SEMANTIC in self.pools


@dataclass(frozen=True)
class RecalledItem:
    episode: Episode
    score: float
    pools: tuple[str, ...]
    count: int  # how many identical episodes this one stands for (itself included)
    first_at: datetime
    last_at: datetime
    collapsed_ids: tuple[str, ...]  # every episode it stands for, oldest first
    collapsed_at: tuple[datetime, ...] = ()  # their times, in the same order
    # matched nothing, kept because plain fusion puts it in the pack: ranked below every match
    demoted: bool = False


class Candidates:
    """The union of the pools by episode id; a candidate remembers every pool that found it."""

    def __init__(self) -> None:
        self.by_id: dict[str, Candidate] = {}
        self.ran: set[Pool] = set()  # content pools this question ran, found something or not
        self.lexical_best = 0.0  # the lexical pool's best BM25 score (its scale)

    def _add(self, episode: Episode, pool: Pool) -> Candidate:
        """The episode's candidate, found by ``pool`` too. An erasure's entry is never one:
        ``values`` leaves it out (a pool that reads the log, the recent pool, finds it like
        any episode). Pools call it ~1,000 times a turn: one lookup, no second call."""
        found = self.by_id.get(episode.episode_id)
        if found is None:
            found = self.by_id[episode.episode_id] = Candidate(episode, _key_of(episode), {pool})
        else:
            found.pools.add(pool)
        return found

    def add_recent(self, episodes: Iterable[Episode]) -> None:
        add = self._add
        for ep in episodes:
            add(ep, _RECENT)

    def add_lexical(
        self,
        scored: Iterable[tuple[Episode, float, Sequence[str]]],
        distinctive: Collection[str] | None = None,
    ) -> None:
        """Lexical hits with their BM25 scores and the question terms each contains; a hit
        matches only through a term in ``distinctive`` (None: every term is distinctive)."""
        self.ran.add(Pool.LEXICAL)
        scored = list(scored)
        best = self.lexical_best = max((s for _e, s, _m in scored), default=0.0)
        for ep, s, matched in scored:
            cand = self._add(ep, _LEXICAL)
            cand.lexical = max(cand.lexical, s / best if best > 0 else 1.0)
            if distinctive is None or any(t in distinctive for t in matched):
                cand.distinctive_hit = True

    def add_semantic(self, scored: Iterable[tuple[Episode, float]]) -> None:
        """The k nearest, best first, with their cosines (scored in ``values``)."""
        self.ran.add(Pool.SEMANTIC)
        for ep, cosine in scored:
            cand = self._add(ep, _SEMANTIC)
            cand.cosine = cosine

    def add_cosines(self, cosines: Mapping[str, float]) -> None:
        """The question's cosine to candidates the semantic pool did not rank (the recent pool,
        lexical hits): every candidate is scored by meaning, so that relevance is never halved
        by a pool's absence (see the module)."""
        for episode_id, cosine in cosines.items():
            cand = self.by_id.get(episode_id)
            if cand is not None and cand.cosine is None:
                cand.cosine = cosine

    def add_vectors(self, vectors: Mapping[str, F32]) -> None:
        """The vectors of the semantic pool's and the recent pool's texts: how crowded a text's
        own neighbourhood is tempers the near rule (``RECALL_HUB_NEIGHBOURS``)."""
        for episode_id, vector in vectors.items():
            cand = self.by_id.get(episode_id)
            if cand is not None:
                cand.vector = vector

    def add_lexical_scores(self, scores: Mapping[str, float]) -> None:
        """The BM25 scores of candidates other pools found past the lexical pool's cut, on the
        pool's scale (divided by its best hit): every candidate is scored by words too, so
        evidence found by meaning that shares a word with the question is not counted as
        having none, while filler inside the cut is (see the module). Adds no candidate and
        makes no match: a hit past the pool's cut says less than one inside it."""
        best = self.lexical_best
        if best <= 0:
            return
        for episode_id, value in scores.items():
            cand = self.by_id.get(episode_id)
            if cand is not None and cand.lexical == 0.0:
                cand.lexical = value / best

    def correct(self, fixes: Mapping[str, Episode]) -> None:
        """Candidates read as corrected (``corrections.apply_newest``; ``fixes``: each corrected
        episode's newest correction): what collapses with what is what the block will show —
        two wrong checks of which one was corrected to right are two memories, not one "right
        (and 1 more time like it)". A correction a newer one of the same episode replaced is
        no candidate: "corrected an earlier record: 15 May" is no longer what the record says."""
        replaced = [
            episode_id
            for episode_id, cand in self.by_id.items()
            if isinstance(evidence := cand.episode.evidence, CorrectionEvidence)
            and (newest := fixes.get(evidence.corrects)) is not None
            and newest.episode_id != episode_id
        ]
        for episode_id in replaced:
            del self.by_id[episode_id]
        for cand in self.by_id.values():
            if cand.episode.episode_id in fixes:
                (cand.episode,) = apply_newest([cand.episode], fixes)
                cand.key = _key_of(cand.episode)

    def add_concept(self, episodes: Iterable[Episode]) -> None:
        for ep in episodes:
            self._add(ep, _CONCEPT).concept = True

    def values(self) -> list[Candidate]:
        ran = frozenset(self.ran)
        found = [c for c in self.by_id.values() if c.episode.kind not in SYSTEM_KINDS]
        for cand in found:  # about_the_student, inlined: ~850 a turn
            cand.fused = ran
        if Pool.SEMANTIC in ran:
            _by_meaning(found)

        return found


_TextCosines = dict[tuple[str, str, str], float]


def _text_cosines(
    candidates: Iterable[Candidate],
) -> tuple[_TextCosines, _TextCosines, _TextCosines]:
    """Each distinct text's best cosine (repetitions collapsed: nine copies are one text):
    over every candidate, over the semantic pool's and over the recent pool's (one pass)."""
    texts: _TextCosines = {}
    pooled: _TextCosines = {}
    recent: _TextCosines = {}
    for c in candidates:
        cosine = c.cosine
        if cosine is None:
            continue
        key, pools = c.key, c.pools
        if cosine > texts.get(key, -2.0):
            texts[key] = cosine
        if _SEMANTIC in pools and cosine > pooled.get(key, -2.0):
            pooled[key] = cosine
        if _RECENT in pools and cosine > recent.get(key, -2.0):
            recent[key] = cosine
    return texts, pooled, recent


def _by_meaning(candidates: Sequence[Candidate]) -> None:
    """Every candidate's semantic figure and whether it is near (see the module)."""
    texts, pooled, recent = _text_cosines(candidates)
    if not texts:
        return
    best, worst = max(texts.values()), min(texts.values())
    # The question's neighbourhood in this pair: the pair's own texts, sampled by the recent
    # pool (no search chose them); too few to be a crowd, the nearest few of the pool instead.
    if len(recent) >= C.RECALL_GATE_MIN_DOCUMENTS:
        near_texts = _near_in_crowd(candidates, texts, pooled, recent)
    elif pooled:
        order = sorted(pooled, key=lambda key: -pooled[key])
        median = statistics.median(pooled.values())
        top = max(pooled.values())
        near_texts = {
            key
            for rank, key in enumerate(order)
            if rank < C.RECALL_SEMANTIC_MATCHES or _closer(pooled[key], top, median)
        }
    else:
        near_texts = set()
    span = best - worst
    for c in candidates:
        if c.cosine is None:
            continue
        c.semantic = (c.cosine - worst) / span if span > 0 else 1.0
        if c.key in near_texts and _SEMANTIC in c.pools:
            c.near = True


def _near_in_crowd(
    candidates: Sequence[Candidate],
    texts: _TextCosines,
    pooled: _TextCosines,
    recent: _TextCosines,
) -> set[tuple[str, str, str]]:
    """The semantic pool's texts closer to the nearest than to the crowd (the recent pool's
    texts), each cosine less half its text's crowding when every one of these texts has its
    vector (``crowding``); by the plain cosines otherwise."""
    crowded = _crowding_of(candidates, pooled, recent)
    if crowded is not None:
        pooled = {key: cos - 0.5 * crowded[key] for key, cos in pooled.items()}
        recent = {key: cos - 0.5 * crowded[key] for key, cos in recent.items()}
        best = max(max(pooled.values(), default=-2.0), max(recent.values()))
    else:
        best = max(texts.values())
    median = statistics.median(recent.values())
    return {key for key, cos in pooled.items() if _closer(cos, best, median)}


def _crowding_of(
    candidates: Sequence[Candidate], pooled: _TextCosines, recent: _TextCosines
) -> dict[tuple[str, str, str], float] | None:
    """Each of these texts' crowding against the recent pool's texts; None when one of them
    has no vector. Rows go in the keys' order, so both indexes multiply the same matrix."""
    # A key's vector is its nearest member's (then its newest): texts folded alike (case,
    # spacing) may differ by a little in their vectors, and which one is used must not depend
    # on the order an index lists them.
    chosen: dict[tuple[str, str, str], tuple[float, int, F32]] = {}
    for c in candidates:
        if c.vector is None or c.cosine is None:
            continue
        mark = (c.cosine, c.episode.seq, c.vector)
        held = chosen.get(c.key)
        if held is None or mark[:2] > held[:2]:
            chosen[c.key] = mark
    vectors = {key: mark[2] for key, mark in chosen.items()}
    reference = sorted(recent)
    rest = sorted(pooled.keys() - recent.keys())
    if any(key not in vectors for key in chain(reference, rest)):
        return None
    order = reference + rest
    figures = crowding(np.stack([vectors[key] for key in order]), len(reference))
    return dict(zip(order, figures.tolist(), strict=True))


def crowding(
    vectors: F32, reference: int, neighbours: int = C.RECALL_HUB_NEIGHBOURS
) -> NDArray[np.float64]:
    """Each row's mean cosine to its ``neighbours`` nearest among the first ``reference`` rows,
    itself left out (rows are unit vectors; CSLS's r, see constants). A text said once about
    something only it tells sits in a sparse neighbourhood; "Hi Maya! How are you?" among its
    dozen variants, in a dense one."""
    count = min(neighbours, reference - 1)
    if count < 1:
        return np.zeros(vectors.shape[0])
    sims = vectors @ vectors[:reference].T
    own = np.arange(reference)
    sims[own, own] = -np.inf
    nearest = np.sort(np.partition(sims, reference - count, axis=1)[:, reference - count :])
    figures: NDArray[np.float64] = nearest.astype(np.float64).mean(axis=1)
    return figures


def _closer(cosine: float, best: float, median: float) -> bool:
    """Closer to the nearest text than to the crowd's median (``RECALL_SEMANTIC_RELATIVE``)."""
    return best > median and (cosine - median) / (best - median) >= C.RECALL_SEMANTIC_RELATIVE


def fusion_order(
    candidates: Sequence[Candidate], k: int = C.RECALL_FUSION_RRF_K
) -> list[tuple[str, str, str]]:
    """Distinct texts in the order a plain reciprocal rank fusion (Cormack, Clarke & Büttcher
    2009) of the lexical and the semantic ranking puts them: each text at its best member."""
    return _fused(candidates, k)[0]


_Mark = tuple[float, datetime, int, tuple[str, str, str]]


def _fused(
    candidates: Sequence[Candidate], k: int
) -> tuple[list[tuple[str, str, str]], dict[tuple[str, str, str], list[Candidate]]]:
    """``fusion_order``, and the candidates of each text it ranks (either ranking has them)."""
    lexical: list[_Mark] = []
    semantic: list[_Mark] = []
    members: dict[tuple[str, str, str], list[Candidate]] = {}
    for c in candidates:  # both rankings' marks in one pass over ~850 candidates
        ep, key = c.episode, c.key
        ranked = False
        if c.lexical > 0:
            lexical.append((c.lexical, ep.at, ep.seq, key))
            ranked = True
        if c.cosine is not None:
            semantic.append((c.cosine, ep.at, ep.seq, key))
            ranked = True
        if ranked:
            group = members.get(key)
            if group is None:
                members[key] = [c]
            else:
                group.append(c)
    fused: dict[tuple[str, str, str], float] = {}
    for marks in (lexical, semantic):
        for rank, key in enumerate(_text_order(marks), start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda key: -fused[key]), members


def _text_order(marks: list[_Mark]) -> list[tuple[str, str, str]]:
    """Distinct texts, each at its best member by (value, time, seq), best first. One sort of
    the members: a pair's seqs are unique, so no two members tie and the first time a text is
    met in that order is its best member."""
    marks.sort(reverse=True)
    return list(dict.fromkeys(m[3] for m in marks))


def keep_fused(candidates: Sequence[Candidate], budget: int = C.RECALL_FUSION_PACK_TOKENS) -> None:
    """Mark what the gate may demote but never drop (see the module): the texts plain fusion
    puts inside a pack of ``budget`` tokens, then — while the matches and those leave room in
    it — the next texts in fusion's order. Runs after the matches are known (the hop)."""
    order, members = _fused(candidates, C.RECALL_FUSION_RRF_K)
    matched = {c.key: c for c in candidates if c.matches}
    spent = sum(_line_cost(c.episode) for c in matched.values())
    own = budget  # fusion's own pack, whatever matches
    for key in order:
        group = members[key]
        cost = _line_cost(group[0].episode)
        own -= cost
        if key not in matched:
            spent += cost
        if own < 0 and spent > budget:
            break
        for c in group:
            c.kept_by_fusion = True


def _line_cost(ep: Episode) -> int:
    """About what the block's line for an episode costs (its summary and the line's marks)."""
    return _tokens(ep.summary) + C.RECALL_LINE_TOKENS


@lru_cache(maxsize=C.ANALYSED_TEXTS_KEPT)
def _tokens(text: str) -> int:
    """A summary's token count, remembered: the same recent episodes are priced every turn."""
    return count_tokens(text)


def distinctive_terms_of(counts: TermCounts) -> frozenset[str]:
    """The question's terms that say what it is about in this pair (see the module)."""
    if counts.documents < C.RECALL_GATE_MIN_DOCUMENTS:
        return frozenset(counts.containing)
    ceiling = C.RECALL_GATE_TERM_SHARE * counts.documents
    return frozenset(t for t, n in counts.containing.items() if n <= ceiling)


def index_words(ep: Episode) -> str:
    """The words the index analyses for an episode: its summary (when the text does not
    already hold it), its text and its concepts."""
    return index_words_of(ep.summary, ep.text, ep.concepts)


def index_words_of(summary: str, text: str, concepts: Sequence[str]) -> str:
    kept = [] if summary.rstrip("…") in text else [summary]
    return " ".join([*kept, text, *concepts])


def bridge(candidates: Sequence[Candidate], question_terms: Collection[str] = ()) -> None:
    """The second hop (see the module): mark the weak hits that share a distinctive word with
    the best evidence — with what it says about the question, when it says several things.
    Pure; each text is analysed in its own language, as the index does."""
    matching: list[Candidate] = []
    weak: list[Candidate] = []
    for c in candidates:
        if c.matches:
            matching.append(c)
        elif c.signalled:
            weak.append(c)
    # Too few candidates to tell a distinctive word from an everyday one: a hop is a weaker
    # link than a match, so it is not made on a guess (the gate counts every word there).
    if not matching or not weak or len(candidates) < C.RECALL_GATE_MIN_DOCUMENTS:
        return
    best = max(matching, key=lambda c: (c.relevance, c.episode.at, c.episode.seq))
    terms = {id(c): _index_terms(c.episode) for c in candidates}
    seed = _seed(best.episode, question_terms, terms.values(), len(candidates))
    # How many candidates hold each seed word: counted over each one's shared words (a
    # candidate holds a few of the seed's), the same counts as testing every word in each.
    shared = Counter(chain.from_iterable(map(seed.intersection, terms.values())))
    containing = {t: shared.get(t, 0) for t in seed}
    links = distinctive_terms_of(TermCounts(len(candidates), containing))
    for c in weak:
        if not links.isdisjoint(terms[id(c)]):
            c.bridged = True


def _seed(
    best: Episode,
    question_terms: Collection[str],
    held: Iterable[tuple[str, ...]],
    candidates: int,
) -> frozenset[str]:
    """The words the hop starts from: the best evidence's, or — when it says several things
    ("Maya: school was so long today. we spent half-term on the farm… can you explain
    diffusion again?") — those of its sentences that hold a distinctive word of the question,
    as the block's excerpt tells it. The other sentences are about other things, and their
    words linked the diffusion questions to a question about the holidays. With no such
    sentence (a match by meaning alone), the whole text, as nothing says which part it is."""
    whole = frozenset(_index_terms(best))
    sentences = analysed_sentences(best.text) if question_terms else ()
    if len(sentences) < 2:
        return whole
    asked = frozenset(question_terms)
    counts = Counter(chain.from_iterable(map(asked.intersection, held)))
    distinctive = distinctive_terms_of(TermCounts(candidates, {t: counts[t] for t in asked}))
    about = [s for s in sentences if not distinctive.isdisjoint(s)]
    return frozenset(chain.from_iterable(about)) if about else whole


def _index_terms(ep: Episode) -> tuple[str, ...]:
    """``_terms_of`` by the episode object (``_FACTS``): the hop asks for ~1,300 a turn, and
    the text-keyed cache hashes three fields for each."""
    facts = _facts(ep)
    terms = facts.terms
    if terms is None:
        terms = facts.terms = _terms_of(ep.summary, ep.text, ep.concepts)
    return terms


def _key_of(ep: Episode) -> tuple[str, str, str]:
    return _facts(ep).key


@dataclass(slots=True)
class _Facts:
    episode: Episode  # kept beside its facts, so that its id() stays its own
    key: tuple[str, str, str]
    terms: tuple[str, ...] | None = None  # asked for by the hop only


# What ranking derives from an episode, by the episode object itself: the store hands the
# same decoded episodes to every turn (its kept reads), and a turn keys ~900 candidates (2 ms
# as collapse_key calls) and analyses ~1,300 for the hop. One holder for both, so an episode's
# text is kept here once.
_FACTS: dict[int, _Facts] = {}


def _facts(ep: Episode) -> _Facts:
    found = _FACTS.get(id(ep))
    if found is not None and found.episode is ep:
        return found
    if len(_FACTS) >= C.ANALYSED_TEXTS_KEPT:
        _FACTS.clear()  # a bound, not an LRU: the next turn refills what it uses
    found = _FACTS[id(ep)] = _Facts(ep, collapse_key(ep))
    return found


@lru_cache(maxsize=C.ANALYSED_TEXTS_KEPT)
def _terms_of(summary: str, text: str, concepts: tuple[str, ...]) -> tuple[str, ...]:
    """An episode's analysed words, each once, remembered: the hop reads the pair's recent 500
    every turn, the same from one turn to the next. A tuple, not a set: a tuple of strings is
    no container the collector walks (it untracks it), and thousands are kept — as sets they
    were 15k of the ~68k objects every full collection walked at 100k episodes."""
    return tuple(dict.fromkeys(analysed(index_words_of(summary, text, concepts))))


@lru_cache(maxsize=32)
def _pool_names(pools: frozenset[Pool]) -> tuple[str, ...]:
    """The pools' names, sorted (16 sets at most: an enum's ``value`` costs a descriptor call)."""
    return tuple(sorted(p.value for p in pools))


def recency(at: datetime, now: datetime) -> float:
    age_days = max((now - at).total_seconds(), 0.0) / 86_400
    return float(0.5 ** (age_days / C.RECALL_RECENCY_HALF_LIFE_DAYS))


def score(candidate: Candidate, now: datetime) -> float:
    ep = candidate.episode
    return (
        C.RECALL_WEIGHT_RELEVANCE * candidate.relevance
        + C.RECALL_WEIGHT_SALIENCE * ep.salience
        + C.RECALL_WEIGHT_RECENCY * recency(ep.at, now)
    )


def collapse_key(ep: Episode) -> tuple[str, str, str]:
    """Same kind and the same text once case, width and spacing are folded; a check also
    needs the same topic and verdict (a right and a wrong answer are not one memory) and, when
    missed, the same note of what was missed, a quiz
    the same score (3/10 and 9/10 on "Weekly quiz" are two), and a correction the same
    episode, field and value (its text is only why: two corrections "a typo" of two episodes
    are two memories). A corrected episode collapses only with episodes corrected at the same
    moment: its line says "(corrected on …)", which no uncorrected twin may seem to share."""
    text = _folded(ep.text)
    detail = ""
    evidence = ep.evidence
    if isinstance(evidence, CheckEvidence):
        # a missed check's note is shown (``missed_note``): two misses noted apart are two
        detail = f"{evidence.topic.casefold()}|{evidence.verdict}|{_folded(missed_note(ep))}"
    elif isinstance(evidence, QuizEvidence):
        detail = f"{evidence.score!r}/{evidence.maximum!r}"
    elif isinstance(evidence, CorrectionEvidence):
        detail = f"{evidence.corrects}|{evidence.field}|{evidence.value}"
    if ep.corrected_at is not None:  # its line says when it was corrected: no other's is
        detail += f"|corrected {ep.corrected_at.isoformat()}"
    return ep.kind.value, text, detail


@lru_cache(maxsize=C.ANALYSED_TEXTS_KEPT)
def _folded(text: str) -> str:
    """A text with case, width and spacing folded, remembered: every turn collapses the same
    recent episodes again (a fifth of ranking's CPU before)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def is_narration(ep: Episode) -> bool:
    """The tutor's own answer built from recalled memories: never a memory of what it narrates."""
    return ep.kind is Kind.ANSWER and bool(ep.recalled_ids)


def rank(
    candidates: Iterable[Candidate],
    *,
    now: datetime,
    has_question: bool,
    limit: int,
    exclude_narrations: bool = False,
    gate: bool = True,
    terms: Collection[str] = (),
) -> tuple[list[RecalledItem], Mode]:
    """Gate, score, collapse and order the candidates; at most ``limit`` items, best first.

    Ties break deterministically: score, then the newer time, then the higher sequence.
    ``gate=False`` (a record question) keeps the candidates that match nothing, ranked lower.
    ``terms`` are the question's analysed terms (the second hop reads them).
    """
    pool = [c for c in candidates if not (exclude_narrations and is_narration(c.episode))]
    if not has_question:
        mode = Mode.RECENT_ONLY
        kept = pool
    elif any(c.matches for c in pool):
        mode = Mode.RELEVANT
        if gate:
            bridge(pool, terms)
            keep_fused(pool)
        # A record question keeps the conversation too (the conversation is the record): no
        # gate, the matching candidates simply score higher. Otherwise what plain fusion would
        # put in the pack is demoted below every match, never dropped.
        kept = [c for c in pool if c.matches or c.kept_by_fusion] if gate else pool
    else:
        mode = Mode.NOTHING_MATCHED
        kept = pool

    relevant, demote = mode is Mode.RELEVANT, gate and mode is Mode.RELEVANT
    w_relevance, w_salience, w_recency = (
        C.RECALL_WEIGHT_RELEVANCE,
        C.RECALL_WEIGHT_SALIENCE,
        C.RECALL_WEIGHT_RECENCY,
    )
    half_life = C.RECALL_RECENCY_HALF_LIFE_DAYS

    # Each text's best member by (score, time, seq), its members beside it. score() and
    # recency() inlined (the same sums in the same order): ~700 candidates a turn at 10k.
    groups: dict[tuple[str, str, str], list[Candidate]] = {}
    bests: dict[tuple[str, str, str], tuple[float, datetime, int, Candidate]] = {}
    for c in kept:
        ep = c.episode
        age_days = max((now - ep.at).total_seconds(), 0.0) / 86_400
        fresh = float(0.5 ** (age_days / half_life))
        if not relevant:
            value = fresh  # recency is all that is left
        else:
            value = w_relevance * c.relevance + w_salience * ep.salience + w_recency * fresh
            if demote and not c.matches:
                value -= 1.0  # demoted: below every match whatever its relevance or recency
        key = c.key
        members = groups.get(key)
        mark = (value, ep.at, ep.seq, c)
        if members is None:
            groups[key] = [c]
            bests[key] = mark
        else:
            members.append(c)
            if mark[:3] > bests[key][:3]:
                bests[key] = mark

    # Then only the first ``limit`` texts are made into items. A pair's seqs are unique, so
    # no two texts tie on (rounded score, time, seq) and the key never decides.
    order = sorted(
        ((round(value, 6), at, seq, key) for key, (value, at, seq, _c) in bests.items()),
        reverse=True,
    )
    items: list[RecalledItem] = []
    for _rounded, _at, _seq, key in order[:limit]:
        best_score, best = bests[key][0], bests[key][3]
        members = groups[key]
        chronological = (
            [best.episode]
            if len(members) == 1
            else sorted((m.episode for m in members), key=lambda e: (e.at, e.seq))
        )
        pools = _pool_names(
            frozenset(best.pools)
            if len(members) == 1
            else frozenset().union(*(m.pools for m in members))
        )
        items.append(
            RecalledItem(
                episode=best.episode,
                score=round(best_score, 6),
                pools=pools,
                count=len(members),
                first_at=chronological[0].at,
                last_at=chronological[-1].at,
                collapsed_ids=tuple(e.episode_id for e in chronological),
                collapsed_at=tuple(e.at for e in chronological),
                demoted=best_score < 0,
            )
        )
    return items, mode  # by the rounded score, as before: equal to six places, time decides


@dataclass(frozen=True)
class RecallResult:
    """What recall hands the block: the ordered items, and what it knows about the question."""

    items: list[RecalledItem]
    mode: Mode
    window: TimeWindow | None
    window_empty: bool  # a time was named and nothing is recorded inside it: say so
    terms: tuple[str, ...]
    concept_keys: tuple[str, ...]  # recall's concept pool: by name, or by meaning if no name
    pool_sizes: dict[str, int]
    timings_ms: dict[str, float]
    # Routed by meaning even where a name matched (the same one vector): the map's focus only,
    # never the gate (see ``Routes``).
    meaning_keys: tuple[str, ...] = ()
    # The question's cosine to each concept with a vector (``Routes.similarity``): the map's
    # focus orders the concepts it matches by it (domain/mapfocus.py).
    concept_similarity: Mapping[str, float] = field(default_factory=dict)
    # A model was there to embed the question and gave no vector (it failed, or was late for
    # the turn): recalled by words and recency this time.
    meaning_missed: bool = False


@dataclass(frozen=True)
class Routes:
    """The concepts a question is routed to, both ways, from the turn's one question vector.

    ``named``: keys whose canonical name appears in the question as whole words (exact only),
    sorted. ``meaning``: keys the vector routes to against the map's concept vectors
    (``route_by_meaning``, best first), whether or not a name matched.

    Recall's concept pool (``keys``) is names first: a routed concept lets its whole history
    through the gate at full relevance, and a name the student wrote is certain while a
    meaning is a guess, so the guess is only worth adding where there is nothing better. The
    map section may use both (``turns.map_focus``): there an order costs a line's position,
    never a memory let through.
    """

    named: tuple[str, ...] = ()
    meaning: tuple[str, ...] = ()
    # concept key → the question's cosine to it: what ``meaning`` was measured in
    similarity: Mapping[str, float] = field(default_factory=dict)

    @property
    def keys(self) -> tuple[str, ...]:
        return self.named or self.meaning


def route_question(
    question: str,
    known: Mapping[str, str],
    *,
    vector: Sequence[float] | F32 | None = None,
    concept_vectors: ConceptVectors | Callable[[], ConceptVectors | None] | None = None,
    profile: str = "",
    meaning_if_named: bool = True,
) -> Routes:
    """Both routes of a question (see ``Routes``). ``concept_vectors`` may be a function that
    reads them, called only when the meaning route runs: with ``meaning_if_named=False`` not
    when a name matched (the concept pool alone then needs nothing more)."""
    folded = f" {concept_key(question)} "
    named = tuple(sorted(key for key in known if f" {key} " in folded))
    if vector is None or concept_vectors is None or (named and not meaning_if_named):
        return Routes(named)
    vectors = concept_vectors() if callable(concept_vectors) else concept_vectors
    similarity = concept_cosines(vector, vectors, profile=profile)
    return Routes(named, tuple(routed_by_meaning(similarity)), similarity)


def route_concepts(
    question: str,
    known: Mapping[str, str],
    *,
    vector: Sequence[float] | F32 | None = None,
    concept_vectors: ConceptVectors | Callable[[], ConceptVectors | None] | None = None,
    profile: str = "",
) -> list[str]:
    """The concept keys recall's concept pool is routed to: by name; only when no name
    matches, by meaning (``Routes.keys``). The map's vectors are read only then."""
    return list(
        route_question(
            question,
            known,
            vector=vector,
            concept_vectors=concept_vectors,
            profile=profile,
            meaning_if_named=False,
        ).keys
    )


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.remembers_words(_FACTS.clear, _FACTS.__len__)
forgetting.lru(_tokens)
forgetting.lru(_terms_of)
forgetting.lru(_folded)
