"""SQS batches of pair-nights → each pair's nightly cycle (SPEC §10), then, with a retention
period (``TUTOR_MEMORY_RETENTION_DAYS``), the erasure of the pair's bodies past it, and the
search index's purge an erasure left for the night. The same queue carries what an API erasure
of whole pairs could not finish in its request (``ErasureTask``): it goes on here, and is sent
on again while it runs out of this function's time too.

Each record is one pair's night; a record that fails (a malformed body, a bad pair, a store
error) is reported in ``batchItemFailures`` and only it returns to the queue — the others are
done, and a night run again is a no-op anyway. After the queue's receive limit a poison message
moves to the dead-letter queue.
"""

# No `from __future__ import annotations`: pydantic resolves these models' fields at once.

from datetime import date
from typing import Any, Literal

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.parser.models import SqsRecordModel
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, Json

from tutor_memory.api.access import quiet_wordy_loggers
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain.episodes import Pair

logger = Logger()
quiet_wordy_loggers()  # the AWS SDK's DEBUG lines carry what is sent: never logged


class NightBody(BaseModel):
    student_id: str
    subject_id: str
    day: date
    tenant: str | None = None  # another tenant's pair (its store); None: the deployment's


class ErasureBody(BaseModel):
    erase: Literal["pair", "student"]
    student_id: str
    subjects: list[str]
    reason: str
    requested_by: str
    tenant: str | None = None


class NightRecord(SqsRecordModel):
    body: Json[NightBody | ErasureBody]


processor = BatchProcessor(event_type=EventType.SQS, model=NightRecord)

# An erasure stops starting steps once the batch has less than this left of the function's 180 s
# (the batch's nights after it need their time) and sends what is left on to the queue.
ERASURE_LEAVES_MS = 60_000


def erase(task: ErasureBody, context: LambdaContext) -> dict[str, Any]:
    app = lambda_app.for_tenant(task.tenant)
    assert app.erasing is not None  # build_app always builds it
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    time_up = None if remaining is None else (lambda: remaining() < ERASURE_LEAVES_MS)
    done = app.erasing.continue_erasure(
        [Pair(task.student_id, subject) for subject in task.subjects],
        reason=task.reason,
        requested_by=task.requested_by,
        scope=task.erase,
        until=time_up,
    )
    report = {"erasure": task.erase, "pairs": len(task.subjects), "pending": len(done.pending)}
    report["episodes_erased"] = sum(len(v) for v in done.erased.values())
    logger.info("erasure", extra=report)  # counts only: never a reason's or a student's words
    return report


def record_handler(record: NightRecord, lambda_context: LambdaContext) -> dict[str, Any]:
    if isinstance(record.body, ErasureBody):
        return erase(record.body, lambda_context)
    night = record.body
    pair = Pair(night.student_id, night.subject_id)
    app = lambda_app.for_tenant(night.tenant)
    report = app.nightly.run_pair(pair, night.day).to_dict()
    retained = app.retain(pair, night.day)  # None: no retention period (the default)
    if retained is not None:
        report["retention"] = retained.to_dict()
    # An API erasure that the search index's history outlived (see Erasing.purge_pending).
    held = app.purge_pending([pair])  # None: nothing was pending for the pair
    if held is not None:
        report["purge"] = {"held": held}
    logger.info("night", extra=report)
    return report


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
