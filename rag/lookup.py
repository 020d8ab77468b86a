"""What the read tools search with: the index's hybrid ranking fused with the live tables' name search.

Per scope, two ranked lists fused by reciprocal rank:
- the hybrid search over `rag_documents` (rag.search): words of any field and language, typos, stems,
  and meaning through the embedder;
- the live table's own trigram search by name (the gym services): sharp on names and aliases ("pull up
  bar" → Pull-up, which the document search lets "Chest-to-Bar Pull-up" dominate), and current: it sees
  what the outbox has not brought to the index yet, including writes of the caller's open transaction.
Measured on the demo library: the document search alone put "Rope Climb" and "Box Jump" above
"Single-Under" (alias "jump rope") for "jump rope"; fused, the alias match leads and the neighbours follow.

Members are the exception: a gym has up to 100k of them, and their trigram search cannot use its index
under row-level security (100-130 ms per short query at 10k members, measured), so the live member search
joins only while the member index is behind (outbox rows pending, or nothing indexed yet).
Callers hydrate ids from the live tables, where entities deleted since their last drain drop out.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from gym import exercises, member_search, programs, workouts
from rag.embeddings import Embedder
from rag.index import SCOPES
from rag.lexical import CANDIDATES
from rag.search import RRF_K, hybrid_search

EMBED_TIMEOUT_S = 2.0  # a tool waits this long for the query vector, then goes on lexical-only
LIVE_CANDIDATES = 10  # name-search hits per scope fused with the index's ranking

LIVE_WHEN_BEHIND = frozenset({"member"})  # scopes whose live search joins only while their index is behind
LiveSearch = Callable[[AsyncSession, uuid.UUID, str, int], Awaitable[list[uuid.UUID]]]


async def _live_members(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int) -> list[uuid.UUID]:
    return [h.id for h in await member_search.search_members(session, org_id, query, limit=limit)]


async def _live_programs(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int) -> list[uuid.UUID]:
    return [p.id for p in await programs.search_programs(session, org_id, query, limit)]


async def _live_workouts(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int) -> list[uuid.UUID]:
    return [w.id for w in await workouts.list_workouts(session, org_id, title=query, limit=limit)]


async def _live_exercises(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int) -> list[uuid.UUID]:
    return [e.id for e in await exercises.search_exercises(session, org_id, query, limit)]


LIVE: dict[str, LiveSearch] = {"member": _live_members, "program": _live_programs, "workout": _live_workouts,
                               "exercise": _live_exercises}

LAG_SQL = """
SELECT s.scope,
       EXISTS (SELECT 1 FROM rag_outbox o WHERE o.org_id = :org AND o.scope = s.scope) AS pending,
       EXISTS (SELECT 1 FROM rag_documents d WHERE d.org_id = :org AND d.scope = s.scope) AS indexed
FROM unnest(CAST(:scopes AS text[])) AS s(scope)"""


async def lagging_scopes(session: AsyncSession, org_id: uuid.UUID, scopes: Sequence[str]) -> set[str]:
    """The scopes whose index is behind the live tables for this org: outbox rows pending, or nothing indexed."""
    if not scopes:
        return set()
    rows = await session.execute(text(LAG_SQL), {"org": org_id, "scopes": list(scopes)})
    return {r.scope for r in rows if r.pending or not r.indexed}


def rrf(*rankings: Sequence[uuid.UUID], k: int = RRF_K) -> list[uuid.UUID]:
    """Reciprocal rank fusion of id rankings (ties keep the order of first appearance)."""
    scores: dict[uuid.UUID, float] = {}
    for ranking in rankings:
        for rank, entity_id in enumerate(ranking, start=1):
            scores[entity_id] = scores.get(entity_id, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda i: -scores[i])


async def search_entities(session: AsyncSession, org_id: uuid.UUID, query: str, *, embedder: Embedder | None,
                          scopes: Sequence[str] = SCOPES, per_scope: int = 10,
                          embed_timeout: float = EMBED_TIMEOUT_S) -> dict[str, list[uuid.UUID]]:
    """Entity ids per scope that best match `query`, best first, at most `per_scope` each."""
    scopes = list(dict.fromkeys(scopes))
    hits = await hybrid_search(session, org_id, query, embedder=embedder, scopes=scopes,
                               limit=max(CANDIDATES, per_scope * len(scopes)), embed_timeout=embed_timeout)
    indexed: dict[str, list[uuid.UUID]] = {scope: [] for scope in scopes}
    for hit in hits:
        indexed[hit["scope"]].append(hit["entityId"])
    behind = await lagging_scopes(session, org_id, [s for s in scopes if s in LIVE_WHEN_BEHIND])
    ranked = {}
    for scope in scopes:
        if scope in LIVE_WHEN_BEHIND and scope not in behind:
            ranked[scope] = indexed[scope][:per_scope]
            continue
        live = await LIVE[scope](session, org_id, query, max(per_scope, LIVE_CANDIDATES))
        ranked[scope] = rrf(indexed[scope], live)[:per_scope]
    return ranked
