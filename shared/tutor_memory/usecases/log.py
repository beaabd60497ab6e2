"""``TutorMemory``: the episode log's use cases (record, files, the chain, the index and the
markers kept in step with the log; recall through ``usecases.recall``), which the other use
cases (turns, learning, maps, nightly, erasure) call to write."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from tutor_memory.domain import chain
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.chain import ChainHead
from tutor_memory.domain.classmaps import folded_files
from tutor_memory.domain.context import context_of, context_words, may_respond
from tutor_memory.domain.corrections import newest_by_target
from tutor_memory.domain.episodes import (
    INTERNAL_KEY_PREFIXES,
    SYSTEM_KINDS,
    AnswerEvidence,
    Episode,
    Evidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    about_the_student,
    check_file_id,
    check_same_request,
    clean_text,
    embedded,
    erased_key_digest,
    evidence_from_dict,
    file_arrived,
    parse_kind,
    request_digest,
    summarise,
)
from tutor_memory.domain.errors import (
    ConflictError,
    CorruptRowError,
    ErasedError,
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
    CheckpointAnchor,
    IndexedEpisode,
    Ports,
)
from tutor_memory.usecases.recall import Recall


def indexed(
    ep: Episode, vector: Sequence[float] | None, context: Episode | None = None
) -> IndexedEpisode:
    """An episode as the index keeps it: analysed terms of its summary, text and concepts, and
    of the text of the turn it responds to (its ``context``, see ``domain.context``; each text
    analysed in its own language). ``vector`` embeds the episode's own text (``domain.context``
    says why not its context's)."""
    terms = analyse(index_words(ep))
    if context is not None:
        terms += analyse(context_words(context))
    return IndexedEpisode(
        pair=ep.pair,
        episode_id=ep.episode_id,
        seq=ep.seq,
        kind=ep.kind.value,
        at=ep.at,
        terms=" ".join(terms),
        vector=vector,
    )


# What the index is handed per episode: the episode, its vector, and its context (or None).
_Doc = tuple[Episode, list[float] | None, Episode | None]

# Per-pair progress markers (store documents): the last sequence each derived state applied.
APPLIED_INDEX = "applied:index"
APPLIED_BELIEFS = "applied:beliefs"


def arguments_digest(
    kind: Kind,
    text: str,
    evidence: Evidence,
    *,
    at: datetime | None,
    summary: str,
    concepts: Sequence[str],
    salience: float | None,
    recalled_ids: Sequence[str],
    ref: str | None,
) -> str:
    """What an idempotency key is bound to when the caller binds nothing itself: the request
    as given (not what the use case derives from it, such as the concept a check is tied to,
    which may change between an attempt and its retry)."""
    return request_digest(
        {"kind": kind.value, "text": text, "evidence": evidence.to_dict(),
         "at": None if at is None else at.isoformat(), "summary": summary,
         "concepts": list(concepts), "salience": salience,
         "recalled_ids": list(recalled_ids), "ref": ref}
    )  # fmt: skip


def refuse_system_kind(kind: Kind) -> None:
    """An erasure's entry is written by the erasure use case alone, never recorded."""
    if kind in SYSTEM_KINDS:
        raise ValidationError("kind", "an erasure's entry is written by an erasure, never recorded")


@dataclass(frozen=True)
class Anchoring:
    """What anchoring a checkpoint of a pair's chain did: ``anchored`` (newly kept), or not,
    with why (``refused``: the chain does not verify; else it was anchored already, or there
    is no chain). ``report`` is the chain's verification it was anchored after."""

    pair: Pair
    checkpoint: chain.AnchoredCheckpoint | None
    anchored: bool
    report: chain.ChainReport | None = None
    refused: str = ""

    def __str__(self) -> str:
        if self.refused:
            return f"{self.pair}: not anchored — {self.refused}"
        if self.checkpoint is None:
            return f"{self.pair}: nothing to anchor"
        cp = self.checkpoint.checkpoint
        done = "anchored" if self.anchored else "already anchored"
        return f"{self.pair}: {done} at episode {cp.seq}, head {cp.head_hash[:16]}…" + (
            f" ({self.checkpoint.where})" if self.checkpoint.where else ""
        )


