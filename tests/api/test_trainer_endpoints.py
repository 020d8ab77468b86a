"""Trainer member endpoints: only a caller linked to a member of the org; only their own record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training import goals, logs
from gym.training.logs import LoggedExercise
from tests.trainer.members import link_member

ROUTES = ("settings", "history", "distribution")




async def _log(db, org_id, member_id, name: str, goal: str, hours_ago: float = 24) -> None:
    entry = LoggedExercise(exercise_name=name, exercise_type="strength", sets=3, reps=5, load_kg=60,
                           muscles=["Quadriceps"], goals=[goal],
                           performed_at=datetime.now(UTC) - timedelta(hours=hours_ago))
    async with db.scope(org_id=org_id) as session:
        await logs.log_exercise(session, org_id, member_id, entry, now=datetime.now(UTC))


@pytest.mark.parametrize("role", ["owner", "coach", "front_desk", "member"])
async def test_a_user_without_a_member_record_gets_member_profile_required(client, factory, role) -> None:
    org = await factory.org()
    user = await factory.user(org, role)
    for route in ROUTES:
        response = await client.get(f"/organizations/{org.id}/trainer/{route}", headers=user.headers)
        assert response.status_code == 403, route
        assert response.json()["code"] == "member_profile_required"
    response = await client.put(f"/organizations/{org.id}/trainer/settings", json={"weightUnit": "lbs"},
                                headers=user.headers)
    assert response.status_code == 403


async def test_strangers_get_org_not_found_and_no_token_is_refused(client, factory, db) -> None:
    org = await factory.org()
    stranger = await factory.user(await factory.org(), "member")
    await link_member(db, org.id, stranger.id)  # a member row in org without a membership is not access
    response = await client.get(f"/organizations/{org.id}/trainer/settings", headers=stranger.headers)
    assert (response.status_code, response.json()["code"]) == (404, "org_not_found")
    response = await client.get(f"/organizations/{org.id}/trainer/settings")
    assert response.status_code == 401


async def test_member_reads_and_changes_own_settings(client, factory, db) -> None:
    org = await factory.org()
    user = await factory.user(org, "member")
    await link_member(db, org.id, user.id)
    url = f"/organizations/{org.id}/trainer/settings"
    assert (await client.get(url, headers=user.headers)).json() == {"weightUnit": "kg", "distanceUnit": "km"}
    response = await client.put(url, json={"weightUnit": "lbs"}, headers=user.headers)
    assert response.status_code == 200
    assert response.json() == {"weightUnit": "lbs", "distanceUnit": "km"}
    assert (await client.put(url, json={"distanceUnit": "mi"}, headers=user.headers)).json() == {
        "weightUnit": "lbs", "distanceUnit": "mi"}
    for bad in ({"weightUnit": "stone"}, {}, {"weightUnit": "kg", "extra": 1}, {"distanceUnit": 5}):
        response = await client.put(url, json=bad, headers=user.headers)
        assert (response.status_code, response.json()["code"]) == (400, "validation_failed"), bad
    response = await client.put(url, content=b"{not json", headers={**user.headers, "content-type": "application/json"})
    assert response.status_code == 400
    assert (await client.get(url, headers=user.headers)).json() == {"weightUnit": "lbs", "distanceUnit": "mi"}


async def test_staff_who_is_also_a_member_uses_their_member_record(client, factory, db) -> None:
    org = await factory.org()
    coach = await factory.user(org, "coach")
    await link_member(db, org.id, coach.id, "Noa Coach")
    response = await client.get(f"/organizations/{org.id}/trainer/settings", headers=coach.headers)
    assert response.status_code == 200


async def test_history_shows_only_the_callers_own_logs(client, factory, db) -> None:
    org = await factory.org()
    me, other = await factory.user(org, "member"), await factory.user(org, "member")
    mine, theirs = await link_member(db, org.id, me.id), await link_member(db, org.id, other.id, "Other One")
    await _log(db, org.id, mine, "Back Squat", "Strength")
    await _log(db, org.id, theirs, "Secret Lift", "Strength")
    await _log(db, org.id, mine, "Old Squat", "Strength", hours_ago=24 * 40)
    body = (await client.get(f"/organizations/{org.id}/trainer/history", headers=me.headers)).json()
    assert [i["name"] for i in body["items"]] == ["Back Squat"]
    assert (body["days"], body["items"][0]["load"], body["items"][0]["loadUnit"]) == (30, 60.0, "kg")
    body = (await client.get(f"/organizations/{org.id}/trainer/history?days=60", headers=me.headers)).json()
    assert [i["name"] for i in body["items"]] == ["Back Squat", "Old Squat"]
    for days in ("0", "366", "abc"):
        response = await client.get(f"/organizations/{org.id}/trainer/history?days={days}", headers=me.headers)
        assert (response.status_code, response.json()["code"]) == (400, "validation_failed"), days


async def test_distribution_shows_target_actual_and_debt(client, factory, db) -> None:
    org = await factory.org()
    me, other = await factory.user(org, "member"), await factory.user(org, "member")
    mine, theirs = await link_member(db, org.id, me.id), await link_member(db, org.id, other.id, "Other One")
    async with db.scope(org_id=org.id) as session:
        await goals.set_category_goals(session, org.id, mine, [("Strength", None, 60), ("Conditioning", None, 40)])
    for _ in range(3):
        await _log(db, org.id, mine, "Back Squat", "Strength")
    await _log(db, org.id, mine, "Row", "Conditioning")
    for _ in range(5):
        await _log(db, org.id, theirs, "Run", "Conditioning")
    body = (await client.get(f"/organizations/{org.id}/trainer/distribution", headers=me.headers)).json()
    rows = {r["name"]: r for r in body["categories"]}
    assert (rows["Strength"]["targetPct"], rows["Strength"]["actualPct"], rows["Strength"]["debtPct"]) == (
        60.0, 75.0, -15.0)
    assert (rows["Conditioning"]["actualPct"], rows["Conditioning"]["debtPct"]) == (25.0, 15.0)
    assert body["exercisesCounted"] == 4 and body["windowDays"] == 28
    assert body["muscles"] == [] and body["untrackedMuscles"][0]["name"] == "quadriceps"
