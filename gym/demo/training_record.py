"""The demo gym's training records (TRAINER.md "Demo"), deterministic from (org, members, rng, instant).

Dani Mizrahi: a profile, home (current: dumbbells, bands, mat) and Harbor Strength (the full gym),
category goals Strength 45 / Hypertrophy 25 / Conditioning 20 / Mobility 10, muscle goals (so muscle debt has
numbers: shoulders and chest under-trained while the injury lasts), a left-shoulder injury expiring in 10 days
(region shoulder, side left: no overhead pressing, no loaded shoulder flexion above 90°), a never-burpees rule (the
burpee family), and six weeks of a four-session week whose goal credits are Strength 7.6,
Hypertrophy 5.6, Conditioning 4.4 and Mobility 2.4 of 20 — so any 28 days hold four whole weeks and
Strength is exactly 38 % (debt +7 %). Every exercise is the library's, under its library name, so the history links
to the library (suggestions, records); the last session (legs) ends 20 hours before the seeding instant. Her
latest front squat missed its last rep (5/5/5/4 of 5×5), so progression says to repeat it.
A thinner record (goals, a location, three weeks of logs) goes to one member in twenty, so
`seed-demo --members N` scales the logs with the members.
"""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from gym.demo.tenancy import demo_id
from gym.training.equipment import FULL_GYM

TABLES = ("milestone_goals", "scheduled_workouts", "exercise_logs", "trainer_workouts", "workout_plans",
          "member_preferences", "muscle_goals", "category_goals", "member_locations", "member_settings",
          "member_profiles")
LOG_COLUMNS = ("id", "org_id", "member_id", "name", "exercise_type", "sets", "reps", "load_kg", "duration_min",
               "distance_km", "rpe", "muscles", "goals", "performed_at", "created_at", "reps_per_set", "target_reps")
MEMBERS_PER_THIN_RECORD = 20
WEEKS = 6
EXERCISE_GAP = timedelta(minutes=9)

# (name, type, sets, reps, base kg, kg per week of progress, minutes, km, rpe, goals, muscles)
Ex = tuple[str, str, int | None, int | None, float | None, float, float | None, float | None, float,
           dict[str, float], dict[str, float]]
LOWER: list[Ex] = [
    ("Back Squat", "strength", 5, 5, 70, 2.5, None, None, 8, {"Strength": 1}, {"Quadriceps": .5, "Glutes": .3,
                                                                                "Hamstrings": .2}),
    ("Romanian Deadlift", "strength", 3, 8, 55, 2.5, None, None, 7.5, {"Strength": .8, "Hypertrophy": .2},
     {"Hamstrings": .5, "Glutes": .3, "Lower Back": .2}),
    ("Bulgarian Split Squat", "strength", 3, 10, 12, 0, None, None, 8, {"Strength": .4, "Hypertrophy": .6},
     {"Quadriceps": .6, "Glutes": .4}),
    ("Hip Thrust", "strength", 3, 12, 60, 2.5, None, None, 7, {"Hypertrophy": 1}, {"Glutes": .7, "Hamstrings": .3}),
    ("Couch Stretch", "flexibility", None, None, None, 0, 6, None, 3, {"Mobility": 1}, {"Quadriceps": .6,
                                                                                      "Glutes": .4}),
]
CONDITIONING: list[Ex] = [
    ("Row", "hiit", None, None, None, 0, 12, None, 8, {"Conditioning": 1}, {"Back": .4, "Quadriceps": .3,
                                                                                      "Biceps": .3}),
    ("Kettlebell Swing", "hiit", 5, 15, 20, 0, None, None, 8, {"Conditioning": .6, "Strength": .4},
     {"Glutes": .5, "Hamstrings": .3, "Lower Back": .2}),
    ("Box Jump", "bodyweight", 4, 8, None, 0, None, None, 7, {"Conditioning": .8, "Strength": .2},
     {"Quadriceps": .5, "Glutes": .3, "Calves": .2}),
    ("Bike", "cardio_time", None, None, None, 0, 10, None, 8, {"Conditioning": 1}, {"Quadriceps": .7,
                                                                                        "Calves": .3}),
    ("Run", "cardio_distance", None, None, None, 0, 25, 4.5, 6, {"Conditioning": 1}, {"Quadriceps": .4,
                                                                                      "Calves": .3, "Hamstrings": .3}),
]
UPPER: list[Ex] = [
    ("Bench Press", "strength", 5, 5, 40, 1.25, None, None, 8, {"Strength": 1}, {"Chest": .65, "Triceps": .25,
                                                                                  "Shoulders": .1}),
    ("Bent-Over Row", "strength", 4, 8, 40, 1.25, None, None, 7.5, {"Strength": .7, "Hypertrophy": .3},
     {"Back": .6, "Biceps": .2, "Trapezius": .2}),
    ("Pull-up", "bodyweight", 4, 6, None, 0, None, None, 8, {"Strength": .6, "Hypertrophy": .4}, {"Back": .7,
                                                                                                 "Biceps": .3}),
    ("Dumbbell Curl", "strength", 3, 12, 10, 0, None, None, 7, {"Hypertrophy": 1}, {"Biceps": .8, "Forearms": .2}),
    ("Triceps Pushdown", "strength", 3, 12, 20, 0, None, None, 7, {"Hypertrophy": 1}, {"Triceps": 1}),
]
# Before the shoulder started hurting (weeks 5 and 6), the row's slot was an overhead press: same goal credit.
OVERHEAD = ("Strict Press", "strength", 5, 5, 30, 1.25, None, None, 8, {"Strength": .7, "Hypertrophy": .3},
            {"Shoulders": .7, "Triceps": .3})
