"""Request and response bodies of the turn API (pydantic: validated on the way in, and the
source of the OpenAPI document)."""

# No ``from __future__ import annotations``: pydantic would then evaluate each field's
# annotation from its text when the class is made (~7 ms of a cold start's import). The few
# annotations naming what only type checking imports are quoted.

import re
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic import Strict as Exactly
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import (
    FILE_ID_PATTERN,
    ID_PATTERN,
    NAME_PATTERN,
    ONE_LINE_PATTERN,
    SPACE_CLASS,
    VISIBLE_PATTERN,
    check_file_id,
    has_control,
    has_visible,
)
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.profile import Statement

if TYPE_CHECKING:
    from tutor_memory.domain.beliefs import Belief
    from tutor_memory.domain.chain import ChainReport
    from tutor_memory.domain.recall import RecallResult
    from tutor_memory.ports import AppendResult
    from tutor_memory.usecases.turns import TurnResult


class Model(BaseModel):
    # Each model's validator and serializer are built on its first use, not at import (~25 ms
    # of the API handler's): a cold start builds only the models of the request it answers.
    model_config = ConfigDict(defer_build=True)


class Strict(Model):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not ignored


# --- the request's values, each refused as itself (no coercion) ------------------------------
#
# A request names its values as JSON does: a flag is true or false (never "yes" or 1), a number
# is a number (never true or "0.5"), a time is an RFC 3339 string (never a count of seconds or
# milliseconds), text shows something, and a name or an id holds no control character. Each
# refusal is a 422 naming the field, on every door (these models validate the REST body and the
# library's arguments alike); the OpenAPI document carries the same patterns and bounds.

Flag = Annotated[bool, Exactly()]


Whole = Annotated[int, Exactly()]  # bounded where used: the document states both ends


def _integral(value: Any) -> Any:
    """A whole number as JSON may write it, 7.0 (JSON Schema's integer too), read as 7; a
    field of :data:`Whole` takes it through this (a ``field_validator``, so the bounds stay
    the document's minimum and maximum)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


Number = Annotated[float, Exactly(), Field(allow_inf_nan=False)]  # an int is a number too

MAX_PAGE_NUMBER = 1_000_000  # ours: a cited page (a store keeps it as a 64-bit integer)
MAX_QUIZ_POINTS = 1_000_000  # ours: a quiz's score and maximum
MIN_QUIZ_MAXIMUM = 10**-C.FRACTION_DECIMALS  # the least maximum that is not 0 once rounded

# RFC 3339's date-time (ISO 8601's profile the document's ``format: date-time`` names), with
# seconds and a time zone: 2026-03-02T14:05:00Z, 2026-03-02T15:05:00.250+01:00. The server reads
# the shape (a number, a date alone, a time without a zone are refused as ``body.at``) and then
# the range (1970 to a day past its clock, refused as ``at``); the document's pattern says the
# years it can (1970 on), its description the rest.
_MOMENT_SHAPE = (
    r"-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)
MOMENT_PATTERN = r"^(19[7-9][0-9]|[2-9][0-9]{3})" + _MOMENT_SHAPE
_MOMENT_RE = re.compile(r"^[0-9]{4}" + _MOMENT_SHAPE)
_MOMENT_RANGE = "from 1970-01-01T00:00:00Z to a day past the server's clock"
# The turn's time, said once for every door (REST, MCP, the clients generated from them).
TURN_AT: Final = (
    "the question's time (RFC 3339): its time words are read against it and nothing recorded "
    "after it is recalled; the beliefs, the profile and the map are as they stand now. "
    f"{_MOMENT_RANGE[0].upper()}{_MOMENT_RANGE[1:]}"
)


def _moment(value: Any) -> Any:
    if isinstance(value, datetime):  # the library's (and MCP's) own datetimes
        return value
    if isinstance(value, str) and _MOMENT_RE.fullmatch(value):
        return value
    raise PydanticCustomError(
        "rfc3339_datetime",
        "must be a date-time string with seconds and a time zone, as RFC 3339 writes it "
        "(2026-03-02T14:05:00Z), not a number or a date alone",
    )


Moment = Annotated[
    datetime,
    BeforeValidator(_moment),
    Field(json_schema_extra={"pattern": MOMENT_PATTERN}),
]


def visible(value: str) -> str:
    """``value``, if it shows something (else the refusal pydantic reports as the field's)."""
    if not has_visible(value):
        raise PydanticCustomError(
            "visible_text",
            "must contain a visible character (not only spaces, controls or invisible ones)",
        )
    return value


def named(value: str) -> str:
    """``value``, if it is visible and holds no control character (a name, a client's id)."""
    visible(value)
    if has_control(value):
        raise PydanticCustomError("control_character", "must not contain control characters")
    return value


def a_file_id(value: str) -> str:
    """``value``, if it may be a file id (``check_file_id``: its name's letters and digits in
    any script, and . _ @ -), with the domain's words for a refusal."""
    try:
        return check_file_id("file_id", value)
    except ValidationError as exc:
        raise PydanticCustomError("file_id_characters", exc.problem) from None


def an_id(value: str) -> str:
    """``value``, if it is an id as the API makes them (``check_id``'s characters)."""
    if not re.fullmatch(ID_PATTERN, value):
        raise PydanticCustomError(
            "id_characters",
            "may contain only letters A-Z a-z, digits and . _ @ - (not first)",
        )
    return value


# Text that must show something (an episode's text, a taught note).
Visible = Annotated[
    str, AfterValidator(visible), Field(json_schema_extra={"pattern": VISIBLE_PATTERN})
]
# Words of a correction (a note, a message): its length first, so that a refusal counts
# characters ("at most 2000 items after validation" otherwise).
Words = Annotated[
    str,
    StringConstraints(min_length=1, max_length=C.MAX_NOTE_CHARS),
    AfterValidator(visible),
    Field(json_schema_extra={"pattern": VISIBLE_PATTERN}),
]
# A name or a client's id: visible, and no control character (a concept, a topic, a ref).
Name = Annotated[str, AfterValidator(named), Field(json_schema_extra={"pattern": NAME_PATTERN})]
# ... of at most ``n`` characters. The length goes before the check: a bound given to a field
# of ``Name | None`` or ``list[Name]`` applies after it, and pydantic then says "at most 256
# items after validation" of a string that is too long.
NameRef = Annotated[
    str,
    StringConstraints(min_length=1, max_length=C.MAX_REF_CHARS),
    AfterValidator(named),
    Field(json_schema_extra={"pattern": NAME_PATTERN}),
]
ConceptName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=C.MAX_CONCEPT_CHARS),
    AfterValidator(named),
    Field(json_schema_extra={"pattern": NAME_PATTERN}),
]
# An id as the API makes them (students, subjects, teachers, episodes): plain ASCII.
Id = Annotated[
    str,
    StringConstraints(min_length=1, max_length=C.MAX_ID_CHARS),
    AfterValidator(an_id),
    Field(json_schema_extra={"pattern": ID_PATTERN}),
]


