"""Fairness between gyms on the job queue (issue 40 item 5): a job queues behind its own org's queued jobs, so the
service's worker takes one job of every waiting org before a second of any (bench/queue_fairness.py measures the
waits); before, PgQueuer served them in arrival order."""

from __future__ import annotations

import json
import uuid

import asyncpg
from pgqueuer import Job, Queries

from gym.job_queue import enqueue_on
from pipeline.jobs import dsn_of, queue_manager, serve_queue

QUEUE = f"fairness_test_{uuid.uuid4().hex[:8]}"


async def test_a_flooding_org_waits_behind_every_other_orgs_first_job(embedded_pg) -> None:
    flood, quiet_a, quiet_b = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    dsn = dsn_of(embedded_pg.url())
    conn, worker = await asyncpg.connect(dsn), await asyncpg.connect(dsn)
    served: list[str] = []
    try:
        priorities = [await enqueue_on(conn, QUEUE, json.dumps({"n": f"flood{i}"}).encode(), org_id=flood)
                      for i in range(5)]
        priorities += [await enqueue_on(conn, QUEUE, json.dumps({"n": name}).encode(), org_id=org)
                       for org, name in ((quiet_a, "a0"), (quiet_b, "b0"), (quiet_a, "a1"))]
        assert priorities == [0, -1, -2, -3, -4, 0, 0, -1]  # each behind its own org's queued jobs only

        async def handler(job: Job) -> None:
            served.append(json.loads(job.payload or b"{}")["n"])

        await serve_queue(queue_manager(worker, {QUEUE: handler}), drain=True)
    finally:
        await Queries.from_asyncpg_connection(conn).clear_queue(QUEUE)
        await worker.close()
        await conn.close()
    assert sorted(served) == sorted(["flood0", "flood1", "flood2", "flood3", "flood4", "a0", "b0", "a1"])
    # the quiet orgs' first jobs come before the flood's second, their second before its third
    assert served.index("a0") < served.index("flood1") and served.index("b0") < served.index("flood1")
    assert served.index("a1") < served.index("flood2")
