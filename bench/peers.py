"""Spotter beside LangGraph and Pydantic AI: the same scripted conversations, the same fake model, one run.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python -m bench.peers [--conversations 30] [--concurrency 8]

One stack (bench/turn.py: embedded Postgres + Redis, the scripted model of bench/scripted_model.py and
`spotter serve`, each its own process) serves every contestant:

* Spotter over HTTP/SSE (auth, persistence, Redis lock, cost), and the raw AsyncAnthropic SDK sending its
  payload (the same tool definitions, built once) — Spotter's overhead is measured over that floor;
* LangGraph: `create_agent` + `AsyncPostgresSaver` (+ `HumanInTheLoopMiddleware` for the approval);
* Pydantic AI: `Agent.run_stream_events` with the history kept as a jsonb row (+ deferred approval);
* the raw SDK with the peers' own small payload (the same static prompt, the three scripted tools) —
  the peers' overhead is measured over that floor, so nobody is charged for the size of their catalog.

Scenario A is tool → tool → text (3 model round trips); scenario B is a delete that needs approval, then
the resume (2 round trips). Throughput runs A at `--concurrency`. Calls are interleaved so drift on a
shared machine hits every contestant alike; compare the ratios, not the absolute figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

import anthropic
import httpx

from agent.prompts import STATIC_SYSTEM_PROMPT
from bench.turn import (
    confirm_conversation,
    full_conversation,
    machine,
    p,
    raw_conversation,
    raw_payload,
    stack,
)

MODEL = "claude-sonnet-4-6"
ASK = "what's on my list today?"


def read__get_current_context() -> dict:
    """The caller's current context."""
    return {}


def tasks__list(status: str = "open", limit: int = 5) -> dict:
    """List the org's tasks."""
    return {"tasks": []}


def tasks__delete(id: str) -> dict:
    """Delete a task (needs approval)."""
    return {"deleted": id}


PEER_TOOLS = [read__get_current_context, tasks__list, tasks__delete]