class TurnRequest(Strict):
    question: str | None = Field(default=None, max_length=C.MAX_TEXT_CHARS)
    at: Moment | None = Field(default=None, description=TURN_AT)
    budget_tokens: Whole | None = Field(default=None, ge=50, le=100_000)

    _whole = field_validator("budget_tokens", mode="before")(_integral)


class TurnResponse(Model):
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
    # The model was there and gave no vector in time (or failed): recalled by words this turn.
    meaning_missed: bool

    @staticmethod
    def fields(result: "TurnResult") -> dict[str, Any]:
        """A turn's result as these fields (the turn and the prompt answer with them)."""
        return {
            "block": result.block,
            "memory_ids": list(result.memory_ids),
            "belief_ids": list(result.belief_ids),
            "map_concepts": list(result.map_concepts),
            "dropped": result.dropped,
            "record_question": result.record_question,
            "window": result.window,
            "window_empty": result.window_empty,
            "tokens": result.tokens,
            "timings_ms": result.timings_ms,
            "meaning_missed": result.recall is not None and result.recall.meaning_missed,
        }


class PromptRequest(TurnRequest):
    """The tutor's prompt sections; the block is placed among them (``POST …/prompt``)."""

    system: str = Field(default="", max_length=C.MAX_PROMPT_SECTION_CHARS)
    material: str = Field(default="", max_length=C.MAX_PROMPT_SECTION_CHARS)
    assessment: str | None = Field(
        default=None,
        max_length=C.MAX_PROMPT_SECTION_CHARS,
        description="a legacy assessment-results section, if the prompt has one",
    )


class PromptSection(Model):
    title: str
    text: str


class PromptResponse(TurnResponse):
    prompt: str
    sections: list[PromptSection]


class RederiveRequest(Strict):
    """An operator's re-derivation of a pair's beliefs under today's rules."""

    reason: str = Field(
        default="",
        max_length=C.MAX_NOTE_CHARS,
        description="why, for the caller's own records: not logged (logs hold no one's words)",
    )
    force: Flag = Field(default=False, description="re-derive even when nothing would change")
    at: Moment | None = Field(
        default=None, description=f"retire as of this time (RFC 3339), {_MOMENT_RANGE}"
    )


class RederiveResponse(Model):
    retired: int
    created: int
    generation: int
    changed: bool


class FileResponse(Model):
    file_id: str
    name: str
    versions: int
    removed_at: datetime | None


