"""Every package the Lambda layer needs has a wheel for the template's runtime and architecture,
so `sam build` (which installs wheels only: infra/layer/Makefile) cannot fail on a missing one.

It asks the package registry (pip download, wheels only, no build); offline, it is skipped
with the reason."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "infra" / "layer" / "requirements.txt"
# pip's words for "the registry could not be reached" (not "no such wheel")
OFFLINE = re.compile(
    r"Failed to establish a new connection|Temporary failure in name resolution|"
    r"Network is unreachable|No route to host|Connection refused|ProxyError|"
    r"Could not fetch URL|Read timed out|ConnectTimeoutError|NewConnectionError",
    re.IGNORECASE,
)
PLATFORMS = {
    "arm64": ("manylinux_2_28_aarch64", "manylinux2014_aarch64"),
    "x86_64": ("manylinux_2_28_x86_64", "manylinux2014_x86_64"),
}


class _Loader(yaml.SafeLoader):
    """Reads template.yaml with its CloudFormation tags (!Ref, !Sub …) as plain values."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def runtime_and_architecture() -> tuple[str, str]:
    template = yaml.load((ROOT / "template.yaml").read_text(encoding="utf-8"), Loader=_Loader)
    function = template["Globals"]["Function"]
    (architecture,) = function["Architectures"]
    return str(function["Runtime"]), str(architecture)


def test_every_layer_dependency_has_a_wheel_for_the_lambda_runtime(tmp_path: Path) -> None:
    runtime, architecture = runtime_and_architecture()
    version = runtime.removeprefix("python")
    platforms = [arg for p in PLATFORMS[architecture] for arg in ("--platform", p)]
    command = [
        sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
        "--only-binary=:all:", "--implementation", "cp", "--python-version", version,
        "--abi", f"cp{version.replace('.', '')}", *platforms,
        "--dest", str(tmp_path), "-r", str(REQUIREMENTS),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("the package registry did not answer within 15 minutes")
    output = done.stdout + done.stderr
    if done.returncode != 0 and OFFLINE.search(output):
        pytest.skip(f"the package registry cannot be reached: {OFFLINE.search(output)[0]}")  # type: ignore[index]
    assert done.returncode == 0, f"a layer dependency has no {architecture} wheel:\n{output}"
    wheels = sorted(p.name for p in tmp_path.iterdir())
    assert wheels and all(name.endswith(".whl") for name in wheels), wheels
