"""read: context, lookups and searches across the gym; never writes, never asks for confirmation.

Times the model sees are in the gym's timezone and human readable ("Mon 16 Nov 2026 18:30 (7 days ago)");
money is in major units with its currency ("₪450.00"). Member hits carry `label`/`sublabel`/`detail` in
the shape read__ask_user_to_pick takes, so close matches can be handed to the user as they are.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, Field
from pydantic_core import to_jsonable_python

from core.i18n import has_key, translate
from core.member_text import MemberName, MemberWritten
from core.tenancy import find_org_access
from gym import (
    member_profile,
    member_search,
    members,
    programs,
)
from tools.context import ToolContext
from tools.errors import not_found
from tools.money import money_display
from tools.output import ToolOut
from tools.registry import STAFF, ToolRouter

read = ToolRouter("read")
MemberStatus = Literal["lead", "active", "frozen", "cancelled"]


class NoInput(BaseModel):
    pass


@read.agent_tool(action="get_current_context",
                 summary="Who and where am I: the gym (name, tier, timezone, locale), the caller (name, role), "
                         "the caller's locale and the current local date/time.",
                 input=NoInput, roles=STAFF,
                 loaded=True)
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
                 input=AskUserToPickInput, roles=STAFF, kind="user_picker",
                 loaded=True)
async def ask_user_to_pick(ctx: ToolContext, input: AskUserToPickInput) -> dict:
    raise AssertionError("user_picker tools are never invoked")


# --- shared formatting ------------------------------------------------------------------------------------

def member_status(status: str, locale: str) -> str:
    """'frozen' in the reader's language (agent.member.status.*); an unknown status as stored."""
    key = f"agent.member.status.{status}"
    return translate(key, locale) if has_key(key) else status


def local_when(ctx: ToolContext, instant: datetime | None) -> str | None:
    """An instant as local wall time with how long ago it was: '2026-11-16 18:30 (7 days ago)' (ISO, so the
    console shows it in the reader's one date format; the parenthesis is for the model)."""
    if instant is None:
        return None
    local = instant.astimezone(ctx.tz)
    days = (ctx.local_now.date() - local.date()).days
    ago = {0: "today", 1: "yesterday"}.get(days, f"{days} days ago" if days > 1 else f"in {-days} days")
    return f"{local:%Y-%m-%d %H:%M} ({ago})"


def _money(cents: int | None, currency: str | None) -> str | None:
    return None if cents is None else money_display(cents, currency)


def plain_json(value: Any) -> Any:
    """Plain JSON data (ids and dates as strings) without null fields, for tools that answer with dicts."""
    data = to_jsonable_python(value)
    if isinstance(data, dict):
        return {k: plain_json(v) for k, v in data.items() if v is not None}
    return [plain_json(v) for v in data] if isinstance(data, list) else data


def clip(text: str | None, size: int = 200) -> str | None:
    return text if text is None or len(text) <= size else text[:size - 1] + "…"


class Ref(BaseModel):
    id: uuid.UUID
    name: str | None = None


# --- programs_list ------------------------------------------------------------------------------------------

class ProgramsListInput(BaseModel):
    kind: Literal["coaching", "class", "feed"] | None = Field(None, description="Only programs of this kind.")


class ProgramRow(ToolOut):
    id: uuid.UUID
    name: str
    kind: str
    member_count: int = Field(description="Active enrollments (coaching/feed); class programs fill by booking.")
    description: str | None = None


class ProgramList(BaseModel):
    count: int
    programs: list[ProgramRow]


@read.agent_tool(action="programs_list",
                 summary="List the gym's active programs (id, name, kind coaching/class/feed, enrolled member "
                         "count). Use it to turn a program name into an id.",
                 input=ProgramsListInput, roles=STAFF,
                 loaded=True)
async def programs_list(ctx: ToolContext, input: ProgramsListInput) -> ProgramList:
    rows = await programs.list_programs(ctx.session, ctx.org_id, kind=input.kind)
    return ProgramList(count=len(rows), programs=[
        ProgramRow.model_validate({**asdict(p), "description": clip(p.description)}) for p in rows])


# --- members ------------------------------------------------------------------------------------------------

