"""The trainer's knowledge sources (TRAINER.md "The loop"): each one's data for the member, computed in code.

`load(session, org_id, member_id, name, params, now)` returns JSON-ready data; the knowledge selector and
`data__fetch_data` both read through it, so the model sees the same numbers either way.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, tzinfo
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.member_text import EACH, Marks
from gym.nutrition.trainer_plan import nutrition_plan_source
from gym.training.goals import list_milestones, milestone_dict
from gym.training.preferences import active_preferences, pref_dict
from gym.training.profiles import (
    current_location,
    get_profile,
    get_units,
    list_locations,
    location_dict,
    profile_dict,
)
from gym.training.record import distribution_view, history_view, progression_view, recovery_overview
from gym.training.schedule import list_plans, plan_dict, upcoming
from gym.training.trainer_workouts import current_workout
from gym.training.workout_view import workout_view

SOURCES: dict[str, str] = {
    "user_profile": "Profile", "user_settings": "Units", "category_goals": "Category goals",
    "muscle_goals": "Muscle goals", "active_preferences": "Preferences", "workout_history": "Workout history",
    "recovery_status": "Recovery", "progression": "Progression", "current_location": "Current location",
    "all_locations": "Locations", "current_workout": "Current workout", "scheduled_workouts": "Scheduled workouts",
    "workout_plans": "Workout plans", "milestone_goals": "Milestones", "nutrition_plan": "Nutrition plan",
}
# Where each source carries text the member wrote (core/member_text.py): what the trainer's model reads of it is
# enveloped (agent/trainer/messages.py, the member's stable prefix).
_PREFERENCE = {"description": "preference", "guidance": "preference"}
_LOCATION = {"name": "location_name"}
KNOWLEDGE_MEMBER_TEXT: dict[str, Marks] = {
    "active_preferences": {EACH: _PREFERENCE},
    "workout_history": {"items": {EACH: {"notes": "workout_comment"}}},
    "current_location": _LOCATION, "all_locations": {EACH: _LOCATION},
    "milestone_goals": {EACH: {"name": "milestone"}},
    "workout_plans": {EACH: {"name": "plan", "goalDescription": "plan"}},
}
DEFAULTS: dict[str, dict[str, Any]] = {"workout_history": {"days_back": 14}, "scheduled_workouts": {"days_ahead": 7},
                                       "workout_plans": {"status": "active"}, "milestone_goals": {"status": "active"}}


def params_for(name: str, given: dict[str, Any] | None) -> dict[str, Any]:
    """The source's parameters: its defaults overlaid with what was asked (unknown keys dropped)."""
    base = dict(DEFAULTS.get(name, {}))
    for key, value in (given or {}).items():
        if key in base and value is not None:
            base[key] = value
    return base


async def load(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, name: str, params: dict[str, Any],
               now: datetime, tz: tzinfo = UTC) -> Any:
    """`tz`: the gym's timezone, for what "today" means (the nutrition plan's meals)."""
    if name not in SOURCES:
        raise KeyError(name)
    if name == "user_profile":
        return profile_dict(await get_profile(session, org_id, member_id))
    if name == "user_settings":
        return (await get_units(session, org_id, member_id)).as_dict()
    if name in ("category_goals", "muscle_goals"):
        view = await distribution_view(session, org_id, member_id, now)
        return view["categories" if name == "category_goals" else "muscles"]
    if name == "active_preferences":
        return [pref_dict(p) for p in await active_preferences(session, org_id, member_id, now)]
    if name == "workout_history":
        view = await history_view(session, org_id, member_id, now, int(params.get("days_back", 14)))
        return {"days": view["days"], "items": view["items"]}
    if name == "recovery_status":
        return await recovery_overview(session, org_id, member_id, now)
    if name == "progression":
        return await progression_view(session, org_id, member_id, now)
    if name == "current_location":
        row = await current_location(session, org_id, member_id)
        return location_dict(row) if row else None
    if name == "all_locations":
        return [location_dict(r) for r in await list_locations(session, org_id, member_id)]
    if name == "current_workout":
        return await workout_view(session, org_id, member_id, await current_workout(session, org_id, member_id), now)
    if name == "scheduled_workouts":
        return await upcoming(session, org_id, member_id, now=now, days_ahead=int(params.get("days_ahead", 7)))
    if name == "workout_plans":
        return [plan_dict(r) for r in await list_plans(session, org_id, member_id, params.get("status", "active"))]
    if name == "nutrition_plan":
        return await nutrition_plan_source(session, org_id, member_id, now.astimezone(tz).date())
    return [milestone_dict(r) for r in await list_milestones(session, org_id, member_id,
                                                             params.get("status", "active"))]
