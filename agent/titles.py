"""Conversation titles: after a new conversation's first turn, ask the summarizer for a short title.

Best effort, 1.5 s budget, off the turn's path: `schedule(conversation)` starts a background task the
generator tracks (`drain()` awaits them; tests and shutdown use it), so `done` is never delayed. The
provisional title (the first message, trimmed) stays unless the summarizer answers in time; a title is
only replaced while it still is the provisional one.
"""

from __future__ import annotations

import asyncio
import re

import structlog
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agent.compaction import record_cost
from agent.conversations import Conversation, Message
from agent.costs import PriceBook
from agent.model import ModelClient, ModelRequest
from agent.model_facts import FACTS, TITLE, ModelFacts
from agent.request import user_text
from core.database import Database, rowcount

log = structlog.get_logger("agent.titles")

INSTRUCTIONS = (
    "Name this conversation between a gym's staff member and their assistant. Answer with a title of at "
    "most 6 words, in the same language as the staff member's message, with no quotes, no trailing "
    "punctuation and nothing else."
)
MAX_WORDS = 6
_QUOTES = "\"'“”„«»‘’`*#"


async def distinct_title(session: AsyncSession, conversation: Conversation, title: str) -> str:
    """`title`, or "title (2)", "(3)"...: the caller's conversations are told apart, never three "Find Saar"."""
    taken = set((await session.scalars(select(Conversation.title).where(
        Conversation.org_id == conversation.org_id, Conversation.user_id == conversation.user_id,
        Conversation.id != conversation.id, Conversation.title.like(f"{title[:180]}%")))).all())
    if title not in taken:
        return title
    n = 2
    while f"{title[:180]} ({n})" in taken:
        n += 1
    return f"{title[:180]} ({n})"


def clean_title(raw: str) -> str | None:
    """The first line without quotes or trailing punctuation, at most 6 words; None when nothing is left."""
    line = next((part for part in raw.strip().splitlines() if part.strip()), "")
    line = re.sub(r"^(title|titre|titel|כותרת|название)\s*:\s*", "", line.strip(), flags=re.IGNORECASE)
    words = line.strip(_QUOTES + " ").split()[:MAX_WORDS]
    title = " ".join(words).strip(_QUOTES + " .,:;!?…")
    return title[:200] or None


class TitleGenerator:
    def __init__(self, db: Database, model: ModelClient, summarizer_model: str, *, prices: PriceBook | None = None,
                 budget_seconds: float = 1.5) -> None:
        self.db, self.model, self.summarizer_model = db, model, summarizer_model
        self.prices = prices or PriceBook()
        self.budget_seconds = budget_seconds
        self._tasks: set[asyncio.Task[str | None]] = set()

    def schedule(self, conversation: Conversation) -> None:
        """Start titling `conversation` in the background; never raises."""
        try:
            task = asyncio.get_running_loop().create_task(self.generate(conversation))
        except Exception:
            log.warning("agent.title.not_scheduled")
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    __call__ = schedule

    async def drain(self, grace_seconds: float | None = None) -> None:
        """Wait for scheduled titles (tests, shutdown); past `grace_seconds` the rest are cancelled."""
        tasks = set(self._tasks)
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=grace_seconds)
        for task in pending:
            task.cancel()

    async def generate(self, conversation: Conversation) -> str | None:
        """The new title, or None when it kept the provisional one (slow, failed, empty, or already renamed)."""
        try:
            return await self._generate(conversation)
        except Exception as exc:  # best effort: the provisional title stays
            reason = "timeout" if isinstance(exc, TimeoutError) else type(exc).__name__
            log.warning("agent.title.failed", reason=reason, conversation_id=str(conversation.id))
            return None

    async def _generate(self, conversation: Conversation) -> str | None:
        async with self.db.scope(org_id=conversation.org_id, user_id=conversation.user_id) as session:
            provisional = await session.scalar(select(Conversation.title).where(Conversation.id == conversation.id))
            rows = list((await session.scalars(select(Message).where(
                Message.conversation_id == conversation.id, Message.role.in_(("user", "assistant")))
                .order_by(Message.seq).limit(6))).all())
        first_user = next((user_text(r.content) for r in rows if r.role == "user" and user_text(r.content)), "")
        first_reply = next(("".join(b.get("text", "") for b in r.content if b.get("type") == "text")
                            for r in rows if r.role == "assistant"), "")
        if not first_user.strip():
            return None
        body = f"Staff: {first_user[:1500]}"
        if first_reply.strip():
            body += f"\nAssistant: {first_reply[:600]}"
        request = ModelRequest(model=self.summarizer_model, system=[{"type": "text", "text": INSTRUCTIONS}],
                               tools=[], messages=[{"role": "user", "content": [{"type": "text", "text": body}]}],
                               max_tokens=30, metadata={FACTS: ModelFacts(purpose=TITLE)})
        response = await asyncio.wait_for(self.model.complete(request), self.budget_seconds)
        await record_cost(self.db, self.prices, conversation, self.summarizer_model, response.usage)
        title = clean_title("".join(b.get("text", "") for b in response.content if b.get("type") == "text"))
        if title is None:
            return None
        async with self.db.scope(org_id=conversation.org_id, user_id=conversation.user_id) as session:
            title = await distinct_title(session, conversation, title)
            condition = (Conversation.title.is_(None) if provisional is None else Conversation.title == provisional)
            result = await session.execute(update(Conversation).where(Conversation.id == conversation.id, condition)
                                           .values(title=title))
        return title if rowcount(result) else None
