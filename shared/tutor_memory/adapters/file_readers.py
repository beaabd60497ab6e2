"""Read an uploaded file's bytes into text with pages and headings (``domain.filetext``).

Supported: PDF (pypdf), Markdown, plain text (UTF-8, or UTF-16 with a byte-order mark), CSV
and DOCX. The kind is decided by the bytes first (``%PDF-``; a zip holding ``word/document.xml``)
and by the extension second, so a PDF saved as ``notes.txt`` is still read as a PDF.

Headings, by kind:

- Markdown: ATX (``## Osmosis``) and setext (a line underlined with ``===`` or ``---``)
  headings, outside code fences. Inline markup is dropped from titles and body text (links
  keep their text); ``Page.text`` keeps the file's own text. Form feeds split pages.
- DOCX: paragraphs styled Heading 1…9 (by style *name*, which Word keeps in English whatever
  the interface language), or with an outline level; a Title paragraph is the title. DOCX
  has no fixed pages: pages are counted at explicit page breaks only (Word's rendering of the
  rest depends on the printer). Read with the standard library (zipfile and ElementTree), not
  python-docx, which would bring lxml (tens of MB) into the Lambda layer for ~60 lines. The
  XML is read as a stream, a paragraph at a time, so a zip bomb costs what it inflates to
  before a bound stops it (``_read_docx``), never a tree of it.
- Tables: a DOCX table's rows, and a CSV file's, become "| a | b |" lines, as a Markdown table
  is written (a cell's paragraphs joined by spaces), so the extractor reads one kind of table
  (a glossary: ``offline_extractor``). A CSV file has no headings; its title is its name's
  stem ("glossary.csv" → "glossary"). Its delimiter is a comma, a semicolon or a tab.
- PDF and plain text carry no structure to trust, so headings are guessed line by line: a
  line is a heading when it starts a block (after a blank line, a page start, a heading or a
  line that ended a sentence), is short (at most 8 words, 80 characters), starts with a
  capital, a digit or an uncased letter (Arabic script), does not end with sentence or clause
  punctuation, and is not the page's last line. Its level is its numbering depth ("2.1" is
  2), else 1. Lines repeated at the top or bottom of most pages (running headers, footers)
  and bare page numbers are dropped first. Tables and captions can still pass for headings;
  the validator rejects the numbered ones ("Figure 2").

PDF text is extracted in pypdf's layout mode, which keeps the blank lines between paragraphs
that the extractor reads as paragraph breaks; plain mode is the fallback when layout fails or
finds nothing (layout mode does not read text inside form XObjects: a handout of slides).
What a PDF costs is bounded before pypdf parses it: its pages' content (and the forms plain
mode would draw) is decoded and counted against a hundred times the file's size.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import stat
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from io import BytesIO
from pathlib import Path, PurePosixPath
from typing import Any, Final, cast
from xml.etree import ElementTree as ET

from tutor_memory.domain import constants as C
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.filetext import (
    FileKind,
    FileText,
    Page,
    Section,
    UnreadableFileError,
)

MARKDOWN_EXTENSIONS: Final = frozenset({".md", ".markdown", ".mdown", ".mkd"})
TEXT_EXTENSIONS: Final = frozenset({".txt", ".text", ""})
CSV_EXTENSIONS: Final = frozenset({".csv", ".tsv"})
SUPPORTED: Final = "send PDF, Markdown, plain text, CSV or DOCX"


def read_file(
    name: str,
    data: bytes,
    *,
    clock: Callable[[], float] = time.monotonic,
    budget_s: float = C.FILE_READ_BUDGET_S,
) -> FileText:
    """The text of an uploaded file, page by page, with its headings.

    Raises :class:`UnreadableFileError` naming the file and the reason when the file is empty,
    too large, of an unsupported type, broken, has no text (a scanned PDF), yields more than
    ``MAX_FILE_TEXT_CHARS`` (any kind), is a PDF whose pages' content inflates past
    ``MAX_PDF_INFLATE_RATIO`` times the file (a compression bomb), or takes longer than
    ``budget_s`` seconds of ``clock`` to read (checked between a PDF's pages and every 64 KB of
    a DOCX's XML).
    """
    if not data:
        raise UnreadableFileError(name, "the file is empty")
    if len(data) > C.MAX_FILE_BYTES:
        raise _too_large(name, None)  # the data may be a bounded read's: how far over is unknown
    kind = _kind(name, data)
    if kind == "pdf":
        return _read_pdf(name, data, _Budget(name, clock, budget_s))
    if kind == "docx":
        return _read_docx(name, data, _Budget(name, clock, budget_s))
    return _read_text(name, data, kind)


def read_upload(path: Path) -> bytes:
    """The bytes of the file at ``path`` for an upload, read only as far as the upload bound:
    a larger file is refused by its size, and a path to a device or a pipe (/dev/zero) is read
    no further than one byte past the bound, never whole. A path that cannot be read is a
    ``ValidationError`` naming ``file``."""
    try:
        with path.open("rb") as file:
            info = os.fstat(file.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > C.MAX_FILE_BYTES:
                raise _too_large(path.name, info.st_size)
            data = file.read(C.MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ValidationError("file", f"cannot read {path}: {exc.strerror}") from None
    if len(data) > C.MAX_FILE_BYTES:
        raise _too_large(path.name, None)
    return data


def _too_large(name: str, size: int | None) -> UnreadableFileError:
    """The refusal of a file over ``MAX_FILE_BYTES`` (``size`` None: how far over is unknown)."""
    said = f"{_mb(size)} MB" if size is not None else f"over {_mb(C.MAX_FILE_BYTES)} MB"
    return UnreadableFileError(name, f"too large ({said}; the limit is {_mb(C.MAX_FILE_BYTES)} MB)")


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}".removesuffix(".0")


def _extension(name: str) -> str:
    return PurePosixPath(name.replace("\\", "/")).suffix.casefold()


def _kind(name: str, data: bytes) -> FileKind:
    ext = _extension(name)
    if b"%PDF-" in data[:1024]:  # the header may follow a little junk; readers allow it
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        try:
            is_docx = "word/document.xml" in zipfile.ZipFile(BytesIO(data)).namelist()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            if ext == ".docx":
                raise UnreadableFileError(name, f"not a readable DOCX ({exc})") from exc
            is_docx = False
        if is_docx:
            return "docx"
        if ext == ".docx":
            raise UnreadableFileError(name, "not a readable DOCX (no word/document.xml inside)")
        raise UnreadableFileError(name, f"unsupported file type ({ext or 'zip'}); {SUPPORTED}")
    if ext == ".pdf":
        raise UnreadableFileError(name, "not a readable PDF (no %PDF- header)")
    if ext == ".docx":
        raise UnreadableFileError(name, "not a readable DOCX (not a zip archive)")
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown"
    if ext in TEXT_EXTENSIONS:
        return "text"
    if ext in CSV_EXTENSIONS:
        return "csv"
    raise UnreadableFileError(name, f"unsupported file type ({ext}); {SUPPORTED}")


def _too_many_pages(name: str, count: int) -> UnreadableFileError:
    return UnreadableFileError(
        name, f"too many pages ({count}; the limit is {C.MAX_FILE_PAGES}); send it in parts"
    )


def _too_much_text(name: str) -> UnreadableFileError:
    return UnreadableFileError(
        name, f"too much text (over {C.MAX_FILE_TEXT_CHARS:,} characters); send it in parts"
    )


# --- text and Markdown ---------------------------------------------------------------------------

_BOMS: Final = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Control characters a text file does not contain (tab, newlines and form feed are fine).
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def _decode(name: str, data: bytes) -> str:
    encoding, body = "utf-8", data
    for bom, enc in _BOMS:
        if data.startswith(bom):
            encoding, body = enc, data[len(bom) :]
            break
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(
            name, "not UTF-8 text (save it as UTF-8, or send PDF or DOCX)"
        ) from exc
    # Valid UTF-8 can still be binary (NULs, control bytes): more than a trace is not text.
    controls = len(_CONTROL.findall(text))
    if "\x00" in text or controls > max(2, len(text) // 200):
        raise UnreadableFileError(name, "binary data, not text")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")


def _read_text(name: str, data: bytes, kind: FileKind) -> FileText:
    text = _decode(name, data)
    if not text.strip():
        raise UnreadableFileError(name, "the file has no text")
    if len(text) > C.MAX_FILE_TEXT_CHARS:  # 20 MB of text is five textbooks: 35 s to read
        raise _too_much_text(name)
    chunks = text.split("\f")
    if len(chunks) > C.MAX_FILE_PAGES:
        raise _too_many_pages(name, len(chunks))
    pages = tuple(Page(n, chunk.strip("\n")) for n, chunk in enumerate(chunks, start=1))
    if kind == "markdown":
        sections, title = _markdown_sections(pages)
        return FileText(name, kind, pages, sections, title)
    if kind == "csv":
        return _csv_text(name, text)
    return FileText(name, kind, pages, _guess_sections(pages))


def _row(cells: Sequence[str]) -> str:
    """A table row as a Markdown table writes it (cells on one line, no stray bars)."""
    return "| " + " | ".join(" ".join(c.replace("|", "/").split()) for c in cells) + " |"


def _csv_text(name: str, text: str) -> FileText:
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(
            text[:4096], delimiters=",;\t"
        )
    except csv.Error:
        dialect = csv.excel_tab if "\t" in text.split("\n", 1)[0] else csv.excel
    try:
        rows = [r for r in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in r)]
    except csv.Error as exc:
        raise UnreadableFileError(name, f"not a readable CSV ({exc})") from exc
    body = "\n".join(_row(r) for r in rows)
    if not body.strip():
        raise UnreadableFileError(name, "the file has no text")
    page = Page(1, body)
    stem = PurePosixPath(name.replace("\\", "/")).stem
    return FileText(name, "csv", (page,), (Section(0, "", 1, (page,)),), stem or None)


# The closing "##" is cut in ``_atx_title``: a lazy title before an optional closing run
# retried the run at every character (a "# a" line of 20,000 spaces: 6 s of CPU).
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*))?$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")
# Inline markup. No part may run over its own opening character ("[", "(", "<", "*", "_"): a
# line of 20,000 unclosed "[a](" or " *a" was scanned to its end from every opening (8-22 s of
# CPU for a 60 KB line, days for the 4 M characters a file may hold); each scan now stops at the
# next opening, so a line costs its length. A link whose address holds brackets keeps its markup.
_IMAGE = re.compile(r"!\[([^\[\]]*)\]\([^()\[\]]*\)")
_LINK = re.compile(r"\[([^\[\]]+)\]\([^()\[\]]*\)")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_STRONG = re.compile(r"\*\*|__|~~|`")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](?=[^\s*_])([^*_]*?)(?<=\S)[*_](?![\w*])")


def _inline(text: str) -> str:
    """Markdown inline markup dropped, the words kept."""
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _STRONG.sub("", text)
    return _EMPHASIS.sub(r"\1", text)


class _Sections:
    """Collects headings and the body lines under them, keeping each line's page."""

    def __init__(self) -> None:
        self.done: list[Section] = []
        self.level, self.title, self.page = 0, "", 1
        self.body: dict[int, list[str]] = {}

    def heading(self, level: int, title: str, page: int) -> None:
        self._flush()
        self.level, self.title, self.page = level, title, page

    def add(self, page: int, line: str) -> None:
        self.body.setdefault(page, []).append(line)

    def _flush(self) -> None:
        parts = [Page(n, "\n".join(lines).strip()) for n, lines in self.body.items()]
        parts = [p for p in parts if p.text]
        if self.title or parts:
            self.done.append(Section(self.level, self.title, self.page, tuple(parts)))
        self.body = {}

    def result(self) -> tuple[Section, ...]:
        self._flush()
        return tuple(self.done)


def _atx_title(text: str | None) -> str:
    """An ATX heading's text without its optional closing run of "#" (which follows a space;
    a title of "#" alone is kept)."""
    title = (text or "").rstrip(" \t")
    bare = title.rstrip("#")
    return bare.rstrip(" \t") if bare != title and bare[-1:] in (" ", "\t") else title


def _markdown_sections(pages: Sequence[Page]) -> tuple[tuple[Section, ...], str | None]:
    lines = [(page.number, line) for page in pages for line in page.text.split("\n")]
    start = 0
    if lines and lines[0][1].strip() == "---":  # YAML front matter is metadata, not text
        ends = [i for i in range(1, len(lines)) if lines[i][1].strip() in ("---", "...")]
        start = ends[0] + 1 if ends else 0
    out = _Sections()
    fence: str | None = None
    i = start
    while i < len(lines):
        page, line = lines[i]
        i += 1
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.add(page, line)
            continue
        if fenced := _FENCE.match(line):
            fence = fenced.group(1)[:3]
            out.add(page, line)
            continue
        if atx := _ATX.match(line):
            out.heading(len(atx.group(1)), _inline(_atx_title(atx.group(2))).strip(), page)
            continue
        underline = _SETEXT.match(lines[i][1]) if i < len(lines) else None
        if underline and line.strip() and not _LIST_ITEM.match(line):
            out.heading(1 if underline.group(1)[0] == "=" else 2, _inline(line).strip(), page)
            i += 1
            continue
        out.add(page, _inline(line))
    sections = out.result()
    tops = [s for s in sections if s.level == 1]
    first = next((s for s in sections if s.title), None)
    # One top-level heading that opens the file is the document's title.
    title = first.title if len(tops) == 1 and first is tops[0] else None
    return sections, title


# --- guessing headings (PDF, plain text) ---------------------------------------------------------

_ENDS_BLOCK = tuple(".!?؟۔")
_NOT_A_TITLE_END = tuple(".,;:!?؟۔،؛-–—")
_NUMBERING = re.compile(r"^(\d+(?:\.\d+)*)[.)]?\s")
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"[-–—\s]*\d+[-–—\s]*(?:/\s*\d+)?")
_MAX_HEADING_WORDS: Final = 8
_MAX_HEADING_CHARS: Final = 80


