"""What one episode's erasure costs on a long history, in CPU time (the machine is shared).

``python -m tutor_memory.bench.erasure_cost [--episodes N]`` writes one pair of N episodes on
the embedded store (no embedder: the erasure embeds nothing) — questions and 240-character
answers in turn, the first one "my name is Maya" — and folds the night's tally, as a night
does; then, each on its own copy of that store, erases the newest episode, and the first (the
student's name goes with it, so the profile looks for a tutor's greeting to hear instead), as
a request does (the API, the library: the chain's checkpoint is left to the night) and as an
operator does (the CLI: anchored at once). Printed per case: CPU seconds of
``erase_episode``, how many times it read the whole log, and the main parts (the chain's
verification before the checkpoint the erasure anchors, the profile's look for a greeting, the
index purge). Printed, never asserted.

``--dynamodb N``: instead, the DynamoDB requests (by operation, counted as ``bench.cloudcost``
counts a turn's, on moto) of erasing a pair of N episodes, and of erasing its newest episode:
each request is a wait on DynamoDB's real latency, which moto does not have.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.settings import Settings, on_folder

PAIR = Pair("maya", "biology")
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def _open(folder: Path) -> App:
    return build_app(on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder))


def write_history(folder: Path, episodes: int) -> None:
    app = _open(folder)
    app.episodes.add(PAIR, Kind.QUESTION, "my name is Maya", at=T0)
    history = []
    for i in range(episodes - 1):
        at = T0 + timedelta(minutes=i + 1)
        if i % 2 == 0:
            text = f"what is osmosis, question {i % 997}?"
            history.append(NewEpisode(pair=PAIR, kind=Kind.QUESTION, text=text, at=at))
        else:
            text = f"Osmosis moves water across a membrane, example {i % 991}. " * 4
            history.append(NewEpisode(pair=PAIR, kind=Kind.ANSWER, text=text, at=at))
    app.episodes.add_many(history, batch_size=512)
    app.nightly.scan(PAIR)


def _timed(parts: dict[str, float], label: str, call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            parts[label] = parts.get(label, 0.0) + time.process_time() - start

    return timed


def erase_one(folder: Path, which: str, *, operator: bool = False) -> dict[str, Any]:
    """Erase the pair's ``newest`` or ``first`` episode, as a request or (``operator``) as
    the CLI does; its CPU seconds, reads and parts."""
    app = _open(folder)
    assert app.erasing is not None and app.profiles is not None
    app.erasing.anchor_at_once = operator
    store = app.ports.store
    episode = store.recent(PAIR, 1)[0] if which == "newest" else store.episodes(PAIR, limit=1)[0]
    parts: dict[str, float] = {}
    reads = [0]
    whole = store.iter_episodes

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads[0] += 1
        return whole(*args, **kwargs)

    store.iter_episodes = counted  # type: ignore[method-assign]
    memory, profiles, erasing = app.memory, app.profiles, app.erasing
    memory.verify_chain = _timed(parts, "verify", memory.verify_chain)  # type: ignore[method-assign]
    profiles._hear_a_greeting_again = _timed(  # type: ignore[method-assign]
        parts, "greeting", profiles._hear_a_greeting_again
    )
    erasing._purge_index = _timed(parts, "purge", erasing._purge_index)  # type: ignore[method-assign]
    start = time.process_time()
    erasing.erase_episode(PAIR, episode.episode_id, reason="bench")
    cpu = time.process_time() - start
    return {"case": which, "as": "operator" if operator else "request", "cpu_s": round(cpu, 2),
            "reads": reads[0], **{k: round(v, 2) for k, v in parts.items()}}  # fmt: skip


def dynamo_requests(episodes: int, which: str) -> dict[str, Any]:
    """The DynamoDB requests of erasing a pair of ``episodes`` (``which``: ``pair``), or its
    newest episode (``episode``), on moto."""
    from moto import mock_aws

    from tutor_memory.adapters.dynamo_store import DynamoStore
    from tutor_memory.bench.cloudcost import Tally, counting_dynamodb

    table, region = "tm-erasure-cost", "us-east-1"
    with tempfile.TemporaryDirectory(prefix="tm-erasure-cost-") as tmp, mock_aws():
        DynamoStore(table, region).create_table()
        tally = Tally()
        with counting_dynamodb(tally):  # the app's clients are made inside the count
            settings = Settings.from_env(
                {
                    "TUTOR_MEMORY_BACKEND": "dynamodb",
                    "TUTOR_MEMORY_TABLE_NAME": table,
                    "TUTOR_MEMORY_AWS_REGION": region,
                    "TUTOR_MEMORY_EMBEDDER": "none",
                    "TUTOR_MEMORY_INDEX_PATH": str(Path(tmp) / "index.db"),
                }
            )
            app = build_app(settings)
            assert app.erasing is not None
            app.episodes.add_many(_history(episodes), batch_size=100)
            tally.reset()
            if which == "pair":
                app.erasing.erase_pair(PAIR, reason="bench")
            else:
                newest = app.ports.store.recent(PAIR, 1)[0]
                app.erasing.erase_episode(PAIR, newest.episode_id, reason="bench")
            counted = tally.snapshot()
    return {"erase": which, "episodes": episodes, "requests": counted["requests"],
            **counted["by_operation"]}  # fmt: skip


def _history(episodes: int) -> list[NewEpisode]:
    """Questions and answers on two concepts, in turn, an hour apart."""
    out = []
    for i in range(episodes):
        at = T0 + timedelta(hours=i)
        if i % 2 == 0:
            out.append(NewEpisode(pair=PAIR, kind=Kind.QUESTION, text=f"osmosis {i}?", at=at))
        else:
            text, concepts = f"Osmosis moves water, part {i}.", ("Osmosis", "Diffusion")
            out.append(NewEpisode(pair=PAIR, kind=Kind.ANSWER, text=text, at=at, concepts=concepts))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor_memory.bench.erasure_cost")
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--dynamodb", type=int, metavar="N", help="count DynamoDB requests")
    args = parser.parse_args(argv)
    if args.dynamodb is not None:
        for which in ("pair", "episode"):
            row = dynamo_requests(args.dynamodb, which)
            print(", ".join(f"{k} {v}" for k, v in row.items()))
        return 0
    with tempfile.TemporaryDirectory(prefix="tm-erasure-cost-") as tmp:
        built = Path(tmp) / "built"
        start = time.process_time()
        write_history(built, args.episodes)
        print(f"{args.episodes} episodes written in {time.process_time() - start:.1f} s CPU")
        for which in ("newest", "first"):
            for operator in (False, True):
                copy = Path(tmp) / which
                shutil.copytree(built, copy)
                row = erase_one(copy, which, operator=operator)
                print(", ".join(f"{k} {v}" for k, v in row.items()))
                shutil.rmtree(copy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
