"""Fairness between gyms on the job queue (issue 40 item 5): one org floods the queue with 50× the work of nine others.

    .venv/bin/python -m bench.queue_fairness [--orgs 9] [--jobs 10] [--flood 50] [--service-ms 60] [--concurrency 8]
                                             [--runs 5]

Starts an embedded PostgreSQL (its own data dir), migrates it, and serves one entrypoint with the service's own queue
manager (`pipeline.jobs.queue_manager` and `serve_queue`: PgQueuer, the same dequeue, retries, batches and
`WORKER_CONCURRENCY` as `spotter worker`, here `--concurrency`) whose handler takes `--service-ms`. Each scenario enqueues every job, the flooding org's first (the worst case: its
backlog is already there when the others' work arrives), then starts the worker and measures each job's wait: from
the moment the worker starts on the full queue to the moment its handler starts (the queueing delay the order of
service decides; how long the enqueues themselves took is left out, so every scenario starts from the same line):

- `no flood`: the nine orgs' jobs alone (`--jobs` each), enqueued the service's way (`gym.job_queue.enqueue`);
- `flood, fair`: the same, after the flooding org's `--flood` × `--jobs` jobs, enqueued the same way;
- `flood, FIFO`: the same flood with every job at PgQueuer's default priority (what the service did before).

Prints one JSON document: per scenario the nine orgs' p50 / p95 / max wait, the flooding org's, and the queue's
throughput (jobs finished per second from the worker's start to the last job's end); the rise of the nine orgs' p95
with the flood, fair and FIFO, each run against its own baseline, median of runs (the target: fair ≤ 20 %; round
robin between ten orgs gives about +11 %); the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

import asyncpg
from pgqueuer import Job, Queries

from core import migrations
from core.embedded import EmbeddedPostgres
from gym.job_queue import ORG_HEADER, enqueue_on
from pipeline.jobs import dsn_of, queue_manager, serve_queue

ENTRYPOINT = "bench_fairness"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


def _summary(waits: list[float]) -> dict[str, float]:
    return {"n": len(waits), "p50_ms": round(_pct(waits, 0.5) * 1000, 1), "p95_ms": round(_pct(waits, 0.95) * 1000, 1),
            "max_ms": round(max(waits, default=0) * 1000, 1)}


async def _enqueue(conn: asyncpg.Connection, org: uuid.UUID, fair: bool) -> None:
    payload = json.dumps({"org": str(org)}).encode()
    if fair:
        await enqueue_on(conn, ENTRYPOINT, payload, org_id=org)
    else:
        await Queries.from_asyncpg_connection(conn).enqueue(ENTRYPOINT, payload, headers={ORG_HEADER: str(org)})


async def scenario(dsn: str, *, others: list[uuid.UUID], jobs: int, flood_org: uuid.UUID | None, flood: int,
                   fair: bool, service_s: float, concurrency: int) -> dict:
    conn = await asyncpg.connect(dsn)
    worker_conn = await asyncpg.connect(dsn)
    try:
        await Queries.from_asyncpg_connection(conn).clear_queue(ENTRYPOINT)
        started: dict[str, list[float]] = {"others": [], "flood": []}
        finished: list[float] = []
        total = len(others) * jobs + (flood * jobs if flood_org else 0)
        manager = None
        first = 0.0

        async def handler(job: Job) -> None:
            now = time.time()
            data = json.loads(job.payload or b"{}")
            started["flood" if flood_org and data["org"] == str(flood_org) else "others"].append(now - first)
            await asyncio.sleep(service_s)
            finished.append(time.time())
            if len(finished) == total and manager is not None:
                manager.shutdown.set()

        if flood_org is not None:
            for _ in range(flood * jobs):
                await _enqueue(conn, flood_org, fair)
        for _ in range(jobs):
            for org in others:
                await _enqueue(conn, org, fair)
        manager = queue_manager(worker_conn, {ENTRYPOINT: handler})
        first = time.time()
        await asyncio.wait_for(serve_queue(manager, dequeue_timeout=timedelta(seconds=1), concurrency=concurrency),
                               timeout=600)
        elapsed = max(finished) - first
        return {"others": _summary(started["others"]), "flood": _summary(started["flood"]) if flood_org else None,
                "jobs": total, "throughput_jobs_per_s": round(total / elapsed, 1) if elapsed > 0 else None}
    finally:
        await worker_conn.close()
        await conn.close()


async def main_async(args: argparse.Namespace) -> dict:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="spotter-bench-queue-") as tmp:
        pg = EmbeddedPostgres(Path(tmp))
        try:
            migrations.upgrade(pg.url())
            dsn = dsn_of(pg.url())
            others = [uuid.uuid4() for _ in range(args.orgs)]
            flood_org = uuid.uuid4()
            runs = []
            for _ in range(args.runs):  # the scenarios interleaved run by run, so drift hits all alike
                common = {"others": others, "jobs": args.jobs, "service_s": args.service_ms / 1000,
                          "concurrency": args.concurrency}
                base = await scenario(dsn, flood_org=None, flood=0, fair=True, **common)
                fair = await scenario(dsn, flood_org=flood_org, flood=args.flood, fair=True, **common)
                fifo = await scenario(dsn, flood_org=flood_org, flood=args.flood, fair=False, **common)
                runs.append({"no flood": base, "flood, fair": fair, "flood, FIFO": fifo})
        finally:
            pg.stop()
    p95 = {name: statistics.median(r[name]["others"]["p95_ms"] for r in runs) for name in runs[0]}

    def rise(name: str) -> str:  # run by run against the same run's baseline, then the median
        ratios = [r[name]["others"]["p95_ms"] / r["no flood"]["others"]["p95_ms"] - 1 for r in runs]
        return f"{statistics.median(ratios) * 100:+.1f} % (runs: {', '.join(f'{x * 100:+.0f}' for x in ratios)})"

    return {
        "command": "python -m bench.queue_fairness " + " ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()),
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "loadavg_before": [round(x, 2) for x in load_before],
                    "loadavg_after": [round(x, 2) for x in os.getloadavg()]},
        "others_p95_ms_median_of_runs": p95,
        "others_p95_rise_with_flood_median_of_runs": {"fair": rise("flood, fair"), "FIFO": rise("flood, FIFO")},
        "throughput_jobs_per_s_median": {name: statistics.median(r[name]["throughput_jobs_per_s"] for r in runs)
                                         for name in runs[0]},
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--orgs", type=int, default=9, help="orgs that do not flood")
    parser.add_argument("--jobs", type=int, default=10, help="jobs per org that does not flood")
    parser.add_argument("--flood", type=int, default=50, help="the flooding org's work, in multiples of --jobs")
    parser.add_argument("--service-ms", type=float, default=60.0, help="how long each job's handler takes")
    parser.add_argument("--concurrency", type=int, default=8, help="WORKER_CONCURRENCY")
    parser.add_argument("--runs", type=int, default=5)
    print(json.dumps(asyncio.run(main_async(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
