"""Scripted conversations over the real HTTP API that exercise the gym tools end to end."""

import json

import pytest

from core.member_text import unwrap
from gym.members import create_member
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


def _last_results(body: dict) -> list[dict]:
    content = body["messages"][-1]["content"]
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]


async def test_find_saar_searches_asks_to_pick_and_shows_the_picked_member(client, gym, fake_model, db) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        cohen = await create_member(session, gym.org.id, first_name="Saar", last_name="Cohen",
                                    email="saar.cohen@example.com")
        levi = await create_member(session, gym.org.id, first_name="Saar", last_name="Levi",
                                   email="saar.levi@example.com")
        await create_member(session, gym.org.id, first_name="Sarah", last_name="Klein")

    def script(body: dict) -> Reply:
        results = _last_results(body)
        if not results:
            return Reply(ToolUse("read__members_search", {"query": "Saar"}, id="toolu_search"))
        payload = json.loads(results[0]["content"])
        if results[0]["tool_use_id"] == "toolu_search":
            # the model reads names in envelopes and, as a model may, copies them into the picker's candidates
            hits = [h for h in payload["members"] if unwrap(h["label"]).startswith("Saar")]
            candidates = [{k: h[k] for k in ("id", "label", "sublabel", "detail") if h.get(k)} for h in hits]
            return Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                            "candidates": candidates}, id="toolu_pick"))
        if results[0]["tool_use_id"] == "toolu_pick":
            return Reply(ToolUse("read__members_get", {"memberId": payload["pickedId"]}, id="toolu_get"))
        return Reply(Text(f"Here is {unwrap(payload['name'])}."))

    fake_model.respond_with(script)
    asked = await sse(client, f"{gym.base}/messages", json_body={"message": "find Saar"}, headers=gym.owner.headers)
    conversation_id = asked.one("conversation_started")["conversationId"]
    search = [c for c in asked.of("tool_completed") if c["toolUseId"] == "toolu_search"][0]
    assert [h["label"] for h in search["output"]["members"][:2]] == ["Saar Cohen", "Saar Levi"] or \
        [h["label"] for h in search["output"]["members"][:2]] == ["Saar Levi", "Saar Cohen"]
    pending = asked.one("disambiguation_pending")
    assert {c["id"] for c in pending["candidates"]} == {str(cohen.id), str(levi.id)}
    assert all(c["sublabel"] for c in pending["candidates"])
    assert {c["label"] for c in pending["candidates"]} == {"Saar Cohen", "Saar Levi"}  # people never see envelopes

    shown = await sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": str(levi.id)},
                      headers=gym.owner.headers)
    got = [c for c in shown.of("tool_completed") if c["toolUseId"] == "toolu_get"][0]
    assert got["ok"] is True and got["output"]["id"] == str(levi.id)
    assert shown.text == "Here is Saar Levi."


# One representative call per router: each must run through the agent endpoints for an owner.
ROUTER_CALLS = [
    ("read__programs_list", {}),
    ("workouts__create", {"title": "Quick WOD", "text": "3 rounds: 200m run, 10 push-ups"}),
    ("programs__create", {"name": "Barbell Club", "kind": "class"}),
    ("assignments__bulk_preview", {"period": "next_week"}),
    ("bookings__attendance_summary", {"period": "last_30_days"}),
    ("class_sessions__list_for_date", {"date": "today"}),
    ("class_types__list_for_program", {}),
    ("analytics__members_summary", {"period": "this_month"}),
    ("tasks__list", {}),
    ("program_templates__list", {}),
    ("forms__list_pending_for_org", {}),
]


@pytest.mark.parametrize(("tool", "tool_input"), ROUTER_CALLS, ids=[c[0].split("__")[0] for c in ROUTER_CALLS])
async def test_every_router_runs_through_the_agent(client, gym, fake_model, tool, tool_input) -> None:
    fake_model.queue(Reply(ToolUse(tool, tool_input, id="toolu_r")), Reply(Text("done")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": f"please run {tool}"},
                       headers=gym.owner.headers)
    completed = result.one("tool_completed")
    assert completed["ok"] is True, completed
    assert result.text == "done" and "error" not in result.names
    assert fake_model.requests[-1].rejected is None
