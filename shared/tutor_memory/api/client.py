"""A client of the turn API, each call SigV4-signed (the API is IAM-authorised in AWS).

Standard library HTTP (urllib) and botocore's signer (``SigV4Auth``, service ``execute-api``),
so no dependency is added. Credentials come from botocore's default chain (environment,
profile, container or instance role) unless given, and are read again on every call, so
refreshed ones are used. A plain ``http://`` URL on this machine (``localhost``, ``127.0.0.1``,
``::1``: ``tutor-memory serve``) is called unsigned, needing no region and no credentials.
An error answer becomes the domain error the API mapped it from.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from tutor_memory.domain.episodes import Pair
from tutor_memory.domain.errors import (
    ConflictError,
    ContentionError,
    ErasedError,
    ForbiddenError,
    IdempotencyConflictError,
    IdentityProviderError,
    ModelCallError,
    NotAuthenticatedError,
    NotFoundError,
    NotTeachingError,
    StoreError,
    TutorMemoryError,
    ValidationError,
)

SERVICE = "execute-api"
_REGION_IN_HOST = re.compile(r"\.execute-api\.([a-z0-9-]+)\.amazonaws\.com")


class RemoteError(TutorMemoryError):
    """The API answered with a status the domain has no error for (403: the signature or the
    caller's IAM policy was refused), or could not be reached (status 0)."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(f"{status}: {message}" if status else message)


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def is_local_http(base_url: str) -> bool:
    """Whether ``base_url`` is plain HTTP on this machine (``tutor-memory serve``)."""
    parts = urlsplit(base_url)
    return parts.scheme == "http" and (parts.hostname or "").lower() in LOOPBACK_HOSTS


def region_of(base_url: str) -> str | None:
    """The region an API Gateway URL names (``https://id.execute-api.eu-west-1.amazonaws.com``)."""
    found = _REGION_IN_HOST.search(urlsplit(base_url).netloc)
    return found.group(1) if found else None


class SignedClient:
    """JSON over HTTP to ``base_url`` (the stage URL, e.g. ``https://…/prod``), signed.

    ``signing``: None (the default) signs every call unless ``base_url`` is plain HTTP on this
    machine and neither ``region`` nor ``credentials`` is given; True always signs, False never
    does (a server behind an authoriser of its own)."""

    def __init__(
        self,
        base_url: str,
        *,
        region: str | None = None,
        credentials: Any = None,
        timeout_s: float = 30.0,
        signing: bool | None = None,
        api_key: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._api_key = api_key  # sent as a bearer token (a local serve's key)
        self._credentials = credentials
        if signing is None:
            signing = not (is_local_http(base_url) and region is None and credentials is None)
        self.signing = signing
        self.region: str | None = None
        self._session: Any = None
        if not signing:
            return
        import botocore.session

        session = botocore.session.get_session()
        found = region or region_of(base_url) or session.get_config_variable("region")
        if not found:
            raise ValidationError("region", "is required: the API's AWS region, e.g. eu-west-1")
        self.region = found
        self._session = session

    def _signed_headers(
        self, method: str, url: str, body: bytes | None, headers: dict[str, str]
    ) -> dict[str, str]:
        if not self.signing or self.region is None:
            return headers
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        credentials = self._credentials or self._session.get_credentials()
        if credentials is None:
            raise RemoteError(0, "no AWS credentials found to sign the call with")
        request = AWSRequest(method=method, url=url, data=body, headers=headers)
        SigV4Auth(credentials.get_frozen_credentials(), SERVICE, self.region).add_auth(request)
        return dict(request.headers.items())

    def call(
        self,
        method: str,
        pair: Pair,
        path: str,
        body: Any = None,
        *,
        query: Mapping[str, str | None] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """One call under the pair's routes; the decoded JSON answer."""
        url = (
            f"{self.base_url}/pairs/{quote(pair.student_id, safe='')}"
            f"/{quote(pair.subject_id, safe='')}{path}"
        )
        return self.call_url(method, url, body, query=query, headers=headers)

    def call_url(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        query: Mapping[str, str | None] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """One call to a full URL under the base (a route outside a pair's, say)."""
        params = {k: v for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urlencode(params, quote_via=quote)
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        sent = {"Accept": "application/json", **(headers or {})}
        if self._api_key:
            sent["Authorization"] = f"Bearer {self._api_key}"
        if data is not None:
            sent["Content-Type"] = "application/json"
        signed = self._signed_headers(method, url, data, sent)
        request = urllib.request.Request(url, data=data, method=method, headers=signed)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raise _error(error.code, error.read()) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise RemoteError(0, f"cannot reach {self.base_url}: {reason}") from None
        return json.loads(raw) if raw else None


PROBLEM_TYPE = "urn:tutor-memory:problem:"
# Each problem type the API answers (routes.ERROR_HANDLERS) → the domain error it was mapped
# from: the same class the local door raises, with the same message. A model's failure is
# the base ``ModelCallError`` (its ``retryable`` from the status: 503 may succeed later).
PROBLEM_ERRORS: dict[str, type[TutorMemoryError]] = {
    "invalid-request": ValidationError,
    "malformed-json": ValidationError,
    "not-teaching": NotTeachingError,
    "not-found": NotFoundError,
    "not-authenticated": NotAuthenticatedError,
    "forbidden": ForbiddenError,
    "conflict": ConflictError,
    "contention": ContentionError,
    "idempotency-key-reused": IdempotencyConflictError,
    "erased": ErasedError,
    "model-unavailable": ModelCallError,
    "store-unavailable": StoreError,
    "identity-provider-unavailable": IdentityProviderError,
    "bad-request": TutorMemoryError,
}
_STORE_SAYS = "the memory store is unavailable: "  # the route's words before the store's
_KEY_IN = re.compile(r"Idempotency-Key '(.*)' was already used")


def _error(status: int, raw: bytes) -> TutorMemoryError:
    """The domain error an answer was mapped from (``routes.ERROR_HANDLERS``): by its problem
    type, else (API Gateway's own refusals, older servers) by its status."""
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {"error": raw.decode("utf-8", errors="replace")[:500]}
    # The API's error body ({"error", "fields"}), an RFC 9457 problem (title, detail), or
    # API Gateway's own refusal ({"message"}: a bad signature, a missing IAM permission).
    message = str(
        body.get("error")
        or body.get("detail")
        or body.get("title")
        or body.get("message")
        or status
    )
    kind = str(body.get("type") or "")
    error_class = PROBLEM_ERRORS.get(kind.removeprefix(PROBLEM_TYPE)) if kind else None
    if error_class is None:
        error_class = _BY_STATUS.get(status)
    if error_class is None:
        return RemoteError(status, message)
    if issubclass(error_class, ValidationError):
        fields = body.get("fields") or body.get("errors") or []
        first = fields[0] if fields and isinstance(fields[0], dict) else {}
        field = str(first.get("field") or first.get("pointer") or "request")
        # The field's own problem (the detail is "field: problem", or lists every field's).
        problem = str(first.get("problem") or message)
        return _raised(error_class, f"{field}: {problem}", field=field, problem=problem)
    if issubclass(error_class, StoreError):
        message = message.removeprefix(_STORE_SAYS)
    if error_class is ErasedError:
        return ErasedError(None, detail=message)
    if issubclass(error_class, ModelCallError):
        return _raised(
            error_class, message, model="behind the API", problem=message, retryable=status == 503
        )
    if error_class is IdempotencyConflictError:
        key = _KEY_IN.search(message)
        return _raised(error_class, message, key=key.group(1) if key else None)
    return _raised(error_class, message)


_BY_STATUS: dict[int, type[TutorMemoryError]] = {
    400: ValidationError,
    422: ValidationError,
    401: NotAuthenticatedError,
    403: ForbiddenError,  # also API Gateway's own refusal of a signature or an IAM permission
    404: NotFoundError,
    409: ConflictError,
    410: ErasedError,
    502: ModelCallError,
    503: StoreError,
}


def _raised(
    error_class: type[TutorMemoryError], message: str, **attributes: Any
) -> TutorMemoryError:
    """``error_class`` with exactly ``message`` and its attributes set, whatever its
    constructor takes (``NotTeachingError()`` takes nothing, ``IdempotencyConflictError`` a
    key): the error the API mapped, rebuilt from its answer."""
    error = error_class.__new__(error_class)
    Exception.__init__(error, message)
    for name, value in attributes.items():
        setattr(error, name, value)
    return error
