"""Health and the dev-mode JWKS."""

from __future__ import annotations

import asyncio

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec

from api.resources import Resources
from api.responses import HealthBody, JwksBody


class SystemController(Controller):
    @get("/health", responses={200: ResponseSpec(HealthBody, description="Ready"),
                               503: ResponseSpec(HealthBody, description="Postgres or Redis is down")})
    async def health(self, resources: NamedDependency[Resources]) -> Response:
        async def check(probe) -> str:
            try:
                await asyncio.wait_for(probe(), timeout=2.0)
                return "up"
            except Exception:
                return "down"

        postgres, redis = await asyncio.gather(check(resources.db.ping), check(resources.redis.ping))
        ok = postgres == "up" and redis == "up"
        return Response({"status": "ok" if ok else "degraded", "postgres": postgres, "redis": redis},
                        status_code=200 if ok else 503)


class DevJwksController(Controller):
    """Served only when AUTH_MODE=dev."""

    @get("/.well-known/jwks.json")
    async def jwks(self, resources: NamedDependency[Resources]) -> JwksBody:
        assert resources.dev_keys is not None
        return JwksBody(**resources.dev_keys.jwks())
