"""`spotter worker` / `python -m pipeline.worker`: a separate process that drives nutrition runs, and delivers the
outbox's messages to members and the freezes' status changes (pipeline/outbox.py, pipeline/freeze_jobs.py).

It picks its agents by the same rule as `spotter serve` (`pipeline.model_agents.uses_model`): the
model-backed ones when the anthropic provider has a key (metered against the org's cap, which needs
the service's Redis for in-flight reservations), the offline ones otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from datetime import timedelta

from agent.tracing_export import build_tracing
from core import redis_clients
from core.database import Database
from core.settings import Settings, load_settings
from pipeline.driver import Limits
from pipeline.jobs import Worker
from pipeline.model_agents import worker_agents


async def serve(settings: Settings, *, heartbeat_s: float = 30, drain: bool = False,
                limits: Limits | None = None) -> None:
    if not settings.database_url:
        raise ValueError("a worker needs DATABASE_URL")
    db = Database(settings.database_url, pool_size=4)
    redis = (redis_clients.connect(settings.redis_url, timeout=settings.redis_timeout_seconds) if settings.redis_url
             else None)
    agents, model = worker_agents(settings, db, redis)
    tracing = build_tracing(settings)  # the runs' agents as spans, when OTLP or Sentry is configured
    worker = Worker.from_settings(db, agents, settings, limits, tracing=tracing)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, worker.stop)
    try:
        await worker.run(heartbeat=timedelta(seconds=heartbeat_s), drain=drain)
    finally:
        tracing.shutdown()
        close = getattr(model, "close", None)
        if close is not None:
            await close()
        if redis is not None:
            await redis.aclose()
        await db.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pipeline.worker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=None, help="default: DATABASE_URL")
    parser.add_argument("--redis-url", default=None, help="default: REDIS_URL (needed by model-backed agents)")
    parser.add_argument("--queue", default=None, help="the job queue to serve (default: NUTRITION_QUEUE)")
    parser.add_argument("--heartbeat", type=float, default=30.0, help="seconds before a silent job is re-picked")
    parser.add_argument("--agent-seconds", type=float, default=None, help="per-agent timeout (default 30)")
    parser.add_argument("--drain", action="store_true", help="exit once the queue is empty")
    args = parser.parse_args(argv)
    overrides = {key: value for key, value in (("database_url", args.database_url), ("redis_url", args.redis_url),
                                               ("nutrition_queue", args.queue)) if value is not None}
    limits = Limits(agent_seconds=args.agent_seconds) if args.agent_seconds else None
    asyncio.run(serve(load_settings(**overrides), heartbeat_s=args.heartbeat, drain=args.drain, limits=limits))


if __name__ == "__main__":
    main()
