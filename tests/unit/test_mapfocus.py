"""The map section leads with the concepts a question is about, even when it names none of them
(domain/mapfocus.py; issue 18): a question that paraphrases a definition, in five languages."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from tutor_memory.domain.beliefs import Belief, Claim
from tutor_memory.domain.conceptmap import (
    Concept,
    ConceptDraft,
    ConceptMap,
    Layer,
    Source,
    concept_text,
    merge_file,
)
from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.language import distinctive_terms
from tutor_memory.domain.mapblock import render_map_section
from tutor_memory.domain.mapfocus import map_focus
from tutor_memory.domain.mapmetrics import derive
from tutor_memory.domain.recall import Mode, RecallResult, route_question

FILE = Source("notes.md", 1, "sha256:abc", (1,))
PLENTY = 10_000

# One small subject per language: a concept everything builds on whose name is in nearly every
# definition ("cell"), and the concept the question paraphrases (osmosis), which builds on the
# membrane. (name, prerequisites, definition)
Subject = tuple[tuple[str, tuple[str, ...], str], ...]
SUBJECTS: dict[str, Subject] = {
    "en": (
        ("Cell", (), "A cell is the smallest unit of life."),
        (
            "Cell membrane",
            ("Cell",),
            "The cell membrane is the thin layer around the cell; it controls what enters "
            "and leaves the cell.",
        ),
        ("Nucleus", ("Cell",), "The nucleus is the part of the cell that holds its DNA."),
        (
            "Osmosis",
            ("Cell membrane",),
            "Osmosis is the movement of water into or out of a cell through its membrane.",
        ),
        ("Photosynthesis", (), "Photosynthesis is how a plant makes sugar from light."),
        ("Mitochondria", ("Cell",), "Mitochondria release energy from sugar inside the cell."),
    ),
    "es": (
        ("Célula", (), "La célula es la unidad más pequeña de la vida."),
        (
            "Membrana celular",
            ("Célula",),
            "La membrana celular es la capa delgada que rodea la célula y controla lo que "
            "entra y sale de la célula.",
        ),
        ("Núcleo", ("Célula",), "El núcleo es la parte de la célula que guarda el ADN."),
        (
            "Ósmosis",
            ("Membrana celular",),
            "La ósmosis es el paso del agua hacia dentro o hacia fuera de una célula a través "
            "de su membrana.",
        ),
        ("Fotosíntesis", (), "La fotosíntesis es la forma en que una planta fabrica azúcar."),
        (
            "Mitocondria",
            ("Célula",),
            "Las mitocondrias liberan energía del azúcar dentro de la célula.",
        ),
    ),
    "id": (
        ("Sel", (), "Sel adalah satuan terkecil dari kehidupan."),
        (
            "Membran sel",
            ("Sel",),
            "Membran sel adalah lapisan tipis di sekitar sel yang mengatur zat yang masuk "
            "dan keluar dari sel.",
        ),
        ("Inti sel", ("Sel",), "Inti sel adalah bagian sel yang menyimpan DNA."),
        (
            "Osmosis",
            ("Membran sel",),
            "Osmosis adalah perpindahan air ke dalam atau ke luar sel melalui membrannya.",
        ),
        ("Fotosintesis", (), "Fotosintesis adalah cara tumbuhan membuat gula dari cahaya."),
        ("Mitokondria", ("Sel",), "Mitokondria melepaskan energi dari gula di dalam sel."),
    ),
    "ur": (
        ("خلیہ", (), "خلیہ زندگی کی سب سے چھوٹی اکائی ہے۔"),
        (
            "خلوی جھلی",
            ("خلیہ",),
            "خلوی جھلی خلیے کے گرد پتلی تہہ ہے جو خلیے میں آنے اور جانے والی"
            " چیزوں کو قابو کرتی ہے۔",
        ),
        ("مرکزہ", ("خلیہ",), "مرکزہ خلیے کا وہ حصہ ہے جو ڈی این اے رکھتا ہے۔"),
        (
            "اوسموسس",
            ("خلوی جھلی",),
            "اوسموسس پانی کا جھلی کے ذریعے خلیے کے اندر یا باہر منتقل ہونا ہے۔",
        ),
        ("ضیائی تالیف", (), "ضیائی تالیف وہ عمل ہے جس سے پودا روشنی سے شکر بناتا ہے۔"),
        ("مائٹوکونڈریا", ("خلیہ",), "مائٹوکونڈریا خلیے میں شکر سے توانائی نکالتے ہیں۔"),
    ),
    "ar": (
        ("الخلية", (), "الخلية هي أصغر وحدة في الحياة."),
        (
            "غشاء الخلية",
            ("الخلية",),
            "غشاء الخلية طبقة رقيقة حول الخلية تتحكم في ما يدخل الخلية وما يخرج منها.",
        ),
        ("النواة", ("الخلية",), "النواة هي جزء الخلية الذي يحفظ الحمض النووي."),
        (
            "التناضح",
            ("غشاء الخلية",),
            "التناضح هو انتقال الماء إلى داخل الخلية أو خارجها عبر غشائها.",
        ),
        ("البناء الضوئي", (), "البناء الضوئي هو طريقة صنع النبات للسكر من الضوء."),
        ("الميتوكوندريا", ("الخلية",), "الميتوكوندريا تطلق الطاقة من السكر في الخلية."),
    ),
}
# Each paraphrases osmosis's definition and names no concept but, at most, the cell.
PARAPHRASES = {
    "en": ("Why does water go into a cell?", "Osmosis"),
    "es": ("¿Por qué el agua pasa a una célula?", "Ósmosis"),
    "id": ("Mengapa air berpindah ke dalam sel?", "Osmosis"),
    "ur": ("پانی خلیے کے اندر کیوں منتقل ہوتا ہے؟", "اوسموسس"),
    "ar": ("لماذا يدخل الماء إلى داخل الخلية؟", "التناضح"),
}
PREREQUISITE = {"en": "Cell membrane", "es": "Membrana celular", "id": "Membran sel"}
PREREQUISITE |= {"ur": "خلوی جھلی", "ar": "غشاء الخلية"}
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def subject_map(lang: str) -> ConceptMap:
    concepts = {
        concept_key(name): Concept(
            key=concept_key(name),
            name=name,
            layer=Layer.FILE,
            gist=definition,
            definition=definition,
            sources=(FILE,),
            builds_on=tuple(concept_key(p) for p in needs),
        )
        for name, needs, definition in SUBJECTS[lang]
    }
    return derive(ConceptMap(concepts=concepts))


def recall_of(
    question: str, cmap: ConceptMap, similarity: dict[str, float] | None = None
) -> RecallResult:
    """What recall hands the turn for ``question``: its terms and routes (names; meaning when
    ``similarity`` is given)."""
    routes = route_question(question, {k: c.name for k, c in cmap.concepts.items()})
    return RecallResult(
        items=[],
        mode=Mode.RELEVANT,
        window=None,
        window_empty=False,
        terms=tuple(distinctive_terms(question)),
        concept_keys=routes.keys,
        pool_sizes={},
        timings_ms={},
        concept_similarity=similarity or {},
    )


@pytest.mark.parametrize("lang", sorted(PARAPHRASES))
def test_a_question_that_paraphrases_a_definition_leads_the_map_with_that_concept(
    lang: str,
) -> None:
    question, about = PARAPHRASES[lang]
    cmap = subject_map(lang)
    focus = map_focus(cmap, recall_of(question, cmap), [], record=False)
    assert focus[0] == concept_key(about)
    section = render_map_section(cmap, PLENTY, focus=focus)
    # The concept, then what it builds on; the hub the question only mentions comes after.
    assert section.concept_keys[:2] == (concept_key(about), concept_key(PREREQUISITE[lang]))
    assert section.lines[1].startswith(f"- {about}: ")


@pytest.mark.parametrize("lang", ["en", "es", "ar"])
def test_a_name_that_is_in_every_definition_sets_the_scene_and_comes_after(lang: str) -> None:
    question, about = PARAPHRASES[lang]
    cmap = subject_map(lang)
    recall = recall_of(question, cmap)
    cell = concept_key(SUBJECTS[lang][0][0])
    assert recall.concept_keys == (cell,)  # the question names the cell …
    focus = map_focus(cmap, recall, [], record=False)
    assert focus.index(concept_key(about)) < focus.index(cell)  # … and is about osmosis


def test_a_name_that_tells_the_concepts_apart_still_leads() -> None:
    cmap = subject_map("en")
    recall = recall_of("What should I revise before the nucleus? It holds the water.", cmap)
    focus = map_focus(cmap, recall, [], record=False)
    assert focus[:2] == ["nucleus", "osmosis"]


def test_a_concept_routed_by_meaning_comes_first() -> None:
    cmap = subject_map("en")
    recall = replace(
        recall_of("Why does water go into a cell?", cmap),
        meaning_keys=("mitochondria",),
        concept_keys=("cell",),
    )
    assert map_focus(cmap, recall, [], record=False)[:2] == ["mitochondria", "osmosis"]


def test_the_question_s_cosines_order_the_concepts_its_words_match() -> None:
    cmap = subject_map("en")
    # "sugar" is in two definitions, equally; meaning tells them apart, without routing.
    question = "Where does the energy of sugar come from?"
    by_words = map_focus(cmap, recall_of(question, cmap), [], record=False)
    assert by_words[:2] == ["mitochondria", "photosynthesis"]  # "energy" too
    leaning = {k: 0.80 for k in cmap.concepts} | {"photosynthesis": 0.90, "mitochondria": 0.79}
    by_both = map_focus(cmap, recall_of(question, cmap, leaning), [], record=False)
    assert by_both[:2] == ["photosynthesis", "mitochondria"]


def test_a_question_about_nothing_on_the_map_leaves_it_hubs_first() -> None:
    cmap = subject_map("en")
    recall = recall_of("Who won the football yesterday?", cmap)
    assert map_focus(cmap, recall, [], record=False) == []


def test_a_record_question_keeps_its_beliefs_first_whatever_its_words() -> None:
    cmap = subject_map("en")
    belief = Belief(
        pair=Pair("s", "b"),
        belief_id="b1",
        concept_key="nucleus",
        concept_name="Nucleus",
        claim=Claim.STRUGGLES,
        confidence=0.7,
        evidence_ids=("e1",),
        created_at=NOW,
        rule_version=1,
        reason="checks",
    )
    recall = recall_of("What did I get wrong about water going into a cell?", cmap)
    assert map_focus(cmap, recall, [belief], record=True) == ["cell", "nucleus"]


def test_what_a_second_file_says_of_a_concept_is_part_of_its_text() -> None:
    pdf = Source("cells.pdf", 1, "sha256:pdf")
    notes = Source("plants.md", 1, "sha256:md")
    first = "Osmosis is the movement of water across a partially permeable membrane."
    second = "Water that enters a plant cell by osmosis pushes the membrane against the wall."
    cmap = merge_file(ConceptMap(), [ConceptDraft("Osmosis", first, first)], pdf)
    cmap = merge_file(cmap, [ConceptDraft("Osmosis", second, second)], notes)
    osmosis = cmap.concepts["osmosis"]
    assert osmosis.definition == first  # the map's line is unchanged
    assert second in concept_text(osmosis)  # routing and the focus read both
    assert ConceptMap.from_dict(cmap.to_dict()) == cmap
    # A new version of the second file replaces what it said.
    newer = "Osmosis moves water into a cell."
    cmap = merge_file(cmap, [ConceptDraft("Osmosis", newer, newer)], replace(notes, version=2))
    text = concept_text(cmap.concepts["osmosis"])
    assert newer in text and second not in text
