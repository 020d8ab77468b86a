"""Issue 43 item 1 over HTTP: each exercise of Today carries what the member did last time, per set — the newest
earlier session of the same library exercise, never the workout on screen, loads in the member's unit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gym.training import logs
from gym.training.logs import LoggedExercise
from tests.browser.member_tab import member_with_history


async def test_previous_sets_come_from_the_newest_earlier_session_in_the_members_unit(client, db, factory) -> None:
    t = await member_with_history(db, factory)  # bench 14 kg × 10, × 8 three days ago
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:  # an older, heavier session is not "last time"
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[5, 5, 5], load_kg=20,
            muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=9)), now=now)
    url, h = f"/organizations/{t.org.id}/trainer", t.user.headers
    bench, plank = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"]
    assert [(s["setNumber"], s["reps"], s["load"]) for s in bench["previous"]["sets"]] == [(1, 10, 14.0), (2, 8, 14.0)]
    assert bench["previous"]["unit"] == "kg"
    assert plank["previous"] is None  # never done

    logged = await client.post(f"{url}/workout/sets", headers={**h, "Idempotency-Key": "k-prev-1"}, json={
        "exerciseId": bench["id"], "setNumber": 1, "reps": 12, "load": 16, "loadUnit": "kg"})
    assert logged.status_code in (200, 201), logged.text
    bench = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]
    assert [(s["reps"], s["load"]) for s in bench["previous"]["sets"]] == [(10, 14.0), (8, 14.0)]  # not today's 16 kg

    assert (await client.put(f"{url}/settings", json={"weightUnit": "lbs"}, headers=h)).status_code == 200
    bench = (await client.get(f"{url}/workout", headers=h)).json()["workout"]["exercises"][0]
    assert [s["load"] for s in bench["previous"]["sets"]] == [30.9, 30.9] and bench["previous"]["unit"] == "lbs"
