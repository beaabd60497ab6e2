"""`tutor-memory …`: the command line of the embedded default (and of any configured backend)."""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from tutor_memory.access_commands import (
    add_access_commands,
    add_profile_command,
    check_key_request,
    run_classes_command,
    run_keys_command,
    run_profile_command,
)
from tutor_memory.adapters.file_readers import read_upload
from tutor_memory.bench.commands import BENCH_COMMANDS, add_bench_commands, run_bench_command
from tutor_memory.bootstrap import App, build_app, build_service
from tutor_memory.commands import (
    add_erase_command,
    add_export_command,
    add_inspect_command,
    add_nightly_command,
    add_report_command,
    run_erase_command,
    run_export_command,
    run_inspect_command,
    run_nightly_command,
    run_report_command,
)
from tutor_memory.domain.access import Caller, Role
from tutor_memory.domain.chain import Checkpoint, format_time
from tutor_memory.domain.episodes import Pair, check_time_range, file_id_for
from tutor_memory.domain.errors import NotFoundError, TutorMemoryError, ValidationError
from tutor_memory.domain.failures import failure_kind
from tutor_memory.domain.mapblock import render_map_section
from tutor_memory.domain.recall import RecallResult
from tutor_memory.settings import Settings, SettingsError, on_folder
from tutor_memory.usecases.episodes import NotTeachingError
from tutor_memory.usecases.log import TutorMemory

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 3
EXIT_CODES = """exit codes:
  0  done (also when the reader of the output stops early, as `| head` does)
  1  not found or refused: no such store, pair, file or belief; input the memory refuses;
     a port in use; a broken chain (verify) or profile log (profile show)
  2  usage: an unknown command or flag, a missing argument, a flag value that does not parse,
     a setting that does not (TUTOR_MEMORY_…)
  3  failed unexpectedly (a damaged store, a bug): the error's kind and where it was raised,
     never its message, which may quote a student's words

Commands that add to a store (ingest, teach, record, keys create, classes set or ingest,
profile set) create its folder on first use; the others, serve and mcp among them, need the
store to exist (--store): a mistyped folder is refused, not served empty. Progress bars are
drawn only on a terminal.

--json: every command that prints a result prints it as one JSON document instead (log and
nightly: one JSON object per line); errors stay one line on stderr, with the same exit codes."""
JSON_HELP = "print the result as one JSON document"
# The commands that add to a store, and so create a new --store folder on first use (with
# their action where the command has several: "keys create" makes the first key of a store).
CREATES_STORE = frozenset({"ingest", "teach", "record"})
CREATES_STORE_ACTIONS = frozenset(
    {("keys", "create"), ("classes", "set"), ("classes", "ingest"), ("profile", "set")}
)
RECORD_KINDS = ("question", "answer", "check", "quiz", "taught")


