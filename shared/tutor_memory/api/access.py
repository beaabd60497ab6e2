"""What a log line may say about a request: its route's template and its ids, never its words.

A path holds ids and free text: ``/pairs/s1/biology/beliefs/<concept>/history`` carries a
concept's name, which is the student's or the teacher's words; a query (``recall?q=…``) and a
body carry the student's words too. Logs outlive an erasure, so no log line holds any of them:
a request is logged as its method and route template (``GET
/pairs/{student_id}/{subject_id}/recall``) and the ids of its path.

The ids logged are ``student_id``, ``subject_id``, ``episode_id`` and ``answer_id``: keys
(pseudonymous, chosen by the client or made by the system) that a log needs to tie a line to
a pair, and that erasing a student does not make words. Each is logged only when it is
well formed as an id (ASCII letters, digits and ``. _ @ -``, at most ``MAX_ID_CHARS``): a
malformed one (a sentence sent as a student id) is logged as ``?``. A ``file_id`` is not
logged: it is made from a file's name, which is the uploader's words. A concept is never
logged. A path that matches no route is logged as ``(no route)``.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

from tutor_memory.domain import constants as C

LOGGED_IDS: Final = ("student_id", "subject_id", "episode_id", "answer_id")
NO_ROUTE: Final = "(no route)"
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]*")
_PARAMETER = re.compile(r"<(\w+)>")


# Libraries that log a request's values, and the lowest level each is let log at (every door
# quiets them at import): Powertools' event handler each route's arguments at DEBUG ("Calling
# API Route Handler: {... 'body': EpisodeRequest(text=...)}") and each unmatched path; the AWS
# SDK, PynamoDB and the HTTP clients each call's parameters (an episode's text in a PutItem);
# the MCP SDK each tool's error at INFO ("Tool 'belief_history' failed: 'no belief about
# "<concept>"…'" — the agent reads that error already). A DEBUG level set for the service
# (POWERTOOLS_LOG_LEVEL, the Lambda runtime's, basicConfig) would put the words in the logs.
_WORDY_LOGGERS: Final = {
    "aws_lambda_powertools.event_handler": logging.INFO,
    "aws_lambda_powertools.utilities.batch": logging.INFO,  # a failed record's message
    "botocore": logging.INFO,
    "boto3": logging.INFO,
    "s3transfer": logging.INFO,
    "pynamodb": logging.INFO,
    "urllib3": logging.INFO,
    "opensearch": logging.INFO,
    "mcp.server.mcpserver.server": logging.WARNING,
}


def quiet_wordy_loggers() -> None:
    """The libraries' loggers that log a request's values kept at their lowest level (a
    higher level set by the operator stays), whatever the root's level."""
    for name, lowest in _WORDY_LOGGERS.items():
        logger = logging.getLogger(name)
        if logger.level < lowest:  # NOTSET (inherits) or lower
            logger.setLevel(lowest)


def route_of(resolver: Any, method: str, path: str) -> tuple[str, dict[str, str]]:
    """The template of the route ``path`` matches (the method's first, else any method's: a
    405 still names its route) and the path's ids, as a log line may carry them."""
    template, found = route_params(resolver, method, path)
    return template, logged_ids(found)


def logged_ids(params: dict[str, str]) -> dict[str, str]:
    """The ids among a path's parameters, as a log line may carry them (``?``: malformed)."""
    return {k: _id(params[k]) for k in LOGGED_IDS if k in params}


def route_params(resolver: Any, method: str, path: str) -> tuple[str, dict[str, str]]:
    """The template of the route ``path`` matches and every parameter of the path as sent
    (a concept's name too: for deciding, never for a log line)."""
    routes = [*getattr(resolver, "_static_routes", []), *getattr(resolver, "_dynamic_routes", [])]
    wanted = method.upper()
    for same_method in (True, False):
        for route in routes:
            if same_method != (str(route.method).upper() == wanted):
                continue
            match = route.rule.match(path)
            if match is not None:
                return _PARAMETER.sub(r"{\1}", str(route.path)), match.groupdict()
    return NO_ROUTE, {}


def described(resolver: Any, method: str, path: str) -> str:
    """``"GET /pairs/{student_id}/{subject_id}/recall student_id=s1 subject_id=biology"``."""
    template, ids = route_of(resolver, method, path)
    words = [logged_method(method), template, *(f"{k}={v}" for k, v in ids.items())]
    return " ".join(words)


def _id(value: str) -> str:
    return value if len(value) <= C.MAX_ID_CHARS and _ID.fullmatch(value) else "?"


def logged_method(method: str) -> str:
    """A method as logged: a token of letters (any other is a client's junk, not logged)."""
    return method.upper() if method.isascii() and method.isalpha() and len(method) <= 16 else "?"
