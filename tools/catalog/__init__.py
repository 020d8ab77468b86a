"""Every router of the staff tool surface (TOOLS.md: 11 routers, 63 actions, and "The front desk's work": 12
more in bookings, memberships and messages) and the member's trainer routers
(TRAINER.md: 10 routers, 28 actions, role `member` only) and the nutrition pipeline's staff router
(NUTRITION.md: 4 actions), assembled into one registry."""

from __future__ import annotations

from tools.catalog.confirm_summaries import DESCRIBERS
from tools.catalog.desk_summaries import DESK_DESCRIBERS
from tools.leaves.analytics import analytics
from tools.leaves.analytics_activity import analytics_activity
from tools.leaves.assignments import assignments
from tools.leaves.bookings import bookings
from tools.leaves.bookings_desk import bookings_desk
from tools.leaves.class_sessions import class_sessions
from tools.leaves.class_types import class_types
from tools.leaves.forms import forms
from tools.leaves.member_training import member_training
from tools.leaves.memberships import memberships
from tools.leaves.messages import messages
from tools.leaves.nutrition import nutrition
from tools.leaves.program_templates import program_templates
from tools.leaves.programs import programs
from tools.leaves.read import read
from tools.leaves.read_lookup import read_lookup
from tools.leaves.tasks import tasks
from tools.leaves.trainer.routers import TRAINER_ROUTERS
from tools.leaves.workouts import workouts
from tools.registry import ToolRegistry, ToolRouter

ROUTERS: tuple[ToolRouter, ...] = (read, read_lookup, workouts, programs, assignments, bookings, bookings_desk,
                                   class_sessions, class_types, analytics, analytics_activity, tasks,
                                   program_templates, forms, member_training, nutrition, memberships, messages,
                                   *TRAINER_ROUTERS)


def build_registry(routers: tuple[ToolRouter, ...] = ROUTERS) -> ToolRegistry:
    registry = ToolRegistry()
    for router in routers:
        registry.include(router)
    registry.attach_describers({name: fn for name, fn in (DESCRIBERS | DESK_DESCRIBERS).items()
                                if name in registry.specs})
    registry.validate_inverses()
    return registry
