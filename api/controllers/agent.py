"""The agent endpoints: usage, conversations, send / confirm / pick (SSE) and undo (JSON).

Handlers parse, call one service, and shape the response; everything that can still fail with an HTTP
status (ownership, the turn lock, claims, body validation) happens before the stream opens.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from litestar import Controller, Request, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.response import Stream

from agent import conversations as conversation_store
from agent.budget import usage_snapshot
from agent.transcripts import conversation_detail, list_conversations
from api.bodies import ConfirmBody, PickBody, RenameBody, SendBody
from api.errors import request_locale, trace_id_of
from api.guards import require_org_member, staff_only
from api.rate_limit import OPENS_TURN
from api.resources import Resources
from api.responses import (
    BEARER,
    ConversationDeleted,
    ConversationDetail,
    ConversationList,
    ConversationSummary,
    UndoBody,
    UsageBody,
    error_responses,
    shape,
)
from api.sse import sse_response, stream_response
from core.errors import NotFound
from core.tenancy import Caller, OrgAccess
from tools.registry import ToolSpec

READ_ERRORS = error_responses(400, 401, 404)
STREAM_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 415)


def _conversation_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise NotFound("conversation_not_found") from None


def _tool_use_id(raw: str) -> str:
    if not raw or len(raw) > 100 or not raw.isprintable():  # a NUL or control character is never an id
        raise NotFound("tool_execution_not_found")
    return raw


class AgentController(Controller):
    path = "/organizations/{org_id:str}/agent"
    security = BEARER

    @get("/usage", guards=[require_org_member], responses=READ_ERRORS)
    async def usage(self, access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> UsageBody:
        async with resources.db.scope(org_id=access.org_id) as session:
            return shape(await usage_snapshot(session, access, datetime.now(UTC)), UsageBody)

    @get("/conversations", guards=[require_org_member], responses=READ_ERRORS)
    async def conversations(self, caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                            resources: NamedDependency[Resources]) -> ConversationList:
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            return shape(await list_conversations(session, access.org_id, caller.user_id), ConversationList)

    @get("/conversations/{conversation_id:str}", guards=[require_org_member], responses=READ_ERRORS)
    async def conversation(self, request: Request, conversation_id: FromPath[str], caller: NamedDependency[Caller],
                           access: NamedDependency[OrgAccess],
                           resources: NamedDependency[Resources]) -> ConversationDetail:
        locale = request_locale(request)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:

            runner = resources.agent.orchestrator.runner

            async def describe(spec: ToolSpec, raw_input: dict[str, Any]) -> str | None:
                return await runner.describe(spec, raw_input, access=access, caller=caller, locale=locale,
                                             session=session)

            return shape(await conversation_detail(session, access.org_id, caller.user_id,
                                                   _conversation_id(conversation_id), resources.agent.registry,
                                                   access.role, describe),
                         ConversationDetail)

    @patch("/conversations/{conversation_id:str}", guards=[staff_only], responses=error_responses(400, 401, 403, 404))
    async def rename(self, conversation_id: FromPath[str], data: JSONBody[RenameBody], caller: NamedDependency[Caller],
                     access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> ConversationSummary:
        """Rename one of the caller's conversations (beyond the spec)."""
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            owned = await self._owned(session, access, caller, conversation_id)
            renamed = await conversation_store.rename(session, owned, data.title)
            return ConversationSummary(id=str(renamed.id), title=renamed.title,
                                       created_at=renamed.created_at.isoformat(),
                                       updated_at=renamed.updated_at.isoformat())

    @delete("/conversations/{conversation_id:str}", guards=[staff_only], status_code=200,
            responses=error_responses(400, 401, 403, 404))
    async def delete_conversation(self, conversation_id: FromPath[str], caller: NamedDependency[Caller],
                                  access: NamedDependency[OrgAccess],
                                  resources: NamedDependency[Resources]) -> ConversationDeleted:
        """Delete one of the caller's conversations with its messages and tool runs (beyond the spec)."""
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            owned = await self._owned(session, access, caller, conversation_id)
            await conversation_store.remove(session, owned)
        return ConversationDeleted(ok=True, deleted_conversation_id=str(owned.id))

    @staticmethod
    async def _owned(session, access: OrgAccess, caller: Caller, raw_id: str):
        owned = await conversation_store.get_owned(session, access.org_id, _conversation_id(raw_id), caller.user_id)
        if owned is None:
            raise NotFound("conversation_not_found")
        return owned

    @post("/messages", guards=[staff_only], status_code=200, opt={OPENS_TURN: True},
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(429)})
    async def send(self, request: Request, data: JSONBody[SendBody], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.orchestrator.open_send(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id, message=data.message,
            conversation_id=data.conversationId, page_context=data.pageContext)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/confirm/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(422)})
    async def confirm(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], data: JSONBody[ConfirmBody],
                      caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                      resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.resumer.open_confirm(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id,
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id),
            approved=data.approved, edited_input=data.input)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/pick/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(422)})
    async def pick(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], data: JSONBody[PickBody],
                   caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                   resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.resumer.open_pick(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id,
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id),
            picked_id=data.id)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/undo/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses=error_responses(400, 401, 403, 404, 409, 422))
    async def undo(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> UndoBody:
        return shape(await resources.agent.resumer.undo(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id_of(request),
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id)), UndoBody)
