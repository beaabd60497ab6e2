"""Request and response bodies of the turn API (pydantic: validated on the way in, and the
source of the OpenAPI document)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tutor_memory.domain import constants as C


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not ignored


class TurnRequest(Strict):
    question: str | None = Field(default=None, max_length=C.MAX_TEXT_CHARS)
    at: datetime | None = Field(default=None, description="answer as of this time (ISO 8601)")
    budget_tokens: int | None = Field(default=None, ge=50, le=100_000)


class TurnResponse(BaseModel):
    block: str
    memory_ids: list[str]
    belief_ids: list[str]
    map_concepts: list[str]
    dropped: bool
    record_question: bool
    window: str | None
    window_empty: bool
    tokens: int
    timings_ms: dict[str, float]


class CheckBody(Strict):
    topic: str = Field(min_length=1, max_length=C.MAX_NOTE_CHARS)
    verdict: Literal["right", "wrong"]
    evaluation: str = Field(default="", max_length=C.MAX_NOTE_CHARS)
    predicted_mastery: float | None = Field(default=None, ge=0, le=1)


class QuizBody(Strict):
    score: float = Field(ge=0)
    maximum: float = Field(gt=0)
    topics: list[str] = Field(default_factory=list, max_length=C.MAX_CONCEPTS_PER_EPISODE)


class CitationBody(Strict):
    file_id: str | None = Field(default=None, max_length=C.MAX_ID_CHARS)
    page: int | None = Field(default=None, ge=1)


class EpisodeRequest(Strict):
    kind: Literal["question", "answer", "check", "quiz", "taught"]
    text: str = Field(min_length=1, max_length=C.MAX_TEXT_CHARS)
    at: datetime | None = None
    ref: str | None = Field(default=None, max_length=C.MAX_REF_CHARS)
    concepts: list[str] = Field(default_factory=list, max_length=C.MAX_CONCEPTS_PER_EPISODE)
    check: CheckBody | None = Field(default=None, description="required for a check")
    quiz: QuizBody | None = Field(default=None, description="required for a quiz")
    citation: CitationBody | None = Field(default=None, description="an answer's cited file")
    recalled_ids: list[str] = Field(
        default_factory=list,
        max_length=C.MAX_RECALLED_IDS,
        description="an answer: the memory ids of the turn that produced it",
    )


class EpisodeResponse(BaseModel):
    id: str
    seq: int
    kind: str
    at: datetime
    summary: str
    ref: str | None
    created: bool  # false: the Idempotency-Key was used before; nothing was written
    taught: str | None = None  # a student message that taught the map: the concept's name
    belief: str | None = None  # a check that moved a belief: its line


class BeliefResponse(BaseModel):
    id: str
    concept_key: str
    concept: str
    claim: str
    confidence: float
    line: str
    evidence_ids: list[str]
    created_at: datetime
    reason: str
    needs_confirmation: bool
    superseded_by: str | None
    retired_at: datetime | None


class StanceRequest(Strict):
    stance: Literal["answered", "partial", "could_not"]


class StanceResponse(BaseModel):
    answer_id: str
    stance: str
    at: datetime


class SourceResponse(BaseModel):
    id: str
    ref: str | None
    kind: str
    at: datetime
    label: str
    summary: str


class ChainResponse(BaseModel):
    intact: bool
    episodes: int
    head_hash: str
    break_seq: int | None
    break_kind: str | None
    detail: str
    report: str


class ErrorResponse(BaseModel):
    error: str
    fields: list[dict[str, Any]] = Field(default_factory=list)
