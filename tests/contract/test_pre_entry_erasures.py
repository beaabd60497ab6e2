"""A store written before erasures had entries in the chain, on every backend.

The release before erasure entries erased through the store's ``erase`` alone: a record beside
the chain, no entry. Such a store is written here the same way (``store.erase``, no entry, no
checkpoint anchored). ``verify`` says to migrate, not that a record was forged; ``migrate``
appends the entries and anchors a checkpoint; from then on a record without an entry is a
forgery again. A record forged where it cannot be an old one (after an entry's records, or in a
chain a checkpoint was anchored of: ``test_tamper_probes.py``) is reported as forged."""

from __future__ import annotations

from datetime import timedelta

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import ErasureEvidence, Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.usecases.erasure_entries import erase_with_entry, migrate_pre_entry_erasures
from tutor_memory.usecases.log import TutorMemory

from .conftest import Tamper
from .test_episode_log import replay_sample


def old_release_erasures(memory: TutorMemory, pair: Pair, clock: FixedClock) -> None:
    """Two erasures as the release before entries made them: records, no entries."""
    store = memory.ports.store
    store.erase(pair, [2], at=clock.at, reason="typed by mistake", requested_by="api",
                scope="episode")  # fmt: skip
    store.erase(pair, [4, 5], at=clock.at + timedelta(hours=1), reason="parent's request",
                requested_by="ops", scope="episode")  # fmt: skip


def test_an_old_store_is_told_to_migrate_and_verifies_once_migrated(
    anchored: TutorMemory, pair: Pair, clock: FixedClock, tamper: Tamper
) -> None:
    written = replay_sample(anchored, pair)
    old_release_erasures(anchored, pair, clock)

    before = anchored.verify_chain(pair)
    assert not before.intact
    assert (before.break_seq, before.break_kind) == (2, "erasure before entries")
    assert str(before).startswith(
        "not verified from episode 2: erasure made before entries were kept: run tutor-memory "
        "migrate (3 erasure records without an entry, the first: record 1, episode 2"
    )
    assert not anchored.anchor_checkpoint(pair).anchored  # nothing vouches for it yet

    done = migrate_pre_entry_erasures(anchored, pair)
    assert not done.refused and done.adopted == (1, 2, 3)
    last = written[-1].seq
    assert done.entries == (last + 1, last + 2)  # one entry per erasure, as it would have been
    assert done.anchored and done.report is not None and done.report.intact
    report = anchored.verify_chain(pair)
    assert report.intact and (report.erased, report.entries) == (3, 2)
    assert report.checkpoint_seq == last + 2
    first, second = anchored.history(pair)[-2:]
    assert first.kind is Kind.ERASURE and first.at == clock.at  # the erasure's own time
    assert isinstance(second.evidence, ErasureEvidence)
    assert [(i.seq, i.number) for i in second.evidence.erased] == [(4, 2), (5, 3)]
    assert (second.evidence.reason, second.evidence.requested_by) == ("parent's request", "ops")
    assert "erasure" not in (anchored.ports.store.head(pair).counts or {})  # type: ignore[union-attr]

    again = migrate_pre_entry_erasures(anchored, pair)
    assert not again.refused and again.adopted == () and len(anchored.history(pair)) == last + 2

    # Migrated and anchored: a record without an entry is a forgery again.
    _, head = anchored.ports.store.erasures(pair)
    forged = chain.erasure_record(
        written[6], number=4, prev=head or "", at=clock.at, reason="typed by mistake",
        requested_by="api", scope="episode",
    )  # fmt: skip

    tamper.overwrite(episode_to_record(chain.erase(written[6])))
    tamper.put_erasure(forged, forged.digest)
    caught = anchored.verify_chain(pair)
    assert (caught.break_seq, caught.break_kind) == (7, "erasure record without an entry")
    assert migrate_pre_entry_erasures(anchored, pair).refused  # never adopted


def test_a_record_after_an_entry_s_records_is_forged_even_in_an_old_store(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    """No checkpoint anchored (no anchor at all): an old record is still told from one written
    after the release that keeps entries, which numbers its records after those it found."""
    replay_sample(memory, pair)
    old_release_erasures(memory, pair, clock)
    store = memory.ports.store
    erase_with_entry(store, pair, [3], at=clock.at, reason="typed by mistake",
                     requested_by="api", scope="episode")  # fmt: skip
    assert memory.verify_chain(pair).break_kind == "erasure before entries"
    store.erase(pair, [6], at=clock.at, reason="script", requested_by="ops", scope="episode")
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (6, "erasure record without an entry")
    refused = migrate_pre_entry_erasures(memory, pair)
    assert refused.refused and "erasure record without an entry" in refused.refused
    assert refused.adopted == ()


def test_an_old_store_with_another_break_is_not_migrated(
    memory: TutorMemory, pair: Pair, clock: FixedClock, tamper: Tamper
) -> None:
    replay_sample(memory, pair)
    old_release_erasures(memory, pair, clock)
    tamper.set_text(pair, 7, "edited")
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (7, "content changed")  # first, not migrate
    length = len(memory.history(pair))
    refused = migrate_pre_entry_erasures(memory, pair)
    assert refused.refused.startswith("the chain is broken at episode 7: content changed")
    assert len(memory.history(pair)) == length  # nothing appended
    assert memory.ports.store.erased_pairs() == [pair]