def existing_store(folder: Path) -> None:
    """Refuse a folder without a store: looking, serving or listing never makes one (a
    mistyped ``--store`` would otherwise be served empty, and written to)."""
    if not (folder / "memory.db").exists():
        raise NotFoundError(
            f"no store in {folder} (expected {folder / 'memory.db'}); ingest, teach, record "
            "or keys create make one"
        )


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tutor-memory")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tutor-memory",
        description=__doc__,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {version()}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser("demo", help="run the walkthrough on a fresh embedded store")
    demo.add_argument(
        "--home",
        type=Path,
        default=Path(".tutor-memory"),
        help="the folder the demo's stores go in (default: .tutor-memory)",
    )

    def with_pair(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--store", type=Path, help="an embedded store folder (default: from settings)"
        )
        p.add_argument("--student", required=True, help="the student's id")
        p.add_argument("--subject", required=True, help="the subject's id")
        return p

    log = with_pair(sub.add_parser("log", help="print a pair's episodes, oldest first"))
    log.add_argument("--json", action="store_true", help="one JSON object per episode")
    verify = with_pair(
        sub.add_parser(
            "verify", help="recompute a pair's hash chain, against its newest anchored checkpoint"
        )
    )
    verify.add_argument(
        "--checkpoint",
        type=Path,
        help="a checkpoint file the chain must extend (default: the newest anchored one)",
    )
    verify.add_argument("--json", action="store_true", help=JSON_HELP)
    point = with_pair(
        sub.add_parser(
            "checkpoint",
            help="anchor a signed checkpoint of the chain (if it verifies); print its head as JSON",
        )
    )
    point.add_argument("--out", type=Path, help="write it to this file (default: print it)")
    point.add_argument("--json", action="store_true", help="(the default: it is JSON)")

    migrate = sub.add_parser(
        "migrate",
        help="give erasures made before entries were kept their entries in the chain (and, "
        "in the cloud, index each student's chains, maps and classes)",
    )
    migrate.add_argument("--store", type=Path, help="an embedded store folder (default: settings)")
    migrate.add_argument("--student", help="only this student's pairs (default: every pair)")
    migrate.add_argument("--subject", help="only this subject (with --student)")
    migrate.add_argument("--json", action="store_true", help=JSON_HELP)

    serve = sub.add_parser("serve", help="the API's routes over local HTTP")
    serve.add_argument("--store", type=Path, help="an embedded store folder (default: settings)")
    serve.add_argument("--host", default="127.0.0.1", help="the address (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="the port (default: 8765)")
    serve.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="answer callers without a key as the store's service (127.0.0.1 only)",
    )
    serve.add_argument(
        "--jwks",
        help="also accept bearer JWTs signed by a key of this JWKS (a file or an https URL); "
        "their custom:tenant, custom:role and custom:id (else sub) claims make the caller",
    )
    serve.add_argument("--issuer", help="with --jwks: the tokens' iss must be this")
    serve.add_argument("--audience", help="with --jwks: the tokens' aud must hold this")
    mcp = sub.add_parser("mcp", help="the memory as MCP tools over stdio (for an agent)")
    mcp.add_argument("--store", type=Path, help="an embedded store folder (default: settings)")
    mcp.add_argument(
        "--key",
        default=os.environ.get("TUTOR_MEMORY_API_KEY") or None,
        help="act as this key's caller (default: TUTOR_MEMORY_API_KEY, else the store's service)",
    )
    add_access_commands(sub)
    add_profile_command(sub)
    sub.add_parser("openapi", help="print the OpenAPI document generated from the routes")

    replay = sub.add_parser("replay", help="rebuild a JSONL history into a new, isolated store")
    replay.add_argument("history", type=Path, help="the history: one JSON episode per line")
    replay.add_argument("--store", type=Path, required=True, help="a folder that must not exist")
    replay.add_argument("--skip-bad", action="store_true", help="skip and count bad lines")
    replay.add_argument(
        "--nightly", action="store_true", help="then run the nightly loop for each past day"
    )
    replay.add_argument("--json", action="store_true", help=JSON_HELP)

    ingest = with_pair(sub.add_parser("ingest", help="read a file into the pair's concept map"))
    ingest.add_argument("file", type=Path, help="a PDF, DOCX, Markdown, CSV or text file")
    ingest.add_argument("--file-id", help="the file's id (default: from its name)")
    ingest.add_argument("--json", action="store_true", help=JSON_HELP)
    teach = with_pair(sub.add_parser("teach", help="a student's message that may teach the map"))
    teach.add_argument("message", help='the message, e.g. "remember that …"')
    teach.add_argument("--json", action="store_true", help=JSON_HELP)
    showmap = with_pair(sub.add_parser("map", help="print the pair's map section"))
    showmap.add_argument("--budget", type=int, default=600, help="tokens (default 600)")
    showmap.add_argument("--json", action="store_true", help="the section and the whole map")

    ask = with_pair(sub.add_parser("ask", help="print the memory block a turn would get"))
    ask.add_argument("question", nargs="?", default="", help="the student's question")
    ask.add_argument(
        "--at",
        help="the question's time, ISO 8601 (default: now): nothing recorded after it is "
        "recalled; the beliefs and the map are as they stand now",
    )
    ask.add_argument("--json", action="store_true", help="the block and what went into it")

    prompt = with_pair(
        sub.add_parser("prompt", help="print the tutor's prompt with the block in its memory slot")
    )
    prompt.add_argument("question", nargs="?", default="", help="the student's question")
    for section in ("system", "material", "assessment"):
        prompt.add_argument(f"--{section}", help=f"the {section} section (@FILE reads a file)")
    prompt.add_argument("--at", help="the question's time, ISO 8601 (default: now), as for ask")
    prompt.add_argument("--json", action="store_true", help="the prompt and its sections")

    rederive = with_pair(
        sub.add_parser("rederive", help="re-derive a pair's beliefs under today's rules")
    )
    rederive.add_argument(
        "--reason", default="", help="why, for your own records (not logged: logs hold no words)"
    )
    rederive.add_argument("--force", action="store_true", help="even when nothing would change")
    rederive.add_argument("--json", action="store_true", help=JSON_HELP)

    correct = with_pair(
        sub.add_parser(
            "correct",
            help="correct an earlier episode (a new episode names it; nothing is rewritten)",
        )
    )
    correct.add_argument("episode_id", help="the episode to correct (its id: `log --json`)")
    correct.add_argument(
        "field",
        choices=["verdict", "score", "note", "text"],
        help="a check's verdict, a quiz's score, a taught note, a student's message's text",
    )
    correct.add_argument("value", help="the corrected value: right or wrong, a number, the words")
    correct.add_argument("--reason", required=True, help="why it was wrong (kept in the log)")
    correct.add_argument("--at", help="when it was corrected, ISO 8601 (default: now)")
    correct.add_argument("--json", action="store_true", help=JSON_HELP)

    reindex = with_pair(
        sub.add_parser(
            "reindex",
            help="rebuild a pair's index from its log (after an upgrade that changes what is "
            "indexed, or a new embedding model); the log is not touched",
        )
    )
    reindex.add_argument("--json", action="store_true", help=JSON_HELP)

    remove = with_pair(
        sub.add_parser(
            "remove-file",
            help="remove a file: off the map (its concepts no other file or note explains), "
            "and answers citing it read 'removed'",
        )
    )
    remove.add_argument("file_id", help="the file's id (its name, unless given at ingest)")
    remove.add_argument("--json", action="store_true", help=JSON_HELP)

    add_record_command(sub, with_pair)

    add_report_command(sub)
    add_inspect_command(sub)
    add_nightly_command(sub)
    add_erase_command(sub)
    add_export_command(sub)
    add_bench_commands(sub)

    recall = with_pair(sub.add_parser("recall", help="print what recall finds for a question"))
    recall.add_argument("question", nargs="?", default="", help="the student's question")
    recall.add_argument("--at", help="recall as of this ISO 8601 time (default: now)")
    recall.add_argument("--json", action="store_true", help="the items, pools and timings")
    return parser


