"""The validator keeps ideas of the subject and refuses the file's furniture, in five languages."""

from __future__ import annotations

import pytest

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.offline_extractor import OfflineExtractor
from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptDraft, ConceptMap, Source, merge_file
from tutor_memory.domain.language import LANGUAGES
from tutor_memory.domain.languages import language
from tutor_memory.domain.validator import clean_name, is_furniture, rejection_reason, validate


def kept_names(*names: str) -> list[str]:
    return [d.name for d in validate([ConceptDraft(n) for n in names]).kept]


def reason(name: str) -> str:
    report = validate([ConceptDraft(name)])
    assert not report.kept, f"{name!r} was kept"
    return report.rejected[0][1]


# --- furniture -----------------------------------------------------------------------------------

FURNITURE = {
    "en": [
        "Introduction",
        "Summary",
        "Common misconceptions",
        "Review questions",
        "Chapter 3",
        "Exercises",
        "Conclusion",
        "Key terms",
        "Learning objectives",
        "Table of contents",
        "Appendix A",
        "Unit 2",
        "Lesson 4",
        "Part II",
        "References",
        "Further reading",
        "Worked example",
        "Chapter 1: The cell",
        "Introduction to osmosis",
        "Chapter summary",
        "Osmosis: review questions",
        "Part Two",
    ],
    "es": [
        "Introducción",
        "Resumen",
        "Errores comunes",
        "Preguntas de repaso",
        "Capítulo 3",
        "Ejercicios",
        "Conclusión",
        "Términos clave",
        "Objetivos de aprendizaje",
        "Tabla de contenidos",
        "Apéndice A",
        "Unidad 2",
        "Lección 4",
        "Parte II",
        "Bibliografía",
        "Ejemplo resuelto",
        "Capítulo primero",
        "Resumen del tema",
    ],
    "id": [
        "Pendahuluan",
        "Ringkasan",
        "Miskonsepsi umum",
        "Soal latihan",
        "Bab 3",
        "Latihan",
        "Kesimpulan",
        "Istilah penting",
        "Tujuan pembelajaran",
        "Daftar isi",
        "Lampiran A",
        "Unit 2",
        "Pelajaran 4",
        "Bagian kedua",
        "Daftar pustaka",
        "Contoh soal",
        "Rangkuman bab 3",
    ],
    "ur": [
        "تعارف",
        "خلاصہ",
        "عام غلط فہمیاں",
        "جائزہ سوالات",
        "باب 3",
        "باب ۳",
        "مشقیں",
        "کلیدی اصطلاحات",
        "سیکھنے کے مقاصد",
        "فہرست مضامین",
        "سبق 4",
        "حصہ دوم",
        "حوالہ جات",
        "مزید مطالعہ",
        "حل شدہ مثال",
    ],
    "ar": [
        "مقدمة",
        "الملخص",
        "مفاهيم خاطئة شائعة",
        "أسئلة المراجعة",
        "الفصل الثالث",
        "الفصل 3",
        "التمارين",
        "الخاتمة",
        "المصطلحات الرئيسية",
        "أهداف التعلم",
        "جدول المحتويات",
        "الملحق أ",
        "الوحدة الثانية",
        "الدرس الرابع",
        "المراجع",
        "قراءات إضافية",
        "مثال محلول",
    ],
}


@pytest.mark.parametrize(
    ("lang", "heading"), [(lang, h) for lang, hs in FURNITURE.items() for h in hs]
)
def test_section_headings_are_rejected_as_the_files_furniture(lang: str, heading: str) -> None:
    assert "furniture" in reason(heading)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_listed_section_heading_is_furniture_in_its_language(lang: str) -> None:
    for heading in language(lang).section_headings:
        assert is_furniture(heading), heading
        assert is_furniture(heading.upper()), heading


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_numbered_heading_word_is_furniture_with_a_number(lang: str) -> None:
    for word in language(lang).numbered_headings:
        assert is_furniture(f"{word} 3"), word
        assert is_furniture(f"{word} IV"), word
        assert is_furniture(f"{word} 2: a title"), word
        assert is_furniture(word), word  # alone, it names no idea either
        assert not is_furniture(f"{word} osmosis"), word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_word_numbers_a_heading(lang: str) -> None:
    heading = sorted(language(lang).numbered_headings)[0]
    for number in language(lang).number_words:
        assert is_furniture(f"{heading} {number}"), number


