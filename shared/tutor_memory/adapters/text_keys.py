"""What makes two indexed documents one text for the semantic pool, on every index.

The pool counts texts, not copies, when it chooses the k nearest: a text repeated sixty times
takes one place, and brings its copies where k leaves room (so the block can still say how
often it was said). Two documents are one text when they carry the same vector (a vector is a
function of the text it embeds, so copies share its float32 bytes); both indexes key a vector
by a 16-byte BLAKE2b digest of those bytes: a 100k pair's keys stay a few MB, and no two
different vectors share a key in practice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

from tutor_memory.ports import Hits


def vector_key(vector: bytes | Sequence[float] | NDArray[np.float32]) -> bytes:
    """The digest of ``vector``'s float32 bytes (a list is converted as the indexes store it)."""
    if not isinstance(vector, bytes):
        vector = np.asarray(vector, dtype=np.float32).tobytes()
    return hashlib.blake2b(vector, digest_size=16).digest()


def first_texts(hits: Hits, texts: Sequence[Hashable], limit: int) -> tuple[Hits, bool]:
    """The hits of the first ``limit`` distinct texts (``texts[i]`` is the text of ``hits[i]``,
    hits best first, ties to the newer): each text's first hit, then, while the pool holds
    fewer than ``limit`` hits, the texts' other copies among the hits (the first ones first),
    all in the hits' order; and whether ``limit`` texts were found (False: the caller ranks
    deeper if its list was full). Texts before copies: a repeated question never keeps another
    text out; copies where there is room, so the block can still say how often it was said (a
    pool as large as before: each hit is a candidate to read and rank). Both indexes cut their
    pools by this one rule."""
    kept: set[Hashable] = set()
    firsts: list[int] = []
    copies: list[int] = []
    for i, text in enumerate(texts):
        if text in kept:
            copies.append(i)
        elif len(kept) < limit:
            kept.add(text)
            firsts.append(i)
    keep = sorted(firsts + copies[: max(0, limit - len(firsts))])
    enough = len(kept) == limit
    if len(keep) == len(hits):
        return hits, enough
    matched = hits.matched
    return Hits([hits.episode_ids[i] for i in keep], [hits.seqs[i] for i in keep],
                [hits.scores[i] for i in keep],
                None if matched is None else [matched[i] for i in keep]), enough  # fmt: skip
