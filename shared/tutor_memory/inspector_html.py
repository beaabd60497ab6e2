"""The inspector page: ``inspector.Inspector``'s dict drawn as one self-contained HTML file.

Inline CSS, inline SVG and a few lines of inline JavaScript (only for the question form); no
font, script or style from anywhere else, and a Content-Security-Policy that forbids the page
to reach anything but its own server's ``recall`` route. String templates and ``html.escape``
— every text from the store is escaped where it is written. The same dict gives the same page.

Two encodings on the map, never one for both: the fill is the material's readiness (grey,
light to dark), the ring is the student's belief (blue solid: understands; orange-red dashed:
struggles with) — the colours of the report's picture (``report_plots``), so both read alike.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import UTC, date, datetime
from html import escape
from typing import Any

# The report picture's palette (kept equal by a test): material in grey, student in colour.
BAND_FILLS = {
    "named": "#f7f7f7",
    "explained": "#cccccc",
    "confirmed": "#969696",
    "taught": "#525252",
}
UNDERSTANDS, STRUGGLES = "#2166ac", "#d6604d"
RIGHT, WRONG = UNDERSTANDS, STRUGGLES
TAUGHT_EDGE, OUTLINE, EDGE, MUTED = "#d95f02", "#333333", "#8c8c8c", "#555555"
KIND_COLOURS = {  # ColorBrewer Set2, one per kind, in the timeline's stacking order
    "question": "#66c2a5",
    "answer": "#fc8d62",
    "check": "#8da0cb",
    "quiz": "#e78ac3",
    "file": "#a6d854",
    "taught": "#ffd92f",
    "consolidation": "#b3b3b3",
}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
)


def e(text: object) -> str:
    return escape(str(text), quote=True)


def n(x: float) -> str:
    """A coordinate, short and stable."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def day(text: str | None) -> str:
    if not text:
        return "—"
    d = datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    return short_day(d)


