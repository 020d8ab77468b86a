"""Every router of the staff tool surface (TOOLS.md: 11 routers, 63 actions, and "The front desk's work": 12
more in bookings, memberships and messages) and the member's trainer routers
(TRAINER.md: 10 routers, 28 actions, role `member` only) and the nutrition pipeline's staff router
(NUTRITION.md: 4 actions), assembled into one registry.

A router is found where it is declared: every module-level `ToolRouter` of a module under `tools/leaves/` (its
subpackages included) is in the registry, so a new tool is its module and its locale strings, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from tools import leaves
from tools.registry import ToolRegistry, ToolRouter


def routers_in(package: ModuleType) -> tuple[ToolRouter, ...]:
    """The routers declared in `package`'s modules, in module-name order (each once)."""
    found: dict[int, ToolRouter] = {}
    for info in sorted(pkgutil.walk_packages(package.__path__, f"{package.__name__}."), key=lambda i: i.name):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, ToolRouter) and id(value) not in found:
                found[id(value)] = value
    return tuple(found.values())


def build_registry(routers: tuple[ToolRouter, ...] | None = None) -> ToolRegistry:
    """One registry of the given routers (default: every router under tools/leaves/, found afresh)."""
    registry = ToolRegistry()
    for router in routers if routers is not None else routers_in(leaves):
        registry.include(router)
    registry.validate_inverses()
    return registry
