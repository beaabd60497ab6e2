"""The inspector: one pair's memory as a self-contained page — the activity week by week, each
belief over time with the checks behind it, the map with the student's beliefs on it, the
calibration with its intervals, and why a question recalls what it recalls."""

from __future__ import annotations

import argparse
import html
import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App
from tutor_memory.commands import add_inspect_command, run_inspect_command
from tutor_memory.domain.beliefs import Claim
from tutor_memory.domain.episodes import CheckEvidence, Pair
from tutor_memory.domain.errors import NotFoundError
from tutor_memory.inspector_html import BAND_FILLS, STRUGGLES, UNDERSTANDS, render_page
from tutor_memory.report_plots import BAND_COLOURS, BELIEF_RINGS
from tutor_memory.samples import sample_subject
from tutor_memory.usecases.inspector import why_recalled
from tutor_memory.usecases.reports import render_text

from .test_reports import JULY, ask_and_answer, check, day, new_app


def history(app: App, pair: Pair) -> None:
    """Three weeks of work: the sample map, osmosis passed once and then failed, a question and
    its answer, a taught concept, four checks with a prediction."""
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=JULY)  # Wed 1 Jul 2026
    check(app, pair, "osmosis", "right", 0.8, 1)  # Thu 2 Jul: confirms the material
    check(app, pair, "osmosis", "wrong", 0.7, 6)  # Tue 7 Jul
    check(app, pair, "osmosis", "wrong", 0.6, 7)
    check(app, pair, "nucleus", "right", 0.75, 8)
    ask_and_answer(app, pair, "Why do plants wilt in salty soil?", "Water leaves by osmosis.", 15)
    app.maps.teach(
        pair, "Remember that in our class we call the Golgi body the post office", at=day(16)
    )


@pytest.fixture
def app(tmp_path: Path, pair: Pair) -> App:
    built = new_app(tmp_path / "tm")
    history(built, pair)
    return built


def test_the_timeline_counts_each_week_by_kind_with_its_checks_right_and_wrong(
    app: App, pair: Pair
) -> None:
    t = app.inspector.inspect(pair)["timeline"]
    assert t["kinds"] == ["question", "answer", "check", "file", "taught"]
    assert [(w["start"], w["counts"], w["right"], w["wrong"]) for w in t["weeks"]] == [
        ("2026-06-29", {"check": 1, "file": 2}, 1, 0),
        ("2026-07-06", {"check": 3}, 1, 2),
        ("2026-07-13", {"question": 1, "answer": 1, "taught": 1}, 0, 0),
    ]
    assert date.fromisoformat(t["weeks"][0]["start"]).weekday() == 0  # weeks start on Monday


def test_an_empty_week_in_the_middle_is_shown_as_a_gap(tmp_path: Path, pair: Pair) -> None:
    app = new_app(tmp_path / "tm")
    check(app, pair, "osmosis", "right", None, 0)
    check(app, pair, "osmosis", "right", None, 21)
    weeks = app.inspector.inspect(pair)["timeline"]["weeks"]
    assert [w["total"] for w in weeks] == [1, 0, 0, 1]


def test_each_belief_carries_its_rows_over_time_and_every_check_behind_it(
    app: App, pair: Pair
) -> None:
    beliefs = {b["key"]: b for b in app.inspector.inspect(pair)["beliefs"]}
    assert list(beliefs) == ["nucleus", "osmosis"]  # by name
    osmosis = beliefs["osmosis"]
    assert osmosis["line"] == "struggles with Osmosis (0.63)"
    assert osmosis["p_understands"] == 0.37
    assert [(h["claim"], h["confidence"], h["p_understands"]) for h in osmosis["history"]] == [
        ("understands", 0.67, 0.67),
        ("struggles with", 0.53, 0.47),
        ("struggles with", 0.63, 0.37),
    ]
    assert [h["current"] for h in osmosis["history"]] == [False, False, True]
    assert [(c["verdict"], c["predicted_mastery"]) for c in osmosis["checks"]] == [
        ("right", 0.8),
        ("wrong", 0.7),
        ("wrong", 0.6),
    ]


def test_after_a_rederivation_the_belief_is_drawn_from_its_current_generation(
    app: App, pair: Pair
) -> None:
    app.learning.rederive(pair, at=day(30), force=True)
    osmosis = next(b for b in app.inspector.inspect(pair)["beliefs"] if b["key"] == "osmosis")
    assert len(osmosis["history"]) == 3 and osmosis["earlier_generation_rows"] == 3
    page = render_page(app.inspector.inspect(pair), served=False)
    assert "3 rows from before a re-derivation" in page


