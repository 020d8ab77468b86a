"""Issue 25 item 8 through the front door: a new run's intake form starts from the member's own data (their last
answers, else their training profile, else nothing), never from a sample member's; members read only their own,
front desk nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from gym.training.profiles import set_units, upsert_profile
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import base, follow, member, start


async def test_the_draft_is_empty_then_the_profile_then_the_last_answers(client, db, factory) -> None:
    org = await factory.org()
    user, member_id = await member(db, factory, org, "Lior")
    url = f"{base(org)}/members/{member_id}/intake-draft"

    empty = await client.get(url, headers=user.headers)
    assert empty.status_code == 200, empty.text
    assert empty.json() == {"intake": {}, "source": None, "sourceDate": None,
                            "units": {"weightUnit": "kg", "distanceUnit": "km"}}

    async with db.scope(org_id=org.id) as session:
        await upsert_profile(session, org.id, member_id, sex="male", birth_year=1990, height_cm=181,
                             weight_kg=84.5, experience="advanced")
        await set_units(session, org.id, member_id, weight_unit="lbs")
    profile = (await client.get(url, headers=user.headers)).json()
    age = datetime.now(UTC).year - 1990
    assert profile["intake"] == {"sex": "male", "age": age, "height_cm": 181.0, "current_weight_kg": 84.5,
                                 "training_experience": "intermediate"}
    assert (profile["source"], profile["units"]["weightUnit"]) == ("profile", "lbs")
    assert profile["intake"]["age"] != samples.INTAKE["age"]

    run_url = await start(client, org, user.headers, {**samples.INTAKE, "sex": "male", "age": 41,
                                                      "menstrual_status": None, "food_aversions": ["olives"]})
    await follow(client, run_url, user.headers)
    last = (await client.get(url, headers=user.headers)).json()
    assert last["source"] == "last_run" and last["sourceDate"] == datetime.now(UTC).date().isoformat()
    assert (last["intake"]["age"], last["intake"]["food_aversions"]) == (41, ["olives"])


async def test_a_member_reads_only_their_own_draft_and_front_desk_none(client, db, factory) -> None:
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    desk = await factory.user(org, role="front_desk")
    user, member_id = await member(db, factory, org, "Lior")
    _, other_id = await member(db, factory, org, "Tal")
    other_org = await factory.org()
    _, stranger_id = await member(db, factory, other_org, "Ran")

    mine = f"{base(org)}/members/{member_id}/intake-draft"
    theirs = f"{base(org)}/members/{other_id}/intake-draft"
    assert (await client.get(theirs, headers=owner.headers)).status_code == 200
    other = await client.get(theirs, headers=user.headers)
    assert (other.status_code, other.json()["code"]) == (404, "member_not_found")
    stranger = await client.get(f"{base(org)}/members/{stranger_id}/intake-draft", headers=owner.headers)
    assert (stranger.status_code, stranger.json()["code"]) == (404, "member_not_found")
    front = await client.get(mine, headers=desk.headers)
    assert (front.status_code, front.json()["code"]) == (403, "forbidden")
