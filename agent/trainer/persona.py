"""The member's trainer as a persona on the shared engine: forced tool use, one tool per iteration, at most
10 iterations, the turn ends on coach__idle or coach__message_ask_user (TRAINER.md "The loop")."""

from __future__ import annotations

from agent.persona import Persona
from agent.trainer.prompt import trainer_system

MEMBER_ROLE = "member"
FINAL_TOOLS = frozenset({"coach__idle", "coach__message_ask_user"})

TRAINER = Persona(
    name="trainer",
    roles=frozenset({MEMBER_ROLE}),
    system=lambda access: trainer_system(access.locale, ""),  # the loop adds the member's prefix per turn
    max_round_trips=10,
    tool_choice={"type": "any", "disable_parallel_tool_use": True},
    final_tools=FINAL_TOOLS,
)
