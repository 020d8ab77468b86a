"""Health and the dev-mode JWKS."""

from __future__ import annotations

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec

from api.auth import DevKeys
from api.responses import HealthBody, JwksBody, LiveBody
from core.readiness import Readiness


class SystemController(Controller):
    @get("/health/live", responses={200: ResponseSpec(LiveBody, description="The process answers")})
    async def live(self) -> Response:
        """Liveness: the process answers. No I/O, so load never makes it fail."""
        return Response({"status": "ok"}, status_code=200)

    @get("/health", responses={200: ResponseSpec(HealthBody, description="Ready"),
                               503: ResponseSpec(HealthBody, description="Postgres or Redis is down")})
    async def health(self, readiness: NamedDependency[Readiness]) -> Response:
        """Readiness: Postgres and Redis, over the probe's own connections (never the request pools)."""
        states = await readiness.check()
        ok = all(state == "up" for state in states.values())
        return Response({"status": "ok" if ok else "degraded", **states}, status_code=200 if ok else 503)


class DevJwksController(Controller):
    """Served only when AUTH_MODE=dev."""

    @get("/.well-known/jwks.json")
    async def jwks(self, dev_keys: NamedDependency[DevKeys]) -> JwksBody:
        return JwksBody(**dev_keys.jwks())
