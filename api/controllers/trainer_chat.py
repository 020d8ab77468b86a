"""The member's trainer conversation: send (SSE) and chat (JSON), and the caller's sessions.

Every route needs the caller's own member record (403 member_profile_required); a session that is not the
caller's member's is 404 session_not_found. Handlers parse, call the trainer agent, and shape the response.
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime
from typing import Annotated

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody, QueryParameter
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.trainer import store
from agent.trainer.confirm import open_confirm
from api.bodies import ConfirmBody
from api.controllers.trainer import member_profile_required, provide_member_id
from api.errors import request_locale, trace_id_of
from api.rate_limit import OPENS_TURN
from api.resources import Resources
from api.responses import BEARER, UndoBody, error_responses, shape
from api.sse import sse_response
from api.trainer_frames import (
    TrainerChatBody,
    TrainerSessionBody,
    TrainerSessionDetail,
    TrainerSessionList,
    trainer_stream_response,
)
from core.errors import NotFound, ServiceError
from core.tenancy import Caller, OrgAccess

STREAM_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 415, 429)


class TrainerSendBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    message: str = Field(min_length=1, max_length=8000)
    sessionId: uuid.UUID | None = None
    currentWorkoutId: str | None = Field(None, max_length=20)

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip() or "\x00" in value:
            raise ValueError("message must not be blank")
        return value


def _tool_use_id(raw: str) -> str:
    if not raw or len(raw) > 100 or not raw.isprintable():
        raise NotFound("tool_execution_not_found")
    return raw


def _session_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise NotFound("session_not_found") from None


class TrainerChatController(Controller):
    path = "/organizations/{org_id:str}/trainer"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id)}
    security = BEARER

    async def _open(self, request: Request, data: TrainerSendBody, caller: Caller, access: OrgAccess,
                    member_id: uuid.UUID, resources: Resources):
        return await resources.agent.trainer.open_send(
            access=access, caller=caller, member_id=member_id, locale=request_locale(request),
            trace_id=trace_id_of(request), message=data.message, session_id=data.sessionId,
            current_workout_id=data.currentWorkoutId)

    @post("/messages", status_code=200, opt={OPENS_TURN: True},
          responses={**trainer_stream_response(), **STREAM_ERRORS})
    async def send(self, request: Request, data: JSONBody[TrainerSendBody], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID],
                   resources: NamedDependency[Resources]) -> Stream:
        turn = await self._open(request, data, caller, access, member_id, resources)
        return sse_response(turn.events(), trace_id_of(request))

    @post("/chat", status_code=200, opt={OPENS_TURN: True}, responses=STREAM_ERRORS)
    async def chat(self, request: Request, data: JSONBody[TrainerSendBody], caller: NamedDependency[Caller],
                   access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID],
                   resources: NamedDependency[Resources]) -> TrainerChatBody:
        stream = await self._open(request, data, caller, access, member_id, resources)
        failure = None
        async for event in stream.events():
            if event.type == "error":
                failure = event.data
        turn = stream.turn
        if failure is not None and not turn.messages and turn.question is None:  # type: ignore[attr-defined]
            raise ServiceError(failure["code"], status=503)
        return shape({"sessionId": str(turn.conversation_id) if turn.conversation else None,
                      "messages": turn.messages, "question": turn.question,  # type: ignore[attr-defined]
                      "iterations": turn.iterations}, TrainerChatBody)  # type: ignore[attr-defined]

    @get("/sessions", responses=error_responses(400, 401, 403, 404))
    async def sessions(self, access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID],
                       resources: NamedDependency[Resources],
                       limit: Annotated[int, QueryParameter(ge=1, le=50)] = 10) -> TrainerSessionList:
        async with resources.db.scope(org_id=access.org_id) as session:
            await store.expire_idle(session, access.org_id, member_id, datetime.now(UTC))
            rows = await store.list_sessions(session, access.org_id, member_id, limit=limit)
            return shape({"items": [store.session_dict(r) for r in rows]}, TrainerSessionList)

    @get("/sessions/{session_id:str}", responses=error_responses(400, 401, 403, 404))
    async def session(self, session_id: FromPath[str], access: NamedDependency[OrgAccess],
                      member_id: NamedDependency[uuid.UUID],
                      resources: NamedDependency[Resources]) -> TrainerSessionDetail:
        async with resources.db.scope(org_id=access.org_id) as session:
            row = await store.get_owned(session, access.org_id, member_id, _session_id(session_id))
            if row is None:
                raise NotFound("session_not_found")
            context = await store.events(session, row.id, context_only=True)
            return shape({"session": store.session_dict(row),
                          "events": [{"seq": e.seq, "type": e.type, "payload": e.payload} for e in context]},
                         TrainerSessionDetail)

    @post("/sessions", status_code=201, responses=error_responses(400, 401, 403, 404))
    async def create(self, caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                     member_id: NamedDependency[uuid.UUID], resources: NamedDependency[Resources]) -> TrainerSessionBody:
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            row = await store.create_session(session, org_id=access.org_id, member_id=member_id,
                                             user_id=caller.user_id, now=datetime.now(UTC))
            return shape(store.session_dict(row), TrainerSessionBody)

    @delete("/sessions/{session_id:str}", status_code=200, responses=error_responses(400, 401, 403, 404))
    async def close(self, session_id: FromPath[str], access: NamedDependency[OrgAccess],
                    member_id: NamedDependency[uuid.UUID], resources: NamedDependency[Resources]) -> TrainerSessionBody:
        async with resources.db.scope(org_id=access.org_id) as session:
            row = await store.get_owned(session, access.org_id, member_id, _session_id(session_id))
            if row is None:
                raise NotFound("session_not_found")
            await store.complete(session, row)
            return shape(store.session_dict(row), TrainerSessionBody)

    @post("/sessions/{session_id:str}/confirm/{tool_use_id:str}", status_code=200,
          responses={**trainer_stream_response(), **error_responses(400, 401, 403, 404, 409, 413, 415, 422)})
    async def confirm(self, request: Request, session_id: FromPath[str], tool_use_id: FromPath[str],
                      data: JSONBody[ConfirmBody], caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                      member_id: NamedDependency[uuid.UUID], resources: NamedDependency[Resources]) -> Stream:
        turn = await open_confirm(resources.agent.trainer, access=access, caller=caller, member_id=member_id,
                                  locale=request_locale(request), trace_id=trace_id_of(request),
                                  session_id=_session_id(session_id), tool_use_id=_tool_use_id(tool_use_id),
                                  approved=data.approved)
        return sse_response(turn.events(), trace_id_of(request))

    @post("/sessions/{session_id:str}/undo/{tool_use_id:str}", status_code=200,
          responses=error_responses(400, 401, 403, 404, 409, 422))
    async def undo(self, request: Request, session_id: FromPath[str], tool_use_id: FromPath[str],
                   caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                   member_id: NamedDependency[uuid.UUID], resources: NamedDependency[Resources]) -> UndoBody:
        sid = _session_id(session_id)
        async with resources.db.scope(org_id=access.org_id) as session:
            if await store.get_owned(session, access.org_id, member_id, sid) is None:
                raise NotFound("session_not_found")
        return shape(await resources.agent.resumer.undo(
            access=dataclasses.replace(access, role="member"), caller=caller, locale=request_locale(request),
            trace_id=trace_id_of(request), conversation_id=sid, tool_use_id=_tool_use_id(tool_use_id)), UndoBody)
