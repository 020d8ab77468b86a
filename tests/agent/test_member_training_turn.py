"""A coach asks the copilot about a member's training: the model reads it through read__member_training and
gets the computed numbers and the injury in the tool result."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from core.member_text import unwrap
from gym.training import goals, logs, preferences
from gym.training.logs import LoggedExercise
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


async def test_coach_gets_debt_and_injury_through_the_tool(client, factory, fake_model, db) -> None:
    org = await factory.org(tier="pro")
    coach = await factory.user(org, "coach", name="Noa Coach")
    member_id, now = uuid.uuid4(), datetime.now(UTC)
    async with db.owner() as session:
        await session.execute(text("INSERT INTO members (id, org_id, first_name, last_name, full_name) "
                                   "VALUES (:i, :o, 'Dani', 'Mizrahi', 'Dani Mizrahi')"), {"i": member_id, "o": org.id})
    async with db.scope(org_id=org.id) as session:
        await goals.set_category_goals(session, org.id, member_id, [("Strength", None, 45), ("Hypertrophy", None, 55)])
        for n, goal in enumerate(["Strength", "Strength", "Hypertrophy", "Hypertrophy", "Hypertrophy"]):
            await logs.log_exercise(session, org.id, member_id, LoggedExercise(
                exercise_name=f"Lift {n}", exercise_type="strength", goals=[goal],
                performed_at=now - timedelta(days=n + 1)), now=now)
        await preferences.set_preference(session, org.id, member_id, type="injury",
                                         description="left shoulder: no overhead pressing",
                                         guidance="no overhead pressing", now=now, expires_at=now + timedelta(days=10))

    def script(body: dict) -> Reply:
        content = body["messages"][-1]["content"]
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        if not results:
            return Reply(ToolUse("read__member_training", {"membershipId": str(member_id)}, id="toolu_training"))
        record = unwrap(json.loads(results[0]["content"]))  # what the member wrote reaches the model enveloped
        strength = next(r for r in record["goals"]["categories"] if r["name"] == "Strength")
        return Reply(Text(f"Strength {strength['actualPct']}% of {strength['targetPct']}% "
                          f"(debt {strength['debtPct']:+}); injury: {record['injuries'][0]['description']}"))

    fake_model.respond_with(script)
    turn = await sse(client, f"/organizations/{org.id}/agent/messages",
                     json_body={"message": "How is Dani's training going?"}, headers=coach.headers)
    completed = turn.one("tool_completed")
    assert completed["ok"] is True and completed["toolUseId"] == "toolu_training"
    assert turn.text == "Strength 40.0% of 45.0% (debt +5.0); injury: left shoulder: no overhead pressing"
    offered = {t["name"] for t in fake_model.requests[0].body["tools"]}
    assert "read__member_training" in offered
