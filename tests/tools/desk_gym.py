"""A small gym for the front desk's tests: a user per staff role, CrossFit with two seats, sessions around a given
instant, and members who are active, frozen, cancelled or opted out of messages."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import text

from gym import bookings, classes, members
from gym.periods import local_instant

STAFF_ROLES = ("owner", "admin", "coach", "front_desk")


@dataclass
class DeskGym:
    org: object
    users: dict[str, object]
    now: datetime
    members: dict[str, uuid.UUID] = field(default_factory=dict)
    sessions: dict[str, uuid.UUID] = field(default_factory=dict)

    @property
    def owner(self):
        return self.users["owner"]

    @property
    def desk(self):
        return self.users["front_desk"]


def daytime_zone(now: datetime) -> str:
    """A fixed-offset zone where `now` is early afternoon (outside the outbox's quiet hours), for tests that run
    on the real clock."""
    offset = (13 - now.astimezone(ZoneInfo("UTC")).hour) % 24
    offset = offset - 24 if offset > 12 else offset
    return f"Etc/GMT{-offset:+d}" if offset else "UTC"


async def desk_gym(db, factory, *, now: datetime, timezone: str = "Asia/Jerusalem", capacity: int = 2) -> DeskGym:
    org = await factory.org(timezone=timezone)
    users = {role: await factory.user(org, role, name=f"{role.title()} Person") for role in STAFF_ROLES}
    users["member"] = await factory.user(org, "member", name="Member Person")
    gym = DeskGym(org, users, now)
    tz = ZoneInfo(timezone)
    tomorrow = now.astimezone(tz).date() + timedelta(days=1)
    async with db.scope(org_id=org.id) as session:
        crossfit = await classes.create_class_type(session, org.id, name="CrossFit", default_capacity=capacity)
        for key, starts in (("tomorrow_1730", local_instant(tomorrow, "17:30", tz)),
                            ("tomorrow_1830", local_instant(tomorrow, "18:30", tz)),
                            ("started", now - timedelta(minutes=10)),
                            ("soon", now + timedelta(minutes=30))):
            row = await classes.create_session(session, org.id, class_type_id=crossfit.id, starts_at=starts,
                                               ends_at=starts + timedelta(hours=1), published=True)
            assert row is not None
            gym.sessions[key] = row.id
        for key, first, last, status in (("dani", "Dani", "Mizrahi", "active"), ("saar", "Saar", "Levi", "active"),
                                         ("noa", "Noa", "Peretz", "active"), ("frozen", "Frida", "Frost", "frozen"),
                                         ("cancelled", "Carl", "Gone", "cancelled"),
                                         ("optout", "Olga", "Quiet", "active")):
            member = await members.create_member(session, org.id, first_name=first, last_name=last,
                                                 email=f"{key}.{org.id.hex[:6]}@example.test", status=status,
                                                 joined_at=(now - timedelta(days=400)).date())
            gym.members[key] = member.id
        await session.execute(text("UPDATE members SET messages_opted_out_at = :now WHERE id = :id"),
                              {"now": now, "id": gym.members["optout"]})
        await session.execute(text("UPDATE members SET last_visit_at = :at WHERE org_id = :org AND id = ANY(:ids)"),
                              {"at": now - timedelta(days=30), "org": org.id,
                               "ids": [gym.members[k] for k in ("dani", "saar", "optout")]})
    return gym


async def dani_booked_and_waiting(db, gym: DeskGym, now: datetime) -> None:
    """The member login is Dani; Dani is booked into tomorrow's 17:30 and waits for the full 18:30 (Saar's seat)."""
    async with db.owner() as session:
        await session.execute(text("UPDATE members SET user_id = :u WHERE id = :m"),
                              {"u": gym.users["member"].id, "m": gym.members["dani"]})
    async with db.scope(org_id=gym.org.id) as session:
        await bookings.book(session, gym.org.id, session_id=gym.sessions["tomorrow_1730"],
                            member_id=gym.members["dani"], tz=gym.org.timezone, now=now)
        await bookings.book(session, gym.org.id, session_id=gym.sessions["tomorrow_1830"],
                            member_id=gym.members["saar"], tz=gym.org.timezone, now=now)
        await bookings.join_waitlist(session, gym.org.id, session_id=gym.sessions["tomorrow_1830"],
                                     member_id=gym.members["dani"], tz=gym.org.timezone, now=now, created_by=None)