def _kind_of_evidence(kind: str) -> Any:
    """The evidence's ``kind``: the episode's, which it may leave out (the discriminator)."""
    return Field(
        default=kind,
        exclude=True,  # the episode says it; a dump (and the request's hash) leaves it out
        description=f"the episode's kind, {kind}: may be left out; if given, it must match",
    )


class CheckBody(Strict):
    """A check's evidence."""

    kind: Literal["check"] = _kind_of_evidence("check")
    topic: Name = Field(min_length=1, max_length=C.MAX_NOTE_CHARS)
    verdict: Literal["right", "wrong"]
    evaluation: str = Field(default="", max_length=C.MAX_NOTE_CHARS)
    predicted_mastery: Number | None = Field(default=None, ge=0, le=1)


class QuizBody(Strict):
    """A quiz's evidence."""

    kind: Literal["quiz"] = _kind_of_evidence("quiz")
    score: Number = Field(ge=0, le=MAX_QUIZ_POINTS, description="at most the maximum (else 422)")
    maximum: Number = Field(
        ge=MIN_QUIZ_MAXIMUM,
        le=MAX_QUIZ_POINTS,
        description=f"more than 0: at least {MIN_QUIZ_MAXIMUM} (points are kept to "
        f"{C.FRACTION_DECIMALS} decimals)",
    )
    topics: list[ConceptName] = Field(default_factory=list, max_length=C.MAX_CONCEPTS_PER_EPISODE)


def _page_needs_its_file(schema: dict[str, Any]) -> None:
    """A page is of a file: given (not null), the file is too (as the domain refuses)."""
    schema["if"] = {"required": ["page"], "properties": {"page": {"type": "integer"}}}
    schema["then"] = {"required": ["file_id"], "properties": {"file_id": {"type": "string"}}}


class CitationBody(Strict):
    """An answer's evidence: the file (and page) it cited."""

    model_config = ConfigDict(json_schema_extra=_page_needs_its_file)

    kind: Literal["answer"] = _kind_of_evidence("answer")
    file_id: str | None = Field(
        default=None,
        max_length=C.MAX_ID_CHARS,
        json_schema_extra={"pattern": FILE_ID_PATTERN},
        description="a file id (its name's letters and digits, any script, and . _ @ -)",
    )
    page: Whole | None = Field(default=None, ge=1, le=MAX_PAGE_NUMBER)

    _whole = field_validator("page", mode="before")(_integral)


class TaughtBody(Strict):
    """A taught message's evidence: what it asks to remember."""

    kind: Literal["taught"] = _kind_of_evidence("taught")
    note: Visible = Field(min_length=1, max_length=C.MAX_NOTE_CHARS)


class QuestionBody(Strict):
    """A question's evidence: none (leave it out, or an empty object)."""

    kind: Literal["question"] = _kind_of_evidence("question")


# One shape per kind, chosen by the episode's kind: a refusal names only the fields of the
# kind sent (a check without its verdict: ``evidence.verdict: Field required``).
Evidence = Annotated[
    CheckBody | QuizBody | CitationBody | TaughtBody | QuestionBody,
    Field(discriminator="kind"),
]

EVIDENCE_ALIASES = ("check", "quiz", "citation")


def _one_shape_per_kind(schema: dict[str, Any]) -> None:
    """The document's EpisodeRequest says what each kind takes, as the server refuses it: a
    check's and a quiz's evidence is required (as ``evidence`` or under its earlier name, once);
    an earlier name is its own kind's only; only an answer carries recalled ids. ``evidence`` is
    any kind's body (or null), narrowed by the episode's kind (``if``/``then``, which typed
    clients read as the plain union)."""
    props = schema["properties"]
    tagged = props["evidence"]["anyOf"][0]  # the union of every kind's evidence, by its tag
    body = {kind: {"$ref": ref} for kind, ref in tagged["discriminator"]["mapping"].items()}
    null: dict[str, Any] = {"type": "null"}
    props["evidence"] = {
        "description": props["evidence"]["description"],
        "anyOf": [*body.values(), null],
    }
    rules: list[dict[str, Any]] = []
    for kind in ("question", "answer", "check", "quiz", "taught"):
        alias = {"check": "check", "quiz": "quiz", "answer": "citation"}.get(kind)
        then: dict[str, Any] = {
            "properties": {name: null for name in EVIDENCE_ALIASES if name != alias}
        }
        if kind != "answer":
            then["properties"]["recalled_ids"] = {"type": "array", "maxItems": 0}
        if alias is None:  # evidence only, and none needed
            then["properties"]["evidence"] = {"anyOf": [body[kind], null]}
        else:  # as evidence or under its earlier name, not both
            then["anyOf"] = [
                {"required": ["evidence"], "properties": {"evidence": body[kind], alias: null}},
                {"required": [alias], "properties": {alias: body[kind], "evidence": null}},
            ]
            if kind == "answer":  # an answer may cite nothing
                then["anyOf"].append({"properties": {"evidence": null, alias: null}})
        rules.append({"if": {"required": ["kind"], "properties": {"kind": {"const": kind}}},
                      "then": then})  # fmt: skip
    schema["allOf"] = rules


