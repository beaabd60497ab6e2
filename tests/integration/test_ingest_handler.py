"""S3 upload → the ingest Lambda → the pair's map, on moto."""

from __future__ import annotations

import boto3
import pytest

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.domain.verify import check_citation
from tutor_memory.samples import sample_subject

from .conftest import REGION, LambdaContext, event, load_handler

BUCKET = "tutor-memory-uploads"
PAIR = Pair("s-42", "biology")


def s3_event(name: str, key: str, version: str | None) -> dict:  # type: ignore[type-arg]
    """The sample event ``name`` as S3 would send it for this object of the test's bucket."""
    shaped = event(name)
    s3 = shaped["Records"][0]["s3"]
    s3["bucket"].update(name=BUCKET, arn=f"arn:aws:s3:::{BUCKET}")
    s3["object"].update(key=key.replace(" ", "+"), versionId=version)
    return shaped


def upload(key: str, data: bytes) -> dict:  # type: ignore[type-arg]
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    put = s3.put_object(Bucket=BUCKET, Key=key, Body=data)
    shaped = s3_event("ingest-s3-object-created.json", key, put["VersionId"])
    shaped["Records"][0]["s3"]["object"]["size"] = len(data)
    return shaped


def test_an_upload_becomes_the_pairs_map(cloud: DynamoStore) -> None:
    name, data = sample_subject()[0]
    result = load_handler("ingest").handler(
        upload(f"uploads/s-42/biology/{name}", data), LambdaContext()
    )
    assert result["outcomes"] == [
        {"key": f"uploads/s-42/biology/{name}", "status": "ingested", "detail": "8 concepts"}
    ]
    cmap = cloud.load_map(PAIR)
    assert {"osmosis", "cell membrane", "mitochondria"} <= set(cmap.concepts)
    assert cmap.concepts["osmosis"].sources[0].file_id == name
    assert [e.kind for e in cloud.episodes(PAIR)] == [Kind.FILE]
    again = load_handler("ingest").handler(
        upload(f"uploads/s-42/biology/{name}", data), LambdaContext()
    )
    assert again["outcomes"][0]["status"] == "already read"


def test_a_key_off_the_layout_is_refused_with_its_reason(cloud: DynamoStore) -> None:
    result = load_handler("ingest").handler(upload("inbox/cells.pdf", b"%PDF-1.4"), LambdaContext())
    (outcome,) = result["outcomes"]
    assert outcome["status"] == "refused" and "is not under 'uploads/'" in outcome["detail"]
    assert cloud.load_map(PAIR).concepts == {}


def test_an_unreadable_upload_is_recorded_and_not_retried(cloud: DynamoStore) -> None:
    result = load_handler("ingest").handler(
        upload("uploads/s-42/biology/grades sheet.xlsx", b"PK\x03\x04junk"), LambdaContext()
    )
    (outcome,) = result["outcomes"]
    assert outcome["status"] == "unreadable" and "grades sheet.xlsx" in outcome["detail"]
    (episode,) = cloud.episodes(PAIR)
    assert episode.text.startswith("File could not be read")


def removal(key: str) -> dict:  # type: ignore[type-arg]
    s3 = boto3.client("s3", region_name=REGION)
    deleted = s3.delete_object(Bucket=BUCKET, Key=key)  # versioned: a delete marker
    return s3_event("ingest-s3-object-removed.json", key, deleted.get("VersionId"))


