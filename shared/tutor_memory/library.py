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
answers ``RecallResponse`` on both sides (the API's ``GET …/recall?q=``); ``ingest`` is local
only: the API takes files through the uploads bucket (``NotServedError``).

``AsyncMemory`` is the asynchronous twin: the same methods, awaited, each run in a worker
thread (``asyncio.to_thread``), so an event loop is never blocked by the store or the model.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar
from urllib.parse import quote

import pydantic

from tutor_memory.api.models import (
    BeliefResponse,
    ChainResponse,
    CheckBody,
    CitationBody,
    EpisodeRequest,
    EpisodeResponse,
    ErasureResponse,
    QuizBody,
    RecallResponse,
    ReportResponse,
    TaughtBody,
    TurnResponse,
)
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import NotFoundError, TutorMemoryError, ValidationError

if TYPE_CHECKING:
    from tutor_memory.api.client import SignedClient
    from tutor_memory.bootstrap import App
    from tutor_memory.ports import Clock
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.export import Export
    from tutor_memory.usecases.maps import IngestResult

P = ParamSpec("P")
R = TypeVar("R")
Verdict = Literal["right", "wrong"]


class NotServedError(TutorMemoryError):
    """The remote API has no route for this yet; use the local store (or the CLI) for it."""


class Backend(Protocol):
    """Where a ``Memory`` reads and writes: the embedded store, or the REST API."""

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse: ...
    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse: ...
    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult: ...
    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse: ...
    def beliefs(self, pair: Pair) -> list[BeliefResponse]: ...
    def belief_history(self, pair: Pair, concept: str) -> list[BeliefResponse]: ...
    def concept_map(self, pair: Pair) -> ConceptMap: ...
    def report(self, pair: Pair, history: str | None) -> ReportResponse: ...
    def verify(self, pair: Pair) -> ChainResponse: ...
    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse: ...
    def export(self, student_id: str, subject_id: str | None) -> Export: ...
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
        turn's deadline starts."""
        from tutor_memory.bootstrap import build_app
        from tutor_memory.settings import Settings, on_folder

        base = settings or Settings.from_env()
        return cls._opened(build_app(on_folder(base, Path(folder)), clock=clock), ready)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, *, ready: bool = True) -> Memory:
        """The store the settings (or the ``TUTOR_MEMORY_*`` environment) configure, whichever
        backend that is: the embedded default, or DynamoDB and OpenSearch (opened ready, as
        ``local``)."""
        from tutor_memory.bootstrap import build_app

        return cls._opened(build_app(settings), ready)

    @classmethod
    def _opened(cls, app: App, ready: bool) -> Memory:
        if ready:
            app.warm()
        return cls(LocalBackend(app))

    @classmethod
    def remote(
        cls,
        base_url: str,
        *,
        region: str | None = None,
        credentials: Any = None,
        timeout_s: float = 30.0,
        signing: bool | None = None,
    ) -> Memory:
        """The REST API at ``base_url`` (the stage URL), every call SigV4-signed. ``region``
        defaults to the one an API Gateway URL names, else botocore's configured region;
        ``credentials`` (botocore credentials) to botocore's default chain.

        A plain ``http://`` URL on this machine (``localhost``, ``127.0.0.1``, ``[::1]``: what
        ``tutor-memory serve`` listens on) is called unsigned, with no region or credentials
        needed: ``Memory.remote("http://127.0.0.1:8799")``. ``signing=True`` signs it anyway
        (as it does when ``region`` or ``credentials`` is given); ``signing=False`` signs no
        call to any URL (a server with an authoriser of its own)."""
        from tutor_memory.api.client import SignedClient

        client = SignedClient(
            base_url,
            region=region,
            credentials=credentials,
            timeout_s=timeout_s,
            signing=signing,
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
        Asking again erases nothing more."""
        if episode_id is not None and subject_id is None:
            raise ValidationError("subject_id", "an episode is erased within its pair")
        return self.backend.erase(student_id, subject_id, episode_id, reason)

    def export(
        self, student_id: str, subject_id: str | None = None, *, out: str | Path | None = None
    ) -> Export:
        """A student's history (every subject, or ``subject_id``'s) in the replay format with
        its files and manifest (see ``tutor_memory.usecases.export``); written into the new folder
        ``out`` when given (``tutor-memory replay out/history.jsonl`` rebuilds it). Erased
        episodes are their envelopes and erasure records only."""
        export = self.backend.export(student_id, subject_id)
        if out is not None:
            export.write(Path(out))
        return export

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
        """The memory block for the tutor's next prompt (``.block``), and the ids it holds."""
        return self.backend.turn(self.pair, question, at, budget_tokens)

    # --- recording: one episode shape, through Episodes.add ---------------------------------

    def record(
        self, episode: EpisodeRequest, *, idempotency_key: str | None = None
    ) -> EpisodeResponse:
        """Any episode, in the one shape (the API's body, a replayed history's line)."""
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
        (and page) it cited."""
        cited = CitationBody(file_id=file_id, page=page) if file_id or page else None
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

    def belief_history(self, concept: str) -> list[BeliefResponse]:
        """Every belief ever held about a concept (its name as users see it), oldest first."""
        return self.backend.belief_history(self.pair, concept)

    def map(self) -> ConceptMap:
        """The pair's concept map."""
        return self.backend.concept_map(self.pair)

    def report(self, *, history: str | None = None) -> ReportResponse:
        """The report; ``history`` (a concept's name) adds that belief's history."""
        return self.backend.report(self.pair, history)

    def verify(self) -> ChainResponse:
        """Recompute the hash chain of the pair's episodes (``.intact``)."""
        return self.backend.verify(self.pair)

    def export(self, *, out: str | Path | None = None) -> Export:
        """This pair's export (see ``Memory.export``)."""
        export = self.backend.export(self.pair.student_id, self.pair.subject_id)
        if out is not None:
            export.write(Path(out))
        return export


