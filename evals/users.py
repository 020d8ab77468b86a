"""The simulated person on the other side of the chat.

`ScriptedUser` says the task's turns in order and answers a confirmation and a pick the way the task says.
`ModelUser` is the summarizer model playing the person from the task's instructions (τ-bench's user simulator):
it opens with the task's first turn (so every agent under test gets the same request), then writes each next
message itself, decides confirmations and picks with a forced tool, and ends the conversation with ###STOP###.
"""

from __future__ import annotations

from typing import Any, Protocol

from agent.costs import PriceBook, Usage
from agent.model import ModelClient, ModelRequest
from evals.tasks import Task
from evals.transcript import Transcript

STOP = "###STOP###"
LANGUAGES = {"en": "English", "he": "Hebrew", "ru": "Russian"}


class SimulatedUser(Protocol):
    async def opening(self) -> str: ...

    async def reply(self, transcript: Transcript) -> str | None:
        """The person's next message, or None when they are done."""

    async def confirm(self, pending: dict[str, Any], transcript: Transcript) -> bool: ...

    async def pick(self, pending: dict[str, Any], transcript: Transcript) -> str | None:
        """A candidate id, or None when none is the one they meant."""


def _picked(task: Task, candidates: list[dict[str, Any]]) -> str | None:
    if task.pick is None:
        return None
    wanted = task.pick.lower()
    found = [c for c in candidates if wanted in str(c.get("label", "")).lower()]
    return str(found[0]["id"]) if len(found) >= 1 else None


class ScriptedUser:
    def __init__(self, task: Task) -> None:
        self.task = task
        self.said = 0

    async def opening(self) -> str:
        self.said = 1
        return self.task.turns[0]

    async def reply(self, transcript: Transcript) -> str | None:
        if self.said >= len(self.task.turns):
            return None
        self.said += 1
        return self.task.turns[self.said - 1]

    async def confirm(self, pending: dict[str, Any], transcript: Transcript) -> bool:
        return self.task.confirm == "approve"

    async def pick(self, pending: dict[str, Any], transcript: Transcript) -> str | None:
        return _picked(self.task, pending.get("candidates", []))


def _system(task: Task) -> str:
    language = LANGUAGES.get(task.locale, "English")
    return (f"You play a person using a gym's chat assistant, to test the assistant. Who you are and what you want:\n"
            f"{task.instructions}\n\n"
            "Rules:\n"
            f"- Write only what this person would type next: one short message, in {language}, no narration.\n"
            "- Use only what you were told; when asked for something you were not told, say you do not know.\n"
            "- Do not tell the assistant how to do its job (no tool names, no ids).\n"
            f"- When what you wanted is done, or the assistant says it cannot be done, reply with exactly {STOP}.\n"
            f"- If the assistant keeps going in circles, reply with {STOP}.")


class ModelUser:
    """The summarizer model as the person; its tokens and cost are counted apart from the agent's."""

    def __init__(self, task: Task, model: ModelClient, model_name: str, prices: PriceBook) -> None:
        self.task, self.model, self.model_name, self.prices = task, model, model_name, prices
        self.usage = Usage()
        self.cost_usd_micros = 0

    async def _ask(self, prompt: str, tool: dict[str, Any] | None = None) -> dict[str, Any] | str:
        request = ModelRequest(model=self.model_name, system=[{"type": "text", "text": _system(self.task)}],
                               tools=[tool] if tool else [], max_tokens=400,
                               messages=[{"role": "user", "content": prompt}],
                               tool_choice={"type": "tool", "name": tool["name"]} if tool else None)
        response = await self.model.complete(request)
        self.usage = self.usage + response.usage
        self.cost_usd_micros += self.prices.cost_usd_micros(self.model_name, response.usage)
        if tool:
            use = next((b for b in response.content if b.get("type") == "tool_use"), None)
            return dict(use.get("input") or {}) if use else {}
        return "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()

    async def opening(self) -> str:
        return self.task.turns[0]

    async def reply(self, transcript: Transcript) -> str | None:
        said = await self._ask(f"The conversation so far:\n\n{transcript.as_chat()}\n\n"
                               f"Write your next message as this person, or {STOP} if you are done.")
        text = str(said).strip()
        if not text or STOP in text:
            return None
        return text

    async def confirm(self, pending: dict[str, Any], transcript: Transcript) -> bool:
        action = pending.get("summary") or f"{pending.get('router')}.{pending.get('action')} {pending.get('input')}"
        decided = await self._ask(
            f"The conversation so far:\n\n{transcript.as_chat()}\n\nThe assistant now asks you to approve this "
            f"action before it runs:\n{action}\n\nApprove it only if it is what you asked for.",
            {"name": "decide", "description": "Approve or reject the action.",
             "input_schema": {"type": "object", "properties": {"approve": {"type": "boolean"}},
                              "required": ["approve"]}})
        return bool(isinstance(decided, dict) and decided.get("approve"))

    async def pick(self, pending: dict[str, Any], transcript: Transcript) -> str | None:
        candidates = pending.get("candidates", [])
        ids = [str(c.get("id")) for c in candidates]
        listing = "\n".join(f"- {c.get('id')}: {c.get('label')} {c.get('sublabel') or ''} {c.get('detail') or ''}"
                            for c in candidates)
        chosen = await self._ask(
            f"The conversation so far:\n\n{transcript.as_chat()}\n\nThe assistant asks: {pending.get('prompt')}\n"
            f"{listing}\n\nPick the one you mean, or none if none is.",
            {"name": "pick", "description": "The candidate you mean.",
             "input_schema": {"type": "object", "properties": {"id": {"type": "string", "enum": [*ids, "none"]}},
                              "required": ["id"]}})
        picked = str(chosen.get("id")) if isinstance(chosen, dict) else "none"
        return picked if picked in ids else None
