"""Replay a recorded history (JSONL) into an isolated store, through the same use cases as chat.

The history format, one event per line (UTF-8, blank lines ignored)::

    {"student": "s1", "subject": "biology", "at": "2026-07-12T15:00:00Z",
     "kind": "question", "text": "What is a cell?",
     "summary": "...", "concepts": ["Cell"], "evidence": {...}, "salience": 0.5,
     "ref": "chat-0001", "idempotency_key": "...", "recalled_refs": ["chat-0000"]}

``student``, ``subject``, ``at`` (ISO 8601 with a zone), ``kind`` and ``text`` are required;
``evidence`` follows the kind (check: topic, verdict, evaluation, predicted_mastery; quiz:
score, maximum, topics; answer: file_id, page, fingerprint; file: file_id, name, fingerprint;
taught: note; consolidation: day, counts, …). ``recalled_refs`` (answers only) names earlier
lines of the same pair by their ``ref``; they become the answer's recalled memory ids. Any
other field is an error, so a typo never passes silently.

A replay never writes into a live store: the target folder must not exist yet. It is built
beside it under a temporary name and renamed into place only when every line has been written;
a bad line stops the replay before anything is written (or, with ``skip_bad``, is skipped and
counted).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from tutor_memory.domain.episodes import NewEpisode, Pair, evidence_from_dict, parse_kind
from tutor_memory.domain.errors import TutorMemoryError, ValidationError
from tutor_memory.ports import Embedder, Vectors

REQUIRED = ("student", "subject", "at", "kind", "text")
OPTIONAL = (
    "summary",
    "concepts",
    "evidence",
    "salience",
    "ref",
    "idempotency_key",
    "recalled_refs",
)


class ReplayError(TutorMemoryError):
    """The history has bad lines; nothing was written."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        self.problems = problems
        shown = "; ".join(f"line {n}: {msg}" for n, msg in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"{len(problems)} bad line(s), nothing written: {shown}{more}")


@dataclass(frozen=True)
class HistoryEvent:
    line: int
    episode: NewEpisode
    recalled_refs: tuple[str, ...] = ()


def parse_line(line_no: int, raw: str) -> HistoryEvent:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError("line", f"is not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValidationError("line", "must be a JSON object")
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise ValidationError(unknown[0], "is not a field of the history format")
    for name in REQUIRED:
        if name not in data:
            raise ValidationError(name, "is required")
    at = data["at"]
    try:
        when = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError("at", f"is not an ISO 8601 time ({at!r})") from None
    kind = parse_kind(data["kind"])
    recalled = data.get("recalled_refs") or []
    if not isinstance(recalled, list) or not all(isinstance(r, str) for r in recalled):
        raise ValidationError("recalled_refs", "must be a list of refs")
    episode = NewEpisode(
        pair=Pair(data["student"], data["subject"]),
        kind=kind,
        text=data["text"],
        at=when,
        summary=data.get("summary") or "",
        concepts=tuple(data.get("concepts") or ()),
        salience=data.get("salience"),
        evidence=evidence_from_dict(kind, data.get("evidence")),
        ref=data.get("ref"),
        idempotency_key=data.get("idempotency_key"),
    )
    if recalled and kind.value != "answer":
        raise ValidationError("recalled_refs", "only an answer carries recalled memories")
    return HistoryEvent(line_no, episode, tuple(recalled))


def parse_history(lines: Iterable[str]) -> tuple[list[HistoryEvent], list[tuple[int, str]]]:
    """Every event, and every problem as (line number, message). Refs are checked too."""
    events: list[HistoryEvent] = []
    problems: list[tuple[int, str]] = []
    seen_refs: set[tuple[Pair, str]] = set()
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            event = parse_line(line_no, raw)
        except (ValidationError, TypeError) as exc:
            problems.append((line_no, str(exc)))
            continue
        missing = [r for r in event.recalled_refs if (event.episode.pair, r) not in seen_refs]
        if missing:
            problems.append((line_no, f"recalled_refs: no earlier line has ref {missing[0]!r}"))
            continue
        if event.episode.ref is not None:
            seen_refs.add((event.episode.pair, event.episode.ref))
        events.append(event)
    return events, problems


@dataclass
class ReplayReport:
    events: int = 0
    skipped: int = 0
    pairs: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def events_per_second(self) -> float:
        total = sum(self.seconds.values())
        return self.events / total if total > 0 else 0.0


class TimedEmbedder:
    """Wraps an embedder to measure where replay time goes."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0

    @property
    def profile(self) -> Any:
        return self.inner.profile

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self._timed(self.inner.embed_queries, texts)

    def embed_passages(self, texts: list[str]) -> Vectors:
        return self._timed(self.inner.embed_passages, texts)

    def _timed(self, fn: Callable[[list[str]], Vectors], texts: list[str]) -> Vectors:
        start = time.perf_counter()
        try:
            return fn(texts)
        finally:
            self.seconds += time.perf_counter() - start


def replay(
    history: Path,
    target: Path,
    build: Callable[[Path], Any],
    *,
    skip_bad: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> ReplayReport:
    """Rebuild every pair of ``history`` into a new store folder ``target``.

    ``build(folder)`` returns a :class:`~tutor_memory.service.TutorMemory` on a fresh
    embedded store in ``folder`` (the CLI wires it); its embedder, if any, is timed.
    """
    if target.exists():
        raise ValidationError(
            "store", f"{target} already exists; replay builds a new, isolated store only"
        )
    report = ReplayReport()
    start = time.perf_counter()
    with history.open(encoding="utf-8") as handle:
        events, problems = parse_history(handle)
    report.seconds["parse"] = time.perf_counter() - start
    if problems and not skip_bad:
        raise ReplayError(problems)
    report.skipped = len(problems)

    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        memory = build(partial)
        if memory.embedder is not None:
            memory.embedder = TimedEmbedder(memory.embedder)
        write_start = time.perf_counter()
        _write(memory, events, on_progress)
        written = time.perf_counter() - write_start
        embed = memory.embedder.seconds if isinstance(memory.embedder, TimedEmbedder) else 0.0
        report.seconds["embed"] = embed
        report.seconds["append and index"] = written - embed
        memory.close()
        partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    report.events = len(events)
    report.pairs = len({e.episode.pair for e in events})
    return report


def _write(
    memory: Any, events: list[HistoryEvent], on_progress: Callable[[int, int], None] | None
) -> None:
    """Append in file order; answers get their recalled ids once their sources exist."""
    ids_by_ref: dict[tuple[Pair, str], str] = {}
    done = 0
    batch: list[HistoryEvent] = []

    def flush() -> None:
        nonlocal done
        if not batch:
            return
        results = memory.record_many([e.episode for e in batch], batch_size=len(batch))
        for event, result in zip(batch, results, strict=True):
            if event.episode.ref is not None:
                ids_by_ref[(event.episode.pair, event.episode.ref)] = result.episode.episode_id
        done += len(batch)
        batch.clear()
        if on_progress is not None:
            on_progress(done, len(events))

    for event in events:
        if event.recalled_refs:
            flush()  # its sources must have ids first
            ids = tuple(ids_by_ref[(event.episode.pair, r)] for r in event.recalled_refs)
            event = HistoryEvent(
                event.line, replace(event.episode, recalled_ids=ids), event.recalled_refs
            )
        batch.append(event)
        if len(batch) >= 64:
            flush()
    flush()
