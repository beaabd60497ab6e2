"""The recall bench's measuring stick: ranked lines, their scores, and three plain baselines.

A ranking is a list of ``Ranked`` lines, best first. Each line stands for one or more episode
ids (a collapsed recall item stands for every repeat it folds in) and has the text the block
would print for it, so that every method pays the same price for what it shows:

* **R@k**: the share of the relevant ids that the first ``k`` lines stand for;
* **all relevant in budget**: every relevant id is among the lines of the longest prefix whose
  text fits ``budget`` tokens (``domain.tokens.fit_lines``: the lines joined by line breaks,
  counted by ``count_tokens``), the first line that does not fit ending the pack (the issue's
  measure, the same for every method; the block itself passes over such a line and fills its
  room with shorter ones after it, ``domain.block.fill_order``).

Baselines rank every episode of the pair (no gate, no collapse): BM25 (``bm25s``, Lucene's
variant, k1 1.2, b 0.75, words folded to lower case, a small English stopword list, no
stemming), dense (the embedder's ``query:`` side against its ``passage:`` side, cosine) and
their reciprocal rank fusion (k = 60).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import numpy as np

from tutor_memory.domain.block import work_line
from tutor_memory.domain.episodes import Episode
from tutor_memory.domain.recall import RecalledItem
from tutor_memory.domain.tokens import fit_lines
from tutor_memory.ports import Embedder

PACK_TOKENS: Final = 1_500  # the held-out measure: all gold inside a 1,500-token pack
KS: Final = (5, 10, 20)
RRF_K: Final = 60  # Cormack, Clarke & Büttcher (SIGIR 2009)
BM25_K1: Final = 1.2
BM25_B: Final = 0.75
# Lines rendered per baseline ranking: more than any pack can hold (a line costs at least ~8
# tokens, so 1,500 tokens hold fewer than 200).
RENDERED_LINES: Final = 300
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Ranked:
    ids: tuple[str, ...]
    line: str


@dataclass(frozen=True)
class Scores:
    recall_at: dict[int, float]  # k -> R@k
    in_budget: bool
    packed: int  # lines in the pack


def score_ranking(
    ranking: Sequence[Ranked], relevant: Iterable[str], *, budget: int = PACK_TOKENS
) -> Scores:
    wanted = set(relevant)
    if not wanted:
        raise ValueError("a case needs at least one relevant id")
    at_k = {}
    for k in KS:
        shown = {i for r in ranking[:k] for i in r.ids}
        at_k[k] = len(wanted & shown) / len(wanted)
    packed = len(fit_lines((r.line for r in ranking), budget))
    in_pack = {i for r in ranking[:packed] for i in r.ids}
    return Scores(at_k, wanted <= in_pack, packed)


def recall_at_ids(ranked_ids: Sequence[Hashable], relevant: Iterable[Hashable], k: int) -> float:
    """R@k of a plain list of ids (the published top-20 lists)."""
    wanted = set(relevant)
    return len(wanted & set(ranked_ids[:k])) / len(wanted)


def episode_line(episode: Episode, now: datetime) -> str:
    """The block's line for one episode on its own (how a baseline's hit is priced)."""
    item = RecalledItem(
        episode=episode,
        score=0.0,
        pools=(),
        count=1,
        first_at=episode.at,
        last_at=episode.at,
        collapsed_ids=(episode.episode_id,),
    )
    return work_line(item, now=now)


def rendered(ids: Sequence[str], episodes: dict[str, Episode], now: datetime) -> list[Ranked]:
    return [Ranked((i,), episode_line(episodes[i], now)) for i in ids[:RENDERED_LINES]]


def words(text: str, stopwords: frozenset[str]) -> list[str]:
    return [w for w in _WORD.findall(text.casefold()) if w not in stopwords]


class Bm25:
    """BM25 over one pair's episodes; ``rank`` keeps only the episodes sharing a word.

    Without its language's function words, as a plain BM25 is set up: bm25s's English list,
    else the language's standard stop list (Snowball's for es and id, Lucene's for ar, ours
    for ur: ``domain.languages``). Stop words only: no stemming, no folding."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str], language: str = "en") -> None:
        import bm25s
        from bm25s.stopwords import STOPWORDS_EN

        from tutor_memory.domain.languages import language as pack

        self.ids = list(ids)
        self.stopwords = frozenset(
            STOPWORDS_EN if language == "en" else (w.casefold() for w in pack(language).stopwords)
        )
        self.model: Any = bm25s.BM25(k1=BM25_K1, b=BM25_B)
        self.model.index([words(t, self.stopwords) for t in texts], show_progress=False)

    def rank(self, query: str) -> list[str]:
        terms = words(query, self.stopwords)
        if not terms:
            return []
        scores = np.asarray(self.model.get_scores(terms), dtype=np.float64)
        order = np.argsort(-scores, kind="stable")
        return [self.ids[i] for i in order if scores[i] > 0]


class Dense:
    """Cosine between the question (``query:``) and every episode (``passage:``)."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str], embedder: Embedder) -> None:
        self.ids = list(ids)
        self.embedder = embedder
        self.matrix = _unit(np.asarray(embedder.embed_passages(list(texts)), dtype=np.float32))

    def rank(self, query: str) -> list[str]:
        vector = _unit(np.asarray(self.embedder.embed_queries([query]), dtype=np.float32))[0]
        order = np.argsort(-(self.matrix @ vector), kind="stable")
        return [self.ids[i] for i in order]


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal rank fusion: each list gives ``1 / (k + rank)`` (rank from 1); ties keep the
    order in which the ids were first met."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, i in enumerate(ranking, start=1):
            fused[i] = fused.get(i, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda i: -fused[i])
