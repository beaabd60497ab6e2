"""Sends messages to an SQS queue (the nightly fan-out: one message per pair-night)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import boto3

SEND_BATCH = 10  # SendMessageBatch takes ten entries at most (AWS)


class SqsQueue:
    def __init__(self, url: str, region: str, client: Any = None) -> None:
        self.url = url
        self._region = region
        self._client = client

    def _sqs(self) -> Any:
        if self._client is None:  # built on first use, never at import
            self._client = boto3.client("sqs", region_name=self._region)
        return self._client

    def send(self, bodies: Sequence[str]) -> None:
        """Ten to a call; a refused entry fails the send (EventBridge retries the run)."""
        sqs = self._sqs()
        for start in range(0, len(bodies), SEND_BATCH):
            entries = [
                {"Id": str(n), "MessageBody": body}
                for n, body in enumerate(bodies[start : start + SEND_BATCH])
            ]
            failed = sqs.send_message_batch(QueueUrl=self.url, Entries=entries).get("Failed")
            if failed:
                raise RuntimeError(f"the queue refused {len(failed)} message(s): {failed[0]}")
