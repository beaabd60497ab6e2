"""S3 ObjectCreated/ObjectRemoved on the uploads bucket → the pair's concept map and file
registry, or a class's course map and its students' maps (key layout, overwrites and
removals: uploads.py)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.parser import event_parser
from aws_lambda_powertools.utilities.parser.models import S3Model
from aws_lambda_powertools.utilities.typing import LambdaContext

from tutor_memory.api.access import quiet_wordy_loggers
from tutor_memory.bootstrap import lambda_app

logger = Logger()
quiet_wordy_loggers()  # the AWS SDK's DEBUG lines carry what is sent: never logged


@logger.inject_lambda_context
@event_parser(model=S3Model)
def handler(event: S3Model, context: LambdaContext) -> dict[str, Any]:
    # Imported with the App on the first event: the cold start reads no use case.
    from tutor_memory.domain.errors import ForbiddenError, ValidationError
    from tutor_memory.usecases.uploads import (
        UploadOutcome,
        ingest_upload,
        remove_upload,
        tenant_of_upload_key,
    )

    def base_prefix() -> str:
        return lambda_app.settings().uploads_prefix

    outcomes = []
    for record in event.Records:
        s3 = record.s3
        try:  # the key's tenant (uploads/T/<tenant>/…; else the default tenant's)
            app = lambda_app.for_tenant(tenant_of_upload_key(s3.object.key, base_prefix()))
        except (ValidationError, ForbiddenError) as exc:  # no tenant's, or not this stack's
            outcome = UploadOutcome(s3.object.key, "refused", str(exc))
        else:
            if record.eventName.startswith("ObjectRemoved"):
                outcome = remove_upload(
                    app.maps, app.files.fetch, s3.bucket.name, s3.object.key,
                    prefix=app.settings.tenant_uploads_prefix,
                    stands=getattr(app.files, "stands", None),  # S3: by listing its versions
                )  # fmt: skip
            else:
                outcome = ingest_upload(
                    app.maps,
                    app.files.fetch,
                    s3.bucket.name,
                    s3.object.key,
                    s3.object.versionId,
                    prefix=app.settings.tenant_uploads_prefix,
                    class_maps=app.class_maps,  # uploads/[T/]<tenant>/classes/<class>/<subject>/…
                    tenant=app.settings.tenant,
                    class_prefix=app.settings.class_uploads_prefix,
                )
        # its status only: the key and the detail name the file, which is the uploader's words
        logger.info("upload", extra={"status": outcome.status})
        outcomes.append(outcome.to_dict())
    return {"outcomes": outcomes}
