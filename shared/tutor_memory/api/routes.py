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
NotAuthenticatedError (no or a bad key)     401
IdentityProviderError (its keys unfetched)  503
ForbiddenError (the caller's role refused)  403
NotFoundError (unknown pair, episode,       404
another tenant's record)
ConflictError (also contention)             409
ErasedError (a retry of an erased write)    410
a model call that may succeed later         503
a model call that will not                  502
StoreError                                  503
==========================================  ======
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from re import Match
from typing import TYPE_CHECKING, Annotated, Any, Literal
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
from pydantic import AfterValidator, StringConstraints
from pydantic_core import PydanticCustomError

from tutor_memory.api import calls
from tutor_memory.api.access import (
    described,
    logged_ids,
    quiet_wordy_loggers,
    route_params,
)
from tutor_memory.api.models import (
    PROFILE_KEY_PATTERN,
    BeliefPage,
    BeliefResponse,
    ChainResponse,
    ClassFileRequest,
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
    Moment,
    ProblemResponse,
    ProfileRequest,
    ProfileResponse,
    PromptRequest,
    PromptResponse,
    RecallResponse,
    RederiveRequest,
    RederiveResponse,
    ReportResponse,
    SourceResponse,
    StanceRequest,
    StanceResponse,
    StatementResponse,
    TurnRequest,
    TurnResponse,
    a_file_id,
    named,
)
from tutor_memory.api.operations import BY_ROUTE, EPISODE_LINKS, operation
from tutor_memory.domain import constants as C
from tutor_memory.domain.access import KEY_PREFIX, Caller, Role
from tutor_memory.domain.episodes import (
    FILE_ID_PATTERN,
    NAME_PATTERN,
    SOME_LINE_PATTERN,
    Pair,
)
from tutor_memory.domain.errors import (
    ConflictError,
    ContentionError,
    ErasedError,
    ForbiddenError,
    IdempotencyConflictError,
    IdentityProviderError,
    ModelCallError,
    NotAuthenticatedError,
    NotFoundError,
    NotTeachingError,
    StoreError,
    TutorMemoryError,
    ValidationError,
)
from tutor_memory.domain.failures import failure_trace
from tutor_memory.domain.paging import (
    CURSOR_PATTERN,
    DEFAULT_PAGE_ITEMS,
    EXPORT_CURSOR_CHARS,
    EXPORT_CURSOR_PATTERN,
)

if TYPE_CHECKING:  # the App and its use cases are built on the first request, not at import
    from tutor_memory.bootstrap import App
    from tutor_memory.usecases.turns import TurnResult

# The path's ids as the domain accepts them (check_id), so the document says what is refused.
_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._@-]*$"
StudentId = Annotated[str, Path(pattern=_ID_PATTERN, max_length=C.MAX_ID_CHARS)]
SubjectId = Annotated[str, Path(pattern=_ID_PATTERN, max_length=C.MAX_ID_CHARS)]
ClassId = Annotated[str, Path(pattern=_ID_PATTERN, max_length=C.MAX_ID_CHARS)]
AspectName = Annotated[
    Literal["name", "preference", "accommodation", "language", "goal", "other"],
    Path(description="what the statement is about (domain/profile.py)"),
]
ProfileKey = Annotated[
    str,
    Query(
        max_length=C.MAX_PROFILE_KEY_CHARS,
        description="which one of the aspect ('' for one)",
        json_schema_extra={"pattern": PROFILE_KEY_PATTERN},
    ),
]
# An episode's id is an id as the store makes them ("e12-3f…"): one of other characters is refused.
EpisodeId = Annotated[
    str,
    Path(
        pattern=_ID_PATTERN,
        max_length=C.MAX_ID_CHARS,
        description="an episode's id as the API answered it: one the pair does not hold is a "
        "404, and an answer's route given an episode of another kind is a 422 naming it",
    ),
]
# A file id keeps its name's script (check_file_id): the pattern admits what may be one, and
# one that may not is refused as the document says (a 422 naming it), not looked up.
FileId = Annotated[
    str,
    AfterValidator(a_file_id),
    Path(max_length=C.MAX_ID_CHARS, json_schema_extra={"pattern": FILE_ID_PATTERN}),
]
# A concept as users name it: any script, but something visible and no control character.
# The length before the check, so that a refusal counts characters, not "items" (api.models).
ConceptName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=C.MAX_CONCEPT_CHARS),
    AfterValidator(named),
    Path(json_schema_extra={"pattern": NAME_PATTERN}),
]