@pytest.mark.parametrize(
    "name",
    [
        # English words that head sections, inside subject terms
        "Unit conversion",
        "Periodic table",
        "Enzyme activity",
        "Refractive index",
        "Vermiform appendix",
        "Summary statistics",
        "Part of speech",
        "Exercise physiology",
        "Peer review",
        # the same concept in the other languages
        "Índice de refracción",
        "Presentación de antígenos",
        "Membran sel",
        "خلیے کی جھلی",
        "غشاء الخلية",
        "Es krim",  # Indonesian: es is ice, not the Spanish copula
    ],
)
def test_subject_terms_that_contain_heading_words_are_kept(name: str) -> None:
    assert kept_names(name) == [name]


# --- names are trimmed ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("1.2 Osmosis", "Osmosis"),
        ("1.2. Osmosis", "Osmosis"),
        ("Osmosis:", "Osmosis"),
        ("IV. Osmosis", "Osmosis"),
        ("a) Osmosis", "Osmosis"),
        ("- **Osmosis**", "Osmosis"),
        ('"Osmosis"', "Osmosis"),
        ("(Osmosis.)", "Osmosis"),
        ("«Ósmosis»", "Ósmosis"),
        ("Osmosis (biology)", "Osmosis (biology)"),
        ("Osmosis.", "Osmosis"),
        ("The cell membrane", "Cell membrane"),
        ("A cell", "Cell"),
        ("La célula", "Célula"),
        ("Los ribosomas", "Ribosomas"),
        ("3. Membrana celular", "Membrana celular"),
        ("2.1 Membran sel", "Membran sel"),
        ("Sel hewan", "Sel hewan"),  # Indonesian has no article to drop
        ("۱. خلیے کی جھلی", "خلیے کی جھلی"),
        ("خلیہ:", "خلیہ"),
        ("١.٢ الخلية", "الخلية"),  # Arabic keeps its article, written into the word
        ("الخلية:", "الخلية"),
    ],
)
def test_names_are_trimmed_of_numbering_punctuation_and_articles(written: str, name: str) -> None:
    assert clean_name(written) == name
    assert kept_names(written) == [name]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_leading_article_is_dropped_and_languages_without_one_keep_their_names(
    lang: str,
) -> None:
    for article in language(lang).leading_articles:
        assert clean_name(f"{article.capitalize()} membrana celular") == "Membrana celular"
    # Indonesian and Urdu have no article word; Arabic writes it into the noun.
    name = {"id": "Membran sel", "ur": "خلیے کی جھلی", "ar": "غشاء الخلية"}.get(lang)
    if name is not None:
        assert not language(lang).leading_articles
        assert clean_name(name) == name


def test_a_capital_name_keeps_its_capitals_after_the_article_goes() -> None:
    assert clean_name("The Krebs cycle") == "Krebs cycle"
    assert clean_name("the cell") == "cell"
    assert clean_name("The pH scale") == "pH scale"  # the author's casing, not "PH scale"
    assert clean_name("El pH del suelo") == "pH del suelo"


# --- sentences, questions, empty names -----------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "What is osmosis",
        "How cells divide",
        "¿Qué es la ósmosis?",
        "¿Dónde está el núcleo",
        "Apa itu osmosis",
        "Mengapa sel membelah",
        "اوسموسس کیا ہے",
        "خلیہ کیوں تقسیم ہوتا ہے",
        "ما هي الخلية",
        "لماذا تنقسم الخلايا",
    ],
)
def test_questions_are_not_names(question: str) -> None:
    assert reason(question) == "a question, not a name"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_listed_question_word_makes_a_name_a_question(lang: str) -> None:
    for word in language(lang).question_words:
        assert rejection_reason(f"{word} osmosis") == "a question, not a name", word


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_listed_copula_after_the_first_word_makes_a_name_a_sentence(lang: str) -> None:
    for copula in language(lang).copulas:
        assert rejection_reason(f"osmosis {copula} diffusion") == (
            "a sentence, not a name (it says what something is)"
        ), copula


@pytest.mark.parametrize(
    "sentence",
    [
        "Water moves across the cell membrane by osmosis",
        "El agua pasa a través de la membrana celular",
        "Air berpindah melalui membran sel secara osmosis",
        "پانی خلیے کی جھلی سے اوسموسس کے ذریعے گزرتا ہے",
        "ينتقل الماء عبر غشاء الخلية بالخاصية الأسموزية دائما",
    ],
)
def test_names_longer_than_a_name_are_sentences(sentence: str) -> None:
    assert reason(sentence).startswith("a sentence, not a name (more than")


