"""S3 upload → the ingest Lambda → the pair's map, on moto."""

from __future__ import annotations

import boto3

from tutor_memory.adapters.dynamo_store import DynamoStore
from tutor_memory.domain.episodes import Kind, Pair
from tutor_memory.samples import sample_subject

from .conftest import REGION, LambdaContext, event, load_handler

BUCKET = "tutor-memory-uploads"
PAIR = Pair("s-42", "biology")


def upload(key: str, data: bytes) -> dict:  # type: ignore[type-arg]
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    put = s3.put_object(Bucket=BUCKET, Key=key, Body=data)
    shaped = event("s3-put.json")
    obj = shaped["Records"][0]["s3"]["object"]
    obj["key"], obj["size"], obj["versionId"] = key.replace(" ", "+"), len(data), put["VersionId"]
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
