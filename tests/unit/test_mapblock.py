"""The SUBJECT MAP section of the memory block."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from tutor_memory.domain.conceptmap import Concept, ConceptMap, Layer, Source
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.mapblock import MapSection, map_header, percent, render_map_section
from tutor_memory.domain.mapmetrics import derive
from tutor_memory.domain.tokens import count_tokens

FILE = Source("biology.pdf", 1, "sha256:abc", (3,))
PLENTY = 10_000


def node(
    name: str,
    *builds_on: str,
    gist: str = "",
    centrality: float = 0.0,
    taught: str | None = None,
    layer: Layer = Layer.FILE,
) -> Concept:
    return Concept(
        key=concept_key(name),
        name=name,
        layer=layer,
        gist=gist,
        sources=(FILE,) if layer is Layer.FILE else (),
        builds_on=tuple(concept_key(b) for b in builds_on),
        taught_note=taught,
        centrality=centrality,
    )


def cmap(*concepts: Concept, readiness: float = 0.0) -> ConceptMap:
    return ConceptMap(concepts={c.key: c for c in concepts}, subject_readiness=readiness)


def k(name: str) -> str:
    return concept_key(name)


CELL_BIOLOGY = derive(
    cmap(
        node("Cell", gist="The cell is the basic unit of life."),
        node("Cytoplasm", "Cell", gist="The jelly that fills the cell and holds its parts."),
        node(
            "Mitochondria",
            "Cytoplasm",
            gist="Mitochondria release energy from glucose.",
            taught="in our class we call the mitochondria the powerhouse of the cell",
        ),
        node("Nucleus", "Cell", gist="The nucleus holds the cell's DNA."),
        node("Cell Membrane", "Cell", gist="A thin layer that controls what enters the cell."),
        node("Osmosis", "Cell Membrane", "Water", gist="Water moves across a membrane."),
        node("Water", layer=Layer.ASSUMED),
    )
)

URDU_BIOLOGY = derive(
    cmap(
        node("خلیہ", gist="خلیہ زندگی کی بنیادی اکائی ہے اور ہر جاندار خلیوں سے مل کر بنتا ہے۔"),
        node(
            "خلیے کی جھلی",
            "خلیہ",
            gist="خلیے کی جھلی یہ طے کرتی ہے کہ کیا اندر آئے اور کیا باہر جائے۔",
        ),
        node("مائٹوکونڈریا", "خلیہ", gist="مائٹوکونڈریا گلوکوز سے توانائی خارج کرتے ہیں۔"),
        node("الخلية", gist="الخلية هي الوحدة الأساسية للحياة، وكل كائن حي يتكون من خلية."),
        node("النواة", "الخلية", gist="النواة تحتوي على المادة الوراثية وتتحكم في أنشطة الخلية."),
        node("Osmosis", "خلیے کی جھلی", gist="Water moves across a membrane."),
    )
)


def line_of(section: MapSection, name: str) -> str:
    (line,) = [x for x in section.lines if x.startswith(f"- {name}:") or x == f"- {name}"]
    return line


# --- the header ------------------------------------------------------------------------------


def test_the_header_reads_exactly_as_the_article_prints_it() -> None:
    sixteen = cmap(*(node(f"Concept {i}") for i in range(16)), readiness=0.79)
    assert render_map_section(sixteen, PLENTY).lines[0] == (
        "SUBJECT MAP (16 concepts; the files explain 79% of it, "
        "this is about the material, NOT the student's mastery):"
    )


def test_the_header_never_speaks_of_understanding() -> None:
    header = map_header(CELL_BIOLOGY)
    assert "understood" not in header.lower()
    assert "understanding" not in header.lower()
    assert "NOT the student's mastery" in header


def test_the_header_prints_the_subject_readiness_as_a_whole_percent() -> None:
    assert f"explain {percent(CELL_BIOLOGY.subject_readiness)}% of it" in map_header(CELL_BIOLOGY)
    assert percent(0.79) == 79
    assert percent(0.125) == 13  # half up, not to even
    assert percent(0.0) == 0
    assert percent(1.0) == 100


def test_a_single_concept_is_not_called_concepts() -> None:
    one = cmap(node("Cell", gist="The basic unit of life."), readiness=0.6)
    assert map_header(one).startswith("SUBJECT MAP (1 concept; the files explain 60% of it,")


# --- the lines -------------------------------------------------------------------------------


def test_a_concept_line_reads_as_in_the_article() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY)
    assert line_of(section, "Mitochondria") == (
        "- Mitochondria: Mitochondria release energy from glucose. [taught: in our class we call "
        "the mitochondria the powerhouse of the cell] (builds on: Cytoplasm)"
    )


def test_builds_on_names_the_prerequisites_never_what_builds_on_them() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY)
    assert line_of(section, "Cytoplasm").endswith("(builds on: Cell)")
    assert "builds on" not in line_of(section, "Cell")
    assert "Mitochondria" not in line_of(section, "Cytoplasm")


def test_builds_on_uses_display_names_not_keys() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY)
    assert line_of(section, "Osmosis").endswith("(builds on: Cell Membrane, Water)")


def test_a_prerequisite_no_file_explains_says_so() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY)
    assert line_of(section, "Water") == "- Water: (not explained by any file)"


def test_a_concept_a_person_taught_shows_the_note_instead() -> None:
    taught = cmap(
        node("Powerhouse", layer=Layer.TAUGHT, taught="we call the mitochondria the powerhouse")
    )
    section = render_map_section(derive(taught), PLENTY)
    assert section.lines[1] == "- Powerhouse: [taught: we call the mitochondria the powerhouse]"


def test_a_line_break_in_a_gist_does_not_break_the_section() -> None:
    m = cmap(node("Cell", gist="The basic unit\nof life.\n"), readiness=0.6)
    assert render_map_section(m, PLENTY).lines[1] == "- Cell: The basic unit of life."


def test_hubs_come_first() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY)
    shown = [CELL_BIOLOGY.concepts[key] for key in section.concept_keys]
    assert section.concept_keys[0] == k("Cell")
    assert [c.centrality for c in shown] == sorted((c.centrality for c in shown), reverse=True)
    assert len(section.lines) == 1 + len(CELL_BIOLOGY.concepts)


def test_equal_hubs_go_by_name() -> None:
    m = cmap(
        node("Beta", gist="b", centrality=0.2),
        node("Alpha", gist="a", centrality=0.2),
        node("Gamma", gist="c", centrality=0.6),
    )
    assert render_map_section(m, PLENTY).concept_keys == (k("Gamma"), k("Alpha"), k("Beta"))


def test_the_concepts_the_question_is_about_come_first_with_their_prerequisites() -> None:
    section = render_map_section(CELL_BIOLOGY, PLENTY, focus=[k("Osmosis")])
    assert section.concept_keys[:3] == (k("Osmosis"), k("Cell Membrane"), k("Water"))
    rest = section.concept_keys[3:]
    assert [CELL_BIOLOGY.concepts[key].centrality for key in rest] == sorted(
        (CELL_BIOLOGY.concepts[key].centrality for key in rest), reverse=True
    )
    assert sorted(section.concept_keys) == sorted(CELL_BIOLOGY.concepts)  # each concept once


def test_a_leaf_the_question_names_keeps_its_line_and_prerequisites_in_a_tight_budget() -> None:
    hubs_first = render_map_section(CELL_BIOLOGY, 140)
    focused = render_map_section(CELL_BIOLOGY, 140, focus=[k("Mitochondria")])
    assert k("Mitochondria") not in hubs_first.concept_keys
    assert focused.concept_keys[:2] == (k("Mitochondria"), k("Cytoplasm"))
    assert focused.lines[1].startswith("- Mitochondria: ")


def test_focus_keys_the_map_does_not_know_are_ignored() -> None:
    assert render_map_section(CELL_BIOLOGY, PLENTY, focus=["nothing"]) == render_map_section(
        CELL_BIOLOGY, PLENTY
    )


# --- the budget ------------------------------------------------------------------------------


@pytest.mark.parametrize("cm", [CELL_BIOLOGY, URDU_BIOLOGY], ids=["english", "urdu-arabic"])
@pytest.mark.parametrize("budget", range(0, 260, 5))
def test_the_budget_is_never_exceeded(cm: ConceptMap, budget: int) -> None:
    section = render_map_section(cm, budget)
    assert section.tokens_used == count_tokens(section.text) <= budget


@pytest.mark.parametrize("cm", [CELL_BIOLOGY, URDU_BIOLOGY], ids=["english", "urdu-arabic"])
def test_a_tight_budget_drops_the_least_central_concepts_first(cm: ConceptMap) -> None:
    everything = render_map_section(cm, PLENTY)
    for budget in range(0, everything.tokens_used):
        section = render_map_section(cm, budget)
        assert section.concept_keys == everything.concept_keys[: len(section.concept_keys)]


def test_dropped_concepts_are_counted_in_a_last_line() -> None:
    full = render_map_section(CELL_BIOLOGY, PLENTY)
    section = render_map_section(CELL_BIOLOGY, full.tokens_used - 1)
    hidden = len(CELL_BIOLOGY.concepts) - len(section.concept_keys)
    assert hidden >= 1
    noun = "concept" if hidden == 1 else "concepts"
    assert section.lines[-1] == f"- … and {hidden} more {noun}, not shown here"


def test_urdu_gists_fit_fewer_lines_than_english_ones_in_the_same_budget() -> None:
    english = cmap(*(node(f"Concept {i}", gist="The cell is the unit of life.") for i in range(8)))
    urdu = cmap(*(node(f"Concept {i}", gist="خلیہ زندگی کی اکائی ہے۔") for i in range(8)))
    budget = 120
    shown_en = render_map_section(english, budget).concept_keys
    shown_ur = render_map_section(urdu, budget).concept_keys
    assert len(shown_ur) < len(shown_en)


def test_when_only_the_header_fits_it_stands_alone() -> None:
    header_cost = count_tokens(map_header(CELL_BIOLOGY))
    section = render_map_section(CELL_BIOLOGY, header_cost)
    assert section.lines == (map_header(CELL_BIOLOGY),)
    assert section.concept_keys == ()


def test_when_not_even_the_header_fits_the_section_is_empty() -> None:
    header_cost = count_tokens(map_header(CELL_BIOLOGY))
    section = render_map_section(CELL_BIOLOGY, header_cost - 1)
    assert section == MapSection()
    assert section.text == ""
    assert render_map_section(CELL_BIOLOGY, 0) == MapSection()


def test_the_budget_is_counted_with_the_counter_given() -> None:
    section = render_map_section(CELL_BIOLOGY, 400, count=len)
    assert len(section.text) == section.tokens_used <= 400
    assert 0 < len(section.concept_keys) < len(CELL_BIOLOGY.concepts)


def test_an_empty_map_renders_nothing() -> None:
    assert render_map_section(ConceptMap(), PLENTY) == MapSection()


def test_the_same_map_renders_the_same_section() -> None:
    reordered = replace(CELL_BIOLOGY, concepts=dict(reversed(list(CELL_BIOLOGY.concepts.items()))))
    assert render_map_section(CELL_BIOLOGY, 150) == render_map_section(reordered, 150)


def test_rendering_the_map_does_not_load_the_graph_library() -> None:
    # The turn path renders the map; networkx belongs to ingestion only.
    code = (
        "import sys, tutor_memory.domain.mapblock; "
        "assert 'networkx' not in sys.modules; "
        "assert 'tutor_memory.domain.mapmetrics' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
