"""Undoing a soft delete and a bulk publish: restore rows deleted less than `RESTORE_WINDOW` ago, unpublish
exactly the rows a publish changed.

The same window is the Undo window of every action card (agent/policy.py reads it from here), so a restore
the card offers is one this service accepts.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError

RESTORE_WINDOW = timedelta(hours=24)


async def restore(session: AsyncSession, model: Any, entity: str, org_id: uuid.UUID, ids: Sequence[uuid.UUID],
                  now: datetime, *, column: str = "deleted_at") -> list[uuid.UUID]:
    """Clear `column` (deleted_at, cancelled_at) on the rows of `ids` marked within the window; returns the
    ids restored, in the given order. Refuses when none is: `<entity>_not_found`, `not_deleted` or
    `undo_window_passed`."""
    table = model.__table__
    marks: dict[uuid.UUID, datetime | None] = {row[0]: row[1] for row in (await session.execute(
        select(table.c.id, table.c[column]).where(table.c.org_id == org_id, table.c.id.in_(list(ids))))).all()}
    if not marks:
        raise GymError(f"{entity}_not_found", f"No {entity.replace('_', ' ')} with those ids in this gym.",
                       "Nothing to restore; tell the user.")
    since = now - RESTORE_WINDOW
    if all(mark is None for mark in marks.values()):
        raise GymError("not_deleted", f"The {entity.replace('_', ' ')} is not deleted.", "Nothing to restore.")
    if all(mark is None or mark < since for mark in marks.values()):
        raise GymError("undo_window_passed", "It was deleted more than 24 hours ago.",
                       "Tell the user a delete can be undone for 24 hours only.")
    restored = set((await session.scalars(
        update(table).where(table.c.org_id == org_id, table.c.id.in_(list(marks)), table.c[column] >= since)
        .values({column: None}).returning(table.c.id))).all())
    return [row_id for row_id in ids if row_id in restored]


async def publish_changes(session: AsyncSession, model: Any, org_id: uuid.UUID, ids: Sequence[uuid.UUID],
                          *, live: str, published: bool = True) -> list[uuid.UUID]:
    """Of `ids`, the live rows a publish (with `published=False`, an unpublish) would change: those not yet in
    that state, in the given order. The one count a bulk publish's preview, approval and result all say."""
    table = model.__table__
    found = set((await session.scalars(select(table.c.id).where(
        table.c.org_id == org_id, table.c.id.in_(list(ids)), table.c.published.is_not(published),
        table.c[live].is_(None)))).all())
    return [row_id for row_id in ids if row_id in found]


async def unpublish(session: AsyncSession, model: Any, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
    """Unpublish exactly `ids` (those still published); returns the ids changed."""
    table = model.__table__
    changed = set((await session.scalars(update(table).where(
        table.c.org_id == org_id, table.c.id.in_(list(ids)), table.c.published.is_(True))
        .values(published=False).returning(table.c.id))).all())
    return [row_id for row_id in ids if row_id in changed]
