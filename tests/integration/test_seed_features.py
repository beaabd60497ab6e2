"""The seed's features, reached through the API's routes and the CLI (issue 18)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest
from aws_lambda_powertools.utilities.typing import LambdaContext

from tutor_memory.api.local_server import to_event
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app
from tutor_memory.cli import main, on_folder
from tutor_memory.domain import beliefs as beliefs_module
from tutor_memory.domain.episodes import CheckEvidence, ConsolidationEvidence, Kind, Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_episodes, sample_subject
from tutor_memory.settings import Settings

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class _Context:
    function_name = "tutor-memory-test"
    memory_limit_in_mb = 0
    invoked_function_arn = "arn:aws:lambda:local:000000000000:function:tutor-memory-test"
    aws_request_id = "test"


class Api:
    """The routes the Lambda and `serve` use, called with API Gateway-shaped events."""

    def __init__(self, app: App, pair: Pair) -> None:
        self.resolver = build_resolver(lambda: app)
        self.base = f"/pairs/{pair.student_id}/{pair.subject_id}"

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        shaped = to_event(method, self.base + path, {"Content-Type": "application/json"}, data)
        response = self.resolver.resolve(shaped, cast(LambdaContext, _Context()))
        text = response.get("body") or ""
        return response["statusCode"], json.loads(text) if text else None


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "tm"


@pytest.fixture
def app(folder: Path, pair: Pair) -> App:
    settings = on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder)
    app = build_app(settings, clock=FixedClock(NOW))
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=datetime(2026, 7, 1, tzinfo=UTC))
    app.memory.record_many(sample_episodes(pair, repeats=(2, 30, 61)))
    for topic, verdict, day in (("cytoplasm", "right", 20), ("osmosis", "wrong", 25)):
        app.learning.record_check(
            pair,
            f"Check on {topic}",
            CheckEvidence(topic, verdict),  # type: ignore[arg-type]
            at=datetime(2026, 7, day, tzinfo=UTC),
        )
    return app


@pytest.fixture
def api(app: App, pair: Pair) -> Api:
    return Api(app, pair)


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reads its settings from the environment: no model, a generous deadline."""
    monkeypatch.setenv("TUTOR_MEMORY_EMBEDDER", "none")
    monkeypatch.setenv("TUTOR_MEMORY_TURN_DEADLINE", "30")


def map_lines(block: str) -> list[str]:
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("SUBJECT MAP"))
    end = next(
        (i for i in range(start + 1, len(lines)) if not lines[i].startswith("- ")), len(lines)
    )
    return lines[start + 1 : end]


# --- 1. the map answers the question ----------------------------------------------------------


def test_the_map_shows_the_concept_asked_about_and_its_prerequisites_first(api: Api) -> None:
    status, turn = api("POST", "/turn", {"question": "What should I revise before osmosis?"})
    assert status == 200
    assert turn["map_concepts"][:4] == ["osmosis", "cell membrane", "diffusion", "cell wall"]
    assert map_lines(turn["block"])[0].startswith("- Osmosis: ")


def test_a_tight_budget_keeps_the_leaf_asked_about_rather_than_the_hubs(api: Api) -> None:
    status, turn = api(
        "POST", "/turn", {"question": "What should I revise before osmosis?", "budget_tokens": 500}
    )
    assert status == 200 and turn["tokens"] <= 500
    assert turn["map_concepts"][:1] == ["osmosis"]
    assert "(builds on: Cell membrane, Cell wall, Diffusion)" in turn["block"]


def test_a_record_question_shows_the_concepts_of_its_beliefs_first_on_the_map(api: Api) -> None:
    status, turn = api("POST", "/turn", {"question": "what did I get wrong so far?"})
    assert status == 200 and turn["record_question"]
    believed = {"cytoplasm", "osmosis"}
    shown = turn["map_concepts"]
    assert shown and shown[0] in believed


# --- 2. a day's summary or the day, never both ------------------------------------------------


