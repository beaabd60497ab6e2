"""The map's use cases: read a file into the map once, and let a person teach it (SPEC §4, §5).

Order of writes, so that a failure leaves nothing half-done: everything that can fail on bad
input (reading, extracting, validating) happens before any write; then the map is saved (under
its version, retried on a concurrent save), then the file version is registered and the
``file`` episode appended. A retry after a crash between the two re-reads the file (its bytes
are not registered yet) and merges it again, which replaces that file's own provenance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np

from tutor_memory.domain import constants as C
from tutor_memory.domain import corrections
from tutor_memory.domain.conceptmap import (
    Concept,
    ConceptDraft,
    ConceptMap,
    Layer,
    Source,
    find_concept,
    merge_file,
    other_names,
    vectors_to_compute,
    with_vectors,
    without_file,
    without_file_versions,
)
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import (
    Episode,
    FileEvidence,
    Kind,
    Pair,
    TaughtEvidence,
    check_file_id,
    clean_text,
)
from tutor_memory.domain.errors import ValidationError, retry_on_conflict
from tutor_memory.domain.files import FileRecord, fingerprint
from tutor_memory.domain.filetext import FileText, UnreadableFileError
from tutor_memory.domain.taughtmap import corrected_note, without_taught
from tutor_memory.domain.teaching import (
    TeachingIntent,
    about_the_conversation,
    check_note_fits,
    detect_teaching,
    route_taught,
    same_as,
    short_name,
)
from tutor_memory.domain.validator import validate
from tutor_memory.ports import AppendResult, Embedder, Extractor, MapStore, Ports
from tutor_memory.usecases.log import TutorMemory


@dataclass(frozen=True)
class IngestResult:
    file: FileRecord | None
    already_read: bool  # the same bytes were read before: nothing was done
    concepts: tuple[str, ...]  # names kept from this file
    rejected: tuple[tuple[str, str], ...]  # (name, reason) the validator refused
    merged_by_similarity: tuple[tuple[str, str], ...]  # (draft name, node key)
    map_version: int


@dataclass(frozen=True)
class TeachResult:
    concept_key: str
    concept_name: str
    new_node: bool
    note: str  # as stored on the concept: the claim ("X = Y") or the trimmed sentence
    append: AppendResult  # the ``taught`` episode

    @property
    def episode_id(self) -> str:
        return self.append.episode.episode_id


def similar_nodes(
    drafts: list[ConceptDraft], cmap: ConceptMap, embedder: Embedder | None
) -> dict[str, str]:
    """Drafts whose key is new but whose name (+ gist) lies above the embedder profile's
    merge threshold from an existing node's: draft key → node key."""
    new = [d for d in drafts if concept_key(d.name) not in cmap.concepts]
    nodes = sorted(cmap.concepts.values(), key=lambda c: c.key)
    if embedder is None or not new or not nodes:
        return {}
    threshold = embedder.profile.concept_merge_threshold
    mine = embedder.embed_passages([_name_text(d.name, d.gist) for d in new])
    theirs = embedder.embed_passages([_name_text(c.name, c.gist) for c in nodes])
    cosines = np.asarray(mine) @ np.asarray(theirs).T
    same: dict[str, str] = {}
    for i, draft in enumerate(new):
        j = int(np.argmax(cosines[i]))
        if float(cosines[i, j]) >= threshold:
            same[concept_key(draft.name)] = nodes[j].key
    return same


def refresh_vectors(cmap: ConceptMap, embedder: Embedder | None) -> ConceptMap:
    """The map with a routing vector for every concept (domain/routing.py): only concepts that
    are new, whose text changed, or whose vector came from another embedder are embedded, in
    one batch. Without an embedder the map is returned as it is (routing stays by name)."""
    if embedder is None:
        return cmap
    profile = embedder.profile
    todo = vectors_to_compute(cmap, profile.name)
    computed: dict[str, tuple[str, Sequence[float]]] = {}
    if todo:
        rows = embedder.embed_passages(list(todo.values()))
        computed = {k: (t, row) for (k, t), row in zip(todo.items(), rows, strict=True)}
    return with_vectors(cmap, profile.name, profile.dimension, computed)


