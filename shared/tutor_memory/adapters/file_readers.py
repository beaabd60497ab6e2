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
  python-docx, which would bring lxml (tens of MB) into the Lambda layer for ~60 lines.
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
that the extractor reads as paragraph breaks; plain mode is the fallback when layout fails.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from io import BytesIO
from pathlib import PurePosixPath
from typing import Final
from xml.etree import ElementTree as ET

from tutor_memory.domain import constants as C
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
    too large, of an unsupported type, broken, has no text (a scanned PDF), or takes longer
    than ``budget_s`` seconds of ``clock`` to read (checked between pages).
    """
    if not data:
        raise UnreadableFileError(name, "the file is empty")
    if len(data) > C.MAX_FILE_BYTES:
        raise UnreadableFileError(
            name, f"too large ({_mb(len(data))} MB; the limit is {_mb(C.MAX_FILE_BYTES)} MB)"
        )
    kind = _kind(name, data)
    if kind == "pdf":
        return _read_pdf(name, data, _Budget(name, clock, budget_s))
    if kind == "docx":
        return _read_docx(name, data)
    return _read_text(name, data, kind)


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


_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_STRONG = re.compile(r"\*\*|__|~~|`")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?![\w*])")


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
            out.heading(len(atx.group(1)), _inline(atx.group(2) or "").strip(), page)
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
    """The reading time a file may take, checked between pages."""

    def __init__(self, name: str, clock: Callable[[], float], seconds: float) -> None:
        self.name, self.clock, self.seconds = name, clock, seconds
        self.start = clock()

    def check(self, page: int, count: int) -> None:
        if self.clock() - self.start > self.seconds:
            raise UnreadableFileError(
                self.name,
                f"reading took longer than {self.seconds:g} s (stopped after page {page} of "
                f"{count}); send it in smaller parts or as text",
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
    for number, page in enumerate(reader.pages, start=1):
        budget.check(number - 1, count)
        try:
            raw = page.extract_text(extraction_mode="layout")
        except Exception:
            try:
                raw = page.extract_text()
            except Exception as exc:
                raise UnreadableFileError(
                    name, f"not a readable PDF (page {number}: {_reason(exc)})"
                ) from exc
        pages.append(Page(number, _tidy(raw)))
    if not any(p.text for p in pages):
        raise UnreadableFileError(name, "no extractable text (a scanned image?)")
    return FileText(name, "pdf", tuple(pages), _guess_sections(pages), _pdf_title(reader))


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


def _read_docx(name: str, data: bytes) -> FileText:
    try:
        archive = zipfile.ZipFile(BytesIO(data))
        info = archive.getinfo("word/document.xml")
        if info.file_size > C.MAX_DOCX_XML_BYTES:
            raise UnreadableFileError(
                name, f"not a readable DOCX (its text inflates past {_mb(C.MAX_DOCX_XML_BYTES)} MB)"
            )
        root = ET.fromstring(archive.read(info))
        styles = _docx_styles(archive)
        core_title = _docx_core_title(archive)
    except UnreadableFileError:
        raise
    except Exception as exc:  # zip, zlib and XML errors: all mean a broken file
        raise UnreadableFileError(name, f"not a readable DOCX ({_reason(exc)})") from exc

    try:
        _flatten_tables(root)
        return _docx_text(name, root, styles, core_title)
    except RecursionError as exc:  # elements nested beyond reason: a hostile file
        raise UnreadableFileError(name, "not a readable DOCX (nested too deeply)") from exc


def _docx_text(
    name: str,
    root: ET.Element,
    styles: dict[str, tuple[str, str | None, str | None]],
    core_title: str | None,
) -> FileText:
    out = _Sections()
    page, title = 1, None
    texts: dict[int, list[str]] = {}
    body = root.find(f"{_W}body")
    for paragraph in _paragraphs(body if body is not None else root):
        props = paragraph.find(f"{_W}pPr")
        brk = props.find(f"{_W}pageBreakBefore") if props is not None else None
        if brk is not None and _val(brk) not in _OFF and any(texts.values()):
            page += 1
        style = _val(props.find(f"{_W}pStyle")) if props is not None else None
        level = _docx_level(props, style, styles)
        segments = _segments(paragraph)
        if page + len(segments) - 1 > C.MAX_FILE_PAGES:
            raise _too_many_pages(name, page + len(segments) - 1)
        if level is not None and "".join(segments).strip():
            heading = " ".join("".join(segments).split())
            if level == 0:  # a Title paragraph
                title = title or heading
            out.heading(max(level, 1), heading, page)
            texts.setdefault(page, []).append(heading)
            page += len(segments) - 1
            continue
        for k, segment in enumerate(segments):
            if k:
                page += 1
            out.add(page, segment)
            texts.setdefault(page, []).append(segment)
        out.add(page, "")  # a paragraph ends: a blank line, as in text
    pages = tuple(Page(n, "\n".join(texts.get(n, [])).strip()) for n in range(1, page + 1))
    if not any(p.text for p in pages):
        raise UnreadableFileError(name, "the file has no text")
    return FileText(name, "docx", pages, out.result(), title or core_title)


def _flatten_tables(root: ET.Element) -> None:
    """Each table row becomes one paragraph "| cell | cell |" (see the module), in place."""
    for table in list(root.iter(f"{_W}tbl")):
        for row in table.findall(f"{_W}tr"):
            cells = [
                " ".join(
                    "".join(t.text or "" for t in p.iter(f"{_W}t")) for p in cell.iter(f"{_W}p")
                )
                for cell in row.findall(f"{_W}tc")
            ]
            row.clear()
            paragraph = ET.SubElement(row, f"{_W}p")
            ET.SubElement(ET.SubElement(paragraph, f"{_W}r"), f"{_W}t").text = _row(cells)


def _paragraphs(element: ET.Element) -> Iterator[ET.Element]:
    """Every paragraph in document order, text boxes included, fallback copies skipped."""
    for child in element:
        if child.tag == _MC_FALLBACK:
            continue
        if child.tag == f"{_W}p":
            yield child
        yield from _paragraphs(child)


def _segments(paragraph: ET.Element) -> list[str]:
    """A paragraph's text, split at its explicit page breaks."""
    out: list[list[str]] = [[]]

    def walk(element: ET.Element) -> None:
        for child in element:
            tag = child.tag
            if tag in (f"{_W}p", _MC_FALLBACK, f"{_W}pPr"):
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


def _docx_styles(archive: zipfile.ZipFile) -> dict[str, tuple[str, str | None, str | None]]:
    """Style id -> (name, based-on id, outline level)."""
    try:
        info = archive.getinfo("word/styles.xml")
    except KeyError:
        return {}
    if info.file_size > C.MAX_DOCX_XML_BYTES:
        return {}
    styles = {}
    for style in ET.fromstring(archive.read(info)).iter(f"{_W}style"):
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


def _docx_core_title(archive: zipfile.ZipFile) -> str | None:
    try:
        info = archive.getinfo("docProps/core.xml")
    except KeyError:
        return None
    if info.file_size > C.MAX_DOCX_XML_BYTES:
        return None
    element = ET.fromstring(archive.read(info)).find(_DC_TITLE)
    title = (element.text or "").strip() if element is not None else ""
    return title or None
