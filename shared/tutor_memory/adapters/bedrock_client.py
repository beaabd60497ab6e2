"""The bedrock-runtime client both Bedrock adapters share: built on first use (never at
import or construction), once, under a lock; standard retries and explicit timeouts."""

from __future__ import annotations

import threading
from typing import Any

import boto3
from botocore.config import Config


class LazyBedrockClient:
    def __init__(
        self,
        region: str,
        client: Any = None,
        *,
        max_attempts: int,
        connect_timeout_s: float,
        read_timeout_s: float,
    ) -> None:
        self.region = region
        self._config = Config(
            retries={"mode": "standard", "max_attempts": max_attempts},
            connect_timeout=connect_timeout_s,
            read_timeout=read_timeout_s,
        )
        self._client = client  # a test may hand in a stubbed client
        self._lock = threading.Lock()

    def get(self) -> Any:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = boto3.client(
                        "bedrock-runtime", region_name=self.region, config=self._config
                    )
        return self._client
