"""`tutor-memory verify` and `tutor-memory migrate` on an embedded store written before erasures
had entries in the chain (erased through the store alone, as that release did)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor_memory.domain.episodes import Kind

from .test_anchored_checkpoints import MORNING, PAIR, cli, open_app, write


def test_verify_says_to_migrate_and_migrate_makes_the_chain_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tm"
    app = open_app(folder, MORNING)
    write(app, PAIR, MORNING, n=5)
    app.ports.store.erase(PAIR, [2], at=MORNING, reason="typed by mistake",
                          requested_by="api", scope="episode")  # fmt: skip
    app.close()
    where = ["--store", str(folder), "--student", PAIR.student_id, "--subject", PAIR.subject_id]

    code, out, _ = cli(capsys, "verify", *where)
    assert code == 1
    assert out.startswith("not verified from episode 2: erasure made before entries were kept: "
                          "run tutor-memory migrate")  # fmt: skip
    assert "broken" not in out

    code, out, _ = cli(capsys, "migrate", "--store", str(folder))
    assert code == 0, out
    assert "1 erasure records made before entries were kept now have their entry (episode 6)" in (
        out
    )
    assert "a checkpoint anchored" in out and out.endswith("1 of 1 pairs with erasure records "
                                                           "migrated\n")  # fmt: skip

    code, out, _ = cli(capsys, "verify", *where)
    assert code == 0 and out.startswith("intact: 6 episodes (1 of them an erasure entry), 1 erased")
    code, out, _ = cli(capsys, "migrate", "--store", str(folder))
    assert code == 0 and "nothing to migrate" in out
    app = open_app(folder, MORNING)
    assert app.memory.history(PAIR)[-1].kind is Kind.ERASURE
    app.close()
