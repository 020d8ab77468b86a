"""A persona: what makes one agent different from another on the same loop, as configuration.

The orchestrator drives every persona the same way (budget, replay guard, streaming, tools, suspension,
finalize); a persona only says who it serves, what its system prompt is, which of the caller's tools it
offers, how many model round trips one controller call may make, the `tool_choice` it sends, and what
ends a turn. The staff copilot is the first one; the member's trainer (TRAINER.md) is the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent.model import ModelResponse
from agent.request import copilot_system
from agent.tool_search import STAFF_LOADED_TOOLS
from core.tenancy import STAFF_ROLES, OrgAccess
from tools.registry import ToolRegistry, ToolSpec

SystemPrompt = Callable[[OrgAccess], list[dict[str, Any]]]


def _every_tool(spec: ToolSpec) -> bool:
    return True


def _no_tool_use(response: ModelResponse) -> bool:
    """The Messages API's own end: anything but a stop for tool use, or a tool_use stop without tool uses."""
    return response.stop_reason != "tool_use" or not any(b.get("type") == "tool_use" for b in response.content)


@dataclass(frozen=True)
class Persona:
    name: str
    roles: frozenset[str]  # the caller roles it serves
    system: SystemPrompt  # the cached system blocks for the org
    max_round_trips: int = 6  # model calls per controller call (send, confirm, pick)
    tool_choice: dict[str, Any] | None = None  # None: the API default ("auto")
    offers: Callable[[ToolSpec], bool] = _every_tool  # which of the caller's tools it shows the model
    ends_turn: Callable[[ModelResponse], bool] = _no_tool_use  # checked on each assistant message
    final_tools: frozenset[str] = field(default_factory=frozenset)  # tool names whose run ends the turn
    loaded_tools: frozenset[str] | None = None  # None: every tool in the prompt; else the rest is deferred

    def serves(self, role: str) -> bool:
        return role in self.roles

    def tools(self, registry: ToolRegistry, role: str) -> list[ToolSpec]:
        """The caller's tools this persona offers (the registry's role filter, then the persona's own)."""
        if not self.serves(role):
            return []
        return [spec for spec in registry.for_role(role) if self.offers(spec)]

    def ends_after(self, tool_names: list[str]) -> bool:
        return any(name in self.final_tools for name in tool_names)


STAFF_COPILOT = Persona(name="staff_copilot", roles=STAFF_ROLES, system=copilot_system,
                        loaded_tools=STAFF_LOADED_TOOLS)
