"""What makes two stored vectors one text for the semantic pool, on every index.

A vector is a function of the text it embeds (repeated texts are embedded once), so copies of a
text carry the same float32 bytes; both indexes key a vector by a digest of those bytes and
count texts, not copies, when they choose the k nearest. 16 bytes: a 100k pair's keys stay a
few MB, and no two different vectors share a key in practice (BLAKE2b).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray


def vector_key(vector: bytes | Sequence[float] | NDArray[np.float32]) -> bytes:
    """The digest of ``vector``'s float32 bytes (a list is converted as the indexes store it)."""
    if not isinstance(vector, bytes):
        vector = np.asarray(vector, dtype=np.float32).tobytes()
    return hashlib.blake2b(vector, digest_size=16).digest()
