"""The library's local door: the use cases of an ``App`` in this process, through the same
calls as the REST routes (``api/calls.py``), so both answer alike."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from tutor_memory.adapters.file_readers import read_upload
from tutor_memory.api import calls
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
from tutor_memory.domain.access import Caller, Role
from tutor_memory.domain.episodes import Pair

if TYPE_CHECKING:
    from tutor_memory.bootstrap import App
    from tutor_memory.domain.conceptmap import ConceptMap
    from tutor_memory.usecases.maps import IngestResult

REQUESTED_BY = "library"  # kept in an erasure record: who asked


class LocalBackend:
    """The use cases of an ``App``, in this process; answers shaped as the API shapes them."""

    def __init__(self, app: App, caller: Caller | None = None) -> None:
        self.app = app
        # Who this door acts as: by default the store's own service (a program on the machine
        # that holds the store); a product that opens it for one student passes that student.
        self.caller = caller or Caller(app.access.tenant, Role.SERVICE, "library")

    def _may(self, name: str, student_id: str | None, subject_id: str | None = None) -> None:
        calls.authorise(self.app, self.caller, name, student_id, subject_id)

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse:
        # the read's record is written while the turn reads (calls.authorised)
        with calls.authorised(self.app, self.caller, "turn", pair.student_id, pair.subject_id):
            result = calls.turn_result(self.app, pair, question, at, budget_tokens)
        return TurnResponse(**TurnResponse.fields(result))

    def prompt(self, pair: Pair, body: PromptRequest) -> PromptResponse:
        with calls.authorised(self.app, self.caller, "prompt", pair.student_id, pair.subject_id):
            return calls.prompt_response(calls.prompt_placed(self.app, pair, body))

    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        self._may("addEpisode", pair.student_id, pair.subject_id)
        return calls.add_episode(self.app, pair, episode, idempotency_key)

    def correct(
        self, pair: Pair, episode_id: str, body: CorrectionRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        self._may("correctEpisode", pair.student_id, pair.subject_id)
        return calls.correct_episode(self.app, self.caller, pair, episode_id, body, idempotency_key)

    def episodes(self, pair: Pair, limit: int, cursor: str | None) -> EpisodePage:
        self._may("listEpisodes", pair.student_id, pair.subject_id)
        return calls.episodes(self.app, pair, limit, cursor)

    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult:
        self._may("removeFile", pair.student_id, pair.subject_id)  # files: as their removal
        from tutor_memory.domain.episodes import file_id_for

        data = read_upload(path)
        return self.app.maps.ingest(pair, file_id or file_id_for(path.name), path.name, data)

    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse:
        self._may("whyRecalled", pair.student_id, pair.subject_id)
        return calls.recall(self.app, pair, question or "", at)

    def beliefs(self, pair: Pair) -> list[BeliefResponse]:
        self._may("beliefs", pair.student_id, pair.subject_id)
        return calls.beliefs(self.app, pair)

    def belief_history(
        self, pair: Pair, concept: str, limit: int, cursor: str | None
    ) -> BeliefPage:
        self._may("beliefHistory", pair.student_id, pair.subject_id)
        return calls.belief_history(self.app, pair, concept, limit, cursor)

    def rederive(self, pair: Pair, body: RederiveRequest) -> RederiveResponse:
        self._may("rederiveBeliefs", pair.student_id, pair.subject_id)
        return calls.rederive(self.app, pair, body)

    def set_stance(self, pair: Pair, answer_id: str, stance: str) -> StanceResponse:
        self._may("setStance", pair.student_id, pair.subject_id)
        return calls.set_stance(self.app, pair, answer_id, stance)

    def sources(self, pair: Pair, answer_id: str) -> list[SourceResponse]:
        self._may("sources", pair.student_id, pair.subject_id)
        return calls.sources(self.app, pair, answer_id)

    def concept_map(self, pair: Pair) -> ConceptMap:
        self._may("conceptMap", pair.student_id, pair.subject_id)
        return calls.concept_map(self.app, pair)

    def report(self, pair: Pair, history: str | None) -> ReportResponse:
        self._may("report", pair.student_id, pair.subject_id)
        return calls.report(self.app, pair, history)

    def verify(self, pair: Pair) -> ChainResponse:
        self._may("verifyChain", pair.student_id, pair.subject_id)
        return calls.verify(self.app, pair)

    def nightly(self, pair: Pair | None, day: date | None) -> NightResponse:
        return calls.night(self.app, self.caller, day, pair)

    def remove_file(self, pair: Pair, file_id: str) -> FileResponse:
        self._may("removeFile", pair.student_id, pair.subject_id)
        return calls.remove_file(self.app, pair, file_id)

    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse:
        if subject_id is None:
            self._may("eraseStudent", student_id)
            return calls.erase_student(self.app, student_id, reason, REQUESTED_BY)
        pair = Pair(student_id, subject_id)
        if episode_id is None:
            self._may("erasePair", student_id, subject_id)
            return calls.erase_pair(self.app, pair, reason, REQUESTED_BY)
        self._may("eraseEpisode", student_id, subject_id)
        return calls.erase_episode(self.app, pair, episode_id, reason, REQUESTED_BY)

    def export(
        self, student_id: str, subject_id: str | None, limit: int, cursor: str | None
    ) -> ExportResponse:
        if subject_id is None:
            self._may("exportStudent", student_id)
        else:
            self._may("exportPair", student_id, subject_id)
        return calls.export_page(self.app, student_id, subject_id, limit, cursor)

    def profile(self, student_id: str) -> ProfileResponse:
        self._may("getProfile", student_id)
        return calls.profile(self.app, student_id)

    def set_profile(self, student_id: str, aspect: str, body: ProfileRequest) -> StatementResponse:
        self._may("setProfile", student_id)
        return calls.set_profile(self.app, self.caller, student_id, aspect, body)

    def retract_profile(self, student_id: str, aspect: str, key: str) -> StatementResponse:
        self._may("retractProfile", student_id)
        return calls.retract_profile(self.app, self.caller, student_id, aspect, key)

    def set_class(self, class_id: str, body: ClassRequest) -> ClassResponse:
        self._may("setClass", None)
        return calls.set_class(self.app, self.caller, class_id, body)

    def get_class(self, class_id: str) -> ClassResponse:
        self._may("getClass", None)
        return calls.get_class(self.app, self.caller, class_id)

    def ingest_class(
        self, class_id: str, subject_id: str, path: Path, file_id: str | None
    ) -> ClassFileResponse:
        self._may("putClassFile", None, subject_id)
        from tutor_memory.domain.episodes import file_id_for

        data = read_upload(path)
        name = path.name
        return calls.ingest_class_file(
            self.app, self.caller, class_id, subject_id, file_id or file_id_for(name), name, data
        )

    def close(self) -> None:
        self.app.close()
