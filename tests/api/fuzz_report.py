"""How a fuzz run fails: briefly (shared by tests/api/test_schemathesis*.py)."""

from __future__ import annotations

import json

import pytest

FAILURE_CHARS = 6000
# A fuzz stops after this even with more to do (on two busy cores one ran past pytest's timeout, failing in the middle
# of the fuzz); its test's own timeout leaves room for the setup.
FUZZ_BUDGET_SECONDS = 420
TEST_TIMEOUT_SECONDS = 900
# The app builds its OpenAPI document on the first request for it: on two cores at a load of 16 that took over the
# 10 s schemathesis waits by default (the owner's run failed to load its schema).
SCHEMA_TIMEOUT_SECONDS = 120


def fail_briefly(problems: object) -> None:
    """Fail with what the fuzz found, as plain text of bounded size and no traceback: pytest formats nothing of
    the fuzz's objects (formatting a schemathesis failure once took a loaded worker down, and its tests with it)."""
    text = json.dumps(problems, indent=1, default=str)
    if len(text) > FAILURE_CHARS:
        text = text[:FAILURE_CHARS] + f"\n... ({len(text) - FAILURE_CHARS} more characters)"
    pytest.fail(text, pytrace=False)
