"""``TutorMemory``: the episode log's use cases (record, recall, files, the index kept in step
with the log), on which the others (turns, learning, mapping, nightly, reports) are built."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast
from zoneinfo import ZoneInfo

from tutor_memory.adapters.records import CorruptRowError
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
from tutor_memory.domain.errors import ConflictError, NotFoundError, ValidationError
from tutor_memory.domain.files import FileRecord, fingerprint
from tutor_memory.domain.language import analyse, detect_language, distinctive_terms
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
from tutor_memory.domain.timewords import find_window
from tutor_memory.ports import (
    AppendResult,
    Clock,
    ConceptVectorSource,
    Embedder,
    EpisodeIndex,
    EpisodeStore,
    IndexedEpisode,
    NightlyStore,
    SearchHit,
    SystemClock,
)


def indexed(ep: Episode, vector: Sequence[float] | None) -> IndexedEpisode:
    """An episode as the index keeps it: analysed terms of its summary, text and concepts."""
    summary = [] if ep.summary.rstrip("…") in ep.text else [ep.summary]
    words = " ".join([*summary, ep.text, *ep.concepts])
    return IndexedEpisode(
        pair=ep.pair,
        episode_id=ep.episode_id,
        seq=ep.seq,
        kind=ep.kind.value,
        at=ep.at,
        terms=" ".join(analyse(words)),
        vector=vector,
    )


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_T = TypeVar("_T")
_IO_LOCK = threading.Lock()

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


def _lap(since: float) -> tuple[float, float]:
    now = time.perf_counter()
    return round((now - since) * 1000, 3), now


@dataclass
class TutorMemory:
    """The use cases over one store. ``index`` and ``embedder`` are optional so that the log
    alone works without them (and a test can leave them out); recall needs an index."""

    store: EpisodeStore
    clock: Clock = field(default_factory=SystemClock)
    index: EpisodeIndex | None = None
    embedder: Embedder | None = None
    timezone: str = "UTC"
    _io: ThreadPoolExecutor | None = field(default=None, init=False, repr=False, compare=False)

    def close(self) -> None:
        """Release the adapters' connections (those that hold any)."""
        for part in (self.store, self.index):
            close = getattr(part, "close", None)
            if callable(close):
                close()
        if self._io is not None:
            self._io.shutdown(wait=False)
            self._io = None

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
            at=at or self.clock.now(),
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
        result = self.store.append(new)
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
        stored = self.store.by_idempotency_key(pair, idempotency_key)
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
            appended = [self.store.append(new) for new in batch]
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
        if self.embedder is None or self.index is None or not episodes:
            return [None] * len(episodes)
        # Repetition is common (one question asked nine times): embed each distinct text once.
        unique = list(dict.fromkeys(e.text for e in episodes))
        rows = dict(zip(unique, self.embedder.embed_passages(unique), strict=True))
        return [rows[e.text].tolist() for e in episodes]

    def _index(self, pairs: Sequence[tuple[Episode, list[float] | None]]) -> None:
        if self.index is None or not pairs:
            return
        self.index.add([indexed(ep, vector) for ep, vector in pairs])

    # --- derived state follows the log ---------------------------------------------------------

    @property
    def keeps_markers(self) -> bool:
        """Whether the store keeps the derived-state markers (both adapters do)."""
        return _documents(self.store) is not None

    def applied(self, pair: Pair, name: str) -> tuple[int, int, dict[str, Any]]:
        """How far a derived state has applied the pair's log: (through seq, the marker's
        version, its body). A store that keeps no documents reports nothing applied."""
        documents = _documents(self.store)
        doc = documents.document(pair, name) if documents is not None else None
        if doc is None:
            return 0, 0, {}
        return int(doc.body.get("through", 0)), doc.version, dict(doc.body)

    def mark_applied(self, pair: Pair, name: str, body: dict[str, Any], version: int) -> None:
        """Move a marker forward (never back): a concurrent writer that moved it first wins when
        it got as far."""
        documents = _documents(self.store)
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
        documents = _documents(self.store)
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
        if self.index is None:
            return 0
        ready = dict(ready or {})
        if ready:  # fresh writes are indexed whatever lies behind them
            self._index(list(ready.values()))
        through, version, _ = self.applied(pair, APPLIED_INDEX)
        if upto is None:
            head = self.store.head(pair)
            upto = head.seq if head is not None else 0
        upto = max(upto, *ready) if ready else upto
        gap = [seq for seq in range(through + 1, upto + 1) if seq not in ready][:limit]
        missing: list[Episode] = []
        if gap:
            read = self.store.episodes(pair, after_seq=through, limit=gap[-1] - through)
            missing = [ep for ep in read if ep.seq not in ready]
            held = _held(self.index, pair, [ep.episode_id for ep in missing])
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
        if self.index is None:
            return 0
        _, version, _ = self.applied(pair, APPLIED_INDEX)
        self.index.delete_pair(pair)
        batch: list[Episode] = []
        count = last = 0
        for ep in self.store.iter_episodes(pair):
            batch.append(ep)
            last = ep.seq
            if len(batch) == batch_size:
                count += self._reindex_batch(batch)
                batch = []
        count += self._reindex_batch(batch)
        documents = _documents(self.store)
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
        question: str | None,
        *,
        at: datetime | None = None,
        limit: int = C.RECALL_LIMIT,
        exclude_narrations: bool = False,
        also_ids: Sequence[str] | Callable[[], Sequence[str]] = (),
        record: bool = False,
        before_search: Callable[[], None] | None = None,
    ) -> RecallResult:
        """Widen (four pools over the whole history, or inside a named time), then cut.

        The question is embedded once; that one vector serves the semantic pool (and, with the
        map, concept routing). Episodes after ``at`` are not known yet and never recalled.
        ``also_ids`` adds episodes to the concept pool (a record question passes the checks
        behind its beliefs), and ``record`` keeps the conversation that matches nothing
        (ranked lower, not dropped). ``before_search`` runs once the question is understood
        and before the index is asked (the turn checks there, beside its first reads, that the
        index has caught up with the log).
        """
        now = at or self.clock.now()
        timings: dict[str, float] = {}
        tick = time.perf_counter()
        text = (question or "").strip()
        window = find_window(text, now, ZoneInfo(self.timezone)) if text else None
        terms = tuple(distinctive_terms(text)) if text else ()
        if window is not None:  # "July" names the time, not the topic
            lang = detect_language(text)
            named = (
                set(distinctive_terms(" ".join(window.phrase), lang)) if window.phrase else set()
            )
            terms = tuple(t for t in terms if t not in named)
        # Every pool runs inside the named time, and never past `now`.
        upto = now + timedelta(microseconds=1)
        scope = (
            TimeWindow(window.start, min(window.end, upto), window.label)
            if window
            else TimeWindow(EPOCH, upto)
        )
        # Reads that need nothing from the question go out together with its embedding: in the
        # cloud, one wait for all of them (ARCHITECTURE rule 10: at most three per turn).
        recent_soon = self.soon(self.store.recent, pair, C.RECALL_RECENT_POOL, scope)
        names_soon = self.soon(self.store.concept_names, pair) if text else None
        behind_soon = self.soon(self._beliefs_evidence, pair, also_ids, scope)
        # The map's concept vectors, for routing by meaning: read beside the embedding, so a
        # question that names no concept does not wait for them after it.
        vectors_soon = self.soon(self._concept_vectors, pair) if text else None
        vector = None
        if text and self.embedder is not None:
            vector = self.embedder.embed_queries([text])[0].tolist()
        timings["understand"], tick = _lap(tick)

        pool = Candidates()
        # An erased episode keeps its envelope in the log but is never recalled.
        recent = [e for e in recent_soon.result() if not e.erased]
        pool.add_recent(recent)
        sizes = {"recent": len(recent), "lexical": 0, "semantic": 0, "concept": 0}
        # By name and, with the same one question vector, by meaning against the map's. The
        # concept pool takes names first, meaning only when no name matched (``Routes``).
        routes = (
            route_question(
                text,
                names_soon.result(),
                vector=vector,
                concept_vectors=vectors_soon.result if vectors_soon else lambda: None,
                profile=self.embedder.profile.name if self.embedder is not None else "",
            )
            if names_soon
            else Routes()
        )
        keys = list(routes.keys)
        topical = bool(terms) or bool(keys)
        touching_soon = (
            self.soon(self.store.touching, pair, keys, scope, newest=C.RECALL_CONCEPT_POOL)
            if text
            else None
        )
        lexical: list[SearchHit] = []
        semantic: list[SearchHit] = []
        found: dict[str, Episode] = {}
        distinctive = None
        searched_vector = vector if window is None or topical else None
        if before_search is not None:
            before_search()
        if text and self.index is not None:  # while the concept pool is on its way
            lexical, semantic = self.index.search(
                pair,
                terms=terms,
                vector=searched_vector,
                lexical_limit=C.RECALL_LEXICAL_POOL,
                k=C.RECALL_SEMANTIC_K,
                window=scope,
            )
            found = {
                e.episode_id: e
                for e in self.store.get_many(pair, [h.episode_id for h in lexical + semantic])
            }
            if terms and lexical:
                distinctive = distinctive_terms_of(self.index.term_counts(pair, terms))
        behind = behind_soon.result()
        if behind is not None:
            # A record question also reaches the checks behind the current beliefs, from the
            # whole history (bounded: a belief keeps its newest evidence ids).
            pool.add_concept(behind)
            sizes["beliefs' evidence"] = len(behind)
        if text:
            assert touching_soon is not None
            touching = touching_soon.result()
            pool.add_concept(touching)
            sizes["concept"] = len(touching)
            if self.index is not None:
                if terms:
                    pool.add_lexical(
                        (
                            (found[h.episode_id], h.score, h.matched)
                            for h in lexical
                            if h.episode_id in found
                        ),
                        distinctive,
                    )
                if searched_vector is not None:
                    pool.add_semantic(
                        (found[h.episode_id], h.score) for h in semantic if h.episode_id in found
                    )
                sizes["lexical"], sizes["semantic"] = len(lexical), len(semantic)
        timings["pools"], tick = _lap(tick)

        # Inside a named time, a question with no topic ("what did we do in July?") wants the
        # whole period: nothing to gate on, recency orders it.
        items, mode = rank(
            pool.values(),
            now=now,
            has_question=bool(text) and (window is None or topical),
            limit=limit,
            exclude_narrations=exclude_narrations or record or window is not None,
            gate=not record,
        )
        timings["rank"], _ = _lap(tick)
        return RecallResult(
            items=items,
            mode=mode,
            window=window,
            window_empty=window is not None and not items,
            terms=terms,
            concept_keys=tuple(keys),
            pool_sizes=sizes,
            timings_ms=timings,
            meaning_keys=routes.meaning,
            concept_similarity=routes.similarity,
        )

    def _concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The map's routing vectors, when the store keeps a map (both adapters do)."""
        if isinstance(self.store, ConceptVectorSource):
            return self.store.concept_vectors(pair)
        return None

    def soon(self, call: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Start a read on the turn path's I/O threads (made on first use, never at import):
        independent reads overlap instead of waiting one after another."""
        if self._io is None:
            with _IO_LOCK:
                if self._io is None:
                    self._io = ThreadPoolExecutor(
                        max_workers=C.TURN_IO_THREADS, thread_name_prefix="turn-io"
                    )
        return self._io.submit(call, *args, **kwargs)

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
        return [e for e in self.store.get_many(pair, ids) if e.at in scope]

    def _stamped(self, new: NewEpisode) -> NewEpisode:
        evidence = new.evidence
        if isinstance(evidence, AnswerEvidence) and evidence.fingerprint is None:
            return replace(new, evidence=self._stamp_citation(new.pair, evidence))
        return new

    def _stamp_citation(self, pair: Pair, evidence: AnswerEvidence) -> AnswerEvidence:
        """An answer's citation carries the fingerprint the cited file has at this moment."""
        if evidence.file_id is None or evidence.fingerprint is not None:
            return evidence
        record = self.store.file(pair, evidence.file_id)
        if record is None or record.removed:
            raise ValidationError(
                "evidence.file_id", f"no file {evidence.file_id!r} is registered for {pair}"
            )
        return AnswerEvidence(evidence.file_id, evidence.page, record.current.fingerprint)

    def episode(self, pair: Pair, episode_id: str) -> Episode:
        """One episode of the pair, or NotFoundError."""
        found = self.store.get(pair, episode_id)
        if found is None:
            raise NotFoundError(f"no episode {episode_id!r} for {pair}")
        return found

    def history(self, pair: Pair, *, after_seq: int = 0, limit: int | None = None) -> list[Episode]:
        return self.store.episodes(pair, after_seq=after_seq, limit=limit)

    # --- the chain --------------------------------------------------------------------------

    def verify_chain(
        self, pair: Pair, checkpoint: chain.Checkpoint | None = None
    ) -> chain.ChainReport:
        """Recompute the pair's chain; report "intact" or the first break and what broke."""
        head = self.store.head(pair)
        erasures = getattr(self.store, "erasures", None)
        records, erasure_head = erasures(pair) if callable(erasures) else ([], None)
        try:
            return chain.verify(
                pair,
                self.store.iter_episodes(pair),
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
        head = self.store.head(pair)
        if head is None:
            return chain.Checkpoint(pair, 0, chain.GENESIS_HASH, self.clock.now())
        ids = tuple(e.episode_id for e in self.store.iter_episodes(pair) if e.seq <= head.seq)
        return chain.Checkpoint(pair, head.seq, head.hash, self.clock.now(), ids)

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
            at=at or self.clock.now(),
            detail=detail,
        )
        self.store.annotate(annotation)
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
        when = at or self.clock.now()
        digest = fingerprint(data)
        record, added = self.store.register_file(pair, file_id, name, digest, when)
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
        return self.store.remove_file(pair, file_id, at or self.clock.now())
