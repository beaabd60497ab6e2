"""``python -m tutor_memory.bench scenarios|bench-quality|bench …`` — the same commands as
``tutor-memory …``, usable before (or without) the CLI wiring."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tutor_memory.bench.commands import add_bench_commands, run_bench_command


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor_memory.bench")
    add_bench_commands(parser.add_subparsers(dest="command", required=True))
    return run_bench_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