class EpisodeRequest(Strict):
    """One episode, in the shape a replayed history uses (``evidence`` follows the kind).
    ``check``, ``quiz`` and ``citation`` are the earlier names of ``evidence`` for those
    kinds, still accepted; give the evidence once."""

    model_config = ConfigDict(json_schema_extra=_one_shape_per_kind)

    kind: Literal["question", "answer", "check", "quiz", "taught"]
    text: Visible = Field(min_length=1, max_length=C.MAX_TEXT_CHARS)
    at: Moment | None = Field(
        default=None, description=f"when it happened (RFC 3339), {_MOMENT_RANGE}; default: now"
    )
    ref: NameRef | None = Field(default=None, description="your own id for it")
    summary: str = Field(
        default="",
        max_length=C.MAX_SUMMARY_CHARS,
        description="one line (default: the text's)",
        json_schema_extra={"pattern": ONE_LINE_PATTERN},
    )
    concepts: list[ConceptName] = Field(default_factory=list, max_length=C.MAX_CONCEPTS_PER_EPISODE)
    salience: Number | None = Field(default=None, ge=0, le=1, description="default: the kind's")
    evidence: Evidence | None = Field(
        default=None,
        description=(
            "follows the kind (its own kind may be left out) — check: topic, verdict "
            "(required), evaluation, predicted_mastery; quiz: score, maximum (required), "
            "topics; answer: file_id, page; taught: note (a message that is no instruction "
            "is kept with it; without one, the text must itself teach, as 'remember that …' "
            "does, else a 422 not-teaching); question: none"
        ),
    )
    check: CheckBody | None = Field(default=None, description="alias of evidence, for a check")
    quiz: QuizBody | None = Field(default=None, description="alias of evidence, for a quiz")
    citation: CitationBody | None = Field(
        default=None, description="alias of evidence, for an answer's cited file"
    )
    recalled_ids: list[Id] = Field(
        default_factory=list,
        max_length=C.MAX_RECALLED_IDS,
        description="an answer: the memory ids of the turn that produced it, each an episode "
        "of this pair (else a 422 naming recalled_ids)",
    )

    @field_validator("evidence", mode="wrap")
    @classmethod
    def _evidence_of_the_kind(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        """The evidence validated as the episode's kind's, whose ``kind`` it may leave out."""
        kind = info.data.get("kind")
        if kind is None or value is None:  # a refused kind says nothing of its evidence
            return None
        given = value.get("kind", kind) if isinstance(value, dict) else getattr(value, "kind", kind)
        if given != kind:
            raise _refused(
                ("kind",),
                PydanticCustomError(
                    "evidence_kind",
                    "is {given} evidence, and a {kind} takes the evidence of a {kind}",
                    {"given": given, "kind": kind},
                ),
                value,
            )
        try:
            return handler({**value, "kind": kind} if isinstance(value, dict) else value)
        except PydanticValidationError as exc:  # the union's tag out of the fields' places
            raise PydanticValidationError.from_exception_data(
                exc.title,
                [_untagged(error, kind) for error in exc.errors()],
            ) from None

    @model_validator(mode="after")
    def _evidence_once(self) -> "EpisodeRequest":
        given = [name for name in ("evidence", *EVIDENCE_ALIASES) if getattr(self, name)]
        if len(given) > 1:
            raise ValueError(f"give the evidence once, not as both {given[0]} and {given[1]}")
        return self

    def given_evidence(self) -> dict[str, Any] | None:
        """The evidence as plain data, under whichever name it came."""
        body = self.evidence or self.check or self.quiz or self.citation
        return None if body is None else body.model_dump(exclude_none=True)


def _refused(loc: tuple[str, ...], error: PydanticCustomError, value: Any) -> Exception:
    return PydanticValidationError.from_exception_data(
        "evidence", [InitErrorDetails(type=error, loc=loc, input=value)]
    )


_PYDANTIC_ERRORS = frozenset(get_args(ErrorType))


def _untagged(error: ErrorDetails, tag: str) -> InitErrorDetails:
    """A tagged union's error at the field's own place (``verdict``, not ``check.verdict``)."""
    loc = error["loc"][1:] if error["loc"][:1] == (tag,) else error["loc"]
    if error["type"] not in _PYDANTIC_ERRORS:  # ours (``visible_text``…): its words as they were
        words = PydanticCustomError(error["type"], "{words}", {"words": error["msg"]})
        return InitErrorDetails(type=words, loc=loc, input=error["input"])
    details = InitErrorDetails(type=error["type"], loc=loc, input=error["input"])
    if "ctx" in error:
        details["ctx"] = error["ctx"]
    return details


class EpisodeResponse(Model):
    id: str
    seq: int
    kind: str
    at: datetime
    summary: str
    ref: str | None
    created: bool  # false: the Idempotency-Key was used before; nothing was written
    taught: str | None = None  # a student message that taught the map: the concept's name
    belief: str | None = None  # a check that moved a belief: its line

    @classmethod
    def of(
        cls, result: "AppendResult", taught: str | None = None, belief: str | None = None
    ) -> "EpisodeResponse":
        ep = result.episode
        return cls(
            id=ep.episode_id,
            seq=ep.seq,
            kind=ep.kind.value,
            at=ep.at,
            summary=ep.summary,
            ref=ep.ref,
            created=result.created,
            taught=taught,
            belief=belief,
        )


class BeliefResponse(Model):
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

    @classmethod
    def of(cls, b: "Belief") -> "BeliefResponse":
        return cls(
            id=b.belief_id,
            concept_key=b.concept_key,
            concept=b.concept_name,
            claim=b.claim.value,
            confidence=b.confidence,
            line=b.line(),
            evidence_ids=list(b.evidence_ids),
            created_at=b.created_at,
            reason=b.reason,
            needs_confirmation=b.needs_confirmation,
            superseded_by=b.superseded_by,
            retired_at=b.retired_at,
        )


def _value_follows_field(schema: dict[str, Any]) -> None:
    """A correction's value is of its field's type (as the domain refuses): a verdict right or
    wrong, a score a number >= 0, a note or a text words."""

    def when(fields: list[str], value: dict[str, Any]) -> dict[str, Any]:
        return {"if": {"required": ["field"], "properties": {"field": {"enum": fields}}},
                "then": {"properties": {"value": value}}}  # fmt: skip

    schema["allOf"] = [
        when(["verdict"], {"type": "string", "enum": ["right", "wrong"]}),
        when(["score"], {"type": "number", "minimum": 0}),
        when(["note", "text"], {"type": "string"}),
    ]


def _words_or_number(value: Any) -> Any:
    """``value``, if it is a string or a number (not a flag, a list or null)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PydanticCustomError(
            "words_or_number", "must be the corrected words (a string) or a number"
        )
    return value


def _as_given(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """Refused as what was given, at ``value`` itself: words as words, a number as a
    number (pydantic named each member of the union, "value.function-after[…]")."""
    words = isinstance(_words_or_number(value), str)
    try:
        return handler(value)
    except PydanticValidationError as exc:
        errors = [
            _untagged(error, str(error["loc"][0]))
            for error in exc.errors()
            if error["loc"] and (str(error["loc"][0]) in ("float", "int")) != words
        ]
        raise PydanticValidationError.from_exception_data(exc.title, errors) from None


# A correction's value: words, or a number.
CorrectionValue = Annotated[Words | Number, WrapValidator(_as_given)]
# ... as the MCP tool takes it: of the right type (the library then judges it as the API does,
# in its words: the tool's own argument check would answer in pydantic's format)
CorrectionArgument = Annotated[str | float, BeforeValidator(_words_or_number)]


class CorrectionRequest(Strict):
    """A correction of an earlier episode (issue 30): the field that was wrong and its value.
    A check's ``verdict`` (right, wrong), a quiz's ``score``, a taught note's ``note``, a
    student's message's ``text``; ``reason`` says why, and is the correction's own text."""

    model_config = ConfigDict(json_schema_extra=_value_follows_field)

    field: Literal["verdict", "score", "note", "text"]
    value: CorrectionValue = Field(
        description="the corrected value: right or wrong, a number, or the corrected words"
    )
    reason: Visible = Field(min_length=1, max_length=C.MAX_NOTE_CHARS, description="why")
    at: Moment | None = Field(
        default=None, description=f"when it was corrected (RFC 3339), {_MOMENT_RANGE}; default: now"
    )


class StanceRequest(Strict):
    stance: Literal["answered", "partial", "could_not"]


class StanceResponse(Model):
    answer_id: str
    stance: str
    at: datetime


class SourceResponse(Model):
    id: str
    ref: str | None
    kind: str
    at: datetime
    label: str
    summary: str


class ChainResponse(Model):
    intact: bool
    episodes: int
    head_hash: str
    break_seq: int | None
    break_kind: str | None
    detail: str
    report: str
    erased: int = 0  # episodes whose body was erased (their envelopes checked)
    # an erasure a worker is carrying out now: the bodies still to be erased (those its entries
    # name, and those a shredded key no longer opens)
    erasing: int = 0

    @classmethod
    def of(cls, report: "ChainReport") -> "ChainResponse":
        """The chain's report as every door answers it (REST, the library, the CLI's JSON)."""
        return cls(
            intact=report.intact,
            episodes=report.episodes,
            head_hash=report.head_hash,
            break_seq=report.break_seq,
            break_kind=report.break_kind,
            detail=report.detail,
            report=str(report),
            erased=report.erased,
            erasing=report.pending,
        )


class RecallWindow(Model):
    label: str
    start: datetime | None
    end: datetime | None
    empty: bool  # the question named a time and nothing is recorded inside it


class RecalledEpisode(Model):
    id: str
    ref: str | None = None
    kind: str
    at: datetime
    summary: str
    score: float
    pools: list[str]
    count: int  # how many identical episodes this one stands for (itself included)
    first_at: datetime
    last_at: datetime
    collapsed_ids: list[str]


class RecallResponse(Model):
    """What recall finds for a question, before the block's budget cuts it, and why (the
    inspector's question form shows it): the same on every door."""

    question: str
    mode: str
    gate: str
    terms: list[str]
    concepts: list[str]
    window: RecallWindow | None
    pool_sizes: dict[str, int]
    candidates_found: int
    kept: int
    collapsed: int
    items: list[RecalledEpisode]

    @classmethod
    def of(cls, question: str, result: "RecallResult") -> "RecallResponse":
        """``usecases.inspector.why_recalled``'s explanation, each item with its ``ref``."""
        from tutor_memory.usecases.inspector import why_recalled

        shown = why_recalled(question, result)
        for item, found in zip(shown["items"], result.items, strict=True):
            item["ref"] = found.episode.ref
        return cls.model_validate(shown)


class ErasureResponse(Model):
    """What an erasure request erased now (nothing on a retry: erasure is idempotent)."""

    scope: str
    reason: str
    at: datetime
    erased: dict[str, list[int]]  # pair → sequences whose body was erased
    derived: dict[str, list[int]]  # pair → summaries erased because they quoted them
    episodes_erased: int
    objects_deleted: int
    # false (answered 202): the request's time ran out and a worker goes on erasing `pending`
    finished: bool = True
    pending: list[str] = []  # the pairs ("student/subject") a worker still erases


class NightPairResponse(Model):
    """What one pair's night did (``status``: done, quiet, already done, erasing)."""

    student_id: str
    subject_id: str
    day: str
    status: str
    consolidation_id: str | None  # the day's summary episode, when the night wrote one
    decayed: list[str]  # concepts whose belief decayed this night
    through_seq: int  # the calibration tally covers the log up to here
    verified: dict[str, int]  # the tutor's cited answers checked tonight, by result


class NightFailureResponse(Model):
    student_id: str
    subject_id: str
    error: str


class NightResponse(Model):
    """A night run in this process (the library's ``nightly``, the CLI's): each pair's night
    of ``day``, the pairs whose night failed (the others ran), the retention period's
    erasures, and the documents an index purge still holds (null: none was due)."""

    day: str
    timezone: str
    pairs: list[NightPairResponse]
    failures: list[NightFailureResponse]
    retention: list[ErasureResponse]
    purge_held: int | None


# A statement's words as the profile keeps them (domain/profile.py's check_statement): runs of
# spaces collapse to one (the controls that are spaces, a tab or a line break, with them), a
# control below U+0020 that is left is refused, and a value must not collapse to nothing.
_PROFILE_CONTROLS = r"\x00-\x08\x0e-\x1b"
PROFILE_KEY_PATTERN = f"^[^{_PROFILE_CONTROLS}]*$"
PROFILE_VALUE_PATTERN = (
    f"^[^{_PROFILE_CONTROLS}]*[^{SPACE_CLASS}{_PROFILE_CONTROLS}][^{_PROFILE_CONTROLS}]*$"
)


class ProfileRequest(Strict):
    """A statement about the student: it supersedes what was said before on its aspect (and
    key). Who said it is the caller's role."""

    value: str = Field(
        min_length=1,
        max_length=C.MAX_PROFILE_VALUE_CHARS,
        description="the statement, as a tutor should read it; for the name aspect the name, "
        f"at most {C.MAX_NAME_WORDS} words each with a letter (else a 422 naming value: the "
        "aspect is the path's)",
        json_schema_extra={"pattern": PROFILE_VALUE_PATTERN},
    )
    key: str = Field(
        default="",
        max_length=C.MAX_PROFILE_KEY_CHARS,
        description="which one of the aspect: a need's word, a goal's name ('' for one only; a "
        "name has none: a 422 naming key)",
        json_schema_extra={"pattern": PROFILE_KEY_PATTERN},
    )
    due: date | None = Field(
        default=None,
        description="a goal's date (YYYY-MM-DD); a statement of another aspect with one is a "
        "422 naming due (the aspect is the path's)",
    )


class StatementResponse(Model):
    seq: int
    aspect: str
    key: str
    value: str  # "" : a retraction
    said_by: str
    at: datetime
    due: date | None
    source: str | None
    line: str  # as the block shows it
    # When the episode it was heard in was erased: its key, value and date are gone
    erased_at: datetime | None = None

    @classmethod
    def of(cls, s: Statement, now: datetime) -> "StatementResponse":
        from tutor_memory.domain.profile import line

        return cls(
            seq=s.seq, aspect=s.aspect.value, key=s.key, value=s.value,
            said_by=s.said_by.value, at=s.at, due=s.due, source=s.source,
            line=line(s, now=now) if s.value else "", erased_at=s.erased_at,
        )  # fmt: skip


class ProfileResponse(Model):
    """What holds about the student in every subject (``current``), and everything said."""

    student_id: str
    current: list[StatementResponse]
    history: list[StatementResponse]
    intact: bool  # the profile's hash chain verifies
    # "intact: N statements", or where it stops verifying ("statement 2: its words changed")
    report: str


class ClassRequest(Strict):
    """A class's roster: who teaches it and who is enrolled (ids as the API's)."""

    teachers: list[Id] = Field(default_factory=list, max_length=C.MAX_CLASS_MEMBERS)
    students: list[Id] = Field(default_factory=list, max_length=C.MAX_CLASS_MEMBERS)


class ClassResponse(Model):
    tenant: str
    class_id: str
    teachers: list[str]
    students: list[str]


# A class's file in a JSON body (base64): at most this many bytes, so that the body stays under
# the local server's limit (1,000,000 bytes; API Gateway's is larger). A larger file goes to the
# uploads bucket (uploads/<tenant>/classes/<class>/<subject>/<file>) or the CLI.
MAX_CLASS_FILE_BYTES = 700_000
# Padded base64 exactly as base64.b64decode(validate=True) takes it: whole quads, the last padded.
BASE64_PATTERN = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


class ClassFileRequest(Strict):
    """A file for a class's course map: read once into the course map of the class's subject,
    then folded into the map of every student of the class."""

    name: Name = Field(
        min_length=1,
        max_length=240,
        description="the file's name, with its extension (how it is read: PDF, DOCX, Markdown "
        "or text)",
    )
    content: str = Field(
        min_length=4,
        max_length=-(-MAX_CLASS_FILE_BYTES // 3) * 4,
        description=f"the file's bytes, base64 (RFC 4648, padded): at most "
        f"{MAX_CLASS_FILE_BYTES:,} bytes; a larger file goes through the uploads bucket",
        json_schema_extra={"pattern": BASE64_PATTERN},
    )


class RejectedConcept(Model):
    name: str
    reason: str


class ClassFileResponse(Model):
    """What reading a class's file did: the concepts it put on the course map (none when the
    same bytes were read before) and how many students' maps took the new version."""

    class_id: str
    subject_id: str
    file_id: str
    already_read: bool  # the same bytes were read for the class before: nothing was extracted
    concepts: list[str]
    rejected: list[RejectedConcept]
    course_version: int
    students_updated: int


class EpisodePage(Model):
    """A page of a pair's episodes, oldest first, each as the export writes it (the replay
    format; an erased episode is its envelope and erasure record). Pass ``next`` back as the
    ``next`` query parameter for the following page; it is null after the last."""

    episodes: list[dict[str, Any]]
    next: str | None


class BeliefPage(Model):
    """A page of the history of the belief about one concept, oldest first (each row's
    ``reason`` says what changed). Pass ``next`` back as the ``next`` query parameter for the
    following page; it is null after the last."""

    beliefs: list[BeliefResponse]
    next: str | None


class ExportResponse(Model):
    """A page of a pair's or a student's export (see ``tutor_memory.usecases.export``): write
    every page's ``history`` one object per line into ``history.jsonl``, each of ``files``
    (base64) at its path beside it and the first page's ``manifest`` as ``manifest.json``, and
    ``tutor-memory replay`` reads the folder (``Memory.remote(…).export(out=…)`` does exactly
    that). A page holds at most ``limit`` lines, and stops early rather than pass about 2.5 MB
    (a Lambda answers at most 6 MB); pass ``next`` back for the following page, null after the
    last. Every page's lines in order are the whole history, of the pairs and heads the first
    page's manifest names. An erased episode is its envelope and erasure record only
    (``erased``), never its body."""

    manifest: dict[str, Any] | None = Field(
        description="the first page's only (null on the later pages): format, exported_at, per "
        "pair its head, erasures, counts and file registry"
    )
    history: list[dict[str, Any]]  # the replay format's lines, every pair in sequence order
    files: dict[str, str]  # path in the export → the bytes of a version this page's lines name
    next: str | None


# --- the report (SPEC §11; built by tutor_memory.usecases.reports.report_json) --------------------


class Exact(Model):
    model_config = ConfigDict(extra="forbid")  # the report's shape and this model never drift


class ReportPair(Exact):
    student_id: str
    subject_id: str


class ReportEpisodes(Exact):
    total: int = Field(description="the chain head's sequence number: the report covers these")
    last_at: datetime | None
    by_kind: dict[str, int]


class ReportHistory(Exact):
    concept_key: str
    rows: list[BeliefResponse] = Field(description="every row about the concept, oldest first")


class ReportChecks(Exact):
    recorded: int
    right: int
    wrong: int
    tied: int = Field(description="tied to a concept when written")
    on_map: int = Field(description="of those, tied to a concept on the current map")
    line: str


class ReportUnanswered(Exact):
    answer_id: str
    answered_at: datetime
    answer: str
    stance_at: datetime
    question_id: str | None = Field(description="the latest question before the answer")
    question: str | None
    asked_at: datetime | None


class ReportAnswers(Exact):
    total: int
    stances: dict[str, int] = Field(description="answered, partial, could_not, none")
    could_not: list[ReportUnanswered]
    line: str


class ReportBucket(Exact):
    low: float
    high: float
    count: int
    mean_predicted: float
    observed: float


class ReportCalibration(Exact):
    predictions: int = Field(description="checks that carry the mastery predicted before them")
    without_prediction: int
    calibrated: bool = Field(description="at least five predictions: says nothing about quality")
    ece: float | None = Field(description="expected calibration error; null without predictions")
    limit: str | None
    buckets: list[ReportBucket]


class ReportChanged(Exact):
    episode_id: str
    result: str
    checked_at: datetime
    summary: str
    detail: str


class ReportVerification(Exact):
    verified: int
    results: dict[str, int] = Field(
        description="holds, changed_replaced, changed_removed, unverifiable"
    )
    citing_a_file: int
    citing_unverified: int
    last_checked_at: datetime | None
    changed: list[ReportChanged]
    lines: list[str]


class ReportSubject(Exact):
    concepts: int
    readiness: float = Field(description="about the material, not the student")
    percent: int
    about: str
    bands: dict[str, int] = Field(description="concepts per readiness band")
    teaching_order: list[list[str]] = Field(description="layers of names, prerequisites first")
    line: str


class ReportErasureRequest(Exact):
    at: datetime = Field(description="when the first of its records was written")
    reason: str
    requested_by: str
    scope: str = Field(description="episode, pair, student, retention or derived")
    seqs: list[int] = Field(description="the erased episodes' sequence numbers")


class ReportErasures(Exact):
    erased: int = Field(description="episodes whose body was erased (envelopes kept)")
    requests: list[ReportErasureRequest]
    line: str


class ReportCorrection(Exact):
    at: datetime = Field(description="when the correction was recorded")
    episode_id: str = Field(description="the correction's own episode")
    corrects: str = Field(description="the episode it corrects")
    kind: str = Field(description="the corrected episode's kind")
    field: str = Field(description="verdict, score, note or text")
    was: str | float | None = Field(description="the verdict or score it replaced")
    value: str | float = Field(description="the corrected value")
    by: str = Field(description="who corrected it: student, teacher or service")
    reason: str
    line: str


class ReportResponse(Exact):
    pair: ReportPair
    generated_at: datetime
    episodes: ReportEpisodes
    beliefs: list[BeliefResponse]
    history: ReportHistory | None
    checks: ReportChecks
    answers: ReportAnswers
    calibration: ReportCalibration
    verification: ReportVerification
    subject: ReportSubject
    erasures: ReportErasures
    corrections: list[ReportCorrection] = Field(default_factory=list)


class ProblemResponse(Model):
    """Every error, on every route (RFC 9457 problem details, ``application/problem+json``)."""

    type: str = Field(description="urn:tutor-memory:problem:<kind of problem>")
    title: str = Field(description="the HTTP status's phrase")
    status: int
    detail: str = Field(description="what went wrong, in words a person can act on")
    instance: str = Field(description="the request's path")
    correlation_id: str = Field(description="the request id the server logged the error under")
    error: str = Field(description="the detail again (the body's field before RFC 9457)")
    fields: list[dict[str, Any]] = Field(
        default_factory=list, description="a 422: each field that was refused and why"
    )
