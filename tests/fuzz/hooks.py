"""Schemathesis hooks for the fuzz run (loaded by ``test_fuzz.py`` through SCHEMATHESIS_HOOKS).

The request-schema check, ``positive_data_acceptance``, fails a request the OpenAPI document
allows and the server refuses. The document says every rule a JSON Schema can state (patterns,
bounds, the evidence each kind requires); the refusals below depend on something no schema of
the request can see, so they are documented in the operation (its 404/422 and the field's
description) and are not mismatches:

* **stored state** — an ``answer_id`` that names an episode of another kind (a question has no
  stance, no sources), ``recalled_ids`` that name no episode of the pair, a cited ``file_id``
  the pair has not registered, an Idempotency-Key whose write was erased since (410: its retry
  writes nothing);
* **the server's clock** — an ``at`` more than a day past it (the bound moves with the clock), or
  an instant before 1970-01-01T00:00:00Z written with a positive offset on that very day;
* **what the text says** — a ``taught`` message without a note that does not itself teach
  (``not-teaching``: "remember that …" does);
* **two fields together** — a quiz whose ``score`` exceeds its ``maximum``; a profile statement
  with a ``due`` date whose aspect, in the path, is not a goal; a name (the path's aspect) of
  more than four words or a word without a letter, or with a ``key``;
* **bytes** — a body over the server's byte limit (413, refused unread): JSON Schema bounds
  each string's characters, not the bytes of the whole body;
* **a correction and what it corrects** — the field a correction may change and the value it
  may take follow the kind of the episode it names (a check's ``verdict``, a quiz's ``score``
  within its maximum), a value already said is no correction, and an answer cannot be
  corrected: the request names the episode by id;
* **what a file's bytes say** — a class's file whose base64 content decodes to bytes its name's
  reader cannot read (not UTF-8 for a text file, not a PDF for a PDF);
* **a cursor of another listing** — an export's ``next`` names the export it continues (its
  pairs and heads), which the request cannot show;
* **letters of every script** — a file id is its name's letters and digits in any script, and a
  report's ``history=`` must hold a letter or digit to name a concept; an ECMA-262 pattern
  without Unicode property escapes cannot name those classes, so the document's pattern admits
  every character that may be one and the server refuses the rest by Unicode's categories.

Each is excused only as itself: the status, the problem's type and the one field it names, and,
for a time, only if the request's time really is out of the clock's range. Anything else is the
built-in check's failure, unchanged (a 422 on any other field is a mismatch to fix).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import (
    positive_data_acceptance as schema_valid_request_accepted,
)

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
AHEAD = timedelta(days=1)  # the server's C.LATEST_AHEAD
INVALID = "urn:tutor-memory:problem:invalid-request"
NOT_TEACHING = "urn:tutor-memory:problem:not-teaching"


def _problem(response: Any) -> dict[str, Any]:
    try:
        found = response.json()
    except Exception:
        return {}
    return found if isinstance(found, dict) else {}


def _times(case: Any) -> list[str]:
    """The request's ``at``, wherever it was sent (the body, the query)."""
    found = []
    for where in (case.body, case.query):
        if isinstance(where, dict) and isinstance(where.get("at"), str):
            found.append(where["at"])
    return found


def _off_the_clock(text: str) -> bool:
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    try:
        utc = at.astimezone(UTC)
    except OverflowError:  # past year 9999 in UTC: beyond any clock
        return True
    return utc < EARLIEST or utc > datetime.now(UTC) + AHEAD


def documented_refusal(response: Any, case: Any) -> bool:
    """Whether the response is one of the documented refusals a request schema cannot state."""
    problem = _problem(response)
    kind = problem.get("type")
    if response.status_code == 410 and kind == "urn:tutor-memory:problem:erased":
        return True  # stored state: the key's write was erased
    if response.status_code == 413 and kind == "urn:tutor-memory:problem:payload-too-large":
        return True  # bytes
    if response.status_code != 422:
        return False
    if kind == NOT_TEACHING:
        return True  # what the text says
    fields = [f.get("field") for f in problem.get("fields") or []]
    if kind != INVALID or len(fields) != 1:
        return False
    field = fields[0]
    if field in ("answer_id", "recalled_ids"):
        return True  # stored state: the id's kind, or whether the pair holds it
    detail = str(problem.get("detail"))
    if field == "evidence.score" and "exceeds the maximum" in detail:
        return True  # two fields together
    if field == "due" and "only a goal" in detail:
        return True  # two fields together: the path's aspect, the body's date
    if (field == "value" and "a name is at most" in detail) or (
        field == "key" and "a name has no key" in detail
    ):
        return True  # two fields together: the path's aspect, the body's value or key
    if field == "evidence.file_id" and "is registered" in detail:
        return True  # stored state: the pair's files
    if field in ("file_id", "path.file_id", "evidence.file_id") and "any script" in detail:
        return True  # letters of every script
    if field == "history" and "must name a concept" in detail:
        return True  # letters of every script
    if field == "next" and "is the next of another" in detail:
        return True  # a cursor of another listing
    if field == "content" and "base64" not in detail and "bytes; at most" not in detail:
        return True  # what a file's bytes say (its base64 and its size are in the schema)
    correction = ("correctable field is", "already says", "exceeds the quiz", "cannot be corrected",
                  "a verdict is")  # fmt: skip
    if field in ("field", "value", "episode_id") and any(c in detail for c in correction):
        return True  # a correction and what it corrects
    if field == "at":
        return any(_off_the_clock(at) for at in _times(case))  # the server's clock
    return False


@schemathesis.check
def schema_valid_request_accepted_but_for_state(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, but for the documented refusals (see the module)."""
    try:
        return schema_valid_request_accepted(ctx, response, case)
    except AssertionError:
        if documented_refusal(response, case):
            return None
        raise
