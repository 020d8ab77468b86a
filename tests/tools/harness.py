"""Run tools through the real runner against the real database, as a given role in a given org."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.tenancy import Caller, OrgAccess
from tests.factories import TestOrg, TestUser
from tools.catalog import build_registry
from tools.runner import ToolOutcome, ToolRunner

REGISTRY = build_registry()


def access_for(org: TestOrg, role: str, *, timezone: str | None = None) -> OrgAccess:
    return OrgAccess(org_id=org.id, org_name=org.name, tier=org.tier, timezone=timezone or org.timezone,
                     locale="en", budget_override_usd_micros=None, role=role)


def caller_for(user: TestUser) -> Caller:
    return Caller(user_id=user.id, clerk_id=user.clerk_id, email=user.email, name="Test Person")


@dataclass
class ToolHarness:
    runner: ToolRunner

    async def run(self, name: str, input: dict[str, Any], *, org: TestOrg, user: TestUser, role: str | None = None,
                  now: datetime | None = None, locale: str = "en") -> ToolOutcome:
        spec = REGISTRY.get(name)
        assert spec is not None, f"no tool {name}"
        return await self.runner.run(spec, input, access=access_for(org, role or user.role or "owner"),
                                     caller=caller_for(user), now=now, locale=locale)

    async def ok(self, name: str, input: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        outcome = await self.run(name, input, **kwargs)
        assert outcome.ok, outcome.error
        assert outcome.output is not None
        return outcome.output

    async def fails(self, name: str, input: dict[str, Any], code: str | None = None, **kwargs: Any) -> dict:
        outcome = await self.run(name, input, **kwargs)
        assert not outcome.ok, f"{name} unexpectedly succeeded: {outcome.output}"
        assert outcome.error is not None
        if code is not None:
            assert outcome.error["code"] == code, outcome.error
        return outcome.error


def roles_of(name: str) -> frozenset[str]:
    spec = REGISTRY.get(name)
    assert spec is not None
    return spec.roles
