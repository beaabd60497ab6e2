"""Erasure on the embedded store: a unique marker written, erased, and found nowhere (raw bytes
of every file: the store, the index, their WALs), while the chain still verifies."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor_memory.bootstrap import App, build_app
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.errors import NotFoundError, ValidationError
from tutor_memory.ports import FixedClock
from tutor_memory.settings import Settings, on_folder

T0 = datetime(2026, 7, 12, 15, 0, tzinfo=UTC)
PAIR = Pair("s-erase", "biology")
MARKER = "zorblaxquint"  # analysed, stemmed and indexed as itself


def make_app(folder: Path, clock: FixedClock, embedder: str = "none") -> App:
    return build_app(on_folder(Settings(embedder=embedder), folder), clock=clock)  # type: ignore[arg-type]


def raw_hits(folder: Path, needle: str) -> list[str]:
    """Every file under ``folder`` whose bytes contain ``needle`` (as UTF-8), as they are or
    inside a zlib stream (a concept map is stored compressed: a plain search never sees it)."""
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and holds(p.read_bytes(), needle.encode("utf-8"))
    )


def holds(data: bytes, needle: bytes) -> bool:
    """Whether ``data`` holds ``needle``, as it is or inside a zlib stream anywhere in it."""
    if needle in data:
        return True
    start = data.find(b"\x78")
    while start != -1:
        if data[start + 1 : start + 2] in (b"\x01", b"\x5e", b"\x9c", b"\xda"):
            try:
                if needle in zlib.decompressobj().decompress(data[start:], 1 << 24):
                    return True
            except zlib.error:
                pass
        start = data.find(b"\x78", start + 1)
    return False


def write_day(app: App, clock: FixedClock) -> dict[str, str]:
    """A day with the marker in a question, an answer and a check, then its night."""
    ids = {}
    ids["question"] = app.episodes.add(
        PAIR, Kind.QUESTION, f"What does {MARKER} mean for osmosis?", at=T0
    ).episode.episode_id
    ids["other"] = app.episodes.add(
        PAIR, Kind.QUESTION, "What is a cell membrane?", at=T0 + timedelta(minutes=1)
    ).episode.episode_id
    ids["check"] = app.episodes.add(
        PAIR,
        Kind.CHECK,
        f"Explain {MARKER}",
        evidence={"topic": "Osmosis", "verdict": "wrong", "evaluation": f"confused {MARKER}"},
        concepts=["Osmosis"],
        at=T0 + timedelta(minutes=2),
    ).episode.episode_id
    app.episodes.add(
        PAIR,
        Kind.CHECK,
        "Explain osmosis again",
        evidence={"topic": "Osmosis", "verdict": "right"},
        concepts=["Osmosis"],
        at=T0 + timedelta(minutes=3),
    )
    clock.at = T0 + timedelta(days=1)
    app.nightly.run_pair(PAIR, date(2026, 7, 12))
    return ids


BUCKET = "tm-uploads"


@contextmanager
def cloud_app(
    tmp_path: Path, clock: FixedClock, tenant: str = "default"
) -> Iterator[tuple[App, Any, Callable[[], bytes]]]:
    """The cloud configuration under moto (DynamoDB, a versioned uploads bucket, the embedded
    index in ``tmp_path``) for ``tenant``: the app, the S3 client, and ``everything()`` — every
    table item (a scan), every version of every object and every local file, as raw bytes."""
    import boto3
    from moto import mock_aws

    from tutor_memory.adapters.dynamo_store import DynamoStore

    table, region = "tm-erasure", "us-east-1"
    with mock_aws():
        DynamoStore(table, region).create_table()
        s3 = boto3.client("s3", region_name=region)
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        settings = Settings(
            backend="dynamodb",
            table_name=table,
            aws_region=region,
            embedder="none",
            index_path=tmp_path / "index.db",
            uploads_bucket=BUCKET,
            tenant=tenant,
        )

        def everything() -> bytes:
            items = boto3.client("dynamodb", region_name=region).scan(TableName=table)["Items"]
            blobs = [repr(items).encode()]
            # binary attributes as they are stored (a map is zlib-compressed: ``holds`` reads it)
            blobs += [v["B"] for item in items for v in item.values() if "B" in v]
            for page in s3.get_paginator("list_object_versions").paginate(Bucket=BUCKET):
                for v in page.get("Versions", []):
                    got = s3.get_object(Bucket=BUCKET, Key=v["Key"], VersionId=v["VersionId"])
                    blobs.append(v["Key"].encode() + got["Body"].read())
            blobs += [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()]
            return b"\n".join(blobs)

        yield build_app(settings, clock=clock), s3, everything


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


def test_an_erased_episode_leaves_no_byte_of_its_text_and_the_chain_still_verifies(
    tmp_path: Path, clock: FixedClock
) -> None:
    folder = tmp_path / "tm"
    app = make_app(folder, clock)
    ids = write_day(app, clock)
    before = app.memory.verify_chain(PAIR)
    assert before.intact and before.episodes == 5
    assert raw_hits(folder, MARKER)  # the marker is there to be found

    for key in ("question", "check"):
        assert app.erasing is not None
        app.erasing.erase_episode(PAIR, ids[key], reason="asked by the student")

    after = app.memory.verify_chain(PAIR)
    assert after.intact, str(after)
    # Each erasure erased the day's summary that quoted it and summarised the day again; each
    # erasure (of the episode, of the summary quoting it) wrote its entry in the chain first.
    assert after.episodes == 5 + 2 + 4
    assert (after.erased, after.entries) == (4, 4)
    assert str(after).startswith(
        "intact: 11 episodes (4 of them erasure entries), 4 erased (2026-07-13 'asked by the "
        "student' ×2; 2026-07-13 'quoted an erased episode (asked by the student)' ×2), head "
    )
    assert raw_hits(folder, MARKER) == []
    index = app.ports.index
    conn = index._conn  # type: ignore[union-attr]
    # FTS5's own vocabulary (read through a vocab table made for the look) and the postings.
    conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, doc_terms, 'row')")
    assert conn.execute("SELECT term FROM temp.vocab WHERE term = ?", (MARKER,)).fetchall() == []
    for table in ("postings", "term_stats", "pair_term_stats"):
        assert conn.execute(f"SELECT 1 FROM {table} WHERE term = ?", (MARKER,)).fetchall() == []
    # The envelopes stay: time, kind, sequence.
    erased = app.ports.store.get(PAIR, ids["question"])
    assert erased is not None and erased.erased and erased.text == ""
    assert (erased.seq, erased.kind, erased.at) == (1, Kind.QUESTION, T0)
    # The belief rested on the erased check: re-derived from the right one that remains.
    beliefs = app.learning.beliefs(PAIR)
    assert all(ids["check"] not in b.evidence_ids for b in beliefs)
    # Recall never brings an erased episode back.
    found = app.memory.recall(PAIR, f"what about {MARKER}?")
    assert found.items and all(not item.episode.erased for item in found.items)


def test_erasing_again_changes_nothing_and_an_unknown_id_is_not_found(
    tmp_path: Path, clock: FixedClock
) -> None:
    app = make_app(tmp_path / "tm", clock)
    ids = write_day(app, clock)
    assert app.erasing is not None
    first = app.erasing.erase_episode(PAIR, ids["other"], reason="mistake")
    again = app.erasing.erase_episode(PAIR, ids["other"], reason="mistake")
    assert first.to_dict()["episodes_erased"] == 1 and again.to_dict()["episodes_erased"] == 0
    assert app.memory.verify_chain(PAIR).erased == 2  # it, and the summary quoting it
    with pytest.raises(NotFoundError):
        app.erasing.erase_episode(PAIR, "e99-000000000000", reason="mistake")
    with pytest.raises(ValidationError):
        app.erasing.erase_episode(PAIR, ids["other"], reason="")


def test_a_student_erased_keeps_only_envelopes_in_every_subject(
    tmp_path: Path, clock: FixedClock
) -> None:
    folder = tmp_path / "tm"
    app = make_app(folder, clock)
    write_day(app, clock)
    chem = Pair(PAIR.student_id, "chemistry")
    app.episodes.add(chem, Kind.TAUGHT, f"Remember that {MARKER} is a buffer", at=T0)
    assert app.erasing is not None
    result = app.erasing.erase_student(PAIR.student_id, reason="leaving the school")
    assert sorted(result.erased) == [str(PAIR), str(chem)]
    assert raw_hits(folder, MARKER) == []
    for pair in (PAIR, chem):
        report = app.memory.verify_chain(pair)
        assert report.intact and report.erased + report.entries == report.episodes
    assert app.learning.beliefs(PAIR) == [] and app.maps.maps.load_map(chem).concepts == {}
    again = app.erasing.erase_student(PAIR.student_id, reason="leaving the school")
    assert again.to_dict()["episodes_erased"] == 0


def test_tampering_with_an_erasure_record_is_caught(tmp_path: Path, clock: FixedClock) -> None:
    app = make_app(tmp_path / "tm", clock)
    ids = write_day(app, clock)
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, ids["other"], reason="mistake")
    conn = app.ports.store._connection  # type: ignore[attr-defined]
    with conn() as c:
        c.execute("UPDATE erasures SET body = replace(body, 'mistake', 'routine') WHERE number = 1")
    report = app.memory.verify_chain(PAIR)
    assert (report.intact, report.break_kind) == (False, "erasure record changed")
    with conn() as c:
        c.execute("DELETE FROM erasures")
    assert app.memory.verify_chain(PAIR).break_kind in (
        "erasure record changed",
        "erased without a record",
    )


def test_on_dynamodb_and_s3_the_marker_is_in_no_item_and_no_object_version(
    tmp_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cloud configuration under moto: every table item (a scan) and every version of
    every object in the uploads bucket are read as raw bytes after the erasure."""
    with cloud_app(tmp_path, clock) as (app, s3, everything):
        key = f"uploads/{PAIR.student_id}/{PAIR.subject_id}/notes.txt"
        for body in (f"{MARKER} first draft", f"{MARKER} second draft"):  # two versions
            s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode())
        app.maps.ingest(PAIR, "notes.txt", "notes.txt", f"{MARKER} second draft".encode(), at=T0)
        write_day(app, clock)
        app.memory.annotate(
            PAIR, app.memory.history(PAIR)[0].episode_id, "stance", "partial", detail=MARKER
        )

        assert holds(everything(), MARKER.encode())
        assert app.erasing is not None
        result = app.erasing.erase_pair(PAIR, reason="parent's request", requested_by="school")
        assert result.objects_deleted == 2
        assert not holds(everything(), MARKER.encode())
        report = app.memory.verify_chain(PAIR)
        assert report.intact and report.erased + report.entries == report.episodes
        assert "'parent's request'" in str(report)
        again = app.erasing.erase_pair(PAIR, reason="parent's request")
        assert again.to_dict()["episodes_erased"] == 0 and app.memory.verify_chain(PAIR).intact


