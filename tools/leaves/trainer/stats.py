"""stats: the member's workout statistics (001 §4.8), every number computed in code. Statistics and breakdowns
take a period or a custom date range; the summary takes the sections to include."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from gym.training.goals import list_milestones, milestone_dict
from gym.training.record import distribution_view, statistics_view, trend_view
from gym.training.statistics import SAME_AS
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

stats = ToolRouter("stats")
Period = Literal["week", "month", "quarter", "year", "all_time"]
Section = Literal["overview", "category_breakdown", "muscle_breakdown", "top_exercises", "progress", "goals"]
SECTIONS: tuple[Section, ...] = ("overview", "category_breakdown", "muscle_breakdown", "top_exercises", "progress",
                                 "goals")
RANGE = "Custom range (the gym's days, both included); overrides period."


class StatsInput(BaseModel):
    period: Period = "month"
    start_date: ToolDate | None = Field(None, description=f"First day. {RANGE}")
    end_date: ToolDate | None = Field(None, description=f"Last day (default today). {RANGE}")

    @model_validator(mode="after")
    def _ordered(self) -> StatsInput:
        if self.start_date and self.end_date and self.start_date > self.end_date:
            raise ValueError("start_date must not be after end_date")
        return self


class BreakdownInput(StatsInput):
    by: Literal["category", "muscle", "exercise_type", "exercise_name"] = "category"


class TrendInput(BaseModel):
    metric: Literal["weight", "reps", "volume", "frequency", "duration"]
    period: Literal["month", "quarter", "year"] = "quarter"
    exercise: str | None = Field(None, max_length=120, description="One exercise's trend (weight, reps).")


class SummaryInput(BaseModel):
    period: Period = "month"
    include_sections: list[Section] = Field(default_factory=lambda: list(SECTIONS), min_length=1, max_length=6,
                                            description="Which sections to include (default: all).")


async def _view(ctx: ToolContext, input: StatsInput) -> dict:
    return await statistics_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, input.period, ctx.tz,
                                 start_date=input.start_date, end_date=input.end_date)


@stats.agent_tool(action="get_workout_statistics", input=StatsInput, roles=MEMBER,
                  summary="Totals over a period or a custom date range: workouts, volume (kg), hours, average RPE, "
                          "frequency, records.")
async def statistics(ctx: ToolContext, input: StatsInput) -> dict:
    return {k: v for k, v in (await _view(ctx, input)).items() if not k.startswith("by_")}


@stats.agent_tool(action="get_exercise_breakdown", input=BreakdownInput, roles=MEMBER,
                  summary="How a period's (or a date range's) training splits by category, muscle, exercise type or "
                          "exercise name.")
async def breakdown(ctx: ToolContext, input: BreakdownInput) -> dict:
    view = await _view(ctx, input)
    key = {"category": "by_category", "muscle": "by_muscle", "exercise_type": "by_exercise_type",
           "exercise_name": "top_exercises"}[input.by]
    return {"period": view["period"], "by": input.by, "items": view.get(key, []),
            **({"range": view["range"]} if "range" in view else {})}


@stats.agent_tool(action="get_progress_trends", input=TrendInput, roles=MEMBER,
                  summary="A metric over time (weekly, monthly for a year), optionally for one exercise.")
async def trends(ctx: ToolContext, input: TrendInput) -> dict:
    return await trend_view(ctx.session, ctx.org_id, await me(ctx), ctx.now, metric=input.metric,
                            period=input.period, exercise=input.exercise, tz=ctx.tz)


def _shares(rows: list[dict], top: int = 5) -> str:
    return ", ".join(f"{r['name']} {r['pct']:g} %" for r in rows[:top])


@stats.agent_tool(action="generate_stats_summary", input=SummaryInput, roles=MEMBER,
                  summary="A summary of the period's numbers, computed in code, section by section (overview, "
                          "category_breakdown, muscle_breakdown, top_exercises, progress, goals), to relay.")
async def summary(ctx: ToolContext, input: SummaryInput) -> dict:
    member_id = await me(ctx)
    view = await statistics_view(ctx.session, ctx.org_id, member_id, ctx.now, input.period, ctx.tz)
    overview = {k: v for k, v in view["overview"].items() if v is not None and k not in SAME_AS}
    sections: dict[str, Any] = {}
    lines: list[str] = []
    for name in dict.fromkeys(input.include_sections):
        if name == "overview":
            sections[name] = overview
            lines.append("; ".join(f"{k.replace('_', ' ')}: {v:g}" for k, v in overview.items()))
        elif name == "category_breakdown":
            sections[name] = view["by_category"]
            lines.append(f"By category: {_shares(view['by_category']) or 'nothing logged'}")
        elif name == "muscle_breakdown":
            sections[name] = view["by_muscle"]
            lines.append(f"By muscle: {_shares(view['by_muscle']) or 'nothing logged'}")
        elif name == "top_exercises":
            sections[name] = view["top_exercises"]
            lines.append("Most done: " + (", ".join(f"{r['name']} ({r['count']})" for r in view["top_exercises"][:5])
                                          or "nothing logged"))
        elif name == "progress":
            records = [r for r in view["personal_records"] if r["max_load_kg"] is not None]
            records.sort(key=lambda r: -r["max_load_kg"])
            sections[name] = {"personalRecords": view["personal_records"]}
            lines.append("Heaviest: " + (", ".join(f"{r['exercise']} {r['max_load_kg']:g} kg" for r in records[:5])
                                         or "no loaded lifts"))
        else:
            goals = await distribution_view(ctx.session, ctx.org_id, member_id, ctx.now)
            milestones = [milestone_dict(m) for m in await list_milestones(ctx.session, ctx.org_id, member_id)]
            sections[name] = {"categories": goals["categories"], "muscles": goals["muscles"],
                              "milestones": milestones}
            lines.append("Goals (last 28 days): " + (", ".join(
                f"{g['name']} {g['actualPct']:g} % of {g['targetPct']:g} % (debt {g['debtPct']:+g})"
                for g in goals["categories"]) or "none set"))
    return {"period": input.period, "sections": sections, "summary": "\n".join(lines), "numbers": overview}
