"""The concept map of one pair: what the subject is made of, and what builds on what (SPEC §4).

Files feed it (an extractor returns :class:`ConceptDraft` lists, a validator cleans them, and
:func:`merge_file` folds them into the map); teaching adds to it (SPEC §5); checks confirm it.
The derived numbers — centrality, readiness, teaching order — are computed when the map
changes (``mapmetrics``, the only module that imports networkx) and stored with it, so the turn
path only reads them.

Edges point from a concept to a concept it builds on (its prerequisite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from tutor_memory.domain import constants as C
from tutor_memory.domain.concepts import concept_key, find_form
from tutor_memory.domain.routing import (
    ConceptVector,
    ConceptVectors,
    described,
    encode_vector,
    text_digest,
)


class Layer(StrEnum):
    FILE = "file"  # explained by at least one file
    ASSUMED = "assumed"  # assumed by two or more concepts, explained by none
    TAUGHT = "taught"  # minted by a person teaching the map


@dataclass(frozen=True)
class ConceptDraft:
    """One concept as an extractor reads it from one file, before validation."""

    name: str
    gist: str = ""  # one sentence
    definition: str = ""  # short
    builds_on: tuple[str, ...] = ()  # names, from the same file's list (others become assumed)
    pages: tuple[int, ...] = ()
    aliases: tuple[str, ...] = ()  # other names of it, in any language ("ósmosis", "اوسموسس")


@dataclass(frozen=True)
class Source:
    """A file that explains a concept, and where."""

    file_id: str
    version: int
    fingerprint: str
    pages: tuple[int, ...] = ()
    # What this file says of the concept when it is not the concept's own definition (a second
    # file that re-explains it): kept per file, so a new version or a removal replaces it.
    said: str = ""
    # The class whose course map brought this source (a course file, read once for the class:
    # see ``fold_course``); "" for the pair's own file.
    course: str = ""


@dataclass(frozen=True)
class Concept:
    key: str
    name: str
    layer: Layer
    gist: str = ""
    definition: str = ""
    sources: tuple[Source, ...] = ()
    builds_on: tuple[str, ...] = ()  # keys of nodes it builds on (the edges)
    assumed: tuple[str, ...] = ()  # names it assumes that are not nodes (drawn nowhere)
    assumed_by: tuple[str, ...] = ()  # for an assumed node: the keys that assume it
    taught_note: str | None = None
    confirmed: bool = False  # a passing check tied to it
    aliases: tuple[str, ...] = ()  # other names, in any language: a name meeting one joins it
    centrality: float = 0.0  # derived
    readiness: float = C.READINESS_NAMED  # derived

    @property
    def explained(self) -> bool:
        return bool(self.sources)


@dataclass(frozen=True)
class ConceptMap:
    """One pair's map. ``version`` counts saves (the store saves under it optimistically)."""

    concepts: dict[str, Concept] = field(default_factory=dict)
    teaching_order: tuple[tuple[str, ...], ...] = ()  # derived: layers, prerequisites first
    subject_readiness: float = 0.0  # derived: centrality-weighted mean readiness
    version: int = 0
    # One passage vector per concept, computed when the map changes (domain/routing.py); None
    # for a map saved before they existed or without an embedder.
    vectors: ConceptVectors | None = None
    # The course maps folded in: class id → the version of its course map (``fold_course``).
    courses: dict[str, int] = field(default_factory=dict)

    def edges(self) -> list[tuple[str, str]]:
        """(concept, prerequisite) pairs, sorted."""
        return sorted(
            (c.key, p) for c in self.concepts.values() for p in c.builds_on if p in self.concepts
        )

    def to_dict(self) -> dict[str, Any]:
        vectors = {} if self.vectors is None else {"vectors": self.vectors.to_dict()}
        courses = {"courses": dict(sorted(self.courses.items()))} if self.courses else {}
        return {
            **vectors,
            **courses,
            "version": self.version,
            "subject_readiness": self.subject_readiness,
            "teaching_order": [list(layer) for layer in self.teaching_order],
            "concepts": [
                {
                    "key": c.key,
                    "name": c.name,
                    "layer": c.layer.value,
                    "gist": c.gist,
                    "definition": c.definition,
                    "sources": [
                        {
                            "file_id": s.file_id,
                            "version": s.version,
                            "fingerprint": s.fingerprint,
                            "pages": list(s.pages),
                            **({"said": s.said} if s.said else {}),
                            **({"course": s.course} if s.course else {}),
                        }
                        for s in c.sources
                    ],
                    "builds_on": list(c.builds_on),
                    "assumed": list(c.assumed),
                    "assumed_by": list(c.assumed_by),
                    "taught_note": c.taught_note,
                    "confirmed": c.confirmed,
                    **({"aliases": list(c.aliases)} if c.aliases else {}),
                    "centrality": c.centrality,
                    "readiness": c.readiness,
                }
                for c in sorted(self.concepts.values(), key=lambda c: c.key)
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConceptMap:
        concepts = {}
        for c in data.get("concepts", []):
            concepts[c["key"]] = Concept(
                key=c["key"],
                name=c["name"],
                layer=Layer(c["layer"]),
                gist=c.get("gist", ""),
                definition=c.get("definition", ""),
                sources=tuple(
                    Source(
                        s["file_id"],
                        int(s["version"]),
                        s["fingerprint"],
                        tuple(s["pages"]),
                        str(s.get("said", "")),
                        str(s.get("course", "")),
                    )
                    for s in c.get("sources", [])
                ),
                builds_on=tuple(c.get("builds_on", [])),
                assumed=tuple(c.get("assumed", [])),
                assumed_by=tuple(c.get("assumed_by", [])),
                taught_note=c.get("taught_note"),
                confirmed=bool(c.get("confirmed", False)),
                aliases=tuple(c.get("aliases", [])),
                centrality=float(c.get("centrality", 0.0)),
                readiness=float(c.get("readiness", C.READINESS_NAMED)),
            )
        return cls(
            concepts=concepts,
            teaching_order=tuple(tuple(layer) for layer in data.get("teaching_order", [])),
            subject_readiness=float(data.get("subject_readiness", 0.0)),
            version=int(data.get("version", 0)),
            vectors=ConceptVectors.from_dict(data["vectors"]) if "vectors" in data else None,
            courses={str(k): int(v) for k, v in data.get("courses", {}).items()},
        )


def concept_text(concept: Concept) -> str:
    """The text a concept's routing vector is computed from, and the map's lexical focus reads
    (domain/mapfocus.py): name, gist, the definition (what it says beyond the gist), what other
    files say of it, and a taught note — what a question that paraphrases the concept without
    naming it can meet (domain/routing.py). A second file's explanation counts: the sample's
    Markdown says "Water that enters a plant cell by osmosis …" where the PDF, read first and
    so the definition, does not."""
    gist, definition = concept.gist.strip(), concept.definition.strip()
    if gist and definition.startswith(gist):
        definition = definition[len(gist) :].strip()  # extractors often repeat the gist
    parts = [gist, definition]
    for source in concept.sources:
        said = source.said.strip()
        if said and not any(said in p for p in parts):
            parts.append(said)
    parts.append((concept.taught_note or "").strip())
    said = " ".join(p for p in parts if p)
    text = f"{concept.name.strip()}: {said}" if said else concept.name.strip()
    return text[: C.ROUTE_CONCEPT_TEXT_CHARS]


def readiness_of(concept: Concept) -> float:
    """The article's four bands (SPEC §4): taught beats confirmed beats explained beats named."""
    if concept.taught_note is not None or concept.layer is Layer.TAUGHT:
        return C.READINESS_TAUGHT
    if concept.confirmed:
        return C.READINESS_CONFIRMED
    if concept.explained:
        return C.READINESS_EXPLAINED
    return C.READINESS_NAMED


def _union(a: Iterable[str], b: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*a, *b]))


