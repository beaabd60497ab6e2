"""The embedded default store at its first import path: the store itself is the package
:mod:`tutor_memory.adapters.sqlite`, one module per store port."""

from __future__ import annotations

from tutor_memory.adapters.sqlite import SqliteStore
from tutor_memory.adapters.sqlite.schema import MIGRATIONS, _backfill_nightly

__all__ = ["MIGRATIONS", "SqliteStore", "_backfill_nightly"]
