"""Verification (SPEC §9): a lookup against the file registry, never a model call."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tutor_memory.adapters.sqlite_store import SqliteStore
from tutor_memory.domain.annotations import AnnotationKind, Verification, current
from tutor_memory.domain.episodes import AnswerEvidence, CheckEvidence, Kind, Pair
from tutor_memory.domain.verify import CitationEntry, check_citation, queue_order
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory
from tutor_memory.usecases.nightly import Nightly

from ..conftest import T0

OLD, NEW = b"cells have membranes", b"cells have walls and membranes"


@pytest.fixture
def memory(clock: FixedClock) -> TutorMemory:
    return TutorMemory(Ports(store=SqliteStore(), clock=clock))


@pytest.fixture
def nightly(memory: TutorMemory) -> Nightly:
    return Nightly(memory.ports, memory)


def answer(memory: TutorMemory, pair: Pair, text: str, file_id: str | None = "cells"):  # type: ignore[no-untyped-def]
    page = 1 if file_id else None
    return memory.record(pair, Kind.ANSWER, text, evidence=AnswerEvidence(file_id, page)).episode


def test_an_answer_citing_an_unchanged_file_holds(memory: TutorMemory, pair: Pair) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    cited = answer(memory, pair, "Cells have membranes.")
    result = check_citation(cited, memory.ports.store.file(pair, "cells"))
    assert result.value is Verification.HOLDS and not result.final
    assert result.detail == "the file cells.md is unchanged (version 1)"


def test_a_replaced_file_is_changed_and_the_note_says_replaced(
    memory: TutorMemory, pair: Pair
) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    cited = answer(memory, pair, "Cells have membranes.")
    memory.register_file(pair, "cells", "cells.md", NEW, at=T0 + timedelta(days=3))
    result = check_citation(cited, memory.ports.store.file(pair, "cells"))
    assert result.value is Verification.CHANGED_REPLACED
    assert result.detail == (
        "the file cells.md was replaced by version 2 on 2026-03-05; the answer cited version 1"
    )


def test_a_removed_file_is_changed_and_the_note_says_removed(
    memory: TutorMemory, pair: Pair
) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    cited = answer(memory, pair, "Cells have membranes.")
    memory.remove_file(pair, "cells", at=T0 + timedelta(days=4))
    result = check_citation(cited, memory.ports.store.file(pair, "cells"))
    assert result.value is Verification.CHANGED_REMOVED
    assert result.detail == "the file cells.md was removed on 2026-03-06"
    assert check_citation(cited, None).detail == "the file cells is no longer registered"


def test_a_file_put_back_as_it_was_holds_again(memory: TutorMemory, pair: Pair) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    cited = answer(memory, pair, "Cells have membranes.")
    memory.register_file(pair, "cells", "cells.md", NEW)
    memory.register_file(pair, "cells", "cells.md", OLD)
    assert check_citation(cited, memory.ports.store.file(pair, "cells")).value is Verification.HOLDS


def test_a_memory_that_cites_no_file_is_unverifiable_for_good(
    memory: TutorMemory, pair: Pair
) -> None:
    chat = answer(memory, pair, "Let us start with cells.", file_id=None)
    check = memory.record(
        pair, Kind.CHECK, "Check on osmosis", evidence=CheckEvidence("osmosis", "right")
    ).episode
    for episode in (chat, check):
        result = check_citation(episode, None)
        assert result.value is Verification.UNVERIFIABLE and result.final
        assert "cites no file" in result.detail


def test_the_queue_takes_never_checked_answers_first_then_the_oldest_checked(pair: Pair) -> None:
    entries = [
        CitationEntry(pair, 1, "e1-a", checked_at=T0 + timedelta(days=2)),
        CitationEntry(pair, 2, "e2-b"),
        CitationEntry(pair, 3, "e3-c", checked_at=T0),
        CitationEntry(pair, 4, "e4-d"),
    ]
    assert [e.seq for e in sorted(entries, key=queue_order)] == [2, 4, 3, 1]


def test_a_batch_checks_the_never_checked_first_and_annotates_beside_the_episode(
    memory: TutorMemory, nightly: Nightly, pair: Pair, clock: FixedClock
) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    answers = [answer(memory, pair, f"Answer {n}.") for n in range(5)]
    chain_before = memory.verify_chain(pair)
    clock.at = T0 + timedelta(days=1)
    assert nightly.verify_citations(pair, 3) == {"holds": 3}
    checked = [a for a in answers if memory.ports.store.annotations(pair, a.episode_id)]
    assert checked == answers[:3]
    (note,) = memory.ports.store.annotations(pair, answers[0].episode_id)
    assert (note.kind, note.value, note.at) == (AnnotationKind.VERIFICATION, "holds", clock.at)
    assert memory.verify_chain(pair) == chain_before  # beside the episodes, never inside them

    memory.remove_file(pair, "cells")
    clock.at = T0 + timedelta(days=2)
    assert nightly.verify_citations(pair, 3) == {"changed_removed": 3}
    newest = [
        current(memory.ports.store.annotations(pair, a.episode_id), AnnotationKind.VERIFICATION)
        for a in answers
    ]
    assert [n.value if n else None for n in newest] == [
        "changed_removed", "holds", "holds", "changed_removed", "changed_removed",
    ]  # fmt: skip


def test_an_unverifiable_answer_is_checked_once_and_leaves_the_rotation(
    memory: TutorMemory, nightly: Nightly, pair: Pair, clock: FixedClock
) -> None:
    chat = answer(memory, pair, "Let us start with cells.", file_id=None)
    clock.at = T0 + timedelta(days=1)
    assert nightly.verify_citations(pair) == {"unverifiable": 1}
    clock.at = T0 + timedelta(days=60)
    assert nightly.verify_citations(pair) == {}
    assert len(memory.ports.store.annotations(pair, chat.episode_id)) == 1


def test_a_batch_asked_again_at_the_same_time_only_completes_itself(
    memory: TutorMemory, nightly: Nightly, pair: Pair
) -> None:
    memory.register_file(pair, "cells", "cells.md", OLD)
    for n in range(5):
        answer(memory, pair, f"Answer {n}.")
    night = T0 + timedelta(days=1)
    assert nightly.verify_citations(pair, 2, at=night) == {"holds": 2}
    assert nightly.verify_citations(pair, 3, at=night) == {"holds": 1}  # 2 already done
    assert nightly.verify_citations(pair, 3, at=night) == {}


def test_a_course_files_citation_is_checked_against_the_map_not_the_registry(
    memory: TutorMemory, pair: Pair
) -> None:
    from tutor_memory.domain.classmaps import FoldedFile
    from tutor_memory.domain.files import fingerprint

    old, new = fingerprint(OLD), fingerprint(NEW)
    episode = memory.record(
        pair, Kind.ANSWER, "Cells have membranes.", evidence=AnswerEvidence("cells", 1, old)
    ).episode
    holds = check_citation(episode, None, [FoldedFile("7a", "cells", 1, old)])
    assert holds.value is Verification.HOLDS and "class 7a" in holds.detail
    replaced = check_citation(episode, None, [FoldedFile("7a", "cells", 2, new, {old: 1})])
    assert replaced.value is Verification.CHANGED_REPLACED
    assert "version 2; the answer cited version 1" in replaced.detail
    assert check_citation(episode, None).value is Verification.CHANGED_REMOVED
    # The pair's own file of the same id, cited: checked against the registry as ever.
    memory.register_file(pair, "cells", "cells.md", OLD)
    own = check_citation(
        episode, memory.ports.store.file(pair, "cells"), [FoldedFile("7a", "cells", 2, new)]
    )
    assert own.value is Verification.HOLDS and "course" not in own.detail
