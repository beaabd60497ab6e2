"""Three identities fuzz one server (issue 27): no response carries another tenant's or another
student's data.

A store of tenant ``north`` holds two students' pairs, each with words found nowhere else (a
marker in every text, in each of the five languages). Schemathesis then runs every operation of
the OpenAPI document three times against the same ``serve``, each time as one caller with an
API key of its own:

* ``north``'s service — may read both students: the run must show both markers (else the fuzz
  never reached the data, and the other two runs prove nothing);
* ``south``'s service — another tenant: no marker may appear in any answer;
* ``amira``, a student of ``north`` — her own pairs only: her marker may appear, Ben's never.

Nine in ten requests name a seeded student, the subject, an answer, a concept (schemathesis'
dictionaries), so each identity's requests reach the rules about whose pair it is, not only a
404 for an id nobody wrote; the erasures run last, after every identity's reads. The answer ids
differ from run to run, so the generated cases do too. Any 5xx fails the run. Every response
schemathesis recorded (its HAR report), headers and body, is searched; a marker the request
itself sent (a concept named in the path, echoed by a 404) is not a leak.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from tutor_memory.api.local_server import make_server
from tutor_memory.api.operations import OPERATIONS
from tutor_memory.api.routes import build_resolver
from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.access import Role
from tutor_memory.domain.episodes import Pair
from tutor_memory.settings import Settings, on_folder

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "infra" / "openapi.json"
SEED = int(os.environ.get("TUTOR_MEMORY_FUZZ_SEED", "20260302"))
LONG = os.environ.get("TUTOR_MEMORY_FUZZ_LONG") == "1"  # `make fuzz`
CASES = int(os.environ.get("TUTOR_MEMORY_FUZZ_IDENTITY_CASES", "40" if LONG else "4"))
TENANT, OTHER_TENANT = "north", "south"
SUBJECT = "biology"
AMIRA, BEN = "amira", "ben"
# Words no request can make up: each student's, in every text of theirs.
MARKERS = {AMIRA: "zqamiraxv", BEN: "zqbenxv"}
LINES = {  # what each student said, in the five languages, the marker inside
    "en": "My notes on osmosis say {m} water moves to the salty side.",
    "es": "Mis apuntes sobre la ósmosis dicen {m} que el agua va al lado salado.",
    "id": "Catatanku tentang osmosis bilang {m} air pindah ke sisi yang asin.",
    "ur": "اوسموسس پر میرے نوٹس کہتے ہیں {m} پانی نمکین طرف جاتا ہے۔",
    "ar": "ملاحظاتي عن التناضح تقول {m} إن الماء ينتقل إلى الجهة المالحة.",
}


@dataclass(frozen=True)
class Identity:
    name: str
    key: str
    must_see: tuple[str, ...]  # markers the run must show (it reached the data)
    never: tuple[str, ...]  # markers no answer may carry


def seed(app: App) -> dict[str, str]:
    """Both students' pairs: a line per language, an answer, a check (a belief on a concept
    named with the marker) — the student's id → an answer id of theirs."""
    answers = {}
    for student, marker in MARKERS.items():
        pair = Pair(student, SUBJECT)
        asked = [
            app.episodes.add(pair, "question", line.format(m=marker)).append.episode.episode_id
            for line in LINES.values()
        ]
        answer = app.episodes.add(pair, "answer", f"Right, {marker}: water moves by osmosis.",
                                  recalled_ids=asked[:1])  # fmt: skip
        app.episodes.add(pair, "check", f"Which way does water move? {marker}",
                         evidence={"topic": f"osmosis {marker}", "verdict": "wrong"})  # fmt: skip
        answers[student] = answer.append.episode.episode_id
    return answers


@dataclass(frozen=True)
class Served:
    url: str
    identities: list[Identity]
    answers: dict[str, str]  # a student → an answer id of theirs


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("fuzz-identities") / "tm"
    app = build_app(on_folder(Settings(embedder="none", tenant=TENANT), folder))
    app.turns.deadline_s = 600.0  # a busy machine must not turn into a dropped block
    answers = seed(app)
    _, north = app.access.create_key(TENANT, Role.SERVICE, "tutor-backend")
    _, south = app.access.create_key(OTHER_TENANT, Role.SERVICE, "tutor-backend")
    _, amira = app.access.create_key(TENANT, Role.STUDENT, AMIRA)
    identities = [
        Identity("north service", north, (MARKERS[AMIRA], MARKERS[BEN]), ()),
        Identity("south service", south, (), (MARKERS[AMIRA], MARKERS[BEN])),
        Identity("amira (student)", amira, (MARKERS[AMIRA],), (MARKERS[BEN],)),
    ]
    server = make_server(build_resolver(lambda: app, anonymous=None), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_port}", identities, answers)
    finally:
        server.shutdown()
        server.server_close()
        app.close()


ERASURES = {"eraseEpisode", "erasePair", "eraseStudent"}


