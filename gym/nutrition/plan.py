"""The run's working memory between steps (`nutrition_runs.plan`, JSONB), typed: what this version re-runs, the
SCIENTIST's state, per-agent counters for the 004 §6/§8 single re-runs, a pending constraint, the physician's pending
query or advice, and the whole-run deadline. Versioned (`v`).

`RunPlan.load` parses the column once where a run is read; `RunPlan.store` writes it back once. The stored JSON keeps
the shape the plain dict had: a key is written when it was stored, assigned or holds anything but its default (a
fresh run's `{}` stays `{}`), unknown keys pass through, and the deadline is `datetime.isoformat()` text.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_serializer
from pydantic.functional_serializers import SerializerFunctionWrapHandler

from gym.nutrition.clinical import CARRYING
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.common import Requester
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.red_flags import RedFlag
from gym.nutrition.scientist import ScientistState
from gym.nutrition.states import DOWNSTREAM

PLAN_VERSION = 1
Payload = dict[str, Any]  # an envelope's payload (a `health_query`, a `medical_context`): validated at its edge


class PendingQuery(BaseModel):
    """A health query with the PHYSICIAN (`physician`), or a user's question's answer the run is held to (`hold`).
    `awaiting_user` and `answer` are written only when set (a query still with the PHYSICIAN has neither)."""

    model_config = ConfigDict(extra="allow")

    query: Payload
    requesting_agent: Requester
    awaiting_user: bool = False
    answer: Payload | None = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        keep = {"query", "requesting_agent", *self.model_fields_set, *(self.model_extra or {})}
        return {k: v for k, v in data.items() if k in keep}


class Resets(BaseModel):
    """The check-in numbers of the last calorie and stall adjustments (`gym.nutrition.triggers` counts from them)."""

    calorie: int = 0
    stall: int = 0


class RunPlan(BaseModel):
    model_config = ConfigDict(extra="allow")

    v: int = PLAN_VERSION
    scientist: ScientistState | None = None
    rerun: list[str] = Field(default_factory=list)
    flags: str | None = None  # "intake": the intake's red flags are still to be screened
    checkin_flags: list[RedFlag] = Field(default_factory=list)
    counters: dict[str, int] = Field(default_factory=dict)
    constraint: dict[str, str | None] = Field(default_factory=dict)
    physician: PendingQuery | None = None
    hold: PendingQuery | None = None
    advice: Payload | None = None
    resets: Resets = Field(default_factory=Resets)
    cycle_phase: str | None = None
    stall: bool = False
    note: str | None = None
    asked: list[str] = Field(default_factory=list)
    deferred_flags: list[str] = Field(default_factory=list)
    deadline: datetime | None = None
    traced_version: int | None = None

    @field_serializer("deadline")
    def _iso(self, value: datetime | None) -> str | None:
        return value.isoformat() if value is not None else None

    @classmethod
    def load(cls, raw: dict[str, Any] | None) -> RunPlan:
        """The plan of a stored row (old rows included), a copy: changing it changes nothing until `store`."""
        return cls.model_validate(copy.deepcopy(raw or {}))

    @classmethod
    def of(cls, run: NutritionRun) -> RunPlan:
        return cls.load(run.plan)

    def dump(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        return {k: v for k, v in data.items() if not (k == "hold" and v is None)  # a hold is there or not at all
                and (k in self.model_fields_set or k in (self.model_extra or {}) or v != _DEFAULTS[k])}

    def store(self, run: NutritionRun) -> None:
        run.plan = self.dump()  # a new object: the JSONB column sees the change

    @classmethod
    def initial(cls, intake: IntakeData, *, now: datetime, run_seconds: float) -> RunPlan:
        return cls(v=PLAN_VERSION, scientist=ScientistState.initial(intake), rerun=list(DOWNSTREAM), flags="intake",
                   counters={}, constraint={}, physician=None, advice=None, resets=Resets(), cycle_phase=None,
                   deadline=now + timedelta(seconds=run_seconds))

    @property
    def state(self) -> ScientistState:
        """The SCIENTIST's state (set from the run's first SCIENTIST step on)."""
        assert self.scientist is not None, "the run has not reached SCIENTIST"
        return self.scientist

    def learn(self, codes: list[str]) -> None:
        """Red-flag codes raised during the run (a check-in's, a question's, an agent's input's) join the SCIENTIST's
        state, so the clinical rules hold on every later plan of the run (`gym.nutrition.clinical`). A code that
        changes them (pregnancy, breastfeeding) re-runs every agent after SCIENTIST: no kept output may still cut or
        name creatine."""
        known = set(self.state.clinical)
        self.scientist = replace(self.state, clinical=tuple(sorted({*known, *codes})))
        if any(code in CARRYING and code not in known for code in codes):
            self.rerun = list(DOWNSTREAM)

    def bump(self, kind: str, agent: str) -> int:
        """Increment and return the `kind` counter of `agent` (calls, timeouts, invalid, conflicts, upstream)."""
        key = f"{kind}:{agent}"
        self.counters[key] = self.counters.get(key, 0) + 1
        return self.counters[key]

    def count(self, kind: str, agent: str) -> int:
        return self.counters.get(f"{kind}:{agent}", 0)

    def new_segment(self, *, now: datetime, run_seconds: float) -> None:
        """A new stretch of processing (weekly re-run, resume): the single re-runs and the clock start over
        (call counts stay: they number stored attempts)."""
        self.counters = {k: v for k, v in self.counters.items() if k.startswith("calls:")}
        self.constraint = {}
        self.deadline = now + timedelta(seconds=run_seconds)


def awaiting_user(run: NutritionRun) -> bool:
    """The run is paused on a referral the user has not acknowledged yet."""
    pending = RunPlan.of(run).physician
    return pending is not None and pending.awaiting_user


_DEFAULTS = RunPlan().model_dump(mode="json")
