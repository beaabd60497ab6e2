"""The embedded store's copy of every file version it read, beside the log.

The cloud keeps an upload's bytes in the versioned uploads bucket; the embedded store keeps its
own copy, so that an export carries the files (``replay`` reads them into the map again) and an
erasure deletes them. The layout follows the bucket's keys, one file per version::

    <root>/<prefix><student_id>/<subject_id>/<file name>/<fingerprint>

so an erasure's key prefix (``uploads/s-42/biology/cells.pdf``, or a whole pair's
``uploads/s-42/biology/``) names the same files here as in the bucket.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.files import fingerprint


class LocalFiles:
    def __init__(self, root: Path, prefix: str = "uploads/") -> None:
        self.root = Path(root)
        self.prefix = prefix

    def _folder(self, pair: Pair, name: str) -> Path:
        if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
            raise ValueError(f"{name!r} is not a file name")
        return self.root / f"{self.prefix}{pair.student_id}" / pair.subject_id / name

    def keep(self, pair: Pair, name: str, data: bytes) -> None:
        """Keep these bytes as a version of the pair's file ``name`` (again: a no-op)."""
        folder = self._folder(pair, name)
        path = folder / fingerprint(data)
        if path.exists():
            return
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(data)
        os.replace(partial, path)  # a crash never leaves a short file under the fingerprint

    def find(self, pair: Pair, name: str, digest: str) -> bytes | None:
        """The version of ``name`` with this fingerprint, or None when it is not kept."""
        try:
            path = self._folder(pair, name) / digest
        except ValueError:
            return None
        return path.read_bytes() if path.is_file() else None

    def delete_all_versions(self, prefix: str, spare: Callable[[str], bool] | None = None) -> int:
        """Delete every kept version of the file a key names (its folder of versions), or of
        every file under a folder prefix ending in "/" but those whose key ``spare`` keeps (as
        ``S3Files.delete_all_versions``); returns how many files were deleted. ``notes.md``
        never reaches ``notes.md.bak``."""
        if not self.root.is_dir():
            return 0
        prefix = prefix if prefix.endswith("/") else prefix + "/"
        deleted = 0
        for path in sorted(self.root.rglob("*"), reverse=True):  # files before their folders
            relative = path.relative_to(self.root).as_posix()
            key = path.parent.relative_to(self.root).as_posix()  # a version's file: its key
            if (
                path.is_file()
                and relative.startswith(prefix)
                and not (spare is not None and spare(key))
            ):
                path.unlink()
                deleted += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        return deleted
