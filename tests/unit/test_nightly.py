"""The nightly loop's decisions (SPEC §10): pure and deterministic."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tutor_memory.adapters.sqlite_store import MIGRATIONS, SqliteStore, _backfill_nightly
from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.calibration import calibrate, predictions
from tutor_memory.domain.chain import ChainHead, head_of, seal
from tutor_memory.domain.episodes import (
    CheckEvidence,
    ConsolidationEvidence,
    CorrectionEvidence,
    Episode,
    ErasedItem,
    ErasureEvidence,
    Kind,
    NewEpisode,
    Pair,
    QuizEvidence,
    TaughtEvidence,
)
from tutor_memory.domain.nightly import (
    ScanState,
    SelfModel,
    WorkingSet,
    activity_shard,
    consolidation,
    day_window,
    decayed,
    previous_day,
    self_model,
    utc_days,
    working_set,
)
from tutor_memory.domain.verify import CitationEntry
from tutor_memory.ports import FixedClock, Ports
from tutor_memory.usecases.log import TutorMemory

PAIR = Pair("student-1", "biology")
DAY = date(2026, 3, 2)
UTC_DAY = day_window(DAY, UTC)


def at(hour: int, minute: int = 0, day: date = DAY) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def log(*specs: tuple[Kind, str, datetime, dict[str, Any]]) -> list[Episode]:
    """Seal episodes into a chain, in order."""
    head: ChainHead | None = None
    out = []
    for kind, text, when, extra in specs:
        episode = seal(NewEpisode(pair=PAIR, kind=kind, text=text, at=when, **extra), head)
        head = head_of(episode, head)
        out.append(episode)
    return out


def check(topic: str, verdict: str, when: datetime, predicted: float | None = None):  # type: ignore[no-untyped-def]
    evidence = CheckEvidence(topic, verdict, predicted_mastery=predicted)  # type: ignore[arg-type]
    return (Kind.CHECK, f"Check on {topic}", when, {"evidence": evidence, "concepts": (topic,)})


def question(text: str, when: datetime, *concepts: str):  # type: ignore[no-untyped-def]
    return (Kind.QUESTION, text, when, {"concepts": concepts})


# --- days ---------------------------------------------------------------------------------------


def test_a_night_compresses_the_students_local_day() -> None:
    jakarta = ZoneInfo("Asia/Jakarta")
    window = day_window(DAY, jakarta)
    assert (window.start, window.end) == (at(17, day=date(2026, 3, 1)), at(17))
    assert previous_day(at(18), jakarta) == DAY  # 01:00 on 3 March in Jakarta
    assert previous_day(at(16), jakarta) == date(2026, 3, 1)
    assert utc_days(window) == ["2026-03-01", "2026-03-02"]
    assert utc_days(UTC_DAY) == ["2026-03-02"]


def test_a_day_that_loses_an_hour_to_summer_time_is_23_hours_long() -> None:
    window = day_window(date(2026, 3, 8), ZoneInfo("America/New_York"))
    assert window.end - window.start == timedelta(hours=23)


def test_a_pairs_activity_shard_is_stable_and_in_range() -> None:
    shards = {activity_shard(Pair(f"s-{n}", "biology")) for n in range(200)}
    assert shards == set(range(8))
    assert activity_shard(PAIR) == activity_shard(Pair("student-1", "biology"))


# --- compress -----------------------------------------------------------------------------------


def a_day() -> list[Episode]:
    return log(
        question("What is osmosis?", at(9), "Osmosis"),
        (Kind.ANSWER, "Osmosis is water crossing a membrane.", at(9, 1), {}),
        question("What is osmosis?", at(10), "Osmosis"),
        check("Osmosis", "wrong", at(10, 5), 0.7),
        check("Cytoplasm", "right", at(10, 10), 0.6),
        question("what is a cell", at(11), "Cell"),
        (Kind.TAUGHT, "Taught: mitochondria", at(11, 5),
         {"evidence": TaughtEvidence("mitochondria"), "concepts": ("Mitochondria",)}),
        (Kind.QUIZ, "Quiz", at(12), {"evidence": QuizEvidence(7, 10, ("osmosis", "diffusion"))}),
        question("Yesterday's question", at(23, 59, date(2026, 3, 1))),
    )  # fmt: skip


def test_a_day_becomes_one_consolidation_with_counts_tally_topics_and_headlines() -> None:
    day = [e for e in a_day() if e.kind is not Kind.TAUGHT]
    new = consolidation(PAIR, DAY, UTC_DAY, day, truncated=False)
    assert new is not None and new.kind is Kind.CONSOLIDATION
    assert new.evidence == ConsolidationEvidence(
        day="2026-03-02",
        counts={"answer": 1, "check": 2, "question": 3, "quiz": 1},
        checks_right=1,
        checks_wrong=1,
        topics=("Osmosis", "Cytoplasm", "Cell", "diffusion"),
    )
    assert new.text.splitlines() == [
        "Day 2026-03-02: 7 episodes — 3 questions, 1 answer, 2 checks, 1 quiz.",
        "Checks: 1 right, 1 wrong.",
        "Topics: Osmosis, Cytoplasm, Cell, diffusion.",
        "Most salient:",
        "- check on Osmosis: wrong",
        "- check on Cytoplasm: right",
        "- quiz: 7/10 on osmosis, diffusion",
        "- answered: Osmosis is water crossing a membrane.",
        "- asked: What is osmosis? (2 times)",
    ]
    assert new.summary == (
        "2026-03-02: 3 questions, 1 answer, 2 checks, 1 quiz (1 right, 1 wrong); "
        "topics: Osmosis, Cytoplasm, Cell, diffusion"
    )
    assert new.at == at(23, 59) + timedelta(seconds=59, microseconds=999_999)
    assert new.idempotency_key == "consolidation:2026-03-02"
    assert new.concepts == ("Osmosis", "Cytoplasm", "Cell", "diffusion")


def test_only_the_five_most_salient_headlines_are_kept_taught_first() -> None:
    new = consolidation(PAIR, DAY, UTC_DAY, a_day(), truncated=False)
    assert new is not None
    headlines = new.text.split("Most salient:\n")[1].splitlines()
    assert headlines[0] == "- taught: mitochondria"
    assert len(headlines) == 5


def test_a_quiet_day_writes_nothing_and_a_summary_is_never_summarised() -> None:
    assert consolidation(PAIR, DAY, UTC_DAY, [], truncated=False) is None
    summary = consolidation(PAIR, DAY, UTC_DAY, a_day(), truncated=False)
    assert summary is not None
    (sealed,) = log((summary.kind, summary.text, summary.at, {"evidence": summary.evidence}))
    assert consolidation(PAIR, DAY, UTC_DAY, [sealed], truncated=False) is None
    again = consolidation(PAIR, DAY, UTC_DAY, [*a_day(), sealed], truncated=False)
    assert again == summary


def test_a_day_of_one_correction_is_told_and_an_erasures_entry_is_no_day() -> None:
    # "2026-10-27: ; topics: …" was the summary of a day on which a teacher corrected a check
    (checked,) = log(check("Osmosis", "wrong", at(9, 0, date(2026, 3, 1))))
    fix = CorrectionEvidence(checked.episode_id, "verdict", "right", "wrong")
    (fixed,) = log((Kind.CORRECTION, "marked wrong by mistake", at(10), {"evidence": fix}))
    new = consolidation(PAIR, DAY, UTC_DAY, [fixed], truncated=False)
    assert new is not None
    assert new.summary == "2026-03-02: 1 correction"
    assert new.text.splitlines()[0] == "Day 2026-03-02: 1 episode — 1 correction."
    gone = ErasureEvidence((ErasedItem(1, 1, "0" * 64),), "asked", "service", "episode")
    (entry,) = log((Kind.ERASURE, "erasure", at(11), {"evidence": gone}))
    assert consolidation(PAIR, DAY, UTC_DAY, [entry], truncated=False) is None


def test_a_day_read_only_in_part_says_so() -> None:
    new = consolidation(PAIR, DAY, UTC_DAY, a_day(), truncated=True)
    assert new is not None and "(The newest 8 of a longer day.)" in new.text


# --- decay --------------------------------------------------------------------------------------


def belief(created: datetime, **changes: Any) -> Belief:
    row = Belief(
        pair=PAIR,
        belief_id="b-1",
        concept_key="osmosis",
        concept_name="Osmosis",
        claim=Claim.UNDERSTANDS,
        confidence=0.72,
        evidence_ids=("e1-aaaaaaaaaaaa",),
        created_at=created,
        rule_version=1,
        reason="first check on it",
    )
    return replace(row, **changes)


NIGHT = UTC_DAY.end


def test_a_belief_untouched_for_45_days_loses_15_percent_and_waits_for_a_check() -> None:
    old = belief(NIGHT - timedelta(days=45))
    row = decayed(old, None, NIGHT)
    assert row is not None
    assert (row.claim, row.confidence, row.needs_confirmation) == (Claim.UNDERSTANDS, 0.61, True)
    assert row.line() == "understands Osmosis (0.61, to confirm at the next check)"
    assert row.created_at == NIGHT and row.evidence_ids == old.evidence_ids
    assert row.reason.startswith("decayed: no check for 45 days (since 2026-01-17)")
    assert row.belief_id != old.belief_id and row == decayed(old, None, NIGHT)


def test_a_belief_touched_within_45_days_stays_as_it_is() -> None:
    assert decayed(belief(NIGHT - timedelta(days=44, hours=23)), None, NIGHT) is None
    recent_check = NIGHT - timedelta(days=3)
    assert decayed(belief(NIGHT - timedelta(days=200)), recent_check, NIGHT) is None


def test_a_belief_already_waiting_for_confirmation_is_not_decayed_again() -> None:
    waiting = belief(NIGHT - timedelta(days=90), needs_confirmation=True, confidence=0.61)
    assert decayed(waiting, None, NIGHT) is None
    assert decayed(belief(NIGHT - timedelta(days=90), superseded_by="b-2"), None, NIGHT) is None


# --- calibrate ----------------------------------------------------------------------------------


def test_the_running_tally_gives_what_calibrating_the_whole_log_gives() -> None:
    rng = random.Random(7)
    specs = []
    for n in range(120):
        predicted = round(rng.random(), 4) if n % 4 else None
        verdict = "right" if rng.random() < (predicted or 0.5) else "wrong"
        specs.append(check(f"topic {n % 9}", verdict, at(0) + timedelta(minutes=n), predicted))
    episodes = log(*specs)
    state = ScanState()
    for start in range(0, len(episodes), 17):  # night after night, a few new ones each time
        state = state.fold(episodes[start : start + 17])
    assert state.tally.calibration() == calibrate(predictions(episodes))
    assert state.through_seq == 120 and state.checks == 120
    assert state.fold(episodes) == state  # nothing new: nothing changes
    assert ScanState.from_dict(state.to_dict()) == state


def test_checks_tied_to_no_concept_are_counted_apart() -> None:
    untied = (Kind.CHECK, "Check", at(9), {"evidence": CheckEvidence("ask me", "right")})
    state = ScanState().fold(log(check("Osmosis", "right", at(8)), untied))
    assert (state.checks, state.checks_untied) == (2, 1)


# --- the self-model and the working set ---------------------------------------------------------


def model_after(*checks: tuple[Kind, str, datetime, dict[str, Any]]) -> SelfModel:
    episodes = log(*checks)
    return self_model(
        PAIR,
        "2026-03-02",
        counts={"check": len(episodes)},
        scan=ScanState().fold(episodes),
        beliefs=[],
        citations=[],
    )


def test_before_five_predictions_the_self_model_says_confidence_is_a_ranking() -> None:
    model = model_after(*(check("Osmosis", "right", at(9, n), 0.8) for n in range(4)))
    assert not model.calibrated and model.calibration.checks == 4
    assert model.limits[0].endswith("treat confidence as a ranking, not a probability")
    assert SelfModel.from_dict(model.to_dict()) == model


def test_from_five_predictions_the_self_model_reports_calibration() -> None:
    model = model_after(*(check("Osmosis", "right", at(9, n), 0.8) for n in range(5)))
    assert model.calibrated and model.calibration.ece == 0.2
    assert not any("ranking" in limit for limit in model.limits)


def test_the_self_model_counts_what_the_tutor_cannot_vouch_for() -> None:
    stale = belief(NIGHT, needs_confirmation=True)
    citations = [
        CitationEntry(PAIR, 2, "e2-b", NIGHT, "changed_removed"),
        CitationEntry(PAIR, 3, "e3-c", NIGHT, "holds"),
        CitationEntry(PAIR, 4, "e4-d"),
    ]
    model = self_model(
        PAIR, "2026-03-02", counts={"answer": 3, "check": 0}, scan=ScanState(),
        beliefs=[stale], citations=citations,
    )  # fmt: skip
    assert model.episodes == 3 and model.to_confirm == 1 and model.understands == 1
    assert model.verification == {
        "holds": 1, "changed_replaced": 0, "changed_removed": 1, "unverifiable": 0,
    }  # fmt: skip
    assert model.never_verified == 1
    assert model.limits[1:] == (
        "1 belief went 45 days without a check: confidence lowered by 15%, "
        "to be confirmed by the next check",
        "1 answer cites a file that has since been replaced or removed",
        "1 answer has not been checked against the files yet",
    )


def test_the_working_set_keeps_belief_lines_a_week_of_summaries_and_changed_answers() -> None:
    previous = None
    for n in range(9):
        previous = working_set(
            PAIR, f"2026-03-{n + 1:02d}", through_seq=n, beliefs=[belief(NIGHT)], map_header=None,
            recent=[], consolidation_id=f"e{n}-summary", previous=previous, citations=[],
        )  # fmt: skip
    assert previous is not None
    assert previous.day_ids == tuple(f"e{n}-summary" for n in range(8, 1, -1))
    assert previous.beliefs == (("b-1", "understands Osmosis (0.72)"),)
    episodes = a_day()
    built = working_set(
        PAIR, "2026-03-02", through_seq=9, beliefs=[belief(NIGHT, needs_confirmation=True)],
        map_header="SUBJECT MAP (…)", recent=episodes[::-1], consolidation_id=None,
        previous=previous, citations=[CitationEntry(PAIR, 2, "e2-b", NIGHT, "changed_replaced")],
    )  # fmt: skip
    assert built.to_confirm == ("Osmosis",) and built.changed_ids == ("e2-b",)
    assert built.recent_ids == tuple(e.episode_id for e in episodes[::-1])
    assert WorkingSet.from_dict(built.to_dict()) == built


def test_a_working_set_is_current_only_at_the_head_and_beliefs_version_it_was_built_at() -> None:
    built = working_set(
        PAIR, "2026-03-02", through_seq=9, beliefs=[belief(NIGHT)], map_header=None, recent=[],
        consolidation_id=None, previous=None, citations=[], beliefs_version=4,
    )  # fmt: skip
    assert built.current(9, 4)
    assert not built.current(10, 4)  # something was appended since
    assert not built.current(9, 5)  # the beliefs changed without an append (a re-derivation)
    older = {
        k: v for k, v in built.to_dict().items() if k not in ("belief_rows", "beliefs_version")
    }
    assert not WorkingSet.from_dict(older).current(9, 0)  # a set from before turns read it


# --- an embedded store written before the nightly loop ------------------------------------------


def test_an_older_embedded_store_gains_its_activity_and_queue_on_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    store = SqliteStore(path)
    memory = TutorMemory(Ports(store, FixedClock(at(9))))
    memory.record(PAIR, Kind.QUESTION, "What is osmosis?")
    answered = memory.record(PAIR, Kind.ANSWER, "Water crossing a membrane.").episode
    store.close()
    before_nightly = MIGRATIONS.index(_backfill_nightly) - 1  # the version that lacked them
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(
        "DROP TABLE activity; DROP TABLE citations; DROP TABLE pair_documents; "
        f"PRAGMA user_version = {before_nightly};"
    )
    conn.close()

    upgraded = SqliteStore(path)
    assert upgraded.schema_version() == len(MIGRATIONS)
    assert upgraded.active_pairs(UTC_DAY) == [PAIR]
    assert [c.episode_id for c in upgraded.citations(PAIR)] == [answered.episode_id]