def test_the_report_lists_each_erasure_by_day_reason_requester_and_sequence(
    tmp_path: Path, clock: FixedClock
) -> None:
    from tutor_memory.usecases.reports import render_markdown, render_text, report_json

    app = make_app(tmp_path, clock)
    ids = write_day(app, clock)
    before = app.reports.report(PAIR)
    assert render_text(before).count("Nothing has been erased.") == 1
    app.erasing.erase_episode(PAIR, ids["other"], reason="typed by mistake", requested_by="tutor")
    report = app.reports.report(PAIR)
    text = render_text(report)
    assert "ERASURES (RECORDS KEPT BESIDE THE CHAIN)" in text
    # the night's summary quoted it, so it went too, with a record of its own
    assert "2 episodes erased" in text
    assert '- 13 Jul 2026: 1 episode (episode, asked by tutor) — "typed by mistake": #2' in text
    assert (
        '- 13 Jul 2026: 1 episode (derived, asked by tutor) — "quoted an erased episode '
        '(typed by mistake)": #5'
    ) in text
    assert "## Erasures (records kept beside the chain)" in render_markdown(report)
    body = report_json(report)["erasures"]
    assert body["erased"] == 2
    assert body["requests"][0] == {
        "at": "2026-07-13T15:00:00Z",
        "reason": "typed by mistake",
        "requested_by": "tutor",
        "scope": "episode",
        "seqs": [2],
    }
    assert [r["scope"] for r in body["requests"]] == ["episode", "derived"]
    assert MARKER not in text  # the report says what was erased, never what it said


