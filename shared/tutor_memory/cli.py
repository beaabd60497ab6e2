"""`tutor-memory …`: the command line of the embedded default (and of any configured backend)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tutor_memory.bench import BENCH_COMMANDS, add_bench_commands, run_bench_command
from tutor_memory.bootstrap import App, build_app, build_service
from tutor_memory.domain.chain import Checkpoint, format_time
from tutor_memory.domain.episodes import Pair, file_id_for
from tutor_memory.domain.errors import TutorMemoryError, ValidationError
from tutor_memory.domain.mapblock import render_map_section
from tutor_memory.domain.recall import RecallResult
from tutor_memory.episodes import NotTeachingError
from tutor_memory.erasure import add_erase_command, run_erase_command
from tutor_memory.inspector import add_inspect_command, run_inspect_command
from tutor_memory.nightly_service import add_nightly_command, run_nightly_command
from tutor_memory.reports import add_report_command, run_report_command
from tutor_memory.service import TutorMemory
from tutor_memory.settings import Settings, SettingsError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tutor-memory", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="run the walkthrough on a fresh embedded store")
    demo.add_argument("--home", type=Path, default=Path(".tutor-memory"))

    def with_pair(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--store", type=Path, help="an embedded store folder (default: from settings)"
        )
        p.add_argument("--student", required=True)
        p.add_argument("--subject", required=True)
        return p

    log = with_pair(sub.add_parser("log", help="print a pair's episodes, oldest first"))
    log.add_argument("--json", action="store_true")
    verify = with_pair(sub.add_parser("verify", help="recompute a pair's hash chain"))
    verify.add_argument("--checkpoint", type=Path, help="a checkpoint the chain must extend")
    point = with_pair(sub.add_parser("checkpoint", help="export the chain's head as JSON"))
    point.add_argument("--out", type=Path)

    serve = sub.add_parser("serve", help="the API's routes over local HTTP")
    serve.add_argument("--store", type=Path, help="an embedded store folder (default: settings)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    mcp = sub.add_parser("mcp", help="the memory as MCP tools over stdio (for an agent)")
    mcp.add_argument("--store", type=Path, help="an embedded store folder (default: settings)")
    sub.add_parser("openapi", help="print the OpenAPI document generated from the routes")

    replay = sub.add_parser("replay", help="rebuild a JSONL history into a new, isolated store")
    replay.add_argument("history", type=Path)
    replay.add_argument("--store", type=Path, required=True, help="a folder that must not exist")
    replay.add_argument("--skip-bad", action="store_true", help="skip and count bad lines")
    replay.add_argument(
        "--nightly", action="store_true", help="then run the nightly loop for each past day"
    )

    ingest = with_pair(sub.add_parser("ingest", help="read a file into the pair's concept map"))
    ingest.add_argument("file", type=Path)
    ingest.add_argument("--file-id", help="the file's id (default: from its name)")
    teach = with_pair(sub.add_parser("teach", help="a student's message that may teach the map"))
    teach.add_argument("message")
    showmap = with_pair(sub.add_parser("map", help="print the pair's map section"))
    showmap.add_argument("--budget", type=int, default=600, help="tokens (default 600)")

    ask = with_pair(sub.add_parser("ask", help="print the memory block a turn would get"))
    ask.add_argument("question", nargs="?", default="")
    ask.add_argument("--at", help="ask as of this ISO 8601 time (default: now)")
    ask.add_argument("--json", action="store_true")

    prompt = with_pair(
        sub.add_parser("prompt", help="print the tutor's prompt with the block in its memory slot")
    )
    prompt.add_argument("question", nargs="?", default="")
    for section in ("system", "material", "assessment"):
        prompt.add_argument(f"--{section}", help=f"the {section} section (@FILE reads a file)")
    prompt.add_argument("--at", help="as of this ISO 8601 time (default: now)")
    prompt.add_argument("--json", action="store_true")

    rederive = with_pair(
        sub.add_parser("rederive", help="re-derive a pair's beliefs under today's rules")
    )
    rederive.add_argument("--reason", default="", help="why (kept in the log)")
    rederive.add_argument("--force", action="store_true", help="even when nothing would change")

    remove = with_pair(
        sub.add_parser("remove-file", help="remove a file: answers citing it read 'removed'")
    )
    remove.add_argument("file_id")

    add_report_command(sub)
    add_inspect_command(sub)
    add_nightly_command(sub)
    add_erase_command(sub)
    add_bench_commands(sub)

    recall = with_pair(sub.add_parser("recall", help="print what recall finds for a question"))
    recall.add_argument("question", nargs="?", default="")
    recall.add_argument("--at", help="recall as of this ISO 8601 time (default: now)")
    recall.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (TutorMemoryError, SettingsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "demo":
        from tutor_memory.demo import run_demo

        return run_demo(args.home)

    if args.command == "openapi":
        from tutor_memory.api.openapi import openapi_json

        print(openapi_json(), end="")
        return 0
    if args.command in BENCH_COMMANDS:
        return run_bench_command(args)
    settings = Settings.from_env()
    if args.command == "replay":
        return _replay(args, settings)
    if args.command == "serve":
        return _serve(args, settings)
    if args.command == "mcp":
        from tutor_memory.mcp_server import run

        return run(args.store)
    if args.store is not None:
        if not (args.store / "memory.db").exists():
            print(
                f"error: no store in {args.store} (expected {args.store / 'memory.db'})",
                file=sys.stderr,
            )
            return 2
        settings = on_folder(settings, args.store)
    if args.command == "nightly":  # --student/--subject are optional here
        return run_nightly_command(args, build_app(settings))
    if args.command == "erase":  # --subject is optional here
        return run_erase_command(args, build_app(settings))
    pair = Pair(args.student, args.subject)
    if args.command == "report":
        return run_report_command(args, build_app(settings))
    if args.command == "inspect":
        return run_inspect_command(args, build_app(settings))
    if args.command in ("ingest", "teach", "map"):
        return _map_command(build_app(settings), pair, args)
    if args.command == "ask":
        return _ask(build_app(settings), pair, args)
    if args.command == "prompt":
        return _prompt(build_app(settings), pair, args)
    if args.command == "remove-file":
        record = build_service(settings).remove_file(pair, args.file_id)
        print(f"{record.name}: removed; answers that cite it now read 'changed: removed'")
        return 0
    if args.command == "rederive":
        done = build_app(settings).learning.rederive(pair, force=args.force, reason=args.reason)
        if not done.changed:
            print(f"{pair}: the current beliefs already follow today's rules; nothing changed")
        else:
            print(
                f"{pair}: {done.retired} beliefs retired, {done.created} rows written under "
                f"today's rules (generation {done.generation}); no episode was touched"
            )
        return 0
    memory = build_service(settings)
    if args.command == "recall":
        return _recall(memory, pair, args)

    if args.command == "log":
        for ep in memory.store.iter_episodes(pair):
            if args.json:
                print(
                    json.dumps(
                        {
                            "id": ep.episode_id,
                            "seq": ep.seq,
                            "at": format_time(ep.at),
                            "kind": ep.kind.value,
                            "summary": ep.summary,
                            "text": ep.text,
                            "evidence": ep.evidence.to_dict(),
                            "ref": ep.ref,
                            "hash": ep.hash,
                        },
                        ensure_ascii=False,
                    )
                )
            else:
                print(f"{ep.seq:>5}  {format_time(ep.at)}  {ep.kind.value:<13} {ep.summary}")
        return 0
    if args.command == "verify":
        checkpoint = None
        if args.checkpoint is not None:
            checkpoint = Checkpoint.from_dict(json.loads(args.checkpoint.read_text()))
        report = memory.verify_chain(pair, checkpoint)
        print(report)
        return 0 if report.intact else 1
    if args.command == "checkpoint":
        text = json.dumps(memory.checkpoint(pair).to_dict(), indent=2)
        if args.out is not None:
            args.out.write_text(text + "\n")
        else:
            print(text)
        return 0
    raise AssertionError(args.command)


def on_folder(settings: Settings, folder: Path) -> Settings:
    """The embedded default inside one folder: the log and the index side by side."""
    return replace(
        settings,
        backend="sqlite",
        index="embedded",
        home=folder,
        sqlite_path=folder / "memory.db",
        index_path=folder / "index.db",
    )


class Progress:
    """A one-line progress bar on stderr, with throughput."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        bar = "#" * filled + "." * (width - filled)
        print(f"\r{self.label} [{bar}] {done}/{total} {rate:.1f}/s", end="", file=sys.stderr)
        if done >= total:
            print(file=sys.stderr)


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from tutor_memory.api.local_server import make_server
    from tutor_memory.api.routes import build_resolver

    if args.store is not None:
        settings = on_folder(settings, args.store)
    app = build_app(settings)
    server = make_server(build_resolver(lambda: app), args.host, args.port)
    # One access-log line per request (and errors with their correlation id) on stderr.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    print(f"serving the turn API on http://{args.host}:{server.server_port} (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _replay(args: argparse.Namespace, settings: Settings) -> int:
    from tutor_memory.replay import replay

    report = replay(
        args.history,
        args.store,
        lambda folder: build_app(on_folder(settings, folder)),
        skip_bad=args.skip_bad,
        on_progress=Progress("replaying"),
    )
    spent = ", ".join(f"{name} {sec:.2f} s" for name, sec in report.seconds.items())
    print(
        f"replayed {report.events} events for {report.pairs} pair(s) into {args.store}"
        f" ({report.events_per_second:.1f} events/s; {spent})"
        + (f"; skipped {report.skipped} bad line(s)" if report.skipped else "")
        + (f"; {report.unreadable} unreadable file(s) recorded" if report.unreadable else "")
    )
    if args.nightly and report.first_at and report.last_at:
        app = build_app(on_folder(settings, args.store))
        day, last = report.first_at.date(), report.last_at.date()
        nights = consolidated = 0
        while day <= last:
            run = app.nightly.run(day)
            nights += 1
            consolidated += sum(1 for r in run.reports if r.consolidation_id)
            day += timedelta(days=1)
        print(f"ran {nights} nights in order; {consolidated} day(s) consolidated")
    return 0


