"""The inverses that undo a soft delete or a bulk publish, declared on the router of what they undo.

`add_restore(router, ...)` adds `<router>__restore` ({id}), `add_bulk_restore` `<router>__bulk_restore` ({ids})
and `add_bulk_unpublish` `<router>__bulk_unpublish` ({ids}); each calls gym/restore.py, which accepts rows
deleted less than 24 hours ago (the Undo window) and unpublishes exactly the rows a publish changed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from gym import restore as service
from tools.context import ToolContext
from tools.registry import Audit, Inverse, ToolRouter

MAX_IDS = 2000


class RestoreInput(BaseModel):
    id: uuid.UUID


class RestoreManyInput(BaseModel):
    ids: list[uuid.UUID] = Field(min_length=1, max_length=MAX_IDS)


class RestoredOut(BaseModel):
    count: int
    ids: list[uuid.UUID]
    id: uuid.UUID | None = None
    restored: bool | None = None
    unpublished: bool | None = None


def changed_ids(output: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse input of a bulk change: exactly the rows it changed (KeyError when it changed none)."""
    ids = output["changedIds"]
    if not ids:
        raise KeyError("changedIds")
    return {"ids": ids}


RESTORE = "restore"
BULK_RESTORE = "bulk_restore"
BULK_UNPUBLISH = "bulk_unpublish"


def restore_inverse(router: str) -> Inverse:
    return Inverse(router, RESTORE, lambda out: {"id": out["id"]})


def bulk_inverse(router: str, action: str) -> Inverse:
    return Inverse(router, action, changed_ids)


def add_restore(router: ToolRouter, *, model: Any, entity: str, roles: Iterable[str],
                column: str = "deleted_at") -> None:
    words = entity.replace("_", " ")

    @router.agent_tool(action=RESTORE, summary=f"Restore a {words} deleted in the last 24 hours (the Undo of its "
                                               "delete).",
                       input=RestoreInput, roles=roles, side_effects="write",
                       audit=Audit(entity, f"{entity}.restore"))
    async def restore_one(ctx: ToolContext, input: RestoreInput) -> RestoredOut:
        ids = await service.restore(ctx.session, model, entity, ctx.org_id, [input.id], ctx.now, column=column)
        return RestoredOut(id=input.id, count=len(ids), ids=ids, restored=True)


def add_bulk_restore(router: ToolRouter, *, model: Any, entity: str, roles: Iterable[str],
                     column: str = "deleted_at") -> None:
    words = entity.replace("_", " ")

    @router.agent_tool(action=BULK_RESTORE, summary=f"Restore exactly these {words}s, deleted in the last 24 "
                                                    "hours (the Undo of a bulk delete).",
                       input=RestoreManyInput, roles=roles, side_effects="write",
                       audit=Audit(entity, f"{entity}.bulk_restore"))
    async def restore_many(ctx: ToolContext, input: RestoreManyInput) -> RestoredOut:
        ids = await service.restore(ctx.session, model, entity, ctx.org_id, input.ids, ctx.now, column=column)
        return RestoredOut(count=len(ids), ids=ids, restored=True)


def add_bulk_unpublish(router: ToolRouter, *, model: Any, entity: str, roles: Iterable[str]) -> None:
    words = entity.replace("_", " ")

    @router.agent_tool(action=BULK_UNPUBLISH, summary=f"Unpublish exactly these {words}s (the Undo of a bulk "
                                                      "publish: the rows it published).",
                       input=RestoreManyInput, roles=roles, side_effects="write",
                       audit=Audit(entity, f"{entity}.bulk_unpublish"))
    async def unpublish_many(ctx: ToolContext, input: RestoreManyInput) -> RestoredOut:
        ids = await service.unpublish(ctx.session, model, ctx.org_id, input.ids)
        return RestoredOut(count=len(ids), ids=ids, unpublished=True)
