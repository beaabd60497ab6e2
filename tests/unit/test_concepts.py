"""Canonical concept keys in the five languages."""

from __future__ import annotations

import pytest

from tutor_memory.domain.concepts import concept_key, find_form, same_name
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


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Acids", "Acid"),
        ("Bases", "Base"),
        ("Indicators", "Indicator"),
        ("Cell walls", "cell wall"),
        ("células", "célula"),  # es
        ("sel-sel", "sel"),  # id: the plural by reduplication
        ("Enzim-enzim", "enzim"),
        ("خلیہ", "خلیے"),  # ur: the oblique form
        ("بروتينات", "بروتين"),  # ar: the sound feminine plural
    ],
)
def test_inflected_forms_of_a_name_are_one_name(one: str, other: str) -> None:
    assert same_name(one, other) and same_name(other, one)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Organism", "Organ"), ("Diffusion", "Diffuse"), ("Cellular", "Cell"), ("Mitosis", "Meiosis")],
)
def test_a_derived_word_is_another_concept(one: str, other: str) -> None:
    assert not same_name(one, other)


def test_a_name_finds_the_key_of_its_other_form() -> None:
    names = {"acid": "Acid", "ph scale": "pH scale"}
    assert find_form("Acids", names) == "acid"
    assert find_form("PH scale", names) == "ph scale"
    assert find_form("Bases", names) is None
