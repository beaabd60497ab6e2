"""The taught layer of a map follows the log: what a taught note put on a concept goes when its
episode is erased, and shows the correction when its note is corrected.

A student's "remember that osmosis is …" puts the note on the concept (``MapUseCases.teach``),
and the block shows it under SUBJECT MAP in every turn. The note is the student's words: an
erased episode takes them out of every block, so it takes them off the map too; a corrected
note is what the map shows from then on. The rule is the one ``teach`` follows: a concept shows
the note of the newest taught episode attached to it (the concept its episode names), as the
log's corrections correct it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from tutor_memory.domain.conceptmap import Concept, ConceptMap, Layer, find_concept
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.corrections import as_corrected
from tutor_memory.domain.episodes import CorrectionEvidence, Episode, Kind, TaughtEvidence
from tutor_memory.domain.teaching import detect_teaching, same_as


def shapes_the_map(episode: Episode) -> bool:
    """Whether the episode may have put something on the map's taught layer: a taught note
    attached to a concept, or a correction of such a note."""
    if episode.erased or not episode.concepts:
        return False
    if episode.kind is Kind.TAUGHT:
        return isinstance(episode.evidence, TaughtEvidence)
    evidence = episode.evidence
    return isinstance(evidence, CorrectionEvidence) and evidence.field == "note"


def without_taught(
    cmap: ConceptMap, leaving: Sequence[Episode], kept: Iterable[Episode]
) -> ConceptMap:
    """The map after ``leaving`` (taught episodes and corrections of their notes, read before
    their bodies go) leave the log, ``kept`` being the rest of it (those that
    :func:`shapes_the_map`; derived numbers and vectors are recomputed later).

    * Each concept a leaving episode names shows the note of the newest kept taught episode
      naming it, as the kept corrections correct it; none when there is none.
    * The names a leaving "X is the same as Y" added as aliases go, unless a kept one adds
      them too.
    * A concept that only notes put on the map (no file explains it) left with no note and
      no other name goes, with every edge to it — a check that confirmed it too: a check
      puts no concept on the map, so the map the log would give without the note has none
      (a replay of the export gives that map), and the check's belief stays either way.
    """
    touched = {k for e in leaving if (k := _node(e, cmap)) is not None}
    if not touched:
        return cmap
    kept_list = [e for e in kept if shapes_the_map(e)]
    notes: dict[str, str] = {}
    for e in sorted(as_corrected(kept_list), key=lambda e: e.seq):
        key = _node(e, cmap) if e.kind is Kind.TAUGHT else None
        if key not in touched or not isinstance(e.evidence, TaughtEvidence):
            continue
        if cmap.concepts[key].sources and _naming(e):
            continue  # "X is the same as Y" named a concept of the files: it gave no note
        notes[key] = e.evidence.note
    dropped = _named(leaving) - _named(kept_list)
    concepts = dict(cmap.concepts)
    for key in touched:
        node = concepts[key]
        aliases = tuple(a for a in node.aliases if concept_key(a) not in dropped)
        note = notes.get(key)
        if note is None and not aliases and _only_taught(node):
            del concepts[key]
            continue
        concepts[key] = replace(node, taught_note=note, aliases=aliases)
    if len(concepts) < len(cmap.concepts):
        concepts = {
            k: replace(c, builds_on=tuple(p for p in c.builds_on if p in concepts))
            for k, c in concepts.items()
        }
    return replace(cmap, concepts=concepts)


def corrected_note(cmap: ConceptMap, target: Episode, was: str, now: str) -> ConceptMap:
    """The map after the taught ``target``'s note, reading ``was``, was corrected to ``now``:
    its concept shows ``now`` where it showed ``was`` (a newer note on the concept stays)."""
    key = _node(target, cmap)
    if key is None or cmap.concepts[key].taught_note != was:
        return cmap
    node = cmap.concepts[key]
    return replace(cmap, concepts={**cmap.concepts, key: replace(node, taught_note=now)})


def _node(episode: Episode, cmap: ConceptMap) -> str | None:
    """The concept the episode names (a correction names its episode's), if on the map."""
    return find_concept(episode.concepts[0], cmap.concepts) if episode.concepts else None


def _naming(episode: Episode) -> tuple[str, str] | None:
    """The two names of a taught "X is the same as Y" (``MapUseCases.teach`` reads it so)."""
    if episode.kind is not Kind.TAUGHT or episode.erased:
        return None
    intent = detect_teaching(episode.text)
    return same_as(intent.note) if intent is not None else None


def _named(episodes: Iterable[Episode]) -> set[str]:
    """The keys of the names the taught episodes' "X is the same as Y" notes gave."""
    return {concept_key(n) for e in episodes for n in _naming(e) or ()}


def _only_taught(node: Concept) -> bool:
    return node.layer is Layer.TAUGHT and not node.sources
