"""Credentials scoped to a tenant, on moto with its IAM enforcement on (issue 27).

What moto evaluates: an identity policy's actions, its resource ARNs with ``*`` wildcards, and
Deny over Allow — for S3, whose requests it authorises against the object's ARN. What it does
not: condition keys (``dynamodb:LeadingKeys``, ``aws:PrincipalTag``, ``s3:prefix``: a statement
with a condition it cannot read counts as a deny), policy variables, session tags, and any
DynamoDB, KMS or OpenSearch resource (it authorises those against ``*``). So:

- the S3 statements of template.yaml's TenantDataRole, as AWS evaluates them for a session
  tagged ``tenant=<t>`` (the statements of that session's tag, ``${aws:PrincipalTag/tenant}``
  put in), are a moto role's policy, and the uploads adapter with the credentials the real
  ``assume_tenant_role`` got is refused every object of another tenant;
- the API function takes its stores' credentials from that assume-role: with a role that may
  use DynamoDB and a process that may only assume it, a tenant's request is served (so it
  was signed with the role's session, named after the tenant);
- the DynamoDB conditions are checked on the documents (tests/unit/test_template.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import moto.settings
import pytest
from moto import mock_aws
from moto.sts.models import sts_backends

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.adapters.s3_files import S3Files
from tutor_memory.adapters.tenant_credentials import Credentials, assume_tenant_role
from tutor_memory.bootstrap import LambdaApps, lambda_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.samples import sample_subject

from ..unit.test_template import Stack, as_list, on_tag
from .conftest import REGION, TABLE, Api, LambdaContext, load_handler, set_cloud_env

UPLOADS = Stack().ref("UploadsBucket")  # the template's computed name
CHECKPOINTS = "tutor-memory-checkpoints-it"
TAG = "${aws:PrincipalTag/tenant}"
ACCOUNT = "123456789012"
TRUST_ALL_OF_THE_ACCOUNT = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}],
}


def session_policy(tenant: str) -> dict[str, Any]:
    """TenantDataRole's S3 statements as AWS evaluates them for a session tagged ``tenant``:
    those whose tag condition holds for it, the tag's value put in for the policy variable;
    the conditions left (s3:prefix) are dropped, as moto cannot read them."""
    statements = []
    for statement in Stack().statements("TenantDataRole"):
        if not any(a.startswith("s3:") for a in as_list(statement["Action"])):
            continue
        who = on_tag(statement)
        if who and (who == "default") != (tenant == "default"):
            continue
        text = json.dumps({k: v for k, v in statement.items() if k != "Condition"})
        text = text.replace(TAG, tenant).replace(
            "arn:CheckpointBucket", f"arn:aws:s3:::{CHECKPOINTS}"
        )
        statements.append(json.loads(text))
    return {"Version": "2012-10-17", "Statement": statements}


@pytest.fixture
def enforced(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """moto with the uploads and checkpoint buckets holding two tenants' objects and the
    default tenant's, a role per session's policy, and a user that may only assume them; then
    IAM enforced (moto's INITIAL_NO_AUTH_ACTION_COUNT, which ``set_initial_no_auth_action_count``
    sets): from here a request needs credentials the policies allow."""
    monkeypatch.delenv("AWS_SESSION_TOKEN")  # an IAM user's keys carry none
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        for bucket in (UPLOADS, CHECKPOINTS):
            s3.create_bucket(Bucket=bucket)
        for key in (
            "uploads/s-42/biology/notes.md",
            "uploads/T/acme/s-42/biology/notes.md",
            "uploads/T/globex/s-42/biology/notes.md",
        ):
            s3.put_object(Bucket=UPLOADS, Key=key, Body=key.encode())
        iam = boto3.client("iam", region_name=REGION)
        roles = {}
        for tenant in ("acme", "globex", "default"):
            role = iam.create_role(
                RoleName=f"tenant-data-{tenant}",
                AssumeRolePolicyDocument=json.dumps(TRUST_ALL_OF_THE_ACCOUNT),
            )["Role"]["Arn"]
            iam.put_role_policy(
                RoleName=f"tenant-data-{tenant}",
                PolicyName="tenant-data",
                PolicyDocument=json.dumps(session_policy(tenant)),
            )
            roles[tenant] = role
        iam.create_user(UserName="api-function")
        iam.put_user_policy(
            UserName="api-function",
            PolicyName="assume-tenant-role",
            PolicyDocument=json.dumps(
                {
                    "Version": "2012-10-17",
                    "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": "*"}],
                }
            ),
        )
        key = iam.create_access_key(UserName="api-function")["AccessKey"]
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", key["AccessKeyId"])
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", key["SecretAccessKey"])
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)  # it keeps what it first read
        monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)
        yield roles


def test_a_tenants_credentials_are_refused_every_other_tenants_uploads(
    enforced: dict[str, str],
) -> None:
    acme = assume_tenant_role(enforced["acme"], "acme", REGION)
    files = S3Files(REGION, bucket=UPLOADS, prefix="uploads/T/acme/", credentials=acme)
    mine = "uploads/T/acme/s-42/biology/notes.md"
    assert files.fetch(UPLOADS, mine) == mine.encode()
    for theirs in ("uploads/T/globex/s-42/biology/notes.md", "uploads/s-42/biology/notes.md"):
        with pytest.raises(StoreError, match="AccessDenied"):
            files.fetch(UPLOADS, theirs)
    # the process's own credentials (the function's role) read no upload at all
    with pytest.raises(StoreError, match="AccessDenied"):
        S3Files(REGION, bucket=UPLOADS).fetch(UPLOADS, mine)


def test_the_default_tenants_credentials_are_refused_every_prefixed_tenants_keys(
    enforced: dict[str, str],
) -> None:
    default = assume_tenant_role(enforced["default"], "default", REGION)
    files = S3Files(REGION, bucket=UPLOADS, credentials=default)
    assert files.fetch(UPLOADS, "uploads/s-42/biology/notes.md")  # as before tenants
    with pytest.raises(StoreError, match="AccessDenied"):  # the Deny on uploads/T/*
        files.fetch(UPLOADS, "uploads/T/acme/s-42/biology/notes.md")
    s3 = boto3.client("s3", region_name=REGION, **default.boto3_kwargs())
    s3.put_object(Bucket=CHECKPOINTS, Key="checkpoints/s-42/biology/1.json", Body=b"{}")
    with pytest.raises(s3.exceptions.ClientError, match="AccessDenied"):
        s3.put_object(Bucket=CHECKPOINTS, Key="checkpoints/T/acme/s-42/biology/1.json", Body=b"")


def test_a_tenants_checkpoints_are_its_own(enforced: dict[str, str]) -> None:
    acme = assume_tenant_role(enforced["acme"], "acme", REGION)
    s3 = boto3.client("s3", region_name=REGION, **acme.boto3_kwargs())
    mine = "checkpoints/T/acme/s-42/biology/1.json"
    s3.put_object(Bucket=CHECKPOINTS, Key=mine, Body=b"{}")
    assert s3.get_object(Bucket=CHECKPOINTS, Key=mine)["Body"].read() == b"{}"
    for theirs in ("checkpoints/T/globex/s-42/biology/1.json", "checkpoints/s-42/biology/1.json"):
        with pytest.raises(s3.exceptions.ClientError, match="AccessDenied"):
            s3.put_object(Bucket=CHECKPOINTS, Key=theirs, Body=b"{}")


def test_the_api_functions_stores_sign_with_the_callers_tenants_session(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process may only assume the role; the role may use the table: a request of tenant
    acme is served, so its store signed with acme's session (named after it)."""
    set_cloud_env(tmp_path, monkeypatch)
    monkeypatch.delenv("AWS_SESSION_TOKEN")  # an IAM user's keys carry none
    lambda_app.cache_clear()
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        iam = boto3.client("iam", region_name=REGION)
        role = iam.create_role(
            RoleName="tenant-data",
            AssumeRolePolicyDocument=json.dumps(TRUST_ALL_OF_THE_ACCOUNT),
        )["Role"]["Arn"]
        # the template's table actions (moto authorises DynamoDB against "*" only): no Scan
        granted = sorted(
            {a for a, _ in Stack().role_grants("TenantDataRole") if a.startswith("dynamodb:")}
        )
        # and the name moto authorises a transaction by (AWS by its items' PutItem, UpdateItem,
        # DeleteItem and ConditionCheckItem: "Using IAM with DynamoDB transactions")
        granted.append("dynamodb:TransactWriteItems")
        may = {"Effect": "Allow", "Action": granted, "Resource": "*"}
        iam.put_role_policy(
            RoleName="tenant-data",
            PolicyName="table",
            PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [may]}),
        )
        iam.create_user(UserName="api-function")
        assume = {"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": role}
        iam.put_user_policy(
            UserName="api-function",
            PolicyName="assume",
            PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [assume]}),
        )
        key = iam.create_access_key(UserName="api-function")["AccessKey"]
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", key["AccessKeyId"])
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", key["SecretAccessKey"])
        monkeypatch.setenv("TUTOR_MEMORY_TENANT_ROLE_ARN", role)
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)  # it keeps what it first read
        monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)
        with pytest.raises(StoreError, match="AccessDenied"):  # the process's own: refused
            DynamoStore(TABLE, REGION, tenant="acme").episodes(Pair("s-42", "biology"))
        claims = {"custom:tenant": "acme", "custom:role": "service", "custom:id": "backend"}
        status, made = Api()(
            "POST", "/pairs/s-42/biology/episodes", {"kind": "question", "text": "Osmosis?"},
            claims=claims,
        )  # fmt: skip
        assert status == 201, made
        status, page = Api()("GET", "/pairs/s-42/biology/episodes", claims=claims)
        assert status == 200 and [e["text"] for e in page["episodes"]] == ["Osmosis?"]
        # a student's export and erasure find the student's pairs and classes without a scan
        # the roster and the record of disclosures in the table: a teacher's read is kept
        status, _ = Api()(
            "PUT", "/classes/7a", {"teachers": ["t-1"], "students": ["s-42"]}, claims=claims
        )
        assert status == 200
        teacher = {**claims, "custom:role": "teacher", "custom:id": "t-1"}
        status, _ = Api()("GET", "/pairs/s-42/biology/beliefs", claims=teacher)
        assert status == 200
        status, _ = Api()(
            "PUT", "/students/s-42/profile/language", {"value": "Urdu"}, claims=claims
        )
        assert status == 200
        tenant = lambda_app.for_tenant("acme")
        status, exported = Api()("GET", "/students/s-42/export", claims=claims)
        assert status == 200 and "s-42" in json.dumps(exported), exported
        assert "teacher:t-1" in json.dumps(exported)  # who read the record
        status, erased = Api()(
            "DELETE", "/students/s-42", claims=claims, query={"reason": "student_request"}
        )
        assert status == 200, erased  # profile and reads deleted in batches the role allows
        assert tenant.ports.store.followers("7a") == ()
        assert tenant.access.reads_of("s-42") == []
        assert tenant.access.get_class("acme", "7a").students == ()
        sessions = [r.session_name for r in sts_backends[ACCOUNT]["aws"].assumed_roles]
        assert "tenant-acme" in sessions
        app = lambda_app.for_tenant("acme")
        assert app.credentials is not None and app.credentials.access_key_id != key["AccessKeyId"]
    lambda_app.cache_clear()


