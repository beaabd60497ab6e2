"""The cloud embedder against botocore's Stubber: every request is validated against the real
bedrock-runtime service model, and no call leaves the machine."""

from __future__ import annotations

import io
import json
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.response import StreamingBody
from botocore.stub import ANY, Stubber

from tests.unit.bedrock_stubs import bedrock_runtime, recorded, stubbed
from tutor_memory.adapters.bedrock_embedder import BedrockEmbedder
from tutor_memory.adapters.embedder_profiles import titan_v2_profile
from tutor_memory.domain.errors import EmbedderError, TutorMemoryError

MODEL = "amazon.titan-embed-text-v2:0"

client = pytest.fixture(bedrock_runtime)
stubber = pytest.fixture(stubbed)


@pytest.fixture
def sent_bodies(client: Any) -> list[dict[str, Any]]:
    """The JSON bodies the embedder sent, in order."""
    return recorded(client, "InvokeModel", lambda params: json.loads(params["body"]))


def titan_answer(embedding: list[float], tokens: int = 5) -> dict[str, Any]:
    raw = json.dumps({"embedding": embedding, "inputTextTokenCount": tokens}).encode()
    return {
        "body": StreamingBody(io.BytesIO(raw), len(raw)),
        "contentType": "application/json",
    }


def expected_call(model: str = MODEL) -> dict[str, Any]:
    return {
        "modelId": model,
        "body": ANY,
        "contentType": "application/json",
        "accept": "application/json",
    }


def unit_vector(dimension: int, hot: int) -> list[float]:
    vector = [0.0] * dimension
    vector[hot] = 1.0
    return vector


def test_a_question_is_sent_as_is_with_the_size_and_normalisation_asked_for(
    client: Any, stubber: Stubber, sent_bodies: list[dict[str, Any]]
) -> None:
    stubber.add_response("invoke_model", titan_answer(unit_vector(256, 3)), expected_call())
    embedder = BedrockEmbedder(region="us-east-1", dimension=256, client=client)

    vectors = embedder.embed_queries(["¿Qué es la ósmosis?"])

    assert sent_bodies == [
        {"inputText": "¿Qué es la ósmosis?", "dimensions": 256, "normalize": True}
    ]
    assert vectors.shape == (1, 256) and vectors.dtype == np.float32
    assert vectors[0, 3] == 1.0


def test_passages_are_sent_without_any_prefix_one_call_each_in_order(
    client: Any, stubber: Stubber, sent_bodies: list[dict[str, Any]]
) -> None:
    for hot in range(3):
        stubber.add_response("invoke_model", titan_answer(unit_vector(512, hot)), expected_call())
    embedder = BedrockEmbedder(region="us-east-1", dimension=512, client=client, max_concurrency=1)
    texts = [
        "Osmosis moves water.",
        "La célula es la unidad de la vida.",
        "خلیہ زندگی کی اکائی ہے۔",
    ]

    vectors = embedder.embed_passages(texts)

    assert [body["inputText"] for body in sent_bodies] == texts
    assert [int(np.argmax(row)) for row in vectors] == [0, 1, 2]