def _name_text(name: str, gist: str) -> str:
    return f"{name}: {gist}" if gist else name


class MapUseCases:
    def __init__(
        self,
        ports: Ports,
        memory: TutorMemory,
        *,
        read_file: Callable[[str, bytes], FileText],
        extractor: Extractor,
        derive: Callable[[ConceptMap], ConceptMap],
        keep_file: Callable[[Pair, str, bytes], None] | None = None,
    ) -> None:
        self.ports = ports
        self.memory = memory
        # Where the embedded store keeps a copy of each version it reads (an export carries
        # it); None in the cloud, where the uploads bucket keeps every version.
        self.keep_file = keep_file
        self.maps: MapStore = ports.store
        self.read_file = read_file
        self.extractor = extractor
        self.derive = derive

    def remove_file(
        self, pair: Pair, file_id: str, *, at: datetime | None = None
    ) -> FileRecord | None:
        """Take a file out of the pair's registry and map; None when it is not there or already
        out (an upload's removal, which may come twice)."""
        record = self.ports.store.file(pair, file_id)
        if record is None or record.removed:
            return None
        return self.take_out(pair, file_id, at=at)

    def take_out(self, pair: Pair, file_id: str, *, at: datetime | None = None) -> FileRecord:
        """The file out of the map (``without_file_versions``: a concept only it explains goes,
        one a note or another file explains stays) and then out of the registry, where an
        answer citing it reads "removed"; its arrivals and bytes stay in the log, as its
        history. The map first: a failure between the two leaves a file a retry takes out."""
        self._change(
            pair,
            lambda cmap: without_file_versions(cmap, file_id),
            gave_up=f"the map of {pair} kept changing; {file_id} was not taken out of it",
        )
        return self.memory.remove_file(pair, file_id, at=at)

    def ingest(
        self, pair: Pair, file_id: str, name: str, data: bytes, *, at: datetime | None = None
    ) -> IngestResult:
        check_file_id("file_id", file_id)
        name = clean_text("name", name, limit=240)
        when = at or self.ports.clock.now()
        digest = fingerprint(data)
        current = self.ports.store.file(pair, file_id)
        if current is not None and not current.removed and current.current.fingerprint == digest:
            cmap = self.maps.load_map(pair)
            return IngestResult(current, True, (), (), (), cmap.version)
        refused = self.ports.store.by_idempotency_key(pair, f"file-unreadable:{file_id}:{digest}")
        if refused is not None:  # these bytes were found unreadable once: never read again
            reason = refused.text.removeprefix("File could not be read: ").removeprefix(f"{name}: ")
            raise UnreadableFileError(name, f"{reason} (found before: not read again)")
        if self.keep_file is not None:
            self.keep_file(pair, name, data)
        try:
            text = self.read_file(name, data)
            drafts = self.extractor.extract(name, text)
        except UnreadableFileError as exc:
            self.memory.record(
                pair,
                Kind.FILE,
                f"File could not be read: {exc}",
                evidence=FileEvidence(file_id, name, digest),
                at=when,
                idempotency_key=f"file-unreadable:{file_id}:{digest}",
            )
            raise
        report = validate(drafts)
        kept = list(report.kept)
        version = 1 if current is None else current.current.version + 1
        source = Source(file_id, version, digest)

        def merge() -> tuple[ConceptMap, dict[str, str]]:
            cmap = self.maps.load_map(pair)
            merged = similar_nodes(kept, cmap, self.ports.embedder)
            updated = self.derive(merge_file(cmap, kept, source, same_as=merged))
            return self.maps.save_map(pair, refresh_vectors(updated, self.ports.embedder)), merged

        saved, merged = retry_on_conflict(
            merge,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the map of {pair} kept changing; {name} was not merged",
        )
        record, _added = self.ports.store.register_file(pair, file_id, name, digest, when)
        names = tuple(d.name for d in kept)
        self.memory.record_file_arrival(
            pair, file_id, name, digest, version=version, at=when, concepts=names
        )
        return IngestResult(
            file=record,
            already_read=False,
            concepts=names,
            rejected=tuple((d.name, why) for d, why in report.rejected),
            merged_by_similarity=tuple(
                (d.name, merged[concept_key(d.name)]) for d in kept if concept_key(d.name) in merged
            ),
            map_version=saved.version,
        )

    def forget_file(self, pair: Pair, file_id: str, digest: str) -> ConceptMap:
        """The map without what this file version put on it (its erasure), saved with its
        derived numbers and vectors recomputed; unchanged (not saved) when it holds nothing of
        that version."""
        return self._change(
            pair,
            lambda cmap: without_file(cmap, file_id, digest),
            gave_up=f"the map of {pair} kept changing; {file_id} was not taken out of it",
        )

    def forget_taught(self, pair: Pair, leaving: Sequence[Episode]) -> ConceptMap:
        """The map without what ``leaving`` (taught episodes and corrections of their notes,
        read before their erasure) put on its taught layer, the rest of the log deciding what
        each concept they named shows now (``taughtmap.without_taught``)."""
        gone = {e.seq for e in leaving}

        def forget(cmap: ConceptMap) -> ConceptMap:
            kept = (e for e in self.ports.store.iter_episodes(pair) if e.seq not in gone)
            return without_taught(cmap, leaving, kept)

        return self._change(
            pair, forget, gave_up=f"the map of {pair} kept changing; the erased notes stay on it"
        )

    def reattach(self, pair: Pair, episode: Episode) -> None:
        """A retried taught episode's note put on the map, where the first attempt stopped
        between the log and the map: only while it is the newest taught episode naming its
        concept and the map does not show it (as corrected since)."""
        if episode.kind is not Kind.TAUGHT or episode.erased or not episode.concepts:
            return
        key = concept_key(episode.concepts[0])
        newest = self.ports.store.newest_touching(pair, key, Kind.TAUGHT)
        intent = detect_teaching(episode.text)
        if newest is None or newest.seq != episode.seq or intent is None:
            return
        (episode,) = corrections.apply([episode], self.ports.store.corrections(pair))
        assert isinstance(episode.evidence, TaughtEvidence)
        note, naming = episode.evidence.note, same_as(intent.note)

        def attach(cmap: ConceptMap) -> ConceptMap:
            key, taught, _new = placed(cmap, intent, naming)
            if naming is None or key not in cmap.concepts:
                taught = replace(taught, taught_note=note)
            return replace(cmap, concepts={**cmap.concepts, key: taught})

        self._change(pair, attach, gave_up=f"the map of {pair} kept changing; retry")

    def correct_note(self, pair: Pair, target: Episode, was: str, now: str) -> ConceptMap:
        """The map after the taught ``target``'s note was corrected from ``was`` to ``now``
        (``taughtmap.corrected_note``)."""
        return self._change(
            pair,
            lambda cmap: corrected_note(cmap, target, was, now),
            gave_up=f"the map of {pair} kept changing; the corrected note is not on it",
        )

    def _change(
        self, pair: Pair, change: Callable[[ConceptMap], ConceptMap], *, gave_up: str
    ) -> ConceptMap:
        """The pair's map as ``change`` makes it, saved under its version with its derived
        numbers and vectors recomputed (read and changed again on a concurrent save);
        unchanged, and not saved, when ``change`` changes nothing."""

        def attempt() -> ConceptMap:
            cmap = self.maps.load_map(pair)
            updated = change(cmap)
            if updated == cmap:
                return cmap
            derived = self.derive(updated)
            return self.maps.save_map(pair, refresh_vectors(derived, self.ports.embedder))

        return retry_on_conflict(attempt, attempts=C.MAP_SAVE_ATTEMPTS, gave_up=gave_up)

    def refresh_vectors(self, pair: Pair) -> ConceptMap:
        """Compute the routing vectors a stored map lacks (a map saved before they existed, or
        by another embedder) without waiting for its next change; a no-op when none is missing.
        The turn never does this: it routes by name until the vectors are there."""

        def refresh() -> ConceptMap:
            cmap = self.maps.load_map(pair)
            embedder = self.ports.embedder
            if embedder is None or not vectors_to_compute(cmap, embedder.profile.name):
                return cmap
            return self.maps.save_map(pair, refresh_vectors(cmap, embedder))

        return retry_on_conflict(
            refresh,
            attempts=C.MAP_SAVE_ATTEMPTS,
            gave_up=f"the map of {pair} kept changing; its vectors were not refreshed",
        )

    def teach(
        self,
        pair: Pair,
        message: str,
        *,
        at: datetime | None = None,
        ref: str | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        explicit: bool = False,
    ) -> TeachResult | None:
        """Only an explicit instruction teaches; a question never does (None: not teaching).

        A note longer than a taught note may be (``MAX_NOTE_CHARS``) is a passage, not a note:
        a student's message that says "remember that …" and then pastes a page is kept as a
        question and teaches nothing; a message sent as ``taught`` (``explicit``) is refused,
        naming its text. Either way before the map is touched: nothing is half-written. A
        student's note about the people talking ("you promised to quiz me":
        ``about_the_conversation``) teaches nothing either; sent as ``taught``, it does."""
        intent = detect_teaching(message)
        if intent is None:
            return None
        if not explicit and (
            len(intent.claim) > C.MAX_NOTE_CHARS or about_the_conversation(intent)
        ):
            return None
        check_note_fits(intent.claim)
        evidence = TaughtEvidence(intent.claim)  # checked before the map is written
        when = at or self.ports.clock.now()
        naming = same_as(intent.note)  # "X is the same as Y": another name, not a note

        def attach(cmap: ConceptMap) -> ConceptMap:
            key, taught, _new = placed(cmap, intent, naming)
            return replace(cmap, concepts={**cmap.concepts, key: taught})

        # The log first, then the map: a store failing between the two leaves a taught episode
        # whose note a retry puts on the map (``reattach``), never a note on the map that no
        # episode holds (and no erasure could take off it).
        key, taught, new_node = placed(self.maps.load_map(pair), intent, naming)
        appended = self.memory.record(
            pair,
            Kind.TAUGHT,
            message,
            evidence=evidence,
            concepts=[taught.name],
            at=when,
            ref=ref,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )
        if appended.created:
            waits = "the note is recorded; a retry under the same key puts it on the map"
            self._change(pair, attach, gave_up=f"the map of {pair} kept changing: {waits}")
        return TeachResult(key, taught.name, new_node, intent.claim, appended)


