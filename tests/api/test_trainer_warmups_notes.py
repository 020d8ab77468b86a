"""Issue 43 item 3 over HTTP: a warm-up set is kept and shown but counts in neither the workout's sets and volume,
nor the exercise's log, nor its records; a member's note on an exercise comes back the next time it is in a
workout, for that member only; an empty note forgets it, an oversized one is refused and changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.browser.member_tab import bench_and_plank, member_with_history
from tests.trainer.fixtures import trainee


async def _set(client, url, h, key: str, **body):
    answer = await client.post(f"{url}/workout/sets", headers={**h, "Idempotency-Key": key},
                               json={"exerciseId": "ex_001", "loadUnit": "kg", **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def test_a_warmup_set_counts_in_no_volume_log_or_record(client, db, factory) -> None:
    t = await member_with_history(db, factory)  # bench 14 kg × 10, × 8 before: e1RM 18.7 kg
    url, h = f"/organizations/{t.org.id}/trainer", t.user.headers
    warm = await _set(client, url, h, "w-1", setNumber=1, reps=3, load=20, warmup=True)  # e1RM 22 kg if it counted
    assert warm["set"]["warmup"] is True and warm["set"]["records"] == []
    assert warm["progress"]["setsDone"] == 0 and warm["progress"]["volume"] == 0
    assert warm["exercise"]["done"] is False
    await _set(client, url, h, "w-2", setNumber=2, reps=10, load=14)
    last = await _set(client, url, h, "w-3", setNumber=3, reps=12, load=14)
    assert last["exercise"]["done"] is True  # two working sets of two prescribed
    assert (last["progress"]["setsDone"], last["progress"]["volume"]) == (2, 14 * 10 + 14 * 12)
    assert [r["kind"] for r in last["set"]["records"]] == ["estimated_1rm", "most_reps_at_load"]  # 12 > 10 at 14 kg

    bench = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]
    assert [(s["setNumber"], s["warmup"]) for s in bench["logged"]] == [(1, True), (2, False), (3, False)]
    detail = (await client.get(f"{url}/progress/exercise", params={"name": "Dumbbell Bench Press"},
                               headers=h)).json()
    assert detail["bests"]["heaviestLoad"] == 14  # the 20 kg warm-up is no record
    history = (await client.get(f"{url}/progress/history", params={"days": 2}, headers=h)).json()
    today = history["items"][0]
    assert today["totals"]["volume"] == 14 * 10 + 14 * 12 and today["totals"]["sets"] == 2


async def test_a_note_on_an_exercise_comes_back_next_time_for_that_member_only(client, db, factory) -> None:
    t = await member_with_history(db, factory)
    other = await trainee(db, factory, name="Other Member")
    url, h = f"/organizations/{t.org.id}/trainer", t.user.headers
    saved = await client.put(f"{url}/exercises/note", headers=h,
                             json={"name": "Dumbbell Bench Press", "note": "  Bench at notch 3, elbows 45°  "})
    assert saved.status_code == 200 and saved.json()["note"] == "Bench at notch 3, elbows 45°"
    too_long = await client.put(f"{url}/exercises/note", headers=h, json={"name": "Dumbbell Bench Press",
                                                                          "note": "x" * 1001})
    assert too_long.status_code == 400

    finished = await _set(client, url, h, "n-1", setNumber=1, reps=10, load=14)
    assert finished["set"]["warmup"] is False
    assert (await client.post(f"{url}/workout/finish", headers={**h, "Idempotency-Key": "n-f"},
                              json={"discard": False})).status_code == 200
    async with db.scope(org_id=t.org.id) as session:  # the next workout with the bench in it
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(bench_and_plank()),
                           now=datetime.now(UTC))
    bench, plank = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"]
    assert bench["note"] == "Bench at notch 3, elbows 45°" and plank["note"] is None

    async with db.scope(org_id=other.org.id) as session:
        await save_workout(session, other.org.id, other.member_id, Workout.model_validate(bench_and_plank()),
                           now=datetime.now(UTC))
    theirs = (await client.get(f"/organizations/{other.org.id}/trainer/workout", headers=other.user.headers)).json()
    assert theirs["workout"]["exercises"][0]["note"] is None

    assert (await client.put(f"{url}/exercises/note", headers=h, json={"name": "Dumbbell Bench Press",
                                                                      "note": " "})).json()["note"] is None
    assert (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]["note"] is None
