"""The OpenAPI document, generated from the routes (committed as infra/openapi.json)."""

from __future__ import annotations

import json

from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App


def _no_app() -> App:
    raise RuntimeError("the OpenAPI document is generated from the routes alone")


def openapi_json() -> str:
    schema = build_resolver(_no_app).get_openapi_json_schema(
        title="Tutor Memory",
        version="0.1.0",
        summary="The memory of one student in one subject, for an AI tutor.",
        description=(
            "Every route is scoped to a pair: /pairs/{student_id}/{subject_id}. The API is "
            "IAM-authorised in AWS (the chat backend signs its calls); `tutor-memory serve` "
            "serves the same routes on 127.0.0.1."
        ),
    )
    return json.dumps(json.loads(schema), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
