"""Teaching the map by talking to it: only an explicit instruction teaches, in five languages."""

from __future__ import annotations

import pytest

from tutor_memory.domain.concepts import concept_key
from tutor_memory.domain.constants import MAX_SHORT_NAME_WORDS
from tutor_memory.domain.errors import ValidationError
from tutor_memory.domain.language import LANGUAGES, fold
from tutor_memory.domain.languages import language
from tutor_memory.domain.teaching import (
    TeachingKind,
    claim_of,
    detect_teaching,
    route_taught,
    short_name,
)


def known(*names: str) -> dict[str, str]:
    return {concept_key(name): name for name in names}


# --- "remember that …" teaches, and the note is what follows -----------------------------------


@pytest.mark.parametrize(
    ("message", "lang", "note"),
    [
        (
            "Remember that in our class we call the mitochondria the powerhouse of the cell",
            "en",
            "in our class we call the mitochondria the powerhouse of the cell",
        ),
        ("Please keep in mind that osmosis needs no energy.", "en", "osmosis needs no energy"),
        (
            "Don't forget that the cell membrane lets water through!",
            "en",
            "the cell membrane lets water through",
        ),
        (
            "Recuerda que en nuestra clase llamamos a la mitocondria la central de la célula.",
            "es",
            "en nuestra clase llamamos a la mitocondria la central de la célula",
        ),
        (
            "Ten en cuenta que la ósmosis no necesita energía",
            "es",
            "la ósmosis no necesita energía",
        ),
        (
            "Por favor, acuérdate de que la célula es la unidad de la vida",
            "es",
            "la célula es la unidad de la vida",
        ),
        (
            "Ingat bahwa mitokondria adalah pembangkit tenaga sel",
            "id",
            "mitokondria adalah pembangkit tenaga sel",
        ),
        ("Ingatlah bahwa osmosis tidak butuh energi.", "id", "osmosis tidak butuh energi"),
        ("Tolong ingat bahwa sel adalah unit kehidupan", "id", "sel adalah unit kehidupan"),
        ("یاد رکھو کہ خلیہ زندگی کی اکائی ہے", "ur", "خلیہ زندگی کی اکائی ہے"),
        (
            "براہ کرم یاد رکھیں کہ اوسموسس کو توانائی نہیں چاہیے۔",
            "ur",
            "اوسموسس کو توانائی نہیں چاہیے",
        ),
        ("تذكر أن الخلية هي وحدة الحياة", "ar", "الخلية هي وحدة الحياة"),
        ("من فضلك تذكّر أنّ التناضح لا يحتاج طاقة.", "ar", "التناضح لا يحتاج طاقة"),
        # "please remember" and "keep in mind" put otherwise (thirtieth round)
        ("Tolong diingat bahwa sel adalah unit kehidupan", "id", "sel adalah unit kehidupan"),
        ("دھیان رکھیں کہ خلیہ زندگی کی اکائی ہے", "ur", "خلیہ زندگی کی اکائی ہے"),
        ("انتبه إلى أن الخلية هي وحدة الحياة", "ar", "الخلية هي وحدة الحياة"),
        # "that" fused with "we": the pronoun carries the subject, so it stays in the note
        (
            "تذكر أننا في صفنا نسمي الميتوكوندريا محطة الطاقة",
            "ar",
            "أننا في صفنا نسمي الميتوكوندريا محطة الطاقة",
        ),
    ],
)
def test_remember_that_teaches_the_rest_of_the_sentence(message: str, lang: str, note: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert intent.kind is TeachingKind.REMEMBER
    assert intent.language == lang
    assert intent.note == note


def test_the_instruction_may_come_after_a_greeting_and_the_note_ends_with_its_sentence() -> None:
    intent = detect_teaching("Great work today. Remember that osmosis is passive. Bye!")
    assert intent is not None and intent.note == "osmosis is passive"


def test_a_decimal_point_does_not_end_the_note() -> None:
    intent = detect_teaching("Remember that in our class pi is 3.14 exactly.")
    assert intent is not None and intent.note == "in our class pi is 3.14 exactly"


# --- what is stored is the claim: "X = Y" -----------------------------------------------------


@pytest.mark.parametrize(
    ("message", "claim"),
    [
        # en: we call, we refer to … as, treat … as, the same as, means, is called
        (
            "Remember that in our class we call the mitochondria the powerhouse of the cell",
            "mitochondria = the powerhouse of the cell",
        ),
        (
            "Remember that in our class we call Cytoplasm the sugar factory",
            "Cytoplasm = the sugar factory",
        ),
        (
            "Remember that we refer to the Golgi body as the post office of the cell.",
            "Golgi body = the post office of the cell",
        ),
        ("Treat osmosis as a special case of diffusion.", "osmosis = a special case of diffusion"),
        ("Remember that mitocondria is the same as mitochondria", "mitocondria = mitochondria"),
        ("Remember that ATP means adenosine triphosphate", "ATP = adenosine triphosphate"),
        (
            "Remember that osmosis is called passive water flow in our class",
            "osmosis = passive water flow",
        ),
        # es
        (
            "Recuerda que en nuestra clase llamamos a la mitocondria la central de la célula.",
            "mitocondria = la central de la célula",
        ),
        ("Trata la ósmosis como un tipo de difusión", "ósmosis = un tipo de difusión"),
        (
            "Recuerda que la ósmosis es lo mismo que la difusión del agua",
            "ósmosis = la difusión del agua",
        ),
        ("Recuerda que ATP significa trifosfato de adenosina", "ATP = trifosfato de adenosina"),
        # id
        (
            "Ingat bahwa di kelas kami, kami menyebut mitokondria sebagai pembangkit tenaga sel",
            "mitokondria = pembangkit tenaga sel",
        ),
        ("Anggap osmosis sebagai difusi air", "osmosis = difusi air"),
        ("Ingat bahwa di kelas kami osmosis disebut si mesin", "osmosis = si mesin"),
        ("Ingat bahwa mitokondria sama dengan mitochondria", "mitokondria = mitochondria"),
        # ur: verb-final naming and treating, "means", "are one and the same"
        (
            "یاد رکھو کہ ہماری کلاس میں ہم مائٹوکونڈریا کو خلیے کا پاور ہاؤس کہتے ہیں",
            "مائٹوکونڈریا = خلیے کا پاور ہاؤس",
        ),
        ("اوسموسس کو پانی کا پھیلاؤ سمجھو", "اوسموسس = پانی کا پھیلاؤ"),
        ("یاد رکھو کہ اوسموسس کا مطلب ہے پانی کا پھیلاؤ", "اوسموسس = پانی کا پھیلاؤ"),
        ("یاد رکھو کہ مائٹوکونڈریا اور پاور ہاؤس ایک ہی ہیں", "مائٹوکونڈریا = پاور ہاؤس"),
        # ar: "that we" fused into أننا is dropped with the frame; treat with and without بمثابة
        (
            "تذكر أننا في صفنا نسمي الميتوكوندريا محطة الطاقة",
            "الميتوكوندريا = محطة الطاقة",
        ),
        ("اعتبر غشاء الخلية حارس الخلية", "غشاء الخلية = حارس الخلية"),
        ("عامل النواة بمثابة دماغ الخلية", "النواة = دماغ الخلية"),
        ("تذكر أن التناضح نسميه في صفنا المحرك", "التناضح = المحرك"),
        ("تذكر أن الميتوكوندريا هي نفسها المتقدرات", "الميتوكوندريا = المتقدرات"),
        ("تذكر أننا نطلق على جهاز جولجي اسم مكتب البريد", "جهاز جولجي = مكتب البريد"),
    ],
)
def test_a_naming_or_treating_sentence_is_stored_as_its_claim(message: str, claim: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert intent.claim == claim


@pytest.mark.parametrize(
    ("message", "claim"),
    [
        (
            "Remember that our teacher calls the mitochondria the powerhouse of the cell",
            "mitochondria = the powerhouse of the cell",
        ),
        (
            "Recuerda que nuestra profesora llama a la mitocondria la central energética",
            "mitocondria = la central energética",
        ),
        (
            "Ingat bahwa guru kami menyebut mitokondria sebagai pembangkit tenaga sel",
            "mitokondria = pembangkit tenaga sel",
        ),
        (
            "yaad rakho ke hamare teacher limiting reagent ko 'mehdood reagent' kehte hain",
            "limiting reagent = 'mehdood reagent'",
        ),
        ("یاد رکھیں کہ ہمارے استاد خلیے کی جھلی کو دربان کہتے ہیں", "خلیے کی جھلی = دربان"),
        ("تذكر أن معلمتنا تسمي الميتوكوندريا بيت الطاقة", "الميتوكوندريا = بيت الطاقة"),
    ],
)
def test_what_a_teacher_calls_a_thing_names_the_thing_not_the_teacher(
    message: str, claim: str
) -> None:
    # a probe's finding: "معلمتنا = الميتوكوندريا بيت الطاقة" (our teacher = …) was stored, and
    # a node "teacher limiting reagent" minted
    intent = detect_teaching(message)
    assert intent is not None
    assert intent.claim == claim


@pytest.mark.parametrize(
    "message",
    [
        "Remember that osmosis needs no energy",
        # the name comes after what it is called: no claim is guessed the wrong way round
        "Remember that the powerhouse of the cell is what we call the mitochondria",
        "Recuerda que la ósmosis no necesita energía",
        "Ingat bahwa osmosis tidak butuh energi.",
        "یاد رکھو کہ خلیہ زندگی کی اکائی ہے",
        "تذكر أن الخلية هي وحدة الحياة",
    ],
)
def test_a_note_that_names_nothing_is_stored_as_the_trimmed_sentence(message: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert intent.claim == intent.note


def test_the_claim_is_the_same_whether_read_from_the_note_or_the_message() -> None:
    note = "in our class we call the mitochondria the powerhouse of the cell"
    assert claim_of(note) == "mitochondria = the powerhouse of the cell"
    assert claim_of("it means nothing") == "it means nothing"  # a pronoun is no name
    assert claim_of("") == ""


# --- "treat X as Y" teaches, and names X -------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "lang", "subject"),
    [
        ("Treat osmosis as a special case of diffusion.", "en", "osmosis"),
        ("think of the nucleus as the brain of the cell", "en", "nucleus"),
        ("Trata la ósmosis como un tipo de difusión", "es", "ósmosis"),
        ("Considera el núcleo como el cerebro de la célula", "es", "núcleo"),
        ("Anggap osmosis sebagai difusi air", "id", "osmosis"),
        ("Anggap saja inti sel sebagai otak sel", "id", "inti sel"),
        ("اوسموسس کو پانی کا پھیلاؤ سمجھو", "ur", "اوسموسس"),
        ("خلیے کی جھلی کو دربان سمجھیں", "ur", "خلیے کی جھلی"),
        ("اعتبر التناضح نوعا من الانتشار", "ar", "التناضح"),
        ("اعتبر غشاء الخلية حارس الخلية", "ar", "غشاء الخلية"),
        ("عامل النواة بمثابة دماغ الخلية", "ar", "النواة"),
    ],
)
def test_treat_x_as_y_teaches_the_instruction_and_names_x(
    message: str, lang: str, subject: str
) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert intent.kind is TeachingKind.TREAT
    assert intent.language == lang
    assert intent.subject == subject
    assert intent.note == message.rstrip(".")


# --- what never teaches ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        # questions, with their marks
        "Do you remember that osmosis needs no energy?",
        "Remember that osmosis needs no energy?",
        "¿Recuerdas que la ósmosis no necesita energía?",
        "Recuerda que la ósmosis no necesita energía, ¿vale?",
        "Apakah kamu ingat bahwa osmosis tidak butuh energi?",
        "کیا تمہیں یاد ہے کہ اوسموسس کو توانائی نہیں چاہیے؟",
        "هل تتذكر أن التناضح لا يحتاج طاقة؟",
        "تذكر أن التناضح لا يحتاج طاقة؟",
        # questions without their marks: a question word or an asking form opens them
        "do you remember that osmosis needs no energy",
        "Can you remember that osmosis needs no energy",
        "What is osmosis. Remember that it needs no energy",
        "recuerdas que la ósmosis no necesita energía",
        "Qué es la ósmosis. Recuerda que no necesita energía",
        "apakah kamu ingat bahwa osmosis tidak butuh energi",
        "Masih ingat bahwa osmosis tidak butuh energi",
        "کیا تمہیں یاد ہے کہ اوسموسس کو توانائی نہیں چاہیے",
        "کیا آپ اوسموسس کو پانی کا پھیلاؤ سمجھتے ہیں",
        "هل تتذكر أن التناضح لا يحتاج طاقة",
        "أتذكر أن التناضح لا يحتاج طاقة",
    ],
)
def test_a_question_never_teaches(message: str) -> None:
    assert detect_teaching(message) is None


