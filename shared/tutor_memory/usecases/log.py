"""``TutorMemory``: the episode log's use cases (record, files, the chain, the index and the
markers kept in step with the log; recall through ``usecases.recall``), which the other use
cases (turns, learning, maps, nightly, erasure) call to write."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from tutor_memory.domain import chain
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.episodes import (
    INTERNAL_KEY_PREFIXES,
    AnswerEvidence,
    Episode,
    Evidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    check_file_id,
    check_same_request,
    clean_text,
    evidence_from_dict,
    file_arrived,
    parse_kind,
    request_digest,
    summarise,
)
from tutor_memory.domain.errors import (
    ConflictError,
    CorruptRowError,
    NotFoundError,
    ValidationError,
)
from tutor_memory.domain.files import FileRecord, fingerprint
from tutor_memory.domain.language import analyse
from tutor_memory.domain.question import Question
from tutor_memory.domain.recall import (
    RecallResult,
    index_words,
)
from tutor_memory.ports import (
    AppendResult,
    EpisodeIndex,
    IndexedEpisode,
    NightlyStore,
    Ports,
)
from tutor_memory.usecases.recall import Recall


def indexed(ep: Episode, vector: Sequence[float] | None) -> IndexedEpisode:
    """An episode as the index keeps it: analysed terms of its summary, text and concepts."""
    return IndexedEpisode(
        pair=ep.pair,
        episode_id=ep.episode_id,
        seq=ep.seq,
        kind=ep.kind.value,
        at=ep.at,
        terms=" ".join(analyse(index_words(ep))),
        vector=vector,
    )


# Per-pair progress markers (store documents): the last sequence each derived state applied.
APPLIED_INDEX = "applied:index"
APPLIED_BELIEFS = "applied:beliefs"


def _held(index: EpisodeIndex, pair: Pair, episode_ids: Sequence[str]) -> set[str]:
    """The ids the index already holds, where it can say (else none: all are indexed again)."""
    known = getattr(index, "known_ids", None)
    return set(known(pair, episode_ids)) if callable(known) and episode_ids else set()


def _documents(store: object) -> NightlyStore | None:
    """The store's per-pair documents, where it keeps them (both adapters do)."""
    if hasattr(store, "document") and hasattr(store, "put_document"):
        return cast(NightlyStore, store)
    return None


