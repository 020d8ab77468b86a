"""The caller's own member record, which every trainer tool acts on (no tool takes a member id)."""

from __future__ import annotations

import uuid
from datetime import datetime

from gym.training.profiles import Units, get_units, member_for_user
from tools.context import ToolContext
from tools.errors import ToolFailed

MEMBER: frozenset[str] = frozenset({"member"})


async def me(ctx: ToolContext) -> uuid.UUID:
    member = await member_for_user(ctx.session, ctx.org_id, ctx.caller.user_id)
    if member is None:
        raise ToolFailed("member_profile_required", "The caller has no member record in this gym.",
                         "Tell the user the trainer is for gym members.")
    return member.id


async def units(ctx: ToolContext, member_id: uuid.UUID) -> Units:
    return await get_units(ctx.session, ctx.org_id, member_id)


def session_uuid(ctx: ToolContext) -> uuid.UUID | None:
    value = ctx.conversation_id
    return value if isinstance(value, uuid.UUID) or value is None else uuid.UUID(str(value))


def iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
