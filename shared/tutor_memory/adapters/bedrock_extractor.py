"""The cloud extractor: one file → a bounded list of concept drafts, through Bedrock Converse.

One ``converse`` call per file (SPEC §4: "read once by one model pass"). The model is made to
answer through a tool, ``record_concepts``, whose JSON schema is the shape of a draft list, and
``toolChoice`` forces that tool, so the answer is data, never prose to scrape. Forcing one named
tool is supported by Anthropic Claude 3+ and Amazon Nova models on Bedrock; other models reject
the request with a ValidationException, which is translated below.

The answer is parsed defensively and reported, not trusted: items without a name or of the
wrong shape are dropped, fields of the wrong type are emptied, page numbers the file does not
have are removed, and items beyond the bound are cut. What the parser changed is listed in
:attr:`Extraction.problems` and logged. Judging *what* is a concept (headings, furniture, name
length, builds-on outside the list) is the validator's job, not this adapter's (ARCHITECTURE
rule 3: adapters translate, never decide).

Long files are cut at page boundaries to ``max_input_chars``, with a log line saying which pages
were left out; only a single first page longer than the whole budget is cut inside, and that
is logged too.

The client is built on first use, never at import or construction (rule 4). ``ClientError`` and
transport errors become :class:`ExtractorError`, naming the model and the problem.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, cast

from botocore.exceptions import BotoCoreError, ClientError

from tutor_memory.adapters.bedrock_client import LazyBedrockClient
from tutor_memory.adapters.bedrock_errors import BedrockErrors
from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptDraft
from tutor_memory.domain.errors import ExtractorError
from tutor_memory.domain.filetext import FileText
from tutor_memory.domain.languages import LANGUAGES

__all__ = [
    "DEFAULT_MAX_INPUT_CHARS",
    "TOOL_NAME",
    "BedrockExtractor",
    "Extraction",
    "concept_tool_schema",
    "system_prompt",
]

log = logging.getLogger(__name__)

TOOL_NAME: Final = "record_concepts"

# ours: ~30-60k tokens of text depending on script (Arabic and Urdu take more tokens per
# character than English), well inside the 200k-token window of the Claude models that support
# a forced tool, and a bounded cost per upload. Everything past it is left out at a page
# boundary and logged.
DEFAULT_MAX_INPUT_CHARS: Final = 120_000
# ours: 40 concepts of ~80 tokens each fit, with room for the JSON around them. 4,096 is the
# ceiling of the smallest model we expect (Claude 3 Haiku).
DEFAULT_MAX_OUTPUT_TOKENS: Final = 4_096
# ours: reading a file is off the chat path (an S3 event), so it may wait for a long answer; a
# forced tool answer of a few thousand tokens can take a minute on a slow model.
DEFAULT_READ_TIMEOUT_S: Final = 180.0
DEFAULT_CONNECT_TIMEOUT_S: Final = 5.0
DEFAULT_MAX_ATTEMPTS: Final = 3

# Bedrock's errors as ExtractorError, with what a code means for a forced-tool Converse call.
_ERRORS: Final = BedrockErrors(
    ExtractorError,
    quota="tokens-per-minute",
    hints={
        "ValidationException": (
            "rejected the request (a model without forced tool use, or a file over the "
            "model's context window, are common causes)"
        ),
        "ModelNotReadyException": "the model is not ready yet; retry in a little while",
    },
    # the model failed while processing this one request; a second attempt may succeed
    also_retryable=frozenset({"ModelErrorException"}),
)


@dataclass(frozen=True)
class Extraction:
    """What one file gave: the drafts, and everything the parser or the cut changed."""

    drafts: tuple[ConceptDraft, ...]
    problems: tuple[str, ...] = ()  # one plain sentence each, for logs and the upload report
    pages_sent: tuple[int, ...] = ()
    pages_left_out: tuple[int, ...] = ()  # cut to fit max_input_chars
    stop_reason: str = ""


class _BedrockRuntime(Protocol):
    """The one call we make (boto3's client is untyped here: no bedrock-runtime stubs)."""

    def converse(self, **kwargs: Any) -> dict[str, Any]: ...


def concept_tool_schema(max_concepts: int) -> dict[str, Any]:
    """The JSON schema of the tool's input: an object holding the bounded list of concepts.

    The top level is an object because Converse tools take an object as input."""
    return {
        "type": "object",
        "properties": {
            "concepts": {
                "type": "array",
                "maxItems": max_concepts,
                "description": "The subject's concepts this file explains, most important first.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {
                            "type": "string",
                            "description": (
                                f"The concept's name: a few words (at most "
                                f"{C.MAX_CONCEPT_NAME_WORDS}), in the file's language."
                            ),
                        },
                        "gist": {
                            "type": "string",
                            "description": "One sentence: what it is or does.",
                        },
                        "definition": {
                            "type": "string",
                            "description": "A short definition, at most 25 words.",
                        },
                        "builds_on": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": (
                                "Names of concepts from this same list that it needs first, "
                                "spelled exactly as in the list."
                            ),
                        },
                        "pages": {
                            "type": "array",
                            "items": {"type": "integer"},
                            "description": "The page numbers where the file explains it.",
                        },
                        "aliases": {
                            "type": "object",
                            "properties": {lang: {"type": "string"} for lang in ALIAS_LANGUAGES},
                            "description": (
                                "The concept's usual name in each of these languages (en, es, "
                                "id, ur, ar) where you know it; the same concept in a file in "
                                "another language is merged with it by these names."
                            ),
                        },
                    },
                    "required": ["name", "gist", "definition", "builds_on", "pages"],
                },
            }
        },
        "required": ["concepts"],
    }


