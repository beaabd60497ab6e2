"""The inspector page in a real headless browser: Debian's chromium, driven by Playwright.

The browser is the system's (``/usr/bin/chromium``, installed by ``.ci/run``), never one
Playwright downloads. The page must render, show its map and timeline, ask its own server why a
question recalls what it does, log no console error, and leave a screenshot behind as the
test's artefact: ``bench-results/inspector.png`` (and a copy in the test's tmp folder).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App
from tutor_memory.domain.episodes import Pair
from tutor_memory.inspector_html import render_page

from .conftest import serving
from .test_inspector import history
from .test_reports import new_app

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (the dev extra)"
)

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "bench-results"
CHROMIUM = os.environ.get("TUTOR_MEMORY_CHROMIUM") or shutil.which("chromium") or ""
WAIT_MS = 60_000  # generous: a slow machine must not fail this; nothing here is timed

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM or "/usr/bin/chromium").exists(),
    reason="no chromium installed (apt-get install -y chromium; .ci/run does it)",
)


@pytest.fixture
def app(tmp_path: Path, pair: Pair) -> App:
    built = new_app(tmp_path / "tm")
    history(built, pair)
    return built


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM or "/usr/bin/chromium")
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def served(app: App) -> Iterator[str]:
    with serving(app) as url:
        yield url


class Watched:
    """A page whose console errors, uncaught exceptions and requests are kept."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.set_default_timeout(WAIT_MS)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.page.on("request", lambda r: self.requests.append(r.url))


def test_the_served_page_renders_its_map_and_timeline_and_explains_a_recall(
    browser: Any, served: str, pair: Pair, app: App, tmp_path: Path
) -> None:
    watched = Watched(browser)
    page = watched.page
    url = f"{served}/pairs/{pair.student_id}/{pair.subject_id}/inspect"
    response = page.goto(url)
    assert response is not None and response.status == 200
    assert response.headers["content-type"].startswith("text/html")
    assert page.title() == f"Inspector: {pair.student_id} in {pair.subject_id}"

    nodes = len(app.inspector.inspect(pair)["map"]["nodes"])
    assert page.locator("#concept-map .node").count() == nodes
    assert page.locator("#concept-map .ring").count() == 2  # osmosis and nucleus
    assert page.locator("#timeline .week-bar").count() > 0
    assert page.locator("#timeline .check-bar.wrong").count() == 1
    for chart in ("#timeline", "#concept-map", "#calibration-chart"):
        box = page.locator(chart).bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 100, chart
    assert page.locator(".belief-chart").count() == 2

    page.fill("#why-q", "Why do plants wilt in salty soil?")
    page.click("#why-ask")
    page.wait_for_selector("#why-items tr:nth-child(2)")  # a header row and at least one item
    explained = page.locator("#why-out").inner_text()
    assert "mode: relevant" in explained and "The gate put first" in explained
    assert "Why do plants wilt in salty soil?" in page.locator("#why-items").inner_text()
    assert page.locator("#why-pools").inner_text().startswith("pool")

    shot = tmp_path / "inspector.png"
    page.screenshot(path=str(shot), full_page=True)
    ARTEFACTS.mkdir(exist_ok=True)
    shutil.copyfile(shot, ARTEFACTS / "inspector.png")
    assert shot.read_bytes().startswith(b"\x89PNG")

    assert watched.errors == []
    assert all(r.startswith(served) for r in watched.requests), watched.requests


PHONE = {"width": 390, "height": 844}  # a phone held upright (CSS pixels)


def test_on_a_390_px_phone_nothing_scrolls_sideways_and_a_dated_question_is_explained(
    browser: Any, served: str, pair: Pair
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{served}/pairs/{pair.student_id}/{pair.subject_id}/inspect")
        width = "document.documentElement.scrollWidth"
        assert page.evaluate(width) <= PHONE["width"]
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.evaluate(width) <= PHONE["width"]  # every table shown, none wider
        page.fill("#why-q", "what did we cover in July?")
        page.click("#why-ask")
        page.wait_for_selector("#why-items tr:nth-child(2)")
        explained = page.locator("#why-out").inner_text()
        assert "time named: July 2026" in explained
        assert "No question" not in explained and "names a time, July 2026" in explained
        assert page.evaluate(width) <= PHONE["width"]  # the answer's table too
    finally:
        context.close()


def test_the_written_file_opens_offline_and_says_how_to_ask_questions(
    browser: Any, app: App, pair: Pair, tmp_path: Path
) -> None:
    out = tmp_path / "inspect.html"
    out.write_text(render_page(app.inspector.inspect(pair), served=False), encoding="utf-8")
    watched = Watched(browser)
    page = watched.page
    page.goto(out.as_uri())
    assert page.locator("#concept-map .node").count() > 0
    assert page.locator("#timeline .week-bar").count() > 0
    assert page.locator("#why-offline").is_visible()
    assert page.locator("#why-ask").is_disabled()
    assert watched.errors == []
    assert all(r.startswith("file://") for r in watched.requests), watched.requests