def test_the_map_puts_the_students_belief_beside_the_materials_readiness(
    app: App, pair: Pair
) -> None:
    nodes = {c["key"]: c for c in app.inspector.inspect(pair)["map"]["nodes"]}
    osmosis = nodes["osmosis"]
    assert osmosis["band"] == "confirmed"  # one passing check confirmed the material…
    assert osmosis["belief"]["claim"] == "struggles with"  # …and the student fails it since
    assert nodes["nucleus"]["belief"]["claim"] == "understands"
    assert nodes["cytoplasm"]["belief"] is None
    assert nodes["golgi body"]["layer"] == "taught"

    page = render_page(app.inspector.inspect(pair), served=False)
    node = re.search(r'<g class="node" data-key="osmosis"[^>]*>(.*?)</g>', page, re.S)
    assert node is not None
    assert 'data-band="confirmed" data-belief="struggles with"' in node.group(0)
    assert f'fill="{BAND_FILLS["confirmed"]}"' in node.group(1)  # the fill: the material
    assert 'class="ring"' in node.group(1) and f'stroke="{STRUGGLES}"' in node.group(1)
    assert "Fill — the material's readiness (this is about the material" in page
    assert "Ring — the student's belief (from their checks):" in page


def test_the_page_and_the_report_picture_use_one_palette() -> None:
    assert BAND_FILLS == BAND_COLOURS
    assert BELIEF_RINGS[Claim.UNDERSTANDS][0] == UNDERSTANDS
    assert BELIEF_RINGS[Claim.STRUGGLES][0] == STRUGGLES


def test_calibration_under_five_predictions_draws_no_bucket_and_says_why(
    app: App, pair: Pair
) -> None:
    data = app.inspector.inspect(pair)
    cal = data["calibration"]
    assert (cal["predictions"], cal["drawn"], cal["min_checks"]) == (4, False, 5)
    page = render_page(data, served=False)
    chart = re.search(r'<svg id="calibration-chart".*?</svg>', page, re.S)
    assert chart is not None and 'class="bucket"' not in chart.group(0)
    assert "No curve yet: 4 checks carry a prediction, and the curve is drawn from 5." in page


def test_from_five_predictions_each_bucket_has_its_count_and_wilson_interval(
    app: App, pair: Pair
) -> None:
    check(app, pair, "nucleus", "right", 0.72, 17)
    data = app.inspector.inspect(pair)
    cal = data["calibration"]
    assert cal["drawn"] and cal["predictions"] == 5
    seventy = next(b for b in cal["buckets"] if b["low"] == 0.7)
    assert (seventy["count"], seventy["right"]) == (3, 2)
    assert seventy["interval"] == pytest.approx([0.2077, 0.9385], abs=1e-4)
    page = render_page(data, served=False)
    chart = re.search(r'<svg id="calibration-chart".*?</svg>', page, re.S)
    assert chart is not None
    assert chart.group(0).count('class="bucket"') == len(cal["buckets"])
    assert "n=3" in chart.group(0) and "<polyline" not in chart.group(0)  # never joined
    assert "2 of 3 right (0.67; 95% interval 0.21–0.94)" in page
    # the statistic in plain words beside it, for a teacher who does not read ECE
    right = sum(b["right"] for b in cal["buckets"])
    assert f"right about {round(10 * right / 5)} times in 10" in page
    assert f"by about {round(100 * cal['ece'])} points in 100 on average" in page


def test_the_page_is_self_contained_and_asks_only_its_own_server(app: App, pair: Pair) -> None:
    page = html.unescape(render_page(app.inspector.inspect(pair), served=True))
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", page)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", page)
    assert "connect-src 'self'" in page and "default-src 'none'" in page
    assert '<link rel="icon" href="data:,">' in page  # not even a favicon request
    assert 'fetch("recall?q="' in page  # relative: the same stage and pair as the page


def test_the_page_counts_episodes_as_the_report_does_after_an_erasure(app: App, pair: Pair) -> None:
    """The page's headline counted the chain (erasures' entries and erased envelopes too)
    while its own breakdown and the report counted the bodies that stand."""
    question = next(e for e in app.ports.store.iter_episodes(pair) if e.kind.value == "question")
    app.erasing.erase_episode(pair, question.episode_id, reason="asked")
    seen = app.inspector.inspect(pair)
    report = app.reports.report(pair)
    assert seen["episodes"] == sum(seen["by_kind"].values()) == report.recorded
    assert seen["erased"] == 1
    page = html.unescape(render_page(seen, served=False))
    assert f"{report.recorded} episodes recorded (" in page and "; 1 episode erased." in page
    assert f"{report.recorded} episodes recorded, the last on" in render_text(report)


def counted_salts() -> Callable[[], str]:
    drawn = iter(range(1, 10_000))
    return lambda: f"{next(drawn):064x}"


