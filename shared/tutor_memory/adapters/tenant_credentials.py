"""Credentials scoped to one tenant: what a store's clients sign with instead of the process's
own (the API function's, from STS AssumeRole with the session tag ``tenant``; template.yaml
holds the role and its policies)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Credentials:
    """AWS credentials a store's clients sign with instead of the process's own: a tenant's,
    from STS AssumeRole with the session tag ``tenant`` (``adapters.tenant_credentials``)."""

    access_key_id: str
    secret_access_key: str
    session_token: str | None = None

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
