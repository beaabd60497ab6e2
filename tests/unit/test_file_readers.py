"""Reading an upload into pages and headings, and refusing what cannot be read, by name."""

from __future__ import annotations

import io
import zipfile
import zlib
from importlib.resources import files
from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_BREAK
from pypdf import PdfWriter

from tutor_memory.adapters.file_readers import read_file, read_upload
from tutor_memory.domain import constants
from tutor_memory.domain.constants import (
    MAX_DOCX_PARAGRAPHS,
    MAX_DOCX_XML_BYTES,
    MAX_FILE_BYTES,
    MAX_FILE_PAGES,
    MAX_FILE_TEXT_CHARS,
    MAX_PDF_INFLATE_RATIO,
)
from tutor_memory.domain.errors import TutorMemoryError, ValidationError
from tutor_memory.domain.filetext import (
    FileText,
    Section,
    UnreadableFileError,
)

SAMPLE = files("tutor_memory") / "data" / "sample-subject"
SAMPLE_PATH = Path(str(SAMPLE))


def sample(name: str) -> FileText:
    return read_file(name, (SAMPLE / name).read_bytes())


def titles(text: FileText) -> list[str]:
    return [s.title for s in text.sections if s.title]


def section(text: FileText, title: str) -> Section:
    return next(s for s in text.sections if s.title == title)


def refusal(name: str, data: bytes) -> str:
    with pytest.raises(UnreadableFileError) as caught:
        read_file(name, data)
    return str(caught.value)


# --- PDF -----------------------------------------------------------------------------------------


def test_the_sample_pdf_reads_as_four_numbered_pages() -> None:
    text = sample("cell-biology.pdf")
    assert text.kind == "pdf"
    assert [p.number for p in text.pages] == [1, 2, 3, 4]
    assert "Osmosis is the movement of water" in text.pages[2].text
    assert text.title == "Introductory cell biology"  # from the PDF's metadata


def test_pdf_headings_are_guessed_from_short_title_like_lines() -> None:
    text = sample("cell-biology.pdf")
    assert titles(text) == [
        "Chapter 1: The cell",
        "Introduction",
        "1.1 Nucleus",
        "1.2 Cell membrane",
        "1.3 Cytoplasm",
        "1.4 Mitochondria",
        "1.5 Ribosomes",
        "Chapter 2: Moving substances",
        "2.1 Osmosis",
        "2.2 Active transport",
        "Common misconceptions",
        "Summary",
        "Review questions",
    ]
    assert section(text, "2.1 Osmosis").page == 3
    assert section(text, "2.1 Osmosis").level == 2  # its numbering depth


def test_a_pdf_section_that_runs_over_the_page_keeps_both_pages() -> None:
    transport = section(sample("cell-biology.pdf"), "2.2 Active transport")
    assert transport.pages == (3, 4)
    assert "released by the mitochondria" in transport.text


def test_a_running_footer_is_not_taken_for_a_heading() -> None:
    text = sample("cell-biology.pdf")
    assert not any("page" in t.casefold() for t in titles(text))
    assert all("Introductory cell biology" not in s.text for s in text.sections)


def test_a_pdf_whose_name_says_text_is_still_read_as_a_pdf() -> None:
    data = (SAMPLE / "cell-biology.pdf").read_bytes()
    assert read_file("notes.txt", data).kind == "pdf"


def test_a_pdf_with_no_text_is_refused_as_a_probable_scan() -> None:
    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    out = io.BytesIO()
    writer.write(out)
    assert refusal("scan.pdf", out.getvalue()) == "scan.pdf: no extractable text (a scanned image?)"


def test_a_broken_pdf_is_refused_with_the_reason() -> None:
    assert refusal("broken.pdf", b"%PDF-1.7\nnot really a pdf").startswith(
        "broken.pdf: not a readable PDF ("
    )
    cut = (SAMPLE / "cell-biology.pdf").read_bytes()[:600]
    assert refusal("cut.pdf", cut).startswith("cut.pdf: not a readable PDF (")