def merge_file(
    current: ConceptMap,
    drafts: Sequence[ConceptDraft],
    source: Source,
    *,
    same_as: dict[str, str] | None = None,
) -> ConceptMap:
    """Fold one file's validated drafts into the map (derived numbers are recomputed later).

    * A draft joins the node with its canonical key, or the node ``same_as`` maps its key to
      (a merge by embedding similarity, decided by the caller); otherwise it is a new node.
    * Provenance accumulates: the file is added to the node's sources with its pages (a newer
      version of the same file replaces that file's older entry).
    * A builds-on name in the file's own list is an edge. One outside it is an *assumed*
      prerequisite: it becomes a node (layer ``assumed``, readiness "named only") only once two
      concepts assume it; until then it is recorded on the concept and drawn nowhere.
    * Across files (``link_across_files``): a concept whose definition names a concept that
      only other files explain builds on it — an edge no single file could draw.
    """
    same_as = same_as or {}
    concepts = dict(current.concepts)
    # key → display name of every concept the file can refer to: the map's, then the file's
    # own in order, so that an inflected form ("Acids" beside "Acid") joins the first form.
    names = {k: c.name for k, c in concepts.items()}
    # every other name (an alias) → the key of its concept: the map's, then the file's own
    aliases = alias_index(concepts)

    def resolve(name: str) -> str:
        key = concept_key(name)
        key = same_as.get(key, key)
        if key in names:
            return key
        return find_form(name, names) or find_form(name, aliases.names, aliases.keys) or key

    def resolve_draft(draft: ConceptDraft) -> str:
        """The draft's own name first; else the first of its aliases that is a concept."""
        key = resolve(draft.name)
        if key in names:
            return key
        for alias in draft.aliases:
            other = resolve(alias)
            if other in names:
                return other
        return key

    own: set[str] = set()
    keys: dict[int, str] = {}
    for i, draft in enumerate(drafts):
        key = keys[i] = resolve_draft(draft)
        own.add(key)
        names.setdefault(key, draft.name.strip())
        aliases.add(key, [draft.name, *draft.aliases], names[key])
    for i, draft in enumerate(drafts):
        key = keys[i]
        node = concepts.get(key)
        pages = tuple(sorted(set(draft.pages)))
        sources = tuple(
            s
            for s in (node.sources if node else ())
            if (s.file_id, s.course) != (source.file_id, source.course)
        )
        definition = (node.definition if node else "") or draft.definition
        said = draft.definition.strip()
        said = "" if said == definition.strip() else said
        sources = (*sources, replace(source, pages=pages, said=said))
        edges = [resolve(n) for n in draft.builds_on if resolve(n) in own and resolve(n) != key]
        outside = [n for n in draft.builds_on if resolve(n) not in own and resolve(n) != key]
        if node is None:
            node = Concept(key=key, name=draft.name.strip(), layer=Layer.FILE)
        concepts[key] = replace(
            node,
            layer=Layer.FILE if node.layer is Layer.ASSUMED else node.layer,
            gist=node.gist or draft.gist,
            definition=definition,
            sources=sources,
            builds_on=_union(node.builds_on, edges),
            assumed=_union(node.assumed, outside),
            assumed_by=(),
            aliases=other_names(node, [draft.name, *draft.aliases]),
        )
    return replace(current, concepts=link_across_files(_settle_assumed(concepts)))


