"""Where an upload says whose it is: the object key layout of the uploads bucket.

    <prefix><student_id>/<subject_id>/<file name>        e.g. uploads/s-42/biology/cells.pdf

The file id is the file name where it is already an id (letters and digits of any script and
``. _ @ -``), else a slug of it with a short hash of the whole name (see
:func:`tutor_memory.domain.episodes.file_id_for`), so uploading a file again under the same name
is a new version of the same file (the bucket keeps the old version; verification depends on
it) and two different names never share an id. Keys that do not follow the layout are refused
with the reason.

**A class's files** (issue 27) go to the class's course map, read once for the whole class and
folded into the maps of its students (``usecases/classmaps.py``)::

    <prefix><tenant>/classes/<class_id>/<subject_id>/<file name>
    e.g. uploads/default/classes/7a/biology/syllabus.pdf

**Tenants** other than ``default`` (a store made before tenants) keep every key under
``<prefix>T/<tenant>/`` (``domain/tenancy.py``; the cloud's credentials are scoped to it)::

    uploads/T/<tenant>/<student_id>/<subject_id>/<file name>
    uploads/T/<tenant>/classes/<class_id>/<subject_id>/<file name>

so a tenant's store reads its pairs' uploads under ``uploads/T/<tenant>/`` and its classes' as
``<tenant>/classes/…`` after ``uploads/T/``.

The tenant must be the store's (another tenant's key is refused). Removing a class's file is
not handled yet: its ObjectRemoved event is refused with that reason.

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
from tutor_memory.domain.tenancy import CLASSES, tenant_of_path
from tutor_memory.usecases.classmaps import ClassMaps
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
class ClassUpload:
    tenant: str
    class_id: str
    subject_id: str
    file_id: str
    name: str


def tenant_of_upload_key(key: str, prefix: str = DEFAULT_PREFIX, *, encoded: bool = True) -> str:
    """The tenant an uploaded object belongs to (``<prefix>T/<tenant>/…``; any other key under
    the prefix is the default tenant's); a ValidationError when the name is not a tenant's."""
    raw = unquote_plus(key) if encoded else key
    return tenant_of_path(raw[len(prefix) :] if raw.startswith(prefix) else raw)


def parse_class_upload_key(
    key: str, prefix: str = DEFAULT_PREFIX, *, encoded: bool = False
) -> ClassUpload | None:
    """The class file a key names (``<prefix><tenant>/classes/<class>/<subject>/<name>``), or
    None when the key is not in a class's layout (a pair's file, or off every layout)."""
    raw = unquote_plus(key) if encoded else key
    if not raw.startswith(prefix):
        return None
    parts = raw[len(prefix) :].split("/")
    if len(parts) != 5 or parts[1] != CLASSES:
        return None
    tenant, _, class_id, subject, name = parts
    if not name:
        raise ValidationError("key", f"{raw!r} names no file")
    check_id("tenant", tenant)
    check_id("class_id", class_id)
    check_id("subject_id", subject)
    return ClassUpload(tenant, class_id, subject, file_id_for(name), name)


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
    class_maps: ClassMaps | None = None,
    tenant: str | None = None,
    class_prefix: str | None = None,
) -> UploadOutcome:
    """One uploaded object into its pair's map, or a class's file into the class's course map
    (with ``class_maps``: see the module; ``tenant`` the store's; ``class_prefix`` what comes
    before ``<tenant>/classes/…``, ``prefix`` unless given: ``Settings.class_uploads_prefix``).
    A key off the layout or an unreadable file is an outcome, not a failure: retrying the
    event could not change it (the unreadable file has its ``file`` episode). Store and
    transport errors propagate, so the event is retried."""
    if class_maps is not None:
        try:
            course = parse_class_upload_key(
                key, prefix if class_prefix is None else class_prefix, encoded=True
            )
        except ValidationError as exc:
            return UploadOutcome(key, "refused", str(exc))
        if course is not None:
            return _ingest_class_upload(class_maps, fetch, bucket, key, version_id, course, tenant)
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


def _ingest_class_upload(
    class_maps: ClassMaps,
    fetch: Callable[[str, str, str | None], bytes],
    bucket: str,
    key: str,
    version_id: str | None,
    course: ClassUpload,
    tenant: str | None,
) -> UploadOutcome:
    if tenant is not None and course.tenant != tenant:
        return UploadOutcome(key, "refused", f"tenant {course.tenant!r} is not this store's")
    data = fetch(bucket, unquote_plus(key), version_id)
    try:
        result = class_maps.ingest(
            course.class_id, course.subject_id, course.file_id, course.name, data
        )
    except UnreadableFileError as exc:
        return UploadOutcome(key, "unreadable", str(exc))
    followed = f"{result.students_updated} students' maps follow it"
    if result.already_read:
        return UploadOutcome(key, "already read", followed)
    return UploadOutcome(key, "ingested", f"{len(result.concepts)} concepts; {followed}")


def remove_upload(
    maps: MapUseCases,
    fetch: Callable[[str, str, str | None], bytes],
    bucket: str,
    key: str,
    *,
    prefix: str = DEFAULT_PREFIX,
    stands: Callable[[str, str], bool] | None = None,
) -> UploadOutcome:
    """An object removed from the uploads bucket (see the module): the file is removed from the
    registry only when the bucket holds no current version of it (``stands``, when given,
    says whether one does; else a read of the current version that finds none)."""
    try:
        upload = parse_upload_key(key, prefix, encoded=True)
    except ValidationError as exc:
        return UploadOutcome(key, "refused", str(exc))
    try:
        if stands is not None and not stands(bucket, unquote_plus(key)):
            raise NotFoundError(f"{key} has no current version")
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
