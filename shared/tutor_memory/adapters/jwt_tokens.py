"""Tokens a local ``serve`` accepts beside its API keys: JWTs signed by an identity provider,
verified against its JWKS (a file, or a URL fetched and cached), as API Gateway's authoriser
verifies them in the cloud.

The claims that make the caller are the ones the cloud's user pool carries (``custom:tenant``,
``custom:role``, ``custom:id``, else ``sub``), so one token shape serves both doors; the
resolver turns them into a caller exactly as it turns the authoriser's (``routes.caller``).

PyJWT does the cryptography and the claim checks it owns (signature, issuer, audience). The
times (``exp``, ``nbf``) are checked here against an injected clock, so a test can pass a
token's expiry without waiting. Only asymmetric algorithms are accepted: a JWKS is public, and
a token signed with ``none`` or with a shared secret must never verify against it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import jwt

from tutor_memory.domain.errors import IdentityProviderError, NotAuthenticatedError

ALGORITHMS: Final = (
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
)  # fmt: skip
LEEWAY_S: Final = 60.0  # clock skew between the provider and this machine (Cognito's is small)
JWKS_TIMEOUT_S: Final = 5.0  # a JWKS fetch blocks the request that needed it
JWKS_LIFESPAN_S: Final = 300.0  # a provider's keys are fetched again after this (rotation)
# After a failed fetch, tokens are refused (503) without another try for this long: `serve`
# answers one request at a time, so a provider that is down would otherwise hold every request
# behind a fetch of up to JWKS_TIMEOUT_S (PyJWKClient's own cooldown starts only on success).
JWKS_RETRY_AFTER_S: Final = 30.0


class TokenVerifier:
    """Verifies a bearer JWT; ``claims(token)`` gives its claims or raises
    ``NotAuthenticatedError`` saying why (a 401)."""

    def __init__(
        self,
        jwks: str,
        *,
        issuer: str | None = None,
        audience: str | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.issuer = issuer
        self.audience = audience
        self._now = now
        self._client: jwt.PyJWKClient | None = None
        self._keys: jwt.PyJWKSet | None = None
        self._failed_at: float | None = None  # the last failed fetch (``JWKS_RETRY_AFTER_S``)
        if jwks.startswith(("https://", "http://")):
            self._client = jwt.PyJWKClient(
                jwks, cache_keys=True, lifespan=JWKS_LIFESPAN_S, timeout=JWKS_TIMEOUT_S
            )
        else:
            path = Path(jwks)
            try:
                self._keys = jwt.PyJWKSet.from_json(path.read_text(encoding="utf-8"))
            except OSError as exc:
                raise ValueError(f"cannot read the JWKS file {jwks}: {exc.strerror}") from None
            except jwt.PyJWKSetError as exc:
                raise ValueError(f"{jwks} is not a JWKS with a usable key: {exc}") from None

    def _key(self, token: str) -> jwt.PyJWK:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.DecodeError:
            raise NotAuthenticatedError("the bearer token is not a JWT") from None
        if header.get("alg") not in ALGORITHMS:
            raise NotAuthenticatedError(
                f"the token's algorithm {header.get('alg')!r} is not accepted "
                f"(one of {', '.join(ALGORITHMS)})"
            )
        kid = header.get("kid")
        if self._client is not None:
            now = self._now()
            if self._failed_at is not None and now - self._failed_at < JWKS_RETRY_AFTER_S:
                raise IdentityProviderError(
                    "the identity provider's keys could not be fetched; tried again "
                    f"{JWKS_RETRY_AFTER_S:.0f} s after the last failure"
                )
            try:
                found = self._client.get_signing_key_from_jwt(token)
            except jwt.PyJWKClientConnectionError as exc:
                self._failed_at = now
                raise IdentityProviderError(f"the identity provider's keys: {exc}") from None
            except jwt.PyJWKClientError:
                raise NotAuthenticatedError(
                    f"no key of the identity provider has the token's kid {kid!r}"
                ) from None
            self._failed_at = None
            return found
        assert self._keys is not None
        matching = [k for k in self._keys.keys if kid is None or k.key_id == kid]
        if not matching:
            raise NotAuthenticatedError(f"no key of the JWKS has the token's kid {kid!r}")
        return matching[0]

    def claims(self, token: str) -> dict[str, Any]:
        key = self._key(token)
        try:
            found: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=list(ALGORITHMS),
                issuer=self.issuer,
                audience=self.audience,
                options={
                    "verify_exp": False,  # checked below against the injected clock
                    "verify_nbf": False,
                    "verify_iat": False,
                    "verify_aud": self.audience is not None,
                    "require": ["exp"],
                },
            )
        except jwt.InvalidSignatureError:
            raise NotAuthenticatedError("the token's signature does not verify") from None
        except jwt.InvalidIssuerError:
            raise NotAuthenticatedError(f"the token was not issued by {self.issuer}") from None
        except jwt.InvalidAudienceError:
            raise NotAuthenticatedError(f"the token is not meant for {self.audience}") from None
        except jwt.MissingRequiredClaimError as exc:
            raise NotAuthenticatedError(f"the token has no {exc.claim!r} claim") from None
        except jwt.InvalidTokenError as exc:
            raise NotAuthenticatedError(f"the token is not valid: {exc}") from None
        now = self._now()
        try:
            expires, starts = float(found["exp"]), float(found.get("nbf", now))
        except (TypeError, ValueError):
            raise NotAuthenticatedError("the token's exp or nbf is not a number") from None
        if now > expires + LEEWAY_S:
            raise NotAuthenticatedError("the token has expired: sign in again")
        if now < starts - LEEWAY_S:
            raise NotAuthenticatedError("the token is not valid yet")
        return found
