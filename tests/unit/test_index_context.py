"""A conversational episode is indexed with the turn it responds to (domain/context.py): its
lexical terms read that turn's words too, so a reply is found through the words of the
question it answers; its passage embedding reads its own text only; the log is untouched."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain import constants as C
from tutor_memory.domain.context import context_of, may_respond, responds_to
from tutor_memory.domain.episodes import Episode, Kind, NewEpisode, Pair
from tutor_memory.domain.language import analyse, distinctive_terms
from tutor_memory.ports import EmbedderProfile, FixedClock, IndexedEpisode, Vectors
from tutor_memory.settings import Settings, SettingsError, on_folder

T0 = datetime(2026, 5, 4, 16, 0, tzinfo=UTC)
PAIR = Pair("s-context", "english")
ASKED = "What did you do for your sister's birthday?"  # the tutor asks: an answer episode
REPLY = "We went bowling and she loved it!"  # the student tells: a question episode
MARKER = "zorblaxquint"  # analysed and indexed as itself


class HashEmbedder:
    """No model: a unit vector seeded by the text's hash (the same text, the same vector)."""

    profile = EmbedderProfile("fake/hash", 8, concept_merge_threshold=0.99)

    def __init__(self) -> None:
        self.passages: list[str] = []

    @staticmethod
    def vector(text: str) -> np.ndarray[Any, Any]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
        v = np.random.default_rng(seed).normal(size=8)
        return (v / np.linalg.norm(v)).astype(np.float32)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return np.stack([self.vector(t) for t in texts]).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.passages += texts
        return np.stack([self.vector(t) for t in texts]).astype(np.float32)


def make_app(folder: Path, *, index_context: bool = True, embedder: bool = False) -> App:
    """The embedded default in ``folder`` (no model: a hash embedder where vectors matter)."""
    told = {"TUTOR_MEMORY_EMBEDDER": "none", "TUTOR_MEMORY_INDEX_CONTEXT": str(index_context)}
    settings = on_folder(Settings.from_env(told), folder)
    app = build_app(settings, clock=FixedClock(T0 + timedelta(hours=2)))
    return app.with_ports(embedder=HashEmbedder()) if embedder else app


class Documents:
    """Every index document handed to the index, the newest per episode."""

    def __init__(self, app: App, monkeypatch: pytest.MonkeyPatch) -> None:
        index = app.ports.index
        assert index is not None
        self.latest: dict[int, IndexedEpisode] = {}
        real = index.add

        def add(docs: Sequence[IndexedEpisode]) -> None:
            real(docs)
            self.latest.update((doc.seq, doc) for doc in docs)

        monkeypatch.setattr(index, "add", add)

    def terms(self, seq: int) -> list[str]:
        return self.latest[seq].terms.split()

    def vector(self, seq: int) -> list[float]:
        vector = self.latest[seq].vector
        assert vector is not None
        return [round(x, 6) for x in vector]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = make_app(tmp_path / "tm")
    yield made
    made.close()


def lexical_ids(app: App, words: str) -> list[str]:
    assert app.ports.index is not None
    found = app.ports.index.search(
        PAIR, terms=distinctive_terms(words), vector=None, lexical_limit=50, k=0
    )
    return [hit.episode_id for hit in found.lexical]


def exchange(app: App, *, gap: timedelta = timedelta(minutes=1)) -> tuple[Episode, Episode]:
    asked = app.memory.record(PAIR, Kind.ANSWER, ASKED, at=T0).episode
    reply = app.memory.record(PAIR, Kind.QUESTION, REPLY, at=T0 + gap).episode
    return asked, reply


# --- the rule (pure) ------------------------------------------------------------------------


def test_a_turn_responds_to_the_turn_of_the_other_kind_just_before_it(app: App) -> None:
    asked, reply = exchange(app)
    assert context_of(reply, asked) is asked  # a student's message answers the tutor's
    tutor = app.memory.record(PAIR, Kind.ANSWER, "Bowling! Did you win?", at=T0 + timedelta(days=2))
    assert responds_to(tutor.episode, reply) is False  # too far in time (two days)
    later = replace(tutor.episode, at=reply.at + timedelta(minutes=3))
    assert context_of(later, reply) is reply  # the tutor's answers the student's
    # The same kind twice: a second message of one speaker responds to nothing.
    again = replace(reply, seq=reply.seq + 1, at=reply.at + timedelta(seconds=5))
    assert context_of(again, reply) is None
    # Only the turn just before: seq - 1.
    assert context_of(replace(reply, seq=reply.seq + 1), asked) is None
    # The first episode of a pair responds to nothing.
    assert context_of(asked, None) is None and asked.seq == 1


