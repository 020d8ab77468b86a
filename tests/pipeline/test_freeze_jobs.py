"""The worker's `membership_freezes` job (pipeline/freeze_jobs.py) through the real queue: PgQueuer hands the job a
freeze queued to `FreezeStatus`, which sets the member's status as their freezes say on the gym's own local day (the
org's timezone, read from the database, not UTC's)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import text

import gym.programs  # noqa: F401  (class_types' foreign key names its table; the app's worker imports it too)
from gym.freezes import payload_of
from gym.job_queue import enqueue
from pipeline.freeze_jobs import FreezeStatus
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.tools.desk_gym import desk_gym

QUEUE = f"membership_freezes_test_{uuid.uuid4().hex[:8]}"  # this module's own: no app worker serves it


def _zone_a_day_off(now: datetime) -> tuple[str, date]:
    """A fixed-offset zone whose local date at `now` is not UTC's (a day ahead or a day behind), and that date."""
    zone = "Etc/GMT-13" if now.hour >= 12 else "Etc/GMT+12"
    return zone, now.astimezone(ZoneInfo(zone)).date()


async def test_the_job_sets_the_status_the_freezes_say_on_the_gyms_local_day(db, factory) -> None:
    now = datetime.now(UTC)
    zone, today = _zone_a_day_off(now)
    assert today != now.date()
    gym = await desk_gym(db, factory, now=now, timezone=zone)
    dani, saar = gym.members["dani"], gym.members["saar"]
    async with db.owner() as session:  # one-day freezes, recorded before their midnight job comes, and the jobs
        for member, day in ((dani, today), (saar, now.date())):
            await session.execute(text(
                "INSERT INTO membership_freezes (org_id, member_id, starts_on, ends_on, previous_status) "
                "VALUES (:o, :m, :d, :d, 'active')"), {"o": gym.org.id, "m": member, "d": day})
            await enqueue(session, QUEUE, payload_of(gym.org.id, member), org_id=gym.org.id)
    worker = Worker(db, OfflineAgents(), entrypoint=f"nutrition_unused_{gym.org.id.hex[:8]}",
                    also={QUEUE: FreezeStatus(db).handle})
    await asyncio.wait_for(worker.run(drain=True, dequeue_timeout=timedelta(seconds=1)), timeout=60)
    async with db.owner() as session:
        status = dict((await session.execute(text("SELECT id, status FROM members WHERE id IN (:d, :s)"),
                                              {"d": dani, "s": saar})).all())
    assert status == {dani: "frozen", saar: "active"}  # the gym's today is Dani's freeze day; UTC's is Saar's
