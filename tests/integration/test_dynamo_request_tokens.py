"""A first attempt is never reported as a retry on DynamoDB (issue 29, item 9).

An append's transaction can commit while its answer is lost (a timeout, a dropped connection);
botocore then sends the same request again. Here a network in front of moto (in process) loses
the answer to the first committed ``TransactWriteItems``, so the SDK's own retry resends it:
- as DynamoDB does, the resend with the same ``ClientRequestToken`` is answered as the commit
  was, writing nothing;
- as moto does (it keeps no tokens; nor does DynamoDB after its 10 minutes), the resend is
  cancelled by the attempt's own writes.
Either way the append is this attempt's: ``created`` and written once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.exceptions import ReadTimeoutError
from moto import mock_aws
from moto.core.botocore_stubber import MockRawResponse
from moto.core.models import botocore_stubber

from tutor_memory.adapters.dynamo.episodes import request_token
from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain.chain import ChainHead
from tutor_memory.domain.episodes import Kind, NewEpisode, Pair
from tutor_memory.ports import FixedClock

TABLE, REGION = "tm-request-tokens", "us-east-1"
TOKEN_MOST_CHARACTERS = 36  # DynamoDB's limit on a ClientRequestToken


class LosesOneAnswer:
    """The network between a store's transactions and moto: it loses the answer to the first
    committed ``TransactWriteItems`` (botocore resends it), and, when ``keeps_tokens``, answers
    a repeat of a committed token as DynamoDB does (success, nothing written)."""

    def __init__(self, store: DynamoStore, *, keeps_tokens: bool) -> None:
        self.keeps_tokens = keeps_tokens
        self.tokens: list[str] = []  # the token of every TransactWriteItems sent, in order
        self.committed: set[str] = set()
        self.answers_to_lose = 1
        events = store._connection.client.meta.events  # the client the transactions go through
        events.unregister("before-send", botocore_stubber)
        events.register("before-send", self.send)

    def send(self, request: AWSPreparedRequest, event_name: str, **_: Any) -> AWSResponse | None:
        if not event_name.endswith(".TransactWriteItems"):
            return botocore_stubber(event_name=event_name, request=request)
        token = json.loads(request.body or b"{}")["ClientRequestToken"]
        self.tokens.append(token)
        if self.keeps_tokens and token in self.committed:
            return AWSResponse(request.url, 200, {}, MockRawResponse(b"{}"))
        answer = botocore_stubber(event_name=event_name, request=request)
        assert answer is not None
        if answer.status_code == 200:
            self.committed.add(token)
            if self.answers_to_lose:
                self.answers_to_lose -= 1
                raise ReadTimeoutError(endpoint_url=request.url)  # botocore retries it
        return answer


@pytest.fixture
def store() -> Iterator[DynamoStore]:
    with mock_aws():
        made = DynamoStore(TABLE, REGION, sleep=lambda _s: None)
        made.create_table()
        yield made


@pytest.mark.parametrize("keeps_tokens", [True, False], ids=["dynamodb", "moto"])
@pytest.mark.parametrize("key", ["k-1", None], ids=["with-key", "without-key"])
def test_a_commit_whose_answer_was_lost_is_still_reported_created_and_written_once(
    store: DynamoStore, pair: Pair, clock: FixedClock, keeps_tokens: bool, key: str | None
) -> None:
    network = LosesOneAnswer(store, keeps_tokens=keeps_tokens)
    new = NewEpisode(pair, Kind.QUESTION, "What is osmosis?", clock.at, idempotency_key=key)
    result = store.append(new)
    assert result.created
    assert [e.text for e in store.episodes(pair)] == ["What is osmosis?"]
    head = store.head(pair)
    assert head is not None and head.seq == 1 and head.hash == result.episode.hash
    assert store.conflicts == 0
    # botocore's retry resent the attempt's own token
    assert network.tokens == [request_token(result.episode)] * 2
    assert 0 < len(network.tokens[0]) <= TOKEN_MOST_CHARACTERS
    if key is not None:  # and a real retry of the request is then told the truth
        again = store.append(new)
        assert not again.created and again.episode == result.episode


def test_a_new_attempt_after_a_conflict_sends_a_new_token(
    store: DynamoStore, pair: Pair, clock: FixedClock
) -> None:
    rival = DynamoStore(TABLE, REGION, sleep=lambda _s: None)

    class Raced(DynamoStore):
        races = 1

        def _head_for_append(self, p: Pair) -> ChainHead | None:
            head = DynamoStore._head_for_append(self, p)
            if self.races:  # another writer appends between our read and our commit
                self.races -= 1
                rival.append(NewEpisode(p, Kind.QUESTION, "the rival's", clock.at))
            return head

    raced = Raced(TABLE, REGION, sleep=lambda _s: None)
    network = LosesOneAnswer(raced, keeps_tokens=True)
    network.answers_to_lose = 0
    result = raced.append(
        NewEpisode(pair, Kind.QUESTION, "What is osmosis?", clock.at, idempotency_key="k-2")
    )
    assert result.created and result.episode.seq == 2 and raced.conflicts == 1
    assert len(network.tokens) == 2 and network.tokens[0] != network.tokens[1]
    assert network.tokens[1] == request_token(result.episode)
    assert [e.text for e in store.episodes(pair)] == ["the rival's", "What is osmosis?"]


def test_every_append_of_a_pair_sends_its_own_token(
    store: DynamoStore, pair: Pair, clock: FixedClock
) -> None:
    network = LosesOneAnswer(store, keeps_tokens=True)
    network.answers_to_lose = 0
    for text in ("one", "two", "three"):
        store.append(NewEpisode(pair, Kind.QUESTION, text, clock.at))
    assert len(set(network.tokens)) == 3
