"""An unexpected failure told without its words.

A library's exception message may quote what it was reading: sqlite3's "Could not decode to
UTF-8 column 'text' with text '…'" quotes a whole episode, a ``KeyError`` its key, a JSON error
the document around it. Logs (and a cron job's mail) outlive an erasure, so where the project
logs or prints a failure it did not raise on purpose it tells the exception's type and where it
was raised — the stack's files, lines and functions, which are the code's, not the data's —
and never the message or the arguments. The project's own errors (``TutorMemoryError``) are
written to be shown and are told as they are.
"""

from __future__ import annotations

import traceback
from typing import Final

from tutor_memory.domain.errors import TutorMemoryError

WITHHELD: Final = "its message withheld: it may quote a student's words"
_PATH_PARTS: Final = 3  # "adapters/sqlite/episodes.py": enough to find the file, no machine path


def _where(frame: traceback.FrameSummary) -> str:
    path = "/".join(frame.filename.replace("\\", "/").split("/")[-_PATH_PARTS:])
    return f"{path}:{frame.lineno} in {frame.name}"


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and those it was raised from or during, the first cause first."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        cause, context = current.__cause__, current.__context__
        current = cause if cause is not None or current.__suppress_context__ else context
    return chain[::-1]


def failure_kind(exc: BaseException) -> str:
    """One line: ``"OperationalError at sqlite/episodes.py:120 in _rows"``; a project error as
    its own message."""
    if isinstance(exc, TutorMemoryError):
        return str(exc)
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {_where(frames[-1])}" if frames else ""
    return f"{type(exc).__name__}{where}"


def failure_trace(exc: BaseException) -> str:
    """A traceback with every frame and each exception's type, its messages left out."""
    parts: list[str] = []
    for link in _chain(exc):
        lines = [f"  {_where(frame)}" for frame in traceback.extract_tb(link.__traceback__)]
        if parts:
            parts.append("which led to:")
        parts.extend(["Traceback (most recent call last):", *lines])
        parts.append(f"{type(link).__module__}.{type(link).__qualname__} ({WITHHELD})")
    return "\n".join(parts)