def _client_key(key: str | None) -> str | None:
    """An Idempotency-Key: visible, no control character, at most its length. The length is
    checked here, not by ``Header(max_length=…)``, whose refusal read "List should have at
    most 128 items" (a header may repeat); the document still says maxLength."""
    if key is None:
        return None
    if len(key) > C.MAX_IDEMPOTENCY_KEY_CHARS:
        raise PydanticCustomError(
            "too_long", f"must be at most {C.MAX_IDEMPOTENCY_KEY_CHARS} characters"
        )
    return named(key)


IdempotencyKey = Annotated[
    str | None,
    AfterValidator(_client_key),
    Header(
        alias="Idempotency-Key",
        json_schema_extra={"pattern": NAME_PATTERN, "maxLength": C.MAX_IDEMPOTENCY_KEY_CHARS},
    ),
]
HistoryOf = Annotated[
    str | None,
    AfterValidator(lambda name: name if name is None else named(name)),
    Query(
        min_length=1,
        max_length=C.MAX_CONCEPT_CHARS,
        description="a concept's name or key: add the history of the belief about it (one "
        "no belief is about is a 404; a name without a letter or digit in any script names no "
        "concept, a 422)",
        json_schema_extra={"pattern": NAME_PATTERN},
    ),
]

ErasureReason = Annotated[
    str,
    Query(
        min_length=1,
        max_length=C.MAX_ERASURE_REASON_CHARS,
        description="why the erasure was asked for, one line: kept in the erasure record",
        json_schema_extra={"pattern": SOME_LINE_PATTERN},
    ),
]
RequestedBy = Annotated[
    str,
    Query(
        pattern=_ID_PATTERN,
        max_length=C.MAX_ID_CHARS,
        description="who asked, as an id (kept too)",
    ),
]

RecallQuestion = Annotated[
    str,
    # A question in a URL: bounded so that, percent-encoded, it stays inside a request line.
    Query(min_length=1, max_length=C.MAX_NOTE_CHARS, description="a question, as a student asks"),
]

RecallAt = Annotated[
    Moment | None,
    Query(
        description="recall as of this time (RFC 3339), from 1970-01-01T00:00:00Z to a day past "
        "the server's clock; the server's clock when absent"
    ),
]

PageLimit = Annotated[
    int,
    Query(
        ge=1,
        le=C.MAX_PAGE_ITEMS,
        description=f"at most this many items in the page (default {DEFAULT_PAGE_ITEMS})",
    ),
]
Cursor = Annotated[
    str | None,
    Query(
        pattern=CURSOR_PATTERN,
        description="the `next` of the previous page, as it was given (absent: the first page)",
    ),
]
ExportLimit = Annotated[
    int,
    Query(
        ge=1,
        le=C.MAX_PAGE_ITEMS,
        description=f"at most this many history lines (episodes) in the page (default "
        f"{DEFAULT_PAGE_ITEMS}); a page also stops before it passes about 2.5 MB, one line "
        "always going, so that it fits in a Lambda's answer (6 MB)",
    ),
]
ExportCursor = Annotated[
    str | None,
    Query(
        pattern=EXPORT_CURSOR_PATTERN,
        max_length=EXPORT_CURSOR_CHARS,
        description="the `next` of the previous page, as it was given (absent: the first page, "
        "with the manifest); the pages are of the pairs and heads the first page found, and a "
        "`next` of another export is a 422",
    ),
]

PROBLEM_JSON = "application/problem+json"
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="tutor-memory"'}  # RFC 9110: a 401 names its scheme


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


# --- reading a body: JSON as RFC 8259 has it, nothing guessed --------------------------------

MAX_NUMBER_DIGITS = 40  # ours: every number the API takes is far shorter (a page, a score)


class _Overlong:
    """Where an integer literal longer than :data:`MAX_NUMBER_DIGITS` stood (never turned
    into an int: Python refuses past 4,300 digits, and the work grows with the length)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _Twice:
    """Where a member's name appeared twice in one object (JSON parsers keep either)."""


def _integer(literal: str) -> int | _Overlong:
    digits = len(literal.lstrip("-"))
    return _Overlong(digits) if digits > MAX_NUMBER_DIGITS else int(literal)


def _not_a_number(literal: str) -> Any:
    # Python's json reads NaN and Infinity; JSON has neither.
    raise json.JSONDecodeError(f"{literal} is not JSON", literal, 0)