def add_record_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    with_pair: Callable[[argparse.ArgumentParser], argparse.ArgumentParser],
) -> None:
    """``tutor-memory record question|answer|check|quiz|taught``: one episode into a live
    store, through ``Episodes.add`` (a check moves its belief, "remember that …" teaches)."""
    record = sub.add_parser(
        "record",
        help="record one episode (question, answer, check, quiz, taught) in a live store",
        description="Record one episode through the one door every caller uses: a check "
        'moves its belief, a question that says "remember that …" teaches the map.',
    )
    kinds = record.add_subparsers(dest="kind", required=True, metavar="KIND")
    helps = {
        "question": "the student's message",
        "answer": "the tutor's answer",
        "check": "a check of the student's understanding, with its verdict",
        "quiz": "a quiz, with its score",
        "taught": 'an instruction to remember ("remember that …")',
    }
    for kind in RECORD_KINDS:
        p = with_pair(kinds.add_parser(kind, help=helps[kind]))
        p.add_argument("text", help="the episode's text (- reads it from standard input)")
        p.add_argument("--at", help="when it happened, ISO 8601 (default: now)")
        p.add_argument("--ref", help="your id for it (a message id), kept with the episode")
        p.add_argument("--summary", default="", help="a one-line summary (default: derived)")
        p.add_argument(
            "--idempotency-key", help="a retry with the same key and text records it once"
        )
        p.add_argument("--json", action="store_true", help="print the episode as JSON")
        if kind == "check":
            p.add_argument("--topic", required=True, help="what was checked: a concept's name")
            p.add_argument(
                "--verdict", required=True, choices=("right", "wrong"), help="the verdict"
            )
            p.add_argument("--evaluation", default="", help="the tutor's evaluation")
            p.add_argument(
                "--predicted-mastery",
                type=float,
                metavar="P",
                help="the mastery (0 to 1) predicted before the check",
            )
        elif kind == "quiz":
            p.add_argument("--score", type=float, required=True, help="the points scored")
            p.add_argument("--maximum", type=float, required=True, help="the points possible")
            p.add_argument(
                "--topic",
                dest="topics",
                action="append",
                default=[],
                metavar="TOPIC",
                help="a topic the quiz covered (repeatable)",
            )
        elif kind == "answer":
            p.add_argument(
                "--recalled",
                action="append",
                default=[],
                metavar="ID",
                help="a memory id the answer was given with (repeatable)",
            )
            p.add_argument("--file-id", help="the file the answer cited")
            p.add_argument("--page", type=int, help="the page it cited")
        elif kind == "taught":
            p.add_argument("--note", help="what to remember, when the text is not an instruction")


