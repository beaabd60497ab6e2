"""The README's "Use it from your code" example runs as written (it is examples/quickstart.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "quickstart.py"


def readme_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use it from your code", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the section has a python block"
    return found.group(1)


def test_the_readme_shows_the_example_file_as_it_is() -> None:
    assert readme_example() == EXAMPLE.read_text(encoding="utf-8")
    assert len(readme_example().splitlines()) <= 20


def test_the_example_runs_and_prints_the_block_the_belief_and_the_chain(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "shared"),
        "TUTOR_MEMORY_EMBEDDER": "none",  # the offline model is tested elsewhere
        "TUTOR_MEMORY_TURN_DEADLINE": "30",  # the longest allowed: no test races the clock
    }
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "- struggles with osmosis (0.67)" in lines  # in the block
    assert "struggles with osmosis (0.67)" in lines  # the belief's line
    assert lines[-1].startswith("intact: 3 episodes")
    assert (tmp_path / "my-tutor-memory" / "memory.db").exists()