def test_a_days_summary_and_that_days_own_episodes_never_share_a_block(
    app: App, api: Api, pair: Pair
) -> None:
    for e in app.memory.history(pair):
        app.nightly.run(e.at.date())
    status, turn = api("POST", "/turn", {"question": "Why does water move into a plant cell?"})
    assert status == 200
    shown = app.ports.store.get_many(pair, turn["memory_ids"])
    summarised = {e.evidence.day for e in shown if isinstance(e.evidence, ConsolidationEvidence)}
    own_days = {e.at.date().isoformat() for e in shown if e.kind is not Kind.CONSOLIDATION}
    assert own_days and not summarised & own_days


# --- 3. the tutor's prompt assembled ----------------------------------------------------------

SYSTEM = "You are a patient biology tutor."
MATERIAL = "Page 3: Osmosis is the movement of water across a membrane."


def test_the_prompt_route_puts_the_block_before_the_material_and_drops_nothing_recorded(
    api: Api,
) -> None:
    status, placed = api(
        "POST",
        "/prompt",
        {"question": "What is osmosis?", "system": SYSTEM, "material": MATERIAL,
         "assessment": "NO QUIZ ATTEMPTS recorded"},
    )  # fmt: skip
    assert status == 200
    titles = [s["title"] for s in placed["sections"]]
    assert titles == ["System", "Memory", "Material", "Question"]
    assert placed["sections"][1]["text"] == placed["block"] and placed["memory_ids"]
    prompt = placed["prompt"]
    assert prompt.index("===== YOUR MEMORY") < prompt.index(MATERIAL)
    assert "NO QUIZ ATTEMPTS" not in prompt


def test_real_assessment_results_stay_after_the_block_with_a_bridging_note(api: Api) -> None:
    status, placed = api(
        "POST",
        "/prompt",
        {"question": "What is osmosis?", "material": MATERIAL, "assessment": "Quiz 1: 4/5"},
    )
    assert status == 200
    by_title = {s["title"]: s["text"] for s in placed["sections"]}
    assert by_title["Assessment results"].startswith("Quiz 1: 4/5\n(The memory block above")
    assert placed["prompt"].index("===== END OF MEMORY") < placed["prompt"].index("Quiz 1: 4/5")


def test_the_answer_stores_the_memories_the_assembled_prompt_held(
    app: App, api: Api, pair: Pair
) -> None:
    _, placed = api("POST", "/prompt", {"question": "What is osmosis?", "material": MATERIAL})
    status, answer = api(
        "POST",
        "/episodes",
        {"kind": "answer", "text": "Osmosis moves water.", "recalled_ids": placed["memory_ids"]},
    )
    assert status == 201
    stored = app.memory.episode(pair, answer["id"])
    assert list(stored.recalled_ids) == placed["memory_ids"]


@pytest.mark.usefixtures("cli_env")
def test_the_prompt_command_prints_the_assembled_prompt(
    app: App, folder: Path, pair: Pair, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    material = tmp_path / "material.txt"
    material.write_text(MATERIAL, encoding="utf-8")
    code = main(
        ["prompt", "--store", str(folder), "--student", pair.student_id,
         "--subject", pair.subject_id, "What is osmosis?", "--system", SYSTEM,
         "--material", f"@{material}", "--assessment", "No assessment results.", "--json"]
    )  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["title"] for s in out["sections"]] == ["System", "Memory", "Material", "Question"]
    assert out["memory_ids"] and "No assessment results" not in out["prompt"]


# --- 4. re-derivation, an operator action -----------------------------------------------------