class _Warnings(logging.Handler):
    """The set-up's warnings (no embedder installed) as one line each on stderr, where the
    command's errors go: "warning: …"."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"warning: {record.getMessage()}", file=sys.stderr)


def _show_warnings() -> None:
    logger = logging.getLogger("tutor_memory.bootstrap")
    if not any(isinstance(h, _Warnings) for h in logger.handlers):
        logger.addHandler(_Warnings(logging.WARNING))


def main(argv: Sequence[str] | None = None) -> int:
    """The command's exit code (see ``EXIT_CODES``); errors are one line on stderr."""
    args = _parser().parse_args(argv)  # a usage error exits 2 here, with argparse's message
    _show_warnings()
    try:
        code = _run(args)
        sys.stdout.flush()  # a closed stdout shows here, not in the interpreter's last flush
        return code
    except BrokenPipeError:
        # The reader stopped reading (`| head`): what it wanted was written. Point stdout at
        # nothing so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except ValidationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        # A flag whose value does not parse is a usage error; refused input is not.
        return EXIT_USAGE if exc.field.startswith("--") else EXIT_REFUSED
    except SettingsError as exc:
        print(f"error: the settings: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except TutorMemoryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except OSError as exc:  # a file that cannot be read or written, a port in use
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # not a traceback: a library's message may quote the words read
        print(f"error: failed unexpectedly: {failure_kind(exc)}", file=sys.stderr)
        return EXIT_FAILED


def _run(args: argparse.Namespace) -> int:
    if args.command == "demo":
        from tutor_memory.demo import run_demo

        return run_demo(args.home)

    if args.command == "openapi":
        from tutor_memory.api.routes import openapi_json

        print(openapi_json(), end="")
        return 0
    if args.command in BENCH_COMMANDS:
        return run_bench_command(args)
    settings = Settings.from_env()
    if args.command == "replay":
        return _replay(args, settings)
    creates = args.command in CREATES_STORE or (
        (args.command, getattr(args, "action", None)) in CREATES_STORE_ACTIONS
    )
    if args.store is not None and not creates and args.command != "serve":
        existing_store(args.store)  # serve checks its flags first (a usage error is exit 2)
    if args.command == "serve":
        return _serve(args, settings)
    if args.command == "mcp":
        from tutor_memory.mcp_server import run

        return run(args.store, key=args.key)
    if args.command in ("keys", "classes", "profile"):
        check_key_request(args)
        if args.store is not None:
            settings = on_folder(settings, args.store)
        app = build_app(settings)
        try:
            run_access = {
                "keys": run_keys_command,
                "classes": run_classes_command,
                "profile": run_profile_command,
            }[args.command]
            return run_access(args, app)
        finally:
            app.close()
    if args.store is not None:
        settings = on_folder(settings, args.store)
    if args.command == "nightly":  # --student/--subject are optional here
        return run_nightly_command(args, build_app(settings))
    if args.command == "migrate":  # --student and --subject are optional here
        return _migrate(build_service(settings), args)
    if args.command == "erase":  # --subject is optional here
        return run_erase_command(args, build_app(settings))
    if args.command == "export":  # --subject is optional here
        return run_export_command(args, build_app(settings))
    pair = Pair(args.student, args.subject)
    if args.command == "report":
        return run_report_command(args, build_app(settings))
    if args.command == "inspect":
        return run_inspect_command(args, build_app(settings))
    if args.command in ("ingest", "teach", "map"):
        return _map_command(build_app(settings), pair, args)
    if args.command == "record":
        return _record(build_app(settings), pair, args)
    if args.command == "correct":
        return _correct(build_app(settings), pair, args)
    if args.command == "ask":
        return _ask(build_app(settings), pair, args)
    if args.command == "prompt":
        return _prompt(build_app(settings), pair, args)
    if args.command == "remove-file":
        record = build_app(settings).maps.take_out(pair, args.file_id)
        if args.json:
            return print_json(
                {
                    "file_id": record.file_id,
                    "name": record.name,
                    "versions": len(record.versions),
                    "removed_at": None
                    if record.removed_at is None
                    else format_time(record.removed_at),
                }
            )
        print(f"{record.name}: removed; answers that cite it now read 'changed: removed'")
        return 0
    if args.command == "rederive":
        done = build_app(settings).learning.rederive(pair, force=args.force)
        if args.json:
            return print_json(
                {
                    "retired": done.retired,
                    "created": done.created,
                    "generation": done.generation,
                    "changed": done.changed,
                }
            )
        if not done.changed:
            print(f"{pair}: the current beliefs already follow today's rules; nothing changed")
        else:
            print(
                f"{pair}: {done.retired} beliefs retired, {done.created} rows written under "
                f"today's rules (generation {done.generation}); no episode was touched"
            )
        return 0
    if args.command == "recall":  # the whole app: recall reads the student's profile too
        app = build_app(settings)
        try:
            return _recall(app.memory, pair, args)
        finally:
            app.close()
    memory = build_service(settings)

    if args.command in ("log", "verify", "checkpoint", "reindex") and (
        memory.ports.store.head(pair) is None
    ):
        where = f" in {args.store}" if args.store is not None else ""
        raise NotFoundError(f"no record of {pair}{where}: nothing was recorded for this pair")
    if args.command == "reindex":
        count = memory.reindex(pair)
        if args.json:
            print_json({"pair": str(pair), "indexed": count})
        else:
            print(f"{pair}: {count} episodes indexed again from the log")
        return 0
    if args.command == "log":
        for ep in memory.ports.store.iter_episodes(pair):
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
            checkpoint = _checkpoint_file(args.checkpoint)
        report = memory.verify_chain(pair, checkpoint)
        if args.json:
            print_json(
                {
                    "intact": report.intact,
                    "episodes": report.episodes,
                    "head_hash": report.head_hash,
                    "break_seq": report.break_seq,
                    "break_kind": report.break_kind,
                    "detail": report.detail,
                    "report": str(report),
                    "erased": report.erased,
                    "checkpoint_seq": report.checkpoint_seq,
                }
            )
        else:
            print(report)
        return 0 if report.intact else 1
    if args.command == "checkpoint":
        # Anchored where the store's writer cannot rewrite it (when the store has an anchor),
        # and printed (or written) for keeping elsewhere too, as `verify --checkpoint` reads it.
        anchoring = memory.anchor_checkpoint(pair)
        document = memory.checkpoint(pair).to_dict()
        kept = anchoring.checkpoint
        document["anchored"] = (
            None
            if kept is None
            else {**kept.to_dict(), "where": kept.where, "new": anchoring.anchored}
        )
        text = json.dumps(document, indent=2)
        if args.out is not None:
            args.out.write_text(text + "\n")
        else:
            print(text)
        if anchoring.refused and memory.anchor is not None:
            print(f"error: not anchored: {anchoring.refused}", file=sys.stderr)
            return EXIT_REFUSED
        return 0
    raise AssertionError(args.command)


def _correct(app: App, pair: Pair, args: argparse.Namespace) -> int:
    """A correction as the operator (the service's role): ``Episodes.correct``."""
    if app.ports.store.head(pair) is None:
        raise NotFoundError(f"no record of {pair}: nothing was recorded for this pair")
    value: str | float = args.value
    if args.field == "score":
        try:
            value = float(args.value)
        except ValueError:
            raise ValidationError("value", "a score is a number") from None
    added = app.episodes.correct(
        pair, args.episode_id, args.field, value, args.reason, by=Role.SERVICE, at=_at(args.at)
    )
    belief = added.belief.line() if added.belief else None
    if args.json:
        return print_json(
            {"id": added.episode.episode_id, "seq": added.episode.seq,
             "summary": added.episode.summary, "belief": belief}
        )  # fmt: skip
    print(f"{pair}: corrected ({added.episode.summary})" + (f"; now {belief}" if belief else ""))
    return 0


def print_json(document: object) -> int:
    """A command's result as one JSON document (``--json``); the exit code 0."""
    print(json.dumps(document, ensure_ascii=False, indent=2))
    return EXIT_OK


class Progress:
    """A progress bar (tqdm) on stderr when stderr is a terminal; nothing otherwise, so that
    no carriage return ever lands in a log or a pipe."""

    def __init__(self, label: str, stream: TextIO | None = None, unit: str = "event") -> None:
        from tqdm import tqdm

        out = stream if stream is not None else sys.stderr
        self.bar = tqdm(desc=label, unit=unit, file=out, disable=not out.isatty(), leave=True)

    def __call__(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from tutor_memory.api.local_server import make_server
    from tutor_memory.api.routes import build_resolver

    if args.store is not None:
        settings = on_folder(settings, args.store)
    anonymous: Caller | None = None  # a request without a valid key: 401
    if args.insecure_no_auth:
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            raise ValidationError("--host", "--insecure-no-auth serves 127.0.0.1 only")
        print(
            "warning: --insecure-no-auth: any program on this machine may read, write and "
            "erase every student of this store",
            file=sys.stderr,
        )
    if (args.issuer or args.audience) and not args.jwks:
        raise ValidationError("--issuer", "--issuer and --audience need --jwks")
    tokens = None
    if args.jwks:
        from tutor_memory.adapters.jwt_tokens import TokenVerifier

        try:
            tokens = TokenVerifier(args.jwks, issuer=args.issuer, audience=args.audience).claims
        except ValueError as exc:
            raise ValidationError("--jwks", str(exc)) from None
    if args.store is not None:
        existing_store(args.store)
    app = build_app(settings)
    if args.insecure_no_auth:
        anonymous = Caller(app.access.tenant, Role.SERVICE, "local")
    app.warm()  # the model loads now, not inside the first turn's deadline
    # One access-log line per request (and errors with their correlation id) on stderr; set
    # before the server is made, which says so when it raises the open-file limit.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        resolver = build_resolver(lambda: app, anonymous=anonymous, tokens=tokens)
        server = make_server(resolver, args.host, args.port)
    except OSError as exc:  # a port in use, an address not on this machine: refused, said so
        why = "is in use (another serve?)" if exc.errno == errno.EADDRINUSE else exc.strerror
        print(f"error: cannot listen on {args.host}:{args.port}: {why}", file=sys.stderr)
        app.close()
        return EXIT_REFUSED
    print(f"serving the turn API on http://{args.host}:{server.server_port} (Ctrl-C stops)")
    if not args.insecure_no_auth:
        print(
            "every call needs an API key (tutor-memory keys create --role service …)"
            + (" or a token signed by a key of the JWKS" if tokens else "")
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        app.close()
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
    nights = consolidated = 0
    if args.nightly and report.first_at and report.last_at:
        app = build_app(on_folder(settings, args.store))
        day, last = report.first_at.date(), report.last_at.date()
        while day <= last:
            run = app.nightly.run(day)
            nights += 1
            consolidated += sum(1 for r in run.reports if r.consolidation_id)
            day += timedelta(days=1)
    if args.json:
        return print_json(
            {
                "store": str(args.store),
                "events": report.events,
                "pairs": report.pairs,
                "skipped": report.skipped,
                "unreadable": report.unreadable,
                "events_per_second": report.events_per_second,
                "seconds": report.seconds,
                "ids_kept": report.ids_kept,
                "ids_changed": report.ids_changed,
                "profile_statements": report.statements,
                "profile_statements_refused": report.statements_refused,
                "first_changed": report.first_changed or None,
                "nights": nights,
                "consolidated": consolidated,
            }
        )
    spent = ", ".join(f"{name} {sec:.2f} s" for name, sec in report.seconds.items())
    print(
        f"replayed {report.events} events for {report.pairs} pair(s) into {args.store}"
        f" ({report.events_per_second:.1f} events/s; {spent})"
        + (f"; skipped {report.skipped} bad line(s)" if report.skipped else "")
        + (f"; {report.unreadable} unreadable file(s) recorded" if report.unreadable else "")
    )
    if report.ids_kept or report.ids_changed:
        print(
            f"exported ids: {report.ids_kept} came back the same, {report.ids_changed} did not"
            + (f" (first: {report.first_changed})" if report.first_changed else "")
        )
    if report.statements or report.statements_refused:
        refused = report.statements_refused
        print(
            f"profile: {report.statements} statement(s) stated again"
            + (f", {refused} refused (malformed, or against today's rules)" if refused else "")
        )
    if args.nightly and report.first_at and report.last_at:
        print(f"ran {nights} nights in order; {consolidated} day(s) consolidated")
    return 0


def _map_command(app: App, pair: Pair, args: argparse.Namespace) -> int:
    if args.command == "ingest":
        name = args.file.name
        if not args.file.is_file():
            raise NotFoundError(f"no file {args.file}")
        file_id = args.file_id or file_id_for(name)
        result = app.maps.ingest(pair, file_id, name, read_upload(args.file))
        if args.json:
            return print_json(
                {
                    "file": name,
                    "file_id": file_id,
                    "already_read": result.already_read,
                    "concepts": list(result.concepts),
                    "rejected": [{"name": n, "why": why} for n, why in result.rejected],
                    "merged_by_similarity": [
                        {"draft": d, "into": node} for d, node in result.merged_by_similarity
                    ],
                    "map_version": result.map_version,
                }
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
            if args.json:
                return print_json(
                    {
                        "taught": False,
                        "concept": None,
                        "new_node": False,
                        "note": None,
                        "episode_id": None,
                    }
                )
            print("not an instruction to remember: nothing was taught")
            return 0
        assert taught is not None  # a taught message without a note teaches or is refused
        if args.json:
            return print_json(
                {
                    "taught": True,
                    "concept": taught.concept_name,
                    "new_node": taught.new_node,
                    "note": taught.note,
                    "episode_id": taught.episode_id,
                }
            )
        kind = "a new node" if taught.new_node else "the concept"
        print(f"taught {kind} {taught.concept_name!r}: {taught.note}")
        return 0
    cmap = app.ports.store.load_map(pair)
    section = render_map_section(cmap, args.budget)
    if args.json:
        whole = {k: v for k, v in cmap.to_dict().items() if k != "vectors"}  # not for reading
        return print_json(
            {
                "section": section.text,
                "tokens": section.tokens_used,
                "shown": list(section.concept_keys),
                "edges": [list(e) for e in cmap.edges()],
                **whole,
            }
        )
    print(section.text or "(no map yet: ingest a file)")
    return 0


def _record(app: App, pair: Pair, args: argparse.Namespace) -> int:
    """One episode through ``Episodes.add``; what it recorded and what it changed."""
    text = sys.stdin.read() if args.text == "-" else args.text
    evidence: dict[str, object] | None = None
    if args.kind == "check":
        evidence = {"topic": args.topic, "verdict": args.verdict, "evaluation": args.evaluation,
                    "predicted_mastery": args.predicted_mastery}  # fmt: skip
    elif args.kind == "quiz":
        evidence = {"score": args.score, "maximum": args.maximum, "topics": args.topics}
    elif args.kind == "answer" and (args.file_id or args.page is not None):
        evidence = {"file_id": args.file_id, "page": args.page}
    elif args.kind == "taught" and args.note:
        evidence = {"note": args.note}
    added = app.episodes.add(
        pair,
        args.kind,
        text,
        evidence=evidence,
        at=_at(args.at),
        summary=args.summary,
        recalled_ids=getattr(args, "recalled", ()),
        ref=args.ref,
        idempotency_key=args.idempotency_key,
    )
    ep = added.episode
    taught = added.taught.concept_name if added.taught else None
    belief = added.belief.line() if added.belief else None
    if args.json:
        print(json.dumps({"id": ep.episode_id, "seq": ep.seq, "kind": ep.kind.value,
                          "at": format_time(ep.at), "summary": ep.summary, "ref": ep.ref,
                          "created": added.created, "taught": taught, "belief": belief},
                         ensure_ascii=False))  # fmt: skip
        return EXIT_OK
    said = "recorded" if added.created else "already recorded (the same --idempotency-key)"
    print(f"{said} {ep.kind.value} {ep.episode_id} (#{ep.seq}): {ep.summary}")
    if added.taught is not None:
        print(f"taught the concept {taught!r}: {added.taught.note}")
    if belief is not None:
        print(f"belief: {belief}")
    elif args.kind == "check" and added.created:
        print("about no concept: kept as evidence, no belief moved")
    return EXIT_OK


def _at(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError("--at", f"is not an ISO 8601 time ({text!r})") from None
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    # the range the API and the library hold a caller's time to (up to a day after now)
    return check_time_range("at", at, datetime.now(UTC))


def _ask(app: App, pair: Pair, args: argparse.Namespace) -> int:
    app.warm()  # the model loads before the turn's deadline starts
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
        return Path(value[1:]).read_bytes().decode("utf-8")
    except OSError as exc:
        raise ValidationError("section", f"cannot read {value[1:]!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ValidationError(
            "section", f"{value[1:]!r} is not UTF-8 text (byte {exc.start + 1})"
        ) from None


def _checkpoint_file(path: Path) -> Checkpoint:
    """A checkpoint as the ``checkpoint`` command printed it; what is not one is refused,
    named, never a traceback."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        return Checkpoint.from_dict(data)
    except UnicodeDecodeError:
        raise ValidationError("checkpoint", f"{path} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ValidationError("checkpoint", f"{path} is not JSON ({exc.msg} at {where})") from None
    except RecursionError:
        raise ValidationError("checkpoint", f"{path} nests too deeply to read") from None
    except KeyError as exc:
        raise ValidationError(
            "checkpoint", f"{path} has no {exc.args[0]!r}: give what `checkpoint --json` printed"
        ) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ValidationError("checkpoint", f"{path} is not a checkpoint ({exc})") from None


def _prompt(app: App, pair: Pair, args: argparse.Namespace) -> int:
    app.warm()  # the model loads before the turn's deadline starts, as for `ask`
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


def _migrate(memory: TutorMemory, args: argparse.Namespace) -> int:
    """``tutor-memory migrate``: every pair with erasure records (or the one named) whose
    erasures were made before entries were kept gets their entries and a checkpoint
    (``usecases.erasure_entries.migrate_pre_entry_erasures``); 1 if any pair was refused."""
    from tutor_memory.usecases.erasure_entries import migrate_pre_entry_erasures

    if args.subject and not args.student:
        raise ValidationError("subject", "--subject needs --student")
    if args.student and args.subject:
        pairs = [Pair(args.student, args.subject)]
    else:
        pairs = [
            p
            for p in memory.ports.store.erased_pairs()
            if not args.student or p.student_id == args.student
        ]
    done = [migrate_pre_entry_erasures(memory, pair) for pair in pairs]
    # The cloud store's student index (a tenant's credentials may not scan the table).
    index_students = getattr(memory.ports.store, "index_students", None)
    indexed = index_students(args.student) if callable(index_students) else None
    # A tenant's data keys wrapped before their context named the tenant (student_keys).
    rewrap = getattr(memory.ports.store, "rewrap_student_keys", None)
    rewrapped = rewrap(args.student) if callable(rewrap) else None
    if args.json:
        print_json(
            {
                "pairs": [
                    {
                        "student_id": m.pair.student_id,
                        "subject_id": m.pair.subject_id,
                        "adopted": list(m.adopted),
                        "entries": list(m.entries),
                        "anchored": m.anchored,
                        "report": str(m.report),
                        "refused": m.refused or None,
                    }
                    for m in done
                ],
                **({} if indexed is None else {"student_index_items": indexed}),
                **({} if rewrapped is None else {"data_keys_rewrapped": rewrapped}),
            }
        )
    else:
        for migrated in done:
            print(migrated)
        migrated_pairs = sum(1 for m in done if m.adopted and not m.refused)
        print(f"{migrated_pairs} of {len(done)} pairs with erasure records migrated")
        if indexed is not None:
            print(f"{indexed} student index items written (chains, maps, classes followed)")
        if rewrapped:
            print(f"{rewrapped} data keys wrapped again under their tenant's context")
    return 1 if any(m.refused for m in done) else 0
