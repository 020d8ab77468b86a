"""The MCP server (streamable HTTP) behind `/organizations/{orgId}/mcp` (api/mcp/routes.py).

Every request passes the console's guards first (api/mcp/access.py), then reaches the official SDK's session
manager, which serves the protocol; the handlers are api/mcp/server.py's. Per-session state lives here, in the
session book: the session's org, user and conversation. A session is bound to the principal that opened it —
the SDK refuses another token's subject (404, as for an unknown session) and the book refuses the session in
another org — so a session id alone is worth nothing. Sessions live in the process that opened them (the SDK's
manager is in memory): behind several API processes, route an MCP client's requests to one of them (sticky
sessions); a client that lands elsewhere gets 404 and opens a new session, as the specification has it.
A request from a browser page of another origin is refused (DNS rebinding).
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import anyio
from anyio.abc import TaskStatus
from litestar import Request
from litestar.connection import ASGIConnection
from litestar.types import HTTPResponseBodyEvent, HTTPResponseStartEvent, Message, Receive, Scope, Send
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from agent.mcp_calls import McpCalls, McpWho
from api.auth import TokenClaims
from api.mcp.access import base_url
from api.mcp.server import CallContext, build_server
from core.i18n import resolve_locale
from core.settings import Settings

MAX_BODY_BYTES = 256 * 1024  # the app's own limit for a request body
MAX_SESSIONS = 10_000
_HERE = "spotter.mcp"  # the scope key the endpoint hands the handlers their request's context under


@dataclass
class McpSession:
    org_id: uuid.UUID
    user_id: uuid.UUID
    conversation_id: uuid.UUID = field(default_factory=uuid.uuid4)  # created with the session's first call


class SessionBook:
    """The open sessions' state, by session id; the least recently used is forgotten past `limit` (the SDK's
    manager refuses more open sessions than that anyway)."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._sessions: OrderedDict[str, McpSession] = OrderedDict()

    def open(self, session_id: str, org_id: uuid.UUID, user_id: uuid.UUID) -> McpSession:
        session = self._sessions[session_id] = McpSession(org_id, user_id)
        if len(self._sessions) > self.limit:
            self._sessions.popitem(last=False)
        return session

    def get(self, session_id: str | None) -> McpSession | None:
        session = self._sessions.get(session_id) if session_id else None
        if session is not None:
            self._sessions.move_to_end(session_id)  # type: ignore[arg-type]
        return session

    def close(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)


class McpEndpoint:
    """The SDK's server and session manager over the engine's MCP calls, and the ASGI entry the route calls."""

    def __init__(self, settings: Settings, calls: McpCalls) -> None:
        self.settings = settings
        # the SDK logs each session it opens or refuses, with its id, at INFO: the service logs its own requests
        logging.getLogger("mcp").setLevel(logging.WARNING)
        self.sessions = SessionBook()
        self.server = build_server(calls, self.context_of, _version())
        self.manager = StreamableHTTPSessionManager(app=self.server, max_request_body_size=MAX_BODY_BYTES,
                                                    max_sessions=MAX_SESSIONS)

    async def serve(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """The session manager's lifetime: from the first MCP request until the app stops (cancelled)."""
        async with self.manager.run():
            task_status.started()
            await anyio.sleep_forever()

    def context_of(self, ctx: ServerRequestContext[Any, Any]) -> CallContext:
        scope = ctx.request.scope if ctx.request is not None else {}
        here = scope.get(_HERE)
        if not isinstance(here, CallContext):
            raise RuntimeError("an MCP request reached a handler without passing the endpoint")
        return here

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        connection: Request = Request(scope)
        state = scope["state"]
        access, caller = state["access"], state["caller"]
        base = base_url(self.settings, connection)
        if _foreign_origin(connection, base):
            await _refuse(send, 403, "Cross-origin requests are not accepted")
            return
        session_id = connection.headers.get(MCP_SESSION_ID_HEADER)
        session = self.sessions.get(session_id)
        if session_id is not None and (session is None or (session.org_id, session.user_id) != (
                access.org_id, caller.user_id)):
            await _refuse(send, 404, "Session not found")  # as the SDK answers an unknown one
            return
        who = McpWho(access, caller, resolve_locale(connection.headers.get("x-locale"),
                                                    connection.headers.get("accept-language")),
                     str(state.get("trace_id") or uuid.uuid4().hex))
        scope[_HERE] = CallContext(who, session.conversation_id if session else None, base)  # type: ignore[literal-required]
        scope["user"] = _principal(state["claims"])
        # Litestar's ASGI types (TypedDicts) and the MCP SDK's (Starlette's MutableMapping) describe the same dicts,
        # and mypy converts neither into the other
        await self.manager.handle_request(scope, receive, self._booking(  # type: ignore[arg-type]
            send, session_id, access.org_id, caller.user_id, connection.method))

    def _booking(self, send: Send, asked: str | None, org_id: uuid.UUID, user_id: uuid.UUID, method: str) -> Send:
        """`send`, opening the book's entry when the SDK opens a session and closing it when the client ends one."""

        async def booking(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = {name.lower(): value for name, value in message.get("headers", [])}
                opened = headers.get(MCP_SESSION_ID_HEADER.encode())
                if asked is None and opened is not None and message["status"] < 400:
                    self.sessions.open(opened.decode(), org_id, user_id)
                elif asked is not None and method == "DELETE" and message["status"] < 300:
                    self.sessions.close(asked)
            await send(message)

        return booking


def _version() -> str:
    try:
        return metadata.version("spotter")
    except metadata.PackageNotFoundError:  # a checkout run without installing it
        return "0"


def _principal(claims: TokenClaims) -> AuthenticatedUser:
    """The SDK's principal for session binding: the token's issuer and subject (never the token itself)."""
    issuer, subject = claims.claims.get("iss"), claims.sub
    digest = hashlib.sha256(f"{issuer}|{subject}".encode()).hexdigest()
    return AuthenticatedUser(AccessToken(token=digest, client_id="spotter", scopes=[], subject=subject,
                                         claims={"iss": issuer} if issuer else None))


def _foreign_origin(connection: ASGIConnection, base: str) -> bool:
    """A browser page of another origin (MCP clients outside browsers send no Origin)."""
    origin = connection.headers.get("origin")
    if not origin:
        return False
    return origin.rstrip("/") != base


async def _refuse(send: Send, status: int, message: str) -> None:
    body = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"' + message.encode() + b'"}}'
    start: HTTPResponseStartEvent = {
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]}
    end: HTTPResponseBodyEvent = {"type": "http.response.body", "body": body, "more_body": False}  # ASGI's default
    await send(start)
    await send(end)
