"""The scenario runner (``tutor-memory scenarios``; the test suite runs it too): SPEC §7, §12.

One student in the sample subject (cell biology, its real files) with a seeded history —
June, July, August, September and November; nothing in October — and four scenarios, each
asked in five languages, each PASS or FAIL with the reason in words:

* **july** — a July conversation about osmosis sits among osmosis talk in June, August and
  November. "What did we cover in July about osmosis?" passes only if every July osmosis
  memory is in the block's ``memory_ids`` and nothing from another month is.
* **empty_month** — "What did we do in October?" passes only if the block says there is no
  record of October 2026 and shows no episode (no ids, no earlier-work line).
* **narration** — the tutor's own "In July we covered …" answers exist (one at the end of July,
  one in August), each stored with the July memories it was built from. Asked about July, the
  block must show those July sources and neither narration.
* **record_question** — "What did I get wrong so far?": the record line first, then beliefs,
  then earlier work, then the map last; every concept with a missed check appears in the
  beliefs as "struggles with …".

The checks are pure functions of the block (``check_*``), so the tests can also show that
each one fails on a block that gets it wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from tutor_memory.bench.builder import EmbedderChoice, open_app
from tutor_memory.bootstrap import App
from tutor_memory.domain.block import BELIEFS_HEADER, RECORD_LINE, WORK_HEADER
from tutor_memory.domain.episodes import CheckEvidence, Kind, Pair, Verdict
from tutor_memory.samples import sample_subject

NOW: Final = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PAIR: Final = Pair("scenario-student", "biology")

QUESTIONS: Final[dict[str, dict[str, str]]] = {
    "july": {
        "en": "What did we cover in July about osmosis?",
        "es": "¿Qué vimos en julio sobre la ósmosis?",
        "id": "Apa yang kita bahas di bulan Juli tentang osmosis?",
        "ur": "جولائی میں ہم نے Osmosis کے بارے میں کیا پڑھا؟",
        "ar": "ماذا درسنا في يوليو عن Osmosis؟",
    },
    "empty_month": {
        "en": "What did we do in October?",
        "es": "¿Qué hicimos en octubre?",
        "id": "Apa yang kita bahas di bulan Oktober?",
        "ur": "اکتوبر میں ہم نے کیا کیا؟",
        "ar": "ماذا فعلنا في أكتوبر؟",
    },
    "narration": {
        "en": "What did we cover in July?",
        "es": "¿Qué vimos en julio?",
        "id": "Apa yang kita bahas di bulan Juli?",
        "ur": "جولائی میں ہم نے کیا پڑھا؟",
        "ar": "ماذا درسنا في يوليو؟",
    },
    "record_question": {
        "en": "What did I get wrong so far?",
        "es": "¿Qué hice mal hasta ahora?",
        "id": "Apa kesalahan saya sejauh ini?",
        "ur": "میں نے اب تک کیا غلط کیا؟",
        "ar": "ماذا أخطأت حتى الآن؟",
    },
}
SCENARIOS: Final = tuple((name, lang) for name, by_lang in QUESTIONS.items() for lang in by_lang)
EMPTY_MONTH_LABEL: Final = "October 2026"
_WORK_LINE = re.compile(r"^- \d{1,2} [A-Z][a-z]{2}.* · ")


@dataclass(frozen=True)
class ScenarioResult:
    name: str
    language: str
    question: str
    passed: bool
    reason: str


@dataclass
class Seeded:
    """The ids the scenarios check against."""

    july_osmosis: list[str] = field(default_factory=list)  # the July conversation about X
    july: list[str] = field(default_factory=list)  # every July episode but the narration
    narrations: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)  # concepts of missed checks


def _at(month: int, day: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, 15, minute, tzinfo=UTC)


def seed_history(app: App, pair: Pair = PAIR) -> Seeded:
    seeded = Seeded()
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=datetime(2026, 6, 1, tzinfo=UTC))

    def ask(text: str, at: datetime, concept: str, answer: str = "") -> list[str]:
        ids = [app.memory.record(pair, Kind.QUESTION, text, at=at, concepts=[concept]).episode]
        if answer:
            ids.append(
                app.memory.record(
                    pair, Kind.ANSWER, answer, at=at.replace(minute=at.minute + 1),
                    concepts=[concept],
                ).episode
            )  # fmt: skip
        return [e.episode_id for e in ids]

    def check(topic: str, verdict: Verdict, at: datetime, evaluation: str) -> str:
        evidence = CheckEvidence(topic, verdict, evaluation, 0.5)
        result = app.learning.record_check(pair, f"Check on {topic}", evidence, at=at)
        if verdict == "wrong" and result.topic is not None:
            seeded.missed.append(result.topic.name)
        return result.append.episode.episode_id

    osmosis = (
        "Osmosis: Osmosis is the movement of water across a partially permeable membrane, "
        "from a dilute solution to a more concentrated one."
    )
    # June: osmosis before July.
    ask("What is a cell?", _at(6, 10), "Cell", "Of course. Cell: the smallest unit of life.")
    ask("¿Qué es la ósmosis?", _at(6, 12), "Osmosis", "Claro. " + osmosis)
    # July: the conversation about osmosis, and other work.
    seeded.july_osmosis += ask(
        "Can we go over osmosis today? I keep mixing it up.", _at(7, 8), "Osmosis",
        "Of course. " + osmosis,
    )  # fmt: skip
    seeded.july_osmosis.append(
        check("osmosis", "wrong", _at(7, 8, 5), "Not quite: osmosis moves water, not salt.")
    )
    seeded.july += ask(
        "What is cytoplasm?", _at(7, 20), "Cytoplasm",
        "Of course. Cytoplasm: the jelly-like fluid that fills the cell.",
    )  # fmt: skip
    seeded.july.append(check("cytoplasm", "right", _at(7, 20, 5), "Correct: the gel in the cell."))
    seeded.july_osmosis += ask("Osmosis کیا ہے؟", _at(7, 22), "Osmosis")
    seeded.july += seeded.july_osmosis
    # The tutor narrates July twice: at the end of July, and in August.
    for text, at in (
        ("In July we covered osmosis and cytoplasm.", _at(7, 30)),
        ("In July we covered osmosis: water crossing a membrane.", _at(8, 3)),
    ):
        answer = app.turns.record_answer(pair, text, recalled_ids=seeded.july, at=at)
        seeded.narrations.append(answer.episode.episode_id)
    # August: osmosis again (not July), mitochondria missed.
    ask("Osmosis again please, the July example confused me.", _at(8, 4), "Osmosis")
    ask("What do mitochondria do?", _at(8, 5), "Mitochondria")
    check("mitochondria", "wrong", _at(8, 5, 5), "Not quite: mitochondria release energy.")
    # September: teaching, a missed check, a passed one.
    app.maps.teach(
        pair,
        "Remember that in our class we call the mitochondria the powerhouse of the cell",
        at=_at(9, 14),
    )
    ask("Apa itu sel?", _at(9, 15), "Cell")
    check("cell membrane", "wrong", _at(9, 15, 5), "Not quite: the membrane controls entry.")
    check("cytoplasm", "right", _at(9, 16), "Correct.")
    # October: nothing. November: osmosis missed again, a question in Arabic.
    ask("ما هي الخلية حقيقية النواة؟", _at(11, 10), "Eukaryotic cells")
    check("osmosis", "wrong", _at(11, 12), "Not quite: water moves, not the solute.")
    seeded.missed = sorted(set(seeded.missed))
    return seeded


# --- the checks (pure) ------------------------------------------------------------------------


def check_july(memory_ids: Sequence[str], seeded: Seeded) -> tuple[bool, str]:
    shown = set(memory_ids)
    missing = [i for i in seeded.july_osmosis if i not in shown]
    outside = sorted(shown - set(seeded.july))
    if missing:
        return False, f"{len(missing)} of {len(seeded.july_osmosis)} July osmosis memories missing"
    if outside:
        return False, f"{len(outside)} memories from outside July shown as July: {outside[:3]}"
    return True, f"all {len(seeded.july_osmosis)} July osmosis memories in memory_ids, none else"


def check_empty_month(block: str, memory_ids: Sequence[str], label: str) -> tuple[bool, str]:
    lines = block.splitlines()
    says = any(ln.startswith("THERE IS NO RECORD") and label in ln for ln in lines)
    work = [ln for ln in lines if _WORK_LINE.match(ln)]
    if not says:
        return False, f"no line says there is no record of {label}"
    if memory_ids or work or WORK_HEADER in block:
        return False, f"says no record, yet shows {len(work)} episodes ({len(memory_ids)} ids)"
    return True, f"says there is no record of {label} and shows no episode"


def check_narration(
    block: str,
    memory_ids: Sequence[str],
    seeded: Seeded,
    narrations: Sequence[tuple[str, Sequence[str]]],
) -> tuple[bool, str]:
    """``narrations``: (text, recalled ids) of each stored narration."""
    if not narrations or any(not ids for _text, ids in narrations):
        return False, "the narrations are not stored with their recalled memories"
    shown = set(memory_ids)
    leaked = [i for i in seeded.narrations if i in shown]
    if leaked or any(text in block for text, _ids in narrations):
        return False, "a narration is shown as if it were a memory of July"
    sources = {i for _text, ids in narrations for i in ids}
    missing = sources - shown
    if missing:
        return False, f"{len(missing)} of the narrated July sources are not in the block"
    return True, f"the {len(sources)} July sources are shown, neither narration is"


def check_record_question(block: str, record: bool, missed: Sequence[str]) -> tuple[bool, str]:
    lines = block.splitlines()
    if not record or len(lines) < 2 or lines[1] != RECORD_LINE:
        return False, "not answered as a record question (no record line first)"
    heads = [
        next((i for i, ln in enumerate(lines) if ln.startswith(h)), -1)
        for h in (BELIEFS_HEADER, WORK_HEADER, "SUBJECT MAP")
    ]
    if -1 in heads or heads != sorted(heads):
        return False, f"sections out of order (beliefs, earlier work, map at lines {heads})"
    beliefs = lines[heads[0] + 1 : heads[1]]
    absent = [
        c for c in missed if not any(ln.startswith(f"- struggles with {c} (") for ln in beliefs)
    ]
    if absent:
        return False, f"missed concepts not in the beliefs: {', '.join(absent)}"
    return True, f"record line, then beliefs ({', '.join(missed)} as struggles), work, map last"


# --- the runner -------------------------------------------------------------------------------


def run_scenarios(folder: Path, embedder: EmbedderChoice = "none") -> list[ScenarioResult]:
    app = open_app(folder, embedder, NOW)
    try:
        seeded = seed_history(app)
        return [run_one(app, seeded, name, lang) for name, lang in SCENARIOS]
    finally:
        app.close()


def run_one(app: App, seeded: Seeded, name: str, lang: str, pair: Pair = PAIR) -> ScenarioResult:
    question = QUESTIONS[name][lang]
    turn = app.turns.turn(pair, question, at=NOW)
    if turn.dropped:
        return ScenarioResult(name, lang, question, False, "the block was dropped at the deadline")
    if name == "july":
        passed, reason = check_july(turn.memory_ids, seeded)
    elif name == "empty_month":
        passed, reason = check_empty_month(turn.block, turn.memory_ids, EMPTY_MONTH_LABEL)
    elif name == "narration":
        stored = [app.memory.episode(pair, i) for i in seeded.narrations]
        passed, reason = check_narration(
            turn.block, turn.memory_ids, seeded, [(e.text, e.recalled_ids) for e in stored]
        )
    else:
        passed, reason = check_record_question(turn.block, turn.record_question, seeded.missed)
    return ScenarioResult(name, lang, question, passed, reason)
