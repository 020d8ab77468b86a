"""Context and cost per turn of scripted trainer sessions over the real engine (TRAINER.md "Context budget").

    .venv/bin/python -m bench.trainer [--turns 20] [--script narrowing|issue24|both]

Starts embedded Postgres + Redis and the fake Anthropic server (tests/fakes: real HTTP, the real SDK, the
deterministic prompt-cache accounting where a token is 4 characters of canonical JSON), seeds Dani's demo
record (six weeks of logs, the injury, two locations) and drives one session through the trainer persona on
the one engine (agent/orchestrator.py) with the script of tests/trainer/session_script.py: a chest workout,
eight turns that fetch the history and log one set, a swap, seven more logged sets, a statistics question and
a schedule; the knowledge selector is answered with the keyword rules' pick. Per turn it prints the context
the model read at the turn's last request (uncached input + cache reads + cache writes, as the fake billed
it), its growth over the previous turn, the model requests and the turn's cost (the service's price book on
the fake's usage); then the mean and largest growth per logged set. No timing: the figures are exact for the
fake's token model, so they are the same on any machine.

`--script narrowing` (issue 38 item 6; run first by default) is the realistic session where the selector picks
`workout_history` for 14 days every turn while the model fetches 30 days in the same turn, then logs one set:
a workout and eight such turns (`narrowing_session`). Its "tokens per logged set" must stay within 1,500.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent
from agent.threads import Opening
from agent.trainer.persona import TRAINER
from bench.turn import machine
from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from core.logging import configure_logging
from core.settings import load_settings
from core.tenancy import find_caller_in_org
from gym.demo.training_record import seed_dani
from tests.fakes.anthropic_server import FakeAnthropic
from tests.trainer.session_script import (
    ScriptedModel,
    ScriptedTurn,
    narrowing_session,
    prompt_tokens,
    session,
)

BUDGET_PER_LOGGED_SET = 1_500


async def _member(db: Database) -> tuple[uuid.UUID, uuid.UUID, str]:
    """A fresh org with one member user linked to a member record seeded as Dani."""
    org_id, user_id, member_id = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    clerk = f"user_bench_{user_id.hex[:8]}"
    async with db.owner() as s:
        await s.execute(text("INSERT INTO organizations (id, name, slug, tier, timezone, ai_daily_budget_usd_micros) "
                             "VALUES (:i, 'Bench Gym', :s, 'elite', 'UTC', -1)"), {"i": org_id, "s": f"b-{org_id.hex}"})
        await s.execute(text("INSERT INTO users (id, clerk_id, email, name) VALUES (:i, :c, :e, 'Dani Mizrahi')"),
                        {"i": user_id, "c": clerk, "e": f"{clerk}@bench.test"})
        await s.execute(text("INSERT INTO memberships (org_id, user_id, role) VALUES (:o, :u, 'member')"),
                        {"o": org_id, "u": user_id})
        await s.execute(text("INSERT INTO members (id, org_id, first_name, last_name, full_name, user_id) "
                             "VALUES (:i, :o, 'Dani', 'Mizrahi', 'Dani Mizrahi', :u)"),
                        {"i": member_id, "o": org_id, "u": user_id})
        await seed_dani(s, org_id, member_id, datetime.now(UTC))
    return org_id, member_id, clerk


async def measure(scripts: dict[str, list[ScriptedTurn]]) -> dict[str, Any]:
    """Each script as one session of a fresh member seeded as Dani, on one embedded Postgres + Redis."""
    data_dir = Path(tempfile.mkdtemp(prefix="spotter-bench-trainer-"))
    pg, rd = EmbeddedPostgres(data_dir), EmbeddedRedis(data_dir / "redis")
    fake = FakeAnthropic().start()
    out: dict[str, Any] = {}
    try:
        migrations.upgrade(pg.url())
        settings = load_settings(app_env="test", data_dir=data_dir, database_url=pg.url(), redis_url=rd.url,
                                 auth_mode="dev", agent_model_provider="anthropic", anthropic_api_key="sk-bench",
                                 anthropic_base_url=fake.url, anthropic_max_retries=0)
        db = Database(pg.url())
        redis = aioredis.from_url(settings.redis_url, decode_responses=True)
        services = build_agent(settings, db, redis, titles=False, rag_worker=False)
        try:
            for name, script in scripts.items():
                out[name] = _summary(await _play(services, db, fake, script))
        finally:
            await services.close()
            await redis.aclose()
            await db.dispose()
    finally:
        fake.stop()
        rd.stop()
        pg.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
    return {"machine": {**machine(), "load_average": os.getloadavg()},
            "command": "python -m bench.trainer " + " ".join(sys.argv[1:]), "sessions": out}


async def _play(services: Any, db: Database, fake: FakeAnthropic, script: list[ScriptedTurn]) -> list[dict[str, Any]]:
    org_id, member_id, clerk = await _member(db)
    async with db.scope(org_id=org_id) as s:
        caller, access = await find_caller_in_org(s, clerk, org_id)
    model = ScriptedModel(fake)
    rows: list[dict[str, Any]] = []
    sid, previous, checkpoints = None, None, 0
    for n, scripted in enumerate(script, start=1):
        model.play(scripted)
        seen = len(fake.requests)
        turn = await services.orchestrator.open_send(
            persona=TRAINER, access=access, caller=caller, member_id=member_id, locale="en",
            trace_id=uuid.uuid4().hex, opening=Opening(scripted.message), thread_id=sid)
        frames = [(e.type, e.data) async for e in turn.events()]
        errors = [d for t, d in frames if t == "error"]
        if errors:
            raise RuntimeError(f"turn {n} failed: {errors}")
        done = frames[-1][1]
        sid = uuid.UUID(done["sessionId"])
        requests = [r for r in fake.requests[seen:] if r.body.get("tools")]
        context = prompt_tokens(requests[-1].usage)
        async with db.owner() as s:
            now_checkpoints = await s.scalar(text(
                "SELECT count(*) FROM trainer_events WHERE session_id = :s AND type = 'checkpoint'"), {"s": sid})
        restarted, checkpoints = now_checkpoints > checkpoints, now_checkpoints
        rows.append({"turn": n, "kind": scripted.kind, "context_tokens": context, "checkpoint": restarted,
                     "growth_tokens": None if previous is None or restarted else context - previous,
                     "model_requests": len(requests),
                     "billed_input_tokens": sum(prompt_tokens(r.usage) for r in requests),
                     "cost_usd_micros": done["usage"]["costUsdMicros"]})
        previous = context
    return rows


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    growth = [r["growth_tokens"] for r in rows if r["kind"] == "log_set" and r["growth_tokens"] is not None]
    first_eight = [r["growth_tokens"] for r in rows[1:9] if r["growth_tokens"] is not None]
    return {"turns": rows, "checkpoints": sum(r["checkpoint"] for r in rows),
            "growth_per_logged_set_tokens": {"mean": round(sum(growth) / len(growth)) if growth else None,
                                             "max": max(growth, default=None),
                                             "mean_first_eight": round(sum(first_eight) / len(first_eight))
                                             if first_eight else None,
                                             "budget": BUDGET_PER_LOGGED_SET},
            "session_cost_usd": round(sum(r["cost_usd_micros"] for r in rows) / 1e6, 4),
            "session_billed_input_tokens": sum(r["billed_input_tokens"] for r in rows)}


def _table(name: str, result: dict[str, Any]) -> str:
    growth = result["growth_per_logged_set_tokens"]
    lines = [f"{name}: {growth['mean']} tokens per logged set on average, {growth['max']} at most "
             f"(budget {BUDGET_PER_LOGGED_SET:,})",
             "turn  kind       context      growth  requests  billed input   cost $"]
    for r in result["turns"]:
        growth = "checkpoint" if r["checkpoint"] else "" if r["growth_tokens"] is None else f"{r['growth_tokens']:+d}"
        lines.append(f"{r['turn']:>4}  {r['kind']:<8} {r['context_tokens']:>9} {growth:>11} {r['model_requests']:>9} "
                     f"{r['billed_input_tokens']:>13} {r['cost_usd_micros'] / 1e6:>7.4f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=20, help="turns of the issue-24 session (default 20)")
    parser.add_argument("--script", choices=("narrowing", "issue24", "both"), default="both")
    args = parser.parse_args()
    configure_logging("warning")
    scripts = {"narrowing": narrowing_session(9), "issue24": session(args.turns)}
    result = asyncio.run(measure({k: v for k, v in scripts.items() if args.script in (k, "both")}))
    for name, summary in result["sessions"].items():
        print(_table(name, summary))
        print(json.dumps({k: v for k, v in summary.items() if k != "turns"}, indent=2))
    print(json.dumps({k: v for k, v in result.items() if k != "sessions"}, indent=2))


if __name__ == "__main__":
    main()
