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

An export (:mod:`tutor_memory.usecases.export`) adds optional fields that make a replay reproduce
each episode exactly: ``seq`` (its place; the lines of a pair come in sequence order), ``id``
(its episode id), ``salt`` (chain v2's body salt: the same body at the same place commits and
hashes the same, so the id and the chain head come back), ``recalled_ids`` (an answer's
recalled memories by their exported ``id``, instead of ``recalled_refs``) and ``annotations``
(``[{"kind", "value", "detail", "at"}]``, written once the episode is). An erased episode is
its envelope and erasure record only::

    {"student": …, "subject": …, "at": …, "kind": "check", "seq": 7, "id": "e7-…",
     "salience": 0.7, "erased": {"commitment": "…", "number": 1, "at": "…", "reason": "…",
     "requested_by": "api", "scope": "episode"}}

sealed from its envelope at its place, then erased again with the same record. An erasure's
entry in the chain (kind ``erasure``: what it erased, why, who asked) comes back at its place,
the same entry (its salt), through the erasure use case (``Erasing.restore_entry``), never as a
student's episode. A file line
without ``path`` but with ``evidence`` (its bytes were not exported) is registered and recorded
as told. The report counts how many exported ids came back (``ids_kept``) and how many did not.
A ``manifest.json`` of an export beside the history also brings back the file registry's
removals.

Every event goes through the use case a live chat uses (``Episodes.add``, the one door an
episode enters by): checks update beliefs (and confirm the map), a "remember that …" teaches
the map, a file is ingested, answers are stamped with their cited file's fingerprint. What an
export adds goes through use cases too, never straight into a store: an erased envelope is
sealed and erased again by the erasure use case (``Erasing.restore_envelope``,
``Erasing.erase_as_recorded``), a file told without its bytes is registered and recorded by
the log's (``TutorMemory.record_told_file``).

