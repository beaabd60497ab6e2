"""The default block shows everything recall's 1,500-token pack holds (issue 26): the budget
leaves room for the pack's lines beside the block's fixed ones, in every language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tutor_memory.bench.retrieval import PACK_TOKENS
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.block import work_line
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.domain.tokens import fit_lines
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

from .conftest import TEST_TURN_DEADLINE_S

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
# A chat line a day, each its own text: far more than any block holds.
SAID = {
    "en": "Maya: on day {n} of the trip I saw {n} birds near the old lighthouse",
    "es": "Lucía: el día {n} del viaje vi {n} pájaros cerca del faro viejo",
    "id": "Putri: hari ke-{n} perjalanan aku lihat {n} burung dekat mercusuar tua",
    "ur": "عائشہ: سفر کے {n} ویں دن میں نے پرانے لائٹ ہاؤس کے پاس {n} پرندے دیکھے",
    "ar": "ليلى: في اليوم {n} من الرحلة رأيت {n} طيور قرب المنارة القديمة",
}
QUESTION = {
    "en": "What did I see on the trip?",
    "es": "¿Qué vi en el viaje?",
    "id": "Apa yang aku lihat di perjalanan?",
    "ur": "میں نے سفر میں کیا دیکھا؟",
    "ar": "ماذا رأيت في الرحلة؟",
}


@pytest.fixture
def app(tmp_path: Path) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app = build_app(settings, clock=FixedClock(NOW))
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the assertions are on content, not speed
    return app


@pytest.mark.parametrize("lang", sorted(SAID))
@pytest.mark.parametrize("asked", [False, True], ids=["no question", "a question"])
def test_the_default_block_shows_every_line_of_recalls_pack(
    app: App, lang: str, asked: bool
) -> None:
    pair = Pair(f"student-{lang}", "diary")
    start = NOW - timedelta(days=200)
    app.memory.record_many(
        [
            NewEpisode(pair, Kind.QUESTION, SAID[lang].format(n=n), start + timedelta(days=n))
            for n in range(1, 181)
        ]
    )
    result = app.turns.turn(pair, QUESTION[lang] if asked else None, at=NOW)
    assert not result.dropped and result.recall is not None
    tz = ZoneInfo(app.ports.timezone)
    lines = [work_line(item, now=NOW, tz=tz) for item in result.recall.items]
    packed = result.recall.items[: len(fit_lines(lines, PACK_TOKENS))]
    assert len(packed) < len(result.recall.items)  # recall found more than the pack holds
    assert {i for item in packed for i in item.collapsed_ids} <= set(result.memory_ids)
    assert result.tokens <= app.settings.block_budget_tokens
