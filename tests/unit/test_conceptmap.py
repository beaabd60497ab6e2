"""Merging files into one map per pair: keys, provenance, assumed prerequisites (SPEC §4)."""

from __future__ import annotations

from tutor_memory.domain.conceptmap import (
    Concept,
    ConceptDraft,
    ConceptMap,
    Layer,
    Source,
    merge_file,
    readiness_of,
    without_file,
)

FP1, FP2 = "1" * 64, "2" * 64
BOOK = Source("cells-pdf", 1, FP1)
NOTES = Source("notes-md", 1, FP2)


def test_a_file_becomes_nodes_with_edges_from_its_own_list() -> None:
    cmap = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Cell membrane", "The membrane around the cell.", pages=(2,)),
            ConceptDraft(
                "Osmosis", "Water crossing a membrane.", builds_on=("Cell membrane",), pages=(3, 4)
            ),
        ],
        BOOK,
    )
    assert sorted(cmap.concepts) == ["cell membrane", "osmosis"]
    assert cmap.edges() == [("osmosis", "cell membrane")]
    assert cmap.concepts["osmosis"].sources == (Source("cells-pdf", 1, FP1, (3, 4)),)


def test_a_second_file_adds_itself_to_the_same_node() -> None:
    first = merge_file(ConceptMap(), [ConceptDraft("Osmosis", "Water crossing.", pages=(3,))], BOOK)
    both = merge_file(first, [ConceptDraft("ósmosis", "Paso del agua.", pages=(1,))], NOTES)
    assert list(both.concepts) == ["osmosis"]
    node = both.concepts["osmosis"]
    assert [(s.file_id, s.pages) for s in node.sources] == [("cells-pdf", (3,)), ("notes-md", (1,))]
    assert node.gist == "Water crossing."  # the first explanation stays


def test_a_new_version_of_a_file_replaces_its_own_provenance_only() -> None:
    first = merge_file(ConceptMap(), [ConceptDraft("Osmosis", pages=(3,))], BOOK)
    first = merge_file(first, [ConceptDraft("Osmosis", pages=(1,))], NOTES)
    newer = merge_file(
        first, [ConceptDraft("Osmosis", pages=(5,))], Source("cells-pdf", 2, "3" * 64)
    )
    sources = {(s.file_id, s.version, s.pages) for s in newer.concepts["osmosis"].sources}
    assert sources == {("cells-pdf", 2, (5,)), ("notes-md", 1, (1,))}


def test_a_prerequisite_assumed_once_is_recorded_and_drawn_nowhere() -> None:
    cmap = merge_file(ConceptMap(), [ConceptDraft("Osmosis", builds_on=("Diffusion",))], BOOK)
    assert list(cmap.concepts) == ["osmosis"]
    assert cmap.concepts["osmosis"].assumed == ("Diffusion",)
    assert cmap.edges() == []


def test_a_prerequisite_assumed_by_two_concepts_becomes_a_named_only_node() -> None:
    cmap = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Osmosis", builds_on=("Diffusion",)),
            ConceptDraft("Active transport", builds_on=("diffusion",)),
        ],
        BOOK,
    )
    node = cmap.concepts["diffusion"]
    assert node.layer is Layer.ASSUMED and not node.explained
    assert readiness_of(node) == 0.35
    assert node.assumed_by == ("active transport", "osmosis")
    assert cmap.edges() == [("active transport", "diffusion"), ("osmosis", "diffusion")]


def test_assumptions_across_files_count_together_and_a_file_can_explain_them_later() -> None:
    one = merge_file(ConceptMap(), [ConceptDraft("Osmosis", builds_on=("Diffusion",))], BOOK)
    two = merge_file(one, [ConceptDraft("Active transport", builds_on=("Diffusion",))], NOTES)
    assert two.concepts["diffusion"].layer is Layer.ASSUMED
    three = merge_file(
        two, [ConceptDraft("Diffusion", "Particles spreading out.")], Source("d", 1, FP1)
    )
    assert three.concepts["diffusion"].layer is Layer.FILE
    assert readiness_of(three.concepts["diffusion"]) == 0.6


def test_eleven_concepts_never_become_thirty_four_nodes() -> None:
    """Each of 11 concepts assumes two things nobody else assumes: 11 nodes, not 33."""
    drafts = [
        ConceptDraft(f"Concept {i}", builds_on=(f"Only mine {i}a", f"Only mine {i}b"))
        for i in range(11)
    ]
    cmap = merge_file(ConceptMap(), drafts, BOOK)
    assert len(cmap.concepts) == 11
    assert all(len(c.assumed) == 2 for c in cmap.concepts.values())


def test_a_merge_by_similarity_joins_the_node_the_caller_names() -> None:
    first = merge_file(ConceptMap(), [ConceptDraft("Cell", pages=(1,))], BOOK)
    both = merge_file(first, [ConceptDraft("Sel", pages=(2,))], NOTES, same_as={"sel": "cell"})
    assert list(both.concepts) == ["cell"] and len(both.concepts["cell"].sources) == 2


def test_readiness_bands_follow_the_article() -> None:
    named = Concept("x", "X", Layer.ASSUMED)
    explained = Concept("x", "X", Layer.FILE, sources=(BOOK,))
    assert [readiness_of(c) for c in (named, explained)] == [0.35, 0.6]
    assert readiness_of(Concept("x", "X", Layer.FILE, sources=(BOOK,), confirmed=True)) == 0.85
    assert readiness_of(Concept("x", "X", Layer.FILE, taught_note="call it X")) == 1.0


