"""The trainer's ten routers, in TRAINER.md's order (included in the one registry by tools/catalog.py)."""

from __future__ import annotations

from tools.leaves.trainer.calendar import calendar
from tools.leaves.trainer.coach import coach
from tools.leaves.trainer.data import data
from tools.leaves.trainer.goals import goals
from tools.leaves.trainer.location import location
from tools.leaves.trainer.logbook import logbook
from tools.leaves.trainer.prefs import prefs
from tools.leaves.trainer.stats import stats
from tools.leaves.trainer.timers import timers
from tools.leaves.trainer.workout import workout
from tools.registry import ToolRouter

TRAINER_ROUTERS: tuple[ToolRouter, ...] = (coach, data, goals, prefs, logbook, timers, calendar, stats, workout,
                                           location)
