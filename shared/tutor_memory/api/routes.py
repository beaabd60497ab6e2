"""The turn API: one set of routes for API Gateway (functions/api) and ``tutor-memory serve``.

Every route is under ``/pairs/{student_id}/{subject_id}``: the pair is in the path, so a route
can never reach another pair. Routes parse (pydantic), make one call into the use cases, and
map the result; errors map to HTTP in one place (``ERROR_HANDLERS``), never in a route:

==========================================  ======
domain error                                status
==========================================  ======
ValidationError, unreadable file, bad JSON  400 / 422 (pydantic's field errors)
NotFoundError (unknown pair, episode)       404
ConflictError (also contention)             409
a model call that may succeed later         503
a model call that will not                  502
StoreError                                  503
==========================================  ======
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Header, Query
from aws_lambda_powertools.metrics import MetricUnit

from tutor_memory.api.models import (
    BeliefResponse,
    ChainResponse,
    EpisodeRequest,
    EpisodeResponse,
    FileResponse,
    PromptRequest,
    PromptResponse,
    PromptSection,
    RederiveRequest,
    RederiveResponse,
    ReportResponse,
    SourceResponse,
    StanceRequest,
    StanceResponse,
    TurnRequest,
    TurnResponse,
)
from tutor_memory.bootstrap import App
from tutor_memory.domain import constants as C
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.episodes import (
    CheckEvidence,
    Kind,
    Pair,
    QuizEvidence,
)
from tutor_memory.domain.errors import (
    ConflictError,
    ModelCallError,
    NotFoundError,
    StoreError,
    TutorMemoryError,
    ValidationError,
)
from tutor_memory.ports import AppendResult
from tutor_memory.reports import Reports, report_json
from tutor_memory.turns import TurnResult

PAIR = "/pairs/<student_id>/<subject_id>"
IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]
HistoryOf = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=C.MAX_CONCEPT_CHARS,
        description="a concept's name or key: add the history of the belief about it",
    ),
]


def _error(status: int, message: str, fields: list[dict[str, Any]] | None = None) -> Response[Any]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body={"error": message, "fields": fields or []},
    )


def _invalid_request(exc: RequestValidationError) -> Response[Any]:
    fields = [
        {"field": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
        for e in exc.errors()
    ]
    shown = "; ".join(f"{f['field']}: {f['problem']}" for f in fields[:5])
    return _error(422, f"the request is not valid: {shown}", fields)


def _invalid(exc: ValidationError) -> Response[Any]:
    return _error(422, str(exc), [{"field": exc.field, "problem": exc.problem}])


def _model_failed(exc: ModelCallError) -> Response[Any]:
    return _error(503 if exc.retryable else 502, str(exc))


def _store_failed(exc: StoreError) -> Response[Any]:
    return _error(503, f"the memory store is unavailable: {exc}")


# The one exception → HTTP mapping (the most specific class first).
ERROR_HANDLERS: tuple[tuple[type[Exception], Callable[[Any], Response[Any]]], ...] = (
    (RequestValidationError, _invalid_request),
    (ValidationError, _invalid),
    (NotFoundError, lambda exc: _error(404, str(exc))),
    (ConflictError, lambda exc: _error(409, str(exc))),
    (ModelCallError, _model_failed),
    (StoreError, _store_failed),
    (TutorMemoryError, lambda exc: _error(400, str(exc))),
)


def _belief(b: Belief) -> BeliefResponse:
    return BeliefResponse(
        id=b.belief_id,
        concept_key=b.concept_key,
        concept=b.concept_name,
        claim=b.claim.value,
        confidence=b.confidence,
        line=b.line(),
        evidence_ids=list(b.evidence_ids),
        created_at=b.created_at,
        reason=b.reason,
        needs_confirmation=b.needs_confirmation,
        superseded_by=b.superseded_by,
        retired_at=b.retired_at,
    )


def _episode(result: AppendResult, **extra: str | None) -> EpisodeResponse:
    ep = result.episode
    return EpisodeResponse(
        id=ep.episode_id,
        seq=ep.seq,
        kind=ep.kind.value,
        at=ep.at,
        summary=ep.summary,
        ref=ep.ref,
        created=result.created,
        **extra,
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


def build_resolver(
    get_app: Callable[[], App], *, metrics: Metrics | None = None, logger: Logger | None = None
) -> APIGatewayRestResolver:
    """The routes, bound to an App that is built on first use (never at import). With a
    Powertools ``metrics`` and ``logger`` (the Lambda's), a turn records its metrics and every
    log line carries the pair."""
    resolver = APIGatewayRestResolver(enable_validation=True)
    for exc_type, handler in ERROR_HANDLERS:
        resolver.exception_handler(exc_type)(handler)

    def known_pair(student_id: str, subject_id: str) -> Pair:
        pair = Pair(student_id, subject_id)
        if logger is not None:
            logger.append_keys(pair=str(pair))
        if get_app().memory.store.head(pair) is None:
            raise NotFoundError(
                f"no record of {pair}: record an episode or upload a file for it first"
            )
        return pair

    @resolver.post(f"{PAIR}/turn")
    def turn(student_id: str, subject_id: str, body: TurnRequest) -> TurnResponse:
        result = get_app().turns.turn(
            known_pair(student_id, subject_id),
            body.question,
            at=body.at,
            budget_tokens=body.budget_tokens,
        )
        if metrics is not None:
            record_turn_metrics(metrics, result)
        return TurnResponse(
            block=result.block,
            memory_ids=list(result.memory_ids),
            belief_ids=list(result.belief_ids),
            map_concepts=list(result.map_concepts),
            dropped=result.dropped,
            record_question=result.record_question,
            window=result.window,
            window_empty=result.window_empty,
            tokens=result.tokens,
            timings_ms=result.timings_ms,
        )

    @resolver.post(f"{PAIR}/episodes")
    def add_episode(
        student_id: str,
        subject_id: str,
        body: EpisodeRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> EpisodeResponse:
        return record_episode(get_app(), Pair(student_id, subject_id), body, idempotency_key)

    @resolver.get(f"{PAIR}/beliefs")
    def beliefs(student_id: str, subject_id: str) -> list[BeliefResponse]:
        pair = known_pair(student_id, subject_id)
        return [_belief(b) for b in get_app().learning.beliefs(pair)]

    @resolver.get(f"{PAIR}/beliefs/<concept>/history")
    def belief_history(student_id: str, subject_id: str, concept: str) -> list[BeliefResponse]:
        pair = known_pair(student_id, subject_id)
        rows = get_app().learning.belief_history(pair, concept)
        if not rows:
            raise NotFoundError(f"no belief about {concept!r} for {pair}")
        return [_belief(b) for b in rows]

    @resolver.post(f"{PAIR}/answers/<answer_id>/stance")
    def stance(
        student_id: str, subject_id: str, answer_id: str, body: StanceRequest
    ) -> StanceResponse:
        pair = known_pair(student_id, subject_id)
        note = get_app().turns.set_stance(pair, answer_id, body.stance)
        return StanceResponse(answer_id=answer_id, stance=note.value, at=note.at)

    @resolver.get(f"{PAIR}/answers/<answer_id>/sources")
    def sources(student_id: str, subject_id: str, answer_id: str) -> list[SourceResponse]:
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

    @resolver.get(f"{PAIR}/map")
    def concept_map(student_id: str, subject_id: str) -> dict[str, Any]:
        pair = known_pair(student_id, subject_id)
        cmap = get_app().maps.maps.load_map(pair)
        return {"edges": [list(e) for e in cmap.edges()], **cmap.to_dict()}

    @resolver.get(f"{PAIR}/report")
    def report(student_id: str, subject_id: str, history: HistoryOf = None) -> ReportResponse:
        pair = known_pair(student_id, subject_id)
        built = Reports.of(get_app()).report(pair, history=history)
        return ReportResponse.model_validate(report_json(built))

    @resolver.get(f"{PAIR}/chain/verify")
    def verify_chain(student_id: str, subject_id: str) -> ChainResponse:
        report = get_app().memory.verify_chain(known_pair(student_id, subject_id))
        return ChainResponse(
            intact=report.intact,
            episodes=report.episodes,
            head_hash=report.head_hash,
            break_seq=report.break_seq,
            break_kind=report.break_kind,
            detail=report.detail,
            report=str(report),
        )

    @resolver.post(f"{PAIR}/prompt")
    def prompt(student_id: str, subject_id: str, body: PromptRequest) -> PromptResponse:
        placed = get_app().turns.prompt(
            known_pair(student_id, subject_id),
            body.question,
            system=body.system,
            material=body.material,
            assessment=body.assessment,
            at=body.at,
            budget_tokens=body.budget_tokens,
        )
        result = placed.turn
        if metrics is not None:
            record_turn_metrics(metrics, result)
        return PromptResponse(
            prompt=placed.text,
            sections=[PromptSection(title=t, text=x) for t, x in placed.sections],
            block=result.block,
            memory_ids=list(result.memory_ids),
            belief_ids=list(result.belief_ids),
            map_concepts=list(result.map_concepts),
            dropped=result.dropped,
            record_question=result.record_question,
            window=result.window,
            window_empty=result.window_empty,
            tokens=result.tokens,
            timings_ms=result.timings_ms,
        )

    @resolver.post(f"{PAIR}/beliefs/rederive")
    def rederive(student_id: str, subject_id: str, body: RederiveRequest) -> RederiveResponse:
        done = get_app().learning.rederive(
            known_pair(student_id, subject_id), at=body.at, force=body.force, reason=body.reason
        )
        return RederiveResponse(
            retired=done.retired,
            created=done.created,
            generation=done.generation,
            changed=done.changed,
        )

    @resolver.delete(f"{PAIR}/files/<file_id>")
    def remove_file(student_id: str, subject_id: str, file_id: str) -> FileResponse:
        record = get_app().memory.remove_file(known_pair(student_id, subject_id), file_id)
        return FileResponse(
            file_id=record.file_id,
            name=record.name,
            versions=len(record.versions),
            removed_at=record.removed_at,
        )

    return resolver


def record_episode(
    app: App, pair: Pair, body: EpisodeRequest, idempotency_key: str | None
) -> EpisodeResponse:
    """One episode through the use case its kind belongs to. A student's question is first
    read for an explicit instruction to remember ("remember that …"): that teaches the map."""
    common: dict[str, Any] = {"at": body.at, "ref": body.ref, "idempotency_key": idempotency_key}
    if body.kind in ("question", "taught"):
        taught = app.maps.teach(pair, body.text, **common)
        if taught is not None:
            return _episode(taught.append, taught=taught.concept_name)
        if body.kind == "taught":
            raise ValidationError(
                "text", 'is not an instruction to remember (say "remember that …")'
            )
        return _episode(
            app.memory.record(pair, Kind.QUESTION, body.text, concepts=body.concepts, **common)
        )
    if body.kind == "check":
        if body.check is None:
            raise ValidationError("check", "is required for a check")
        evidence = CheckEvidence(
            body.check.topic,
            body.check.verdict,
            body.check.evaluation,
            body.check.predicted_mastery,
        )
        result = app.learning.record_check(pair, body.text, evidence, **common)
        return _episode(result.append, belief=result.belief.line() if result.belief else None)
    if body.kind == "quiz":
        if body.quiz is None:
            raise ValidationError("quiz", "is required for a quiz")
        quiz = QuizEvidence(body.quiz.score, body.quiz.maximum, tuple(body.quiz.topics))
        return _episode(
            app.memory.record(
                pair, Kind.QUIZ, body.text, evidence=quiz, concepts=body.concepts, **common
            )
        )
    citation = body.citation
    return _episode(
        app.turns.record_answer(
            pair,
            body.text,
            recalled_ids=body.recalled_ids,
            file_id=citation.file_id if citation else None,
            page=citation.page if citation else None,
            **common,
        )
    )
