"""Playwright's `expect`, checking every 100 ms at most for as long as a test waits.

Playwright retries an assertion after 20, 50, 100, 100 ms and then every 500 ms, but only every 100 ms when the
assertion's timeout is under 2.5 s (it drops the steps longer than a fifth of the timeout). A test waiting 15 s
for a turn that the service ends after 300 ms thus saw it up to half a second late, on every turn of every
browser test. This `expect` asks Playwright's in slices of `SLICE_MS` until the test's own timeout (the same
default, `TIMEOUT_MS`, or the one a call passes) has passed, then fails with Playwright's last message: the same
assertions, the same patience, without the sleep.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

_expect = pytest.importorskip("playwright.async_api", reason="browser tests need the `playwright` package").expect

TIMEOUT_MS = 15_000  # a wait, not a budget: two pytest workers share 2 cores with Chromium and Postgres
SLICE_MS = 2_000  # under 2.5 s, so Playwright keeps checking every 100 ms


class _Patient:
    """`expect(target)`'s assertions (and `.not_`'s), each retried in slices until the test's timeout."""

    def __init__(self, target: Any, message: str | None = None, negated: bool = False) -> None:
        self._target, self._message, self._negated = target, message, negated

    @property
    def not_(self) -> _Patient:
        return _Patient(self._target, self._message, not self._negated)

    def __getattr__(self, name: str) -> Any:
        if not name.startswith(("to_", "not_to_")):
            raise AttributeError(name)

        async def check(*args: Any, timeout: float | None = None, **kwargs: Any) -> None:  # noqa: ASYNC109 (Playwright's own keyword)
            deadline = time.monotonic() + (TIMEOUT_MS if timeout is None else timeout) / 1000
            while True:
                left_ms = (deadline - time.monotonic()) * 1000
                assertions = _expect(self._target, self._message)
                if self._negated:
                    assertions = assertions.not_
                try:
                    return await getattr(assertions, name)(*args, timeout=max(1.0, min(SLICE_MS, left_ms)), **kwargs)
                except AssertionError:
                    if left_ms <= SLICE_MS:
                        raise

        return check


def expect(target: Any, message: str | None = None) -> _Patient:
    return _Patient(target, message)
