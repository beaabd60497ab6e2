"""A bedrock-runtime client under botocore's Stubber, for the Bedrock adapter tests: every
request is validated against the real service model, and no call leaves the machine.

The functions are plain; a test module makes fixtures of them by name::

    client = pytest.fixture(bedrock_runtime)
    stubber = pytest.fixture(stubbed)
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import boto3
from botocore.response import StreamingBody
from botocore.stub import ANY, Stubber

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


def titan_answering_like(embedder: Any, dimension: int) -> Any:
    """A bedrock-runtime client under botocore's Stubber that answers every Titan v2
    ``InvokeModel`` with ``embedder``'s vector of the request's ``inputText``: each request is
    still validated against the service model and the expected call, and the answer is queued
    just before it (a hook on the operation's client parameters), so any order of texts works."""
    client = bedrock_runtime()
    stub = Stubber(client)

    def answer(params: dict[str, Any], **_: Any) -> None:
        body = json.loads(params["body"])
        assert body["dimensions"] == dimension and body["normalize"] is True
        vector = embedder.embed_passages([body["inputText"]])[0]
        raw = json.dumps({"embedding": [float(x) for x in vector], "inputTextTokenCount": 1})
        data = raw.encode()
        expected = {"modelId": ANY, "body": params["body"], "contentType": "application/json",
                    "accept": "application/json"}  # fmt: skip
        stub.add_response(
            "invoke_model",
            {"body": StreamingBody(io.BytesIO(data), len(data)), "contentType": "application/json"},
            expected,
        )

    # provide-client-params comes before the Stubber's own check (before-parameter-build)
    client.meta.events.register("provide-client-params.bedrock-runtime.InvokeModel", answer)
    stub.activate()
    return client