def test_a_file_named_pdf_that_is_not_one_is_refused() -> None:
    assert refusal("notes.pdf", b"hello") == "notes.pdf: not a readable PDF (no %PDF- header)"


def test_a_password_protected_pdf_is_refused() -> None:
    writer = PdfWriter()
    writer.add_blank_page(595, 842)
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    assert refusal("locked.pdf", out.getvalue()) == "locked.pdf: the PDF is password-protected"


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects (numbered from 1; the first is the catalog), with its xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def stream(content: bytes, entries: bytes = b"") -> bytes:
    packed = zlib.compress(content, 9)
    return (
        b"<< "
        + entries
        + b" /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed)
        + packed
        + b"\nendstream"
    )


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def pdf_sharing_one_stream(content: bytes, pages: int) -> bytes:
    """A PDF of ``pages`` pages that all draw the same compressed content stream (a few KB on
    disk, as much parsing as ``pages`` copies of ``content``)."""
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R "
        b"/Resources << /Font << /F1 4 0 R >> >> >>"
    )
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
            stream(content),
            FONT,
        ]
        + [page] * pages
    )


def pdf_drawing_forms(forms: list[bytes], draws: bytes) -> bytes:
    """A one-page PDF whose page only draws form XObjects (/S0, /S1, …: their text is in
    ``forms``), as a handout of slides imported whole is made."""
    names = b" ".join(b"/S%d %d 0 R" % (i, 6 + i) for i in range(len(forms)))
    form = (
        b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>"
    )
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /XObject << " + names + b" >> >> >>",
            stream(draws),
            FONT,
        ]
        + [stream(b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET", form) for text in forms]
    )


def test_a_pdf_bomb_is_refused_before_its_content_is_parsed() -> None:
    # 20 pages sharing one 2 MB stream of text operators, 7 KB on disk: read, it yielded 16 M
    # characters for 108 s of CPU. Refused at its first page, before pypdf parses anything.
    text = b"BT /F1 12 Tf 72 720 Td " + b"(word) Tj " * 200_000 + b"ET"
    data = pdf_sharing_one_stream(text, 20)
    assert len(data) < 10_000
    assert refusal("bomb.pdf", data) == (
        f"bomb.pdf: not a readable PDF (its pages' content inflates past "
        f"{MAX_PDF_INFLATE_RATIO} times the file's size at page 1 of 20: a compression bomb?)"
    )
    # Content that draws and never writes (no text to cap) is counted alike, page by page.
    drawing = b"0 0 m 1 1 l " * 60_000 + b"S"  # 720 KB a page, under the floor alone
    assert "at page 2 of 3: a compression bomb?" in refusal(
        "lines.pdf", pdf_sharing_one_stream(drawing, 3)
    )


def test_a_pdf_sharing_modest_content_reads_whole() -> None:
    # The same layout with a real page's worth of content (a few KB) is no bomb.
    line = b"(Osmosis moves water across a membrane.) Tj 0 -14 Td "
    text = read_file(
        "shared.pdf", pdf_sharing_one_stream(b"BT /F1 12 Tf 72 720 Td " + line * 40 + b"ET", 5)
    )
    assert len(text.pages) == 5
    assert all("Osmosis moves water across a membrane." in p.text for p in text.pages)


def test_text_inside_form_xobjects_is_read() -> None:
    # A 4-up handout: each slide a form the page draws. pypdf's layout mode reads none of it
    # (the file was "no extractable text (a scanned image?)"); plain mode reads it.
    slides = [b"Slide %d: osmosis moves water" % i for i in range(1, 5)]
    data = pdf_drawing_forms(slides, b"q 0.5 0 0 0.5 0 396 cm /S0 Do Q q /S1 Do Q /S2 Do /S3 Do")
    text = read_file("handout.pdf", data)
    assert all(slide.decode() in text.pages[0].text for slide in slides)


def test_a_form_drawn_past_reason_is_refused_before_it_is_parsed() -> None:
    # One form of 80,000 words drawn 200 times by a 1.2 KB file: 16 M characters and 77 s of
    # CPU when read. Counted before plain mode parses it: the largest form times its draws.
    data = pdf_drawing_forms([b"word) Tj (word" * 20_000], b"/S0 Do " * 200)
    assert "its pages' content inflates past" in refusal("forms.pdf", data)


def test_a_pdf_of_vector_plots_reads_whole() -> None:
    # matplotlib's PDFs of plots: the content decoded is ~3 times the file (a real figure's
    # ratio, measured), well inside the bound.
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    out = io.BytesIO()
    walk = [float(i % 97) * (1 + (i % 7)) for i in range(20_000)]
    with PdfPages(out) as pdf:
        for title in ("Osmosis over time", "Diffusion over time"):
            figure, axes = plt.subplots()
            axes.plot(walk)
            axes.set_title(title)
            pdf.savefig(figure)
            plt.close(figure)
    text = read_file("plots.pdf", out.getvalue())
    assert len(text.pages) == 2 and "Osmosis over time" in text.pages[0].text


def test_a_pdf_that_yields_more_text_than_a_file_may_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The text bound of every kind (a PDF yielding 4 M characters would cost ~25 s to test).
    monkeypatch.setattr(constants, "MAX_FILE_TEXT_CHARS", 1_000)
    assert refusal("cell-biology.pdf", (SAMPLE / "cell-biology.pdf").read_bytes()) == (
        "cell-biology.pdf: too much text (over 1,000 characters); send it in parts"
    )


# --- Markdown ------------------------------------------------------------------------------------


def test_markdown_headings_become_sections_with_their_levels_and_text() -> None:
    text = read_file(
        "notes.md",
        b"Opening words.\n\n# Cells\n\n## Osmosis\n\nOsmosis is the movement of water.\n\n"
        b"Active transport\n----------------\n\nIt needs energy.\n",
    )
    assert text.kind == "markdown"
    assert [(s.level, s.title) for s in text.sections] == [
        (0, ""),
        (1, "Cells"),
        (2, "Osmosis"),
        (2, "Active transport"),  # setext
    ]
    assert text.sections[0].text == "Opening words."
    assert section(text, "Osmosis").text == "Osmosis is the movement of water."


def test_markdown_inline_markup_is_dropped_but_the_page_keeps_the_files_words() -> None:
    raw = "## **Cell** membrane\n\nSee [the membrane](https://example.org) and *this*.\n"
    text = read_file("notes.md", raw.encode())
    assert titles(text) == ["Cell membrane"]
    assert text.sections[0].text == "See the membrane and this."
    assert text.pages[0].text == raw.strip("\n")


@pytest.mark.parametrize(
    "unit",
    ["[a](", "![a](", "[", "![", "<a ", " *a", "*a ", " _a"],
)
def test_a_long_line_of_unclosed_markup_is_read_as_its_text(unit: str) -> None:
    # 240,000 characters on one line. The inline patterns once scanned such a line to its end
    # from every opening: 8-22 s of CPU at 60 KB, growing with the square of the length (this
    # line: over half an hour). Unclosed, nothing is markup: the words stay as written.
    line = unit * (240_000 // len(unit))
    text = read_file("notes.md", f"{line}\n\nOsmosis moves water.\n".encode())
    first, rest = text.sections[0].text.split("\n\n")
    assert (first.strip(), rest) == (line.strip(), "Osmosis moves water.")


def test_a_heading_line_with_a_long_run_of_spaces_is_read() -> None:
    # "# a", 240,000 spaces, "b": the heading pattern once retried its closing run at every
    # character (20,000 spaces: 6 s of CPU). Its closing "##" is still cut.
    text = read_file("notes.md", ("# a" + " " * 240_000 + "b\n\n## Osmosis ##\n").encode())
    assert [s.title.split() for s in text.sections] == [["a", "b"], ["Osmosis"]]


def test_closed_markup_inside_a_long_line_is_still_dropped() -> None:
    line = "see [the membrane](https://example.org) *now* " * 5_000
    text = read_file("notes.md", line.encode())
    assert text.sections[0].text == ("see the membrane now " * 5_000).strip()


def test_hashes_inside_a_code_fence_are_not_headings() -> None:
    text = read_file("notes.md", b"## Real\n\n```\n# not a heading\n```\n")
    assert titles(text) == ["Real"]


def test_front_matter_is_metadata_not_text() -> None:
    text = read_file("notes.md", b"---\ntitle: x\n---\n## Osmosis\n\nWater moves.\n")
    assert titles(text) == ["Osmosis"]


def test_one_top_level_heading_that_opens_the_file_is_its_title() -> None:
    assert sample("plant-and-animal-cells.md").title == "Unit 2: Plant and animal cells"
    two = read_file("notes.md", b"# Cells\n\ntext\n\n# Energy\n\ntext\n")
    assert two.title is None


def test_form_feeds_split_a_text_file_into_pages() -> None:
    text = read_file("notes.md", b"## One\n\nfirst\f## Two\n\nsecond\n")
    assert [p.number for p in text.pages] == [1, 2]
    assert section(text, "Two").page == 2


# --- plain text in five languages ----------------------------------------------------------------

FIVE_LANGUAGES = {
    "en": ("Osmosis", "Osmosis is the movement of water across a membrane."),
    "es": ("Ósmosis", "La ósmosis es el paso del agua a través de una membrana."),
    "id": ("Osmosis", "Osmosis adalah perpindahan air melalui membran sel."),
    "ur": ("اوسموسس", "اوسموسس ایک عمل ہے جس میں پانی خلیے کی جھلی سے گزرتا ہے۔"),
    "ar": ("الخاصية الأسموزية", "الخاصية الأسموزية هي انتقال الماء عبر غشاء الخلية."),
}


@pytest.mark.parametrize("lang", FIVE_LANGUAGES)
def test_utf8_text_reads_in_every_language_with_its_heading_guessed(lang: str) -> None:
    heading, sentence = FIVE_LANGUAGES[lang]
    text = read_file(f"{lang}.txt", f"{heading}\n\n{sentence}\n".encode())
    assert text.kind == "text"
    assert titles(text) == [heading]
    assert text.sections[0].text == sentence


@pytest.mark.parametrize("lang", FIVE_LANGUAGES)
def test_a_byte_order_mark_is_not_part_of_the_text(lang: str) -> None:
    heading, sentence = FIVE_LANGUAGES[lang]
    body = f"{heading}\n\n{sentence}\n"
    assert read_file("a.txt", b"\xef\xbb\xbf" + body.encode()).pages[0].text == body.strip()
    assert read_file("b.md", body.encode("utf-16")).pages[0].text == body.strip()


def test_windows_line_endings_read_like_unix_ones() -> None:
    text = read_file("notes.txt", b"Osmosis\r\n\r\nWater moves.\r\n")
    assert titles(text) == ["Osmosis"]
    assert text.sections[0].text == "Water moves."


def test_a_sentence_is_not_guessed_to_be_a_heading() -> None:
    text = read_file(
        "notes.txt",
        b"Osmosis\n\nWater moves across the membrane.\nIt moves by diffusion.\n\n"
        b"what is left over\nmore text here.\n",
    )
    assert titles(text) == ["Osmosis"]


# --- DOCX ----------------------------------------------------------------------------------------


def make_docx() -> bytes:
    document = docx.Document()
    document.add_heading("Cell biology", 0)  # the Title style
    document.add_heading("Introduction", 1)
    document.add_paragraph("These notes are about cells.")
    document.add_heading("Osmosis", 2)
    paragraph = document.add_paragraph("Osmosis is the movement of water across a membrane.")
    paragraph.add_run().add_break(WD_BREAK.PAGE)
    paragraph.add_run("It builds on diffusion.")
    document.add_heading("Active transport", 2)
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Energy"
    table.cell(0, 1).text = "from respiration"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_heading_styles_become_sections_and_the_title_style_the_title() -> None:
    text = read_file("notes.docx", make_docx())
    assert text.kind == "docx"
    assert text.title == "Cell biology"
    assert [(s.level, s.title) for s in text.sections] == [
        (1, "Cell biology"),
        (1, "Introduction"),
        (2, "Osmosis"),
        (2, "Active transport"),
    ]


def test_docx_page_breaks_number_the_pages() -> None:
    text = read_file("notes.docx", make_docx())
    assert [p.number for p in text.pages] == [1, 2]
    osmosis = section(text, "Osmosis")
    assert osmosis.pages == (1, 2)
    assert "It builds on diffusion." in text.pages[1].text


def test_docx_table_text_is_read_once() -> None:
    text = read_file("notes.docx", make_docx())
    assert section(text, "Active transport").text.count("Energy") == 1


def test_a_docx_is_known_by_its_content_not_its_name() -> None:
    assert read_file("notes", make_docx()).kind == "docx"


def test_a_broken_docx_is_refused_with_the_reason() -> None:
    assert (
        refusal("report.docx", b"not a zip")
        == "report.docx: not a readable DOCX (not a zip archive)"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert refusal("report.docx", out.getvalue()) == (
        "report.docx: not a readable DOCX (no word/document.xml inside)"
    )
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("word/document.xml", "<w:document")
    assert refusal("report.docx", broken.getvalue()).startswith(
        "report.docx: not a readable DOCX ("
    )


def test_a_docx_nested_beyond_reason_is_refused_not_crashed_on() -> None:
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    xml = f'<w:document xmlns:w="{w}"><w:body>' + "<w:sdt>" * 5000 + "</w:sdt>" * 5000
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", xml + "</w:body></w:document>")
    assert refusal("deep.docx", out.getvalue()) == (
        "deep.docx: not a readable DOCX (nested too deeply)"
    )


W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def docx_of(body: str) -> bytes:
    """A DOCX holding only a document.xml with ``body`` inside ``<w:body>``."""
    xml = f'<w:document xmlns:w="{W_NS}" xmlns:mc="{MC_NS}"><w:body>{body}</w:body></w:document>'
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", xml)
    return out.getvalue()


def para(text: str) -> str:
    return f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"


def test_a_docx_bomb_is_refused_as_unreadable_before_it_is_inflated() -> None:
    # 48 MB of XML in a zip of ~100 KB (the probe's was 435 KB inflating to 95 MB)
    data = docx_of(para("osmosis " * 64) * (48 * 1024 * 1024 // 560))
    assert len(data) < 1024 * 1024
    assert refusal("bomb.docx", data) == (
        f"bomb.docx: not a readable DOCX (its text inflates past "
        f"{MAX_DOCX_XML_BYTES // (1024 * 1024)} MB)"
    )


def test_a_docx_bomb_that_understates_its_size_is_refused_unread() -> None:
    data = bytearray(docx_of(para("osmosis " * 64) * (48 * 1024 * 1024 // 560)))
    # the size the zip declares for document.xml (local header, central directory) made 1 MB
    for at in (22, data.rindex(b"PK\x01\x02") + 24):
        assert int.from_bytes(data[at : at + 4], "little") > MAX_DOCX_XML_BYTES
        data[at : at + 4] = (1024 * 1024).to_bytes(4, "little")
    assert refusal("bomb.docx", bytes(data)).startswith("bomb.docx: not a readable DOCX (")


def test_a_docx_past_the_text_budget_is_refused_after_reading_that_much() -> None:
    # 20 MB of XML (under the size cap) holding 4.7 M characters of text
    line = "osmosis " * 512
    data = docx_of(para(line) * (MAX_FILE_TEXT_CHARS // len(line) + 10))
    assert refusal("long.docx", data) == (
        f"long.docx: too much text (over {MAX_FILE_TEXT_CHARS:,} characters); send it in parts"
    )


def test_a_docx_of_countless_empty_paragraphs_is_refused() -> None:
    data = docx_of("<w:p/>" * (MAX_DOCX_PARAGRAPHS + 1) + para("Osmosis."))
    assert refusal("empty.docx", data) == (
        f"empty.docx: too many paragraphs (over {MAX_DOCX_PARAGRAPHS:,}); send it in parts"
    )


def test_a_docx_that_reads_past_its_time_budget_is_refused_with_that_reason() -> None:
    data = docx_of(para("Osmosis is the movement of water.") * 20_000)  # ~1 MB of XML
    with pytest.raises(UnreadableFileError) as caught:
        read_file("slow.docx", data, clock=Ticking(50.0), budget_s=120.0)
    assert "longer than 120 s (stopped after" in caught.value.reason
    assert "MB of its XML" in caught.value.reason
    assert len(read_file("slow.docx", data, clock=Ticking(0.001), budget_s=120.0).pages) == 1


def test_a_long_realistic_docx_reads_whole_within_the_bounds() -> None:
    """A 150-page syllabus as Word writes it reads whole: the caps sit far above it."""
    document = docx.Document()
    sentence = "Osmosis is the movement of water across a membrane, down its gradient. "
    for page in range(1, 151):
        document.add_heading(f"Week {page}", 1)
        for _ in range(12):
            document.add_paragraph(sentence * 4)
        table = document.add_table(rows=3, cols=3)
        for cell in (c for row in table.rows for c in row.cells):
            cell.text = "term and definition"
        document.add_page_break()
    out = io.BytesIO()
    document.save(out)
    text = read_file("syllabus.docx", out.getvalue())
    assert len(text.pages) == 151
    assert [s.title for s in text.sections if s.title][-1] == "Week 150"
    assert text.text.count("| " + " | ".join(["term and definition"] * 3) + " |") == 450


def test_docx_fallback_copies_are_skipped_and_text_boxes_read_after_their_paragraph() -> None:
    box = (
        "<mc:AlternateContent><mc:Choice><w:drawing><w:txbxContent>"
        + para("In the box.")
        + "<w:tbl><w:tr><w:tc>"
        + para("cell")
        + "</w:tc></w:tr></w:tbl>"
        + "</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict>"
        + para("A copy of the box.")
        + "</w:pict></mc:Fallback></mc:AlternateContent>"
    )
    body = (
        f"<w:p><w:r><w:t>Before.</w:t></w:r><w:r>{box}</w:r></w:p>"
        + "<mc:AlternateContent><mc:Choice>"
        + para("Chosen.")
        + "</mc:Choice><mc:Fallback>"
        + para("Fallen back.")
        + "</mc:Fallback></mc:AlternateContent>"
        + para("After.")
    )
    text = read_file("box.docx", docx_of(body)).pages[0].text
    assert text.split() == ["Before.", "In", "the", "box.", "|", "cell", "|", "Chosen.", "After."]


# --- refusals ------------------------------------------------------------------------------------


def test_an_unsupported_type_is_refused_naming_what_to_send() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    assert refusal("cells.xlsx", out.getvalue()) == (
        "cells.xlsx: unsupported file type (.xlsx); send PDF, Markdown, plain text, CSV or DOCX"
    )
    assert refusal("cell.png", b"\x89PNG\r\n\x1a\n....") == (
        "cell.png: unsupported file type (.png); send PDF, Markdown, plain text, CSV or DOCX"
    )


def test_an_empty_file_is_refused() -> None:
    assert refusal("notes.md", b"") == "notes.md: the file is empty"
    assert refusal("notes.txt", b" \n\t\n") == "notes.txt: the file has no text"


def test_text_that_is_not_utf8_is_refused_with_a_way_out() -> None:
    assert refusal("notes.txt", "célula".encode("latin-1")) == (
        "notes.txt: not UTF-8 text (save it as UTF-8, or send PDF or DOCX)"
    )


def test_binary_junk_named_as_text_is_refused() -> None:
    assert refusal("notes.txt", bytes(range(1, 32)) * 20) == "notes.txt: binary data, not text"
    assert refusal("notes.md", b"abc\x00def") == "notes.md: binary data, not text"


def test_a_file_over_the_size_bound_is_refused_unread() -> None:
    assert refusal("huge.txt", b"a" * (MAX_FILE_BYTES + 1)) == (
        "huge.txt: too large (over 20 MB; the limit is 20 MB)"
    )


@pytest.mark.parametrize("name", ["notes.txt", "notes.md", "glossary.csv"])
def test_a_text_file_past_the_text_bound_is_refused(name: str) -> None:
    # 4 M characters is the text of a textbook; a 19 MB Markdown file read for 34 s of CPU
    # and 834 MB into the map. Under the size bound, refused once decoded.
    data = ("osmosis, " * (MAX_FILE_TEXT_CHARS // 9 + 1)).encode()
    assert len(data) < MAX_FILE_BYTES
    assert refusal(name, data) == (
        f"{name}: too much text (over {MAX_FILE_TEXT_CHARS:,} characters); send it in parts"
    )


def test_a_file_over_the_page_bound_is_refused() -> None:
    assert refusal("long.txt", b"page\f" * MAX_FILE_PAGES + b"one more") == (
        f"long.txt: too many pages ({MAX_FILE_PAGES + 1}; the limit is {MAX_FILE_PAGES}); "
        "send it in parts"
    )


def test_an_unreadable_file_is_a_domain_error_that_names_file_and_reason() -> None:
    with pytest.raises(TutorMemoryError) as caught:
        read_file("cells.xlsx", b"PK\x03\x04junk")
    assert isinstance(caught.value, UnreadableFileError)
    assert caught.value.name == "cells.xlsx"
    assert "unsupported file type" in caught.value.reason


class Ticking:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_pdf_that_reads_past_its_time_budget_is_refused_with_that_reason() -> None:
    data = (SAMPLE / "cell-biology.pdf").read_bytes()
    with pytest.raises(UnreadableFileError) as caught:
        read_file("cell-biology.pdf", data, clock=Ticking(50.0), budget_s=120.0)
    assert "longer than 120 s" in caught.value.reason and "of 4" in caught.value.reason


def test_a_pdf_read_within_its_budget_is_read_whole() -> None:
    data = (SAMPLE / "cell-biology.pdf").read_bytes()
    text = read_file("cell-biology.pdf", data, clock=Ticking(1.0), budget_s=120.0)
    assert len(text.pages) == 4


# --- a path to read ------------------------------------------------------------------------------


def test_an_upload_by_path_over_the_bound_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "chapter.pdf"
    with big.open("wb") as file:  # sparse: 30 MB of size, nothing written
        file.truncate(30 * 1024 * 1024)
    with pytest.raises(UnreadableFileError) as caught:
        read_upload(big)
    assert str(caught.value) == "chapter.pdf: too large (30 MB; the limit is 20 MB)"


def test_a_path_to_an_endless_device_is_read_no_further_than_the_bound() -> None:
    # /dev/zero has no size and no end: read whole, it took all the memory there was.
    with pytest.raises(UnreadableFileError) as caught:
        read_upload(Path("/dev/zero"))
    assert str(caught.value) == "zero: too large (over 20 MB; the limit is 20 MB)"


def test_a_path_that_cannot_be_read_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as caught:
        read_upload(tmp_path / "missing.pdf")
    assert caught.value.field == "file" and "No such file or directory" in str(caught.value)
    assert read_upload(SAMPLE_PATH / "cell-biology.pdf")[:5] == b"%PDF-"