@pytest.mark.parametrize(
    "message",
    [
        # statements and other uses of the same verbs
        "I remember that osmosis is passive",
        "The teacher said: remember that osmosis is passive",
        "Remember to bring your notebook",
        "Treat yourself to a break",
        "Remember that",
        "",
        "Recuerdo que la ósmosis es pasiva",
        "Trata de resolver el ejercicio",
        "Saya ingat bahwa osmosis itu pasif",
        "Ingat nggak bahwa osmosis itu pasif",
        "Anggap saja begitu",
        "مجھے یاد ہے کہ اوسموسس غیر فعال ہے",
        "اوسموسس کو اچھی طرح سمجھو",  # "understand osmosis well"
        "أتذكر التناضح جيدا",
        "اعتبر التناضح",  # "consider osmosis …" with nothing said about it
        # explanations that merely mention the concept
        "Osmosis is the movement of water across a membrane",
        "La ósmosis es el paso del agua",
        "Osmosis adalah perpindahan air",
        "اوسموسس پانی کی حرکت ہے",
        "التناضح هو حركة الماء",
    ],
)
def test_anything_but_an_explicit_instruction_teaches_nothing(message: str) -> None:
    assert detect_teaching(message) is None


# --- routing: the concept a note names, by exact name -------------------------------------------


