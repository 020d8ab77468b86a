"""The agent endpoints: usage, conversations, send / confirm / pick (SSE) and undo (JSON).

Handlers receive what they use (an org-scoped session, the orchestrator: api/dependencies.py; a turn endpoint its
request's turn context: api/turn_context.py),
call one service, and shape the response; everything that can still fail with an HTTP status (ownership,
the turn lock, claims, body validation) happens before the stream opens.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from litestar import Controller, delete, get, patch, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import Stream
from sqlalchemy.ext.asyncio import AsyncSession

from agent import conversations as conversation_store
from agent.branches import show_alternative
from agent.budget import UsageBody, usage_snapshot
from agent.copilot import STAFF_COPILOT
from agent.orchestrator import Orchestrator
from agent.threads import Opening
from agent.transcripts import (
    ConversationDetail,
    ConversationList,
    ConversationSummary,
    conversation_detail,
    list_conversations,
)
from agent.turn_runner import TurnRunner
from api.bodies import ConfirmBody, PickBody, RenameBody, SendBody
from api.guards import require_org_member, staff_only
from api.rate_limit import OPENS_TURN
from api.responses import BEARER, ConversationDeleted, TurnStopBody, UndoBody, error_responses, shape
from api.sse import stream_response
from api.turn_context import TurnContext, provide_staff_turn
from api.turn_streams import MAX_SEQ, running_turn
from core.errors import NotFound
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools.registry import Described, ToolRegistry, ToolSpec
from tools.runner import ToolRunner

READ_ERRORS = error_responses(400, 401, 404)
STREAM_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 415, 503)


class AgentController(Controller):
    path = "/organizations/{org_id:str}/agent"
    dependencies = {"turn": Provide(provide_staff_turn)}
    security = BEARER

    @get("/usage", guards=[require_org_member], responses=READ_ERRORS)
    async def usage(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess]) -> UsageBody:
        return await usage_snapshot(session, access, datetime.now(UTC))

    @get("/conversations", guards=[require_org_member], responses=READ_ERRORS)
    async def conversations(self, session: NamedDependency[AsyncSession], caller: NamedDependency[Caller],
                            access: NamedDependency[OrgAccess]) -> ConversationList:
        return await list_conversations(session, _staff(access, caller))

    @get("/conversations/{conversation_id:uuid}", guards=[require_org_member], responses=READ_ERRORS)
    async def conversation(self, conversation_id: FromPath[uuid.UUID], session: NamedDependency[AsyncSession],
                           caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                           locale: NamedDependency[str], registry: NamedDependency[ToolRegistry],
                           runner: NamedDependency[ToolRunner], settings: NamedDependency[Settings],
                           turns: NamedDependency[TurnRunner]) -> ConversationDetail:
        return await _detail(conversation_id, session, caller, access, locale, registry, runner, settings, turns)

    @patch("/conversations/{conversation_id:uuid}", guards=[staff_only], responses=error_responses(400, 401, 403, 404))
    async def rename(self, conversation_id: FromPath[uuid.UUID], data: JSONBody[RenameBody],
                     session: NamedDependency[AsyncSession], caller: NamedDependency[Caller],
                     access: NamedDependency[OrgAccess]) -> ConversationSummary:
        """Rename one of the caller's conversations (beyond the spec)."""
        owned = await _owned(session, access, caller, conversation_id)
        renamed = await conversation_store.rename(session, owned, data.title)
        return ConversationSummary(id=str(renamed.id), title=renamed.title, channel=renamed.channel,
                                   created_at=renamed.created_at.isoformat(),
                                   updated_at=renamed.updated_at.isoformat())

    @delete("/conversations/{conversation_id:uuid}", guards=[staff_only], status_code=200,
            responses=error_responses(400, 401, 403, 404))
    async def delete_conversation(self, conversation_id: FromPath[uuid.UUID], session: NamedDependency[AsyncSession],
                                  caller: NamedDependency[Caller],
                                  access: NamedDependency[OrgAccess]) -> ConversationDeleted:
        """Delete one of the caller's conversations with its messages and tool runs (beyond the spec)."""
        owned = await _owned(session, access, caller, conversation_id)
        await conversation_store.remove(session, owned)
        return ConversationDeleted(ok=True, deleted_conversation_id=str(owned.id))

    @post("/conversations/{conversation_id:uuid}/alternatives/{message_id:uuid}", guards=[staff_only],
          status_code=200, responses=error_responses(400, 401, 403, 404, 409))
    async def show_alternative(self, conversation_id: FromPath[uuid.UUID], message_id: FromPath[uuid.UUID],
                               session: NamedDependency[AsyncSession], caller: NamedDependency[Caller],
                               access: NamedDependency[OrgAccess], orchestrator: NamedDependency[Orchestrator],
                               locale: NamedDependency[str], registry: NamedDependency[ToolRegistry],
                               runner: NamedDependency[ToolRunner], settings: NamedDependency[Settings],
                               turns: NamedDependency[TurnRunner]) -> ConversationDetail:
        """Regenerate / Edit kept what they replaced (beyond the spec): show the alternative that starts at user
        message `message_id` in place of the one shown; answers the conversation as GET does."""
        await _owned(session, access, caller, conversation_id)
        await show_alternative(orchestrator, access.org_id, caller.user_id, conversation_id, message_id)
        return await _detail(conversation_id, session, caller, access, locale, registry, runner, settings, turns)

    @post("/messages", guards=[staff_only], status_code=200, opt={OPENS_TURN: True},
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(429)})
    async def send(self, data: JSONBody[SendBody], turn: NamedDependency[TurnContext]) -> Stream:
        return await turn.send(Opening(data.message, page_context=data.pageContext, replaces=data.replaces),
                               data.conversationId)

    @post("/conversations/{conversation_id:uuid}/confirm/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(422)})
    async def confirm(self, conversation_id: FromPath[uuid.UUID], tool_use_id: FromPath[str],
                      data: JSONBody[ConfirmBody], turn: NamedDependency[TurnContext]) -> Stream:
        return await turn.confirm(conversation_id, tool_use_id, approved=data.approved, edited_input=data.input)

    @post("/conversations/{conversation_id:uuid}/pick/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses={**stream_response(), **STREAM_ERRORS, **error_responses(422)})
    async def pick(self, conversation_id: FromPath[uuid.UUID], tool_use_id: FromPath[str], data: JSONBody[PickBody],
                   turn: NamedDependency[TurnContext]) -> Stream:
        return await turn.pick(conversation_id, tool_use_id, data.id)

    @get("/turns/{turn_id:uuid}/stream", guards=[staff_only], responses={**stream_response(), **READ_ERRORS,
                                                                         **error_responses(403)})
    async def turn_stream(self, turn_id: FromPath[uuid.UUID], turn: NamedDependency[TurnContext],
                          last_event_id: Annotated[str | None, HeaderParameter(name="last-event-id")] = None,
                          after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0) -> Stream:
        """A turn's frames after `Last-Event-ID` (`<turnId>:<seq>`) or `?after=seq`, then live until `done`, on
        any API process; only the turn's caller may read it."""
        return await turn.follow(turn_id, last_event_id, after)

    @post("/turns/{turn_id:uuid}/stop", guards=[staff_only], status_code=200,
          responses=error_responses(400, 401, 403, 404))
    async def stop_turn(self, turn_id: FromPath[uuid.UUID], turn: NamedDependency[TurnContext]) -> TurnStopBody:
        """Stop a running turn wherever it runs: the model stream is cancelled, the answer keeps what streamed,
        and the turn's stream ends with `done`."""
        return await turn.stop(turn_id)

    @post("/conversations/{conversation_id:uuid}/undo/{tool_use_id:str}", guards=[staff_only], status_code=200,
          responses=error_responses(400, 401, 403, 404, 409, 422))
    async def undo(self, conversation_id: FromPath[uuid.UUID], tool_use_id: FromPath[str],
                   turn: NamedDependency[TurnContext]) -> UndoBody:
        return shape(await turn.undo(conversation_id, tool_use_id), UndoBody)


def _staff(access: OrgAccess, caller: Caller) -> conversation_store.Owner:
    """The staff copilot's threads of the caller (never a trainer session of theirs)."""
    return conversation_store.Owner(access.org_id, caller.user_id, STAFF_COPILOT.name)


async def _owned(session: AsyncSession, access: OrgAccess, caller: Caller,
                 conversation_id: uuid.UUID) -> conversation_store.Conversation:
    owned = await conversation_store.get_owned(session, _staff(access, caller), conversation_id)
    if owned is None:
        raise NotFound("conversation_not_found")
    return owned


async def _detail(conversation_id: uuid.UUID, session: AsyncSession, caller: Caller, access: OrgAccess, locale: str,
                  registry: ToolRegistry, runner: ToolRunner, settings: Settings,
                  turns: TurnRunner) -> ConversationDetail:
    async def describe(spec: ToolSpec, raw_input: dict[str, Any]) -> Described | None:
        return await runner.describe(spec, raw_input, access=access, caller=caller, locale=locale, session=session)

    running = await running_turn(turns, conversation_id, access, caller, STAFF_COPILOT)
    return await conversation_detail(session, _staff(access, caller), conversation_id, registry, access.role,
                                     pending_ttl=settings.pending_ttl, describe=describe, running=running)
