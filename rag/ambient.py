"""Ambient context: before each new user turn, the org's programs, workouts, exercises and members the
message seems to mention, as an `<ambient_context>` block the orchestrator puts ahead of the user's text.

Best effort by contract: messages under 30 characters are skipped, the whole lookup has 800 ms, a slow
or failing embedder degrades it to lexical search, and any other failure returns None; it never raises.
It runs in the org's tenancy scope (row-level security) and filters by org as well, so another gym's
rows cannot appear.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import structlog
from sqlalchemy import text

from core.database import Database
from core.member_text import envelope
from rag.embeddings import Embedder
from rag.search import hybrid_search

log = structlog.get_logger("rag.ambient")

MIN_QUERY_CHARS = 30
EMPTY_RECHECK_S = 2.0  # an org found with nothing indexed is asked again after this (the outbox drains every 0.5 s)
BUDGET_S = 0.8
EMBED_SHARE = 0.6  # of the budget the query embedding may take before search goes on without it
PER_SCOPE = 3
TOTAL = 5
DETAIL_CHARS = 90


def select(hits: Sequence[dict[str, Any]], *, per_scope: int = PER_SCOPE, total: int = TOTAL) -> list[dict[str, Any]]:
    """Up to `total` hits, at most `per_scope` per scope: first the best hit of every scope (a message
    naming a member and an exercise gets both), then the rest in rank order; returned in rank order."""
    chosen: set[int] = set()
    seen: set[str] = set()
    for i, hit in enumerate(hits):
        if hit["scope"] not in seen and len(chosen) < total:
            seen.add(hit["scope"])
            chosen.add(i)
    counts = {scope: 1 for scope in seen}
    for i, hit in enumerate(hits):
        if len(chosen) >= total:
            break
        if i not in chosen and counts[hit["scope"]] < per_scope:
            counts[hit["scope"]] += 1
            chosen.add(i)
    return [hits[i] for i in sorted(chosen)]


def _detail(body: str) -> str:
    flat = " ".join(body.split())
    return flat if len(flat) <= DETAIL_CHARS else flat[: DETAIL_CHARS - 1].rstrip() + "…"


def render(hits: Sequence[dict[str, Any]]) -> str:
    """`<ambient_context>` with one line per hit: scope, title, id and a short excerpt of the document."""
    lines = ["<ambient_context>",
             "Records of this gym that the message may refer to (search matches, not confirmed):"]
    for hit in hits:
        detail = _detail(hit.get("body") or "")
        title = hit["title"]
        if hit["scope"] == "member":  # a member's name and record are their words: data for the model, in envelopes
            title = envelope(title, "member_name")
            detail = envelope(detail, "member_record") if detail else detail
        lines.append(f"- {hit['scope']}: {title} (id {hit['entityId']})" + (f" — {detail}" if detail else ""))
    lines.append("</ambient_context>")
    return "\n".join(lines)


class AmbientFinder:
    """`await finder(org_id, query)` → an `<ambient_context>` block, or None (short query, nothing found,
    over budget, or any failure)."""

    def __init__(self, db: Database, embedder: Embedder | None, *, budget_s: float = BUDGET_S,
                 min_chars: int = MIN_QUERY_CHARS, clock: Callable[[], float] = time.monotonic) -> None:
        self.db, self.embedder, self.clock = db, embedder, clock
        self.budget_s, self.min_chars = budget_s, min_chars
        # Whether an org has anything indexed, remembered per process: an org with documents keeps them (its
        # searches skip the check), one without is asked again after EMPTY_RECHECK_S.
        self._indexed: set[uuid.UUID] = set()
        self._empty_until: dict[uuid.UUID, float] = {}

    async def find(self, org_id: uuid.UUID, query: str) -> list[dict[str, Any]] | None:
        """The selected hits (None when skipped or failed); `__call__` renders them."""
        if len(query.strip()) < self.min_chars:
            return None
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.budget_s):
                hits = await self._search(org_id, query)
        except TimeoutError:
            log.warning("rag.ambient.degraded", reason="budget_exceeded", budget_ms=round(self.budget_s * 1000))
            return None
        except Exception as exc:  # ambient context is best effort: log, never raise
            log.warning("rag.ambient.failed", error=f"{type(exc).__name__}: {exc}"[:300])
            return None
        log.debug("rag.ambient.done", hits=len(hits), ms=round((time.perf_counter() - started) * 1000))
        return select(hits)

    async def _search(self, org_id: uuid.UUID, query: str) -> list[dict[str, Any]]:
        if self._empty_until.get(org_id, 0.0) > self.clock():
            return []
        async with self.db.scope(org_id=org_id) as session:
            # An org with nothing indexed yet (new, or before the first drain) needs no embedding.
            if org_id not in self._indexed:
                if not await session.scalar(text("SELECT EXISTS (SELECT 1 FROM rag_documents WHERE org_id = :org)"),
                                            {"org": org_id}):
                    if len(self._empty_until) > 10_000:
                        self._empty_until.clear()
                    self._empty_until[org_id] = self.clock() + EMPTY_RECHECK_S
                    return []
                self._indexed.add(org_id)
                self._empty_until.pop(org_id, None)
            return await hybrid_search(session, org_id, query, embedder=self.embedder, limit=TOTAL * PER_SCOPE,
                                       embed_timeout=self.budget_s * EMBED_SHARE)

    async def __call__(self, org_id: uuid.UUID, query: str) -> str | None:
        hits = await self.find(org_id, query)
        return render(hits) if hits else None