def placed(
    cmap: ConceptMap, intent: TeachingIntent, naming: tuple[str, str] | None
) -> tuple[str, Concept, bool]:
    """Where a taught note goes on ``cmap``: the concept's key, the concept with the note,
    and whether the note makes it (``naming``: the note's "X is the same as Y")."""
    named = [find_concept(n, cmap.concepts) for n in naming] if naming else []
    one = {k for k in named if k is not None}
    if naming and len(one) == 1:
        # One side is on the map: the other is its name in another language or words.
        key = one.pop()
        node = cmap.concepts[key]
        return key, replace(node, aliases=other_names(node, naming)), False
    known = {key: c.name for key, c in cmap.concepts.items()}
    key = route_taught(intent.note, known) or ""
    label = "" if key else short_name(intent.note, intent.language)
    if not key:
        # Not by exact name: the concept the note's subject is a form, a cognate or an
        # alias of ("mitocondria" taught in Spanish is Mitochondria's).
        key = find_concept(label, cmap.concepts) or concept_key(label)
    if not key:
        raise ValidationError("text", "the note names nothing to attach it to")
    node = cmap.concepts.get(key) or Concept(key=key, name=label, layer=Layer.TAUGHT)
    # The claim ("mitochondria = the powerhouse of the cell"), not the sentence: the
    # sentence is the episode's text (issue 18).
    taught = replace(node, taught_note=intent.claim)
    if naming and not one:
        taught = replace(taught, aliases=other_names(taught, naming))
    return key, taught, key not in cmap.concepts
