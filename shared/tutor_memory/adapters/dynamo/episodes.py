"""The episode log on DynamoDB: appends, and the log's reads.

Append: read the head (strongly consistent), seal the episode against it, then one transaction
puts the episode (``attribute_not_exists``), puts the head under a condition on the sequence it
was read at, with an idempotency key puts ``IDEM#key`` (``attribute_not_exists``), and links
the episode's concepts (``CON#``, ``CNAME#``), queues an answer (``CITE#0#``), lists a correction
(``FIX#``) and, for the first episode of a pair on a UTC day, marks the day active (``ACTIVE#``;
a later episode of the same day finds the head on that day, whose own append marked it) — at most
70 items with 32 concepts, within the transaction limit of 100 (one more, a check that the student's
data key is still the one the body was sealed under, when bodies are encrypted). A lost
race cancels the whole transaction; we re-read and retry with full-jitter backoff, and give up
with :class:`ContentionError` after ``APPEND_MAX_ATTEMPTS``. Nothing is half-written.

A transaction can commit while its answer is lost (a timeout); botocore then resends it, with the
attempt's ``ClientRequestToken`` (``request_token``, a new one per attempt), and DynamoDB answers
a resend of a committed transaction as it did the first, writing nothing. Where the token is not
kept (moto; DynamoDB after 10 minutes) the resend is cancelled by the attempt's own writes, and
the episode item in its place with its hash says so: reported created, never as a retry.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pynamodb.exceptions import PynamoDBException, TransactWriteError
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.dynamo.table import (
    BATCH_GET_KEYS,
    DynamoTable,
    _activity_item,
    _at_seq,
    _citation_sk,
    _is_condition_failure,
    concept_keys,
    episode_sk,
)
from tutor_memory.adapters.records import episode_to_record
from tutor_memory.adapters.student_keys import KEY_SK, key_pk
from tutor_memory.domain import constants as C
from tutor_memory.domain.chain import (
    ChainHead,
    format_time,
    head_of,
    new_salt,
    parse_time,
    salt_for,
    seal,
    seq_of_id,
)
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair, about_the_student
from tutor_memory.domain.errors import ConflictError, ContentionError, StoreError
from tutor_memory.domain.nightly import utc_day
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import AppendResult

# positions of the episode, head and idempotency puts in an append (after the key check, if any)
_EPISODE_SLOT, _HEAD_SLOT, _IDEM_SLOT = 0, 1, 2


class DynamoEpisodes(DynamoTable):
    """The log of :class:`tutor_memory.ports.EpisodeStore` on DynamoDB (its annotations and
    files are in ``files``)."""

    # --- episodes ---------------------------------------------------------------------------

    def append(self, new: NewEpisode) -> AppendResult:
        with self._locks_guard:
            lock = self._pair_locks.setdefault(new.pair, threading.Lock())
        with lock:
            return self._append(new)

    def _append(self, new: NewEpisode) -> AppendResult:
        pk = self.pk(new.pair)
        if new.idempotency_key is not None:
            existing = self._by_idempotency_key(new.pair, new.idempotency_key)
            if existing is not None:
                return AppendResult(existing, created=False)
        head = self._head_for_append(new.pair)
        for attempt in range(C.APPEND_MAX_ATTEMPTS):
            episode = seal(new, head, salt=salt_for(new, head) or new_salt())
            try:
                self._commit_append(pk, episode, head)
                return AppendResult(episode, created=True)
            except TransactWriteError as exc:
                if not _is_condition_failure(exc):
                    raise StoreError(f"append failed for {new.pair}: {exc}") from exc
                reasons = exc.cancellation_reasons
                if self.keys is not None:
                    # pynamodb sends condition checks before puts: the key check is first.
                    if _failed(reasons, 0):
                        # The student's key was shredded (or replaced) since this process
                        # read it: the next attempt reads (or makes) the current one.
                        self.keys.forget(new.pair.student_id)
                    reasons = reasons[1:]
                if _failed(reasons, _EPISODE_SLOT) and self._holds(episode):
                    # A resend of this attempt's committed transaction, cancelled by its own
                    # writes (the token not kept): the append is this attempt's.
                    return AppendResult(episode, created=True)
                self.conflicts += 1
                if new.idempotency_key is not None and _failed(reasons, _IDEM_SLOT):
                    existing = self._by_idempotency_key(new.pair, new.idempotency_key)
                    if existing is not None:
                        return AppendResult(existing, created=False)
                # The cancelled head put returns the head that won (ALL_OLD): no re-read needed.
                head = self._head_from_reason(new.pair, reasons) or self._head_for_append(new.pair)
            backoff = min(C.APPEND_BACKOFF_CAP_S, C.APPEND_BACKOFF_BASE_S * 2**attempt)
            self._sleep(self._rng.uniform(0, backoff))
        raise ContentionError(
            f"gave up appending to {new.pair} after {C.APPEND_MAX_ATTEMPTS} conflicting attempts; "
            "nothing was written, retry later"
        )

    def append_sealed(self, episode: Episode) -> AppendResult:
        """Append an episode sealed elsewhere (a replayed export's erased envelope, see
        ``chain.envelope_episode``): it must link to the current head."""
        head = self.head(episode.pair)
        if episode.seq != (head.seq if head else 0) + 1 or episode.prev_hash != (
            head.hash if head else "0" * 64
        ):
            raise ConflictError(f"episode {episode.seq} does not follow the head of {episode.pair}")
        try:
            self._commit_append(self.pk(episode.pair), episode, head)
        except TransactWriteError as exc:
            raise ConflictError(f"{episode.pair} changed during the append: {exc}") from exc
        return AppendResult(episode, created=True)

    def _head_for_append(self, pair: Pair) -> ChainHead | None:
        """The head an append seals against (a seam where tests simulate a racing writer)."""
        return self.head(pair)

    def _head_from_reason(self, pair: Pair, reasons: list[Any]) -> ChainHead | None:
        reason = reasons[_HEAD_SLOT] if len(reasons) > _HEAD_SLOT else None
        raw = getattr(reason, "raw_item", None)
        if not raw or "seq" not in raw:
            return None
        return ChainHead(
            pair=pair,
            seq=int(raw["seq"]["N"]),
            hash=raw["hash"]["S"],
            at=parse_time(raw["at"]["S"]),
            counts=json.loads(raw.get("counts", {}).get("S", "{}")),
            erasure_head=raw.get("erasure_head", {}).get("S"),
        )

    def _commit_append(self, pk: str, episode: Episode, head: ChainHead | None) -> None:
        """One transaction; the order of the puts is fixed (see the ``_…_SLOT`` constants)."""
        m = self.models
        record = episode_to_record(episode)
        # an erasure's entry (no word of theirs) stays readable, and mints no key, once shredded
        keys = self.keys if about_the_student(episode) else None
        data_key = None if keys is None else keys.key(episode.pair.student_id, create=True)
        stored = self._seal(pk, episode_sk(episode.seq), record, data_key)
        with TransactWrite(
            connection=self._connection, client_request_token=request_token(episode)
        ) as tx:
            tx.save(
                m.Episode(pk, episode_sk(episode.seq), at_seq=_at_seq(episode), **stored),
                condition=m.Episode.sk.does_not_exist(),
            )
            counts = json.dumps(dict(head_of(episode, head).counts), sort_keys=True)
            # The head item also keeps the erasure records' last digest: the put carries it on
            # (a put without it would make every earlier erasure read as tampered), and is
            # conditioned on it too, so an erasure in between makes this append retry.
            kept = head.erasure_head if head is not None else None
            head_item = m.Head(
                pk, "HEAD", seq=episode.seq, hash=episode.hash, at=record["at"], counts=counts,
                erasure_head=kept,
            )  # fmt: skip
            head_condition = (
                m.Head.sk.does_not_exist()
                if head is None
                else (m.Head.seq == head.seq)
                & (
                    m.Head.erasure_head.does_not_exist()
                    if kept is None
                    else m.Head.erasure_head == kept
                )
            )
            tx.save(head_item, condition=head_condition, return_values="ALL_OLD")
            if episode.idempotency_key is not None:
                tx.save(
                    m.Idempotency(pk, f"IDEM#{episode.idempotency_key}", seq=episode.seq),
                    condition=m.Idempotency.sk.does_not_exist(),
                )
            for key, name in concept_keys(episode).items():
                tx.save(
                    m.ConceptLink(
                        pk, f"CON#{key}#{episode.seq:010d}", seq=episode.seq, at=record["at"]
                    )
                )
                tx.update(
                    m.ConceptName(pk, f"CNAME#{key}"),
                    actions=[m.ConceptName.name.set(m.ConceptName.name | name)],
                )
            if episode.kind is Kind.CORRECTION:  # the pair's corrections, found by one Query
                tx.save(
                    m.ConceptLink(pk, f"FIX#{episode.seq:010d}", seq=episode.seq, at=record["at"])
                )
            if episode.kind is Kind.ANSWER:
                tx.save(
                    m.Citation(
                        pk, _citation_sk("0", episode.seq), seq=episode.seq,
                        episode_id=episode.episode_id,
                    )
                )  # fmt: skip
            if head is None or utc_day(head.at) != utc_day(episode.at):
                tx.save(_activity_item(m, episode.pair, episode.at, self.prefix))
            if head is None:  # the pair's first episode: into the student's index
                tx.save(self.index_item(episode.pair.student_id, f"HEAD#{episode.pair.subject_id}"))
            if data_key is not None:  # sent first (pynamodb: condition checks, then puts)
                tx.condition_check(
                    m.StudentKey,
                    key_pk(episode.pair.student_id, self.prefix),
                    KEY_SK,
                    condition=m.StudentKey.key_id == data_key.key_id,
                )

    def _holds(self, episode: Episode) -> bool:
        """Whether the episode item in ``episode``'s place is ``episode``: its hash commits to
        the head it follows and to the body's salt drawn for the attempt that sealed it, so it
        is that attempt's write. Reads the hash only (no body to open)."""
        m = self.models.Episode
        try:
            item = m.get(
                self.pk(episode.pair),
                episode_sk(episode.seq),
                consistent_read=True,
                attributes_to_get=["hash"],
            )
        except m.DoesNotExist:
            return False
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return bool(item.hash == episode.hash)

    def by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        return self._by_idempotency_key(pair, key)

    def _by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        try:
            item = self.models.Idempotency.get(self.pk(pair), f"IDEM#{key}", consistent_read=True)
        except self.models.Idempotency.DoesNotExist:
            return None
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return self._episode_at(pair, int(item.seq))

    def get(self, pair: Pair, episode_id: str) -> Episode | None:
        seq = seq_of_id(episode_id)
        if seq is None:
            return None
        episode = self._episode_at(pair, seq)
        return episode if episode is not None and episode.episode_id == episode_id else None

    def _query_episodes(
        self, pair: Pair, condition: Any, *, forward: bool, limit: int | None
    ) -> list[Episode]:
        try:
            items = self.models.Episode.query(
                self.pk(pair),
                condition,
                consistent_read=True,
                scan_index_forward=forward,
                limit=limit,
                page_size=min(limit or 500, 500),
            )
            return [self._episode(item) for item in items]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def episodes(
        self, pair: Pair, *, after_seq: int = 0, limit: int | None = None
    ) -> list[Episode]:
        condition = self.models.Episode.sk.between(
            episode_sk(after_seq + 1), episode_sk(10**10 - 1)
        )
        return self._query_episodes(pair, condition, forward=True, limit=limit)

    def iter_episodes(self, pair: Pair, *, page_size: int = 500) -> Iterator[Episode]:
        after = 0
        while True:
            page = self.episodes(pair, after_seq=after, limit=page_size)
            yield from page
            if len(page) < page_size:
                return
            after = page[-1].seq

    def recent(self, pair: Pair, limit: int, window: TimeWindow | None = None) -> list[Episode]:
        m = self.models.Episode
        span = (
            m.at_seq.between(format_time(window.start), format_time(window.end)) if window else None
        )
        try:
            items = m.by_time.query(
                self.pk(pair),
                span,
                scan_index_forward=False,
                limit=limit,
                page_size=min(limit, 500),
            )
            episodes = [self._episode(item) for item in items]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        # `between` is inclusive; a window is half-open
        return [e for e in episodes if window is None or e.at in window]

    def get_many(self, pair: Pair, episode_ids: Sequence[str]) -> list[Episode]:
        wanted = {i: s for i in episode_ids if (s := seq_of_id(i)) is not None}
        if not wanted:
            return []
        found = {
            e.episode_id: e for e in self._batch_get(pair, list(dict.fromkeys(wanted.values())))
        }
        return [found[i] for i in episode_ids if i in found]

    def _batch_get(self, pair: Pair, seqs: Sequence[int]) -> list[Episode]:
        """The episodes at these sequences, in BatchGetItem requests of 100 sent together."""
        keys = [(self.pk(pair), episode_sk(s)) for s in seqs]
        chunks = [keys[i : i + BATCH_GET_KEYS] for i in range(0, len(keys), BATCH_GET_KEYS)]

        def read(chunk: list[tuple[str, str]]) -> Callable[[], list[Episode]]:
            return lambda: [self._episode(item) for item in self.models.Episode.batch_get(chunk)]

        try:
            return [e for part in self.together([read(c) for c in chunks]) for e in part]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def touching(
        self,
        pair: Pair,
        concept_keys: Sequence[str],
        window: TimeWindow | None = None,
        *,
        newest: int | None = None,
    ) -> list[Episode]:
        m = self.models.ConceptLink
        span = None
        if window is not None:  # half-open, as a TimeWindow is
            span = (m.at >= format_time(window.start)) & (m.at < format_time(window.end))

        def links(key: str) -> Callable[[], list[int]]:
            # The sort key ends in the 10-digit sequence: a descending Query with a limit
            # reads the concept's newest links only.
            return lambda: [
                int(link.seq)
                for link in m.query(
                    self.pk(pair),
                    m.sk.startswith(f"CON#{key}#"),
                    filter_condition=span,
                    scan_index_forward=False,
                    limit=newest,
                    page_size=min(newest, 1000) if newest else None,
                )
            ]

        try:  # one Query per concept, sent together; then the episodes, together
            found = self.together([links(key) for key in dict.fromkeys(concept_keys)])
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        seqs = sorted({seq for part in found for seq in part})
        return sorted(self._batch_get(pair, seqs), key=lambda e: e.seq)

    def corrections(self, pair: Pair) -> list[Episode]:
        m = self.models.ConceptLink
        try:
            seqs = [int(link.seq) for link in m.query(self.pk(pair), m.sk.startswith("FIX#"))]
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return sorted(self._batch_get(pair, seqs), key=lambda e: e.seq)

    def concept_names(self, pair: Pair) -> dict[str, str]:
        m = self.models.ConceptName
        try:
            items = m.query(self.pk(pair), m.sk.startswith("CNAME#"))
            return {item.sk.removeprefix("CNAME#"): item.name for item in items}
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def prepare(self, pair: Pair) -> None:
        """Nothing to load: the store keeps no pair's rows in the process (every read is a
        request)."""

    def close(self) -> None:
        """Nothing to release: botocore's clients hold their own connection pools."""


def request_token(episode: Episode) -> str:
    """The ``ClientRequestToken`` of the transaction writing ``episode`` (36 characters,
    DynamoDB's most): from its hash, so every send of one attempt carries the same token and
    an attempt sealed again (another head, a new salt) another one."""
    return episode.hash[:36]


def _failed(reasons: list[Any], slot: int) -> bool:
    return len(reasons) > slot and reasons[slot] is not None and reasons[slot].code != "None"
