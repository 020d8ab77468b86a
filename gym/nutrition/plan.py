"""The run's working memory between steps (`nutrition_runs.plan`, JSONB): what this version re-runs,
the SCIENTIST's state, per-agent counters for the 004 §6/§8 single re-runs, a pending constraint,
the physician's pending query or advice, and the whole-run deadline. Plain data, versioned."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from gym.nutrition.clinical import CARRYING
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


def learn(plan: dict[str, Any], codes: list[str]) -> None:
    """Red-flag codes raised during the run (a check-in's, a question's, an agent's input's) join the SCIENTIST's
    state, so the clinical rules hold on every later plan of the run (`gym.nutrition.clinical`). A code that changes
    them (pregnancy, breastfeeding) re-runs every agent after SCIENTIST: no kept output may still cut or name
    creatine."""
    state = plan["scientist"]
    known = set(state.get("clinical", ()))
    state["clinical"] = sorted({*known, *codes})
    if any(code in CARRYING and code not in known for code in codes):
        plan["rerun"] = list(DOWNSTREAM)


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
