"""The pynamodb models of the store's tables (the design: the package's doc)."""

from __future__ import annotations

from typing import Any

from pynamodb.attributes import BinaryAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from tutor_memory.adapters.tenant_credentials import Credentials, credential_kwargs


class Models:
    """The pynamodb models bound to one table (names come from settings, not from import time)."""

    def __init__(
        self,
        table_name: str,
        region: str,
        host: str | None = None,
        *,
        keys_table: str | None = None,
        credentials: Credentials | None = None,
    ) -> None:
        # pynamodb reads a model's credentials from its Meta (per class: so one process can
        # hold a store per tenant, each signing with that tenant's credentials)
        signing = credential_kwargs(credentials)
        keys_meta: Any = type(
            "Meta",
            (),
            {
                "table_name": keys_table or f"{table_name}-keys",
                "region": region,
                "host": host,
                "billing_mode": "PAY_PER_REQUEST",
                **signing,
            },
        )
        meta: Any = type(
            "Meta",
            (),
            {
                "table_name": table_name,
                "region": region,
                "host": host,
                "billing_mode": "PAY_PER_REQUEST",
                **signing,
            },
        )

        class Item(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)

        class ByTime(GlobalSecondaryIndex[Any]):  # type: ignore[no-untyped-call]
            class Meta:
                index_name = "by_time"
                projection = AllProjection()

            pk = UnicodeAttribute(hash_key=True)
            at_seq = UnicodeAttribute(range_key=True)

        class EpisodeItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            at_seq = UnicodeAttribute()
            by_time = ByTime()
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            seq = NumberAttribute()
            episode_id = UnicodeAttribute()
            kind = UnicodeAttribute()
            at = UnicodeAttribute()
            summary = UnicodeAttribute()
            text = UnicodeAttribute()
            concepts = UnicodeAttribute()
            salience = NumberAttribute()
            evidence = UnicodeAttribute()
            recalled_ids = UnicodeAttribute()
            ref = UnicodeAttribute(null=True)
            idempotency_key = UnicodeAttribute(null=True)
            request_hash = UnicodeAttribute(null=True)
            prev_hash = UnicodeAttribute()
            hash = UnicodeAttribute()
            chain_version = NumberAttribute(null=True)  # absent: chain v1
            salt = UnicodeAttribute(null=True)
            commitment = UnicodeAttribute(null=True)
            erased = NumberAttribute(null=True)
            # With a KMS key: text, summary, evidence and concepts sealed under the student's
            # data key (the plain attributes then hold empty values); see student_keys.
            sealed = BinaryAttribute(null=True, legacy_encoding=False)

        class HeadItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True, default="HEAD")
            seq = NumberAttribute()
            hash = UnicodeAttribute()
            at = UnicodeAttribute()
            counts = UnicodeAttribute(null=True)  # JSON: episodes per kind
            erasure_head = UnicodeAttribute(null=True)  # the last erasure record's digest

        class ErasureItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            body = UnicodeAttribute()

        class IdempotencyItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()

        class AnnotationItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            episode_id = UnicodeAttribute()
            kind = UnicodeAttribute()
            value = UnicodeAttribute()
            at = UnicodeAttribute()
            detail = UnicodeAttribute(null=True)

        class FileItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            file_id = UnicodeAttribute()
            name = UnicodeAttribute()
            versions = NumberAttribute()
            removed_at = UnicodeAttribute(null=True)

        class ConceptLinkItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()
            at = UnicodeAttribute()

        class ConceptNameItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            name = UnicodeAttribute()

        class BeliefItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            belief_id = UnicodeAttribute()
            concept_key = UnicodeAttribute()
            concept_name = UnicodeAttribute()
            claim = UnicodeAttribute()
            confidence = NumberAttribute()
            evidence_ids = UnicodeAttribute()
            created_at = UnicodeAttribute()
            rule_version = NumberAttribute()
            reason = UnicodeAttribute()
            needs_confirmation = NumberAttribute()
            generation = NumberAttribute()
            superseded_by = UnicodeAttribute(null=True)
            retired_at = UnicodeAttribute(null=True)

        class MapItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True, default="MAP")
            version = NumberAttribute()
            body = BinaryAttribute(legacy_encoding=False)

        class FileVersionItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()
            fingerprint = UnicodeAttribute()
            at = UnicodeAttribute()

        class ActivityItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            student_id = UnicodeAttribute()
            subject_id = UnicodeAttribute()
            expires_at = NumberAttribute()  # epoch seconds: the table's TTL attribute

        class CitationItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            seq = NumberAttribute()
            episode_id = UnicodeAttribute()
            checked_at = UnicodeAttribute(null=True)
            value = UnicodeAttribute(null=True)

        class StudentKeyItem(Model):  # in the keys table, which has no backups
            Meta = keys_meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            key_id = UnicodeAttribute()
            wrapped = BinaryAttribute(legacy_encoding=False)  # KMS ciphertext of the data key
            created_at = UnicodeAttribute()
            tenant_bound = NumberAttribute(null=True)  # 1: its context names the tenant

        class DocumentItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()
            body = UnicodeAttribute()

        # The access directory (``access``): a class's roster, the students each teacher
        # teaches in it, the record of disclosures and how many of it an erasure deleted.
        class RosterItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()
            teachers = UnicodeAttribute()  # JSON lists of ids
            students = UnicodeAttribute()
            pending = UnicodeAttribute(null=True)  # JSON: teachers whose items may lag behind

        class TeachingItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            version = NumberAttribute()  # the roster's version it was written from
            students = UnicodeAttribute()  # JSON list; empty: no longer a teacher of the class

        class ReadItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            subject_id = UnicodeAttribute(null=True)
            operation = UnicodeAttribute()
            reader_role = UnicodeAttribute()
            reader_id = UnicodeAttribute()
            at = UnicodeAttribute()

        class CountItem(Model):
            Meta = meta
            pk = UnicodeAttribute(hash_key=True)
            sk = UnicodeAttribute(range_key=True)
            total = NumberAttribute()

        self.Item = Item
        self.Activity = ActivityItem
        self.Citation = CitationItem
        self.Document = DocumentItem
        self.Episode = EpisodeItem
        self.Head = HeadItem
        self.Idempotency = IdempotencyItem
        self.Annotation = AnnotationItem
        self.File = FileItem
        self.FileVersion = FileVersionItem
        self.ConceptLink = ConceptLinkItem
        self.ConceptName = ConceptNameItem
        self.Map = MapItem
        self.Belief = BeliefItem
        self.Erasure = ErasureItem
        self.StudentKey = StudentKeyItem
        self.Roster = RosterItem
        self.Teaching = TeachingItem
        self.Read = ReadItem
        self.Count = CountItem
