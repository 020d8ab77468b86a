"""Agent overhead per model round trip, and throughput, over the full HTTP path.

    .venv/bin/python -m bench.turn [--conversations 60] [--concurrency 8]

Starts embedded Postgres + Redis, the scripted fake model (bench/scripted_model.py) and `spotter serve`
as separate processes, then drives the same 3-round-trip conversation (tool, tool, text) through
auth → SSE → persistence → Redis lock → cost, and the same three calls through the raw AsyncAnthropic
client against the same fake. Overhead per round trip = (p50 full − p50 raw) / 3. A second floor sends the
same calls through Spotter's model client alone (agent/model.py: the SDK with the tool definitions encoded
once), so the overhead is also printed without the part of the saving that is the request encoding. A second scenario adds
a confirmation and its resume; then throughput at `--concurrency`, and last `--streams` new conversations
opened at once (time to the first SSE frame and to the end). After the timings, the same two conversations
run through an in-process copy of the app (same settings, same routes) with the app engine's statements counted
(bench/statements.py): statements, BEGINs and COMMITs per model round trip. Prints one JSON document.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import anthropic
import httpx
from sqlalchemy import text

from agent.model import AnthropicModel, ModelRequest, ModelResponse
from api.app import create_app
from api.auth import DevKeys
from api.resources import open_resources
from bench.statements import per_round_trip
from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from core.settings import Settings
from tests.servers import free_port
from tests.sse import parse_frames

ROOT = Path(__file__).resolve().parent.parent


def _spawn(module_args: list[str], env: dict, stdout) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *module_args], cwd=ROOT, env=env, stdout=stdout)


def _wait_http(url: str, timeout: float = 120.0) -> None:  # a wait, not a budget: a loaded machine starts slowly
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


async def _setup_tenant(db_url: str, keys: DevKeys) -> tuple[str, str, list[str]]:
    db = Database(db_url)
    org_id, user_id = uuid.uuid4(), uuid.uuid4()
    clerk = f"user_bench_{user_id.hex[:8]}"
    task_ids = []
    async with db.owner() as s:
        await s.execute(text("INSERT INTO organizations (id, name, slug, tier, timezone, ai_daily_budget_usd_micros) "
                             "VALUES (:i, 'Bench Gym', :s, 'elite', 'Asia/Jerusalem', -1)"),
                        {"i": org_id, "s": f"bench-{org_id.hex}"})
        await s.execute(text("INSERT INTO users (id, clerk_id, email, name) VALUES (:i, :c, :e, 'Bench Owner')"),
                        {"i": user_id, "c": clerk, "e": f"{clerk}@bench.test"})
        await s.execute(text("INSERT INTO memberships (org_id, user_id, role) VALUES (:o, :u, 'owner')"),
                        {"o": org_id, "u": user_id})
        for i in range(400):
            task_id = uuid.uuid4()
            task_ids.append(str(task_id))
            await s.execute(text("INSERT INTO tasks (id, org_id, title) VALUES (:i, :o, :t)"),
                            {"i": task_id, "o": org_id, "t": f"bench task {i}"})
    await db.dispose()
    return str(org_id), keys.sign(sub=clerk, email=f"{clerk}@bench.test", ttl_seconds=3600), task_ids


async def _post_sse(http: httpx.AsyncClient, url: str, body: dict, token: str) -> list[tuple[str, dict]]:
    async with http.stream("POST", url, json=body, headers={"authorization": f"Bearer {token}"}) as response:
        raw = (await response.aread()).decode()
    frames = parse_frames(raw)
    if not frames or frames[-1][0] != "done" or any(name == "error" for name, _ in frames):
        raise RuntimeError(f"turn failed: {raw[:500]}")
    return frames


async def full_conversation(http, base: str, org: str, token: str) -> float:
    started = time.perf_counter()
    await _post_sse(http, f"{base}/organizations/{org}/agent/messages", {"message": "what's on my list today?"},
                    token)
    return time.perf_counter() - started


async def confirm_conversation(http, base: str, org: str, token: str, task_id: str) -> float:
    started = time.perf_counter()
    frames = await _post_sse(http, f"{base}/organizations/{org}/agent/messages",
                             {"message": f"delete task {task_id}"}, token)
    conversation = next(d for n, d in frames if n == "conversation_started")["conversationId"]
    pending = next(d for n, d in frames if n == "confirmation_pending")["toolUseId"]
    await _post_sse(http, f"{base}/organizations/{org}/agent/conversations/{conversation}/confirm/{pending}",
                    {"approved": True}, token)
    return time.perf_counter() - started


async def timed_stream(http, base: str, org: str, token: str) -> tuple[float, float, str | None]:
    """One new conversation: seconds to its first SSE frame and to its end, and its error code if it failed."""
    started = time.perf_counter()
    first: float | None = None
    raw = b""
    try:
        async with http.stream("POST", f"{base}/organizations/{org}/agent/messages",
                               json={"message": "what's on my list today?"},
                               headers={"authorization": f"Bearer {token}"}) as response:
            async for chunk in response.aiter_bytes():
                if first is None and b"\n\n" in raw + chunk:
                    first = time.perf_counter() - started
                raw += chunk
    except httpx.HTTPError as exc:
        return time.perf_counter() - started, time.perf_counter() - started, type(exc).__name__
    total = time.perf_counter() - started
    frames = parse_frames(raw.decode())
    if response.status_code != 200:
        return total, total, f"http_{response.status_code}"
    error = next((data.get("code", "error") for name, data in frames if name == "error"), None)
    if error is None and (not frames or frames[-1][0] != "done"):
        error = "no_done"
    return (first if first is not None else total), total, error


async def concurrent_streams(http, base: str, org: str, token: str, n: int) -> dict:
    """`n` new conversations at once against the instant scripted model: first frame and total, p50/p95."""
    results = await asyncio.gather(*[timed_stream(http, base, org, token) for _ in range(n)])
    firsts, totals = [r[0] for r in results], [r[1] for r in results]
    errors: dict[str, int] = {}
    for _, _, code in results:
        if code is not None:
            errors[code] = errors.get(code, 0) + 1
    return {"streams": n, "first_frame_p50_ms": round(p(firsts, 0.5)), "first_frame_p95_ms": round(p(firsts, 0.95)),
            "total_p50_ms": round(p(totals, 0.5)), "total_p95_ms": round(p(totals, 0.95)), "failed": errors}


def raw_payload() -> dict:
    """The request an SDK user would send, built once: the same system, tools and first user message.

    Tools and system are held constant across calls (as any SDK user holds them), so the floor measures
    the model round trip and the SDK, never our request building.
    """
    from datetime import UTC, datetime

    from agent.copilot import STAFF_COPILOT
    from agent.request import build_request, tool_definitions, turn_context, user_turn_content
    from core.tenancy import Caller, OrgAccess
    from tools.catalog import build_registry

    access = OrgAccess(org_id=uuid.uuid4(), org_name="Bench Gym", tier="elite", timezone="Asia/Jerusalem",
                       locale="en", budget_override_usd_micros=-1, role="owner")
    caller = Caller(user_id=uuid.uuid4(), clerk_id="user_raw", email="raw@bench.test", name="Bench Owner")
    specs = build_registry().for_role("owner")
    first = user_turn_content("what's on my list today?", page_context=None, ambient=None,
                              turn=turn_context(access, caller, "en", datetime.now(UTC)))
    request = build_request(model="claude-sonnet-4-6", specs=specs, access=access,
                            messages=[{"role": "user", "content": first}], max_tokens=4096,
                            tools_cache=tool_definitions(specs, STAFF_COPILOT.loaded_tools(specs)))
    return {"model": request.model, "max_tokens": request.max_tokens, "system": request.system,
            "tools": request.tools, "first": request.messages[0]}


async def raw_conversation(client: anthropic.AsyncAnthropic, calls: int, payload: dict) -> float:
    """The same model calls with no agent around them: the payload built once, messages appended."""
    messages: list[dict] = [payload["first"]]
    started = time.perf_counter()
    for _ in range(calls):
        async with client.messages.stream(model=payload["model"], max_tokens=payload["max_tokens"],
                                          system=payload["system"], tools=payload["tools"],
                                          messages=messages) as stream:
            async for _event in stream:
                pass
            final = await stream.get_final_message()
        content = [b.model_dump(exclude_none=True) for b in final.content]
        messages.append({"role": "assistant", "content": content})
        uses = [b for b in content if b["type"] == "tool_use"]
        if not uses:
            break
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": u["id"],
                                                      "content": "{}"} for u in uses]})
    return time.perf_counter() - started


async def encoded_conversation(model: AnthropicModel, calls: int, payload: dict) -> float:
    """The same model calls through Spotter's model client alone (the SDK sending a body whose tool
    definitions were encoded once, agent/model.py), no agent around it: the floor without the SDK's
    per-call copy and encoding of the constant catalog, which a plain SDK user pays."""
    messages: list[dict] = [payload["first"]]
    started = time.perf_counter()
    for _ in range(calls):
        request = ModelRequest(model=payload["model"], system=payload["system"], tools=payload["tools"],
                               messages=messages, max_tokens=payload["max_tokens"])
        final = [item async for item in model.stream(request) if isinstance(item, ModelResponse)][0]
        messages = [*messages, {"role": "assistant", "content": final.content}]
        uses = [b for b in final.content if b["type"] == "tool_use"]
        if not uses:
            break
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": u["id"],
                                                      "content": "{}"} for u in uses]})
    return time.perf_counter() - started


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


@dataclass
class Stack:
    """Embedded Postgres + Redis, the scripted model and `spotter serve`, each its own process."""

    pg: EmbeddedPostgres
    redis_url: str
    base: str
    bases: list[str]  # every `spotter serve` process (base is the first)
    model_url: str
    data_dir: Path
    org: str
    token: str
    task_ids: list[str]

    def settings(self) -> Settings:
        """What the `spotter serve` processes run with."""
        return Settings(app_env="test", database_url=self.pg.url(), redis_url=self.redis_url, data_dir=self.data_dir,
                        anthropic_api_key="sk-bench", anthropic_base_url=self.model_url, anthropic_max_retries=0,
                        log_level="warning")


@contextlib.asynccontextmanager
async def stack(servers: int = 1, turn_slots: int | None = None) -> AsyncIterator[Stack]:
    data_dir = Path(tempfile.mkdtemp(prefix="spotter-bench-"))
    pg, rd = EmbeddedPostgres(data_dir), EmbeddedRedis(data_dir)
    procs: list[subprocess.Popen] = []
    try:
        migrations.upgrade(pg.url())
        keys = DevKeys(data_dir)
        org, token, task_ids = await _setup_tenant(pg.url(), keys)
        model_port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        procs.append(_spawn(["bench.scripted_model", str(model_port)], env, subprocess.PIPE))
        assert procs[0].stdout is not None and procs[0].stdout.readline().strip() == b"ready"
        model_url = f"http://127.0.0.1:{model_port}"
        app_env = {**env, "DATABASE_URL": pg.url(), "REDIS_URL": rd.url, "DATA_DIR": str(data_dir),
                   "ANTHROPIC_API_KEY": "sk-bench", "ANTHROPIC_BASE_URL": model_url,
                   "ANTHROPIC_MAX_RETRIES": "0", "LOG_LEVEL": "warning", "APP_ENV": "test"}
        if turn_slots is not None:
            app_env["AGENT_MAX_CONCURRENT_TURNS"] = str(turn_slots)
        bases = []
        for _ in range(servers):  # stateless API processes sharing one Postgres and one Redis
            app_port = free_port()
            procs.append(_spawn(["api.cli", "serve", "--port", str(app_port)], app_env, subprocess.DEVNULL))
            bases.append(f"http://127.0.0.1:{app_port}")
        for base in bases:
            _wait_http(f"{base}/health")
        yield Stack(pg=pg, redis_url=rd.url, base=bases[0], bases=bases, model_url=model_url, data_dir=data_dir,
                    org=org, token=token, task_ids=task_ids)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)
        rd.stop()
        pg.stop()
        shutil.rmtree(data_dir, ignore_errors=True)  # pgserver may leave files owned by its own user behind


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return {"nproc": os.cpu_count(), "cpu": model, "platform": platform.platform(),
            "python": platform.python_version()}


async def statements(st: Stack, task_ids: list[str]) -> dict:
    """Statements per model round trip of both scenarios, through an in-process app on the stack's servers."""
    resources = await open_resources(st.settings())
    engine = resources.db.app_engine.sync_engine
    app = create_app(st.settings(), resources=resources)
    transport = httpx.ASGITransport(app=app)  # this loop, so the resources stay on it
    try:
        async with app.lifespan(), httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            await full_conversation(http, "", st.org, st.token)  # caches warm, as in the timed runs
            await confirm_conversation(http, "", st.org, st.token, task_ids.pop())
            full = await per_round_trip(engine, lambda: full_conversation(http, "", st.org, st.token), round_trips=3)
            confirm = await per_round_trip(
                engine, lambda: confirm_conversation(http, "", st.org, st.token, task_ids.pop()), round_trips=2)
    finally:
        await resources.close()
    return {"tool_tool_text": full, "confirm_resume": confirm}


