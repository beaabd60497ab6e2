"""The library door: ``from tutor_memory import Memory``.

One memory store, two ways to reach it, the same typed methods::

    memory = Memory.local("./tutor-memory")               # the embedded default, on this machine
    memory = Memory.remote("https://….execute-api.eu-west-1.amazonaws.com/prod")  # the REST API
    memory = Memory.remote("http://127.0.0.1:8799")       # `tutor-memory serve`, unsigned
    alice = memory.pair("alice", "biology")               # one student in one subject
    alice.record_check("Explain osmosis", topic="osmosis", verdict="wrong")
    print(alice.turn("What did I get wrong?").block)

A store serves many students, so the pair is bound by a handle (``memory.pair(student,
subject)``), not by the store: one ``Memory`` (one database connection, one embedding model) is
shared by every handle. Every record goes through ``Episodes.add`` (locally, or behind the API),
so a check always moves its belief and a "remember that …" always teaches the map.

Return values are the API's own models (``TurnResponse``, ``EpisodeResponse``,
``BeliefResponse``, ``ReportResponse``, ``ChainResponse``) on both sides, and the domain's
``ConceptMap``; errors are the domain's (``ValidationError``, ``NotFoundError``, …). Reading a
pair with no record is a ``NotFoundError`` on both sides, as the API answers 404. ``recall``
answers ``RecallResponse`` on both sides (the API's ``GET …/recall?q=``); ``ingest`` and
``nightly`` are local only: the API takes files through the uploads bucket, and the
deployment's scheduler runs the nights (``NotServedError``).

``AsyncMemory`` is the asynchronous twin: the same methods, awaited, each run in a worker
thread (``asyncio.to_thread``), so an event loop is never blocked by the store or the model.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar

import pydantic

from tutor_memory.api.models import (
    BeliefPage,
    BeliefResponse,
    ChainResponse,
    CheckBody,
    ClassFileResponse,
    ClassRequest,
    ClassResponse,
    ConceptName,
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
    QuizBody,
    RecallResponse,
    RederiveRequest,
    RederiveResponse,
    ReportResponse,
    SourceResponse,
    StanceRequest,
    StanceResponse,
    StatementResponse,
    TaughtBody,
    TurnRequest,
    TurnResponse,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.access import Caller, Role
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair, check_file_id, check_id
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.paging import (
    DEFAULT_PAGE_ITEMS,
    ExportCursor,
    check_cursor,
    check_limit,
)
from tutor_memory.domain.profile import check_aspect
from tutor_memory.local_backend import LocalBackend
from tutor_memory.remote_backend import NotServedError, RemoteBackend
from tutor_memory.usecases.erasure import check_reason

if TYPE_CHECKING:
    from tutor_memory.bootstrap import App
    from tutor_memory.ports import Clock
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.export import Export
    from tutor_memory.usecases.maps import IngestResult

__all__ = [
    "AsyncMemory",
    "AsyncPairMemory",
    "Caller",
    "LocalBackend",
    "Memory",
    "NotServedError",
    "PairMemory",
    "RemoteBackend",
    "Role",
]

P = ParamSpec("P")
R = TypeVar("R")
Verdict = Literal["right", "wrong"]


class Backend(Protocol):
    """Where a ``Memory`` reads and writes: the embedded store, or the REST API."""

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse: ...
    def prompt(self, pair: Pair, body: PromptRequest) -> PromptResponse: ...
    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse: ...
    def episodes(self, pair: Pair, limit: int, cursor: str | None) -> EpisodePage: ...
    def rederive(self, pair: Pair, body: RederiveRequest) -> RederiveResponse: ...
    def set_stance(self, pair: Pair, answer_id: str, stance: str) -> StanceResponse: ...
    def correct(
        self, pair: Pair, episode_id: str, body: CorrectionRequest, idempotency_key: str | None
    ) -> EpisodeResponse: ...
    def sources(self, pair: Pair, answer_id: str) -> list[SourceResponse]: ...
    def remove_file(self, pair: Pair, file_id: str) -> FileResponse: ...
    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult: ...
    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse: ...
    def beliefs(self, pair: Pair) -> list[BeliefResponse]: ...
    def belief_history(
        self, pair: Pair, concept: str, limit: int, cursor: str | None
    ) -> BeliefPage: ...
    def concept_map(self, pair: Pair) -> ConceptMap: ...
    def report(self, pair: Pair, history: str | None) -> ReportResponse: ...
    def verify(self, pair: Pair) -> ChainResponse: ...
    def nightly(self, pair: Pair | None, day: date | None) -> NightResponse: ...
    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse: ...
    def export(
        self, student_id: str, subject_id: str | None, limit: int, cursor: str | None
    ) -> ExportResponse: ...
    def set_class(self, class_id: str, body: ClassRequest) -> ClassResponse: ...
    def get_class(self, class_id: str) -> ClassResponse: ...
    def ingest_class(
        self, class_id: str, subject_id: str, path: Path, file_id: str | None
    ) -> ClassFileResponse: ...
    def profile(self, student_id: str) -> ProfileResponse: ...
    def set_profile(
        self, student_id: str, aspect: str, body: ProfileRequest
    ) -> StatementResponse: ...
    def retract_profile(self, student_id: str, aspect: str, key: str) -> StatementResponse: ...
    def close(self) -> None: ...


class Memory:
    """A memory store; ``pair(student, subject)`` gives the handle that reads and writes."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @classmethod
    def local(
        cls,
        folder: str | Path = ".tutor-memory",
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        ready: bool = True,
        caller: Caller | None = None,
    ) -> Memory:
        """The embedded default in ``folder`` (created on first use): SQLite for the log,
        the embedded index beside it. Other settings (embedder, time zone, turn deadline)
        come from ``settings``, else from the ``TUTOR_MEMORY_*`` environment.

        Opened ready, as ``serve`` opens it (``ready=False``: on first use instead): the
        embedding model loaded, the recent pairs' postings and vectors read, numpy's BLAS
        capped at the turn's threads (``TUTOR_MEMORY_TURN_THREADS``, 1) for this process
        (threadpoolctl: a program that wants more threads for its own numpy raises the cap
        again with ``threadpoolctl.threadpool_limits``), and what that loaded moved out of the
        garbage collector's view (``gc.freeze``: it lives as long as the memory, and no full
        collection inside a turn walks it). A pair's own state is read before its first
        turn's deadline starts.

        ``caller``: who this handle acts as (``Caller(tenant, Role.STUDENT, "alice")`` for a
        student's own app); by default the store's service, which may call everything. Every
        call is checked as the API checks it (a ``ForbiddenError`` for what the role may not
        do; another tenant's record is not found)."""
        from tutor_memory.bootstrap import build_app
        from tutor_memory.settings import Settings, on_folder

        base = settings or Settings.from_env()
        app = build_app(on_folder(base, Path(folder)), clock=clock)
        return cls._opened(app, ready, caller)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, *, ready: bool = True) -> Memory:
        """The store the settings (or the ``TUTOR_MEMORY_*`` environment) configure, whichever
        backend that is: the embedded default, or DynamoDB and OpenSearch (opened ready, as
        ``local``)."""
        from tutor_memory.bootstrap import build_app

        return cls._opened(build_app(settings), ready)

    @classmethod
    def _opened(cls, app: App, ready: bool, caller: Caller | None = None) -> Memory:
        if ready:
            app.warm()
        return cls(LocalBackend(app, caller))

    @classmethod
    def remote(
        cls,
        base_url: str,
        *,
        region: str | None = None,
        credentials: Any = None,
        timeout_s: float = 30.0,
        signing: bool | None = None,
        api_key: str | None = None,
        token: str | None = None,
    ) -> Memory:
        """The REST API at ``base_url`` (the stage URL), every call SigV4-signed. ``region``
        defaults to the one an API Gateway URL names, else botocore's configured region;
        ``credentials`` (botocore credentials) to botocore's default chain.

        A plain ``http://`` URL on this machine (``localhost``, ``127.0.0.1``, ``[::1]``: what
        ``tutor-memory serve`` listens on) is called unsigned, with no region or credentials
        needed: ``Memory.remote("http://127.0.0.1:8799")``. ``signing=True`` signs it anyway
        (as it does when ``region`` or ``credentials`` is given); ``signing=False`` signs no
        call to any URL (a server with an authoriser of its own). ``api_key``: a key issued
        by ``tutor-memory keys create`` (a local ``serve`` asks for one), sent as a bearer
        token; a call with it is not signed. ``token``: a JWT from the deployment's identity
        provider (the Cognito user pool's, or one a local ``serve --jwks`` verifies), sent
        the same way; give one or the other."""
        if api_key and token:
            raise ValidationError("token", "give an API key or a token, not both")
        api_key = api_key or token
        from tutor_memory.api.client import SignedClient

        client = SignedClient(
            base_url,
            region=region,
            credentials=credentials,
            timeout_s=timeout_s,
            signing=False if api_key else signing,
            api_key=api_key,
        )
        return cls(RemoteBackend(client))

    def pair(self, student_id: str, subject_id: str) -> PairMemory:
        """The memory of one student in one subject (ids: letters, digits, ``. _ @ -``)."""
        return PairMemory(self.backend, Pair(student_id, subject_id))

    def erase(
        self,
        student_id: str,
        subject_id: str | None = None,
        episode_id: str | None = None,
        *,
        reason: str,
    ) -> ErasureResponse:
        """Erase one episode's body (``episode_id``), a pair's (``subject_id``) or a whole
        student's; the envelopes and an erasure record stay, and ``verify`` still passes.
        Asking again erases nothing more. Through ``Memory.remote`` to the cloud API, a pair
        or a student its request's time does not cover comes back ``finished`` false with the
        ``pending`` pairs a worker still erases; asking again later says when it is done."""
        if episode_id is not None and subject_id is None:
            raise ValidationError("subject_id", "an episode is erased within its pair")
        if episode_id is not None:
            check_id("episode_id", episode_id)
        # checked here, so that both doors refuse a bad reason in the same words
        return self.backend.erase(student_id, subject_id, episode_id, check_reason(reason))

    def export(
        self,
        student_id: str,
        subject_id: str | None = None,
        *,
        out: str | Path | None = None,
        limit: int = C.MAX_PAGE_ITEMS,
    ) -> Export:
        """A student's history (every subject, or ``subject_id``'s) in the replay format with
        its files and manifest (see ``tutor_memory.usecases.export``), whole: read page after
        page (``limit`` lines each, see ``export_page``) and put together, the same through
        every door; written into the new folder ``out`` when given (``tutor-memory replay
        out/history.jsonl`` rebuilds it). Erased episodes are their envelopes and erasure
        records only."""
        export = _whole_export(self.backend, student_id, subject_id, limit)
        if out is not None:
            export.write(Path(out))
        return export

    def export_page(
        self,
        student_id: str,
        subject_id: str | None = None,
        *,
        limit: int = DEFAULT_PAGE_ITEMS,
        next: str | None = None,
    ) -> ExportResponse:
        """One page of the export, as the API answers it: the first (no ``next``) with the
        manifest, each at most ``limit`` history lines and about 2.5 MB, with the files its
        lines name (base64); pass the page's ``next`` for the following one (None after the
        last). The pages are of the pairs and chain heads the first page found."""
        return self.backend.export(student_id, subject_id, *_export_paging(limit, next))

    def set_class(
        self, class_id: str, *, teachers: Sequence[str] = (), students: Sequence[str] = ()
    ) -> ClassResponse:
        """Create or replace a class of the caller's tenant: its teachers and its students (a
        teacher reaches the students of their classes only)."""
        body = _body(ClassRequest, teachers=list(teachers), students=list(students))
        return self.backend.set_class(check_id("class_id", class_id), body)

    def get_class(self, class_id: str) -> ClassResponse:
        return self.backend.get_class(check_id("class_id", class_id))

    def ingest_class(
        self, class_id: str, subject_id: str, file: str | Path, *, file_id: str | None = None
    ) -> ClassFileResponse:
        """Read a file (a syllabus, a course text) into the class's course map for a subject,
        once, and fold it into the map of every student of the class: each student's map is
        the course map plus their own files, with their own checks and beliefs on it. The
        service or one of the class's teachers. Over REST the file goes in the request's body
        (``PUT /classes/{class_id}/subjects/{subject_id}/files/{file_id}``, at most 700,000
        bytes); a larger one through ``uploads/<tenant>/classes/<class>/<subject>/<file>``."""
        return self.backend.ingest_class(
            check_id("class_id", class_id), subject_id, Path(file), file_id
        )

    def nightly(self, day: date | str | None = None) -> NightResponse:
        """The nightly loop, for every pair active on ``day`` (a date or YYYY-MM-DD; default
        yesterday in the store's time zone): each pair's summary of the day, its beliefs'
        decay, its calibration and citation checks, a checkpoint of its chain; then the
        retention period's erasures, when the deployment sets one. Run it once a day (your
        scheduler, or cron with ``tutor-memory nightly``); a night already done is done once.
        A pair that fails is in ``failures`` and the others run; a day that has not ended is
        refused. The store's service only, and locally only: in the cloud the deployment's
        scheduler runs it (``NotServedError`` through ``Memory.remote``)."""
        return self.backend.nightly(None, _day(day))

    # --- the student's profile: what holds in every subject ---------------------------------

    def profile(self, student_id: str) -> ProfileResponse:
        """What holds about the student in every subject (``.current``), and everything said
        about them (``.history``)."""
        return self.backend.profile(student_id)

    def set_profile(
        self,
        student_id: str,
        aspect: str,
        value: str,
        *,
        key: str = "",
        due: date | None = None,
    ) -> StatementResponse:
        """State something about the student — ``aspect``: name (what they are called;
        recall reads it too), preference, accommodation, language, goal (``due``: its date)
        or other; it supersedes what was said before on the aspect (and ``key``). Said by
        this handle's caller (the service, a teacher, the student)."""
        body = _body(ProfileRequest, value=value, key=key, due=due)
        return self.backend.set_profile(student_id, check_aspect(aspect).value, body)

    def retract_profile(self, student_id: str, aspect: str, *, key: str = "") -> StatementResponse:
        """Nothing of the aspect (and ``key``) holds any more; what was said stays in the
        history."""
        return self.backend.retract_profile(student_id, check_aspect(aspect).value, key)

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class PairMemory:
    """One student in one subject: record what happened, and ask what to remember."""

    def __init__(self, backend: Backend, pair: Pair) -> None:
        self.backend = backend
        self.pair = pair

    def __repr__(self) -> str:
        return f"PairMemory({self.pair})"

    # --- the turn ---------------------------------------------------------------------------

    def turn(
        self,
        question: str | None = None,
        *,
        at: datetime | None = None,
        budget_tokens: int | None = None,
    ) -> TurnResponse:
        """The memory block for the tutor's next prompt (``.block``), and the ids it holds.
        Checked as the REST route checks it (a question of at most 20,000 characters, a budget
        of 50–100,000 tokens), whichever door: both refuse alike."""
        body = _body(TurnRequest, question=question, at=at, budget_tokens=budget_tokens)
        return self.backend.turn(self.pair, body.question, body.at, body.budget_tokens)

    def prompt(
        self,
        question: str | None = None,
        *,
        system: str = "",
        material: str = "",
        assessment: str | None = None,
        at: datetime | None = None,
        budget_tokens: int | None = None,
    ) -> PromptResponse:
        """The block placed in a whole prompt: ``system``, the block, course ``material``,
        ``assessment`` rules and the question, in the order the spec gives (``.prompt``)."""
        body = _body(
            PromptRequest,
            question=question,
            system=system,
            material=material,
            assessment=assessment,
            at=at,
            budget_tokens=budget_tokens,
        )
        return self.backend.prompt(self.pair, body)

    # --- recording: one episode shape, through Episodes.add ---------------------------------

    def record(
        self, episode: EpisodeRequest | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> EpisodeResponse:
        """Any episode, in the one shape (the API's body, a replayed history's line): an
        ``EpisodeRequest`` or the same fields as a mapping (``{"kind": "question", "text":
        …}``), refused as the API refuses it (``ValidationError`` naming the field)."""
        if not isinstance(episode, EpisodeRequest):
            if not isinstance(episode, Mapping):
                raise ValidationError(
                    "episode",
                    f"must be an EpisodeRequest or a mapping, not {type(episode).__name__}",
                )
            episode = _body(EpisodeRequest, **{str(k): v for k, v in episode.items()})
        return self.backend.add(self.pair, episode, idempotency_key)

    def record_question(
        self,
        text: str,
        *,
        at: datetime | None = None,
        ref: str | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """The student's message. One that says "remember that …" teaches the map (its
        answer's ``kind`` is ``taught`` and ``taught`` names the concept)."""
        return self._record(
            idempotency_key,
            kind="question",
            text=text,
            at=at,
            ref=ref,
            summary=summary,
            concepts=list(concepts),
        )

    def record_answer(
        self,
        text: str,
        *,
        recalled_ids: Sequence[str] = (),
        file_id: str | None = None,
        page: int | None = None,
        at: datetime | None = None,
        ref: str | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """The tutor's answer, with the memory ids of the turn that produced it and the file
        (and page) it cited. One that opens by calling the student by name ("Hi Maya!") tells
        a profile that holds no name what the student is called."""
        # As data, judged with the episode: a bad page is refused as "evidence.page", as over REST
        cited = {"file_id": file_id, "page": page} if file_id or page is not None else None
        return self._record(
            idempotency_key,
            kind="answer",
            text=text,
            evidence=cited,
            recalled_ids=list(recalled_ids),
            at=at,
            ref=ref,
            summary=summary,
            concepts=list(concepts),
        )

    def record_check(
        self,
        text: str,
        *,
        topic: str,
        verdict: Verdict,
        evaluation: str = "",
        predicted_mastery: float | None = None,
        at: datetime | None = None,
        ref: str | None = None,
        summary: str = "",
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """A check of understanding; it moves the belief about its topic (``.belief``)."""
        return self._record(
            idempotency_key,
            kind="check",
            text=text,
            evidence=_body(
                CheckBody,
                topic=topic,
                verdict=verdict,
                evaluation=evaluation,
                predicted_mastery=predicted_mastery,
            ),
            at=at,
            ref=ref,
            summary=summary,
        )

    def record_quiz(
        self,
        text: str,
        *,
        score: float,
        maximum: float,
        topics: Sequence[str] = (),
        at: datetime | None = None,
        ref: str | None = None,
        summary: str = "",
        concepts: Sequence[str] = (),
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """A quiz's score."""
        return self._record(
            idempotency_key,
            kind="quiz",
            text=text,
            evidence=_body(QuizBody, score=score, maximum=maximum, topics=list(topics)),
            at=at,
            ref=ref,
            summary=summary,
            concepts=list(concepts),
        )

    def record_taught(
        self,
        text: str,
        *,
        note: str | None = None,
        at: datetime | None = None,
        ref: str | None = None,
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """A message that teaches the map ("remember that …"). One that is no instruction is
        refused (``ValidationError``) unless ``note`` says what to keep."""
        return self._record(
            idempotency_key,
            kind="taught",
            text=text,
            evidence=None if note is None else _body(TaughtBody, note=note),
            at=at,
            ref=ref,
        )

    def _record(self, idempotency_key: str | None, **fields: Any) -> EpisodeResponse:
        return self.record(_body(EpisodeRequest, **fields), idempotency_key=idempotency_key)

    # --- reading ----------------------------------------------------------------------------

    def ingest(self, file: str | Path, *, file_id: str | None = None) -> IngestResult:
        """Read a file (PDF, DOCX, text) into the pair's concept map, once per content."""
        return self.backend.ingest(self.pair, Path(file), file_id)

    def recall(self, question: str | None = None, *, at: datetime | None = None) -> RecallResponse:
        """What recall finds for a question, before the block's budget cuts it, and why (the
        gate, the pools, each item's score). Without a question (locally only: the REST route
        takes one), recall of the recent past."""
        return self.backend.recall(self.pair, question, at)

    def beliefs(self) -> list[BeliefResponse]:
        """The current beliefs about the student ("struggles with osmosis (0.67)")."""
        return self.backend.beliefs(self.pair)

    def belief_history(
        self, concept: str, *, limit: int = DEFAULT_PAGE_ITEMS, next: str | None = None
    ) -> BeliefPage:
        """A page of every belief ever held about a concept (its name as users see it), oldest
        first (``.beliefs``); pass the page's ``next`` for the following one (None after the
        last)."""
        check_cursor(next)
        named = _concept("concept", concept)
        return self.backend.belief_history(self.pair, named, check_limit(limit), next)

    def map(self) -> ConceptMap:
        """The pair's concept map."""
        return self.backend.concept_map(self.pair)

    def report(self, *, history: str | None = None) -> ReportResponse:
        """The report; ``history`` (a concept's name) adds that belief's history."""
        named = None if history is None else _concept("history", history)
        return self.backend.report(self.pair, named)

    def verify(self) -> ChainResponse:
        """Recompute the hash chain of the pair's episodes (``.intact``)."""
        return self.backend.verify(self.pair)

    def nightly(self, day: date | str | None = None) -> NightResponse:
        """This pair's night of ``day`` alone (``Memory.nightly`` runs every active pair's)."""
        return self.backend.nightly(self.pair, _day(day))

    def episodes(self, *, limit: int = DEFAULT_PAGE_ITEMS, next: str | None = None) -> EpisodePage:
        """A page of the pair's episodes, oldest first, as the export writes them; pass the
        page's ``next`` for the following one (None after the last)."""
        check_cursor(next)
        return self.backend.episodes(self.pair, check_limit(limit), next)

    def rederive(
        self, *, reason: str = "", force: bool = False, at: datetime | None = None
    ) -> RederiveResponse:
        """Derive the beliefs again from the checks (after a change of rules); the old ones
        are retired, never rewritten."""
        body = _body(RederiveRequest, reason=reason, force=force, at=at)
        return self.backend.rederive(self.pair, body)

    def correct(
        self,
        episode_id: str,
        field: str,
        value: str | float,
        reason: str,
        *,
        at: datetime | None = None,
        idempotency_key: str | None = None,
    ) -> EpisodeResponse:
        """Correct an earlier episode: a check's ``verdict`` (``right``/``wrong``), a quiz's
        ``score``, a taught note's ``note`` or a student's message's ``text``; ``reason`` says
        why. A new episode is written (nothing is rewritten); a corrected check moves its
        belief as a check with that verdict would, and the block shows the episode corrected.
        A student corrects their own words; a teacher or the service, grades and notes."""
        checked = _body(CorrectionRequest, field=field, value=value, reason=reason, at=at)
        return self.backend.correct(self.pair, episode_id, checked, idempotency_key)

    def set_stance(self, answer_id: str, stance: str) -> StanceResponse:
        """How far an answer answered the question: ``answered``, ``partial`` or
        ``could_not``."""
        checked = _body(StanceRequest, stance=stance)
        return self.backend.set_stance(self.pair, check_id("answer_id", answer_id), checked.stance)

    def sources(self, answer_id: str) -> list[SourceResponse]:
        """The memories an answer was given with (its ``recalled_ids``), labelled."""
        return self.backend.sources(self.pair, check_id("answer_id", answer_id))

    def remove_file(self, file_id: str) -> FileResponse:
        """Take a file out of the concept map; its history and arrival stay in the log."""
        return self.backend.remove_file(self.pair, check_file_id("file_id", file_id))

    def export(self, *, out: str | Path | None = None, limit: int = C.MAX_PAGE_ITEMS) -> Export:
        """This pair's export, whole (see ``Memory.export``)."""
        export = _whole_export(self.backend, self.pair.student_id, self.pair.subject_id, limit)
        if out is not None:
            export.write(Path(out))
        return export

    def export_page(
        self, *, limit: int = DEFAULT_PAGE_ITEMS, next: str | None = None
    ) -> ExportResponse:
        """One page of this pair's export (see ``Memory.export_page``)."""
        pair = self.pair
        return self.backend.export(pair.student_id, pair.subject_id, *_export_paging(limit, next))


def _export_paging(limit: int, cursor: str | None) -> tuple[int, str | None]:
    """The page's limit and cursor, checked here so that every door refuses them alike."""
    if cursor is not None:
        ExportCursor.parse(cursor)
    return check_limit(limit), cursor


def _whole_export(backend: Backend, student_id: str, subject_id: str | None, limit: int) -> Export:
    """Every page of an export, put together: the first page's manifest, every page's lines in
    order and the files they name."""
    from tutor_memory.usecases.export import Export

    page = backend.export(student_id, subject_id, check_limit(limit), None)
    manifest, history, files = page.manifest, list(page.history), dict(page.files)
    while page.next is not None:
        page = backend.export(student_id, subject_id, limit, page.next)
        history.extend(page.history)
        files.update(page.files)
    return Export.from_dict({"manifest": manifest, "history": history, "files": files})


# A concept as a route names it (``api.models.ConceptName``): refused here, in front of either
# backend, so that both doors refuse it alike before any read.
_CONCEPT: pydantic.TypeAdapter[str] = pydantic.TypeAdapter(ConceptName)


def _concept(field: str, value: str) -> str:
    try:
        return _CONCEPT.validate_python(value)
    except pydantic.ValidationError as exc:
        raise ValidationError(field, exc.errors()[0].get("msg", "is not valid")) from None


def _day(day: date | str | None) -> date | None:
    """A night's day: a date, or YYYY-MM-DD (a time of day is refused: a night is a day's)."""
    if day is None or (isinstance(day, date) and not isinstance(day, datetime)):
        return day
    if isinstance(day, str):
        from tutor_memory.usecases.nightly import parse_day

        return parse_day(day)
    raise ValidationError("day", f"must be a date or YYYY-MM-DD (got {type(day).__name__})")


def _body(model: type[R], **fields: Any) -> R:
    """A request model, its validation errors as the domain's (the same on both sides)."""
    try:
        return model(**fields)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first.get("loc", ())) or "episode"
        raise ValidationError(field, first.get("msg", "is not valid")) from None


# --- the asynchronous twin ------------------------------------------------------------------


def _in_thread(
    method: Callable[Concatenate[PairMemory, P], R],
) -> Callable[Concatenate[AsyncPairMemory, P], Coroutine[Any, Any, R]]:
    """``PairMemory.method``, awaited: it runs in a worker thread."""

    @functools.wraps(method)
    async def run(self: AsyncPairMemory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    return run


class AsyncMemory:
    """``Memory``, awaited: ``AsyncMemory.local(folder)``, ``AsyncMemory.remote(url)``."""

    def __init__(self, memory: Memory) -> None:
        self.sync = memory

    @classmethod
    def local(
        cls,
        folder: str | Path = ".tutor-memory",
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        caller: Caller | None = None,
    ) -> AsyncMemory:
        return cls(Memory.local(folder, settings=settings, clock=clock, caller=caller))

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> AsyncMemory:
        return cls(Memory.from_settings(settings))

    @classmethod
    def remote(
        cls,
        base_url: str,
        *,
        region: str | None = None,
        credentials: Any = None,
        timeout_s: float = 30.0,
        signing: bool | None = None,
        api_key: str | None = None,
        token: str | None = None,
    ) -> AsyncMemory:
        """``Memory.remote``, awaited (signed or not, as it says)."""
        return cls(
            Memory.remote(
                base_url,
                region=region,
                credentials=credentials,
                timeout_s=timeout_s,
                signing=signing,
                api_key=api_key,
                token=token,
            )
        )

    def pair(self, student_id: str, subject_id: str) -> AsyncPairMemory:
        return AsyncPairMemory(self.sync.pair(student_id, subject_id))

    async def erase(
        self,
        student_id: str,
        subject_id: str | None = None,
        episode_id: str | None = None,
        *,
        reason: str,
    ) -> ErasureResponse:
        return await asyncio.to_thread(
            self.sync.erase, student_id, subject_id, episode_id, reason=reason
        )

    async def export(
        self,
        student_id: str,
        subject_id: str | None = None,
        *,
        out: str | Path | None = None,
        limit: int = C.MAX_PAGE_ITEMS,
    ) -> Export:
        return await asyncio.to_thread(
            self.sync.export, student_id, subject_id, out=out, limit=limit
        )

    async def export_page(
        self,
        student_id: str,
        subject_id: str | None = None,
        *,
        limit: int = DEFAULT_PAGE_ITEMS,
        next: str | None = None,
    ) -> ExportResponse:
        return await asyncio.to_thread(
            self.sync.export_page, student_id, subject_id, limit=limit, next=next
        )

    async def set_class(
        self, class_id: str, *, teachers: Sequence[str] = (), students: Sequence[str] = ()
    ) -> ClassResponse:
        return await asyncio.to_thread(
            self.sync.set_class, class_id, teachers=teachers, students=students
        )

    async def get_class(self, class_id: str) -> ClassResponse:
        return await asyncio.to_thread(self.sync.get_class, class_id)

    async def ingest_class(
        self, class_id: str, subject_id: str, file: str | Path, *, file_id: str | None = None
    ) -> ClassFileResponse:
        return await asyncio.to_thread(
            self.sync.ingest_class, class_id, subject_id, file, file_id=file_id
        )

    async def profile(self, student_id: str) -> ProfileResponse:
        return await asyncio.to_thread(self.sync.profile, student_id)

    async def set_profile(
        self, student_id: str, aspect: str, value: str, *, key: str = "", due: date | None = None
    ) -> StatementResponse:
        return await asyncio.to_thread(
            self.sync.set_profile, student_id, aspect, value, key=key, due=due
        )

    async def retract_profile(
        self, student_id: str, aspect: str, *, key: str = ""
    ) -> StatementResponse:
        return await asyncio.to_thread(self.sync.retract_profile, student_id, aspect, key=key)

    async def nightly(self, day: date | str | None = None) -> NightResponse:
        return await asyncio.to_thread(self.sync.nightly, day)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.sync.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


class AsyncPairMemory:
    """``PairMemory``, awaited."""

    def __init__(self, sync: PairMemory) -> None:
        self.sync = sync
        self.pair = sync.pair

    def __repr__(self) -> str:
        return f"AsyncPairMemory({self.pair})"

    turn = _in_thread(PairMemory.turn)
    record = _in_thread(PairMemory.record)
    record_question = _in_thread(PairMemory.record_question)
    record_answer = _in_thread(PairMemory.record_answer)
    record_check = _in_thread(PairMemory.record_check)
    record_quiz = _in_thread(PairMemory.record_quiz)
    record_taught = _in_thread(PairMemory.record_taught)
    ingest = _in_thread(PairMemory.ingest)
    recall = _in_thread(PairMemory.recall)
    beliefs = _in_thread(PairMemory.beliefs)
    belief_history = _in_thread(PairMemory.belief_history)
    map = _in_thread(PairMemory.map)
    report = _in_thread(PairMemory.report)
    verify = _in_thread(PairMemory.verify)
    nightly = _in_thread(PairMemory.nightly)
    export = _in_thread(PairMemory.export)
    export_page = _in_thread(PairMemory.export_page)
    prompt = _in_thread(PairMemory.prompt)
    episodes = _in_thread(PairMemory.episodes)
    rederive = _in_thread(PairMemory.rederive)
    set_stance = _in_thread(PairMemory.set_stance)
    correct = _in_thread(PairMemory.correct)
    sources = _in_thread(PairMemory.sources)
    remove_file = _in_thread(PairMemory.remove_file)
