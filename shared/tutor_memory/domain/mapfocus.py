"""Which concepts the map section leads with: the ones the question is about (SPEC §4, §7).

``mapblock.render_map_section`` shows each focus concept followed by its prerequisites, then the
rest of the map hubs first; this module only decides the focus, from what the turn already
holds (the loaded map, recall's routes and the question's terms and cosines): no read, no
embedding, no model.

**The rule** (ours, chosen before measuring; issue 18). In this order, each concept once:

1. the concepts the question routes to **by meaning**, best first (``route_by_meaning``: the
   whole question stands out towards them from every other concept, while a name match says
   only that a word occurs). Recall's gate still takes names first (``Routes.keys``): here a
   guess costs a line's position, there it would let a concept's whole history through;
2. the concepts it **names** whose name carries a word that tells the map's concepts apart
   (see "distinctive" below), most relevant first;
3. the concepts whose text (name, gist, definition, what other files say, taught note:
   ``conceptmap.concept_text``) **shares a distinctive word** with the question, most relevant
   first — a question that paraphrases a definition without naming the concept;
4. the concepts it names whose name is the map's everyday vocabulary (no distinctive word):
   "why does water move into a plant *cell*?" names Cell, but in a cell-biology map "cell" is
   in nearly every definition — the word sets the scene, the question is about osmosis;
5. for a record question, the concepts of the current beliefs, most confident first as the
   block shows them. A record question's words are about the student's record ("what did I
   get wrong"), not the subject: steps 3 and 4 do not run for it, and its names keep their
   place of step 2.

**Distinctive**: a term (``language.analyse``: folded, stopwords dropped, stemmed, each text in
its own language) in fewer than half of the map's concept texts — where BM25's own inverse
document frequency, log((N - n + 0.5) / (n + 0.5)) (Robertson and Spärck Jones), is positive.
A word in half the map or more says nothing about which concept is meant, and gets no weight.
On a map of one or two concepts nothing is distinctive; names still route.

**Most relevant**: recall's fusion (``domain/recall``: CombSUM, Fox & Shaw 1994), here over the
map's concepts instead of episodes — the mean of a lexical figure, BM25 of the question over
the concept texts divided by this question's best (k1 and b the episode index's), and a
semantic figure, the question's cosine to the concept rescaled over the map, ``(cos - worst) /
(best - worst)``; a figure the question has not got (no distinctive term; no vector) does not
count. Each word alone is a weak witness: on the sample subject "why does water move into a
plant cell?" shares "moves" with Active transport and "plants … water" with Photosynthesis,
and by meaning alone Osmosis stands out from nothing (z 2.4 against the cut of 3); the two
agree on Osmosis. A concept matched by neither (step 3's test is lexical) stays out of the
focus: a cosine below the routing cut is no evidence that a question is about a concept,
only an order among those that are.

**Not used: the concepts of the recalled episodes.** They are what an episode touched, not
what the question asks: a file's arrival touches every concept the file explains, a day's
summary every topic of the day (on the walkthrough's question the best-scored recalled items
were two such, touching 2 and 12 of the 14 concepts, and weighting them by how many they touch
put Eukaryotic cells first, from the student's earlier questions about it).

Cost: one BM25 over the map's concept texts per turn; each text's terms are analysed once per
process (cached by text: ``language.analysed``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tutor_memory.domain import constants as C
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.conceptmap import ConceptMap, concept_text
from tutor_memory.domain.language import analysed, detect_language
from tutor_memory.domain.recall import RecallResult


def map_focus(
    cmap: ConceptMap, recall: RecallResult, beliefs: Sequence[Belief], *, record: bool
) -> list[str]:
    """The concept keys the map section leads with, most telling first (see the module)."""
    # Recall's concept pool is the names, or the meaning routes when no name matched.
    named = [k for k in recall.concept_keys if k not in recall.meaning_keys]
    focus = list(recall.meaning_keys)
    if record:
        shown = sorted(
            (b for b in beliefs if b.current),
            key=lambda b: (-b.confidence, b.concept_name, b.belief_id),
        )
        return list(dict.fromkeys([*focus, *named, *(b.concept_key for b in shown)]))
    match = lexical_match(cmap, recall.terms)
    relevance = concept_relevance(cmap, match.scores, recall.concept_similarity)

    def most_relevant(keys: list[str]) -> list[str]:
        return sorted(keys, key=lambda k: (-relevance.get(k, 0.0), k))

    telling = [k for k in named if k in cmap.concepts and match.distinctive_name(cmap, k)]
    focus += most_relevant(telling)
    focus += most_relevant([k for k in match.scores if k not in named])
    focus += [k for k in named if k not in telling]
    return list(dict.fromkeys(focus))


@dataclass(frozen=True)
class LexicalMatch:
    """BM25 of a question over a map's concept texts: ``scores`` for the concepts sharing a
    distinctive term with it (nothing for the others), and which of its terms are
    ``distinctive`` (positive inverse document frequency)."""

    scores: Mapping[str, float]
    distinctive: frozenset[str]

    def distinctive_name(self, cmap: ConceptMap, key: str) -> bool:
        """Whether the concept's own name carries one of the question's distinctive terms."""
        concept = cmap.concepts[key]
        # in the language of the concept's text, as its text was analysed
        lang = detect_language(concept_text(concept))
        return not self.distinctive.isdisjoint(analysed(concept.name, lang))


def lexical_match(cmap: ConceptMap, terms: Sequence[str]) -> LexicalMatch:
    """See ``LexicalMatch``; BM25 with the episode index's k1 and b."""
    if not terms or not cmap.concepts:
        return LexicalMatch({}, frozenset())
    docs = {k: analysed(concept_text(c)) for k, c in cmap.concepts.items()}
    n = len(docs)
    average = sum(len(d) for d in docs.values()) / n or 1.0
    wanted = set(terms)
    holding = Counter(t for d in docs.values() for t in wanted & set(d))
    idf = {t: math.log((n - m + 0.5) / (m + 0.5)) for t, m in holding.items()}
    distinctive = frozenset(t for t, w in idf.items() if w > 0.0)
    k1, b = C.MAP_FOCUS_BM25_K1, C.MAP_FOCUS_BM25_B
    scores: dict[str, float] = {}
    for key, doc in docs.items():
        counts = Counter(t for t in doc if t in distinctive)
        norm = k1 * ((1 - b) + b * len(doc) / average)
        score = sum(idf[t] * tf * (k1 + 1) / (tf + norm) for t, tf in counts.items())
        if score > 0.0:
            scores[key] = score
    return LexicalMatch(scores, distinctive)


def concept_relevance(
    cmap: ConceptMap, lexical: Mapping[str, float], similarity: Mapping[str, float]
) -> dict[str, float]:
    """Each concept's relevance to the question, 0–1: the mean of the figures the question
    has (see the module's "most relevant")."""
    figures: list[dict[str, float]] = []
    best = max(lexical.values(), default=0.0)
    if best > 0.0:
        figures.append({k: s / best for k, s in lexical.items()})
    cosines = {k: c for k, c in similarity.items() if k in cmap.concepts}
    if cosines:
        top, worst = max(cosines.values()), min(cosines.values())
        span = top - worst
        figures.append({k: (c - worst) / span if span > 0 else 1.0 for k, c in cosines.items()})
    if not figures:
        return {}
    return {k: sum(f.get(k, 0.0) for f in figures) / len(figures) for k in cmap.concepts}
