"""Ambient RAG at scale: find_ambient latency (p50/p95) at 1k, 10k and 100k members, the read tools'
search latency (rag.lookup) at each size, and how many of the exact nearest neighbours the HNSW index
returns at the largest size.

Run: .venv/bin/python bench/rag.py [--sizes 1000 10000 100000] [--repeat 3] [--data-dir DIR] [--reuse]
     [--skip-reindex]

Each size gets its own database in an embedded Postgres under DATA_DIR: the demo gym seeded with
`members=N` (gym.demo.seed, fixed reference day), then Harbor indexed with the packaged local model.
The queries are the staff messages of tests/rag/relevance.jsonl, each asked `repeat` times through
AmbientFinder (one org-scoped transaction, stopwords, lexical, embedding, HNSW, fusion, rendering), with
its real 800 ms budget: `no_answer` counts the calls that returned nothing because time ran out.
HNSW recall: for every query with something to embed, the 10 nearest documents per scope by the per-scope
indexes (ef_search 100, iterative scan) against an exact scan. Prints one JSON object: machine, command,
results.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from datetime import date
from pathlib import Path

from sqlalchemy import text

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core import migrations  # noqa: E402
from core.database import Database  # noqa: E402
from core.embedded import EmbeddedPostgres  # noqa: E402
from gym.demo.seed import seed_demo  # noqa: E402
from gym.demo.tenancy import HARBOR  # noqa: E402
from rag.ambient import AmbientFinder  # noqa: E402
from rag.embeddings import LocalEmbedder  # noqa: E402
from rag.index import reindex_org  # noqa: E402
from rag.lookup import search_entities  # noqa: E402
from rag.search import embed_query, plan_query, semantic_ranked  # noqa: E402

DEMO_DAY = date(2026, 6, 15)
QUERIES = REPO / "tests" / "rag" / "relevance.jsonl"


def machine() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory_gb = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "memory_gb": memory_gb,
            "python": platform.python_version()}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def index_complete(db: Database) -> bool:
    """Harbor has documents and no outbox rows pending: the last reindex covered every write since."""
    async with db.owner() as session:
        return bool(await session.scalar(text(
            "SELECT EXISTS (SELECT 1 FROM rag_documents WHERE org_id = :o) "
            "AND NOT EXISTS (SELECT 1 FROM rag_outbox WHERE org_id = :o)"), {"o": HARBOR.id}))


async def prepare(pg: EmbeddedPostgres, size: int, embedder: LocalEmbedder, reuse: bool,
                  skip_reindex: bool = False) -> tuple[Database, dict]:
    name = f"bench_rag_{size}"
    existed = "(1 row)" in pg.server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}';")
    url = pg.ensure_database(name)
    migrations.upgrade(url)
    db = Database(url, pool_size=2)
    info: dict = {"members": size}
    async with db.owner() as session:
        members = await session.scalar(text("SELECT count(*) FROM members WHERE org_id = :o"), {"o": HARBOR.id})
    if not (reuse and existed and members == size):
        started = time.perf_counter()
        await seed_demo(db, size, now=DEMO_DAY)
        info["seed_s"] = round(time.perf_counter() - started, 1)
    if skip_reindex and await index_complete(db):
        info["reindex_s"] = None  # skipped: already complete
        async with db.owner() as session:
            info["documents"] = await session.scalar(text("SELECT count(*) FROM rag_documents WHERE org_id = :o"),
                                                     {"o": HARBOR.id})
    else:
        started = time.perf_counter()
        result = await reindex_org(db, embedder, HARBOR.id)
        info["reindex_s"] = round(time.perf_counter() - started, 1)
        info["documents"], info["embedded"] = result.documents, result.embedded
    return db, info  # the reindex refreshed the search tables' statistics itself (rag.index.refresh_statistics)


def timing(times: list[float]) -> dict:
    return {"calls": len(times), "p50_ms": percentile(times, 0.5), "p95_ms": percentile(times, 0.95),
            "p99_ms": percentile(times, 0.99), "max_ms": round(max(times), 1),
            "mean_ms": round(statistics.mean(times), 1)}


async def latency(db: Database, embedder: LocalEmbedder, queries: list[str], repeat: int) -> dict:
    """Steady state (`repeat` passes over every query) after one timed first pass, reported on its own: the
    first pass after Postgres starts reads the 100k-member indexes from disk (cold buffers), which a
    running service paid once."""
    finder = AmbientFinder(db, embedder)
    for query in queries[:5]:  # warm the pool, the plans and the model
        await finder(HARBOR.id, query)
    first = await _ambient_pass(finder, queries)
    times: list[float] = []
    empty = 0
    for _ in range(repeat):
        passed = await _ambient_pass(finder, queries)
        times += passed["times"]
        empty += passed["empty"]
    return {**timing(times), "no_answer": empty,
            "first_pass": {**timing(first["times"]), "no_answer": first["empty"]}}


async def _ambient_pass(finder: AmbientFinder, queries: list[str]) -> dict:
    times, empty = [], 0
    for query in queries:
        started = time.perf_counter()
        hits = await finder.find(HARBOR.id, query)
        times.append((time.perf_counter() - started) * 1000)
        empty += hits is None  # budget exceeded or failed (every query is over 30 characters)
    return {"times": times, "empty": empty}


async def tool_search_latency(db: Database, embedder: LocalEmbedder, queries: list[str], repeat: int) -> dict:
    """The ranking behind read__search_anything (rag.lookup over all four scopes, 5 per scope): the index's
    hybrid search plus each scope's live name search, in one org-scoped transaction per call. The staff
    messages stand in for tool queries, which are usually shorter."""
    times = []
    for _ in range(repeat):
        for query in queries:
            started = time.perf_counter()
            async with db.scope(org_id=HARBOR.id) as session:
                await search_entities(session, HARBOR.id, query, embedder=embedder, per_scope=5)
            times.append((time.perf_counter() - started) * 1000)
    return timing(times)


async def hnsw_recall(db: Database, embedder: LocalEmbedder, queries: list[str], k: int = 10) -> dict:
    """Search's semantic step (k neighbours per scope, through each scope's HNSW index) against the same
    step as an exact scan: share of the exact neighbours the index returned."""
    overlaps, approx_ms, exact_ms = [], [], []
    for query in queries:
        plan = plan_query(query, embedder.model)
        if not plan.semantic_text:
            continue
        vector = await embed_query(embedder, plan.semantic_text, None)
        async with db.scope(org_id=HARBOR.id) as session:
            started = time.perf_counter()
            approx = await semantic_ranked(session, HARBOR.id, vector, model=embedder.model, limit=4 * k,
                                           filtered=False)
            approx_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            exact = await semantic_ranked(session, HARBOR.id, vector, model=embedder.model, limit=4 * k,
                                          exact=True, filtered=False)
            exact_ms.append((time.perf_counter() - started) * 1000)
        truth = {h["entityId"] for h in exact}
        overlaps.append(len(truth & {h["entityId"] for h in approx}) / max(len(truth), 1))
    return {"k_per_scope": k, "queries": len(overlaps), "recall": round(statistics.mean(overlaps), 4),
            "hnsw_p50_ms": percentile(approx_ms, 0.5), "exact_p50_ms": percentile(exact_ms, 0.5)}


async def run(args: argparse.Namespace) -> dict:
    queries = [json.loads(line)["query"] for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    pg = EmbeddedPostgres(Path(args.data_dir))
    embedder = LocalEmbedder()
    await embedder.warm()
    results = []
    versions = {}
    try:
        for size in args.sizes:
            db, info = await prepare(pg, size, embedder, args.reuse, args.skip_reindex)
            try:
                async with db.owner() as session:
                    versions = {"postgres": await session.scalar(text("SHOW server_version")),
                                "pgvector": await session.scalar(text(
                                    "SELECT extversion FROM pg_extension WHERE extname = 'vector'"))}
                info["find_ambient"] = await latency(db, embedder, queries, args.repeat)
                info["tool_search"] = await tool_search_latency(db, embedder, queries, args.repeat)
                if size == max(args.sizes):
                    info["hnsw_vs_exact"] = await hnsw_recall(db, embedder, queries)
            finally:
                await db.dispose()
            results.append(info)
            print(json.dumps(info), file=sys.stderr, flush=True)
    finally:
        pg.stop()
    return {"machine": machine(), **versions, "embedder": embedder.model,
            "command": " ".join([".venv/bin/python", "bench/rag.py", *sys.argv[1:]]), "queries": len(queries),
            "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", default="/tmp/spotter-bench-rag")
    parser.add_argument("--reuse", action="store_true", help="keep a database already seeded with the same size")
    parser.add_argument("--skip-reindex", action="store_true",
                        help="skip the reindex when Harbor has documents and an empty outbox (already complete)")
    args = parser.parse_args()
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # logs go to stderr; stdout gets the JSON alone
        result = asyncio.run(run(args))
    print(json.dumps(result, indent=2, ensure_ascii=False), file=out)


if __name__ == "__main__":
    main()
