"""Row-level security backs up every query filter: no org set → no rows; another org → none of ours."""

import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError


async def _conversation(db, org, user) -> uuid.UUID:
    conv_id = uuid.uuid4()
    async with db.owner() as session:
        await session.execute(text("INSERT INTO conversations (id, org_id, user_id, title) VALUES (:i, :o, :u, 't')"),
                              {"i": conv_id, "o": org.id, "u": user.id})
    return conv_id


async def test_no_org_set_sees_no_rows(db, factory) -> None:
    org = await factory.org()
    user = await factory.user(org)
    await _conversation(db, org, user)
    async with db.scope() as session:
        count = await session.scalar(text("SELECT count(*) FROM conversations"))
        memberships = await session.scalar(text("SELECT count(*) FROM memberships"))
    assert count == 0
    assert memberships == 0


async def test_other_org_sees_none_of_this_orgs_rows(db, factory) -> None:
    org_a, org_b = await factory.org(), await factory.org()
    user_a = await factory.user(org_a)
    conv = await _conversation(db, org_a, user_a)
    async with db.scope(org_id=org_b.id) as session:
        unfiltered = (await session.execute(text("SELECT id FROM conversations"))).scalars().all()
        by_id = await session.scalar(text("SELECT count(*) FROM conversations WHERE id = :i"), {"i": conv})
    assert conv not in unfiltered
    assert by_id == 0
    async with db.scope(org_id=org_a.id) as session:
        own = await session.scalar(text("SELECT count(*) FROM conversations WHERE id = :i"), {"i": conv})
    assert own == 1


async def test_writing_a_row_for_another_org_is_refused(db, factory) -> None:
    org_a, org_b = await factory.org(), await factory.org()
    user_a = await factory.user(org_a)
    with pytest.raises(DBAPIError, match="row-level security"):
        async with db.scope(org_id=org_b.id) as session:
            await session.execute(text("INSERT INTO conversations (org_id, user_id) VALUES (:o, :u)"),
                                  {"o": org_a.id, "u": user_a.id})


async def test_app_connections_run_as_the_non_owner_role(db) -> None:
    async with db.scope() as session:
        who = await session.scalar(text("SELECT current_user"))
        bypass = await session.scalar(text("SELECT rolbypassrls OR rolsuper FROM pg_roles WHERE rolname = current_user"))
    assert who == "spotter_app"
    assert bypass is False


async def test_user_sees_own_memberships_across_orgs_only(db, factory) -> None:
    org_a, org_b = await factory.org(), await factory.org()
    user = await factory.user(org_a, "coach")
    await factory.join(user, org_b, "admin")
    stranger = await factory.user(org_a, "owner")  # shares org_a: their membership row must stay hidden
    async with db.scope(user_id=user.id) as session:
        mine = (await session.execute(text("SELECT user_id, org_id FROM memberships"))).all()
        orgs = (await session.execute(text("SELECT id FROM organizations"))).scalars().all()
    assert sorted(mine) == sorted([(user.id, org_a.id), (user.id, org_b.id)])
    assert set(orgs) == {org_a.id, org_b.id}
    async with db.scope(user_id=stranger.id) as session:
        theirs = (await session.execute(text("SELECT user_id, org_id FROM memberships"))).all()
    assert theirs == [(stranger.id, org_a.id)]


async def test_the_scope_settings_ride_with_begin_and_end_with_the_transaction(embedded_pg) -> None:
    """`Database.scope` sends its tenancy settings with the transaction's BEGIN (no statement of their own); they
    hold in that transaction only, and a scope that ran no statement leaves nothing for the connection's next
    user (one pooled connection, so every step below reuses it)."""
    from sqlalchemy import event

    from core.database import Database

    db = Database(embedded_pg.url(), pool_size=1)
    db.app_engine.pool._max_overflow = 0  # exactly one connection
    sent: list[str] = []
    event.listen(db.app_engine.sync_engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: sent.append(statement))
    org, user = uuid.uuid4(), uuid.uuid4()
    show = text("SELECT current_setting('app.org_id', true) AS org, current_setting('app.user_id', true) AS usr")
    try:
        async with db.scope(org_id=org, user_id=user) as session:
            row = (await session.execute(show)).one()
        assert (row.org, row.usr) == (str(org), str(user))
        assert not any("set_config" in s for s in sent)  # no statement of their own
        async with db.scope(org_id=uuid.uuid4(), user_id=uuid.uuid4()):
            pass  # ran nothing: its settings were never sent, and must not be sent later
        async with db.app_engine.connect() as conn:  # the same connection, outside any scope
            row = (await conn.execute(show)).one()
        assert (row.org or "", row.usr or "") == ("", "")
        async with db.scope() as session:
            row = (await session.execute(show)).one()
        assert (row.org, row.usr) == ("", "")
    finally:
        await db.dispose()
