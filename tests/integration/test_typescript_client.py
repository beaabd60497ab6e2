"""The TypeScript client (clients/typescript): built with tsc, its node tests run against a
`serve` started here, and its generated types are what the committed OpenAPI document makes.

`npm ci` runs here when node_modules is absent (or older than the lockfile), so `make test`
on a clean checkout installs the client; without node or npm the tests are skipped."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor_memory.bootstrap import build_app
from tutor_memory.settings import Settings, on_folder

from .conftest import CLIENT, NODE, NPM, TEST_TURN_DEADLINE_S, serving
from .conftest import run_in_client as run

ROOT = Path(__file__).resolve().parents[2]
NODE_MAJOR_NEEDED = 20  # the global fetch and `node --test` as the client's tests use them


def _node_major() -> int:
    if NODE is None:
        return 0
    found = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False)
    match = re.match(r"v(\d+)\.", found.stdout.strip())
    return int(match.group(1)) if match else 0


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        NODE is None or NPM is None,
        reason="node and npm are needed to build and test the TypeScript client",
    ),
    pytest.mark.skipif(
        NODE is not None and _node_major() < NODE_MAJOR_NEEDED,
        reason=f"the TypeScript client's tests need Node {NODE_MAJOR_NEEDED} or later",
    ),
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """`tutor-memory serve` on a free port of this machine, over a fresh store."""
    app = build_app(on_folder(Settings(embedder="none"), tmp_path / "tm"))
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the assertions are on content, not speed
    try:
        with serving(app) as url:
            yield url
    finally:
        app.close()


def test_the_typescript_client_builds_and_passes_its_tests_against_serve(
    installed: Path, served: str
) -> None:
    assert NPM is not None and NODE is not None
    run([NPM, "run", "--silent", "build"], timeout_s=120)  # tsc, strict: the types hold
    run([NPM, "run", "--silent", "build:test"], timeout_s=120)
    env = {**os.environ, "TUTOR_MEMORY_URL": served, "NO_COLOR": "1"}
    output = run([NODE, "--test", "--test-reporter=spec", "dist-test/"], timeout_s=120, env=env)
    counts = dict(re.findall(r"^\S* (tests|pass|fail|skipped|todo) (\d+)$", output, re.M))
    assert counts.get("fail") == "0" and counts.get("pass") == counts.get("tests"), output
    assert int(counts.get("tests", 0)) >= 10, output  # none lost: the node tests all ran
    assert counts.get("skipped") == "0" and counts.get("todo") == "0", output


def test_the_committed_types_are_what_the_openapi_document_generates(
    installed: Path, tmp_path: Path
) -> None:
    """`npm run generate` again, into a temporary file: byte for byte the committed types, so
    a changed API document without regenerated types fails here."""
    script = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))["scripts"]
    argv = shlex.split(script["generate"])
    assert argv[0] == "openapi-typescript" and argv[-2:] == ["--output", "src/schema.d.ts"]
    regenerated = tmp_path / "schema.d.ts"
    tool = str(CLIENT / "node_modules" / ".bin" / "openapi-typescript")
    run([tool, *argv[1:-1], str(regenerated)], timeout_s=120)
    committed = (CLIENT / "src" / "schema.d.ts").read_bytes()
    assert regenerated.read_bytes() == committed, (
        "src/schema.d.ts is not what infra/openapi.json generates: "
        "run `npm run generate` in clients/typescript and commit it"
    )


def test_every_problem_type_the_server_answers_is_a_slug_of_the_client() -> None:
    # serve's own 413 "payload-too-large" (a class file over its limit) was no ProblemSlug
    from tutor_memory.api.client import PROBLEM_ERRORS
    from tutor_memory.api.local_server import _SLUGS

    source = (ROOT / "clients" / "typescript" / "src" / "index.ts").read_text(encoding="utf-8")
    union = source.split("export type ProblemSlug =", 1)[1].split(";", 1)[0]
    listed = set(re.findall(r'"([a-z-]+)"', union))
    assert {*PROBLEM_ERRORS, *_SLUGS.values()} <= listed
