"""prefs: the member's preferences and injuries (001 §4.4 types). Each carries structured exclusions (exercises,
movement patterns, muscles, equipment; an injury its body region and side) that the workout tools enforce in code
when it is hard (every injury; a "never" rule, said with or without exclusions: its words are mapped to the
library's exercises and patterns, gym.training.restrictions); a soft one is guidance. The result shows the rule
back in the member's language ("left shoulder — no overhead pressing, no loaded shoulder flexion above 90°").
Temporary ones expire, one-shot ones go after the next generated workout. The same preference said twice updates
the first. Setting one can be undone: its inverse deletes what it created, or puts back what it updated."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from gym.training.constraints import Exclusions
from gym.training.preferences import (
    as_pref,
    delete_preference,
    pref_dict,
    restore_preference,
    save_preference,
)
from gym.training.restrictions import rule_text, structured
from tools import observations
from tools.context import ToolContext
from tools.errors import ToolFailed
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import Audit, Inverse, ToolRouter

prefs = ToolRouter("prefs")
PreferenceType = Literal["workout", "injury", "time", "equipment", "intensity", "muscle_group", "exercise", "goal",
                         "recovery", "other"]


class SetPreferenceInput(BaseModel):
    type: PreferenceType
    description: str = Field(min_length=1, max_length=300, description="What the member said, briefly.")
    guidance: str = Field(min_length=1, max_length=500, description="How workouts must honour it.")
    exclusions: Exclusions = Field(default_factory=Exclusions, description=(
        "What it rules out, filled from what the member said: an injury or a never-rule needs at least one "
        '(e.g. "no jumping" → patterns ["jump"]; "never burpees" → patterns ["burpee_family"]; "never lunges" → '
        'patterns ["lunge"]; "never walking lunges" → exercises ["Walking Lunge"]; "my left shoulder hurts, no '
        'overhead pressing" → region "shoulder", side "left", patterns ["overhead_press", '
        '"shoulder_flexion_loaded_above_90"]). Exercises by their library names.'))
    hard: bool | None = Field(None, description=(
        "True for a rule the member wants always kept (an injury always is; \"never ...\", \"no ...\"): workouts "
        "breaking it are refused. False for a liking (\"prefers mornings\", \"likes kettlebells\"): guidance only. "
        "Default: true when it excludes something."))
    expires_at: datetime | None = Field(None, description="ISO 8601 with offset; omit for a permanent preference.")
    delete_after_use: bool = Field(False, description="True for a one-time request (gone after the next workout).")


class DeletePreferenceInput(BaseModel):
    id: uuid.UUID
    restore: dict[str, Any] | None = Field(None, description="Undo only: the earlier version to put back instead "
                                                             "of deleting. Leave it out.")


def undo_input(output: Mapping[str, Any]) -> dict[str, Any]:
    """A created preference is deleted; an updated one gets its earlier fields back."""
    if output.get("previous"):
        return {"id": output["id"], "restore": output["previous"]}
    return {"id": output["id"]}


@prefs.agent_tool(action="set_preference", input=SetPreferenceInput, roles=MEMBER, side_effects="write",
                  audit=Audit("member_preference", "trainer.preference.set"),
                  inverse=Inverse("prefs", "delete_preference", undo_input),
                  summary="Save a member preference or injury with what it rules out (exercises, movement patterns, "
                          "muscles, equipment); injuries and never-rules are then enforced on every workout. "
                          "Temporary with expires_at, one-time with delete_after_use; saying it again updates it.",
                  observe=observations.saved_preference)
async def set_pref(ctx: ToolContext, input: SetPreferenceInput) -> dict:
    rules, enforced = structured(input.type, input.description, input.guidance, input.exclusions, input.hard)
    if enforced and rules.is_empty():
        what = "An injury" if input.type == "injury" else "A hard preference"
        raise ToolFailed("exclusions_required", f"{what} needs exclusions so workouts can be checked against it.",
                         "Fill exclusions from what the member said: the movement patterns, exercises, muscles or "
                         "equipment to keep out (ask the member if it is unclear what hurts or what to avoid).")
    saved = await save_preference(ctx.session, ctx.org_id, await me(ctx), now=ctx.now,
                                  **input.model_dump(exclude={"exclusions", "hard"}), exclusions=rules, hard=enforced)
    out = {**pref_dict(as_pref(saved.row)), "updated": saved.previous is not None}
    if saved.row.hard:  # the rule in the member's words, as the card shows it
        out["shownBack"] = rule_text(saved.row.exclusions or {}, ctx.locale, injury=saved.row.type == "injury")
    if saved.previous is not None:
        out["previous"] = saved.previous
    return out


@prefs.agent_tool(action="delete_preference", input=DeletePreferenceInput, roles=MEMBER, side_effects="write",
                  audit=Audit("member_preference", "trainer.preference.delete"),
                  summary="Delete one of the member's preferences by id.",
                  observe=observations.confirmed)
async def delete_pref(ctx: ToolContext, input: DeletePreferenceInput) -> dict:
    member_id = await me(ctx)
    if input.restore:
        row = await restore_preference(ctx.session, ctx.org_id, member_id, input.id, input.restore, now=ctx.now)
        return {**pref_dict(as_pref(row)), "restored": True}
    await delete_preference(ctx.session, ctx.org_id, member_id, input.id)
    return {"id": str(input.id), "deleted": True}