BOOK_MD = """# Cells

## Osmosis

Osmosis is the movement of water across a membrane.

## Cell membrane

The cell membrane is a thin layer around the cell.
"""

MARKED_MD = f"""# Lopez notes

## Osmosis

Osmosis is the passage of water that {MARKER} wrote down.

## Turgor pressure

Turgor pressure is the push of {MARKER} water against the cell wall.
"""
MARKED_NAME = f"Maria_{MARKER}_notes.md"


def ingest_marked_file(app: App) -> str:
    """A book, then a Markdown file with the marker in its name and text (read after the book,
    so it re-explains osmosis and alone defines turgor pressure): its episode's id."""
    app.maps.ingest(PAIR, "book", "cells.md", BOOK_MD.encode(), at=T0)
    app.maps.ingest(PAIR, "maria-notes", MARKED_NAME, MARKED_MD.encode(), at=T0)
    arrivals = [e for e in app.memory.history(PAIR) if e.kind is Kind.FILE]
    return arrivals[-1].episode_id


def map_after_erasing_the_file(app: App) -> None:
    cmap = app.maps.maps.load_map(PAIR)
    assert "turgor pressure" not in cmap.concepts  # only that file defined it
    assert {"osmosis", "cell membrane"} <= set(cmap.concepts)  # the book defines them too
    assert {s.file_id for s in cmap.concepts["osmosis"].sources} == {"book"}
    assert MARKER not in str(cmap.to_dict()) and "maria" not in str(cmap.to_dict())
    assert all(k in cmap.concepts for layer in cmap.teaching_order for k in layer)
    assert [f.file_id for f in app.ports.store.files(PAIR)] == ["book"]
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.erased == 1, str(report)