def _members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, value in pairs:
        found[name] = _Twice() if name in found else value
    return found


def strict_json(text: str | bytes | bytearray) -> Any:
    """The body as JSON, strictly (the resolver's deserializer, so both backends read alike):
    no NaN or Infinity (400, not JSON), and an integer of more than :data:`MAX_NUMBER_DIGITS`
    digits or a member given twice refused as a 422 naming where it stood (``body.page``)."""
    data = json.loads(
        text, parse_int=_integer, parse_constant=_not_a_number, object_pairs_hook=_members
    )
    errors: list[dict[str, Any]] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [(("body",), data)]
    while stack:  # breadth, not recursion: the parser has already bounded the depth
        loc, value = stack.pop()
        if isinstance(value, _Overlong):
            errors.append({"type": "number_too_long", "loc": loc, "input": None,
                           "msg": f"is a number of {value.digits:,} digits; the limit is "
                                  f"{MAX_NUMBER_DIGITS}"})  # fmt: skip
        elif isinstance(value, _Twice):
            errors.append({"type": "duplicate_member", "loc": loc, "input": None,
                           "msg": "is given twice in one object"})  # fmt: skip
        elif isinstance(value, dict):
            stack.extend(((*loc, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*loc, i), v) for i, v in enumerate(value))
    if errors:
        raise RequestValidationError(sorted(errors, key=lambda e: [str(p) for p in e["loc"]]))
    return data


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
    (NotAuthenticatedError, lambda exc: Problem(401, "not-authenticated", str(exc))),
    (ForbiddenError, lambda exc: Problem(403, "forbidden", str(exc))),
    (NotFoundError, lambda exc: Problem(404, "not-found", str(exc))),
    (ConflictError, _conflict),
    (ErasedError, lambda exc: Problem(410, "erased", str(exc))),
    (ModelCallError, _model_failed),
    (StoreError, _store_failed),
    (IdentityProviderError, lambda exc: Problem(503, "identity-provider-unavailable", str(exc))),
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
    """Turn latency, dropped blocks, turns recalled without the question's meaning (the model
    failed or was late) and recall pool sizes (CloudWatch embedded metrics)."""
    total = result.timings_ms.get("total", result.timings_ms.get("waited", 0.0))
    metrics.add_metric(name="TurnLatency", unit=MetricUnit.Milliseconds, value=total)
    metrics.add_metric(name="DroppedBlocks", unit=MetricUnit.Count, value=int(result.dropped))
    if result.recall is not None:
        missed = int(result.recall.meaning_missed)
        metrics.add_metric(name="RecallWithoutMeaning", unit=MetricUnit.Count, value=missed)
        for pool, size in sorted(result.recall.pool_sizes.items()):
            name = "RecallPool" + "".join(w.title() for w in pool.replace("'", "").split())
            metrics.add_metric(name=name, unit=MetricUnit.Count, value=size)


def _is_jwt(credential: str) -> bool:
    """Three dot-separated segments: a token to verify, never one of the memory's API keys."""
    return credential.count(".") == 2 and not credential.startswith(KEY_PREFIX)


# An erasure of whole pairs stops starting steps (500 bodies each) once the API Lambda has less
# than this left of its 15 s, and answers 202 with the rest sent to the workers: a request's
# first step on DynamoDB counted 77 requests on moto (its pass, entries and marks included:
# docs/benchmarks.md), and a pair that finishes still has its items, uploads and index to
# delete before the answer; API Gateway would answer a Lambda timeout with a 5xx.
ERASURE_ANSWER_MS = 7_000
# A 202's Retry-After: a worker's batch of the nightly queue runs up to 180 s, and most pairs
# it is handed finish within one.
ERASURE_ASK_AGAIN_S = 60


class DecodingResolver(APIGatewayRestResolver):
    """The REST resolver, with path parameters percent-decoded.

    API Gateway's REST events (and ``tutor-memory serve``'s, made in their image) carry the
    path as the client encoded it, and Powertools matches it as it is: without this,
    ``beliefs/pH%20scale/history`` would look for a concept named "pH%20scale"."""

    def _convert_matches_into_route_keys(self, match: Match[str]) -> dict[str, str]:
        return {name: unquote(value) for name, value in match.groupdict().items()}


