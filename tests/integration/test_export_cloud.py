"""Export → replay on DynamoDB and S3 under moto: the same ids, chain head, erasure records,
beliefs, map and block; every page of an export put together is the export; the export routes
(a page at a time) through the real Lambda handler."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.api import calls
from tutor_memory.bootstrap import App, build_app
from tutor_memory.ports import FixedClock
from tutor_memory.replay import replay_into
from tutor_memory.settings import Settings
from tutor_memory.usecases.export import Export

from .conftest import REGION, TABLE, TEST_TURN_DEADLINE_S, LambdaContext, event, load_handler
from .test_export import OTHER, PAIR, SECRET, SUBJECT, T0, live_history, state
from .test_paging import check_pages_make_the_export, every_page

BUCKET = "tutor-memory-uploads-it"
COPY_TABLE = "tutor-memory-it-copy"


def cloud_app(table: str, index: Path, clock: FixedClock) -> App:
    settings = Settings(
        backend="dynamodb",
        table_name=table,
        aws_region=REGION,
        embedder="none",
        index_path=index,
        uploads_bucket=BUCKET,
    )
    app = build_app(settings, clock=clock)
    app.turns.deadline_s = TEST_TURN_DEADLINE_S  # the block is compared, not timed (moto is slow)
    return app


def uploads_bucket() -> None:
    """The versioned uploads bucket, holding the sample file as the ingest handler reads it."""
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    name = "plant-and-animal-cells.md"
    key = f"uploads/{PAIR.student_id}/{PAIR.subject_id}/{name}"
    s3.put_object(Bucket=BUCKET, Key=key, Body=(SUBJECT / name).read_bytes())


def test_on_dynamodb_and_s3_an_export_replays_into_an_empty_table_with_the_same_head(
    cloud: DynamoStore, tmp_path: Path
) -> None:
    uploads_bucket()
    clock = FixedClock(T0)
    source = cloud_app(TABLE, tmp_path / "source-index.db", clock)
    ids = live_history(source, clock)
    assert source.erasing is not None
    source.erasing.erase_episode(PAIR, ids["check"], reason="a mistaken check")
    before = state(source, PAIR)
    assert before["verify"][0], "appends after an erasure keep the erasure records' head"

    export = source.exporting.student(PAIR.student_id)
    assert export.files, "the file's version is read back from the bucket"
    history = export.write(tmp_path / "export")
    raw = b"".join(p.read_bytes() for p in (tmp_path / "export").rglob("*") if p.is_file())
    assert f"Explain {SECRET}".encode() not in raw  # the erased check's text

    DynamoStore(COPY_TABLE, REGION).create_table()
    copy = cloud_app(COPY_TABLE, tmp_path / "copy-index.db", clock)
    report = replay_into(copy, history)
    assert report.ids_changed == 0 and report.ids_kept == report.events

    after = state(copy, PAIR)
    for name in ("episodes", "head", "erasures", "verify", "beliefs", "map", "files", "block"):
        assert after[name] == before[name], name
    assert after["verify"][0] and after["verify"][2] >= 1


def test_on_dynamodb_every_page_of_an_export_put_together_is_the_export(
    cloud: DynamoStore, tmp_path: Path
) -> None:
    uploads_bucket()
    clock = FixedClock(T0)
    source = cloud_app(TABLE, tmp_path / "index.db", clock)
    ids = live_history(source, clock)
    assert source.erasing is not None
    source.erasing.erase_episode(PAIR, ids["check"], reason="a mistaken check")
    source.episodes.add(OTHER, "question", "What is an ion?", at=T0)
    for subject_id in (PAIR.subject_id, None):
        whole = (
            calls.export_pair(source, PAIR)
            if subject_id
            else calls.export_student(source, PAIR.student_id)
        )
        assert whole.files, "the file's version is read back from the bucket"
        for limit in (1, 3):
            pages = every_page(source, subject_id, limit)
            check_pages_make_the_export(
                pages, {**whole.to_dict(), "manifest": pages[0]["manifest"]}
            )


def handler_call(method: str, path: str, query: dict[str, str] | None = None) -> tuple[int, Any]:
    shaped = event("api-turn.json")
    shaped["httpMethod"] = shaped["requestContext"]["httpMethod"] = method
    shaped["path"] = path
    shaped["pathParameters"] = {"proxy": path.lstrip("/")}
    shaped["body"] = None
    shaped["queryStringParameters"] = query
    shaped["multiValueQueryStringParameters"] = {k: [v] for k, v in (query or {}).items()} or None
    response = load_handler("api").handler(shaped, LambdaContext())
    return response["statusCode"], json.loads(response["body"]) if response["body"] else None


def test_the_export_routes_answer_one_json_body_and_a_problem_for_an_unknown_pair(
    cloud: DynamoStore,
) -> None:
    base = f"/pairs/{PAIR.student_id}/{PAIR.subject_id}"
    status, problem = handler_call("GET", f"{base}/export")
    assert status == 404 and problem["status"] == 404 and problem["type"].endswith("not-found")
    status, problem = handler_call("GET", f"/students/{PAIR.student_id}/export")
    assert status == 404

    from tutor_memory.bootstrap import lambda_app

    app = lambda_app()
    app.episodes.add(PAIR, "question", "What is a cell?", at=T0)
    app.episodes.add(PAIR, "question", "What is a nucleus?", at=T0 + timedelta(minutes=1))
    status, body = handler_call("GET", f"{base}/export")
    assert status == 200
    export = Export.from_dict(body)
    assert [line["text"] for line in export.lines] == ["What is a cell?", "What is a nucleus?"]
    assert export.manifest()["pairs"][0]["head"]["seq"] == 2
    status, body = handler_call("GET", f"/students/{PAIR.student_id}/export")
    assert status == 200 and len(body["history"]) == 2 and body["next"] is None

    # a page at a time: the manifest first, then the next lines, up to the first page's head
    status, first = handler_call("GET", f"{base}/export", {"limit": "1"})
    assert status == 200 and first["manifest"]["format"] and first["next"]
    app.episodes.add(PAIR, "question", "Written after the first page", at=T0)
    status, second = handler_call("GET", f"{base}/export", {"limit": "1", "next": first["next"]})
    assert status == 200 and second["manifest"] is None and second["next"] is None
    assert first["history"] + second["history"] == export.lines
    status, problem = handler_call("GET", f"{base}/export", {"next": "not-a-cursor"})
    assert status == 422 and problem["fields"][0]["field"].endswith("next")


def test_on_dynamodb_an_append_after_an_erasure_keeps_the_chain_verifying(
    cloud: DynamoStore, tmp_path: Path
) -> None:
    clock = FixedClock(T0)
    app = cloud_app(TABLE, tmp_path / "index.db", clock)
    first = app.episodes.add(PAIR, "question", "A mistaken upload", at=T0).episode
    assert app.erasing is not None
    app.erasing.erase_episode(PAIR, first.episode_id, reason="mistake")
    app.episodes.add(PAIR, "question", "What is a cell?", at=T0 + timedelta(minutes=1))
    report = app.memory.verify_chain(PAIR)
    assert report.intact and report.episodes == 3 and report.erased == 1, str(report)
    assert report.entries == 1  # the erasure's own entry, between the two
