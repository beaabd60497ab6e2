"""A bedrock-runtime client under botocore's Stubber, for the Bedrock adapter tests: every
request is validated against the real service model, and no call leaves the machine.

The functions are plain; a test module makes fixtures of them by name::

    client = pytest.fixture(bedrock_runtime)
    stubber = pytest.fixture(stubbed)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import boto3
from botocore.stub import Stubber

REGION = "us-east-1"


def bedrock_runtime() -> Any:
    """A real bedrock-runtime client (fake credentials: see tests/conftest.py)."""
    return boto3.client("bedrock-runtime", region_name=REGION)


def stubbed(client: Any) -> Iterator[Stubber]:
    """``client`` answered by a Stubber; at the end, every queued answer must have been used."""
    with Stubber(client) as stub:
        yield stub
        stub.assert_no_pending_responses()


def recorded(
    client: Any, operation: str, keep: Callable[[dict[str, Any]], Any] = lambda params: params
) -> list[Any]:
    """What ``client`` sends to ``operation`` ("Converse"), as ``keep`` reads each call's
    parameters, in order (the Stubber only compares them)."""
    calls: list[Any] = []

    def capture(params: dict[str, Any], **_: Any) -> None:
        calls.append(keep(params))

    client.meta.events.register(f"before-parameter-build.bedrock-runtime.{operation}", capture)
    return calls
