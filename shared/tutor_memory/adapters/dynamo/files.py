"""Annotations beside the log, and the file registry, on DynamoDB."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.dynamo.table import (
    DynamoTable,
    _annotation_sk,
    _is_condition_failure,
)
from tutor_memory.adapters.records import annotation_from_record, annotation_to_record
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ContentionError, NotFoundError, StoreError
from tutor_memory.domain.files import FileRecord, FileVersion


class DynamoFiles(DynamoTable):
    """The annotations and files of :class:`tutor_memory.ports.EpisodeStore` on DynamoDB."""

    # --- annotations ------------------------------------------------------------------------

    def annotate(self, annotation: Annotation) -> None:
        record = annotation_to_record(annotation)
        try:
            self.models.Annotation(
                self.pk(annotation.pair), _annotation_sk(record), **record
            ).save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def annotations(self, pair: Pair, episode_id: str) -> list[Annotation]:
        m = self.models.Annotation
        try:
            items = m.query(
                self.pk(pair), m.sk.startswith(f"ANN#{episode_id}#"), consistent_read=True
            )
            return [
                annotation_from_record({name: getattr(item, name) for name in _ANNOTATION_FIELDS})
                for item in items
            ]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    # --- files ------------------------------------------------------------------------------

    def register_file(
        self, pair: Pair, file_id: str, name: str, fingerprint: str, at: datetime
    ) -> tuple[FileRecord, bool]:
        m, pk = self.models, self.pk(pair)
        for attempt in range(C.APPEND_MAX_ATTEMPTS):
            current = self.file(pair, file_id)
            if (
                current is not None
                and not current.removed
                and current.current.fingerprint == fingerprint
            ):
                return current, False
            version = 1 if current is None else current.current.version + 1
            try:
                with TransactWrite(connection=self._connection) as tx:
                    tx.save(
                        m.File(pk, f"FILE#{file_id}", file_id=file_id, name=name, versions=version),
                        condition=(
                            m.File.sk.does_not_exist()
                            if current is None
                            else m.File.versions == version - 1
                        ),
                    )
                    tx.save(
                        m.FileVersion(
                            pk,
                            f"FVER#{file_id}#{version:06d}",
                            version=version,
                            fingerprint=fingerprint,
                            at=format_time(at),
                        ),
                        condition=m.FileVersion.sk.does_not_exist(),
                    )
            except TransactWriteError as exc:
                if not _is_condition_failure(exc):
                    raise StoreError(f"registering {file_id} failed: {exc}") from exc
                self._sleep(self._rng.uniform(0, C.APPEND_BACKOFF_BASE_S * 2**attempt))
                continue
            record = self.file(pair, file_id)
            assert record is not None
            return record, True
        raise ContentionError(f"gave up registering {file_id} for {pair}: too many conflicts")

    def remove_file(self, pair: Pair, file_id: str, at: datetime) -> FileRecord:
        m = self.models.File
        try:
            item = m.get(self.pk(pair), f"FILE#{file_id}", consistent_read=True)
        except m.DoesNotExist:
            raise NotFoundError(f"no file {file_id!r} for {pair}") from None
        if item.removed_at is None:
            item.update(actions=[m.removed_at.set(format_time(at))])
        record = self.file(pair, file_id)
        assert record is not None
        return record

    def file(self, pair: Pair, file_id: str) -> FileRecord | None:
        m = self.models
        try:
            item = m.File.get(self.pk(pair), f"FILE#{file_id}", consistent_read=True)
        except m.File.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        versions = m.FileVersion.query(
            self.pk(pair), m.FileVersion.sk.startswith(f"FVER#{file_id}#"), consistent_read=True
        )
        return FileRecord(
            pair=pair,
            file_id=file_id,
            name=item.name,
            versions=tuple(
                FileVersion(int(v.version), v.fingerprint, parse_time(v.at)) for v in versions
            ),
            removed_at=parse_time(item.removed_at) if item.removed_at else None,
        )

    def files(self, pair: Pair) -> list[FileRecord]:
        m = self.models.File
        ids = [item.file_id for item in m.query(self.pk(pair), m.sk.startswith("FILE#"))]
        records = self.together([partial(self.file, pair, i) for i in sorted(ids)])
        return [r for r in records if r is not None]


_ANNOTATION_FIELDS = ("student_id", "subject_id", "episode_id", "kind", "value", "at", "detail")
