"""The erasure probes, on every backend, each reported by a plain ``verify``: every erasure is
held to its entry in the chain.

Each probe edits the store's table directly (``Tamper``), as an attacker with write access to
the store, or a migration that rewrites history, would."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import Episode, Kind, Pair
from tutor_memory.ports import FixedClock, Store
from tutor_memory.usecases.erasure import erase_with_entry
from tutor_memory.usecases.log import TutorMemory

from .conftest import Tamper
from .test_episode_log import replay_sample


def history(memory: TutorMemory, pair: Pair) -> list[Episode]:
    """The sample history, verified intact."""
    written = replay_sample(memory, pair)
    assert memory.verify_chain(pair).intact
    return written


def erase(memory: TutorMemory, pair: Pair, seqs: list[int], clock: FixedClock) -> list[Episode]:
    """An honest erasure's writes to the log: its entry, then the bodies under it."""
    store = memory.ports.store
    return erase_with_entry(
        store, pair, seqs, at=clock.at, reason="typed by mistake", requested_by="api",
        scope="episode",
    )  # fmt: skip


# --- erasures -----------------------------------------------------------------------------------


def test_an_honest_erasure_still_verifies(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    written = history(memory, pair)
    gone = erase(memory, pair, [2, 5], clock)
    assert [e.seq for e in gone] == [2, 5]
    report = memory.verify_chain(pair)
    assert report.intact and (report.erased, report.entries) == (2, 1)
    entry = memory.history(pair)[-1]
    assert entry.kind is Kind.ERASURE and entry.seq == written[-1].seq + 1
    assert [i.seq for i in entry.evidence.erased] == [2, 5]  # type: ignore[union-attr]
    assert memory.ports.store.head(pair).counts.get("erasure") is None  # type: ignore[union-attr]


def test_a_forged_erasure_record_is_reported(
    memory: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    """A body removed and a record written for it, its digests computed and the head's record
    digest moved — everything the records beside the chain can check holds; no erasure entry
    in the chain names it."""
    written = history(memory, pair)
    victim = written[1]
    record = chain.erasure_record(
        victim, number=1, prev=chain.GENESIS_HASH, at=clock.at, reason="parent's request",
        requested_by="api", scope="episode",
    )  # fmt: skip
    tamper.overwrite(episode_to_record(chain.erase(victim)))
    tamper.put_erasure(record, record.digest)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (2, "erasure record without an entry")
    assert "erasure record 1" in report.detail and "no erasure wrote it" in report.detail


def test_a_record_forged_after_an_honest_erasure_is_reported(
    memory: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    written = history(memory, pair)
    erase(memory, pair, [3], clock)
    _, head = memory.ports.store.erasures(pair)
    record = chain.erasure_record(
        written[6], number=2, prev=head or "", at=clock.at, reason="typed by mistake",
        requested_by="api", scope="episode",
    )  # fmt: skip
    tamper.overwrite(episode_to_record(chain.erase(written[6])))
    tamper.put_erasure(record, record.digest)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (7, "erasure record without an entry")


def test_an_erasure_record_rewritten_to_say_otherwise_is_reported(
    memory: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    """The record's reason changed and its digest (and the head's) recomputed: its own chain
    holds, but it no longer says what its entry in the chain says."""
    history(memory, pair)
    erase(memory, pair, [3], clock)
    (record,), _ = memory.ports.store.erasures(pair)
    edited = replace(record, reason="routine clean-up", digest="")
    edited = replace(edited, digest=chain.erasure_digest(edited))
    tamper.put_erasure(edited, edited.digest)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (3, "erasure record changed")


def test_an_altered_erasure_entry_is_reported(
    memory: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    history(memory, pair)
    erase(memory, pair, [3], clock)
    entry = memory.history(pair)[-1]
    tamper.set_text(pair, entry.seq, entry.text.replace("typed by mistake", "routine"))
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (entry.seq, "content changed")


def test_a_body_erased_under_no_entry_is_reported_even_with_its_record(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    """The store's own erase, called without the erasure use case (a script): the record is
    well formed, the entry is missing."""
    history(memory, pair)
    store: Store = memory.ports.store
    store.erase(pair, [4], at=clock.at, reason="script", requested_by="ops", scope="episode")
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (4, "erasure record without an entry")


def test_an_erasure_cut_short_is_reported_and_asking_again_finishes_it(
    memory: TutorMemory, pair: Pair, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry is written first; a crash before the bodies go leaves an entry naming bodies
    still stored. The next erasure of the pair finishes it as the entry says."""
    history(memory, pair)
    store = memory.ports.store

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died here")

    with monkeypatch.context() as patched:
        patched.setattr(store, "erase", crash)
        with pytest.raises(RuntimeError):
            erase(memory, pair, [3, 4], clock)
    entry = memory.history(pair)[-1]
    assert entry.kind is Kind.ERASURE
    broken = memory.verify_chain(pair)
    assert (broken.break_seq, broken.break_kind) == (entry.seq, "erasure entry mismatch")
    assert "whose body is still stored" in broken.detail
    gone = erase(memory, pair, [3, 4], clock)  # asked again
    assert [e.seq for e in gone] == [3, 4]
    report = memory.verify_chain(pair)
    assert report.intact and (report.erased, report.entries) == (2, 1)