class TutorMemory:
    """The episode log's use cases over the ports: record, files, the chain, and the derived
    state (the index, the markers) kept in step with the log; recall."""

    def __init__(self, ports: Ports) -> None:
        self.ports = ports
        self._recall = Recall(ports)

    # --- the log ----------------------------------------------------------------------------

    def record(
        self,
        pair: Pair,
        kind: Kind | str,
        text: str,
        *,
        evidence: Evidence | Mapping[str, Any] | None = None,
        at: datetime | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        salience: float | None = None,
        recalled_ids: Sequence[str] = (),
        ref: str | None = None,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> AppendResult:
        """Append one episode. Everything is validated before the store is touched.

        An idempotency key is bound to the request (``request_hash``, or else a digest of these
        arguments): a retry answers the episode already written, a different request under the
        same key is an :class:`IdempotencyConflictError` and writes nothing."""
        kind = parse_kind(kind)
        if evidence is None or isinstance(evidence, Mapping):
            evidence = evidence_from_dict(kind, evidence)
        if (
            idempotency_key is not None
            and request_hash is None
            and not idempotency_key.startswith(INTERNAL_KEY_PREFIXES)  # the system's own retries
        ):
            request_hash = request_digest(
                {"kind": kind.value, "text": text, "evidence": evidence.to_dict(),
                 "at": None if at is None else at.isoformat(), "summary": summary,
                 "concepts": list(concepts), "salience": salience,
                 "recalled_ids": list(recalled_ids), "ref": ref}
            )  # fmt: skip
        if isinstance(evidence, AnswerEvidence):
            evidence = self._stamp_citation(pair, evidence)
        new = NewEpisode(
            pair=pair,
            kind=kind,
            text=text,
            at=at or self.ports.clock.now(),
            summary=summary,
            concepts=tuple(concepts),
            salience=salience,
            evidence=evidence,
            recalled_ids=tuple(recalled_ids),
            ref=ref,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )
        prior = self.retried(pair, idempotency_key, request_hash)
        if prior is not None:  # a retry also finishes what the first attempt left undone
            self.catch_up_index(pair, upto=prior.episode.seq)
            return prior
        vector = self._passage_vectors([new])[0]  # before the append: a failure writes nothing
        result = self.ports.store.append(new)
        check_same_request(result.episode, request_hash)  # a racing first use of the key
        # Index it, and whatever an earlier write (or this one, retried) left unindexed.
        ready = {result.episode.seq: (result.episode, vector)} if result.created else {}
        self.catch_up_index(pair, upto=result.episode.seq, ready=ready)
        return result

    def retried(
        self, pair: Pair, idempotency_key: str | None, request_hash: str | None
    ) -> AppendResult | None:
        """The episode a key already wrote (a retry: nothing is written), or None for a first
        use; a different request under the key raises :class:`IdempotencyConflictError`."""
        if idempotency_key is None:
            return None
        stored = self.ports.store.by_idempotency_key(pair, idempotency_key)
        if stored is None:
            return None
        check_same_request(stored, request_hash)
        return AppendResult(stored, created=False)

    def record_many(
        self,
        episodes: Sequence[NewEpisode],
        *,
        batch_size: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[AppendResult]:
        """Append validated episodes in order, embedding and indexing them in batches."""
        results: list[AppendResult] = []
        for start in range(0, len(episodes), batch_size):
            batch = [self._stamped(new) for new in episodes[start : start + batch_size]]
            vectors = self._passage_vectors(batch)
            appended = [self.ports.store.append(new) for new in batch]
            ready: dict[Pair, dict[int, tuple[Episode, list[float] | None]]] = {}
            for r, v in zip(appended, vectors, strict=True):
                if r.created:
                    ready.setdefault(r.episode.pair, {})[r.episode.seq] = (r.episode, v)
            # Index the batch (and anything an earlier write left behind), then move the marker.
            for pair in dict.fromkeys(r.episode.pair for r in appended):
                fresh = ready.get(pair, {})
                upto = max(
                    fresh, default=max(r.episode.seq for r in appended if r.episode.pair == pair)
                )
                self.catch_up_index(
                    pair, upto=upto, ready=fresh, limit=max(C.CATCH_UP_MAX, len(fresh))
                )
            results += appended
            if on_progress is not None:
                on_progress(len(results), len(episodes))
        return results

    def _passage_vectors(
        self, episodes: Sequence[NewEpisode | Episode]
    ) -> list[list[float] | None]:
        if self.ports.embedder is None or self.ports.index is None or not episodes:
            return [None] * len(episodes)
        # Repetition is common (one question asked nine times): embed each distinct text once.
        unique = list(dict.fromkeys(e.text for e in episodes))
        rows = dict(zip(unique, self.ports.embedder.embed_passages(unique), strict=True))
        return [rows[e.text].tolist() for e in episodes]

    def _index(self, pairs: Sequence[tuple[Episode, list[float] | None]]) -> None:
        if self.ports.index is None or not pairs:
            return
        self.ports.index.add([indexed(ep, vector) for ep, vector in pairs])

    # --- derived state follows the log ---------------------------------------------------------

    @property
    def keeps_markers(self) -> bool:
        """Whether the store keeps the derived-state markers (both adapters do)."""
        return _documents(self.ports.store) is not None

    def applied(self, pair: Pair, name: str) -> tuple[int, int, dict[str, Any]]:
        """How far a derived state has applied the pair's log: (through seq, the marker's
        version, its body). A store that keeps no documents reports nothing applied."""
        documents = _documents(self.ports.store)
        doc = documents.document(pair, name) if documents is not None else None
        if doc is None:
            return 0, 0, {}
        return int(doc.body.get("through", 0)), doc.version, dict(doc.body)

    def mark_applied(self, pair: Pair, name: str, body: dict[str, Any], version: int) -> None:
        """Move a marker forward (never back): a concurrent writer that moved it first wins when
        it got as far."""
        documents = _documents(self.ports.store)
        if documents is None:
            return
        for _attempt in range(C.PROGRESS_SAVE_ATTEMPTS):
            try:
                documents.put_document(pair, name, body, expected_version=version)
                return
            except ConflictError:
                through, version, _ = self.applied(pair, name)
                if through >= int(body["through"]):
                    return

    def touch_applied(self, pair: Pair, name: str) -> None:
        """Move a marker's version, not its place: a write that changes the derived state the
        marker covers without appending (a re-derivation) tells every snapshot stamped with
        the version (the working set) that it is stale. No marker yet: nothing is stamped."""
        documents = _documents(self.ports.store)
        if documents is None:
            return
        _, version, body = self.applied(pair, name)
        if version == 0:
            return
        # A conflict means another write moved the version meanwhile: that does it too.
        with suppress(ConflictError):
            documents.put_document(pair, name, body, expected_version=version)

    def catch_up_index(
        self,
        pair: Pair,
        *,
        upto: int | None = None,
        ready: Mapping[int, tuple[Episode, list[float] | None]] | None = None,
        limit: int = C.CATCH_UP_MAX,
    ) -> int:
        """Index ``ready`` (episodes the caller just wrote, with their vectors) and the episodes
        the index has not applied yet, up to ``upto`` (default: the head) and at most ``limit``
        of them, then move the pair's marker as far as the indexed run reaches. An episode the
        index already holds (a pair written before markers were kept) is not embedded again.
        Returns how many were indexed."""
        if self.ports.index is None:
            return 0
        ready = dict(ready or {})
        if ready:  # fresh writes are indexed whatever lies behind them
            self._index(list(ready.values()))
        through, version, _ = self.applied(pair, APPLIED_INDEX)
        if upto is None:
            head = self.ports.store.head(pair)
            upto = head.seq if head is not None else 0
        upto = max(upto, *ready) if ready else upto
        gap = [seq for seq in range(through + 1, upto + 1) if seq not in ready][:limit]
        missing: list[Episode] = []
        if gap:
            read = self.ports.store.episodes(pair, after_seq=through, limit=gap[-1] - through)
            missing = [ep for ep in read if ep.seq not in ready]
            held = _held(self.ports.index, pair, [ep.episode_id for ep in missing])
            todo = [ep for ep in missing if ep.episode_id not in held]
            self._index(list(zip(todo, self._passage_vectors(todo), strict=True)))
        done = set(ready) | {ep.seq for ep in missing}
        reached = through
        while reached + 1 in done:
            reached += 1
        if reached > through:
            self.mark_applied(pair, APPLIED_INDEX, {"through": reached}, version)
        return len(ready) + len(missing)

    def reindex(self, pair: Pair, *, batch_size: int = 64) -> int:
        """Rebuild a pair's index documents from the log (after a lost index write, or a new
        embedding model). Returns how many episodes were indexed."""
        if self.ports.index is None:
            return 0
        _, version, _ = self.applied(pair, APPLIED_INDEX)
        self.ports.index.delete_pair(pair)
        batch: list[Episode] = []
        count = last = 0
        for ep in self.ports.store.iter_episodes(pair):
            batch.append(ep)
            last = ep.seq
            if len(batch) == batch_size:
                count += self._reindex_batch(batch)
                batch = []
        count += self._reindex_batch(batch)
        documents = _documents(self.ports.store)
        if documents is not None and last:
            # Rebuilt through `last`: the marker says so (a concurrent writer's newer mark wins).
            with suppress(ConflictError):
                documents.put_document(
                    pair, APPLIED_INDEX, {"through": last}, expected_version=version
                )
        return count

    def _reindex_batch(self, batch: list[Episode]) -> int:
        self._index(list(zip(batch, self._passage_vectors(batch), strict=True)))
        return len(batch)

    # --- recall -----------------------------------------------------------------------------

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
    ) -> RecallResult:
        """What the pair's history recalls for a question (see ``usecases.recall``)."""
        return self._recall.recall(
            pair,
            question,
            at=at,
            limit=limit,
            exclude_narrations=exclude_narrations,
            also_ids=also_ids,
            record=record,
            before_search=before_search,
        )

    def _stamped(self, new: NewEpisode) -> NewEpisode:
        evidence = new.evidence
        if isinstance(evidence, AnswerEvidence) and evidence.fingerprint is None:
            return replace(new, evidence=self._stamp_citation(new.pair, evidence))
        return new

    def _stamp_citation(self, pair: Pair, evidence: AnswerEvidence) -> AnswerEvidence:
        """An answer's citation carries the fingerprint the cited file has at this moment."""
        if evidence.file_id is None or evidence.fingerprint is not None:
            return evidence
        record = self.ports.store.file(pair, evidence.file_id)
        if record is None or record.removed:
            raise ValidationError(
                "evidence.file_id", f"no file {evidence.file_id!r} is registered for {pair}"
            )
        return AnswerEvidence(evidence.file_id, evidence.page, record.current.fingerprint)

    def episode(self, pair: Pair, episode_id: str) -> Episode:
        """One episode of the pair, or NotFoundError."""
        found = self.ports.store.get(pair, episode_id)
        if found is None:
            raise NotFoundError(f"no episode {episode_id!r} for {pair}")
        return found

    def history(self, pair: Pair, *, after_seq: int = 0, limit: int | None = None) -> list[Episode]:
        return self.ports.store.episodes(pair, after_seq=after_seq, limit=limit)

    # --- the chain --------------------------------------------------------------------------

    def verify_chain(
        self, pair: Pair, checkpoint: chain.Checkpoint | None = None
    ) -> chain.ChainReport:
        """Recompute the pair's chain; report "intact" or the first break and what broke."""
        head = self.ports.store.head(pair)
        records, erasure_head = self.ports.store.erasures(pair)
        try:
            return chain.verify(
                pair,
                self.ports.store.iter_episodes(pair),
                head,
                checkpoint,
                erasures=records,
                erasure_head=erasure_head,
            )
        except CorruptRowError as exc:
            return chain.ChainReport(
                pair, False, exc.seq - 1, "", exc.seq, "content changed", str(exc)
            )

    def checkpoint(self, pair: Pair) -> chain.Checkpoint:
        """The current head as a checkpoint to keep elsewhere (an empty chain gives seq 0)."""
        head = self.ports.store.head(pair)
        if head is None:
            return chain.Checkpoint(pair, 0, chain.GENESIS_HASH, self.ports.clock.now())
        ids = tuple(e.episode_id for e in self.ports.store.iter_episodes(pair) if e.seq <= head.seq)
        return chain.Checkpoint(pair, head.seq, head.hash, self.ports.clock.now(), ids)

    # --- beside the episodes ----------------------------------------------------------------

    def annotate(
        self,
        pair: Pair,
        episode_id: str,
        kind: AnnotationKind | str,
        value: str,
        *,
        detail: str = "",
        at: datetime | None = None,
    ) -> Annotation:
        self.episode(pair, episode_id)  # must exist in this pair
        annotation = Annotation(
            pair=pair,
            episode_id=episode_id,
            kind=kind,  # type: ignore[arg-type]  # validated in Annotation
            value=value,
            at=at or self.ports.clock.now(),
            detail=detail,
        )
        self.ports.store.annotate(annotation)
        return annotation

    # --- files ------------------------------------------------------------------------------

    def register_file(
        self, pair: Pair, file_id: str, name: str, data: bytes, *, at: datetime | None = None
    ) -> tuple[FileRecord, Episode | None]:
        """Register a file's bytes as a version; a new version also appends a ``file`` episode.

        The same bytes registered again add nothing and append nothing.
        """
        check_file_id("file_id", file_id)
        name = clean_text("name", name, limit=240)
        if not data:
            raise ValidationError("data", "the file is empty")
        when = at or self.ports.clock.now()
        digest = fingerprint(data)
        record, added = self.ports.store.register_file(pair, file_id, name, digest, when)
        if not added:
            return record, None
        result = self.record_file_arrival(
            pair, file_id, name, digest, version=record.current.version, at=when
        )
        return record, result.episode

    def record_file_arrival(
        self,
        pair: Pair,
        file_id: str,
        name: str,
        digest: str,
        *,
        version: int,
        at: datetime,
        concepts: Sequence[str] = (),
    ) -> AppendResult:
        """The ``file`` episode of one version of a file (once: the version is its key), with
        the concepts read from it when it was read into the map."""
        line = file_arrived(name, version)
        listed = ", ".join(concepts[: C.FILE_CONCEPTS_LISTED])
        listed += "…" if len(concepts) > C.FILE_CONCEPTS_LISTED else ""
        return self.record(
            pair,
            Kind.FILE,
            f"{line} — {len(concepts)} concepts: {listed}" if concepts else line,
            summary=summarise(line),
            evidence=FileEvidence(file_id, name, digest),
            concepts=concepts[: C.MAX_CONCEPTS_PER_EPISODE],
            at=at,
            idempotency_key=f"file:{file_id}:v{version}",
        )

    def remove_file(self, pair: Pair, file_id: str, *, at: datetime | None = None) -> FileRecord:
        return self.ports.store.remove_file(pair, file_id, at or self.ports.clock.now())