def test_the_powerhouse_of_the_cell_goes_to_mitochondria_not_to_the_cell() -> None:
    note = "in our class we call the mitochondria the powerhouse of the cell"
    assert route_taught(note, known("Mitochondria", "Cell")) == "mitochondria"


def test_a_note_about_an_unknown_subject_goes_nowhere_even_if_it_mentions_a_known_one() -> None:
    note = "in our class we call the Golgi body the post office of the cell"
    assert route_taught(note, known("Cell", "Mitochondria")) is None


def test_the_named_subject_wins_over_a_concept_mentioned_before_it() -> None:
    note = "the powerhouse of the cell is what we call the mitochondria"
    assert route_taught(note, known("Cell", "Mitochondria")) == "mitochondria"


def test_treat_routes_to_x_not_to_y() -> None:
    intent = detect_teaching("Treat osmosis as a kind of diffusion")
    assert intent is not None
    assert route_taught(intent.note, known("Diffusion", "Osmosis")) == "osmosis"


def test_without_a_named_subject_the_first_mentioned_most_specific_name_wins() -> None:
    concepts = known("Cell", "Cell membrane", "Water")
    assert route_taught("the cell membrane lets water through", concepts) == "cell membrane"
    assert route_taught("water crosses the cell membrane", concepts) == "water"
    assert route_taught("the membrane of the cell is thin", concepts) == "cell"


