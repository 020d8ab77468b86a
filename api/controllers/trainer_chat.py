"""The member's trainer conversation: send (SSE) and chat (JSON), confirm and undo, and the caller's sessions.

Every route needs the caller's own member record (403 member_profile_required); a session that is not the
caller's member's is 404 session_not_found. A turn, a confirm and an undo run through the one engine (the
orchestrator and resumer every persona shares) with the TRAINER persona; handlers receive what they use
(api/dependencies.py), call one service, and shape the response.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Annotated

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from agent.conversations import Owner
from agent.threads import Opening
from agent.trainer import store
from agent.trainer.persona import TRAINER
from agent.trainer.shown import recalled
from agent.transcripts import RunningTurn
from agent.turn_log import before_turn
from agent.turn_runner import TurnRunner
from api.bodies import NOT_BLANK, ConfirmBody, is_blank
from api.controllers.trainer import member_profile_required, provide_member_id
from api.rate_limit import OPENS_TURN
from api.responses import BEARER, TurnStopBody, UndoBody, error_responses, shape
from api.trainer_frames import (
    TrainerChatBody,
    TrainerEventBody,
    TrainerSessionDetail,
    TrainerSessionList,
    trainer_stream_response,
)
from api.turn_context import TurnContext, provide_trainer_turn
from api.turn_streams import MAX_SEQ, running_turn
from core.errors import NotFound, ServiceError
from core.tenancy import Caller, OrgAccess
from tools.registry import ToolRegistry

STREAM_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 415, 429, 503)
WORKOUT_ID = r"^[A-Za-z0-9_-]{1,20}$"  # the ids the trainer gives workouts (workout_3)


class TrainerSendBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    message: str = Field(min_length=1, max_length=8000, json_schema_extra={"pattern": NOT_BLANK})
    sessionId: uuid.UUID | None = None
    currentWorkoutId: str | None = Field(None, max_length=20, pattern=WORKOUT_ID)

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if is_blank(value):
            raise ValueError("message must not be blank")
        return value

    def opening(self) -> Opening:
        return Opening(self.message, current_workout_id=self.currentWorkoutId)


class TrainerChatController(Controller):
    path = "/organizations/{org_id:str}/trainer"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id), "turn": Provide(provide_trainer_turn)}
    security = BEARER

    @post("/messages", status_code=200, opt={OPENS_TURN: True},
          responses={**trainer_stream_response(), **STREAM_ERRORS})
    async def send(self, data: JSONBody[TrainerSendBody], turn: NamedDependency[TurnContext]) -> Stream:
        return await turn.send(data.opening(), data.sessionId)

    @post("/chat", status_code=200, opt={OPENS_TURN: True}, responses=STREAM_ERRORS)
    async def chat(self, data: JSONBody[TrainerSendBody], turn: NamedDependency[TurnContext]) -> TrainerChatBody:
        """The same turn (detached like every turn), its frames collected: the messages, the question, the done
        frame's session."""
        stream = await turn.open_send(data.opening(), data.sessionId)
        record = await turn.turns.launch(stream, "send")
        messages, question, failure, done = [], None, None, {}
        async for frame in turn.turns.follow(record, turn.persona, turn.locale):
            if frame is None:
                continue
            if frame.type == "message":
                messages.append(json.loads(frame.data))
            elif frame.type == "question":
                question = json.loads(frame.data)
            elif frame.type == "error":
                failure = json.loads(frame.data)
            elif frame.type == "done":
                done = json.loads(frame.data)
        if failure is not None and not messages and question is None:
            raise ServiceError(failure["code"], status=503)
        return shape({"sessionId": done.get("sessionId"), "messages": messages, "question": question,
                      "iterations": done.get("iterations", 0)}, TrainerChatBody)

    @get("/sessions", responses=error_responses(400, 401, 403, 404))
    async def sessions(self, session: NamedDependency[AsyncSession], caller: NamedDependency[Caller],
                       access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID],
                       limit: Annotated[int, QueryParameter(ge=1, le=50)] = 10) -> TrainerSessionList:
        await store.expire_idle(session, access.org_id, member_id, datetime.now(UTC))
        rows = await store.list_sessions(session, _trainer(access, caller), member_id, limit=limit)
        return TrainerSessionList(items=[store.session_body(r) for r in rows])

    @get("/sessions/{session_id:uuid}", responses=error_responses(400, 401, 403, 404))
    async def session_detail(self, session_id: FromPath[uuid.UUID], session: NamedDependency[AsyncSession],
                             access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                             member_id: NamedDependency[uuid.UUID], turns: NamedDependency[TurnRunner],
                             registry: NamedDependency[ToolRegistry],
                             locale: NamedDependency[str]) -> TrainerSessionDetail:
        """The session's context events; while a turn runs on it, those before the turn (and a send's message)
        and the turn, whose stream brings the rest. What the member saw of each message and question is a view
        (agent/trainer/shown.py), also for a session stored before views were kept."""
        row = await _owned(session, access, caller, member_id, session_id)
        running = await running_turn(turns, row.id, access, caller, TRAINER)
        context = before_turn(recalled(await store.events(session, row.id, context_only=True), registry, locale),
                              running, lambda e: e.type == "user_message")
        return TrainerSessionDetail(session=store.session_body(row),
                                    events=[TrainerEventBody(seq=e.seq, type=e.type, payload=e.payload)
                                            for e in context],
                                    running_turn=RunningTurn.of(running))

    @post("/sessions", status_code=201, responses=error_responses(400, 401, 403, 404))
    async def create(self, session: NamedDependency[AsyncSession], caller: NamedDependency[Caller],
                     access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID]) -> store.TrainerSessionBody:
        row = await store.create_session(session, org_id=access.org_id, member_id=member_id, user_id=caller.user_id,
                                         now=datetime.now(UTC))
        return store.session_body(row)

    @delete("/sessions/{session_id:uuid}", status_code=200, responses=error_responses(400, 401, 403, 404))
    async def close(self, session_id: FromPath[uuid.UUID], session: NamedDependency[AsyncSession],
                    caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                    member_id: NamedDependency[uuid.UUID]) -> store.TrainerSessionBody:
        row = await _owned(session, access, caller, member_id, session_id)
        await store.complete(session, row)
        return store.session_body(row)

    @post("/sessions/{session_id:uuid}/confirm/{tool_use_id:str}", status_code=200,
          responses={**trainer_stream_response(), **error_responses(400, 401, 403, 404, 409, 413, 415, 422, 503)})
    async def confirm(self, session_id: FromPath[uuid.UUID], tool_use_id: FromPath[str], data: JSONBody[ConfirmBody],
                      turn: NamedDependency[TurnContext]) -> Stream:
        return await turn.confirm(session_id, tool_use_id, approved=data.approved, edited_input=data.input)

    @get("/turns/{turn_id:uuid}/stream", responses={**trainer_stream_response(),
                                                    **error_responses(400, 401, 403, 404)})
    async def turn_stream(self, turn_id: FromPath[uuid.UUID], turn: NamedDependency[TurnContext],
                          last_event_id: Annotated[str | None, HeaderParameter(name="last-event-id")] = None,
                          after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0) -> Stream:
        """A trainer turn's frames after `Last-Event-ID` (`<turnId>:<seq>`) or `?after=seq`, then live until
        `done`, on any API process; only the member whose turn it is may read it."""
        return await turn.follow(turn_id, last_event_id, after)

    @post("/turns/{turn_id:uuid}/stop", status_code=200, responses=error_responses(400, 401, 403, 404))
    async def stop_turn(self, turn_id: FromPath[uuid.UUID], turn: NamedDependency[TurnContext]) -> TurnStopBody:
        """Stop a running trainer turn wherever it runs; its stream ends with `done`."""
        return await turn.stop(turn_id)

    @post("/sessions/{session_id:uuid}/undo/{tool_use_id:str}", status_code=200,
          responses=error_responses(400, 401, 403, 404, 409, 422))
    async def undo(self, session_id: FromPath[uuid.UUID], tool_use_id: FromPath[str],
                   turn: NamedDependency[TurnContext]) -> UndoBody:
        return shape(await turn.undo(session_id, tool_use_id), UndoBody)


def _trainer(access: OrgAccess, caller: Caller) -> Owner:
    """The caller's trainer sessions (never a staff conversation of theirs)."""
    return Owner(access.org_id, caller.user_id, TRAINER.name)


async def _owned(session: AsyncSession, access: OrgAccess, caller: Caller, member_id: uuid.UUID,
                 session_id: uuid.UUID):
    row = await store.get_owned(session, _trainer(access, caller), member_id, session_id)
    if row is None:
        raise NotFound("session_not_found")
    return row
