"""Workout statistics (001 §4.8), computed in code over logged exercises (undone ones never count).

`total_workouts` counts distinct workout sessions: logs sharing a workout id are one session, logs
without one are grouped by their local day. Volume = Σ sets × reps × kg. Frequency = workouts per week
over the period. Trends bucket by ISO week (Monday) or calendar month.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Literal

from gym.training.entries import LogEntry

Period = Literal["week", "month", "quarter", "year", "all_time"]
PERIOD_DAYS: dict[str, int] = {"week": 7, "month": 30, "quarter": 90, "year": 365}
Breakdown = Literal["category", "muscle", "exercise_type", "exercise_name"]
Metric = Literal["weight", "reps", "volume", "frequency", "duration"]
TOP_N = 10


def period_start(period: str, now: datetime) -> datetime | None:
    return None if period == "all_time" else now - timedelta(days=PERIOD_DAYS[period])


def counted(logs: Iterable[LogEntry], start: datetime | None, end: datetime) -> list[LogEntry]:
    return [g for g in logs if not g.undone and (start is None or g.performed_at > start) and g.performed_at <= end]


def session_key(log: LogEntry, tz: tzinfo = UTC) -> str:
    if log.workout_id is not None:
        return f"workout:{log.workout_id}"
    return f"day:{log.performed_at.astimezone(tz).date().isoformat()}"


# Other names of two numbers (TRAINER.md's duration_hours, 001's workout_frequency): the overview carries both
# names, a summary says each number once
SAME_AS = {"duration_hours": "total_duration_hours", "workout_frequency": "workout_frequency_per_week"}


def overview(logs: list[LogEntry], days: float, tz: tzinfo = UTC) -> dict:
    """001 §4.8's overview; the duration and the weekly frequency also under the names in SAME_AS."""
    workouts = len({session_key(g, tz) for g in logs})
    rpes = [float(g.rpe) for g in logs if g.rpe is not None]
    hours = round(sum(float(g.duration_min or 0) for g in logs) / 60, 2)
    per_week = round(workouts / (days / 7), 2) if days > 0 else None
    numbers = {
        "total_workouts": workouts,
        "total_exercises": len(logs),
        "total_duration_hours": hours,
        "total_volume_kg": round(sum(g.volume_kg for g in logs), 1),
        "average_rpe": round(sum(rpes) / len(rpes), 1) if rpes else None,
        "workout_frequency_per_week": per_week,
    }
    return {**numbers, **{alias: numbers[name] for alias, name in SAME_AS.items()}}


def breakdown(logs: list[LogEntry], by: str) -> list[dict]:
    """Share per category (goal credits), muscle (muscle credits), exercise type or name (counts)."""
    totals: dict[str, float] = defaultdict(float)
    for g in logs:
        if by in ("category", "muscle"):
            for name, share in (g.goals if by == "category" else g.muscles).items():
                totals[name] += float(share)
        else:
            totals[g.exercise_type if by == "exercise_type" else g.name] += 1
    whole = sum(totals.values())
    rows = [{"name": k, "value": round(v, 2), "pct": round(100 * v / whole, 1) if whole else 0.0}
            for k, v in totals.items()]
    return sorted(rows, key=lambda r: (-r["value"], r["name"]))


def top_exercises(logs: list[LogEntry], n: int = TOP_N) -> list[dict]:
    counts = Counter(g.name for g in logs)
    return [{"name": k, "count": v} for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def personal_records(logs: list[LogEntry]) -> list[dict]:
    """Per exercise: the heaviest load (kg, first time reached) and the most reps in one log."""
    best: dict[str, dict] = {}
    for g in sorted(logs, key=lambda x: x.performed_at):
        row = best.setdefault(g.name, {"exercise": g.name, "max_load_kg": None, "max_load_at": None, "max_reps": None})
        if g.load_kg and (row["max_load_kg"] is None or float(g.load_kg) > row["max_load_kg"]):
            row["max_load_kg"], row["max_load_at"] = float(g.load_kg), g.performed_at.isoformat()
        if g.best_reps and (row["max_reps"] is None or g.best_reps > row["max_reps"]):
            row["max_reps"] = g.best_reps
    return [best[k] for k in sorted(best) if best[k]["max_load_kg"] is not None or best[k]["max_reps"] is not None]


def statistics(logs: Iterable[LogEntry], period: str, now: datetime, tz: tzinfo = UTC, *,
               start: datetime | None = None, end: datetime | None = None) -> dict:
    """Overview, breakdowns, top 10 and personal records for `period` ending at `now`, or for a custom range
    (`start`, `end`: period "custom"; frequency per week over the range's days)."""
    if start is not None or end is not None:
        stop = min(end or now, now)
        rows = counted(logs, start, stop)
        first = start or (min(g.performed_at for g in rows) if rows else stop)
        days = max((stop - first).total_seconds() / 86400, 1.0)
        out = _sections(rows, "custom", days, tz)
        out["range"] = {"start": start.isoformat() if start else None, "end": stop.isoformat()}
        return out
    begin = period_start(period, now)
    rows = counted(logs, begin, now)
    if begin is None:
        days = (now - min(g.performed_at for g in rows)).total_seconds() / 86400 if rows else 0.0
        days = max(days, 7.0) if rows else 0.0
    else:
        days = float(PERIOD_DAYS[period])
    return _sections(rows, period, days, tz)


def _sections(rows: list[LogEntry], period: str, days: float, tz: tzinfo) -> dict:
    return {"period": period, "overview": overview(rows, days, tz),
            "by_category": breakdown(rows, "category"), "by_muscle": breakdown(rows, "muscle"),
            "by_exercise_type": breakdown(rows, "exercise_type"), "top_exercises": top_exercises(rows),
            "personal_records": personal_records(rows)}


def bucket(day: date, by: str) -> date:
    return day - timedelta(days=day.weekday()) if by == "week" else day.replace(day=1)


def trend(logs: Iterable[LogEntry], metric: str, *, by: str = "week", exercise: str | None = None,
          tz: tzinfo = UTC) -> list[dict]:
    """One point per week/month: max load (weight), max reps, Σ volume, sessions (frequency), Σ minutes."""
    wanted = " ".join(exercise.split()).lower() if exercise else None
    groups: dict[date, list[LogEntry]] = defaultdict(list)
    for g in logs:
        if g.undone or (wanted and " ".join(g.name.split()).lower() != wanted):
            continue
        groups[bucket(g.performed_at.astimezone(tz).date(), by)].append(g)
    points = []
    for start in sorted(groups):
        rows = groups[start]
        if metric == "weight":
            value = max((float(g.load_kg) for g in rows if g.load_kg), default=None)
        elif metric == "reps":
            value = max((g.best_reps for g in rows if g.best_reps), default=None)
        elif metric == "volume":
            value = round(sum(g.volume_kg for g in rows), 1)
        elif metric == "frequency":
            value = len({session_key(g, tz) for g in rows})
        elif metric == "duration":
            value = round(sum(float(g.duration_min or 0) for g in rows), 1)
        else:
            raise ValueError(f"unknown metric {metric!r}")
        points.append({"start": start.isoformat(), "value": value})
    return points
