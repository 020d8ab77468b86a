"""The work one conversation of bench.turn costs the app, in numbers that a loaded machine disturbs least: CPU
seconds of the process and Python function calls per conversation, for both of bench.turn's scenarios (tool, tool,
text; a confirmation and its resume), with the top functions by own time.

    .venv/bin/python -m bench.turn_work [--conversations 40] [--profile-dir DIR]

It needs only bench.turn's parts, so to compare a checkout from before it existed, copy this file into that
checkout's bench/ and run it there: alternate the two checkouts in one session. The stack is bench.turn's (embedded Postgres + Redis, the scripted
model as its own process); the app runs in this process behind httpx's ASGI transport, as bench.turn's statement
count does, so the profile holds the app's own work and the client's, not the model's. Wall time is printed too,
but on a shared machine it measures the neighbours; CPU time and call counts are what to compare. Prints one JSON
document.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from bench.turn import confirm_conversation, create_app, full_conversation, machine, open_resources, stack

WARM_UP = 5


def top_functions(stats: pstats.Stats, conversations: int, n: int = 12) -> list[dict[str, object]]:
    """The functions with the most own time, per conversation."""
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:n]
    return [{"function": f"{Path(file).name}:{line}:{name}", "calls": round(calls / conversations, 1),
             "own_ms": round(own * 1000 / conversations, 3)}
            for (file, line, name), (_, calls, own, _cumulative, _callers) in rows]


async def measure(conversation: Callable[[], Awaitable[object]], conversations: int,
                  profile_to: Path | None) -> dict[str, object]:
    for _ in range(WARM_UP):
        await conversation()
    profiler = cProfile.Profile()
    wall, cpu = time.perf_counter(), time.process_time()
    profiler.enable()
    for _ in range(conversations):
        await conversation()
    profiler.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if profile_to is not None:
        profiler.dump_stats(profile_to)
    stats = pstats.Stats(profiler)
    return {"conversations": conversations, "cpu_ms": round(cpu * 1000 / conversations, 2),
            "calls": round(stats.total_calls / conversations),
            "wall_ms": round(wall * 1000 / conversations, 2), "top_own_time": top_functions(stats, conversations)}


async def run(args: argparse.Namespace) -> dict[str, object]:
    async with stack(1) as st:
        resources = await open_resources(st.settings())
        app = create_app(st.settings(), resources=resources)
        transport = httpx.ASGITransport(app=app)
        task_ids = list(st.task_ids)
        profiles = Path(args.profile_dir) if args.profile_dir else None

        def to(name: str) -> Path | None:
            return profiles / f"{name}.prof" if profiles is not None else None

        async with app.lifespan(), httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            full = await measure(lambda: full_conversation(http, "", st.org, st.token), args.conversations,
                                 to("tool_tool_text"))
            confirm = await measure(lambda: confirm_conversation(http, "", st.org, st.token, task_ids.pop()),
                                    args.conversations, to("confirm_resume"))
    return {"machine": machine(), "command": "python -m bench.turn_work", "checkout": str(Path.cwd()),
            "tool_tool_text": full, "confirm_resume": confirm}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=40)
    parser.add_argument("--profile-dir", default=None, help="write each scenario's cProfile stats there")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