def test_the_gap_is_at_most_the_constant_either_way(app: App) -> None:
    asked, reply = exchange(app)
    at_most = replace(reply, at=asked.at + C.CONTEXT_MAX_GAP)
    assert responds_to(at_most, asked)
    assert not responds_to(replace(at_most, at=at_most.at + timedelta(seconds=1)), asked)
    assert responds_to(replace(reply, at=asked.at - timedelta(minutes=1)), asked)  # a clock off
    assert timedelta(minutes=30) == C.CONTEXT_MAX_GAP


def test_an_erased_turn_neither_has_nor_gives_a_context(app: App) -> None:
    asked, reply = exchange(app)
    assert not responds_to(reply, replace(asked, erased=True, text=""))
    assert not responds_to(replace(reply, erased=True, text=""), asked)
    assert not may_respond(replace(reply, erased=True))


@pytest.mark.parametrize(
    "kind", [Kind.CHECK, Kind.QUIZ, Kind.FILE, Kind.TAUGHT, Kind.CONSOLIDATION]
)
def test_only_questions_and_answers_have_or_give_a_context(app: App, kind: Kind) -> None:
    asked, reply = exchange(app)
    assert not responds_to(replace(reply, kind=kind), asked)
    assert not responds_to(reply, replace(asked, kind=kind))


def test_a_new_episode_responds_to_the_head_it_is_appended_after(app: App) -> None:
    asked, _ = exchange(app)
    new = NewEpisode(PAIR, Kind.QUESTION, "It was fun", T0 + timedelta(minutes=2))
    assert context_of(new, asked) is asked  # its place is the caller's to know


# --- the index ------------------------------------------------------------------------------


def test_a_reply_is_found_through_the_question_it_answers(app: App) -> None:
    asked, reply = exchange(app)
    question = "What did Maya do for her sister's birthday?"
    assert set(lexical_ids(app, "birthday")) == {asked.episode_id, reply.episode_id}
    result = app.memory.recall(PAIR, question, at=T0 + timedelta(hours=1))
    pools = {item.episode.episode_id: item.pools for item in result.items}
    assert "lexical" in pools[reply.episode_id]
    # The question's own words still find it, and its context's words find the tutor's too.
    assert reply.episode_id in lexical_ids(app, "bowling")
    assert asked.episode_id not in lexical_ids(app, "bowling")  # the context is one way


def test_without_the_setting_the_reply_is_only_its_own_words(tmp_path: Path) -> None:
    app = make_app(tmp_path / "tm", index_context=False)
    asked, reply = exchange(app)
    assert lexical_ids(app, "birthday") == [asked.episode_id]
    result = app.memory.recall(
        PAIR, "What did Maya do for her sister's birthday?", at=T0 + timedelta(hours=1)
    )
    pools = {item.episode.episode_id: item.pools for item in result.items}
    assert "lexical" not in pools.get(reply.episode_id, ())
    app.close()


def test_after_a_pause_or_after_the_same_speaker_there_is_no_context(app: App) -> None:
    _, reply = exchange(app, gap=C.CONTEXT_MAX_GAP + timedelta(minutes=1))
    assert reply.episode_id not in lexical_ids(app, "birthday")
    more = app.memory.record(PAIR, Kind.QUESTION, "Then we had pizza", at=reply.at).episode
    assert more.episode_id not in lexical_ids(app, "bowling")  # the student twice
    check = app.memory.record(
        PAIR,
        Kind.CHECK,
        "Explain the past tense",
        evidence={"topic": "Past tense", "verdict": "right"},
        at=reply.at,
    ).episode
    assert check.episode_id not in lexical_ids(app, "pizza")