def other_names(node: Concept, names: Iterable[str]) -> tuple[str, ...]:
    """The node's aliases with ``names`` added: each once (by key), never its own name."""
    seen = {concept_key(node.name)} | {concept_key(a) for a in node.aliases}
    added = list(node.aliases)
    for name in names:
        key = concept_key(name)
        if key and key not in seen:
            seen.add(key)
            added.append(name.strip())
    return tuple(added[: C.MAX_ALIASES])


@dataclass
class AliasIndex:
    """Every alias of a map, by its key: ``names`` (alias key → alias) for ``find_form``, and
    ``keys`` (alias key → the key of the concept it names)."""

    names: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)

    def add(self, concept: str, aliases: Iterable[str], own_name: str) -> None:
        for alias in aliases:
            key = concept_key(alias)
            if key and key != concept_key(own_name) and key not in self.keys:
                self.names[key] = alias.strip()
                self.keys[key] = concept


def alias_index(concepts: Mapping[str, Concept]) -> AliasIndex:
    index = AliasIndex()
    for c in sorted(concepts.values(), key=lambda c: c.key):
        index.add(c.key, c.aliases, c.name)
    return index


def find_concept(name: str, concepts: Mapping[str, Concept]) -> str | None:
    """The key of the concept ``name`` names on a map: its own name or an inflected or cognate
    form of it (``concepts.same_name``), else one of its aliases or a form of one."""
    found = find_form(name, {k: c.name for k, c in concepts.items()})
    if found is not None:
        return found
    aliases = alias_index(concepts)
    return find_form(name, aliases.names, aliases.keys)


