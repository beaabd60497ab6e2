"""Every cache the package keeps between calls is either a cache of students' words, which an
erasure empties (``domain/forgetting.py``), or one of fixed word lists and ids named here."""

from __future__ import annotations

import functools
import gc
import importlib
import pkgutil

import tutor_memory
from tutor_memory.domain import forgetting

# Caches that never hold a student's words: the language packs' lists and cues, the API's own
# documents, pools' names, and ids (a pair's or an episode's keys, which an erasure keeps).
FIXED = {
    "adapters.offline_extractor._any_language",
    "adapters.offline_extractor._definition_markers",
    "adapters.offline_extractor._folded",
    "adapters.offline_extractor._phrases",
    "adapters.records._pair",
    "api.routes.openapi_json",
    "bench.phrasing.month_name",
    "bench.real_small_talk.chats",  # a public archive of chats, no student's words
    "bootstrap.lambda_scheduler",
    "bootstrap.warn_lexical_only",
    "domain.chain.seq_of_id",
    "domain.language._candidates",
    "domain.language._latin_writers",
    "domain.language._markers",
    "domain.language.stopwords",
    "domain.plandates._day_phrases",
    "domain.profile_phrases._clitic_table",
    "domain.profile_phrases._in_class",
    "domain.profile_phrases._day_spans",
    "domain.profile_phrases._cues_longest_first",
    "domain.profile_phrases._cue_openers",
    "domain.profile_phrases._epithets",
    "domain.profile_phrases._frames",
    "domain.profile_phrases._goal_spans",
    "domain.profile_phrases._goal_word_spans",
    "domain.profile_phrases._languages",
    "domain.profile_phrases._name_words",
    "domain.profile_phrases._needs",
    "domain.profile_phrases._phrases",
    "domain.recall._pool_names",
    "domain.record_question._cues",
    "domain.record_question._matchers",
    "domain.record_question._question_words",
    "domain.record_question._traits",
    "domain.teaching._lists",
    "domain.teaching._pronouns",
    "domain.teaching._verb_endings",
    "domain.timewords._any_language",
    "domain.timewords._bounds",
    "domain.timewords._cues",
    "domain.timewords._english_months",
    "domain.timewords._weekday_words",
    "domain.timewords.english_weekdays",
    "domain.timewords._every",
    "domain.timewords._folded",
    "domain.timewords._foreign_month_words",
    "domain.timewords._month_words",
    "domain.timewords._question_openers_en",
    "domain.timewords._relative_phrases",
    "domain.timewords._time_first_words",
    "domain.validator._articles",
    "domain.validator._folded_set",
    "domain.validator._headings",
}


def module_caches() -> dict[str, object]:
    """Every ``lru_cache`` function defined at a module's top level in the package."""
    found: dict[str, object] = {}
    for info in pkgutil.walk_packages(tutor_memory.__path__, "tutor_memory."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, functools._lru_cache_wrapper)
                and value.__module__ == module.__name__
            ):
                name = f"{module.__name__}.{value.__qualname__}".removeprefix("tutor_memory.")
                found[name] = value
    return found


def test_every_cache_is_of_students_words_and_forgotten_or_of_fixed_lists() -> None:
    caches = module_caches()
    words = {name for name, cache in caches.items() if cache in forgetting.lru_caches()}
    assert {"domain.recall._folded", "domain.tokens.count_tokens", "domain.language.stem"} <= words
    unclassed = sorted(set(caches) - words - FIXED)
    assert not unclassed, (
        f"{unclassed}: a cache of students' words is forgotten on erasure "
        "(forgetting.lru after it); one of fixed lists goes in FIXED"
    )
    assert not words & FIXED
    assert not FIXED - set(caches), "FIXED names a cache that no longer exists"


def test_forgetting_empties_every_cache_of_words() -> None:
    from tutor_memory.domain.language import analysed
    from tutor_memory.domain.tokens import count_tokens

    asked = "a student's question about Quillvane"
    count_tokens(asked)
    analysed(asked)
    assert asked in keys(count_tokens) and asked in keys(analysed)
    assert forgetting.words_remembered() >= 2
    forgetting.forget_words()
    assert asked not in keys(count_tokens) and asked not in keys(analysed)


def keys(cache: object) -> set[object]:
    """The keys an lru_cache function holds (its dict, as the collector reaches it)."""
    found: set[object] = set()
    for ref in gc.get_referents(cache):
        if isinstance(ref, dict) and "__module__" not in ref:
            found |= {tuple(k) if isinstance(k, list) else k for k in ref}
    return found