def _body(model: type[R], **fields: Any) -> R:
    """A request model, its validation errors as the domain's (the same on both sides)."""
    try:
        return model(**fields)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first.get("loc", ())) or "episode"
        raise ValidationError(field, first.get("msg", "is not valid")) from None


# --- the embedded store ---------------------------------------------------------------------


class LocalBackend:
    """The use cases of an ``App``, in this process; answers shaped as the API shapes them."""

    def __init__(self, app: App) -> None:
        self.app = app

    def _known(self, pair: Pair) -> Pair:
        if self.app.ports.store.head(pair) is None:
            raise NotFoundError(
                f"no record of {pair}: record an episode or upload a file for it first"
            )
        return pair

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse:
        result = self.app.turns.turn(
            self._known(pair), question, at=at, budget_tokens=budget_tokens
        )
        return TurnResponse(**TurnResponse.fields(result))

    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        added = self.app.episodes.add(
            pair,
            episode.kind,
            episode.text,
            evidence=episode.given_evidence(),
            at=episode.at,
            summary=episode.summary,
            concepts=episode.concepts,
            salience=episode.salience,
            recalled_ids=episode.recalled_ids,
            ref=episode.ref,
            idempotency_key=idempotency_key,
        )
        return EpisodeResponse.of(
            added.append,
            taught=added.taught.concept_name if added.taught else None,
            belief=added.belief.line() if added.belief else None,
        )

    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult:
        from tutor_memory.domain.episodes import file_id_for

        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ValidationError("file", f"cannot read {path}: {exc.strerror}") from None
        return self.app.maps.ingest(pair, file_id or file_id_for(path.name), path.name, data)

    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse:
        result = self.app.memory.recall(self._known(pair), question, at=at)
        return RecallResponse.of(question or "", result)

    def beliefs(self, pair: Pair) -> list[BeliefResponse]:
        return [BeliefResponse.of(b) for b in self.app.learning.beliefs(self._known(pair))]

    def belief_history(self, pair: Pair, concept: str) -> list[BeliefResponse]:
        rows = self.app.learning.belief_history_named(self._known(pair), concept)
        if not rows:
            raise NotFoundError(f"no belief about {concept!r} for {pair}")
        return [BeliefResponse.of(b) for b in rows]

    def concept_map(self, pair: Pair) -> ConceptMap:
        return self.app.maps.maps.load_map(self._known(pair))

    def report(self, pair: Pair, history: str | None) -> ReportResponse:
        from tutor_memory.usecases.reports import report_json

        built = self.app.reports.report(self._known(pair), history=history)
        return ReportResponse.model_validate(report_json(built))

    def verify(self, pair: Pair) -> ChainResponse:
        return ChainResponse.of(self.app.memory.verify_chain(self._known(pair)))

    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse:
        erasing = self.app.erasing
        assert erasing is not None  # build_app always builds it
        if subject_id is None:
            done = erasing.erase_student(student_id, reason=reason, requested_by="library")
        elif episode_id is None:
            done = erasing.erase_pair(
                self._known(Pair(student_id, subject_id)), reason=reason, requested_by="library"
            )
        else:
            pair = self._known(Pair(student_id, subject_id))
            done = erasing.erase_episode(pair, episode_id, reason=reason, requested_by="library")
        return ErasureResponse(**done.to_dict())

    def export(self, student_id: str, subject_id: str | None) -> Export:

        exporting = self.app.exporting
        if subject_id is None:
            return exporting.student(student_id)
        return exporting.pair(self._known(Pair(student_id, subject_id)))

    def close(self) -> None:
        self.app.close()


