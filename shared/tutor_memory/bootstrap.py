"""The single place that turns settings into adapters and a service.

Adapters are imported here, lazily, so that the embedded default never imports pynamodb and a
Lambda never imports SQLite code it does not use; nothing connects before it is asked to.
"""

from __future__ import annotations

from tutor_memory.ports import Clock, EpisodeStore, SystemClock
from tutor_memory.service import TutorMemory
from tutor_memory.settings import Settings


def build_store(settings: Settings) -> EpisodeStore:
    if settings.backend == "dynamodb":
        from tutor_memory.adapters.dynamo_store import DynamoStore

        return DynamoStore(
            settings.table_name, settings.aws_region, host=settings.dynamodb_endpoint
        )
    from tutor_memory.adapters.sqlite_store import SqliteStore

    return SqliteStore(settings.sqlite_path)


def build_service(settings: Settings | None = None, *, clock: Clock | None = None) -> TutorMemory:
    settings = settings or Settings.from_env()
    return TutorMemory(store=build_store(settings), clock=clock or SystemClock())
