"""The concept map on DynamoDB: one item per pair, saved whole under an optimistic version."""

from __future__ import annotations

from dataclasses import replace

from pynamodb.exceptions import PutError, PynamoDBException

from tutor_memory.adapters.dynamo.table import DynamoTable, pair_key
from tutor_memory.adapters.records import map_from_blob, map_to_blob
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ConflictError, StoreError
from tutor_memory.domain.routing import ConceptVectors


class DynamoMaps(DynamoTable):
    """:class:`tutor_memory.ports.MapStore` and its concept vectors on DynamoDB."""

    # --- the concept map --------------------------------------------------------------------

    def load_map(self, pair: Pair) -> ConceptMap:
        m = self.models.Map
        try:
            item = m.get(pair_key(pair), "MAP", consistent_read=True)
        except m.DoesNotExist:
            return ConceptMap()
        except PynamoDBException as exc:
            raise StoreError(str(exc)) from exc
        return map_from_blob(bytes(item.body))

    def concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The routing vectors, read with the map (one row; they stay encoded until used)."""
        return self.load_map(pair).vectors

    def save_map(self, pair: Pair, cmap: ConceptMap) -> ConceptMap:
        m = self.models.Map
        saved = replace(cmap, version=cmap.version + 1)
        condition = m.sk.does_not_exist() if cmap.version == 0 else m.version == cmap.version
        try:
            m(pair_key(pair), "MAP", version=saved.version, body=map_to_blob(saved)).save(
                condition=condition
            )
        except PutError as exc:
            if exc.cause_response_code == "ConditionalCheckFailedException":
                raise ConflictError(
                    f"the map of {pair} changed meanwhile (expected version {cmap.version}); "
                    "nothing was saved"
                ) from exc
            raise StoreError(str(exc)) from exc
        return saved