def test_an_erased_file_arrival_takes_its_name_bytes_and_concepts_with_it(
    tmp_path: Path, clock: FixedClock
) -> None:
    folder = tmp_path / "tm"
    app = make_app(folder, clock)
    episode_id = ingest_marked_file(app)
    cmap = app.maps.maps.load_map(PAIR)
    assert "turgor pressure" in cmap.concepts and "maria-notes" in str(cmap.to_dict())
    assert raw_hits(folder, MARKER)  # the marker is there to be found (the kept copy's path)
    assert app.erasing is not None
    result = app.erasing.erase_episode(PAIR, episode_id, reason="uploaded by mistake")
    assert result.objects_deleted == 1
    assert raw_hits(folder, MARKER) == []
    assert not [p for p in folder.rglob("*") if MARKER in p.name]  # no file or folder name
    map_after_erasing_the_file(app)
    again = app.erasing.erase_episode(PAIR, episode_id, reason="uploaded by mistake")
    assert again.to_dict()["episodes_erased"] == 0
    # The same file read again is read afresh (its version is no longer registered).
    app.maps.ingest(PAIR, "maria-notes", MARKED_NAME, MARKED_MD.encode(), at=T0)
    assert "turgor pressure" in app.maps.maps.load_map(PAIR).concepts


