"""program_templates router (filled in by the gym-domain work)."""

from __future__ import annotations

from tools.registry import ToolRouter

program_templates = ToolRouter("program_templates")
