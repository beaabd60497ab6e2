"""`tutor-memory …`: the command line of the embedded default (and of any configured backend)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from tutor_memory.bootstrap import build_service
from tutor_memory.domain.chain import Checkpoint, format_time
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import TutorMemoryError
from tutor_memory.settings import Settings, SettingsError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tutor-memory", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="run the walkthrough on a fresh embedded store")
    demo.add_argument("--home", type=Path, default=Path(".tutor-memory"))

    def with_pair(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--store", type=Path, help="the SQLite file (default: from settings)")
        p.add_argument("--student", required=True)
        p.add_argument("--subject", required=True)
        return p

    log = with_pair(sub.add_parser("log", help="print a pair's episodes, oldest first"))
    log.add_argument("--json", action="store_true")
    verify = with_pair(sub.add_parser("verify", help="recompute a pair's hash chain"))
    verify.add_argument("--checkpoint", type=Path, help="a checkpoint the chain must extend")
    point = with_pair(sub.add_parser("checkpoint", help="export the chain's head as JSON"))
    point.add_argument("--out", type=Path)
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

    settings = Settings.from_env()
    if args.store is not None:
        settings = replace(settings, backend="sqlite", sqlite_path=args.store)
    memory = build_service(settings)
    pair = Pair(args.student, args.subject)

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


if __name__ == "__main__":
    sys.exit(main())
