"""What a handler may ask for by name (Litestar dependency injection).

The guards put the caller and their access on the connection; the app holds its long-lived services
(api/resources.py); these providers hand each handler exactly what it names — an org-scoped session (one
transaction under the caller's org and user, committed after the handler returns, rolled back when it
raises), the engine's orchestrator and resumer, the app's detached turns, the tool registry and runner, the
request's locale and trace id. Controllers never reach into the app's state themselves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from sqlalchemy.ext.asyncio import AsyncSession

from agent.orchestrator import Orchestrator
from agent.resume import Resumer
from agent.turn_runner import TurnRunner
from api.auth import DevKeys
from api.errors import request_locale, trace_id_of
from api.resources import Resources
from core.database import Database
from core.readiness import Readiness
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools.registry import ToolRegistry
from tools.runner import ToolRunner


def resources_of(connection: ASGIConnection) -> Resources:
    return connection.app.state.resources


async def provide_caller(request: ASGIConnection) -> Caller:
    return request.state.caller


async def provide_access(request: ASGIConnection) -> OrgAccess:
    return request.state.access


async def provide_db(request: ASGIConnection) -> Database:
    return resources_of(request).db


async def provide_settings(request: ASGIConnection) -> Settings:
    return resources_of(request).settings


async def provide_orchestrator(request: ASGIConnection) -> Orchestrator:
    return resources_of(request).agent.orchestrator


async def provide_resumer(request: ASGIConnection) -> Resumer:
    return resources_of(request).agent.resumer


async def provide_turns(request: ASGIConnection) -> TurnRunner:
    """The app's detached turns (its lifespan owns them, not a request)."""
    return request.app.state.turns


async def provide_registry(request: ASGIConnection) -> ToolRegistry:
    return resources_of(request).agent.registry


async def provide_runner(request: ASGIConnection) -> ToolRunner:
    return resources_of(request).agent.orchestrator.runner


async def provide_readiness(request: ASGIConnection) -> Readiness:
    return resources_of(request).readiness


async def provide_dev_keys(request: ASGIConnection) -> DevKeys:
    keys = resources_of(request).dev_keys
    if keys is None:  # the JWKS controller is mounted in dev mode only
        raise RuntimeError("dev keys asked for outside dev mode")
    return keys


async def provide_locale(request: Request) -> str:
    return request_locale(request)


async def provide_trace_id(request: Request) -> str:
    return trace_id_of(request)


async def provide_session(access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                          db: NamedDependency[Database]) -> AsyncIterator[AsyncSession]:
    """One transaction in the caller's org and user scope (row-level security) for the handler."""
    async with db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
        yield session


APP_DEPENDENCIES = {
    "caller": Provide(provide_caller),
    "access": Provide(provide_access),
    "db": Provide(provide_db),
    "settings": Provide(provide_settings),
    "orchestrator": Provide(provide_orchestrator),
    "resumer": Provide(provide_resumer),
    "turns": Provide(provide_turns),
    "registry": Provide(provide_registry),
    "runner": Provide(provide_runner),
    "readiness": Provide(provide_readiness),
    "dev_keys": Provide(provide_dev_keys),
    "locale": Provide(provide_locale),
    "trace_id": Provide(provide_trace_id),
    "session": Provide(provide_session),
}