def test_the_log_keeps_the_episode_as_written(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = Documents(app, monkeypatch)
    asked, reply = exchange(app)
    stored = app.memory.episode(PAIR, reply.episode_id)
    assert (stored.text, stored.summary, stored.concepts) == (REPLY, reply.summary, ())
    assert ASKED not in stored.text and stored.prev_hash == asked.hash
    assert app.memory.verify_chain(PAIR).intact
    assert "birthday" not in " ".join(analyse(stored.text))
    assert set(analyse(ASKED)) <= set(docs.terms(reply.seq))  # only the index reads it
    # Without the setting the same history seals the same bodies.
    plain = make_app(tmp_path / "plain", index_context=False)
    _, twin = exchange(plain)
    assert (twin.seq, twin.text, twin.summary, twin.kind) == (
        reply.seq,
        reply.text,
        reply.summary,
        reply.kind,
    )
    plain.close()


# --- record, record_many, catch-up and reindex agree ----------------------------------------


def history() -> list[NewEpisode]:
    t = T0
    turns = [
        (Kind.QUESTION, "Can we practise the past tense?", 0),
        (Kind.ANSWER, ASKED, 1),
        (Kind.QUESTION, REPLY, 2),
        (Kind.QUESTION, "We had pizza too", 3),  # the same speaker: no context
        (Kind.ANSWER, "Great, tell me in the past tense: what did you eat?", 4),
        (Kind.QUESTION, "We eated pizza", 5),
        (Kind.ANSWER, "Almost: we ate pizza", 6),
        (Kind.QUESTION, "Sorry, I have to go", 60),  # after a pause: no context
        (Kind.ANSWER, "See you tomorrow!", 61),
        (Kind.QUESTION, "We ate pizza", 62),
    ]
    return [NewEpisode(PAIR, kind, text, t + timedelta(minutes=m)) for kind, text, m in turns]


def documents_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> dict[int, tuple[str, list[float]]]:
    app = make_app(tmp_path / how, embedder=True)
    docs = Documents(app, monkeypatch)
    news = history()
    if how == "record":
        for new in news:
            app.memory.record(PAIR, new.kind, new.text, at=new.at)
    elif how == "record_many":
        app.memory.record_many(news, batch_size=3)  # contexts cross the batches
    elif how == "one_batch_with_a_check":
        app.memory.record_many(news, batch_size=64)
    elif how == "catch_up":  # written with no index write, then caught up
        with monkeypatch.context() as patch:
            patch.setattr(type(app.memory), "_index", lambda self, docs: None)
            patch.setattr(type(app.memory), "mark_applied", lambda *a, **k: None)
            app.memory.record_many(news, batch_size=4)
        app.memory.catch_up_index(PAIR)
    elif how == "reindex":
        app.memory.record_many(news, batch_size=64)
        docs.latest.clear()
        assert app.memory.reindex(PAIR, batch_size=3) == len(news)
    found = {seq: (" ".join(sorted(docs.terms(seq))), docs.vector(seq)) for seq in docs.latest}
    app.close()
    return found


@pytest.mark.parametrize("how", ["record_many", "one_batch_with_a_check", "catch_up", "reindex"])
def test_every_way_of_indexing_gives_the_documents_record_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    expected = documents_by(tmp_path, monkeypatch, "record")
    assert sorted(expected) == list(range(1, 11))
    assert documents_by(tmp_path, monkeypatch, how) == expected


def test_each_reply_reads_its_own_turn_s_words_and_is_embedded_as_its_own_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "tm", embedder=True)
    docs = Documents(app, monkeypatch)
    news = history()
    app.memory.record_many([*news, *news[:3]], batch_size=64)  # the first three again
    embedder = app.ports.embedder
    assert isinstance(embedder, HashEmbedder)
    assert len(embedder.passages) == len(set(embedder.passages))
    with_context = {
        2: news[0].text,  # the tutor's question answers the student's
        3: news[1].text,
        5: news[3].text,
        6: news[4].text,
        7: news[5].text,
        9: news[7].text,
        10: news[8].text,
    }
    for seq, new in enumerate(news, start=1):
        context = with_context.get(seq)
        # the vector is the text's own, whatever it answers (domain/context.py says why)
        assert docs.vector(seq) == [round(float(x), 6) for x in HashEmbedder.vector(new.text)], seq
        words = analyse(new.text) + (analyse(context) if context else [])
        assert sorted(docs.terms(seq)) == sorted(words), seq
    # seq 11 repeats seq 1 after seq 10 (a student's after a student's): no context.
    assert sorted(docs.terms(11)) == sorted(analyse(news[0].text))
    app.close()


# --- another writer between the head read and the append --------------------------------------


