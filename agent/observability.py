"""Agent events to structured logs (and, when configured, Sentry and PostHog), always scrubbed first.

`scrub()` drops user text and secrets at any depth before anything leaves the process; token counts and
durations stay.
"""

from __future__ import annotations

from typing import Any

import structlog

SCRUBBED_KEYS = frozenset({"content", "text", "prompt", "message", "output", "input", "token", "apikey",
                           "api_key", "secret", "password", "authorization"})

log = structlog.get_logger("agent")


def scrub(value: Any) -> Any:
    """A copy of `value` without any field named like user text or a secret, at any depth."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()
                if str(k).lower().replace("-", "_") not in SCRUBBED_KEYS and str(k).lower() not in SCRUBBED_KEYS}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value


class Observability:
    """Fan-out of agent events. Sinks are callables taking (event_name, scrubbed_fields)."""

    def __init__(self, sinks: list | None = None) -> None:
        self.sinks = list(sinks or [])

    def emit(self, event: str, **fields: Any) -> None:
        clean = scrub(fields)
        log.info(event, **clean)
        for sink in self.sinks:
            try:
                sink(event, clean)
            except Exception:  # a broken sink must never break a turn
                log.warning("observability.sink_failed", sink=repr(sink), event_name=event)
