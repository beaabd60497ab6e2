"""The embedded store's checkpoint anchor: an append-only file beside the store, signed with a
local key (``ports.CheckpointAnchor``).

* ``<folder>/checkpoints/<student>/<subject>.jsonl`` — a pair's anchored checkpoints, one per
  line (``chain.AnchoredCheckpoint.to_dict``), only ever opened for appending (``O_APPEND``):
  this adapter has no way to rewrite or remove a line, and a line is written whole by one
  ``write``. One file a pair: a night reads each pair's newest twice, and in one file for
  every pair a lookup read every pair's nights (~160 ms CPU at 30,000 lines against 0.2 ms,
  so a night of 1,000 pairs cost minutes, growing with every night).
* ``<folder>/checkpoints.jsonl`` — where every pair's checkpoints went before (read, never
  written): a pair with no file of its own yet has its newest there. It is read once a
  process and indexed (again only if it changed).
* ``<folder>/profile-checkpoints/<student>.jsonl`` — a student's profile log's checkpoints,
  the same way (``profile.AnchoredProfileCheckpoint``), under the same key: one file a student,
  since one is anchored after every statement and read before the next.
* ``<folder>/checkpoint.key`` — 32 random bytes, created once with mode 0600 (made complete
  under another name and linked into place, so two processes never see half a key); every
  line carries an HMAC-SHA256 of ``chain.checkpoint_message`` under it, and the key's
  fingerprint (``key_id``).

The newest checkpoint of a pair is the last line naming it in its file (on a filesystem that
folds case, "Ali" and "ali" share a file: each line says whose it is). A line that does not
parse is skipped (and logged): it names no pair to hold it against. A pair's file is read
whole (a verification, a night's anchoring; never a turn): one line a night, ~200 bytes.

What this guards against: a store edited behind the memory's back (an SQL client, a copied or
restored file, a migration) without the key. Someone who can also read the key file can sign
what they like; keep the key readable by the memory's user only (the mode it is created with).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from tutor_memory.domain.chain import AnchoredCheckpoint, Checkpoint, checkpoint_message
from tutor_memory.domain.episodes import Pair, check_id
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.profile import (
    AnchoredProfileCheckpoint,
    ProfileCheckpoint,
    profile_checkpoint_message,
)

CHECKPOINTS = "checkpoints.jsonl"  # every pair's, before one file a pair: read, never written
PAIR_CHECKPOINTS = "checkpoints"  # a folder: one folder a student, one file a subject
PROFILE_CHECKPOINTS = "profile-checkpoints"  # a folder: one file a student
KEY = "checkpoint.key"
KEY_BYTES = 32  # ours: HMAC-SHA256's block is 64 bytes; 256 random bits are its strength

log = logging.getLogger(__name__)

_Kept = TypeVar("_Kept")
_Anchored = TypeVar("_Anchored", AnchoredCheckpoint, AnchoredProfileCheckpoint)


def key_fingerprint(key: bytes) -> str:
    """What a line names its key by (never the key): 16 hex digits of a hash of it."""
    return "local:" + hashlib.sha256(b"tutor-memory checkpoint key\n" + key).hexdigest()[:16]


class FileAnchor:
    """Anchored checkpoints in ``folder`` (the embedded store's own folder)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / CHECKPOINTS
        self.key_path = self.folder / KEY
        self._key: bytes | None = None
        # the shared file's newest line a pair, and the (size, mtime) it was read at
        self._shared: tuple[tuple[int, int], dict[Pair, AnchoredCheckpoint]] | None = None

    def _read_key(self) -> bytes | None:
        if self._key is None:
            try:
                data = self.key_path.read_bytes()
            except FileNotFoundError:
                return None
            except OSError as exc:
                raise StoreError(f"cannot read the checkpoint key {self.key_path}: {exc}") from exc
            if len(data) != KEY_BYTES:
                raise StoreError(
                    f"the checkpoint key {self.key_path} holds {len(data)} bytes, not {KEY_BYTES}"
                )
            self._key = data
        return self._key

    def _make_key(self) -> bytes:
        """The key, created on first use: written whole under a temporary name with mode 0600,
        then linked into place (a link fails when the key exists: the first one wins)."""
        found = self._read_key()
        if found is not None:
            return found
        self.folder.mkdir(parents=True, exist_ok=True)
        draft = self.folder / f".{KEY}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(draft, self.key_path)
        except FileExistsError:
            pass  # another process made it first: theirs is the key
        finally:
            with contextlib.suppress(FileNotFoundError):
                draft.unlink()
        key = self._read_key()
        assert key is not None  # just linked into place
        return key

    def anchor(self, checkpoint: Checkpoint) -> AnchoredCheckpoint:
        point = Checkpoint(checkpoint.pair, checkpoint.seq, checkpoint.head_hash, checkpoint.at)
        key_id, mac = self._sign(checkpoint_message(point))
        anchored = AnchoredCheckpoint(point, key_id, mac)
        name = self._pair_file(point.pair)
        self._append(self.folder / name, anchored.to_dict())
        return AnchoredCheckpoint(point, key_id, mac, self._where(name))

    def pair_path(self, pair: Pair) -> Path:
        """The file a pair's checkpoints are appended to."""
        return self.folder / self._pair_file(pair)

    def newest(self, pair: Pair) -> AnchoredCheckpoint | None:
        found = self._newest_in(
            self._pair_file(pair), AnchoredCheckpoint.from_dict, lambda a: a.pair == pair
        )
        return found if found is not None else self._newest_shared(pair)

    def _newest_in(
        self,
        name: str,
        parse: Callable[[dict[str, Any]], _Anchored],
        owns: Callable[[_Anchored], bool],
    ) -> _Anchored | None:
        """The last line of the file ``name`` that ``owns`` (a line moved from another pair's or
        student's file is not theirs), with where it is kept."""
        found: tuple[int, _Anchored] | None = None
        for number, anchored in self._lines(self.folder / name, parse):
            if owns(anchored):
                found = number, anchored
        return None if found is None else replace(found[1], where=self._where(name, found[0]))

    def _newest_shared(self, pair: Pair) -> AnchoredCheckpoint | None:
        """A pair's newest line in the file every pair shared before, indexed once (the
        whole file is read again only when its size or time changed)."""
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read the checkpoints in {self.path}: {exc}") from exc
        seen = (info.st_size, info.st_mtime_ns)
        if self._shared is None or self._shared[0] != seen:
            newest: dict[Pair, AnchoredCheckpoint] = {}
            for number, anchored in self._lines(self.path, AnchoredCheckpoint.from_dict):
                newest[anchored.pair] = replace(anchored, where=self._where(CHECKPOINTS, number))
            self._shared = (seen, newest)
        return self._shared[1].get(pair)

    @staticmethod
    def _pair_file(pair: Pair) -> str:
        """The pair's file under the folder (ids are plain ASCII, never "." or "..", and
        start with a letter or digit: ``episodes.check_id``)."""
        return f"{PAIR_CHECKPOINTS}/{pair.student_id}/{pair.subject_id}.jsonl"

    def authentic(self, anchored: AnchoredCheckpoint) -> bool:
        return self._verify(checkpoint_message(anchored.checkpoint), anchored.key_id, anchored.mac)

    def anchor_profile(self, checkpoint: ProfileCheckpoint) -> AnchoredProfileCheckpoint:
        key_id, mac = self._sign(profile_checkpoint_message(checkpoint))
        anchored = AnchoredProfileCheckpoint(checkpoint, key_id, mac)
        name = self._profile_file(checkpoint.student_id)
        self._append(self.folder / name, anchored.to_dict())
        return AnchoredProfileCheckpoint(checkpoint, key_id, mac, self._where(name))

    def newest_profile(self, student_id: str) -> AnchoredProfileCheckpoint | None:
        return self._newest_in(
            self._profile_file(student_id),
            AnchoredProfileCheckpoint.from_dict,
            lambda a: a.checkpoint.student_id == student_id,
        )

    @staticmethod
    def _profile_file(student_id: str) -> str:
        """The student's file under the folder (an id is plain ASCII and starts with a letter
        or digit: ``episodes.check_id``)."""
        return f"{PROFILE_CHECKPOINTS}/{check_id('student_id', student_id)}.jsonl"

    def authentic_profile(self, anchored: AnchoredProfileCheckpoint) -> bool:
        message = profile_checkpoint_message(anchored.checkpoint)
        return self._verify(message, anchored.key_id, anchored.mac)

    def _sign(self, message: bytes) -> tuple[str, str]:
        key = self._make_key()
        return key_fingerprint(key), hmac.new(key, message, hashlib.sha256).hexdigest()

    def _verify(self, message: bytes, key_id: str, mac: str) -> bool:
        key = self._read_key()
        if key is None or key_id != key_fingerprint(key):
            return False
        expected = hmac.new(key, message, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, mac)

    @staticmethod
    def _append(path: Path, data: dict[str, object]) -> None:
        """One line, written whole by one ``write`` to a file only ever opened for appending
        (its folders made first)."""
        line = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        except OSError as exc:
            raise StoreError(f"cannot append a checkpoint to {path}: {exc}") from exc
        finally:
            os.close(fd)

    @staticmethod
    def _lines(path: Path, parse: Callable[[dict[str, Any]], _Kept]) -> Iterator[tuple[int, _Kept]]:
        """Each line's checkpoint (``parse``), with its number; a line that does not parse is
        skipped (and logged): it names nothing to hold against."""
        try:
            handle = path.open(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"cannot read the checkpoints in {path}: {exc}") from exc
        with handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    kept = parse(json.loads(line))
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("%s line %d skipped: %s", path.name, number, exc)
                    continue
                yield number, kept

    def _where(self, name: str, line: int | None = None) -> str:
        return name + ("" if line is None else f" line {line}")
