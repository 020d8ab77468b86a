"""coach: talk to the member. notify (with workout / exercise attachments resolved server-side), ask, idle.

These end or shape the turn; the trainer loop turns their outputs into `message` / `question` frames.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from gym.training.trainer_workouts import current_workout, workout_by_key
from gym.training.workout_view import workout_view
from tools import observations
from tools.context import ToolContext
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

coach = ToolRouter("coach")


class NotifyInput(BaseModel):
    text: str = Field(min_length=1, max_length=8000, description="What to tell the member, in their language.")
    attachments: list[str] = Field(default_factory=list, max_length=20,
                                   description="Workout ids (workout_1) or exercise ids (ex_003) to show as cards.")


class AskInput(BaseModel):
    text: str = Field(min_length=1, max_length=4000, description="The question.")
    options: list[str] = Field(default_factory=list, max_length=8, description="Short answer options (buttons).")


class IdleInput(BaseModel):
    reason: str | None = Field(None, max_length=300, description="Why the turn ends (not shown).")


@coach.agent_tool(action="message_notify_user", input=NotifyInput, roles=MEMBER,
                  summary="Send the member a message, optionally with workout or exercise cards (attachments by id). "
                          "Attach the workout after generating or changing it.",
                  speaks="message", observe=observations.confirmed_with_warnings)
async def notify(ctx: ToolContext, input: NotifyInput) -> dict:
    """Workout ids resolve to any of the member's workouts (the current one, or an earlier one by its id);
    exercise ids to the current workout's exercises. Each card carries the workout view (gym.training.workout_view):
    per exercise, recovery percentages and the progression suggestion; a printable summary."""
    member_id = await me(ctx)

    async def view(row):
        return await workout_view(ctx.session, ctx.org_id, member_id, row, ctx.now, ctx.locale)

    workout = await view(await current_workout(ctx.session, ctx.org_id, member_id))
    attachments: list[dict[str, Any]] = []
    warnings: list[str] = []
    for ref in input.attachments:
        if workout and ref == workout["id"]:
            attachments.append({"type": "workout", "workout": workout})
            continue
        if ref.startswith("workout_") and (earlier := await workout_by_key(ctx.session, ctx.org_id, member_id, ref)):
            attachments.append({"type": "workout", "workout": await view(earlier)})
            continue
        exercise = next((e for e in (workout or {}).get("exercises", []) if e.get("id") == ref), None)
        if exercise is not None:
            attachments.append({"type": "exercise", "exercise": exercise, "workoutId": (workout or {}).get("id")})
        else:
            warnings.append(f"attachment {ref} not found; dropped")
    return {"content": input.text, "attachments": attachments, "warnings": warnings}


@coach.agent_tool(action="message_ask_user", input=AskInput, roles=MEMBER,
                  summary="Ask the member a question and wait for the answer (ends the turn).",
                  speaks="question", ends_turn=True, observe=observations.confirmed)
async def ask(ctx: ToolContext, input: AskInput) -> dict:
    return {"content": input.text, "options": input.options}


@coach.agent_tool(action="idle", input=IdleInput, roles=MEMBER,
                  summary="End the turn when the member has what they need.",
                  ends_turn=True, observe=observations.confirmed)
async def idle(ctx: ToolContext, input: IdleInput) -> dict:
    return {"idle": True}
