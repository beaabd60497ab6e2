"""``serve --jwks``'s verifier: a token signed by a key of the provider's JWKS gives its claims;
every other one is a 401 that says why, with times judged by an injected clock."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import jwt
import pytest

from tutor_memory.adapters.jwt_tokens import JWKS_RETRY_AFTER_S, LEEWAY_S, TokenVerifier
from tutor_memory.domain.errors import IdentityProviderError, NotAuthenticatedError

from ..signing_keys import HOUR_S, ISSUER, SigningKey

NOW = 1_800_000_000.0
CLAIMS = {"custom:tenant": "north", "custom:role": "student", "custom:id": "amira"}


@pytest.fixture(scope="module")
def provider() -> SigningKey:
    return SigningKey.rsa("k-1")


@pytest.fixture
def jwks_file(tmp_path: Path, provider: SigningKey) -> Path:
    path = tmp_path / "jwks.json"
    path.write_text(
        json.dumps({"keys": [provider.public_jwk(), SigningKey.ec("k-2").public_jwk()]})
    )
    return path


def verifier(jwks: Path | str, audience: str | None = None) -> TokenVerifier:
    return TokenVerifier(str(jwks), issuer=ISSUER, audience=audience, now=lambda: NOW)


def test_a_token_signed_by_the_provider_gives_its_claims(
    jwks_file: Path, provider: SigningKey
) -> None:
    found = verifier(jwks_file).claims(provider.token(CLAIMS, expires_at=NOW + HOUR_S))
    assert {k: found[k] for k in CLAIMS} == CLAIMS


def test_an_ec_key_of_the_set_verifies_its_own_tokens(tmp_path: Path) -> None:
    key = SigningKey.ec("k-ec")
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps({"keys": [key.public_jwk()]}))
    assert verifier(path).claims(key.token(CLAIMS, expires_at=NOW + 60))["custom:id"] == "amira"


@pytest.mark.parametrize(
    ("expires_at", "not_before", "why"),
    [
        (NOW - LEEWAY_S - 1, None, "has expired"),
        (NOW + HOUR_S, NOW + LEEWAY_S + 60, "not valid yet"),
    ],
)
def test_times_are_judged_by_the_clock_with_a_minutes_leeway(
    jwks_file: Path, provider: SigningKey, expires_at: float, not_before: float | None, why: str
) -> None:
    extra = {} if not_before is None else {"nbf": not_before}
    token = provider.token({**CLAIMS, **extra}, expires_at=expires_at)
    with pytest.raises(NotAuthenticatedError, match=why):
        verifier(jwks_file).claims(token)
    # inside the leeway: a provider's clock a little ahead or behind is no refusal
    late = provider.token(CLAIMS, expires_at=NOW - LEEWAY_S + 1)
    assert verifier(jwks_file).claims(late)["custom:role"] == "student"


def test_every_forgery_is_refused_saying_why(jwks_file: Path, provider: SigningKey) -> None:
    check = verifier(jwks_file, audience="tutor-app")
    good = {**CLAIMS, "aud": "tutor-app"}
    forged = SigningKey.rsa("k-1").token(good, expires_at=NOW + 60)  # the kid, not the key
    cases = {
        "signature does not verify": forged,
        "not issued by": provider.token(good, issuer="https://evil.example", expires_at=NOW + 60),
        "not meant for tutor-app": provider.token({**CLAIMS, "aud": "other"}, expires_at=NOW + 60),
        "no key of the JWKS has the token's kid 'k-9'": provider.token(
            good, expires_at=NOW + 60, headers={"kid": "k-9"}
        ),
        "algorithm 'none' is not accepted": jwt.encode(
            {**good, "exp": NOW + 60}, None, algorithm="none", headers={"kid": "k-1"}
        ),
        # HS256 keyed with the public key's bytes: the classic confusion, refused by algorithm
        "algorithm 'HS256' is not accepted": jwt.encode(
            {**good, "exp": NOW + 60}, "k" * 32, algorithm="HS256", headers={"kid": "k-1"}
        ),
        "no 'exp' claim": jwt.encode(
            {**good, "iss": ISSUER}, provider.private, algorithm="RS256", headers={"kid": "k-1"}
        ),
        "not a JWT": "not.a.jwt",
    }
    for why, token in cases.items():
        with pytest.raises(NotAuthenticatedError, match=why):
            check.claims(token)
    assert check.claims(provider.token(good, expires_at=NOW + 60))["aud"] == "tutor-app"


def test_a_jwks_file_that_cannot_serve_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the JWKS file"):
        TokenVerifier(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"keys": []}))
    with pytest.raises(ValueError, match="not a JWKS with a usable key"):
        TokenVerifier(str(bad))


class _Jwks(BaseHTTPRequestHandler):
    body = b""
    fetched = 0
    status = 200

    def do_GET(self) -> None:
        type(self).fetched += 1
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def jwks_url(provider: SigningKey) -> Iterator[str]:
    _Jwks.body = json.dumps({"keys": [provider.public_jwk()]}).encode()
    _Jwks.fetched, _Jwks.status = 0, 200
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Jwks)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/.well-known/jwks.json"
    finally:
        server.shutdown()
        server.server_close()


def test_a_jwks_url_is_fetched_once_and_its_keys_kept(jwks_url: str, provider: SigningKey) -> None:
    check = verifier(jwks_url)
    for _ in range(3):
        assert check.claims(provider.token(CLAIMS, expires_at=NOW + 60))["custom:id"] == "amira"
    assert _Jwks.fetched == 1
    with pytest.raises(NotAuthenticatedError, match="signature does not verify"):
        check.claims(SigningKey.rsa("k-1").token(CLAIMS, expires_at=NOW + 60))


def test_an_unreachable_provider_is_not_the_callers_fault(provider: SigningKey) -> None:
    check = verifier("http://127.0.0.1:9/jwks.json")  # the discard port: nothing listens
    with pytest.raises(IdentityProviderError, match="identity provider's keys"):
        check.claims(provider.token(CLAIMS, expires_at=NOW + 60))


def test_a_provider_that_failed_is_not_asked_again_for_half_a_minute(
    jwks_url: str, provider: SigningKey
) -> None:
    """``serve`` answers one request at a time: a provider that is down must not hold each
    request behind a fetch. After a failure, tokens get a 503 at once until the pause is over
    (the clock injected); then the provider is asked again."""
    clock = [NOW]
    check = TokenVerifier(jwks_url, issuer=ISSUER, now=lambda: clock[0])
    token = provider.token(CLAIMS, expires_at=NOW + HOUR_S)
    _Jwks.status = 500
    with pytest.raises(IdentityProviderError, match="identity provider's keys"):
        check.claims(token)
    assert _Jwks.fetched == 1
    clock[0] = NOW + JWKS_RETRY_AFTER_S - 1
    _Jwks.status = 200
    with pytest.raises(IdentityProviderError, match="tried again 30 s after"):
        check.claims(token)
    assert _Jwks.fetched == 1  # not asked during the pause
    clock[0] = NOW + JWKS_RETRY_AFTER_S
    assert check.claims(token)["custom:id"] == "amira"
    assert _Jwks.fetched == 2
