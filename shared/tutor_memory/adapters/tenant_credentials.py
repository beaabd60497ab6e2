"""Credentials scoped to one tenant: what a store's clients sign with instead of the process's
own (the API function's, from STS AssumeRole with the session tag ``tenant``; template.yaml
holds the role and its policies)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from tutor_memory.domain.errors import StoreError
from tutor_memory.domain.tenancy import check_tenant, index_suffix

SESSION_TAG: Final = "tenant"  # the policies' ${aws:PrincipalTag/tenant}
# ${aws:PrincipalTag/tenant_index}: the tenant's OpenSearch index suffix (lower case, as index
# names are), which a policy cannot derive from the tenant's name
INDEX_TAG: Final = "tenant_index"
SESSION_SECONDS: Final = 3600  # STS's default; the role's MaxSessionDuration allows it


@dataclass(frozen=True)
class Credentials:
    """AWS credentials a store's clients sign with instead of the process's own: a tenant's,
    from STS AssumeRole with the session tag ``tenant`` (``assume_tenant_role``)."""

    access_key_id: str
    secret_access_key: str
    session_token: str | None = None
    expires_at: datetime | None = None  # None: they do not expire (static keys)

    def __repr__(self) -> str:  # never the secret
        return f"Credentials({self.access_key_id})"

    def botocore(self) -> Any:
        """As botocore's credentials (what opensearch-py's SigV4 signer takes)."""
        from botocore.credentials import Credentials as BotocoreCredentials

        return BotocoreCredentials(self.access_key_id, self.secret_access_key, self.session_token)

    def boto3_kwargs(self) -> dict[str, Any]:
        return {
            "aws_access_key_id": self.access_key_id,
            "aws_secret_access_key": self.secret_access_key,
            "aws_session_token": self.session_token,
        }


def credential_kwargs(credentials: Credentials | None) -> dict[str, Any]:
    """What pynamodb's ``Connection`` and a model's ``Meta`` take for ``credentials``."""
    return {} if credentials is None else credentials.boto3_kwargs()


def assume_tenant_role(
    role_arn: str,
    tenant: str,
    region: str,
    *,
    sts: Any = None,
    seconds: int = SESSION_SECONDS,
) -> Credentials:
    """Credentials for ``tenant`` alone: STS AssumeRole on the tenant data role with the
    session tag ``tenant``. The role's policies (template.yaml, ``TenantDataRole``) allow its
    DynamoDB items only under ``dynamodb:LeadingKeys`` of the tenant, its S3 objects only
    under the tenant's prefix, its OpenSearch index only: what a store opened with them can
    reach, whatever the code above asks."""
    check_tenant(tenant)
    if sts is None:
        import boto3

        sts = boto3.client("sts", region_name=region)
    try:
        answer = sts.assume_role(
            RoleArn=role_arn,
            RoleSessionName=f"tenant-{tenant}"[:64],  # [\w+=,.@-]{2,64}: a tenant's name fits
            Tags=[
                {"Key": SESSION_TAG, "Value": tenant},
                {"Key": INDEX_TAG, "Value": index_suffix(tenant)},
            ],
            DurationSeconds=seconds,
        )
    except Exception as exc:  # botocore's ClientError, BotoCoreError: one error at the door
        raise StoreError(f"cannot assume the tenant role for {tenant!r}: {exc}") from exc
    found = answer["Credentials"]
    return Credentials(
        found["AccessKeyId"],
        found["SecretAccessKey"],
        found.get("SessionToken"),
        found.get("Expiration"),
    )
