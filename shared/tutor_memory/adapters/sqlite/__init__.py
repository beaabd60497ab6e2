"""The embedded default store: one SQLite file (WAL), or ``:memory:`` in tests.

Appends run in one ``BEGIN IMMEDIATE`` transaction: the write lock is taken before the head is
read, so two writers (threads or processes) can never seal against the same head. A file
database gives each thread its own connection and lets SQLite's lock serialise them; an
in-memory database has a single connection, serialised by a lock in this process.

Schema changes are numbered migrations tracked in ``PRAGMA user_version``.

One module per store port (``ports``), each a mixin over the connection they share
(``connection``: the connection and its lock, migrations from ``schema``, episode rows):
``episodes`` (the log, over the turn's ``kept_reads``), ``files`` (annotations and the file
registry), ``maps``, ``beliefs``, ``nightly`` and ``erasure``; :class:`SqliteStore` is all of
them at once.
"""

from __future__ import annotations

from tutor_memory.adapters.sqlite.episodes import SqliteEpisodes
from tutor_memory.adapters.sqlite.erasure import SqliteErasure
from tutor_memory.adapters.sqlite.files import SqliteFiles
from tutor_memory.adapters.sqlite.maps import SqliteMaps
from tutor_memory.adapters.sqlite.nightly import SqliteNightly
from tutor_memory.adapters.sqlite.schema import MIGRATIONS

__all__ = ["MIGRATIONS", "SqliteStore"]


class SqliteStore(SqliteEpisodes, SqliteFiles, SqliteMaps, SqliteErasure, SqliteNightly):
    """:class:`tutor_memory.ports.EpisodeStore` on SQLite."""
