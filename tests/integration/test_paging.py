"""The list routes that grow page with a cursor (issue 28): a belief's history and an export, as
a pair's episodes do. Every page's items, in order, are the whole list (an export's lines its
history exactly, its files its files, the first page its manifest); a page stays inside a
Lambda's answer; a bad ``limit`` or ``next`` is a 422 problem naming the field over REST, and
the same ValidationError through both library doors."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory import Memory
from tutor_memory.api import calls
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain import constants as C
from tutor_memory.domain.episodes import Kind
from tutor_memory.domain.errors import ValidationError
from tutor_memory.local_backend import LocalBackend
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder
from tutor_memory.usecases import export as exporting

from .conftest import serving
from .test_export import OTHER, PAIR, T0, live_history, make_app

SETTINGS = Settings(embedder="none")


def every_page(app: App, subject_id: str | None, limit: int) -> list[dict[str, Any]]:
    """The export's pages, as the API answers them, from the first to the one without next."""
    pages = [calls.export_page(app, PAIR.student_id, subject_id, limit, None)]
    while pages[-1].next is not None:
        pages.append(calls.export_page(app, PAIR.student_id, subject_id, limit, pages[-1].next))
        assert len(pages) <= 100, "the pages never end"
    return [page.model_dump(mode="json") for page in pages]


def check_pages_make_the_export(pages: list[dict[str, Any]], whole: dict[str, Any]) -> None:
    assert pages[0]["manifest"] == whole["manifest"]
    assert all(page["manifest"] is None for page in pages[1:])
    assert [line for page in pages for line in page["history"]] == whole["history"]
    files: dict[str, str] = {}
    for page in pages:
        named = {line["path"] for line in page["history"] if "path" in line}
        assert set(page["files"]) == named  # a page carries the bytes of its own lines' files
        files.update(page["files"])
    assert files == whole["files"]


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


@pytest.fixture
def history(tmp_path: Path, clock: FixedClock) -> App:
    """A day and its night in biology (a file with its bytes, checks, an annotation, an erased
    check, the consolidation), and a question in chemistry."""
    app = make_app(tmp_path / "tm", clock)
    ids = live_history(app, clock)
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, ids["check"], reason="a mistaken check")
    app.episodes.add(OTHER, Kind.QUESTION, "What is an ion?", at=T0)
    return app