def test_routing_is_exact_on_whole_names_never_fuzzy() -> None:
    concepts = known("Cell", "Osmosis")
    assert route_taught("cells swell in pure water", concepts) is None
    assert route_taught("reverse osmosis needs pressure", concepts) == "osmosis"
    assert route_taught("anything at all", {}) is None


@pytest.mark.parametrize(
    ("message", "names", "expected"),
    [
        (
            "Remember that in our class we call the mitochondria the powerhouse of the cell",
            ("Mitochondria", "Cell"),
            "Mitochondria",
        ),
        (
            "Recuerda que en nuestra clase llamamos a la mitocondria la central de la célula",
            ("Mitocondria", "Célula"),
            "Mitocondria",
        ),
        (
            "Ingat bahwa di kelas kami, kami menyebut mitokondria sebagai pembangkit tenaga sel",
            ("Mitokondria", "Sel"),
            "Mitokondria",
        ),
        (
            "یاد رکھو کہ ہماری کلاس میں ہم مائٹوکونڈریا کو خلیے کا پاور ہاؤس کہتے ہیں",
            ("مائٹوکونڈریا", "خلیے"),
            "مائٹوکونڈریا",
        ),
        (
            "تذكر أن في صفنا نسمي الميتوكوندريا محطة الطاقة في الخلية",
            ("الميتوكوندريا", "الخلية"),
            "الميتوكوندريا",
        ),
    ],
)
def test_a_taught_note_routes_to_the_concept_it_names_in_every_language(
    message: str, names: tuple[str, ...], expected: str
) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert route_taught(intent.note, known(*names)) == concept_key(expected)


