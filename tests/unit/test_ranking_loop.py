"""The embedded index's ranking loop in C (adapters/_ranking.c) gives exactly what the numpy
form gives: the same hits in the same order, the same scores to the last bit, the same matched
terms and counts, over histories with many equal scores, windows and cuts."""

from __future__ import annotations

import random
import shutil
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from tutor_memory.adapters import embedded_index
from tutor_memory.adapters.embedded_index import EmbeddedIndex
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Found, IndexedEpisode

PAIR = Pair("student-7", "chemistry")
OTHER = Pair("student-8", "chemistry")
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
WORDS = [f"w{i}" for i in range(40)] + ["عنصر", "átomo", "ikatan", "مادہ"]

needs_the_loop = pytest.mark.skipif(
    embedded_index._ranking is None, reason="the C loop was not built on this machine"
)


def history(seed: int, n: int) -> list[IndexedEpisode]:
    """Short texts over a small vocabulary (many equal BM25 scores), texts and vectors repeated
    (equal cosines), times out of order, and a second pair beside."""
    rng = random.Random(seed)
    vectors = [rng.gauss(0, 1) for _ in range(8 * 40)]
    docs = []
    for seq in range(1, n + 1):
        text = " ".join(rng.choices(WORDS, k=rng.choice((1, 2, 3, 3, 5, 12))))
        if seq > 10 and rng.random() < 0.2:
            text = docs[rng.randrange(len(docs))].terms  # the same words again
        row = rng.randrange(40)
        v = np.asarray(vectors[8 * row : 8 * row + 8], dtype=np.float32)
        at = T0 + timedelta(hours=rng.randrange(24 * 300))
        pair = PAIR if rng.random() < 0.9 else OTHER
        docs.append(IndexedEpisode(pair, f"ep-{seq:05d}", seq, "answer", at, text,
                                   list(v / np.linalg.norm(v))))  # fmt: skip
    return docs


def searches(seed: int) -> list[dict[str, object]]:
    rng = random.Random(f"{seed}:asked")
    windows = [None, TimeWindow(T0 + timedelta(days=40), T0 + timedelta(days=75), "window"),
               TimeWindow(T0 - timedelta(days=9), T0 - timedelta(days=2), "window")]  # fmt: skip
    asked = []
    for _ in range(120):
        v = np.asarray([rng.gauss(0, 1) for _ in range(8)], dtype=np.float32)
        asked.append(
            {
                "terms": rng.sample([*WORDS, "absent"], rng.choice((1, 1, 2, 3, 8, 9, 14))),
                "vector": v / np.linalg.norm(v),
                "lexical_limit": rng.choice((1, 7, 50, 200, 10_000)),
                "k": rng.choice((1, 5, 50, 1_000)),
                "window": rng.choice(windows),
            }
        )
    return asked


def same(a: Found, b: Found) -> bool:
    """Equal hits, scores compared as exact doubles, matched terms, counts."""
    return (
        all(
            (x.episode_ids, x.seqs, x.scores, x.matched)
            == (y.episode_ids, y.seqs, y.scores, y.matched)
            for x, y in ((a.lexical, b.lexical), (a.semantic, b.semantic))
        )
        and a.counts == b.counts
    )


@needs_the_loop
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_c_loop_ranks_exactly_as_numpy_does(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    index = EmbeddedIndex()
    index.add(history(seed, 1_500))
    asked = searches(seed)
    by_c = [index.search(PAIR, **q) for q in asked]  # type: ignore[arg-type]
    monkeypatch.setattr(embedded_index, "_ranking", None)
    by_numpy = [index.search(PAIR, **q) for q in asked]  # type: ignore[arg-type]

    assert [i for i, (c, n) in enumerate(zip(by_c, by_numpy, strict=True)) if not same(c, n)] == []
    # The histories did hold what makes ranking hard: ties at the cut and across terms.
    lexical = [s for f in by_c for s in f.lexical.scores]
    assert len(lexical) > 2_000 and len(set(lexical)) < len(lexical) / 2
    assert any(len(m) > 1 for f in by_c for m in f.lexical.matched or [])


@needs_the_loop
def test_searches_in_a_row_leave_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Questions of 2 to 14 words, one after another, each rank as on a fresh index."""
    index = EmbeddedIndex()
    index.add(history(9, 800))
    asked = searches(9)[:40]
    in_a_row = [index.search(PAIR, **q) for q in asked]  # type: ignore[arg-type]
    for q, got in zip(asked, in_a_row, strict=True):
        fresh = EmbeddedIndex()
        fresh.add(history(9, 800))
        assert same(got, fresh.search(PAIR, **q))  # type: ignore[arg-type]


@needs_the_loop
def test_the_c_loop_refuses_arrays_it_would_read_past() -> None:
    """Its checks stand between a wrong argument and memory it does not own: a clear error."""
    loop = embedded_index._ranking
    assert loop is not None
    ids, seqs, ats = ["a", "b"], np.arange(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    part, sums, bits = np.ones(256), np.zeros(2), np.zeros(2, dtype=np.int64)

    def term(positions: list[int], dtype: type = np.int32) -> tuple[object, ...]:
        n = len(positions)
        return (np.asarray(positions, dtype=dtype), np.ones(n, np.float32),
                np.zeros(n, np.uint8), 1.0, 1)  # fmt: skip

    def lexical(*terms: tuple[object, ...]) -> object:
        names = tuple(f"t{i}" for i in range(len(terms)))
        return loop.lexical_top(list(terms), names, part, 2.2, seqs, ats, None, ids, 5, sums, bits)  # type: ignore[arg-type]

    assert lexical(term([0, 1]))[0] == ["b", "a"]  # type: ignore[index]  # ties: newer first
    with pytest.raises(ValueError, match="out of range"):
        lexical(term([0, 2]))
    with pytest.raises(ValueError, match="positions"):
        lexical(term([0, 1], dtype=np.int64))
    with pytest.raises(ValueError, match="one name per term"):
        loop.lexical_top([term([0])], ("a", "b"), part, 2.2, seqs, ats, None, ids, 5, sums, bits)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reach past"):
        loop.semantic_top(np.ones(2, np.float32), seqs, ids, 1, 5)
    with pytest.raises(ValueError, match="scores"):
        loop.semantic_top(np.ones(2), seqs, ids, 0, 5)
    assert not sums.any() and not bits.any()


@pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler")
def test_where_a_c_compiler_is_found_the_install_built_the_loop() -> None:
    """The extension is optional (an install without a compiler ranks with numpy); where one
    is found, a silently failed build would leave every search on the slower form."""
    assert embedded_index._ranking is not None
