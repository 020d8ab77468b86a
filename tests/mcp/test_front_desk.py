"""The front desk's day through MCP (issues 41 and 42): a desk person's assistant books a member inline and undoes
it, and a freeze waits for approval with the card's lines — the bookings it covers — in the approval's words, both
as the awaiting-approval result and as the inline question."""

from __future__ import annotations

from datetime import UTC, datetime

import mcp_types as types
import pytest
from sqlalchemy import text

from tests.mcp.conftest import Gym, body, connect
from tests.tools.desk_gym import DeskGym, daytime_zone, desk_gym


@pytest.fixture
async def desk(db, factory) -> DeskGym:
    now = datetime.now(UTC)
    return await desk_gym(db, factory, now=now, timezone=daytime_zone(now))


async def _value(db, sql: str, **params):
    async with db.owner() as session:
        return await session.scalar(text(sql), params)


async def test_a_booking_runs_inline_and_undo_cancels_it(server, db, desk, dev_keys) -> None:
    gym = Gym(desk.org, desk.owner, dev_keys)
    booking = {"memberId": str(desk.members["dani"]), "sessionId": str(desk.sessions["tomorrow_1730"])}
    async with connect(server.url, gym, desk.desk) as client:
        booked = body(await client.call_tool("bookings__book_member", booking))
        assert booked["status"] == "succeeded" and booked["undoAvailable"] is True
        assert await _value(db, "SELECT status FROM bookings WHERE member_id = :m", m=desk.members["dani"]) == "booked"
        undone = await client.call_tool("spotter__undo", {"executionId": booked["executionId"]})
    assert undone.is_error is False, undone.content[0].text
    assert await _value(db, "SELECT status FROM bookings WHERE member_id = :m", m=desk.members["dani"]) != "booked"


async def test_a_freeze_awaits_approval_naming_the_bookings_it_covers(server, db, desk, dev_keys) -> None:
    gym = Gym(desk.org, desk.owner, dev_keys)
    dani = str(desk.members["dani"])
    freeze = {"memberId": dani, "days": 14, "reason": "travel"}
    async with connect(server.url, gym, desk.desk) as client:
        await client.call_tool("bookings__book_member", {"memberId": dani,
                                                         "sessionId": str(desk.sessions["tomorrow_1730"])})
        waiting = await client.call_tool("memberships__freeze", freeze)
    found = body(waiting)
    assert waiting.is_error is False and found["status"] == "awaiting_approval"
    assert found["summary"].startswith("Freeze Dani Mizrahi's membership") and "1 booking falls" in found["summary"]
    assert len(found["details"]) == 1 and found["details"][0].startswith("CrossFit ")
    assert f"- {found['details'][0]}" in waiting.content[0].text  # the person reads each line
    assert await _value(db, "SELECT status FROM members WHERE id = :m", m=dani) == "active"

    asked: list[str] = []

    async def accept(ctx, params) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept")

    async with connect(server.url, gym, desk.desk, elicit=accept) as client:
        done = body(await client.call_tool("memberships__freeze", {**freeze, "reason": "again"}))
    # the pending freeze above still waits for the console; this one was asked inline and ran
    assert done["status"] == "succeeded" and done["undoAvailable"] is True
    assert len(asked) == 1 and "Dani Mizrahi" in asked[0] and "\n- CrossFit " in asked[0]
    assert await _value(db, "SELECT count(*) FROM membership_freezes WHERE member_id = :m", m=dani) == 1
