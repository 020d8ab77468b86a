"""The run's working memory between steps (`nutrition_runs.plan`, JSONB): what this version re-runs,
the SCIENTIST's state, per-agent counters for the 004 §6/§8 single re-runs, a pending constraint,
the physician's pending query or advice, and the whole-run deadline. Plain data, versioned."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.scientist import ScientistState
from gym.nutrition.states import DOWNSTREAM

PLAN_VERSION = 1


def initial(intake: IntakeData, *, now: datetime, run_seconds: float) -> dict[str, Any]:
    return {"v": PLAN_VERSION, "scientist": asdict(ScientistState.initial(intake)), "rerun": list(DOWNSTREAM),
            "flags": "intake", "counters": {}, "constraint": {}, "physician": None, "advice": None,
            "resets": {"calorie": 0, "stall": 0}, "cycle_phase": None,
            "deadline": (now + timedelta(seconds=run_seconds)).isoformat()}


def scientist_state(plan: dict[str, Any]) -> ScientistState:
    return ScientistState(**plan["scientist"])


def bump(plan: dict[str, Any], kind: str, agent: str) -> int:
    """Increment and return the `kind` counter of `agent` (calls, timeouts, invalid, conflicts, upstream)."""
    counters = plan.setdefault("counters", {})
    key = f"{kind}:{agent}"
    counters[key] = counters.get(key, 0) + 1
    return counters[key]


def count(plan: dict[str, Any], kind: str, agent: str) -> int:
    return plan.get("counters", {}).get(f"{kind}:{agent}", 0)


def new_segment(plan: dict[str, Any], *, now: datetime, run_seconds: float) -> None:
    """A new stretch of processing (weekly re-run, resume): the single re-runs and the clock start over
    (call counts stay: they number stored attempts)."""
    plan["counters"] = {k: v for k, v in plan.get("counters", {}).items() if k.startswith("calls:")}
    plan["constraint"] = {}
    plan["deadline"] = (now + timedelta(seconds=run_seconds)).isoformat()
