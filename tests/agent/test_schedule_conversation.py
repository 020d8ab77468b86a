"""A scheduling conversation over real HTTP: "schedule open gym tomorrow 13:00–14:00 published" lands at the
right instants for tomorrow in the gym's timezone, the session is published, and undo cancels it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import text

from gym import classes
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


def _expected_for_tomorrow(tz: ZoneInfo) -> dict[str, str]:
    tomorrow = datetime.now(tz).date() + timedelta(days=1)
    starts = datetime.combine(tomorrow, time(13), tzinfo=tz)
    ends = datetime.combine(tomorrow, time(14), tzinfo=tz)
    return {"date": tomorrow.isoformat(), "startsAt": starts.isoformat(), "endsAt": ends.isoformat(),
            "startsAtUtc": starts.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "endsAtUtc": ends.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


async def test_schedule_open_gym_tomorrow_then_undo_cancels_it(client, gym, fake_model, db) -> None:
    assert gym.org.timezone == "Asia/Jerusalem"
    tz = ZoneInfo(gym.org.timezone)
    async with db.scope(org_id=gym.org.id) as session:
        open_gym = await classes.create_class_type(session, gym.org.id, name="Open Gym", default_capacity=20)
    tool_input = {"classType": "open gym", "date": "tomorrow", "start": "13:00", "end": "14:00", "published": True}
    fake_model.queue(
        Reply(Text("Scheduling it."), ToolUse("class_sessions__create", tool_input, id="toolu_sched")),
        Reply(Text("Open Gym is on tomorrow 13:00–14:00 and published.")),
    )

    before = _expected_for_tomorrow(tz)
    result = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                       json_body={"message": "schedule open gym tomorrow 13:00–14:00 published"})
    after = _expected_for_tomorrow(tz)  # a run across local midnight may see either day

    assert result.status == 200, result.body
    completed = result.one("tool_completed")
    assert completed["ok"] is True and completed["inverseAvailable"] is True, completed
    out = completed["output"]
    assert {k: out[k] for k in before} in (before, after)
    assert out["classTypeId"] == str(open_gym.id) and out["published"] is True and out["capacity"] == 20
    fed_back = fake_model.requests[1].body["messages"][-1]["content"][0]
    assert fed_back["tool_use_id"] == "toolu_sched" and json.loads(fed_back["content"])["id"] == out["id"]
    conversation_id = result.one("conversation_started")["conversationId"]
    async with db.owner() as session:
        row = (await session.execute(text("SELECT org_id, starts_at, ends_at, published, cancelled_at "
                                          "FROM class_sessions WHERE id = :i"), {"i": out["id"]})).one()
    assert row.org_id == gym.org.id and row.published is True and row.cancelled_at is None
    assert row.starts_at == datetime.fromisoformat(out["startsAtUtc"])
    assert row.ends_at - row.starts_at == timedelta(hours=1)

    undo = await client.post(gym.undo_url(conversation_id, "toolu_sched"), headers=gym.owner.headers)
    assert undo.status_code == 200, undo.text
    body = undo.json()
    assert body["inverse"]["router"] == "class_sessions" and body["inverse"]["action"] == "cancel"
    assert body["inverse"]["output"]["id"] == out["id"] and body["inverse"]["output"]["cancelled"] is True
    async with db.owner() as session:
        cancelled_at = await session.scalar(text("SELECT cancelled_at FROM class_sessions WHERE id = :i"),
                                            {"i": out["id"]})
        actions = (await session.execute(text("SELECT action FROM audit_logs WHERE org_id = :o ORDER BY created_at"),
                                         {"o": gym.org.id})).scalars().all()
    assert cancelled_at is not None
    assert actions == ["class_session.create", "class_session.cancel"]
