"""The tamper probes, on every backend, each reported by a plain ``verify`` (no argument): the
chain is checked against the newest checkpoint anchored beside the store (the embedded file,
or the Object Lock bucket signed by KMS), and every erasure against its entry in the chain.

Each probe edits the store's table directly (``Tamper``), as an attacker with write access to
the store, or a migration that rewrites history, would; none can touch the anchor."""

from __future__ import annotations

import json
from dataclasses import replace

import boto3
import pytest

from tutor_memory.adapters.checkpoint_file import FileAnchor
from tutor_memory.adapters.checkpoint_s3 import S3Anchor, object_key
from tutor_memory.adapters.records import episode_to_record
from tutor_memory.domain import chain
from tutor_memory.domain.episodes import CheckEvidence, Episode, Kind, NewEpisode, Pair
from tutor_memory.ports import CheckpointAnchor, FixedClock, Store
from tutor_memory.usecases.erasure_entries import erase_with_entry
from tutor_memory.usecases.log import TutorMemory

from .conftest import REGION, Tamper
from .test_episode_log import replay_sample


def anchored_history(memory: TutorMemory, pair: Pair) -> tuple[list[Episode], chain.Checkpoint]:
    """The sample history, with a checkpoint of it anchored (as a night or `checkpoint` does)."""
    written = replay_sample(memory, pair)
    done = memory.anchor_checkpoint(pair)
    assert done.anchored and done.checkpoint is not None
    assert memory.verify_chain(pair).intact
    return written, done.checkpoint.checkpoint


def erase(memory: TutorMemory, pair: Pair, seqs: list[int], clock: FixedClock) -> list[Episode]:
    """An honest erasure's writes to the log: its entry, then the bodies under it."""
    store = memory.ports.store
    return erase_with_entry(
        store, pair, seqs, at=clock.at, reason="typed by mistake", requested_by="api",
        scope="episode",
    )  # fmt: skip


# --- the chain ---------------------------------------------------------------------------------


def test_an_edited_body_is_reported(anchored: TutorMemory, pair: Pair, tamper: Tamper) -> None:
    anchored_history(anchored, pair)
    tamper.set_text(pair, 4, "¿Qué es la fotosíntesis?")
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (4, "content changed")


def test_a_deleted_episode_is_reported(anchored: TutorMemory, pair: Pair, tamper: Tamper) -> None:
    anchored_history(anchored, pair)
    tamper.delete(pair, 5)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (5, "gap")


def test_two_swapped_episodes_are_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    anchored_history(anchored, pair)
    tamper.swap(pair, 3, 4)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (3, "link broken")


def test_an_inserted_episode_is_reported(anchored: TutorMemory, pair: Pair, tamper: Tamper) -> None:
    """A check that never happened, slipped in after episode 3 (itself sealed properly), the
    rest moved up one place and the head moved: the episode after it does not link to it."""
    written, _ = anchored_history(anchored, pair)
    fake = NewEpisode(
        pair, Kind.CHECK, "Explain osmosis", written[2].at,
        evidence=CheckEvidence("osmosis", "right", "Perfect."),
    )  # fmt: skip
    inserted = chain.seal(fake, chain.head_of(written[2]))
    for ep in reversed(written[3:]):
        tamper.overwrite(episode_to_record(replace(ep, seq=ep.seq + 1)))
    tamper.overwrite(episode_to_record(inserted))
    tamper.set_head(pair, written[-1].seq + 1, written[-1].hash)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (5, "link broken")