def test_the_same_history_gives_the_same_page_byte_for_byte(
    tmp_path: Path, pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same history with the same body salts (drawn at random in use: ids commit to them)."""
    pages = []
    for name in ("one", "two"):
        monkeypatch.setattr("tutor_memory.adapters.sqlite.episodes.new_salt", counted_salts())
        app = new_app(tmp_path / name)
        history(app, pair)
        pages.append(render_page(app.inspector.inspect(pair), served=False))
    assert pages[0] == pages[1]


def test_what_a_student_wrote_is_escaped_in_the_page(tmp_path: Path, pair: Pair) -> None:
    app = new_app(tmp_path / "tm")
    app.memory.record(pair, "question", "Is <script>alert(1)</script> & osmosis </svg> ok?")
    check(app, pair, "osmosis", "right", None, 0)
    app.learning.record_check(
        pair,
        'Check "</script><b>bold</b>',
        CheckEvidence("osmosis", "wrong"),
        at=day(1),
    )
    page = render_page(app.inspector.inspect(pair), served=True)
    assert "<b>bold</b>" not in page and "&lt;/script&gt;&lt;b&gt;bold" in page
    data_block = re.search(
        r'<script type="application/json" id="inspector-data">(.*?)</script>', page, re.S
    )
    assert data_block is not None
    assert json.loads(data_block.group(1)) == app.inspector.inspect(pair)


def test_a_pair_with_no_record_has_no_page(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="no record of nobody/biology"):
        new_app(tmp_path / "tm").inspector.inspect(Pair("nobody", "biology"))


def test_the_command_writes_the_page_to_a_file(app: App, pair: Pair, tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="tutor-memory")
    add_inspect_command(parser.add_subparsers(dest="command", required=True))
    out = tmp_path / "pages" / "inspect.html"
    args = parser.parse_args(
        ["inspect", "--student", pair.student_id, "--subject", pair.subject_id, "--out", str(out)]
    )
    assert run_inspect_command(args, app) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'data-served="false"' in page
    assert page == render_page(app.inspector.inspect(pair), served=False)


def test_why_recalled_names_the_pools_scores_gate_and_collapse(app: App, pair: Pair) -> None:
    for n in (17, 18):
        app.memory.record(pair, "question", "What is osmosis?", at=day(n))
    result = app.memory.recall(pair, "osmosis", at=day(20))
    why = why_recalled("osmosis", result)
    assert why["mode"] == "relevant" and why["gate"].startswith("The gate put first")
    assert why["concepts"] == ["osmosis"]
    assert why["pool_sizes"]["concept"] >= 3
    repeated = next(i for i in why["items"] if i["summary"].endswith("What is osmosis?"))
    assert repeated["count"] == 2 and len(repeated["collapsed_ids"]) == 2
    assert "lexical" in repeated["pools"] and 0 < repeated["score"] <= 1
    assert why["collapsed"] >= 1 and why["kept"] == len(why["items"])


def test_a_question_that_only_names_a_time_is_explained_by_its_window(app: App, pair: Pair) -> None:
    dated = why_recalled("what did we cover in July?", app.memory.recall(
        pair, "what did we cover in July?", at=day(40)))  # fmt: skip
    assert dated["window"]["label"] == "July 2026" and dated["kept"] > 0
    assert "No question" not in dated["gate"]
    assert dated["gate"].startswith("The question names a time, July 2026, and nothing else")
    empty = why_recalled("what did we do in March?", app.memory.recall(
        pair, "what did we do in March?", at=day(40)))  # fmt: skip
    assert empty["window"]["empty"] and "nothing was recorded in it" in empty["gate"]
    none = why_recalled("", app.memory.recall(pair, "", at=day(40)))
    assert none["gate"].startswith("No question")


def call(app: App, path: str) -> dict[str, Any]:
    event = {
        "resource": "/{proxy+}",
        "path": path.split("?")[0],
        "httpMethod": "GET",
        "headers": {},
        "multiValueHeaders": {},
        "queryStringParameters": dict(q.split("=", 1) for q in path.split("?", 1)[1].split("&"))
        if "?" in path
        else None,
        "pathParameters": {"proxy": path.lstrip("/")},
        "requestContext": {"httpMethod": "GET", "path": path, "stage": "test"},
        "body": None,
        "isBase64Encoded": False,
    }
    event["multiValueQueryStringParameters"] = {
        k: [v] for k, v in (event["queryStringParameters"] or {}).items()
    } or None
    return dict(build_resolver(lambda: app).resolve(event, None))  # type: ignore[arg-type]


def test_the_api_serves_the_page_as_html_and_recall_as_json(app: App, pair: Pair) -> None:
    base = f"/pairs/{pair.student_id}/{pair.subject_id}"
    page = call(app, f"{base}/inspect")
    assert page["statusCode"] == 200
    assert page["multiValueHeaders"]["Content-Type"] == ["text/html; charset=utf-8"]
    assert 'data-served="true"' in page["body"] and '<svg id="concept-map"' in page["body"]
    recalled = call(app, f"{base}/recall?q=osmosis")
    assert recalled["statusCode"] == 200
    assert json.loads(recalled["body"])["concepts"] == ["osmosis"]
    assert call(app, "/pairs/nobody/biology/inspect")["statusCode"] == 404
    assert call(app, f"{base}/recall")["statusCode"] == 422  # no question
