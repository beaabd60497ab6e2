"""An identity provider for tests: a key pair that signs JWTs as Cognito's pool does (RS256, a
``kid`` in the header, ``iss``, ``exp``) and the JWKS that publishes its public half."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

ISSUER = "https://idp.example/school-pool"
HOUR_S = 3600.0


@dataclass
class SigningKey:
    kid: str
    private: Any
    algorithm: str

    @classmethod
    def rsa(cls, kid: str) -> SigningKey:
        return cls(kid, rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256")

    @classmethod
    def ec(cls, kid: str) -> SigningKey:
        return cls(kid, ec.generate_private_key(ec.SECP256R1()), "ES256")

    def public_jwk(self) -> dict[str, Any]:
        to_jwk = RSAAlgorithm.to_jwk if self.algorithm == "RS256" else ECAlgorithm.to_jwk
        found: dict[str, Any] = json.loads(to_jwk(self.private.public_key()))
        return {**found, "kid": self.kid, "alg": self.algorithm, "use": "sig"}

    def token(
        self,
        claims: dict[str, Any],
        *,
        issuer: str = ISSUER,
        expires_at: float | None = None,
        headers: dict[str, Any] | None = None,
    ) -> str:
        body = {"iss": issuer, "sub": "u-1", "exp": expires_at or time.time() + HOUR_S, **claims}
        return jwt.encode(
            body,
            self.private,
            algorithm=self.algorithm,
            headers={"kid": self.kid, **(headers or {})},
        )
