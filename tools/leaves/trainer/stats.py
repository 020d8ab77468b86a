"""stats: the member's workout statistics (001 §4.8), every number computed in code."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gym.training.record import statistics_view, trend_view
from tools.context import ToolContext
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

stats = ToolRouter("stats")
Period = Literal["week", "month", "quarter", "year", "all_time"]


class StatsInput(BaseModel):
    period: Period = "month"


class BreakdownInput(BaseModel):
    period: Period = "month"
    by: Literal["category", "muscle", "exercise_type", "exercise_name"] = "category"


class TrendInput(BaseModel):
    metric: Literal["weight", "reps", "volume", "frequency", "duration"]
    period: Literal["month", "quarter", "year"] = "quarter"
    exercise: str | None = Field(None, max_length=120, description="One exercise's trend (weight, reps).")


@stats.agent_tool(action="get_workout_statistics", input=StatsInput, roles=MEMBER,
                  summary="Totals over a period: workouts, volume (kg), hours, average RPE, frequency, records.")
async def statistics(ctx: ToolContext, input: StatsInput) -> dict:
    view = await statistics_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, input.period, ctx.tz)
    return {k: v for k, v in view.items() if not k.startswith("by_")}


@stats.agent_tool(action="get_exercise_breakdown", input=BreakdownInput, roles=MEMBER,
                  summary="How the period's training splits by category, muscle, exercise type or exercise name.")
async def breakdown(ctx: ToolContext, input: BreakdownInput) -> dict:
    view = await statistics_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, input.period, ctx.tz)
    key = {"category": "by_category", "muscle": "by_muscle", "exercise_type": "by_exercise_type",
           "exercise_name": "top_exercises"}[input.by]
    return {"period": input.period, "by": input.by, "items": view.get(key, [])}


@stats.agent_tool(action="get_progress_trends", input=TrendInput, roles=MEMBER,
                  summary="A metric over time (weekly, monthly for a year), optionally for one exercise.")
async def trends(ctx: ToolContext, input: TrendInput) -> dict:
    return await trend_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, metric=input.metric,
                            period=input.period, exercise=input.exercise, tz=ctx.tz)


@stats.agent_tool(action="generate_stats_summary", input=StatsInput, roles=MEMBER,
                  summary="A one-paragraph summary of the period's numbers, computed in code, to relay.")
async def summary(ctx: ToolContext, input: StatsInput) -> dict:
    view = await statistics_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, input.period, ctx.tz)
    overview = {k: v for k, v in view["overview"].items() if v is not None}
    parts = [f"{k.replace('_', ' ')}: {v:g}" for k, v in overview.items()]
    return {"period": input.period, "summary": "; ".join(parts), "numbers": overview}