# --- the REST API ---------------------------------------------------------------------------


class RemoteBackend:
    """The turn API over HTTPS, SigV4-signed (or a local ``serve``, unsigned); answers parsed
    into the same models."""

    def __init__(self, client: SignedClient) -> None:
        self.client = client

    def turn(
        self, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
    ) -> TurnResponse:
        body = {"question": question, "at": at and at.isoformat(), "budget_tokens": budget_tokens}
        sent = {k: v for k, v in body.items() if v is not None}
        return TurnResponse.model_validate(self.client.call("POST", pair, "/turn", sent))

    def add(
        self, pair: Pair, episode: EpisodeRequest, idempotency_key: str | None
    ) -> EpisodeResponse:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        body = episode.model_dump(mode="json", exclude_defaults=True)
        body["kind"] = episode.kind  # a default only in the model's eyes: always sent
        answer = self.client.call("POST", pair, "/episodes", body, headers=headers)
        return EpisodeResponse.model_validate(answer)

    def ingest(self, pair: Pair, path: Path, file_id: str | None) -> IngestResult:
        raise NotServedError(
            "the REST API takes files through the uploads bucket, not a route: upload to "
            "uploads/<student>/<subject>/<file>, or ingest into a local store"
        )

    def recall(self, pair: Pair, question: str | None, at: datetime | None) -> RecallResponse:
        if not question:
            raise ValidationError("question", "is required: the recall route takes one (q)")
        query = {"q": question, "at": None if at is None else at.isoformat()}
        return RecallResponse.model_validate(self.client.call("GET", pair, "/recall", query=query))

    def beliefs(self, pair: Pair) -> list[BeliefResponse]:
        rows = self.client.call("GET", pair, "/beliefs")
        return [BeliefResponse.model_validate(r) for r in rows]

    def belief_history(self, pair: Pair, concept: str) -> list[BeliefResponse]:
        from urllib.parse import quote

        # The name as the user typed it: the route finds its concept (case, accents, forms).
        path = f"/beliefs/{quote(concept.strip(), safe='')}/history"
        return [BeliefResponse.model_validate(r) for r in self.client.call("GET", pair, path)]

    def concept_map(self, pair: Pair) -> ConceptMap:
        answer = self.client.call("GET", pair, "/map")
        return ConceptMap.from_dict(answer)

    def report(self, pair: Pair, history: str | None) -> ReportResponse:
        answer = self.client.call("GET", pair, "/report", query={"history": history})
        return ReportResponse.model_validate(answer)

    def verify(self, pair: Pair) -> ChainResponse:
        return ChainResponse.model_validate(self.client.call("GET", pair, "/chain/verify"))

    def erase(
        self, student_id: str, subject_id: str | None, episode_id: str | None, reason: str
    ) -> ErasureResponse:
        query = {"reason": reason, "requested_by": "library"}
        if subject_id is None:
            url = f"{self.client.base_url}/students/{quote(student_id, safe='')}"
            return ErasureResponse.model_validate(self.client.call_url("DELETE", url, query=query))
        path = "" if episode_id is None else f"/episodes/{quote(episode_id, safe='')}"
        pair = Pair(student_id, subject_id)
        return ErasureResponse.model_validate(self.client.call("DELETE", pair, path, query=query))

    def export(self, student_id: str, subject_id: str | None) -> Export:
        from tutor_memory.usecases.export import Export

        if subject_id is None:
            url = f"{self.client.base_url}/students/{quote(student_id, safe='')}/export"
            return Export.from_dict(self.client.call_url("GET", url))
        return Export.from_dict(self.client.call("GET", Pair(student_id, subject_id), "/export"))

    def close(self) -> None:
        return None


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
    ) -> AsyncMemory:
        return cls(Memory.local(folder, settings=settings, clock=clock))

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
    ) -> AsyncMemory:
        """``Memory.remote``, awaited (signed or not, as it says)."""
        return cls(
            Memory.remote(
                base_url,
                region=region,
                credentials=credentials,
                timeout_s=timeout_s,
                signing=signing,
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
        self, student_id: str, subject_id: str | None = None, *, out: str | Path | None = None
    ) -> Export:
        return await asyncio.to_thread(self.sync.export, student_id, subject_id, out=out)

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
    export = _in_thread(PairMemory.export)
