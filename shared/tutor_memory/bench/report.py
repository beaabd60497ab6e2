"""Results as a table on stdout, a JSON file and (quality) a PNG bar chart."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from tutor_memory.bench.designs import DESIGNS
from tutor_memory.bench.questions import CATEGORIES

# The article's numbers (SPEC §12), shown beside ours where it gives one.
ARTICLE: Final[dict[str, dict[str, str]]] = {
    "all": {"plain": "40%", "window": "65%", "episodes": "83%", "full": "91%"},
    "wrong": {"window": "5/32", "episodes": "24/32", "full": "30/32"},
    "prerequisites": {"episodes": "~55%", "full": "96%"},
    "explain": {"plain": "100%", "window": "100%", "episodes": "100%", "full": "100%"},
    "active_month": {"plain": "44/44", "window": "44/44", "episodes": "44/44", "full": "44/44"},
}


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def _cell(passed: int, total: int) -> str:
    if total == 0:
        return "–"
    return f"{passed}/{total} ({100 * passed / total:.0f}%)"


def quality_table(counts: Mapping[str, Mapping[str, Sequence[int]]]) -> str:
    rows = []
    for category in (*CATEGORIES, "all"):
        ours = [_cell(*counts[d][category]) for d in DESIGNS]
        article = ARTICLE.get(category, {})
        theirs = " / ".join(article.get(d, "–") for d in DESIGNS) if article else ""
        rows.append([category, *ours, theirs])
    return table(["category", *DESIGNS, "article (plain/window/episodes/full)"], rows)


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def quality_chart(
    path: Path, counts: Mapping[str, Mapping[str, Sequence[int]]], title: str
) -> None:
    """Grouped bars: one group per category (and all), one bar per design, with counts."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display
    import matplotlib.pyplot as plt

    groups = [*CATEGORIES, "all"]
    width = 0.2
    fig, ax = plt.subplots(figsize=(12, 5))
    for i, design in enumerate(DESIGNS):
        xs = [g + (i - 1.5) * width for g in range(len(groups))]
        values = [_share(counts[design][c]) for c in groups]
        bars = ax.bar(xs, values, width, label=design)
        for bar, c in zip(bars, groups, strict=True):
            passed, total = counts[design][c]
            ax.annotate(
                f"{passed}/{total}",
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=6,
            )
    ax.set_xticks(range(len(groups)), [g.replace("_", " ") for g in groups])
    ax.set_ylabel("questions passed (%)")
    ax.set_ylim(0, 110)
    ax.set_title(title)
    ax.legend(loc="upper left", ncols=4)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _share(cell: Sequence[int]) -> float:
    passed, total = cell
    return 100.0 * passed / total if total else 0.0


# --- the performance bench --------------------------------------------------------------------