@pytest.mark.parametrize(
    "sentence",
    [
        "Osmosis is water movement",
        "La ósmosis es difusión",
        "Osmosis adalah difusi",
        "اوسموسس پھیلاؤ ہے",
        "الخاصية الأسموزية هي انتشار",
    ],
)
def test_a_name_that_says_what_something_is_is_a_sentence(sentence: str) -> None:
    assert reason(sentence) == "a sentence, not a name (it says what something is)"


def test_a_name_that_ends_like_a_sentence_is_one_but_a_stray_period_is_not() -> None:
    assert reason("Cells need energy.") == "a sentence, not a name (it ends like one)"
    assert reason("خلیوں کو توانائی چاہیے۔") == "a sentence, not a name (it ends like one)"
    assert kept_names("Osmosis.", "Active transport.") == ["Osmosis", "Active transport"]


@pytest.mark.parametrize("empty", ["", "   ", "The", "**", "—"])
def test_empty_names_are_rejected(empty: str) -> None:
    assert reason(empty) == "empty name"


@pytest.mark.parametrize("number", ["1.2", "3", "١٢"])
def test_a_bare_number_is_not_a_name(number: str) -> None:
    assert reason(number) == "a number, not a name"


def test_a_name_longer_than_the_character_bound_is_a_passage() -> None:
    assert "longer than" in reason("Osmosis" + "x" * C.MAX_CONCEPT_CHARS)


def test_rejection_reason_is_none_for_a_concept() -> None:
    assert rejection_reason("2.1 Osmosis") is None
    assert rejection_reason("Summary") is not None


# --- duplicates, builds-on, bound ----------------------------------------------------------------


def test_duplicates_by_canonical_key_merge_into_the_first() -> None:
    report = validate(
        [
            ConceptDraft("Osmosis", gist="Water moves.", builds_on=("Cell membrane",), pages=(3,)),
            ConceptDraft("2.1 ÓSMOSIS:", gist="Other.", builds_on=("Diffusion",), pages=(1, 3)),
        ]
    )
    [osmosis] = report.kept
    assert osmosis.name == "Osmosis"
    assert osmosis.gist == "Water moves."
    assert osmosis.pages == (1, 3)
    assert osmosis.builds_on == ("Cell membrane", "Diffusion")
    assert report.rejected == [
        (
            ConceptDraft("2.1 ÓSMOSIS:", gist="Other.", builds_on=("Diffusion",), pages=(1, 3)),
            "the same concept as 'Osmosis' (merged into it)",
        )
    ]


def test_builds_on_names_are_trimmed_and_lose_furniture_sentences_and_self() -> None:
    [osmosis] = validate(
        [
            ConceptDraft(
                "Osmosis",
                builds_on=(
                    "1.1 Cell membrane",
                    "Cell membrane:",
                    "Introduction",
                    "Capítulo 3",
                    "Bab 3",
                    "خلاصہ",
                    "الملخص",
                    "What is water",
                    "osmosis",
                    "the diffusion",
                ),
            )
        ]
    ).kept
    assert osmosis.builds_on == ("Cell membrane", "diffusion")


def test_pages_are_sorted_once_each_and_positive() -> None:
    [draft] = validate([ConceptDraft("Osmosis", pages=(3, 1, 3, 0, -2))]).kept
    assert draft.pages == (1, 3)


def test_a_long_gist_is_cut_at_a_word() -> None:
    [draft] = validate([ConceptDraft("Osmosis", gist="water " * 100)]).kept
    assert len(draft.gist) <= C.MAX_SUMMARY_CHARS
    assert draft.gist.endswith("water…")


def test_at_most_the_bound_of_concepts_is_kept_first_first() -> None:
    drafts = [
        ConceptDraft(f"Concept {chr(0x4E00 + i)}") for i in range(C.MAX_CONCEPTS_PER_FILE + 5)
    ]
    report = validate(drafts)
    assert [d.name for d in report.kept] == [d.name for d in drafts[: C.MAX_CONCEPTS_PER_FILE]]
    assert [d for d, _ in report.rejected] == drafts[C.MAX_CONCEPTS_PER_FILE :]
    assert {why for _, why in report.rejected} == {
        f"over the bound of {C.MAX_CONCEPTS_PER_FILE} concepts per file"
    }