async def run(args: argparse.Namespace) -> dict:
    async with stack(args.servers, args.turn_slots) as st:
        base, org, token = st.base, st.org, st.token
        task_ids = list(st.task_ids)
        payload = raw_payload()
        raw_client = anthropic.AsyncAnthropic(api_key="sk-bench", base_url=st.model_url, max_retries=0)
        model_client = AnthropicModel(api_key="sk-bench", base_url=st.model_url, max_retries=0)
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            for _ in range(5):  # warm up both paths
                await full_conversation(http, base, org, token)
                await raw_conversation(raw_client, 3, payload)
                await encoded_conversation(model_client, 3, payload)
            full, raw, enc = [], [], []
            for _ in range(args.conversations):  # interleaved, so drift hits all alike
                full.append(await full_conversation(http, base, org, token))
                raw.append(await raw_conversation(raw_client, 3, payload))
                enc.append(await encoded_conversation(model_client, 3, payload))
            confirm, raw2, enc2 = [], [], []
            for i in range(3):  # warm up the confirmation path too
                await confirm_conversation(http, base, org, token, task_ids[-1 - i])
            for i in range(args.conversations):
                confirm.append(await confirm_conversation(http, base, org, token, task_ids[i]))
                raw2.append(await raw_conversation(raw_client, 2, payload))
                enc2.append(await encoded_conversation(model_client, 2, payload))

            async def worker(n: int, server: str) -> None:
                for _ in range(n):
                    await full_conversation(http, server, org, token)

            async def raw_worker(n: int) -> None:
                for _ in range(n):
                    await raw_conversation(raw_client, 3, payload)

            per_worker = max(1, args.throughput_conversations // args.concurrency)
            started = time.perf_counter()
            await asyncio.gather(*[worker(per_worker, st.bases[i % len(st.bases)]) for i in range(args.concurrency)])
            elapsed = time.perf_counter() - started
            started = time.perf_counter()  # the floor: the same three calls per conversation, raw SDK, same concurrency
            await asyncio.gather(*[raw_worker(per_worker) for _ in range(args.concurrency)])
            raw_elapsed = time.perf_counter() - started
        streams = None
        if args.streams:
            limits = httpx.Limits(max_connections=args.streams, max_keepalive_connections=args.streams)
            async with httpx.AsyncClient(timeout=120, limits=limits) as http:
                streams = await concurrent_streams(http, base, org, token, args.streams)
        await raw_client.close()
        await model_client.close()
        # last: the in-process app configures this process's logging (tasks from the end of the list)
        counted = await statements(st, task_ids)
        return {
            "machine": machine(),
            "command": "python -m bench.turn " + " ".join(sys.argv[1:]),
            "scenario_tool_tool_text": {
                "conversations": args.conversations, "p50_full_ms": round(p(full, 0.5), 2),
                "p95_full_ms": round(p(full, 0.95), 2), "p50_raw_sdk_ms": round(p(raw, 0.5), 2),
                "overhead_per_round_trip_ms": round((p(full, 0.5) - p(raw, 0.5)) / 3, 2),
                "p50_model_client_ms": round(p(enc, 0.5), 2),
                "overhead_over_model_client_per_round_trip_ms": round((p(full, 0.5) - p(enc, 0.5)) / 3, 2)},
            "scenario_confirm_resume": {
                "p50_full_ms": round(p(confirm, 0.5), 2), "p50_raw_sdk_ms": round(p(raw2, 0.5), 2),
                "overhead_per_round_trip_ms": round((p(confirm, 0.5) - p(raw2, 0.5)) / 2, 2),
                "p50_model_client_ms": round(p(enc2, 0.5), 2),
                "overhead_over_model_client_per_round_trip_ms": round((p(confirm, 0.5) - p(enc2, 0.5)) / 2, 2)},
            "throughput": {"servers": args.servers, "concurrency": args.concurrency, "conversations": per_worker * args.concurrency,
                           "conversations_per_s": round(per_worker * args.concurrency / elapsed, 1),
                           "raw_sdk_conversations_per_s": round(per_worker * args.concurrency / raw_elapsed, 1),
                           "ratio_to_raw_sdk": round(raw_elapsed / elapsed, 3)},
            "concurrent_streams": streams, "turn_slots": args.turn_slots,
            "statements_per_round_trip": counted,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--throughput-conversations", type=int, default=240)
    parser.add_argument("--streams", type=int, default=200,
                        help="new conversations opened at once at the end (first frame / total p95); 0: skip")
    parser.add_argument("--turn-slots", type=int, default=None,
                        help="AGENT_MAX_CONCURRENT_TURNS for the spotter serve processes (default: theirs, no limit)")
    parser.add_argument("--servers", type=int, default=1,
                        help="`spotter serve` processes sharing the Postgres and Redis; throughput spreads over them")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