def _names_in(text: str) -> str:
    return f" {concept_key(text)} "


def link_across_files(concepts: dict[str, Concept]) -> dict[str, Concept]:
    """X builds on Y when X's definition (or gist) names Y as whole words and no file explains
    both (a file's own edges are its extractor's call). The direction is checked: no edge when
    Y already builds on X or Y's definition names X too (which builds on which is unknown)."""
    explained = {
        k: (frozenset(s.file_id for s in c.sources), _names_in(f"{c.definition} {c.gist}"))
        for k, c in concepts.items()
        if c.sources
    }
    out = dict(concepts)
    for x, (x_files, x_text) in explained.items():
        found = []
        for y, (y_files, y_text) in explained.items():
            if y == x or x_files & y_files or f" {y} " not in x_text:
                continue
            if x in concepts[y].builds_on or f" {x} " in y_text:
                continue
            found.append(y)
        if found:
            out[x] = replace(out[x], builds_on=_union(out[x].builds_on, sorted(found)))
    return out


def _settle_assumed(concepts: dict[str, Concept]) -> dict[str, Concept]:
    """Promote an assumed name to a node once two concepts assume it, turn assumptions of names
    that are nodes into edges, and record on each assumed node who assumes it."""
    assumers: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    nodes = {k: c.name for k, c in concepts.items()}

    def key_of(name: str) -> str:
        """A node's key for any form of its name, else the key of the first form assumed."""
        return find_form(name, nodes) or find_form(name, names) or concept_key(name)

    for c in concepts.values():
        for name in c.assumed:
            key = key_of(name)
            assumers.setdefault(key, set()).add(c.key)
            names.setdefault(key, name.strip())
    for key, by in assumers.items():
        if key not in concepts and len(by) >= C.ASSUMED_NODE_MIN_ASSUMERS:
            concepts[key] = Concept(key=key, name=names[key], layer=Layer.ASSUMED)
            nodes[key] = names[key]
    for c in list(concepts.values()):
        promoted = [k for k in (key_of(n) for n in c.assumed) if k in concepts]
        if promoted:
            concepts[c.key] = replace(
                c,
                builds_on=_union(c.builds_on, [p for p in promoted if p != c.key]),
                assumed=tuple(n for n in c.assumed if key_of(n) not in concepts),
            )
    for c in list(concepts.values()):
        if c.layer is Layer.ASSUMED:
            users = sorted(o.key for o in concepts.values() if c.key in o.builds_on)
            concepts[c.key] = replace(c, assumed_by=tuple(users))
    return concepts


