"""A member linked to a signed-in user: the caller every trainer test needs."""

from __future__ import annotations

import uuid

from sqlalchemy import text


async def link_member(db, org_id: uuid.UUID, user_id: uuid.UUID | None, name: str = "Dani Mizrahi") -> uuid.UUID:
    member_id = uuid.uuid4()
    first, _, last = name.partition(" ")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO members (id, org_id, first_name, last_name, full_name, user_id) "
                                   "VALUES (:i, :o, :f, :l, :n, :u)"),
                              {"i": member_id, "o": org_id, "f": first, "l": last, "n": name, "u": user_id})
    return member_id
