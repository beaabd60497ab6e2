"""Plain-record form of episodes and annotations, shared by every store adapter.

Stores keep the fields (not an opaque blob) so they stay queryable; reading a row rebuilds the
episode exactly as sealed, and the chain check recomputes its hash from these fields. Reading
never re-validates the text, so a tampered row is reported by verification, not rejected by
the reader.
"""

from __future__ import annotations

import json
import zlib
from functools import lru_cache
from typing import Any

from tutor_memory.domain import constants as C
from tutor_memory.domain import forgetting
from tutor_memory.domain.annotations import Annotation, AnnotationKind
from tutor_memory.domain.chain import format_time, parse_time
from tutor_memory.domain.classmaps import CourseMap
from tutor_memory.domain.conceptmap import ConceptMap
from tutor_memory.domain.episodes import NO_EVIDENCE, Episode, Kind, Pair, evidence_from_dict
from tutor_memory.domain.errors import CorruptRowError as CorruptRowError  # re-exported
from tutor_memory.domain.errors import ValidationError


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def episode_to_record(ep: Episode) -> dict[str, Any]:
    return {
        "student_id": ep.pair.student_id,
        "subject_id": ep.pair.subject_id,
        "seq": ep.seq,
        "episode_id": ep.episode_id,
        "kind": ep.kind.value,
        "at": format_time(ep.at),
        "summary": ep.summary,
        "text": ep.text,
        "concepts": dumps(list(ep.concepts)),
        "salience": ep.salience,
        "evidence": dumps(ep.evidence.to_dict()),
        "recalled_ids": dumps(list(ep.recalled_ids)),
        "ref": ep.ref,
        "idempotency_key": ep.idempotency_key,
        "prev_hash": ep.prev_hash,
        "hash": ep.hash,
        "request_hash": ep.request_hash,
        "chain_version": ep.chain_version,
        "salt": ep.salt,
        "commitment": ep.commitment,
        "erased": int(ep.erased),
    }


@lru_cache(maxsize=4_096)
def _pair(student_id: str, subject_id: str) -> Pair:
    """One Pair object for all of a pair's decoded episodes (the decoded-episode cache holds
    20k: one object each was 20k more for every full collection to walk, and a check of both
    ids on every row)."""
    return Pair(student_id, subject_id)


@lru_cache(maxsize=4_096)
def _strings(stored: str | None) -> tuple[str, ...]:
    """A stored JSON list of strings as a tuple, remembered: a pair's rows repeat a few
    concept lists ("[]", '["Osmosis"]') thousands of times, and decoding each again was a
    third of a row's decoding."""
    if not stored or stored == "[]":
        return ()
    return tuple(json.loads(stored))


def episode_from_record(row: dict[str, Any]) -> Episode:
    seq = int(row["seq"])
    try:
        kind = Kind(row["kind"])
        erased = bool(int(row.get("erased") or 0))
        stored = row["evidence"]
        data = json.loads(stored) if stored and stored != "{}" else {}
        # An erased body keeps no evidence: whatever its kind, it reads as none (a stored value
        # is still read, so that verification reports it instead of the reader hiding it). So
        # does a v2 body without its salt (a replayed envelope before its erasure is recorded).
        bodiless = erased or (int(row.get("chain_version") or 1) == 2 and not row.get("salt"))
        evidence = NO_EVIDENCE if bodiless and not data else evidence_from_dict(kind, data)
        return Episode(
            pair=_pair(row["student_id"], row["subject_id"]),
            seq=seq,
            episode_id=row["episode_id"],
            kind=kind,
            at=parse_time(row["at"]),
            summary=row["summary"] or "",
            text=row["text"] or "",
            concepts=_strings(row["concepts"]),
            salience=float(row["salience"]),
            evidence=evidence,
            recalled_ids=_strings(row["recalled_ids"]),
            ref=row.get("ref"),
            idempotency_key=row.get("idempotency_key"),
            prev_hash=row["prev_hash"],
            hash=row["hash"],
            request_hash=row.get("request_hash"),
            chain_version=int(row.get("chain_version") or 1),
            salt=row.get("salt"),
            commitment=row.get("commitment"),
            erased=erased,
        )
    except (ValidationError, ValueError, KeyError, TypeError) as exc:
        raise CorruptRowError(seq, str(exc)) from exc


def annotation_to_record(a: Annotation) -> dict[str, Any]:
    return {
        "student_id": a.pair.student_id,
        "subject_id": a.pair.subject_id,
        "episode_id": a.episode_id,
        "kind": a.kind.value,
        "value": a.value,
        "at": format_time(a.at),
        "detail": a.detail,
    }


def annotation_from_record(row: dict[str, Any]) -> Annotation:
    return Annotation(
        pair=Pair(row["student_id"], row["subject_id"]),
        episode_id=row["episode_id"],
        kind=AnnotationKind(row["kind"]),
        value=row["value"],
        at=parse_time(row["at"]),
        detail=row.get("detail") or "",
    )


def map_to_blob(cmap: ConceptMap) -> bytes:
    """A map as stored: canonical JSON, zlib-compressed (maps of hundreds of concepts stay far
    below DynamoDB's 400 KB item limit)."""
    return zlib.compress(dumps(cmap.to_dict()).encode("utf-8"), 9)


# Keyed by the stored bytes: every turn reads its pair's map (twice: the block's section and
# routing's vectors) and decoding was ~1.5 ms of a 10k turn; a map is immutable (frozen,
# changed only by ``replace``), so the same bytes may share one decoded map.
@lru_cache(maxsize=C.MAPS_DECODED_KEPT)
def map_from_blob(blob: bytes) -> ConceptMap:
    return ConceptMap.from_dict(json.loads(zlib.decompress(blob).decode("utf-8")))


def course_to_blob(course: CourseMap) -> bytes:
    """A class's course map as stored: as a pair's map is (``map_to_blob``)."""
    return zlib.compress(dumps(course.to_dict()).encode("utf-8"), 9)


def course_from_blob(blob: bytes) -> CourseMap:
    return CourseMap.from_dict(json.loads(zlib.decompress(blob).decode("utf-8")))


# Caches of students' words: an erasure empties them (domain/forgetting.py).
forgetting.lru(_strings)
forgetting.lru(map_from_blob)