FULL: list[Ex] = [
    ("Deadlift", "strength", 5, 3, 90, 2.5, None, None, 8, {"Strength": 1}, {"Hamstrings": .35, "Glutes": .35,
                                                                              "Lower Back": .3}),
    ("Front Squat", "strength", 4, 5, 50, 1.25, None, None, 8, {"Strength": 1}, {"Quadriceps": .6, "Glutes": .2,
                                                                                  "Abs": .2}),
    ("Farmer's Carry", "strength", 4, None, 24, 0, None, None, 7, {"Strength": .5, "Hypertrophy": .5},
     {"Forearms": .5, "Trapezius": .3, "Abs": .2}),
    ("Face Pull", "strength", 3, 15, 15, 0, None, None, 6, {"Hypertrophy": .6, "Mobility": .4},
     {"Shoulders": .6, "Trapezius": .4}),
    ("Yoga Flow", "yoga", None, None, None, 0, 15, None, 3, {"Mobility": 1}, {"Hamstrings": .4, "Lower Back": .3,
                                                                               "Shoulders": .3}),
]
# (hours before the instant at which the session's last exercise ends in the latest week, exercises)
DANI_WEEK: tuple[tuple[int, list[Ex]], ...] = ((20, LOWER), (68, CONDITIONING), (116, UPPER), (140, FULL))
THIN_GOALS = ((("Strength", 50), ("Conditioning", 30), ("Mobility", 20)),
              (("Hypertrophy", 60), ("Strength", 25), ("Conditioning", 15)),
              (("Conditioning", 50), ("Strength", 30), ("Mobility", 20)))
THIN_POOL: list[Ex] = [LOWER[0], LOWER[1], CONDITIONING[1], CONDITIONING[4], UPPER[0], UPPER[2], FULL[0], FULL[4]]


# Muscle goals (percent; normalized when read): what Dani wants her 28 days to look like.
DANI_MUSCLE_GOALS = {"Quadriceps": 16, "Glutes": 14, "Hamstrings": 12, "Back": 12, "Chest": 12, "Shoulders": 10,
                     "Abs": 8, "Biceps": 4, "Triceps": 4, "Calves": 4, "Trapezius": 4}
INJURY_EXCLUSIONS = {"patterns": ["overhead_press", "shoulder_flexion_loaded_above_90"], "region": "shoulder",
                     "side": "left"}
BURPEE_EXCLUSIONS = {"exercises": ["Burpee"], "patterns": ["burpee_family"]}
MISSED = {"Front Squat": ((5, 5, 5, 4), (5, 5, 5, 5))}  # the latest session: reps reached, reps prescribed


def _log_row(org_id: uuid.UUID, member_id: uuid.UUID, ex: Ex, at: datetime, progress: int, key: str,
             latest: bool = False) -> tuple:
    name, kind, sets, reps, base, step, minutes, km, rpe, goals, muscles = ex
    load = None if base is None else float(base) + step * progress
    done, target = (list(v) for v in MISSED[name]) if latest and name in MISSED else (None, None)
    return (demo_id("exercise_log", str(member_id), key), org_id, member_id, name, kind, sets,
            None if done else reps, load, minutes, km, rpe, _shares(muscles), _shares(goals), at, at, done, target)


