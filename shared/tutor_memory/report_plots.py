"""Pictures of a report (``tutor-memory report --plots DIR``): PNGs a person would rather look at
than read — the reliability curve and the concept map.

Imported only when pictures are asked for: matplotlib (and networkx, for the layout) are heavy
and no other path needs them. Figures are built on ``matplotlib.figure.Figure`` and written by
the Agg canvas, never through pyplot: no display, no global state, safe on a server.

Every mark is a number of the report (``domain/report.py``) or of the stored map: nothing is
computed here that the text report does not also state. The map shows two things that must not
be confused — the material's readiness (fill) and the student's belief (a ring) — and the
calibration curve is drawn only from five predicted checks, as dots with their intervals.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from tutor_memory.domain import constants as C
from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.conceptmap import Layer
from tutor_memory.domain.maplayout import beliefs_on_map, map_columns
from tutor_memory.domain.report import BANDS, Report, band_of, plural

RELIABILITY_PNG = "reliability.png"
CONCEPT_MAP_PNG = "concept-map.png"
DPI = 150

# Readiness bands as fills, light (only named) to dark (taught): one neutral sequential scale
# reads as "more ready" at a glance and claims no colour of the student's (no green for a
# concept that only the material has confirmed); the legend names the bands.
BAND_COLOURS = {
    "named": "#f7f7f7",
    "explained": "#cccccc",
    "confirmed": "#969696",
    "taught": "#525252",
}
# The student's belief as a ring around the node: colour and line style, so it reads in grey
# print and to a colour-blind eye too (blue and orange-red stay apart in every common form).
BELIEF_RINGS: dict[Claim, tuple[str, str]] = {
    Claim.UNDERSTANDS: ("#2166ac", "-"),
    Claim.STRUGGLES: ("#d6604d", "--"),
}
RING_AREA = 2.0  # a ring's drawn area against its node's (so its radius is about 1.4 times)
TAUGHT_LAYER_EDGE = "#d95f02"
MUTED = "#555555"
BLUE = "#1f78b4"
GAP = "#e31a1c"
WARN = "#b2182b"
EDGE = "#8c8c8c"
OUTLINE = "#333333"


def write_plots(report: Report, folder: Path) -> list[Path]:
    """Write the report's pictures into ``folder`` (created if missing); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, figure in (
        (RELIABILITY_PNG, reliability_figure(report)),
        (CONCEPT_MAP_PNG, concept_map_figure(report)),
    ):
        path = folder / name
        FigureCanvasAgg(figure).print_png(str(path))  # type: ignore[no-untyped-call]
        written.append(path)
    return written


# --- the reliability curve -------------------------------------------------------------------


def reliability_figure(report: Report) -> Figure:
    """One dot per bucket with its 95% Wilson interval and its count; the dots are never joined
    (a line between two sparse buckets invents the checks between them), and nothing is drawn
    before ``CALIBRATION_MIN_CHECKS`` checks carry a prediction."""
    cal = report.calibration
    fig = Figure(figsize=(7.5, 8.5), dpi=DPI, layout="constrained")
    curve, counts = fig.subplots(2, 1, height_ratios=(3, 1), sharex=True)
    fig.suptitle("Did the mastery the tutor predicted come true?", fontsize=14, weight="bold")

    curve.plot([0, 1], [0, 1], ls="--", color="#999999", lw=1.2, label="perfect calibration")
    if cal.calibrated:
        assert cal.ece is not None  # set whenever there is a bucket
        biggest = max(b.count for b in cal.buckets)
        for n, b in enumerate(cal.buckets):
            low, high = b.interval
            curve.errorbar(
                [b.mean_predicted],
                [b.observed],
                yerr=[[b.observed - low], [high - b.observed]],
                fmt="o",
                ls="none",
                markersize=6 + 8 * (b.count / biggest) ** 0.5,
                color=BLUE,
                markeredgecolor="white",
                ecolor=BLUE,
                elinewidth=1.4,
                capsize=4,
                zorder=3,
                label="share of checks right, with its 95% interval (Wilson)" if n == 0 else None,
            )
            curve.annotate(
                f"n={b.count}",
                (b.mean_predicted, b.observed),
                textcoords="offset points",
                xytext=(9, -3),
                fontsize=9,
                color=MUTED,
            )
        curve.set_title(
            f"{plural(cal.checks, 'check')} with a prediction · expected calibration error "
            f"{cal.ece:.3f}",
            fontsize=10,
            color=MUTED,
        )
        _bucket_counts(counts, report)
    else:
        curve.text(
            0.5,
            0.5,
            textwrap.fill(_not_drawn(report), 44),
            ha="center",
            va="center",
            fontsize=12,
            color=MUTED,
            bbox={"boxstyle": "round", "facecolor": "#fff5f0", "edgecolor": WARN},
        )
        counts.set_axis_off()
    curve.set(xlim=(0, 1), ylim=(-0.05, 1.05), ylabel="observed: share of checks right")
    curve.grid(alpha=0.3)
    fig.legend(loc="outside lower center", ncols=2, fontsize=9, frameon=False)
    return fig