def vectors_to_compute(cmap: ConceptMap, profile: str) -> dict[str, str]:
    """Concept key → text, for every described concept whose vector is missing, was computed
    from another text, or by another embedder profile (then all of them)."""
    current = cmap.vectors if cmap.vectors is not None and cmap.vectors.profile == profile else None
    todo: dict[str, str] = {}
    for key, concept in sorted(cmap.concepts.items()):
        text = concept_text(concept)
        if not described(concept.name, text):
            continue  # a bare name routes by its name only (domain/routing.py)
        row = current.rows.get(key) if current is not None else None
        if row is None or row.digest != text_digest(text):
            todo[key] = text
    return todo


def with_vectors(
    cmap: ConceptMap,
    profile: str,
    dimension: int,
    computed: Mapping[str, tuple[str, Sequence[float]]],
) -> ConceptMap:
    """The map with ``computed`` (key → (text, vector)) added to the rows still valid for
    ``profile``; rows of concepts no longer on the map, or of another profile, are dropped."""
    kept: dict[str, ConceptVector] = {}
    if cmap.vectors is not None and cmap.vectors.profile == profile:
        kept = {k: r for k, r in cmap.vectors.rows.items() if k in cmap.concepts}
    for key, (text, vector) in computed.items():
        if key in cmap.concepts:
            kept[key] = ConceptVector(text_digest(text), encode_vector(vector))
    return replace(cmap, vectors=ConceptVectors(profile, dimension, dict(sorted(kept.items()))))


def without_file(cmap: ConceptMap, file_id: str, fingerprint: str) -> ConceptMap:
    """The map without what one of the pair's own file versions put on it (its erasure;
    derived numbers and vectors are recomputed later). A course file's sources are the class's
    (``fold_course``): erasing the pair's own file of the same name and bytes leaves them.

    * Each concept loses that version's source entry (its pages and what it said).
    * A concept left with no source and no taught note goes, with every edge to it; one with a
      taught note stays, as taught.
    * The definition and gist are not kept per file: when the erased version may have given
      them (it said nothing beside the definition), they are replaced by what a remaining file
      said, else dropped — an erasure keeps nothing the file might have written.
    * An assumed node that fewer than ``ASSUMED_NODE_MIN_ASSUMERS`` concepts still build on goes
      back to being an assumed name on each of them.
    """
    return _without_sources(
        cmap, lambda s: (s.file_id, s.fingerprint, s.course) == (file_id, fingerprint, "")
    )


def without_file_versions(cmap: ConceptMap, file_id: str) -> ConceptMap:
    """The map without what any version of one of the pair's own files put on it (the file's
    removal), by ``without_file``'s rule."""
    return _without_sources(cmap, lambda s: (s.file_id, s.course) == (file_id, ""))


def _without_sources(cmap: ConceptMap, erased_by: Callable[[Source], bool]) -> ConceptMap:
    """``without_file``'s rule for every source ``erased_by`` picks."""
    concepts: dict[str, Concept] = {}
    for key, c in cmap.concepts.items():
        erased = [s for s in c.sources if erased_by(s)]
        if not erased:
            concepts[key] = c
            continue
        sources = [s for s in c.sources if s not in erased]
        if not sources and c.taught_note is None and c.layer is not Layer.TAUGHT:
            continue
        gist, definition = c.gist, c.definition
        if any(not s.said.strip() for s in erased):  # it may be where the definition came from
            said = next((i for i, s in enumerate(sources) if s.said.strip()), None)
            gist, definition = "", ""
            if said is not None:
                definition = sources[said].said.strip()
                sources[said] = replace(sources[said], said="")  # it is the definition now
        layer = c.layer if sources else Layer.TAUGHT
        concepts[key] = replace(
            c, layer=layer, gist=gist, definition=definition, sources=tuple(sources)
        )
    return replace(cmap, concepts=_without_dangling(concepts))