class MembersSearchInput(BaseModel):
    query: str | None = Field(None, max_length=200, description="Name (or part of it), email or phone; typos are "
                                                                 "tolerated. Omit to list members by name.")
    email: str | None = Field(None, max_length=320, description="Only members whose email contains this text.")
    status: MemberStatus | None = Field(None, description="Only members with this status.")
    role: Literal["member", "owner", "admin", "coach", "front_desk"] | None = Field(
        None, description="Only members whose app login has this role in the gym; members without a login "
                          "count as 'member'.")
    limit: int = Field(10, ge=1, le=25)


class MemberHitOut(BaseModel):
    id: uuid.UUID
    label: MemberName = Field(description="The member's name.")
    sublabel: str | None = Field(None, description="Email, or the plan when there is no email.")
    detail: str = Field(description="Last visit in the gym's time.")
    status: str
    plan: str | None = None
    score: float


class MemberSearchResult(BaseModel):
    count: int
    members: list[MemberHitOut]


def member_hit_out(ctx: ToolContext, hit: member_search.MemberHit) -> MemberHitOut:
    visit = hit.last_visit_at.astimezone(ctx.tz) if hit.last_visit_at else None
    when = f"{visit:%Y-%m-%d %H:%M}" if visit else ""
    # The detail is shown to the person on picker cards: in their language, the date as ISO wall time that the
    # console writes in the reader's one format (api/console/localize.js).
    detail = translate("agent.member.lastVisit", ctx.locale, when=when) if visit else \
        translate("agent.member.noVisits", ctx.locale)
    if hit.status != "active":
        detail = f"{member_status(hit.status, ctx.locale).capitalize()} · {detail}"
    return MemberHitOut(id=hit.id, label=clip(hit.full_name) or "", sublabel=clip(hit.email or hit.plan_name),
                        detail=clip(detail) or "", status=hit.status, plan=hit.plan_name, score=hit.score)


async def _login_role(ctx: ToolContext, member_id: uuid.UUID, cache: dict[uuid.UUID, str]) -> str:
    member = await members.get_member(ctx.session, ctx.org_id, member_id)
    if member is None or member.user_id is None:
        return "member"
    if member.user_id not in cache:
        access = await find_org_access(ctx.session, ctx.org_id, member.user_id)
        cache[member.user_id] = access.role if access else "member"
    return cache[member.user_id]


@read.agent_tool(action="members_search",
                 summary="Find gym members by name, email or phone (fuzzy, typo-tolerant, best match first), "
                         "optionally filtered by email, status or role. Each hit has id, label (name), sublabel "
                         "(email or plan) and detail (last visit). When several hits match the user's words "
                         "about equally (e.g. two Saars), call read__ask_user_to_pick with those hits as "
                         "candidates instead of guessing.",
                 input=MembersSearchInput, roles=STAFF,
                 loaded=True)
async def members_search(ctx: ToolContext, input: MembersSearchInput) -> MemberSearchResult:
    narrowing = bool(input.email or input.role)
    hits = await member_search.search_members(ctx.session, ctx.org_id, input.query or input.email, status=input.status,
                                        limit=100 if narrowing else input.limit)
    if input.email:
        needle = input.email.strip().lower()
        hits = [h for h in hits if needle in (h.email or "").lower()]
    if input.role:
        roles: dict[uuid.UUID, str] = {}
        hits = [h for h in hits if await _login_role(ctx, h.id, roles) == input.role]
    hits = hits[:input.limit]
    return MemberSearchResult(count=len(hits), members=[member_hit_out(ctx, h) for h in hits])


class MemberIdInput(BaseModel):
    memberId: uuid.UUID = Field(validation_alias=AliasChoices("memberId", "membershipId"),
                                description="Member id from read__members_search (the spec calls it membershipId).")


class PaymentOut(ToolOut):
    amount: str
    status: str
    due_on: date
    paid_at: str | None = None


class PaymentStatus(ToolOut):
    state: str = Field(description="ok | failed (last attempt failed) | overdue (unpaid past due) | none.")
    last_payment: PaymentOut | None = None
    last_paid_at: str | None = None
    failed_last90_days: int = Field(validation_alias=AliasChoices("failed_count_90d", "failed_last90_days"))
    overdue_count: int
    overdue_amount: str | None = None
    oldest_overdue_on: date | None = None


