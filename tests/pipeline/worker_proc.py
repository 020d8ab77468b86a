"""A worker process for the crash test: the real Worker and queue; `--hang-chef` makes the CHEF
(a fake at the model boundary) never answer, so the process can be killed mid-run."""

from __future__ import annotations

import argparse
import asyncio
from datetime import timedelta

from core.database import Database
from pipeline.driver import Limits
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.pipeline.fakes import ScriptedAgents, hang


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database_url")
    parser.add_argument("entrypoint")
    parser.add_argument("--hang-chef", action="store_true")
    args = parser.parse_args()
    db = Database(args.database_url, pool_size=2)
    agents = ScriptedAgents(CHEF=[hang] * 5) if args.hang_chef else OfflineAgents()
    worker = Worker(db, agents, Limits(agent_seconds=120, run_seconds=600), entrypoint=args.entrypoint)
    await worker.run(heartbeat=timedelta(seconds=1), dequeue_timeout=timedelta(seconds=1))


if __name__ == "__main__":
    asyncio.run(main())
