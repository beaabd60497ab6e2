"""A stack on OpenSearch Serverless serves its own tenant only (``Settings.serves_one_tenant``):
nothing below the code could keep two tenants' episodes apart in one collection, so another
tenant's token, upload or night is refused before any store of it is opened, saying what to
deploy instead. The template's side (a deploy rule, the collection's policies) is checked in
tests/unit/test_template.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from moto import mock_aws

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import lambda_app

from .conftest import REGION, TABLE, Api, LambdaContext, load_handler, set_cloud_env
from .test_ingest_handler import upload

# Never reached: another tenant's request is refused before its stores are opened, and the
# deployment's own tenant is not asked for here.
COLLECTION = "https://abc123.us-east-1.aoss.amazonaws.com"


@pytest.fixture
def serverless(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    set_cloud_env(tmp_path, monkeypatch)
    monkeypatch.setenv("TUTOR_MEMORY_INDEX", "opensearch")
    monkeypatch.setenv("TUTOR_MEMORY_OPENSEARCH_URL", COLLECTION)
    monkeypatch.setenv("TUTOR_MEMORY_OPENSEARCH_AUTH", "aoss")
    lambda_app.cache_clear()
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        yield
    lambda_app.cache_clear()


def test_another_tenants_token_is_refused_saying_what_to_deploy(serverless: None) -> None:
    claims = {"custom:tenant": "acme", "custom:role": "service", "custom:id": "backend"}
    status, problem = Api()("GET", "/pairs/s-1/biology/beliefs", claims=claims)
    assert status == 403, problem
    assert "serves the tenant 'default' only" in problem["detail"]
    assert "SearchService=domain" in problem["detail"]


def test_another_tenants_upload_is_refused_not_read(serverless: None) -> None:
    key = "uploads/T/acme/s-42/biology/cells.md"
    result = load_handler("ingest").handler(upload(key, b"# Cells\n"), LambdaContext())
    (outcome,) = result["outcomes"]
    assert outcome["status"] == "refused" and "SearchService=domain" in outcome["detail"]
