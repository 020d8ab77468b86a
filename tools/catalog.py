"""Every router of the staff tool surface, assembled into one registry."""

from __future__ import annotations

from tools.leaves.read import read
from tools.leaves.tasks import tasks
from tools.registry import ToolRegistry, ToolRouter

ROUTERS: tuple[ToolRouter, ...] = (read, tasks)


def build_registry(routers: tuple[ToolRouter, ...] = ROUTERS) -> ToolRegistry:
    registry = ToolRegistry()
    for router in routers:
        registry.include(router)
    registry.validate_inverses()
    return registry
