"""`spotter worker` / `python -m pipeline.worker`: a separate process that drives nutrition runs."""

from __future__ import annotations

import argparse
import asyncio
import signal
from datetime import timedelta

from core.database import Database
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents


async def serve(database_url: str, *, heartbeat_s: float = 30, drain: bool = False) -> None:
    db = Database(database_url, pool_size=4)
    worker = Worker(db, OfflineAgents())
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, worker.stop)
    try:
        await worker.run(heartbeat=timedelta(seconds=heartbeat_s), drain=drain)
    finally:
        await db.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="spotter worker", description=__doc__)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--heartbeat", type=float, default=30.0, help="seconds before a silent job is re-picked")
    parser.add_argument("--drain", action="store_true", help="exit once the queue is empty")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.database_url, heartbeat_s=args.heartbeat, drain=args.drain))


if __name__ == "__main__":
    main()
