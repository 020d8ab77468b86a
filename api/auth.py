"""Session-token verification: one RS256 JWT verifier over a JWKS, for Clerk and for dev mode.

Clerk mode fetches CLERK_JWKS_URL (cached; refetched when a token names an unknown `kid`). Dev mode
uses the same verifier over a key pair generated once into DATA_DIR, whose public half is served at
`/.well-known/jwks.json`; `spotter dev-token` signs with the private half.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from core.errors import Unauthorized
from core.settings import Settings

LEEWAY_SECONDS = 60
DEV_ISSUER = "spotter-dev"
JWKS_REFRESH_MIN_INTERVAL = 10.0

JwksFetcher = Callable[[], Awaitable[dict]]


@dataclass(frozen=True)
class TokenClaims:
    sub: str
    email: str | None
    claims: dict


class JwksCache:
    """Keys by `kid`, fetched lazily and refetched (rate-limited) when an unknown kid shows up."""

    def __init__(self, fetch: JwksFetcher) -> None:
        self._fetch = fetch
        self._keys: dict[str, rsa.RSAPublicKey] = {}
        self._fetched_at = 0.0
        self._lock = asyncio.Lock()

    async def key_for(self, kid: str | None) -> rsa.RSAPublicKey | None:
        if kid in self._keys:
            return self._keys[kid]
        async with self._lock:
            if kid in self._keys:
                return self._keys[kid]
            if time.monotonic() - self._fetched_at >= JWKS_REFRESH_MIN_INTERVAL or not self._keys:
                await self._refresh()
        return self._keys.get(kid) if kid is not None else None

    async def _refresh(self) -> None:
        try:
            document = await self._fetch()
        except (httpx.HTTPError, ValueError) as exc:
            raise Unauthorized("token_invalid", detail=f"JWKS unavailable: {exc}") from exc
        keys: dict[str, rsa.RSAPublicKey] = {}
        for jwk in document.get("keys", []):
            if jwk.get("kty") == "RSA" and jwk.get("kid"):
                key = RSAAlgorithm.from_jwk(json.dumps(jwk))
                if isinstance(key, rsa.RSAPublicKey):  # an entry with the private members signs nothing we verify
                    keys[jwk["kid"]] = key
        self._keys = keys
        self._fetched_at = time.monotonic()


class JwtVerifier:
    """Verifies RS256 session tokens: signature by kid, iss, exp/nbf (60 s leeway), azp when configured.

    A session token comes back on every request of its session; a token whose signature and claims were
    verified is remembered (at most VERIFIED_KEPT of them), and on the next request only its time window
    and its signing key are checked again: still inside exp/nbf, and the key still the JWKS's key for its kid."""

    VERIFIED_KEPT = 4096

    def __init__(self, jwks: JwksCache, *, issuer: str, authorized_parties: list[str] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.jwks = jwks
        self.issuer = issuer
        self.authorized_parties = authorized_parties or []
        self.clock = clock
        self._verified: OrderedDict[str, tuple[TokenClaims, str | None, rsa.RSAPublicKey]] = OrderedDict()  # claims, kid, key

    async def verify(self, token: str) -> TokenClaims:
        known = self._verified.get(token)
        if known is not None:
            remembered, kid, signed_with = known
            if await self.jwks.key_for(kid) is signed_with and self._in_window(remembered.claims):
                self._verified.move_to_end(token)
                return remembered
            del self._verified[token]  # expired, or its key rotated out: verified afresh (and refused) below
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise Unauthorized("token_invalid", detail="malformed token") from exc
        try:
            unverified = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise Unauthorized("token_invalid", detail="malformed token") from exc
        if not _numeric_dates(unverified):  # before PyJWT reads them, which takes "9999999999" or true
            raise Unauthorized("token_invalid", detail="exp, nbf and iat must be numeric dates")
        if header.get("alg") != "RS256":
            raise Unauthorized("token_invalid", detail="unsupported algorithm")
        key = await self.jwks.key_for(header.get("kid"))
        if key is None:
            raise Unauthorized("token_invalid", detail="unknown signing key")
        try:
            claims = jwt.decode(token, key=key, algorithms=["RS256"], issuer=self.issuer, leeway=LEEWAY_SECONDS,
                                options={"require": ["exp", "iss", "sub"], "verify_aud": False})
        except jwt.ExpiredSignatureError as exc:
            raise Unauthorized("token_expired") from exc
        except jwt.PyJWTError as exc:
            raise Unauthorized("token_invalid", detail=str(exc)) from exc
        if self.authorized_parties and claims.get("azp") not in self.authorized_parties:
            raise Unauthorized("token_invalid", detail="unauthorized party")
        verified = TokenClaims(sub=str(claims["sub"]), email=claims.get("email"), claims=claims)
        self._verified[token] = (verified, header.get("kid"), key)
        if len(self._verified) > self.VERIFIED_KEPT:
            self._verified.popitem(last=False)
        return verified

    def _in_window(self, claims: dict) -> bool:
        now = self.clock()
        nbf = claims.get("nbf")
        return now <= float(claims["exp"]) + LEEWAY_SECONDS and (nbf is None or now >= float(nbf) - LEEWAY_SECONDS)


_DATE_CLAIMS = ("exp", "nbf", "iat")


def _numeric_dates(claims: dict) -> bool:
    """RFC 7519 §2: the registered date claims are JSON numbers (a numeric string like "9999999999" is not,
    though PyJWT would read it); a boolean is not one either."""
    return all(isinstance(claims[name], int | float) and not isinstance(claims[name], bool)
               for name in _DATE_CLAIMS if name in claims)


class DevKeys:
    """The dev-mode RSA key pair, generated once into DATA_DIR/dev-jwt-key.pem."""

    def __init__(self, data_dir: Path) -> None:
        path = data_dir / "dev-jwt-key.pem"
        if not path.exists():
            data_dir.mkdir(parents=True, exist_ok=True)
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
            tmp = path.with_suffix(f".{uuid.uuid4().hex}.tmp")
            tmp.write_bytes(pem)
            tmp.chmod(0o600)
            tmp.replace(path)
        private_key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(private_key, rsa.RSAPrivateKey):
            raise ValueError(f"{path} holds no RSA private key")
        self.private_key = private_key
        public_jwk = json.loads(RSAAlgorithm.to_jwk(self.private_key.public_key()))
        self.kid = "dev-" + hashlib.sha256(public_jwk["n"].encode()).hexdigest()[:16]
        self.public_jwk = {**public_jwk, "kid": self.kid, "use": "sig", "alg": "RS256"}

    def jwks(self) -> dict:
        return {"keys": [self.public_jwk]}

    def sign(self, *, sub: str, email: str, ttl_seconds: int = 8 * 3600, issuer: str = DEV_ISSUER,
             audience: str | None = None) -> str:
        """A session token; with `audience`, one issued for that resource (the MCP server's: api/mcp/access.py)."""
        now = int(time.time())
        claims: dict[str, object] = {"sub": sub, "email": email, "iss": issuer, "iat": now, "nbf": now,
                                     "exp": now + ttl_seconds, "sid": uuid.uuid4().hex}
        if audience:
            claims["aud"] = audience
        return jwt.encode(claims, self.private_key, algorithm="RS256", headers={"kid": self.kid})


def build_verifier(settings: Settings) -> tuple[JwtVerifier, DevKeys | None]:
    """The verifier for the configured AUTH_MODE, plus the dev keys when in dev mode."""
    if settings.auth_mode == "clerk":
        url = settings.clerk_jwks_url or ""

        async def fetch() -> dict:
            async with httpx.AsyncClient(timeout=5.0) as client:
                response = await client.get(url)
                response.raise_for_status()
                return response.json()

        verifier = JwtVerifier(JwksCache(fetch), issuer=settings.clerk_issuer or "",
                               authorized_parties=settings.clerk_authorized_parties)
        return verifier, None
    keys = DevKeys(settings.data_dir)

    async def local() -> dict:
        return keys.jwks()

    return JwtVerifier(JwksCache(local), issuer=DEV_ISSUER,
                       authorized_parties=settings.clerk_authorized_parties), keys