ALIAS_LANGUAGES = tuple(LANGUAGES)  # the languages the project works in


def system_prompt(max_concepts: int) -> str:
    """What the model is told; the validator enforces what a prompt cannot."""
    return (
        "You read one study file and record the concepts of its subject by calling the "
        f"{TOOL_NAME} tool exactly once.\n"
        "- A concept is an idea of the subject (for example osmosis, cell membrane, "
        "photosynthesis), never the document's furniture: not section or chapter headings "
        "(Introduction, Summary, Chapter 3, Common misconceptions, Exercises, Learning "
        "objectives), not figures, tables, references or the title.\n"
        f"- name: short, a few words (at most {C.MAX_CONCEPT_NAME_WORDS}), in the language "
        "of the file, as the file writes it; no numbering.\n"
        "- gist: one sentence. definition: short, at most 25 words.\n"
        "- builds_on: only names from your own list, spelled exactly as there; empty if none.\n"
        '- pages: the numbers of the <page number="N"> blocks where the file explains it.\n'
        "- aliases: the concept's usual name in en, es, id, ur and ar where you know it.\n"
        f"- At most {max_concepts} concepts, each once; if the file has more, keep the ones "
        "most needed to understand the subject."
    )


class BedrockExtractor:
    """The :class:`~tutor_memory.ports.Extractor` of the cloud deployment.

    Pass ``client`` to reuse one (tests pass a stubbed one); otherwise one is built on the first
    extraction, in ``region``.
    """

    def __init__(
        self,
        *,
        region: str,
        model_id: str,
        client: Any | None = None,
        max_concepts: int = C.MAX_CONCEPTS_PER_FILE,
        max_input_chars: int = DEFAULT_MAX_INPUT_CHARS,
        max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
    ) -> None:
        if max_concepts < 1:
            raise ValueError(f"max_concepts must be at least 1, not {max_concepts}")
        if max_input_chars < 1:
            raise ValueError(f"max_input_chars must be at least 1, not {max_input_chars}")
        self.region = region
        self.model_id = model_id
        self.max_concepts = max_concepts
        self.max_input_chars = max_input_chars
        self.max_output_tokens = max_output_tokens
        self._runtime = LazyBedrockClient(
            region,
            client,
            max_attempts=max_attempts,
            connect_timeout_s=connect_timeout_s,
            read_timeout_s=read_timeout_s,
        )

    # --- the port ------------------------------------------------------------------------------

    def extract(self, name: str, text: FileText) -> list[ConceptDraft]:
        """The file's concept drafts (what was dropped or cut is logged; see ``read``)."""
        return list(self.read(name, [(p.number, p.text) for p in text.pages]).drafts)

    def read(self, name: str, pages: Sequence[tuple[int, str]]) -> Extraction:
        """The drafts with a report of what was dropped, cut or left out."""
        document, sent, left_out, problems = self._document(name, pages)
        if not sent:
            problem = f"{name!r} has no text; no call was made"
            log.warning("concept extraction: a file has no text; no call was made")
            return Extraction(drafts=(), problems=(problem,))
        response = self._converse(document)
        stop_reason = str(response.get("stopReason", ""))
        concepts = self._tool_input(response, stop_reason)
        drafts, parse_problems = self._parse(concepts, frozenset(sent))
        problems.extend(parse_problems)
        if stop_reason == "max_tokens":
            problems.append(
                f"the answer reached maxTokens ({self.max_output_tokens}); concepts after the "
                "last one received are missing"
            )
        for problem in problems:  # the file's name is the uploader's words: not logged
            log.warning("concept extraction by %s: %s", self.model_id, problem)
        return Extraction(
            drafts=tuple(drafts),
            problems=tuple(problems),
            pages_sent=tuple(sent),
            pages_left_out=tuple(left_out),
            stop_reason=stop_reason,
        )

    # --- the request ---------------------------------------------------------------------------

    def request(self, document: str) -> dict[str, Any]:
        """The Converse parameters for one file's rendered text (public for tests and docs)."""
        return {
            "modelId": self.model_id,
            "system": [{"text": system_prompt(self.max_concepts)}],
            "messages": [{"role": "user", "content": [{"text": document}]}],
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": TOOL_NAME,
                            "description": "Record the concepts of the subject this file explains.",
                            "inputSchema": {"json": concept_tool_schema(self.max_concepts)},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": TOOL_NAME}},
            },
            # Deterministic as far as the model allows: the same file should give the same map.
            "inferenceConfig": {"maxTokens": self.max_output_tokens, "temperature": 0.0},
        }

    def _document(
        self, name: str, pages: Sequence[tuple[int, str]]
    ) -> tuple[str, list[int], list[int], list[str]]:
        """The text sent (pages marked with their numbers, whole pages only, within the
        budget), the pages sent, the pages left out, and what the cut changed."""
        problems: list[str] = []
        blocks: list[str] = []
        sent: list[int] = []
        left_out: list[int] = []
        used = 0
        for number, text in pages:
            if not text.strip():
                continue  # a blank page (a scan, a divider) has nothing to cite
            if left_out:
                left_out.append(number)
                continue
            block = f'<page number="{number}">\n{text.strip()}\n</page>\n'
            if used + len(block) > self.max_input_chars:
                if blocks:
                    left_out.append(number)
                    continue
                # A first page longer than the whole budget: send what fits rather than nothing.
                head = block[: self.max_input_chars - len("\n</page>\n")]
                block = head + "\n</page>\n"
                problems.append(
                    f"page {number} alone is longer than {self.max_input_chars} characters; "
                    f"only its first {len(head)} characters were sent"
                )
            blocks.append(block)
            sent.append(number)
            used += len(block)
        if left_out:
            problems.append(
                f"the file is longer than {self.max_input_chars} characters: pages "
                f"{_ranges(sent)} were read, pages {_ranges(left_out)} were left out"
            )
        header = f"File: {name}\n\n"
        return header + "".join(blocks), sent, left_out, problems

    def _converse(self, document: str) -> dict[str, Any]:
        client = self._client_or_build()
        try:
            return client.converse(**self.request(document))
        except (ClientError, BotoCoreError) as exc:
            raise _ERRORS.translate(exc, model=self.model_id, region=self.region) from exc

    def _client_or_build(self) -> _BedrockRuntime:
        return cast(_BedrockRuntime, self._runtime.get())

    # --- the answer ----------------------------------------------------------------------------

    def _tool_input(self, response: dict[str, Any], stop_reason: str) -> list[Any]:
        """The ``concepts`` array of the record_concepts call, or a clear ExtractorError."""
        content = response.get("output", {}).get("message", {}).get("content", [])
        calls = [
            block["toolUse"]
            for block in content
            if isinstance(block, dict)
            and isinstance(block.get("toolUse"), dict)
            and block["toolUse"].get("name") == TOOL_NAME
        ]
        if not calls:
            raise self._no_tool_call(stop_reason)
        payload = calls[0].get("input")
        if isinstance(payload, str):  # some models send the input as a JSON string
            try:
                payload = json.loads(payload)
            except ValueError:
                payload = None
        concepts = payload.get("concepts") if isinstance(payload, dict) else payload
        if not isinstance(concepts, list):
            if stop_reason == "max_tokens":
                raise self._no_tool_call(stop_reason)
            raise ExtractorError(
                self.model_id,
                f"called {TOOL_NAME} without a 'concepts' list (stop reason {stop_reason!r})",
                retryable=True,
            )
        return concepts

    def _no_tool_call(self, stop_reason: str) -> ExtractorError:
        if stop_reason == "max_tokens":
            return ExtractorError(
                self.model_id,
                f"ran out of output tokens (maxTokens {self.max_output_tokens}) before finishing "
                f"the {TOOL_NAME} call; raise max_output_tokens or lower max_concepts",
            )
        if stop_reason in ("guardrail_intervened", "content_filtered"):
            return ExtractorError(
                self.model_id, f"the answer was blocked ({stop_reason}); no concepts were read"
            )
        return ExtractorError(
            self.model_id,
            f"answered without calling {TOOL_NAME} (stop reason {stop_reason!r}); a model that "
            "cannot be forced to use a tool is one cause",
            # malformed or a plain-text answer: a second attempt often succeeds
            retryable=stop_reason in ("end_turn", "malformed_model_output", "malformed_tool_use"),
        )

    def _parse(
        self, items: list[Any], pages: frozenset[int]
    ) -> tuple[list[ConceptDraft], list[str]]:
        problems: list[str] = []
        if len(items) > self.max_concepts:
            problems.append(f"returned {len(items)} concepts; kept the first {self.max_concepts}")
            items = items[: self.max_concepts]
        drafts: list[ConceptDraft] = []
        for position, item in enumerate(items, start=1):
            draft = _draft(position, item, pages, problems)
            if draft is not None:
                drafts.append(draft)
        return drafts, problems


