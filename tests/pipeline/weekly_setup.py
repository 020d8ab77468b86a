"""What the weekly-loop tests share, offline and model-backed: the run's start date, the check-ins they send
(through the service the endpoint uses), the week-4 check-in that fires the week-bound triggers, and the
week-5/week-6 pair of the issue's calorie increase after it."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import text

from gym.nutrition import lifecycle

START = date(2026, 1, 5)  # the run's start (backdated): weeks are counted from it
M = {"waist_cm": 68.5, "hip_cm": 92.5}  # the biweekly measurements
STALLED = {"training_log": {"sessions_completed": 3, "exercises": [
    {"name": "Hip Thrust", "best_set": {"weight_kg": 45, "reps": 12}, "progressed": False},
    {"name": "Goblet Squat", "best_set": {"weight_kg": 16, "reps": 10}, "progressed": False}]}}


async def backdate(db, run_id) -> None:
    """The run started on START."""
    async with db.owner() as session:
        await session.execute(text("UPDATE nutrition_runs SET started_on = :d WHERE id = :r"),
                              {"d": START, "r": run_id})


async def checkin(db, org, run_id, week: int, kg: float, **fields):
    on = START + timedelta(days=7 * week)
    async with db.scope(org_id=org.id) as session:
        return await lifecycle.submit_checkin(session, org.id, run_id, {"weight_kg": kg, **fields,
                                                                        "checkin_date": on.isoformat()},
                                              today=on)


async def week_4(db, org, run_id, driver) -> None:
    """The first check-in on or after week 4 (0.3 kg/week): the protein recalculation and the ramp's last tier fire
    once, the nutrition chain re-runs (version 2); the run is driven back to output_ready."""
    out = await checkin(db, org, run_id, 4, 57.4, **M)
    assert out.adjustment["triggers_fired"] == ["protein_recalculation", "tier_progression"], out.adjustment
    assert out.adjustment["new_target_intake_kcal"] == 2460 and out.version == 2  # tier 2: 1906.07 + 550
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"


async def calorie_increase(db, org, run_id) -> None:
    """After week 4, weeks 5 and 6 at 0.18 kg/week: nothing after the first, +200 kcal and version 3 after the
    second."""
    first = await checkin(db, org, run_id, 5, 57.58)
    assert (first.adjustment["adjustment_type"], first.version, first.needs_worker) == (None, 2, False)
    second = await checkin(db, org, run_id, 6, 57.76, **M)  # two weeks after week 4's measurements
    assert second.adjustment["triggers_fired"] == ["calorie_increase"]
    assert (second.adjustment["adjustment_amount_kcal"], second.adjustment["new_target_intake_kcal"]) == (200, 2660)
    assert second.adjustment["agents_unchanged"] == ["COACH"] and second.version == 3
