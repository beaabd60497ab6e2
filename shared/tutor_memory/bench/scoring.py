"""Scorers: string and id comparisons on the block — never an opinion, never a model.

A scorer gets a question's category, its gold (from ``questions``) and what one design put in
the block (text and memory ids), and returns a verdict with the reason in words, so that
failures can be read, not only counted. Text is compared folded (NFKC, case-folded, spaces
collapsed), so "Osmosis" in a map line and "osmosis" in a check line are the same word.

Prerequisites mind the direction: X's prerequisites are stated only by X's own map line
("- X: … (builds on: Y, Z)") or by a sentence "X builds on Y" (``phrasing.PREREQUISITE_PROSE``,
in five languages). A block that shows only "- W: … (builds on: X)" tells what builds on X —
the opposite of what to revise before it — and fails with that reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tutor_memory.bench.designs import DesignBlock
from tutor_memory.bench.phrasing import PREREQUISITE_PROSE
from tutor_memory.domain.concepts import concept_key

GIST_CHARS: Final = 80  # a gist counts when its first 80 characters are in the block
NO_RECORD_START: Final = "there is no record"
_WORK_LINE = re.compile(r"^- \d{1,2} [A-Z][a-z]{2}.* · ")


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def score(category: str, gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    scorer = _SCORERS.get(category)
    if scorer is None:
        raise ValueError(f"no scorer for category {category!r}")
    return scorer(gold, block)


# --- explain ----------------------------------------------------------------------------------


def score_explain(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    text = fold(block.text)
    if fold(gold["gist"])[:GIST_CHARS] in text:
        return Verdict(True, "the concept's definition is in the block")
    name = fold(gold["concept"])
    if name and name in text:
        return Verdict(False, f"{gold['concept']} is named but its definition is not shown")
    return Verdict(False, f"{gold['concept']} is not in the block at all")


# --- prerequisites ----------------------------------------------------------------------------


def map_edges(text: str) -> dict[str, set[str]]:
    """X → the names X's own map line says it builds on, folded."""
    edges: dict[str, set[str]] = {}
    for line in text.splitlines():
        if not line.startswith("- ") or ":" not in line or not line.endswith(")"):
            continue
        at = line.rfind("(builds on: ")
        if at < 0:
            continue
        name = fold(line[2 : line.index(":")])
        needs = line[at + len("(builds on: ") : -1].split(", ")
        edges.setdefault(name, set()).update(fold(n) for n in needs)
    return edges


def stated_prerequisites(text: str, concept: str, candidates: Iterable[str]) -> set[str]:
    """Which of ``candidates`` the block states as prerequisites of ``concept`` (folded)."""
    folded = fold(text)
    x = fold(concept)
    stated = set(map_edges(text).get(x, set()))
    for y in candidates:
        for template in PREREQUISITE_PROSE.values():
            if fold(template.format(x=concept, y=y)) in folded:
                stated.add(fold(y))
    return stated


def score_prerequisites(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    concept: str = gold["concept"]
    needs: Sequence[str] = gold["prerequisites"]
    dependents: Sequence[str] = gold.get("dependents", [])
    stated = stated_prerequisites(block.text, concept, needs)
    missing = [y for y in needs if fold(y) not in stated]
    if not missing:
        return Verdict(True, f"states every prerequisite of {concept}: {', '.join(needs)}")
    if len(missing) < len(needs):
        found = [y for y in needs if fold(y) in stated]
        return Verdict(
            False, f"states {', '.join(found)} but not {', '.join(missing)} as {concept}'s"
        )
    backwards = [
        d for d in dependents if fold(concept) in stated_prerequisites(block.text, d, [concept])
    ]
    if backwards:
        return Verdict(
            False,
            f"wrong direction: shows what builds on {concept} ({', '.join(backwards)}), "
            f"not what {concept} builds on",
        )
    if any(line.startswith("SUBJECT MAP") for line in block.text.splitlines()):
        return Verdict(False, f"the map is shown but {concept}'s line is not (cut by the budget)")
    return Verdict(False, f"no prerequisite of {concept} is stated")


# --- what did I get wrong ---------------------------------------------------------------------


# A check's line: its topic and verdict, then its repeats, the tutor's note of a miss ("; you
# noted: Not quite: …", which may hold ": ") or a correction's note.
_CHECK_LINE: Final = re.compile(r" · check on (?P<topic>.+?): (?P<verdict>right|wrong)(?=;| \(|$)")


def shown_as_wrong(text: str, concept: str) -> bool:
    """A belief "struggles with X", or an earlier-work check on X whose verdict is wrong.
    Names match as whole canonical words: "ion" is not inside "ionic bond"."""
    key = f" {concept_key(concept)} "
    for line in text.splitlines():
        if line.startswith("- struggles with ") and " (" in line:
            name = line[len("- struggles with ") : line.rindex(" (")]
            if f" {concept_key(name)} " == key:
                return True
        checked = _CHECK_LINE.search(line) if _WORK_LINE.match(line) else None
        if (
            checked
            and checked["verdict"] == "wrong"
            and key in f" {concept_key(checked['topic'])} "
        ):
            return True
    return False


def score_wrong(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    concepts: Sequence[str] = gold["concepts"]
    missing = [c for c in concepts if not shown_as_wrong(block.text, c)]
    if not missing:
        return Verdict(True, f"every missed concept is shown as missed ({len(concepts)})")
    return Verdict(
        False,
        f"{len(missing)} of {len(concepts)} missed concepts not shown as missed: "
        + ", ".join(missing),
    )


# --- months -----------------------------------------------------------------------------------


def score_active_month(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    shown = set(block.memory_ids)
    wanted = set(gold["episode_ids"])
    allowed = set(gold["allowed_ids"])
    found = shown & wanted
    outside = shown - allowed
    if not found:
        return Verdict(False, f"no episode of {gold['label']} is shown")
    if outside:
        return Verdict(
            False,
            f"shows {len(found)} episodes of {gold['label']} and {len(outside)} from other "
            "months as if they were",
        )
    return Verdict(
        True, f"shows {len(found)} of {len(wanted)} episodes of {gold['label']}, none else"
    )


def no_record_line(text: str, label: str) -> bool:
    return any(
        fold(line).startswith(NO_RECORD_START) and fold(label) in fold(line)
        for line in text.splitlines()
    )


def score_empty_month(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    says = no_record_line(block.text, gold["label"])
    work = [line for line in block.text.splitlines() if _WORK_LINE.match(line)]
    if says and not block.memory_ids and not work:
        return Verdict(True, f"says there is no record of {gold['label']} and shows no episode")
    if not says:
        extra = f"; shows {len(work)} episodes instead" if work else ""
        return Verdict(False, f"no explicit no-record line for {gold['label']}{extra}")
    return Verdict(False, f"says there is no record but shows {len(work)} episodes anyway")


# --- taught -----------------------------------------------------------------------------------


def score_taught(gold: Mapping[str, Any], block: DesignBlock) -> Verdict:
    if fold(gold["note"]) in fold(block.text):
        where = "a recalled episode" if gold.get("episode_id") in block.memory_ids else "the map"
        return Verdict(True, f"the taught note is in the block (from {where})")
    if fold(gold["concept"]) in fold(block.text):
        return Verdict(False, f"{gold['concept']} is shown without the note taught about it")
    return Verdict(False, "the taught note is not in the block")


_SCORERS: Final = {
    "explain": score_explain,
    "prerequisites": score_prerequisites,
    "wrong": score_wrong,
    "active_month": score_active_month,
    "empty_month": score_empty_month,
    "taught": score_taught,
}
