"""OPTIONS answers every method its path routes, so `Allow` says what /schema documents.

Litestar 2 builds a path's OPTIONS handler when the path's first handler registers, and that handler keeps
answering with the methods known then: `GET .../conversations/{id}`, registered before PATCH and DELETE, answered
`Allow: GET, OPTIONS` (litestar#4169, fixed in Litestar 3). This `before_send` hook rewrites the header from the
route that served the request, once every handler is registered.
"""

from __future__ import annotations

from litestar import Litestar
from litestar.datastructures import MutableScopeHeaders
from litestar.routes import HTTPRoute
from litestar.types import Message, Scope


async def allow_routed_methods(message: Message, scope: Scope) -> None:
    if message["type"] != "http.response.start" or scope.get("method") != "OPTIONS":
        return
    headers = MutableScopeHeaders.from_message(message)
    if "allow" not in headers:  # a refusal (401, 403, 404) names no methods
        return
    handler = scope.get("route_handler")
    for route in Litestar.from_scope(scope).routes:
        if isinstance(route, HTTPRoute) and any(h is handler for h in route.route_handlers):
            headers["allow"] = ", ".join(sorted(route.methods))
            return