def test_an_app_is_built_again_before_its_tenants_credentials_expire(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[Credentials] = []

    def assume(role_arn: str, tenant: str, region: str) -> Credentials:
        left = timedelta(minutes=5 if not made else 60)  # the first ones end too soon
        made.append(Credentials(f"AKIA{len(made)}", "s", "t", datetime.now(UTC) + left))
        return made[-1]

    monkeypatch.setattr("tutor_memory.adapters.tenant_credentials.assume_tenant_role", assume)
    monkeypatch.setenv("TUTOR_MEMORY_BACKEND", "sqlite")
    monkeypatch.setenv("TUTOR_MEMORY_SQLITE_PATH", ":memory:")
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    monkeypatch.setenv("TUTOR_MEMORY_TENANT_ROLE_ARN", "arn:aws:iam::1:role/tenant-data")
    apps = LambdaApps()
    first = apps.for_tenant("acme")
    closed: list[object] = []
    monkeypatch.setattr(first, "close", lambda: closed.append(first))
    second = apps.for_tenant("acme")  # the first credentials end within the margin
    assert first is not second and second.credentials is made[1]
    assert closed == [first]  # the replaced App's connections are released, not leaked
    assert apps.for_tenant("acme") is second  # the fresh ones are kept
    assert closed == [first]
    apps.cache_clear()


def test_ingest_and_consolidate_work_with_the_tenants_session_alone(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ingest and consolidate functions' own credentials may only assume the tenant
    role: an upload under ``uploads/T/acme/`` is read, its removal told by listing its
    versions, and acme's night run, each with acme's session (the role here holds the
    template's table actions and acme's S3 statements, the tag put in: moto reads neither
    tags nor conditions)."""
    from .test_ingest_handler import s3_event
    from .test_nightly_handlers import MORNING, a_day_of_work, sqs_event

    set_cloud_env(tmp_path, monkeypatch)
    monkeypatch.delenv("AWS_SESSION_TOKEN")  # an IAM user's keys carry none
    monkeypatch.setenv("TUTOR_MEMORY_UPLOADS_BUCKET", UPLOADS)
    lambda_app.cache_clear()
    key = f"uploads/T/acme/s-42/biology/{sample_subject()[0][0]}"
    with mock_aws():
        DynamoStore(TABLE, REGION).create_table()
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=UPLOADS)
        s3.put_bucket_versioning(Bucket=UPLOADS, VersioningConfiguration={"Status": "Enabled"})
        put = s3.put_object(Bucket=UPLOADS, Key=key, Body=sample_subject()[0][1])
        iam = boto3.client("iam", region_name=REGION)
        role = iam.create_role(
            RoleName="tenant-data", AssumeRolePolicyDocument=json.dumps(TRUST_ALL_OF_THE_ACCOUNT)
        )["Role"]["Arn"]
        table = sorted(
            {a for a, _ in Stack().role_grants("TenantDataRole") if a.startswith("dynamodb:")}
            | {"dynamodb:TransactWriteItems"}  # moto's name for a transaction's items
        )
        policy = session_policy("acme")
        policy["Statement"].append({"Effect": "Allow", "Action": table, "Resource": "*"})
        iam.put_role_policy(
            RoleName="tenant-data", PolicyName="data", PolicyDocument=json.dumps(policy)
        )
        iam.create_user(UserName="worker")
        assume = {"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": role}
        iam.put_user_policy(
            UserName="worker",
            PolicyName="assume",
            PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [assume]}),
        )
        own = iam.create_access_key(UserName="worker")["AccessKey"]
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", own["AccessKeyId"])
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", own["SecretAccessKey"])
        monkeypatch.setenv("TUTOR_MEMORY_TENANT_ROLE_ARN", role)
        monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)  # it keeps what it first read
        monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)
        with pytest.raises(StoreError, match="AccessDenied"):  # the function's own: refused
            S3Files(REGION).fetch(UPLOADS, key)
        with pytest.raises(StoreError, match="AccessDenied"):
            DynamoStore(TABLE, REGION, tenant="acme").episodes(Pair("s-42", "biology"))

        ingest = load_handler("ingest").handler
        created = s3_event("ingest-s3-object-created.json", key, put["VersionId"])
        for record in created["Records"]:
            record["s3"]["bucket"].update(name=UPLOADS, arn=f"arn:aws:s3:::{UPLOADS}")
        (outcome,) = ingest(created, LambdaContext())["outcomes"]
        assert outcome["status"] == "ingested", outcome
        acme = lambda_app.for_tenant("acme")
        assert "osmosis" in acme.ports.store.load_map(Pair("s-42", "biology")).concepts

        assert acme.credentials is not None
        boto3.client("s3", region_name=REGION, **acme.credentials.boto3_kwargs()).delete_object(
            Bucket=UPLOADS, Key=key
        )  # (acme's session may: a delete marker on top)
        removed = s3_event("ingest-s3-object-removed.json", key, None)
        for record in removed["Records"]:
            record["s3"]["bucket"].update(name=UPLOADS, arn=f"arn:aws:s3:::{UPLOADS}")
        (outcome,) = ingest(removed, LambdaContext())["outcomes"]
        assert outcome["status"] == "removed", outcome

        a_day_of_work(acme.ports.store, [Pair("s-42", "biology")])  # type: ignore[arg-type]
        body = {"student_id": "s-42", "subject_id": "biology",
                "day": MORNING.date().isoformat(), "tenant": "acme"}  # fmt: skip
        message = {"MessageId": "m-1", "ReceiptHandle": "r-1", "Body": json.dumps(body)}
        worker = load_handler("consolidate").handler
        assert worker(sqs_event([message]), LambdaContext()) == {"batchItemFailures": []}
        sessions = [r.session_name for r in sts_backends[ACCOUNT]["aws"].assumed_roles]
        assert sessions and set(sessions) == {"tenant-acme"}
    lambda_app.cache_clear()
