"""Erasure and export on DynamoDB (see ``tutor_memory.usecases.erasure``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.expressions.update import Action
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.dynamo.beliefs import DynamoBeliefs
from tutor_memory.adapters.dynamo.table import (
    BATCH_GET_KEYS,
    ERASED_KEY,
    _at_seq,
    _is_condition_failure,
    episode_sk,
    erasure_batches,
)
from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    GENESIS_HASH,
    Erasure,
    ErasureScope,
    erase,
    erased_from,
    erasure_records,
)
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Kind, Pair, erased_key_digest
from tutor_memory.domain.errors import ConflictError, ContentionError, StoreError


class DynamoErasure(DynamoBeliefs):
    """:class:`tutor_memory.ports.ErasingStore` on DynamoDB."""

    # --- erasure (see `tutor_memory.usecases.erasure`) --------------------------------------------
    # One transaction per batch of episodes (up to DynamoDB's 100 actions) writes the erased
    # items, their records and the head's erasure digest (under a condition on the digest it
    # read) and deletes their idempotency items; the items about them beside the log
    # (annotations, queue entries, concept links) are deleted after, again on a retry, so an
    # interrupted erasure finishes when asked again. Each step is a few requests per batch,
    # not per episode: a request per episode (about ten) made a pair of a few hundred episodes
    # outlast the API's Lambda (docs/benchmarks.md).

    def erasures(self, pair: Pair) -> tuple[list[Erasure], str | None]:
        m = self.models.Erasure
        try:
            items = m.query(self.pk(pair), m.sk.startswith("ERASE#"), consistent_read=True)
            records = [Erasure.from_dict(pair, json.loads(i.body)) for i in items]
            head = self.models.Head.get(self.pk(pair), "HEAD", consistent_read=True)
        except self.models.Head.DoesNotExist:
            return records, None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return records, head.erasure_head

    def erased_pairs(self) -> list[Pair]:
        """Every pair with an erasure record (what ``tutor-memory migrate`` looks at): a
        filtered scan of the table, read once by an operator's migration."""
        m = self.models.Erasure
        try:
            mine = m.sk.startswith("ERASE#") & m.pk.startswith(f"{self.prefix}PAIR#")
            keys = {i.pk for i in m.scan(mine, attributes_to_get=["pk"])}
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return [Pair(*k.removeprefix(f"{self.prefix}PAIR#").split("#", 1)) for k in sorted(keys)]

    def erase(
        self,
        pair: Pair,
        seqs: Sequence[int],
        *,
        at: datetime,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
    ) -> list[Episode]:
        number, prev = self._last_erasure(pair)
        found = self._episodes_at(pair, sorted(set(seqs)))
        done: list[Episode] = []
        for batch in erasure_batches([e for e in found if not e.erased]):
            records = erasure_records(batch, (number, prev), (at, reason, requested_by, scope))
            self._write_erased(pair, list(zip(batch, records, strict=True)))
            number, prev = records[-1].number, records[-1].digest
            done.extend(batch)
        # Beside the log: an episode erased before (an interrupted erasure) and each one now.
        self._erase_beside(pair, [e for e in found if e.erased] + done)
        return done

    def erasure_number(self, pair: Pair) -> int:
        """The number of the pair's newest erasure record (0: none): the one record read, not
        all of them, which a night's retention sweep would read again every night."""
        m = self.models.Erasure
        try:
            newest = next(
                iter(
                    m.query(
                        self.pk(pair),
                        m.sk.startswith("ERASE#"),
                        scan_index_forward=False,
                        limit=1,
                        consistent_read=True,
                    )
                ),
                None,
            )
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return int(newest.sk.removeprefix("ERASE#")) if newest is not None else 0

    def _last_erasure(self, pair: Pair) -> tuple[int, str]:
        """The number of the pair's newest erasure record (0: none) and the head's erasure
        digest (the genesis hash: none)."""
        number = self.erasure_number(pair)
        try:
            head = self.models.Head.get(self.pk(pair), "HEAD", consistent_read=True)
        except self.models.Head.DoesNotExist:
            return 0, GENESIS_HASH
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return number, head.erasure_head or GENESIS_HASH

    def _episodes_at(self, pair: Pair, seqs: Sequence[int]) -> list[Episode]:
        """The episodes at these sequences that exist, in order: consistent BatchGetItem
        reads of 100 keys."""
        m, pk = self.models.Episode, self.pk(pair)
        found: list[Episode] = []
        try:
            for i in range(0, len(seqs), BATCH_GET_KEYS):
                keys = [(pk, episode_sk(s)) for s in seqs[i : i + BATCH_GET_KEYS]]
                found += [self._episode(item) for item in m.batch_get(keys, consistent_read=True)]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return sorted(found, key=lambda e: e.seq)

    def _write_erased(self, pair: Pair, erased: Sequence[tuple[Episode, Erasure]]) -> None:
        """One transaction: the episodes erased, their records, the head's erasure digest moved
        from the one before the first record to the last's (and its counts) — under the head's
        place as read, so an append in between makes it try again (its count is not lost)."""
        m, pk = self.models, self.pk(pair)
        first = erased[0][1].prev
        erased_condition = (
            m.Head.erasure_head.does_not_exist()
            if first == GENESIS_HASH
            else m.Head.erasure_head == first
        )
        for _attempt in range(C.APPEND_MAX_ATTEMPTS):
            head = self.head(pair)
            if head is None:
                raise StoreError(f"{pair} has episodes but no chain head")
            counts = json.dumps(erased_from(head.counts, [e for e, _ in erased]), sort_keys=True)
            try:
                with TransactWrite(connection=self._connection) as tx:
                    for episode, record in erased:
                        gone = erase(episode)
                        tx.save(
                            m.Episode(
                                pk, episode_sk(episode.seq), at_seq=_at_seq(gone),
                                **episode_to_record(gone),
                            )
                        )  # fmt: skip
                        tx.save(
                            m.Erasure(
                                pk, f"ERASE#{record.number:010d}", body=json.dumps(record.to_dict())
                            ),
                            condition=m.Erasure.sk.does_not_exist(),
                        )
                        if episode.idempotency_key is not None:
                            # The key's item goes; its keyed hash (never its text) stays.
                            tx.delete(m.Idempotency(pk, f"IDEM#{episode.idempotency_key}"))
                            digest = erased_key_digest(pair, episode.idempotency_key)
                            tx.save(m.Idempotency(pk, f"{ERASED_KEY}{digest}", seq=episode.seq))
                    tx.update(
                        m.Head(pk, "HEAD"),
                        actions=[
                            m.Head.erasure_head.set(erased[-1][1].digest),
                            m.Head.counts.set(counts),
                        ],
                        condition=erased_condition & (m.Head.seq == head.seq),
                    )
                return
            except TransactWriteError as exc:
                if not _is_condition_failure(exc):
                    raise StoreError(str(exc)) from exc
                if (self.head(pair) or head).erasure_head != (
                    None if first == GENESIS_HASH else first
                ):
                    raise ConflictError(
                        f"{pair} was being erased meanwhile; ask again (nothing is lost)"
                    ) from exc
        raise ContentionError(f"{pair} kept being appended to while being erased")

    def _erase_beside(self, pair: Pair, episodes: Sequence[Episode]) -> None:
        """The items about ``episodes`` beside the log: their annotations, queue entries,
        correction and concept links (in BatchWriteItem requests), then each concept's stored
        name, taken again from the first episode still touching it. One Query of the pair's
        annotations and one of its queue for all of them (one episode's own annotations
        alone: a Query of its prefix)."""
        if not episodes:
            return
        m, pk = self.models, self.pk(pair)
        ids, seqs = {e.episode_id for e in episodes}, {e.seq for e in episodes}
        prefix = f"ANN#{episodes[0].episode_id}#" if len(episodes) == 1 else "ANN#"
        renamed: set[str] = set()
        try:
            annotations = [
                a
                for a in m.Annotation.query(pk, m.Annotation.sk.startswith(prefix))
                if a.sk.split("#", 2)[1] in ids
            ]
            citations = [
                c
                for c in m.Citation.query(pk, m.Citation.sk.startswith("CITE#"))
                if int(c.seq) in seqs
            ]
            links = []
            for episode in episodes:
                if episode.kind is Kind.CORRECTION:
                    links.append(m.ConceptLink(pk, f"FIX#{episode.seq:010d}"))
                for ckey in {concept_key(n) for n in episode.concepts} - {""}:
                    links.append(m.ConceptLink(pk, f"CON#{ckey}#{episode.seq:010d}"))
                    renamed.add(ckey)
            for model, doomed in (
                (m.Annotation, annotations), (m.Citation, citations), (m.ConceptLink, links)
            ):  # fmt: skip
                with model.batch_write() as batch:
                    for item in doomed:
                        batch.delete(item)
            for ckey in sorted(renamed):
                self._rename_concept(pair, ckey)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def _rename_concept(self, pair: Pair, ckey: str) -> None:
        m, pk = self.models, self.pk(pair)
        first = next(
            iter(m.ConceptLink.query(pk, m.ConceptLink.sk.startswith(f"CON#{ckey}#"), limit=1)),
            None,
        )
        episode = self._episode_at(pair, int(first.seq)) if first is not None else None
        name = next(
            (n for n in episode.concepts if concept_key(n) == ckey) if episode else iter(()), None
        )
        if name is None:
            m.ConceptName(pk, f"CNAME#{ckey}").delete()
        else:
            m.ConceptName(pk, f"CNAME#{ckey}", name=name).save()

    def delete_beliefs_citing(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        wanted = set(episode_ids)
        doomed = [b for b in self._all_beliefs(pair) if wanted & set(b.evidence_ids)]
        try:
            for belief in doomed:
                self.models.Belief(self.pk(pair), f"BEL#{belief.belief_id}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return len(doomed)

    def delete_documents(self, pair: Pair, names: Sequence[str] | None = None) -> None:
        m, pk = self.models.Document, self.pk(pair)
        try:
            if names is None:
                for item in m.query(pk, m.sk.startswith("DOC#")):
                    item.delete()
            for name in names or ():
                m(pk, f"DOC#{name}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def forget_file_version(
        self, pair: Pair, file_id: str, fingerprint: str, *, name: str | None = None
    ) -> bool:
        m, pk = self.models, self.pk(pair)
        try:
            versions = list(
                m.FileVersion.query(
                    pk, m.FileVersion.sk.startswith(f"FVER#{file_id}#"), consistent_read=True
                )
            )
            doomed = [v for v in versions if v.fingerprint == fingerprint]
            for v in doomed:
                v.delete()
            left = [int(v.version) for v in versions if v.fingerprint != fingerprint]
            entry = m.File(pk, f"FILE#{file_id}")
            if not left:
                entry.delete()
            elif doomed:
                # The entry counts the newest version (register_file writes under it).
                actions: list[Action] = [m.File.versions.set(max(left))]
                if name is not None:
                    actions.append(m.File.name.set(name))
                entry.update(actions=actions)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return bool(doomed)

    def purge_pair(self, pair: Pair) -> None:
        """Every item of the pair but its episodes (erased: envelopes), head and erasure
        records: the map, beliefs, documents, files, annotations, queue, concepts, keys, and
        the map's item in the student's index (its chain's ``HEAD#`` stays, as the head)."""
        kept = ("EP#", "HEAD", "ERASE#", ERASED_KEY)
        try:
            with self.models.Item.batch_write() as batch:  # 25 deletes a request
                for item in self.models.Item.query(self.pk(pair), consistent_read=True):
                    if not item.sk.startswith(kept):
                        batch.delete(item)
            # the map went: so does its line in the student's index (the chain's stays)
            self.index_item(pair.student_id, f"MAP#{pair.subject_id}").delete()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def pairs_of(self, student_id: str) -> list[Pair]:
        """Every pair of a student with a chain: the student's index (``HEAD#`` items), and,
        with the process's own credentials, a filtered scan of the heads too (a store written
        before the index; ``tutor-memory migrate`` writes it)."""
        m = self.models.Head
        prefix = f"{self.prefix}PAIR#{student_id}#"
        subjects = set(self.indexed(student_id, "HEAD"))
        try:
            if self.scans:  # a chain begun before the student's index was kept
                heads = m.scan((m.sk == "HEAD") & m.pk.startswith(prefix))
                subjects.update(h.pk.removeprefix(prefix) for h in heads)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return [Pair(student_id, s) for s in sorted(subjects)]

    def maps_of(self, student_id: str) -> list[Pair]:
        """The student's maps: the index's ``MAP#`` items (and a scan, as ``pairs_of``)."""
        m = self.models.Map
        prefix = f"{self.prefix}PAIR#{student_id}#"
        subjects = set(self.indexed(student_id, "MAP"))
        try:
            if self.scans:  # a map made before the student's index was kept
                found = m.scan((m.sk == "MAP") & m.pk.startswith(prefix), attributes_to_get=["pk"])
                subjects.update(str(i.pk).removeprefix(prefix) for i in found)
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return [Pair(student_id, s) for s in sorted(subjects)]

    def index_students(self, student_id: str | None = None) -> int:
        """Write the student index items (``table.student_key``) of the chains, maps and class
        follower lists a store holds from before it kept them (``tutor-memory migrate``: a
        credential scoped to a tenant may not scan, so a student's export and erasure read
        the index alone); idempotent. Scans this tenant's keys once, with the operator's
        credentials; returns how many items were written."""
        m = self.models
        heads = m.Head.sk == "HEAD"
        maps = m.Map.sk == "MAP"
        wanted: set[tuple[str, str]] = set()
        pairs = f"{self.prefix}PAIR#"
        try:
            for kind, condition, model in (("HEAD", heads, m.Head), ("MAP", maps, m.Map)):
                for item in model.scan(condition & model.pk.startswith(pairs)):
                    student, subject = str(item.pk).removeprefix(pairs).split("#", 1)
                    wanted.add((student, f"{kind}#{subject}"))
            d = m.Document
            classes = f"{self.prefix}CLASS#"
            for listed in d.scan((d.sk == "FOLLOWERS") & d.pk.startswith(classes)):
                for student in json.loads(listed.body):
                    wanted.add((student, f"CLASS#{str(listed.pk).removeprefix(classes)}"))
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        chosen = sorted(w for w in wanted if student_id is None or w[0] == student_id)
        for student, sk in chosen:
            self.index_student(student, sk)
        return len(chosen)

    def rewrap_student_keys(self, student_id: str | None = None) -> int:
        """Wrap again, under a context that names the tenant, the data keys of this tenant's
        students wrapped before it did (``tutor-memory migrate``, with the operator's
        credentials: a tenant's session may unwrap only keys naming its tenant); how many."""
        if self.keys is None:
            return 0
        students = self.keys.unbound() if student_id is None else [student_id]
        return sum(1 for student in students if self.keys.rewrap(student))

    def compact(self) -> None:
        """Nothing to do: DynamoDB keeps no deleted item readable."""

    def shred_student(self, student_id: str) -> bool:
        """Delete the student's data key (True if bodies were encrypted under one): every
        sealed body of the student, here and in every backup, is then unreadable. Erasing a
        student does this first, then erases the bodies as for any pair."""
        return self.keys.shred(student_id) if self.keys is not None else False

    def erased_key(self, pair: Pair, digest: str) -> datetime | None:
        """The erased key's item names the episode; its erasure record says when."""
        m = self.models
        try:
            item = m.Idempotency.get(self.pk(pair), f"{ERASED_KEY}{digest}", consistent_read=True)
        except m.Idempotency.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        records, _ = self.erasures(pair)
        return next((r.at for r in records if r.seq == int(item.seq)), None)
