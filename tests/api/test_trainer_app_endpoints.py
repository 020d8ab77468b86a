"""The member's training app over HTTP: a workout logged set by set writes the record the trainer reads.

Today's screen, sets with an Idempotency-Key (a retry is answered, never logged twice), undo, add / swap / remove
from the library, finish, the timers of a superset, the library in the caller's language, and the progress
numbers (history with records, weekly volume, an exercise's load, recovery, calendar and streak) — each asserted
on what it computed; bad input gets its stable code and leaves the data as it was.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym.exercise_library import LIBRARY
from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.preferences import set_preference
from gym.training.profiles import set_current_location
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.trainer.fixtures import hold, reps, trainee
from tests.trainer.members import link_member

HEBREW = re.compile(r"[\u0590-\u05FF]")
SUPERSET = {"id": "s1", "type": "superset", "position": 1, "name": "Push pair", "rounds": 2,
            "rest_between_rounds_sec": 60}


def superset_workout() -> dict:
    return {"title": "Home push", "exercises": [
        reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14,
             sets=2, group=SUPERSET),
        reps(2, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2}, sets=2, group={**SUPERSET, "position": 2,
                                                                                   "name": None, "rounds": None,
                                                                                   "rest_between_rounds_sec": None}),
        hold(3)]}


async def _member(db, factory, workout: dict | None = None, *, days_ago_bench: float | None = 3):
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        if days_ago_bench is not None:  # a past session: the baseline records are measured against
            await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
                exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 10], load_kg=14,
                muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=days_ago_bench)), now=now)
        if workout is not False:
            await save_workout(session, t.org.id, t.member_id, Workout.model_validate(workout or superset_workout()),
                               now=now - timedelta(minutes=20))
    return t


def _url(t, path: str) -> str:
    return f"/organizations/{t.org.id}/trainer/{path}"


async def test_today_shows_the_workout_to_log_in_the_callers_language(client, db, factory) -> None:
    t = await _member(db, factory)
    response = await client.get(_url(t, "workout"), headers={**t.user.headers, "x-locale": "he"})
    assert response.status_code == 200
    screen = response.json()["workout"]
    assert screen["progress"] == {"setsDone": 0, "setsPlanned": 6, "exercisesDone": 0, "exercises": 3,
                                  "volume": 0.0, "unit": "kg"}
    bench, pushup, plank = screen["exercises"]
    assert bench["displayName"] == "לחיצת חזה במשקולות" and bench["how"]["avoid"]
    assert bench["prescribedSets"] == 2 and bench["reps"] == [10, 10] and bench["load"] == 14
    assert bench["suggestion"]["why"]["code"] == "load_up" and bench["suggestion"]["suggestedLoad"] == 15
    assert pushup["group"]["id"] == "s1" and plank["type"] == "hold" and plank["hold_sec"] == [30, 30]
    assert plank["how"]["name"] == "פלאנק"


async def test_a_member_with_no_workout_gets_null_and_writes_say_so(client, db, factory) -> None:
    t = await _member(db, factory, workout=False)
    assert (await client.get(_url(t, "workout"), headers=t.user.headers)).json()["workout"] is None
    for method, path, body in (("POST", "workout/sets", {"exerciseId": "ex_001", "reps": 5}),
                               ("POST", "workout/start", None), ("GET", "workout/timers", None),
                               ("POST", "workout/finish", {})):
        response = await client.request(method, _url(t, path), json=body, headers=t.user.headers)
        assert (response.status_code, response.json()["code"]) == (409, "no_current_workout"), path


async def test_sets_logged_over_http_are_the_record_the_trainer_reads(client, db, factory) -> None:
    t = await _member(db, factory)
    h = t.user.headers
    first = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10, "load": 15, "rpe": 8},
                              headers={**h, "Idempotency-Key": "set-1"})
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["set"]["setNumber"] == 1 and body["set"]["load"] == 15 and body["set"]["loadUnit"] == "kg"
    assert [r["kind"] for r in body["set"]["records"]] == ["heaviest_load", "estimated_1rm"]
    assert body["set"]["records"][0]["previous"] == 14
    assert body["exercise"] == {"id": "ex_001", "logged": [body["set"]], "done": False, "prescribedSets": 2}
    again = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10, "load": 15, "rpe": 8},
                              headers={**h, "Idempotency-Key": "set-1"})
    assert (again.status_code, again.json()) == (201, body)  # answered again, logged once
    reused = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 9},
                               headers={**h, "Idempotency-Key": "set-1"})
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    second = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 12, "load": 15},
                               headers={**h, "Idempotency-Key": "set-2"})
    assert second.json()["exercise"]["done"] is True
    assert second.json()["progress"] == {"setsDone": 2, "setsPlanned": 6, "exercisesDone": 1, "exercises": 3,
                                         "volume": 330.0, "unit": "kg"}  # the header's numbers, from the service
    # the heavier or longer set of a session holds its records: set 2 (15 × 12) takes them from set 1 (15 × 10)
    assert [r["kind"] for r in second.json()["set"]["records"]] == ["heaviest_load", "estimated_1rm",
                                                                    "most_reps_at_load"]
    assert second.json()["exercise"]["logged"][0]["records"] == []
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT sets, reps_per_set, load_kg, rpe FROM exercise_logs WHERE member_id = :m AND workout_id IS NOT NULL"),
            {"m": t.member_id})).one()
    assert (row.sets, list(row.reps_per_set), float(row.load_kg), float(row.rpe)) == (2, [10, 12], 15.0, 8.0)
    history = (await client.get(_url(t, "history?days=1"), headers=h)).json()
    assert [(i["name"], i["repsPerSet"]) for i in history["items"]] == [("Dumbbell Bench Press", [10, 12])]

    undone = await client.delete(_url(t, f"workout/sets/{second.json()['set']['id']}"), headers=h)
    assert undone.status_code == 200 and undone.json()["set"]["undone"] is True
    assert undone.json()["exercise"]["done"] is False and len(undone.json()["exercise"]["logged"]) == 1
    assert (undone.json()["progress"]["setsDone"], undone.json()["progress"]["volume"]) == (1, 150.0)
    twice = await client.delete(_url(t, f"workout/sets/{second.json()['set']['id']}"), headers=h)
    assert (twice.status_code, twice.json()["code"]) == (409, "set_already_undone")
    missing = await client.delete(_url(t, f"workout/sets/{uuid.uuid4()}"), headers=h)
    assert (missing.status_code, missing.json()["code"]) == (404, "set_not_found")


async def test_bad_sets_get_their_code_and_change_nothing(client, db, factory) -> None:
    t = await _member(db, factory)
    h = t.user.headers
    cases = [({"exerciseId": "ex_001", "reps": 0}, 400, "validation_failed"),
             ({"exerciseId": "bench", "reps": 5}, 400, "validation_failed"),
             ({"exerciseId": "ex_001", "reps": 5, "extra": 1}, 400, "validation_failed"),
             ({"exerciseId": "ex_001", "reps": True}, 400, "validation_failed"),  # not 1 rep
             ({"exerciseId": "ex_001", "reps": 5, "load": True}, 400, "validation_failed"),
             ({"exerciseId": "ex_001", "reps": 5, "performedAt": "2026-11-27T10:00:00"}, 400, "validation_failed"),
             ({"exerciseId": "ex_009", "reps": 5}, 404, "exercise_not_found"),
             ({"exerciseId": "ex_003", "reps": 5}, 422, "invalid_set"),
             ({"exerciseId": "ex_001", "reps": 5, "performedAt": (datetime.now(UTC) + timedelta(hours=2)).isoformat()},
              422, "log_in_future")]
    for body, status, code in cases:
        response = await client.post(_url(t, "workout/sets"), json=body, headers={**h, "x-locale": "he"})
        assert (response.status_code, response.json()["code"]) == (status, code), body
        assert HEBREW.search(response.json()["message"]) and "agent.errors" not in response.json()["message"]
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "setNumber": 1, "reps": 8}, headers=h)
    taken = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "setNumber": 1, "reps": 8},
                              headers=h)
    assert (taken.status_code, taken.json()["code"]) == (409, "set_already_logged")
    junk = await client.post(_url(t, "workout/sets"), content=b"{not json",
                             headers={**h, "content-type": "application/json"})
    assert junk.status_code == 400
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM exercise_sets WHERE member_id = :m"),
                                    {"m": t.member_id}) == 1


async def test_add_swap_remove_and_finish_from_the_screen(client, db, factory) -> None:
    t = await _member(db, factory)
    h = {**t.user.headers, "x-locale": "ru"}
    added = await client.post(_url(t, "workout/exercises"), json={"name": "Goblet Squat", "position": 1, "load": 12},
                              headers=h)
    assert added.status_code == 201, added.text
    first = added.json()["workout"]["exercises"][0]
    assert (first["name"], first["displayName"], first["id"], first["equipment"], first["load"]) == (
        "Goblet Squat", "Гоблет-присед", "ex_004", ["dumbbell"], 12)
    barbell = await client.post(_url(t, "workout/exercises"), json={"name": "Back Squat"}, headers=h)
    assert (barbell.status_code, barbell.json()["code"]) == (422, "equipment_unavailable")
    unknown = await client.post(_url(t, "workout/exercises"), json={"name": "Moon Walk"}, headers=h)
    assert (unknown.status_code, unknown.json()["code"]) == (422, "unknown_exercise")
    swapped = await client.put(_url(t, "workout/exercises/ex_004"), json={"name": "Dumbbell Front Squat"}, headers=h)
    assert swapped.status_code == 200, swapped.text
    front = swapped.json()["workout"]["exercises"][0]
    assert (front["id"], front["name"], front["sets"], front["reps"]) == ("ex_004", "Dumbbell Front Squat", 3, [8] * 3)
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_004", "reps": 8, "load": 12}, headers=h)
    busy = await client.put(_url(t, "workout/exercises/ex_004"), json={"name": "Goblet Squat"}, headers=h)
    assert (busy.status_code, busy.json()["code"]) == (409, "exercise_has_sets")
    removed = await client.delete(_url(t, "workout/exercises/ex_004"), headers=h)
    assert [e["id"] for e in removed.json()["workout"]["exercises"]] == ["ex_001", "ex_002", "ex_003"]
    bad = await client.delete(_url(t, "workout/exercises/ex_zz"), headers=h)
    assert (bad.status_code, bad.json()["code"]) == (400, "validation_failed")
    nothing = await client.post(_url(t, "workout/finish"), json={}, headers=h)
    assert (nothing.status_code, nothing.json()["code"]) == (409, "nothing_logged")  # the removed squat's set went
    await client.post(_url(t, "workout/start"), headers=h)
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10, "load": 16}, headers=h)
    done = await client.post(_url(t, "workout/finish"), json={}, headers={**h, "Idempotency-Key": "finish-1"})
    assert done.status_code == 200, done.text
    summary = done.json()
    assert summary["status"] == "completed" and summary["setsDone"] == 1 and summary["volume"] == 160.0
    assert [r["kind"] for r in summary["records"]][:1] == ["heaviest_load"]
    assert (await client.post(_url(t, "workout/finish"), json={}, headers={**h, "Idempotency-Key": "finish-1"})
            ).json() == summary
    assert (await client.get(_url(t, "workout"), headers=h)).json()["workout"] is None


async def test_timers_run_a_superset_round_by_round(client, db, factory) -> None:
    t = await _member(db, factory)
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10}, headers=t.user.headers)
    body = (await client.get(_url(t, "workout/timers"), headers={**t.user.headers, "x-locale": "he"})).json()
    work = [(p["phase_type"], p.get("exercise_id"), p.get("set_number"), p.get("round")) for p in body["phases"]]
    assert work[:6] == [("work", "ex_001", 1, 1), ("work", "ex_002", 1, 1), ("rest", None, None, 1),
                        ("work", "ex_001", 2, 2), ("work", "ex_002", 2, 2), ("transition", None, None, None)]
    assert body["phases"][2]["duration_sec"] == 60 and body["phases"][0]["display_name"] == "לחיצת חזה במשקולות"
    assert body["phases"][0]["done"] is True and body["phases"][1]["done"] is False
    assert body["totalDurationSec"] == sum(p["duration_sec"] for p in body["phases"])


async def test_the_library_says_what_fits_here_and_what_an_injury_blocks(client, db, factory) -> None:
    t = await _member(db, factory, workout=False)
    async with db.scope(org_id=t.org.id) as session:
        await set_preference(session, t.org.id, t.member_id, type="injury", description="left shoulder",
                             guidance="no overhead pressing", exclusions={"patterns": ["overhead_press"]},
                             now=datetime.now(UTC))
    items = {i["name"]: i for i in (await client.get(_url(t, "exercises"), headers={**t.user.headers,
                                                                                   "x-locale": "he"})).json()["items"]}
    assert len(items) == len(LIBRARY)
    assert items["Goblet Squat"]["available"] and items["Goblet Squat"]["equipment"] == ["dumbbell"]
    assert not items["Back Squat"]["available"] and items["Back Squat"]["equipment"] is None
    assert items["Dumbbell Shoulder Press"]["blockedBy"]["code"] == "injury_conflict"
    assert not items["Dumbbell Bench Press"]["available"] and items["Plank"]["kind"] == "hold"  # no bench at home
    assert items["Push-up"]["displayName"] == "שכיבות סמיכה" and items["Push-up"]["how"]["setup"]
    found = (await client.get(_url(t, "exercises?q=גביע"), headers=t.user.headers)).json()["items"]
    assert [i["name"] for i in found] == ["Goblet Squat"]
    async with db.scope(org_id=t.org.id) as session:
        await set_current_location(session, t.org.id, t.member_id, name="Harbor Strength")
    gym = (await client.get(_url(t, "exercises?q=Dumbbell Bench"), headers=t.user.headers)).json()
    assert gym["location"] == "Harbor Strength"
    assert [(i["name"], i["equipment"], i["suggestedLoad"]) for i in gym["items"]][0] == (
        "Dumbbell Bench Press", ["dumbbell", "bench"], 15)


async def test_progress_numbers_after_a_workout(client, db, factory) -> None:
    t = await _member(db, factory)
    h = t.user.headers
    for n, (r, load) in enumerate(((10, 15), (10, 15)), start=1):
        await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": r, "load": load, "rpe": 8},
                          headers={**h, "Idempotency-Key": f"p-{n}"})
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_003", "durationSec": 45}, headers=h)
    await client.post(_url(t, "workout/finish"), json={}, headers=h)

    days = (await client.get(_url(t, "progress/history?days=7"), headers={**h, "x-locale": "ru"})).json()
    today, earlier = days["items"]
    workout = today["workouts"][0]
    assert workout["title"] == "Home push"
    bench = workout["exercises"][0]
    assert bench["displayName"] == "Жим гантелей лёжа" and bench["volume"] == 300.0
    assert [(s["setNumber"], s["reps"], s["load"], s["rpe"]) for s in bench["sets"]] == [(1, 10, 15, 8), (2, 10, 15, 8)]
    assert [r["kind"] for r in bench["sets"][0]["records"]] == ["heaviest_load", "estimated_1rm"]
    assert today["totals"] == {"exercises": 2, "sets": 3, "volume": 300.0, "records": 2}
    assert earlier["totals"]["records"] == 0 and earlier["workouts"][0]["title"] is None

    volume = (await client.get(_url(t, "progress/volume?weeks=4"), headers=h)).json()
    assert len(volume["points"]) == 4 and volume["points"][-1]["volume"] >= 300.0 and volume["unit"] == "kg"
    assert sum(p["volume"] for p in volume["points"]) == 300.0 + 280.0

    load = (await client.get(_url(t, "progress/exercise"), headers=h)).json()
    assert load["exercise"] == "Dumbbell Bench Press" and load["formula"] == "epley"
    assert [(p["topLoad"], p["e1rm"]) for p in load["points"]] == [(14, 18.7), (15, 20.0)]
    assert load["bests"]["heaviestLoad"] == 15 and load["choices"][0]["sessions"] == 2
    missing = await client.get(_url(t, "progress/exercise?name=Deadlift"), headers=h)
    assert (missing.status_code, missing.json()["code"]) == (404, "exercise_not_logged")

    muscles = (await client.get(_url(t, "recovery"), headers=h)).json()["muscles"]
    assert len(muscles) == 16
    chest = next(m for m in muscles if m["muscle"] == "Chest")
    assert chest["recovering"] is True and chest["percent"] < 5

    calendar = (await client.get(_url(t, "calendar"), headers=h)).json()
    today_cell = next(d for d in calendar["days"] if d["date"] == calendar["today"])
    assert today_cell["done"] == {"exercises": 2, "titles": ["Home push"]}
    assert calendar["streak"]["weeks"] >= 1 and calendar["streak"]["thisWeek"] >= 1
    wide = await client.get(_url(t, "calendar?start=2026-01-01&end=2026-06-01"), headers=h)
    assert (wide.status_code, wide.json()["code"]) == (422, "invalid_range")
    only_end = (await client.get(_url(t, "calendar?end=2026-02-10"), headers=h)).json()
    assert (only_end["days"][0]["date"], only_end["days"][-1]["date"]) == ("2026-02-01", "2026-02-10")


@pytest.mark.parametrize("path", ["workout", "workout/timers", "exercises", "progress/history", "progress/volume",
                                  "progress/exercise", "recovery", "calendar"])
async def test_only_a_member_reads_their_own_app(client, db, factory, path) -> None:
    org = await factory.org()
    coach = await factory.user(org, "coach")
    response = await client.get(f"/organizations/{org.id}/trainer/{path}", headers=coach.headers)
    assert (response.status_code, response.json()["code"]) == (403, "member_profile_required")
    stranger = await factory.user(await factory.org(), "member")
    await link_member(db, org.id, stranger.id)
    response = await client.get(f"/organizations/{org.id}/trainer/{path}", headers=stranger.headers)
    assert (response.status_code, response.json()["code"]) == (404, "org_not_found")


async def test_a_set_of_another_member_is_not_found(client, db, factory) -> None:
    t = await _member(db, factory)
    mine = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10},
                             headers=t.user.headers)
    other = await factory.user(t.org, "member")
    await link_member(db, t.org.id, other.id, "Other One")
    response = await client.delete(_url(t, f"workout/sets/{mine.json()['set']['id']}"), headers=other.headers)
    assert (response.status_code, response.json()["code"]) == (404, "set_not_found")
