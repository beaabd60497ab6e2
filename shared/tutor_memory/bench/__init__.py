"""Evidence that the memory is worth keeping: scenarios, the quality benchmark, the perf bench,
the recall bench.

``cli.py`` wires the four commands in from ``bench/commands.py``.
Nothing heavy is imported here: the CLI's start-up stays small; each command imports what it
needs when it runs.
"""
