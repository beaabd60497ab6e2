"""EventBridge schedule → one SQS message per pair active on the day just ended (SPEC §10).

The day is the last complete day in the students' time zone at the event's time, so a retried
or replayed event names the same night. A manual run may name it: ``"detail": {"day": …}``.
A refused message fails the run (EventBridge retries it; a night sent twice is a no-op).
"""

# No `from __future__ import annotations`: pydantic resolves these models' fields at once.

from datetime import date
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.parser.models import EventBridgeModel
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel

from tutor_memory.api.access import quiet_wordy_loggers
from tutor_memory.bootstrap import lambda_scheduler

logger = Logger()
quiet_wordy_loggers()  # the AWS SDK's DEBUG lines carry what is sent: never logged


class NightDetail(BaseModel):
    day: date | None = None  # the schedule sends {}: the night just ended


class NightlySchedule(EventBridgeModel):
    detail: NightDetail


@logger.inject_lambda_context
@event_parser(model=NightlySchedule)
def handler(event: NightlySchedule, context: LambdaContext) -> dict[str, Any]:
    fan = lambda_scheduler().fan_out(now=event.time, day=event.detail.day)
    logger.info("nightly fan-out", extra={"day": fan.day, "pairs": len(fan.tasks)})
    return {"day": fan.day, "enqueued": len(fan.tasks)}
