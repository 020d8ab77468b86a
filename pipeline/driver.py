"""The orchestrator: moves one run forward one step at a time, each step its own transaction, so a
run survives a crash between any two steps and resumes from the last completed agent.

A step either does code work under the run's row lock (SCIENTIST, pass-through of skipped agents,
state moves) or calls one agent: the call happens outside any transaction, bounded by the per-agent
timeout and the whole-run deadline, and its answer is judged in a second transaction that checks the
run has not moved meanwhile. Judging applies 004 §6 and §8 through `gym.nutrition.resolution`.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from agent.tracing import Tracing, parented
from core.database import Database
from gym.nutrition import runs
from gym.nutrition.checks import check_foods, check_output
from gym.nutrition.envelope import build_envelope, validate_payload
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.feasibility import infeasible
from gym.nutrition.food_rules import FoodRules
from gym.nutrition.holds import apply_hold, settle
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads import OUTPUT_OF
from gym.nutrition.payloads.common import Agent
from gym.nutrition.payloads.control import UpstreamDataRequest
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.meals import WeeklyMealPlan
from gym.nutrition.payloads.medical import MedicalContext
from gym.nutrition.plan import PendingQuery, RunPlan
from gym.nutrition.red_flags import RedFlag, health_query, intake_flags
from gym.nutrition.resolution import (
    Decision,
    on_conflict,
    on_infeasible,
    on_invalid,
    on_timeout,
    on_upstream_missing,
)
from gym.nutrition.safety_floor import ordered, payload_codes
from gym.nutrition.scientist import clinical_limits, macro_targets
from gym.nutrition.states import (
    AGENT_OF_STATE,
    DOWNSTREAM,
    NEXT,
    PAUSABLE,
    STATE_OF_AGENT,
    UPSTREAM,
    ChainAgent,
    State,
)
from gym.nutrition.substitutions import check_substitutions
from gym.nutrition.training_input import training_input
from pipeline.agents import AgentCall, Agents, Answer, CannotPlan, NoAnswer
from pipeline.floor import floored

RECIPIENT = {"NUTRITIONIST": "DIETITIAN", "DIETITIAN": "CHEF", "CHEF": "USER", "COACH": "USER"}
INPUTS = {"NUTRITIONIST": ("macro_targets",), "DIETITIAN": ("nutrition_strategy", "macro_targets"),
          "CHEF": ("weekly_meal_plan", "macro_targets"), "COACH": ("training_input",)}


@dataclass(frozen=True)
class Limits:
    agent_seconds: float = 30.0
    physician_seconds: float = 30.0
    run_seconds: float = 180.0


def _now() -> datetime:
    return datetime.now(UTC)


def _named(targets: dict[str, Any]) -> list[str]:
    """The member's food constraints, as `constraints_infeasible` names them."""
    c = targets["client_constraints"]
    return [*(f"allergy:{a}" for a in c.get("allergies", [])),
            *([f"diet:{c['diet_pattern']}"] if c.get("diet_pattern", "omnivore") != "omnivore" else []),
            *(["aversions"] if c.get("food_aversions") else [])]


