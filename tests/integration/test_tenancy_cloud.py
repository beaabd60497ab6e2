"""Tenants in the cloud stores, on moto (issue 27): every key a tenant's store writes begins
with the tenant (DynamoDB ``T#<tenant>#…``, S3 ``uploads/T/<tenant>/…``, its own OpenSearch
index); the API function serves a request with its caller's tenant's App, so another tenant's
pair answers 404; a store written before tenants opens as the ``default`` tenant, its keys as
they were (nothing rewritten)."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.bootstrap import build_anchor, build_index, lambda_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.profile import Aspect
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings

from .conftest import REGION, TABLE, TEST_TURN_DEADLINE_S, Api, LambdaContext, load_handler
from .test_ingest_handler import BUCKET, upload

PAIR = Pair("s-42", "biology")
BASE = "/pairs/s-42/biology"


def claims(tenant: str, role: str = "service", caller_id: str = "backend") -> dict[str, str]:
    return {"custom:tenant": tenant, "custom:role": role, "custom:id": caller_id}


def raw_keys() -> list[str]:
    """Every partition key in the table, read past the store (a raw scan)."""
    table = boto3.resource("dynamodb", region_name=REGION).Table(TABLE)
    items: list[dict[str, Any]] = []
    answer = table.scan(ProjectionExpression="pk")
    items += answer["Items"]
    while "LastEvaluatedKey" in answer:
        answer = table.scan(ProjectionExpression="pk", ExclusiveStartKey=answer["LastEvaluatedKey"])
        items += answer["Items"]
    return sorted({str(i["pk"]) for i in items})


def tenant_app(tenant: str) -> Any:
    app = lambda_app.for_tenant(tenant)
    app.turns.deadline_s = TEST_TURN_DEADLINE_S
    return app


def test_every_key_a_tenants_store_writes_begins_with_the_tenant(cloud: DynamoStore) -> None:
    app = tenant_app("acme")
    app.episodes.add(PAIR, Kind.QUESTION, "What is osmosis?")
    app.episodes.add(
        PAIR, Kind.CHECK, "Explain osmosis", evidence={"topic": "osmosis", "verdict": "wrong"}
    )
    name, data = sample_subject()[0]
    app.maps.ingest(PAIR, name, name, data)  # a file: the map, the registry
    assert app.profiles is not None
    app.profiles.set(PAIR.student_id, Aspect.GOAL, "pass the biology exam", said_by="teacher")
    app.class_maps.enrol("7a", ["s-42", "s-43"])
    app.class_maps.ingest("7a", "biology", name, name, data)  # a course map, its followers
    assert app.ports.store.beliefs(PAIR)  # a belief item too
    keys = raw_keys()
    assert keys and all(k.startswith("T#acme#") for k in keys), keys
    kinds = {k.removeprefix("T#acme#").split("#", 1)[0] for k in keys}
    assert {"PAIR", "CLASS", "ACTIVE", "PROFILE"} <= kinds
    # the default tenant (and any other) sees none of it
    assert lambda_app().ports.store.head(PAIR) is None
    assert tenant_app("other").ports.store.head(PAIR) is None
    assert tenant_app("other").ports.store.load_course("7a", "biology").cmap.concepts == {}
    assert app.ports.store.head(PAIR) is not None and app.memory.verify_chain(PAIR).intact


def test_a_store_written_before_tenants_opens_as_the_default_tenant_unchanged(
    cloud: DynamoStore,
) -> None:
    # the previous release's writes: a store opened with no tenant at all
    old = DynamoStore(TABLE, REGION)
    lambda_written = lambda_app()  # the default tenant's App, as the API function opens it
    assert lambda_written.settings.tenant == "default"
    for text in ("What is osmosis?", "And diffusion?"):
        old_app_add(old, text)
    before = raw_keys()
    assert before and all(k.startswith(("PAIR#", "ACTIVE#", "STUDENT#")) for k in before), before
    found = [e.text for e in lambda_written.ports.store.episodes(PAIR)]
    assert found == ["What is osmosis?", "And diffusion?"]
    assert lambda_written.memory.verify_chain(PAIR).intact
    lambda_written.episodes.add(PAIR, Kind.QUESTION, "And osmosis again?")
    assert all(k.startswith(("PAIR#", "ACTIVE#", "STUDENT#")) for k in raw_keys())  # nothing moved
    assert tenant_app("acme").ports.store.episodes(PAIR) == []


def old_app_add(store: DynamoStore, text: str) -> None:
    """An episode appended as before tenants: through the domain's chain, by a store opened
    with no tenant (what the previous release wrote)."""
    from tutor_memory.bootstrap import build_app
    from tutor_memory.ports import Ports

    settings = Settings(backend="dynamodb", table_name=TABLE, aws_region=REGION, embedder="none")
    app = build_app(settings, ports=Ports(store=store, timezone="UTC"))
    app.episodes.add(PAIR, Kind.QUESTION, text)


def test_through_the_api_another_tenants_pair_answers_404(cloud: DynamoStore) -> None:
    api = Api()
    tenant_app("acme")
    tenant_app("globex")
    status, made = api(
        "POST", f"{BASE}/episodes", {"kind": "question", "text": "What is osmosis?"},
        claims=claims("acme"),
    )  # fmt: skip
    assert status == 201, made
    status, mine = api("GET", f"{BASE}/episodes", claims=claims("acme"))
    assert status == 200 and [e["text"] for e in mine["episodes"]] == ["What is osmosis?"], mine
    # the same student and subject in another tenant: not found, however it is asked
    for who in (claims("globex"), claims("globex", "student", "s-42")):
        for path in (f"{BASE}/episodes", f"{BASE}/export", f"{BASE}/chain/verify"):
            status, problem = api("GET", path, claims=who)
            assert status == 404, (who, path, status, problem)
    # nor the deployment's own tenant's caller (the IAM-authorised backend: no claims)
    status, _ = api("GET", f"{BASE}/episodes")
    assert status == 404
    # a token whose tenant or role cannot be one is refused as unauthenticated
    # (a token without a role or a tenant is no one: never the gateway's service)
    no_role = {"custom:tenant": "acme", "sub": "u-1"}
    no_tenant = {"custom:role": "service", "custom:id": "backend"}
    for bad in (claims("no/such"), claims("acme", "principal"), no_role, no_tenant):
        status, problem = api("GET", f"{BASE}/episodes", claims=bad)
        assert status == 401 and problem["status"] == 401, problem
    # nothing of acme's anywhere else: the other callers' attempts are kept in their own
    # tenants' records of disclosures (who tried to read s-42 there)
    theirs = {"T#globex#READS#s-42", "READS#s-42"}
    assert all(k.startswith("T#acme#") or k in theirs for k in raw_keys()), raw_keys()


def test_an_upload_under_a_tenants_prefix_is_read_into_that_tenants_store(
    cloud: DynamoStore,
) -> None:
    name, data = sample_subject()[0]
    ingest = load_handler("ingest").handler
    key = f"uploads/T/acme/s-42/biology/{name}"
    result = ingest(upload(key, data), LambdaContext())
    assert result["outcomes"] == [{"key": key, "status": "ingested", "detail": "8 concepts"}]
    assert "osmosis" in tenant_app("acme").ports.store.load_map(PAIR).concepts
    assert lambda_app().ports.store.load_map(PAIR).concepts == {}
    tenant_app("acme").class_maps.enrol("7a", ["s-50"])
    course_key = f"uploads/T/acme/classes/7a/biology/{name}"
    result = ingest(upload(course_key, data), LambdaContext())
    assert result["outcomes"][0]["status"] == "ingested", result
    assert "osmosis" in tenant_app("acme").ports.store.load_map(Pair("s-50", "biology")).concepts
    # a name that cannot be a tenant's is refused, and so is a class file of another tenant
    for refused in (f"uploads/T/-x/s-42/biology/{name}", "uploads/T/acme/globex/classes/7a/b/n"):
        (outcome,) = ingest(upload(refused, data), LambdaContext())["outcomes"]
        assert outcome["status"] == "refused", outcome
    assert all(k.startswith("T#acme#") for k in raw_keys())


def test_erasing_a_tenants_student_leaves_the_same_id_in_another_tenant(
    cloud: DynamoStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TUTOR_MEMORY_UPLOADS_BUCKET", BUCKET)
    lambda_app.cache_clear()
    name, data = sample_subject()[0]
    ingest = load_handler("ingest").handler
    ingest(upload(f"uploads/s-42/biology/{name}", data), LambdaContext())
    ingest(upload(f"uploads/T/acme/s-42/biology/{name}", data), LambdaContext())
    tenant_app("acme").episodes.add(PAIR, Kind.QUESTION, "What is osmosis?")
    lambda_app().episodes.add(PAIR, Kind.QUESTION, "What is osmosis?")
    status, erased = Api()(
        "DELETE", "/students/s-42", claims=claims("acme"), query={"reason": "student_request"}
    )
    assert status == 200, erased
    s3 = boto3.client("s3", region_name=REGION)
    left = s3.list_object_versions(Bucket=BUCKET).get("Versions", [])
    assert {v["Key"] for v in left} == {f"uploads/s-42/biology/{name}"}
    kept = lambda_app().ports.store.episodes(PAIR)
    assert [e.text for e in kept if e.kind is Kind.QUESTION] == ["What is osmosis?"]
    assert "osmosis" in lambda_app().ports.store.load_map(PAIR).concepts
    assert lambda_app().memory.verify_chain(PAIR).intact


def test_a_tenants_search_index_and_checkpoints_are_its_own() -> None:
    settings = Settings(
        backend="dynamodb",
        index="opensearch",
        opensearch_url="http://localhost:9200",
        opensearch_auth="none",
        opensearch_index="tutor-memory-episodes",
        embedder="none",
        checkpoint_bucket="tutor-memory-checkpoints",
        checkpoint_key_id="arn:aws:kms:us-east-1:123456789012:key/k",
    )
    index = build_index(settings, None)
    assert getattr(index, "index", None) == "tutor-memory-episodes"  # as before tenants
    acme = build_index(settings.for_tenant("acme"), None)
    assert getattr(acme, "index", None) == "tutor-memory-episodes-t-acme"
    upper = build_index(settings.for_tenant("Acme"), None)
    assert getattr(upper, "index", "").startswith("tutor-memory-episodes-t-acme-")
    assert getattr(build_anchor(settings), "prefix", None) == "checkpoints/"
    assert getattr(build_anchor(settings.for_tenant("acme")), "prefix", None) == (
        "checkpoints/T/acme/"
    )


def test_migrate_indexes_the_students_of_a_store_written_before_the_index(
    cloud: DynamoStore, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tenant's scoped credentials may not scan the table, so a store opened with them finds
    a student's pairs and classes from the student's index alone; a store written before the
    index (its items deleted here, as that release wrote none) gets it from migrate."""
    from tutor_memory.adapters.tenant_credentials import Credentials
    from tutor_memory.cli import main

    old = lambda_app()
    old.episodes.add(PAIR, Kind.QUESTION, "What is osmosis?")
    old.maps.ingest(Pair("s-42", "chemistry"), "notes.md", "notes.md", b"# Atoms\n\nAtoms.")
    old.class_maps.enrol("7a", ["s-42"])
    table = boto3.resource("dynamodb", region_name=REGION).Table(TABLE)

    def index_items() -> list[str]:
        found = table.query(
            KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": "STUDENT#s-42"}
        )["Items"]
        return sorted(str(i["sk"]) for i in found)

    written = index_items()  # with the chains, the map and the roster
    assert written == ["CLASS#7a", "HEAD#biology", "HEAD#chemistry", "MAP#chemistry"], written
    for sk in written:
        table.delete_item(Key={"pk": "STUDENT#s-42", "sk": sk})
    scoped = DynamoStore(TABLE, REGION, credentials=Credentials("testing", "testing"))
    assert not scoped.scans and scoped.pairs_of("s-42") == [] and scoped.maps_of("s-42") == []
    subjects = [Pair("s-42", "biology"), Pair("s-42", "chemistry")]
    assert cloud.pairs_of("s-42") == subjects  # the operator's credentials still scan
    assert main(["migrate"]) == 0
    out = capsys.readouterr().out
    assert f"{len(written)} student index items written" in out, out
    assert index_items() == written
    assert scoped.pairs_of("s-42") == subjects
    assert scoped.maps_of("s-42") == [Pair("s-42", "chemistry")]
    assert scoped.leave_classes("s-42") == ["7a"]
    assert main(["migrate"]) == 0 and index_items() == [
        "HEAD#biology",
        "HEAD#chemistry",
        "MAP#chemistry",
    ]
