"""The MCP SDK (~1.5 s of CPU to import) loads with the first MCP request, not with the app (api/mcp/routes.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_app_starts_without_the_mcp_sdk() -> None:
    probe = "import sys, api.app, api.cli\nprint(sorted(m for m in ('mcp', 'mcp_types', 'sse_starlette') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
