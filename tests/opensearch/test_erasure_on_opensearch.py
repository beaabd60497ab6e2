"""Erasure on the real OpenSearch node: an erased episode's document leaves the index and, after
the purge, its segments, its translog and every byte of the node's files for the index (no
deleted document is kept on disk as history or waiting for a merge)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.adapters.opensearch_index import OpenSearchIndex
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import IndexedEpisode

T0 = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
ANA = Pair("ana", "biology")
MARKER = "zorblaxquint"


def doc(seq: int, terms: str) -> IndexedEpisode:
    return IndexedEpisode(
        ANA, f"e{seq}-{seq:012x}", seq, "question", T0 + timedelta(minutes=seq), terms,
        (1.0, 0.0, 0.0, 0.0),
    )  # fmt: skip


def test_an_erased_document_is_found_by_no_search_and_kept_in_no_segment(
    make_index: Callable[..., OpenSearchIndex], client: Any
) -> None:
    index = make_index()
    index.add([doc(1, f"osmosi {MARKER} cell"), doc(2, "cell membran"), doc(3, f"{MARKER}")])
    assert index.term_counts(ANA, [MARKER]).containing[MARKER] == 2

    assert index.delete_episodes(ANA, ["e1-000000000001", "e3-000000000003"]) == 2
    index.purge()

    lexical, semantic, _counts = index.search(
        ANA, terms=[MARKER, "cell"], vector=(1.0, 0.0, 0.0, 0.0), lexical_limit=10, k=10
    )
    assert (
        [h.episode_id for h in lexical] == [h.episode_id for h in semantic] == ["e2-000000000002"]
    )
    assert index.term_counts(ANA, [MARKER]).containing[MARKER] == 0
    found = client.search(index=index.index, body={"query": {"match_all": {}}})["hits"]["hits"]
    assert MARKER not in repr(found)


def _index_files(client: Any, index: str) -> list[Path]:
    """Every file of the index on the node's disk: segments, translog, state (the node runs on
    this machine; its data path comes from the node itself)."""
    uuid = client.indices.get_settings(index=index)[index]["settings"]["index"]["uuid"]
    node = next(iter(client.nodes.stats(node_id="_local", metric="fs")["nodes"].values()))
    folders = [Path(d["path"]) / "indices" / uuid for d in node["fs"]["data"]]
    if not any(f.is_dir() for f in folders):
        pytest.fail(f"the node's data for {index} is not on this machine ({folders})")
    return [p for f in folders for p in f.rglob("*") if p.is_file()]


def _holding(files: list[Path], marker: str) -> list[str]:
    return [p.name for p in files if marker.encode() in p.read_bytes()]


def test_the_purge_leaves_no_deleted_document_in_a_segment_nor_a_byte_on_disk(
    make_index: Callable[..., OpenSearchIndex], client: Any
) -> None:
    index = make_index()
    index.add([doc(1, f"osmosi {MARKER} cell"), doc(2, "cell membran")])
    client.indices.flush(index=index.index)
    assert _holding(_index_files(client, index.index), MARKER)  # the scan does see it

    index.delete_episodes(ANA, ["e1-000000000001"])
    # The shard's history keeps a deleted document until its retention lease moves past it
    # (every 30 s on the node): the purge waits for that, then merges it away.
    assert index.purge(wait=120) == 0

    shards = client.indices.segments(index=index.index)["indices"][index.index]["shards"]
    kept = [g for shard in shards.values() for copy in shard for g in copy["segments"].values()]
    assert sum(g["deleted_docs"] for g in kept) == 0, kept
    assert sum(g["num_docs"] for g in kept) == 1
    assert _holding(_index_files(client, index.index), MARKER) == []
    assert [
        h.episode_id
        for h in index.search(ANA, terms=["cell"], vector=None, lexical_limit=10, k=0)[0]
    ] == ["e2-000000000002"]


def test_a_document_erased_before_the_index_refreshed_goes_too(
    client: Any, index_names: list[str]
) -> None:
    """In production documents become searchable only at the next refresh: an erasure right
    after the write deletes the document by its id, not by a search that cannot see it yet."""
    name = f"tm-test-{uuid.uuid4().hex[:12]}"
    index_names.append(name)
    index = OpenSearchIndex(
        client, index=name, dimension=4, engine="lucene", refresh=False, shards=1, replicas=0
    )
    index.ensure_index()
    client.indices.put_settings(index=name, body={"index": {"refresh_interval": "-1"}})
    index.add([doc(1, f"osmosi {MARKER}")])

    assert index.delete_episodes(ANA, ["e1-000000000001"]) == 1
    client.indices.refresh(index=name)
    assert client.search(index=name, body={"query": {"match_all": {}}})["hits"]["hits"] == []
