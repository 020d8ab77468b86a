"""Tool search over real HTTP: the staff request carries the common tools and defers the long tail; a deferred
tool found by the server's search runs, and the search blocks are persisted and replayed verbatim."""

from sqlalchemy import text

from agent.tool_search import SEARCH_TOOL_NAMES
from tests.fakes.anthropic_server import Reply, Text, ToolUse, count_tokens
from tests.fakes.tool_search import ToolSearch
from tests.sse import sse

# What staff reach for on most turns (declared `loaded=True` on each tool); the rest is found through search.
STAFF_LOADED_TOOLS = {
    "read__get_current_context", "read__search_anything", "read__lookup_by_id", "read__members_search",
    "read__members_get", "read__member_training", "read__programs_list", "read__exercises_search",
    "read__ask_user_to_pick",
    "tasks__list", "tasks__create", "tasks__update", "tasks__complete", "tasks__delete",
    "class_sessions__list_for_date", "class_sessions__cancel",
    "bookings__book_member", "bookings__check_in",
    "bookings__attendance_summary", "analytics__org_insights", "analytics__at_risk_members",
    "forms__list_pending_for_org", "programs__enroll_member", "assignments__assign_personal",
}


def _in_prompt(tools: list[dict]) -> list[dict]:
    return [t for t in tools if not t.get("defer_loading")]


async def test_staff_request_keeps_common_tools_loaded_and_defers_the_rest(client, gym, fake_model) -> None:
    fake_model.queue(Reply(Text("Hi.")))
    await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)

    tools = fake_model.requests[0].body["tools"]
    loaded = _in_prompt(tools)
    names = {t["name"] for t in loaded}
    assert names - SEARCH_TOOL_NAMES == STAFF_LOADED_TOOLS
    assert [t["type"] for t in loaded if t["name"] in SEARCH_TOOL_NAMES] == ["tool_search_tool_bm25_20251119"]
    deferred = [t for t in tools if t.get("defer_loading") is True]
    assert len(deferred) >= 30 and "analytics__members_summary" in {t["name"] for t in deferred}
    tokens = sum(count_tokens({k: v for k, v in t.items() if k != "cache_control"}) for t in loaded)
    assert tokens <= 6000
    assert sum(count_tokens(t) for t in deferred) > tokens  # the long tail is most of the catalog
    # the tools' 1 h breakpoint sits on the last tool in the prompt (the search tool), never on a deferred one
    marked = [t["name"] for t in tools if "cache_control" in t]
    assert marked == [loaded[-1]["name"]] and loaded[-1]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert fake_model.requests[0].rejected is None


async def test_a_deferred_tool_found_by_search_runs_and_the_blocks_replay(client, gym, fake_model, db) -> None:
    fake_model.require_tool_search = True
    fake_model.queue(
        Reply(Text("Let me find the right tool."), ToolSearch("program templates", id="srvtoolu_s1"),
              ToolUse("program_templates__list", {"limit": 5}, id="toolu_t1")),
        Reply(Text("You have no templates yet.")),
    )
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "which templates do we have?"},
                       headers=gym.owner.headers)
    assert result.names[-1] == "done" and not result.of("error")
    completed = result.one("tool_completed")
    assert completed["toolUseId"] == "toolu_t1" and completed["ok"] is True

    second = fake_model.requests[1]
    assert second.rejected is None
    assistant = second.body["messages"][-2]
    assert [b["type"] for b in assistant["content"]] == ["text", "server_tool_use", "tool_search_tool_result",
                                                         "tool_use"]
    search_result = assistant["content"][2]
    assert search_result["tool_use_id"] == "srvtoolu_s1"
    references = search_result["content"]["tool_references"]
    assert {"type": "tool_reference", "tool_name": "program_templates__list"} in references
    assert all(r["tool_name"].startswith("program_templates__") for r in references)
    assert second.body["messages"][-1]["content"][0]["tool_use_id"] == "toolu_t1"
    conversation_id = result.one("conversation_started")["conversationId"]
    async with db.owner() as session:
        stored = (await session.execute(text("SELECT content FROM conversation_messages WHERE conversation_id = :c "
                                             "AND role = 'assistant' ORDER BY seq LIMIT 1"),
                                        {"c": conversation_id})).scalar_one()
    assert stored[1] == {"type": "server_tool_use", "id": "srvtoolu_s1", "name": "tool_search_tool_bm25",
                         "input": {"query": "program templates"}}
    assert stored[2] == search_result

    # The next turn replays the history with the search blocks untouched (the replay guard accepts them).
    fake_model.queue(Reply(ToolUse("program_templates__list", {"limit": 1}, id="toolu_t2")), Reply(Text("Still none.")))
    again = await sse(client, f"{gym.base}/messages",
                      json_body={"message": "and now?", "conversationId": conversation_id}, headers=gym.owner.headers)
    assert again.names[-1] == "done" and not again.of("error")
    assert again.one("tool_completed")["ok"] is True
    replayed = fake_model.requests[2].body["messages"][1]["content"]
    assert [b["type"] for b in replayed][1:3] == ["server_tool_use", "tool_search_tool_result"]
    assert all(r.rejected is None for r in fake_model.requests)


async def test_the_fake_refuses_a_deferred_tool_no_search_loaded(client, gym, fake_model) -> None:
    fake_model.require_tool_search = True
    fake_model.queue(Reply(ToolUse("analytics__members_summary", {}, id="toolu_x")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "how many members?"},
                       headers=gym.owner.headers)
    assert result.of("error")
    assert "before any tool search loaded it" in (fake_model.requests[0].rejected or "")


async def test_the_budget_estimate_leaves_deferred_tools_out_but_bounds_a_cold_call(client, gym, fake_model) -> None:
    from agent.budget import estimate_call_micros
    from agent.costs import PriceBook
    from agent.model import ModelRequest

    fake_model.queue(Reply(Text("Hi.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)
    body = fake_model.requests[0].body
    request = ModelRequest(model=body["model"], system=body["system"], tools=body["tools"],
                           messages=body["messages"], max_tokens=body["max_tokens"])
    everything_loaded = ModelRequest(model=body["model"], system=body["system"],
                                     tools=[{k: v for k, v in t.items() if k != "defer_loading"} for t in body["tools"]],
                                     messages=body["messages"], max_tokens=body["max_tokens"])
    estimate = estimate_call_micros(PriceBook(), body["model"], request)
    assert estimate == estimate_call_micros(PriceBook(), body["model"], request)  # the tools' size is memoized
    assert estimate < estimate_call_micros(PriceBook(), body["model"], everything_loaded)
    assert estimate >= result.one("done")["usage"]["costUsdMicros"] > 0
