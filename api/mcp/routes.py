"""`/organizations/{orgId}/mcp` in the Litestar app: the route, its metadata, and the MCP server loaded on demand.

The route is an HTTP handler that hands the request, its body unread, to the MCP server as an ASGI app (Litestar's
own ASGI handlers cannot take path parameters). The server — the official SDK, ~1.5 s of CPU to import — is
imported and started by the first MCP request, in a task group that lives as long as the app; a process nobody
connects to over MCP never loads it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup
from litestar import HttpMethod, route
from litestar.types import ASGIApp, Receive, Scope, Send

from api.guards import staff_only
from api.mcp.access import MCP_PATH, ProtectedResourceController, issued_for_mcp, refused_token
from core.errors import Unauthorized
from core.settings import Settings

if TYPE_CHECKING:
    from agent.mcp_calls import McpCalls
    from api.mcp.endpoint import McpEndpoint


class McpMount:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._calls: McpCalls | None = None
        self._group: TaskGroup | None = None
        self._endpoint: McpEndpoint | None = None
        self._starting = anyio.Lock()

    def bind(self, calls: McpCalls) -> None:
        """The engine's MCP calls, once the app's resources are open."""
        self._calls = calls

    @asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """The app's lifetime: the task group a started server lives in, cancelled when the app stops."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group, self._endpoint = None, None
                group.cancel_scope.cancel()

    async def endpoint(self) -> McpEndpoint:
        if self._endpoint is None:
            async with self._starting:
                if self._endpoint is None:
                    if self._group is None or self._calls is None:
                        raise RuntimeError("the MCP server starts only inside the app's lifespan")
                    from api.mcp.endpoint import McpEndpoint

                    endpoint = McpEndpoint(self.settings, self._calls)
                    await self._group.start(endpoint.serve)
                    self._endpoint = endpoint
        return self._endpoint

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (await self.endpoint()).handle(scope, receive, send)

    def routes(self) -> list[Any]:
        """The MCP route (the token's audience, then the console's staff guard) and its RFC 9728 metadata."""

        @route(MCP_PATH, http_method=[HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE], name="mcp",
               guards=[issued_for_mcp, staff_only], exception_handlers={Unauthorized: refused_token},
               include_in_schema=False)
        async def mcp() -> ASGIApp:
            return self.handle

        return [mcp, ProtectedResourceController]