def _shares(shares: dict[str, float]) -> str:
    return json.dumps([{"name": k, "share": v} for k, v in shares.items()])


def dani_logs(org_id: uuid.UUID, member_id: uuid.UUID, instant: datetime) -> list[tuple]:
    """Six weeks of Dani's four sessions; week 0 is the latest."""
    rows = []
    for week in range(WEEKS):
        for hours, exercises in DANI_WEEK:
            end = instant - timedelta(hours=hours) - timedelta(days=7 * week)
            plan = [OVERHEAD if (ex is UPPER[1] and week >= 4) else ex for ex in exercises]
            for n, ex in enumerate(plan):
                at = end - EXERCISE_GAP * (len(plan) - 1 - n)
                rows.append(_log_row(org_id, member_id, ex, at, WEEKS - 1 - week, f"{week}/{hours}/{n}", week == 0))
    return rows


async def _copy(session: AsyncSession, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    if rows:
        raw = (await (await session.connection()).get_raw_connection()).driver_connection
        assert raw is not None, "a session on an open asyncpg connection"
        await raw.copy_records_to_table(table, records=rows, columns=columns)


async def _insert(session: AsyncSession, table: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        columns = list(rows[0])
        await session.execute(text(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                                   f"({', '.join(':' + c for c in columns)})"), rows)


async def seed_dani(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, instant: datetime) -> int:
    ids = {k: demo_id("trainer", str(member_id), k) for k in ("plan", "home", "gym", "injury", "burpees")}
    await _insert(session, "member_profiles", [{"org_id": org_id, "member_id": member_id, "height_cm": 172,
                                                "weight_kg": 68, "birth_year": 1993, "experience": "intermediate"}])
    await _insert(session, "member_settings", [{"org_id": org_id, "member_id": member_id, "weight_unit": "kg",
                                                "distance_unit": "km"}])
    await session.execute(text(
        "INSERT INTO member_locations (id, org_id, member_id, name, equipment, is_current) VALUES "
        "(:home, :o, :m, 'Home', :home_kit, true), (:gym, :o, :m, 'Harbor Strength', :gym_kit, false)"),
        {"home": ids["home"], "gym": ids["gym"], "o": org_id, "m": member_id,
         "home_kit": ["dumbbell", "band", "mat"], "gym_kit": list(FULL_GYM)})
    await _insert(session, "category_goals", [
        {"org_id": org_id, "member_id": member_id, "name": name, "description": about, "weight": weight}
        for name, about, weight in (("Strength", "Heavy compound lifts, progressive overload", 0.45),
                                    ("Hypertrophy", "Muscle building volume", 0.25),
                                    ("Conditioning", "Engine for a first Murph", 0.20),
                                    ("Mobility", "Hips, hamstrings and thoracic spine", 0.10))])
    total = sum(DANI_MUSCLE_GOALS.values())
    await _insert(session, "muscle_goals", [{"org_id": org_id, "member_id": member_id, "muscle": muscle,
                                             "weight": round(pct / total, 5)}
                                            for muscle, pct in DANI_MUSCLE_GOALS.items()])
    await _insert(session, "member_preferences", [
        {"id": ids["injury"], "org_id": org_id, "member_id": member_id, "type": "injury",
         "description": "left shoulder: no overhead pressing",
         "guidance": "No overhead pressing (strict press, push press, handstands, snatches); horizontal pressing "
                     "and face pulls are fine.",
         "expires_at": instant + timedelta(days=10), "created_at": instant - timedelta(days=18),
         "exclusions": json.dumps(INJURY_EXCLUSIONS), "hard": True},
        {"id": ids["burpees"], "org_id": org_id, "member_id": member_id, "type": "exercise",
         "description": "Dislikes burpees", "guidance": "Never include burpees.", "expires_at": None,
         "created_at": instant - timedelta(days=40), "exclusions": json.dumps(BURPEE_EXCLUSIONS), "hard": True}])
    start = (instant - timedelta(days=14)).date()
    await _insert(session, "workout_plans", [
        {"id": ids["plan"], "org_id": org_id, "member_id": member_id, "name": "Murph prep",
         "goal_description": "Finish a first Murph (partitioned, no vest)", "start_date": start,
         "end_date": start + timedelta(weeks=8, days=-1), "workouts_per_week": 4,
         "preferred_days": ["Sunday", "Tuesday", "Thursday", "Friday"]}])
    await _insert(session, "scheduled_workouts", [
        {"org_id": org_id, "member_id": member_id, "scheduled_at": instant + timedelta(days=days), "workout_type": kind,
         "duration_minutes": minutes, "notes": notes, "plan_id": ids["plan"]}
        for days, kind, minutes, notes in ((1, "Upper body (no overhead)", 50, "Bench, rows, pull-ups"),
                                           (3, "Conditioning", 40, "Run + row intervals"),
                                           (5, "Lower strength", 60, "Squat day"))])
    await _insert(session, "milestone_goals", [
        {"org_id": org_id, "member_id": member_id, "name": "First Murph", "goal_type": "event",
         "target_value": None, "target_unit": None, "target_date": (instant + timedelta(days=60)).date(),
         "current_value": None, "plan_id": ids["plan"]},
        {"org_id": org_id, "member_id": member_id, "name": "Back Squat 100 kg", "goal_type": "weight",
         "target_value": 100, "target_unit": "kg", "target_date": (instant + timedelta(days=90)).date(),
         "current_value": 82.5, "plan_id": None}])
    rows = dani_logs(org_id, member_id, instant)
    await _copy(session, "exercise_logs", LOG_COLUMNS, rows)
    return len(rows)


def thin_logs(org_id: uuid.UUID, member_id: uuid.UUID, rng: random.Random, instant: datetime) -> list[tuple]:
    rows = []
    per_week = rng.choice((2, 3))
    for week in range(3):
        for slot in range(per_week):
            day = instant - timedelta(days=7 * week + 1 + slot * 2, hours=rng.randint(0, 10))
            for n, ex in enumerate(rng.sample(THIN_POOL, 3)):
                rows.append(_log_row(org_id, member_id, ex, day + EXERCISE_GAP * n, 2 - week,
                                     f"thin/{week}/{slot}/{n}"))
    return rows


async def seed_thin(session: AsyncSession, org_id: uuid.UUID, member_ids: list[uuid.UUID], rng: random.Random,
                    instant: datetime) -> int:
    settings, goals, locations, logs = [], [], [], []
    for member_id in member_ids:
        settings.append({"org_id": org_id, "member_id": member_id,
                         "weight_unit": "lbs" if rng.random() < 0.25 else "kg", "distance_unit": "km"})
        template = rng.choice(THIN_GOALS)
        goals += [{"org_id": org_id, "member_id": member_id, "name": name, "description": None, "weight": pct / 100}
                  for name, pct in template]
        locations.append({"org_id": org_id, "member_id": member_id, "name": "Gym", "equipment": list(FULL_GYM),
                          "is_current": True})
        logs += thin_logs(org_id, member_id, rng, instant)
    await _insert(session, "member_settings", settings)
    await _insert(session, "category_goals", goals)
    await _insert(session, "member_locations", locations)
    await _copy(session, "exercise_logs", LOG_COLUMNS, logs)
    return len(logs)


async def seed_trainer_records(session: AsyncSession, *, org_id: uuid.UUID, member_ids: list[uuid.UUID],
                               instant: datetime, scale: int, dani_id: uuid.UUID | None = None) -> dict[str, int]:
    """Replace the org's training records with the demo's (owner session; members must exist)."""
    for table in TABLES:
        await session.execute(text(f"DELETE FROM {table} WHERE org_id = :org"), {"org": org_id})
    rng = random.Random(f"trainer/{org_id}")
    counts = {"dani_logs": 0}
    if dani_id is not None:
        counts["dani_logs"] = await seed_dani(session, org_id, dani_id, instant)
    pool = sorted(m for m in member_ids if m != dani_id)
    chosen = rng.sample(pool, min(len(pool), max(3, scale // MEMBERS_PER_THIN_RECORD)))
    counts["thin_members"] = len(chosen)
    counts["thin_logs"] = await seed_thin(session, org_id, sorted(chosen), rng, instant)
    return counts


def seeding_instant(now: datetime | date | None, tz: str) -> datetime:
    """The instant the demo's training records are relative to: `now` itself, 18:00 local on a given date,
    or the current instant."""
    if isinstance(now, datetime):
        return now
    if isinstance(now, date):
        return datetime.combine(now, time(18), ZoneInfo(tz))
    return datetime.now(UTC)
