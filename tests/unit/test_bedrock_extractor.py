"""The cloud extractor against botocore's Stubber: every request is validated against the real
bedrock-runtime service model (Converse), and no call leaves the machine."""

from __future__ import annotations

import logging
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.stub import ANY, Stubber

from tests.unit.bedrock_stubs import bedrock_runtime, recorded, stubbed
from tutor_memory.adapters.bedrock_extractor import BedrockExtractor
from tutor_memory.domain.conceptmap import ConceptDraft, ConceptMap, Source, merge_file
from tutor_memory.domain.errors import ExtractorError, TutorMemoryError
from tutor_memory.domain.filetext import FileText, Page
from tutor_memory.domain.validator import validate

MODEL = "anthropic.claude-3-haiku-20240307-v1:0"
CELL_PAGES = [
    (1, "The cell is the unit of life."),
    (2, "Osmosis moves water across the cell membrane."),
]


def as_text(pages: list[tuple[int, str]]) -> FileText:
    """Pages as the file readers hand them over."""
    return FileText(
        name="biology.pdf",
        kind="pdf",
        pages=tuple(Page(n, t) for n, t in pages),
        sections=(),
        title=None,
    )


client = pytest.fixture(bedrock_runtime)
stubber = pytest.fixture(stubbed)


@pytest.fixture
def sent(client: Any) -> list[dict[str, Any]]:
    """The parameters the extractor sent, in order."""
    return recorded(client, "Converse")


def expected_tool_config(bound: int) -> dict[str, Any]:
    """The tool the model must call: written out here so the test states the schema."""
    concept = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": ANY},
            "gist": {"type": "string", "description": ANY},
            "definition": {"type": "string", "description": ANY},
            "builds_on": {"type": "array", "items": {"type": "string"}, "description": ANY},
            "pages": {"type": "array", "items": {"type": "integer"}, "description": ANY},
            # The concept's name in each of the five languages: how files in two languages merge.
            "aliases": {
                "type": "object",
                "properties": {lang: {"type": "string"} for lang in ("en", "es", "id", "ur", "ar")},
                "description": ANY,
            },
        },
        "required": ["name", "gist", "definition", "builds_on", "pages"],
    }
    schema = {
        "type": "object",
        "properties": {
            "concepts": {
                "type": "array",
                "maxItems": bound,
                "description": ANY,
                "items": concept,
            }
        },
        "required": ["concepts"],
    }
    return {
        "tools": [
            {
                "toolSpec": {
                    "name": "record_concepts",
                    "description": ANY,
                    "inputSchema": {"json": schema},
                }
            }
        ],
        "toolChoice": {"tool": {"name": "record_concepts"}},
    }


def expected_call(bound: int = 40, document: Any = ANY) -> dict[str, Any]:
    return {
        "modelId": MODEL,
        "system": [{"text": ANY}],
        "messages": [{"role": "user", "content": [{"text": document}]}],
        "toolConfig": expected_tool_config(bound),
        "inferenceConfig": {"maxTokens": 4096, "temperature": 0.0},
    }


def tool_answer(tool_input: Any, stop_reason: str = "tool_use") -> dict[str, Any]:
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "toolUse": {
                            "toolUseId": "tooluse_1",
                            "name": "record_concepts",
                            "input": tool_input,
                        }
                    }
                ],
            }
        },
        "stopReason": stop_reason,
        "usage": {"inputTokens": 100, "outputTokens": 50, "totalTokens": 150},
        "metrics": {"latencyMs": 900},
    }


def text_answer(text: str, stop_reason: str = "end_turn") -> dict[str, Any]:
    answer = tool_answer({})
    answer["output"]["message"]["content"] = [{"text": text}] if text else []
    answer["stopReason"] = stop_reason
    return answer


def concept(name: str, *, pages: list[Any] | None = None, **fields: Any) -> dict[str, Any]:
    return {
        "name": name,
        "gist": f"{name} in one sentence.",
        "definition": f"{name}, defined.",
        "builds_on": [],
        "pages": pages if pages is not None else [1],
        **fields,
    }


def extractor(client: Any, **options: Any) -> BedrockExtractor:
    return BedrockExtractor(region="us-east-1", model_id=MODEL, client=client, **options)


# --- the request ----------------------------------------------------------------------------------