def test_the_returned_vector_is_unit_length_float32_even_if_titan_sent_it_unnormalised(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_response("invoke_model", titan_answer([3.0, 4.0] + [0.0] * 254), expected_call())
    embedder = BedrockEmbedder(region="us-east-1", dimension=256, client=client)

    vector = embedder.embed_passages(["cell"])[0]

    assert vector.dtype == np.float32
    assert np.isclose(np.linalg.norm(vector), 1.0)
    assert np.allclose(vector[:2], [0.6, 0.8])


class EchoingTitan:
    """A stand-in client whose answer depends on the text ("episode 3" → hot at index 3), so
    that the order of rows can be checked when calls run in parallel (the Stubber answers in
    the order calls arrive, which threads do not fix)."""

    def invoke_model(self, **kwargs: Any) -> dict[str, Any]:
        hot = int(json.loads(kwargs["body"])["inputText"].split()[-1])
        return titan_answer(unit_vector(256, hot))


def test_a_long_run_in_parallel_keeps_the_input_order_and_reports_progress() -> None:
    texts = [f"episode {i}" for i in range(9)]
    embedder = BedrockEmbedder(
        region="us-east-1", dimension=256, client=EchoingTitan(), max_concurrency=3
    )
    progress: list[tuple[int, int]] = []

    vectors = embedder.embed_passages(texts, on_progress=lambda *p: progress.append(p))

    assert [int(np.argmax(row)) for row in vectors] == list(range(9))
    assert progress == [(i, 9) for i in range(1, 10)]


def test_an_empty_list_makes_no_call_and_gives_no_rows(client: Any, stubber: Stubber) -> None:
    embedder = BedrockEmbedder(region="us-east-1", dimension=1024, client=client)
    assert embedder.embed_queries([]).shape == (0, 1024)


def test_a_throttled_call_says_so_names_the_model_and_can_be_retried(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_client_error(
        "invoke_model",
        "ThrottlingException",
        "Too many requests",
        429,
        expected_params=expected_call(),
    )
    embedder = BedrockEmbedder(region="us-east-1", client=client)

    with pytest.raises(EmbedderError) as caught:
        embedder.embed_queries(["What is osmosis?"])

    assert isinstance(caught.value, TutorMemoryError)
    assert MODEL in str(caught.value) and "throttled" in str(caught.value)
    assert caught.value.retryable


def test_access_denied_says_how_to_fix_it_and_is_not_retryable(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_client_error(
        "invoke_model",
        "AccessDeniedException",
        "You don't have access to the model with the specified model ID.",
        403,
        expected_params=expected_call(),
    )
    embedder = BedrockEmbedder(region="us-east-1", client=client)

    with pytest.raises(EmbedderError, match=r"access denied.*Bedrock console") as caught:
        embedder.embed_passages(["cell"])

    assert not caught.value.retryable


def test_a_rejected_request_repeats_what_bedrock_said(client: Any, stubber: Stubber) -> None:
    stubber.add_client_error(
        "invoke_model",
        "ValidationException",
        "Too many input tokens. Max input tokens: 8192",
        400,
        expected_params=expected_call(),
    )
    embedder = BedrockEmbedder(region="us-east-1", client=client)

    with pytest.raises(EmbedderError, match="Max input tokens: 8192"):
        embedder.embed_passages(["a very long text"])


def test_an_embedding_of_the_wrong_length_is_rejected_clearly(
    client: Any, stubber: Stubber
) -> None:
    stubber.add_response("invoke_model", titan_answer(unit_vector(1024, 0)), expected_call())
    embedder = BedrockEmbedder(region="us-east-1", dimension=256, client=client)

    with pytest.raises(EmbedderError, match="1024 numbers, expected 256"):
        embedder.embed_queries(["cell"])


def test_a_response_without_an_embedding_is_rejected_clearly(client: Any, stubber: Stubber) -> None:
    raw = b'{"message": "something else"}'
    answer = {"body": StreamingBody(io.BytesIO(raw), len(raw)), "contentType": "application/json"}
    stubber.add_response("invoke_model", answer, expected_call())
    embedder = BedrockEmbedder(region="us-east-1", client=client)

    with pytest.raises(EmbedderError, match="no usable 'embedding'"):
        embedder.embed_queries(["cell"])


def test_an_empty_text_is_refused_before_any_call(client: Any, stubber: Stubber) -> None:
    embedder = BedrockEmbedder(region="us-east-1", client=client)
    with pytest.raises(EmbedderError, match="text 1 is empty"):
        embedder.embed_passages(["cell", "   "])


def test_a_text_over_titans_character_limit_is_refused_before_any_call(
    client: Any, stubber: Stubber
) -> None:
    embedder = BedrockEmbedder(region="us-east-1", client=client)
    with pytest.raises(EmbedderError, match="at most 50000"):
        embedder.embed_passages(["x" * 50_001])


def test_a_single_string_is_refused_rather_than_embedded_letter_by_letter(client: Any) -> None:
    embedder = BedrockEmbedder(region="us-east-1", client=client)
    with pytest.raises(TypeError, match="list of texts"):
        embedder.embed_queries("What is osmosis?")


@pytest.mark.parametrize("dimension", [256, 512, 1024])
def test_each_titan_size_has_its_own_profile(dimension: int) -> None:
    embedder = BedrockEmbedder(region="us-east-1", dimension=dimension)
    assert embedder.profile == titan_v2_profile(dimension)
    assert embedder.profile.dimension == dimension


@pytest.mark.parametrize("dimension", [0, 384, 768, 2048])
def test_a_size_titan_does_not_offer_is_refused(dimension: int) -> None:
    with pytest.raises(ValueError, match="256, 512, 1024"):
        BedrockEmbedder(region="us-east-1", dimension=dimension)


def test_no_client_is_built_until_the_first_embedding(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    monkeypatch.setattr(boto3, "client", lambda service, **_: built.append(service))

    embedder = BedrockEmbedder(region="eu-west-1")
    assert embedder.profile.dimension == 1024
    assert built == []
