"""Hybrid search over `rag_documents`: a lexical list and a semantic list, fused by reciprocal rank.

Lexical (rag.lexical): typo-tolerant word matching in any script, idf-weighted. Semantic: cosine
distance (`<=>`) on the active model's vector column, `WHERE model = <active>`, through the HNSW index
(iterative scan, so the org filter cannot starve it), per scope, keeping neighbours within
SEMANTIC_SPREAD of the scope's best and above the model's floor.

Fusion is reciprocal rank (k = 60), in one of two ways per model (SEMANTIC_FUSION):
- "rrf": both lists over the whole query, summed (documents in both get both terms). Used for Voyage.
- "fill": the lexical list first; only the words it could not place in any document are embedded, and
  their neighbours are added (weight SEMANTIC_WEIGHT) without reordering lexical matches. Used for the
  packaged local model, whose neighbours are right less often than lexical matches: on the demo gym,
  classic RRF put its near-misses ("American Kettlebell Swing" for "kettlebell swings") above exact
  matches and scored below lexical alone, and its neighbours for messages naming nothing were noise
  (numbers in tests/rag/test_relevance.py).

Hebrew: the packaged local model was not trained on Hebrew, so with it Hebrew words are left out of
the embedded text (measured: no gain from embedding them); lexical search still reads Hebrew.

Every query filters `org_id` explicitly; row-level security backs it up in an org scope.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import structlog
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from rag.embeddings import Embedder, EmbedderError
from rag.index import SCOPES, VECTOR_COLUMNS
from rag.lexical import CANDIDATES, lexical_ranked
from rag.stopwords import Term, is_hebrew, terms
from rag.vectors import vector_param

log = structlog.get_logger("rag.search")

Mode = Literal["hybrid", "lexical", "semantic"]
MODES = ("hybrid", "lexical", "semantic")
RRF_K = 60
SEMANTIC_WEIGHT = 0.5
SEMANTIC_FUSION = {"fast-use-v3-multilingual": "fill"}  # any other model: "rrf" (see the module docstring)
HEBREW_BLIND_MODELS = frozenset({"fast-use-v3-multilingual"})
# A semantic neighbour is kept when its cosine similarity is at least the model's floor and within
# SEMANTIC_SPREAD of its scope's best (the local model's absolute similarities drift per query). 0.3 for
# the local model: below it, neighbours of messages naming nothing came through (relevance test noise).
# Voyage's floor is a guess: it could not be measured offline.
SEMANTIC_FLOOR = {"fast-use-v3-multilingual": 0.3}
DEFAULT_SEMANTIC_FLOOR = 0.3
SEMANTIC_SPREAD = 0.1
HNSW_EF_SEARCH = 100


@dataclass(frozen=True)
class QueryPlan:
    """What a query searches for: its content words, and the words to embed with their word indexes
    (Hebrew words are left out for a model that cannot read them)."""

    terms: list[Term]
    semantic_words: list[str]
    word_index: list[int]

    @property
    def semantic_text(self) -> str:
        return " ".join(self.semantic_words)


def plan_query(query: str, model: str | None) -> QueryPlan:
    found = terms(query)
    keep = [i for i, t in enumerate(found) if not (model in HEBREW_BLIND_MODELS and is_hebrew(t.text))]
    return QueryPlan(found, [found[i].text for i in keep], keep)


def _scope_filter(scopes: Sequence[str] | None) -> str:
    return "AND d.scope = ANY(CAST(:scopes AS text[]))" if scopes else ""


SEMANTIC_SQL = """
SELECT d.scope, d.entity_id, d.title, d.body, 1 - (d.{column} <=> :vec) AS sim
FROM rag_documents d
WHERE d.org_id = :org AND d.model = :model AND d.{column} IS NOT NULL {scopes}
ORDER BY d.{column} <=> :vec
LIMIT {limit}"""
PER_SCOPE_NEIGHBOURS = 10
# The planner prices `<=>` like a cheap operator and ignores detoasting each 2 KB vector, so at 10k
# members it chose a sequential scan and sort (78 ms) over the scope's HNSW index (1.3 ms, EXPLAIN
# ANALYZE, bench/rag.py). Sequential scans are switched off for the semantic statement alone.
INDEX_SETTINGS_SQL = """
SELECT current_setting('enable_seqscan') AS seqscan, set_config('enable_seqscan', 'off', true),
       set_config('hnsw.ef_search', :ef, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)"""
EXACT_SETTINGS_SQL = "SELECT current_setting('enable_indexscan') AS indexscan, set_config('enable_indexscan', 'off', true)"


def semantic_sql(column: str, groups: Sequence[tuple[str, int]], *, exact: bool) -> str:
    """One statement asking every group (a scope filter and a neighbour count) for its nearest documents.
    The exact scan gets its own text, so a cached plan of the indexed statement is never reused for it."""
    parts = [f"({SEMANTIC_SQL.format(column=column, scopes=where, limit=int(n))})" for where, n in groups]
    return ("/* exact */ " if exact else "") + "\nUNION ALL\n".join(parts)


async def semantic_ranked(session: AsyncSession, org_id: uuid.UUID, vector: Sequence[float], *, model: str,
                          scopes: Sequence[str] | None = None, limit: int = CANDIDATES, exact: bool = False,
                          filtered: bool = True, per_scope: bool = True) -> list[dict[str, Any]]:
    """Nearest documents of the active model, best first.

    `per_scope` asks each scope for its own neighbours and applies the floors within each: at 100k
    members, member documents would otherwise crowd every program and exercise out of the list.
    `exact` scans instead of using the HNSW index (to measure its recall); `filtered=False` keeps
    neighbours under the similarity floors.
    """
    column = VECTOR_COLUMNS.get(len(vector))
    if column is None:
        return []
    groups: list[tuple[str, int]]
    if per_scope:  # the scope is spelled out (validated against SCOPES) so its partial HNSW index applies
        groups = [(f"AND d.scope = '{scope}'", PER_SCOPE_NEIGHBOURS) for scope in (scopes or SCOPES) if scope in SCOPES]
    else:
        groups = [(_scope_filter(scopes), limit)]
    if not groups:
        return []
    if exact:
        previous = await session.scalar(text(EXACT_SETTINGS_SQL))
        restore = "SELECT set_config('enable_indexscan', :previous, true)"
    else:
        previous = await session.scalar(text(INDEX_SETTINGS_SQL), {"ef": str(max(HNSW_EF_SEARCH, limit))})
        restore = "SELECT set_config('enable_seqscan', :previous, true)"
    try:
        sql = text(semantic_sql(column, groups, exact=exact)).bindparams(vector_param("vec", len(vector)))
        rows = await session.execute(sql, {"vec": list(vector), "org": org_id, "model": model,
                                           "scopes": list(scopes or ())})
    finally:
        await session.execute(text(restore), {"previous": previous})
    by_scope: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_scope.setdefault(r.scope if per_scope else "", []).append(
            {"scope": r.scope, "entityId": r.entity_id, "title": r.title, "body": r.body, "score": float(r.sim)})
    hits: list[dict[str, Any]] = []
    for found in by_scope.values():
        found.sort(key=lambda h: -h["score"])  # relaxed order
        if filtered and found:
            floor = max(SEMANTIC_FLOOR.get(model, DEFAULT_SEMANTIC_FLOOR), found[0]["score"] - SEMANTIC_SPREAD)
            found = [h for h in found if h["score"] >= floor]
        hits.extend(found)
    return sorted(hits, key=lambda h: -h["score"])[:limit]


def fuse(lexical: list[dict[str, Any]], semantic: list[dict[str, Any]], *, k: int = RRF_K,
         semantic_weight: float | None = None, agreement: bool = True) -> list[dict[str, Any]]:
    """Weighted reciprocal rank fusion: score = Σ weight / (k + rank) over the lists a document is in.
    Without `agreement`, a document the lexical list has keeps its lexical score alone (the semantic
    list only adds documents)."""
    weight = SEMANTIC_WEIGHT if semantic_weight is None else semantic_weight
    fused: dict[tuple[str, uuid.UUID], dict[str, Any]] = {}
    lexical_keys = {(h["scope"], h["entityId"]) for h in lexical}
    for name, hits, w in (("lexicalRank", lexical, 1.0), ("semanticRank", semantic, weight)):
        for rank, hit in enumerate(hits, start=1):
            key = (hit["scope"], hit["entityId"])
            entry = fused.setdefault(key, {"scope": hit["scope"], "entityId": hit["entityId"], "title": hit["title"],
                                           "score": 0.0, "lexicalRank": None, "semanticRank": None,
                                           "body": hit.get("body", "")})
            entry[name] = rank
            if not agreement and name == "semanticRank" and key in lexical_keys:
                continue
            entry["score"] += w / (k + rank)
    return sorted(fused.values(), key=lambda h: (-h["score"], h["lexicalRank"] or CANDIDATES + 1,
                                                 h["semanticRank"] or CANDIDATES + 1))


async def embed_query(embedder: Embedder, text_: str, budget_s: float | None) -> list[float]:
    """The query's vector; raises EmbedderError, also when `budget_s` runs out."""
    try:
        vectors = await asyncio.wait_for(embedder.embed([text_], input_type="query"), budget_s)
    except TimeoutError as exc:
        raise EmbedderError(f"query embedding took longer than {budget_s}s", retryable=True) from exc
    if len(vectors) != 1:
        raise EmbedderError(f"embedder returned {len(vectors)} vectors for one query")
    return vectors[0]


