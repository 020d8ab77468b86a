"""Issue 43 item 3, the plate calculator over HTTP: a barbell load as the bar and the plates per side, from the
gym's own bar and plates when it has said which (organizations.plates), else a standard set, in the member's unit;
the nearest load under when the plates cannot make it; a load under the bar, or out of range, answered plainly."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from gym.errors import GymError
from gym.training.plates import checked_plates
from tests.trainer.fixtures import trainee


async def _plates(client, t, load):
    answer = await client.get(f"/organizations/{t.org.id}/trainer/plates", params={"load": load},
                              headers=t.user.headers)
    return answer.status_code, answer.json()


async def test_the_gyms_own_plates_or_a_standard_set_in_the_members_unit(client, db, factory) -> None:
    t = await trainee(db, factory)
    status, std = await _plates(client, t, 102.5)
    assert status == 200 and std["source"] == "standard" and (std["bar"], std["perSide"]) == (20, [25, 15, 1.25])
    assert std["exact"] is True and std["total"] == 102.5
    _, near = await _plates(client, t, 61)  # 2.5 kg is the smallest pair: 60 is the nearest under
    assert (near["perSide"], near["total"], near["exact"]) == ([20], 60, False)
    _, light = await _plates(client, t, 15)
    assert light["belowBar"] is True and light["perSide"] == []

    async with db.owner() as session:  # this gym has a 15 kg bar and only 20, 10, 5 and 2.5 kg plates
        await session.execute(text("UPDATE organizations SET plates = CAST(:p AS jsonb) WHERE id = :o"), {
            "p": '{"unit": "kg", "bar": 15, "plates": [10, 20, 5, 2.5]}', "o": t.org.id})
    _, gym = await _plates(client, t, 60)
    assert gym["source"] == "gym" and (gym["bar"], gym["perSide"], gym["exact"]) == (15, [20, 2.5], True)

    assert (await client.put(f"/organizations/{t.org.id}/trainer/settings", json={"weightUnit": "lbs"},
                             headers=t.user.headers)).status_code == 200
    _, lbs = await _plates(client, t, 135)  # the gym's kg plates said in lb: a 33.07 lb bar, 44.09 lb plates
    assert lbs["unit"] == "lbs" and lbs["bar"] == 33.07 and lbs["plates"][0] == 44.09
    assert lbs["perSide"] == [44.09, 5.51] and lbs["exact"] is False

    for bad in ("-1", "1001", "heavy"):
        status, body = await _plates(client, t, bad)
        assert status == 400 and body["code"], body


async def test_the_owner_says_what_plates_the_gym_has_and_the_members_calculator_uses_them(client, db, factory) -> None:
    """GET/PUT /organizations/{org}/gym/plates: staff read them, the owner or an admin says them (a coach, the front
    desk or a member may not), weights out of bounds are 400 and change nothing."""
    t = await trainee(db, factory)
    owner, coach = await factory.user(t.org, "owner"), await factory.user(t.org, "coach")
    url = f"/organizations/{t.org.id}/gym/plates"
    first = await client.get(url, headers=coach.headers)
    assert first.status_code == 200 and first.json() == {"unit": "kg", "bar": 20, "plates": [25, 20, 15, 10, 5, 2.5,
                                                                                           1.25], "source": "standard"}
    said = {"unit": "kg", "bar": 15, "plates": [5, 20, 2.5, 10]}
    assert (await client.put(url, json=said, headers=coach.headers)).json()["code"] == "role_forbidden"
    assert (await client.put(url, json=said, headers=t.user.headers)).json()["code"] == "member_forbidden"
    stored = await client.put(url, json=said, headers=owner.headers)
    assert stored.status_code == 200, stored.text
    assert stored.json() == {"unit": "kg", "bar": 15, "plates": [20, 10, 5, 2.5], "source": "gym"}
    _, on_bar = await _plates(client, t, 60)  # the member's calculator: 15 + 2 × (20 + 2.5)
    assert on_bar["source"] == "gym" and (on_bar["bar"], on_bar["perSide"], on_bar["exact"]) == (15, [20, 2.5], True)

    for malformed in ({"unit": "stone", "bar": 20, "plates": [20]}, {"unit": "kg", "bar": 20, "plates": []},
                      {"unit": "kg", "bar": 20, "plates": [20], "colour": "red"}, {"unit": "kg", "bar": 0.1, "plates": [5]},
                      {"unit": "kg", "bar": 20, "plates": [120]}, {"unit": "kg", "bar": 20, "plates": [1.0] * 13}):
        refused = await client.put(url, json=malformed, headers=owner.headers)
        assert refused.status_code == 400, refused.text
    with pytest.raises(GymError) as refused_rule:  # the rule itself, for any caller
        checked_plates("kg", 500, [20])
    assert refused_rule.value.code == "invalid_plates"
    assert checked_plates("lbs", 45, [45, 45.001, 10])["plates"] == [45, 10]  # one weight named twice counts once
    again = await client.get(url, headers=coach.headers)
    assert again.json() == {"unit": "kg", "bar": 15, "plates": [20, 10, 5, 2.5], "source": "gym"}