class Driver:
    def __init__(self, db: Database, agents: Agents, limits: Limits | None = None, *,
                 tracing: Tracing | None = None) -> None:
        self.db = db
        self.agents = agents
        self.limits = limits or Limits()
        self.tracing = tracing or Tracing.off()

    async def run_until_rest(self, org_id: uuid.UUID, run_id: uuid.UUID, *, max_steps: int = 200) -> str:
        for _ in range(max_steps):
            state = await self.step(org_id, run_id)
            if state is None:
                break
        async with self.db.scope(org_id=org_id) as session:
            run = await runs.get_run(session, org_id, run_id, for_update=True)
            await self._trace_version(session, run)
            return run.state

    async def _trace_version(self, session, run: NutritionRun) -> None:
        """The run version's root span (`invoke_agent nutrition_pipeline`), once, when the version ends: its ids
        are derived from the run and version, so the agent spans every worker emitted meanwhile are its children."""
        if not self.tracing.enabled or run.state not in (State.OUTPUT_READY.value, State.ERROR.value):
            return
        plan = RunPlan.of(run)
        if plan.traced_version == run.version:
            return
        started = await runs.version_started(session, run)
        span = self.tracing.run_agent("nutrition_pipeline", run_id=str(run.id), version=run.version,
                                      org_id=str(run.org_id), started=started, root=True)
        span.set_attribute("spotter.nutrition.state", run.state)
        if run.state == State.ERROR.value:
            self.tracing.failed(span, str((run.error or {}).get("error_type") or "error"))
        span.end()
        plan.traced_version = run.version
        plan.store(run)

    def _agent_span(self, run: NutritionRun, agent: str):
        return self.tracing.run_agent(agent, run_id=str(run.id), version=run.version, org_id=str(run.org_id))

    async def step(self, org_id: uuid.UUID, run_id: uuid.UUID) -> str | None:
        """One unit of work; None when the run rests (output_ready, error, or waiting for the user)."""
        async with self.db.scope(org_id=org_id) as session:
            run = await runs.get_run(session, org_id, run_id, for_update=True)
            state, plan = State(run.state), RunPlan.of(run)
            if state in (State.OUTPUT_READY, State.ERROR):
                return None
            if state is State.INTAKE_PENDING:
                started = RunPlan.initial(IntakeData.model_validate(run.intake), now=_now(),
                                          run_seconds=self.limits.run_seconds)
                if plan.hold is not None:  # a health question asked before the run started (gym.nutrition.holds)
                    started.hold = plan.hold
                started.store(run)
                await runs.store_envelope(session, run, build_envelope(
                    run_id=run.id, from_agent="INTAKE", to_agent="SCIENTIST", data_type="intake_data",
                    payload=run.intake, run_version=run.version))
                await runs.transition(session, run, NEXT[state])
                return run.state
            if await apply_hold(session, run, plan):
                return run.state
            if state is State.SCIENTIST_PROCESSING:
                span = self._agent_span(run, "SCIENTIST")
                try:
                    await self._scientist(session, run, plan)
                finally:
                    span.set_attribute("spotter.nutrition.state", run.state)
                    span.end()
                return run.state
            if state is State.PAUSED_PHYSICIAN:
                pending = plan.physician
                if pending is None or pending.awaiting_user or not pending.query:
                    return None
                call = AgentCall("PHYSICIAN", {"health_query": pending.query}, run_version=run.version,
                                 constraint=plan.constraint.get("PHYSICIAN"), org_id=run.org_id,
                                 user_id=run.created_by)
                timeout = self.limits.physician_seconds
            else:
                agent = AGENT_OF_STATE[state]
                runs_now = agent in plan.rerun
                inputs = await self._inputs(session, run, plan, agent) if runs_now else {}
                if await self._screen(session, run, plan, agent, inputs):
                    return run.state
                if not runs_now:
                    await self._advance(session, run, state)
                    return run.state
                if _now() >= self._deadline(plan):
                    await self._decide(session, run, plan, on_timeout(
                        agent, {}, retries_done=1, timeout_ms=int(self.limits.run_seconds * 1000), run_id=run.id))
                    return run.state
                call = await self._call_for(session, run, plan, agent, inputs)
                timeout = self.limits.agent_seconds
            plan.bump("calls", call.agent)
            plan.store(run)
            version, expected = run.version, run.state
            span = self._agent_span(run, call.agent)
        try:
            remaining = (self._deadline(plan) - _now()).total_seconds()
            with parented(span):  # a model-backed agent's chat span nests under its invoke_agent span
                answer = await self._ask(call, min(timeout, max(remaining, 0.001)))
            span.set_attribute("spotter.nutrition.answer", "timeout" if answer is None else
                               "no_answer" if isinstance(answer, NoAnswer) else "answered")
            async with self.db.scope(org_id=org_id) as session:
                run = await runs.get_run(session, org_id, run_id, for_update=True)
                if run.state != expected or run.version != version:
                    return run.state  # someone else moved the run meanwhile: drop this answer
                plan = RunPlan.of(run)
                if call.agent == "PHYSICIAN":
                    await self._judge_physician(session, run, plan, call, answer, timeout)
                else:
                    await self._judge(session, run, plan, call, answer, timeout)
                span.set_attribute("spotter.nutrition.state", run.state)
                return run.state
        finally:
            span.end()

    @staticmethod
    def _deadline(plan: RunPlan) -> datetime:
        assert plan.deadline is not None, "a processing run has a deadline"
        return plan.deadline

    async def _ask(self, call: AgentCall, limit_s: float) -> Answer | NoAnswer | None:
        """The answer; None when the agent timed out; the NoAnswer when it could not answer (its cause)."""
        try:
            async with asyncio.timeout(limit_s):
                return await self.agents.answer(call)
        except TimeoutError:
            return None
        except NoAnswer as exc:
            return exc

    async def _scientist(self, session, run: NutritionRun, plan: RunPlan) -> None:
        """Red flags first (the intake's, a check-in's): the run pauses for the PHYSICIAN before SCIENTIST plans, and
        plans on resume knowing them (`gym.nutrition.clinical`); then the targets and the training input."""
        intake = IntakeData.model_validate(run.intake)
        state = plan.state
        flags = intake_flags(intake, state.current_weight_kg) if plan.flags == "intake" else []
        flags += plan.checkin_flags
        plan.flags = None
        plan.checkin_flags = []
        if flags:
            await self._ask_physician(session, run, plan, flags, "SCIENTIST")
            return
        targets = macro_targets(intake, state)
        for data_type, to_agent, payload in (
                ("macro_targets", "NUTRITIONIST", targets.model_dump(mode="json")),
                ("training_input", "COACH", training_input(
                    intake, checkins=[p.checkin for p in await runs.checkin_history(session, run)],
                    weeks_on_program=state.weeks_on_program, stall=plan.stall, note=plan.note,
                    phase=state.training_phase,
                    supplements_excluded=clinical_limits(intake, state).supplements_excluded).model_dump(mode="json"))):
            envelope = build_envelope(run_id=run.id, from_agent="SCIENTIST", to_agent=to_agent, data_type=data_type,
                                      payload=payload, run_version=run.version)
            await runs.store_envelope(session, run, envelope)
        conflict = infeasible(targets)
        if conflict is not None:  # decided here, before any agent plans: never a run that spins to its timeout
            plan.store(run)
            await runs.fail(session, run, on_infeasible("SCIENTIST", conflict, run_id=run.id, why=(
                "No day of foods the member may eat meets the targets.")))
            return
        run.last_completed_agent = "SCIENTIST"
        plan.store(run)
        await runs.transition(session, run, NEXT[State.SCIENTIST_PROCESSING])

    async def _ask_physician(self, session, run: NutritionRun, plan: RunPlan, flags: list[RedFlag],
                             agent: ChainAgent) -> None:
        """Red flags found by `agent` (004 §5): one batched `health_query`, and the run pauses for the PHYSICIAN."""
        intake = IntakeData.model_validate(run.intake)
        state = plan.state
        query = health_query(flags, intake, weight_kg=state.current_weight_kg, training_weeks=state.weeks_on_program,
                             requesting_agent=agent)
        envelope = build_envelope(run_id=run.id, from_agent=agent, to_agent="PHYSICIAN", data_type="health_query",
                                  payload=query.model_dump(mode="json"), run_version=run.version)
        await runs.store_envelope(session, run, envelope, attempt=plan.bump("queries", agent))
        plan.physician = PendingQuery(query=envelope.payload, requesting_agent=agent)
        plan.asked = ordered([*plan.asked, *(flag.code for flag in flags)])
        plan.learn([flag.code for flag in flags])
        plan.store(run)
        await runs.transition(session, run, State.PAUSED_PHYSICIAN)

    async def _screen(self, session, run: NutritionRun, plan: RunPlan, agent: ChainAgent,
                      inputs: dict[str, Any]) -> bool:
        """Any agent whose input holds a red flag not yet asked about in this run raises the `health_query`
        (NUTRITION.md); CHEF, which 004 §1 gives no physician edge, leaves it to the next state that has one.
        True when the run paused."""
        found = ordered([*plan.deferred_flags, *(
            code for code in payload_codes(inputs) if code not in plan.asked)])
        if not found:
            return False
        if STATE_OF_AGENT[agent] not in PAUSABLE:
            plan.deferred_flags = found
            plan.store(run)
            return False
        plan.deferred_flags = []
        await self._ask_physician(session, run, plan, [RedFlag(code, agent) for code in found], agent)
        return True

    async def _advance(self, session, run: NutritionRun, state: State) -> None:
        target = NEXT[state]
        await runs.transition(session, run, target)
        if target is State.OUTPUT_READY:
            await runs.append_event(session, run, "done", {"state": run.state})

    async def _inputs(self, session, run: NutritionRun, plan: RunPlan, agent: str) -> dict[str, Any]:
        outputs = await runs.latest_outputs(session, run, INPUTS[agent])
        inputs = {name: outputs[name] for name in INPUTS[agent]}
        if agent == "NUTRITIONIST":
            inputs["current_tier"] = plan.state.tier
        if agent in ("NUTRITIONIST", "DIETITIAN"):  # a luteal re-run starts at DIETITIAN (004 §10)
            inputs["cycle_phase"] = plan.cycle_phase
        return inputs

    async def _call_for(self, session, run: NutritionRun, plan: RunPlan, agent: ChainAgent,
                        inputs: dict[str, Any]) -> AgentCall:
        previous = (await runs.latest_outputs(session, run, [OUTPUT_OF[agent]]))[OUTPUT_OF[agent]] \
            if run.version > 1 else None
        # the PHYSICIAN's advice goes to the next agent that runs, on its retry too (one retry with identical
        # input): it is spent when that agent's answer is accepted (`_judge`)
        return AgentCall(agent, inputs, constraint=plan.constraint.get(agent), previous_output=previous,
                         advice=plan.advice, run_version=run.version, org_id=run.org_id,
                         user_id=run.created_by)

    async def _decide(self, session, run: NutritionRun, plan: RunPlan, decision: Decision,
                      kind: str = "timeouts", agent: str | None = None) -> None:
        if decision.error is not None:
            plan.store(run)
            await runs.fail(session, run, decision.error)
            return
        plan.bump(kind, agent or decision.agent)
        plan.constraint[decision.agent] = decision.constraint
        plan.store(run)
        await session.flush()

    async def _judge(self, session, run: NutritionRun, plan: RunPlan, call: AgentCall,
                     answer: Answer | NoAnswer | None, limit_s: float) -> None:
        agent = call.agent
        if isinstance(answer, CannotPlan):  # deterministic: a retry would fail the same way
            outputs = await runs.latest_outputs(session, run, ["macro_targets"])
            plan.store(run)
            await runs.fail(session, run, on_infeasible(agent, infeasible(outputs["macro_targets"]) or _named(
                outputs["macro_targets"]), run_id=run.id, why=f"{agent}: {answer.cause}."))
            return
        if not isinstance(answer, Answer):
            await self._decide(session, run, plan, on_timeout(
                agent, call.agent_input(), retries_done=plan.count("timeouts", agent),
                timeout_ms=int(limit_s * 1000), run_id=run.id, cause=answer.cause if answer else None))
            return
        if answer.data_type == "upstream_data_request" and agent in UPSTREAM:
            await self._upstream(session, run, plan, agent, answer)
            return
        try:
            if answer.data_type != call.data_type:
                raise PayloadInvalid(call.data_type, [{"loc": ("data_type",), "type": "wrong_data_type",
                                                      "msg": f"expected {call.data_type}"}])
            model = validate_payload(call.data_type, answer.payload)
        except PayloadInvalid as exc:
            await self._decide(session, run, plan, on_invalid(
                agent, exc.errors, reruns_done=plan.count("invalid", agent), run_id=run.id), "invalid")
            return
        conflicts = await self._conflicts(session, run, plan, agent, model)
        if conflicts:
            decision = on_conflict(conflicts, reruns_done=plan.count("conflicts", agent), run_id=run.id)
            await runs.append_event(session, run, "conflict", {
                "rule": conflicts[0].rule, "agents": [conflicts[0].authoritative, agent],
                "resolution": "rerun" if decision.action == "rerun" else "unresolved"})
            await self._decide(session, run, plan, decision, "conflicts", agent)
            return
        envelope = build_envelope(run_id=run.id, from_agent=agent, to_agent=RECIPIENT[agent],
                                  data_type=call.data_type, payload=answer.payload, run_version=run.version)
        await runs.store_envelope(session, run, envelope, attempt=plan.count("calls", agent))
        plan.constraint.pop(agent, None)
        plan.advice = None
        run.last_completed_agent = agent
        plan.store(run)
        await self._advance(session, run, STATE_OF_AGENT[agent])

    async def _conflicts(self, session, run: NutritionRun, plan: RunPlan, agent: Agent, model) -> list:
        outputs = await runs.latest_outputs(session, run, list(INPUTS[agent]))
        inputs = {name: validate_payload(name, payload) for name, payload in outputs.items()}
        conflicts = check_output(agent, model, inputs, tier=plan.state.tier)
        if agent == "CHEF":
            meal_plan = inputs["weekly_meal_plan"]
            assert isinstance(meal_plan, WeeklyMealPlan), "the weekly_meal_plan edge validates to its model"
            conflicts += check_substitutions(meal_plan, model)
        if agent == "COACH":  # no food to serve, but any it names must be one the member may eat
            conflicts += check_foods("COACH", model, FoodRules.of(run.intake))
        return conflicts

    async def _upstream(self, session, run: NutritionRun, plan: RunPlan, agent: Agent, answer: Answer) -> None:
        try:
            request = UpstreamDataRequest.model_validate(answer.payload)
        except ValidationError:
            request = UpstreamDataRequest(missing_fields=["unknown"], from_agent=UPSTREAM[agent], reason="unreadable")
        upstream = UPSTREAM[agent]
        decision = on_upstream_missing(agent, upstream, list(request.missing_fields),
                                       reruns_done=plan.count("upstream", agent), run_id=run.id)
        if decision.error is not None:
            plan.store(run)
            await runs.fail(session, run, decision.error)
            return
        plan.bump("upstream", agent)
        if upstream != "SCIENTIST":
            plan.constraint[upstream] = decision.constraint
            plan.rerun = sorted({*plan.rerun, upstream}, key=DOWNSTREAM.index)
        plan.store(run)
        await runs.transition(session, run, STATE_OF_AGENT[upstream])

    async def _judge_physician(self, session, run: NutritionRun, plan: RunPlan, call: AgentCall,
                               answer: Answer | NoAnswer | None, limit_s: float) -> None:
        if not isinstance(answer, Answer):
            await self._decide(session, run, plan, on_timeout(
                "PHYSICIAN", call.agent_input(), retries_done=plan.count("timeouts", "PHYSICIAN"),
                timeout_ms=int(limit_s * 1000), run_id=run.id, cause=answer.cause if answer else None))
            return
        try:
            context = validate_payload("medical_context", answer.payload)
        except PayloadInvalid as exc:
            await self._decide(session, run, plan, on_invalid(
                "PHYSICIAN", exc.errors, reruns_done=plan.count("invalid", "PHYSICIAN"), run_id=run.id),
                "invalid")
            return
        assert isinstance(context, MedicalContext)
        pending = plan.physician
        assert pending is not None
        requester = pending.requesting_agent
        payload = floored(context.model_dump(mode="json"), pending.query, run_id=run.id, requester=requester)
        envelope = build_envelope(run_id=run.id, from_agent="PHYSICIAN", to_agent=requester,
                                  data_type="medical_context", payload=payload, run_version=run.version)
        await runs.store_envelope(session, run, envelope, attempt=plan.count("calls", "PHYSICIAN"))
        await settle(session, run, plan, pending, envelope.payload)
