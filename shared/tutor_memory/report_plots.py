"""Pictures of a report (``tutor-memory report --plots DIR``): PNGs a person would rather look at
than read — the reliability curve and the concept map.

Imported only when pictures are asked for: matplotlib (and networkx, for the layout) are heavy
and no other path needs them. Figures are built on ``matplotlib.figure.Figure`` and written by
the Agg canvas, never through pyplot: no display, no global state, safe on a server.

Every mark is a number of the report (``domain/report.py``) or of the stored map: nothing is
computed here that the text report does not also state.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import networkx as nx
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptMap, Layer
from tutor_memory.domain.report import BANDS, Report, band_of, plural

RELIABILITY_PNG = "reliability.png"
CONCEPT_MAP_PNG = "concept-map.png"
DPI = 150

# Readiness bands as colours, light (only named) to dark (taught): a sequential scale reads
# as "more ready" at a glance, and the legend names the bands.
BAND_COLOURS = {
    "named": "#f0f0f0",
    "explained": "#a6cee3",
    "confirmed": "#33a02c",
    "taught": "#1f4e79",
}
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
    cal = report.calibration
    fig = Figure(figsize=(7.5, 8.5), dpi=DPI, layout="constrained")
    curve, counts = fig.subplots(2, 1, height_ratios=(3, 1), sharex=True)
    fig.suptitle("Did the mastery the tutor predicted come true?", fontsize=14, weight="bold")

    curve.plot([0, 1], [0, 1], ls="--", color="#999999", lw=1.2, label="perfect calibration")
    if cal.buckets:
        assert cal.ece is not None  # set whenever there is a bucket
        xs = [b.mean_predicted for b in cal.buckets]
        ys = [b.observed for b in cal.buckets]
        biggest = max(b.count for b in cal.buckets)
        for b in cal.buckets:  # the gap each bucket adds to the error
            curve.plot([b.mean_predicted] * 2, [b.mean_predicted, b.observed], color=GAP, lw=1.2)
        curve.plot([], [], color=GAP, lw=1.2, label="gap (averaged into the error)")
        curve.plot(xs, ys, color=BLUE, lw=1.5, zorder=2)
        curve.scatter(
            xs,
            ys,
            s=[60 + 340 * b.count / biggest for b in cal.buckets],
            color=BLUE,
            edgecolor="white",
            zorder=3,
            label="share of checks right (bigger dot = more checks)",
        )
        curve.set_title(
            f"{plural(cal.checks, 'check')} with a prediction · expected calibration error "
            f"{cal.ece:.3f}",
            fontsize=10,
            color=MUTED,
            pad=52 if cal.limit else 6,  # room for the limit between title and curve
        )
    else:
        curve.text(
            0.5,
            0.5,
            textwrap.fill(report.nothing_to_calibrate, 40),
            ha="center",
            va="center",
            fontsize=12,
            color=MUTED,
        )
    if cal.limit:  # above the curve, where no point can hide it
        curve.text(
            0.5,
            1.0 + (0.01 if cal.buckets else 0.02),
            "Limit: " + cal.limit.replace(" (", "\n(", 1),
            transform=curve.transAxes,
            ha="center",
            va="bottom",
            fontsize=9,
            color=WARN,
            bbox={"boxstyle": "round", "facecolor": "#fff5f0", "edgecolor": WARN},
        )
    curve.set(xlim=(0, 1), ylim=(-0.05, 1.05), ylabel="observed: share of checks right")
    curve.grid(alpha=0.3)

    bins = C.CALIBRATION_BINS
    by_bin = {round(b.low * bins): b.count for b in cal.buckets}
    heights = [by_bin.get(i, 0) for i in range(bins)]
    bars = counts.bar(
        [(i + 0.5) / bins for i in range(bins)], heights, width=0.9 / bins, color=BLUE
    )
    counts.bar_label(bars, labels=[str(h) if h else "" for h in heights], fontsize=9)
    counts.set(xlabel="predicted mastery before the check", ylabel="checks per bucket")
    counts.set_ylim(0, max([*heights, 1]) * 1.3)
    counts.yaxis.get_major_locator().set_params(integer=True)
    counts.grid(axis="y", alpha=0.3)
    fig.legend(loc="outside lower center", ncols=2, fontsize=9, frameon=False)
    return fig


# --- the concept map -------------------------------------------------------------------------


def _layers(cmap: ConceptMap) -> list[list[str]]:
    """The stored teaching order, each layer top to bottom.

    The first layer keeps the stored order (hubs first). Each later one is sorted by where its
    prerequisites sit (the barycentre heuristic, one pass), so that arrows cross less; a node
    with no placed prerequisite keeps its stored place. A node the order does not list (an old
    map) goes last.
    """
    stored = [[k for k in layer if k in cmap.concepts] for layer in cmap.teaching_order]
    listed = {k for layer in stored for k in layer}
    stored.append(sorted(k for k in cmap.concepts if k not in listed))
    placed: dict[str, float] = {}  # key → height, centred on 0 as the layout centres a column
    layers: list[list[str]] = []
    for layer in (layer for layer in stored if layer):
        rank = _centred(layer)
        where = {k: _barycentre(cmap, k, placed, rank[k]) for k in layer}
        ordered = sorted(layer, key=lambda k: (where[k], rank[k]))
        placed |= _centred(ordered)
        layers.append(ordered)
    return layers


def _centred(layer: list[str]) -> dict[str, float]:
    return {k: i - (len(layer) - 1) / 2 for i, k in enumerate(layer)}


def _barycentre(cmap: ConceptMap, key: str, placed: dict[str, float], default: float) -> float:
    ys = [placed[p] for p in cmap.concepts[key].builds_on if p in placed]
    return sum(ys) / len(ys) if ys else default


def concept_map_figure(report: Report) -> Figure:
    cmap = report.cmap
    layers = _layers(cmap)
    tallest = max((len(layer) for layer in layers), default=1)
    width = min(22.0, max(9.0, 2.6 * len(layers) + 2.5))
    height = min(18.0, max(6.5, 1.15 * tallest + 2.5)) if cmap.concepts else 1.5
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    ax = fig.subplots()
    ax.set_axis_off()
    fig.suptitle(f"Concept map of {report.pair.subject_id}", fontsize=15, weight="bold")
    ax.set_title(report.subject.line, fontsize=11, color=MUTED, pad=30)
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
        node_size=[size[k] for k in nodes],
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
            node_color=[BAND_COLOURS[band_of(cmap.concepts[k].readiness)] for k in keys],
            node_shape=shape,
            edgecolors=TAUGHT_LAYER_EDGE if taught else OUTLINE,
            linewidths=3.0 if taught else 1.0,
        )
        if layer_kind is Layer.ASSUMED:
            drawn.set_linestyle("--")
    for key, (x, y) in pos.items():
        ax.annotate(
            cmap.concepts[key].name,
            (x, y),
            textcoords="offset points",
            xytext=(0, -(size[key] ** 0.5) / 2 - 6),
            ha="center",
            va="top",
            fontsize=10,
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
    ax.margins(x=0.08, y=0.1)
    fig.legend(
        handles=_legend_handles(cmap),
        loc="outside lower center",
        ncols=4,
        fontsize=9,
        frameon=False,
    )
    return fig


def _legend_handles(cmap: ConceptMap) -> list[Any]:
    handles: list[Any] = [
        Patch(facecolor=BAND_COLOURS[name], edgecolor=OUTLINE, label=label)
        for name, _, label in reversed(BANDS)
    ]
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
                label="dashed: assumed, explained by no file",
            )
        )
    return handles
