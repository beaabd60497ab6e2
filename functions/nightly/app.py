"""EventBridge schedule → one SQS message per pair active on the day just ended (SPEC §10).

The day is the last complete day in the students' time zone at the event's time, so a retried
or replayed event names the same night. A manual run may name it: ``"detail": {"day": …}``.
"""

# No `from __future__ import annotations`: pydantic resolves these models' fields at once.

import os
from collections.abc import Sequence
from datetime import date
from functools import cache
from typing import Any

import boto3
from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.parser.models import EventBridgeModel
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel

from tutor_memory.bootstrap import build_store
from tutor_memory.nightly_service import Nightly, NightTask
from tutor_memory.settings import Settings

logger = Logger()


class NightDetail(BaseModel):
    day: date | None = None  # the schedule sends {}: the night just ended


class NightlySchedule(EventBridgeModel):
    detail: NightDetail


@cache
def _settings() -> Settings:
    return Settings.from_env()


@cache
def _nightly() -> Nightly:
    """The scheduler reads only the activity index: the store, no search index and no model
    (its role may query the table and send to the queue, nothing else)."""
    return Nightly.over_store(build_store(_settings()), timezone=_settings().timezone)


@cache
def _sqs(region: str) -> Any:
    return boto3.client("sqs", region_name=region)


def send(tasks: Sequence[NightTask]) -> None:
    """One message per pair-night, ten to a call; a refused entry fails the run (EventBridge
    retries it, and the workers make a night sent twice a no-op)."""
    queue_url = os.environ["TUTOR_MEMORY_NIGHTLY_QUEUE_URL"]
    sqs = _sqs(_settings().aws_region)
    for start in range(0, len(tasks), 10):
        entries = [
            {"Id": str(n), "MessageBody": task.to_json()}
            for n, task in enumerate(tasks[start : start + 10])
        ]
        failed = sqs.send_message_batch(QueueUrl=queue_url, Entries=entries).get("Failed")
        if failed:
            raise RuntimeError(f"the queue refused {len(failed)} night(s): {failed[0]}")


@logger.inject_lambda_context
@event_parser(model=NightlySchedule)
def handler(event: NightlySchedule, context: LambdaContext) -> dict[str, Any]:
    fan = _nightly().fan_out(
        send, now=event.time, day=event.detail.day, retention_days=_settings().retention_days
    )
    logger.info("nightly fan-out", extra={"day": fan.day, "pairs": len(fan.tasks)})
    return {"day": fan.day, "enqueued": len(fan.tasks)}