def test_rederiving_through_the_api_retires_and_replays_once_and_is_logged(
    app: App,
    api: Api,
    pair: Pair,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    head = app.memory.verify_chain(pair).head_hash
    status, same = api("POST", "/beliefs/rederive", {})
    assert status == 200 and same == {"retired": 0, "created": 0, "generation": 0, "changed": False}

    monkeypatch.setattr(beliefs_module, "RULE_VERSION", beliefs_module.RULE_VERSION + 1)
    with caplog.at_level(logging.INFO, logger="tutor_memory.usecases.learning"):
        status, done = api("POST", "/beliefs/rederive", {"reason": "new topic rule"})
    assert status == 200 and done["changed"] and done["retired"] == 2 and done["generation"] == 1
    # logged as done, not why: the reason is a teacher's or a student's words
    assert "re-derivation of" in caplog.text and "new topic rule" not in caplog.text
    status, again = api("POST", "/beliefs/rederive", {"reason": "a retry"})
    assert status == 200 and not again["changed"] and again["generation"] == 1
    assert app.memory.verify_chain(pair).head_hash == head  # no episode touched
    assert len(app.learning.beliefs(pair)) == 2


@pytest.mark.usefixtures("cli_env")
def test_the_rederive_command_says_what_it_did(
    app: App, folder: Path, pair: Pair, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["rederive", "--store", str(folder), "--student", pair.student_id,
            "--subject", pair.subject_id]  # fmt: skip
    assert main(args) == 0
    assert "nothing changed" in capsys.readouterr().out
    assert main([*args, "--force", "--reason", "audit"]) == 0
    assert "2 beliefs retired" in capsys.readouterr().out


# --- 5. removing a file -----------------------------------------------------------------------


def test_removing_a_file_through_the_api_labels_the_answers_that_cited_it(
    app: App, api: Api, pair: Pair
) -> None:
    status, answer = api(
        "POST",
        "/episodes",
        {"kind": "answer", "text": "Osmosis moves water across a membrane (page 3).",
         "citation": {"file_id": "cell-biology.pdf", "page": 3}},
    )  # fmt: skip
    assert status == 201
    status, removed = api("DELETE", "/files/cell-biology.pdf")
    assert status == 200 and removed["file_id"] == "cell-biology.pdf" and removed["removed_at"]
    status, turn = api("POST", "/turn", {"question": "osmosis membrane page 3"})
    assert answer["id"] in turn["memory_ids"]
    assert "[note: the file this cited has since been removed]" in turn["block"]
    status, missing = api("DELETE", "/files/no-such-file.pdf")
    assert status == 404 and "no-such-file.pdf" in json.dumps(missing)


@pytest.mark.usefixtures("cli_env")
def test_the_remove_file_command_removes_it_from_the_registry(
    app: App, folder: Path, pair: Pair, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["remove-file", "--store", str(folder), "--student", pair.student_id,
            "--subject", pair.subject_id, "plant-and-animal-cells.md"]  # fmt: skip
    assert main(args) == 0
    assert "removed" in capsys.readouterr().out
    record = app.ports.store.file(pair, "plant-and-animal-cells.md")
    assert record is not None and record.removed
    assert main([*args[:-1], "nothing.md"]) == 1  # an unknown file: not found, said plainly


# --- 6. the self-model's calibration in the block ---------------------------------------------


def test_the_block_says_whether_confidence_is_calibrated_as_the_nightly_self_model_knows(
    app: App, api: Api, pair: Pair
) -> None:
    _, before = api("POST", "/turn", {"question": "what did I get wrong so far?"})
    assert "treat it as a ranking, not a probability" in before["block"]
    for day, verdict in enumerate(("right", "wrong", "right", "right", "wrong"), start=1):
        status, _ = api(
            "POST",
            "/episodes",
            {"kind": "check", "text": "Check on osmosis", "at": f"2026-11-0{day}T10:00:00Z",
             "check": {"topic": "osmosis", "verdict": verdict, "predicted_mastery": 0.6}},
        )  # fmt: skip
        assert status == 201
    _, unchanged = api("POST", "/turn", {"question": "what did I get wrong so far?"})
    assert "treat it as a ranking" in unchanged["block"]  # the night has not run yet
    app.nightly.run(datetime(2026, 11, 5, tzinfo=UTC).date())
    _, after = api("POST", "/turn", {"question": "what did I get wrong so far?"})
    line = next(ln for ln in after["block"].splitlines() if ln.startswith("Confidence is"))
    assert line.startswith("Confidence is calibrated: 7 checks carried a prediction by 2026-11-05")
    assert after["tokens"] <= app.settings.block_budget_tokens


# --- 7. inflected names are one concept --------------------------------------------------------

ACIDS_AND_BASES = """# Acids and bases

## Acids

An acid is a substance that releases hydrogen ions in water.

## Bases

A base is a substance that accepts hydrogen ions. A base neutralises an acid.

## Indicators

An indicator is a dye whose colour shows where a solution lies on the pH scale.

## The pH scale

The pH scale measures how acidic or basic a solution is, from 0 to 14.
"""


@pytest.mark.usefixtures("cli_env")
def test_singular_definitions_under_plural_headings_make_one_node_each(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "acids-and-bases.md"
    notes.write_text(ACIDS_AND_BASES, encoding="utf-8")
    pair = ["--store", str(folder), "--student", "s-7", "--subject", "chemistry"]
    build_app(on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder))
    assert main(["ingest", *pair, str(notes)]) == 0
    capsys.readouterr()
    assert main(["map", *pair]) == 0
    shown = capsys.readouterr().out
    names = [line[2:].split(":")[0] for line in shown.splitlines() if line.startswith("- ")]
    assert sorted(names) == ["Acids", "Bases", "Indicators", "pH scale"]  # the author's casing
    assert "builds on: Bases" not in shown  # a concept never builds on its own other form
    assert "(builds on: Acids)" in shown


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("Remember that a buffer resists changes in pH", "buffer"),
        ("Recuerda que un tampón resiste los cambios de pH", "tampón"),
        ("Ingat bahwa larutan penyangga menahan perubahan pH", "larutan penyangga"),
        ("یاد رکھو کہ بفر pH کی تبدیلی کو روکتا ہے", "بفر"),
        ("تذكر أن المحلول المنظم يقاوم تغيرات الحموضة", "المحلول المنظم"),
    ],
)
def test_a_taught_note_names_its_new_concept_by_the_noun_phrase_it_is_about(
    api: Api, app: App, pair: Pair, message: str, name: str
) -> None:
    status, taught = api("POST", "/episodes", {"kind": "taught", "text": message})
    assert status == 201 and taught["taught"] == name
    episode = app.memory.episode(pair, taught["id"])
    assert episode.text == message  # the student's whole sentence is the episode


# --- 8. prerequisites across files -------------------------------------------------------------


@pytest.mark.usefixtures("cli_env")
def test_a_concept_defined_with_another_files_concept_builds_on_it(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    membrane = tmp_path / "membranes.md"
    membrane.write_text(
        "# Membranes\n\n## Cell membrane\n\nThe cell membrane is the thin layer around a cell.\n",
        encoding="utf-8",
    )
    water = tmp_path / "water.md"
    water.write_text(
        "# Water\n\n## Osmosis\n\nOsmosis is the movement of water across a cell membrane.\n",
        encoding="utf-8",
    )
    pair = ["--store", str(folder), "--student", "s-7", "--subject", "biology"]
    build_app(on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "none"}), folder))
    assert main(["ingest", *pair, str(water)]) == 0
    assert main(["ingest", *pair, str(membrane)]) == 0
    capsys.readouterr()
    assert main(["map", *pair]) == 0
    shown = capsys.readouterr().out
    osmosis = next(line for line in shown.splitlines() if line.startswith("- Osmosis:"))
    assert osmosis.endswith("(builds on: Cell membrane)")
    membrane_line = next(line for line in shown.splitlines() if line.startswith("- Cell membrane"))
    assert "builds on" not in membrane_line