def _looks_like_heading(line: str) -> bool:
    if len(line) > _MAX_HEADING_CHARS or len(line.split()) > _MAX_HEADING_WORDS:
        return False
    if line.endswith(_NOT_A_TITLE_END) or ". " in line:
        return False
    first = line[0]
    if not (first.isdigit() or (first.isalpha() and not first.islower())):
        return False
    letters = sum(ch.isalpha() for ch in line)
    return letters > 0 and letters * 2 >= len(line.replace(" ", ""))


def _guessed_level(line: str) -> int:
    numbered = _NUMBERING.match(line)
    return numbered.group(1).count(".") + 1 if numbered else 1


def _drop_running_lines(pages: Sequence[Page]) -> list[Page]:
    """Pages without running headers and footers and bare page numbers.

    A running line is at the top or bottom of at least half the pages (two or more), the same
    but for the page's number and the page count ("Cell biology - page 3 of 9"). Other digits
    count, so numbered headings that open every page ("2.1 Osmosis", "3.1 Diffusion") stay.
    """

    def edges(page: Page) -> list[str]:
        lines = [line.strip() for line in page.text.split("\n") if line.strip()]
        return lines[:2] + lines[-2:]

    def shape(line: str, page: Page) -> str:
        numbers = {str(page.number), str(len(pages))}
        return _DIGITS.sub(lambda m: "#" if m.group() in numbers else m.group(), line).casefold()

    seen = Counter(s for page in pages for s in {shape(line, page) for line in edges(page)})
    running = {s for s, n in seen.items() if n >= 2 and n * 2 >= len(pages)}
    out = []
    for page in pages:
        at_edge = set(edges(page))
        kept = [
            line
            for line in page.text.split("\n")
            if not (
                line.strip() in at_edge
                and (shape(line.strip(), page) in running or _PAGE_NUMBER.fullmatch(line.strip()))
            )
        ]
        out.append(Page(page.number, "\n".join(kept).strip()))
    return out


