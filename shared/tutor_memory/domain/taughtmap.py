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
from tutor_memory.domain.episodes import (
    CorrectionEvidence,
    Episode,
    FileEvidence,
    Kind,
    TaughtEvidence,
)
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
    * A name a file of the concept gives it (its arrival's ``concepts``) stays. A concept a
      leaving "X is the same as Y" named X before a file explained Y takes the file's name
      and key: without the note the file would have put it there so, and X is the
      student's word.
    """
    touched = {k for e in leaving if (k := _node(e, cmap)) is not None}
    if not touched:
        return cmap
    kept_all = list(kept)
    kept_list = [e for e in kept_all if shapes_the_map(e)]
    arrivals = {
        (e.evidence.file_id, e.evidence.fingerprint): e.concepts
        for e in kept_all
        if e.kind is Kind.FILE and isinstance(e.evidence, FileEvidence) and not e.erased
    }
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
    renamed: dict[str, str] = {}
    for key in touched:
        node = concepts[key]
        filed = _file_names(node, arrivals)
        gone = dropped - {concept_key(n) for n in filed}
        aliases = tuple(a for a in node.aliases if concept_key(a) not in gone)
        note = notes.get(key)
        if note is None and not aliases and _only_taught(node):
            del concepts[key]
            continue
        node = replace(node, taught_note=note, aliases=aliases)
        if key in gone and filed and concept_key(filed[0]) not in concepts:
            node = _named_by_file(node, filed[0])
            del concepts[key]
            renamed[key] = node.key
        concepts[node.key] = node
    if len(concepts) < len(cmap.concepts) or renamed:
        concepts = {
            k: replace(
                c,
                builds_on=tuple(renamed.get(p, p) for p in c.builds_on
                                if renamed.get(p, p) in concepts),
                assumed_by=tuple(renamed.get(p, p) for p in c.assumed_by),
            )
            for k, c in concepts.items()
        }  # fmt: skip
    vectors = cmap.vectors  # a row keyed by a concept that left (its key may be X) goes too
    if vectors is not None and not set(vectors.rows) <= set(concepts):
        vectors = replace(vectors, rows={k: r for k, r in vectors.rows.items() if k in concepts})
    return replace(cmap, concepts=concepts, vectors=vectors)


def _file_names(node: Concept, arrivals: dict[tuple[str, str], tuple[str, ...]]) -> list[str]:
    """The names the node's files gave it: of each source's arrival's concepts, those that
    are the node's key, name or one of its aliases, in the sources' order."""
    own = {node.key, concept_key(node.name), *(concept_key(a) for a in node.aliases)}
    return [
        name
        for source in node.sources
        for name in arrivals.get((source.file_id, source.fingerprint), ())
        if concept_key(name) in own
    ]


def _named_by_file(node: Concept, name: str) -> Concept:
    """The node under the name its file gives it (its key that name's)."""
    layer = Layer.FILE if node.layer is Layer.TAUGHT else node.layer
    aliases = tuple(a for a in node.aliases if concept_key(a) != concept_key(name))
    return replace(node, key=concept_key(name), name=name, layer=layer, aliases=aliases)


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