# --- short names for minted nodes ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "name"),
    [
        (
            "Remember that in our class we call the Golgi body the post office of the cell",
            "Golgi body",
        ),
        ("Remember that in our class the heart has four chambers", "heart"),
        (
            "Recuerda que en nuestra clase llamamos al aparato de Golgi la oficina de correos",
            "aparato de Golgi",
        ),
        ("Recuerda que en nuestra clase la fotosíntesis es la cocina de la planta", "fotosíntesis"),
        (
            "Ingat bahwa di kelas kami, kami menyebut badan Golgi sebagai kantor pos sel",
            "badan Golgi",
        ),
        ("Ingat bahwa di kelas kami fotosintesis adalah dapur tumbuhan", "fotosintesis"),
        ("یاد رکھیں کہ ہم گولجی باڈی کو خلیے کا ڈاک خانہ کہتے ہیں", "گولجی باڈی"),
        ("یاد رکھو کہ ہماری کلاس میں ضیائی تالیف پودے کا باورچی خانہ ہے", "ضیائی تالیف"),
        ("تذكر أننا نطلق على جهاز جولجي اسم مكتب البريد", "جهاز جولجي"),
        ("تذكر أن في صفنا البناء الضوئي هو مطبخ النبات", "البناء الضوئي"),
    ],
)
def test_a_new_concept_gets_a_short_name_never_the_sentence(message: str, name: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert short_name(intent.note) == name


@pytest.mark.parametrize(
    ("message", "name"),
    [
        (
            "Treat the cell membrane as a gatekeeper that decides what enters the cell",
            "cell membrane",
        ),
        ("Trata la membrana celular como un portero", "membrana celular"),
        ("Anggap membran sel sebagai penjaga gerbang", "membran sel"),
        ("اوسموسس کو پانی کا پھیلاؤ سمجھو", "اوسموسس"),
        ("اعتبر غشاء الخلية حارس الخلية", "غشاء الخلية"),
    ],
)
def test_the_short_name_of_treat_x_as_y_is_x(message: str, name: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None
    assert short_name(intent.note) == name == intent.subject


def test_a_short_name_has_at_most_four_words_and_is_always_the_same() -> None:
    note = (
        "in our class photosynthesis light reactions chlorophyll pigments absorb sunlight "
        "during the day"
    )
    name = short_name(note)
    assert len(name.split()) <= MAX_SHORT_NAME_WORDS == 4
    assert name != note
    assert name == short_name(note)
    assert name.startswith("photosynthesis")


def test_an_empty_note_has_no_name() -> None:
    with pytest.raises(ValidationError, match="note"):
        short_name("  …  ")


def test_a_name_keeps_the_spelling_the_person_used() -> None:
    assert short_name("we call the Golgi Body the post office") == "Golgi Body"
    assert short_name("llamamos a la Ósmosis la difusión del agua") == "Ósmosis"


# --- the word lists are data, for every language --------------------------------------------------

TEACHING_FIELDS = (
    "teaching_remember",
    "teaching_lead_ins",
    "teaching_question_openers",
    "teaching_frames",
)


@pytest.mark.parametrize("field", TEACHING_FIELDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_teaching_list_has_words_in_every_language(field: str, lang: str) -> None:
    entries: tuple[str, ...] = getattr(language(lang), field)
    assert entries
    assert all(fold(entry).strip() for entry in entries)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_remember_phrase_teaches_and_the_same_phrase_asked_does_not(lang: str) -> None:
    for phrase in language(lang).teaching_remember:
        statement = f"{phrase} X1 Y2 Z3"
        intent = detect_teaching(statement)
        assert intent is not None, phrase
        assert intent.note == "X1 Y2 Z3" and intent.language == lang
        assert detect_teaching(statement + "?") is None
        assert detect_teaching(statement + "؟") is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lead_in_may_come_before_an_instruction(lang: str) -> None:
    remember = language(lang).teaching_remember[0]
    for lead_in in language(lang).teaching_lead_ins:
        intent = detect_teaching(f"{lead_in} {remember} X1 Y2")
        assert intent is not None and intent.note == "X1 Y2", lead_in


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_message_opening_with_any_question_word_teaches_nothing(lang: str) -> None:
    remember = language(lang).teaching_remember[0]
    for opener in language(lang).teaching_question_openers:
        assert detect_teaching(f"{opener} X1 Y2. {remember} X1 Y2") is None, opener


def test_an_instruction_wins_over_a_question_word_it_starts_with() -> None:
    # "do" opens questions ("do you remember that …"), but "do not forget that" instructs
    for message in (
        "Do not forget that osmosis is passive",
        "Don't forget that osmosis is passive",
    ):
        intent = detect_teaching(message)
        assert intent is not None and intent.note == "osmosis is passive", message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_frame_is_skipped_when_a_short_name_is_looked_for(lang: str) -> None:
    for frame in language(lang).teaching_frames:
        assert short_name(f"{frame} Zebrafish") == "Zebrafish", frame


@pytest.mark.parametrize(
    ("lang", "note", "subject"),
    [
        ("en", "we refer to the Golgi body as the post office", "Golgi body"),
        ("es", "le llamamos al núcleo el cerebro", "núcleo"),
        ("id", "kita namakan inti sel sebagai otak", "inti sel"),
        ("ur", "ہم نیوکلیئس کو دماغ کہتے ہیں", "نیوکلیئس"),
        ("ar", "ندعو النواة دماغ الخلية", "النواة"),
    ],
)
def test_naming_phrases_find_the_named_thing_in_every_language(
    lang: str, note: str, subject: str
) -> None:
    assert short_name(note) == subject


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Treat osmosis as diffusion"),
        ("es", "Trata la ósmosis como difusión"),
        ("id", "Anggap osmosis sebagai difusi"),
        ("ur", "اوسموسس کو پھیلاؤ مانو"),
        ("ar", "اعتبر التناضح مثل الانتشار"),
    ],
)
def test_treat_phrases_and_their_as_words_teach_in_every_language(lang: str, message: str) -> None:
    intent = detect_teaching(message)
    assert intent is not None and intent.kind is TeachingKind.TREAT and intent.language == lang


def test_urdu_understand_well_is_not_treat_as() -> None:
    for manner in ("اچھی طرح", "غور سے", "دوبارہ"):
        assert detect_teaching(f"اوسموسس کو {manner} سمجھو") is None, manner


@pytest.mark.parametrize(
    ("note", "lang", "name"),
    [
        ("a buffer resists changes in pH", "en", "buffer"),
        ("the cell membrane controls what enters", "en", "cell membrane"),
        ("photosynthesis happens in chloroplasts", "en", "photosynthesis"),
        ("un tampón resiste los cambios de pH", "es", "tampón"),
        ("la membrana celular controla la entrada", "es", "membrana celular"),
        ("larutan penyangga menahan perubahan pH", "id", "larutan penyangga"),
        ("dinding sel melindungi sel tumbuhan", "id", "dinding sel"),
        ("بفر pH کی تبدیلی کو روکتا ہے", "ur", "بفر"),
        ("المحلول المنظم يقاوم تغيرات الحموضة", "ar", "المحلول المنظم"),
    ],
)
def test_a_new_concept_is_named_by_the_noun_phrase_the_note_opens_with(
    note: str, lang: str, name: str
) -> None:
    assert short_name(note, lang) == name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_means_phrase_makes_a_claim(lang: str) -> None:
    remember = language(lang).teaching_remember[0]
    for phrase in language(lang).teaching_means:
        intent = detect_teaching(f"{remember} Zebrafish {phrase} Q1 Q2")
        assert intent is not None and intent.claim == "Zebrafish = Q1 Q2", phrase
