"""The operator commands of ``tutor-memory`` that drive a whole ``App``: the nightly loop,
erasure, the report and the inspector page (wired in by ``cli.py``). Kept out of the use-case
modules, so that no use case imports argparse or the bootstrap (an import contract in
pyproject.toml checks it)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tutor_memory.bootstrap import App
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.nightly import NightReport
from tutor_memory.usecases.nightly import parse_day
from tutor_memory.usecases.reports import (
    FORMATS,
    render_markdown,
    render_text,
    report_json,
)


def add_nightly_command(subparsers: Any) -> None:
    """``tutor-memory nightly``: wired in by ``cli.py``."""
    p = subparsers.add_parser(
        "nightly", help="run the nightly loop for the pairs active on a day (default: yesterday)"
    )
    p.add_argument("--store", type=Path, help="an embedded store folder (default: from settings)")
    p.add_argument("--day", help="YYYY-MM-DD in the students' time zone (default: yesterday)")
    p.add_argument("--student", help="only this student's pair (with --subject)")
    p.add_argument("--subject", help="only this subject's pair (with --student)")
    p.add_argument("--json", action="store_true", help="one JSON report per pair")


def run_nightly_command(args: argparse.Namespace, app: App) -> int:
    """Run the night; print what each pair's night did. Exit 1 when any pair failed."""
    if bool(args.student) != bool(args.subject):
        raise ValidationError("--student/--subject", "give both, or neither for every pair")
    nightly = app.nightly
    day = parse_day(args.day) if args.day else None
    pairs = [Pair(args.student, args.subject)] if args.student else None
    # the pairs' nights, the retention period's sweep (when one is set), the index's purge
    done = app.night(day, pairs)
    result, retained, held = done.run, done.retained, done.held
    if args.json:
        for report in result.reports:
            print(json.dumps(report.to_dict(), ensure_ascii=False, sort_keys=True))
        for erased in retained:
            print(json.dumps({"retention": erased.to_dict()}, ensure_ascii=False, sort_keys=True))
        if held is not None:
            print(json.dumps({"purge": {"held": held}}))
        for pair, problem in result.failures:
            failed = {"student_id": pair.student_id, "subject_id": pair.subject_id}
            print(json.dumps({**failed, "day": result.day, "status": "failed", "error": problem}))
    else:
        print(f"night of {result.day} ({nightly.ports.timezone}): {len(result.reports)} pair(s)")
        for report in result.reports:
            print(f"  {report.pair}  {_describe(report)}")
        for pair, problem in result.failures:
            print(f"  {pair}  failed: {problem}")
        for erased in retained:
            for name, seqs in erased.erased.items():
                print(f"  {name}  retention: {len(seqs)} bodies past the period erased")
        if held is not None:
            print(f"  search index purged: {held} deleted document(s) still held")
    return 1 if result.failures else 0


def _describe(report: NightReport) -> str:
    if report.status != "done":
        return report.status
    verified = ", ".join(f"{n} {value}" for value, n in report.verified.items()) or "none due"
    return (
        f"done: summary {report.consolidation_id}; {len(report.decayed)} belief(s) decayed; "
        f"citations verified: {verified}"
    )


def add_erase_command(subparsers: Any) -> None:
    """``tutor-memory erase``: wired in by ``cli.py``."""
    p = subparsers.add_parser(
        "erase", help="erase an episode's body, a pair's or a student's (envelopes stay)"
    )
    p.add_argument("--store", type=Path, help="an embedded store folder (default: from settings)")
    p.add_argument("--student", required=True, help="the student whose data is erased")
    p.add_argument("--subject", help="the pair's subject (without it: every subject)")
    p.add_argument("--episode", help="only this episode id (with --subject)")
    p.add_argument("--reason", required=True, help="why, one line: kept in the erasure record")
    p.add_argument("--by", default="cli", help="who asked (kept in the erasure record)")
    p.add_argument("--json", action="store_true", help="print the erasure as JSON")


def run_erase_command(args: argparse.Namespace, app: App) -> int:
    erasing = app.erasing
    assert erasing is not None  # build_app always builds it
    # An operator's erasure can wait for OpenSearch's history (erasure is rare): see purge;
    # and for the chain's verification before its checkpoint is anchored.
    erasing.index_purge_wait = C.INDEX_HISTORY_WAIT_S
    erasing.anchor_at_once = True
    if args.episode and not args.subject:
        raise ValidationError("subject", "--episode needs --subject")
    if args.episode:
        result = erasing.erase_episode(
            Pair(args.student, args.subject), args.episode, reason=args.reason, requested_by=args.by
        )
    elif args.subject:
        result = erasing.erase_pair(
            Pair(args.student, args.subject), reason=args.reason, requested_by=args.by
        )
    else:
        result = erasing.erase_student(args.student, reason=args.reason, requested_by=args.by)
        app.access.forget_reads(args.student)  # who read the record goes too; the count stays
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        return 0
    for name, seqs in result.erased.items():
        derived = result.derived.get(name, [])
        also = f" (and {len(derived)} summaries that quoted them)" if derived else ""
        print(f"{name}: {len(seqs)} episodes erased{also}; envelopes kept")
        print(f"  verify: {app.memory.verify_chain(Pair(*name.split('/')))}")
    return 0


