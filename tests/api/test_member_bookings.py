"""The member's own bookings for the member's app (issue 42 item 6): GET …/trainer/bookings lists the caller's coming
classes (a cancelled class said so), the waitlists they are on with their place, and recent classes with whether
they came — only their own; staff with no member record get 403 and another gym 404."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import text

from tests.tools.desk_gym import dani_booked_and_waiting, desk_gym


async def test_a_member_reads_their_own_classes_and_waitlists(client, db, factory) -> None:
    now = datetime.now(UTC)
    gym = await desk_gym(db, factory, now=now, capacity=1)
    member = gym.users["member"]
    await dani_booked_and_waiting(db, gym, now)
    async with db.scope(org_id=gym.org.id) as session:
        await session.execute(text("INSERT INTO bookings (id, org_id, session_id, member_id, status) VALUES "
                                   "(gen_random_uuid(), :o, :s, :m, 'attended')"),
                              {"o": gym.org.id, "s": gym.sessions["started"], "m": gym.members["dani"]})
        await session.execute(text("UPDATE class_sessions SET cancelled_at = :t WHERE id = :s"),
                              {"t": now, "s": gym.sessions["tomorrow_1730"]})
    answer = await client.get(f"/organizations/{gym.org.id}/trainer/bookings", headers=member.headers)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [(b["title"], b["start"], b["status"], b["sessionCancelled"]) for b in body["upcoming"]] == [
        ("CrossFit", "17:30", "booked", True)]
    assert [(w["start"], w["position"]) for w in body["waitlist"]] == [("18:30", 1)]
    started = (now - timedelta(minutes=10)).astimezone(ZoneInfo(gym.org.timezone))
    assert [(b["status"], b["date"], b["start"]) for b in body["past"]] == [
        ("attended", started.date().isoformat(), started.strftime("%H:%M"))]
    staff = await client.get(f"/organizations/{gym.org.id}/trainer/bookings", headers=gym.desk.headers)
    assert staff.status_code == 403 and staff.json()["code"] == "member_profile_required"
    other = await desk_gym(db, factory, now=now)
    foreign = await client.get(f"/organizations/{other.org.id}/trainer/bookings", headers=member.headers)
    assert foreign.status_code == 404 and foreign.json()["code"] == "org_not_found"