The pairs of a history are replayed interleaved by time, each pair's lines in their own order
(``in_time_order``): a student's profile is one log for all their subjects. A student's export's
manifest also lists the profile: what no line says (a teacher's accommodation, a retraction) is
stated again at its time.

A replay never writes into a live store: the target folder must not exist yet. It is built
beside it under a temporary name and renamed into place only when every line has been written;
a bad line stops the replay before anything is written (or, with ``skip_bad``, is skipped and
counted).
"""

from __future__ import annotations

import heapq
import json
import re
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

import numpy as np

from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import (
    ERASURE_SCOPES,
    ErasureScope,
    episode_id,
    given_salts,
    seq_of_id,
)
from tutor_memory.domain.episodes import (
    Episode,
    Evidence,
    FileEvidence,
    Kind,
    NewEpisode,
    Pair,
    TaughtEvidence,
    about_the_student,
    check_id,
    embedded,
    evidence_from_dict,
    file_arrived,
    file_id_for,
    fraction,
    parse_kind,
    utc_timestamp,
)
from tutor_memory.domain.errors import TutorMemoryError, ValidationError
from tutor_memory.domain.files import fingerprint
from tutor_memory.domain.filetext import UnreadableFileError
from tutor_memory.domain.teaching import check_note_fits, detect_teaching
from tutor_memory.ports import Embedder, EmbedderProfile, Ports, Vectors
from tutor_memory.usecases.erasure import RecordedErasure, check_reason
from tutor_memory.usecases.export import EXPORT_FORMAT, MANIFEST

if TYPE_CHECKING:
    from tutor_memory.usecases.episodes import Episodes
    from tutor_memory.usecases.erasure import Erasing
    from tutor_memory.usecases.log import TutorMemory
    from tutor_memory.usecases.maps import MapUseCases

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
    # written by an export (see the module doc)
    "seq",
    "id",
    "salt",
    "recalled_ids",
    "annotations",
    "erased",
)
ERASED_FIELDS = ("commitment", "number", "at", "reason", "requested_by", "scope")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class ReplayApp(Protocol):
    """What a replay is given: an App (``bootstrap.App`` is one; replay sits below bootstrap
    in the layers, so it names the App by the parts it uses). Every write goes through its use
    cases, as every other entry point's does; its ports are only read."""

    @property
    def ports(self) -> Ports: ...

    @property
    def memory(self) -> TutorMemory: ...

    @property
    def maps(self) -> MapUseCases: ...

    @property
    def episodes(self) -> Episodes: ...

    @property
    def erasing(self) -> Erasing | None: ...

    def with_ports(self, **changes: Any) -> ReplayApp: ...

    def close(self) -> None: ...


class ReplayError(TutorMemoryError):
    """The history has bad lines; nothing was written."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        self.problems = problems
        shown = "; ".join(f"line {n}: {msg}" for n, msg in problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"{len(problems)} bad line(s), nothing written: {shown}{more}")


@dataclass(frozen=True)
class Envelope:
    """An erased episode as an export carries it: what stays, and its erasure record."""

    kind: Kind
    salience: float
    commitment: str
    number: int
    at: datetime
    reason: str
    requested_by: str
    scope: ErasureScope


@dataclass(frozen=True)
class HistoryEvent:
    line: int
    episode: NewEpisode  # for an erased envelope, a stand-in carrying its pair and time
    recalled_refs: tuple[str, ...] = ()
    data: bytes | None = None  # a file arrival's bytes
    seq: int | None = None  # an export's: the episode's place, id and salt
    exported_id: str | None = None
    salt: str | None = None
    recalled_exported: tuple[str, ...] = ()  # an export's recalled ids
    annotations: tuple[dict[str, Any], ...] = ()
    erased: Envelope | None = None
    told_file: bool = False  # a file line without its bytes: registered and recorded as told


def parse_line(line_no: int, raw: str, base: Path = Path(".")) -> HistoryEvent:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError("line", f"is not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:  # as the API answers a body nested past the decoder's stack
        raise ValidationError("line", "nests too deeply to read") from None
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
    exported = _exported(data)
    if "erased" in data:
        return _erased_event(line_no, data, pair, when, kind, exported)
    if kind is Kind.FILE and ("path" in data or "evidence" not in data):
        return replace(_file_event(line_no, data, pair, when, base), **exported)
    if "text" not in data:
        raise ValidationError("text", "is required")
    if "path" in data or "file_id" in data:
        raise ValidationError("path", "only a file arrival read from its bytes names a path")
    recalled = data.get("recalled_refs") or []
    if not isinstance(recalled, list) or not all(isinstance(r, str) for r in recalled):
        raise ValidationError("recalled_refs", "must be a list of refs")
    if recalled and exported["recalled_exported"]:
        raise ValidationError("recalled_ids", "give recalled_refs or recalled_ids, not both")
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
    if (recalled or exported["recalled_exported"]) and kind.value != "answer":
        raise ValidationError("recalled_refs", "only an answer carries recalled memories")
    return HistoryEvent(line_no, episode, tuple(recalled), told_file=kind is Kind.FILE, **exported)


def _exported(data: dict[str, Any]) -> dict[str, Any]:
    """The fields an export adds (see the module doc), checked."""
    seq = data.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 1):
        raise ValidationError("seq", "must be a whole number >= 1")
    ident = data.get("id")
    if ident is not None and seq_of_id(str(ident)) != seq:
        raise ValidationError("id", f"{ident!r} is not an episode id of sequence {seq}")
    salt = data.get("salt")
    if salt is not None and (seq is None or not isinstance(salt, str) or not _HEX64.match(salt)):
        raise ValidationError("salt", "must be 64 lowercase hex digits, with a seq")
    recalled = data.get("recalled_ids") or []
    if not isinstance(recalled, list) or not all(isinstance(r, str) for r in recalled):
        raise ValidationError("recalled_ids", "must be a list of exported episode ids")
    notes = data.get("annotations") or []
    if not isinstance(notes, list) or not all(isinstance(n, dict) for n in notes):
        raise ValidationError("annotations", "must be a list of objects")
    for note in notes:
        if set(note) - {"kind", "value", "detail", "at"} or not {"kind", "value", "at"} <= set(
            note
        ):
            raise ValidationError("annotations", "each is {kind, value, detail, at}")
        Annotation(
            pair=Pair(data["student"], data["subject"]),
            episode_id=str(ident or "e1-000000000000"),
            kind=note["kind"],
            value=note["value"],
            at=_time("annotations.at", note["at"]),
            detail=note.get("detail") or "",
        )  # checked now, written once the episode is
    return {
        "seq": seq,
        "exported_id": None if ident is None else str(ident),
        "salt": salt,
        "recalled_exported": tuple(recalled),
        "annotations": tuple(notes),
    }


def _time(name: str, value: object) -> datetime:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(name, f"is not an ISO 8601 time ({value!r})") from None


def _erased_event(
    line_no: int,
    data: dict[str, Any],
    pair: Pair,
    when: datetime,
    kind: Kind,
    exported: dict[str, Any],
) -> HistoryEvent:
    """An erased episode's envelope: nothing of a body may come with it."""
    body = sorted(set(data) & {"text", "summary", "concepts", "evidence", "ref", "path"})
    if body:
        raise ValidationError(body[0], "an erased episode carries no body")
    if exported["seq"] is None or exported["salt"] is not None:
        raise ValidationError("erased", "an erased episode has a seq and no salt")
    record = data["erased"]
    if not isinstance(record, dict) or set(record) != set(ERASED_FIELDS):
        raise ValidationError("erased", f"must be an object of {', '.join(ERASED_FIELDS)}")
    number = record["number"]
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ValidationError("erased.number", "must be a whole number >= 1")
    if not isinstance(record["commitment"], str) or not _HEX64.match(record["commitment"]):
        raise ValidationError("erased.commitment", "must be 64 lowercase hex digits")
    if record["scope"] not in ERASURE_SCOPES:
        raise ValidationError("erased.scope", f"must be one of {', '.join(ERASURE_SCOPES)}")
    salience = data.get("salience", 0.0)
    envelope = Envelope(
        kind=kind,
        salience=fraction("salience", salience),
        commitment=record["commitment"],
        number=number,
        at=utc_timestamp("erased.at", _time("erased.at", record["at"])),
        reason=check_reason(record["reason"]),
        requested_by=check_id("erased.requested_by", record["requested_by"]),
        scope=record["scope"],
    )
    stand_in = NewEpisode(pair=pair, kind=Kind.QUESTION, text="(erased)", at=when)
    return HistoryEvent(line_no, stand_in, erased=envelope, **exported)


def _evidence(kind: Kind, data: dict[str, Any]) -> Evidence:
    """A taught line may leave its note out: it is the claim the instruction asks to remember
    (as teaching stores it)."""
    if kind is Kind.TAUGHT and not data.get("evidence"):
        intent = detect_teaching(str(data["text"]))
        if intent is not None:
            check_note_fits(intent.claim)
        return TaughtEvidence(intent.claim if intent else str(data["text"]))
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
    lines: Iterable[str | bytes], base: Path = Path(".")
) -> tuple[list[HistoryEvent], list[tuple[int, str]]]:
    """Every event, and every problem as (line number, message). Refs are checked too. Lines
    may come as bytes (a file read as it is): one that is not UTF-8 is a problem of its own."""
    events: list[HistoryEvent] = []
    problems: list[tuple[int, str]] = []
    seen_refs: set[tuple[Pair, str]] = set()
    seen_ids: set[tuple[Pair, str]] = set()
    for line_no, line in enumerate(lines, start=1):
        try:
            raw = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError as exc:
            problems.append((line_no, f"line: is not UTF-8 text (byte {exc.start + 1})"))
            continue
        if not raw.strip():
            continue
        try:
            event = parse_line(line_no, raw, base)
        except (ValidationError, TypeError) as exc:
            problems.append((line_no, str(exc)))
            continue
        pair = event.episode.pair
        missing = [r for r in event.recalled_refs if (pair, r) not in seen_refs]
        if missing:
            problems.append((line_no, f"recalled_refs: no earlier line has ref {missing[0]!r}"))
            continue
        unknown = [i for i in event.recalled_exported if (pair, i) not in seen_ids]
        if unknown:
            problems.append((line_no, f"recalled_ids: no earlier line has id {unknown[0]!r}"))
            continue
        if event.erased is None and event.episode.ref is not None:
            seen_refs.add((pair, event.episode.ref))
        if event.exported_id is not None:
            seen_ids.add((pair, event.exported_id))
        events.append(event)
    return events, problems


