"""Who is calling, and may they touch this org: guards run before any body is parsed.

`require_caller` verifies the bearer token and loads the user; `require_org_member` reads the
caller's membership in the path's org from the database (404 org_not_found, never a leak);
`staff_only` refuses the member role (403 member_forbidden).
"""

from __future__ import annotations

import uuid

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from api.auth import TokenClaims
from api.dependencies import resources_of
from core.errors import Forbidden, NotFound, Unauthorized
from core.tenancy import OrgAccess, find_caller_in_org, find_user_by_clerk_id


async def bearer_claims(connection: ASGIConnection) -> TokenClaims:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        raise Unauthorized("token_missing")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("token_invalid", detail="expected a Bearer token")
    return await resources_of(connection).verifier.verify(token.strip())


async def require_caller(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    claims = await bearer_claims(connection)
    async with resources_of(connection).db.lookup() as db:
        caller = await find_user_by_clerk_id(db, claims.sub)
    if caller is None:
        raise Unauthorized("token_invalid", detail="unknown user")
    connection.state.caller = caller


async def require_org_member(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    claims = await bearer_claims(connection)
    try:
        org_id = uuid.UUID(str(connection.path_params.get("org_id", "")))
    except ValueError:
        org_id = None
    async with resources_of(connection).db.lookup() as db:  # one statement, no transaction
        caller, access = await find_caller_in_org(db, claims.sub, org_id)
    if caller is None:
        raise Unauthorized("token_invalid", detail="unknown user")
    if access is None:
        raise NotFound("org_not_found")
    connection.state.caller = caller
    connection.state.access = access


async def staff_only(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    if "access" not in connection.state:
        await require_org_member(connection, handler)
    access: OrgAccess = connection.state.access
    if not access.is_staff:
        raise Forbidden("member_forbidden")

