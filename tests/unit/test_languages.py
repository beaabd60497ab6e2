"""The language packs: one module a language, each filling every field, in one registry."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping

import pytest

from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import detect_language, fold, stem
from tutor_memory.domain.languages import LANGUAGES, Language, is_optional, language
from tutor_memory.domain.timewords import find_window

FIELDS = [f.name for f in dataclasses.fields(Language)]

# The test data a language brings with it: a question about a past lesson, with the word it
# stems, in its own words. A new pack without an entry here fails below.
SAMPLES: dict[str, tuple[str, str]] = {
    "en": ("What did we cover last week about the cells?", "cells"),
    "es": ("¿Qué vimos la semana pasada sobre las células?", "células"),
    "id": ("Apa yang kita bahas minggu lalu tentang sel-sel?", "pelajaran"),
    "ur": ("ہم نے پچھلے ہفتے خلیوں کے بارے میں کیا پڑھا تھا؟", "خلیوں"),
    "ar": ("ماذا درسنا الأسبوع الماضي عن الخلايا؟", "الخلايا"),
}

TIME_ROLES = {
    "fillers",
    "openers",
    "weak_openers",
    "anywhere",
    "ellipsis",
    "recall",
    "study",
    "topic",
    "plan",
    "past",
    "clause_breaks",
}
RELATIVE_KINDS = {
    "today",
    "yesterday",
    "day_before_yesterday",
    "this_week",
    "last_week",
    "this_month",
    "last_month",
    "days_ago_3",
    "weeks_ago_2",
    "weeks_ago_3",
    "months_ago_2",
    "months_ago_3",
}


def test_the_registry_holds_exactly_the_five_languages_in_the_project_order() -> None:
    assert list(LANGUAGES) == ["en", "es", "id", "ur", "ar"]
    assert all(pack.code == code for code, pack in LANGUAGES.items())


def test_a_language_the_project_does_not_speak_is_refused() -> None:
    with pytest.raises(ValidationError):
        language("fr")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_each_language_is_one_object_in_its_own_module(code: str) -> None:
    module = importlib.import_module(f"tutor_memory.domain.languages.{code}")
    packs = [v for v in vars(module).values() if isinstance(v, Language)]
    assert packs == [language(code)]


def test_no_field_has_a_default_so_every_pack_names_every_field() -> None:
    for f in dataclasses.fields(Language):
        assert f.default is dataclasses.MISSING, f.name
        assert f.default_factory is dataclasses.MISSING, f.name


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("name", [n for n in FIELDS if not is_optional(n)])
def test_every_pack_fills_every_field_that_is_not_a_grammar_hook(code: str, name: str) -> None:
    value = getattr(language(code), name)
    assert value, (code, name)
    if isinstance(value, Mapping):
        # weak_openers is a hook inside the cues: only Arabic has one (ما, also "not")
        assert all(v for role, v in value.items() if role != "weak_openers"), (code, name)


@pytest.mark.parametrize("name", [n for n in FIELDS if is_optional(n)])
def test_every_grammar_hook_is_used_by_some_language(name: str) -> None:
    if name == "stopword_exceptions":
        pytest.skip("a slot kept for a published stopword found to be a subject word")
    assert any(getattr(pack, name) for pack in LANGUAGES.values()), name


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_pack_has_every_time_role_relative_kind_and_record_cue(code: str) -> None:
    pack = language(code)
    assert set(pack.time_question_cues) == TIME_ROLES
    assert set(pack.relative_phrases) == RELATIVE_KINDS
    assert set(pack.record_cues) == {"self", "record", "frame", "trait"}
    for bounds in (pack.bounds_before, pack.bounds_after):
        assert set(bounds) <= {"since", "after", "before", "until"}


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_entry_of_every_list_has_words_after_folding(code: str) -> None:
    pack = language(code)
    for name in FIELDS:
        value = getattr(pack, name)
        lists = value.values() if isinstance(value, Mapping) else [value]
        for entries in lists:
            if isinstance(entries, tuple | frozenset):
                assert all(fold(entry).strip() for entry in entries), (code, name)


def test_each_script_has_exactly_one_default_language() -> None:
    scripts = {pack.script for pack in LANGUAGES.values()}
    for script in scripts:
        defaults = [p.code for p in LANGUAGES.values() if p.script == script and p.script_default]
        assert len(defaults) == 1, (script, defaults)


def test_every_language_brings_its_test_data() -> None:
    assert set(SAMPLES) == set(LANGUAGES)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_language_is_detected_and_its_time_question_read(code: str) -> None:
    from datetime import UTC, datetime

    question, _ = SAMPLES[code]
    assert detect_language(question) == code
    found = find_window(question, datetime(2026, 11, 30, 10, tzinfo=UTC), UTC)
    assert found is not None and found.label.startswith("last week"), question


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_stemmer_shortens_a_plural_and_leaves_digits(code: str) -> None:
    _, word = SAMPLES[code]
    folded = fold(word)
    assert len(stem(folded, code)) < len(folded)
    assert stem("2025", code) == "2025"


# "Which …?" in each language: the asking word is no search term (in Urdu it is two words,
# "کون سا/سی/سے", or one, "کونسا"; the particle alone matched lines that share nothing else).
WHICH = {
    "en": ("Which book did Maya read?", ("book", "maya", "read")),
    "es": ("¿Cuál libro leyó Lucía?", ("libr", "ley", "luci")),
    "id": ("Buku mana yang dibaca Putri?", ("buku", "baca", "putri")),
    "ur": ("عائشہ کا پالتو جانور کون سا ہے؟", ("عائش", "پالتو", "جانور")),
    "ar": ("أي كتاب قرأت ليلى؟", ("كتاب", "قر", "ليل")),
}


@pytest.mark.parametrize("code", sorted(WHICH))
def test_the_word_for_which_is_not_a_search_term(code: str) -> None:
    from tutor_memory.domain.language import analysed

    question, terms = WHICH[code]
    assert analysed(question) == terms


@pytest.mark.parametrize("which", ["کون سا", "کون سی", "کون سے", "کونسا", "کونسی", "کونسے"])
def test_every_urdu_spelling_of_which_is_left_out(which: str) -> None:
    from tutor_memory.domain.language import analysed

    assert analysed(f"عائشہ نے {which} کتاب پڑھی؟") == ("عائش", "كتاب")
