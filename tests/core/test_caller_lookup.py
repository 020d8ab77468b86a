"""The guards' caller lookup (`app_caller`, migration 0015): one statement outside any transaction, the same
answers as the table reads it replaced, and no tenancy left behind."""

from __future__ import annotations

import uuid

from sqlalchemy import event, text

from core.tenancy import find_caller_in_org, find_user_by_clerk_id


async def test_a_member_of_the_org_gets_their_role_and_the_org(db, factory) -> None:
    org = await factory.org(tier="elite", timezone="Europe/Moscow", budget=-1)
    coach = await factory.user(org, "coach", name="Noa Coach")
    async with db.lookup() as conn:
        caller, access = await find_caller_in_org(conn, coach.clerk_id, org.id)
    assert caller is not None and access is not None
    assert (caller.user_id, caller.email, caller.name) == (coach.id, coach.email, "Noa Coach")
    assert (access.org_id, access.role, access.tier, access.timezone) == (org.id, "coach", "elite", "Europe/Moscow")
    assert access.budget_override_usd_micros == -1 and access.daily_cap_usd_micros == -1


async def test_another_org_an_ended_membership_and_an_unknown_user_get_no_access(db, factory) -> None:
    org, other = await factory.org(), await factory.org()
    owner = await factory.user(org, "owner")
    former = await factory.user(org, "coach")
    async with db.owner() as session:
        await session.execute(text("UPDATE memberships SET status = 'disabled' WHERE user_id = :u"),
                              {"u": former.id})
    async with db.lookup() as conn:
        assert (await find_caller_in_org(conn, owner.clerk_id, other.id))[1] is None
        assert (await find_caller_in_org(conn, owner.clerk_id, other.id))[0] is not None  # the user is known
        assert (await find_caller_in_org(conn, former.clerk_id, org.id))[1] is None
        assert await find_caller_in_org(conn, "user_nobody", org.id) == (None, None)
        assert (await find_user_by_clerk_id(conn, owner.clerk_id)).user_id == owner.id  # type: ignore[union-attr]
        assert await find_user_by_clerk_id(conn, "user_nobody") is None


async def test_the_lookup_is_one_statement_and_leaves_no_tenancy_on_the_connection(db, factory) -> None:
    org = await factory.org()
    owner = await factory.user(org, "owner")
    sent: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        sent.append(statement)

    event.listen(db.app_engine.sync_engine, "before_cursor_execute", record)
    try:
        async with db.lookup() as conn:
            _, access = await find_caller_in_org(conn, owner.clerk_id, org.id)
            in_transaction = (await conn.get_raw_connection()).driver_connection.is_in_transaction()
            after = await conn.scalar(text("SELECT current_setting('app.org_id', true)"))
            seen = await conn.scalar(text("SELECT count(*) FROM memberships"))
    finally:
        event.remove(db.app_engine.sync_engine, "before_cursor_execute", record)
    assert access is not None
    assert sent[0] == "SELECT * FROM app_caller($1::VARCHAR, $2::UUID)" and len(sent) == 3
    assert not in_transaction  # no BEGIN was sent: the statement committed on its own
    assert after in (None, "")  # the function's own setting ended with its statement
    assert seen == 0  # outside a scope, row-level security shows the app role nothing


async def test_inside_a_scope_the_lookup_puts_the_scopes_tenancy_back(db, factory) -> None:
    org, other = await factory.org(), await factory.org()
    owner = await factory.user(other, "owner")
    async with db.scope(org_id=org.id) as session:
        _, access = await find_caller_in_org(session, owner.clerk_id, other.id)
        still = await session.scalar(text("SELECT current_setting('app.org_id', true)"))
    assert access is not None and access.org_id == other.id
    assert uuid.UUID(still) == org.id