def small_payload() -> dict:
    """The raw-SDK floor for the peers: their static prompt and three tools, built once."""
    tools = [{"name": "read__get_current_context", "description": "The caller's current context.",
              "input_schema": {"type": "object", "properties": {}}},
             {"name": "tasks__list", "description": "List the org's tasks.",
              "input_schema": {"type": "object", "properties": {"status": {"type": "string"},
                                                                "limit": {"type": "integer"}}}},
             {"name": "tasks__delete", "description": "Delete a task (needs approval).",
              "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}]
    return {"model": MODEL, "max_tokens": 4096, "system": STATIC_SYSTEM_PROMPT, "tools": tools,
            "first": {"role": "user", "content": ASK}}


class LangGraphPeer:
    def __init__(self, model_url: str, pg_url: str) -> None:
        self.model_url, self.pg_url = model_url, pg_url

    async def __aenter__(self) -> LangGraphPeer:
        from langchain.agents import create_agent
        from langchain.agents.middleware import HumanInTheLoopMiddleware
        from langchain_anthropic import ChatAnthropic
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

        self._saver_cm = AsyncPostgresSaver.from_conn_string(self.pg_url)
        saver = await self._saver_cm.__aenter__()
        await saver.setup()
        model = ChatAnthropic(model=MODEL, api_key="sk-bench", base_url=self.model_url, max_retries=0,
                              streaming=True, max_tokens=4096)
        self.agent = create_agent(model, tools=PEER_TOOLS, system_prompt=STATIC_SYSTEM_PROMPT,
                                  checkpointer=saver,
                                  middleware=[HumanInTheLoopMiddleware(interrupt_on={"tasks__delete": True})])
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._saver_cm.__aexit__(None, None, None)

    async def _drain(self, payload, config: dict) -> None:
        async for _ in self.agent.astream(payload, config, stream_mode="messages"):
            pass

    async def conversation(self) -> float:
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        started = time.perf_counter()
        await self._drain({"messages": [{"role": "user", "content": ASK}]}, config)
        return time.perf_counter() - started

    async def confirm(self, task_id: str) -> float:
        from langgraph.types import Command

        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        started = time.perf_counter()
        await self._drain({"messages": [{"role": "user", "content": f"delete task {task_id}"}]}, config)
        state = await self.agent.aget_state(config)
        if not state.interrupts:
            raise RuntimeError("LangGraph did not pause for approval")
        await self._drain(Command(resume={"decisions": [{"type": "approve"}]}), config)
        return time.perf_counter() - started


class PydanticAIPeer:
    """History as one jsonb row per conversation, read before and written after every run."""

    def __init__(self, model_url: str, dsn: str) -> None:
        self.model_url, self.dsn = model_url, dsn

    async def __aenter__(self) -> PydanticAIPeer:
        import asyncpg
        from pydantic_ai import Agent, DeferredToolRequests
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        self.pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=16)
        await self.pool.execute("CREATE TABLE IF NOT EXISTS bench_pydantic_ai_history "
                                "(id uuid PRIMARY KEY, messages jsonb NOT NULL)")
        self._client = anthropic.AsyncAnthropic(api_key="sk-bench", base_url=self.model_url, max_retries=0)
        model = AnthropicModel(MODEL, provider=AnthropicProvider(anthropic_client=self._client))
        self.agent = Agent(model, instructions=STATIC_SYSTEM_PROMPT, output_type=[str, DeferredToolRequests])
        self.agent.tool_plain(read__get_current_context)
        self.agent.tool_plain(tasks__list)
        self.agent.tool_plain(requires_approval=True)(tasks__delete)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.pool.close()
        await self._client.close()

    async def _run(self, conversation: uuid.UUID, prompt: str | None, deferred=None):
        from pydantic_ai import AgentRunResultEvent
        from pydantic_ai.messages import ModelMessagesTypeAdapter

        row = await self.pool.fetchval("SELECT messages::text FROM bench_pydantic_ai_history WHERE id = $1",
                                       conversation)
        history = ModelMessagesTypeAdapter.validate_json(row) if row else None
        result = None
        async with self.agent.run_stream_events(prompt, message_history=history,
                                                deferred_tool_results=deferred) as events:
            async for event in events:
                if isinstance(event, AgentRunResultEvent):
                    result = event.result
        assert result is not None
        await self.pool.execute("INSERT INTO bench_pydantic_ai_history (id, messages) VALUES ($1, $2::jsonb) "
                                "ON CONFLICT (id) DO UPDATE SET messages = EXCLUDED.messages",
                                conversation, result.all_messages_json().decode())
        return result

    async def conversation(self) -> float:
        started = time.perf_counter()
        await self._run(uuid.uuid4(), ASK)
        return time.perf_counter() - started

    async def confirm(self, task_id: str) -> float:
        from pydantic_ai import DeferredToolRequests, DeferredToolResults

        conversation = uuid.uuid4()
        started = time.perf_counter()
        first = await self._run(conversation, f"delete task {task_id}")
        if not isinstance(first.output, DeferredToolRequests) or not first.output.approvals:
            raise RuntimeError("Pydantic AI did not defer the delete for approval")
        approvals = {call.tool_call_id: True for call in first.output.approvals}
        await self._run(conversation, None, DeferredToolResults(approvals=approvals))
        return time.perf_counter() - started


async def _throughput(one: Callable[[], Awaitable[float]], concurrency: int, total: int) -> float:
    per_worker = max(1, total // concurrency)

    async def worker() -> None:
        for _ in range(per_worker):
            await one()

    started = time.perf_counter()
    await asyncio.gather(*[worker() for _ in range(concurrency)])
    return per_worker * concurrency / (time.perf_counter() - started)


def _row(name: str, a: list[float], floor_a: list[float], b: list[float], floor_b: list[float],
         rate: float | None) -> dict:
    over_a = (p(a, 0.5) - p(floor_a, 0.5)) / 3
    over_b = (p(b, 0.5) - p(floor_b, 0.5)) / 2 if b else None
    return {"name": name, "p50_conversation_ms": round(p(a, 0.5), 1),
            "overhead_per_round_trip_ms": round(over_a, 2),
            "confirm_resume_overhead_per_round_trip_ms": None if over_b is None else round(over_b, 2),
            "conversations_per_s": None if rate is None else round(rate, 1)}


def _table(rows: list[dict]) -> str:
    spotter = rows[0]
    lines = ["| contestant | p50 conv ms | overhead/rt ms | confirm+resume overhead/rt ms | conv/s "
             "| overhead vs Spotter |", "|---|---|---|---|---|---|"]
    for r in rows:
        ratio = (f"{r['overhead_per_round_trip_ms'] / spotter['overhead_per_round_trip_ms']:.2f}x"
                 if spotter["overhead_per_round_trip_ms"] > 0 else "n/a")
        lines.append(f"| {r['name']} | {r['p50_conversation_ms']} | {r['overhead_per_round_trip_ms']} | "
                     f"{r['confirm_resume_overhead_per_round_trip_ms']} | {r['conversations_per_s']} | {ratio} |")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> dict:
    async with stack() as st:
        pg_url = st.pg.url().replace("postgresql+asyncpg://", "postgresql://")
        big, small = raw_payload(), small_payload()
        raw = anthropic.AsyncAnthropic(api_key="sk-bench", base_url=st.model_url, max_retries=0)
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with (httpx.AsyncClient(timeout=60, limits=limits) as http,
                    LangGraphPeer(st.model_url, pg_url) as lg, PydanticAIPeer(st.model_url, pg_url) as pa):
            def spotter() -> Awaitable[float]:
                return full_conversation(http, st.base, st.org, st.token)

            contestants = {"spotter": spotter, "raw_sdk_spotter_payload": lambda: raw_conversation(raw, 3, big),
                           "langgraph": lg.conversation, "pydantic_ai": pa.conversation,
                           "raw_sdk_3_tools": lambda: raw_conversation(raw, 3, small)}
            times: dict[str, list[float]] = {name: [] for name in contestants}
            for i in range(args.conversations + 3):  # the first 3 warm up
                for name, one in contestants.items():
                    elapsed = await one()
                    if i >= 3:
                        times[name].append(elapsed)
            confirm_runs: dict[str, Callable[[str], Awaitable[float]]] = {
                "spotter": lambda t: confirm_conversation(http, st.base, st.org, st.token, t),
                "raw_sdk_spotter_payload": lambda t: raw_conversation(raw, 2, big),
                "langgraph": lg.confirm, "pydantic_ai": pa.confirm,
                "raw_sdk_3_tools": lambda t: raw_conversation(raw, 2, small)}
            confirms: dict[str, list[float]] = {name: [] for name in confirm_runs}
            for i in range(args.conversations + 3):  # the first 3 warm up, as above
                for name, one in confirm_runs.items():
                    elapsed = await one(st.task_ids[i])
                    if i >= 3:
                        confirms[name].append(elapsed)
            rates = {name: await _throughput(contestants[name], args.concurrency, args.throughput_conversations)
                     for name in ("spotter", "langgraph", "pydantic_ai")}
        await raw.close()
    rows = [_row("spotter (floor: raw SDK, its payload)", times["spotter"], times["raw_sdk_spotter_payload"],
                 confirms["spotter"], confirms["raw_sdk_spotter_payload"], rates["spotter"])]
    for name in ("langgraph", "pydantic_ai"):
        rows.append(_row(f"{name} (floor: raw SDK, 3 tools)", times[name], times["raw_sdk_3_tools"],
                         confirms[name], confirms["raw_sdk_3_tools"], rates[name]))
    floors = {name: round(p(times[name], 0.5), 1) for name in ("raw_sdk_spotter_payload", "raw_sdk_3_tools")}
    return {"machine": machine(), "command": "python -m bench.peers " + " ".join(sys.argv[1:]),
            "raw_sdk_p50_conversation_ms": floors, "rows": rows, "table": _table(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=30)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--throughput-conversations", type=int, default=160)
    result = asyncio.run(run(parser.parse_args()))
    print(json.dumps({k: v for k, v in result.items() if k != "table"}, indent=2))
    print(result["table"])


if __name__ == "__main__":
    main()
