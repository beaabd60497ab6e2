"""Recall scores every candidate by words, not only the lexical pool's hits (issue 26): a
memory another pool found past the lexical pool's cut keeps the BM25 score its words earn, so
plain fusion ranks it and the gate demotes it instead of deleting it; one holding none of the
question's words is not helped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

PAIR = Pair("s-every", "biology")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
# question, then the memories oldest first, in each language (the first three hold the word)
CASES = {
    "en": ("osmosis", ["osmosis osmosis", "osmosis moves water", "so osmosis is the diffusion "
           "of water across a membrane, my sister said it twice", "hello there, see you"]),
    "es": ("ósmosis", ["ósmosis ósmosis", "la ósmosis mueve agua", "entonces la ósmosis es la "
           "difusión del agua por una membrana, dijo mi hermana", "hola, nos vemos"]),
    "id": ("mitokondria", ["mitokondria mitokondria", "mitokondria membuat energi", "jadi "
           "mitokondria itu pembangkit energi sel, kata kakakku dua kali", "halo, sampai jumpa"]),
    "ur": ("اوسموسس", ["اوسموسس اوسموسس", "اوسموسس پانی منتقل کرتا ہے", "تو اوسموسس جھلی کے "
           "پار پانی کا پھیلاؤ ہے، میری بہن نے دو بار کہا", "ہیلو، پھر ملیں گے"]),
    "ar": ("التناضح", ["التناضح التناضح", "التناضح ينقل الماء", "إذن التناضح هو انتشار الماء "
           "عبر غشاء، قالت أختي ذلك مرتين", "مرحبا، أراك لاحقا"]),
}  # fmt: skip


def recalled(tmp_path: Path, question: str, memories: list[str]) -> dict[str, bool]:
    """Each memory → recalled (True demoted, False a match); absent: dropped."""
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), tmp_path / "tm")
    app: App = build_app(settings, clock=FixedClock(T0 + timedelta(days=30)))
    try:
        for n, text in enumerate(memories):
            app.memory.record(PAIR, Kind.QUESTION, text, at=T0 + timedelta(days=n))
        found = app.memory.recall(PAIR, question)
        return {item.episode.text: item.demoted for item in found.items}
    finally:
        app.close()


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_memory_past_the_lexical_cut_is_ranked_by_its_words(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    question, memories = CASES[lang]
    monkeypatch.setattr(C, "RECALL_LEXICAL_POOL", 2)  # the cut: two hits

    found = recalled(tmp_path, question, memories)

    assert found == {memories[0]: False, memories[1]: False, memories[2]: True}
    assert memories[3] not in found  # no word of the question: no score to lend it


def test_below_the_cut_every_hit_is_already_in_the_pool(tmp_path: Path) -> None:
    question, memories = CASES["en"]
    assert recalled(tmp_path, question, memories) == {m: False for m in memories[:3]}
