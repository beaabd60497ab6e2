"""The turn API: one set of routes for API Gateway (functions/api) and ``tutor-memory serve``.

Every route is under ``/pairs/{student_id}/{subject_id}``: the pair is in the path, so a route
can never reach another pair. Routes parse (pydantic), make one call into the use cases, and
map the result; errors map to HTTP in one place (``ERROR_HANDLERS``), never in a route.
Writing an episode answers 201 (200, with ``created: false``, when a retry with the same
Idempotency-Key finds it written); path parameters are percent-decoded
(``DecodingResolver``). The errors:

==========================================  ======
domain error                                status
==========================================  ======
ValidationError, unreadable file, bad JSON  400 / 422 (pydantic's field errors)
NotFoundError (unknown pair, episode)       404
ConflictError (also contention)             409
ErasedError (a retry of an erased write)    410
a model call that may succeed later         503
a model call that will not                  502
StoreError                                  503
==========================================  ======
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from http import HTTPStatus
from re import Match
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import unquote

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.exceptions import ServiceError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.params import Header, Path, Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.metrics import MetricUnit

from tutor_memory.api.access import described, quiet_wordy_loggers
from tutor_memory.api.models import (
    BeliefResponse,
    ChainResponse,
    EpisodeRequest,
    EpisodeResponse,
    ErasureResponse,
    ExportResponse,
    FileResponse,
    ProblemResponse,
    PromptRequest,
    PromptResponse,
    PromptSection,
    RecallResponse,
    RederiveRequest,
    RederiveResponse,
    ReportResponse,
    SourceResponse,
    StanceRequest,
    StanceResponse,
    TurnRequest,
    TurnResponse,
)
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import (
    Pair,
    check_client_key,
    check_time_range,
    request_digest,
)
from tutor_memory.domain.errors import (
    ConflictError,
    ContentionError,
    ErasedError,
    IdempotencyConflictError,
    ModelCallError,
    NotFoundError,
    NotTeachingError,
    StoreError,
    TutorMemoryError,
    ValidationError,
)

if TYPE_CHECKING:  # the App and its use cases are built on the first request, not at import
    from tutor_memory.bootstrap import App
    from tutor_memory.usecases.erasure import Erasing
    from tutor_memory.usecases.turns import TurnResult

PAIR = "/pairs/<student_id>/<subject_id>"
# The path's ids as the domain accepts them (check_id), so the document says what is refused.
_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._@-]*$"
StudentId = Annotated[str, Path(pattern=_ID_PATTERN, max_length=C.MAX_ID_CHARS)]
SubjectId = Annotated[str, Path(pattern=_ID_PATTERN, max_length=C.MAX_ID_CHARS)]
EpisodeId = Annotated[str, Path(min_length=1, max_length=C.MAX_ID_CHARS)]
FileId = Annotated[str, Path(min_length=1, max_length=C.MAX_ID_CHARS)]
ConceptName = Annotated[str, Path(min_length=1, max_length=C.MAX_CONCEPT_CHARS)]
IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]
HistoryOf = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=C.MAX_CONCEPT_CHARS,
        description="a concept's name or key: add the history of the belief about it",
    ),
]

ErasureReason = Annotated[
    str,
    Query(
        min_length=1,
        max_length=C.MAX_ERASURE_REASON_CHARS,
        description="why the erasure was asked for, one line: kept in the erasure record",
    ),
]
RequestedBy = Annotated[
    str, Query(min_length=1, max_length=C.MAX_ID_CHARS, description="who asked (kept too)")
]

RecallQuestion = Annotated[
    str,
    # A question in a URL: bounded so that, percent-encoded, it stays inside a request line.
    Query(min_length=1, max_length=C.MAX_NOTE_CHARS, description="a question, as a student asks"),
]

RecallAt = Annotated[
    datetime | None,
    Query(description="recall as of this time (ISO 8601); the server's clock when absent"),
]

PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class Problem:
    """An error as RFC 9457 describes it, before the request's ``instance`` is known."""

    status: int
    slug: str  # the problem type: urn:tutor-memory:problem:<slug>
    detail: str
    fields: list[dict[str, Any]] = field(default_factory=list)

    def body(self, instance: str, correlation_id: str) -> dict[str, Any]:
        return {
            "type": f"urn:tutor-memory:problem:{self.slug}",
            "title": HTTPStatus(self.status).phrase,
            "status": self.status,
            "detail": self.detail,
            "instance": instance,
            "correlation_id": correlation_id,
            # The body before RFC 9457, kept so that clients reading it keep working.
            "error": self.detail,
            "fields": self.fields,
        }


