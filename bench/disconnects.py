"""Forced disconnects at random frames across two API processes behind nginx (issue 40 item 6).

    .venv/bin/python -m bench.disconnects [--disconnects 1000] [--concurrency 8] [--chunks 40] [--delay-ms 20]

Starts embedded PostgreSQL + Redis, the scripted model (bench/scripted_model.py: one text answer of `--chunks`
deltas, `--delay-ms` apart) and the cluster of README "Several API processes" (tests/cluster.py: two `spotter serve`
and nginx from deploy/nginx.conf). Then, `--concurrency` at a time, it opens turns through the proxy and cuts each
turn's connection at random frames (0 to 3 cuts per turn, each at a frame drawn uniformly from those left, the
first possibly before any frame), reconnecting every time through the proxy with `Last-Event-ID` until `done`,
until `--disconnects` cuts were made. For every turn it checks what the client assembled against the turn's whole
stream read again from seq 0: frames lost and frames duplicated. Prints one JSON document: cuts, turns, frames,
lost, duplicated, reconnect-to-next-frame p50 / p95 / max (from sending the reconnect to its first frame), how
many reconnects reached the other API process, and the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from api.auth import DevKeys
from bench.turn import _setup_tenant
from core import migrations
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from tests.cluster import Cluster
from tests.servers import free_port
from tests.sse import open_sse

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Tally:
    cuts: int = 0
    turns: int = 0
    frames: int = 0
    lost: int = 0
    duplicated: int = 0
    errors: int = 0
    other_process: int = 0
    reconnect_s: list[float] = field(default_factory=list)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


async def one_turn(http: httpx.AsyncClient, org: str, token: str, rng: random.Random, frames_per_turn: int,
                   tally: Tally, budget: list[int]) -> None:
    headers = {"authorization": f"Bearer {token}"}
    base = f"/organizations/{org}/agent"
    cuts = min(rng.randint(0, 3), budget[0])
    budget[0] -= cuts
    got: list[tuple[int, str, dict]] = []
    turn_id, served_by, done = None, None, False
    remaining = frames_per_turn
    first = True
    while not done:
        cut_after = rng.randint(0, max(0, remaining - 2)) if cuts > 0 else None
        if first:
            request = open_sse(http, f"{base}/messages", json_body={"message": "count them"}, headers=headers)
        else:
            last = f"{turn_id}:{got[-1][0]}" if got else None
            request = open_sse(http, f"{base}/turns/{turn_id}/stream", method="GET",
                               headers={**headers, **({"last-event-id": last} if last else {})})
        sent = time.monotonic()
        async with request as stream:
            turn_id = turn_id or stream.result.headers.get("x-turn-id")
            upstream = stream.result.headers.get("x-upstream")
            if not first and upstream != served_by:
                tally.other_process += 1
            served_by = upstream
            read_here = 0
            while cut_after is None or read_here < cut_after:
                frame = await stream.next_frame()
                if frame is None:
                    break
                if read_here == 0 and not first:
                    tally.reconnect_s.append(time.monotonic() - sent)
                read_here += 1
                seq = int(stream.result.ids[-1].rsplit(":", 1)[1])
                got.append((seq, *frame))
                if frame[0] == "done":
                    done = True
                    break
            if cut_after is not None and not done:
                cuts -= 1
                tally.cuts += 1
                remaining = max(1, remaining - read_here)
        first = False
    async with open_sse(http, f"{base}/turns/{turn_id}/stream", method="GET", headers=headers) as whole:
        full = await whole.finish()
    expected = list(zip(full.seqs, full.events, strict=True))
    seqs = [seq for seq, _, _ in got]
    tally.turns += 1
    tally.frames += len(expected)
    tally.duplicated += len(seqs) - len(set(seqs))
    tally.lost += len({s for s, _ in expected} - set(seqs))
    tally.errors += sum(1 for (_, name, data) in got if name == "error") + sum(
        1 for (seq, name, data) in got if (seq, (name, data)) not in expected)


async def run(args: argparse.Namespace, cluster_url: str, org: str, token: str) -> Tally:
    tally, budget = Tally(), [args.disconnects]
    rng = random.Random(args.seed)
    frames_per_turn = args.chunks + 3  # conversation_started, the deltas, message_done, done
    limits = httpx.Limits(max_connections=args.concurrency * 4, max_keepalive_connections=args.concurrency * 2)
    async with httpx.AsyncClient(base_url=cluster_url, timeout=120, limits=limits) as http:

        async def lane() -> None:
            while budget[0] > 0:
                await one_turn(http, org, token, random.Random(rng.random()), frames_per_turn, tally, budget)

        await asyncio.gather(*(lane() for _ in range(args.concurrency)))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--disconnects", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--chunks", type=int, default=40, help="text deltas per answer")
    parser.add_argument("--delay-ms", type=float, default=20.0, help="the model's pause between deltas")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    load_before = os.getloadavg()
    data_dir = Path(tempfile.mkdtemp(prefix="spotter-bench-disconnects-"))
    pg, rd = EmbeddedPostgres(data_dir), EmbeddedRedis(data_dir)
    model = cluster = None
    try:
        migrations.upgrade(pg.url())
        org, token, _ = asyncio.run(_setup_tenant(pg.url(), DevKeys(data_dir)))
        model_port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        model = subprocess.Popen([sys.executable, "-m", "bench.scripted_model", str(model_port), str(args.chunks),
                                  str(args.delay_ms / 1000)], cwd=ROOT, env=env, stdout=subprocess.PIPE)
        assert model.stdout is not None and model.stdout.readline().strip() == b"ready"
        cluster = Cluster({"DATABASE_URL": pg.url(), "REDIS_URL": rd.url, "DATA_DIR": str(data_dir),
                           "APP_ENV": "test", "AUTH_MODE": "dev", "ANTHROPIC_API_KEY": "sk-bench",
                           "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{model_port}", "ANTHROPIC_MAX_RETRIES": "0",
                           "NUTRITION_AGENTS": "offline", "LOG_LEVEL": "warning"}, api=2, worker=False,
                          quiet=True).start()
        started = time.monotonic()
        tally = asyncio.run(run(args, cluster.url, org, token))
        wall = time.monotonic() - started
    finally:
        if cluster is not None:
            cluster.stop()
        if model is not None:
            model.terminate()
            model.wait(timeout=10)
        rd.stop()
        pg.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
    print(json.dumps({
        "command": "python -m bench.disconnects " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()),
        "machine": {"nproc": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "loadavg_before": [round(x, 2) for x in load_before],
                    "loadavg_after": [round(x, 2) for x in os.getloadavg()]},
        "disconnects": tally.cuts, "turns": tally.turns, "frames": tally.frames, "frames_lost": tally.lost,
        "frames_duplicated": tally.duplicated, "frames_wrong_or_error": tally.errors,
        "reconnects_to_the_other_process": tally.other_process,
        "reconnect_to_next_frame_ms": {"p50": round(_pct(tally.reconnect_s, 0.5) * 1000, 1),
                                       "p95": round(_pct(tally.reconnect_s, 0.95) * 1000, 1),
                                       "max": round(max(tally.reconnect_s, default=0) * 1000, 1),
                                       "n": len(tally.reconnect_s)},
        "wall_s": round(wall, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
