"""The offline provider: deterministic agents built on packaged food, recipe and exercise libraries,
so a run reaches `output_ready` without a model key (NUTRITION.md, Demo)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipeline.agents import AgentCall, Answer, CannotPlan
from pipeline.offline.coach import coach
from pipeline.offline.meal_plan import Uncookable, planned_with
from pipeline.offline.memo import remembered
from pipeline.offline.nutrition import chef, dietitian, nutritionist
from pipeline.offline.physician import physician
from pipeline.offline.planner import Unplannable

_CHEF = remembered(chef)  # the DIETITIAN's cooking and the CHEF step's are one and the same
AGENTS: dict[str, Callable[[dict[str, Any], str | None], dict[str, Any]]] = {
    "NUTRITIONIST": nutritionist, "DIETITIAN": remembered(planned_with(dietitian, _CHEF)), "CHEF": _CHEF,
    "COACH": coach, "PHYSICIAN": physician}


class OfflineAgents:
    """Answers every call at once, deterministically, with a payload valid for its edge."""

    async def answer(self, call: AgentCall) -> Answer:
        try:
            return Answer(call.data_type, AGENTS[call.agent](call.inputs, call.constraint))
        except (Unplannable, Uncookable) as exc:
            raise CannotPlan(f"the cookbook has no week of dishes for these constraints ({type(exc).__name__})") \
                from exc
