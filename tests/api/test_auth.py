"""Session tokens: one RS256 verifier over a JWKS, in dev mode through the app and in Clerk mode over HTTP."""

import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from litestar import Litestar, get

from api.auth import DEV_ISSUER, JwksCache, JwtVerifier, build_verifier
from core.errors import Unauthorized
from core.settings import load_settings
from tests.servers import ThreadedServer


def _sign(key, claims: dict, kid: str) -> str:
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})


def _claims(**overrides) -> dict:
    now = int(time.time())
    return {"sub": "user_x", "iss": DEV_ISSUER, "iat": now, "nbf": now, "exp": now + 600, **overrides}


async def test_valid_token_reaches_me(client, factory) -> None:
    user = await factory.user()
    response = await client.get("/me", headers=user.headers)
    assert response.status_code == 200
    assert response.json()["email"] == user.email


async def test_missing_header_is_token_missing(client) -> None:
    response = await client.get("/me")
    assert response.status_code == 401
    assert response.json()["code"] == "token_missing"


async def test_expired_token_is_token_expired(client, factory, dev_keys) -> None:
    user = await factory.user()
    old = int(time.time()) - 3600
    token = _sign(dev_keys.private_key, _claims(sub=user.clerk_id, iat=old, nbf=old, exp=old + 60), dev_keys.kid)
    response = await client.get("/me", headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert response.json()["code"] == "token_expired"


async def test_expiry_within_leeway_is_accepted(client, factory, dev_keys) -> None:
    user = await factory.user()
    now = int(time.time())
    token = _sign(dev_keys.private_key, _claims(sub=user.clerk_id, exp=now - 30), dev_keys.kid)
    response = await client.get("/me", headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 200


async def test_wrong_issuer_is_token_invalid(client, factory, dev_keys) -> None:
    user = await factory.user()
    token = _sign(dev_keys.private_key, _claims(sub=user.clerk_id, iss="https://evil.example"), dev_keys.kid)
    response = await client.get("/me", headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert response.json()["code"] == "token_invalid"


async def test_tampered_signature_is_token_invalid(client, factory) -> None:
    user = await factory.user()
    head, payload, sig = user.token.split(".")
    forged_payload = jwt.utils.base64url_encode(
        json.dumps({**jwt.decode(user.token, options={"verify_signature": False}), "sub": "user_admin"}).encode()
    ).decode()
    for token in (f"{head}.{forged_payload}.{sig}", f"{head}.{payload}.{sig[:-4]}AAAA"):
        response = await client.get("/me", headers={"authorization": f"Bearer {token}"})
        assert response.status_code == 401
        assert response.json()["code"] == "token_invalid"


async def test_unknown_kid_is_token_invalid(client, factory) -> None:
    user = await factory.user()
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token = _sign(other, _claims(sub=user.clerk_id), "someone-elses-key")
    response = await client.get("/me", headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert response.json()["code"] == "token_invalid"


async def test_garbage_and_wrong_scheme_are_token_invalid(client) -> None:
    for header in ("Bearer not.a.jwt", "Basic dXNlcjpwYXNz", "Token abc"):
        response = await client.get("/me", headers={"authorization": header})
        assert response.status_code == 401
        assert response.json()["code"] == "token_invalid"


async def test_dev_jwks_is_published_in_dev_mode(client, dev_keys) -> None:
    response = await client.get("/.well-known/jwks.json")
    assert response.status_code == 200
    assert response.json()["keys"][0]["kid"] == dev_keys.kid


class _JwksHost:
    """A JWKS endpoint over real HTTP whose key set can be rotated, counting fetches."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, object]] = []
        self.fetches = 0
        host = self

        @get("/jwks.json")
        async def jwks() -> dict:
            host.fetches += 1
            return {"keys": [{**json.loads(RSAAlgorithm.to_jwk(k.public_key())), "kid": kid} for kid, k in host.keys]}

        self.server = ThreadedServer(Litestar([jwks]))

    def add_key(self, kid: str):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.keys.append((kid, key))
        return key


@pytest.fixture
def jwks_host():
    host = _JwksHost()
    host.server.start()
    yield host
    host.server.stop()


async def test_clerk_mode_caches_jwks_and_refetches_on_unknown_kid(jwks_host, tmp_path) -> None:
    issuer = "https://clerk.harbor.example"
    settings = load_settings(auth_mode="clerk", clerk_jwks_url=f"{jwks_host.server.url}/jwks.json",
                             clerk_issuer=issuer, clerk_authorized_parties="https://app.harbor.example",
                             data_dir=tmp_path)
    verifier, dev_keys = build_verifier(settings)
    assert dev_keys is None
    first = jwks_host.add_key("k1")
    azp = {"azp": "https://app.harbor.example"}
    claims = await verifier.verify(_sign(first, _claims(iss=issuer, **azp), "k1"))
    await verifier.verify(_sign(first, _claims(iss=issuer, **azp), "k1"))
    assert claims.sub == "user_x" and jwks_host.fetches == 1

    second = jwks_host.add_key("k2")  # rotation: a new kid appears
    verifier.jwks._fetched_at = 0.0  # the refetch rate limit is time-based; pretend time has passed
    assert (await verifier.verify(_sign(second, _claims(iss=issuer, **azp), "k2"))).sub == "user_x"
    assert jwks_host.fetches == 2

    with pytest.raises(Unauthorized) as wrong_party:
        await verifier.verify(_sign(first, _claims(iss=issuer, azp="https://evil.example"), "k1"))
    assert wrong_party.value.code == "token_invalid"


async def test_verifier_rejects_hs256_and_none_algorithms() -> None:
    async def empty() -> dict:
        return {"keys": []}

    verifier = JwtVerifier(JwksCache(empty), issuer=DEV_ISSUER)
    for token in (jwt.encode(_claims(), "secret", algorithm="HS256"),
                  jwt.encode(_claims(), None, algorithm="none")):
        with pytest.raises(Unauthorized) as refused:
            await verifier.verify(token)
        assert refused.value.code == "token_invalid"


async def test_a_jwks_entry_holding_a_private_key_is_no_signing_key() -> None:
    """A JWKS publishes public keys; an entry with the private members (a misconfigured issuer) is not a key the
    verifier checks signatures with: the token is `token_invalid`, not an error inside the verifier."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    async def leaky() -> dict:
        return {"keys": [{**json.loads(RSAAlgorithm.to_jwk(key)), "kid": "leaked"}]}

    verifier = JwtVerifier(JwksCache(leaky), issuer=DEV_ISSUER)
    with pytest.raises(Unauthorized) as refused:
        await verifier.verify(_sign(key, _claims(), "leaked"))
    assert refused.value.code == "token_invalid"


async def test_a_verified_token_is_remembered_until_it_expires_or_its_key_is_gone() -> None:
    """The second request with a token skips the signature, never its time window or its key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    keys = {"k1": json.loads(RSAAlgorithm.to_jwk(key.public_key()))}

    async def fetch() -> dict:
        return {"keys": [{**jwk, "kid": kid} for kid, jwk in keys.items()]}

    clock = [time.time()]
    verifier = JwtVerifier(JwksCache(fetch), issuer=DEV_ISSUER, clock=lambda: clock[0])
    token = _sign(key, _claims(exp=int(clock[0]) + 600), "k1")
    first = await verifier.verify(token)
    calls = []
    original = jwt.decode
    try:
        def counted(*a, **k):  # counts signature verifications (the date-type pre-read verifies nothing)
            if k.get("key") is not None:
                calls.append(1)
            return original(*a, **k)

        jwt.decode = counted  # type: ignore[assignment]
        assert (await verifier.verify(token)).sub == first.sub == "user_x" and calls == []  # remembered
        clock[0] += 600 + 61  # past exp and its leeway on the verifier's clock: verified afresh (PyJWT's own
        await verifier.verify(token)  # clock still says valid; test_expired_token_is_token_expired covers that)
    finally:
        jwt.decode = original  # type: ignore[assignment]
    assert calls == [1]

    clock[0] = time.time()
    fresh = _sign(key, _claims(exp=int(clock[0]) + 600), "k1")
    await verifier.verify(fresh)
    keys.clear()  # the signing key left the JWKS
    verifier.jwks._keys.clear()
    verifier.jwks._fetched_at = 0.0
    with pytest.raises(Unauthorized) as gone:
        await verifier.verify(fresh)
    assert gone.value.code == "token_invalid"


@pytest.mark.parametrize("dates", [{"exp": "9999999999"}, {"nbf": "0"}, {"iat": "1"}, {"exp": True},
                                   {"exp": [9999999999]}])
async def test_registered_dates_that_are_not_numbers_are_token_invalid(client, factory, dev_keys, dates) -> None:
    """RFC 7519 NumericDate: a signed token whose exp, nbf or iat is a string (PyJWT would read "9999999999"),
    a boolean or a list is refused on /me and /usage, and twice in a row (nothing is remembered)."""
    org = await factory.org()
    user = await factory.user(org, role="owner")
    token = _sign(dev_keys.private_key, _claims(sub=user.clerk_id, **dates), dev_keys.kid)
    headers = {"authorization": f"Bearer {token}"}
    for _ in range(2):
        for path in ("/me", f"/organizations/{org.id}/agent/usage"):
            response = await client.get(path, headers=headers)
            assert response.status_code == 401, (path, response.text)
            assert response.json()["code"] == "token_invalid"
