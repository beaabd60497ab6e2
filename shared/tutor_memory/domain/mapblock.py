"""The SUBJECT MAP section of the memory block (SPEC §4, §7).

It reads the numbers ``mapmetrics.derive`` stored with the map and never computes them: this
module is on the turn path, so it imports neither networkx nor mapmetrics.

Decisions (ours):

* **The header's percentage** is the subject readiness (the centrality-weighted mean of the
  readiness bands) × 100, rounded half up to a whole percent: the article prints this number
  as "the files explain 79% of it". The header says what the number is about — the material,
  never the student — in the article's exact words; "understood" must never appear (a model
  once told a student "given your current understanding of 79%…").
* **One line per concept, the question's concepts first.** The concepts the question is about
  (``focus``: those it routes to, and for a record question the concepts of the beliefs
  shown), each followed by its prerequisites, come first, in the order given; then every other
  concept, hubs first (centrality, then name, then key). Without a focus the whole map is
  hubs first. Ordered by centrality alone, "what should I revise before X?" about a leaf X lost
  X's line and its prerequisites to the budget, and "why does water move into a plant cell?"
  showed Nucleus and Chloroplast but not Osmosis (which concepts are the focus:
  domain/mapfocus.py). A line reads
  ``- Name: gist [taught: note] (builds on: A, B)``. "builds on" lists display names of the
  concept's prerequisites, alphabetically. A concept no file explains and nobody taught says
  so, instead of a gist. Single assumed names (recorded on a concept, "drawn nowhere" by the
  article) are not shown: the block spends its budget on the map's real edges.
* **The budget** (header included) is never exceeded: lines go from the end (the
  lowest-centrality concepts outside the focus first).
  When lines were dropped, a last line says how many, so the tutor does not read the shown
  lines as the whole subject. If not even the header fits, the section is empty.
* **An empty map renders nothing**: with no file read there is no material to describe, and an
  absent section costs no tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tutor_memory.domain.conceptmap import Concept, ConceptMap
from tutor_memory.domain.tokens import TokenCounter, count_tokens


@dataclass(frozen=True)
class MapSection:
    lines: tuple[str, ...] = ()
    concept_keys: tuple[str, ...] = ()  # the concepts shown, in the order shown
    tokens_used: int = 0  # of the lines joined by line breaks, by the counter used

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def render_map_section(
    cmap: ConceptMap,
    budget_tokens: int,
    count: TokenCounter = count_tokens,
    *,
    focus: Sequence[str] = (),
) -> MapSection:
    """The map section of ``cmap`` within ``budget_tokens`` (see the module for the format);
    ``focus`` names the concept keys the question is about, most relevant first."""
    if not cmap.concepts:
        return MapSection()
    header = map_header(cmap)
    ranked = focus_first(cmap, focus)
    lines = [concept_line(c, cmap) for c in ranked]

    # Lines add up for count_tokens (and roughly for any counter): estimate how many fit by
    # summing, then check the real text and give lines back until it fits.
    newline = count("\n")
    used = count(header)
    shown = 0
    for line in lines:
        used += newline + count(line)
        if used > budget_tokens:
            break
        shown += 1
    while True:
        text = [header, *lines[:shown]]
        if shown < len(lines):
            text.append(_more_line(len(lines) - shown))
        tokens = count("\n".join(text))
        if tokens <= budget_tokens:
            return MapSection(tuple(text), tuple(c.key for c in ranked[:shown]), tokens)
        if shown == 0:
            break
        shown -= 1
    # Not even the header and the "more" line fit; the bare header might.
    tokens = count(header)
    if tokens <= budget_tokens:
        return MapSection((header,), (), tokens)
    return MapSection()


def map_header(cmap: ConceptMap) -> str:
    n = len(cmap.concepts)
    noun = "concept" if n == 1 else "concepts"
    return (
        f"SUBJECT MAP ({n} {noun}; the files explain {percent(cmap.subject_readiness)}% of it, "
        "this is about the material, NOT the student's mastery):"
    )


def percent(fraction: float) -> int:
    """A fraction as a whole percent, rounded half up (not to even: 0.785 shows as 79)."""
    return min(100, max(0, math.floor(fraction * 100 + 0.5)))


def concept_line(concept: Concept, cmap: ConceptMap) -> str:
    parts = [f"- {_one_line(concept.name)}:"]
    if concept.gist:
        parts.append(_one_line(concept.gist))
    elif not concept.explained and concept.taught_note is None:
        parts.append("(not explained by any file)")
    if concept.taught_note is not None:
        parts.append(f"[taught: {_one_line(concept.taught_note)}]")
    prerequisites = sorted(
        _one_line(cmap.concepts[k].name)
        for k in concept.builds_on
        if k in cmap.concepts and k != concept.key
    )
    if prerequisites:
        parts.append(f"(builds on: {', '.join(prerequisites)})")
    line = " ".join(parts)
    return line[:-1] if line.endswith(":") else line  # a bare name needs no colon


def _more_line(hidden: int) -> str:
    noun = "concept" if hidden == 1 else "concepts"
    return f"- … and {hidden} more {noun}, not shown here"


def focus_first(cmap: ConceptMap, focus: Sequence[str] = ()) -> list[Concept]:
    """Every concept once: each focus concept followed by its prerequisites (hubs first among
    them), then the rest hubs first. Unknown focus keys are skipped."""
    order: dict[str, Concept] = {}
    for key in focus:
        concept = cmap.concepts.get(key)
        if concept is None:
            continue
        order.setdefault(key, concept)
        needs = [cmap.concepts[k] for k in concept.builds_on if k in cmap.concepts]
        for prerequisite in sorted(needs, key=_hub_first):
            order.setdefault(prerequisite.key, prerequisite)
    rest = sorted((c for k, c in cmap.concepts.items() if k not in order), key=_hub_first)
    return [*order.values(), *rest]


def _hub_first(c: Concept) -> tuple[float, str, str]:
    return (-c.centrality, c.name, c.key)


def _one_line(text: str) -> str:
    # A line break inside a gist or note would break the block's one-item-a-line layout.
    return " ".join(text.split())