@pytest.mark.parametrize(
    ("interloper", "context"),
    [
        ((Kind.QUESTION, "Also, can we do fractions today?"), None),  # the same kind: none
        ((Kind.ANSWER, "Tell me about the bowling alley"), "Tell me about the bowling alley"),
    ],
)
def test_a_write_that_gets_in_between_gives_the_context_the_log_has(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    interloper: tuple[Kind, str],
    context: str | None,
) -> None:
    app = make_app(tmp_path / "tm", embedder=True)
    docs = Documents(app, monkeypatch)
    app.memory.record(PAIR, Kind.ANSWER, ASKED, at=T0)
    store = app.ports.store
    real = store.append
    kind, text = interloper

    def raced(new: NewEpisode) -> Any:
        monkeypatch.setattr(store, "append", real)  # once
        real(NewEpisode(PAIR, kind, text, T0 + timedelta(seconds=30)))  # another process
        return real(new)

    monkeypatch.setattr(store, "append", raced)
    reply = app.memory.record(PAIR, Kind.QUESTION, REPLY, at=T0 + timedelta(minutes=1)).episode
    assert reply.seq == 3
    embedder = app.ports.embedder
    assert isinstance(embedder, HashEmbedder)
    # Its vector is its own text's, embedded once; its words are the context the log has.
    assert embedder.passages.count(REPLY) == 1
    assert docs.vector(3) == [round(float(x), 6) for x in HashEmbedder.vector(REPLY)]
    assert sorted(docs.terms(3)) == sorted(analyse(REPLY) + (analyse(context) if context else []))
    assert "birthday" not in docs.terms(3)  # the head it read first is not its context
    app.close()


# --- erasure ----------------------------------------------------------------------------------


def raw_hits(folder: Path, needle: str) -> list[str]:
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and needle.encode("utf-8") in p.read_bytes()
    )


@pytest.mark.parametrize("erasing_setting", [True, False])
def test_an_erased_turn_leaves_nothing_in_the_next_ones_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, erasing_setting: bool
) -> None:
    folder = tmp_path / "tm"
    app = make_app(folder, embedder=True)
    asked = app.memory.record(PAIR, Kind.ANSWER, f"Who is {MARKER}?", at=T0).episode
    reply = app.memory.record(
        PAIR, Kind.QUESTION, "My cousin, we went bowling", at=T0 + timedelta(minutes=1)
    ).episode
    after = app.memory.record(
        PAIR, Kind.ANSWER, "Nice! Bowling is fun", at=T0 + timedelta(minutes=2)
    ).episode
    assert set(lexical_ids(app, MARKER)) == {asked.episode_id, reply.episode_id}
    assert raw_hits(folder, MARKER)
    app.close()
    # Erased by an app under either setting: the index was built with contexts.
    app = make_app(folder, index_context=erasing_setting, embedder=True)
    docs = Documents(app, monkeypatch)
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, asked.episode_id, reason="asked by the student")
    assert lexical_ids(app, MARKER) == []
    assert app.ports.index is not None
    assert app.ports.index.term_counts(PAIR, [MARKER]).containing.get(MARKER, 0) == 0
    assert MARKER not in docs.terms(reply.seq)
    assert docs.vector(reply.seq) == [
        round(float(x), 6) for x in HashEmbedder.vector("My cousin, we went bowling")
    ]
    assert after.seq not in docs.latest  # its context (the reply) is still there: untouched
    assert reply.episode_id in lexical_ids(app, "bowling")
    assert raw_hits(folder, MARKER) == []
    assert app.memory.verify_chain(PAIR).intact
    app.close()


# --- the setting ------------------------------------------------------------------------------


def test_the_setting_is_on_unless_told_and_reaches_the_log(tmp_path: Path) -> None:
    assert Settings.from_env({}).index_context is True
    assert Settings.from_env({"TUTOR_MEMORY_INDEX_CONTEXT": "false"}).index_context is False
    assert Settings.from_env({"TUTOR_MEMORY_INDEX_CONTEXT": "On"}).index_context is True
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"TUTOR_MEMORY_INDEX_CONTEXT": "maybe"})
    assert caught.value.variable == "TUTOR_MEMORY_INDEX_CONTEXT"
    assert "'maybe'" in str(caught.value)
    app = make_app(tmp_path / "off", index_context=False)
    assert app.memory.index_context is False
    assert app.with_ports().memory.index_context is False
    app.close()
