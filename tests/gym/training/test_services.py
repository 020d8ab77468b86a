"""Training services: org-scoped, foreign ids are not found, one current location, no future logs, undo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.errors import GymError
from gym.training import goals, logs, preferences, profiles, record, schedule
from gym.training.logs import LoggedExercise

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def squat(**over) -> LoggedExercise:
    base = {"exercise_name": "Back Squat", "exercise_type": "strength", "sets": 3, "reps": 5, "load_kg": 80,
            "muscles": [{"name": "Quadriceps", "share": 0.6}, {"name": "Glutes", "share": 0.4}],
            "goals": [{"name": "Strength", "share": 1}], "performed_at": NOW - timedelta(days=1)}
    base.update(over)
    return LoggedExercise.model_validate(base)


async def test_a_member_of_another_org_is_not_found(db, factory, members) -> None:
    org, other = await factory.org(), await factory.org()
    theirs = await members.add(other.id)
    async with db.scope(org_id=org.id) as session:
        for call in (profiles.set_units(session, org.id, theirs, weight_unit="lbs"),
                     logs.log_exercise(session, org.id, theirs, squat(), now=NOW),
                     goals.set_category_goals(session, org.id, theirs, [("Strength", None, 100)]),
                     record.member_training(session, org.id, theirs, NOW)):
            with pytest.raises(GymError) as info:
                await call
            assert info.value.code == "member_not_found" and info.value.status == 404


async def test_one_current_location_and_lookup_by_name(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        home = await profiles.save_location(session, org.id, member, "Home", ["Dumbbells", "bands"], make_current=True)
        gym = await profiles.save_location(session, org.id, member, "Harbor Strength", ["barbell", "rack"])
        await profiles.save_location(session, org.id, member, "Harbor Pool", ["pool"])
        assert (await profiles.current_location(session, org.id, member)).id == home.id
        assert home.equipment == ["bands", "dumbbells"]
        chosen = await profiles.set_current_location(session, org.id, member, name="harbor strength")
        assert chosen.id == gym.id
        current = [loc for loc in await profiles.list_locations(session, org.id, member) if loc.is_current]
        assert [loc.id for loc in current] == [gym.id]
        with pytest.raises(GymError, match="2 locations match"):
            await profiles.set_current_location(session, org.id, member, name="harbor")
        with pytest.raises(GymError) as info:
            await profiles.set_current_location(session, org.id, member, name="Office")
        assert info.value.code == "location_not_found"
        with pytest.raises(GymError) as info:  # LIKE wildcards in a name are literal
            await profiles.set_current_location(session, org.id, member, name="%")
        assert info.value.code == "location_not_found"


async def test_settings_default_and_refuse_unknown_units(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        assert (await profiles.get_units(session, org.id, member)).as_dict() == {"weightUnit": "kg", "distanceUnit": "km"}
        assert (await profiles.set_units(session, org.id, member, weight_unit="lbs")).as_dict() == {
            "weightUnit": "lbs", "distanceUnit": "km"}
        with pytest.raises(GymError, match="kg or lbs"):
            await profiles.set_units(session, org.id, member, weight_unit="stone")


async def test_goals_are_normalized_and_checked(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        await goals.set_category_goals(session, org.id, member, [("Strength", "lifts", 30), ("Cardio", None, 30),
                                                                 ("Mobility", None, 20)])
        assert await goals.category_weights(session, org.id, member) == {"Strength": 0.375, "Cardio": 0.375,
                                                                         "Mobility": 0.25}
        await goals.set_muscle_goals(session, org.id, member, {"chest": 1, "Back": 3})
        assert await goals.muscle_weights(session, org.id, member) == {"Chest": 0.25, "Back": 0.75}
        for bad in ([("A", None, 10), ("a", None, 10)], [("A", None, 0)], [("A", None, -1)], []):
            with pytest.raises(GymError):
                await goals.set_category_goals(session, org.id, member, bad)
        with pytest.raises(GymError) as info:
            await goals.set_muscle_goals(session, org.id, member, {"Lats": 1})
        assert info.value.code == "invalid_muscle"


async def test_future_logs_are_refused_and_undone_logs_count_nowhere(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        await goals.set_category_goals(session, org.id, member, [("Strength", None, 50), ("Cardio", None, 50)])
        with pytest.raises(GymError) as info:
            await logs.log_exercise(session, org.id, member, squat(performed_at=NOW + timedelta(hours=1)), now=NOW)
        assert info.value.code == "log_in_future"
        kept = await logs.log_exercise(session, org.id, member, squat(), now=NOW)
        wrong = await logs.log_exercise(session, org.id, member, squat(
            exercise_name="Run", exercise_type="cardio_distance", sets=None, reps=None, load_kg=None,
            distance_km=5, duration_min=25, muscles=["Quadriceps", "Calves"], goals=["Cardio"]), now=NOW)
        view = await record.distribution_view(session, org.id, member, NOW)
        assert {r["name"]: r["actualPct"] for r in view["categories"]} == {"Strength": 50.0, "Cardio": 50.0}
        await logs.undo_log(session, org.id, member, wrong.id, now=NOW)
        view = await record.distribution_view(session, org.id, member, NOW)
        assert {r["name"]: r["debtPct"] for r in view["categories"]} == {"Strength": -50.0, "Cardio": 50.0}
        history = await record.history_view(session, org.id, member, NOW, 30)
        assert [i["id"] for i in history["items"]] == [str(kept.id)]
        assert (await record.recovery_view(session, org.id, member, NOW))[0]["muscle"] == "Quadriceps"
        with pytest.raises(GymError) as info:
            await logs.undo_log(session, org.id, member, wrong.id, now=NOW)
        assert info.value.code == "log_already_undone"


async def test_history_shows_loads_in_the_members_unit(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        await profiles.set_units(session, org.id, member, weight_unit="lbs", distance_unit="mi")
        await logs.log_exercise(session, org.id, member, squat(load_kg=60), now=NOW)
        item = (await record.history_view(session, org.id, member, NOW, 7))["items"][0]
        assert (item["load"], item["loadUnit"]) == (132.3, "lbs")
        progression = await record.progression_view(session, org.id, member, NOW)
        assert (progression[0]["last"]["load"], progression[0]["suggestedLoad"]) == (132.3, 140.0)
        assert progression[0]["why"] == {"code": "load_up", "from": 132.3, "to": 140.0, "unit": "lbs", "pct": 5.8}


async def test_preferences_expire_and_one_shot_ones_are_consumed(db, factory, members) -> None:
    org = await factory.org()
    member, other = await members.add(org.id), await members.add(org.id, "Other Person")
    async with db.scope(org_id=org.id) as session:
        injury = await preferences.set_preference(session, org.id, member, type="injury", description="left shoulder",
                                                  guidance="no overhead pressing", now=NOW - timedelta(days=2),
                                                  expires_at=NOW + timedelta(days=10))
        await preferences.set_preference(session, org.id, member, type="time", description="short today",
                                         guidance="30 minutes", now=NOW - timedelta(hours=2),
                                         expires_at=NOW - timedelta(hours=1) + timedelta(minutes=30))
        once = await preferences.set_preference(session, org.id, member, type="workout", description="legs",
                                                guidance="legs today", now=NOW, delete_after_use=True)
        with pytest.raises(GymError, match="past"):
            await preferences.set_preference(session, org.id, member, type="time", description="x", guidance="y",
                                             now=NOW, expires_at=NOW)
        active = await preferences.active_preferences(session, org.id, member, NOW)
        assert [p.id for p in active] == [injury.id, once.id]
        assert await preferences.consume_after_generation(session, org.id, member, NOW) == [once.id]
        assert [p.id for p in await preferences.active_preferences(session, org.id, member, NOW)] == [injury.id]
        with pytest.raises(GymError) as info:
            await preferences.delete_preference(session, org.id, other, injury.id)
        assert info.value.code == "preference_not_found"


async def test_schedule_refuses_the_past_and_foreign_ids(db, factory, members) -> None:
    org = await factory.org()
    member, other = await members.add(org.id), await members.add(org.id, "Other Person")
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(GymError, match="past"):
            await schedule.schedule_workout(session, org.id, member, now=NOW, scheduled_at=NOW - timedelta(days=3),
                                            workout_type="Legs")
        row = await schedule.schedule_workout(session, org.id, member, now=NOW, scheduled_at=NOW + timedelta(days=2),
                                              workout_type="Upper body", duration_minutes=45)
        assert [r["id"] for r in await schedule.upcoming(session, org.id, member, now=NOW)] == [str(row.id)]
        assert await schedule.upcoming(session, org.id, member, now=NOW, days_ahead=1) == []
        with pytest.raises(GymError) as info:
            await schedule.delete_scheduled_workout(session, org.id, other, row.id)
        assert info.value.code == "scheduled_workout_not_found"
        plan, sessions = await schedule.create_plan(session, org.id, member, name="Murph prep",
                                                    start_date=NOW.date(), duration_weeks=8, workouts_per_week=4)
        assert (plan.end_date - plan.start_date).days == 55
        assert len(sessions) == 32 and all(s.plan_id == plan.id for s in sessions)
