"""Who may use the MCP server: the console's bearer tokens, issued for this server, of a staff member of the org.

The guards are the console's (api/guards.py: the token verified, the membership read from the database, members
refused) with one more in front: the token's audience. A token is accepted only when its `aud` names this
server — MCP_AUDIENCE, or with PUBLIC_URL set the service's address or the endpoint's own URL (RFC 8707's
resource indicator) — so a token minted for the console, or for another service, is refused here (the MCP
specification's "token audience validation"). The token is never passed on: the server reads the caller from it
and calls no other service with it. A refusal of the token answers 401 with `WWW-Authenticate: Bearer resource_metadata=...` naming the
protected-resource metadata of RFC 9728, whose `authorization_servers` is Clerk's issuer (in dev mode, the
service itself: it is what signs `spotter dev-token --mcp`, and it offers no OAuth flow).
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, Response, get
from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from api.dependencies import resources_of
from api.errors import handle_service_error
from api.guards import bearer_claims
from core.errors import ServiceError, Unauthorized
from core.settings import Settings

MCP_PATH = "/organizations/{org_id:str}/mcp"
METADATA_PATH = "/.well-known/oauth-protected-resource"


def base_url(settings: Settings, connection: ASGIConnection) -> str:
    """The service's public address: PUBLIC_URL, else the request's own."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    return str(connection.base_url).rstrip("/")


def endpoint_url(base: str, org_id: str) -> str:
    return f"{base}/organizations/{org_id}/mcp"


def metadata_url(base: str, org_id: str) -> str:
    """RFC 9728 §3.1: the well-known path inserted between the host and the resource's path."""
    return f"{base}{METADATA_PATH}/organizations/{org_id}/mcp"


async def issued_for_mcp(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Guard: the bearer token's `aud` names this server (checked before the membership is read)."""
    claims = connection.state.claims = await bearer_claims(connection)
    settings = resources_of(connection).settings
    aud = claims.claims.get("aud")
    audiences = {aud} if isinstance(aud, str) else set(aud) if isinstance(aud, list) else set()
    accepted = {settings.mcp_audience}
    if settings.public_url:  # never the request's own Host: a token for another service would name that host
        base = settings.public_url.rstrip("/")
        accepted |= {base, endpoint_url(base, str(connection.path_params.get("org_id", "")))}
    if not audiences & accepted:
        raise Unauthorized("token_invalid", detail="the token was not issued for this MCP server")


def refused_token(request: Request, exc: ServiceError) -> Response:
    """The console's error body, plus the challenge that tells an MCP client where to get a token (RFC 6750 §3,
    RFC 9728 §5.1): `error="invalid_token"` when a token came and was refused, none when none came."""
    response = handle_service_error(request, exc)
    base = base_url(resources_of(request).settings, request)
    challenge = f'Bearer resource_metadata="{metadata_url(base, str(request.path_params.get("org_id", "")))}"'
    if exc.code != "token_missing":
        challenge += ', error="invalid_token"'
    response.headers["www-authenticate"] = challenge
    return response


def authorization_servers(settings: Settings, base: str) -> list[str]:
    return [settings.clerk_issuer] if settings.auth_mode == "clerk" and settings.clerk_issuer else [base]


def resource_metadata(settings: Settings, base: str, resource: str) -> dict[str, Any]:
    """RFC 9728 §2: the protected resource, who issues its tokens, how a token is sent."""
    return {"resource": resource, "authorization_servers": authorization_servers(settings, base),
            "bearer_methods_supported": ["header"], "resource_name": "Spotter",
            "resource_documentation": f"{base}/console/"}


class ProtectedResourceController(Controller):
    """RFC 9728 metadata: the service as a whole, and each org's MCP endpoint (public: names no org's data)."""

    path = METADATA_PATH
    include_in_schema = False

    @get("/", sync_to_thread=False)
    def service(self, request: Request) -> dict[str, Any]:
        settings = resources_of(request).settings
        base = base_url(settings, request)
        return resource_metadata(settings, base, base)

    @get("/organizations/{org_id:uuid}/mcp", sync_to_thread=False)
    def endpoint(self, request: Request) -> dict[str, Any]:
        settings = resources_of(request).settings
        base = base_url(settings, request)
        return resource_metadata(settings, base, endpoint_url(base, str(request.path_params["org_id"])))
