"""The episode log, on every backend: append, read back, chain, tampering, concurrency, scope."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.adapters.records import episode_to_record
from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain import chain
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Episode, Kind, Pair
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.ports import EpisodeStore, FixedClock, Ports
from tutor_memory.samples import SAMPLE_HISTORY
from tutor_memory.usecases.log import TutorMemory

from .conftest import Tamper


def replay_sample(memory: TutorMemory, pair: Pair) -> list[Episode]:
    return [
        memory.record(
            pair, e.kind, e.text, evidence=e.evidence, at=e.at, concepts=e.concepts, ref=e.ref
        ).episode
        for e in SAMPLE_HISTORY
    ]


def test_appended_episodes_read_back_exactly_as_written(memory: TutorMemory, pair: Pair) -> None:
    written = replay_sample(memory, pair)
    read = memory.history(pair)
    assert read == written
    assert [e.seq for e in read] == list(range(1, len(SAMPLE_HISTORY) + 1))
    check = read[2]
    assert check.kind is Kind.CHECK
    assert check.evidence.to_dict() == {
        "topic": "cytoplasm",
        "verdict": "right",
        "evaluation": "Correct: the cytoplasm is the gel that fills the cell.",
        "predicted_mastery": 0.6,
    }
    assert check.salience == 0.6  # a passed check
    assert read[4].salience == 0.7  # a missed check
    assert read[0].ref == "chat-0001"  # the caller's ref comes back verbatim
    assert read[7].text == "مائٹوکونڈریا کیا کرتا ہے؟"
    assert memory.episode(pair, read[3].episode_id) == read[3]


def test_recent_is_newest_first_and_bounded(memory: TutorMemory, pair: Pair) -> None:
    written = replay_sample(memory, pair)
    recent = memory.ports.store.recent(pair, 3)
    assert recent == list(reversed(written[-3:]))


def test_an_untouched_chain_is_intact(memory: TutorMemory, pair: Pair) -> None:
    written = replay_sample(memory, pair)
    report = memory.verify_chain(pair)
    assert report.intact
    assert report.episodes == len(written)
    assert report.head_hash == written[-1].hash
    assert str(report).startswith(f"intact: {len(written)} episodes, head ")


def test_an_empty_chain_is_intact_with_no_episodes(memory: TutorMemory, pair: Pair) -> None:
    report = memory.verify_chain(pair)
    assert report.intact and report.episodes == 0


def test_an_edited_text_is_reported_at_its_position(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    replay_sample(memory, pair)
    tamper.set_text(pair, 4, "¿Qué es la fotosíntesis?")
    report = memory.verify_chain(pair)
    assert not report.intact
    assert (report.break_seq, report.break_kind) == (4, "content changed")
    assert report.episodes == 3  # the first three still check out


def test_a_deleted_episode_is_reported_as_a_gap(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    replay_sample(memory, pair)
    tamper.delete(pair, 5)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (5, "gap")
    assert "episode 5 is missing" in report.detail


def test_a_deleted_last_episode_is_reported_as_missing(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    replay_sample(memory, pair)
    last = len(SAMPLE_HISTORY)
    tamper.delete(pair, last)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (last, "missing")


def test_a_swapped_pair_of_episodes_breaks_the_link_at_the_first(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    replay_sample(memory, pair)
    tamper.swap(pair, 3, 4)
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (3, "link broken")


def test_a_consistent_rewrite_passes_alone_but_not_against_a_checkpoint(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    """A migration that rewrites history and re-hashes it is caught only by a kept checkpoint."""
    written = replay_sample(memory, pair)
    kept = chain.Checkpoint.from_dict(memory.checkpoint(pair).to_dict())  # exported, re-read
    assert memory.verify_chain(pair, kept).intact

    prev = chain.GENESIS_HASH
    for ep in written:
        text = ep.text.replace("Eukaryotic", "Prokaryotic")
        forged = chain.rehash(replace(ep, text=text), prev)  # under its own version and salt
        tamper.overwrite(episode_to_record(forged))
        prev = forged.hash
    tamper.set_head(pair, written[-1].seq, prev)  # a careful forger moves the head too

    assert memory.verify_chain(pair).intact  # alone, a consistent rewrite cannot be seen
    report = memory.verify_chain(pair, kept)
    assert not report.intact
    first_damaged = next(ep.seq for ep in written if "Eukaryotic" in ep.text)
    assert first_damaged < kept.seq  # the damage is named where it is, not at the head
    assert (report.break_seq, report.break_kind) == (first_damaged, "checkpoint mismatch")
    assert f"episode {first_damaged} is not the one the checkpoint recorded" in report.detail

    older = replace(kept, ids=())  # a checkpoint exported before ids were kept
    assert memory.verify_chain(pair, older).break_seq == kept.seq


def test_an_edited_episode_id_is_reported_at_its_position(
    memory: TutorMemory, pair: Pair, tamper: Tamper
) -> None:
    written = replay_sample(memory, pair)
    victim = written[2]
    tamper.overwrite(episode_to_record(replace(victim, episode_id=f"e{victim.seq}-{'0' * 12}")))
    report = memory.verify_chain(pair)
    assert (report.break_seq, report.break_kind) == (victim.seq, "content changed")
    assert "is not the id its hash gives" in report.detail


def test_a_chain_that_grew_still_extends_its_checkpoint(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    replay_sample(memory, pair)
    kept = memory.checkpoint(pair)
    memory.record(pair, "question", "And what about ribosomes?", at=clock.at + timedelta(days=300))
    report = memory.verify_chain(pair, kept)
    assert report.intact and report.episodes == kept.seq + 1


def test_concurrent_writers_never_fork_or_lose_an_episode(
    store_factory: Callable[[], EpisodeStore], pair: Pair
) -> None:
    memory = TutorMemory(Ports(store=store_factory()))
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(50):
                memory.record(pair, "question", f"writer {n} question {i}")
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    episodes = memory.history(pair)
    assert [e.seq for e in episodes] == list(range(1, 401))
    assert len({e.text for e in episodes}) == 400  # none lost, none doubled
    report = memory.verify_chain(pair)
    assert report.intact and report.episodes == 400


def test_writers_with_separate_clients_race_and_still_never_fork(
    store_factory: Callable[[], EpisodeStore], pair: Pair
) -> None:
    """Like several Lambdas at once: each writer has its own client, so only the store's own
    atomicity (SQLite's lock, DynamoDB's conditional transaction) keeps the chain whole."""
    clients = [store_factory() for _ in range(3)]
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(20):
                TutorMemory(Ports(store=clients[n])).record(
                    pair, "question", f"client {n} question {i}"
                )
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [e.seq for e in clients[0].episodes(pair)] == list(range(1, 61))
    assert TutorMemory(Ports(store=clients[0])).verify_chain(pair).intact


def test_an_idempotent_retry_writes_once(memory: TutorMemory, pair: Pair) -> None:
    first = memory.record(pair, "question", "What is osmosis?", idempotency_key="msg-42")
    again = memory.record(pair, "question", "What is osmosis?", idempotency_key="msg-42")
    assert first.created and not again.created
    assert again.episode == first.episode
    assert len(memory.history(pair)) == 1


def test_one_pair_never_sees_another_pairs_episodes(memory: TutorMemory, pair: Pair) -> None:
    other = Pair("student-2", "biology")
    also_other = Pair("student-1", "chemistry")
    replay_sample(memory, pair)
    memory.record(other, "question", "What is a cell?")
    memory.record(also_other, "question", "What is a mole?")
    mine = memory.history(pair)
    assert {e.pair for e in mine} == {pair}
    assert [e.text for e in memory.history(other)] == ["What is a cell?"]
    assert memory.ports.store.get(other, mine[0].episode_id) is None
    assert {e.pair for e in memory.ports.store.recent(pair, 500)} == {pair}
    assert memory.verify_chain(other).episodes == 1


def test_the_same_text_in_two_pairs_gets_two_hashes(memory: TutorMemory, pair: Pair) -> None:
    a = memory.record(pair, "question", "What is a cell?").episode
    b = memory.record(Pair("student-2", "biology"), "question", "What is a cell?").episode
    assert a.hash != b.hash and a.episode_id != b.episode_id


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kind": "gossip", "text": "hi"}, "kind"),
        ({"kind": "question", "text": "   "}, "text"),
        ({"kind": "question", "text": "x" * 20_001}, "text"),
        ({"kind": "question", "text": "ok", "salience": 1.5}, "salience"),
        ({"kind": "question", "text": "ok", "salience": -0.1}, "salience"),
        (
            {
                "kind": "check",
                "text": "Check on osmosis",
                "evidence": {"topic": "osmosis", "verdict": "right", "predicted_mastery": 1.2},
            },
            "evidence.predicted_mastery",
        ),
        (
            {
                "kind": "check",
                "text": "Check",
                "evidence": {"topic": "osmosis", "verdict": "maybe"},
            },
            "evidence.verdict",
        ),
        ({"kind": "check", "text": "Check", "evidence": {"verdict": "right"}}, "evidence.topic"),
        (
            {"kind": "quiz", "text": "Quiz", "evidence": {"score": 6, "maximum": 5}},
            "evidence.score",
        ),
        (
            {"kind": "answer", "text": "A", "evidence": {"file_id": "nope", "page": 3}},
            "evidence.file_id",
        ),
        ({"kind": "question", "text": "ok", "recalled_ids": ["e1-abc"]}, "recalled_ids"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    memory: TutorMemory, pair: Pair, kwargs: dict[str, object], field: str
) -> None:
    memory.record(pair, "question", "the one good episode")
    kwargs = dict(kwargs)  # the parameters are shared between backends
    kind = kwargs.pop("kind")
    text = kwargs.pop("text")
    with pytest.raises(ValidationError) as caught:
        memory.record(pair, kind, text, **kwargs)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")
    assert len(memory.history(pair)) == 1
    head = memory.ports.store.head(pair)
    assert head is not None and head.seq == 1


def test_annotations_sit_beside_an_episode_and_never_change_it(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    answer = memory.record(pair, "answer", "Osmosis moves water across a membrane.").episode
    before = memory.verify_chain(pair)
    memory.annotate(pair, answer.episode_id, "stance", "partial", at=clock.at)
    memory.annotate(
        pair,
        answer.episode_id,
        "verification",
        "unverifiable",
        detail="cites no file",
        at=clock.at + timedelta(hours=1),
    )
    memory.annotate(pair, answer.episode_id, "stance", "answered", at=clock.at + timedelta(hours=2))
    notes = memory.ports.store.annotations(pair, answer.episode_id)
    assert [(a.kind.value, a.value) for a in notes] == [
        ("stance", "partial"),
        ("verification", "unverifiable"),
        ("stance", "answered"),
    ]
    assert memory.episode(pair, answer.episode_id) == answer
    after = memory.verify_chain(pair)
    assert after.intact and after.head_hash == before.head_hash
    assert memory.ports.store.annotations(Pair("student-2", "biology"), answer.episode_id) == []


def test_annotating_an_unknown_value_is_refused(memory: TutorMemory, pair: Pair) -> None:
    answer = memory.record(pair, "answer", "Osmosis moves water.").episode
    with pytest.raises(ValidationError) as caught:
        memory.annotate(pair, answer.episode_id, "stance", "brilliant")
    assert caught.value.field == "value"
    assert memory.ports.store.annotations(pair, answer.episode_id) == []


def test_the_file_registry_keeps_versions_and_removals(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    first, episode = memory.register_file(pair, "cells-pdf", "cells.pdf", b"%PDF v1")
    assert [v.version for v in first.versions] == [1]
    assert episode is not None and episode.kind is Kind.FILE
    same, none = memory.register_file(pair, "cells-pdf", "cells.pdf", b"%PDF v1")
    assert none is None and len(same.versions) == 1  # the same bytes are registered once
    later = clock.at + timedelta(days=3)
    newer, episode2 = memory.register_file(pair, "cells-pdf", "cells.pdf", b"%PDF v2", at=later)
    assert [v.version for v in newer.versions] == [1, 2]
    assert newer.versions[0].fingerprint != newer.current.fingerprint
    assert episode2 is not None and "version 2" in episode2.text

    cited = memory.record(
        pair, "answer", "See page 3.", evidence={"file_id": "cells-pdf", "page": 3}
    )
    assert cited.episode.evidence.to_dict()["fingerprint"] == newer.current.fingerprint

    removed = memory.remove_file(pair, "cells-pdf", at=later + timedelta(days=1))
    assert removed.removed and len(removed.versions) == 2
    assert memory.ports.store.file(Pair("student-2", "biology"), "cells-pdf") is None
    assert [f.file_id for f in memory.ports.store.files(pair)] == ["cells-pdf"]


def test_a_file_version_forgotten_leaves_the_others_and_the_last_takes_the_name(
    memory: TutorMemory, pair: Pair
) -> None:
    from tutor_memory.domain.files import fingerprint

    store = memory.ports.store
    memory.register_file(pair, "notes", "notes.md", b"v1")
    memory.register_file(pair, "notes", "Maria_notes.md", b"v2")
    assert store.forget_file_version(pair, "notes", fingerprint(b"v2"), name="notes.md")
    record = store.file(pair, "notes")
    assert record is not None and record.name == "notes.md"
    assert [v.version for v in record.versions] == [1]
    assert not store.forget_file_version(pair, "notes", fingerprint(b"v2"))  # again: nothing
    again, _ = memory.register_file(pair, "notes", "notes.md", b"v3")  # registers after it
    assert [v.version for v in again.versions] == [1, 2]
    store.forget_file_version(pair, "notes", fingerprint(b"v1"))
    store.forget_file_version(pair, "notes", fingerprint(b"v3"))
    assert store.file(pair, "notes") is None and store.files(pair) == []


def test_every_backend_stores_the_same_bytes_and_hashes(
    store: EpisodeStore, pair: Pair, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sealing is pure: the same history (and the same body salts, drawn at random in use)
    gives the hashes pinned for the embedded store."""

    def salts() -> Callable[[], str]:
        drawn = iter(range(1, 10_000))
        return lambda: f"{next(drawn):064x}"

    for module in ("sqlite.episodes", "dynamo.episodes"):
        monkeypatch.setattr(f"tutor_memory.adapters.{module}.new_salt", salts())
    episodes = replay_sample(TutorMemory(Ports(store=store, clock=clock)), pair)
    monkeypatch.setattr("tutor_memory.adapters.sqlite.episodes.new_salt", salts())
    reference = replay_sample(TutorMemory(Ports(store=SqliteStore(), clock=clock)), pair)
    assert [e.hash for e in episodes] == [e.hash for e in reference]
    assert [episode_to_record(e) for e in store.episodes(pair)] == [
        episode_to_record(e) for e in reference
    ]


