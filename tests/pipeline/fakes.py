"""A fake at the model boundary: the offline agents' answers, overridden call by call by a script.

Overrides receive the call and the offline answer and return what the "model" submitted; `hang`
never answers (the driver's timeout must fire).
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from typing import Any

from pipeline.agents import AgentCall, Answer
from pipeline.offline import OfflineAgents

Override = Callable[[AgentCall, Answer], Answer | Awaitable[Answer]]


class ScriptedAgents:
    def __init__(self, **script: list[Override]) -> None:
        self.script = {agent: list(items) for agent, items in script.items()}
        self.calls: list[AgentCall] = []
        self.offline = OfflineAgents()

    async def answer(self, call: AgentCall) -> Answer:
        self.calls.append(call)
        good = await self.offline.answer(call)
        queue = self.script.get(call.agent)
        if not queue:
            return good
        result = queue.pop(0)(call, Answer(good.data_type, copy.deepcopy(good.payload)))
        return await result if asyncio.iscoroutine(result) else result

    def agents_called(self) -> list[str]:
        return [call.agent for call in self.calls]


async def hang(call: AgentCall, good: Answer) -> Answer:
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


def edit(change: Callable[[Any], None]) -> Override:
    def apply(call: AgentCall, good: Answer) -> Answer:
        change(good.payload)
        return good
    return apply
