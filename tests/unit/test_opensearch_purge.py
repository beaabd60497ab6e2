"""Erasure's purge of the search index on a Serverless collection, which has no _forcemerge,
_flush or _stats: nothing is asked of it (a call would fail the erasure after its deletions)."""

from __future__ import annotations

from typing import Any

from tutor_memory.adapters.opensearch_index import OpenSearchIndex


class RefusingClient:
    """Any call is what Serverless refuses."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"Serverless was asked for {name}")


def test_purge_on_a_serverless_collection_calls_nothing_and_reports_nothing_kept() -> None:
    index = OpenSearchIndex(
        RefusingClient(), index="episodes", dimension=8, custom_ids=False, serverless=True
    )
    assert index.purge(wait=60.0) == 0
