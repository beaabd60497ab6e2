"""What the nightly loop keeps, on every backend: the activity index, the verification queue,
the newest check on a concept, and small per-pair documents."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.episodes import AnswerEvidence, CheckEvidence, Kind, NewEpisode, Pair
from tutor_memory.domain.errors import ConflictError
from tutor_memory.domain.timewindow import TimeWindow
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import FixedClock, NightlyStore, Ports
from tutor_memory.usecases.learning import Learning
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.nightly import Nightly

DAY = datetime(2026, 3, 2, tzinfo=UTC)
OTHER = Pair("student-2", "biology")


def add(store, pair: Pair, kind: Kind, at: datetime, **extra):  # type: ignore[no-untyped-def]
    return store.append(NewEpisode(pair=pair, kind=kind, text=f"{kind.value} at {at}", at=at,
                                   **extra)).episode  # fmt: skip


def answers(store, pair: Pair, n: int):  # type: ignore[no-untyped-def]
    evidence = AnswerEvidence("cells", 1, "a" * 64)
    return [add(store, pair, Kind.ANSWER, DAY + timedelta(minutes=i), evidence=evidence)
            for i in range(n)]  # fmt: skip


def check_now(store: NightlyStore, entry: CitationEntry, at: datetime, final: bool = False) -> None:
    value = "unverifiable" if final else "holds"
    note = Annotation(entry.pair, entry.episode_id, AnnotationKind.VERIFICATION, value, at, "ok")
    store.record_citation_check(entry, note, final=final)


# --- which pairs were active ------------------------------------------------------------------


def test_an_append_marks_its_pair_active_on_its_utc_day(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    add(store, pair, Kind.QUESTION, DAY + timedelta(hours=9))
    add(store, pair, Kind.QUESTION, DAY + timedelta(hours=10))
    add(store, OTHER, Kind.QUESTION, DAY + timedelta(hours=23, minutes=30))
    add(store, Pair("student-3", "biology"), Kind.QUESTION, DAY - timedelta(hours=1))
    the_day = TimeWindow(DAY, DAY + timedelta(days=1))
    assert store.active_pairs(the_day) == [pair, OTHER]
    assert store.active_pairs(TimeWindow(DAY + timedelta(days=1), DAY + timedelta(days=2))) == []


def test_a_local_day_reads_every_utc_day_it_touches(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    add(store, pair, Kind.QUESTION, DAY - timedelta(hours=3))  # the evening before, in UTC
    add(store, pair, Kind.QUESTION, DAY + timedelta(hours=1))  # later the same local day
    add(store, OTHER, Kind.QUESTION, DAY - timedelta(days=1, hours=3))
    jakarta_day = TimeWindow(DAY - timedelta(hours=7), DAY + timedelta(hours=17))
    assert store.active_pairs(jakarta_day) == [pair]


def test_a_day_written_back_in_time_is_still_marked_active(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    add(store, pair, Kind.QUESTION, DAY)
    add(store, pair, Kind.QUESTION, DAY - timedelta(days=30))  # a replayed, older episode
    add(store, pair, Kind.QUESTION, DAY + timedelta(minutes=5))
    month_ago = DAY - timedelta(days=30)
    assert store.active_pairs(TimeWindow(month_ago, month_ago + timedelta(days=1))) == [pair]


def test_a_pair_marked_active_without_an_episode_is_sent_that_night_once(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    add(store, pair, Kind.QUESTION, DAY - timedelta(days=5))
    store.mark_active(pair, DAY + timedelta(hours=14))  # an erasure leaving work for the night
    store.mark_active(pair, DAY + timedelta(hours=15))  # twice: harmless
    assert store.active_pairs(TimeWindow(DAY, DAY + timedelta(days=1))) == [pair]
    assert [e.seq for e in store.iter_episodes(pair)] == [1]  # no episode was written


# --- the verification queue -------------------------------------------------------------------


def test_every_answer_is_queued_never_checked_and_nothing_else_is(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    add(store, pair, Kind.QUESTION, DAY)
    written = answers(store, pair, 3)
    add(store, pair, Kind.ANSWER, DAY + timedelta(hours=1))  # cites no file: queued all the same
    answers(store, OTHER, 2)
    queued = store.citations(pair)
    assert [(c.seq, c.episode_id) for c in queued[:3]] == [(e.seq, e.episode_id) for e in written]
    assert len(queued) == 4
    assert all(c.checked_at is None and c.value is None and not c.final for c in queued)
    assert all(c.pair == pair for c in queued)


def test_the_due_batch_is_never_checked_first_then_oldest_checked(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    first, second, third, fourth = (e.seq for e in answers(store, pair, 4))
    night_one, night_two = DAY + timedelta(days=1), DAY + timedelta(days=2)
    entries = {c.seq: c for c in store.citations(pair)}
    check_now(store, entries[second], night_two)
    check_now(store, entries[first], night_one)
    due = store.citations_due(pair, before=DAY + timedelta(days=3), limit=10)
    assert [c.seq for c in due] == [third, fourth, first, second]
    assert [c.checked_at for c in due] == [None, None, night_one, night_two]
    assert [c.seq for c in store.citations_due(pair, before=night_two, limit=10)] == [
        third, fourth, first,
    ]  # fmt: skip
    assert [c.seq for c in store.citations_due(pair, before=night_two, limit=2)] == [third, fourth]
    assert store.citations_due(pair, before=night_two, limit=0) == []
    assert [c.seq for c in store.citations_checked_at(pair, night_two)] == [second]
    assert store.citations_due(OTHER, before=night_two, limit=10) == []


def test_checking_an_entry_writes_its_annotation_and_moves_it(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    (episode,) = answers(store, pair, 1)
    (entry,) = store.citations(pair)
    night = DAY + timedelta(days=1)
    check_now(store, entry, night)
    (moved,) = store.citations(pair)
    assert (moved.checked_at, moved.value, moved.final) == (night, "holds", False)
    (note,) = store.annotations(pair, episode.episode_id)
    assert (note.kind, note.value, note.at, note.detail) == (
        AnnotationKind.VERIFICATION, "holds", night, "ok",
    )  # fmt: skip


def test_checking_an_entry_that_moved_meanwhile_writes_nothing(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    (episode,) = answers(store, pair, 1)
    (stale,) = store.citations(pair)
    check_now(store, stale, DAY + timedelta(days=1))
    with pytest.raises(ConflictError):
        check_now(store, stale, DAY + timedelta(days=2))
    (fresh,) = store.citations(pair)
    with pytest.raises(ConflictError):
        check_now(store, fresh, DAY + timedelta(days=1))  # the same instant again
    assert len(store.annotations(pair, episode.episode_id)) == 1
    assert store.citations(pair)[0].checked_at == DAY + timedelta(days=1)


def test_a_final_entry_leaves_the_rotation_but_stays_counted(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    answers(store, pair, 2)
    first, second = store.citations(pair)
    check_now(store, first, DAY + timedelta(days=1), final=True)
    assert [c.seq for c in store.citations_due(pair, before=DAY + timedelta(days=9), limit=9)] == [
        second.seq
    ]
    (last,) = [c for c in store.citations(pair) if c.final]
    assert (last.seq, last.value, last.checked_at) == (
        first.seq, "unverifiable", DAY + timedelta(days=1),
    )  # fmt: skip
    assert store.citations(pair)[-1] == last  # final entries come last
    check_now(store, second, DAY + timedelta(days=1))
    assert store.citations_checked_at(pair, DAY + timedelta(days=1)) == store.citations(pair)[::-1]


# --- the newest check on a concept ------------------------------------------------------------


def test_the_newest_check_on_a_concept_is_found_past_many_other_mentions(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    evidence = CheckEvidence("osmosis", "right")
    old = add(store, pair, Kind.CHECK, DAY, concepts=("Osmosis",), evidence=evidence)
    newest = add(store, pair, Kind.CHECK, DAY + timedelta(hours=1), concepts=("Osmosis",),
                 evidence=evidence)  # fmt: skip
    for n in range(30):  # more mentions than one page of links
        add(store, pair, Kind.QUESTION, DAY + timedelta(hours=2, minutes=n), concepts=("Osmosis",))
    add(store, pair, Kind.CHECK, DAY, concepts=("Cytoplasm",), evidence=evidence)
    found = store.newest_touching(pair, "osmosis", Kind.CHECK)
    assert found is not None and found.episode_id == newest.episode_id != old.episode_id
    assert store.newest_touching(pair, "mitochondria", Kind.CHECK) is None
    assert store.newest_touching(OTHER, "osmosis", Kind.CHECK) is None


# --- documents --------------------------------------------------------------------------------


def test_a_document_is_written_under_an_optimistic_version(store, pair: Pair) -> None:  # type: ignore[no-untyped-def]
    assert store.document(pair, "self_model") is None
    assert (
        store.put_document(pair, "self_model", {"checks": 1, "ok": "sí"}, expected_version=0) == 1
    )
    assert store.put_document(pair, "self_model", {"checks": 2}, expected_version=1) == 2
    with pytest.raises(ConflictError):
        store.put_document(pair, "self_model", {"checks": 9}, expected_version=1)
    with pytest.raises(ConflictError):
        store.put_document(pair, "self_model", {"checks": 9}, expected_version=0)
    stored = store.document(pair, "self_model")
    assert (stored.name, stored.version, stored.body) == ("self_model", 2, {"checks": 2})
    assert store.document(OTHER, "self_model") is None
    store.put_document(pair, "night:2026-03-02", {"status": "done"}, expected_version=0)
    assert store.document(pair, "night:2026-03-02").body == {"status": "done"}


# --- a whole night, on every backend ----------------------------------------------------------


class Crash(RuntimeError):
    pass


class CrashOnce:
    """The store, dying once just after the given write lands (as a process would)."""

    def __init__(self, inner, after: str) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.after = inner, after

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        method = getattr(self.inner, name)
        if name != self.after:
            return method

        def write(*args, **kwargs):  # type: ignore[no-untyped-def]
            method(*args, **kwargs)
            self.after = ""
            raise Crash(name)

        return write


def test_a_night_leaves_the_same_rows_on_every_backend_even_after_a_crash(store) -> None:  # type: ignore[no-untyped-def]
    pair = Pair("s-7", "biology")
    memory = TutorMemory(Ports(store, FixedClock(DAY - timedelta(days=60))))
    learning = Learning(memory.ports, memory, derive=lambda cmap: cmap)
    memory.register_file(pair, "cells", "cells.md", b"cells have membranes")
    right = CheckEvidence("osmosis", "right", predicted_mastery=0.7)
    for n in range(2):
        learning.record_check(pair, "Check", right, at=DAY - timedelta(days=60, minutes=-n))
    memory.record(pair, Kind.ANSWER, "Water crosses.", evidence=AnswerEvidence("cells", 1),
                  at=DAY + timedelta(hours=9))  # fmt: skip
    memory.record(pair, Kind.ANSWER, "Let us see.", at=DAY + timedelta(hours=9, minutes=1))
    wrong = CheckEvidence("cytoplasm", "wrong", predicted_mastery=0.8)
    learning.record_check(pair, "Check", wrong, at=DAY + timedelta(hours=10))
    memory.ports.clock.at = DAY + timedelta(days=1, minutes=30)  # type: ignore[attr-defined]

    crashing = CrashOnce(store, after="add_belief")  # the decay lands, then the process dies
    with pytest.raises(Crash):
        crashed = Ports(crashing, memory.ports.clock)
        Nightly(crashed, TutorMemory(crashed)).run_pair(pair, DAY.date())
    nightly = Nightly(memory.ports, memory)
    report = nightly.run_pair(pair, DAY.date())
    assert (report.status, report.decayed, report.through_seq) == ("done", ("osmosis",), 7)
    assert report.verified == {"holds": 1, "unverifiable": 1}
    summary = memory.episode(pair, report.consolidation_id or "")
    assert summary.summary == "2026-03-02: 2 answers, 1 check (0 right, 1 wrong); topics: cytoplasm"
    model = nightly.self_model(pair)
    assert model is not None and model.calibration.checks == 3 and not model.calibrated
    assert (model.beliefs, model.to_confirm, model.never_verified) == (2, 1, 0)
    held = nightly.working_set(pair)
    assert held is not None and held.day_ids == (summary.episode_id,)
    assert held.to_confirm == ("osmosis",)
    assert nightly.run_pair(pair, DAY.date()).status == "already done"
    assert [e.kind for e in store.episodes(pair)].count(Kind.CONSOLIDATION) == 1