def _histories(results: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every measured history: the generator's (repetitive) and the distinct-text ones."""
    return [*results["sizes"], *results.get("distinct_sizes", [])]


def _episodes(size: Mapping[str, Any]) -> str:
    """A history's label: its size, and "distinct" for a history of distinct texts."""
    label = f"{size['episodes']:,}"
    return f"{label} distinct" if size.get("history") == "distinct" else label


def perf_tables(results: Mapping[str, Any]) -> str:
    out = []
    article = results["article_ms"]
    rows = []
    for size in _histories(results):
        for variant, label in (
            ("with_question_embedding", "with the question embedding"),
            ("without_question_embedding", "without (vector precomputed)"),
        ):
            s = size[variant]
            parts = s["median_parts_ms"]
            rows.append(
                [_episodes(size), label, s["turns"], s["p50_ms"], s["p90_ms"], s["p95_ms"],
                 s["max_ms"], s["over_1s"], s["dropped"],
                 " / ".join(str(parts.get(k, "–")) for k in ("understand", "pools", "rank"))]
            )  # fmt: skip
    rows.append(
        ["article", "real histories, Bedrock + OpenSearch", 155, article["p50"], article["p90"],
         article["p95"], ">1000", 1, 0, ""]
    )  # fmt: skip
    out.append("TURN LATENCY (ms, as the caller of Turns.turn sees it; cap 2.5 s)")
    out.append(
        table(
            ["episodes", "variant", "turns", "p50", "p90", "p95", "max", ">1 s", "dropped",
             "median understand / pools / rank"],
            rows,
        )
    )  # fmt: skip
    out.append("")
    out.append(cpu_table(results))
    for size in _histories(results):
        kinds = size["with_question_embedding"]["p50_ms_by_kind"]
        slow = ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
        out.append(f"  p50 ms by question kind at {_episodes(size)}: {slow}")
    out.append("")
    doors = doors_table(results)
    if doors:
        out.extend([doors, ""])
    out.append("BUILDING THE HISTORIES (one pair; vectors: each distinct text embedded once)")
    out.append(
        table(
            ["episodes", "distinct texts", "embed s", "build s", "first turn ms",
             "adapter index add/s", "first night s", "next night s"],
            [
                [_episodes(s), s["distinct_texts"], s["embed_s"], s["build_s"],
                 s["first_turn_ms"], s["adapter_index_add_per_s"],
                 _night(s["nightly"], "first_night"), _night(s["nightly"], "next_night")]
                for s in _histories(results)
            ],
        )
    )  # fmt: skip
    skipped = [s["nightly"]["skipped"] for s in _histories(results) if "skipped" in s["nightly"]]
    for s in _histories(results):
        if s.get("derived"):
            d = s["derived"]
            f = d.get("fidelity", {})
            out.append(
                f"{_episodes(s)}: {d['derived_vectors']:,} vectors derived from "
                f"{d['templates']} embedded templates (cosine with the model's own vector, "
                f"{f.get('sample', 0)} sampled: derived {f.get('real_vs_derived_cosine', '–')}, "
                f"template {f.get('real_vs_template_cosine', '–')})"
            )
    if skipped:
        out.append(f"nightly: skipped — {skipped[0]}")
    out.append("")
    out.append("COLD START (import of functions/<name>/app.py in a fresh interpreter)")
    out.append(
        table(
            ["handler", "runs", "median ms", "min ms", "median CPU ms", "note"],
            [
                [r.get("handler", "–"), r.get("runs", 0), r.get("median_ms", "–"),
                 r.get("min_ms", "–"), r.get("median_cpu_ms", "–"),
                 r.get("error", r.get("skipped", ""))]
                for r in results["cold_start"]
            ],
        )
    )  # fmt: skip
    out.append("")
    for cloud in results.get("cloud_sizes") or [results["cloud"]]:
        out.extend(_cloud_table(cloud))
    out.append("INGESTION OF THE SAMPLE SUBJECT (2 files: a 4-page PDF and a Markdown file)")
    out.append(
        table(
            ["embedder", "runs", "median s", "max s"],
            [[r["embedder"], r["runs"], r["median_s"], r["max_s"]] for r in results["ingestion"]],
        )
    )
    return "\n".join(out)


QUESTION_TYPES = ("ordinary", "common_term", "record", "month")


def cpu_table(results: Mapping[str, Any]) -> str:
    """CPU ms per turn by question type (p50 / p95), the index step, its floor and the peer."""
    rows = []
    for size in _histories(results):
        for variant, label in (
            ("without_question_embedding", "without"),
            ("with_question_embedding", "with"),
        ):
            by_type = size[variant].get("by_question_type", {})
            rows.append(
                [_episodes(size), label]
                + [
                    f"{by_type[k]['cpu_p50_ms']} / {by_type[k]['cpu_p95_ms']}" if k in by_type
                    else "–"
                    for k in QUESTION_TYPES
                ]
                + [size.get("retrieval_ms", "–"), size.get("floor", {}).get("ms", "–"),
                   size.get("peer", {}).get("ms", "–"),
                   size.get("peer", {}).get("same_output_ms", "–"), size.get("dropped", "–"),
                   size.get("rss_mb", "–"), size.get("rss_build_process_mb", "–")]
            )  # fmt: skip
    ranked = results.get("index_ranking")
    title = "TURN CPU (ms per turn, p50 / p95; the question embedding without or with)" + (
        f"; the index ranked by its {ranked}" if ranked else ""
    )
    return title + "\n" + table(
        ["episodes", "embedding", *QUESTION_TYPES, "retrieval p50", "floor", "peer",
         "peer, same output", "dropped", "RSS MB (serving)", "RSS MB (bench process)"],
        rows,
    )  # fmt: skip


def doors_table(results: Mapping[str, Any]) -> str:
    """CPU ms per turn through each door (the server's path, the library's), on every
    history, without and with the question embedding; "" when no door beside the server's
    was measured."""
    rows = []
    for size in _histories(results):
        doors = size.get("doors") or {}
        if not doors:
            continue
        entries = [("server", size, size.get("first_turn_ms", "–"), False)]
        entries += [
            (name, door, door.get("first_turn_ms", "–"), door.get("first_turn_dropped", False))
            for name, door in doors.items()
        ]
        for name, door, first, first_dropped in entries:
            without = door["without_question_embedding"]
            with_ = door["with_question_embedding"]
            opened = door.get("first_pass_with_question_embedding")
            rows.append(
                [_episodes(size), name,
                 f"{without['cpu_p50_ms']} / {without['cpu_p95_ms']}",
                 f"{with_['cpu_p50_ms']} / {with_['cpu_p95_ms']}",
                 with_["p95_ms"],
                 without["dropped"] + with_["dropped"] + (opened["dropped"] if opened else 0),
                 f"{opened['cpu_p50_ms']} / {opened['cpu_p95_ms']}" if opened else "–",
                 f"{first}{' (dropped)' if first_dropped else ''}"]
            )  # fmt: skip
    if not rows:
        return ""
    return (
        "TURN CPU BY DOOR (ms per turn, p50 / p95; the doors taking turns question by question;"
        " first pass: the turns right after opening, with the embedding, on other questions)\n"
        + table(
            ["episodes", "door", "without embedding", "with embedding", "wall p95 (with)",
             "dropped", "first pass (with)", "first turn ms"],
            rows,
        )
    )  # fmt: skip


def _night(nightly: Mapping[str, Any], key: str) -> str:
    entry = nightly.get(key)
    return "–" if not entry else f"{entry['s']} ({entry['status']})"


def _cloud_table(cloud: Mapping[str, Any]) -> list[str]:
    """The cloud path's table at one history size."""
    out: list[str] = []
    if "skipped" in cloud:
        out.append(f"CLOUD PATH: skipped — {cloud['skipped']}")
    else:
        out.append(
            f"CLOUD PATH PER TURN ({cloud['episodes']:,} episodes; DynamoDB on moto, OpenSearch "
            "requests as the adapter sends them)"
        )
        out.append(
            table(
                ["question", "sequential waits", "DynamoDB requests", "operations",
                 "DDB bytes read", "OpenSearch requests", "OS bytes sent", "OS bytes read",
                 "embeddings"],
                [[t["question"], t.get("sequential_waits", "–"), t["dynamodb"]["requests"],
                  ", ".join(f"{k} {v}" for k, v in t["dynamodb"]["by_operation"].items()),
                  f"{t['dynamodb']['bytes_read']:,}", t["opensearch"]["requests"],
                  f"{t['opensearch']['bytes_sent']:,}", f"{t['opensearch']['bytes_read']:,}",
                  t["embedding_calls"]] for t in cloud["turns"]],
            )
        )  # fmt: skip
    out.append("")
    return out
