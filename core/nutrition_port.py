"""The nutrition pipeline's port for the layers below it: the `nutrition__*` staff tools call it, and
`pipeline/` (which sits above them) registers its implementation when the service starts.

Every method works inside the caller's transaction (`session`, in the org's RLS scope); outputs are
plain JSON-ready dicts. A method that leaves the run with work to do also queues its job once that
transaction commits (never before: the worker must find the run).
"""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import ServiceError


class NutritionUnavailable(ServiceError):
    code = "nutrition_unavailable"
    status = 503


class NutritionPort(Protocol):
    async def start_run(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                        intake: dict[str, Any], *, started_by: uuid.UUID) -> dict[str, Any]: ...

    async def current_plan(self, session: AsyncSession, org_id: uuid.UUID,
                           member_id: uuid.UUID) -> dict[str, Any] | None: ...

    async def submit_checkin(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             checkin: dict[str, Any], *, submitted_by: uuid.UUID) -> dict[str, Any]: ...

    async def record_clearance(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                               note: str, *, recorded_by: uuid.UUID) -> dict[str, Any]: ...


_registered: list[NutritionPort] = []


def register_nutrition(port: NutritionPort) -> None:
    """Install the pipeline's implementation (the last registration wins)."""
    _registered[:] = [port]


def nutrition_port() -> NutritionPort:
    if not _registered:
        raise NutritionUnavailable(detail="the nutrition pipeline is not running in this process")
    return _registered[0]
