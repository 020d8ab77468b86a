"""Compact observations (001 §4.11): what the model reads back from each trainer tool.

A tool's own compact form is on its declaration (`observe=`, tools/observations.py: confirmations in a few
tokens, one-line summaries where that is enough); the rest is read back whole, as compact JSON (statistics,
timers, a workout's exercise list with warnings). Errors always go back whole ({code, message, hint}).
"""

from __future__ import annotations

import json
from typing import Any

from core.member_text import Marks, wrap
from tools.registry import ToolSpec


def observation(spec: ToolSpec | None, output: dict[str, Any], marks: Marks | None = None) -> str:
    """What the model reads of a tool's output; member-written text the `marks` name is in its envelope."""
    said = spec.observe(output) if spec is not None and spec.observe is not None else None
    if said is not None:
        return said
    return json.dumps(wrap(output, marks), ensure_ascii=False, default=str, separators=(",", ":"))