def _guess_sections(pages: Sequence[Page]) -> tuple[Section, ...]:
    out = _Sections()
    for page in _drop_running_lines(pages):
        lines = [line.strip() for line in page.text.split("\n")]
        last = max((i for i, line in enumerate(lines) if line), default=-1)
        starts_block = True  # a page starts one
        for i, line in enumerate(lines):
            if not line:
                out.add(page.number, "")
                starts_block = True
            elif starts_block and i != last and _looks_like_heading(line):
                out.heading(_guessed_level(line), line, page.number)
            else:
                out.add(page.number, line)
                starts_block = line.endswith(_ENDS_BLOCK)
    return out.result()


# --- PDF -----------------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \t\u00a0]{2,}")


def _tidy(text: str) -> str:
    """Layout-mode text without its alignment padding: lines stripped, runs of spaces made one,
    runs of blank lines made one."""
    lines = [_SPACES.sub(" ", line).strip() for line in text.replace("\x00", "").split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line.replace("\u00ad", ""))
    return "\n".join(out).strip()


class _Budget:
    """The reading time a file may take, checked between pages (PDF) or chunks (DOCX)."""

    def __init__(self, name: str, clock: Callable[[], float], seconds: float) -> None:
        self.name, self.clock, self.seconds = name, clock, seconds
        self.start = clock()

    def check(self, where: str) -> None:
        """Refuses the file once its reading has taken longer than the budget; ``where`` says
        how far it got ("after page 3 of 9")."""
        if self.clock() - self.start > self.seconds:
            raise UnreadableFileError(
                self.name,
                f"reading took longer than {self.seconds:g} s (stopped {where}); "
                "send it in smaller parts or as text",
            )