def test_furniture_does_not_count_against_the_bound() -> None:
    drafts = [ConceptDraft(f"Chapter {i}") for i in range(1, 30)] + [
        ConceptDraft(f"Concept {chr(0x4E00 + i)}") for i in range(C.MAX_CONCEPTS_PER_FILE)
    ]
    assert len(validate(drafts).kept) == C.MAX_CONCEPTS_PER_FILE


# --- a real furniture-laden file cannot explode the map ------------------------------------------

# Eleven concepts, and everything a chapter wraps around them: objectives, an introduction that
# assumes things, key terms, a worked example, exercises, misconceptions, a summary, review
# questions, further reading, an appendix. The article's first policy document turned 11
# concepts into 34 nodes; this one must stay at 11.
ELEVEN = """\
# Chapter 3: Transport in cells

## Learning objectives

- Describe diffusion, osmosis and active transport.
- Explain plasmolysis.

## Introduction

Cells take in what they need and get rid of waste. This chapter requires algebra and assumes
the particle model.

## Key terms

Particle, concentration, diffusion, osmosis, turgor, plasmolysis, active transport.

## 3.1 Particle

A particle is a tiny piece of matter, such as an atom, an ion or a molecule.

## 3.2 Concentration

Concentration is the amount of a substance in a given volume of solution. It is measured
in particles per litre.

## 3.3 Concentration gradient

A concentration gradient is the difference in concentration between two regions.

## 3.4 Diffusion

Diffusion is the net movement of particles down a concentration gradient.

## 3.5 Partially permeable membrane

A partially permeable membrane is a membrane that lets some particles through but not others.

## 3.6 Osmosis

Osmosis is the diffusion of water across a partially permeable membrane.

## 3.7 Water potential

Water potential is the tendency of water to move from one region to another by osmosis.

## 3.8 Turgor

Turgor is the pressure of the cell contents against the cell wall when water enters by
osmosis.

## 3.9 Plasmolysis

Plasmolysis is the shrinking of the cell contents away from the cell wall when water leaves
by osmosis, the opposite of turgor.

## 3.10 Carrier protein

A carrier protein is a protein in a partially permeable membrane that moves particles across
it.

## 3.11 Active transport

Active transport is the movement of particles against a concentration gradient by a carrier
protein. It requires energy from respiration.

## Worked example

A potato chip is placed in salty water. The chip loses mass because water leaves it by
osmosis. The answer is 0.4 g.

## Exercises

1. This exercise requires algebra: work out the change in concentration.
2. Why is turgor important to plants?

## Common misconceptions

- Diffusion is not only for gases.
- Osmosis is not the movement of salt.

## Summary

Particles spread by diffusion; water crosses membranes by osmosis; active transport uses
energy.

## Review questions

1. What is a concentration gradient?
2. Explain plasmolysis.

## Further reading

Campbell Biology, chapter 7.

## Appendix A: Data tables

Table 1 lists the masses of the potato chips.
"""

ELEVEN_CONCEPTS = [
    "Particle",
    "Concentration",
    "Concentration gradient",
    "Diffusion",
    "Partially permeable membrane",
    "Osmosis",
    "Water potential",
    "Turgor",
    "Plasmolysis",
    "Carrier protein",
    "Active transport",
]


def test_a_furniture_laden_chapter_of_eleven_concepts_gives_eleven_concepts() -> None:
    text = read_file("chapter-3.md", ELEVEN.encode())
    report = validate(OfflineExtractor().extract("chapter-3.md", text))
    assert [d.name for d in report.kept] == ELEVEN_CONCEPTS
    rejected = {d.name for d, _ in report.rejected}
    assert {"Introduction", "Key terms", "Exercises", "Common misconceptions"} <= rejected
    assert {"Worked example", "Summary", "Review questions", "Appendix A: Data tables"} <= rejected


def test_a_furniture_laden_chapter_of_eleven_concepts_draws_eleven_nodes() -> None:
    text = read_file("chapter-3.md", ELEVEN.encode())
    report = validate(OfflineExtractor().extract("chapter-3.md", text))
    cmap = merge_file(ConceptMap(), report.kept, Source("chapter-3", 1, "f"))
    # "algebra" is assumed twice, but only by furniture, which is gone; "energy" once.
    assert len(cmap.concepts) == len(ELEVEN_CONCEPTS)
    assert "algebra" not in cmap.concepts
    assert cmap.concepts["active transport"].assumed == ("Energy",)