def test_one_call_sends_the_pages_marked_with_their_numbers_and_forces_the_concept_tool(
    client: Any, stubber: Stubber, sent: list[dict[str, Any]]
) -> None:
    document = (
        "File: biology.pdf\n\n"
        '<page number="1">\nThe cell is the unit of life.\n</page>\n'
        '<page number="2">\nOsmosis moves water across the cell membrane.\n</page>\n'
    )
    stubber.add_response(
        "converse", tool_answer({"concepts": []}), expected_call(document=document)
    )

    extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    assert len(sent) == 1


def test_the_system_prompt_asks_for_subject_concepts_not_headings_and_states_the_bound(
    client: Any, stubber: Stubber, sent: list[dict[str, Any]]
) -> None:
    stubber.add_response("converse", tool_answer({"concepts": []}), expected_call(bound=12))

    extractor(client, max_concepts=12).extract("biology.pdf", as_text(CELL_PAGES))

    prompt = sent[0]["system"][0]["text"]
    assert "record_concepts" in prompt
    assert "not section or chapter headings" in prompt
    assert "Introduction" in prompt and "Summary" in prompt
    assert "builds_on: only names from your own list" in prompt
    assert "At most 12 concepts" in prompt
    assert "a few words" in prompt


# --- the answer -----------------------------------------------------------------------------------


def test_a_good_answer_becomes_drafts_with_gists_prerequisites_and_pages(
    client: Any, stubber: Stubber
) -> None:
    answer = {
        "concepts": [
            concept("Cell", pages=[1]),
            concept("Cell membrane", pages=[2, 1, 2], builds_on=["Cell"]),
            concept("Osmosis", pages=[2], builds_on=["Cell membrane", "Cell membrane"]),
        ]
    }
    stubber.add_response("converse", tool_answer(answer), expected_call())

    drafts = extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    assert drafts == [
        ConceptDraft("Cell", "Cell in one sentence.", "Cell, defined.", (), (1,)),
        ConceptDraft(
            "Cell membrane",
            "Cell membrane in one sentence.",
            "Cell membrane, defined.",
            ("Cell",),
            (1, 2),
        ),
        ConceptDraft(
            "Osmosis", "Osmosis in one sentence.", "Osmosis, defined.", ("Cell membrane",), (2,)
        ),
    ]


def test_the_names_per_language_become_aliases_that_merge_a_file_in_another_language(
    client: Any, stubber: Stubber
) -> None:
    names = {"en": "Mitochondria", "es": "mitocondria", "ur": "مائٹوکونڈریا", "ar": "الميتوكوندريا"}
    english = {"concepts": [concept("Mitochondria", pages=[1], aliases=names)]}
    spanish = {"concepts": [concept("Mitocondria", pages=[1], aliases={"en": "Mitochondria"})]}
    urdu = {"concepts": [concept("مائٹوکونڈریا", pages=[1], aliases=["Mitochondria", 7])]}
    for answer in (english, spanish, urdu):
        stubber.add_response("converse", tool_answer(answer), expected_call())
    drafts = [extractor(client).extract("f.pdf", as_text(CELL_PAGES))[0] for _ in range(3)]
    assert drafts[0].aliases == ("Mitochondria", "mitocondria", "مائٹوکونڈریا", "الميتوكوندريا")
    assert drafts[2].aliases == ("Mitochondria",)  # a name that is not text is dropped

    cmap = ConceptMap()
    for i, draft in enumerate(drafts):
        cmap = merge_file(cmap, validate([draft]).kept, Source(f"file-{i}", 1, str(i) * 64))
    assert list(cmap.concepts) == ["mitochondria"]  # three files, three languages, one concept
    assert {s.file_id for s in cmap.concepts["mitochondria"].sources} == {
        "file-0",
        "file-1",
        "file-2",
    }


def test_items_without_a_name_or_of_the_wrong_shape_are_dropped_and_reported(
    client: Any, stubber: Stubber, caplog: pytest.LogCaptureFixture
) -> None:
    answer = {
        "concepts": [
            "Osmosis",  # not an object
            {"gist": "A nameless idea."},
            concept("   "),
            concept(42),
            concept("Cell", gist=["not", "text"], builds_on="Nucleus", pages="1"),
            concept("Diffusion", builds_on=["Cell", 7, None]),
        ]
    }
    stubber.add_response("converse", tool_answer(answer), expected_call())

    with caplog.at_level(logging.WARNING):
        result = extractor(client).read("biology.pdf", CELL_PAGES)

    assert [d.name for d in result.drafts] == ["Cell", "Diffusion"]
    cell, diffusion = result.drafts
    assert cell.gist == "" and cell.builds_on == ("Nucleus",) and cell.pages == ()
    assert diffusion.builds_on == ("Cell",)
    assert "item 1 dropped: not an object" in result.problems
    assert "item 2 dropped: no name" in result.problems
    assert "item 3 dropped: no name" in result.problems
    assert "item 4 dropped: no name" in result.problems
    assert "item 5: gist is not text and was left empty" in result.problems
    assert any("builds_on entries that are not names were dropped" in p for p in result.problems)
    assert "item 2 dropped: no name" in caplog.text
    assert "Cell" not in caplog.text  # a concept's name is the file's words: not logged


