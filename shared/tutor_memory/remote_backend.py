"""The library's remote door: the REST API over HTTP(S), SigV4-signed (or a local ``serve``,
unsigned). Every call's method and path come from the operation table, so the client cannot
ask for a route the server does not have."""

from __future__ import annotations

import base64
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor_memory.adapters.file_readers import read_upload
from tutor_memory.api.models import (
    BeliefPage,
    BeliefResponse,
    ChainResponse,
    ClassFileResponse,
    ClassRequest,
    ClassResponse,
    CorrectionRequest,
    EpisodePage,
    EpisodeRequest,
    EpisodeResponse,
    ErasureResponse,
    ExportResponse,
    FileResponse,
    NightResponse,
    ProfileRequest,
    ProfileResponse,
    PromptRequest,
    PromptResponse,
    RecallResponse,
    RederiveRequest,
    RederiveResponse,
    ReportResponse,
    SourceResponse,
    StanceResponse,
    StatementResponse,
    TurnResponse,
)
from tutor_memory.api.operations import operation
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair, file_id_for
from tutor_memory.domain.errors import TutorMemoryError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tutor_memory.api.client import SignedClient
    from tutor_memory.usecases.maps import IngestResult

REQUESTED_BY = "library"  # kept in an erasure record: who asked


class NotServedError(TutorMemoryError):
    """The REST API has no route for this; use the local store (or the CLI) for it."""


