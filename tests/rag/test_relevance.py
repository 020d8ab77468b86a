"""Relevance on the demo gym: recall@5 of hybrid search against lexical-only and semantic-only over the
staff queries in relevance.jsonl (English, Hebrew, Russian; typos, synonyms, aliases, several entities
per message), with the packaged local model, in a fresh database seeded with the demo.

Each query lists what a person would expect by natural key (scope + name, or a title prefix for the
weekly PT sessions); a key naming several rows (the benchmark WODs recur) is found by any of them.
recall@5 of a query = share of its expected entities among the first five hits; reported per mode, per
language, and for the ambient selection (≤ 3 per scope, ≤ 5 in all). Queries that name nothing
measure noise: how many hits ambient would inject for them.
"""

from __future__ import annotations

import json
import statistics
import uuid
from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import text

from core import migrations
from core.database import Database
from gym.demo.seed import seed_demo
from gym.demo.tenancy import HARBOR, NORTHSIDE
from rag.ambient import AmbientFinder, select
from rag.embeddings import LocalEmbedder
from rag.index import reindex_org
from rag.search import hybrid_search

CASES = Path(__file__).with_name("relevance.jsonl")
DEMO_DAY = date(2026, 6, 15)  # fixes the demo's workout dates (titles such as "WOD Mon 15 Jun")
MODES = ("lexical", "semantic", "hybrid")
# Measured on 2026-11-22 (demo seed 7, 320 Harbor members, DEMO_DAY, fast-use-v3-multilingual), top five
# hits of hybrid_search; 80 queries with expectations, 6 naming nothing. Ambient view in brackets.
#   lexical  0.890 (0.883)   en 0.923  he 0.900  ru 0.767
#   semantic 0.333 (0.308)   en 0.393  he 0.067  ru 0.400   (neighbours under the model's floors dropped)
#   hybrid   0.902 (0.896)   en 0.923  he 0.900  ru 0.833
#   noise (hits ambient injects for the 6 queries naming nothing): 0 in every mode
# Embedding Hebrew words with this model: semantic-only he 0.133 instead of 0.067, hybrid unchanged, and
# the Hebrew message about Saar Cohen (he-14) got an unrelated member injected, so they are left out
# (rag.search.HEBREW_BLIND_MODELS). Classic RRF instead of "fill" fusion: hybrid 0.840, below lexical.
MEASURED = {"lexical": 0.890, "semantic": 0.333, "hybrid": 0.902}
MEASURED_BY_LANGUAGE = {"en": 0.923, "he": 0.900, "ru": 0.833}  # hybrid
TOLERANCE = 0.02  # under two queries' worth (1/80 each): room for demo-data edits, not for regressions
TABLES = {"member": ("members", "full_name"), "program": ("programs", "name"), "workout": ("workouts", "title"),
          "exercise": ("exercises", "name")}


@pytest.fixture(scope="module")
async def demo(embedded_pg):
    """A fresh database with the demo gym, both orgs indexed with the local model."""
    url = embedded_pg.ensure_database(f"rag_relevance_{uuid.uuid4().hex[:8]}")
    migrations.upgrade(url)
    db = Database(url, pool_size=2)
    embedder = LocalEmbedder()
    await seed_demo(db, now=DEMO_DAY)
    for org in (HARBOR, NORTHSIDE):
        result = await reindex_org(db, embedder, org.id)
        assert result.failed == 0 and result.embedded == result.documents
    yield db, embedder
    await db.dispose()


async def _resolve(db: Database, expected: dict) -> set[uuid.UUID]:
    """The ids a natural key names in Harbor (empty when the demo no longer has it)."""
    table, column = TABLES[expected["scope"]]
    if "name" in expected:
        where, value = f"{column} = :v", expected["name"]
    else:
        where, value = f"{column} LIKE :v", expected["prefix"] + "%"
    async with db.owner() as session:
        rows = await session.execute(text(f"SELECT id FROM {table} WHERE org_id = :o AND {where}"),
                                     {"o": HARBOR.id, "v": value})
        return {r[0] for r in rows}