def add_report_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """``tutor-memory report --student S --subject T [--store DIR] [--format …] [--history C]
    [--plots DIR]``."""
    report = subparsers.add_parser("report", help="a pair's report: beliefs, checks, calibration…")
    report.add_argument(
        "--store", type=Path, help="an embedded store folder (default: from settings)"
    )
    report.add_argument("--student", required=True, help="the student's id")
    report.add_argument("--subject", required=True, help="the subject's id")
    report.add_argument(
        "--format", choices=FORMATS, default="text", help="(default: text; json: as --json)"
    )
    report.add_argument("--json", action="store_true", help="print the report as one JSON document")
    report.add_argument("--history", metavar="CONCEPT", help="also the history of this belief")
    report.add_argument(
        "--plots", type=Path, metavar="DIR", help="also write PNG pictures into this folder"
    )
    return report


def run_report_command(args: argparse.Namespace, app: App) -> int:
    pair = Pair(args.student, args.subject)
    report = app.reports.report(pair, history=args.history)
    tz = ZoneInfo(app.ports.timezone)
    if args.json or args.format == "json":
        print(json.dumps(report_json(report), ensure_ascii=False, indent=2))
    elif args.format == "markdown":
        print(render_markdown(report, tz), end="")
    else:
        print(render_text(report, tz), end="")
    if args.plots is not None:
        try:
            from tutor_memory.report_plots import write_plots  # matplotlib only when asked
        except ImportError as exc:  # an install without the plots extra
            print(f"error: --plots needs matplotlib ({exc.name} is missing)", file=sys.stderr)
            return 2
        for path in write_plots(report, args.plots):
            print(f"wrote {path}", file=sys.stderr)
    return 0


def add_inspect_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """``tutor-memory inspect --student S --subject T [--store DIR] --out page.html``."""
    inspect = subparsers.add_parser(
        "inspect", help="write a pair's inspector page: one self-contained HTML file"
    )
    inspect.add_argument(
        "--store", type=Path, help="an embedded store folder (default: from settings)"
    )
    inspect.add_argument("--student", required=True, help="the student's id")
    inspect.add_argument("--subject", required=True, help="the subject's id")
    inspect.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="the HTML file to write"
    )
    inspect.add_argument("--json", action="store_true", help="print what was written as JSON")
    return inspect


def run_inspect_command(args: argparse.Namespace, app: App) -> int:
    from tutor_memory.inspector_html import render_page

    data = app.inspector.inspect(Pair(args.student, args.subject))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render_page(data, served=False), encoding="utf-8")
    if args.json:
        print(json.dumps({"wrote": str(args.out)}, ensure_ascii=False))
        return 0
    print(f"wrote {args.out}")
    return 0


def add_export_command(subparsers: Any) -> None:
    """``tutor-memory export``: wired in by ``cli.py``."""
    p = subparsers.add_parser(
        "export",
        help="write a student's history (or one subject's) as a folder that replay reads",
    )
    p.add_argument("--store", type=Path, help="an embedded store folder (default: from settings)")
    p.add_argument("--student", required=True, help="the student whose history is exported")
    p.add_argument("--subject", help="only this subject (without it: every subject)")
    p.add_argument("--out", type=Path, required=True, help="a new (or empty) folder for the export")
    p.add_argument("--json", action="store_true", help="print the manifest as JSON")


def run_export_command(args: argparse.Namespace, app: App) -> int:

    exporting = app.exporting
    if args.subject:
        export = exporting.pair(Pair(args.student, args.subject))
    else:
        export = exporting.student(args.student)
    history = export.write(args.out)
    if args.json:
        print(json.dumps(export.manifest(), ensure_ascii=False))
        return 0
    for entry in export.pairs:
        missing = len(entry["files_not_kept"])
        not_kept = f"; {missing} file version(s) no longer kept" if missing else ""
        print(
            f"{entry['student']}/{entry['subject']}: {entry['episodes']} episodes "
            f"({entry['erased']} erased: envelope and record only), "
            f"{len(entry['files'])} file(s){not_kept}"
        )
    print(f"wrote {history} and {len(export.files)} file(s) beside it; "
          f"`tutor-memory replay {history} --store NEW_FOLDER` rebuilds it")  # fmt: skip
    return 0
