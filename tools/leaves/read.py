"""read: context, lookups and searches across the gym; never writes, never asks for confirmation."""

from __future__ import annotations

from pydantic import BaseModel, Field

from tools.context import ToolContext
from tools.registry import STAFF, ToolRouter

read = ToolRouter("read")


class NoInput(BaseModel):
    pass


@read.agent_tool(action="get_current_context",
                 summary="Who and where am I: the gym (name, tier, timezone, locale), the caller (name, role), "
                         "the caller's locale and the current local date/time.",
                 input=NoInput, roles=STAFF)
async def get_current_context(ctx: ToolContext, input: NoInput) -> dict:
    local = ctx.local_now
    return {
        "org": {"id": str(ctx.org.org_id), "name": ctx.org.org_name, "tier": ctx.org.tier,
                "timezone": ctx.org.timezone, "locale": ctx.org.locale},
        "caller": {"id": str(ctx.caller.user_id), "name": ctx.caller.name, "email": ctx.caller.email,
                   "role": ctx.org.role},
        "locale": ctx.locale,
        "now": local.isoformat(timespec="minutes"),
        "weekday": local.strftime("%A"),
    }


class Candidate(BaseModel):
    id: str = Field(min_length=1, max_length=100, description="The entity id the pick resolves to.")
    label: str = Field(min_length=1, max_length=200, description="Main text, e.g. the member's name.")
    sublabel: str | None = Field(None, max_length=200, description="Secondary text, e.g. email or plan.")
    detail: str | None = Field(None, max_length=200, description="Extra detail, e.g. last visit.")


class AskUserToPickInput(BaseModel):
    kind: str = Field(min_length=1, max_length=40, description="What is being picked: member, program, workout, ...")
    prompt: str = Field(min_length=1, max_length=300, description="The question, e.g. 'Which Saar?'")
    candidates: list[Candidate] = Field(min_length=2, max_length=8)


@read.agent_tool(action="ask_user_to_pick",
                 summary="Ask the user to choose between 2-8 plausible candidates when a reference is ambiguous "
                         "(e.g. two members named Saar). The turn pauses until the user picks; the result is "
                         "{pickedId, pickedLabel, kind}.",
                 input=AskUserToPickInput, roles=STAFF, kind="user_picker")
async def ask_user_to_pick(ctx: ToolContext, input: AskUserToPickInput) -> dict:
    raise AssertionError("user_picker tools are never invoked")