def _read_pdf(name: str, data: bytes, budget: _Budget) -> FileText:
    # Imported here: pypdf costs cold start to every function that never reads a PDF.
    from pypdf import PdfReader

    try:
        reader = PdfReader(BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = bool(reader.decrypt(""))  # many "encrypted" PDFs have no password
            except Exception:  # a cipher pypdf cannot open (needs an optional package)
                opened = False
            if not opened:
                raise UnreadableFileError(name, "the PDF is password-protected")
        count = len(reader.pages)
    except UnreadableFileError:
        raise
    except Exception as exc:  # pypdf raises many types on broken input; all mean the same
        raise UnreadableFileError(name, f"not a readable PDF ({_reason(exc)})") from exc
    if count == 0:
        raise UnreadableFileError(name, "not a readable PDF (it has no pages)")
    if count > C.MAX_FILE_PAGES:
        raise _too_many_pages(name, count)
    pages = []
    # What its pages' content may inflate to, and the text they may yield, all pages together
    # (a stream shared by pages counts for each: each page parses it).
    allowance = C.PDF_CONTENT_FLOOR_BYTES + C.MAX_PDF_INFLATE_RATIO * len(data)
    content = chars = 0

    def bomb(number: int) -> UnreadableFileError:
        return UnreadableFileError(
            name,
            f"not a readable PDF (its pages' content inflates past {C.MAX_PDF_INFLATE_RATIO} "
            f"times the file's size at page {number} of {count}: a compression bomb?)",
        )

    for number, page in enumerate(reader.pages, start=1):
        budget.check(f"after page {number - 1} of {count}")
        try:
            drawing = _content(page)
            content += len(drawing)
            if content > allowance:
                raise bomb(number)
            raw, drawn = _page_text(page, drawing, allowance - content)
            content += drawn
            if content > allowance:
                raise bomb(number)
        except UnreadableFileError:
            raise
        except Exception as exc:
            raise UnreadableFileError(
                name, f"not a readable PDF (page {number}: {_reason(exc)})"
            ) from exc
        text = _tidy(raw)
        chars += len(text)
        if chars > C.MAX_FILE_TEXT_CHARS:
            raise _too_much_text(name)
        pages.append(Page(number, text))
    if not any(p.text for p in pages):
        raise UnreadableFileError(name, "no extractable text (a scanned image?)")
    return FileText(name, "pdf", tuple(pages), _guess_sections(pages), _pdf_title(reader))


def _page_text(page: Any, drawing: bytes, room: int) -> tuple[str, int]:
    """A page's text, and the bytes of form content it drew to read it.

    Layout mode first: it keeps paragraph breaks, and draws no form XObject (a reused block
    of content: a page imported whole, as a 4-up handout of slides is made). When it fails
    or finds nothing, plain mode, which reads the text inside forms: but a form drawn many
    times is parsed each time (a 1.2 KB file drawing one form 200 times: 16 M characters,
    77 s), so first its cost is counted — the largest reachable form times the draws pypdf
    may make (``MAX_PDF_FORM_DRAWS``; fewer when no form draws another) — and it runs only
    when that fits ``room`` bytes (none of it drawn otherwise: the caller refuses the file)."""
    try:
        raw = page.extract_text(extraction_mode="layout")
    except Exception:
        raw = ""
    if raw.strip():
        return str(raw), 0
    drawn = _form_bytes(page, drawing)
    if drawn > room:
        return "", drawn
    from pypdf import apply_configuration

    with apply_configuration(xform_maximum_invocations_per_extraction=C.MAX_PDF_FORM_DRAWS):
        return str(page.extract_text()), drawn


_DO: Final = re.compile(rb"(?<![^\s\]\)>/])Do(?![^\s\[\(</%])")  # the operator that draws a form


def _form_bytes(page: Any, drawing: bytes) -> int:
    """At most how many bytes of form content plain mode parses for ``page``. A form that
    cannot be decoded counts nothing: pypdf skips it too."""
    from pypdf.generic import DictionaryObject, StreamObject

    draws = len(_DO.findall(drawing))
    largest, nested, seen = 0, False, set()
    stack = [(page.get("/Resources"), 0)]
    while stack:
        resources, depth = stack.pop()
        resources = resources.get_object() if resources is not None else None
        xobjects = resources.get("/XObject") if isinstance(resources, DictionaryObject) else None
        xobjects = xobjects.get_object() if xobjects is not None else None
        if not isinstance(xobjects, DictionaryObject) or depth > 16:
            continue
        for ref in xobjects.values():
            form = ref.get_object()
            if not isinstance(form, StreamObject) or id(form) in seen:
                continue
            seen.add(id(form))
            if form.get("/Subtype") != "/Form":
                continue
            try:
                data = form.get_data()
            except Exception:
                continue
            largest = max(largest, len(data))
            nested = nested or bool(_DO.search(data))
            stack.append((form.get("/Resources"), depth + 1))
    if not draws or not largest:
        return 0
    return largest * (C.MAX_PDF_FORM_DRAWS if nested else min(draws, C.MAX_PDF_FORM_DRAWS))


def _content(page: Any) -> bytes:
    """A page's content streams, decoded (before they are parsed: decoding is zlib's C,
    parsing is pypdf's Python and costs ~2.5 s a MB)."""
    contents = page.get_contents()
    return b"" if contents is None else bytes(contents.get_data())


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"


def _pdf_title(reader: object) -> str | None:
    try:
        title = reader.metadata.title  # type: ignore[attr-defined]
    except Exception:  # broken metadata is no reason to refuse the text
        return None
    return (title.strip() or None) if isinstance(title, str) else None


# --- DOCX ----------------------------------------------------------------------------------------

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
_HEADING_STYLE = re.compile(r"heading\s*([1-9])$")
_OFF = frozenset({"0", "false", "off"})


def _val(element: ET.Element | None) -> str | None:
    return None if element is None else element.get(f"{_W}val")


def _read_docx(name: str, data: bytes, budget: _Budget) -> FileText:
    """A DOCX read as a stream: each paragraph (or table row) is read as it ends and dropped,
    so memory holds one paragraph, not the document's tree, and the cost is in proportion to
    the XML read. Reading stops, and the file is refused, past ``MAX_DOCX_XML_BYTES`` of XML
    (declared or inflated), ``MAX_FILE_TEXT_CHARS`` of text, ``MAX_DOCX_PARAGRAPHS``
    paragraphs, ``MAX_DOCX_DEPTH`` nested elements, ``MAX_FILE_PAGES`` pages, or the time
    budget (checked every chunk)."""
    try:
        archive = zipfile.ZipFile(BytesIO(data))
        inflated = _Inflated(name, budget)
        styles = _docx_styles(archive, inflated)
        core_title = _docx_core_title(archive, inflated)
        text = _DocxText(name, styles)
        for unit in _docx_units(archive, "word/document.xml", frozenset({_P, _TR}), inflated):
            text.unit(unit)
        return text.result(core_title)
    except UnreadableFileError:
        raise
    except RecursionError as exc:  # elements nested beyond reason: a hostile file
        raise UnreadableFileError(name, "not a readable DOCX (nested too deeply)") from exc
    except Exception as exc:  # zip, zlib and XML errors: all mean a broken file
        raise UnreadableFileError(name, f"not a readable DOCX ({_reason(exc)})") from exc


_P = f"{_W}p"
_TR = f"{_W}tr"
_DOCX_CHUNK: Final = 64 * 1024  # bytes inflated between two looks at the budgets


class _Inflated:
    """The XML inflated so far from one DOCX (every part counted) and its reading time."""

    def __init__(self, name: str, budget: _Budget) -> None:
        self.name, self.budget, self.total = name, budget, 0

    def too_large(self) -> UnreadableFileError:
        return UnreadableFileError(
            self.name,
            f"not a readable DOCX (its text inflates past {_mb(C.MAX_DOCX_XML_BYTES)} MB)",
        )

    def add(self, size: int) -> None:
        self.total += size
        if self.total > C.MAX_DOCX_XML_BYTES:
            raise self.too_large()
        self.budget.check(f"after {_mb(self.total)} MB of its XML")


def _docx_units(
    archive: zipfile.ZipFile, part: str, tags: frozenset[str], inflated: _Inflated
) -> Iterator[ET.Element]:
    """The outermost elements of ``part`` whose tag is in ``tags``, each whole as it ends, in
    document order; those under ``mc:Fallback`` (a copy of the choice before it) are skipped.

    After each chunk the elements that ended are cut from the open ones, so the tree never
    holds more than the open elements, one chunk's siblings and the unit being built.
    """
    info = archive.getinfo(part)
    if info.file_size > C.MAX_DOCX_XML_BYTES:  # refused before anything is inflated
        raise inflated.too_large()
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    stack: list[ET.Element] = []  # the open elements outside a unit
    inner = 0  # how deep inside the unit being built (0: not in one)
    fallback: int | None = None  # the depth of the mc:Fallback being skipped

    def events() -> Iterator[ET.Element]:
        nonlocal inner, fallback
        for event, element in cast(Iterator[tuple[str, ET.Element]], parser.read_events()):
            if inner:  # inside a unit: only its depth is followed (the builder keeps it)
                if event == "start":
                    inner += 1
                    if inner + len(stack) > C.MAX_DOCX_DEPTH:
                        raise RecursionError  # reported as nested too deeply
                    continue
                inner -= 1
                if not inner and fallback is None:
                    yield element
                continue
            if event == "start":
                if element.tag in tags:
                    inner = 1
                    continue
                stack.append(element)
                if len(stack) > C.MAX_DOCX_DEPTH:
                    raise RecursionError
                if fallback is None and element.tag == _MC_FALLBACK:
                    fallback = len(stack)
                continue
            if len(stack) == fallback:
                fallback = None
            stack.pop()

    def trim() -> None:
        """Every child that ended is dropped: all but the last of each open element's."""
        for element in stack:
            del element[:-1]
        if not inner and stack:
            del stack[-1][:]  # the last that ended too, when no unit is open in it

    with archive.open(info) as stream:
        while chunk := stream.read(_DOCX_CHUNK):
            inflated.add(len(chunk))
            parser.feed(chunk)
            yield from events()
            trim()
    parser.close()
    yield from events()


class _DocxText:
    """document.xml's paragraphs, one unit at a time, into pages and sections."""

    def __init__(self, name: str, styles: dict[str, tuple[str, str | None, str | None]]) -> None:
        self.name, self.styles = name, styles
        self.out = _Sections()
        self.page, self.chars, self.paragraphs = 1, 0, 0
        self.title: str | None = None
        self.texts: dict[int, list[str]] = {}

    def unit(self, element: ET.Element) -> None:
        if element.tag == _TR:  # a table row is one paragraph "| cell | cell |" (the module)
            self.paragraph(_row_paragraph(element))
            return
        _flatten_tables(element)  # tables in its text boxes
        self.paragraph(element)
        for nested in _paragraphs(element):  # its text boxes' paragraphs, after it
            self.paragraph(nested)

    def paragraph(self, paragraph: ET.Element) -> None:
        self.paragraphs += 1
        if self.paragraphs > C.MAX_DOCX_PARAGRAPHS:
            raise UnreadableFileError(
                self.name,
                f"too many paragraphs (over {C.MAX_DOCX_PARAGRAPHS:,}); send it in parts",
            )
        props = paragraph.find(f"{_W}pPr")
        brk = props.find(f"{_W}pageBreakBefore") if props is not None else None
        if brk is not None and _val(brk) not in _OFF and any(self.texts.values()):
            self.page += 1
        style = _val(props.find(f"{_W}pStyle")) if props is not None else None
        level = _docx_level(props, style, self.styles)
        segments = _segments(paragraph)
        if self.page + len(segments) - 1 > C.MAX_FILE_PAGES:
            raise _too_many_pages(self.name, self.page + len(segments) - 1)
        self.chars += sum(map(len, segments))
        if self.chars > C.MAX_FILE_TEXT_CHARS:
            raise _too_much_text(self.name)
        page, texts = self.page, self.texts
        if level is not None and "".join(segments).strip():
            heading = " ".join("".join(segments).split())
            if level == 0:  # a Title paragraph
                self.title = self.title or heading
            self.out.heading(max(level, 1), heading, page)
            texts.setdefault(page, []).append(heading)
            self.page += len(segments) - 1
            return
        for k, segment in enumerate(segments):
            if k:
                page += 1
            self.out.add(page, segment)
            texts.setdefault(page, []).append(segment)
        self.out.add(page, "")  # a paragraph ends: a blank line, as in text
        self.page = page

    def result(self, core_title: str | None) -> FileText:
        texts = self.texts
        pages = tuple(Page(n, "\n".join(texts.get(n, [])).strip()) for n in range(1, self.page + 1))
        if not any(p.text for p in pages):
            raise UnreadableFileError(self.name, "the file has no text")
        return FileText(self.name, "docx", pages, self.out.result(), self.title or core_title)


def _row_paragraph(row: ET.Element) -> ET.Element:
    """A table row's cells as one paragraph "| cell | cell |" (a cell's paragraphs joined)."""
    cells = [
        " ".join("".join(t.text or "" for t in p.iter(f"{_W}t")) for p in cell.iter(_P))
        for cell in row.findall(f"{_W}tc")
    ]
    paragraph = ET.Element(_P)
    ET.SubElement(ET.SubElement(paragraph, f"{_W}r"), f"{_W}t").text = _row(cells)
    return paragraph


def _flatten_tables(root: ET.Element) -> None:
    """Each table row becomes one paragraph "| cell | cell |" (see the module), in place."""
    for table in list(root.iter(f"{_W}tbl")):
        for row in table.findall(_TR):
            flat = _row_paragraph(row)
            row.clear()
            row.append(flat)


def _paragraphs(element: ET.Element) -> Iterator[ET.Element]:
    """Every paragraph in document order, text boxes included, fallback copies skipped."""
    for child in element:
        if child.tag == _MC_FALLBACK:
            continue
        if child.tag == _P:
            yield child
        yield from _paragraphs(child)


def _segments(paragraph: ET.Element) -> list[str]:
    """A paragraph's text, split at its explicit page breaks."""
    out: list[list[str]] = [[]]

    def walk(element: ET.Element) -> None:
        for child in element:
            tag = child.tag
            if tag in (_P, _MC_FALLBACK, f"{_W}pPr"):
                continue  # nested paragraphs are read on their own turn
            if tag == f"{_W}t":
                out[-1].append(child.text or "")
            elif tag == f"{_W}tab":
                out[-1].append("\t")
            elif tag == f"{_W}noBreakHyphen":
                out[-1].append("-")
            elif tag == f"{_W}cr":
                out[-1].append("\n")
            elif tag == f"{_W}br":
                if child.get(f"{_W}type") == "page":
                    out.append([])
                else:
                    out[-1].append("\n")
            else:
                walk(child)

    walk(paragraph)
    return ["".join(segment) for segment in out]


def _docx_styles(
    archive: zipfile.ZipFile, inflated: _Inflated
) -> dict[str, tuple[str, str | None, str | None]]:
    """Style id -> (name, based-on id, outline level)."""
    try:
        info = archive.getinfo("word/styles.xml")
    except KeyError:
        return {}
    if info.file_size > C.MAX_DOCX_XML_BYTES:
        return {}
    styles = {}
    for style in _docx_units(archive, info.filename, frozenset({f"{_W}style"}), inflated):
        style_id = style.get(f"{_W}styleId")
        if style_id is None:
            continue
        props = style.find(f"{_W}pPr")
        outline = _val(props.find(f"{_W}outlineLvl")) if props is not None else None
        name = _val(style.find(f"{_W}name")) or style_id
        styles[style_id] = (name, _val(style.find(f"{_W}basedOn")), outline)
    return styles


def _docx_level(
    props: ET.Element | None,
    style: str | None,
    styles: dict[str, tuple[str, str | None, str | None]],
) -> int | None:
    """1..9 for a heading, 0 for a Title paragraph, None for body text."""
    own = _val(props.find(f"{_W}outlineLvl")) if props is not None else None
    if own is not None:
        return int(own) + 1 if own.isdigit() and int(own) < 9 else None
    hops = 0
    while style is not None and hops < 10:  # follow "based on"; a loop in a broken file stops
        name, based_on, outline = styles.get(style, (style, None, None))
        folded = name.casefold()
        if folded == "title":
            return 0
        if heading := _HEADING_STYLE.match(folded):
            return int(heading.group(1))
        if outline is not None:
            return int(outline) + 1 if outline.isdigit() and int(outline) < 9 else None
        style, hops = based_on, hops + 1
    return None


def _docx_core_title(archive: zipfile.ZipFile, inflated: _Inflated) -> str | None:
    try:
        info = archive.getinfo("docProps/core.xml")
    except KeyError:
        return None
    if info.file_size > C.MAX_DOCX_XML_BYTES:
        return None
    for element in _docx_units(archive, info.filename, frozenset({_DC_TITLE}), inflated):
        return (element.text or "").strip() or None
    return None
