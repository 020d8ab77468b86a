"""How a fuzz run fails: briefly (shared by tests/api/test_schemathesis*.py)."""

from __future__ import annotations

import json

import pytest

FAILURE_CHARS = 6000


def fail_briefly(problems: object) -> None:
    """Fail with what the fuzz found, as plain text of bounded size and no traceback: pytest formats nothing of
    the fuzz's objects (formatting a schemathesis failure once took a loaded worker down, and its tests with it)."""
    text = json.dumps(problems, indent=1, default=str)
    if len(text) > FAILURE_CHARS:
        text = text[:FAILURE_CHARS] + f"\n... ({len(text) - FAILURE_CHARS} more characters)"
    pytest.fail(text, pytrace=False)
