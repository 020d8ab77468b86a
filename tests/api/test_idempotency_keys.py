"""Idempotency keys over HTTP: the fingerprint is the normalized route (an org id spelled upper-case is the same
request, answered again), and stored answers are purged a day after they were written."""

from __future__ import annotations

from sqlalchemy import text

from core import idempotency
from tests.api.test_trainer_app_endpoints import _member

SET = {"exerciseId": "ex_001", "reps": 10, "load": 15}


async def _keys(db, user_id) -> list[str]:
    async with db.owner() as session:
        return list((await session.scalars(text("SELECT key FROM idempotency_keys WHERE user_id = :u ORDER BY key"),
                                           {"u": user_id})).all())


async def test_the_same_request_with_an_upper_cased_org_id_is_answered_again(client, db, factory) -> None:
    t = await _member(db, factory)
    headers = {**t.user.headers, "Idempotency-Key": "set-1"}
    first = await client.post(f"/organizations/{t.org.id}/trainer/workout/sets", json=SET, headers=headers)
    assert first.status_code == 201, first.text
    upper = str(t.org.id).upper()
    again = await client.post(f"/organizations/{upper}/trainer/workout/sets", json=SET, headers=headers)
    assert (again.status_code, again.json()) == (201, first.json())
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM exercise_sets WHERE member_id = :m AND undone_at IS NULL"),
                                    {"m": t.member_id}) == 1
    other = await client.post(f"/organizations/{upper}/trainer/workout/sets", json={**SET, "reps": 9}, headers=headers)
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")


async def test_stored_answers_are_purged_after_a_day(client, db, factory) -> None:
    t = await _member(db, factory)
    someone = await _member(db, factory)
    stale = {"o": t.org.id, "u": t.user.id}
    async with db.owner() as session:
        for org, user, key in ((t.org.id, t.user.id, "old"), (someone.org.id, someone.user.id, "theirs-old")):
            await session.execute(text(
                "INSERT INTO idempotency_keys (org_id, user_id, key, fingerprint, status_code, response, created_at) "
                "VALUES (:o, :u, :k, 'f', 201, '{}', now() - interval '25 hours')"), {"o": org, "u": user, "k": key})
        await session.execute(text(
            "INSERT INTO idempotency_keys (org_id, user_id, key, fingerprint, status_code, response, created_at) "
            "VALUES (:o, :u, 'recent', 'f', 201, '{}', now() - interval '23 hours')"), stale)
    response = await client.post(f"/organizations/{t.org.id}/trainer/workout/sets", json=SET,
                                 headers={**t.user.headers, "Idempotency-Key": "new"})
    assert response.status_code == 201
    assert await _keys(db, t.user.id) == ["new", "recent"]  # the caller's day-old answer went with their next write
    assert await _keys(db, someone.user.id) == ["theirs-old"]
    assert await idempotency.sweep(db) >= 1  # the hourly sweep takes every org's
    assert await _keys(db, someone.user.id) == []
    assert await _keys(db, t.user.id) == ["new", "recent"]
