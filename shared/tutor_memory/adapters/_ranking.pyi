# The C loops of _ranking.c (built at install); embedded_index.py uses numpy where it is absent.
from typing import Any

def semantic_top(
    scores: Any, seqs: Any, ids: list[str], offset: int, k: int, /
) -> tuple[list[str], list[int], list[float], None]: ...
def lexical_top(
    terms: list[tuple[Any, Any, Any, float, int]],
    names: tuple[str, ...],
    length_part: Any,
    k1p1: float,
    seqs: Any,
    ats: Any,
    window: tuple[int, int] | None,
    ids: list[str],
    limit: int,
    sums: Any,
    bits: Any,
    /,
) -> tuple[list[str], list[int], list[float], list[tuple[str, ...]]]: ...
