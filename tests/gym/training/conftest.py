from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text


class Members:
    def __init__(self, db) -> None:
        self.db = db

    async def add(self, org_id: uuid.UUID, name: str = "Dani Test", user_id: uuid.UUID | None = None) -> uuid.UUID:
        member_id = uuid.uuid4()
        first, _, last = name.partition(" ")
        async with self.db.owner() as session:
            await session.execute(text(
                "INSERT INTO members (id, org_id, first_name, last_name, full_name, user_id) "
                "VALUES (:i, :o, :f, :l, :n, :u)"), {"i": member_id, "o": org_id, "f": first, "l": last, "n": name,
                                                     "u": user_id})
        return member_id


@pytest.fixture
def members(db) -> Members:
    return Members(db)