def test_an_overwritten_then_removed_upload_labels_the_answers_that_cited_it(
    cloud: DynamoStore,
) -> None:
    """Upload → an answer cites it → the object is overwritten (a new version) → the answer
    reads "replaced" in the block and in verification → the object is deleted → "removed"."""
    from tutor_memory.bootstrap import lambda_app

    from .test_api_handler import Api

    key = "uploads/s-42/biology/notes.md"
    ingest = load_handler("ingest")
    first = b"# Osmosis\n\nOsmosis is the movement of water across a membrane.\n"
    assert ingest.handler(upload(key, first), LambdaContext())["outcomes"][0]["status"] == (
        "ingested"
    )
    api, base = Api(), "/pairs/s-42/biology"
    status, answer = api(
        "POST",
        f"{base}/episodes",
        {"kind": "answer", "text": "Osmosis moves water across a membrane (notes).",
         "citation": {"file_id": "notes.md"}},
    )  # fmt: skip
    assert status == 201  # created

    second = first + b"\nIt needs a partially permeable membrane.\n"
    assert ingest.handler(upload(key, second), LambdaContext())["outcomes"][0]["status"] == (
        "ingested"
    )
    app = lambda_app()
    record = app.ports.store.file(PAIR, "notes.md")
    assert record is not None and [v.version for v in record.versions] == [1, 2]
    status, turn = api("POST", f"{base}/turn", {"question": "osmosis membrane notes"})
    assert answer["id"] in turn["memory_ids"]
    assert "[note: the file this cited has since been replaced]" in turn["block"]
    cited = app.memory.episode(PAIR, answer["id"])
    assert check_citation(cited, record).value.value == "changed_replaced"

    removed = ingest.handler(removal(key), LambdaContext())
    assert removed["outcomes"] == [{"key": key, "status": "removed", "detail": ""}]
    record = app.ports.store.file(PAIR, "notes.md")
    assert record is not None and record.removed
    status, turn = api("POST", f"{base}/turn", {"question": "osmosis membrane notes"})
    assert "[note: the file this cited has since been removed]" in turn["block"]
    assert check_citation(cited, record).value.value == "changed_removed"
    again = ingest.handler(removal(key), LambdaContext())  # a redelivered event
    assert again["outcomes"][0]["status"] == "already removed"


def test_deleting_an_old_version_leaves_the_file_as_it_is(cloud: DynamoStore) -> None:
    key = "uploads/s-42/biology/notes.md"
    ingest = load_handler("ingest")
    old = upload(key, b"# Osmosis\n\nOsmosis is the movement of water.\n")
    ingest.handler(old, LambdaContext())
    ingest.handler(upload(key, b"# Osmosis\n\nOsmosis moves water.\n"), LambdaContext())
    s3 = boto3.client("s3", region_name=REGION)
    version = old["Records"][0]["s3"]["object"]["versionId"]
    s3.delete_object(Bucket=BUCKET, Key=key, VersionId=version)
    shaped = s3_event("ingest-s3-object-removed.json", key, version)
    shaped["Records"][0]["eventName"] = "ObjectRemoved:Delete"
    outcome = ingest.handler(shaped, LambdaContext())["outcomes"][0]
    assert outcome["status"] == "already read"
    from tutor_memory.bootstrap import lambda_app

    current = lambda_app().memory.ports.store.file(PAIR, "notes.md")
    assert current is not None and not current.removed and current.current.version == 2


def test_a_removed_upload_is_told_by_its_versions_not_by_a_refused_read(
    cloud: DynamoStore,
) -> None:
    """A tenant's credentials may list its keys' versions but not the whole bucket, so S3 may
    answer a read of a removed object 403, not 404: whether a current version stands is asked
    of the versions (``S3Files.stands``), and a refused read is never taken for a removal."""
    from tutor_memory.adapters.s3_files import S3Files
    from tutor_memory.bootstrap import lambda_app
    from tutor_memory.domain.errors import StoreError
    from tutor_memory.usecases.uploads import remove_upload

    name, data = sample_subject()[0]
    key = f"uploads/s-42/biology/{name}"
    load_handler("ingest").handler(upload(key, data), LambdaContext())
    files = S3Files(REGION)
    assert files.stands(BUCKET, key)
    assert not files.stands(BUCKET, key + ".old")  # another key, the same prefix
    s3 = boto3.client("s3", region_name=REGION)
    s3.delete_object(Bucket=BUCKET, Key=key)  # a delete marker on top
    assert not files.stands(BUCKET, key)

    def refused(bucket: str, key: str, version: str | None) -> bytes:
        raise StoreError(f"cannot read s3://{bucket}/{key}: AccessDenied")

    maps = lambda_app().maps
    outcome = remove_upload(maps, refused, BUCKET, key, stands=files.stands)
    assert outcome.status == "removed"
    s3.put_object(Bucket=BUCKET, Key=key, Body=data)  # back: it stands, so it is read
    assert files.stands(BUCKET, key)
    with pytest.raises(StoreError, match="AccessDenied"):
        remove_upload(maps, refused, BUCKET, key, stands=files.stands)
