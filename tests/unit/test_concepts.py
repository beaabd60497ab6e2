"""Canonical concept keys in the five languages."""

from __future__ import annotations

import pytest

from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.recall import route_concepts


@pytest.mark.parametrize(
    ("spellings", "key"),
    [
        (["Cell membrane", "cell-membrane", "  CELL   membrane. "], "cell membrane"),
        (["Ósmosis", "osmosis", "OSMOSIS"], "osmosis"),
        (["Sel Eukariotik", "sel eukariotik"], "sel eukariotik"),
        (["خلیہ", "خلیۂ"], concept_key("خلیہ")),
        (["الخَلِيَّة", "الخليــة", "الخلية"], concept_key("الخلية")),
    ],
)
def test_every_spelling_of_a_name_has_one_key(spellings: list[str], key: str) -> None:
    assert {concept_key(s) for s in spellings} == {key}
    assert key


def test_distinct_names_keep_distinct_keys() -> None:
    assert concept_key("mitosis") != concept_key("meiosis")
    assert concept_key("cell wall") != concept_key("cell membrane")


def test_routing_is_by_whole_canonical_names_only() -> None:
    known = {concept_key(n): n for n in ("Cell", "Cell membrane", "Osmosis", "الخلية")}
    assert route_concepts("What does the cell membrane do?", known) == ["cell", "cell membrane"]
    assert route_concepts("¿Qué es la ÓSMOSIS?", known) == ["osmosis"]
    assert route_concepts("ما هي الخلية؟", known) == [concept_key("الخلية")]
    assert route_concepts("What are cells made of?", known) == []  # exact names only