class RemoteBackend:
    """The turn API over HTTPS, SigV4-signed (or a local ``serve``, unsigned); answers parsed
    into the same models."""

    def __init__(self, client: SignedClient) -> None:
        self.client = client

    def _call(
        self,
        name: str,
        pair: Pair | None = None,
        body: Any = None,
        *,
        query: Mapping[str, str | None] | None = None,
        headers: Mapping[str, str] | None = None,
        **params: str,
    ) -> Any:
        op = operation(name)
        if pair is not None:
            params = {"student_id": pair.student_id, "subject_id": pair.subject_id, **params}
        url = self.client.base_url + op.url(**params)
        return self.client.call_url(op.method, url, body, query=query, headers=headers)

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse:
        body = {"question": question, "at": at and at.isoformat(), "budget_tokens": budget_tokens}
        sent = {k: v for k, v in body.items() if v is not None}
        return TurnResponse.model_validate(self._call("turn", pair, sent))

    def prompt(self, pair: Pair, body: PromptRequest) -> PromptResponse:
        sent = body.model_dump(mode="json", exclude_none=True)
        return PromptResponse.model_validate(self._call("prompt", pair, sent))

    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        body = episode.model_dump(mode="json", exclude_defaults=True)
        body["kind"] = episode.kind  # a default only in the model's eyes: always sent
        answer = self._call("addEpisode", pair, body, headers=headers)
        return EpisodeResponse.model_validate(answer)

    def correct(
        self, pair: Pair, episode_id: str, body: CorrectionRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        answer = self._call(
            "correctEpisode", pair, body.model_dump(mode="json", exclude_none=True),
            headers=headers, episode_id=episode_id,
        )  # fmt: skip
        return EpisodeResponse.model_validate(answer)

    def episodes(self, pair: Pair, limit: int, cursor: str | None) -> EpisodePage:
        query = {"limit": str(limit), "next": cursor}
        return EpisodePage.model_validate(self._call("listEpisodes", pair, query=query))

    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult:
        raise NotServedError(
            "the REST API takes files through the uploads bucket, not a route: upload to "
            "uploads/<student>/<subject>/<file>, or ingest into a local store"
        )

    def ingest_class(
        self, class_id: str, subject_id: str, path: Path, file_id: str | None
    ) -> ClassFileResponse:
        data = read_upload(path)
        name = path.name
        sent = {"name": name, "content": base64.b64encode(data).decode("ascii")}
        answer = self._call(
            "putClassFile", None, sent,
            class_id=class_id, subject_id=subject_id, file_id=file_id or file_id_for(name),
        )  # fmt: skip
        return ClassFileResponse.model_validate(answer)

    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse:
        if not question:
            raise ValidationError("question", "is required: the recall route takes one (q)")
        query = {"q": question, "at": None if at is None else at.isoformat()}
        return RecallResponse.model_validate(self._call("whyRecalled", pair, query=query))

    def beliefs(self, pair: Pair) -> list[BeliefResponse]:
        return [BeliefResponse.model_validate(r) for r in self._call("beliefs", pair)]

    def belief_history(
        self, pair: Pair, concept: str, limit: int, cursor: str | None
    ) -> BeliefPage:
        # The name as the user typed it: the route finds its concept (case, accents, forms).
        query = {"limit": str(limit), "next": cursor}
        page = self._call("beliefHistory", pair, query=query, concept=concept.strip())
        return BeliefPage.model_validate(page)

    def rederive(self, pair: Pair, body: RederiveRequest) -> RederiveResponse:
        sent = body.model_dump(mode="json", exclude_none=True)
        return RederiveResponse.model_validate(self._call("rederiveBeliefs", pair, sent))

    def set_stance(self, pair: Pair, answer_id: str, stance: str) -> StanceResponse:
        answer = self._call("setStance", pair, {"stance": stance}, answer_id=answer_id)
        return StanceResponse.model_validate(answer)

    def sources(self, pair: Pair, answer_id: str) -> list[SourceResponse]:
        rows = self._call("sources", pair, answer_id=answer_id)
        return [SourceResponse.model_validate(r) for r in rows]

    def concept_map(self, pair: Pair) -> ConceptMap:
        return ConceptMap.from_dict(self._call("conceptMap", pair))

    def report(self, pair: Pair, history: str | None) -> ReportResponse:
        return ReportResponse.model_validate(self._call("report", pair, query={"history": history}))

    def verify(self, pair: Pair) -> ChainResponse:
        return ChainResponse.model_validate(self._call("verifyChain", pair))

    def nightly(self, pair: Pair | None, day: date | None) -> NightResponse:
        raise NotServedError(
            "the nightly loop is run by the deployment's scheduler, not a route: in AWS by "
            "EventBridge and the consolidate workers; beside `tutor-memory serve`, by "
            "`tutor-memory nightly --store DIR` (or Memory.local(DIR).nightly()) once a day"
        )

    def remove_file(self, pair: Pair, file_id: str) -> FileResponse:
        return FileResponse.model_validate(self._call("removeFile", pair, file_id=file_id))

    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse:
        query = {"reason": reason, "requested_by": REQUESTED_BY}
        if subject_id is None:
            answer = self._call("eraseStudent", query=query, student_id=student_id)
        elif episode_id is None:
            answer = self._call("erasePair", Pair(student_id, subject_id), query=query)
        else:
            pair = Pair(student_id, subject_id)
            answer = self._call("eraseEpisode", pair, query=query, episode_id=episode_id)
        return ErasureResponse.model_validate(answer)

    def export(
        self, student_id: str, subject_id: str | None, limit: int, cursor: str | None
    ) -> ExportResponse:
        query = {"limit": str(limit), "next": cursor}
        if subject_id is None:
            page = self._call("exportStudent", query=query, student_id=student_id)
        else:
            page = self._call("exportPair", Pair(student_id, subject_id), query=query)
        return ExportResponse.model_validate(page)

    def profile(self, student_id: str) -> ProfileResponse:
        return ProfileResponse.model_validate(self._call("getProfile", student_id=student_id))

    def set_profile(self, student_id: str, aspect: str, body: ProfileRequest) -> StatementResponse:
        sent = body.model_dump(mode="json", exclude_defaults=True)
        answer = self._call("setProfile", None, sent, student_id=student_id, aspect=aspect)
        return StatementResponse.model_validate(answer)

    def retract_profile(self, student_id: str, aspect: str, key: str) -> StatementResponse:
        query = {"key": key or None}
        answer = self._call("retractProfile", query=query, student_id=student_id, aspect=aspect)
        return StatementResponse.model_validate(answer)

    def set_class(self, class_id: str, body: ClassRequest) -> ClassResponse:
        sent = body.model_dump(mode="json")
        return ClassResponse.model_validate(self._call("setClass", None, sent, class_id=class_id))

    def get_class(self, class_id: str) -> ClassResponse:
        return ClassResponse.model_validate(self._call("getClass", class_id=class_id))

    def close(self) -> None:
        return None
