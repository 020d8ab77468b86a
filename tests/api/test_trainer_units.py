"""Issue 38 item 4 over HTTP: loads are stored in kg with the unit the member saw, and a units switch converts the
current workout, its suggestions and what the app prefills. Before, after kg → lbs the workout still held 30 kg,
the app prefilled 30 into an lb field and the set was stored as 30 lb = 13.6 kg (−55 %); a set queued offline in
kg and sent after the switch was read as lbs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.trainer.fixtures import hold, reps, trainee

KG_PER_LB = 0.45359237


def workout_at_30_kg() -> dict:
    return {"title": "Home push", "exercises": [
        reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=30,
             sets=4),
        hold(2)]}


async def member_at_30_kg(db, factory):
    """A member whose current workout holds 30 kg, with a past 30 kg session (progression suggests a load)."""
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 10], load_kg=30,
            muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=3)), now=now)
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(workout_at_30_kg()),
                           now=now - timedelta(minutes=20))
    return t


async def stored_loads(db, member_id, *, units: bool = False) -> list:
    """The live sets' loads in kg (with the unit the member saw, when asked), by set number."""
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT load_kg, load_unit FROM exercise_sets WHERE member_id = :m AND undone_at IS NULL "
            "ORDER BY set_number"), {"m": member_id})).all()
    return [(float(r.load_kg), r.load_unit) if units else float(r.load_kg) for r in rows]


async def test_a_units_switch_converts_the_workout_and_each_set_is_stored_in_the_unit_it_was_entered(
        client, db, factory) -> None:
    t = await member_at_30_kg(db, factory)
    url, h = f"/organizations/{t.org.id}/trainer", t.user.headers
    before = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]
    assert (before["load"], before["load_unit"], before["suggestion"]["unit"]) == (30, "kg", "kg")

    switched = await client.put(f"{url}/settings", json={"weightUnit": "lbs"}, headers=h)
    assert switched.status_code == 200 and switched.json()["weightUnit"] == "lbs"
    screen = (await client.get(f"{url}/workout", headers=h)).json()
    bench = screen["workout"]["exercises"][0]
    assert screen["units"]["weightUnit"] == "lbs"
    assert (bench["load"], bench["load_unit"]) == (66.1, "lbs")  # 30 kg, not 30 lb
    assert bench["suggestion"]["unit"] == "lbs" and 60 < bench["suggestion"]["suggestedLoad"] < 80
    timers = (await client.get(f"{url}/workout/timers", headers=h)).json()["phases"]
    assert {(p["load"], p["load_unit"]) for p in timers if "load" in p} == {(66.1, "lbs")}

    async def log(body: dict, key: str) -> dict:
        response = await client.post(f"{url}/workout/sets", json={"exerciseId": "ex_001", "reps": 10, **body},
                                     headers={**h, "Idempotency-Key": key})
        assert response.status_code == 201, response.text
        return response.json()["set"]

    said_in_lbs = await log({"load": 66, "loadUnit": "lbs"}, "u-1")
    queued_in_kg = await log({"load": 30, "loadUnit": "kg"}, "u-2")  # entered before the switch, sent after it
    old_client = await log({"load": 66}, "u-3")  # no unit: the member's setting, as before
    prefilled = await log({}, "u-4")  # no load: the prescription's, in its own unit
    stored = await stored_loads(db, t.member_id)
    assert stored[:3] == [round(66 * KG_PER_LB, 2), 30.0, round(66 * KG_PER_LB, 2)]
    assert abs(stored[3] - 30) < 0.05  # 66.1 lb as shown: 29.98 kg
    assert [unit for _, unit in await stored_loads(db, t.member_id, units=True)] == ["lbs", "kg", "lbs", "lbs"]
    assert (said_in_lbs["load"], said_in_lbs["loadUnit"]) == (66.0, "lbs")
    assert (queued_in_kg["load"], old_client["load"], prefilled["load"]) == (66.1, 66.0, 66.1)

    back = await client.put(f"{url}/settings", json={"weightUnit": "kg"}, headers=h)
    assert back.json()["weightUnit"] == "kg"
    bench = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]
    assert (bench["load"], bench["load_unit"]) == (30.0, "kg")  # there and back: the same 30 kg


async def test_a_set_with_a_foreign_unit_is_refused_and_logs_nothing(client, db, factory) -> None:
    t = await member_at_30_kg(db, factory)
    response = await client.post(f"/organizations/{t.org.id}/trainer/workout/sets",
                                 json={"exerciseId": "ex_001", "reps": 10, "load": 30, "loadUnit": "stone"},
                                 headers={**t.user.headers, "Idempotency-Key": "u-9"})
    assert response.status_code in (400, 422) and response.json()["code"]
    assert await stored_loads(db, t.member_id) == []