async def _measure(db: Database, embedder: LocalEmbedder) -> dict:
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    recall: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_language: dict[tuple[str, str], list[float]] = defaultdict(list)
    noise: dict[str, list[int]] = defaultdict(list)
    misses: list[str] = []
    vanished: list[dict] = []
    for case in cases:
        expected = []
        for key in case["expect"]:
            ids = await _resolve(db, key)
            if ids:
                expected.append(ids)
            else:  # demo data moved on (e.g. a benchmark WOD no longer drawn): measured without it
                vanished.append(key)
        if case["expect"] and not expected:
            continue
        for mode in MODES:
            async with db.scope(org_id=HARBOR.id) as session:
                hits = await hybrid_search(session, HARBOR.id, case["query"], embedder=embedder, mode=mode, limit=50)
            if not expected:
                noise[mode].append(len(select(hits)))
                continue
            for view, shown in (("top5", hits[:5]), ("ambient", select(hits))):
                found = {h["entityId"] for h in shown}
                value = sum(1 for ids in expected if ids & found) / len(expected)
                recall[mode, view].append(value)
                if view == "top5":
                    by_language[mode, case["lang"]].append(value)
                    if mode == "hybrid" and value < 1:
                        misses.append(f"{case['id']}: {case['query']}")
    return {"cases": len(cases), "recall": {k: statistics.mean(v) for k, v in recall.items()},
            "by_language": {k: statistics.mean(v) for k, v in by_language.items()},
            "noise": {k: statistics.mean(v) for k, v in noise.items()}, "misses": misses, "vanished": vanished}


async def test_hybrid_recall_at_5_beats_each_half_on_the_demo_gym(demo) -> None:
    db, embedder = demo
    report = await _measure(db, embedder)
    print(f"\nrecall@5 over {report['cases']} queries (top five / ambient selection):")
    for mode in MODES:
        languages = "  ".join(f"{lang} {report['by_language'][mode, lang]:.3f}" for lang in ("en", "he", "ru"))
        print(f"  {mode:<8} {report['recall'][mode, 'top5']:.3f} ({report['recall'][mode, 'ambient']:.3f})   "
              f"{languages}   noise {report['noise'][mode]:.2f}")
    print("  hybrid misses:\n    " + "\n    ".join(report["misses"]))
    if report["vanished"]:
        print(f"  not in the demo data any more: {report['vanished']}")

    assert len(report["vanished"]) <= 3, f"the demo gym lost too many expected entities: {report['vanished']}"
    hybrid, lexical, semantic = (report["recall"][m, "top5"] for m in ("hybrid", "lexical", "semantic"))
    assert hybrid >= MEASURED["hybrid"] - TOLERANCE
    assert hybrid > lexical and hybrid > semantic
    for lang, floor in MEASURED_BY_LANGUAGE.items():
        assert report["by_language"]["hybrid", lang] >= floor - 2 * TOLERANCE, lang
    assert report["noise"]["hybrid"] <= 0.5  # messages that name nothing get (almost) nothing injected


async def test_harbor_never_sees_northsides_members_of_the_same_name(demo) -> None:
    """Both demo gyms have a Saar Cohen (and a Noa Levi, a Dmitri Ivanov)."""
    db, embedder = demo
    async with db.owner() as session:
        northside = set((await session.scalars(text("SELECT id FROM members WHERE org_id = :o"),
                                               {"o": NORTHSIDE.id})).all())
        saar = await session.scalar(text("SELECT id FROM members WHERE org_id = :o AND full_name = 'Saar Cohen'"),
                                    {"o": HARBOR.id})
    block = await AmbientFinder(db, embedder)(HARBOR.id, "Can you check on Saar Cohen, Noa Levi and Dmitri Ivanov?")
    assert block is not None and str(saar) in block
    assert not any(str(member) in block for member in northside)
