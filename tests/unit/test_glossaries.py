"""Glossaries become concepts with their definitions (issue 18): a Markdown table, a CSV file or
a DOCX table whose header names a term and a definition column, or any table (and any
"term: definition" line) under a glossary heading — in five languages."""

from __future__ import annotations

import io

import docx
import pytest

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.offline_extractor import OfflineExtractor
from tutor_memory.domain.conceptmap import ConceptDraft
from tutor_memory.domain.validator import rejection_reason

# language → (a glossary heading, (term header, definition header), two rows (term, definition))
GLOSSARIES = {
    "en": ("Glossary", ("Term", "Definition"), (
        ("Diffusion", "The spreading of particles from a high to a low concentration."),
        ("Osmosis", "The diffusion of water across a membrane. It needs no energy."),
    )),
    "es": ("Glosario", ("Término", "Definición"), (
        ("Difusión", "El movimiento de partículas de mayor a menor concentración."),
        ("Ósmosis", "La difusión del agua a través de una membrana."),
    )),
    "id": ("Glosarium", ("Istilah", "Definisi"), (
        ("Difusi", "Perpindahan partikel dari konsentrasi tinggi ke rendah."),
        ("Osmosis", "Difusi air melalui membran."),
    )),
    "ur": ("فرہنگ", ("اصطلاح", "تعریف"), (
        ("پھیلاؤ", "ذرات کا زیادہ ارتکاز سے کم ارتکاز کی طرف جانا۔"),
        ("اوسموسس", "جھلی کے آر پار پانی کا پھیلاؤ۔"),
    )),
    "ar": ("مسرد", ("المصطلح", "التعريف"), (
        ("الانتشار", "حركة الجسيمات من تركيز أعلى إلى تركيز أقل."),
        ("التناضح", "انتشار الماء عبر غشاء."),
    )),
}  # fmt: skip
# Other headings of each language that say "glossary" ("اصطلاحات": terms; "قاموس": dictionary).
OTHER_HEADINGS = [("en", "Key terms"), ("es", "Vocabulario"), ("id", "Daftar istilah"),
                  ("ur", "اصطلاحات"), ("ar", "قاموس")]  # fmt: skip


def drafts(name: str, data: bytes) -> dict[str, ConceptDraft]:
    return {d.name: d for d in OfflineExtractor().extract(name, read_file(name, data))}


def defined(found: dict[str, ConceptDraft], rows: tuple[tuple[str, str], ...]) -> None:
    for term, definition in rows:
        assert term in found, sorted(found)
        assert found[term].definition == definition
        assert definition.startswith(found[term].gist)


def markdown_table(header: tuple[str, str] | None, rows: tuple[tuple[str, str], ...]) -> str:
    lines = [f"| {header[0]} | {header[1]} |", "|---|---|"] if header else []
    return "\n".join([*lines, *(f"| {t} | {d} |" for t, d in rows)])


@pytest.mark.parametrize("lang", GLOSSARIES)
def test_a_markdown_table_headed_term_and_definition_defines_its_terms(lang: str) -> None:
    _, header, rows = GLOSSARIES[lang]
    found = drafts(
        "notes.md", f"# Biology\n\n## Cells\n\n{markdown_table(header, rows)}\n".encode()
    )
    defined(found, rows)
    assert header[0] not in found and header[1] not in found


@pytest.mark.parametrize("lang", GLOSSARIES)
def test_any_table_under_a_glossary_heading_defines_its_terms(lang: str) -> None:
    heading, _, rows = GLOSSARIES[lang]
    found = drafts(
        "notes.md", f"# Biology\n\n## {heading}\n\n{markdown_table(None, rows)}\n".encode()
    )
    defined(found, rows)
    assert rejection_reason(heading) is not None  # the heading is furniture, never a concept


@pytest.mark.parametrize(("lang", "heading"), OTHER_HEADINGS)
def test_each_language_has_more_than_one_word_for_a_glossary(lang: str, heading: str) -> None:
    rows = GLOSSARIES[lang][2]
    found = drafts(
        "notes.md", f"# Biology\n\n## {heading}\n\n{markdown_table(None, rows)}\n".encode()
    )
    defined(found, rows)
    assert rejection_reason(heading) is not None


@pytest.mark.parametrize("lang", GLOSSARIES)
def test_term_colon_definition_lines_under_a_glossary_heading_define_their_terms(lang: str) -> None:
    heading, _, rows = GLOSSARIES[lang]
    lines = "\n".join(f"- {t}: {d}" for t, d in rows)
    defined(drafts("notes.md", f"# Biology\n\n## {heading}\n\n{lines}\n".encode()), rows)


@pytest.mark.parametrize("lang", GLOSSARIES)
def test_a_csv_file_with_a_term_and_a_definition_column_defines_its_terms(lang: str) -> None:
    _, header, rows = GLOSSARIES[lang]
    body = "\n".join(f'"{a}","{b}"' for a, b in [header, *rows]) + "\n"
    found = drafts("biology.csv", body.encode())
    defined(found, rows)
    assert {n for n in found if rejection_reason(n) is None} == {t for t, _ in rows}


def test_a_csv_file_named_glossary_needs_no_header_and_may_use_semicolons() -> None:
    rows = GLOSSARIES["es"][2]
    found = drafts("glosario.csv", "\n".join(f"{t};{d}" for t, d in rows).encode())
    defined(found, rows)


@pytest.mark.parametrize("lang", GLOSSARIES)
def test_a_docx_table_with_a_term_and_a_definition_column_defines_its_terms(lang: str) -> None:
    _, header, rows = GLOSSARIES[lang]
    document = docx.Document()
    document.add_heading("Biology", 1)
    table = document.add_table(rows=len(rows) + 1, cols=2)
    for r, (a, b) in enumerate([header, *rows]):
        table.cell(r, 0).text, table.cell(r, 1).text = a, b
    out = io.BytesIO()
    document.save(out)
    defined(drafts("notes.docx", out.getvalue()), rows)


def test_a_table_that_is_no_glossary_stays_text() -> None:
    table = "| Organelle | Size |\n|---|---|\n| Nucleus | 6 µm |\n"
    found = drafts("notes.md", f"# Biology\n\n## Cells\n\nCells vary.\n\n{table}".encode())
    assert "Nucleus" not in found and "Organelle" not in found


def test_a_glossary_row_gives_other_names_and_builds_on_the_terms_it_uses() -> None:
    rows = (
        "| Diffusion | The spreading of particles. |\n"
        "| Osmosis (ósmosis) | The diffusion of water. |"
    )
    found = drafts("notes.md", f"# Biology\n\n## Glossary\n\n{rows}\n".encode())
    assert found["Osmosis"].aliases == ("ósmosis",)
    assert found["Osmosis"].builds_on == ("Diffusion",)
