"""Pages of the list routes that grow (a pair's episodes, a belief's history, an export): at
most ``limit`` items each, and a ``next`` cursor, opaque to clients, to pass back for the
following page (null after the last). Every door checks a limit and a cursor the same way, and
refuses a bad one as a ValidationError naming ``limit`` or ``next`` (a 422 over REST)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import ValidationError

DEFAULT_PAGE_ITEMS: Final = 100  # ours: a page when the caller names no limit
# The cursor of a list read in order (the episodes after a sequence, a history after a row).
CURSOR_PATTERN: Final = r"^[0-9]{1,12}$"

# An export's cursor: ``<after>~<head>~<subject>[~<head>~<subject>…]``, the sequence the next page
# continues after (in the first pair listed), then each pair still to send with the head the
# first page found it at. Ids never hold "~" (domain/episodes.ID_PATTERN).
_SEQ = "[0-9]{1,12}"
_SUBJECT = f"[A-Za-z0-9][A-Za-z0-9._@-]{{0,{C.MAX_ID_CHARS - 1}}}"
EXPORT_CURSOR_PATTERN: Final = rf"^{_SEQ}(~{_SEQ}~{_SUBJECT})+$"
EXPORT_CURSOR_CHARS: Final = 8192  # ours: every subject of a student (some sixty longest ids)


def check_limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= C.MAX_PAGE_ITEMS:
        raise ValidationError("limit", f"must be a whole number from 1 to {C.MAX_PAGE_ITEMS}")
    return limit


def check_cursor(cursor: str | None) -> int:
    """A list's cursor as the place it continues after (0: the first page)."""
    if cursor is None:
        return 0
    if not isinstance(cursor, str) or not re.fullmatch(CURSOR_PATTERN, cursor):
        raise ValidationError("next", "is not a page's next (pass it back as it was given)")
    return int(cursor)


@dataclass(frozen=True)
class ExportCursor:
    after: int  # the last sequence sent of the first pair of ``left``
    left: tuple[tuple[str, int], ...]  # (subject, head) of each pair still to send, in order

    def text(self) -> str:
        return "~".join([str(self.after), *(f"{head}~{subject}" for subject, head in self.left)])

    @classmethod
    def parse(cls, text: str) -> ExportCursor:
        if (
            not isinstance(text, str)
            or len(text) > EXPORT_CURSOR_CHARS
            or not re.fullmatch(EXPORT_CURSOR_PATTERN, text)
        ):
            raise ValidationError("next", "is not an export page's next (pass it back as given)")
        after, *rest = text.split("~")
        left = tuple((rest[i + 1], int(rest[i])) for i in range(0, len(rest), 2))
        return cls(int(after), left)
