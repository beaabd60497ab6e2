"""API Gateway (REST: IAM-authorised, or a user pool token) → the turn API, each request with its
caller's tenant's stores. Routes live in tutor_memory.api.routes."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from tutor_memory.api.routes import build_resolver, resolve
from tutor_memory.bootstrap import lambda_app

logger = Logger()
metrics = Metrics()  # namespace and service from POWERTOOLS_* (template Globals)
# Routes only: the App is built on the first request, one per caller's tenant (its claims').
resolver = build_resolver(
    lambda_app, metrics=metrics, logger=logger, tenant_app=lambda_app.for_tenant
)


@metrics.log_metrics
@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return resolve(resolver, event, context, logger)  # every failure answers problem+json
