"""analytics router (filled in by the gym-domain work)."""

from __future__ import annotations

from tools.registry import ToolRouter

analytics = ToolRouter("analytics")