# --- 9. a taught note is stored as its claim, the sentence as the episode ----------------------

POWERHOUSE = "Remember that in our class we call the mitochondria the powerhouse of the cell"
POWERHOUSE_CLAIM = "mitochondria = the powerhouse of the cell"


def test_a_remember_that_question_puts_its_claim_on_the_map_and_in_the_block(
    api: Api, app: App, pair: Pair
) -> None:
    status, taught = api("POST", "/episodes", {"kind": "question", "text": POWERHOUSE})
    assert status == 201 and taught["kind"] == "taught" and taught["taught"] == "Mitochondria"
    assert app.memory.episode(pair, taught["id"]).text == POWERHOUSE  # the whole sentence

    status, cmap = api("GET", "/map")
    notes = {c["name"]: c["taught_note"] for c in cmap["concepts"]}
    assert status == 200 and notes["Mitochondria"] == POWERHOUSE_CLAIM

    status, turn = api("POST", "/turn", {"question": "What did I teach you about mitochondria?"})
    assert status == 200 and taught["id"] in turn["memory_ids"]
    mitochondria = next(line for line in map_lines(turn["block"]) if "- Mitochondria:" in line)
    assert f"[taught: {POWERHOUSE_CLAIM}]" in mitochondria
    assert f"the student taught you: {POWERHOUSE_CLAIM}" in turn["block"]
    assert "we call the mitochondria" not in turn["block"]  # the framing is gone everywhere


