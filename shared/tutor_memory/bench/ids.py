"""Ids for the turns and pairs of public sets read as ``--data`` (``bench.locomo``,
``bench.longmemeval``): what their files name things, made fit and unique."""

from __future__ import annotations

import re
from typing import Final

_NOT_IN_AN_ID: Final = re.compile(r"[^A-Za-z0-9._@-]")


def fit_id(name: str, fallback: str) -> str:
    """``name`` as a pair's student id: the letters an id takes (``episodes.check_id``), the
    others as "-", 120 at most; ``fallback`` when nothing is left."""
    return _NOT_IN_AN_ID.sub("-", name)[:120] or fallback


def unique(name: str, taken: set[str], joiner: str = "#") -> str:
    """``name``, or ``name#2``, ``name#3``… when it is taken; kept in ``taken``."""
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name}{joiner}{n}"
    taken.add(found)
    return found
