"""The org-scoped repository: a live row only from the caller's org, patches of allowed fields only (with the
service's stable code for anything else), and soft delete that hides the row from later lookups."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gym import tasks
from gym.errors import GymError

NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)


async def test_get_patch_and_soft_delete_stay_inside_one_org(db, factory) -> None:
    org, other = await factory.org(), await factory.org()
    async with db.scope(org_id=org.id) as session:
        task = await tasks.create_task(session, org.id, title="Fix the rower", created_by=None)
        assert await tasks.REPOSITORY.get(session, other.id, task.id) is None
        assert await tasks.REPOSITORY.patch(session, other.id, task.id, {"title": "stolen"}) is None
        patched = await tasks.REPOSITORY.patch(session, org.id, task.id, {"title": "Fix the rower seat"})
        assert patched is not None and patched.title == "Fix the rower seat"
        with pytest.raises(GymError) as unknown:
            await tasks.REPOSITORY.patch(session, org.id, task.id, {"org_id": other.id})
        assert unknown.value.code == "invalid_field" and "org_id" in unknown.value.message
        assert "title" in (unknown.value.hint or "")
        assert await tasks.REPOSITORY.soft_delete(session, other.id, task.id, NOW) is None
        deleted = await tasks.REPOSITORY.soft_delete(session, org.id, task.id, NOW)
        assert deleted is not None and deleted.deleted_at == NOW
        assert deleted is task and task.deleted_at == NOW  # the row the session held is refreshed, not stale
        assert await tasks.REPOSITORY.soft_delete(session, org.id, task.id, NOW) is None  # already deleted
        assert await tasks.REPOSITORY.get(session, org.id, task.id) is None
        assert await tasks.REPOSITORY.patch(session, org.id, task.id, {"title": "again"}) is None


async def test_the_before_hook_runs_the_service_rules_before_anything_is_written(db, factory) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        task = await tasks.create_task(session, org.id, title="Order chalk", created_by=None)

        async def refuse(row) -> None:
            raise GymError("task_locked", f"{row.title} is locked")

        with pytest.raises(GymError):
            await tasks.REPOSITORY.patch(session, org.id, task.id, {"title": "Order tape"}, before=refuse)
        assert (await tasks.get_task(session, org.id, task.id)).title == "Order chalk"
