"""Export: a pair's (or a student's) whole history in the replay format, files alongside.

An export is a folder (the API sends the same content as one JSON body, see ``to_dict``)::

    history.jsonl     every episode of every exported pair, in sequence order, pair by pair:
                      the lines ``tutor-memory replay`` reads (see :mod:`tutor_memory.replay`)
    files/<student>/<subject>/<fingerprint[:16]>/<name>
                      the bytes of every file version a ``file`` line names
    manifest.json     the format, when, and per pair: its chain head (sequence and hash), the
                      erasure records' last digest, counts, the file registry, and what could
                      not be exported (files whose bytes are no longer kept)

One line per episode, in the replay shape, plus what makes a replay reproduce it exactly:
``seq`` (its place), ``id`` (its episode id), ``salt`` (chain v2's body salt) and, on an answer,
``recalled_ids`` (the exported ids of what it recalled). ``annotations`` (stances,
verifications) ride on their episode's line. Derived episodes are carried as they are, so each
lands at its own sequence: a night's consolidation as recorded (a replay records it as told),
a file arrival as its file (a replay reads the file into the map again, which writes the same
episode). A file whose bytes are no longer kept is exported as told (its text, concepts and
evidence, no ``path``): a replay registers that version and records the episode, but the map
does not get that file's concepts back.

An erased episode is exported as its envelope only — time, kind, salience, sequence, id, the
commitment to its erased body — and its erasure record (when, why, who asked, scope): never a
byte of the body, which is gone. A replay seals the same envelope at the same place and records
the same erasure, so the replayed chain verifies with the same erasures.

What round-trips (replay of an export into an empty store): every episode at its sequence, the
beliefs, the map, the file registry, the annotations, the erasure records, and for a chain
sealed under version 2 (every episode written since chain v2) the same episode ids and the same
chain head. Not carried: idempotency keys' request digests (a retry after the replay is still
recognised by its key), derived state the store rebuilds (the index, the nightly documents and
reports, the belief rows' history before an erasure re-derived them), and for a chain begun
under version 1 its ids: a replay seals those episodes under version 2, so ids and head differ
(the report says so).

Over the API an export travels in pages (``Exporting.first_page`` and ``next_page``): the first
carries the manifest and the first lines, each later one the next lines, every page the bytes of
the files its own lines name, and a page stops at ``limit`` lines or at about
:data:`PAGE_BYTES` (a Lambda answers at most 6 MB), whichever comes first; one line always goes.
Every page's lines, in order, are the whole export's history, and their files its files. The
pages are of the pairs and chain heads the first page found (its manifest's): an episode written
after it is in the next export, not in this one; an erasure between two pages shows in the
later one (the envelope, not the body). The cost: the first page reads the whole history (and
every file) to write the manifest, as one export does; each later page reads its own lines.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from tutor_memory.domain.chain import Erasure, format_time
from tutor_memory.domain.episodes import Episode, FileEvidence, Kind, Pair, check_id
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.domain.files import FileRecord
from tutor_memory.domain.paging import ExportCursor
from tutor_memory.domain.profile import Statement
from tutor_memory.ports import Ports
from tutor_memory.usecases.profile import Profiles

EXPORT_FORMAT = "tutor-memory-export-1"
HISTORY = "history.jsonl"
MANIFEST = "manifest.json"
# A page's lines and files, as JSON with every character escaped: half of Lambda's 6 MB, since
# the Lambda's answer carries the body once more as an escaped JSON string.
PAGE_BYTES = 2_500_000


class FileSource(Protocol):
    """Where a file version's bytes are kept (the uploads bucket, or the embedded store's
    ``files/`` folder)."""

    def find(self, pair: Pair, name: str, digest: str) -> bytes | None: ...


@dataclass
class Export:
    """One export: the history's lines, the files' bytes by path, and the manifest."""

    at: datetime
    lines: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    # A student's export: their profile's statements, oldest first (every one, retracted and
    # superseded too: what was said about them, and when).
    profile: list[dict[str, Any]] = field(default_factory=list)
    student: str | None = None  # a student's export: whose (their profile names no one)
    # Who read the record, when, through which operation (never what they asked).
    disclosures: list[dict[str, Any]] = field(default_factory=list)

    def manifest(self) -> dict[str, Any]:
        found: dict[str, Any] = {"format": EXPORT_FORMAT, "exported_at": format_time(self.at)}
        if self.student is not None:
            found["student"] = self.student
        found["pairs"] = self.pairs
        if self.profile:
            found["profile"] = self.profile
        if self.disclosures:
            found["disclosures"] = self.disclosures
        return found

    def history_text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)

    def write(self, folder: Path) -> Path:
        """Write the export into ``folder`` (new, or empty); returns the history file."""
        folder = Path(folder)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise ValidationError("out", f"{folder} exists and is not an empty folder")
        folder.mkdir(parents=True, exist_ok=True)
        for relative, data in self.files.items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (folder / MANIFEST).write_text(
            json.dumps(self.manifest(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        history = folder / HISTORY
        history.write_text(self.history_text(), encoding="utf-8")
        return history

    def to_dict(self) -> dict[str, Any]:
        """The API's body: the manifest, the history's lines, and each file base64-encoded."""
        return {
            "manifest": self.manifest(),
            "history": self.lines,
            "files": {p: base64.b64encode(d).decode("ascii") for p, d in self.files.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Export:
        """An export as the API sent it (what ``Memory.remote(…).export`` writes out)."""
        try:
            manifest = data["manifest"]
            if manifest.get("format") != EXPORT_FORMAT:
                raise ValidationError("format", f"is not {EXPORT_FORMAT}")
            files = {
                str(p): base64.b64decode(str(d), validate=True)
                for p, d in (data.get("files") or {}).items()
            }
            for path in files:
                if path.startswith("/") or ".." in Path(path).parts:
                    raise ValidationError("files", f"{path!r} is not a path inside the export")
            return cls(
                at=datetime.fromisoformat(str(manifest["exported_at"]).replace("Z", "+00:00")),
                lines=list(data["history"]),
                files=files,
                pairs=list(manifest.get("pairs") or []),
                profile=list(manifest.get("profile") or []),
                student=manifest.get("student"),
                disclosures=list(manifest.get("disclosures") or []),
            )
        except (KeyError, TypeError, AttributeError, binascii.Error) as exc:
            raise ValidationError("export", f"is not an export ({exc})") from None


@dataclass
class ExportPage:
    """A page of an export: the manifest on the first page only (None on the later ones), the
    page's history lines, the bytes of the files they name, and where the next page starts
    (None: that was the last)."""

    manifest: dict[str, Any] | None
    lines: list[dict[str, Any]]
    files: dict[str, bytes]
    next: str | None

    def to_dict(self) -> dict[str, Any]:
        """The API's body (``Export.to_dict``'s, and ``next``)."""
        return {
            "manifest": self.manifest,
            "history": self.lines,
            "files": {p: base64.b64encode(d).decode("ascii") for p, d in self.files.items()},
            "next": self.next,
        }


class Exporting:
    """The export use cases over a memory and where its files are kept (optional)."""

    def __init__(
        self,
        ports: Ports,
        files: FileSource | None = None,
        profiles: Profiles | None = None,
    ) -> None:
        self.ports = ports
        self.files = files
        self.profiles = profiles

    def pair(self, pair: Pair) -> Export:
        """One pair's export. An unknown pair is NotFoundError."""
        if self.ports.store.head(pair) is None:
            raise NotFoundError(f"no history for {pair}")
        return self._export([pair])

    def student(self, student_id: str) -> Export:
        """Every subject of a student, pair by pair. An unknown student is NotFoundError."""
        check_id("student_id", student_id)
        pairs = self.ports.store.pairs_of(student_id)
        said = self.profiles.history(student_id) if self.profiles is not None else []
        if not pairs and not said:
            raise NotFoundError(f"no history for student {student_id!r}")
        export = self._export(sorted(pairs))
        export.profile = [statement_json(s) for s in said]
        export.student = student_id
        return export

    def page(
        self, pair: Pair, *, after_seq: int = 0, limit: int = 100
    ) -> tuple[list[dict[str, Any]], int | None]:
        """The pair's episodes after ``after_seq``, at most ``limit``, as the export writes
        them (an erased one is its envelope and erasure record; a file arrival names the file,
        without its bytes), and the sequence to continue after (None: that was the last)."""
        store = self.ports.store
        found = store.episodes(pair, after_seq=after_seq, limit=limit + 1)
        shown = found[:limit]
        by_seq = {r.seq: r for r in store.erasures(pair)[0]} if any(e.erased for e in shown) else {}
        lines = []
        for ep in shown:
            if ep.erased:
                lines.append(_erased_line(ep, by_seq.get(ep.seq)))
            elif ep.kind is Kind.FILE and isinstance(ep.evidence, FileEvidence):
                lines.append(
                    {**_place(ep), "file_id": ep.evidence.file_id, "name": ep.evidence.name}
                )
            else:
                lines.append(_line(ep))
        return lines, (shown[-1].seq if len(found) > limit else None)

    def _export(self, pairs: Sequence[Pair]) -> Export:
        export = Export(at=self.ports.clock.now())
        for pair in pairs:
            self._add_pair(export, pair)
        return export

    def _add_pair(self, export: Export, pair: Pair) -> None:
        store = self.ports.store
        head = store.head(pair)
        records, erasure_head = store.erasures(pair)
        by_seq = {r.seq: r for r in records}
        missing: list[dict[str, Any]] = []
        count = erased = annotated = v1 = 0
        for ep in store.iter_episodes(pair):
            count += 1
            v1 += ep.chain_version == 1
            erased += ep.erased
            line, not_kept = self._episode_line(export.files, pair, ep, by_seq)
            if not_kept is not None:
                missing.append(not_kept)
            annotated += len(line.get("annotations", ()))
            export.lines.append(line)
        export.pairs.append(
            {
                "student": pair.student_id,
                "subject": pair.subject_id,
                "episodes": count,
                "erased": erased,
                "annotations": annotated,
                "head": {"seq": head.seq, "hash": head.hash} if head else None,
                "erasure_head": erasure_head,
                # Sealed under chain v1: a replay seals them under v2 (other ids and head).
                "sealed_v1": v1,
                "files": [_registry(r) for r in store.files(pair)],
                "files_not_kept": missing,
            }
        )

    def _episode_line(
        self, files: dict[str, bytes], pair: Pair, ep: Episode, by_seq: dict[int, Erasure]
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """An episode's line (its file's bytes added to ``files``), and its file's evidence
        when the bytes are no longer kept."""
        if ep.erased:
            return _erased_line(ep, by_seq.get(ep.seq)), None
        line = _line(ep)
        missing = None
        if ep.kind is Kind.FILE and isinstance(ep.evidence, FileEvidence):
            found = self._file(files, pair, ep.evidence)
            if found is None:
                missing = ep.evidence.to_dict()
            else:
                line = _file_line(ep, found)
        notes = self.ports.store.annotations(pair, ep.episode_id)
        if notes:
            line["annotations"] = [
                {"kind": a.kind.value, "value": a.value, "detail": a.detail,
                 "at": format_time(a.at)}
                for a in notes
            ]  # fmt: skip
        return line, missing

    def _file(self, files: dict[str, bytes], pair: Pair, evidence: FileEvidence) -> str | None:
        """The export's path of a file version's bytes (added once), or None: not kept."""
        path = (
            f"files/{pair.student_id}/{pair.subject_id}/{evidence.fingerprint[:16]}/{evidence.name}"
        )
        if path in files:
            return path
        data = (
            None
            if self.files is None
            else self.files.find(pair, evidence.name, evidence.fingerprint)
        )
        if data is None:
            return None
        files[path] = data
        return path

    # --- pages --------------------------------------------------------------------------------

    def first_page(self, export: Export, limit: int) -> ExportPage:
        """The first page of ``export`` (a pair's or a student's, built whole): its manifest,
        its first lines and their files; the cursor binds the later pages to its pairs' heads."""
        manifest = export.manifest()
        page = _Filling(limit, _size(manifest))
        for line in export.lines:
            path = line.get("path")
            files = {path: export.files[path]} if isinstance(path, str) else {}
            if not page.take(line, files):
                break
        left: list[tuple[str, int]] = [
            (str(p["subject"]), int(p["head"]["seq"]) if p["head"] else 0) for p in export.pairs
        ]
        following = None
        if len(page.lines) < len(export.lines):
            last = page.lines[-1]
            while left[0][0] != last["subject"]:
                left.pop(0)
            following = ExportCursor(int(last["seq"]), tuple(left)).text()
        return ExportPage(manifest, page.lines, page.files, following)

    def next_page(
        self, student_id: str, cursor: str, limit: int, subject_id: str | None = None
    ) -> ExportPage:
        """The page after ``cursor`` (a page's ``next``) of a student's export, or of the pair
        ``subject_id``'s: the lines after it, up to each pair's head as the first page found it."""
        check_id("student_id", student_id)
        at = ExportCursor.parse(cursor)
        for subject, _ in at.left:
            check_id("next", subject)
        if subject_id is not None and [s for s, _ in at.left] != [subject_id]:
            raise ValidationError("next", f"is the next of another export than {subject_id!r}'s")
        store = self.ports.store
        page = _Filling(limit, 0)
        after, left = at.after, list(at.left)
        while left and not page.full:
            subject, head = left[0]
            pair = Pair(student_id, subject)
            wanted = min(limit - len(page.lines), head - after)
            found = store.episodes(pair, after_seq=after, limit=wanted) if wanted > 0 else []
            found = [ep for ep in found if ep.seq <= head]
            by_seq = (
                {r.seq: r for r in store.erasures(pair)[0]} if any(e.erased for e in found) else {}
            )
            for ep in found:
                files: dict[str, bytes] = {}
                line, _ = self._episode_line(files, pair, ep, by_seq)
                if not page.take(line, files):
                    break
                after = ep.seq
            if page.full:
                break
            if not found or after >= head or len(found) < wanted:
                left.pop(0)  # this pair is sent (or has nothing more up to its head)
                after = 0
        done = not left or (len(left) == 1 and after >= left[0][1])
        following = None if done else ExportCursor(after, tuple(left)).text()
        return ExportPage(None, page.lines, page.files, following)


def _place(ep: Episode) -> dict[str, Any]:
    line: dict[str, Any] = {
        "student": ep.pair.student_id,
        "subject": ep.pair.subject_id,
        "at": format_time(ep.at),
        "kind": ep.kind.value,
        "seq": ep.seq,
        "id": ep.episode_id,
    }
    if ep.chain_version == 2 and ep.salt:
        line["salt"] = ep.salt
    return line


def _line(ep: Episode) -> dict[str, Any]:
    line = _place(ep)
    line.update(
        text=ep.text,
        summary=ep.summary,
        concepts=list(ep.concepts),
        evidence=ep.evidence.to_dict(),
        salience=ep.salience,
    )
    if ep.ref is not None:
        line["ref"] = ep.ref
    if ep.idempotency_key is not None:
        line["idempotency_key"] = ep.idempotency_key
    if ep.recalled_ids:
        line["recalled_ids"] = list(ep.recalled_ids)
    return line


def _file_line(ep: Episode, path: str) -> dict[str, Any]:
    """A file arrival whose bytes are exported: replay reads them into the map again."""
    assert isinstance(ep.evidence, FileEvidence)
    return {**_place(ep), "path": path, "file_id": ep.evidence.file_id}


def _erased_line(ep: Episode, record: Erasure | None) -> dict[str, Any]:
    """The envelope and the erasure record, nothing of the body. A version-1 episode has no
    commitment apart from its link hash, which stands in for it."""
    line = _place(ep)
    line.pop("salt", None)  # erased with the body
    line["salience"] = ep.salience
    line["erased"] = {
        "commitment": ep.commitment or ep.hash,
        "number": record.number if record else None,
        "at": format_time(record.at) if record else None,
        "reason": record.reason if record else None,
        "requested_by": record.requested_by if record else None,
        "scope": record.scope if record else None,
    }
    return line


def _registry(record: FileRecord) -> dict[str, Any]:
    return {
        "file_id": record.file_id,
        "name": record.name,
        "versions": [
            {"version": v.version, "fingerprint": v.fingerprint, "at": format_time(v.at)}
            for v in record.versions
        ],
        "removed_at": None if record.removed_at is None else format_time(record.removed_at),
    }


def statement_json(s: Statement) -> dict[str, Any]:
    return {
        "seq": s.seq,
        "aspect": s.aspect.value,
        "key": s.key,
        "value": s.value,
        "said_by": s.said_by.value,
        "at": format_time(s.at),
        "due": None if s.due is None else s.due.isoformat(),
        "source": s.source,
        "hash": s.hash,
        "commitment": s.commitment,  # version 2: the words' (the salt is never exported)
        "erased_at": None if s.erased_at is None else format_time(s.erased_at),
    }


def _size(value: Any) -> int:
    """What ``value`` weighs in a page, as JSON with every character escaped."""
    return len(json.dumps(value, separators=(",", ":")))


class _Filling:
    """A page being filled: at most ``limit`` lines and about :data:`PAGE_BYTES` (a line with
    its files, base64, goes whole; the first always goes)."""

    def __init__(self, limit: int, size: int) -> None:
        self.limit = limit
        self.size = size
        self.lines: list[dict[str, Any]] = []
        self.files: dict[str, bytes] = {}
        self.full = False

    def take(self, line: dict[str, Any], files: dict[str, bytes]) -> bool:
        """Add the line and its files, or say the page is full (False)."""
        fresh = {p: d for p, d in files.items() if p not in self.files}
        weight = _size(line) + sum(4 * ((len(d) + 2) // 3) + len(p) for p, d in fresh.items())
        if self.lines and (len(self.lines) >= self.limit or self.size + weight > PAGE_BYTES):
            self.full = True
            return False
        self.lines.append(line)
        self.files.update(fresh)
        self.size += weight
        self.full = len(self.lines) >= self.limit
        return True