def _not_drawn(report: Report) -> str:
    cal = report.calibration
    if cal.checks == 0:
        return report.nothing_to_calibrate
    return (
        f"No curve yet: {plural(cal.checks, 'check')} "
        f"{'carries' if cal.checks == 1 else 'carry'} a prediction, and the curve is drawn from "
        f"{C.CALIBRATION_MIN_CHECKS}. Until then, treat confidence as a ranking, not a "
        "probability."
    )


def _bucket_counts(counts: Any, report: Report) -> None:
    bins = C.CALIBRATION_BINS
    by_bin = {round(b.low * bins): b.count for b in report.calibration.buckets}
    heights = [by_bin.get(i, 0) for i in range(bins)]
    bars = counts.bar(
        [(i + 0.5) / bins for i in range(bins)], heights, width=0.9 / bins, color=BLUE
    )
    counts.bar_label(bars, labels=[str(h) if h else "" for h in heights], fontsize=9)
    counts.set(xlabel="predicted mastery before the check", ylabel="checks per bucket")
    counts.set_ylim(0, max([*heights, 1]) * 1.3)
    counts.yaxis.get_major_locator().set_params(integer=True)
    counts.grid(axis="y", alpha=0.3)


# --- the concept map -------------------------------------------------------------------------


@dataclass(frozen=True)
class ConceptMark:
    """How one concept is drawn: its fill says the material's readiness, its ring (if any) the
    student's current belief — two encodings, so a concept confirmed once by a passing check
    and failed ever since reads as "confirmed material, student struggles"."""

    band: str
    fill: str
    belief: Belief | None

    @property
    def ring(self) -> str | None:
        return None if self.belief is None else BELIEF_RINGS[self.belief.claim][0]

    @property
    def label(self) -> str:
        if self.belief is None:
            return ""
        return f"{self.belief.claim.value} ({self.belief.confidence:.2f})"


def concept_marks(report: Report) -> dict[str, ConceptMark]:
    believed = beliefs_on_map(report.beliefs, report.cmap)
    return {
        key: ConceptMark(
            band_of(c.readiness), BAND_COLOURS[band_of(c.readiness)], believed.get(key)
        )
        for key, c in report.cmap.concepts.items()
    }


