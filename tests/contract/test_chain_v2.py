"""Chain v2 on every store: an old (version 1) history still verifies, v2 is appended on top of
it, and erasing a body keeps the chain verifying, its record and its entry checked."""

from __future__ import annotations

from datetime import UTC, datetime

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import CheckEvidence, Kind, NewEpisode, Pair
from tutor_memory.usecases.erasure_entries import erase_with_entry
from tutor_memory.usecases.log import TutorMemory

from .conftest import Tamper

PAIR = Pair("s1", "chem")
OLD = [
    NewEpisode(
        PAIR, Kind.QUESTION, "What is a buffer?", datetime(2024, 3, 1, 9, 0, tzinfo=UTC),
        concepts=("buffer",),
    ),
    NewEpisode(
        PAIR, Kind.CHECK, "Explain pH", datetime(2024, 3, 1, 9, 5, tzinfo=UTC),
        evidence=CheckEvidence("pH", "right", "good", 0.6),
    ),
]  # fmt: skip
# Sealed by the code before chain v2 existed (commit c525781): a stored v1 chain has these.
PINNED_V1 = [
    "386c118326ebb4f3d64611d273183f95bda926e587d1bbfc66fc85b9687dda72",
    "0b1ad3d026c1be836eb50119d95d3d3120c5cc0727cade6a6651c60becfda851",
]


def write_v1_history(memory: TutorMemory, tamper: Tamper) -> None:
    """Two episodes as the old code stored them (chain v1, no salt, no commitment)."""
    for new in OLD:
        memory.ports.store.append(new)
    head = None
    for new, pinned in zip(OLD, PINNED_V1, strict=True):
        old = chain.seal(new, head, version=1)
        assert old.hash == pinned
        tamper.overwrite(episode_to_record(old))
        head = chain.head_of(old, head)
    assert head is not None
    tamper.set_head(PAIR, head.seq, head.hash)


def test_a_version_1_history_still_verifies_and_v2_extends_it(
    memory: TutorMemory, tamper: Tamper
) -> None:
    write_v1_history(memory, tamper)
    assert memory.verify_chain(PAIR).intact
    newer = memory.record(PAIR, Kind.QUESTION, "And an acid?", at=OLD[1].at).episode
    assert (newer.chain_version, newer.prev_hash) == (2, PINNED_V1[1])
    assert newer.salt is not None and newer.commitment is not None
    assert [e.chain_version for e in memory.history(PAIR)] == [1, 1, 2]
    report = memory.verify_chain(PAIR)
    assert report.intact and report.episodes == 3


def test_erasing_keeps_the_chain_verifying_and_says_what_it_could_check(
    memory: TutorMemory, tamper: Tamper
) -> None:
    write_v1_history(memory, tamper)
    newer = memory.record(PAIR, Kind.QUESTION, "And an acid?", at=OLD[1].at).episode
    store = memory.ports.store
    at = datetime(2024, 4, 1, tzinfo=UTC)
    asked = {"at": at, "reason": "mistake", "requested_by": "t", "scope": "episode"}
    assert store.erasure_number(PAIR) == 0
    gone = erase_with_entry(store, PAIR, [1, 3], **asked)  # type: ignore[arg-type]
    assert [e.seq for e in gone] == [1, 3]
    again = erase_with_entry(store, PAIR, [1, 3], **asked)  # type: ignore[arg-type]
    assert again == []
    # the next record's number, without reading every record: the newest one's
    assert store.erasure_number(PAIR) == len(store.erasures(PAIR)[0]) == 2
    report = memory.verify_chain(PAIR)
    assert report.intact and (report.erased, report.erased_v1, report.entries) == (2, 1, 1)
    assert str(report).startswith(
        "intact: 4 episodes (1 of them an erasure entry), 2 erased (2024-04-01 'mistake' ×2)"
    )
    erased = store.get(PAIR, newer.episode_id)
    assert erased is not None and erased.erased and erased.salt is None
    assert erased.commitment == newer.commitment and erased.hash == newer.hash
    assert store.by_idempotency_key(PAIR, "anything") is None

    # An erased envelope is still checked: moving its time is a break at its place.
    tamper.overwrite(episode_to_record(erased.__class__(**{**erased.__dict__, "at": at})))
    assert memory.verify_chain(PAIR).break_seq == 3


def test_a_body_removed_without_a_record_is_caught(memory: TutorMemory, tamper: Tamper) -> None:
    written = memory.record(PAIR, Kind.QUESTION, "What is a buffer?", at=OLD[0].at).episode
    tamper.overwrite(episode_to_record(chain.erase(written)))  # quietly, no record
    report = memory.verify_chain(PAIR)
    assert (report.break_seq, report.break_kind) == (1, "erased without a record")
