"""Replay a recorded history (JSONL) into an isolated store, through the same use cases as chat.

The history format, one event per line (UTF-8, blank lines ignored)::

    {"student": "s1", "subject": "biology", "at": "2026-07-12T15:00:00Z",
     "kind": "question", "text": "What is a cell?",
     "summary": "...", "concepts": ["Cell"], "evidence": {...}, "salience": 0.5,
     "ref": "chat-0001", "idempotency_key": "...", "recalled_refs": ["chat-0000"]}

``student``, ``subject``, ``at`` (ISO 8601 with a zone), ``kind`` and ``text`` are required;
``evidence`` follows the kind (check: topic, verdict, evaluation, predicted_mastery; quiz:
score, maximum, topics; answer: file_id, page — the fingerprint is stamped from the registry;
taught: note; consolidation: day, counts, …). ``recalled_refs`` (answers only) names earlier
lines of the same pair by their ``ref``; they become the answer's recalled memory ids. Any
other field is an error, so a typo never passes silently.

A file arrival names the file instead of a text — ``{"student": …, "subject": …, "at": …,
"kind": "file", "path": "notes/cells.pdf", "file_id": "cells"}`` (``path`` relative to the
history file; ``file_id`` defaults to the file name) — and is read into the map.

Every event goes through the use case a live chat uses (``Episodes.add``, the one door an
episode enters by): checks update beliefs (and confirm the map), a "remember that …" teaches
the map, a file is ingested, answers are stamped with their cited file's fingerprint.

A replay never writes into a live store: the target folder must not exist yet. It is built
beside it under a temporary name and renamed into place only when every line has been written;
a bad line stops the replay before anything is written (or, with ``skip_bad``, is skipped and
counted).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import numpy as np

from tutor_memory.domain.episodes import (
    Evidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    TaughtEvidence,
    evidence_from_dict,
    file_arrived,
    file_id_for,
    parse_kind,
)
from tutor_memory.domain.errors import TutorMemoryError, ValidationError
from tutor_memory.domain.files import fingerprint
from tutor_memory.domain.filetext import UnreadableFileError
from tutor_memory.domain.teaching import detect_teaching
from tutor_memory.ports import Embedder, Vectors

REQUIRED = ("student", "subject", "at", "kind")
OPTIONAL = (
    "text",
    "path",
    "file_id",
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
    data: bytes | None = None  # a file arrival's bytes


def parse_line(line_no: int, raw: str, base: Path = Path(".")) -> HistoryEvent:
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
    pair = Pair(data["student"], data["subject"])
    if kind is Kind.FILE:
        return _file_event(line_no, data, pair, when, base)
    if "text" not in data:
        raise ValidationError("text", "is required")
    if "path" in data or "file_id" in data:
        raise ValidationError("path", "only a file arrival names a path")
    recalled = data.get("recalled_refs") or []
    if not isinstance(recalled, list) or not all(isinstance(r, str) for r in recalled):
        raise ValidationError("recalled_refs", "must be a list of refs")
    episode = NewEpisode(
        pair=pair,
        kind=kind,
        text=data["text"],
        at=when,
        summary=data.get("summary") or "",
        concepts=tuple(data.get("concepts") or ()),
        salience=data.get("salience"),
        evidence=_evidence(kind, data),
        ref=data.get("ref"),
        idempotency_key=data.get("idempotency_key"),
    )
    if recalled and kind.value != "answer":
        raise ValidationError("recalled_refs", "only an answer carries recalled memories")
    return HistoryEvent(line_no, episode, tuple(recalled))


def _evidence(kind: Kind, data: dict[str, Any]) -> Evidence:
    """A taught line may leave its note out: it is what the instruction asks to remember."""
    if kind is Kind.TAUGHT and not data.get("evidence"):
        intent = detect_teaching(str(data["text"]))
        return TaughtEvidence(intent.note if intent else str(data["text"]))
    return evidence_from_dict(kind, data.get("evidence"))


def _file_event(
    line_no: int, data: dict[str, Any], pair: Pair, when: datetime, base: Path
) -> HistoryEvent:
    if "path" not in data:
        raise ValidationError("path", "is required for a file arrival")
    path = base / str(data["path"])
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise ValidationError("path", f"cannot read {path}: {exc.strerror}") from None
    name = path.name
    file_id = str(data.get("file_id") or file_id_for(name))
    episode = NewEpisode(
        pair=pair,
        kind=Kind.FILE,
        text=file_arrived(name),
        at=when,
        evidence=FileEvidence(file_id, name, fingerprint(content)),
        ref=data.get("ref"),
    )
    return HistoryEvent(line_no, episode, data=content)


def parse_history(
    lines: Iterable[str], base: Path = Path(".")
) -> tuple[list[HistoryEvent], list[tuple[int, str]]]:
    """Every event, and every problem as (line number, message). Refs are checked too."""
    events: list[HistoryEvent] = []
    problems: list[tuple[int, str]] = []
    seen_refs: set[tuple[Pair, str]] = set()
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            event = parse_line(line_no, raw, base)
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
    unreadable: int = 0  # file arrivals that could not be read (recorded as such)
    pairs: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def events_per_second(self) -> float:
        total = sum(self.seconds.values())
        return self.events / total if total > 0 else 0.0


# Events read ahead to embed their texts together, and texts per engine call (ours): the
# engine embeds ~22 passages/s in batches of 100 but ~6/s in batches of 8, and the writes
# flush a batch at every check, teaching note or file — embedding ahead keeps batches full.
REPLAY_LOOKAHEAD: Final = 2048
REPLAY_EMBED_BATCH: Final = 64
REPLAY_VECTOR_CACHE: Final = 200_000  # distinct texts kept (~1.5 KB each at 384 floats)


class TimedEmbedder:
    """Wraps an embedder to measure where replay time goes, and embeds ahead: ``prefetch``
    embeds the distinct texts of the coming events in full batches, each identical text
    once, and the writes then find their vectors here."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self._vectors: dict[str, np.ndarray[Any, Any]] = {}

    @property
    def profile(self) -> Any:
        return self.inner.profile

    def embed_queries(self, texts: list[str]) -> Vectors:
        return self._timed(self.inner.embed_queries, texts)

    def prefetch(self, texts: Sequence[str]) -> None:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if len(self._vectors) + len(missing) > REPLAY_VECTOR_CACHE:
            self._vectors.clear()
        for start in range(0, len(missing), REPLAY_EMBED_BATCH):
            chunk = missing[start : start + REPLAY_EMBED_BATCH]
            rows = self._timed(self.inner.embed_passages, chunk)
            self._vectors.update(zip(chunk, rows, strict=True))

    def embed_passages(self, texts: list[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            rows = self._timed(self.inner.embed_passages, missing)
            self._vectors.update(zip(missing, rows, strict=True))
        if not texts:
            return np.zeros((0, self.profile.dimension), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts]).astype(np.float32)

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

    ``build(folder)`` returns an :class:`~tutor_memory.bootstrap.App` on a fresh embedded store
    in ``folder`` (the CLI wires it); its embedder, if any, is timed.
    """
    if target.exists():
        raise ValidationError(
            "store", f"{target} already exists; replay builds a new, isolated store only"
        )
    report = ReplayReport()
    start = time.perf_counter()
    with history.open(encoding="utf-8") as handle:
        events, problems = parse_history(handle, history.parent)
    report.seconds["parse"] = time.perf_counter() - start
    if problems and not skip_bad:
        raise ReplayError(problems)
    report.skipped = len(problems)

    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        app = build(partial)
        memory = app.memory
        if memory.embedder is not None:
            memory.embedder = TimedEmbedder(memory.embedder)
        write_start = time.perf_counter()
        report.unreadable = _write(app, events, on_progress)
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
    if events:
        report.first_at = min(e.episode.at for e in events)
        report.last_at = max(e.episode.at for e in events)
    return report


def _write(
    app: Any, events: list[HistoryEvent], on_progress: Callable[[int, int], None] | None
) -> int:
    """Write in file order, every episode through ``Episodes.add_many`` (which batches the
    embedding of those whose use case is the log alone) and every file arrival through
    ingestion. Answers get their recalled ids once their sources exist. Returns the count of
    unreadable files."""
    ids_by_ref: dict[tuple[Pair, str], str] = {}
    done = unreadable = 0
    batch: list[HistoryEvent] = []

    def remember(event: HistoryEvent, episode_id: str) -> None:
        if event.episode.ref is not None:
            ids_by_ref[(event.episode.pair, event.episode.ref)] = episode_id

    def progress(count: int) -> None:
        nonlocal done
        done += count
        if on_progress is not None:
            on_progress(done, len(events))

    def flush() -> None:
        if not batch:
            return
        added = app.episodes.add_many([e.episode for e in batch], batch_size=len(batch))
        for event, result in zip(batch, added, strict=True):
            remember(event, result.episode.episode_id)
        progress(len(batch))
        batch.clear()

    embedder = app.memory.embedder
    for position, event in enumerate(events):
        if isinstance(embedder, TimedEmbedder) and position % REPLAY_LOOKAHEAD == 0:
            ahead = events[position : position + REPLAY_LOOKAHEAD]
            embedder.prefetch([e.episode.text for e in ahead if e.episode.text])
        ep = event.episode
        if ep.kind is Kind.FILE and isinstance(ep.evidence, FileEvidence):
            flush()  # keep the file's order
            try:
                app.maps.ingest(
                    ep.pair, ep.evidence.file_id, ep.evidence.name, event.data, at=ep.at
                )
            except UnreadableFileError:
                unreadable += 1  # the ingest recorded a file episode that says so
            progress(1)
            continue
        if event.recalled_refs:
            flush()  # its sources must have ids first
            ids = tuple(ids_by_ref[(ep.pair, r)] for r in event.recalled_refs)
            event = HistoryEvent(event.line, replace(ep, recalled_ids=ids), event.recalled_refs)
        batch.append(event)
        if len(batch) >= 64:
            flush()
    flush()
    return unreadable
