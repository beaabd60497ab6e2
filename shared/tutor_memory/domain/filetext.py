"""What a file says, as the readers return it: pages, headings, and why a file cannot be read.

The readers (``adapters/file_readers``) turn bytes into a :class:`FileText`; extractors turn a
:class:`FileText` into concept drafts. Pages are what a citation names ("page 3"), so every
piece of text keeps the page it came from.

Headings are *found* in Markdown (``#`` lines, setext underlines) and DOCX (Heading 1…9
paragraph styles, outline levels), but only *guessed* in PDF and plain text, which carry no
structure the reader can trust: there a heading is a short, title-like line (see the reader).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutor_memory.domain.errors import TutorMemoryError

FileKind = Literal["pdf", "markdown", "text", "csv", "docx"]


class UnreadableFileError(TutorMemoryError, ValueError):
    """A file that cannot be read into text: unsupported, broken, empty, too large or a scan.

    The message names the file and the reason, in words a student or teacher can act on.
    """

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name}: {reason}")


@dataclass(frozen=True)
class Page:
    number: int  # 1-based, as a reader of the file counts them
    text: str


@dataclass(frozen=True)
class Section:
    """A heading and the text under it, up to the next heading of any level.

    ``level`` 1 is the top level; level 0 is the text before the first heading, which has no
    title. ``parts`` is the body page by page, so text keeps the page it is on.
    """

    level: int
    title: str
    page: int  # the page the heading is on
    parts: tuple[Page, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.parts)

    @property
    def pages(self) -> tuple[int, ...]:
        """The heading's page and every page its body has text on."""
        body = {p.number for p in self.parts if p.text.strip()}
        return tuple(sorted(body | ({self.page} if self.title else set())))


@dataclass(frozen=True)
class FileText:
    name: str
    kind: FileKind
    pages: tuple[Page, ...]
    sections: tuple[Section, ...]
    # The document's own title (PDF/DOCX metadata, a DOCX Title paragraph, or the single
    # top-level Markdown heading): it names the document, not one of its ideas.
    title: str | None = None

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.pages)
