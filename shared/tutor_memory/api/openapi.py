"""The OpenAPI document, generated from the routes (committed as infra/openapi.json).

Besides what the routes declare, the document says how a call is authorised: every operation
requires an AWS Signature Version 4 (the API is IAM-authorised in API Gateway), and may meet
API Gateway's own refusal of a bad signature or a missing permission (a 403 whose body is
API Gateway's ``{"message"}``, not a problem: the Lambda never sees the request).
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver

SIGV4 = "sigv4"
API_KEY = "apiKey"
SECURITY_SCHEMES: dict[str, Any] = {
    SIGV4: {
        # OpenAPI has no SigV4 type: API Gateway's documented convention for IAM authorisation
        # is an apiKey scheme on the Authorization header marked with its extension
        # (x-amazon-apigateway-authtype: awsSigv4), required by each operation.
        "type": "apiKey",
        "name": "Authorization",
        "in": "header",
        "x-amazon-apigateway-authtype": "awsSigv4",
        "description": (
            "AWS Signature Version 4 with IAM credentials, for the service `execute-api` in "
            "the API's region (botocore's SigV4Auth; `Memory.remote` signs every call). The "
            "caller's IAM policy must allow `execute-api:Invoke` on the route."
        ),
    },
    API_KEY: {
        "type": "http",
        "scheme": "bearer",
        "description": (
            "An API key made by `tutor-memory keys create` (`tm_…`), for `tutor-memory serve`: "
            "it stands for one caller (a tenant's service, a teacher, or one student) and "
            "every operation checks that caller's role (`x-roles`). Also accepted as the "
            "`X-API-Key` header. A `serve --jwks` also takes an identity provider's JWT here, "
            "whose `custom:tenant`, `custom:role` and `custom:id` claims are the caller."
        ),
    },
}
GATEWAY_REFUSAL: dict[str, Any] = {
    "description": (
        "Forbidden by API Gateway: the signature is missing or wrong, or the caller's IAM "
        "policy does not allow the route (API Gateway's body, not a problem)"
    ),
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"message": {"type": "string"}},
                "required": ["message"],
                "title": "GatewayRefusal",
            }
        }
    },
}
_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def with_security(document: dict[str, Any]) -> dict[str, Any]:
    """The schemes (SigV4 in AWS, an API key at ``serve``), one of them required by every
    operation, and the 403 each can meet at API Gateway."""
    document.setdefault("components", {})["securitySchemes"] = SECURITY_SCHEMES
    document["security"] = [{SIGV4: []}, {API_KEY: []}]  # either one
    for operations in document.get("paths", {}).values():
        for method, operation in operations.items():
            if method in _METHODS:
                operation["security"] = [{SIGV4: []}, {API_KEY: []}]
                responses = operation.setdefault("responses", {})
                ours = responses.get("403", {}).get("content", {})
                responses["403"] = {
                    "description": "Forbidden: the caller's role may not call this operation "
                    "on this record (a problem), or API Gateway refused the signature or the "
                    "IAM permission (its own body)",
                    "content": {**GATEWAY_REFUSAL["content"], **ours},
                }
    return document


def document_json(resolver: APIGatewayRestResolver) -> str:
    """The document of ``resolver``'s routes, with how a call is authorised, as committed."""
    schema = resolver.get_openapi_json_schema(
        title="Tutor Memory",
        version="0.1.0",
        summary="The memory of one student in one subject, for an AI tutor.",
        description=(
            "Every route is scoped to a pair: /pairs/{student_id}/{subject_id}. The API is "
            "IAM-authorised in AWS (the chat backend signs its calls with SigV4); "
            "`tutor-memory serve` serves the same routes on 127.0.0.1, unsigned. Writing an "
            "episode answers 201 (200 when an idempotent retry finds it written); every error "
            "is an RFC 9457 problem (application/problem+json). Path parameters are "
            "percent-decoded; a concept is named as users see it (any case, accents, spacing)."
        ),
    )
    document = with_security(json.loads(schema))
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