def test_recent_inside_a_window_is_newest_first_and_stays_inside(
    memory: TutorMemory, pair: Pair
) -> None:
    written = replay_sample(memory, pair)
    july = TimeWindow(datetime(2026, 7, 1, tzinfo=UTC), datetime(2026, 8, 1, tzinfo=UTC), "July")
    inside = memory.ports.store.recent(pair, 500, window=july)
    expected = [e for e in written if e.at.month == 7]
    assert inside == sorted(expected, key=lambda e: (e.at, e.seq), reverse=True)
    empty = TimeWindow(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC), "June")
    assert memory.ports.store.recent(pair, 500, window=empty) == []
    assert memory.ports.store.recent(Pair("student-2", "biology"), 500, window=july) == []


def test_get_many_returns_what_exists_in_the_order_asked(memory: TutorMemory, pair: Pair) -> None:
    written = replay_sample(memory, pair)
    asked = [written[5].episode_id, "e999-000000000000", written[1].episode_id]
    assert memory.ports.store.get_many(pair, asked) == [written[5], written[1]]
    assert memory.ports.store.get_many(Pair("student-2", "biology"), asked) == []


def test_episodes_touching_a_concept_span_the_whole_history(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    march = memory.record(
        pair, "question", "¿Qué es la ósmosis?", at=clock.at, concepts=["Ósmosis"]
    ).episode
    for i in range(30):
        memory.record(pair, "question", f"filler {i}", at=clock.at + timedelta(days=1 + i))
    later = memory.record(
        pair,
        "check",
        "Check on osmosis",
        at=clock.at + timedelta(days=40),
        evidence={"topic": "osmosis", "verdict": "wrong"},
        concepts=["osmosis"],
    ).episode
    memory.record(Pair("student-2", "biology"), "question", "osmosis?", concepts=["osmosis"])
    assert memory.ports.store.touching(pair, ["osmosis"]) == [march, later]
    first_days = TimeWindow(clock.at, clock.at + timedelta(days=10), "first days")
    assert memory.ports.store.touching(pair, ["osmosis"], window=first_days) == [march]
    assert memory.ports.store.concept_names(pair) == {"osmosis": "Ósmosis"}


def test_the_concept_pool_reads_only_the_newest_episodes_of_each_concept(
    memory: TutorMemory, pair: Pair, clock: FixedClock
) -> None:
    def on(concept: str, day: int) -> Episode:
        return memory.record(
            pair, "question", f"{concept} {day}", at=clock.at + timedelta(days=day),
            concepts=[concept],
        ).episode  # fmt: skip

    osmosis = [on("osmosis", day) for day in range(5)]
    cells = [on("cell", day) for day in range(5, 8)]

    newest = memory.ports.store.touching(pair, ["osmosis", "cell"], newest=2)

    assert newest == [*osmosis[-2:], *cells[-2:]]  # oldest first, two per concept
    march = TimeWindow(clock.at, clock.at + timedelta(days=2), "the first two days")
    assert memory.ports.store.touching(pair, ["osmosis"], window=march, newest=1) == [osmosis[1]]
    assert memory.ports.store.touching(pair, ["osmosis"]) == osmosis  # no bound: every one


def test_concept_keys_fold_arabic_script_variants(memory: TutorMemory, pair: Pair) -> None:
    memory.record(pair, "question", "ما هي الخلية؟", concepts=["الخَلِيَّة"])
    memory.record(pair, "question", "الخلية", concepts=["الخليــة"])  # with tatweel
    assert memory.ports.store.concept_names(pair) == {concept_key("الخلية"): "الخَلِيَّة"}
    assert len(memory.ports.store.touching(pair, [concept_key("الخلية")])) == 2