class TutorMemory:
    """The episode log's use cases over the ports: record, files, the chain, and the derived
    state (the index, the markers) kept in step with the log; recall. ``anchor`` keeps the
    chains' signed checkpoints (None: none are kept, and ``verify_chain`` checks a chain
    against the checkpoint it is given, if any)."""

    def __init__(
        self,
        ports: Ports,
        *,
        index_context: bool = True,
        anchor: CheckpointAnchor | None = None,
        student_names: Callable[[str], Sequence[str]] | None = None,
    ) -> None:
        self.ports = ports
        # Whether a conversational episode is indexed with the turn it responds to (its terms
        # and its vector; see ``domain.context``): the setting ``TUTOR_MEMORY_INDEX_CONTEXT``.
        self.index_context = index_context
        self.anchor = anchor
        # The name a student's profile gives them (None: no profiles kept); recall reads it.
        self.student_names = student_names
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
        refuse_system_kind(kind)
        if evidence is None or isinstance(evidence, Mapping):
            evidence = evidence_from_dict(kind, evidence)
        if (
            idempotency_key is not None
            and request_hash is None
            and not idempotency_key.startswith(INTERNAL_KEY_PREFIXES)  # the system's own retries
        ):
            request_hash = arguments_digest(
                kind, text, evidence, at=at, summary=summary, concepts=concepts,
                salience=salience, recalled_ids=recalled_ids, ref=ref,
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
        # Embedded before the append, so that a failed embedding writes nothing.
        known = self._foreseen([new])
        vectors = self._vectors_of([new])
        result = self.ports.store.append(new)
        check_same_request(result.episode, request_hash)  # a racing first use of the key
        # Index it (with its context as the log has it: another writer may have appended
        # between the head read and ours), and whatever an earlier write left unindexed.
        ready = self._settled([result], vectors, known).get(pair, {})
        self._catch_up(pair, upto=result.episode.seq, ready=ready)
        return result

    def retried(
        self, pair: Pair, idempotency_key: str | None, request_hash: str | None
    ) -> AppendResult | None:
        """The episode a key already wrote (a retry: nothing is written), or None for a first
        use; a different request under the key raises :class:`IdempotencyConflictError`, and
        any request under a client's key whose episode was erased since, :class:`ErasedError`
        (the erased text is never written again). The system's own keys (a night's summary, a
        file's arrival) are written again after an erasure, without what was erased."""
        if idempotency_key is None:
            return None
        stored = self.ports.store.by_idempotency_key(pair, idempotency_key)
        if stored is None:
            if not idempotency_key.startswith(INTERNAL_KEY_PREFIXES):
                erased_at = self.ports.store.erased_key(
                    pair, erased_key_digest(pair, idempotency_key)
                )
                if erased_at is not None:
                    raise ErasedError(erased_at)
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
        for new in episodes:
            refuse_system_kind(new.kind)
        results: list[AppendResult] = []
        for start in range(0, len(episodes), batch_size):
            batch = [self._stamped(new) for new in episodes[start : start + batch_size]]
            known = self._foreseen(batch)
            vectors = self._vectors_of(batch)
            appended = [self.ports.store.append(new) for new in batch]
            ready = self._settled(appended, vectors, known)
            # Index the batch (and anything an earlier write left behind), then move the marker.
            for pair in dict.fromkeys(r.episode.pair for r in appended):
                fresh = ready.get(pair, {})
                upto = max(
                    fresh, default=max(r.episode.seq for r in appended if r.episode.pair == pair)
                )
                self._catch_up(pair, upto=upto, ready=fresh, limit=max(C.CATCH_UP_MAX, len(fresh)))
            results += appended
            if on_progress is not None:
                on_progress(len(results), len(episodes))
        return results

    def _vectors_of(self, episodes: Sequence[Episode | NewEpisode]) -> list[list[float] | None]:
        """Each episode's passage vector, or None for one indexed by its words alone."""
        vectors = iter(self._passage_vectors([e.text for e in episodes if embedded(e)]))
        return [next(vectors) if embedded(e) else None for e in episodes]

    def _passage_vectors(self, passages: Sequence[str]) -> list[list[float] | None]:
        """The passage embeddings of these texts (episodes' own texts)."""
        if self.ports.embedder is None or self.ports.index is None or not passages:
            return [None] * len(passages)
        # Repetition is common (one question asked nine times): embed each distinct text once.
        unique = list(dict.fromkeys(passages))
        rows = dict(zip(unique, self.ports.embedder.embed_passages(unique), strict=True))
        return [rows[text].tolist() for text in passages]

    def _index(self, docs: Sequence[_Doc]) -> None:
        docs = [doc for doc in docs if about_the_student(doc[0])]  # an entry is never recalled
        if self.ports.index is None or not docs:
            return
        self.ports.index.add([indexed(ep, vector, context) for ep, vector, context in docs])

    # --- the turn each episode responds to (domain.context) ------------------------------------

    @property
    def _contextual(self) -> bool:
        return self.index_context and self.ports.index is not None

    def _foreseen(self, batch: Sequence[NewEpisode]) -> dict[tuple[Pair, int], Episode]:
        """The episode each pair's first conversational episode of a batch may respond to (its
        pair's head, read once per pair before the appends), by (pair, seq): its context's words
        are then indexed without another read."""
        known: dict[tuple[Pair, int], Episode] = {}
        seen: set[Pair] = set()
        for new in batch:
            if new.pair not in seen and self._contextual and may_respond(new):
                head = self.ports.store.head(new.pair)
                if head is not None:
                    previous = self.ports.store.get(new.pair, chain.episode_id(head.seq, head.hash))
                    if previous is not None:
                        known[(new.pair, previous.seq)] = previous
            seen.add(new.pair)
        return known

    def _settled(
        self,
        appended: Sequence[AppendResult],
        vectors: Sequence[list[float] | None],
        known: Mapping[tuple[Pair, int], Episode],
    ) -> dict[Pair, dict[int, _Doc]]:
        """The written episodes' index documents, by pair and seq, each with the context the
        log gives it (``seq - 1``; another writer may have appended in between)."""
        by_seq = dict(known)
        by_seq.update(((r.episode.pair, r.episode.seq), r.episode) for r in appended)
        docs: dict[Pair, dict[int, _Doc]] = {}
        for r, vector in zip(appended, vectors, strict=True):
            if r.created:
                ep = r.episode
                docs.setdefault(ep.pair, {})[ep.seq] = (ep, vector, self._context(ep, by_seq))
        return docs

    def _context(self, ep: Episode, by_seq: dict[tuple[Pair, int], Episode]) -> Episode | None:
        """The episode ``ep`` responds to, or None: the one before it from ``by_seq``, else
        read from the store (and kept in ``by_seq``)."""
        if not self._contextual or not may_respond(ep) or ep.seq <= 1:
            return None
        previous = by_seq.get((ep.pair, ep.seq - 1))
        if previous is None:
            read = self.ports.store.episodes(ep.pair, after_seq=ep.seq - 2, limit=1)
            if not read or read[0].seq != ep.seq - 1:
                return None
            previous = by_seq[(ep.pair, ep.seq - 1)] = read[0]
        # An erased episode is no context: nothing of its body may reach the next document.
        if previous.erased:
            return None
        return previous if context_of(ep, previous) is not None else None

    def _documents(
        self, episodes: Sequence[Episode], by_seq: dict[tuple[Pair, int], Episode]
    ) -> list[_Doc]:
        """Index documents of sealed episodes: each with its context and the passage's vector."""
        by_seq.update(((ep.pair, ep.seq), ep) for ep in episodes)
        contexts = [self._context(ep, by_seq) for ep in episodes]
        vectors = self._vectors_of(episodes)
        return list(zip(episodes, vectors, contexts, strict=True))

    # --- derived state follows the log ---------------------------------------------------------

    @property
    def keeps_markers(self) -> bool:
        """Whether the store keeps the derived-state markers: always, since every store keeps
        per-pair documents (``NightlyStore.document``, part of the ``Store`` port)."""
        return True

    def applied(self, pair: Pair, name: str) -> tuple[int, int, dict[str, Any]]:
        """How far a derived state has applied the pair's log: (through seq, the marker's
        version, its body). Nothing applied yet: (0, 0, {})."""
        doc = self.ports.store.document(pair, name)
        if doc is None:
            return 0, 0, {}
        return int(doc.body.get("through", 0)), doc.version, dict(doc.body)

    def mark_applied(self, pair: Pair, name: str, body: dict[str, Any], version: int) -> None:
        """Move a marker forward (never back): a concurrent writer that moved it first wins when
        it got as far."""
        for _attempt in range(C.PROGRESS_SAVE_ATTEMPTS):
            try:
                self.ports.store.put_document(pair, name, body, expected_version=version)
                return
            except ConflictError:
                through, version, _ = self.applied(pair, name)
                if through >= int(body["through"]):
                    return

    def touch_applied(self, pair: Pair, name: str) -> None:
        """Move a marker's version, not its place: a write that changes the derived state the
        marker covers without appending (a re-derivation) tells every snapshot stamped with
        the version (the working set) that it is stale. No marker yet: nothing is stamped."""
        _, version, body = self.applied(pair, name)
        if version == 0:
            return
        # A conflict means another write moved the version meanwhile: that does it too.
        with suppress(ConflictError):
            self.ports.store.put_document(pair, name, body, expected_version=version)

    def catch_up_index(
        self,
        pair: Pair,
        *,
        upto: int | None = None,
        ready: Mapping[int, tuple[Episode, list[float] | None]] | None = None,
        limit: int = C.CATCH_UP_MAX,
    ) -> int:
        """Index ``ready`` (episodes the caller just wrote, with their vectors, or None) and the
        episodes the index has not applied yet, up
        to ``upto`` (default: the head) and at most ``limit`` of them, then move the pair's
        marker as far as the indexed run reaches. An episode the index already holds (a pair
        written before markers were kept) is not embedded again. Returns how many were
        indexed."""
        if self.ports.index is None:
            return 0
        by_seq = {(pair, seq): ep for seq, (ep, _) in (ready or {}).items()}
        docs = {
            seq: (ep, vector, self._context(ep, by_seq))
            for seq, (ep, vector) in (ready or {}).items()
        }
        return self._catch_up(pair, upto=upto, ready=docs, limit=limit)

    def _catch_up(
        self,
        pair: Pair,
        *,
        upto: int | None = None,
        ready: Mapping[int, _Doc],
        limit: int = C.CATCH_UP_MAX,
    ) -> int:
        """``catch_up_index`` with the fresh writes' documents made (contexts known)."""
        if self.ports.index is None:
            return 0
        ready = dict(ready)
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
            ids = [ep.episode_id for ep in missing]
            held = self.ports.index.known_ids(pair, ids) if ids else set()
            # An erased episode has no document (a blank one would be recalled as a blank line),
            # nor has an erasure's entry (never recalled).
            todo = [
                ep
                for ep in missing
                if ep.episode_id not in held and not ep.erased and about_the_student(ep)
            ]
            by_seq = {(pair, ep.seq): ep for ep in read}
            by_seq.update(((pair, seq), doc[0]) for seq, doc in ready.items())
            self._index(self._documents(todo, by_seq))
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
        previous: Episode | None = None  # the last batch's last: the next one's context
        count = last = 0
        for ep in self.ports.store.iter_episodes(pair):
            last = ep.seq
            if ep.erased or not about_the_student(ep):  # no document: erased, or an entry
                continue
            batch.append(ep)
            if len(batch) == batch_size:
                count += self._reindex_batch(batch, previous)
                previous, batch = batch[-1], []
        count += self._reindex_batch(batch, previous)
        if last:
            # Rebuilt through `last`: the marker says so (a concurrent writer's newer mark wins).
            with suppress(ConflictError):
                self.ports.store.put_document(
                    pair, APPLIED_INDEX, {"through": last}, expected_version=version
                )
        return count

    def _reindex_batch(self, batch: list[Episode], previous: Episode | None) -> int:
        by_seq = {} if previous is None else {(previous.pair, previous.seq): previous}
        self._index(self._documents(batch, by_seq))
        return len(batch)

    def reindex_following(self, pair: Pair, erased_seqs: Sequence[int]) -> int:
        """After an erasure of ``erased_seqs``: rebuild the index documents of the episodes
        just after them, which may hold an erased body as their context (``domain.context``),
        with none — whatever the setting, since the index may have been built under the other.
        Only a conversational episode, not erased itself, can have had one. Returns how many
        documents were rebuilt."""
        if self.ports.index is None:
            return 0
        erased = set(erased_seqs)
        todo: list[Episode] = []
        for seq in sorted({seq + 1 for seq in erased} - erased):
            read = self.ports.store.episodes(pair, after_seq=seq - 1, limit=1)
            if read and read[0].seq == seq and not read[0].erased and may_respond(read[0]):
                todo.append(read[0])
        vectors = self._vectors_of(todo)
        self._index([(ep, vector, None) for ep, vector in zip(todo, vectors, strict=True)])
        return len(todo)

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
        names: Sequence[str] | Callable[[], Sequence[str]] | None = None,
        corrections: Callable[[], Mapping[str, Episode]] | None = None,
        vector_left: Callable[[], float] | None = None,
    ) -> RecallResult:
        """What the pair's history recalls for a question (see ``usecases.recall``).
        ``names``: the student's own names, when the caller has read the profile already (the
        turn does); otherwise the profile is read here, beside recall's other reads.
        ``corrections``: each corrected episode's newest correction, likewise (the turn reads
        them with its chain head; otherwise read here, for a pair whose head counts one)."""
        if names is None:
            asks = question.asked if isinstance(question, Question) else bool(question)
            names = self._names_soon(pair) if asks else ()
        if corrections is None:
            corrections = self.ports.reads.soon(lambda: self.corrections_of(pair, at=at)).result
        return self._recall.recall(
            pair,
            question,
            at=at,
            limit=limit,
            exclude_narrations=exclude_narrations,
            also_ids=also_ids,
            record=record,
            before_search=before_search,
            names=names,
            corrections=corrections,
            vector_left=vector_left,
        )

    def corrections_of(
        self, pair: Pair, head: ChainHead | None = None, *, at: datetime | None = None
    ) -> dict[str, Episode]:
        """Each corrected episode's newest correction (``corrections.newest_by_target``) made
        by ``at`` (a question's time: a later correction is not yet known then); one read more
        only for a pair whose chain head (``head``, else read) counts a correction."""
        head = head if head is not None else self.ports.store.head(pair)
        if head is None or not head.counts.get(Kind.CORRECTION.value, 0):
            return {}
        fixes = self.ports.store.corrections(pair)
        return newest_by_target(f for f in fixes if at is None or f.at <= at)

    def _names_soon(self, pair: Pair) -> Callable[[], Sequence[str]]:
        """The student's names, read on the way (``ports.reads.soon``) and awaited when
        recall asks for them."""
        if self.student_names is None:
            return tuple
        names_soon = self.ports.reads.soon(self.student_names, pair.student_id)
        return names_soon.result

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
        if record is None or record.removed:  # a course file folded into the map, else none
            course = folded_files(self.ports.store.load_map(pair)).get(evidence.file_id)
            if not course:
                raise ValidationError(
                    "evidence.file_id", f"no file {evidence.file_id!r} is registered for {pair}"
                )
            return AnswerEvidence(evidence.file_id, evidence.page, course[0].fingerprint)
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
        self, pair: Pair, checkpoint: chain.Checkpoint | None = None, *, anchored: bool = True
    ) -> chain.ChainReport:
        """Recompute the pair's chain; report "intact" or the first break and what broke.

        Checked against ``checkpoint`` when one is given, else (``anchored``, the default) the
        pair's newest anchored checkpoint when the memory has an anchor: a rewrite before it, or
        a tail cut with the head, is a break; so is an anchored checkpoint whose MAC does not
        verify (the chain is then checked without it, and a break of its own comes first).

        A chain no checkpoint was ever anchored of may hold erasures made before entries were
        kept: they are reported as such (``erasure before entries``: run ``tutor-memory
        migrate``), not as forged records (``chain.verify``)."""
        newest, forged = None, False
        anchor = self.anchor
        kept = anchor.newest(pair) if anchor is not None else None
        if checkpoint is None and anchored and anchor is not None and kept is not None:
            newest = kept
            forged = not anchor.authentic(kept)
            checkpoint = None if forged else kept.checkpoint
        report = self._verify(pair, checkpoint, before_entries=kept is None)
        if newest is not None and forged and report.intact:
            cp = newest.checkpoint
            where = f" ({newest.where})" if newest.where else ""
            return replace(
                report,
                intact=False,
                break_seq=cp.seq,
                break_kind="checkpoint not authentic",
                detail=(
                    f"the newest anchored checkpoint{where}, of episode {cp.seq} on "
                    f"{chain.format_time(cp.at)[:10]}, does not carry a valid signature of "
                    "this anchor's key: it was forged or edited where it is kept"
                ),
            )
        return report

    def _verify(
        self, pair: Pair, checkpoint: chain.Checkpoint | None, *, before_entries: bool
    ) -> chain.ChainReport:
        head = self.ports.store.head(pair)
        records, erasure_head = self.ports.store.erasures(pair)
        mark = self.ports.store.document(pair, chain.ERASURE_PENDING_DOCUMENT)
        try:
            return chain.verify(
                pair,
                self.ports.store.iter_episodes(pair),
                head,
                checkpoint,
                erasures=records,
                erasure_head=erasure_head,
                before_entries=before_entries,
                # a worker erasing the pair now: what it has not reached is pending, not a break
                erasing=mark is not None and chain.worker_on_it(mark.body, self.ports.clock.now()),
            )
        except CorruptRowError as exc:
            return chain.ChainReport(
                pair, False, exc.seq - 1, "", exc.seq, "content changed", str(exc)
            )

    def anchor_checkpoint(self, pair: Pair) -> Anchoring:
        """Anchor a signed checkpoint of the pair's chain as it stands (the nightly does, for
        every pair its night touched; so does an erasure as it finishes, and the CLI's
        ``checkpoint``). Only a chain that verifies, against the newest checkpoint anchored
        before, is anchored: an anchor never vouches for a broken chain, so a rewrite stays a
        break. Nothing is written when the newest checkpoint already names the head."""
        if self.anchor is None:
            return Anchoring(pair, None, False, refused="no checkpoint anchor is configured")
        if self.ports.store.head(pair) is None:
            return Anchoring(pair, None, False)
        report = self.verify_chain(pair)
        if not report.intact:
            return Anchoring(pair, None, False, report, refused=f"the chain is {report}")
        newest = self.anchor.newest(pair)
        if newest is not None and (newest.checkpoint.seq, newest.checkpoint.head_hash) == (
            report.episodes,
            report.head_hash,
        ):
            return Anchoring(pair, newest, False, report)
        point = chain.Checkpoint(pair, report.episodes, report.head_hash, self.ports.clock.now())
        return Anchoring(pair, self.anchor.anchor(point), True, report)

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

    def record_told_file(self, new: NewEpisode) -> AppendResult:
        """A file's arrival as a history tells it, without its bytes (an export that did not
        carry them, replayed): the version its evidence names registered by its fingerprint,
        then its ``file`` episode recorded as told."""
        evidence = new.evidence
        if new.kind is not Kind.FILE or not isinstance(evidence, FileEvidence):
            raise ValidationError("evidence", "a file arrival names its file_id, name, fingerprint")
        self.ports.store.register_file(
            new.pair, evidence.file_id, evidence.name, evidence.fingerprint, new.at
        )
        return self.record(
            new.pair,
            Kind.FILE,
            new.text,
            evidence=evidence,
            at=new.at,
            summary=new.summary,
            concepts=new.concepts,
            salience=new.salience,
            idempotency_key=new.idempotency_key,
        )

    def remove_file(self, pair: Pair, file_id: str, *, at: datetime | None = None) -> FileRecord:
        return self.ports.store.remove_file(pair, file_id, at or self.ports.clock.now())
