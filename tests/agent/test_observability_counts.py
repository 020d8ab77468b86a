"""Agent events count what happened: a replay repair is reported once, pending events name their tool and
are logged on resume too, and the guard says `repaired` only when the repair is valid."""

import uuid
from collections.abc import Iterator

import httpx
import pytest

from agent.replay import guard
from api.app import create_app
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.servers import ThreadedServer
from tests.sse import sse


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []

    def __call__(self, event: str, fields: dict) -> None:
        self.events.append((event, fields))

    def names(self, org_id) -> list[str]:
        return [e for e, f in self.events if f.get("org_id") == str(org_id)]

    def of(self, org_id, name: str) -> list[dict]:
        return [f for e, f in self.events if e == name and f.get("org_id") == str(org_id)]


@pytest.fixture(scope="module")
def observed(app_settings) -> Iterator[tuple[str, Recorder]]:
    app = create_app(app_settings)
    server = ThreadedServer(app).start()
    recorder = Recorder()
    app.state.resources.agent.orchestrator.observability.sinks.append(recorder)
    yield server.url, recorder
    server.stop()


async def test_a_repaired_history_is_reported_once_not_every_round_trip_and_turn(observed, gym, fake_model) -> None:
    url, recorder = observed
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Chalk"}, id="toolu_mk")), Reply(Text("Made.")))
        made = await sse(client, f"{gym.base}/messages", json_body={"message": "add chalk"}, headers=gym.owner.headers)
        conversation_id = made.one("conversation_started")["conversationId"]
        task_id = made.one("tool_completed")["output"]["id"]
        fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")))
        await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                  json_body={"message": "delete it", "conversationId": conversation_id})
        # the user types instead of confirming: the pending delete is superseded and needs a synthesized result
        fake_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_ls")), Reply(Text("Here they are.")))
        typed = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                          json_body={"message": "no, list them", "conversationId": conversation_id})
        assert typed.text == "Here they are."
        assert len(recorder.of(gym.org.id, "agent.replay.violation")) == 1  # two round trips, one report
        fake_model.queue(Reply(Text("Still here.")))
        later = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                          json_body={"message": "thanks", "conversationId": conversation_id})
    assert later.text == "Still here."
    assert len(recorder.of(gym.org.id, "agent.replay.violation")) == 1  # and none in the later turn
    assert all(r.rejected is None for r in fake_model.requests)
    replayed = fake_model.requests[-1].body["messages"]
    superseded = [b for m in replayed if m["role"] == "user" for b in m["content"]
                  if b.get("type") == "tool_result" and b["tool_use_id"] == "toolu_del"]
    assert len(superseded) == 1 and '"superseded"' in superseded[0]["content"]


async def test_pending_events_name_their_tool_also_when_a_resume_stops_again(observed, gym, fake_model) -> None:
    url, recorder = observed
    candidates = [{"id": "m1", "label": "Saar Cohen"}, {"id": "m2", "label": "Saar Levi"}]
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        fake_model.queue(Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                                  "candidates": candidates}, id="toolu_pick"),
                               ToolUse("tasks__delete", {"id": str(uuid.uuid4())}, id="toolu_task")))
        asked = await sse(client, f"{gym.base}/messages", json_body={"message": "find Saar, add a call task"},
                          headers=gym.owner.headers)
        conversation_id = asked.one("conversation_started")["conversationId"]
        picked = await sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": "m2"},
                           headers=gym.owner.headers)
    assert picked.one("confirmation_pending")["toolUseId"] == "toolu_task"
    assert recorder.names(gym.org.id) == [
        "agent.turn.started", "agent.tool.disambiguation_pending", "agent.turn.completed",
        "agent.turn.started", "agent.tool.confirmation_pending", "agent.turn.completed"]
    pick = recorder.of(gym.org.id, "agent.tool.disambiguation_pending")[0]
    confirm = recorder.of(gym.org.id, "agent.tool.confirmation_pending")[0]
    assert (pick["router"], pick["action"]) == ("read", "ask_user_to_pick")
    assert (confirm["router"], confirm["action"]) == ("tasks", "delete")
    assert confirm["trace_id"] == picked.headers["x-trace-id"]


def test_the_guard_reports_repaired_only_when_the_repair_is_valid() -> None:
    reports: list[dict] = []
    fixable = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "a"}]}]
    guard(fixable, on_violation=reports.append)
    # one tool_use id twice in a message: repair answers both, which the API would refuse as a duplicate
    broken = [{"role": "user", "content": "hi"},
              {"role": "assistant", "content": [{"type": "tool_use", "id": "a"}, {"type": "tool_use", "id": "a"}]}]
    with pytest.raises(AssertionError):
        guard(broken, on_violation=reports.append)
    assert [r["repaired"] for r in reports] == [True, False]
