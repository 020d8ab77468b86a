"""The member's own note per library exercise ("seat at notch 4", "elbows in"): kept by the exercise's key, so it
comes back the next time the exercise is in a workout under any of its names. The note is the member's text: it is
shown back to them and never logged."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from gym.training.models import MemberExerciseNote
from gym.training.records import exercise_key

MAX_NOTE = 1000


async def notes_for(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                    names: Iterable[str]) -> dict[str, str]:
    """The member's notes on these exercises, by exercise key."""
    keys = {exercise_key(n) for n in names}
    if not keys:
        return {}
    rows = (await session.scalars(select(MemberExerciseNote).where(
        MemberExerciseNote.org_id == org_id, MemberExerciseNote.member_id == member_id,
        MemberExerciseNote.exercise_key.in_(keys)))).all()
    return {r.exercise_key: r.note for r in rows}


async def save_note(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, name: str, note: str,
                    now: datetime) -> dict[str, Any]:
    """Keep (or, empty, forget) the member's note on exercise `name`."""
    key = exercise_key(name)
    text = note.strip()[:MAX_NOTE]
    if not text:
        await session.execute(delete(MemberExerciseNote).where(
            MemberExerciseNote.org_id == org_id, MemberExerciseNote.member_id == member_id,
            MemberExerciseNote.exercise_key == key))
        return {"name": name, "note": None, "updatedAt": now.isoformat()}
    await session.execute(insert(MemberExerciseNote).values(
        id=uuid.uuid4(), org_id=org_id, member_id=member_id, exercise_key=key, note=text, updated_at=now,
    ).on_conflict_do_update(constraint="uq_member_exercise_notes_member_exercise",
                            set_={"note": text, "updated_at": now}))
    return {"name": name, "note": text, "updatedAt": now.isoformat()}
