"""The read path stays light: no networkx (the map's numbers are stored), no cloud SDK in the
domain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "shared" / "tutor_memory" / "domain"


def loaded_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


def test_building_the_app_and_recalling_never_imports_networkx() -> None:
    modules = loaded_after(
        "from tutor_memory.bootstrap import build_app\n"
        "from tutor_memory.settings import Settings\n"
        "from tutor_memory.domain.mapblock import render_map_section\n"
        "import tempfile, pathlib\n"
        "home = pathlib.Path(tempfile.mkdtemp())\n"
        "app = build_app(Settings(embedder='none', home=home, sqlite_path=home / 'm.db',"
        " index_path=home / 'i.db'))\n"
        "from tutor_memory.domain.episodes import Pair\n"
        "app.memory.recall(Pair('s', 'b'), 'What is osmosis?')\n"
        "render_map_section(app.ports.store.load_map(Pair('s', 'b')), 500)\n"
    )
    assert "tutor_memory.usecases.log" in modules  # the check itself ran
    assert "networkx" not in modules


def test_the_domain_imports_no_cloud_sdk() -> None:
    forbidden = ("boto3", "botocore", "pynamodb", "opensearchpy", "aws_lambda_powertools")
    for path in DOMAIN.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                assert not words[1].startswith(forbidden), f"{path.name}: {line}"
