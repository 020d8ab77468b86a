"""The MCP server's handlers (the official SDK's low-level `Server`): `tools/list` and `tools/call`.

Each handler reads who calls from the HTTP request that carried it (the guards put the caller there) and the
session's conversation from the session book (api/mcp/endpoint.py), then calls one service: agent/mcp_calls.py.
A call that waits for approval is asked inline when the client can elicit (accept runs it, decline rejects it,
dismissing leaves it for the console); either answer goes through the engine's resumer.

Protocol: the handshake revisions from 2025-06-18 on (2025-06-18, 2025-11-25), whose sessions carry the
per-session state (the conversation) and the elicitation back-channel. An `initialize` offering an older revision
and any request of the session-less 2026-07-28 revision are answered -32022 naming the revisions served, so a
client that probes for 2026-07-28 first falls back to the handshake.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types
import structlog
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from agent.mcp_calls import CallResult, McpCalls, McpWho
from api.mcp.tools import STATUS_TOOL, UNDO_TOOL, action_words, failed, listed, result_of, undone
from core.errors import ServiceError
from core.i18n import error_message, translate

log = structlog.get_logger("api.mcp")

SERVED_VERSIONS = ("2025-06-18", "2025-11-25")
INSTRUCTIONS = ("Spotter acts on one gym's data with the caller's role. Writes that need a person's approval do "
                "not run until approved (the result carries an approvalId and a console link); pass a result's "
                "executionId to spotter__undo to undo it.")


@dataclass(frozen=True)
class CallContext:
    """What a handler knows of its request: who calls, the session's conversation, the service's address."""

    who: McpWho
    conversation_id: uuid.UUID | None
    base: str


ContextOf = Callable[[ServerRequestContext[Any, Any]], CallContext]


async def _served_versions(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Refuse what this server does not speak before anything runs (a ServerMiddleware): an `initialize` offering
    a revision older than 2025-06-18, and any request of the session-less revisions."""
    if ctx.method == "initialize":
        requested = (ctx.params or {}).get("protocolVersion")
        refused = requested in HANDSHAKE_PROTOCOL_VERSIONS and requested not in SERVED_VERSIONS
    else:
        requested = ctx.protocol_version
        refused = requested in MODERN_PROTOCOL_VERSIONS
    if refused:
        raise MCPError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
                       {"supported": list(SERVED_VERSIONS), "requested": requested})
    return await call_next(ctx)


def build_server(service: McpCalls, context_of: ContextOf, version: str) -> Server[Any]:
    """The low-level server over the engine's MCP calls."""

    async def list_tools(ctx: ServerRequestContext[Any, Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        who = context_of(ctx).who
        return types.ListToolsResult(tools=listed(service.tools(who.access.role), service.registry,
                                                  who.access.role, who.locale))

    async def call_tool(ctx: ServerRequestContext[Any, Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        here = context_of(ctx)
        who = here.who
        arguments = params.arguments if isinstance(params.arguments, dict) else {}
        if params.name in (UNDO_TOOL, STATUS_TOOL):
            return await _channel_tool(service, who, params.name, arguments, here)
        if here.conversation_id is None:
            raise MCPError(types.INVALID_REQUEST, "Tool calls need a session (initialize first)")
        result = await service.call(who, here.conversation_id, _client_title(ctx), params.name, arguments)
        if result.status == "pending" and result.execution_id is not None and _can_elicit(ctx):
            answer = await _ask(ctx, result, who.locale)
            if answer in ("accept", "decline"):
                result = await service.decide(who, result.execution_id, approved=answer == "accept")
        return result_of(result, who.locale, approval_url(here, result))

    server: Server[Any] = Server("spotter", version=version, title="Spotter", instructions=INSTRUCTIONS,
                                 on_list_tools=list_tools, on_call_tool=call_tool)
    server.middleware.append(_served_versions)
    return server


async def _channel_tool(service: McpCalls, who: McpWho, name: str, arguments: dict[str, Any],
                        here: CallContext) -> types.CallToolResult:
    """spotter__undo and spotter__approval_status: the engine's undo, the stored execution."""
    key = "executionId" if name == UNDO_TOOL else "approvalId"
    try:
        execution_id = uuid.UUID(str(arguments.get(key)))
    except ValueError:
        return failed({"code": "validation_failed", "message": error_message("validation_failed", who.locale),
                       "hint": f"Pass {key}: the id from an earlier result."}, who.locale)
    try:
        if name == UNDO_TOOL:
            return undone(await service.undo(who, execution_id), who.locale)
        result = await service.status(who, execution_id)
    except ServiceError as exc:
        return failed({"code": exc.code, "message": error_message(exc.code, who.locale, **exc.params)}, who.locale)
    return result_of(result, who.locale, approval_url(here, result))


def approval_url(here: CallContext, result: CallResult) -> str | None:
    """Where a person approves it: the console, opened on the call's conversation in its gym."""
    if result.conversation_id is None:
        return None
    return f"{here.base}/console/#o={here.who.access.org_id}&c={result.conversation_id}"


def _client_title(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The conversation's title: the client's name for itself (Claude Desktop's, ...)."""
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    return (info.title or info.name) if info is not None else None


def _can_elicit(ctx: ServerRequestContext[Any, Any]) -> bool:
    capabilities = ctx.session.client_capabilities
    return bool(capabilities is not None and capabilities.elicitation is not None and ctx.session.can_send_request)


async def _ask(ctx: ServerRequestContext[Any, Any], result: CallResult, locale: str) -> str | None:
    """Ask the client's person to approve; their action, or None when the question could not be asked."""
    action = action_words(result, locale)
    try:
        answer = await ctx.session.elicit_form(translate("agent.mcp.approvePrompt", locale, action=action),
                                               {"type": "object", "properties": {}},
                                               related_request_id=ctx.request_id)
    except Exception as exc:  # the client could not ask: the call waits for the console
        log.warning("mcp.elicitation_failed", error_type=type(exc).__name__)
        return None
    return answer.action
