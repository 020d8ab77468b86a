"""The agent endpoints: usage, conversations, send / confirm / pick (SSE) and undo (JSON).

Handlers parse, call one service, and shape the response; everything that can still fail with an HTTP
status (ownership, the turn lock, claims, body validation) happens before the stream opens.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from agent.budget import usage_snapshot
from agent.transcripts import conversation_detail, list_conversations
from api.errors import request_locale, trace_id_of
from api.guards import require_org_member, staff_only
from api.resources import Resources
from api.sse import sse_response
from core.errors import NotFound
from core.tenancy import Caller, OrgAccess

MAX_PAGE_CONTEXT_BYTES = 16_000


class SendBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    message: str = Field(min_length=1, max_length=8000)
    conversationId: uuid.UUID | None = None
    pageContext: dict[str, Any] | None = None

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message must not be blank")
        return value

    @field_validator("pageContext")
    @classmethod
    def _small(cls, value: dict | None) -> dict | None:
        if value is not None and len(json.dumps(value, default=str)) > MAX_PAGE_CONTEXT_BYTES:
            raise ValueError(f"pageContext must be under {MAX_PAGE_CONTEXT_BYTES} bytes")
        return value


class ConfirmBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    approved: StrictBool
    input: dict[str, Any] | None = None

    @field_validator("approved", mode="before")
    @classmethod
    def _real_bool(cls, value: Any) -> Any:
        if not isinstance(value, bool):  # the framework may validate non-strictly; "yes" is not a decision
            raise ValueError("approved must be true or false")
        return value


class PickBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=200)


def _conversation_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise NotFound("conversation_not_found") from None


def _tool_use_id(raw: str) -> str:
    if not raw or len(raw) > 100:
        raise NotFound("tool_execution_not_found")
    return raw


class AgentController(Controller):
    path = "/organizations/{org_id:str}/agent"

    @get("/usage", guards=[require_org_member])
    async def usage(self, access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> dict:
        async with resources.db.scope(org_id=access.org_id) as session:
            return await usage_snapshot(session, access, datetime.now(UTC))

    @get("/conversations", guards=[require_org_member])
    async def conversations(self, caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                            resources: NamedDependency[Resources]) -> dict:
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            return await list_conversations(session, access.org_id, caller.user_id)

    @get("/conversations/{conversation_id:str}", guards=[require_org_member])
    async def conversation(self, conversation_id: FromPath[str], caller: NamedDependency[Caller],
                           access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> dict:
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            return await conversation_detail(session, access.org_id, caller.user_id,
                                             _conversation_id(conversation_id), resources.agent.registry)

    @post("/messages", guards=[staff_only], status_code=200)
    async def send(self, request: Request, data: JSONBody[SendBody], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.orchestrator.open_send(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id, message=data.message,
            conversation_id=data.conversationId, page_context=data.pageContext)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/confirm/{tool_use_id:str}", guards=[staff_only], status_code=200)
    async def confirm(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], data: JSONBody[ConfirmBody],
                      caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                      resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.resumer.open_confirm(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id,
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id),
            approved=data.approved, edited_input=data.input)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/pick/{tool_use_id:str}", guards=[staff_only], status_code=200)
    async def pick(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], data: JSONBody[PickBody],
                   caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                   resources: NamedDependency[Resources]) -> Stream:
        trace_id = trace_id_of(request)
        turn = await resources.agent.resumer.open_pick(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id,
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id),
            picked_id=data.id)
        return sse_response(turn.events(), trace_id)

    @post("/conversations/{conversation_id:str}/undo/{tool_use_id:str}", guards=[staff_only], status_code=200)
    async def undo(self, request: Request, conversation_id: FromPath[str], tool_use_id: FromPath[str], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], resources: NamedDependency[Resources]) -> dict:
        return await resources.agent.resumer.undo(
            access=access, caller=caller, locale=request_locale(request), trace_id=trace_id_of(request),
            conversation_id=_conversation_id(conversation_id), tool_use_id=_tool_use_id(tool_use_id))