def _map_command(app: App, pair: Pair, args: argparse.Namespace) -> int:
    if args.command == "ingest":
        name = args.file.name
        result = app.maps.ingest(
            pair, args.file_id or file_id_for(name), name, args.file.read_bytes()
        )
        if result.already_read:
            print(f"{name}: these bytes were read before; nothing to do")
            return 0
        print(f"{name}: {len(result.concepts)} concepts — {', '.join(result.concepts)}")
        for refused, why in result.rejected:
            print(f"  refused {refused!r}: {why}")
        for draft, node in result.merged_by_similarity:
            print(f"  merged {draft!r} into {node!r} (similar names)")
        return 0
    if args.command == "teach":
        try:
            taught = app.episodes.add(pair, "taught", args.message).taught
        except NotTeachingError:
            print("not an instruction to remember: nothing was taught")
            return 0
        assert taught is not None  # a taught message without a note teaches or is refused
        kind = "a new node" if taught.new_node else "the concept"
        print(f"taught {kind} {taught.concept_name!r}: {taught.note}")
        return 0
    cmap = app.memory.store.load_map(pair)  # type: ignore[attr-defined]
    section = render_map_section(cmap, args.budget)
    print(section.text or "(no map yet: ingest a file)")
    return 0


def _at(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError("--at", f"is not an ISO 8601 time ({text!r})") from None
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _ask(app: App, pair: Pair, args: argparse.Namespace) -> int:
    result = app.turns.turn(pair, args.question, at=_at(args.at))
    if not args.json:
        print(result.block if not result.dropped else "(dropped: the block missed its deadline)")
        return 0
    recalled = recall_json(result.recall)["items"] if result.recall else []
    print(
        json.dumps(
            {
                "block": result.block,
                "dropped": result.dropped,
                "record_question": result.record_question,
                "window": result.window,
                "window_empty": result.window_empty,
                "memory_ids": list(result.memory_ids),
                "belief_ids": list(result.belief_ids),
                "tokens": result.tokens,
                "recalled": recalled,
                "timings_ms": result.timings_ms,
            },
            ensure_ascii=False,
            indent=2,
        )
    )
    return 0


def _section_text(value: str | None) -> str | None:
    """A section given on the command line, or read from a file when it is ``@path``."""
    if value is None or not value.startswith("@"):
        return value
    try:
        return Path(value[1:]).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValidationError("section", f"cannot read {value[1:]!r}: {exc.strerror}") from None


def _prompt(app: App, pair: Pair, args: argparse.Namespace) -> int:
    placed = app.turns.prompt(
        pair,
        args.question,
        system=_section_text(args.system) or "",
        material=_section_text(args.material) or "",
        assessment=_section_text(args.assessment),
        at=_at(args.at),
    )
    if not args.json:
        print(placed.text)
        return 0
    result = placed.turn
    print(
        json.dumps(
            {
                "prompt": placed.text,
                "sections": [{"title": t, "text": x} for t, x in placed.sections],
                "memory_ids": list(result.memory_ids),
                "dropped": result.dropped,
                "tokens": result.tokens,
            },
            ensure_ascii=False,
            indent=2,
        )
    )
    return 0


def _recall(memory: TutorMemory, pair: Pair, args: argparse.Namespace) -> int:
    result = memory.recall(pair, args.question, at=_at(args.at))
    if args.json:
        print(json.dumps(recall_json(result), ensure_ascii=False, indent=2))
        return 0
    if result.window is not None:
        state = "nothing recorded" if result.window_empty else f"{len(result.items)} found"
        print(f"time window: {result.window.label} — {state}")
    print(f"mode: {result.mode.value}; pools: {result.pool_sizes}")
    for item in result.items:
        repeat = f" (×{item.count})" if item.count > 1 else ""
        print(
            f"{item.score:.3f}  {item.episode.at:%d %b %Y}  {item.episode.kind.value:<8} "
            f"{item.episode.summary}{repeat}  [{', '.join(item.pools)}] {item.episode.episode_id}"
        )
    return 0


def recall_json(result: RecallResult) -> dict[str, object]:
    window = result.window
    return {
        "window": None
        if window is None
        else {
            "label": window.label,
            "start": format_time(window.start),
            "end": format_time(window.end),
            "empty": result.window_empty,
        },
        "mode": result.mode.value,
        "terms": list(result.terms),
        "concepts": list(result.concept_keys),
        "pool_sizes": result.pool_sizes,
        "timings_ms": result.timings_ms,
        "items": [
            {
                "id": i.episode.episode_id,
                "ref": i.episode.ref,
                "kind": i.episode.kind.value,
                "at": format_time(i.episode.at),
                "summary": i.episode.summary,
                "score": i.score,
                "pools": list(i.pools),
                "count": i.count,
                "first_at": format_time(i.first_at),
                "last_at": format_time(i.last_at),
                "collapsed_ids": list(i.collapsed_ids),
            }
            for i in result.items
        ],
    }


if __name__ == "__main__":
    sys.exit(main())