def test_pages_the_file_does_not_have_are_removed_and_the_concept_kept(
    client: Any, stubber: Stubber
) -> None:
    answer = {"concepts": [concept("Osmosis", pages=[2, 99, 0, 2.0, True])]}
    stubber.add_response("converse", tool_answer(answer), expected_call())

    result = extractor(client).read("biology.pdf", CELL_PAGES)

    assert result.drafts[0].pages == (2,)
    assert result.problems == (
        "item 1: pages 99, 0, True are not pages of the text read (1–2) and were dropped",
    )


def test_more_concepts_than_the_bound_are_cut_to_the_bound_and_reported(
    client: Any, stubber: Stubber
) -> None:
    answer = {"concepts": [concept(f"Concept {i}") for i in range(1, 6)]}
    stubber.add_response("converse", tool_answer(answer), expected_call(bound=3))

    result = extractor(client, max_concepts=3).read("biology.pdf", CELL_PAGES)

    assert [d.name for d in result.drafts] == ["Concept 1", "Concept 2", "Concept 3"]
    assert "returned 5 concepts; kept the first 3" in result.problems


def test_a_tool_input_sent_as_a_json_string_is_still_read(client: Any, stubber: Stubber) -> None:
    raw = '{"concepts": [{"name": "Osmosis", "pages": [2]}]}'
    stubber.add_response("converse", tool_answer(raw), expected_call())

    drafts = extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    assert drafts == [ConceptDraft("Osmosis", pages=(2,))]


def test_a_file_with_no_concepts_gives_an_empty_list(client: Any, stubber: Stubber) -> None:
    stubber.add_response("converse", tool_answer({"concepts": []}), expected_call())
    assert extractor(client).extract("cover.pdf", as_text([(1, "Biology, Grade 9")])) == []


