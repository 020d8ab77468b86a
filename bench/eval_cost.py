"""What a keyed `spotter eval` run costs, estimated without a key: every task's right moves (its reference) through
the real engine and the real SDK at the fake Anthropic server, the summarizer model playing the person, each
request billed with the fake's prompt-cache accounting (a token is 4 characters of canonical JSON; cache reads,
5-minute and 1-hour writes apart) and the service's price book.

    .venv/bin/python -m bench.eval_cost [--model claude-sonnet-4-6] [--user-model claude-haiku-4-5] [--tasks F]

A real model makes more round trips than the reference on the tasks it finds hard and writes longer replies, so
read the figures as the cost of a run where the agent does the right thing the direct way; the README has one.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import redis.asyncio as aioredis

from core import migrations
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from core.logging import configure_logging
from core.settings import load_settings
from evals.report import family_rows
from evals.runner import EvalConfig, run_suite
from evals.tasks import load_tasks, select
from tests.evals.both_sides import BothSides
from tests.fakes.anthropic_server import FakeAnthropic


async def _run(args: argparse.Namespace, data_dir: Path) -> None:
    pg, redis_server = EmbeddedPostgres(data_dir), EmbeddedRedis(data_dir / "redis")
    fake = FakeAnthropic(keep_requests=False).start()
    try:
        migrations.upgrade(pg.url())
        settings = load_settings(app_env="test", data_dir=data_dir, database_url=pg.url(), redis_url=redis_server.url,
                                 agent_model_provider="anthropic", anthropic_api_key="sk-bench-fake",
                                 anthropic_base_url=fake.url, anthropic_max_retries=0, agent_model=args.model,
                                 summarizer_model=args.user_model, nutrition_agents="offline")
        tasks = select(load_tasks(), args.tasks)
        sides = BothSides(tasks)
        fake.respond_with(sides)
        redis = aioredis.from_url(settings.redis_url, decode_responses=True)
        # one try at a time: tasks sharing an opening are told apart by which try started last
        config = EvalConfig(model=args.model, k=1, concurrency=1, user="model",
                            out_root=data_dir / "evals", index=False)
        outcome = await run_suite(settings, config, redis=redis, tasks=tasks, model_factory=sides.factory)
        await redis.aclose()
    finally:
        fake.stop()
        redis_server.stop()
        pg.stop()
    users: dict[str, list[int]] = defaultdict(list)
    for r in outcome.results:
        users[r.family].append(r.user_cost_usd_micros)
    print(f"\n{args.model} as the agent, {args.user_model} as the person; the reference's moves; fake token model\n")
    print(f"{'family':<20} {'tasks':>5} {'agent $/task':>13} {'person $/task':>14} {'tokens/task':>12} {'trips':>6}")
    total_agent = total_user = 0.0
    for row in family_rows(outcome.results, 1):
        if row.family == "all":
            continue
        person = sum(users[row.family]) / len(users[row.family]) / 1e6
        total_agent += row.cost_per_task_usd * row.tasks
        total_user += person * row.tasks
        print(f"{row.family:<20} {row.tasks:>5} {row.cost_per_task_usd:>13.4f} {person:>14.4f} "
              f"{row.tokens_per_task:>12.0f} {row.round_trips_per_task:>6.1f}")
    print(f"\none try of every task: agent ${total_agent:.2f}, simulated person ${total_user:.2f}, "
          f"together ${total_agent + total_user:.2f}; --k K multiplies it by K")
    failed = [r.task for r in outcome.results if not r.passed]
    if failed:
        print(f"(not passed with the reference moves: {', '.join(failed)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="claude-sonnet-4-6")
    parser.add_argument("--user-model", default="claude-haiku-4-5")
    parser.add_argument("--tasks", default=None)
    args = parser.parse_args()
    configure_logging("warning", stream=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="spotter-eval-cost-") as tmp:
        asyncio.run(_run(args, Path(tmp)))


if __name__ == "__main__":
    main()
