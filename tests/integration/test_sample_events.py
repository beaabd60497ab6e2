"""The one folder of sample events (infra/events): the integration tests load them and
`sam local invoke <Function> -e infra/events/<file>` sends them. Each file is named after the
function it is for (``<function>-….json``) and parses with the model that function's handler
parses its event with, so the folder cannot drift from the handlers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.utilities.parser.models import APIGatewayProxyEventModel, SqsModel

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api.routes import allowed_methods
from tutor_memory.bootstrap import lambda_app
from tutor_memory.domain.episodes import Kind, Pair

from .conftest import EVENTS, ROOT, LambdaContext, load_handler

FUNCTIONS = sorted(p.parent.name for p in (ROOT / "functions").glob("*/app.py"))
SAMPLES = sorted(EVENTS.glob("*.json"))


def function_of(sample: Path) -> str:
    return sample.name.split("-", 1)[0]


def parse_api(event: dict[str, Any]) -> None:
    handler = load_handler("api")
    # The REST resolver reads API Gateway's REST (v1) proxy event, and the sample reaches a route.
    assert isinstance(handler.resolver, APIGatewayRestResolver)
    parsed = APIGatewayProxyEventModel.model_validate(event)
    assert parsed.httpMethod in allowed_methods(handler.resolver, parsed.path)


def parse_ingest(event: dict[str, Any]) -> None:
    handler = load_handler("ingest")
    handler.S3Model.model_validate(event)  # the model of its @event_parser


def parse_nightly(event: dict[str, Any]) -> None:
    load_handler("nightly").NightlySchedule.model_validate(event)


def parse_consolidate(event: dict[str, Any]) -> None:
    handler = load_handler("consolidate")
    SqsModel.model_validate(event)
    for record in event["Records"]:  # each body is a night, as functions/nightly sends it
        handler.processor.model.model_validate(record)


PARSERS: dict[str, Callable[[dict[str, Any]], None]] = {
    "api": parse_api,
    "ingest": parse_ingest,
    "nightly": parse_nightly,
    "consolidate": parse_consolidate,
}


def test_every_function_has_a_sample_event_and_every_sample_names_its_function() -> None:
    assert sorted(PARSERS) == FUNCTIONS
    assert {function_of(s) for s in SAMPLES} == set(FUNCTIONS)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.name for s in SAMPLES])
def test_every_sample_event_parses_with_the_model_its_handler_uses(sample: Path) -> None:
    PARSERS[function_of(sample)](json.loads(sample.read_text(encoding="utf-8")))


def test_the_sample_turn_as_sent_gets_an_answer_from_the_api_handler(cloud: DynamoStore) -> None:
    event = json.loads((EVENTS / "api-turn.json").read_text(encoding="utf-8"))
    lambda_app().episodes.add(Pair("s-42", "biology"), Kind.QUESTION, "What is osmosis?")
    response = load_handler("api").handler(event, LambdaContext())
    assert response["statusCode"] == 200
    assert "block" in json.loads(response["body"])
