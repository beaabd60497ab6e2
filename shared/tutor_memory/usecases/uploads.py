"""Where an upload says whose it is: the object key layout of the uploads bucket.

    <prefix><student_id>/<subject_id>/<file name>        e.g. uploads/s-42/biology/cells.pdf

The file id is the file name where it is already an id (letters and digits of any script and
``. _ @ -``), else a slug of it with a short hash of the whole name (see
:func:`tutor_memory.domain.episodes.file_id_for`), so uploading a file again under the same name
is a new version of the same file (the bucket keeps the old version; verification depends on
it) and two different names never share an id. Keys that do not follow the layout are refused
with the reason.

**Removed and overwritten objects** (the bucket keeps versions). An overwrite is an
ObjectCreated event with a new version id: it is read as the file's next version, so an answer
that cited the old bytes verifies as "changed: replaced". An ObjectRemoved event is checked
against the bucket, never trusted alone (events arrive out of order, and deleting an *old*
version leaves the file as it was): when the object has no current version any more (a delete
marker, or the last version deleted) the file is removed from the registry — "changed:
removed"; when a current version still stands, it is the file, read as usual (already read if
it is the version the registry has).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_plus

from tutor_memory.domain.episodes import Pair, check_id, file_id_for
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.domain.filetext import UnreadableFileError
from tutor_memory.usecases.maps import MapUseCases

DEFAULT_PREFIX = "uploads/"


@dataclass(frozen=True)
class Upload:
    pair: Pair
    file_id: str
    name: str


def parse_upload_key(key: str, prefix: str = DEFAULT_PREFIX, *, encoded: bool = False) -> Upload:
    """``encoded``: the key as S3 event notifications carry it (URL-encoded, spaces as ``+``)."""
    raw = unquote_plus(key) if encoded else key
    if not raw.startswith(prefix):
        raise ValidationError("key", f"{raw!r} is not under {prefix!r}")
    parts = raw[len(prefix) :].split("/")
    if len(parts) != 3 or not all(parts):
        raise ValidationError(
            "key", f"{raw!r} does not follow {prefix}<student_id>/<subject_id>/<file name>"
        )
    student, subject, name = parts
    check_id("student_id", student)
    check_id("subject_id", subject)
    return Upload(Pair(student, subject), file_id_for(name), name)


@dataclass(frozen=True)
class UploadOutcome:
    key: str
    status: str  # "ingested", "already read", "refused", "unreadable", "removed", "already removed"
    detail: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "status": self.status, "detail": self.detail}


def ingest_upload(
    maps: MapUseCases,
    fetch: Callable[[str, str, str | None], bytes],
    bucket: str,
    key: str,
    version_id: str | None,
    *,
    prefix: str = DEFAULT_PREFIX,
) -> UploadOutcome:
    """One uploaded object into its pair's map. A key off the layout or an unreadable file is
    an outcome, not a failure: retrying the event could not change it (the unreadable file
    has its ``file`` episode). Store and transport errors propagate, so the event is retried."""
    try:
        upload = parse_upload_key(key, prefix, encoded=True)
    except ValidationError as exc:
        return UploadOutcome(key, "refused", str(exc))
    data = fetch(bucket, unquote_plus(key), version_id)
    try:
        result = maps.ingest(upload.pair, upload.file_id, upload.name, data)
    except UnreadableFileError as exc:
        return UploadOutcome(key, "unreadable", str(exc))
    if result.already_read:
        return UploadOutcome(key, "already read")
    return UploadOutcome(key, "ingested", f"{len(result.concepts)} concepts")


def remove_upload(
    maps: MapUseCases,
    fetch: Callable[[str, str, str | None], bytes],
    bucket: str,
    key: str,
    *,
    prefix: str = DEFAULT_PREFIX,
) -> UploadOutcome:
    """An object removed from the uploads bucket (see the module): the file is removed from the
    registry only when the bucket holds no current version of it."""
    try:
        upload = parse_upload_key(key, prefix, encoded=True)
    except ValidationError as exc:
        return UploadOutcome(key, "refused", str(exc))
    try:
        data = fetch(bucket, unquote_plus(key), None)  # the current version, if one stands
    except NotFoundError:
        if maps.remove_file(upload.pair, upload.file_id) is None:
            return UploadOutcome(key, "already removed")
        return UploadOutcome(key, "removed")
    try:
        result = maps.ingest(upload.pair, upload.file_id, upload.name, data)
    except UnreadableFileError as exc:
        return UploadOutcome(key, "unreadable", str(exc))
    if result.already_read:
        return UploadOutcome(key, "already read", "an older version was removed; the file stands")
    return UploadOutcome(key, "ingested", f"{len(result.concepts)} concepts")
