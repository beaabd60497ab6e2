"""What this process remembers of students' words between calls, and forgetting it (pure).

Ranking, the block and the understanding of a question keep what they derive from the texts
they read — folded, analysed, stemmed, priced in tokens, the episode itself beside its facts —
so that the next turn does not derive it again. Those caches are keyed by the words, not by
the student, so an erasure cannot pick one student's entries out: it forgets them all
(``forget_words``), and the next turns derive again what they read, as after opening the
memory (docs/export-and-erasure.md has the cost). Each cache says so where it is made
(``remembers_words``, ``lru``); a test holds every ``lru_cache`` of the package to it or to
its list of caches of fixed word lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (forget, how many entries it holds) per cache, in the order the modules were imported.
_CACHES: list[tuple[Callable[[], object], Callable[[], int]]] = []
# The lru_cache functions among them (the test's inventory).
_LRU: list[Any] = []


def remembers_words(forget: Callable[[], object], size: Callable[[], int]) -> None:
    """Record a cache of students' words: ``forget`` empties it, ``size`` counts it."""
    _CACHES.append((forget, size))


def lru(cached: Any) -> None:
    """``remembers_words`` for a ``functools.lru_cache`` function."""
    _LRU.append(cached)
    remembers_words(cached.cache_clear, lambda: int(cached.cache_info().currsize))


def forget_words() -> None:
    """Empty every cache of students' words this process holds (after an erasure)."""
    for forget, _size in _CACHES:
        forget()


def words_remembered() -> int:
    """How many entries the caches of students' words hold now (0 after ``forget_words``)."""
    return sum(size() for _forget, size in _CACHES)


def lru_caches() -> tuple[Any, ...]:
    """The ``lru_cache`` functions recorded as caches of students' words."""
    return tuple(_LRU)