def short_day(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


# --- the page ----------------------------------------------------------------------------------


def render_page(data: dict[str, Any], *, served: bool) -> str:
    """The whole page. ``served``: by ``serve`` or the API, so the question form can call
    ``recall`` on the same server (a file written by the CLI has no server to ask)."""
    pair = data["pair"]
    title = f"Inspector: {pair['student_id']} in {pair['subject_id']}"
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    kinds = ", ".join(f"{v} {k}" for k, v in data["by_kind"].items() if v)
    erased = f"; {plural(data['erased'], 'episode')} erased" if data.get("erased") else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{e(title)}</title>
<style>{STYLE}</style>
</head>
<body data-served="{"true" if served else "false"}">
<header>
<h1>{e(title)}</h1>
<p class="muted">As of {e(day(data["generated_at"]))} ({e(data["timezone"])}):
{e(plural(data["episodes"], "episode"))} recorded{f" ({e(kinds)})" if kinds else ""},
the last on {e(day(data["last_at"]))}{e(erased)}. {e(data["checks_line"])}</p>
<nav><a href="#profile">About the student</a> · <a href="#corrections">Corrections</a> ·
<a href="#activity">Activity</a> ·
<a href="#beliefs">Beliefs</a> ·
<a href="#map">Concept map</a> · <a href="#calibration">Calibration</a> ·
<a href="#why">Why recalled</a></nav>
</header>
<main>
<section id="profile"><h2>About the student, in every subject</h2>
{profile_html(data.get("profile", []))}
</section>
<section id="corrections"><h2>Corrections, beside what they corrected</h2>
{corrections_html(data.get("corrections", []))}
</section>
<section id="activity"><h2>Activity, week by week</h2>
{timeline_svg(data["timeline"])}
</section>
<section id="beliefs"><h2>What the tutor believes about the student, and why</h2>
{beliefs_html(data["beliefs"])}
</section>
<section id="map"><h2>The concept map, with the student's beliefs on it</h2>
{map_html(data["map"])}
</section>
<section id="calibration"><h2>Calibration: did the predicted mastery come true?</h2>
{calibration_html(data["calibration"])}
</section>
<section id="why"><h2>Why recalled: ask a question, see what memory would bring back</h2>
{why_form(pair)}
</section>
</main>
<script type="application/json" id="inspector-data">{payload}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;
margin:0 auto;max-width:1200px;padding:0 1.2rem 3rem}
h1{font-size:1.6rem;margin:1.2rem 0 .3rem}h2{font-size:1.2rem;margin:2rem 0 .6rem;
border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{font-size:1rem;margin:1rem 0 .3rem}
.muted{color:#555}.small{font-size:.85rem}nav a{color:#1f4e79}
svg{max-width:100%;height:auto;display:block}svg text{font-family:inherit}
.chart{overflow-x:auto}.legend{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;margin:.4rem 0;
font-size:.85rem;align-items:center}.legend span{display:inline-flex;align-items:center;
gap:.3rem}.legend b{font-weight:600;margin-right:.2rem}
.sw{display:inline-block;width:14px;height:14px;border:1px solid #333;border-radius:2px}
table{border-collapse:collapse;font-size:.85rem;margin:.4rem 0;display:block;max-width:100%;
overflow-x:auto}code{overflow-wrap:anywhere}
td,th{border-bottom:1px solid #e4e4e4;padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f6f6}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.belief{border:1px solid #e2e2e2;border-radius:6px;padding:.4rem .8rem;margin:.6rem 0}
.understands{color:#2166ac}.struggles{color:#b2182b}.note{background:#fff5f0;
border:1px solid #b2182b;border-radius:6px;padding:.5rem .8rem;color:#7a1020}
form{display:flex;gap:.5rem;flex-wrap:wrap}input[type=text]{flex:1;min-width:16rem;
padding:.4rem;font:inherit}button{font:inherit;padding:.4rem 1rem}
#why-out{margin-top:.8rem}code{background:#f3f3f3;padding:0 .2rem;border-radius:3px}
"""


# --- the activity timeline ---------------------------------------------------------------------


def timeline_svg(t: dict[str, Any]) -> str:
    weeks: list[dict[str, Any]] = t["weeks"]
    if not weeks:
        return '<p class="muted">Nothing recorded yet.</p>'
    step = max(6.0, min(60.0, 960 / len(weeks)))
    bar = min(step * 0.8, 36.0)
    left, top, high, gap, low = 46.0, 14.0, 170.0, 34.0, 60.0
    width = max(left + step * len(weeks) + 16, 480.0)  # room for the captions
    most = max(w["total"] for w in weeks) or 1
    checks = max([max(w["right"], w["wrong"]) for w in weeks] + [1])
    base = top + high  # the episodes' baseline
    mid = base + gap + low  # the checks' zero line: right above, wrong below
    height = mid + low + 40
    parts: list[str] = []
    for frac in (0.0, 0.5, 1.0):  # gridlines with their counts
        y = base - high * frac
        parts.append(
            f'<line x1="{n(left)}" x2="{n(width - 10)}" y1="{n(y)}" y2="{n(y)}" '
            'stroke="#e4e4e4"/>'
            f'<text x="{n(left - 6)}" y="{n(y + 4)}" text-anchor="end" font-size="11" '
            f'fill="{MUTED}">{round(most * frac)}</text>'
        )
    parts.append(
        f'<text x="{n(left)}" y="{n(top - 2)}" font-size="11" fill="{MUTED}">'
        "episodes per week, by kind</text>"
    )
    parts.append(
        f'<line x1="{n(left)}" x2="{n(width - 10)}" y1="{n(mid)}" y2="{n(mid)}" '
        f'stroke="{MUTED}"/>'
        f'<text x="{n(left)}" y="{n(mid - low - 6)}" font-size="11" fill="{MUTED}">'
        "checks per week: right above the line, wrong below</text>"
        f'<text x="{n(left - 6)}" y="{n(mid - low + 10)}" text-anchor="end" font-size="11" '
        f'fill="{MUTED}">{checks}</text>'
        f'<text x="{n(left - 6)}" y="{n(mid + low)}" text-anchor="end" font-size="11" '
        f'fill="{MUTED}">{checks}</text>'
    )
    label_every = math.ceil(84 / step)  # a date is about 70 px wide
    for i, w in enumerate(weeks):
        x = left + i * step + (step - bar) / 2
        y = base
        start = date.fromisoformat(w["start"])
        when = f"week of {short_day(start)}"
        for kind in t["kinds"]:
            count = w["counts"].get(kind, 0)
            if not count:
                continue
            h = high * count / most
            y -= h
            parts.append(
                f'<rect class="week-bar" x="{n(x)}" y="{n(y)}" width="{n(bar)}" height="{n(h)}" '
                f'fill="{KIND_COLOURS.get(kind, "#999")}"><title>{e(when)}: {count} {e(kind)}'
                "</title></rect>"
            )
        for count, sign, colour, said in (
            (w["right"], -1, RIGHT, "right"),
            (w["wrong"], 1, WRONG, "wrong"),
        ):
            if count:
                h = low * count / checks
                y0 = mid if sign > 0 else mid - h
                parts.append(
                    f'<rect class="check-bar {said}" x="{n(x)}" y="{n(y0)}" width="{n(bar)}" '
                    f'height="{n(h)}" fill="{colour}"><title>{e(when)}: {count} '
                    f"{said}</title></rect>"
                )
        if i % label_every == 0:
            parts.append(
                f'<text x="{n(x + bar / 2)}" y="{n(height - 14)}" text-anchor="middle" '
                f'font-size="11" fill="{MUTED}">{e(short_day(start))}</text>'
            )
    legend = "".join(
        f'<span><i class="sw" style="background:{KIND_COLOURS.get(k, "#999")}"></i>{e(k)}</span>'
        for k in t["kinds"]
    )
    legend += (
        f'<span><i class="sw" style="background:{RIGHT}"></i>check right</span>'
        f'<span><i class="sw" style="background:{WRONG}"></i>check wrong</span>'
    )
    svg = (
        f'<svg id="timeline" viewBox="0 0 {n(width)} {n(height)}" width="{n(width)}" '
        f'height="{n(height)}" role="img" aria-label="episodes and checks per week">'
        + "".join(parts)
        + "</svg>"
    )
    weeks_said = plural(len(weeks), "week")
    return (
        f'<p class="muted small">{weeks_said}, Monday to Sunday, from the first episode to the '
        "last; an empty week is a week with no episode.</p>"
        f'<div class="legend">{legend}</div><div class="chart">{svg}</div>'
    )


# --- beliefs over time -------------------------------------------------------------------------


def _t(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def beliefs_html(beliefs: Sequence[dict[str, Any]]) -> str:
    if not beliefs:
        return '<p class="muted">No belief yet: beliefs come from checks tied to a concept.</p>'
    intro = (
        '<p class="muted small">Each belief is drawn as the chance that the student '
        "understands the concept (a confidence is the probability of its claim, so "
        '"struggles with (0.74)" is 0.26). A row is never rewritten, only superseded; the '
        'dots are the checks behind it, <span class="understands">right</span> on top, '
        '<span class="struggles">wrong</span> at the bottom.</p>'
    )
    return intro + "".join(_belief(b) for b in beliefs)


def _belief(b: dict[str, Any]) -> str:
    claim = "understands" if b["claim"] == "understands" else "struggles"
    where = "" if b["on_map"] else ' <span class="muted small">(not on the map)</span>'
    earlier = b["earlier_generation_rows"]
    rederived = (
        f'<p class="muted small">{plural(earlier, "row")} from before a re-derivation '
        "(the same checks under older rules) are not drawn.</p>"
        if earlier
        else ""
    )
    rows = "".join(_check_row(c) for c in b["checks"])
    history = "".join(
        f"<tr><td>{e(day(h['at']))}</td><td>{e(h['claim'])} ({h['confidence']:.2f})</td>"
        f"<td>{e(h['reason'])}</td><td>{'current' if h['current'] else 'superseded'}</td></tr>"
        for h in b["history"]
    )
    return f"""<div class="belief" data-concept="{e(b["key"])}">
<h3><span class="{claim}">{e(b["line"])}</span>{where}</h3>
<p class="muted small">Since {e(day(b["since"]))}; from {plural(len(b["checks"]), "check")}.</p>
{_belief_svg(b)}
{rederived}
<details><summary>The {plural(len(b["checks"]), "check")} behind it and the
{plural(len(b["history"]), "row")} it went through</summary>
<table><tr><th>day</th><th>verdict</th><th class="num">predicted</th><th>check</th><th>id</th>
</tr>{rows}</table>
<table><tr><th>since</th><th>belief</th><th>why</th><th>then</th></tr>{history}</table>
</details></div>"""


def _check_row(c: dict[str, Any]) -> str:
    verdict = "understands" if c["verdict"] == "right" else "struggles"
    fixed = c.get("corrected_at")
    note = f" (corrected on {day(fixed)})" if fixed else ""
    predicted = c["predicted_mastery"]
    shown = "" if predicted is None else f"{predicted:.2f}"
    return (
        f'<tr><td>{e(day(c["at"]))}</td><td class="{verdict}">{e(c["verdict"] + note)}</td>'
        f'<td class="num">{shown}</td><td>{e(c["summary"])}</td>'
        f'<td class="small muted">{e(c["id"])}</td></tr>'
    )


def _belief_svg(b: dict[str, Any]) -> str:
    width, height, left, right, top, bottom = 640.0, 130.0, 40.0, 14.0, 14.0, 24.0
    times = [_t(h["at"]) for h in b["history"]] + [_t(c["at"]) for c in b["checks"]]
    start, end = min(times), max(times)
    if end - start < 86_400:  # one day or less: give it room
        start, end = start - 43_200, end + 43_200
    span = end - start

    def x(text: str) -> float:
        return left + (width - left - right) * (_t(text) - start) / span

    def y(p: float) -> float:
        return top + (height - top - bottom) * (1 - p)

    parts = [
        f'<line x1="{n(left)}" x2="{n(width - right)}" y1="{n(y(0.5))}" y2="{n(y(0.5))}" '
        'stroke="#bbb" stroke-dasharray="4 3"/>',
        f'<text x="{n(left - 4)}" y="{n(y(1) + 4)}" text-anchor="end" font-size="10" '
        f'fill="{MUTED}">1</text>',
        f'<text x="{n(left - 4)}" y="{n(y(0.5) + 4)}" text-anchor="end" font-size="10" '
        f'fill="{MUTED}">0.5</text>',
        f'<text x="{n(left - 4)}" y="{n(y(0) + 4)}" text-anchor="end" font-size="10" '
        f'fill="{MUTED}">0</text>',
    ]
    history = b["history"]
    if history:  # a step line: a row holds until the next supersedes it
        points: list[str] = []
        for i, h in enumerate(history):
            x0 = x(h["at"])
            x1 = x(history[i + 1]["at"]) if i + 1 < len(history) else width - right
            yy = y(h["p_understands"])
            points += [f"{n(x0)},{n(yy)}", f"{n(x1)},{n(yy)}"]
        parts.append(
            f'<polyline class="belief-line" points="{" ".join(points)}" fill="none" '
            f'stroke="#333" stroke-width="2"/>'
        )
        for h in history:
            colour = UNDERSTANDS if h["claim"] == "understands" else STRUGGLES
            parts.append(
                f'<circle cx="{n(x(h["at"]))}" cy="{n(y(h["p_understands"]))}" r="4" '
                f'fill="{colour}"><title>{e(day(h["at"]))}: {e(h["claim"])} '
                f"({h['confidence']:.2f}) — {e(h['reason'])}</title></circle>"
            )
    for c in b["checks"]:
        passed = c["verdict"] == "right"
        parts.append(
            f'<circle class="check-dot" cx="{n(x(c["at"]))}" cy="{n(y(1.0 if passed else 0.0))}" '
            f'r="3.5" fill="none" stroke="{RIGHT if passed else WRONG}" stroke-width="1.6">'
            f"<title>{e(day(c['at']))}: {e(c['verdict'])} — {e(c['summary'])}</title></circle>"
        )
    parts.append(
        f'<text x="{n(left)}" y="{n(height - 6)}" font-size="10" fill="{MUTED}">'
        f"{e(day(_iso(start)))}</text>"
        f'<text x="{n(width - right)}" y="{n(height - 6)}" font-size="10" text-anchor="end" '
        f'fill="{MUTED}">{e(day(_iso(end)))}</text>'
    )
    return (
        f'<svg class="belief-chart" viewBox="0 0 {n(width)} {n(height)}" width="{n(width)}" '
        f'height="{n(height)}" role="img" aria-label="{e(b["concept"])} over time">'
        + "".join(parts)
        + "</svg>"
    )


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


# --- the concept map ---------------------------------------------------------------------------


def map_html(m: dict[str, Any]) -> str:
    nodes: list[dict[str, Any]] = m["nodes"]
    if not nodes:
        return f'<p class="muted">{e(m["line"])}</p>'
    col_w, row_h, pad_x, pad_top = 200.0, 84.0, 100.0, 40.0
    width = pad_x * 2 + col_w * (m["columns"] - 1)
    height = pad_top + row_h * max(m["tallest"], 1) + 20
    offset = (m["tallest"] - 1) / 2
    top_c = max((c["centrality"] for c in nodes), default=0.0) or 1.0
    where: dict[str, tuple[float, float, float]] = {}
    for c in nodes:
        radius = 9 + 15 * c["centrality"] / top_c
        where[c["key"]] = (
            pad_x + col_w * c["column"],
            pad_top + row_h * (c["row"] + offset) + 20,
            radius,
        )
    parts = [
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{EDGE}"/></marker></defs>'
    ]
    for index in range(m["columns"]):
        caption = "1. teach first" if index == 0 else f"{index + 1}."
        parts.append(
            f'<text x="{n(pad_x + col_w * index)}" y="18" text-anchor="middle" font-size="13" '
            f'font-weight="bold" fill="{MUTED}">{caption}</text>'
        )
    for a, b in m["edges"]:  # concept → its prerequisite
        (x1, y1, r1), (x2, y2, r2) = where[a], where[b]
        dx, dy = x2 - x1, y2 - y1
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        s1, s2 = (r1 + 7) / length, (r2 + 9) / length
        parts.append(
            f'<line class="map-edge" x1="{n(x1 + dx * s1)}" y1="{n(y1 + dy * s1)}" '
            f'x2="{n(x2 - dx * s2)}" y2="{n(y2 - dy * s2)}" stroke="{EDGE}" stroke-width="1.2" '
            f'marker-end="url(#arrow)"/>'
        )
    for c in nodes:
        x, y, r = where[c["key"]]
        belief = c["belief"]
        taught = c["layer"] == "taught"
        dashed = ' stroke-dasharray="3 2"' if c["layer"] == "assumed" else ""
        said = f"{c['name']}: the material is {c['band']} ({c['readiness']:.2f})" + (
            f"; the student {belief['line']}" if belief else "; no belief about the student yet"
        )
        group = [
            f'<g class="node" data-key="{e(c["key"])}" data-band="{e(c["band"])}" '
            f'data-belief="{e(belief["claim"]) if belief else ""}"><title>{e(said)}</title>'
        ]
        if taught:
            group.append(
                f'<rect x="{n(x - r)}" y="{n(y - r)}" width="{n(2 * r)}" height="{n(2 * r)}" '
                f'transform="rotate(45 {n(x)} {n(y)})" fill="{BAND_FILLS[c["band"]]}" '
                f'stroke="{TAUGHT_EDGE}" stroke-width="3"/>'
            )
        else:
            group.append(
                f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{BAND_FILLS[c["band"]]}" '
                f'stroke="{OUTLINE}" stroke-width="1"{dashed}/>'
            )
        if belief:
            understands = belief["claim"] == "understands"
            dash = "" if understands else ' stroke-dasharray="6 3"'
            group.append(
                f'<circle class="ring" cx="{n(x)}" cy="{n(y)}" r="{n(r + 6)}" fill="none" '
                f'stroke="{UNDERSTANDS if understands else STRUGGLES}" stroke-width="3.5"'
                f"{dash}/>"
            )
        label_y = y + r + (22 if belief else 15)
        group.append(
            f'<text x="{n(x)}" y="{n(label_y)}" text-anchor="middle" font-size="12">'
            f"{e(c['name'])}</text>"
        )
        if belief:
            group.append(
                f'<text x="{n(x)}" y="{n(label_y + 13)}" text-anchor="middle" font-size="11" '
                f'fill="{UNDERSTANDS if belief["claim"] == "understands" else "#b2182b"}">'
                f"{e(belief['claim'])} ({belief['confidence']:.2f})</text>"
            )
        group.append("</g>")
        parts.append("".join(group))
    bands = "".join(
        f'<span><i class="sw" style="background:{BAND_FILLS[b["name"]]}"></i>{e(b["label"])}</span>'
        for b in reversed(m["bands"])
    )
    legend = (
        f'<div class="legend"><b>Fill — the material\'s readiness ({e(m["about"])}):</b>{bands}'
        "</div>"
        '<div class="legend"><b>Ring — the student\'s belief (from their checks):</b>'
        f'<span><svg width="22" height="22" aria-hidden="true"><circle cx="11" cy="11" r="8" '
        f'fill="none" stroke="{UNDERSTANDS}" stroke-width="3"/></svg>understands</span>'
        f'<span><svg width="22" height="22" aria-hidden="true"><circle cx="11" cy="11" r="8" '
        f'fill="none" stroke="{STRUGGLES}" stroke-width="3" stroke-dasharray="5 2.5"/></svg>'
        "struggles with (dashed)</span><span>no ring: no belief yet</span></div>"
        '<div class="legend"><b>The map:</b><span>→ builds on (arrow to the prerequisite)'
        "</span><span>bigger = more central (a hub)</span>"
        f'<span><svg width="20" height="20" aria-hidden="true"><rect x="5" y="5" width="10" '
        f'height="10" transform="rotate(45 10 10)" fill="#fff" stroke="{TAUGHT_EDGE}" '
        'stroke-width="2.5"/></svg>taught by a person</span>'
        "<span>dashed outline: assumed, explained by no file</span></div>"
    )
    svg = (
        f'<svg id="concept-map" viewBox="0 0 {n(width)} {n(height)}" width="{n(width)}" '
        f'height="{n(height)}" role="img" aria-label="the concept map">' + "".join(parts) + "</svg>"
    )
    return f'<p class="muted">{e(m["line"])}</p>{legend}<div class="chart">{svg}</div>'


# --- the student's profile ----------------------------------------------------------------------


def profile_html(profile: list[dict[str, Any]]) -> str:
    if not profile:
        return (
            '<p class="muted">Nothing is held about the student yet: what they say about '
            "themselves (how they like to learn, what they need, their exams) shows here.</p>"
        )
    items = []
    for s in profile:
        replaced = (
            f' <span class="muted">(replaced: {e("; ".join(s["replaced"]))})</span>'
            if s["replaced"]
            else ""
        )
        items.append(f"<li>{e(s['line'].removeprefix('- '))}{replaced}</li>")
    return f'<ul class="profile">{"".join(items)}</ul>'


def corrections_html(corrections: list[dict[str, Any]]) -> str:
    if not corrections:
        return (
            '<p class="muted">Nothing has been corrected. A check marked wrong by mistake, a '
            "score typed wrong or a student's slip is corrected by a later episode; the "
            "record as it was kept shows here beside it.</p>"
        )
    rows = "".join(
        f"<tr><td>{e(day(c['at']))}</td><td>{e(c['by'])}</td>"
        f"<td>{e(c['as_recorded'])}"
        + (f' <span class="muted">({e(day(c["recorded_at"]))})</span>' if c["recorded_at"] else "")
        + f"</td><td>{e(c['now'])}</td><td>{e(c['reason'])}</td></tr>"
        for c in corrections
    )
    return (
        '<table class="corrections"><thead><tr><th>when</th><th>by</th><th>as recorded</th>'
        f"<th>corrected to</th><th>why</th></tr></thead><tbody>{rows}</tbody></table>"
    )


# --- calibration -------------------------------------------------------------------------------


def calibration_html(cal: dict[str, Any]) -> str:
    size, pad = 360.0, 44.0

    def x(p: float) -> float:
        return pad + (size - 2 * pad) * p

    def y(p: float) -> float:
        return size - pad - (size - 2 * pad) * p

    parts = [
        f'<rect x="{n(pad)}" y="{n(pad)}" width="{n(size - 2 * pad)}" '
        f'height="{n(size - 2 * pad)}" fill="none" stroke="#ccc"/>',
        f'<line class="diagonal" x1="{n(x(0))}" y1="{n(y(0))}" x2="{n(x(1))}" y2="{n(y(1))}" '
        'stroke="#999" stroke-dasharray="5 4"/>',
        f'<text x="{n(size / 2)}" y="{n(size - 10)}" text-anchor="middle" font-size="11" '
        f'fill="{MUTED}">predicted mastery before the check</text>',
        f'<text x="14" y="{n(size / 2)}" text-anchor="middle" font-size="11" fill="{MUTED}" '
        f'transform="rotate(-90 14 {n(size / 2)})">share of checks right</text>',
    ]
    for tick in (0.0, 0.5, 1.0):
        parts.append(
            f'<text x="{n(x(tick))}" y="{n(size - pad + 14)}" text-anchor="middle" '
            f'font-size="10" fill="{MUTED}">{tick:g}</text>'
            f'<text x="{n(pad - 6)}" y="{n(y(tick) + 4)}" text-anchor="end" font-size="10" '
            f'fill="{MUTED}">{tick:g}</text>'
        )
    if cal["drawn"]:
        biggest = max(b["count"] for b in cal["buckets"])
        for b in cal["buckets"]:  # dots with their intervals, never joined
            low, high = b["interval"]
            cx, cy = x(b["mean_predicted"]), y(b["observed"])
            r = 3.5 + 4 * (b["count"] / biggest) ** 0.5
            parts.append(
                f'<g class="bucket"><title>predicted {b["low"]:.1f}–{b["high"]:.1f}: '
                f"{b['right']} of {b['count']} right ({b['observed']:.2f}; 95% interval "
                f"{low:.2f}–{high:.2f})</title>"
                f'<line x1="{n(cx)}" x2="{n(cx)}" y1="{n(y(low))}" y2="{n(y(high))}" '
                f'stroke="{UNDERSTANDS}" stroke-width="1.5"/>'
                f'<line x1="{n(cx - 4)}" x2="{n(cx + 4)}" y1="{n(y(low))}" y2="{n(y(low))}" '
                f'stroke="{UNDERSTANDS}"/>'
                f'<line x1="{n(cx - 4)}" x2="{n(cx + 4)}" y1="{n(y(high))}" y2="{n(y(high))}" '
                f'stroke="{UNDERSTANDS}"/>'
                f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(r)}" fill="{UNDERSTANDS}" '
                'stroke="#fff"/>'
                f'<text x="{n(cx + r + 3)}" y="{n(cy + 4)}" font-size="10" fill="{MUTED}">'
                f"n={b['count']}</text></g>"
            )
        right = sum(b["right"] for b in cal["buckets"])
        counted = sum(b["count"] for b in cal["buckets"])
        said = (
            f"{plural(cal['predictions'], 'check')} with a prediction: the student was right "
            f"about {round(10 * right / counted)} times in 10, and a prediction missed how often "
            f"they were right by about {round(100 * cal['ece'])} points in 100 on average "
            f"(expected calibration error {cal['ece']:.3f}). Each dot is a bucket, with its 95% "
            "Wilson interval; the dots are not joined (there are no checks between them)."
        )
    else:
        said = cal["nothing"] or (
            f"No curve yet: {plural(cal['predictions'], 'check')} "
            f"{'carries' if cal['predictions'] == 1 else 'carry'} a prediction, and the curve is "
            f"drawn from {cal['min_checks']}. Until then, treat confidence as a ranking, not a "
            "probability."
        )
    svg = (
        f'<svg id="calibration-chart" viewBox="0 0 {n(size)} {n(size)}" width="{n(size)}" '
        f'height="{n(size)}" role="img" aria-label="the calibration curve">'
        + "".join(parts)
        + "</svg>"
    )
    rows = "".join(
        f'<tr><td>{b["low"]:.1f}–{b["high"]:.1f}</td><td class="num">{b["count"]}</td>'
        f'<td class="num">{b["right"]}</td><td class="num">{b["mean_predicted"]:.2f}</td>'
        f'<td class="num">{b["observed"]:.2f}</td><td class="num">{b["interval"][0]:.2f}–'
        f"{b['interval'][1]:.2f}</td></tr>"
        for b in cal["buckets"]
    )
    table = (
        '<table><tr><th>predicted</th><th class="num">checks</th><th class="num">right</th>'
        '<th class="num">mean predicted</th><th class="num">observed</th>'
        f'<th class="num">95% interval</th></tr>{rows}</table>'
        if cal["drawn"]
        else ""
    )
    cls = "muted" if cal["drawn"] else "note"
    rest = cal["without_prediction"]
    without = (
        f'<p class="muted small">{plural(rest, "check")} carried no prediction.</p>' if rest else ""
    )
    return f'<p class="{cls}">{e(said)}</p><div class="chart">{svg}</div>{table}{without}'


# --- why recalled ------------------------------------------------------------------------------


def why_form(pair: dict[str, str]) -> str:
    serve = (
        f"tutor-memory serve --store DIR, then open http://127.0.0.1:8765/pairs/"
        f"{pair['student_id']}/{pair['subject_id']}/inspect"
    )
    return f"""<p class="muted small">Type a question as the student would ask it: the page
asks this server's <code>recall</code> route and shows each memory recall would bring back, the
pools that found it (recent, lexical, semantic, concept), its score, how many copies it stands
for, and what the gate did.</p>
<form id="why-form"><input type="text" name="q" id="why-q" maxlength="2000"
placeholder="e.g. Why do plants wilt in salty soil?" aria-label="a question">
<button type="submit" id="why-ask">Why recalled?</button></form>
<p id="why-offline" class="note" hidden>This page was written to a file, so there is no server
to ask. Serve it to ask questions: <code>{e(serve)}</code>.</p>
<div id="why-out" aria-live="polite"></div>"""


SCRIPT = """
(function () {
  "use strict";
  var form = document.getElementById("why-form");
  var out = document.getElementById("why-out");
  var served = document.body.getAttribute("data-served") === "true" &&
    location.protocol.indexOf("http") === 0;
  if (!served) {
    document.getElementById("why-offline").hidden = false;
    document.getElementById("why-q").disabled = true;
    document.getElementById("why-ask").disabled = true;
    return;
  }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    return node;
  }
  function row(table, cells, head) {
    var tr = document.createElement("tr");
    cells.forEach(function (c) { tr.appendChild(el(head ? "th" : "td", c)); });
    table.appendChild(tr);
  }
  function show(r) {
    out.textContent = "";
    out.appendChild(el("p", r.gate, "muted"));
    var facts = [
      "mode: " + r.mode,
      "distinctive terms: " + (r.terms.length ? r.terms.join(", ") : "none"),
      "concepts it routes to: " + (r.concepts.length ? r.concepts.join(", ") : "none")
    ];
    if (r.window) {
      facts.push("time named: " + r.window.label + (r.window.empty ? " (nothing recorded)" : ""));
    }
    facts.push(r.kept + " kept after the gate and " + r.collapsed +
      " identical memories collapsed into them");
    var list = el("ul");
    facts.forEach(function (f) { list.appendChild(el("li", f)); });
    out.appendChild(list);
    var pools = el("table");
    pools.id = "why-pools";
    row(pools, ["pool", "found"], true);
    Object.keys(r.pool_sizes).forEach(function (k) { row(pools, [k, r.pool_sizes[k]]); });
    out.appendChild(pools);
    var items = el("table");
    items.id = "why-items";
    row(items, ["score", "pools", "copies", "day", "kind", "memory", "id"], true);
    r.items.forEach(function (i) {
      row(items, [i.score.toFixed(3), i.pools.join(", "), i.count, i.at.slice(0, 10), i.kind,
        i.summary, i.id]);
    });
    out.appendChild(items);
    if (!r.items.length) { out.appendChild(el("p", "Recall brings back nothing.", "muted")); }
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var q = document.getElementById("why-q").value.trim();
    if (!q) { return; }
    out.textContent = "Recalling…";
    fetch("recall?q=" + encodeURIComponent(q), { headers: { "Accept": "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (res) {
        if (res.ok) { show(res.body); return; }
        var b = res.body || {};
        out.textContent = "";
        var said = b.detail || b.error || b.title || b.message || "an error";
        out.appendChild(el("p", "The server said no: " + said, "note"));
      })
      .catch(function (error) {
        out.textContent = "";
        out.appendChild(el("p", "The recall call failed: " + error, "note"));
      });
  });
}());
"""