def test_an_answer_without_the_tool_call_is_a_clear_retryable_error(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_response("converse", text_answer("Here are the concepts: …"), expected_call())

    with pytest.raises(ExtractorError) as caught:
        extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    assert isinstance(caught.value, TutorMemoryError)
    assert MODEL in str(caught.value)
    assert "answered without calling record_concepts" in str(caught.value)
    assert "end_turn" in str(caught.value)
    assert caught.value.retryable


def test_a_tool_call_without_a_concepts_list_is_a_clear_error(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_response("converse", tool_answer({"items": []}), expected_call())

    with pytest.raises(ExtractorError, match="without a 'concepts' list"):
        extractor(client).extract("biology.pdf", as_text(CELL_PAGES))


def test_running_out_of_output_tokens_says_how_to_fix_it_and_is_not_retried(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_response("converse", text_answer("", stop_reason="max_tokens"), expected_call())

    with pytest.raises(ExtractorError, match="raise max_output_tokens") as caught:
        extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    assert not caught.value.retryable


def test_a_blocked_answer_says_it_was_blocked(client: Any, stubber: Stubber) -> None:
    stubber.add_response(
        "converse", text_answer("", stop_reason="guardrail_intervened"), expected_call()
    )

    with pytest.raises(ExtractorError, match="blocked \\(guardrail_intervened\\)"):
        extractor(client).extract("biology.pdf", as_text(CELL_PAGES))


def test_concepts_received_before_the_token_limit_are_kept_and_the_cut_is_reported(
    client: Any, stubber: Stubber
) -> None:
    answer = tool_answer({"concepts": [concept("Cell")]}, stop_reason="max_tokens")
    stubber.add_response("converse", answer, expected_call())

    result = extractor(client).read("biology.pdf", CELL_PAGES)

    assert [d.name for d in result.drafts] == ["Cell"]
    assert any("reached maxTokens (4096)" in p for p in result.problems)


# --- long files -----------------------------------------------------------------------------------


def test_a_long_file_is_cut_at_a_page_boundary_and_the_cut_is_logged(
    client: Any, stubber: Stubber, sent: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    pages = [(n, f"Page {n} text. " + "x" * 60) for n in range(1, 6)]
    stubber.add_response("converse", tool_answer({"concepts": []}), expected_call())

    with caplog.at_level(logging.WARNING):
        # each page is 100 characters once marked: three fit, the fourth would not
        result = extractor(client, max_input_chars=320).read("long.pdf", pages)

    document = sent[0]["messages"][0]["content"][0]["text"]
    assert result.pages_sent == (1, 2, 3)
    assert result.pages_left_out == (4, 5)
    assert all(pages[n - 1][1] in document for n in (1, 2, 3))  # whole pages only
    assert "Page 4" not in document
    assert "pages 1–3 were read, pages 4–5 were left out" in caplog.text
    assert ".pdf" not in caplog.text  # nor the file's name, which is the uploader's


def test_pages_the_model_did_not_see_cannot_be_cited(client: Any, stubber: Stubber) -> None:
    pages = [(n, f"Page {n} text. " + "x" * 60) for n in range(1, 6)]
    answer = {"concepts": [concept("Cell", pages=[1, 5])]}
    stubber.add_response("converse", tool_answer(answer), expected_call())

    result = extractor(client, max_input_chars=250).read("long.pdf", pages)

    assert result.drafts[0].pages == (1,)


def test_a_first_page_longer_than_the_budget_is_cut_and_says_so(
    client: Any, stubber: Stubber, sent: list[dict[str, Any]]
) -> None:
    stubber.add_response("converse", tool_answer({"concepts": []}), expected_call())

    result = extractor(client, max_input_chars=100).read("scan.pdf", [(1, "y" * 500)])

    document = sent[0]["messages"][0]["content"][0]["text"]
    assert result.pages_sent == (1,)
    assert document.endswith("</page>\n") and "y" * 50 in document and "y" * 500 not in document
    assert any("page 1 alone is longer than 100 characters" in p for p in result.problems)


def test_blank_pages_are_not_sent_and_a_file_without_text_makes_no_call(
    client: Any, stubber: Stubber, sent: list[dict[str, Any]]
) -> None:
    result = extractor(client).read("blank.pdf", [(1, "  "), (2, "\n")])

    assert result.drafts == ()
    assert sent == []
    assert "'blank.pdf' has no text; no call was made" in result.problems


# --- errors from Bedrock --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "status", "says", "retryable"),
    [
        ("ThrottlingException", 429, "throttled by Bedrock", True),
        ("AccessDeniedException", 403, "access denied; enable access to the model", False),
        ("ValidationException", 400, "rejected the request", False),
        ("ModelNotReadyException", 429, "not ready yet", True),
        ("ResourceNotFoundException", 404, "check the model id and the region", False),
        ("ModelErrorException", 424, "temporarily unavailable", True),
    ],
)
def test_a_bedrock_error_names_the_model_and_the_problem(
    client: Any, stubber: Stubber, code: str, status: int, says: str, retryable: bool
) -> None:
    stubber.add_client_error(
        "converse", code, "what Bedrock said", status, expected_params=expected_call()
    )

    with pytest.raises(ExtractorError) as caught:
        extractor(client).extract("biology.pdf", as_text(CELL_PAGES))

    message = str(caught.value)
    assert MODEL in message and says in message and "what Bedrock said" in message
    assert caught.value.retryable is retryable


class Unreachable:
    def converse(self, **_: Any) -> dict[str, Any]:
        raise EndpointConnectionError(endpoint_url="https://bedrock-runtime.us-east-1")


def test_an_unreachable_endpoint_is_a_retryable_error() -> None:
    with pytest.raises(ExtractorError, match="did not answer in us-east-1") as caught:
        BedrockExtractor(region="us-east-1", model_id=MODEL, client=Unreachable()).extract(
            "biology.pdf", as_text(CELL_PAGES)
        )
    assert caught.value.retryable


def test_no_client_is_built_until_the_first_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    monkeypatch.setattr(boto3, "client", lambda service, **_: built.append(service))

    BedrockExtractor(region="eu-west-1", model_id=MODEL)

    assert built == []


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_concepts"):
        BedrockExtractor(region="us-east-1", model_id=MODEL, max_concepts=0)
