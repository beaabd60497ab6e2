"""The offline extractor reads concepts from a file's structure: headings, definitional
sentences, mentions and prerequisite phrases, in five languages, with no model."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files

import pytest

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.offline_extractor import OfflineExtractor
from tutor_memory.domain import constants as C
from tutor_memory.domain.conceptmap import ConceptDraft, ConceptMap, Layer, Source, merge_file
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.language import LANGUAGES
from tutor_memory.domain.languages import language
from tutor_memory.domain.validator import validate

SAMPLE = files("tutor_memory") / "data" / "sample-subject"
PDF, MARKDOWN = "cell-biology.pdf", "plant-and-animal-cells.md"


def extract(name: str, data: bytes) -> list[ConceptDraft]:
    return OfflineExtractor().extract(name, read_file(name, data))


def concepts(name: str, data: bytes) -> dict[str, ConceptDraft]:
    """The validated concepts of a file, by name."""
    return {d.name: d for d in validate(extract(name, data)).kept}


def markdown(text: str) -> dict[str, ConceptDraft]:
    return concepts("notes.md", text.encode())


def sample(name: str) -> dict[str, ConceptDraft]:
    return concepts(name, (SAMPLE / name).read_bytes())


# --- the sample subject, checked against its README ----------------------------------------------


@dataclass(frozen=True)
class Expected:
    name: str
    builds_on: set[str]
    pages: dict[str, tuple[int, ...]]  # file -> pages


def expected() -> list[Expected]:
    """The README's concept table: concept | builds on | PDF pages | Markdown pages."""
    rows = []
    for line in (SAMPLE / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith(("| concept", "| ---")):
            continue
        name, builds_on, *pages = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows.append(
            Expected(
                name,
                {b.strip() for b in builds_on.split(",") if b.strip()},
                {
                    file: tuple(int(p) for p in cell.split(","))
                    for file, cell in zip((PDF, MARKDOWN), pages, strict=True)
                    if cell
                },
            )
        )
    return rows


def test_the_readme_lists_thirteen_concepts() -> None:
    assert len(expected()) == 13


@pytest.mark.parametrize("file", [PDF, MARKDOWN])
def test_each_sample_file_gives_the_concepts_the_readme_lists_with_their_pages(file: str) -> None:
    found = sample(file)
    wanted = {e.name: e.pages[file] for e in expected() if file in e.pages}
    assert {name: d.pages for name, d in found.items()} == wanted


def test_the_sample_files_together_give_the_builds_on_the_readme_lists() -> None:
    found: dict[str, set[str]] = {}
    for file in (PDF, MARKDOWN):
        for name, draft in sample(file).items():
            found.setdefault(name, set()).update(draft.builds_on)
    assert found == {e.name: e.builds_on for e in expected()}


def test_the_sample_files_furniture_is_rejected() -> None:
    def rejected(file: str) -> list[str]:
        data = (SAMPLE / file).read_bytes()
        return [d.name for d, _ in validate(extract(file, data)).rejected]

    assert rejected(PDF) == [
        "Chapter 1: The cell",
        "Introduction",
        "Chapter 2: Moving substances",
        "Common misconceptions",
        "Summary",
        "Review questions",
    ]
    assert rejected(MARKDOWN) == [
        "Learning objectives",
        "Introduction",
        "Common misconceptions",
        "Resumen",
        "Ringkasan",
        "Review questions",
    ]


def test_the_markdown_title_is_not_a_concept() -> None:
    data = (SAMPLE / MARKDOWN).read_bytes()
    assert not any("Unit 2" in d.name for d in extract(MARKDOWN, data))


def test_the_sample_subject_maps_to_fourteen_nodes_with_one_assumed_prerequisite() -> None:
    cmap = ConceptMap()
    for file in (PDF, MARKDOWN):
        cmap = merge_file(cmap, list(sample(file).values()), Source(file, 1, file))
    assert len(cmap.concepts) == 14
    diffusion = cmap.concepts["diffusion"]
    assert diffusion.layer is Layer.ASSUMED
    assert diffusion.assumed_by == ("active transport", "osmosis")
    # assumed by one concept only: recorded on it, drawn nowhere
    assert "respiration" not in cmap.concepts
    assert cmap.concepts["mitochondria"].assumed == ("Respiration",)
    # re-explained osmosis is one node with both files and their pages
    sources = {s.file_id: s.pages for s in cmap.concepts["osmosis"].sources}
    assert sources == {PDF: (3,), MARKDOWN: (1,)}


def test_a_definitional_sentence_gives_the_gist_and_definition() -> None:
    osmosis = sample(PDF)["Osmosis"]
    assert osmosis.gist == (
        "Osmosis is the movement of water across a partially permeable membrane, from a dilute "
        "solution to a more concentrated one."
    )
    assert osmosis.definition.startswith(osmosis.gist)
    assert osmosis.definition.endswith("In living things that membrane is the cell membrane.")


def test_a_concept_defined_in_the_introduction_is_found_without_a_heading() -> None:
    cell = sample(PDF)["Cell"]
    assert cell.gist.startswith("A cell is the smallest unit of life")
    # "Every cell has a cell membrane, cytoplasm …": mentioned before they are explained
    assert cell.builds_on == ()


def test_extraction_is_deterministic() -> None:
    data = (SAMPLE / PDF).read_bytes()
    assert extract(PDF, data) == extract(PDF, data)


# --- definitions in five languages ---------------------------------------------------------------


# A heading concept, and a concept that has no heading and is known only from "X is a …",
# whose definition mentions the heading.
@dataclass(frozen=True)
class Definitions:
    text: str
    heading: str
    defined: str
    gist: str

    @property
    def heading_gist(self) -> str:
        return self.text.split("\n")[2].removesuffix(self.gist).strip()


DEFINITIONS = {
    "en": Definitions(
        "## Cell\n\nA cell is the smallest unit of life. An organelle is a structure inside a "
        "cell.\n",
        "Cell",
        "Organelle",
        "An organelle is a structure inside a cell.",
    ),
    "es": Definitions(
        "## Célula\n\nLa célula es la unidad más pequeña de la vida. Un orgánulo es una "
        "estructura dentro de la célula.\n",
        "Célula",
        "Orgánulo",
        "Un orgánulo es una estructura dentro de la célula.",
    ),
    "id": Definitions(
        "## Sel\n\nSel adalah unit terkecil kehidupan. Organel merupakan struktur di dalam sel.\n",
        "Sel",
        "Organel",
        "Organel merupakan struktur di dalam sel.",
    ),
    "ur": Definitions(
        "## خلیہ\n\nخلیہ زندگی کی سب سے چھوٹی اکائی ہے۔ عضیہ ایک ساخت ہے جو خلیہ کے اندر "
        "ہوتی ہے۔\n",
        "خلیہ",
        "عضیہ",
        "عضیہ ایک ساخت ہے جو خلیہ کے اندر ہوتی ہے۔",
    ),
    "ar": Definitions(
        "## الخلية\n\nالخلية هي أصغر وحدة في الكائن الحي. العضية هي بنية صغيرة داخل الخلية.\n",
        "الخلية",
        "العضية",
        "العضية هي بنية صغيرة داخل الخلية.",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_definitional_sentences_name_concepts_in_every_language(lang: str) -> None:
    case = DEFINITIONS[lang]
    found = markdown(case.text)
    assert set(found) == {case.heading, case.defined}
    assert found[case.defined].gist == case.gist
    assert found[case.heading].gist == case.heading_gist
    # a definition does not run on into the next concept's
    assert found[case.heading].definition == case.heading_gist


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_concept_named_in_a_definition_builds_on_the_heading_it_mentions(lang: str) -> None:
    case = DEFINITIONS[lang]
    found = markdown(case.text)
    assert found[case.defined].builds_on == (case.heading,)
    assert found[case.heading].builds_on == ()


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "## Cell\n\nOsmosis is not the movement of salt.\n"),
        ("en", "## Cell\n\nOsmosis is also a kind of diffusion.\n"),
        ("es", "## Célula\n\nLa ósmosis no es el paso de la sal.\n"),
        ("id", "## Sel\n\nOsmosis bukan perpindahan garam.\n"),
        ("ur", "## خلیہ\n\nاوسموسس ایک نمک کی حرکت نہیں ہے۔\n"),
        ("ar", "## الخلية\n\nالخاصية الأسموزية هي ليست انتقال الملح.\n"),
    ],
)
def test_a_negated_or_hedged_sentence_defines_nothing(lang: str, text: str) -> None:
    assert len(markdown(text)) == 1  # the heading only