def test_on_dynamodb_and_s3_an_erased_file_arrival_leaves_no_name_bytes_or_concepts(
    tmp_path: Path, clock: FixedClock
) -> None:
    with cloud_app(tmp_path, clock) as (app, s3, everything):
        prefix = f"uploads/{PAIR.student_id}/{PAIR.subject_id}/"
        s3.put_object(Bucket=BUCKET, Key=prefix + "cells.md", Body=BOOK_MD.encode())
        s3.put_object(Bucket=BUCKET, Key=prefix + MARKED_NAME, Body=MARKED_MD.encode())
        episode_id = ingest_marked_file(app)

        assert holds(everything(), MARKER.encode())
        assert app.erasing is not None
        result = app.erasing.erase_episode(PAIR, episode_id, reason="uploaded by mistake")
        assert result.objects_deleted == 1
        assert not holds(everything(), MARKER.encode())
        assert b"cells.md" in everything()  # the book's bytes and name stay
        map_after_erasing_the_file(app)


TAUGHT = f"Remember that osmosis is water moving across a {MARKER} membrane."


def test_an_erased_taught_note_leaves_no_byte_even_in_the_compressed_map(
    tmp_path: Path, clock: FixedClock
) -> None:
    """The note's words sat on the concept map, which is stored zlib-compressed: a plain search
    of the files never saw them there."""
    app = make_app(tmp_path / "tm", clock)
    taught = app.episodes.add(PAIR, Kind.QUESTION, TAUGHT, at=T0).append.episode.episode_id
    app.episodes.add(PAIR, Kind.QUESTION, "Remember that diffusion is slow.", at=T0)
    assert raw_hits(tmp_path / "tm", MARKER)
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, taught, reason="the student asked")
    assert raw_hits(tmp_path / "tm", MARKER) == []
    assert app.memory.verify_chain(PAIR).intact


def test_on_dynamodb_an_erased_taught_note_leaves_no_byte_in_any_item(
    tmp_path: Path, clock: FixedClock
) -> None:
    with cloud_app(tmp_path, clock) as (app, _s3, everything):
        taught = app.episodes.add(PAIR, Kind.QUESTION, TAUGHT, at=T0).append.episode.episode_id
        app.episodes.add(PAIR, Kind.QUESTION, "Remember that diffusion is slow.", at=T0)
        assert holds(everything(), MARKER.encode())
        assert app.erasing is not None
        app.erasing.erase_episode(PAIR, taught, reason="the student asked")
        assert not holds(everything(), MARKER.encode())


def test_erasing_one_episode_reads_the_log_once_and_an_operator_once_more_to_check_it(
    tmp_path: Path, clock: FixedClock
) -> None:
    """A read of the whole log costs seconds at 100,000 episodes (docs/benchmarks.md): a
    request's erasure of one episode reads it once — for itself and for what quoted it, the
    day's summary, erased too — and leaves the chain's verification before its checkpoint to
    the night; an operator's reads it once more, to verify the chain it anchors at once. The
    beliefs and the nightly tally are derived again only when a check went."""
    app = make_app(tmp_path / "tm", clock)
    ids = write_day(app, clock)
    assert app.erasing is not None
    store = app.ports.store
    reads = []
    whole = store.iter_episodes

    def counted(pair: Pair, **kwargs: Any) -> Iterator[Any]:
        reads.append(pair)
        return whole(pair, **kwargs)

    store.iter_episodes = counted  # type: ignore[method-assign]
    app.erasing.erase_episode(PAIR, ids["other"], reason="mistake")
    assert reads == [PAIR]
    assert app.memory.verify_chain(PAIR).erased == 2  # it, and the summary quoting it
    model = app.nightly.self_model(PAIR)
    assert model is not None and model.checks == 2  # the tally kept: no check went

    reads.clear()
    app.erasing.erase_episode(PAIR, ids["check"], reason="mistake")
    model = app.nightly.self_model(PAIR)
    assert model is not None and model.checks == 1  # folded again without it
    assert len(reads) == 2  # the erasure, and the beliefs derived again without the check

    reads.clear()
    app.erasing.anchor_at_once = True  # as the CLI's `erase` sets it
    app.erasing.erase_episode(PAIR, ids["question"], reason="mistake")
    assert reads == [PAIR, PAIR]  # the erasure, and the chain verified before its checkpoint
    assert app.memory.verify_chain(PAIR).checkpoint_seq == app.ports.store.head(PAIR).seq
