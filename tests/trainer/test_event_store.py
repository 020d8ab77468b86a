"""The trainer's event store: append-only events with a unique seq per session, retried on a lost race;
sessions owned by their member, 24 h expiry, cost totals; RLS binds both tables to the org."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from agent.conversations import Owner
from agent.trainer import store
from tests.trainer.members import link_member

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


async def _session(db, factory, now=NOW):
    org = await factory.org()
    user = await factory.user(org, "member")
    member_id = await link_member(db, org.id, user.id)
    async with db.scope(org_id=org.id, user_id=user.id) as s:
        row = await store.create_session(s, org_id=org.id, member_id=member_id, user_id=user.id, now=now)
    return org, user, member_id, row.id


def _owner(org, user) -> Owner:
    return Owner(org.id, user.id, store.PERSONA)


async def test_events_get_consecutive_seqs_and_concurrent_appends_never_collide(db, factory) -> None:
    """Six writers read the same max(seq); all but one lose the insert and retry with the next number."""
    org, user, _, sid = await _session(db, factory)

    async def one(n: int) -> int:
        async with db.scope(org_id=org.id, user_id=user.id) as s:
            return await store.append(s, org_id=org.id, session_id=sid, type="user_message",
                                      payload={"message": f"m{n}"})

    seqs = await asyncio.gather(*(one(n) for n in range(6)))
    assert sorted(seqs) == [1, 2, 3, 4, 5, 6]
    async with db.scope(org_id=org.id) as s:
        stored = await store.events(s, sid)
    assert [e.seq for e in stored] == [1, 2, 3, 4, 5, 6]


async def test_events_cannot_be_updated_or_deleted_by_the_service(db, factory) -> None:
    org, user, _, sid = await _session(db, factory)
    async with db.scope(org_id=org.id, user_id=user.id) as s:
        await store.append(s, org_id=org.id, session_id=sid, type="user_message", payload={"message": "a"})
    for statement in ("UPDATE trainer_events SET type = 'error'", "DELETE FROM trainer_events"):
        with pytest.raises(DBAPIError):
            async with db.scope(org_id=org.id, user_id=user.id) as s:
                await s.execute(text(statement))


async def test_rls_hides_another_orgs_sessions_and_events(db, factory) -> None:
    org, user, member_id, sid = await _session(db, factory)
    async with db.scope(org_id=org.id, user_id=user.id) as s:
        await store.append(s, org_id=org.id, session_id=sid, type="user_message", payload={"message": "a"})
    other = await factory.org()
    async with db.scope(org_id=other.id) as s:
        assert await s.scalar(text("SELECT count(*) FROM trainer_sessions")) == 0
        assert await s.scalar(text("SELECT count(*) FROM trainer_events")) == 0
        assert await store.get_owned(s, _owner(org, user), member_id, sid) is None


async def test_a_session_belongs_to_its_member(db, factory) -> None:
    org, user, member_id, sid = await _session(db, factory)
    async with db.scope(org_id=org.id) as s:
        assert (await store.get_owned(s, _owner(org, user), member_id, sid)).id == sid
        assert await store.get_owned(s, _owner(org, user), uuid.uuid4(), sid) is None


async def test_idle_sessions_expire_after_24_hours(db, factory) -> None:
    org, user, member_id, sid = await _session(db, factory)
    async with db.scope(org_id=org.id) as s:
        assert (await store.latest_active(s, _owner(org, user), member_id, NOW + timedelta(hours=23))).id == sid
    async with db.scope(org_id=org.id) as s:
        assert await store.latest_active(s, _owner(org, user), member_id, NOW + timedelta(hours=24, minutes=1)) is None
        row = await store.get_owned(s, _owner(org, user), member_id, sid)
        assert row.status == "expired"


async def test_cost_totals_add_up(db, factory) -> None:
    org, user, member_id, sid = await _session(db, factory)
    for _ in range(2):
        async with db.scope(org_id=org.id) as s:
            await store.add_costs(s, sid, tokens=100, cached=40, cost=7)
    async with db.scope(org_id=org.id) as s:
        row = await store.get_owned(s, _owner(org, user), member_id, sid)
        assert (row.total_tokens, row.cached_tokens, row.cost_usd_micros) == (200, 80, 14)


async def test_context_events_start_at_the_last_checkpoint(db, factory) -> None:
    org, user, _, sid = await _session(db, factory)
    async with db.scope(org_id=org.id) as s:
        for type, payload in [("user_message", {"message": "old"}), ("llm_request", {"model": "m"}),
                              ("checkpoint", {"summary": "s"}), ("user_message", {"message": "new"})]:
            await store.append(s, org_id=org.id, session_id=sid, type=type, payload=payload)
        context = await store.events(s, sid, context_only=True, since_checkpoint=True)
    assert [e.type for e in context] == ["checkpoint", "user_message"]