@dataclass
class ReplayReport:
    events: int = 0
    skipped: int = 0
    unreadable: int = 0  # file arrivals that could not be read (recorded as such)
    pairs: int = 0
    ids_kept: int = 0  # lines of an export whose episode came back under the same id
    ids_changed: int = 0  # … and under another (a chain v1 episode, a file not exported, …)
    first_changed: str = ""  # the first of those: "line N: exported e3-…, replayed e3-…"
    statements: int = 0  # profile statements of the export stated again (not heard in a line)
    statements_refused: int = 0  # … not stated: malformed, or refused by today's rules
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
    def profile(self) -> EmbedderProfile:
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


def _passages_ahead(ahead: Sequence[HistoryEvent]) -> list[str]:
    """What the writes of ``ahead`` will embed: each episode's own text (an erased body, an
    erasure's entry and a day's summary are not embedded)."""
    return [
        e.episode.text
        for e in ahead
        if e.erased is None
        and about_the_student(e.episode)
        and embedded(e.episode)
        and e.episode.text
    ]


def replay(
    history: Path,
    target: Path,
    build: Callable[[Path], ReplayApp],
    *,
    skip_bad: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> ReplayReport:
    """Rebuild every pair of ``history`` into a new store folder ``target``.

    ``build(folder)`` returns an :class:`~tutor_memory.bootstrap.App` (a :class:`ReplayApp`)
    on a fresh embedded store in ``folder`` (the CLI wires it); its embedder, if any, is
    timed.
    """
    if target.exists():
        raise ValidationError(
            "store", f"{target} already exists; replay builds a new, isolated store only"
        )
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    report: ReplayReport | None = None
    try:
        # Parsed before the store is built: a bad line writes nothing, not even a folder.
        events, problems, parse_s = _parse(history)
        if problems and not skip_bad:
            raise ReplayError(problems)
        app = build(partial)
        report = replay_into(
            app, history, skip_bad=skip_bad, on_progress=on_progress, parsed=(events, problems)
        )
        report.seconds["parse"] = parse_s
        app.close()
        partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return report


def _parse(history: Path) -> tuple[list[HistoryEvent], list[tuple[int, str]], float]:
    start = time.perf_counter()
    with history.open("rb") as handle:  # decoded line by line: a bad line is named, not raised
        events, problems = parse_history(handle, history.parent)
    return events, problems, time.perf_counter() - start


def replay_into(
    app: ReplayApp,
    history: Path,
    *,
    skip_bad: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    parsed: tuple[list[HistoryEvent], list[tuple[int, str]]] | None = None,
) -> ReplayReport:
    """Replay ``history`` into an App whose pairs in it are still empty (any backend): what
    :func:`replay` does inside its new folder. A bad line writes nothing (unless ``skip_bad``).
    """
    report = ReplayReport()
    if parsed is None:
        events, problems, report.seconds["parse"] = _parse(history)
    else:
        events, problems = parsed
    if problems and not skip_bad:
        raise ReplayError(problems)
    report.skipped = len(problems)
    heard = _heard_order(history.parent / MANIFEST)
    events = in_time_order(events, heard or {})
    if app.erasing is None and any(
        e.erased is not None or not about_the_student(e.episode) for e in events
    ):
        raise ValidationError("erased", "this app has no erasure use case to erase them again")
    for pair in dict.fromkeys(e.episode.pair for e in events):
        if app.ports.store.head(pair) is not None:
            raise ValidationError(
                "store", f"{pair} already has a history; replay into an empty one"
            )
    embedder = app.ports.embedder
    if embedder is not None and not isinstance(embedder, TimedEmbedder):
        app = app.with_ports(embedder=TimedEmbedder(embedder))  # timed, over the same store
    memory = app.memory
    write_start = time.perf_counter()
    salts = {(e.episode.pair, e.seq): e.salt for e in events if e.salt and e.seq}
    with given_salts(salts):
        stated = _stated(history.parent / MANIFEST, events, report)
        report.unreadable = _write(app, events, on_progress, report, stated, heard)
    _remove_files(app, history.parent / MANIFEST, {e.episode.pair for e in events})
    written = time.perf_counter() - write_start
    if memory.anchor is not None:  # each chain anchored as written, as a night would anchor it
        anchor_start = time.perf_counter()
        for pair in dict.fromkeys(e.episode.pair for e in events):
            memory.anchor_checkpoint(pair)
        report.seconds["anchor"] = time.perf_counter() - anchor_start
    embed = (
        memory.ports.embedder.seconds if isinstance(memory.ports.embedder, TimedEmbedder) else 0.0
    )
    report.seconds["embed"] = embed
    report.seconds["append and index"] = written - embed
    report.events = len(events)
    report.pairs = len({e.episode.pair for e in events})
    if events:
        report.first_at = min(e.episode.at for e in events)
        report.last_at = max(e.episode.at for e in events)
    return report


def _remove_files(app: ReplayApp, manifest: Path, pairs: set[Pair]) -> None:
    """An export's registry: the files it lists as removed are removed again."""
    if not manifest.is_file():
        return
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return
    for entry in data.get("pairs") or []:
        pair = Pair(entry["student"], entry["subject"])
        if pair not in pairs:
            continue
        for record in entry.get("files") or []:
            removed = record.get("removed_at")
            stored = app.ports.store.file(pair, record["file_id"])
            if removed and stored is not None and not stored.removed:
                app.maps.take_out(pair, record["file_id"], at=_time("removed_at", removed))


def in_time_order(
    events: Sequence[HistoryEvent], heard: Mapping[tuple[str, str], int] | None = None
) -> list[HistoryEvent]:
    """Every pair's events in their own order, the pairs' interleaved by time (then by their
    place in the file). An export writes a student's subjects pair by pair, but the profile
    is one log for all of them: replayed pair by pair, "my name is Mia" said in chemistry
    before "my name is Maya" in biology came back after it, and the student was Mia again.

    ``heard`` (an export's: ``_heard_order``) places the episodes the profile heard something
    in, by (subject, id): those come in that order, whatever their times say. A pair's own
    order is not always by time (a history written back-dated after an erasure, whose entry
    has the erasure's time), and interleaving by time alone put chemistry's "my name is Maya"
    before biology's where the profile had heard biology's first. An episode waits for the
    ones placed before it while the others go on by time; if every pair's next episode is
    waiting (an order no interleaving keeps), the one placed first goes."""
    queues: dict[Pair, deque[tuple[int, HistoryEvent]]] = {}
    for place, event in enumerate(events):
        queues.setdefault(event.episode.pair, deque()).append((place, event))
    if len(queues) < 2:
        return list(events)
    heard = heard or {}

    def rank(event: HistoryEvent) -> int | None:
        if event.exported_id is None:
            return None
        return heard.get((event.episode.pair.subject_id, event.exported_id))

    pending = sorted(r for e in events if (r := rank(e)) is not None)
    waiting: dict[Pair, int] = {}  # a pair whose next episode waits, → its place in ``heard``
    ready: list[tuple[datetime, int, Pair]] = []

    def offer(pair: Pair) -> None:
        queue = queues[pair]
        if not queue:
            return
        place, event = queue[0]
        placed = rank(event)
        if placed is not None and placed != pending[0]:
            waiting[pair] = placed
        else:
            heapq.heappush(ready, (event.episode.at, place, pair))

    for pair in queues:
        offer(pair)
    ordered = []
    while ready or waiting:
        if ready:
            _at, _place, pair = heapq.heappop(ready)
        else:  # every next episode waits: the one placed first goes
            pair = min(waiting, key=waiting.__getitem__)
            del waiting[pair]
        event = queues[pair].popleft()[1]
        ordered.append(event)
        placed = rank(event)
        if placed is not None:
            pending.remove(placed)
            for other in [p for p, r in waiting.items() if pending and r == pending[0]]:
                del waiting[other]
                offer(other)
        offer(pair)
    return ordered


def _heard_order(manifest: Path) -> dict[tuple[str, str], int] | None:
    """An export's episodes the profile heard a statement in, (subject, id) → the place of
    the first such statement in the profile's log (what ``in_time_order`` keeps). Erased
    statements are left out: their episodes say nothing when replayed. None without an
    export's manifest (a history file of one's own: every line is heard)."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return None
    said = data.get("profile")
    order: dict[tuple[str, str], int] = {}
    for s in said if isinstance(said, list) else []:
        if not isinstance(s, dict) or s.get("erased_at") is not None:
            continue
        subject, _, episode_id = str(s.get("source") or "").partition("/")
        seq = s.get("seq")
        if episode_id and isinstance(seq, int) and not isinstance(seq, bool):
            key = (subject, episode_id)
            order[key] = min(seq, order.get(key, seq))
    return order


Stated = tuple[datetime, str, dict[str, Any]]  # when, the student, the statement as exported


def _stated(manifest: Path, events: list[HistoryEvent], report: ReplayReport) -> list[Stated]:
    """The profile statements a student's export lists that no episode says — set by a
    teacher, the service or the student through the profile, or retracted — as (when, student,
    statement), oldest first. Those heard in an episode are heard again as it is replayed; an
    erased one was never said. One this format never writes is counted as refused."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return []
    said = data.get("profile") or []
    students = {e.episode.pair.student_id for e in events}
    student = data.get("student") or (next(iter(students)) if len(students) == 1 else None)
    try:
        student = check_id("student", student) if said else None
    except (ValidationError, TypeError):
        student = None
    if student is None or not isinstance(said, list):
        report.statements_refused += len(said) if isinstance(said, list) else 1
        return []
    kept: list[tuple[int, Stated]] = []
    for s in said:
        if not isinstance(s, dict):
            report.statements_refused += 1
            continue
        if s.get("source") is not None or s.get("erased_at") is not None:
            continue
        try:
            at = datetime.fromisoformat(str(s.get("at")).replace("Z", "+00:00"))
            if at.tzinfo is None:
                raise ValueError("a statement's time has its zone")
            kept.append((int(s.get("seq") or 0), (at, student, s)))
        except (TypeError, ValueError):
            report.statements_refused += 1
    return [stated for _seq, stated in sorted(kept, key=lambda k: k[0])]


def _seq(stated: Stated) -> int:
    """A stated statement's place in the profile's log."""
    seq = stated[2].get("seq")
    return seq if isinstance(seq, int) else 0


def _state(app: ReplayApp, stated: Stated, report: ReplayReport) -> None:
    """One stated profile statement again, at its time, by whom it was said; one that is
    malformed or that today's rules refuse (a name of five words) is counted, not stated."""
    profiles = app.episodes.profiles
    if profiles is None:
        return
    at, student, said = stated
    try:
        aspect, key, value, by = (
            said["aspect"],
            said.get("key") or "",
            said["value"],
            said["said_by"],
        )
        if not all(isinstance(v, str) for v in (aspect, key, value, by)):
            raise TypeError("a statement's aspect, key, value and said_by are strings")
        if value:
            due = date.fromisoformat(said["due"]) if said.get("due") else None
            profiles.set(student, aspect, value, said_by=by, key=key, due=due, at=at)
        else:
            profiles.retract(student, aspect, said_by=by, key=key, at=at)
        report.statements += 1
    except (KeyError, TypeError, ValueError, ValidationError):
        report.statements_refused += 1


def _write(
    app: ReplayApp,
    events: list[HistoryEvent],
    on_progress: Callable[[int, int], None] | None,
    report: ReplayReport | None = None,
    stated: list[Stated] | None = None,
    heard: Mapping[tuple[str, str], int] | None = None,
) -> int:
    """Write in file order, every episode through ``Episodes.add_many`` (which batches the
    embedding of those whose use case is the log alone) and every file arrival through
    ingestion. Answers get their recalled ids once their sources exist; erased envelopes are
    sealed in their place and erased again at the end, in their records' order; annotations
    follow. Returns the count of unreadable files. ``stated``: the profile's statements no
    line says, each stated before the first line said after it, or placed after it in the
    profile's log (``heard``: a teacher's name set, then the student's own message written
    back-dated — the student's came later and holds)."""
    report = report if report is not None else ReplayReport()
    ids_by_ref: dict[tuple[Pair, str], str] = {}
    ids_by_exported: dict[tuple[Pair, str], str] = {}
    erasures: list[tuple[HistoryEvent, Episode]] = []
    noted: list[tuple[HistoryEvent, str]] = []
    done = unreadable = 0
    batch: list[HistoryEvent] = []
    store = app.ports.store  # read only: every write goes through a use case

    def remember(event: HistoryEvent, episode_id: str) -> None:
        pair = event.episode.pair
        if event.erased is None and event.episode.ref is not None:
            ids_by_ref[(pair, event.episode.ref)] = episode_id
        if event.exported_id is not None:
            ids_by_exported[(pair, event.exported_id)] = episode_id
            if event.exported_id == episode_id:
                report.ids_kept += 1
            else:
                report.ids_changed += 1
                report.first_changed = report.first_changed or (
                    f"line {event.line}: exported {event.exported_id}, replayed {episode_id}"
                )
        if event.annotations:
            noted.append((event, episode_id))

    def progress(count: int) -> None:
        nonlocal done
        done += count
        if on_progress is not None:
            on_progress(done, len(events))

    def flush() -> None:
        if not batch:
            return
        added = app.episodes.add_many(
            [e.episode for e in batch], batch_size=len(batch), unheard=unheard
        )
        for event, result in zip(batch, added, strict=True):
            remember(event, result.episode.episode_id)
        progress(len(batch))
        batch.clear()

    # A greeting ("Hi Maya!") the export's profile did not hear was not heard live: a name
    # was in force. Replayed in another order (two subjects at one time, a line back-dated), it
    # would name the student; it is recorded as the log alone. A student's own words are
    # heard by today's rules.
    quiet: set[int] = set()  # the ids of the batched NewEpisodes that are such greetings

    def unheard(new: NewEpisode) -> bool:
        return id(new) in quiet

    embedder = app.ports.embedder
    # A stated profile statement goes in before the first event said after it.
    due = deque(stated or ())
    placed_at = heard or {}
    for position, event in enumerate(events):
        placed = placed_at.get((event.episode.pair.subject_id, event.exported_id or ""))
        while due and (
            due[0][0] < event.episode.at or (placed is not None and _seq(due[0]) < placed)
        ):
            flush()
            _state(app, due.popleft(), report)
        if isinstance(embedder, TimedEmbedder) and position % REPLAY_LOOKAHEAD == 0:
            ahead = events[position : position + REPLAY_LOOKAHEAD]
            embedder.prefetch(_passages_ahead(ahead))
        ep = event.episode
        if event.erased is not None:
            flush()  # its place comes after everything before it
            env = event.erased
            assert app.erasing is not None  # replay_into refuses erased lines without it
            sealed = app.erasing.restore_envelope(
                ep.pair, env.kind, ep.at, env.salience, env.commitment
            )
            erasures.append((event, sealed))
            remember(event, sealed.episode_id)
            progress(1)
            continue
        if not about_the_student(ep):  # an erasure's entry: at its place, by the erasure
            flush()
            assert app.erasing is not None  # replay_into refuses entries without it
            remember(event, app.erasing.restore_entry(ep).episode_id)
            progress(1)
            continue
        if ep.kind is Kind.FILE and isinstance(ep.evidence, FileEvidence):
            flush()  # keep the file's order
            if event.told_file:
                remember(event, app.memory.record_told_file(ep).episode.episode_id)
                progress(1)
                continue
            assert event.data is not None  # a file line without its bytes is a told file
            try:
                app.maps.ingest(
                    ep.pair, ep.evidence.file_id, ep.evidence.name, event.data, at=ep.at
                )
            except UnreadableFileError:
                unreadable += 1  # the ingest recorded a file episode that says so
            head = store.head(ep.pair)
            if event.exported_id is not None and head is not None:
                remember(event, episode_id(head.seq, head.hash))
            progress(1)
            continue
        recalled = event.recalled_refs or event.recalled_exported
        if recalled:
            flush()  # its sources must have ids first
            known = ids_by_ref if event.recalled_refs else ids_by_exported
            ids = tuple(known[(ep.pair, r)] for r in recalled)
            event = replace(event, episode=replace(ep, recalled_ids=ids))
        if (
            heard is not None and ep.kind is Kind.ANSWER and event.exported_id is not None
            and (ep.pair.subject_id, event.exported_id) not in heard
        ):  # fmt: skip
            quiet.add(id(event.episode))
        batch.append(event)
        if len(batch) >= 64:
            flush()
    flush()
    for left in due:
        _state(app, left, report)
    _erase_again(app, erasures)
    for event, new_id in noted:
        for note in event.annotations:
            app.memory.annotate(
                event.episode.pair,
                new_id,
                note["kind"],
                note["value"],
                detail=note.get("detail") or "",
                at=_time("annotations.at", note["at"]),
            )
    return unreadable


def _erase_again(app: ReplayApp, erasures: list[tuple[HistoryEvent, Episode]]) -> None:
    """The replayed envelopes erased again through the erasure use case, pair by pair, each
    with its record, in the records' order (``Erasing.erase_as_recorded``)."""
    by_pair: dict[Pair, list[tuple[Episode, RecordedErasure]]] = {}
    for event, sealed in erasures:
        env = event.erased
        assert env is not None
        record = RecordedErasure(env.number, env.at, env.reason, env.requested_by, env.scope)
        by_pair.setdefault(sealed.pair, []).append((sealed, record))
    if by_pair:
        assert app.erasing is not None  # replay_into refuses erased lines without it
        for pair, pending in by_pair.items():
            app.erasing.erase_as_recorded(pair, pending)
