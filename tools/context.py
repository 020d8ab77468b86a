"""What a tool handler receives: its session (inside the org's RLS scope), the org, the caller, the clock,
and the embedder its searches use."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from core.tenancy import Caller, OrgAccess
from rag.embeddings import Embedder


@dataclass
class ToolContext:
    session: AsyncSession
    org: OrgAccess
    caller: Caller
    locale: str
    now: datetime
    embedder: Embedder | None = None  # the active embedding model of the org's RAG index
    conversation_id: Any = None  # the conversation (or trainer session) the call belongs to, if any

    @property
    def org_id(self):
        return self.org.org_id

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.org.timezone)

    @property
    def local_now(self) -> datetime:
        return self.now.astimezone(self.tz)