# --- parsing one item -------------------------------------------------------------------------


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) else None


def _page(value: Any) -> int | None:
    # JSON numbers may arrive as 3 or 3.0; a bool is an int to Python but never a page.
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _draft(
    position: int, item: Any, pages: frozenset[int], problems: list[str]
) -> ConceptDraft | None:
    """One item as a draft, or None (dropped); every repair is added to ``problems``."""
    if not isinstance(item, dict):
        problems.append(f"item {position} dropped: not an object")
        return None
    name = _text(item.get("name"))
    if not name:
        problems.append(f"item {position} dropped: no name")
        return None
    label = f"item {position}"  # not its name: the problems are logged, and it is the file's
    fields: dict[str, str] = {}
    for field in ("gist", "definition"):
        value = item.get(field, "")
        text = _text(value)
        if text is None:
            problems.append(f"{label}: {field} is not text and was left empty")
        fields[field] = text or ""
    builds_on = item.get("builds_on", [])
    if isinstance(builds_on, str):  # one name sent bare
        builds_on = [builds_on]
    if not isinstance(builds_on, list):
        problems.append(f"{label}: builds_on is not a list and was left empty")
        builds_on = []
    prerequisites = [t for t in (_text(b) for b in builds_on) if t]
    if len(prerequisites) != len(builds_on):
        problems.append(f"{label}: builds_on entries that are not names were dropped")
    raw_pages = item.get("pages", [])
    if not isinstance(raw_pages, list):
        raw_pages = [raw_pages]
    numbers = [_page(p) for p in raw_pages]
    kept = sorted({p for p in numbers if p is not None and p in pages})
    outside = [p for p in raw_pages if _page(p) not in pages]
    if outside:
        problems.append(
            f"{label}: pages {', '.join(map(str, outside))} are not pages of the text read "
            f"({_ranges(sorted(pages))}) and were dropped"
        )
    return ConceptDraft(
        name=name,
        gist=fields["gist"],
        definition=fields["definition"],
        builds_on=tuple(dict.fromkeys(prerequisites)),
        pages=tuple(kept),
        aliases=_aliases(item.get("aliases"), label, problems),
    )


def _aliases(raw: Any, label: str, problems: list[str]) -> tuple[str, ...]:
    """The names per language ({"es": "ósmosis", …}); a plain list of names is read too."""
    if raw is None:
        return ()
    values = list(raw.values()) if isinstance(raw, dict) else raw
    if not isinstance(values, list):
        problems.append(f"{label}: aliases are not names per language and were left out")
        return ()
    names = [t for t in (_text(v) for v in values) if t]
    if len(names) != len(values):
        problems.append(f"{label}: aliases that are not names were dropped")
    return tuple(dict.fromkeys(names))


def _ranges(numbers: Sequence[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5" (for messages)."""
    parts: list[str] = []
    run: list[int] = []
    for n in numbers:
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            parts.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        parts.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(parts)
