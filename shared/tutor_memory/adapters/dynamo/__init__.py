"""The cloud store: DynamoDB through pynamodb.

Table design — one table, every item of a pair under one partition key:

====================================  ============================================================
``pk``                                ``sk``  → item
====================================  ============================================================
``PAIR#<student>#<subject>``          ``EP#<seq, 10 digits>`` → an episode (fields as in SQLite)
``PAIR#<student>#<subject>``          ``HEAD`` → the chain head: seq, hash, time
``PAIR#<student>#<subject>``          ``IDEM#<idempotency key>`` → the seq that key wrote
``PAIR#<student>#<subject>``          ``ANN#<episode id>#<time>#<kind>#<8 hex>`` → an annotation
``PAIR#<student>#<subject>``          ``FILE#<file id>`` → a file: name, removed at, versions
``PAIR#<student>#<subject>``          ``FVER#<file id>#<version, 6 digits>`` → one version
``PAIR#<student>#<subject>``          ``CON#<concept key>#<seq, 10 digits>`` → an episode touches it
``PAIR#<student>#<subject>``          ``CNAME#<concept key>`` → the name it was first written as
``PAIR#<student>#<subject>``          ``MAP`` → the concept map: version, zlib-compressed JSON
``PAIR#<student>#<subject>``          ``BEL#<belief id>`` → a belief row (fields as in SQLite)
``PAIR#<student>#<subject>``          ``CITE#<state>#<seq, 10 digits>`` → an answer in the
                                      verification queue; state ``0`` never checked, else the
                                      time it was last checked, ``~#<time>`` final (unverifiable)
``PAIR#<student>#<subject>``          ``ERASE#<number, 10 digits>`` → an erasure record (JSON)
``PAIR#<student>#<subject>``          ``DOC#<name>`` → a small JSON document: version, body
                                      (the nightly scan state, working set, self-model, a
                                      ``night:<day>`` marker per finished night, and
                                      ``purge-pending`` while an erasure waits for the night's
                                      purge of the search index)
``CLASS#<class>``                     ``COURSE#<subject>`` → a class's course map: version,
                                      zlib-compressed JSON (its map and the files read into it)
``CLASS#<class>``                     ``FOLLOWERS`` → the students whose maps follow the class
``STUDENT#<student>``                 ``HEAD#<subject>``, ``MAP#<subject>``, ``CLASS#<class>`` →
                                      the student's chains, maps and classes followed (what a
                                      student's export and erasure read: a tenant's credentials
                                      may not scan; ``tutor-memory migrate`` writes them for a
                                      store from before)
``ACTIVE#<UTC day>#<shard, 0-7>``     ``PAIR#<student>#<subject>`` → the pair was active that
                                      day, or has a purge pending for that night (expires after
                                      ``ACTIVITY_TTL_DAYS``: ``expires_at``)
``ROSTER``                            ``CLASS#<class>`` → a class's roster (teachers, students)
``TEACHER#<teacher>``                 ``CLASS#<class>`` → the students the teacher teaches there
``READS#<student>``                   ``<time>#<16 hex>`` → one read of the student's record
``READS``                             ``ERASED`` → how many reads erasures deleted
====================================  ============================================================

The last four are the access directory's (``access``: the roster and the record of
disclosures; why those keys, there).

**Tenants** (issue 27): the keys above are the ``default`` tenant's (a store made before
tenants: nothing is rewritten). Every other tenant's partition keys are the same behind
``T#<tenant>#`` (``T#acme#PAIR#<student>#<subject>``, ``T#acme#ACTIVE#…``, ``T#acme#CLASS#…``,
``T#acme#STUDENT#…``, ``T#acme#PROFILE#…``, ``T#acme#ROSTER``, …; ``domain.tenancy``), and a
store is opened for one
tenant (``tenant=``): it never forms another's key, its scans are filtered to its own prefix,
and credentials scoped to the tenant (template.yaml: ``dynamodb:LeadingKeys``) refuse the rest.

With ``TUTOR_MEMORY_KMS_KEY_ID``, a second table (``TUTOR_MEMORY_KEYS_TABLE``, no backups) holds
one item per student, ``STUDENT#<student>`` / ``KEY``: the student's data key wrapped by KMS,
under which episode bodies are sealed (see ``student_keys``).

Why: a pair is the unit of every read and write, so a pair's items are one item collection —
every read is a ``Query`` on one key (no read can reach another pair), the chain reads in order
by its sort key (ascending for replays, descending with a limit for "recent"), and an append is
one ``TransactWriteItems`` inside one partition. A sparse global secondary index ``by_time``
(``pk``, ``at_seq`` = ``<time>#<seq>``, episodes only, all attributes) serves the recent pool
and time windows newest first. Episode ids carry their sequence
(``e<seq>-<hash>``), so a lookup by id is a ``GetItem`` with no index. There is no LSI (it
would cap a pair at 10 GB).

The nightly loop needs two lookups that must not read every item: *which pairs were active on a
day* and *which answers to verify next*. ``ACTIVE#`` items are the only ones outside a pair's
partition: the nightly scheduler queries each day's shards (a pair's shard is a stable hash, so
one busy day spreads over several keys instead of one hot one) and learns only pair ids. The
``CITE#`` sort key is the queue's order — never checked first, then oldest checked — so a
night's batch is one ``Query`` with a limit; checking an entry moves it (delete and put, with
the annotation, in one transaction).

One module per store port (``ports``), each a mixin over what they share (``table``: the models
of ``models``, the connection, keys, items read back as episodes): ``episodes`` (the log and its
appends), ``files`` (annotations and the file registry), ``maps``, ``beliefs``, ``nightly`` and
``erasure``; :class:`DynamoStore` is all of them at once.
"""

from __future__ import annotations

from tutor_memory.adapters.dynamo.episodes import DynamoEpisodes
from tutor_memory.adapters.dynamo.erasure import DynamoErasure
from tutor_memory.adapters.dynamo.files import DynamoFiles
from tutor_memory.adapters.dynamo.maps import DynamoMaps
from tutor_memory.adapters.dynamo.models import Models
from tutor_memory.adapters.dynamo.nightly import DynamoNightly

__all__ = ["DynamoStore", "Models"]


class DynamoStore(DynamoEpisodes, DynamoFiles, DynamoMaps, DynamoErasure, DynamoNightly):
    """:class:`tutor_memory.ports.EpisodeStore` on DynamoDB (see the module doc for the design)."""
