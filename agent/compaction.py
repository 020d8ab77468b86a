"""Compaction: summarize a long conversation's older messages into a `system_note` anchor.

At `threshold` (24) or more messages past the latest system_note (or the start), everything but about
the last `keep_last` (6) is summarized by the summarizer model within `budget_seconds` (3 s). The cut
moves earlier until the kept tail starts at a person's message (not a tool_result carrier), so no
tool_use is ever separated from its tool_result. The note takes the seq of the first kept message and
the tail shifts up by one, so `messages_since_anchor` reads [note, kept tail...]. A failed or slow
summary leaves history untouched; the turn goes on. Summaries cost money: they are recorded in
`ai_usage_daily` with turns=0.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import structlog
from sqlalchemy import text

from agent import conversations
from agent.conversations import Conversation, Message
from agent.costs import PriceBook
from agent.model import ModelClient, ModelRequest
from agent.model_facts import FACTS, SUMMARY, ModelFacts
from agent.observability import Observability, redact
from agent.request import user_text
from agent.usage import record_turn
from core.database import Database

log = structlog.get_logger("agent.compaction")

INSTRUCTIONS = (
    "You compress a conversation between a gym's staff member and Spotter, their assistant, so the "
    "assistant can carry on without the older messages. Write a concise summary (at most ~250 words) in "
    "the language the staff member writes in. Keep what later turns may need: the staff member's goals "
    "and preferences, decisions made, names, ids, dates and numbers exactly as written, actions the "
    "assistant took with tools and their outcomes (including failures and actions the user declined), "
    "and open questions. Do not invent anything. Plain text, no preamble."
)
PIECE_CHARS = 1500   # per message text
RESULT_CHARS = 300   # per tool result
TRANSCRIPT_CHARS = 24000
_SHIFT = 1_000_000   # seqs are moved out of the way and back: (conversation_id, seq) is unique, not deferrable


def _clip(value: str, limit: int) -> str:
    value = value.strip()
    return value if len(value) <= limit else value[:limit].rstrip() + " …"


def _is_person_turn(row: Message) -> bool:
    """A user message that carries no tool_result: a clean place to start the kept tail."""
    return row.role == "user" and not any(b.get("type") == "tool_result" for b in row.content)


def choose_cut(rows: list[Message], keep_last: int) -> int | None:
    """Index of the first kept row (≥ 1), or None when no clean boundary exists.

    Prefers the nearest clean boundary at or before `len - keep_last` (keeping a little more), then the
    nearest after it (keeping a little less).
    """
    target = max(1, len(rows) - keep_last)
    for cut in [*range(target, 0, -1), *range(target + 1, len(rows))]:
        if _is_person_turn(rows[cut]):
            return cut
    return None


def transcript(rows: list[Message], earlier_summary: str | None) -> str:
    """A plain-text transcript of `rows`: what people typed, the assistant's text, tool names and results."""
    names: dict[str, str] = {}
    lines: list[str] = []
    if earlier_summary:
        lines.append(f"[Summary of the conversation before this point]\n{_clip(earlier_summary, 4000)}")
    for row in rows:
        if row.role == "user":
            said = user_text([b for b in row.content if b.get("type") == "text"])
            for block in row.content:
                if block.get("type") == "tool_result":
                    name = names.get(block.get("tool_use_id", ""), "tool")
                    body = block.get("content")
                    if isinstance(body, list):
                        body = " ".join(b.get("text", "") for b in body if isinstance(b, dict))
                    status = "failed" if block.get("is_error") else "result"
                    lines.append(f"[{name} {status}: {_clip(str(body or ''), RESULT_CHARS)}]")
            if said.strip():
                lines.append(f"Staff: {_clip(said, PIECE_CHARS)}")
        elif row.role == "assistant":
            for block in row.content:
                if block.get("type") == "text" and block.get("text", "").strip():
                    lines.append(f"Assistant: {_clip(block['text'], PIECE_CHARS)}")
                elif block.get("type") == "tool_use":
                    names[block.get("id", "")] = block.get("name", "tool")
                    lines.append(f"[Assistant called {block.get('name', 'tool')}]")
    body = "\n".join(lines)
    if len(body) > TRANSCRIPT_CHARS:  # keep the most recent part; the earlier summary leads anyway
        body = "[…]\n" + body[-TRANSCRIPT_CHARS:]
    return redact(body)


