"""The model-backed agents: NUTRITIONIST, DIETITIAN, CHEF, COACH and PHYSICIAN as model calls.

Each call offers exactly one tool, `submit_<data_type>`, whose input schema is the edge's payload schema,
and forces it (`tool_choice`); the tool's input is the answer, and the driver validates it like any
other (a reply without the tool is an answer of the wrong data type: a validation failure). The tool of an
agent with an upstream agent has one optional extra field, `upstream_data_request` (004 §6.3): a forced
tool whose schema may not be a top-level union is the model's only way to answer, so the request rides in
it. Every call
is metered like a turn's (agent.metering): it reserves its estimated cost against the org's daily cap
first, and what the provider billed is written to `ai_usage_daily` for the run's starter (the org's
first owner when the starter is unknown). A provider failure or an exhausted budget is no answer, as
a timeout is: one retry, then `error` (gym.nutrition.resolution).
"""

from __future__ import annotations

import json
import uuid
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

import structlog
from opentelemetry.trace import Span

from agent.composition import build_model
from agent.costs import PriceBook, Usage
from agent.errors import AgentError, classify, provider_errors
from agent.metering import Meter, OpenCall
from agent.model import ModelClient, ModelRequest, ModelResponse
from agent.tracing import Who, ambient_parent
from core.database import Database
from core.settings import Settings
from core.tenancy import Caller, OrgAccess, first_active_user, get_organization
from gym.nutrition.foods import FOODS
from gym.nutrition.payloads import SCHEMAS
from gym.nutrition.payloads.control import UpstreamDataRequest
from gym.nutrition.states import UPSTREAM
from pipeline.agents import AgentCall, Agents, Answer, NoAnswer
from pipeline.offline import OfflineAgents

log = structlog.get_logger("pipeline.model_agents")

FOOD_CONSTRAINTS = ("Name no food that macro_targets.client_constraints excludes, anywhere you write (items, recipe "
              "names and steps, tactics, notes), in any language: allergies are allergen codes (milk, egg, fish, "
              "crustacean_shellfish, mollusc, tree_nuts, peanut, gluten, wheat, soy, sesame, celery, mustard, lupin, "
              "sulphites, lactose), an aversion names a food or its family, and diet_pattern leaves out meat "
              "(pescatarian), also fish and shellfish (vegetarian), also dairy, eggs and honey (vegan); kosher leaves "
              "out pork and shellfish and never puts meat and milk in one meal; halal leaves out pork and alcohol. "
              "Code checks every food you name.")
ROLES = {
    "NUTRITIONIST": "You are the NUTRITIONIST. Turn SCIENTIST's macro_targets into a nutrition_strategy: pass "
                    "its calories and macros through unchanged (they are authoritative), distribute protein "
                    "over the day so the distribution sums to protein_g within 5 g, and set fiber_target_g at "
                    "or above fiber_g_min. Respect current_tier and cycle_phase. {supplements} " + FOOD_CONSTRAINTS,
    "DIETITIAN": "You are the DIETITIAN. Turn the nutrition_strategy into a weekly_meal_plan of 7 days: each "
                 "day's slot calories and protein within 5 % of the daily targets, fat and carbohydrate within "
                 "10 %, the slots' fiber_g adding up to at least fiber_g_min. When cycle_phase is given, "
                 "apply the strategy's cycle_adjustments for that phase within the same totals. " + FOOD_CONSTRAINTS,
    "CHEF": "You are the CHEF. Write recipes for the weekly_meal_plan's slots: each recipe carries its "
            "recipe_id and the slots it serves, with macros per serving within 10 % of each slot's calories "
            "and protein, and a day's servings giving at least fiber_g_min of fibre. Every ingredient's item is "
            "one food of the library, by its name: " + ", ".join(FOODS) + ". A recipe's name and steps name only "
            "its own ingredients. " + FOOD_CONSTRAINTS,
    "COACH": "You are the COACH. Turn SCIENTIST's training_input into a training_program suited to the "
             "member's experience, phase and any stall. {supplements}",
    "PHYSICIAN": "You are the PHYSICIAN. Answer the health_query with a medical_context: urgency, the pipeline "
                 "action (continue, pause_pending_referral or abort), whether a referral is needed and to whom, "
                 "and always the disclaimer. You never change other agents' payloads.",
}
SUPPLEMENTS = ("Recommend no supplement listed in supplements_excluded (creatine; stimulants: caffeine pills, "
               "pre-workouts, fat burners, energy drinks); code checks every supplement you name.")
RULES = ("Answer only by calling the {tool} tool once, with a payload that matches its input schema exactly: "
         "canonical field names only, no extra fields. Numbers are computed upstream; do not invent targets. "
         "When a constraint is given, your previous answer broke it: fix exactly that.")


UPSTREAM_FIELD = "upstream_data_request"


def submit_tool(data_type: str, *, upstream: str | None = None) -> dict[str, Any]:
    """The one tool of a call: its input schema is the edge's payload schema. An agent with an upstream agent
    (004 §6.3) also gets one optional field, `upstream_data_request`: set, it is the answer (the rest of the
    input is ignored), since the one forced tool is the only way the model can answer."""
    schema = SCHEMAS[data_type].model_json_schema()
    description = f"Submit your {data_type} payload (the whole answer)."
    if upstream is not None:
        schema["properties"][UPSTREAM_FIELD] = UpstreamDataRequest.model_json_schema()
        description += (f" Only if data you need from {upstream} is missing from your input: set "
                        f"{UPSTREAM_FIELD} (missing_fields, from_agent {upstream}, reason) instead; {upstream} then "
                        "re-runs once and you are asked again. The other fields are ignored in that case.")
    return {"name": f"submit_{data_type}", "description": description, "input_schema": schema}


