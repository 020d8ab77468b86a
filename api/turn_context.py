"""One request's turn context: what every turn endpoint (send, confirm, pick, undo, a turn's stream and stop) needs,
assembled once by a dependency instead of by hand in each handler.

A controller names its persona's provider (`turn: Provide(provide_staff_turn)` or `provide_trainer_turn`); the
handler receives a `TurnContext` holding who asks, in which org, in which language, under which trace, for which
persona (and member), with the engine's orchestrator, resumer and the app's detached turns, and calls one of its
methods: open a turn and answer as its first reader, resolve an answer, follow or stop a running turn.
"""

from __future__ import annotations

import uuid
from typing import Any

from litestar.di import NamedDependency
from litestar.response import Stream

from agent.copilot import STAFF_COPILOT
from agent.orchestrator import Orchestrator
from agent.persona import Persona
from agent.resume import Answer, Resumer
from agent.threads import Opening
from agent.trainer.persona import TRAINER
from agent.turn_log import TurnRecord
from agent.turn_runner import TurnRunner
from agent.turns import TurnStream
from api.responses import TurnStopBody
from api.turn_streams import after_of, launched, owned_turn, turn_response
from core.tenancy import Caller, OrgAccess


class TurnContext:
    """A plain class, not a dataclass: the framework checks a dataclass dependency field by field."""

    def __init__(self, persona: Persona, caller: Caller, access: OrgAccess, locale: str, trace_id: str,
                 orchestrator: Orchestrator, resumer: Resumer, turns: TurnRunner,
                 member_id: uuid.UUID | None = None) -> None:
        self.persona, self.caller, self.access, self.locale, self.trace_id = persona, caller, access, locale, trace_id
        self.orchestrator, self.resumer, self.turns = orchestrator, resumer, turns
        self.member_id = member_id  # the trainer's: the caller's own member record

    def answer(self, kind: str, thread_id: uuid.UUID, tool_use_id: str) -> Answer:
        """The caller's answer (confirm, pick, undo) to a tool use on one of their threads of this persona."""
        return Answer(self.access, self.caller, self.locale, self.trace_id, kind, thread_id, tool_use_id,
                      persona=self.persona, member_id=self.member_id)

    async def open_send(self, opening: Opening, thread_id: uuid.UUID | None) -> TurnStream:
        return await self.orchestrator.open_send(
            persona=self.persona, access=self.access, caller=self.caller, member_id=self.member_id,
            locale=self.locale, trace_id=self.trace_id, thread_id=thread_id, opening=opening)

    async def launched(self, stream: TurnStream, kind: str) -> Stream:
        """Start the turn detached and answer as its first reader."""
        return await launched(self.turns, stream, kind, self.persona, self.locale, self.trace_id)

    async def send(self, opening: Opening, thread_id: uuid.UUID | None) -> Stream:
        return await self.launched(await self.open_send(opening, thread_id), "send")

    async def confirm(self, thread_id: uuid.UUID, tool_use_id: str, *, approved: bool,
                      edited_input: dict[str, Any] | None) -> Stream:
        stream = await self.resumer.open_confirm(self.answer("confirm", thread_id, tool_use_id), approved=approved,
                                                 edited_input=edited_input)
        return await self.launched(stream, "confirm")

    async def pick(self, thread_id: uuid.UUID, tool_use_id: str, picked_id: str) -> Stream:
        stream = await self.resumer.open_pick(self.answer("pick", thread_id, tool_use_id), picked_id=picked_id)
        return await self.launched(stream, "pick")

    async def undo(self, thread_id: uuid.UUID, tool_use_id: str) -> dict[str, Any]:
        return await self.resumer.undo(self.answer("undo", thread_id, tool_use_id))

    async def owned_turn(self, turn_id: uuid.UUID) -> TurnRecord:
        """The turn if it is the caller's, of this persona's endpoints; anyone else: 404 turn_not_found."""
        return await owned_turn(self.turns, turn_id, self.access, self.caller, self.persona)

    async def follow(self, turn_id: uuid.UUID, last_event_id: str | None, after: int) -> Stream:
        """The caller's turn's frames after `Last-Event-ID` or `?after=`, then live until `done`."""
        record = await self.owned_turn(turn_id)
        return turn_response(self.turns, record, self.persona, self.locale, self.trace_id,
                             after_of(turn_id, last_event_id, after))

    async def stop(self, turn_id: uuid.UUID) -> TurnStopBody:
        """Stop the caller's turn wherever it runs (`stopping`), or say it had already ended (`finished`)."""
        record = await self.owned_turn(turn_id)
        return TurnStopBody(turn_id=str(turn_id), state="stopping" if await self.turns.stop(record) else "finished")


async def provide_staff_turn(caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                             locale: NamedDependency[str], trace_id: NamedDependency[str],
                             orchestrator: NamedDependency[Orchestrator], resumer: NamedDependency[Resumer],
                             turns: NamedDependency[TurnRunner]) -> TurnContext:
    """The staff copilot's turn context."""
    return TurnContext(STAFF_COPILOT, caller, access, locale, trace_id, orchestrator, resumer, turns)


async def provide_trainer_turn(caller: NamedDependency[Caller], access: NamedDependency[OrgAccess],
                               member_id: NamedDependency[uuid.UUID], locale: NamedDependency[str],
                               trace_id: NamedDependency[str], orchestrator: NamedDependency[Orchestrator],
                               resumer: NamedDependency[Resumer], turns: NamedDependency[TurnRunner]) -> TurnContext:
    """The member's trainer turn context: the caller's own member record is the one the trainer talks to."""
    return TurnContext(TRAINER, caller, access, locale, trace_id, orchestrator, resumer, turns, member_id)
