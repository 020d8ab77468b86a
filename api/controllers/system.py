"""Health and the dev-mode JWKS."""

from __future__ import annotations

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec

from api.auth import DevKeys
from api.guards import require_caller
from api.responses import BEARER, DevLogins, HealthBody, JwksBody, LiveBody, error_responses, shape
from core.database import Database
from core.outages import RETRY_AFTER_SECONDS
from core.readiness import Readiness
from gym.demo.tenancy import DEMO_ORGS, clerk_id_for, seeded_logins

DEV_LOGIN_TTL_SECONDS = 8 * 3600


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
        down = [name for name, state in states.items() if state != "up"]
        return Response({"status": "degraded" if down else "ok", **states, "down": down},
                        status_code=503 if down else 200,
                        headers={"retry-after": str(RETRY_AFTER_SECONDS)} if down else None)


class DevJwksController(Controller):
    """Served only when AUTH_MODE=dev: the dev JWKS, and the demo logins for the console's role switcher."""

    @get("/.well-known/jwks.json")
    async def jwks(self, dev_keys: NamedDependency[DevKeys]) -> JwksBody:
        return JwksBody(**dev_keys.jwks())

    @get("/dev/logins", guards=[require_caller], security=BEARER, responses=error_responses(401))
    async def logins(self, dev_keys: NamedDependency[DevKeys], db: NamedDependency[Database]) -> DevLogins:
        """The demo gym's seeded logins (gym/demo/tenancy.py) with a dev token each, to a signed-in caller;
        only in dev auth, where `spotter dev-token` signs the same tokens for anyone at the machine."""
        async with db.owner() as session:
            seeded = await seeded_logins(session)
        orgs = {org.slug: org.name for org in DEMO_ORGS}
        items = [{"email": d.email, "name": d.name, "role": d.role, "orgName": orgs[d.org_slug],
                  "token": dev_keys.sign(sub=clerk_id_for(d.email), email=d.email,
                                         ttl_seconds=DEV_LOGIN_TTL_SECONDS)}
                 for d in seeded]
        return shape({"items": items}, DevLogins)
