"""What the nightly loop keeps on DynamoDB: the activity index, the verification queue and the
per-pair documents.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pynamodb.exceptions import PutError, PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.dynamo.table import (
    DynamoTable,
    _activity_item,
    _annotation_sk,
    _citation_sk,
    _is_condition_failure,
    activity_key,
    episode_sk,
)
from tutor_memory.adapters.records import annotation_to_record
from tutor_memory.domain import constants as C
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.episodes import Episode, Kind, Pair
from tutor_memory.domain.errors import ConflictError, StoreError
from tutor_memory.domain.nightly import utc_days
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import StoredDocument


class DynamoNightly(DynamoTable):
    """:class:`tutor_memory.ports.NightlyStore` on DynamoDB."""

    # --- the nightly loop -------------------------------------------------------------------

    def active_pairs(self, window: TimeWindow) -> list[Pair]:
        m = self.models.Activity
        found: set[Pair] = set()
        try:
            for day in utc_days(window):
                for shard in range(C.ACTIVITY_SHARDS):
                    for item in m.query(activity_key(self.prefix, day, shard)):
                        found.add(Pair(item.student_id, item.subject_id))
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return sorted(found)

    def mark_active(self, pair: Pair, at: datetime) -> None:
        try:
            _activity_item(self.models, pair, at, self.prefix).save()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _citations(self, pair: Pair, condition: Any, limit: int | None = None) -> list[Any]:
        m = self.models.Citation
        try:
            return list(
                m.query(
                    self.pk(pair),
                    condition,
                    consistent_read=True,
                    limit=limit,
                    page_size=min(limit or 500, 500),
                )
            )
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def citations_due(self, pair: Pair, *, before: datetime, limit: int) -> list[CitationEntry]:
        if limit <= 0:
            return []
        # "CITE#0#…" (never checked) sorts before every "CITE#<time>#…", and an entry checked
        # at `before` ("CITE#<before>#…") after the inclusive upper bound: half-open, as asked.
        span = self.models.Citation.sk.between("CITE#0", f"CITE#{format_time(before)}")
        return [_citation(pair, i) for i in self._citations(pair, span, limit)]

    def citations_checked_at(self, pair: Pair, at: datetime) -> list[CitationEntry]:
        sk, when = self.models.Citation.sk, format_time(at)
        items = [
            *self._citations(pair, sk.startswith(f"CITE#{when}#")),
            *self._citations(pair, sk.startswith(f"CITE#~#{when}#")),  # final ones that night
        ]
        return sorted((_citation(pair, i) for i in items), key=lambda c: c.seq)

    def citations(self, pair: Pair) -> list[CitationEntry]:
        prefix = self.models.Citation.sk.startswith("CITE#")
        return [_citation(pair, i) for i in self._citations(pair, prefix)]

    def record_citation_check(
        self, entry: CitationEntry, annotation: Annotation, *, final: bool
    ) -> None:
        m, pk = self.models, self.pk(entry.pair)
        old = _citation_sk(format_time(entry.checked_at) if entry.checked_at else "0", entry.seq)
        record = annotation_to_record(annotation)
        new = _citation_sk(f"~#{record['at']}" if final else record["at"], entry.seq)
        if entry.final or new == old:
            raise ConflictError(f"the citation of {entry.episode_id} is already checked")
        try:
            with TransactWrite(connection=self._connection) as tx:
                tx.delete(m.Citation(pk, old), condition=m.Citation.sk.exists())
                tx.save(
                    m.Citation(
                        pk,
                        new,
                        seq=entry.seq,
                        episode_id=entry.episode_id,
                        checked_at=record["at"],
                        value=annotation.value,
                    ),
                    condition=m.Citation.sk.does_not_exist(),
                )
                tx.save(m.Annotation(pk, _annotation_sk(record), **record))
        except TransactWriteError as exc:
            if _is_condition_failure(exc):
                raise ConflictError(
                    f"the citation of {entry.episode_id} was checked meanwhile; nothing written"
                ) from exc
            raise StoreError(str(exc)) from exc

    def newest_touching(self, pair: Pair, concept_key: str, kind: Kind) -> Episode | None:
        m = self.models.ConceptLink
        page = 25  # ours: the newest few links usually hold the newest episode of a kind
        try:
            links = m.query(
                self.pk(pair),
                m.sk.startswith(f"CON#{concept_key}#"),
                scan_index_forward=False,
                page_size=page,
            )
            seqs: list[int] = []
            for link in links:
                seqs.append(int(link.seq))
                if len(seqs) == page:
                    found = self._newest_of_kind(pair, seqs, kind)
                    if found is not None:
                        return found
                    seqs = []
            return self._newest_of_kind(pair, seqs, kind) if seqs else None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _newest_of_kind(self, pair: Pair, seqs: list[int], kind: Kind) -> Episode | None:
        keys = [(self.pk(pair), episode_sk(s)) for s in seqs]
        episodes = [self._episode(i) for i in self.models.Episode.batch_get(keys)]
        of_kind = [e for e in episodes if e.kind is kind]
        return max(of_kind, key=lambda e: e.seq) if of_kind else None

    def document(self, pair: Pair, name: str) -> StoredDocument | None:
        m = self.models.Document
        try:
            item = m.get(self.pk(pair), f"DOC#{name}", consistent_read=True)
        except m.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return StoredDocument(name, int(item.version), json.loads(item.body))

    def put_document(
        self, pair: Pair, name: str, body: dict[str, Any], *, expected_version: int
    ) -> int:
        m = self.models.Document
        version = expected_version + 1
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        condition = (
            m.sk.does_not_exist() if expected_version == 0 else m.version == expected_version
        )
        try:
            m(self.pk(pair), f"DOC#{name}", version=version, body=text).save(condition=condition)
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"{name} of {pair} is no longer at version {expected_version}; "
                    "nothing was written"
                ) from exc
            raise StoreError(str(exc)) from exc
        return version


def _citation(pair: Pair, item: Any) -> CitationEntry:
    state = item.sk.split("#")[1]
    return CitationEntry(
        pair=pair,
        seq=int(item.seq),
        episode_id=item.episode_id,
        checked_at=parse_time(item.checked_at) if item.checked_at else None,
        value=item.value,
        final=state == "~",
    )
