"""Measurements a unit test reports (precision, recall): printed with ``-s`` by the test, and
gathered into a "measurements" section at the end of every run's output."""

from __future__ import annotations

from collections.abc import Callable

import pytest

_LINES = pytest.StashKey[list[str]]()


@pytest.fixture
def measurement(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Report one line: printed now, and repeated in the run's summary."""
    lines = request.config.stash.setdefault(_LINES, [])

    def report(line: str) -> None:
        print(line)
        lines.append(line)

    return report


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    lines = config.stash.get(_LINES, [])
    if lines:
        terminalreporter.section("measurements")
        for line in lines:
            terminalreporter.write_line(line)
