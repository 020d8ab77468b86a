"""class_types router (filled in by the gym-domain work)."""

from __future__ import annotations

from tools.registry import ToolRouter

class_types = ToolRouter("class_types")