@pytest.mark.parametrize("limit", [1, 2, 3, 8, C.MAX_PAGE_ITEMS])
def test_every_page_of_an_export_put_together_is_the_export(history: App, limit: int) -> None:
    for subject_id in (PAIR.subject_id, None):
        whole = (
            calls.export_pair(history, PAIR)
            if subject_id
            else calls.export_student(history, PAIR.student_id)
        )
        pages = every_page(history, subject_id, limit)
        expected = {**whole.to_dict(), "manifest": pages[0]["manifest"]}
        check_pages_make_the_export(pages, expected)
        # the manifest is the whole export's, read when the first page was (its disclosures too)
        assert {k: v for k, v in pages[0]["manifest"].items() if k != "disclosures"} == {
            k: v for k, v in whole.manifest().items() if k != "disclosures"
        }
        assert len(pages) == max(1, -(-len(whole.lines) // limit))
        assert all(len(page["history"]) <= limit for page in pages)


def test_the_pages_are_of_the_heads_the_first_page_found(history: App) -> None:
    before = calls.export_student(history, PAIR.student_id)
    first = calls.export_page(history, PAIR.student_id, None, 3, None)
    history.episodes.add(PAIR, Kind.QUESTION, "Written after the first page", at=T0)
    history.episodes.add(OTHER, Kind.QUESTION, "This one too", at=T0)
    lines, page = list(first.history), first
    while page.next is not None:
        page = calls.export_page(history, PAIR.student_id, None, 3, page.next)
        lines.extend(page.history)
    assert lines == before.lines
    assert all("after the first page" not in str(line) for line in lines)


def test_a_page_stops_before_its_bytes_pass_the_budget_and_one_line_always_goes(
    history: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = calls.export_student(history, PAIR.student_id)
    monkeypatch.setattr(exporting, "PAGE_BYTES", 600)  # smaller than most lines
    pages = every_page(history, None, C.MAX_PAGE_ITEMS)
    assert len(pages) == len(whole.lines)  # one line a page: each is over the budget alone
    check_pages_make_the_export(pages, {**whole.to_dict(), "manifest": pages[0]["manifest"]})
    monkeypatch.setattr(exporting, "PAGE_BYTES", len(json.dumps(whole.to_dict())) // 3)
    pages = every_page(history, None, C.MAX_PAGE_ITEMS)
    assert 1 < len(pages) < len(whole.lines)
    assert [line for page in pages for line in page["history"]] == whole.lines


def test_the_library_gathers_every_page_into_one_export(history: App, tmp_path: Path) -> None:
    memory = Memory(LocalBackend(history))
    whole = calls.export_student(history, PAIR.student_id)
    for limit in (1, 3, C.MAX_PAGE_ITEMS):
        gathered = memory.export(PAIR.student_id, limit=limit)
        assert gathered.lines == whole.lines and gathered.files == whole.files
        assert gathered.pairs == whole.pairs
    written = memory.pair(PAIR.student_id, PAIR.subject_id).export(out=tmp_path / "out", limit=2)
    assert (tmp_path / "out" / "history.jsonl").read_text(encoding="utf-8") == (
        written.history_text()
    )
    assert written.lines == calls.export_pair(history, PAIR).lines


def test_a_belief_history_pages_oldest_first(tmp_path: Path) -> None:
    with Memory.local(tmp_path / "tm", settings=SETTINGS) as memory:
        alice = memory.pair("alice", "biology")
        for i in range(7):
            verdict = "wrong" if i % 2 else "right"
            alice.record_check(f"check {i}", topic="osmosis", verdict=verdict, at=T0 + timedelta(i))
        whole = alice.belief_history("Osmosis", limit=C.MAX_PAGE_ITEMS)
        assert len(whole.beliefs) == 7 and whole.next is None
        assert [b.created_at for b in whole.beliefs] == sorted(b.created_at for b in whole.beliefs)
        page, seen = alice.belief_history("Osmosis", limit=3), []
        while True:
            seen.extend(page.beliefs)
            if page.next is None:
                break
            page = alice.belief_history("Osmosis", limit=3, next=page.next)
        assert [b.id for b in seen] == [b.id for b in whole.beliefs]
        assert alice.belief_history("Osmosis", next="100").beliefs == []  # past the end


# --- refusals: a 422 problem naming the field, the same ValidationError at both doors ---------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[App, str]]:
    app = build_app(on_folder(SETTINGS, tmp_path / "served"))
    app.episodes.add(PAIR, Kind.CHECK, "Explain osmosis", evidence={"topic": "osmosis",
                     "verdict": "wrong"}, at=T0)  # fmt: skip
    app.episodes.add(OTHER, Kind.QUESTION, "What is an ion?", at=T0)
    try:
        with serving(app) as url:
            yield app, url
    finally:
        app.close()


def refused(url: str) -> tuple[int, str, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers["Content-Type"], json.loads(response.read())
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers["Content-Type"], json.loads(answer.read())


PAIR_URL = f"/pairs/{PAIR.student_id}/{PAIR.subject_id}"


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        (f"{PAIR_URL}/episodes", "limit=0", "limit"),
        (f"{PAIR_URL}/episodes", "next=x", "next"),
        (f"{PAIR_URL}/beliefs/osmosis/history", "limit=501", "limit"),
        (f"{PAIR_URL}/beliefs/osmosis/history", "next=-1", "next"),
        (f"{PAIR_URL}/beliefs/osmosis/history", "next=", "next"),
        (f"{PAIR_URL}/export", "limit=0", "limit"),
        (f"{PAIR_URL}/export", "limit=many", "limit"),
        (f"{PAIR_URL}/export", "next=12", "next"),
        (f"{PAIR_URL}/export", "next=0~1~bad%20id", "next"),
        # a well-made cursor of another export: the pair's route refuses it by its subject
        (f"{PAIR_URL}/export", f"next=0~1~{OTHER.subject_id}", "next"),
        (f"/students/{PAIR.student_id}/export", "limit=501", "limit"),
        (f"/students/{PAIR.student_id}/export", "next=0" + "~1~a" * 2050, "next"),
    ],
)
def test_a_bad_limit_or_next_is_a_422_problem_naming_the_field(
    served: tuple[App, str], path: str, query: str, field: str
) -> None:
    _, url = served
    status, kind, problem = refused(f"{url}{path}?{query}")
    assert status == 422, problem
    assert kind.startswith("application/problem+json")
    assert problem["type"] == "urn:tutor-memory:problem:invalid-request"
    assert [f["field"].rsplit(".", 1)[-1] for f in problem["fields"]] == [field], problem


def library_refusals(memory: Memory) -> list[tuple[str, str]]:
    alice = memory.pair(PAIR.student_id, PAIR.subject_id)
    said = []
    for call in (
        lambda: alice.episodes(limit=0),
        lambda: alice.episodes(next="x"),
        lambda: alice.belief_history("osmosis", limit=C.MAX_PAGE_ITEMS + 1),
        lambda: alice.belief_history("osmosis", next="-1"),
        lambda: alice.export_page(limit=0),
        lambda: alice.export_page(next="12"),
        lambda: alice.export_page(next=f"0~1~{OTHER.subject_id}"),
        lambda: alice.export(limit=0),
        lambda: memory.export_page(PAIR.student_id, next="0~x~y"),
    ):
        with pytest.raises(ValidationError) as caught:
            call()
        said.append((caught.value.field, caught.value.problem))
    return said


def test_both_library_doors_refuse_a_bad_limit_or_next_alike(
    served: tuple[App, str],
) -> None:
    app, url = served
    with Memory.remote(url) as remote:
        remotely = library_refusals(remote)
    locally = library_refusals(Memory(LocalBackend(app)))
    assert remotely == locally
    assert [field for field, _ in locally] == ["limit", "next"] * 2 + [
        "limit", "next", "next", "limit", "next",
    ]  # fmt: skip