async def hybrid_search(session: AsyncSession, org_id: uuid.UUID, query: str, *, embedder: Embedder | None,
                        scopes: Sequence[str] | None = None, limit: int = 10, mode: Mode = "hybrid",
                        embed_timeout: float | None = None) -> list[dict[str, Any]]:
    """Ranked hits `{scope, entityId, title, score, lexicalRank, semanticRank, body}` for `query` in one org.

    When embedding fails or exceeds `embed_timeout`, hybrid continues lexical-only (logged as
    `rag.search.degraded`) and semantic returns nothing.
    """
    if mode not in MODES:
        raise ValueError(f"unknown search mode {mode!r}")
    unknown = set(scopes or ()) - set(SCOPES)
    if unknown:
        raise ValueError(f"unknown scopes {sorted(unknown)}")
    model = embedder.model if embedder is not None else None
    plan = plan_query(query, model)
    if not plan.terms:
        return []
    can_embed = embedder is not None and embedder.dims in VECTOR_COLUMNS
    if mode == "lexical" or not can_embed:
        return fuse((await lexical_ranked(session, org_id, plan.terms, scopes=scopes)).hits, [])[:limit]
    assert embedder is not None
    if mode == "semantic":
        return fuse([], await _semantic(session, org_id, embedder, plan.semantic_text, scopes, embed_timeout))[:limit]
    if SEMANTIC_FUSION.get(embedder.model, "rrf") == "fill":
        lexical = await lexical_ranked(session, org_id, plan.terms, scopes=scopes)
        missing = " ".join(w for i, w in enumerate(plan.semantic_words) if plan.word_index[i] in lexical.unmatched)
        semantic = await _semantic(session, org_id, embedder, missing, scopes, embed_timeout)
        return fuse(lexical.hits, semantic, agreement=False)[:limit]
    # Classic RRF: embed while the lexical list is computed.
    embedding = asyncio.ensure_future(embed_query(embedder, plan.semantic_text, embed_timeout)) \
        if plan.semantic_text else None
    try:
        lexical = await lexical_ranked(session, org_id, plan.terms, scopes=scopes)
    except BaseException:
        if embedding is not None:
            embedding.cancel()
        raise
    semantic = await _semantic(session, org_id, embedder, plan.semantic_text, scopes, embed_timeout, embedding)
    return fuse(lexical.hits, semantic)[:limit]


async def _semantic(session: AsyncSession, org_id: uuid.UUID, embedder: Embedder, text_: str,
                    scopes: Sequence[str] | None, budget_s: float | None,
                    embedding: asyncio.Future[list[float]] | None = None) -> list[dict[str, Any]]:
    """The semantic list for `text_` ("" → none); an embedder failure is logged and yields none."""
    if not text_:
        return []
    try:
        vector = await (embedding if embedding is not None else embed_query(embedder, text_, budget_s))
    except EmbedderError as exc:
        log.warning("rag.search.degraded", reason="embedding_failed", model=embedder.model, error=str(exc)[:200])
        return []
    return await semantic_ranked(session, org_id, vector, model=embedder.model, scopes=scopes)