def test_a_rewrite_resealed_end_to_end_is_reported_against_the_anchored_checkpoint(
    anchored: TutorMemory, memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    """Every hash recomputed after an edit, and the head moved: consistent in itself, so only
    the checkpoint kept out of the store's reach shows it — by default."""
    written, kept = anchored_history(anchored, pair)
    prev = chain.GENESIS_HASH
    for ep in written:
        forged = chain.rehash(replace(ep, text=ep.text.replace("Eukaryotic", "Prokaryotic")), prev)
        tamper.overwrite(episode_to_record(forged))
        prev = forged.hash
    tamper.set_head(pair, written[-1].seq, prev)
    assert memory.verify_chain(pair).intact  # without an anchor, it cannot be seen
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (kept.seq, "checkpoint mismatch")
    assert "history was rewritten" in report.detail


def test_a_tail_cut_together_with_the_head_is_reported(
    anchored: TutorMemory, memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    written, kept = anchored_history(anchored, pair)
    last = written[-1].seq
    tamper.delete(pair, last)
    tamper.delete(pair, last - 1)
    tamper.set_head(pair, last - 2, written[last - 3].hash)
    assert memory.verify_chain(pair).intact  # the log and its head agree with each other
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (kept.seq, "checkpoint mismatch")
    assert f"covers {last} episodes but the log has {last - 2}" in report.detail


# --- erasures -----------------------------------------------------------------------------------


def test_an_honest_erasure_still_verifies_against_the_checkpoint_before_it(
    anchored: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    written, kept = anchored_history(anchored, pair)
    gone = erase(anchored, pair, [2, 5], clock)
    assert [e.seq for e in gone] == [2, 5]
    report = anchored.verify_chain(pair)
    assert report.intact and (report.erased, report.entries) == (2, 1)
    assert report.checkpoint_seq == kept.seq
    entry = anchored.history(pair)[-1]
    assert entry.kind is Kind.ERASURE and entry.seq == written[-1].seq + 1
    assert [i.seq for i in entry.evidence.erased] == [2, 5]  # type: ignore[union-attr]
    again = anchored.anchor_checkpoint(pair)
    assert again.anchored and anchored.verify_chain(pair).checkpoint_seq == entry.seq
    assert anchored.ports.store.head(pair).counts.get("erasure") is None  # type: ignore[union-attr]


def test_a_forged_erasure_record_is_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    """A body removed and a record written for it, its digests computed and the head's record
    digest moved — everything the records beside the chain can check holds; no erasure entry
    in the chain names it."""
    written, _ = anchored_history(anchored, pair)
    victim = written[1]
    record = chain.erasure_record(
        victim, number=1, prev=chain.GENESIS_HASH, at=clock.at, reason="parent's request",
        requested_by="api", scope="episode",
    )  # fmt: skip
    tamper.overwrite(episode_to_record(chain.erase(victim)))
    tamper.put_erasure(record, record.digest)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (2, "erasure record without an entry")
    assert "erasure record 1" in report.detail and "no erasure wrote it" in report.detail


def test_a_record_forged_after_an_honest_erasure_is_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    written, _ = anchored_history(anchored, pair)
    erase(anchored, pair, [3], clock)
    _, head = anchored.ports.store.erasures(pair)
    record = chain.erasure_record(
        written[6], number=2, prev=head or "", at=clock.at, reason="typed by mistake",
        requested_by="api", scope="episode",
    )  # fmt: skip
    tamper.overwrite(episode_to_record(chain.erase(written[6])))
    tamper.put_erasure(record, record.digest)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (7, "erasure record without an entry")


def test_an_erasure_record_rewritten_to_say_otherwise_is_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    """The record's reason changed and its digest (and the head's) recomputed: its own chain
    holds, but it no longer says what its entry in the chain says."""
    anchored_history(anchored, pair)
    erase(anchored, pair, [3], clock)
    (record,), _ = anchored.ports.store.erasures(pair)
    edited = replace(record, reason="routine clean-up", digest="")
    edited = replace(edited, digest=chain.erasure_digest(edited))
    tamper.put_erasure(edited, edited.digest)
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (3, "erasure record changed")


def test_an_altered_erasure_entry_is_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, clock: FixedClock
) -> None:
    anchored_history(anchored, pair)
    erase(anchored, pair, [3], clock)
    entry = anchored.history(pair)[-1]
    tamper.set_text(pair, entry.seq, entry.text.replace("typed by mistake", "routine"))
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (entry.seq, "content changed")


def test_a_body_erased_under_no_entry_is_reported_even_with_its_record(
    anchored: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    """The store's own erase, called without the erasure use case (a script): the record is
    well formed, the entry is missing."""
    anchored_history(anchored, pair)
    store: Store = anchored.ports.store
    store.erase(pair, [4], at=clock.at, reason="script", requested_by="ops", scope="episode")
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (4, "erasure record without an entry")


def test_an_erasure_cut_short_is_reported_and_asking_again_finishes_it(
    anchored: TutorMemory, pair: Pair, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry is written first; a crash before the bodies go leaves an entry naming bodies
    still stored. The next erasure of the pair finishes it as the entry says."""
    anchored_history(anchored, pair)
    store = anchored.ports.store

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died here")

    with monkeypatch.context() as patched:
        patched.setattr(store, "erase", crash)
        with pytest.raises(RuntimeError):
            erase(anchored, pair, [3, 4], clock)
    entry = anchored.history(pair)[-1]
    assert entry.kind is Kind.ERASURE
    broken = anchored.verify_chain(pair)
    assert (broken.break_seq, broken.break_kind) == (entry.seq, "erasure entry mismatch")
    assert "whose body is still stored" in broken.detail
    gone = erase(anchored, pair, [3, 4], clock)  # asked again
    assert [e.seq for e in gone] == [3, 4]
    report = anchored.verify_chain(pair)
    assert report.intact and (report.erased, report.entries) == (2, 1)


# --- the anchor ---------------------------------------------------------------------------------


def plant_checkpoint(anchor: CheckpointAnchor, forged: chain.AnchoredCheckpoint) -> None:
    """Put a checkpoint where the anchor keeps them, without its key (as someone with write
    access to the file, or PutObject on the bucket, but not the key, could)."""
    if isinstance(anchor, FileAnchor):
        with anchor.pair_path(forged.checkpoint.pair).open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(forged.to_dict()) + "\n")
        return
    assert isinstance(anchor, S3Anchor)
    boto3.client("s3", region_name=REGION).put_object(
        Bucket=anchor.bucket,
        Key=object_key(anchor.prefix, forged.checkpoint),
        Body=json.dumps(forged.to_dict()).encode(),
        ChecksumAlgorithm="SHA256",
    )


def test_an_anchored_checkpoint_with_a_bad_signature_is_reported(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, anchor: CheckpointAnchor
) -> None:
    """A history rewritten and resealed, and a checkpoint of the rewrite planted as the newest:
    its MAC does not verify under the anchor's key."""
    written, kept = anchored_history(anchored, pair)
    prev = chain.GENESIS_HASH
    for ep in written:
        forged = chain.rehash(replace(ep, text=ep.text.replace("Eukaryotic", "Prokaryotic")), prev)
        tamper.overwrite(episode_to_record(forged))
        prev = forged.hash
    tamper.set_head(pair, written[-1].seq, prev)
    newest = anchor.newest(pair)
    assert newest is not None
    later = replace(kept, head_hash=prev, at=kept.at.replace(year=kept.at.year + 1))
    plant_checkpoint(anchor, chain.AnchoredCheckpoint(later, newest.key_id, "ab" * 32))
    report = anchored.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (kept.seq, "checkpoint not authentic")
    refused = anchored.anchor_checkpoint(pair)  # nothing vouches for it now
    assert not refused.anchored and "checkpoint not authentic" in refused.refused


def test_a_chain_that_does_not_verify_is_never_anchored(
    anchored: TutorMemory, pair: Pair, tamper: Tamper, anchor: CheckpointAnchor
) -> None:
    _, kept = anchored_history(anchored, pair)
    tamper.set_text(pair, 2, "edited")
    refused = anchored.anchor_checkpoint(pair)
    assert not refused.anchored and "content changed" in refused.refused
    newest = anchor.newest(pair)
    assert newest is not None and newest.checkpoint == kept


def test_anchoring_an_unchanged_chain_again_writes_nothing(
    anchored: TutorMemory, pair: Pair, anchor: CheckpointAnchor
) -> None:
    _, kept = anchored_history(anchored, pair)
    again = anchored.anchor_checkpoint(pair)
    assert not again.anchored and again.checkpoint is not None
    assert again.checkpoint.checkpoint == kept and anchor.authentic(again.checkpoint)