class MemberDetail(ToolOut):
    id: uuid.UUID
    name: MemberName = Field(validation_alias=AliasChoices("full_name", "name"))
    email: str | None = None
    phone: str | None = None
    status: str
    joined_on: date = Field(validation_alias=AliasChoices("joined_at", "joined_on"))
    notes: Annotated[str | None, MemberWritten("member_notes")] = None
    coach: Ref | None = None
    plan: dict[str, Any] | None = None
    subscription: dict[str, Any] | None = None
    payments: PaymentStatus
    programs: list[dict[str, Any]]
    last_visit: str | None = None
    visits_last30_days: int
    upcoming_bookings: int
    pending_forms: int
    attention: list[str] = Field(description="What staff should notice: failed/overdue payments, pending forms.")


def _payments(ctx: ToolContext, raw: dict[str, Any]) -> PaymentStatus:
    last = raw["last_payment"]
    return PaymentStatus.model_validate({
        **raw, "last_paid_at": local_when(ctx, raw["last_paid_at"]),
        "overdue_amount": _money(raw["overdue_cents"], raw["currency"]) if raw["overdue_count"] else None,
        "last_payment": None if last is None else PaymentOut.model_validate({
            **last, "amount": _money(last["amount_cents"], last["currency"]) or "",
            "paid_at": local_when(ctx, last["paid_at"])})})


def _count(n: int, noun: str) -> str:
    """'1 form', '3 forms': the model reads these notes in English (people read the offline model's own words)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _attention(pay: PaymentStatus, pending_forms: int) -> list[str]:
    notes = []
    if pay.last_payment and pay.last_payment.status == "failed":
        notes.append(f"Last payment FAILED: {pay.last_payment.amount} due {pay.last_payment.due_on}.")
    if pay.overdue_count:
        notes.append(f"{_count(pay.overdue_count, 'payment')} overdue, {pay.overdue_amount}, oldest due "
                     f"{pay.oldest_overdue_on}.")
    if pay.failed_last90_days and not pay.overdue_count and pay.state == "ok":
        notes.append(f"{_count(pay.failed_last90_days, 'failed payment attempt')} in the last 90 days, since "
                     "recovered.")
    if pending_forms:
        notes.append(f"{_count(pending_forms, 'form')} waiting to be signed.")
    return notes


async def member_detail(ctx: ToolContext, member_id: uuid.UUID) -> MemberDetail:
    raw = await member_profile.get_member_detail(ctx.session, ctx.org_id, member_id, now=ctx.now, tz=ctx.tz)
    if raw is None:
        raise not_found("member", member_id)
    known = {p.id: p for p in await programs.list_programs(ctx.session, ctx.org_id, include_inactive=True)}
    enrolled = [known[pid] for pid in await programs.member_program_ids(ctx.session, ctx.org_id, member_id)
                if pid in known]
    plan, sub = raw["plan"], raw["subscription"]
    pay = _payments(ctx, raw["payments"])
    return MemberDetail.model_validate({
        **raw, "notes": clip(raw["notes"], 500),
        "coach": Ref(id=raw["coach"]["user_id"], name=raw["coach"]["name"]) if raw["coach"] else None,
        "plan": None if plan is None else {"id": str(plan["id"]), "name": plan["name"], "interval": plan["interval"],
                                        "price": _money(plan["price_cents"], plan["currency"])},
        "subscription": None if sub is None else {
            "id": str(sub["id"]), "status": sub["status"], "startedOn": sub["started_on"].isoformat(),
            "endsOn": sub["ends_on"].isoformat() if sub["ends_on"] else None,
            "cancelledAt": local_when(ctx, sub["cancelled_at"])},
        "payments": pay, "programs": [{"id": str(p.id), "name": p.name, "kind": p.kind} for p in enrolled],
        "last_visit": local_when(ctx, raw["last_visit_at"]), "visits_last30_days": raw["visits"]["last_30_days"],
        "upcoming_bookings": raw["visits"]["upcoming"], "attention": _attention(pay, raw["pending_forms"])})


@read.agent_tool(action="members_get",
                 summary="Everything about one member by memberId: profile, status, plan and subscription, payment "
                         "status (last payment, failed or overdue payments), programs, coach, last visit, visits in "
                         "the last 30 days and pending forms. `attention` lists what needs action.",
                 input=MemberIdInput, roles=STAFF,
                 loaded=True)
async def members_get(ctx: ToolContext, input: MemberIdInput) -> MemberDetail:
    return await member_detail(ctx, input.memberId)
