"""Drive one conversation in-process through the one engine, the way the endpoints do: `open_send` for each of
the person's messages, `open_confirm` / `open_pick` for each suspension, until the simulated person is done
(or the task's cap on their messages is reached). Every frame the turns yield goes into the transcript."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from agent.composition import AgentServices
from agent.copilot import STAFF_COPILOT
from agent.persona import Persona
from agent.resume import Answer
from agent.threads import Opening
from agent.trainer.persona import TRAINER
from agent.turns import TurnStream
from core.database import Database
from core.tenancy import Caller, OrgAccess, find_caller_in_org
from evals.tasks import Task
from evals.transcript import Transcript
from evals.users import SimulatedUser
from gym.demo.tenancy import HARBOR, clerk_id_for
from gym.training.profiles import member_for_user

PERSONAS: dict[str, Persona] = {"staff": STAFF_COPILOT, "trainer": TRAINER}


@dataclass(frozen=True)
class Who:
    access: OrgAccess
    caller: Caller
    member_id: uuid.UUID | None


async def who_is(db: Database, login: str) -> Who:
    """The demo login's membership in Harbor (and their member record, for the trainer)."""
    async with db.lookup() as conn:
        caller, access = await find_caller_in_org(conn, clerk_id_for(login), HARBOR.id)
    if caller is None or access is None:
        raise LookupError(f"{login} is not a member of the demo gym")
    async with db.scope(org_id=HARBOR.id, user_id=caller.user_id) as session:
        member = await member_for_user(session, HARBOR.id, caller.user_id)
    return Who(access, caller, member.id if member else None)


class Conversation:
    def __init__(self, agent: AgentServices, task: Task, who: Who, user: SimulatedUser) -> None:
        self.agent, self.task, self.who, self.user = agent, task, who, user
        self.persona = PERSONAS[task.persona]
        self.transcript = Transcript()
        self.thread_id: uuid.UUID | None = None
        self._inputs: dict[str, Any] = {}  # tool use id → input, from tool_started until tool_completed

    def _answer(self, kind: str, tool_use_id: str) -> Answer:
        assert self.thread_id is not None
        return Answer(self.who.access, self.who.caller, self.task.locale, uuid.uuid4().hex, kind, self.thread_id,
                      tool_use_id, persona=self.persona, member_id=self.who.member_id)

    async def run(self) -> Transcript:
        message: str | None = await self.user.opening()
        while message is not None and self.transcript.user_messages() < self.task.max_turns:
            self.transcript.add("user", message)
            stream = await self.agent.orchestrator.open_send(
                persona=self.persona, access=self.who.access, caller=self.who.caller, locale=self.task.locale,
                trace_id=uuid.uuid4().hex, opening=Opening(message), thread_id=self.thread_id,
                member_id=self.who.member_id)
            pending = await self._consume(stream)
            while pending is not None and not self.transcript.errors:
                pending = await self._resolve(pending)
            if self.transcript.errors:
                break
            message = await self.user.reply(self.transcript)
        return self.transcript

    async def _resolve(self, pending: tuple[str, dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
        kind, data = pending
        if kind == "confirmation_pending":
            approved = await self.user.confirm(data, self.transcript)
            self.transcript.add("confirm", action=f"{data.get('router')}__{data.get('action')}", input=data.get("input"),
                                summary=data.get("summary"), approved=approved)
            stream = await self.agent.resumer.open_confirm(self._answer("confirm", data["toolUseId"]),
                                                           approved=approved, edited_input=None)
            return await self._consume(stream)
        picked = await self.user.pick(data, self.transcript)
        label = next((c.get("label") for c in data.get("candidates", []) if str(c.get("id")) == picked), None)
        self.transcript.add("pick", prompt=data.get("prompt"), candidates=data.get("candidates", []), picked=label)
        if picked is None:
            return None  # the person types instead; their next message supersedes the pick
        stream = await self.agent.resumer.open_pick(self._answer("pick", data["toolUseId"]), picked_id=picked)
        return await self._consume(stream)

    async def _consume(self, stream: TurnStream) -> tuple[str, dict[str, Any]] | None:
        """Read a turn's frames into the transcript; the suspension it ended on, if any."""
        text: list[str] = []
        pending: tuple[str, dict[str, Any]] | None = None

        def flush() -> None:
            said = "".join(text).strip()
            if said:
                self.transcript.add("agent", said)
            text.clear()

        async for event in stream.events():
            kind, data = event.type, event.data
            if kind == "text_delta":
                text.append(data["delta"])
                continue
            flush()
            if kind in ("conversation_started", "session_started"):
                self.thread_id = uuid.UUID(data.get("conversationId") or data["sessionId"])
                self.transcript.thread_ids.append(str(self.thread_id))
            elif kind == "tool_completed":
                self.transcript.add("tool", name=f"{data['router']}__{data['action']}", ok=data["ok"],
                                    input=self._inputs.pop(data["toolUseId"], None),
                                    error=data.get("error") or {})
            elif kind == "tool_started":
                self._inputs[data["toolUseId"]] = data.get("input")
            elif kind == "message":
                self.transcript.add("agent", data.get("content", ""))
            elif kind == "question":
                self.transcript.add("agent", data.get("content", ""), options=data.get("options", []))
            elif kind in ("confirmation_pending", "disambiguation_pending"):
                pending = (kind, data)
            elif kind == "error":
                self.transcript.errors.append(data.get("code", "error"))
                self.transcript.add("error", f"{data.get('code')}: {data.get('message')}")
        flush()
        turn = stream.turn
        t = self.transcript
        t.usage, t.cost_usd_micros = t.usage + turn.usage, t.cost_usd_micros + turn.cost_usd_micros
        t.round_trips += turn.round_trips
        t.model_calls += turn.model_calls
        if self.thread_id is None and turn.opened:
            self.thread_id = turn.conversation_id
        return pending