def build_resolver(
    get_app: Callable[[], App],
    *,
    metrics: Metrics | None = None,
    logger: Logger | None = None,
    anonymous: Caller | Literal["gateway"] | None = "gateway",
    tenant_app: Callable[[str], App] | None = None,
    tokens: Callable[[str], dict[str, Any]] | None = None,
) -> APIGatewayRestResolver:
    """The routes, bound to an App that is built on first use (never at import). With a
    Powertools ``metrics`` and ``logger`` (the Lambda's), a turn records its metrics and every
    log line carries the pair. ``anonymous``: who a request without credentials is —
    ``"gateway"`` behind API Gateway's IAM authorisation (it let only the tenant's backend
    through), None for ``serve`` (a 401), a ``Caller`` for ``serve --insecure-no-auth``.
    ``tenant_app``: the App of a tenant (the API function's, one per tenant): a request whose
    verified claims name a tenant is served by that tenant's App, whose stores' keys all begin
    with the tenant, so it cannot address another tenant's records (they answer 404);
    without it, every request is served by ``get_app``'s. ``tokens``: ``serve``'s verifier of a
    bearer JWT (``adapters/jwt_tokens``), whose claims then make the caller as an authoriser's
    do; without it a bearer is taken for an API key."""
    resolver = DecodingResolver(enable_validation=True, json_body_deserializer=strict_json)

    def claims() -> dict[str, Any]:
        """The claims API Gateway's authoriser verified (a JWT's), else none."""
        context = resolver.current_event.raw_event.get("requestContext") or {}
        found = (context.get("authorizer") or {}).get("claims")
        return found if isinstance(found, dict) else {}

    def request_app() -> App:
        verified = claims() if tenant_app is not None else {}
        if tenant_app is None or not verified:
            return get_app()
        try:
            return tenant_app(str(verified.get("custom:tenant") or ""))
        except ValidationError as exc:  # a token whose tenant cannot name one
            raise NotAuthenticatedError(
                f"the token's custom:tenant is not a tenant: {exc}"
            ) from exc

    quiet_wordy_loggers()  # logs carry a route's template and ids, never its words
    log: Logger | logging.Logger = logger if logger is not None else logging.getLogger(__name__)

    def caller() -> Caller:
        """Who sent the request: the claims API Gateway's authoriser verified (a JWT's), else
        a bearer JWT ``tokens`` verifies, else an API key the memory issued (``Authorization:
        Bearer tm_…`` or ``X-API-Key``), else ``anonymous`` (behind an IAM-authorised gateway:
        the tenant's service), else a 401."""
        app = request_app()
        raw = resolver.current_event.raw_event
        headers = {str(k).lower(): str(v) for k, v in (raw.get("headers") or {}).items()}
        bearer = headers.get("authorization", "")
        key = headers.get("x-api-key") or (
            bearer[7:].strip() if bearer[:7].lower() == "bearer " else None
        )
        verified = claims()
        if not verified and key and tokens is not None and _is_jwt(key):
            verified = tokens(key)  # raises the 401 that says why
        if verified:  # a token's caller: never the gateway's service, whatever it lacks
            try:
                role = Role(str(verified.get("custom:role") or ""))
            except ValueError:
                raise NotAuthenticatedError(
                    f"the token's custom:role is none of {', '.join(r.value for r in Role)}"
                ) from None
            tenant = str(verified.get("custom:tenant") or "")
            if not tenant:
                raise NotAuthenticatedError("the token names no tenant (custom:tenant)")
            return Caller(
                tenant,
                role,
                str(verified.get("custom:id") or verified.get("sub") or ""),
            )
        if key:
            return app.access.caller_of(key)
        if anonymous == "gateway":
            return Caller(app.access.tenant, Role.SERVICE, "gateway")
        if isinstance(anonymous, Caller):
            return anonymous
        return app.access.caller_of(None)  # the 401

    def op_route(name: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """The table's operation ``name`` (``route``), called only by whom its roles allow."""
        register = route(resolver, name, **kwargs)

        def decorate(handler: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(handler)
            def guarded(*args: Any, **params: Any) -> Any:
                student, subject = params.get("student_id"), params.get("subject_id")
                with calls.authorised(request_app(), caller(), name, student, subject):
                    return handler(*args, **params)

            return register(guarded)

        return decorate

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
            lambda exc, to_problem=to_problem: answer(
                problem := to_problem(exc), CHALLENGE if problem.status == 401 else None
            )
        )

    def refused_first() -> Problem | None:
        """The 401, 403 or (another tenant's) 404 the caller gets whatever it sends: told
        before what is wrong with the request, which Powertools checks before any handler
        runs (so an unknown caller learns nothing of an operation's body or query)."""
        try:
            event = resolver.current_event
            template, params = route_params(resolver, event.http_method, event.path)
            op = BY_ROUTE.get((event.http_method.upper(), template))
            ids, class_id = logged_ids(params), params.get("class_id")
        except Exception:  # no event: a handler called directly
            return None
        student, subject = ids.get("student_id"), ids.get("subject_id")
        if op is None or "?" in (student, subject):  # a malformed id: the 422 names it
            return None
        try:
            who, app = caller(), request_app()
            app.access.check(who, op.roles, student, subject)
            if class_id is not None and op.method != "GET":  # a class's own staff only
                app.access.check_class(who, class_id)
        except (NotAuthenticatedError, ForbiddenError, NotFoundError) as exc:
            return next(to(exc) for kind, to in ERROR_HANDLERS if isinstance(exc, kind))
        except TutorMemoryError:  # the directory out of reach: the request's own 422 stands
            return None
        return None

    def invalid_request(exc: RequestValidationError) -> Response[Any]:
        problem = refused_first() or _invalid_request(exc)
        return answer(problem, CHALLENGE if problem.status == 401 else None)

    resolver.exception_handler(RequestValidationError)(invalid_request)

    def unexpected(exc: Exception) -> Response[Any]:
        path, correlation_id = where()
        try:
            method = resolver.current_event.http_method
        except Exception:
            method = ""
        route = described(resolver, method, path)  # the template and ids: never the words
        log.error(
            "unhandled error answering %s (correlation id %s)\n%s",
            route,
            correlation_id,
            failure_trace(exc),  # not exc_info: the message may quote the request's words
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

    def pair_of(student_id: str, subject_id: str) -> Pair:
        pair = Pair(student_id, subject_id)
        if logger is not None:
            logger.append_keys(pair=str(pair))
        return pair

    # The reference, served where the API is: the document and a page made from the table.
    @resolver.get("/openapi.json", include_in_schema=False)
    def openapi_document() -> Response[str]:
        return Response(200, "application/json", openapi_json())

    @resolver.get("/docs", include_in_schema=False)
    def docs() -> Response[str]:
        from tutor_memory.api.docs_page import render_docs

        return Response(200, "text/html; charset=utf-8", render_docs())

    # Each route parses, makes its one call (api/calls.py, shared with the library's local
    # door) and returns the answer; its method, path and statuses come from the table.

    @op_route("turn")
    def turn(student_id: StudentId, subject_id: SubjectId, body: TurnRequest) -> TurnResponse:
        result = calls.turn_result(
            request_app(),
            pair_of(student_id, subject_id),
            body.question,
            body.at,
            body.budget_tokens,
        )
        if metrics is not None:
            record_turn_metrics(metrics, result)
        return TurnResponse(**TurnResponse.fields(result))

    @op_route("prompt")
    def prompt(student_id: StudentId, subject_id: SubjectId, body: PromptRequest) -> PromptResponse:
        placed = calls.prompt_placed(request_app(), pair_of(student_id, subject_id), body)
        if metrics is not None:
            record_turn_metrics(metrics, placed.turn)
        return calls.prompt_response(placed)

    @op_route("addEpisode", links=EPISODE_LINKS)
    def add_episode(
        student_id: StudentId,
        subject_id: SubjectId,
        body: EpisodeRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[EpisodeResponse]:
        episode = calls.add_episode(
            request_app(), pair_of(student_id, subject_id), body, idempotency_key
        )
        # 201: written now; 200: a retry (same Idempotency-Key, same body) finds it written.
        status = 201 if episode.created else 200
        return Response(status_code=status, content_type="application/json", body=episode)

    @op_route("correctEpisode")
    def correct_episode(
        student_id: StudentId,
        subject_id: SubjectId,
        episode_id: EpisodeId,
        body: CorrectionRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[EpisodeResponse]:
        episode = calls.correct_episode(
            request_app(), caller(), pair_of(student_id, subject_id), episode_id, body,
            idempotency_key,
        )  # fmt: skip
        return Response(
            status_code=201 if episode.created else 200,
            content_type="application/json",
            body=episode,
        )

    @op_route("listEpisodes")
    def list_episodes(
        student_id: StudentId,
        subject_id: SubjectId,
        limit: PageLimit = DEFAULT_PAGE_ITEMS,
        next: Cursor = None,
    ) -> EpisodePage:
        return calls.episodes(request_app(), pair_of(student_id, subject_id), limit, next)

    @op_route("beliefs")
    def beliefs(student_id: StudentId, subject_id: SubjectId) -> list[BeliefResponse]:
        return calls.beliefs(request_app(), pair_of(student_id, subject_id))

    @op_route("beliefHistory")
    def belief_history(
        student_id: StudentId,
        subject_id: SubjectId,
        concept: ConceptName,
        limit: PageLimit = DEFAULT_PAGE_ITEMS,
        next: Cursor = None,
    ) -> BeliefPage:
        pair = pair_of(student_id, subject_id)
        return calls.belief_history(request_app(), pair, concept, limit, next)

    @op_route("rederiveBeliefs")
    def rederive(
        student_id: StudentId, subject_id: SubjectId, body: RederiveRequest
    ) -> RederiveResponse:
        return calls.rederive(request_app(), pair_of(student_id, subject_id), body)

    @op_route("setStance")
    def stance(
        student_id: StudentId, subject_id: SubjectId, answer_id: EpisodeId, body: StanceRequest
    ) -> StanceResponse:
        pair = pair_of(student_id, subject_id)
        return calls.set_stance(request_app(), pair, answer_id, body.stance)

    @op_route("sources")
    def sources(
        student_id: StudentId, subject_id: SubjectId, answer_id: EpisodeId
    ) -> list[SourceResponse]:
        return calls.sources(request_app(), pair_of(student_id, subject_id), answer_id)

    @op_route("conceptMap")
    def concept_map(student_id: StudentId, subject_id: SubjectId) -> dict[str, Any]:
        cmap = calls.concept_map(request_app(), pair_of(student_id, subject_id))
        return {"edges": [list(e) for e in cmap.edges()], **cmap.to_dict()}

    @op_route("report")
    def report(
        student_id: StudentId, subject_id: SubjectId, history: HistoryOf = None
    ) -> ReportResponse:
        return calls.report(request_app(), pair_of(student_id, subject_id), history)

    # The inspector (issue 15): the page. Imported on use, so the turn's cold start never
    # loads it.
    @op_route("inspectPair", page="the inspector page")
    def inspect(student_id: StudentId, subject_id: SubjectId) -> Response[str]:
        from tutor_memory.inspector_html import render_page

        app = request_app()
        data = app.inspector.inspect(calls.known(app, pair_of(student_id, subject_id)))
        return Response(200, "text/html; charset=utf-8", render_page(data, served=True))

    @op_route("whyRecalled")
    def recall(
        student_id: StudentId, subject_id: SubjectId, q: RecallQuestion, at: RecallAt = None
    ) -> RecallResponse:
        return calls.recall(request_app(), pair_of(student_id, subject_id), q, at)

    @op_route("verifyChain")
    def verify_chain(student_id: StudentId, subject_id: SubjectId) -> ChainResponse:
        return calls.verify(request_app(), pair_of(student_id, subject_id))

    @op_route("removeFile")
    def remove_file(student_id: StudentId, subject_id: SubjectId, file_id: FileId) -> FileResponse:
        return calls.remove_file(request_app(), pair_of(student_id, subject_id), file_id)

    # --- erasure (see tutor_memory.usecases.erasure) ----------------------------------------

    @op_route("eraseEpisode")
    def erase_episode(
        student_id: StudentId,
        subject_id: SubjectId,
        episode_id: EpisodeId,
        reason: ErasureReason,
        requested_by: RequestedBy = "api",
    ) -> ErasureResponse:
        pair = pair_of(student_id, subject_id)
        return calls.erase_episode(request_app(), pair, episode_id, reason, requested_by)

    def erasure_time_up() -> Callable[[], bool] | None:
        """Whether the request's time for an erasure is up: the Lambda's time left is less
        than ``ERASURE_ANSWER_MS`` (None outside Lambda: ``serve`` waits for all of it)."""
        remaining = getattr(resolver.lambda_context, "get_remaining_time_in_millis", None)
        if not callable(remaining):
            return None
        return lambda: int(remaining()) < ERASURE_ANSWER_MS

    def erasure_answer(done: ErasureResponse) -> Response[ErasureResponse]:
        if done.finished:
            return Response(status_code=200, content_type="application/json", body=done)
        # 202: a worker goes on with what the request's time did not cover; ask again later
        return Response(
            status_code=202,
            content_type="application/json",
            body=done,
            headers={"Retry-After": str(ERASURE_ASK_AGAIN_S)},
        )

    @op_route("erasePair")
    def erase_pair(
        student_id: StudentId,
        subject_id: SubjectId,
        reason: ErasureReason,
        requested_by: RequestedBy = "api",
    ) -> Response[ErasureResponse]:
        pair = pair_of(student_id, subject_id)
        return erasure_answer(
            calls.erase_pair(request_app(), pair, reason, requested_by, erasure_time_up())
        )

    @op_route("eraseStudent")
    def erase_student(
        student_id: StudentId, reason: ErasureReason, requested_by: RequestedBy = "api"
    ) -> Response[ErasureResponse]:
        return erasure_answer(
            calls.erase_student(request_app(), student_id, reason, requested_by, erasure_time_up())
        )

    # --- export (see tutor_memory.usecases.export) ------------------------------------------

    @op_route("exportPair")
    def export_pair(
        student_id: StudentId,
        subject_id: SubjectId,
        limit: ExportLimit = DEFAULT_PAGE_ITEMS,
        next: ExportCursor = None,
    ) -> ExportResponse:
        pair = pair_of(student_id, subject_id)
        return calls.export_page(request_app(), pair.student_id, pair.subject_id, limit, next)

    @op_route("exportStudent")
    def export_student(
        student_id: StudentId, limit: ExportLimit = DEFAULT_PAGE_ITEMS, next: ExportCursor = None
    ) -> ExportResponse:
        return calls.export_page(request_app(), student_id, None, limit, next)

    # --- the student's profile (see tutor_memory.usecases.profile) ---------------------------

    @op_route("getProfile")
    def get_profile(student_id: StudentId) -> ProfileResponse:
        return calls.profile(request_app(), student_id)

    @op_route("setProfile")
    def set_profile(
        student_id: StudentId, aspect: AspectName, body: ProfileRequest
    ) -> StatementResponse:
        return calls.set_profile(request_app(), caller(), student_id, aspect, body)

    @op_route("retractProfile")
    def retract_profile(
        student_id: StudentId, aspect: AspectName, key: ProfileKey = ""
    ) -> StatementResponse:
        return calls.retract_profile(request_app(), caller(), student_id, aspect, key)

    # --- the roster (see tutor_memory.usecases.access) --------------------------------------

    @op_route("setClass")
    def set_class(class_id: ClassId, body: ClassRequest) -> ClassResponse:
        return calls.set_class(request_app(), caller(), class_id, body)

    @op_route("getClass")
    def get_class(class_id: ClassId) -> ClassResponse:
        return calls.get_class(request_app(), caller(), class_id)

    @op_route("putClassFile")
    def put_class_file(
        class_id: ClassId, subject_id: SubjectId, file_id: FileId, body: ClassFileRequest
    ) -> Response[ClassFileResponse]:
        done = calls.ingest_class_file(
            request_app(), caller(), class_id, subject_id, file_id, body.name,
            calls.class_file_bytes(body),
        )  # fmt: skip
        # 201: read now; 200: the same bytes were read for the class before.
        status = 200 if done.already_read else 201
        return Response(status_code=status, content_type="application/json", body=done)

    return resolver


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
    event, refused = _as_text(event)
    if refused is not None:
        return refused
    refused = _not_an_object(event)
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
            "unhandled error answering %s (correlation id %s)\n%s",
            route,
            correlation_id,
            failure_trace(exc),  # not exc_info: the message may quote the request's words
            extra={"correlation_id": correlation_id, "route": route},
        )
        return {
            "statusCode": 500,
            "headers": {"Content-Type": PROBLEM_JSON},
            "body": json.dumps(INTERNAL.body(path, correlation_id), ensure_ascii=False),
            "isBase64Encoded": False,
        }


def route(
    resolver: APIGatewayRestResolver,
    name: str,
    *,
    links: dict[str, Any] | None = None,
    page: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a handler as the operation ``name`` of the table (api/operations.py): its
    method, path, id, summary and statuses come from there. ``page``: it answers HTML."""
    op = operation(name)
    responses = problems(op.statuses, links, created=op.created, accepted=op.accepted)
    if page is not None:
        responses[200] = {"description": page, "content": {"text/html": {}}}
    return resolver.route(
        op.rule,
        op.method,
        operation_id=op.name,
        summary=op.summary,
        responses=responses,
        # who may call it (domain/access.py), for the reader and for generated clients
        openapi_extensions={"x-roles": sorted(op.roles)},
    )


def problems(
    statuses: tuple[int, ...],
    links: dict[str, Any] | None = None,
    *,
    created: bool = False,
    accepted: bool = False,
) -> dict[int, OpenAPIResponse]:
    """A route's responses: its success (the return type's schema, and ``links`` to the routes
    that read what it wrote) and a problem body for every other status it can answer. A
    ``created`` route answers 201 when it writes, and 200 (the same body) when an idempotent
    retry finds the write already done; an ``accepted`` one 202 (the same body) when a worker
    finishes what the request began."""
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
    if accepted:
        success[202] = {
            "description": "Accepted: the erasure ran out of the request's time; a worker "
            "goes on with it. `pending` names the pairs it still erases and `erased` what "
            "went now; asking again (after `Retry-After`) answers 200 once it has finished",
            "headers": {
                "Retry-After": {
                    "description": "seconds before asking again",
                    "schema": {"type": "integer"},
                }
            },
        }
    return success | {
        status: {
            "description": HTTPStatus(status).phrase,
            "content": {PROBLEM_JSON: {"model": ProblemResponse}},
        }
        for status in sorted(statuses)
    }


def _not_json(event: dict[str, Any]) -> dict[str, Any] | None:
    """A 415 for a body that is not JSON (a form, a multipart upload) or says it is in another
    charset than UTF-8 (RFC 8259: JSON between systems is UTF-8): the routes take JSON only,
    and Powertools would otherwise try to parse a multipart body and fail."""
    if not isinstance(event, dict) or not event.get("body"):
        return None
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media, *parameters = headers.get("content-type", "application/json").split(";")
    media = media.strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        send = "send the body as application/json"
        return _answered(event, Problem(415, "unsupported-media-type", send))
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        charset = value.strip().strip('"').lower()
        if name.strip().lower() == "charset" and charset not in ("utf-8", "utf8"):
            send = f"send the body as UTF-8 JSON, not {charset or 'an unnamed charset'}"
            return _answered(event, Problem(415, "unsupported-media-type", send))
    return None


def _as_text(event: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The event with its body as text, or a 400 if the body is not UTF-8. A body comes as
    base64 when its bytes are not text (``tutor-memory serve`` sends any body that is not UTF-8
    so, as API Gateway sends a binary media type): refused, never read with U+FFFD in place of
    what could not be decoded."""
    if not isinstance(event, dict) or not event.get("isBase64Encoded") or not event.get("body"):
        return event, None
    try:
        text = base64.b64decode(str(event["body"]), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        where = f" (byte {exc.start})" if isinstance(exc, UnicodeDecodeError) else ""
        problem = Problem(
            400, "bad-encoding", f"the body is not UTF-8 text{where}: send JSON in UTF-8"
        )
        return event, _answered(event, problem)
    return {**event, "body": text, "isBase64Encoded": False}, None


def _not_an_object(event: dict[str, Any]) -> dict[str, Any] | None:
    """A 422 for a JSON body that is not an object: every body the API takes is one (the
    fuzz found ``[{}]`` answered as if it were ``{}``: the validation unwrapped the list)."""
    body = event.get("body") if isinstance(event, dict) else None
    if not isinstance(body, str) or not body.strip():
        return None
    try:
        parsed = json.loads(body)
    except (ValueError, RecursionError):
        return None  # not JSON, or nested past reading: the resolver's own refusal says so
    if isinstance(parsed, dict):
        return None
    detail = f"the body must be a JSON object, not {type(parsed).__name__}"
    fields = [{"field": "body", "problem": "must be a JSON object"}]
    return _answered(event, Problem(422, "invalid-request", detail, fields))


def _answered(event: dict[str, Any], problem: Problem) -> dict[str, Any]:
    """An event's answer before the resolver sees it (the problem's instance is its path)."""
    context_of = event.get("requestContext") or {}
    return {
        "statusCode": problem.status,
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


def _no_app() -> App:
    raise RuntimeError("the OpenAPI document is generated from the routes alone")


@functools.cache
def openapi_json() -> str:
    """The OpenAPI document of these routes (committed as infra/openapi.json; served by
    ``GET /openapi.json``)."""
    from tutor_memory.api.openapi import document_json

    return document_json(build_resolver(_no_app))