def test_a_map_round_trips_through_its_stored_form() -> None:
    cmap = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Osmosis", "Agua.", builds_on=("Cell membrane", "Diffusion")),
            ConceptDraft("Cell membrane"),
        ],
        BOOK,
    )
    assert ConceptMap.from_dict(cmap.to_dict()) == cmap


def test_a_definition_naming_a_concept_another_file_explains_builds_on_it() -> None:
    membrane = ConceptDraft("Cell membrane", "The thin layer around every cell.")
    osmosis = ConceptDraft("Osmosis", "Water crossing a cell membrane from dilute to concentrated.")
    for first, second in (([membrane], [osmosis]), ([osmosis], [membrane])):  # either order
        cmap = merge_file(merge_file(ConceptMap(), first, BOOK), second, NOTES)
        assert cmap.edges() == [("osmosis", "cell membrane")]


def test_two_definitions_naming_each_other_get_no_edge_either_way() -> None:
    a = ConceptDraft("Acid", "An acid reacts with a base.")
    b = ConceptDraft("Base", "A base neutralises an acid.")
    cmap = merge_file(merge_file(ConceptMap(), [a], BOOK), [b], NOTES)
    assert cmap.edges() == []


def test_plural_and_singular_drafts_of_one_file_are_one_node_that_never_builds_on_itself() -> None:
    cmap = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Bases", "Substances that accept hydrogen ions."),
            ConceptDraft("Base", "A base accepts hydrogen ions.", builds_on=("Bases", "Acids")),
            ConceptDraft("Acids", "Substances that release hydrogen ions."),
        ],
        BOOK,
    )
    assert sorted(cmap.concepts) == ["acids", "bases"]
    assert cmap.edges() == [("bases", "acids")]


def _two_files() -> ConceptMap:
    """The book defines osmosis and membrane (osmosis builds on it); the notes re-explain
    osmosis and add diffusion."""
    book = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Cell membrane", "Book gist.", "Book membrane.", pages=(2,)),
            ConceptDraft(
                "Osmosis", "Book gist.", "Book osmosis.", builds_on=("Cell membrane",), pages=(3,)
            ),
        ],
        BOOK,
    )
    return merge_file(
        book,
        [
            ConceptDraft("Osmosis", definition="Notes osmosis.", pages=(1,)),
            ConceptDraft("Diffusion", definition="Notes diffusion.", builds_on=("Osmosis",)),
        ],
        NOTES,
    )


def test_a_file_erased_takes_its_own_concepts_and_their_edges_off_the_map() -> None:
    cmap = without_file(_two_files(), BOOK.file_id, BOOK.fingerprint)
    assert sorted(cmap.concepts) == ["diffusion", "osmosis"]  # the membrane was the book's only
    assert cmap.edges() == [("diffusion", "osmosis")]
    osmosis = cmap.concepts["osmosis"]
    assert [s.file_id for s in osmosis.sources] == ["notes-md"]
    # the book's definition and gist go; what the notes said becomes the definition
    assert (osmosis.definition, osmosis.gist, osmosis.sources[0].said) == ("Notes osmosis.", "", "")


def test_a_file_erased_that_only_re_explained_a_concept_leaves_its_definition() -> None:
    cmap = without_file(_two_files(), NOTES.file_id, NOTES.fingerprint)
    assert sorted(cmap.concepts) == ["cell membrane", "osmosis"]
    osmosis = cmap.concepts["osmosis"]
    assert (osmosis.definition, osmosis.gist) == ("Book osmosis.", "Book gist.")
    assert [s.file_id for s in osmosis.sources] == ["cells-pdf"]
    assert "Notes" not in str(cmap.to_dict())


def test_a_taught_concept_stays_when_its_only_file_is_erased() -> None:
    cmap = _two_files()
    membrane = cmap.concepts["cell membrane"]
    cmap = ConceptMap(
        {**cmap.concepts, "cell membrane": Concept(**{**membrane.__dict__, "taught_note": "x"})}
    )
    after = without_file(cmap, BOOK.file_id, BOOK.fingerprint)
    kept = after.concepts["cell membrane"]
    assert kept.layer is Layer.TAUGHT and kept.sources == () and kept.definition == ""


def test_another_version_of_the_file_is_not_touched_and_an_assumed_node_can_go() -> None:
    cmap = merge_file(
        ConceptMap(),
        [
            ConceptDraft("Osmosis", builds_on=("Diffusion",)),
            ConceptDraft("Active transport", builds_on=("Diffusion",)),
        ],
        BOOK,
    )
    assert without_file(cmap, BOOK.file_id, FP2) == cmap  # another version: nothing of it
    cmap = merge_file(cmap, [ConceptDraft("Pump", builds_on=("Diffusion",))], NOTES)
    after = without_file(cmap, NOTES.file_id, NOTES.fingerprint)
    assert after.concepts["diffusion"].assumed_by == ("active transport", "osmosis")
    after = without_file(cmap, BOOK.file_id, BOOK.fingerprint)
    assert sorted(after.concepts) == ["pump"]  # diffusion, assumed by one: a name again
    assert after.concepts["pump"].assumed == ("Diffusion",) and after.edges() == []