class Compactor:
    """`await compactor(conversation)`: summarize older messages when the conversation is long enough."""

    def __init__(self, db: Database, model: ModelClient, summarizer_model: str, *, prices: PriceBook | None = None,
                 budget_seconds: float = 3.0, threshold: int = 24, keep_last: int = 6,
                 observability: Observability | None = None) -> None:
        self.db, self.model, self.summarizer_model = db, model, summarizer_model
        self.prices = prices or PriceBook()
        self.budget_seconds, self.threshold, self.keep_last = budget_seconds, threshold, keep_last
        self.observability = observability

    async def __call__(self, conversation: Conversation, rows: list[Message] | None = None) -> bool:
        """Compact if the conversation is long enough; `rows` are its messages since the anchor when the
        caller just read them (else they are read here). True when a summary note was written."""
        try:
            return await self._compact(conversation, rows)
        except Exception as exc:  # compaction is an optimisation: never fail the turn for it
            reason = "timeout" if isinstance(exc, TimeoutError) else type(exc).__name__
            self._report("agent.compaction.failed", conversation, reason=reason)
            return False

    def _report(self, event: str, conversation: Conversation, **fields: Any) -> None:
        fields = {"org_id": str(conversation.org_id), "conversation_id": str(conversation.id), **fields}
        if self.observability is not None:
            self.observability.emit(event, **fields)
        else:
            log.info(event, **fields)

    async def _compact(self, conversation: Conversation, rows: list[Message] | None) -> bool:
        scope = {"org_id": conversation.org_id, "user_id": conversation.user_id}
        if rows is None:
            async with self.db.scope(**scope) as session:
                rows = await conversations.messages_since_anchor(session, conversation.id)
        anchor = rows[0] if rows and rows[0].role == "system_note" else None
        rows = rows[1:] if anchor is not None else rows
        if len(rows) < self.threshold:
            return False
        cut = choose_cut(rows, self.keep_last)
        if cut is None:
            log.info("agent.compaction.skipped", reason="no_clean_boundary", messages=len(rows))
            return False
        summarized, kept = rows[:cut], rows[cut:]
        earlier = user_text(anchor.content) if anchor is not None else None
        started = time.monotonic()
        summary = await self._summarize(conversation, transcript(summarized, earlier))
        async with self.db.scope(**scope) as session:
            await self._insert_note(session, conversation, kept[0].id, summary, through=summarized[-1],
                                    count=len(summarized))
        self._report("agent.compaction.completed", conversation, summarizedCount=len(summarized),
                     keptCount=len(kept), durationMs=int((time.monotonic() - started) * 1000))
        return True

    async def _summarize(self, conversation: Conversation, body: str) -> str:
        """The summary text; raises TimeoutError past the budget, the SDK's errors, or ValueError if empty."""
        request = ModelRequest(model=self.summarizer_model, system=[{"type": "text", "text": INSTRUCTIONS}],
                               tools=[], messages=[{"role": "user", "content": [{"type": "text", "text": body}]}],
                               max_tokens=600, metadata={FACTS: ModelFacts(purpose=SUMMARY)})
        response = await asyncio.wait_for(self.model.complete(request), self.budget_seconds)
        await record_cost(self.db, self.prices, conversation, self.summarizer_model, response.usage)
        summary = "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()
        if not summary:
            raise ValueError("empty summary")
        return summary

    async def _insert_note(self, session, conversation: Conversation, before: uuid.UUID, summary: str, *,
                           through: Message, count: int) -> None:
        """Put the note where message `before` is and move it and every later message up by one, in this
        transaction (its seq read here: replaced alternatives may sit between the rows the turn read)."""
        at_seq = await session.scalar(text("SELECT seq FROM conversation_messages WHERE id = :id"), {"id": before})
        params = {"c": conversation.id, "s": at_seq, "shift": _SHIFT, "moved": at_seq + _SHIFT}
        await session.execute(text("UPDATE conversation_messages SET seq = seq + :shift "
                                   "WHERE conversation_id = :c AND seq >= :s"), params)
        await session.execute(text("UPDATE conversation_messages SET seq = seq - :shift + 1 "
                                   "WHERE conversation_id = :c AND seq >= :moved"), params)
        await session.execute(text(
            "INSERT INTO conversation_messages (id, org_id, conversation_id, seq, role, content, page_context) "
            "VALUES (:id, :org, :c, :s, 'system_note', CAST(:content AS jsonb), CAST(:page AS jsonb))"),
            {**params, "id": uuid.uuid4(), "org": conversation.org_id,
             "content": json.dumps([{"type": "text", "text": summary}], ensure_ascii=False),
             "page": json.dumps({"summarizedThroughMessageId": str(through.id), "summarizedCount": count})})


async def record_cost(db: Database, prices: PriceBook, conversation: Conversation, model: str, usage: Any) -> None:
    """A summarizer call's tokens and cost in ai_usage_daily (turns=0): it counts toward the daily cap."""
    async with db.scope(org_id=conversation.org_id, user_id=conversation.user_id) as session:
        await record_turn(session, org_id=conversation.org_id, user_id=conversation.user_id,
                          day=datetime.now(UTC).date(), usage=usage,
                          cost_usd_micros=prices.cost_usd_micros(model, usage), turns=0)
