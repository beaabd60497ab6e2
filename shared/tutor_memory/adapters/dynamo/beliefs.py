"""Belief rows on DynamoDB: inserted, superseded, retired."""

from __future__ import annotations

from datetime import datetime

from pynamodb.exceptions import PynamoDBException, TransactWriteError, UpdateError
from pynamodb.transactions import TransactWrite

from tutor_memory.adapters.dynamo.table import DynamoTable, _is_condition_failure
from tutor_memory.domain.beliefs import Belief, belief_from_record, belief_to_record, chronological
from tutor_memory.domain.chain import format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError, StoreError


class DynamoBeliefs(DynamoTable):
    """:class:`tutor_memory.ports.BeliefStore` on DynamoDB."""

    # --- beliefs ----------------------------------------------------------------------------

    def _all_beliefs(self, pair: Pair) -> list[Belief]:
        m = self.models.Belief
        try:
            items = m.query(self.pk(pair), m.sk.startswith("BEL#"), consistent_read=True)
            return chronological(
                belief_from_record({name: getattr(i, name) for name in _BELIEF_FIELDS})
                for i in items
            )
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc

    def beliefs(self, pair: Pair) -> list[Belief]:
        current = [b for b in self._all_beliefs(pair) if b.current]
        return sorted(current, key=lambda b: (b.concept_name.casefold(), b.concept_key))

    def belief_history(self, pair: Pair, concept_key: str) -> list[Belief]:
        return [b for b in self._all_beliefs(pair) if b.concept_key == concept_key]

    def add_belief(self, new: Belief, supersedes: Belief | None) -> None:
        m = self.models.Belief
        pk = self.pk(new.pair)
        try:
            with TransactWrite(connection=self._connection) as tx:
                tx.save(
                    m(pk, f"BEL#{new.belief_id}", **belief_to_record(new)),
                    condition=m.sk.does_not_exist(),
                )
                if supersedes is not None:
                    tx.update(
                        m(pk, f"BEL#{supersedes.belief_id}"),
                        actions=[m.superseded_by.set(new.belief_id)],
                        condition=m.sk.exists()
                        & m.superseded_by.does_not_exist()
                        & m.retired_at.does_not_exist(),
                    )
        except TransactWriteError as exc:
            if _is_condition_failure(exc):
                raise ConflictError(
                    f"belief {supersedes.belief_id if supersedes else new.belief_id} changed "
                    "meanwhile; nothing was written"
                ) from exc
            raise StoreError(str(exc)) from exc

    def retire_beliefs(self, pair: Pair, at: datetime) -> int:
        m = self.models.Belief
        retired = 0
        for belief in self.beliefs(pair):
            try:
                m(self.pk(pair), f"BEL#{belief.belief_id}").update(
                    actions=[m.retired_at.set(format_time(at))],
                    condition=m.superseded_by.does_not_exist() & m.retired_at.does_not_exist(),
                )
                retired += 1
            except UpdateError as exc:
                if exc.cause_response_code != "ConditionalCheckFailedException":
                    raise StoreError(str(exc)) from exc
        return retired

    def belief_generation(self, pair: Pair) -> int:
        return max((b.generation for b in self._all_beliefs(pair)), default=0)


_BELIEF_FIELDS = (
    "student_id", "subject_id", "belief_id", "concept_key", "concept_name", "claim",
    "confidence", "evidence_ids", "created_at", "rule_version", "reason", "needs_confirmation",
    "generation", "superseded_by", "retired_at",
)  # fmt: skip
