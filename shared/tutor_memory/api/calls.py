"""Each operation of the table (``api/operations.py``), written once: the use case it calls and
the answer model it returns. The REST routes parse a request and call these; the library's
local door calls them directly, so the two answer alike (the same 404 for an unknown pair, the
same range check on ``at``, the same idempotency binding).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date, datetime
from typing import TYPE_CHECKING, Final

from tutor_memory.api.models import (
    MAX_CLASS_FILE_BYTES,
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
    NightFailureResponse,
    NightPairResponse,
    NightResponse,
    ProfileRequest,
    ProfileResponse,
    PromptRequest,
    PromptResponse,
    PromptSection,
    RecallResponse,
    RederiveRequest,
    RederiveResponse,
    RejectedConcept,
    ReportResponse,
    SourceResponse,
    StanceResponse,
    StatementResponse,
    TurnResponse,
)
from tutor_memory.api.operations import LISTS_DISCLOSURES, operation
from tutor_memory.domain.access import SERVICE_ONLY, Caller, Role
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import (
    Pair,
    check_client_key,
    check_id,
    check_time_range,
    request_digest,
)
from tutor_memory.domain.errors import ForbiddenError, NotFoundError, ValidationError
from tutor_memory.domain.filetext import UnreadableFileError
from tutor_memory.domain.paging import check_cursor, check_limit
from tutor_memory.domain.profile import current as current_statements
from tutor_memory.domain.profile import profile_report

if TYPE_CHECKING:
    from tutor_memory.bootstrap import App
    from tutor_memory.domain.conceptmap import ConceptMap
    from tutor_memory.usecases.erasure import Erasing
    from tutor_memory.usecases.export import Export
    from tutor_memory.usecases.profile import Profiles
    from tutor_memory.usecases.turns import PromptResult, TurnResult


def authorise(
    app: App, caller: Caller, name: str, student_id: str | None, subject_id: str | None = None
) -> None:
    """Raises unless ``caller`` may call the table's operation ``name`` on this record: the
    check every door makes before it calls (401, 403, or another tenant's 404); a read of
    the record is kept in the record of disclosures before this returns."""
    with authorised(app, caller, name, student_id, subject_id):
        pass


@contextmanager
def authorised(
    app: App, caller: Caller, name: str, student_id: str | None, subject_id: str | None = None
) -> Iterator[None]:
    """``authorise``, with the operation run inside the block: a read's record is written
    while the operation reads, and the answer leaves only once it is kept
    (``Access.allowed``)."""
    op = operation(name)
    read = name if op.discloses else None
    alongside = name not in LISTS_DISCLOSURES  # an export lists its own read: kept first
    with app.access.allowed(
        caller, op.roles, student_id, subject_id, read=read, alongside=alongside
    ):
        yield


def set_class(app: App, caller: Caller, class_id: str, body: ClassRequest) -> ClassResponse:
    done = app.access.set_class(caller.tenant, class_id, body.teachers, body.students)
    app.class_maps.enrol(class_id, done.students)  # their maps follow the class's course maps
    return ClassResponse(**asdict(done))


def ingest_class_file(
    app: App, caller: Caller, class_id: str, subject_id: str, file_id: str, name: str, data: bytes
) -> ClassFileResponse:
    """A file into the class's course map for a subject, read once and folded into its
    students' maps: the service, or one of the class's teachers. A file that cannot be read
    is refused as the request's ``content`` (nothing changes)."""
    app.access.check_class(caller, class_id)
    try:
        done = app.class_maps.ingest(class_id, subject_id, file_id, name, data)
    except UnreadableFileError as exc:
        raise ValidationError("content", str(exc)) from None
    return ClassFileResponse(
        class_id=done.class_id,
        subject_id=done.subject_id,
        file_id=done.file_id,
        already_read=done.already_read,
        concepts=list(done.concepts),
        rejected=[RejectedConcept(name=n, reason=why) for n, why in done.rejected],
        course_version=done.course_version,
        students_updated=done.students_updated,
    )


def class_file_bytes(body: ClassFileRequest) -> bytes:
    """The bytes of a class's file as a JSON body carries them (base64, bounded)."""
    try:
        data = base64.b64decode(body.content, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError("content", "is not base64 (RFC 4648, padded)") from None
    if len(data) > MAX_CLASS_FILE_BYTES:
        raise ValidationError(
            "content", f"holds {len(data):,} bytes; at most {MAX_CLASS_FILE_BYTES:,} go in a "
            "body (upload a larger file to the uploads bucket)",
        )  # fmt: skip
    return data


def get_class(app: App, caller: Caller, class_id: str) -> ClassResponse:
    """A class's roster: the service's, or a teacher's of that class. A teacher gets the same
    403 for a class that does not exist as for one they do not teach, as an upload does: a
    404 told them which class ids their school has."""
    try:
        found = app.access.get_class(caller.tenant, class_id)
    except NotFoundError:
        if caller.role is Role.TEACHER:
            raise ForbiddenError(NOT_THEIR_CLASS) from None
        raise
    if caller.role is Role.TEACHER and caller.id not in found.teachers:
        raise ForbiddenError(NOT_THEIR_CLASS)
    return ClassResponse(**asdict(found))


NOT_THEIR_CLASS: Final = "a teacher may read only the classes they teach"


def _profiles(app: App) -> Profiles:
    if app.profiles is None:
        raise NotFoundError("this memory keeps no profiles")
    return app.profiles


def profile(app: App, student_id: str) -> ProfileResponse:
    found = _profiles(app)
    now = app.ports.clock.now()
    said = found.history(student_id)
    broken = found.verify(student_id, said)
    return ProfileResponse(
        student_id=student_id,
        current=[StatementResponse.of(s, now) for s in current_statements(said)],
        history=[StatementResponse.of(s, now) for s in said],
        intact=broken is None,
        report=profile_report(said, broken),
    )


def set_profile(
    app: App, caller: Caller, student_id: str, aspect: str, body: ProfileRequest
) -> StatementResponse:
    check_id("student_id", student_id)
    done = _profiles(app).set(
        student_id, aspect, body.value, key=body.key, due=body.due, said_by=caller.role.value
    )
    return StatementResponse.of(done, app.ports.clock.now())


def retract_profile(
    app: App, caller: Caller, student_id: str, aspect: str, key: str
) -> StatementResponse:
    check_id("student_id", student_id)
    done = _profiles(app).retract(student_id, aspect, key=key, said_by=caller.role.value)
    return StatementResponse.of(done, app.ports.clock.now())


def known(app: App, pair: Pair) -> Pair:
    """The pair, if the store has a record of it (its log, or the course map of a class it
    follows: a student enrolled before their first word has the class's map); else the 404
    every door answers."""
    store = app.ports.store
    if store.head(pair) is None and not store.load_map(pair).courses:
        raise NotFoundError(f"no record of {pair}: record an episode or upload a file for it first")
    return pair


def client_time(app: App, at: datetime | None) -> datetime | None:
    """A client's ``at`` inside the accepted range (from 1970 to a day past the server's clock),
    else a 422 naming ``at``."""
    return None if at is None else check_time_range("at", at, app.ports.clock.now())


def turn_result(
    app: App, pair: Pair, question: str | None, at: datetime | None, budget_tokens: int | None
) -> TurnResult:
    return app.turns.turn(
        known(app, pair), question, at=client_time(app, at), budget_tokens=budget_tokens
    )


def prompt_placed(app: App, pair: Pair, body: PromptRequest) -> PromptResult:
    return app.turns.prompt(
        known(app, pair),
        body.question,
        system=body.system,
        material=body.material,
        assessment=body.assessment,
        at=client_time(app, body.at),
        budget_tokens=body.budget_tokens,
    )


def prompt_response(placed: PromptResult) -> PromptResponse:
    return PromptResponse(
        prompt=placed.text,
        sections=[PromptSection(title=t, text=x) for t, x in placed.sections],
        **TurnResponse.fields(placed.turn),
    )


def add_episode(
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


def correct_episode(
    app: App,
    caller: Caller,
    pair: Pair,
    episode_id: str,
    body: CorrectionRequest,
    idempotency_key: str | None,
) -> EpisodeResponse:
    """A correction (``Episodes.correct``), by the caller's role: a student corrects their own
    words, a teacher or the service a check's verdict, a quiz's score or a note (403 else)."""
    key = check_client_key("Idempotency-Key", idempotency_key)
    request_hash = request_digest(
        {"route": "corrections", "episode": episode_id, "body": body.model_dump(mode="json")}
    )
    added = app.episodes.correct(
        known(app, pair), episode_id, body.field, body.value, body.reason, by=caller.role,
        at=client_time(app, body.at), idempotency_key=key, request_hash=request_hash,
    )  # fmt: skip
    return EpisodeResponse.of(added.append, belief=added.belief.line() if added.belief else None)


def episodes(app: App, pair: Pair, limit: int, cursor: str | None) -> EpisodePage:
    after = check_cursor(cursor)
    lines, last = app.exporting.page(known(app, pair), after_seq=after, limit=check_limit(limit))
    return EpisodePage(episodes=lines, next=None if last is None else str(last))


def beliefs(app: App, pair: Pair) -> list[BeliefResponse]:
    return [BeliefResponse.of(b) for b in app.learning.beliefs(known(app, pair))]


def belief_history(
    app: App, pair: Pair, concept: str, limit: int, cursor: str | None
) -> BeliefPage:
    """A page of the rows about a concept, oldest first; the cursor is how many rows came
    before (rows are only added, and an erasure's re-derivation leaves the remaining ones in
    their order)."""
    start, limit = check_cursor(cursor), check_limit(limit)
    # The concept as users see it ("pH scale", "Ósmosis", "Indicators") or its key.
    rows = app.learning.belief_history_named(known(app, pair), concept)
    if not rows:
        raise NotFoundError(f"no belief about {concept!r} for {pair}")
    shown = rows[start : start + limit]
    more = start + limit < len(rows)
    return BeliefPage(
        beliefs=[BeliefResponse.of(b) for b in shown], next=str(start + limit) if more else None
    )


def rederive(app: App, pair: Pair, body: RederiveRequest) -> RederiveResponse:
    # body.reason is the caller's own record: kept nowhere (a log holds no words)
    done = app.learning.rederive(known(app, pair), at=client_time(app, body.at), force=body.force)
    return RederiveResponse(
        retired=done.retired, created=done.created, generation=done.generation, changed=done.changed
    )


def set_stance(app: App, pair: Pair, answer_id: str, stance: str) -> StanceResponse:
    note = app.turns.set_stance(known(app, pair), answer_id, stance)
    return StanceResponse(answer_id=answer_id, stance=note.value, at=note.at)


def sources(app: App, pair: Pair, answer_id: str) -> list[SourceResponse]:
    return [
        SourceResponse(
            id=s.episode.episode_id,
            ref=s.episode.ref,
            kind=s.episode.kind.value,
            at=s.episode.at,
            label=s.label,
            summary=s.episode.summary,
        )
        for s in app.turns.sources(known(app, pair), answer_id)
    ]


def concept_map(app: App, pair: Pair) -> ConceptMap:
    return app.maps.maps.load_map(known(app, pair))


def report(app: App, pair: Pair, history: str | None) -> ReportResponse:
    from tutor_memory.usecases.reports import report_json

    built = app.reports.report(known(app, pair), history=history)
    return ReportResponse.model_validate(report_json(built))


def recall(app: App, pair: Pair, question: str, at: datetime | None) -> RecallResponse:
    found = app.memory.recall(known(app, pair), question, at=client_time(app, at))
    return RecallResponse.of(question, found)


def verify(app: App, pair: Pair) -> ChainResponse:
    return ChainResponse.of(app.memory.verify_chain(known(app, pair)))


def night(app: App, caller: Caller, day: date | None, pair: Pair | None) -> NightResponse:
    """The nightly loop run in this process (the library's door; in the cloud the scheduler
    runs it and no route does): every active pair's night of ``day`` (default: yesterday
    where the students are), or ``pair``'s alone. The store's service only: it writes every
    pair's summaries and may erase by the retention period."""
    if pair is None:
        app.access.check(caller, SERVICE_ONLY, None)
    else:
        app.access.check(caller, SERVICE_ONLY, pair.student_id, pair.subject_id)
        known(app, pair)
    done = app.night(day, None if pair is None else [pair])
    return NightResponse(
        day=done.run.day,
        timezone=app.ports.timezone,
        pairs=[NightPairResponse(**r.to_dict()) for r in done.run.reports],
        failures=[
            NightFailureResponse(student_id=p.student_id, subject_id=p.subject_id, error=why)
            for p, why in done.run.failures
        ],
        retention=[ErasureResponse(**r.to_dict()) for r in done.retained],
        purge_held=done.held,
    )


def remove_file(app: App, pair: Pair, file_id: str) -> FileResponse:
    record = app.maps.take_out(known(app, pair), file_id)
    return FileResponse(
        file_id=record.file_id,
        name=record.name,
        versions=len(record.versions),
        removed_at=record.removed_at,
    )


def _erasing(app: App) -> Erasing:
    found = app.erasing
    assert found is not None  # build_app always builds it
    return found


def erase_episode(
    app: App, pair: Pair, episode_id: str, reason: str, requested_by: str
) -> ErasureResponse:
    done = _erasing(app).erase_episode(
        known(app, pair), episode_id, reason=reason, requested_by=requested_by
    )
    return ErasureResponse(**done.to_dict())


def erase_pair(
    app: App,
    pair: Pair,
    reason: str,
    requested_by: str,
    until: Callable[[], bool] | None = None,
) -> ErasureResponse:
    """``until``: whether the request's time is up (a worker then finishes: 202)."""
    done = _erasing(app).erase_pair(
        known(app, pair), reason=reason, requested_by=requested_by, until=until
    )
    return ErasureResponse(**done.to_dict())


def erase_student(
    app: App,
    student_id: str,
    reason: str,
    requested_by: str,
    until: Callable[[], bool] | None = None,
) -> ErasureResponse:
    done = _erasing(app).erase_student(
        student_id, reason=reason, requested_by=requested_by, until=until
    )
    app.access.forget_reads(student_id)  # who read the record goes too; the count stays
    return ErasureResponse(**done.to_dict())


def export_pair(app: App, pair: Pair) -> Export:
    """The pair's whole export (the CLI's; the doors answer it a page at a time)."""
    export = app.exporting.pair(known(app, pair))
    export.disclosures = disclosures(app, pair.student_id, pair.subject_id)
    return export


def export_student(app: App, student_id: str) -> Export:
    export = app.exporting.student(student_id)
    export.disclosures = disclosures(app, student_id)
    return export


def export_page(
    app: App, student_id: str, subject_id: str | None, limit: int, cursor: str | None
) -> ExportResponse:
    """A page of the export of a student (every subject) or of one pair: the first (no cursor)
    builds the whole export for its manifest and sends its first lines; a later one reads
    only its own lines, up to the heads the first page found."""
    limit = check_limit(limit)
    if cursor is not None:
        if subject_id is not None:
            known(app, Pair(student_id, subject_id))
        page = app.exporting.next_page(student_id, cursor, limit, subject_id)
    else:
        whole = (
            export_student(app, student_id)
            if subject_id is None
            else export_pair(app, Pair(student_id, subject_id))
        )
        page = app.exporting.first_page(whole, limit)
    return ExportResponse(**page.to_dict())


def disclosures(app: App, student_id: str, subject_id: str | None = None) -> list[dict[str, str]]:
    """Who read the student's record (in ``subject_id``, or in any subject), as an export
    lists it: the record of disclosures a school is asked to keep."""
    return [
        {
            "at": format_time(d.at),
            "operation": d.operation,
            "subject": d.subject_id or "",
            "reader": f"{d.reader_role.value}:{d.reader_id}",
        }
        for d in app.access.reads_of(student_id)
        if subject_id is None or d.subject_id in (subject_id, None)
    ]
