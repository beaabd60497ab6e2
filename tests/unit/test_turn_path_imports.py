"""The read path stays light: no networkx (the map's numbers are stored), no cloud SDK in the
domain."""

from __future__ import annotations

import os
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


FUNCTIONS = Path(__file__).resolve().parents[2] / "functions"
# Never at a handler's cold start: what the first event builds (the use cases, the adapters,
# the ports and the settings they are built from, numpy with them), what no handler's import
# needs at all (the map's metrics, the plots, the cloud SDKs' stores).
NOT_AT_COLD_START = (
    "tutor_memory.usecases.nightly",
    "tutor_memory.usecases.turns",
    "tutor_memory.usecases.erasure",
    "tutor_memory.usecases.erasure_entries",
    "tutor_memory.usecases.reports",
    "tutor_memory.adapters.embedded_index",
    "tutor_memory.adapters.sqlite_store",
    "tutor_memory.ports",
    "tutor_memory.settings",
    "pydantic_settings",
    "numpy",
    "networkx",
    "matplotlib",
    "pynamodb",
    "opensearchpy",
)


def handler_imports(name: str, then: str = "print(' '.join(sorted(sys.modules)))") -> set[str]:
    """The modules a fresh interpreter holds after importing ``functions/<name>/app.py`` as
    Lambda does (its folder the working directory, the template's environment); ``then``:
    what it prints instead, words separated by spaces."""
    from tutor_memory.bench.perf import LAMBDA_ENVIRONMENT

    code = (
        "import importlib.util as u, sys\n"
        "s = u.spec_from_file_location('handler', 'app.py')\n"
        "m = u.module_from_spec(s)\n"
        "s.loader.exec_module(m)\n"
        f"{then}\n"
    )
    env = {**os.environ, "AWS_REGION": "us-east-1", **LAMBDA_ENVIRONMENT}
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        cwd=FUNCTIONS / name,
        env=env,
    ).stdout
    return set(out.split())


def test_the_api_handlers_cold_start_imports_no_use_case_and_no_map_metrics() -> None:
    modules = handler_imports("api")
    assert "tutor_memory.api.routes" in modules  # the import itself ran
    assert not {m for m in modules if m.startswith("tutor_memory.usecases")}
    assert not modules.intersection(NOT_AT_COLD_START)


def test_the_api_handlers_cold_start_builds_no_model_of_the_api() -> None:
    # Each is built on its first use (defer_build): a request builds only its route's.
    built = handler_imports(
        "api",
        "from pydantic import BaseModel\n"
        "import tutor_memory.api.models as M\n"
        "models = [c for c in vars(M).values() if isinstance(c, type) and "
        "issubclass(c, BaseModel) and c.__module__ == M.__name__]\n"
        "print(len(models), *[c.__name__ for c in models if c.__pydantic_complete__])",
    )
    assert len(built) == 1 and int(built.pop()) > 40  # the models were there, none built


def test_the_nightly_handlers_cold_start_imports_neither_the_turn_nor_map_metrics() -> None:
    for name in ("nightly", "consolidate"):
        modules = handler_imports(name)
        assert "tutor_memory.bootstrap" in modules
        assert not modules.intersection(NOT_AT_COLD_START), name


def test_the_ingest_handlers_cold_start_imports_no_use_case() -> None:
    modules = handler_imports("ingest")
    assert "tutor_memory.bootstrap" in modules  # the import itself ran
    assert not {m for m in modules if m.startswith("tutor_memory.usecases")}
    assert not modules.intersection(NOT_AT_COLD_START)