def _without_dangling(concepts: dict[str, Concept]) -> dict[str, Concept]:
    """Edges only between concepts on the map; assumed nodes only while enough build on them."""
    while True:
        out = {
            k: replace(c, builds_on=tuple(p for p in c.builds_on if p in concepts))
            for k, c in concepts.items()
        }
        users = {k: sorted(o.key for o in out.values() if k in o.builds_on) for k in out}
        weak = {
            k
            for k, c in out.items()
            if c.layer is Layer.ASSUMED and len(users[k]) < C.ASSUMED_NODE_MIN_ASSUMERS
        }
        if not weak:
            return {
                k: replace(c, assumed_by=tuple(users[k])) if c.layer is Layer.ASSUMED else c
                for k, c in out.items()
            }
        for k in weak:
            for user in users[k]:
                u = out[user]
                out[user] = replace(u, assumed=_union(u.assumed, [out[k].name]))
        concepts = {k: c for k, c in out.items() if k not in weak}


# --- a class's course map on a student's map --------------------------------------------------


def fold_course(student: ConceptMap, class_id: str, course: ConceptMap, version: int) -> ConceptMap:
    """The student's map with the class's course map folded in at ``version`` (what an
    earlier version of it put there is taken out first; derived numbers and vectors are
    recomputed later). The course's files were read once, for the class; here their concepts
    join the student's by canonical key, form or alias (as a second file's would), each course
    source tagged with the class, and the student's own state on a concept — confirmed by a
    passing check, a taught note — stays theirs. An assumed node of the course is not copied:
    its name is assumed by the concepts that build on it, and becomes a node on the student's
    map by the usual rule (two concepts assume it)."""
    before = student.concepts
    concepts = dict(unfold_course(student, class_id).concepts)
    files = {k: c for k, c in course.concepts.items() if c.sources}
    target = {
        k: k if k in concepts else (find_concept(c.name, concepts) or k) for k, c in files.items()
    }
    for key, c in sorted(files.items()):
        k = target[key]
        node = concepts.get(k) or Concept(key=k, name=c.name, layer=Layer.FILE)
        edges = [target[p] for p in c.builds_on if p in target and target[p] != k]
        assumed = [course.concepts[p].name for p in c.builds_on if p not in target]
        assumed += [p for p in c.builds_on if p not in course.concepts]
        old = before.get(k)
        concepts[k] = replace(
            node,
            layer=Layer.FILE if node.layer is Layer.ASSUMED else node.layer,
            gist=node.gist or c.gist,
            definition=node.definition or c.definition,
            sources=(*node.sources, *_course_sources(c, class_id, node.definition)),
            builds_on=_union(node.builds_on, edges),
            assumed=_union(node.assumed, [*c.assumed, *assumed]),
            assumed_by=(),
            aliases=other_names(node, [c.name, *c.aliases]),
            confirmed=node.confirmed or (old is not None and old.confirmed),
        )
    return replace(
        student,
        concepts=link_across_files(_settle_assumed(concepts)),
        courses={**student.courses, class_id: version},
    )


def _course_sources(course: Concept, class_id: str, definition: str) -> list[Source]:
    """A course concept's sources, tagged with the class. On a concept the student's own file
    already defines, each says what the course says (so that leaving the class takes nothing
    of the student's own definition with it)."""
    out = []
    for s in course.sources:
        said = s.said
        if definition.strip() and not said.strip():
            said = course.definition or course.gist
        out.append(replace(s, course=class_id, said=said))
    return out


def unfold_course(cmap: ConceptMap, class_id: str) -> ConceptMap:
    """The map without what the class's course map put on it (the student left the class):
    its course sources go, and a concept left with no source and no taught note goes, as a
    removed file's would (``without_file``). Derived numbers are recomputed later.

    Not undone: an edge or an assumed name the course drew between two concepts that stay
    (the student's own files explain both): a concept's edges are not kept per file."""
    if class_id not in cmap.courses and not any(
        s.course == class_id for c in cmap.concepts.values() for s in c.sources
    ):
        return cmap
    out = _without_sources(cmap, lambda s: s.course == class_id)
    return replace(out, courses={k: v for k, v in cmap.courses.items() if k != class_id})