def request_for(call: AgentCall, model: str, *, max_tokens: int = 8192) -> ModelRequest:
    tool = submit_tool(call.data_type, upstream=UPSTREAM.get(call.agent))
    role = ROLES[call.agent].replace("{supplements}", SUPPLEMENTS).strip()
    system = [{"type": "text", "text": f"{role}\n\n{RULES.format(tool=tool['name'])}"}]
    content = json.dumps(call.agent_input(), sort_keys=True, default=str)
    return ModelRequest(model=model, system=system, tools=[tool], max_tokens=max_tokens,
                        messages=[{"role": "user", "content": content}],
                        tool_choice={"type": "tool", "name": tool["name"]},
                        metadata={"pipeline_agent": call.agent})


def submitted(call: AgentCall, response: ModelResponse) -> Answer:
    """The submit tool's input (or the upstream data request it carries), or an answer of no data type
    when the model did not call it."""
    name = f"submit_{call.data_type}"
    for block in response.content:
        if block.get("type") == "tool_use" and block.get("name") == name:
            payload = block.get("input")
            if isinstance(payload, dict) and call.agent in UPSTREAM and UPSTREAM_FIELD in payload:
                payload = dict(payload)
                request = payload.pop(UPSTREAM_FIELD)
                if request is not None:
                    return Answer(UPSTREAM_FIELD, request)
            return Answer(call.data_type, payload)
    return Answer("no_submit_tool", None)


def cause_of(exc: Exception) -> str:
    """Why a model call gave no answer, as a fixed phrase with the stable code (never provider or user text)."""
    code = classify(exc)
    if code == "agent_budget_exceeded":
        return "the organization's daily AI budget is spent (agent_budget_exceeded)"
    return f"the model provider failed ({code})"


@dataclass
class PipelineCall:
    """What `Meter` books a call against (agent.metering.Metered): the org's cap and the paying user, and what
    its `chat` span carries (agent.tracing): the org, the pipeline as persona, no conversation, no parent span."""

    access: OrgAccess
    caller: Caller
    usage: Usage
    cost_usd_micros: int = 0
    model_calls: int = 0
    round_trips: int = 0  # one model call, not a turn's round trip
    open_call: OpenCall | None = None

    def who(self) -> Who:
        return Who(org_id=str(self.access.org_id), conversation_id=None, persona="nutrition", role=self.access.role)

    def trace_parent(self) -> Span | None:
        return ambient_parent()  # the run agent's span the driver opened (pipeline/driver.py)


class ModelAgents:
    """The `Agents` port over a model client, metered and capped."""

    def __init__(self, db: Database, model: ModelClient, meter: Meter, *, model_name: str) -> None:
        self.db, self.model, self.meter, self.model_name = db, model, meter, model_name

    async def answer(self, call: AgentCall) -> Answer:
        if call.org_id is None:
            raise ValueError("a model-backed agent call needs the run's org")
        payer = await self._payer(call.org_id, call.user_id)
        request = request_for(call, self.model_name)
        response: ModelResponse | None = None
        try:
            async with aclosing(self.meter.stream(payer, self.model, request)) as stream:
                async for item in stream:
                    if isinstance(item, ModelResponse):
                        response = item
        except Exception as exc:
            if not isinstance(exc, (AgentError, *provider_errors())):
                raise
            log.warning("pipeline.model_call_failed", agent=call.agent, error=type(exc).__name__,
                        code=getattr(exc, "code", None))
            raise NoAnswer(cause_of(exc)) from exc
        if response is None:
            raise NoAnswer("the model's stream ended without a message")
        answer = submitted(call, response)
        return Answer(answer.data_type, answer.payload, usage={
            "input_tokens": response.usage.input_tokens, "output_tokens": response.usage.output_tokens,
            "cost_usd_micros": payer.cost_usd_micros})

    async def _payer(self, org_id: uuid.UUID, user_id: uuid.UUID | None) -> PipelineCall:
        async with self.db.scope(org_id=org_id) as session:
            org = await get_organization(session, org_id)
            if org is None:
                raise ValueError("the run's org is gone")
            if user_id is None:
                user_id = await first_active_user(session, org_id)
        if user_id is None:
            raise NoAnswer("no member of the org can be billed")
        access = OrgAccess(org_id=org.id, org_name=org.name, tier=org.tier, timezone=org.timezone, locale=org.locale,
                           budget_override_usd_micros=org.ai_daily_budget_usd_micros, role="owner")
        return PipelineCall(access, Caller(user_id=user_id, clerk_id="", email="", name=""), Usage())



def uses_model(settings: Settings) -> bool:
    """The selection rule: model-backed agents when a real provider is configured (an Anthropic key)."""
    return (settings.nutrition_agents != "offline" and settings.agent_model_provider == "anthropic"
            and bool(settings.anthropic_api_key))


def select_agents(settings: Settings, db: Database, model: ModelClient, meter: Meter) -> Agents:
    """Model-backed agents when `uses_model`, the offline ones otherwise."""
    if not uses_model(settings):
        return OfflineAgents()
    return ModelAgents(db, model, meter, model_name=settings.agent_model)


def worker_agents(settings: Settings, db: Database, redis: Any) -> tuple[Agents, ModelClient | None]:
    """What a `spotter worker` process answers with, by the same rule as `spotter serve`: its own model client
    (returned, for the caller to close) and meter over the service's Postgres and Redis."""
    if not uses_model(settings):
        return OfflineAgents(), None
    model = build_model(settings)
    meter = Meter(db=db, redis=redis, prices=PriceBook(settings.model_prices), settings=settings)
    return ModelAgents(db, model, meter, model_name=settings.agent_model), model
