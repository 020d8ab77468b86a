"""Remembered answers for `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): a client that retries
a write with the same key gets the first answer again and nothing runs twice.

The key is claimed in the transaction that does the work and the answer is written in it too, so a row is
either absent (the work rolled back: the next try runs it) or complete. A concurrent retry waits on the
claim's row lock and then reads the finished answer. Keys belong to one org and user, live for a day, and
a key used again for a different request is refused (422 `idempotency_key_reused`).

A stored answer is gone a day after it was written: a claim first deletes its user's expired keys (their
primary key's prefix), and `sweep` (every hour in each API process, api/app/) deletes every org's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy import ForeignKey, Integer, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

import core.tenancy  # noqa: F401  (organizations, users: the tables these foreign keys name)
from core.database import Base, Database, rowcount
from core.errors import InvalidInput

log = structlog.get_logger("core.idempotency")

KEY_TTL = timedelta(hours=24)
SWEEP_EVERY_SECONDS = 3600.0
SWEEP_BATCH = 5000
KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"  # visible ASCII, as the header's examples (UUIDs, opaque tokens)


class IdempotencyKey(Base):
    __tablename__ = "idempotency_keys"

    org_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None] = mapped_column(Integer)
    response: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime]


@dataclass(frozen=True)
class Answer:
    """The answer a request got: what a retry with its key gets again."""

    status: int
    body: dict[str, Any]


def fingerprint(method: str, path: str, body: Any) -> str:
    """sha256 of the request as the service read it: method, route (its path in canonical form: the caller
    normalizes ids) and the JSON body in canonical form."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()


# The user's keys past KEY_TTL (the primary key's prefix): purged before each claim.
_PURGE_USER = text("DELETE FROM idempotency_keys WHERE org_id = :org_id AND user_id = :user_id "
                   "AND created_at < now() - make_interval(secs => :ttl)")
# Every org's (the schema owner's sweep: row-level security would limit the app role to one org), in batches.
_SWEEP = text("""
    DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(secs => :ttl) LIMIT :batch))""")
# A key older than KEY_TTL is claimed afresh, as if it had never been used.
_CLAIM = text("""
    INSERT INTO idempotency_keys (org_id, user_id, key, fingerprint)
    VALUES (:org_id, :user_id, :key, :fingerprint)
    ON CONFLICT (org_id, user_id, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, status_code = NULL, response = NULL, created_at = now()
     WHERE idempotency_keys.created_at < now() - make_interval(secs => :ttl)
    RETURNING true AS claimed""")
_READ = text("SELECT fingerprint, status_code, response FROM idempotency_keys "
             "WHERE org_id = :org_id AND user_id = :user_id AND key = :key")
_REMEMBER = text("UPDATE idempotency_keys SET status_code = :status, response = CAST(:body AS jsonb) "
                 "WHERE org_id = :org_id AND user_id = :user_id AND key = :key")


async def claim(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID, key: str,
                request_fingerprint: str) -> Answer | None:
    """None: the key is ours, do the work and `remember` its answer in this transaction. An Answer: the same
    request ran before, answer it again. A different request under the key: 422 idempotency_key_reused."""
    params = {"org_id": org_id, "user_id": user_id, "key": key}
    await session.execute(_PURGE_USER, {"org_id": org_id, "user_id": user_id, "ttl": KEY_TTL.total_seconds()})
    claimed = (await session.execute(_CLAIM, {**params, "fingerprint": request_fingerprint,
                                              "ttl": KEY_TTL.total_seconds()})).first()
    if claimed is not None:
        return None
    row = (await session.execute(_READ, params)).one()
    if row.fingerprint != request_fingerprint:
        raise InvalidInput("idempotency_key_reused", detail="the Idempotency-Key was used for another request")
    if row.status_code is None:  # cannot happen: the claim and its answer commit together
        raise InvalidInput("idempotency_key_reused", detail="the Idempotency-Key has no answer")
    return Answer(status=row.status_code, body=row.response or {})


async def remember(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID, key: str, answer: Answer) -> None:
    await session.execute(_REMEMBER, {"org_id": org_id, "user_id": user_id, "key": key, "status": answer.status,
                                      "body": json.dumps(answer.body, default=str)})


async def sweep(db: Database) -> int:
    """Delete every stored answer older than KEY_TTL, in batches; returns how many."""
    deleted = 0
    while True:
        async with db.owner() as session:
            batch = rowcount(await session.execute(_SWEEP, {"ttl": KEY_TTL.total_seconds(), "batch": SWEEP_BATCH}))
        deleted += batch
        if batch < SWEEP_BATCH:
            return deleted


async def sweep_forever(db: Database, every_seconds: float = SWEEP_EVERY_SECONDS) -> None:
    """`sweep` now and then every `every_seconds` while the app runs; a failed sweep is tried again next time."""
    while True:
        try:
            await sweep(db)
        except Exception:  # the database away for a moment: the next sweep catches up
            log.warning("idempotency.sweep_failed")
        await asyncio.sleep(every_seconds)