def _invalid_request(exc: RequestValidationError) -> Problem:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return Problem(400, "malformed-json", "the body is not valid JSON")
    fields = [
        {"field": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
        for e in errors
    ]
    shown = "; ".join(f"{f['field']}: {f['problem']}" for f in fields[:5])
    return Problem(422, "invalid-request", f"the request is not valid: {shown}", fields)


def _invalid(exc: ValidationError) -> Problem:
    # The problem type names the domain's error, so a client raises the same one
    # (api/client.py's PROBLEM_ERRORS maps each type back).
    slug = "not-teaching" if isinstance(exc, NotTeachingError) else "invalid-request"
    return Problem(422, slug, str(exc), [{"field": exc.field, "problem": exc.problem}])


def _model_failed(exc: ModelCallError) -> Problem:
    return Problem(503 if exc.retryable else 502, "model-unavailable", str(exc))


def _store_failed(exc: StoreError) -> Problem:
    return Problem(503, "store-unavailable", f"the memory store is unavailable: {exc}")


def _conflict(exc: ConflictError) -> Problem:
    slug = (
        "idempotency-key-reused"
        if isinstance(exc, IdempotencyConflictError)
        else "contention"
        if isinstance(exc, ContentionError)
        else "conflict"
    )
    return Problem(409, slug, str(exc))


def _service_error(exc: ServiceError) -> Problem:
    return Problem(exc.status_code, "request-refused", str(exc.msg))


def _unsupported(exc: RequestUnsupportedContentType) -> Problem:
    return Problem(415, "unsupported-media-type", "send the body as application/json")


def _too_deep(exc: RecursionError) -> Problem:
    return Problem(400, "malformed-json", "the body nests too deeply to read")


# The one exception → HTTP mapping. Powertools picks the handler of the most specific class, so
# the order does not matter; `Exception` is the catch-all (a 500, logged with its correlation id).
ERROR_HANDLERS: tuple[tuple[type[Exception], Callable[[Any], Problem]], ...] = (
    (RequestValidationError, _invalid_request),
    (RequestUnsupportedContentType, _unsupported),
    (ServiceError, _service_error),
    (RecursionError, _too_deep),
    (ValidationError, _invalid),
    (NotFoundError, lambda exc: Problem(404, "not-found", str(exc))),
    (ConflictError, _conflict),
    (ErasedError, lambda exc: Problem(410, "erased", str(exc))),
    (ModelCallError, _model_failed),
    (StoreError, _store_failed),
    (TutorMemoryError, lambda exc: Problem(400, "bad-request", str(exc))),
)

INTERNAL = Problem(
    500, "internal", "the server failed to answer; the error is logged under this correlation id"
)


def problem_response(
    problem: Problem, instance: str, correlation_id: str, headers: dict[str, str] | None = None
) -> Response[Any]:
    return Response(
        status_code=problem.status,
        content_type=PROBLEM_JSON,  # Powertools serialises only application/json itself
        body=json.dumps(problem.body(instance, correlation_id), ensure_ascii=False),
        headers=headers,
    )


def record_turn_metrics(metrics: Metrics, result: TurnResult) -> None:
    """Turn latency, dropped blocks and recall pool sizes (CloudWatch embedded metrics)."""
    total = result.timings_ms.get("total", result.timings_ms.get("waited", 0.0))
    metrics.add_metric(name="TurnLatency", unit=MetricUnit.Milliseconds, value=total)
    metrics.add_metric(name="DroppedBlocks", unit=MetricUnit.Count, value=int(result.dropped))
    if result.recall is not None:
        for pool, size in sorted(result.recall.pool_sizes.items()):
            name = "RecallPool" + "".join(w.title() for w in pool.replace("'", "").split())
            metrics.add_metric(name=name, unit=MetricUnit.Count, value=size)


class DecodingResolver(APIGatewayRestResolver):
    """The REST resolver, with path parameters percent-decoded.

    API Gateway's REST events (and ``tutor-memory serve``'s, made in their image) carry the
    path as the client encoded it, and Powertools matches it as it is: without this,
    ``beliefs/pH%20scale/history`` would look for a concept named "pH%20scale"."""

    def _convert_matches_into_route_keys(self, match: Match[str]) -> dict[str, str]:
        return {name: unquote(value) for name, value in match.groupdict().items()}


def build_resolver(
    get_app: Callable[[], App], *, metrics: Metrics | None = None, logger: Logger | None = None
) -> APIGatewayRestResolver:
    """The routes, bound to an App that is built on first use (never at import). With a
    Powertools ``metrics`` and ``logger`` (the Lambda's), a turn records its metrics and every
    log line carries the pair."""
    resolver = DecodingResolver(enable_validation=True)
    quiet_wordy_loggers()  # logs carry a route's template and ids, never its words
    log: Logger | logging.Logger = logger if logger is not None else logging.getLogger(__name__)

    def where() -> tuple[str, str]:
        """The request's path (the problem's ``instance``) and its correlation id."""
        try:
            event = resolver.current_event
            return event.path, event.request_context.request_id or ""
        except Exception:  # no event (a test calling a handler directly): still answer
            return "", ""

    def answer(problem: Problem, headers: dict[str, str] | None = None) -> Response[Any]:
        return problem_response(problem, *where(), headers=headers)

    for exc_type, to_problem in ERROR_HANDLERS:
        resolver.exception_handler(exc_type)(
            lambda exc, to_problem=to_problem: answer(to_problem(exc))
        )

    def unexpected(exc: Exception) -> Response[Any]:
        path, correlation_id = where()
        try:
            method = resolver.current_event.http_method
        except Exception:
            method = ""
        route = described(resolver, method, path)  # the template and ids: never the words
        log.error(
            "unhandled error answering %s (correlation id %s)",
            route,
            correlation_id,
            exc_info=exc,
            extra={"correlation_id": correlation_id, "route": route},
        )
        return problem_response(INTERNAL, path, correlation_id)

    resolver.exception_handler(Exception)(unexpected)

    @resolver.not_found
    def no_route(exc: Exception) -> Response[Any]:
        path, _ = where()
        allowed = allowed_methods(resolver, path)
        if allowed:
            return answer(
                Problem(405, "method-not-allowed", f"{path} answers {', '.join(allowed)}"),
                {"Allow": ", ".join(allowed)},
            )
        return answer(Problem(404, "no-route", f"no route {path}; see the OpenAPI document"))

    def known_pair(student_id: str, subject_id: str) -> Pair:
        pair = Pair(student_id, subject_id)
        if logger is not None:
            logger.append_keys(pair=str(pair))
        if get_app().ports.store.head(pair) is None:
            raise NotFoundError(
                f"no record of {pair}: record an episode or upload a file for it first"
            )
        return pair

    @resolver.post(f"{PAIR}/turn", operation_id="turn", responses=problems(WRITE_STATUSES))
    def turn(student_id: StudentId, subject_id: SubjectId, body: TurnRequest) -> TurnResponse:
        app = get_app()
        result = app.turns.turn(
            known_pair(student_id, subject_id),
            body.question,
            at=client_time(app, body.at),
            budget_tokens=body.budget_tokens,
        )
        if metrics is not None:
            record_turn_metrics(metrics, result)
        return TurnResponse(**TurnResponse.fields(result))

    @resolver.post(
        f"{PAIR}/episodes",
        operation_id="addEpisode",
        responses=problems(EPISODE_STATUSES, EPISODE_LINKS, created=True),
    )
    def add_episode(
        student_id: StudentId,
        subject_id: SubjectId,
        body: EpisodeRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[EpisodeResponse]:
        episode = record_episode(get_app(), Pair(student_id, subject_id), body, idempotency_key)
        # 201: written now; 200: a retry (same Idempotency-Key, same body) finds it written.
        status = 201 if episode.created else 200
        return Response(status_code=status, content_type="application/json", body=episode)

    @resolver.get(f"{PAIR}/beliefs", operation_id="beliefs", responses=problems(READ_STATUSES))
    def beliefs(student_id: StudentId, subject_id: SubjectId) -> list[BeliefResponse]:
        pair = known_pair(student_id, subject_id)
        return [BeliefResponse.of(b) for b in get_app().learning.beliefs(pair)]

    @resolver.get(
        f"{PAIR}/beliefs/<concept>/history",
        operation_id="beliefHistory",
        responses=problems(READ_STATUSES),
    )
    def belief_history(
        student_id: StudentId, subject_id: SubjectId, concept: ConceptName
    ) -> list[BeliefResponse]:
        pair = known_pair(student_id, subject_id)
        # The concept as users see it ("pH scale", "Ósmosis", "Indicators") or its key.
        rows = get_app().learning.belief_history_named(pair, concept)
        if not rows:
            raise NotFoundError(f"no belief about {concept!r} for {pair}")
        return [BeliefResponse.of(b) for b in rows]

    @resolver.post(
        f"{PAIR}/answers/<answer_id>/stance",
        operation_id="setStance",
        responses=problems(WRITE_STATUSES),
    )
    def stance(
        student_id: StudentId, subject_id: SubjectId, answer_id: EpisodeId, body: StanceRequest
    ) -> StanceResponse:
        pair = known_pair(student_id, subject_id)
        note = get_app().turns.set_stance(pair, answer_id, body.stance)
        return StanceResponse(answer_id=answer_id, stance=note.value, at=note.at)

    @resolver.get(
        f"{PAIR}/answers/<answer_id>/sources",
        operation_id="sources",
        responses=problems(READ_STATUSES),
    )
    def sources(
        student_id: StudentId, subject_id: SubjectId, answer_id: EpisodeId
    ) -> list[SourceResponse]:
        pair = known_pair(student_id, subject_id)
        return [
            SourceResponse(
                id=s.episode.episode_id,
                ref=s.episode.ref,
                kind=s.episode.kind.value,
                at=s.episode.at,
                label=s.label,
                summary=s.episode.summary,
            )
            for s in get_app().turns.sources(pair, answer_id)
        ]

    @resolver.get(f"{PAIR}/map", operation_id="conceptMap", responses=problems(READ_STATUSES))
    def concept_map(student_id: StudentId, subject_id: SubjectId) -> dict[str, Any]:
        pair = known_pair(student_id, subject_id)
        cmap = get_app().maps.maps.load_map(pair)
        return {"edges": [list(e) for e in cmap.edges()], **cmap.to_dict()}

    @resolver.get(f"{PAIR}/report", operation_id="report", responses=problems(READ_STATUSES))
    def report(
        student_id: StudentId, subject_id: SubjectId, history: HistoryOf = None
    ) -> ReportResponse:
        pair = known_pair(student_id, subject_id)
        from tutor_memory.usecases.reports import report_json

        built = get_app().reports.report(pair, history=history)
        return ReportResponse.model_validate(report_json(built))

    # The inspector (issue 15): the page, and the recall its question form asks for. Imported
    # on use, so the turn's cold start never loads them.
    @resolver.get(
        f"{PAIR}/inspect",
        operation_id="inspectPair",
        responses={
            **problems(READ_STATUSES),
            200: {"description": "the inspector page", "content": {"text/html": {}}},
        },
    )
    def inspect(student_id: StudentId, subject_id: SubjectId) -> Response[str]:
        from tutor_memory.inspector_html import render_page

        data = get_app().inspector.inspect(known_pair(student_id, subject_id))
        return Response(200, "text/html; charset=utf-8", render_page(data, served=True))

    @resolver.get(f"{PAIR}/recall", operation_id="whyRecalled", responses=problems(READ_STATUSES))
    def recall(
        student_id: StudentId, subject_id: SubjectId, q: RecallQuestion, at: RecallAt = None
    ) -> RecallResponse:
        app = get_app()
        pair = known_pair(student_id, subject_id)
        return RecallResponse.of(q, app.memory.recall(pair, q, at=client_time(app, at)))

    @resolver.get(
        f"{PAIR}/chain/verify", operation_id="verifyChain", responses=problems(READ_STATUSES)
    )
    def verify_chain(student_id: StudentId, subject_id: SubjectId) -> ChainResponse:
        return ChainResponse.of(get_app().memory.verify_chain(known_pair(student_id, subject_id)))

    @resolver.post(f"{PAIR}/prompt", operation_id="prompt", responses=problems(WRITE_STATUSES))
    def prompt(student_id: StudentId, subject_id: SubjectId, body: PromptRequest) -> PromptResponse:
        app = get_app()
        placed = app.turns.prompt(
            known_pair(student_id, subject_id),
            body.question,
            system=body.system,
            material=body.material,
            assessment=body.assessment,
            at=client_time(app, body.at),
            budget_tokens=body.budget_tokens,
        )
        result = placed.turn
        if metrics is not None:
            record_turn_metrics(metrics, result)
        return PromptResponse(
            prompt=placed.text,
            sections=[PromptSection(title=t, text=x) for t, x in placed.sections],
            **TurnResponse.fields(result),
        )

    @resolver.post(
        f"{PAIR}/beliefs/rederive",
        operation_id="rederiveBeliefs",
        responses=problems(WRITE_STATUSES),
    )
    def rederive(
        student_id: StudentId, subject_id: SubjectId, body: RederiveRequest
    ) -> RederiveResponse:
        app = get_app()
        done = app.learning.rederive(
            known_pair(student_id, subject_id),
            at=client_time(app, body.at),
            force=body.force,
            reason=body.reason,
        )
        return RederiveResponse(
            retired=done.retired,
            created=done.created,
            generation=done.generation,
            changed=done.changed,
        )

    @resolver.delete(
        f"{PAIR}/files/<file_id>", operation_id="removeFile", responses=problems(WRITE_STATUSES)
    )
    def remove_file(student_id: StudentId, subject_id: SubjectId, file_id: FileId) -> FileResponse:
        record = get_app().memory.remove_file(known_pair(student_id, subject_id), file_id)
        return FileResponse(
            file_id=record.file_id,
            name=record.name,
            versions=len(record.versions),
            removed_at=record.removed_at,
        )

    # --- erasure (see tutor_memory.usecases.erasure) ----------------------------------------------

    def erasing() -> Erasing:
        found = get_app().erasing
        assert found is not None  # build_app always builds it
        return found

    @resolver.delete(
        f"{PAIR}/episodes/<episode_id>",
        operation_id="eraseEpisode",
        responses=problems(ERASE_STATUSES),
    )
    def erase_episode(
        student_id: StudentId,
        subject_id: SubjectId,
        episode_id: EpisodeId,
        reason: ErasureReason,
        requested_by: RequestedBy = "api",
    ) -> ErasureResponse:
        pair = known_pair(student_id, subject_id)
        done = erasing().erase_episode(pair, episode_id, reason=reason, requested_by=requested_by)
        return ErasureResponse(**done.to_dict())

    @resolver.delete(PAIR, operation_id="erasePair", responses=problems(ERASE_STATUSES))
    def erase_pair(
        student_id: StudentId,
        subject_id: SubjectId,
        reason: ErasureReason,
        requested_by: RequestedBy = "api",
    ) -> ErasureResponse:
        pair = known_pair(student_id, subject_id)
        done = erasing().erase_pair(pair, reason=reason, requested_by=requested_by)
        return ErasureResponse(**done.to_dict())

    @resolver.delete(
        "/students/<student_id>", operation_id="eraseStudent", responses=problems(ERASE_STATUSES)
    )
    def erase_student(
        student_id: StudentId, reason: ErasureReason, requested_by: RequestedBy = "api"
    ) -> ErasureResponse:
        done = erasing().erase_student(student_id, reason=reason, requested_by=requested_by)
        return ErasureResponse(**done.to_dict())

    # --- export (see tutor_memory.usecases.export) ------------------------------------------------

    @resolver.get(
        f"{PAIR}/export",
        operation_id="exportPair",
        summary="A pair's history in the replay format, with its files and manifest",
        responses=problems(READ_STATUSES),
    )
    def export_pair(student_id: StudentId, subject_id: SubjectId) -> ExportResponse:

        pair = known_pair(student_id, subject_id)
        return ExportResponse(**get_app().exporting.pair(pair).to_dict())

    @resolver.get(
        "/students/<student_id>/export",
        operation_id="exportStudent",
        summary="Every subject of a student in one export (one history, pair by pair)",
        responses=problems(READ_STATUSES),
    )
    def export_student(student_id: StudentId) -> ExportResponse:

        return ExportResponse(**get_app().exporting.student(student_id).to_dict())

    return resolver


def client_time(app: App, at: datetime | None) -> datetime | None:
    """A client's ``at`` inside the accepted range (from 1970 to a day past the server's clock),
    else a 422 naming ``at``."""
    return None if at is None else check_time_range("at", at, app.ports.clock.now())


def resolve(
    resolver: APIGatewayRestResolver,
    event: dict[str, Any],
    context: Any,
    log: Logger | logging.Logger | None = None,
) -> dict[str, Any]:
    """The resolver's answer, and a problem+json 500 should even the resolver itself fail (an
    event it cannot read): never an unanswered request (in Lambda, a 502 from API Gateway)."""
    refused = _not_json(event)
    if refused is not None:
        return refused
    try:
        return resolver.resolve(event, context)
    except Exception as exc:
        context_of = event.get("requestContext") if isinstance(event, dict) else None
        correlation_id = str((context_of or {}).get("requestId") or "")
        path = str(event.get("path") or "") if isinstance(event, dict) else ""
        method = str(event.get("httpMethod") or "") if isinstance(event, dict) else ""
        route = described(resolver, method, path)  # the template and ids: never the words
        (log or logging.getLogger(__name__)).error(
            "unhandled error answering %s (correlation id %s)",
            route,
            correlation_id,
            exc_info=exc,
            extra={"correlation_id": correlation_id, "route": route},
        )
        return {
            "statusCode": 500,
            "headers": {"Content-Type": PROBLEM_JSON},
            "body": json.dumps(INTERNAL.body(path, correlation_id), ensure_ascii=False),
            "isBase64Encoded": False,
        }


# What each route can answer besides its 200, every one with a problem body: any route may meet a
# path it refuses (422), an unknown pair (404), a store that is down (503), a bug (500), and at the
# local server a malformed or stalled request (400, 408); a route with a body also a body too big,
# unframed or not JSON (413, 411, 415), a conflict (409), and a model that failed (502, 503).
READ_STATUSES = (400, 404, 408, 422, 500, 503)
WRITE_STATUSES = (*READ_STATUSES, 409, 411, 413, 415, 502)
ERASE_STATUSES = (*READ_STATUSES, 409)  # 409: a concurrent erasure of the same pair
# Writing an episode: also 410, a retry (same Idempotency-Key) of a write erased since.
EPISODE_STATUSES = (*WRITE_STATUSES, 410)


_SAME_PAIR = {"student_id": "$request.path.student_id", "subject_id": "$request.path.subject_id"}
# What a client (and a stateful fuzzer) can do next with a written episode: read the pair back,
# and, for an answer, its sources and stance.
EPISODE_LINKS: dict[str, Any] = {
    name: {"operationId": operation, "parameters": {**_SAME_PAIR, **extra}}
    for name, operation, extra in (
        ("Sources", "sources", {"answer_id": "$response.body#/id"}),
        ("Stance", "setStance", {"answer_id": "$response.body#/id"}),
        ("Beliefs", "beliefs", {}),
        ("Turn", "turn", {}),
        ("Map", "conceptMap", {}),
        ("Report", "report", {}),
        ("VerifyChain", "verifyChain", {}),
    )
}


def problems(
    statuses: tuple[int, ...], links: dict[str, Any] | None = None, *, created: bool = False
) -> dict[int, OpenAPIResponse]:
    """A route's responses: its success (the return type's schema, and ``links`` to the routes
    that read what it wrote) and a problem body for every other status it can answer. A
    ``created`` route answers 201 when it writes, and 200 (the same body) when an idempotent
    retry finds the write already done."""
    ok: OpenAPIResponse = {"description": "Successful Response"}
    if links:
        ok["links"] = links
    success: dict[int, OpenAPIResponse] = {200: ok}
    if created:
        new: OpenAPIResponse = {"description": "Created: the episode was written now"}
        again: OpenAPIResponse = {
            "description": "A retry with the same Idempotency-Key and body: the episode "
            "written the first time (`created` is false)"
        }
        if links:
            new["links"] = again["links"] = links
        success = {201: new, 200: again}
    return success | {
        status: {
            "description": HTTPStatus(status).phrase,
            "content": {PROBLEM_JSON: {"model": ProblemResponse}},
        }
        for status in sorted(statuses)
    }


def _not_json(event: dict[str, Any]) -> dict[str, Any] | None:
    """A 415 for a body that is not JSON (a form, a multipart upload): the routes take JSON
    only, and Powertools would otherwise try to parse a multipart body and fail."""
    if not isinstance(event, dict) or not event.get("body"):
        return None
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media = headers.get("content-type", "application/json").split(";")[0].strip().lower()
    if media == "application/json" or media.endswith("+json"):
        return None
    context_of = event.get("requestContext") or {}
    problem = Problem(415, "unsupported-media-type", "send the body as application/json")
    return {
        "statusCode": 415,
        "headers": {"Content-Type": PROBLEM_JSON},
        "body": json.dumps(
            problem.body(str(event.get("path") or ""), str(context_of.get("requestId") or "")),
            ensure_ascii=False,
        ),
        "isBase64Encoded": False,
    }


def allowed_methods(resolver: APIGatewayRestResolver, path: str) -> list[str]:
    """The methods of the routes whose path matches (none: the path itself is unknown)."""
    routes = [*getattr(resolver, "_static_routes", []), *getattr(resolver, "_dynamic_routes", [])]
    return sorted({r.method.upper() for r in routes if r.rule.match(path)})


def record_episode(
    app: App, pair: Pair, body: EpisodeRequest, idempotency_key: str | None
) -> EpisodeResponse:
    """One episode through ``Episodes.add``, the use case every caller records through."""
    at = client_time(app, body.at)
    key = check_client_key("Idempotency-Key", idempotency_key)
    # The key is bound to the request as the client sent it (not to what it derives from the
    # state at the time, such as the concept a check is routed to).
    request_hash = request_digest({"route": "episodes", "body": body.model_dump(mode="json")})
    # A retry (and its 409, 410, and the catch-up of what a first attempt left undone) is the
    # use case's: the same at every door.
    added = app.episodes.add(
        pair,
        body.kind,
        body.text,
        evidence=body.given_evidence(),
        at=at,
        summary=body.summary,
        concepts=body.concepts,
        salience=body.salience,
        recalled_ids=body.recalled_ids,
        ref=body.ref,
        idempotency_key=key,
        request_hash=request_hash,
    )
    return EpisodeResponse.of(
        added.append,
        taught=added.taught.concept_name if added.taught else None,
        belief=added.belief.line() if added.belief else None,
    )
