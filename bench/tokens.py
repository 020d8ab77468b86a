"""Tokens per request and cost per scripted conversation, every tool loaded vs the long tail deferred.

    .venv/bin/python -m bench.tokens [--role owner]

Builds the bench's three-round-trip conversation (bench/scripted_model.py: tool, tool, text) with the real
request builder (agent/request.py) and bills each request with the fake model's deterministic prompt-cache
accounting (tests/fakes/anthropic_server.py: a token is 4 characters of canonical JSON; deferred tools are
outside the prompt) and the service's price book. "cold" is the first conversation in a fresh hour (the
tools and system are written to the cache at 2x); "warm" is the next one (they are read at 0.1x).
No network, no timing: the figures are exact for the fake's token model.
"""

from __future__ import annotations

import argparse
import json
import uuid
from datetime import UTC, datetime
from typing import Any

from agent.copilot import STAFF_COPILOT
from agent.costs import PriceBook, Usage
from agent.request import build_request, tool_definitions, turn_context, user_turn_content
from core.tenancy import Caller, OrgAccess
from tests.fakes.anthropic_server import PromptCache, count_tokens
from tools.catalog import build_registry

MODEL = "claude-sonnet-4-6"
SCRIPT = [[{"type": "text", "text": "Checking."},
           {"type": "tool_use", "id": "toolu_1", "name": "read__get_current_context", "input": {}}],
          [{"type": "tool_use", "id": "toolu_2", "name": "tasks__list", "input": {"status": "open", "limit": 5}}],
          [{"type": "text", "text": "You have no urgent tasks today. " * 3}]]


def _bodies(tools: list[dict[str, Any]], access: OrgAccess, caller: Caller) -> list[dict[str, Any]]:
    first = user_turn_content("what's on my list today?", page_context=None, ambient=None,
                              turn=turn_context(access, caller, "en", datetime(2026, 1, 5, 9, tzinfo=UTC)))
    messages: list[dict[str, Any]] = [{"role": "user", "content": first}]
    bodies = []
    for reply in SCRIPT:
        request = build_request(model=MODEL, specs=[], access=access, messages=messages, max_tokens=4096,
                                tools_cache=tools)
        bodies.append({"model": request.model, "system": request.system, "tools": request.tools,
                       "messages": request.messages})
        messages = [*messages, {"role": "assistant", "content": reply}]
        uses = [b for b in reply if b["type"] == "tool_use"]
        if uses:
            messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": u["id"],
                                                          "content": json.dumps({"items": []})} for u in uses]})
    return bodies


def _conversation_cost(bodies: list[dict[str, Any]], cache: PromptCache, now: float) -> int:
    prices, total = PriceBook(), 0
    for body, reply in zip(bodies, SCRIPT, strict=True):
        billed = cache.account(body, now)
        usage = Usage(input_tokens=billed["input_tokens"], output_tokens=count_tokens(reply),
                      cache_read_tokens=billed["cache_read_input_tokens"],
                      cache_write_5m_tokens=billed["cache_creation"]["ephemeral_5m_input_tokens"],
                      cache_write_1h_tokens=billed["cache_creation"]["ephemeral_1h_input_tokens"])
        total += prices.cost_usd_micros(MODEL, usage)
    return total


def measure(role: str) -> dict[str, Any]:
    access = OrgAccess(org_id=uuid.uuid4(), org_name="Bench Gym", tier="elite", timezone="Asia/Jerusalem",
                       locale="en", budget_override_usd_micros=-1, role=role)
    caller = Caller(user_id=uuid.uuid4(), clerk_id="user_tokens", email="t@bench.test", name="Bench Owner")
    specs = build_registry().for_role(role)
    out: dict[str, Any] = {}
    for label, loaded in (("before_all_loaded", None), ("after_deferred", STAFF_COPILOT.loaded_tools(specs))):
        tools = tool_definitions(specs, loaded)
        in_prompt = [{k: v for k, v in t.items() if k != "cache_control"} for t in tools if not t.get("defer_loading")]
        bodies = _bodies(tools, access, caller)
        cache = PromptCache()
        cold = _conversation_cost(bodies, cache, 0.0)
        warm = _conversation_cost(bodies, cache, 60.0)
        out[label] = {"tools_in_prompt": len(in_prompt), "tools_deferred": len(tools) - len(in_prompt),
                      "tool_definition_tokens_per_request": sum(count_tokens(t) for t in in_prompt),
                      "input_tokens_first_request": sum(count_tokens(b) for b in in_prompt)
                      + count_tokens(bodies[0]["system"]) + count_tokens(bodies[0]["messages"]),
                      "cost_usd_micros_cold_conversation": cold, "cost_usd_micros_warm_conversation": warm}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--role", default="owner")
    print(json.dumps(measure(parser.parse_args().role), indent=2))


if __name__ == "__main__":
    main()
