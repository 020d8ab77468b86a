"""Undo is offered only where it would run: `inverseAvailable` follows the caller's role may run the inverse
(class_sessions.create is open to front desk; its inverse class_sessions.cancel is owner/admin only)."""

from __future__ import annotations

import pytest

from agent.policy import UNDO_NOTE
from gym import classes
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


@pytest.mark.parametrize(("role", "offered"), [("front_desk", False), ("owner", True)])
async def test_undo_is_offered_only_to_a_role_that_may_run_the_inverse(client, gym, factory, fake_model, db,
                                                                       role, offered) -> None:
    user = gym.owner if role == "owner" else await factory.user(gym.org, role, name="Dana Desk")
    async with db.scope(org_id=gym.org.id) as session:
        await classes.create_class_type(session, gym.org.id, name="Open Gym", default_capacity=20)
    tool_input = {"classType": "open gym", "date": "tomorrow", "start": "13:00", "end": "14:00"}
    fake_model.queue(Reply(Text("Scheduling it."), ToolUse("class_sessions__create", tool_input, id="toolu_cs")),
                     Reply(Text("Done.")))

    result = await sse(client, f"{gym.base}/messages", headers=user.headers,
                       json_body={"message": "schedule open gym tomorrow 13:00-14:00"})

    completed = result.one("tool_completed")
    assert completed["ok"] is True, completed
    assert completed["inverseAvailable"] is offered
    # the model is told the same (issue 27 item 2): it may promise an Undo only where the card shows one
    described = {t["name"]: t.get("description", "") for t in fake_model.requests[0].body["tools"]}
    assert (UNDO_NOTE in described["class_sessions__create"]) is offered
    assert UNDO_NOTE not in described["class_sessions__update"]  # no inverse, never promised
    conversation_id = result.one("conversation_started")["conversationId"]
    detail = await client.get(f"{gym.base}/conversations/{conversation_id}", headers=user.headers)
    calls = [c for m in detail.json()["messages"] for c in m["toolCalls"]]
    assert [(c["toolUseId"], c["status"], c["inverseAvailable"]) for c in calls] == [("toolu_cs", "succeeded", offered)]
    undo = await client.post(gym.undo_url(conversation_id, "toolu_cs"), headers=user.headers)
    assert undo.status_code == (200 if offered else 422), undo.text
    if not offered:
        assert undo.json()["code"] == "not_undoable"
