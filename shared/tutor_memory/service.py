"""The use cases. Handlers and the CLI call these; these call the domain and the ports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tutor_memory.adapters.records import CorruptRowError
from tutor_memory.domain import chain
from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.episodes import (
    AnswerEvidence,
    Episode,
    Evidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    check_id,
    clean_text,
    evidence_from_dict,
    parse_kind,
)
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.domain.files import FileRecord, fingerprint
from tutor_memory.ports import AppendResult, Clock, EpisodeStore, SystemClock


@dataclass
class TutorMemory:
    store: EpisodeStore
    clock: Clock = field(default_factory=SystemClock)

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
    ) -> AppendResult:
        """Append one episode. Everything is validated before the store is touched."""
        kind = parse_kind(kind)
        if evidence is None or isinstance(evidence, Mapping):
            evidence = evidence_from_dict(kind, evidence)
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
        )
        return self.store.append(new)

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
        try:
            return chain.verify(pair, self.store.iter_episodes(pair), head, checkpoint)
        except CorruptRowError as exc:
            return chain.ChainReport(
                pair, False, exc.seq - 1, "", exc.seq, "content changed", str(exc)
            )

    def checkpoint(self, pair: Pair) -> chain.Checkpoint:
        """The current head as a checkpoint to keep elsewhere (an empty chain gives seq 0)."""
        head = self.store.head(pair)
        if head is None:
            return chain.Checkpoint(pair, 0, chain.GENESIS_HASH, self.clock.now())
        return chain.Checkpoint(pair, head.seq, head.hash, self.clock.now())

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
        check_id("file_id", file_id)
        name = clean_text("name", name, limit=240)
        if not data:
            raise ValidationError("data", "the file is empty")
        when = at or self.clock.now()
        digest = fingerprint(data)
        record, added = self.store.register_file(pair, file_id, name, digest, when)
        if not added:
            return record, None
        version = record.current.version
        text = f"File arrived: {name}" + (f" (version {version})" if version > 1 else "")
        result = self.record(
            pair,
            Kind.FILE,
            text,
            evidence=FileEvidence(file_id, name, digest),
            at=when,
            idempotency_key=f"file:{file_id}:v{version}",
        )
        return record, result.episode

    def remove_file(self, pair: Pair, file_id: str, *, at: datetime | None = None) -> FileRecord:
        return self.store.remove_file(pair, file_id, at or self.clock.now())