def concept_map_figure(report: Report) -> Figure:
    cmap = report.cmap
    layers = map_columns(cmap)
    marks = concept_marks(report)
    tallest = max((len(layer) for layer in layers), default=1)
    width = min(22.0, max(9.0, 2.6 * len(layers) + 2.5))
    height = min(18.0, max(6.5, 1.3 * tallest + 3.0)) if cmap.concepts else 1.5
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    ax = fig.subplots()
    ax.set_axis_off()
    fig.suptitle(f"Concept map of {report.pair.subject_id}", fontsize=15, weight="bold")
    ax.set_title(
        report.subject.line + "\nFill: the material's readiness. Ring: the student's belief.",
        fontsize=11,
        color=MUTED,
        pad=30,
    )
    if not cmap.concepts:
        return fig

    graph: Any = nx.DiGraph()
    graph.add_nodes_from(k for layer in layers for k in layer)
    graph.add_edges_from((c, p) for c, p in cmap.edges() if c != p)  # concept → prerequisite
    # Columns given as lists (a node attribute would be grouped into sets, in no fixed order);
    # the layout stacks a column bottom-up, so each list is reversed to put its first on top.
    columns = {index: list(reversed(layer)) for index, layer in enumerate(layers)}
    pos: dict[str, Any] = nx.multipartite_layout(graph, subset_key=columns, align="vertical")

    top = max(c.centrality for c in cmap.concepts.values()) or 1.0
    size = {k: 350 + 2400 * c.centrality / top for k, c in cmap.concepts.items()}
    nodes = list(graph.nodes)
    nx.draw_networkx_edges(
        graph,
        pos,
        ax=ax,
        nodelist=nodes,
        node_size=[size[k] * RING_AREA for k in nodes],  # arrows stop at the ring
        arrows=True,
        arrowstyle="-|>",
        arrowsize=14,
        edge_color=EDGE,
        width=1.1,
        connectionstyle="arc3,rad=0.06",
    )
    for layer_kind, shape in ((Layer.FILE, "o"), (Layer.ASSUMED, "o"), (Layer.TAUGHT, "D")):
        keys = [k for k in nodes if cmap.concepts[k].layer is layer_kind]
        if not keys:
            continue
        taught = layer_kind is Layer.TAUGHT
        drawn = nx.draw_networkx_nodes(
            graph,
            pos,
            ax=ax,
            nodelist=keys,
            node_size=[size[k] for k in keys],
            node_color=[marks[k].fill for k in keys],
            node_shape=shape,
            edgecolors=TAUGHT_LAYER_EDGE if taught else OUTLINE,
            linewidths=3.0 if taught else 1.0,
        )
        if layer_kind is Layer.ASSUMED:
            drawn.set_linestyle("--")
    for claim, (colour, style) in BELIEF_RINGS.items():  # the student, around the material
        keys = [k for k in nodes if (b := marks[k].belief) is not None and b.claim is claim]
        if not keys:
            continue
        rings = nx.draw_networkx_nodes(
            graph,
            pos,
            ax=ax,
            nodelist=keys,
            node_size=[size[k] * RING_AREA for k in keys],
            node_color="none",
            edgecolors=colour,
            linewidths=3.5,
        )
        rings.set_linestyle(style)
        rings.set_gid(f"belief-{claim.name.lower()}")
    for key, (x, y) in pos.items():
        said = marks[key].label
        ax.annotate(
            cmap.concepts[key].name + (f"\n{said}" if said else ""),
            (x, y),
            textcoords="offset points",
            xytext=(0, -((size[key] * RING_AREA) ** 0.5) / 2 - 6),
            ha="center",
            va="top",
            fontsize=10,
            color=marks[key].ring or "black",
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.85, "lw": 0},
            zorder=4,
        )
    for index, layer in enumerate(layers):
        caption = "1. teach first" if index == 0 else f"{index + 1}."
        ax.text(
            float(pos[layer[0]][0]),
            1.0,
            caption,
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="bottom",
            fontsize=11,
            color=MUTED,
            weight="bold",
        )
    ax.margins(x=0.08, y=0.12)
    fig.legend(
        handles=legend_handles(report),
        loc="outside lower center",
        ncols=3,
        fontsize=9,
        frameon=False,
    )
    return fig


def _heading(text: str) -> Any:
    return Line2D([], [], ls="", label=text)


def legend_handles(report: Report) -> list[Any]:
    """The legend in three groups: the material (fill), the student (ring), the map."""
    cmap = report.cmap
    handles: list[Any] = [_heading("Fill — the material's readiness (about the files):")]
    handles += [
        Patch(facecolor=BAND_COLOURS[name], edgecolor=OUTLINE, label=label)
        for name, _, label in reversed(BANDS)
    ]
    handles.append(_heading("Ring — the student's belief (from their checks):"))
    for claim, (colour, style) in BELIEF_RINGS.items():
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                ls="",
                markersize=13,
                markerfacecolor="white",
                markeredgecolor=colour,
                markeredgewidth=2.5,
                label=f"student {claim.value} it" + (" (dashed)" if style == "--" else ""),
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            marker="o",
            ls="",
            markersize=13,
            markerfacecolor="white",
            markeredgecolor="white",
            label="no ring: no belief yet",
        )
    )
    handles.append(_heading("The map:"))
    handles.append(
        Line2D([], [], color=EDGE, marker=">", markersize=6, label="builds on (→ prerequisite)")
    )
    handles.append(
        Line2D(
            [],
            [],
            marker="o",
            ls="",
            markersize=12,
            markerfacecolor="white",
            markeredgecolor=OUTLINE,
            label="bigger = more central (a hub)",
        )
    )
    layers = {c.layer for c in cmap.concepts.values()}
    if Layer.TAUGHT in layers:
        handles.append(
            Line2D(
                [],
                [],
                marker="D",
                ls="",
                markersize=9,
                markerfacecolor="white",
                markeredgecolor=TAUGHT_LAYER_EDGE,
                markeredgewidth=3,
                label="taught layer: added by a person",
            )
        )
    if Layer.ASSUMED in layers:
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                ls="",
                markersize=9,
                markerfacecolor="white",
                markeredgecolor=OUTLINE,
                label="dashed outline: assumed, explained by no file",
            )
        )
    return handles