# "Osmosis <copula> <word> …" under another heading: a definition of Osmosis, which would take
# its gist, unless the word negates or hedges.
NEGATED = {
    "en": ("Osmosis", "Water moves.", "Cell", "Osmosis is {word} the movement of salt."),
    "es": ("Ósmosis", "El agua pasa.", "Célula", "La ósmosis es {word} el paso de la sal."),
    "id": ("Osmosis", "Air berpindah.", "Sel", "Osmosis adalah {word} perpindahan garam."),
    "ur": ("اوسموسس", "پانی گزرتا ہے۔", "خلیہ", "اوسموسس نمک کی حرکت {word} ہے۔"),
    "ar": (
        "الخاصية الأسموزية",
        "ينتقل الماء.",
        "الخلية",
        "الخاصية الأسموزية هي {word} انتقال الملح.",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_without_a_negation_the_same_sentence_defines(lang: str) -> None:
    name, first, other, template = NEGATED[lang]
    sentence = " ".join(template.format(word="").split())
    found = markdown(f"## {name}\n\n{first}\n\n## {other}\n\n{sentence}\n")
    assert found[name].gist == sentence


@pytest.mark.parametrize(
    ("lang", "word"),
    [(lang, w) for lang in LANGUAGES for w in sorted(language(lang).non_defining_starts)],
)
def test_every_negating_or_hedging_word_keeps_a_sentence_from_defining(
    lang: str, word: str
) -> None:
    name, first, other, template = NEGATED[lang]
    found = markdown(f"## {name}\n\n{first}\n\n## {other}\n\n{template.format(word=word)}\n")
    assert found[name].gist == first


@pytest.mark.parametrize(
    "sentence",
    [
        "Cells are surrounded by a cell membrane.",  # no article: not a definition of "Cells"
        "It is the smallest unit of life.",  # a pronoun is no name
        "In plants, water is a raw material.",  # an adverbial, not a name
        "La célula es importante.",  # Spanish: no article either
    ],
)
def test_sentences_that_only_look_definitional_name_no_concept(sentence: str) -> None:
    assert set(markdown(f"## Nucleus\n\n{sentence}\n")) == {"Nucleus"}


@pytest.mark.parametrize("marker", language("ur").definition_markers)
def test_an_urdu_name_ends_at_either_definition_marker(marker: str) -> None:
    text = f"## خلیہ\n\nخلیہ زندگی کی اکائی ہے۔\n\nعضیہ {marker} خلیے کے اندر ایک ساخت ہے۔\n"
    assert set(markdown(text)) == {"خلیہ", "عضیہ"}


def test_an_urdu_name_does_not_end_in_a_postposition() -> None:
    text = "## خلیہ\n\nخلیہ زندگی کی اکائی ہے۔\n\nپانی خلیے کے ایک حصے سے گزرتا ہے۔\n"
    assert set(markdown(text)) == {"خلیہ"}


def test_a_heading_needs_only_x_is_to_be_defined() -> None:
    ribosomes = markdown("## Ribosomes\n\nRibosomes are tiny structures that make proteins.\n")
    assert ribosomes["Ribosomes"].gist == "Ribosomes are tiny structures that make proteins."


def test_a_heading_without_a_definition_takes_its_first_sentence_as_gist() -> None:
    found = markdown("## Osmosis\n\nWater moves across membranes. It needs no energy.\n")
    assert found["Osmosis"].gist == "Water moves across membranes."
    assert found["Osmosis"].definition == "Water moves across membranes. It needs no energy."


# --- builds-on -----------------------------------------------------------------------------------


def test_a_concept_builds_on_concepts_explained_before_it_not_after() -> None:
    found = markdown(
        "## Cell membrane\n\nThe cell membrane surrounds the cytoplasm.\n\n"
        "## Cytoplasm\n\nCytoplasm is the fluid inside the cell membrane.\n"
    )
    assert found["Cytoplasm"].builds_on == ("Cell membrane",)
    assert found["Cell membrane"].builds_on == ()  # cytoplasm comes later: a forward mention


def test_mentions_match_the_longest_name_only() -> None:
    found = markdown(
        "## Cell\n\nA cell is a unit of life.\n\n"
        "## Cell membrane\n\nThe cell membrane is a thin layer.\n\n"
        "## Osmosis\n\nOsmosis moves water across the cell membrane.\n"
    )
    assert found["Osmosis"].builds_on == ("Cell membrane",)


def test_mentions_are_matched_by_canonical_key() -> None:
    found = markdown(
        "## Ósmosis\n\nLa ósmosis es el paso del agua.\n\n"
        "## Turgencia\n\nLa turgencia es la presión que causa la OSMOSIS.\n"
    )
    assert found["Turgencia"].builds_on == ("Ósmosis",)


def test_a_paragraph_that_defines_another_concept_belongs_to_it() -> None:
    found = markdown(
        "## Cell membrane\n\nThe cell membrane is a thin layer.\n\n"
        "## Transport\n\nCells move things in and out.\n\n"
        "Osmosis is the movement of water across the cell membrane.\n"
    )
    assert found["Osmosis"].builds_on == ("Cell membrane",)
    assert found["Transport"].builds_on == ()


# Prerequisites named by a phrase, in every language: the name is a builds-on even though the
# file never explains it.
PREREQUISITES = {
    "en": (
        "## Osmosis\n\nOsmosis is the movement of water. It builds on diffusion.\n",
        "Diffusion",
    ),
    "es": (
        "## Ósmosis\n\nLa ósmosis es el paso del agua. La ósmosis se basa en la difusión.\n",
        "Difusión",
    ),
    "id": (
        "## Osmosis\n\nOsmosis adalah perpindahan air. Osmosis dibangun di atas difusi.\n",
        "Difusi",
    ),
    "ur": ("## اوسموسس\n\nاوسموسس ایک عمل ہے۔ اوسموسس پھیلاؤ پر مبنی ہے۔\n", "پھیلاؤ"),
    "ar": (
        "## الخاصية الأسموزية\n\nالخاصية الأسموزية هي انتقال الماء. وهي تعتمد على الانتشار.\n",
        "الانتشار",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_prerequisite_phrase_names_an_assumed_prerequisite_in_every_language(lang: str) -> None:
    text, prerequisite = PREREQUISITES[lang]
    [concept] = markdown(text).values()
    assert concept.builds_on == (prerequisite,)


SUBJECT = {
    "en": ("Osmosis", "Osmosis is the movement of water.", "Osmosis {phrase} diffusion."),
    "es": ("Ósmosis", "La ósmosis es el paso del agua.", "La ósmosis {phrase} la difusión."),
    "id": ("Osmosis", "Osmosis adalah perpindahan air.", "Osmosis {phrase} difusi."),
    "ur": ("اوسموسس", "اوسموسس ایک عمل ہے۔", "اوسموسس {phrase} پھیلاؤ ہے۔"),
    "ar": ("الخاصية الأسموزية", "الخاصية الأسموزية هي انتقال الماء.", "وهي {phrase} الانتشار."),
}
DIFFUSION = {"en": "diffusion", "es": "difusión", "id": "difusi", "ur": "پھیلاؤ", "ar": "الانتشار"}


@pytest.mark.parametrize(
    ("lang", "phrase"),
    [(lang, p) for lang in LANGUAGES for p in language(lang).prerequisite_phrases],
)
def test_every_listed_prerequisite_phrase_is_read(lang: str, phrase: str) -> None:
    heading, definition, template = SUBJECT[lang]
    text = f"## {heading}\n\n{definition} {template.format(phrase=phrase)}\n"
    [concept] = markdown(text).values()
    assert [concept_key(b) for b in concept.builds_on] == [concept_key(DIFFUSION[lang])]


@pytest.mark.parametrize("phrase", language("ur").prerequisite_phrases_after_name)
def test_every_urdu_phrase_that_follows_its_prerequisite_is_read(phrase: str) -> None:
    text = f"## اوسموسس\n\nاوسموسس ایک عمل ہے۔ اوسموسس پھیلاؤ {phrase} ہے۔\n"
    [concept] = markdown(text).values()
    assert concept.builds_on == ("پھیلاؤ",)


def test_a_prerequisite_that_the_file_explains_is_called_by_its_name_there() -> None:
    found = markdown(
        "## Diffusion\n\nDiffusion is the spreading of particles.\n\n"
        "## Osmosis\n\nOsmosis is the movement of water. Recall that the diffusion of water "
        "is slow.\n"
    )
    assert found["Osmosis"].builds_on == ("Diffusion",)


def test_a_prerequisite_stops_at_a_function_word_or_punctuation() -> None:
    found = markdown(
        "## Active transport\n\nActive transport is the movement of particles. It requires "
        "energy from respiration, and it assumes carrier proteins.\n"
    )
    assert found["Active transport"].builds_on == ("Energy", "Carrier proteins")


def test_a_section_heading_that_assumes_something_assumes_nothing_for_the_map() -> None:
    drafts = validate(
        extract("notes.md", b"## Introduction\n\nThis unit assumes algebra.\n\n## Osmosis\n\nx.\n")
    )
    assert [d.name for d in drafts.kept] == ["Osmosis"]
    assert drafts.kept[0].builds_on == ()


# --- bounds --------------------------------------------------------------------------------------


def test_at_most_the_bound_of_concepts_is_extracted_first_explained_first() -> None:
    names = [
        f"Zorb{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(C.MAX_CONCEPTS_PER_FILE + 10)
    ]
    text = "".join(f"## {n}\n\n{n} is a thing.\n\n" for n in names)
    text += "## Summary\n\nAll of it.\n"
    drafts = extract("notes.md", text.encode())
    kept = validate(drafts).kept
    assert [d.name for d in kept] == names[: C.MAX_CONCEPTS_PER_FILE]
    assert "Summary" in [d.name for d in drafts]  # furniture is passed on, not counted


def test_a_file_with_no_structure_gives_no_concepts() -> None:
    assert extract("notes.txt", b"some words without a heading or a definition\n") == []