def config(answers: dict[str, str], operations: list[str]) -> str:
    """Nine in ten of each operation's requests name a seeded student, the subject, an answer,
    a concept: the run is about whose pair it reaches, not about ids nobody wrote."""
    dictionaries = {
        "students": [AMIRA, BEN],
        "subjects": [SUBJECT],
        "answers": sorted(answers.values()),
        "concepts": [f"osmosis {m}" for m in MARKERS.values()],
    }
    bindings = {
        "path.student_id": "students",
        "path.subject_id": "subjects",
        "path.answer_id": "answers",
        "path.concept": "concepts",
    }
    lines = []
    for name, values in dictionaries.items():
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(values)}", ""]
    lines += ["[[operations]]",
              f"include-operation-id = {json.dumps(operations)}",
              "[operations.parameters]"]  # fmt: skip
    lines += [f'"{k}" = {{ dictionary = "{v}", probability = 0.9 }}' for k, v in bindings.items()]
    return "\n".join(lines) + "\n"


def run(
    url: str, identity: Identity, settings: Path, har: Path, operations: list[str]
) -> subprocess.CompletedProcess[str]:
    """Schemathesis over ``operations`` only: the config file's ``[[operations]]`` table sets
    their parameters but selects nothing (an erasure ran in the reads' phase and emptied a
    student's record before her own run, so her run never met her words)."""
    selected = [flag for name in operations for flag in ("--include-operation-id", name)]
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file", str(settings),
        "run", str(SCHEMA), "--url", url, *selected,
        "-H", f"Authorization: Bearer {identity.key}",
        "--seed", str(SEED), "--max-examples", str(CASES), "--checks", "not_a_server_error",
        "--phases", "examples,fuzzing", "--no-shrink", "--workers", "1",
        "--continue-on-failure", "--request-timeout", "60", "--suppress-health-check", "all",
        "--report", "har", "--report-har-path", str(har),
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=1200, check=False)


def is_erasure(entry: dict[str, Any]) -> bool:
    """A DELETE of a pair, an episode or a student (not a profile's aspect, not a file)."""
    request = entry["request"]
    path = urlsplit(request["url"]).path
    return request["method"] == "DELETE" and "/profile/" not in path and "/files/" not in path


def asked(entry: dict[str, Any]) -> str:
    """What the request itself said (its path, query and body): words an answer may echo."""
    request = entry["request"]
    return f"{unquote(request['url'])}\n{(request.get('postData') or {}).get('text') or ''}"


def shown(entry: dict[str, Any], marker: str) -> bool:
    """The answer carries the marker, and not as an echo of the request's own words."""
    return marker in answered(entry) and marker not in asked(entry)


def answered(entry: dict[str, Any]) -> str:
    """What the server sent back: its headers and its body."""
    response = entry["response"]
    headers = " ".join(f"{h['name']}: {h['value']}" for h in response.get("headers", []))
    return f"{headers}\n{response.get('content', {}).get('text') or ''}"


def test_three_identities_never_see_another_tenants_or_students_data(
    served: Served, tmp_path: Path
) -> None:
    # The erasures last, every identity's reads first: the service (and a student, her own) may
    # erase the seeded records, which would leave the other runs nothing to read.
    names = sorted(op.name for op in OPERATIONS)
    phases = [[n for n in names if n not in ERASURES], [n for n in names if n in ERASURES]]
    entries: dict[str, list[dict[str, Any]]] = {i.name: [] for i in served.identities}
    for p, operations in enumerate(phases):
        for n, identity in enumerate(served.identities):
            settings, har = tmp_path / f"run-{p}-{n}.toml", tmp_path / f"run-{p}-{n}.har"
            settings.write_text(config(served.answers, operations), encoding="utf-8")
            done = run(served.url, identity, settings, har, operations)
            assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
            ran = json.loads(har.read_text())["log"]["entries"]
            if p == 0:  # the reads' phase erased nothing
                assert not [e for e in ran if is_erasure(e)], identity.name
            entries[identity.name] += ran
    summary = []
    for identity in served.identities:
        answers = entries[identity.name]
        statuses = Counter(e["response"]["status"] for e in answers)
        seen = Counter(m for e in answers for m in MARKERS.values() if shown(e, m))
        leaked = [
            f"{e['request']['method']} {e['request']['url']} → {e['response']['status']}"
            for e in answers
            if any(shown(e, m) for m in identity.never)
        ]
        summary.append(
            f"{identity.name}: {len(answers)} requests {dict(sorted(statuses.items()))}, "
            f"answers holding a marker {dict(seen)}"
        )
        assert not leaked, f"{identity.name} was shown another's data:\n" + "\n".join(leaked[:20])
        assert not [s for s in statuses if s >= 500 or s == 0], (identity.name, statuses)
        for marker in identity.must_see:
            assert seen[marker], f"{identity.name} never reached {marker}: {summary[-1]}"
    print("\nidentities: " + "\n  ".join(summary))