@pytest.mark.parametrize(
    ("message", "claim"),
    [
        (POWERHOUSE, POWERHOUSE_CLAIM),
        (
            "Recuerda que en nuestra clase llamamos a la mitocondria la central de la célula",
            "mitocondria = la central de la célula",
        ),
        (
            "Ingat bahwa di kelas kami, kami menyebut mitokondria sebagai pembangkit tenaga sel",
            "mitokondria = pembangkit tenaga sel",
        ),
        (
            "یاد رکھو کہ ہماری کلاس میں ہم مائٹوکونڈریا کو خلیے کا پاور ہاؤس کہتے ہیں",
            "مائٹوکونڈریا = خلیے کا پاور ہاؤس",
        ),
        (
            "تذكر أننا في صفنا نسمي الميتوكوندريا محطة الطاقة",
            "الميتوكوندريا = محطة الطاقة",
        ),
        # no claim pattern: the note is the sentence without its "remember that"
        ("Remember that osmosis needs no energy", "osmosis needs no energy"),
    ],
)
def test_a_taught_note_is_its_claim_and_the_episode_keeps_the_sentence_in_each_language(
    api: Api, app: App, pair: Pair, message: str, claim: str
) -> None:
    status, taught = api("POST", "/episodes", {"kind": "taught", "text": message})
    assert status == 201 and taught["taught"]
    episode = app.memory.episode(pair, taught["id"])
    assert episode.text == message
    assert getattr(episode.evidence, "note", None) == claim
    status, cmap = api("GET", "/map")
    notes = {c["name"]: c["taught_note"] for c in cmap["concepts"]}
    assert notes[taught["taught"]] == claim


@pytest.mark.usefixtures("cli_env")
def test_the_teach_command_stores_the_claim_and_the_log_keeps_the_sentence(
    app: App, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = ["--store", str(folder), "--student", "student-1", "--subject", "biology"]
    said = "Remember that in our class we call the cytoplasm the sugar factory"
    assert main(["teach", *pair, said]) == 0
    assert "cytoplasm = the sugar factory" in capsys.readouterr().out
    assert main(["map", *pair]) == 0
    cytoplasm = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("- Cytoplasm:")
    )
    assert "[taught: cytoplasm = the sugar factory]" in cytoplasm
    assert main(["log", *pair, "--json"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["kind"] == "taught" and last["text"] == said
    assert main(["ask", *pair, "What did I teach you about cytoplasm?"]) == 0
    assert "the student taught you: cytoplasm = the sugar factory" in capsys.readouterr().out
