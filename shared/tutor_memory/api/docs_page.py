"""The API's reference page (``GET /docs``): every operation of the table, self-contained.

No script and nothing fetched from elsewhere (a CDN-hosted viewer would tell a third party who
reads a school's API, and would not load offline); the machine-readable document is
``GET /openapi.json``.
"""

from __future__ import annotations

from html import escape

from tutor_memory.api.operations import OPERATIONS

_STYLE = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:58rem;margin:1rem auto;padding:0 1rem}"
    "code{font:13px ui-monospace,monospace;overflow-wrap:anywhere}"
    "section{border-top:1px solid #ddd;padding:.4rem 0}"
    ".m{display:inline-block;min-width:4.2rem;font-weight:600}"
    ".r{color:#555;font-size:13px}"
)


def render_docs() -> str:
    rows = []
    for op in OPERATIONS:
        roles = ", ".join(sorted(op.roles))
        statuses = " ".join(str(s) for s in op.statuses)
        rows.append(
            f"<section id='{escape(op.name)}'><span class='m'>{escape(op.method)}</span>"
            f"<code>{escape(op.path)}</code><br>{escape(op.summary)}"
            f"<div class='r'>operation <code>{escape(op.name)}</code> · may call: {roles}"
            f" · problems: {statuses}</div></section>"
        )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>Tutor Memory API</title><style>{_STYLE}</style></head><body>"
        "<h1>Tutor Memory API</h1><p>Every error is an RFC 9457 problem "
        "(<code>application/problem+json</code>). The OpenAPI 3.1 document: "
        "<a href='openapi.json'><code>/openapi.json</code></a>.</p>"
        + "".join(rows)
        + "</body></html>"
    )
