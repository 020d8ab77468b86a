"""The member's trainer as configuration of the one engine (TRAINER.md "The loop"): forced tool use, one tool
per iteration, at most 10 iterations, the turn ends on a tool declared `ends_turn` (coach__idle,
coach__message_ask_user); its history is
the session's event log (agent/trainer/thread.py), its frames status lines, messages and questions."""

from __future__ import annotations

from agent.persona import Persona
from agent.trainer.frames import TrainerFrames
from agent.trainer.prompt import trainer_system
from agent.trainer.store import PERSONA
from agent.trainer.thread import TrainerThread

MEMBER_ROLE = "member"


TRAINER = Persona(
    name=PERSONA,  # what its threads record (agent.conversations.OWNED)
    roles=frozenset({MEMBER_ROLE}),
    system=lambda access: trainer_system(access.locale, ""),  # the thread adds the member's prefix per turn
    history=TrainerThread,
    frames=TrainerFrames(),
    acts_as=MEMBER_ROLE,  # a staff user who is also a member of the gym trains as that member
    max_round_trips=10,
    tool_choice={"type": "any", "disable_parallel_tool_use": True},
    endpoint_prefix="trainer_",
)
