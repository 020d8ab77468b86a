"""The nutrition pipeline's endpoints (NUTRITION.md, HTTP): thin handlers over `pipeline`.

Members act for themselves (their own member record; anything else is `run_not_found`); staff act for
a member of their org. Work that needs agents is queued (`pipeline.jobs`) and answered with 202.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.exceptions import SerializationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field

from api.bodies import check_storable
from api.guards import require_org_member
from api.idempotency import IdempotencyKey, Once
from api.nutrition_bodies import (
    CheckinAccepted,
    ClearanceRecorded,
    MedicalContextBody,
    RunDetail,
    RunList,
    RunStarted,
    RunSummary,
    run_stream_response,
    sse_frame,
)
from api.resources import Resources
from api.responses import BEARER, error_responses, shape
from api.sse import SSE_HEADERS, SSE_MEDIA_TYPE, last_event_id
from core.errors import Forbidden, InvalidInput
from core.health_data import require_health_data
from core.tenancy import Caller, OrgAccess
from gym.nutrition import runs, views
from gym.nutrition.envelope import validate_payload
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.service import NutritionService
from gym.nutrition.states import RESTING
from pipeline import questions
from pipeline.model_agents import select_agents

FOLLOW_POLL_S = 0.3
CLEARANCE_ROLES = frozenset({"owner", "admin"})


class StartBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    membershipId: uuid.UUID | None = None
    intake: dict[str, Any]


class QuestionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=2_000)


class ClearanceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: str = Field(default="", max_length=2_000)


async def _member_scope(resources: Resources, access: OrgAccess, caller: Caller) -> uuid.UUID | None:
    """The caller's own member id when the caller is a member (None for staff who may read health data);
    front desk: 403 `forbidden` (core/health_data.py)."""
    if access.is_staff:
        require_health_data(access.role)
        return None
    async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
        member = await runs.member_of_user(session, access.org_id, caller.user_id)
    if member is None:
        raise Forbidden("member_profile_required")
    return member


async def _storable_body(request: Request) -> None:
    """A JSON body holding text the database cannot store (a NUL byte) is refused before any handler reads it
    (400 validation_failed, as the agent endpoints answer it), never found by Postgres halfway through."""
    if request.method != "POST" or not await request.body():
        return
    try:
        body = await request.json()
    except SerializationException:
        return  # malformed JSON: the handler's own parsing answers it, as before
    try:
        check_storable(body, "the request body")
    except ValueError as exc:
        raise InvalidInput(status=400, detail=str(exc)) from None


class NutritionController(Controller):
    path = "/organizations/{org_id:str}/nutrition"
    guards = [require_org_member]
    security = BEARER
    before_request = _storable_body

    @post("/runs", status_code=202, responses=error_responses(400, 401, 403, 404, 409, 413, 415, 422))
    async def start(self, request: Request, data: JSONBody[StartBody], access: NamedDependency[OrgAccess],
                    caller: NamedDependency[Caller], resources: NamedDependency[Resources],
                    idempotency_key: IdempotencyKey = None) -> Response[RunStarted]:
        own = await _member_scope(resources, access, caller)
        if own is not None and data.membershipId not in (None, own):
            raise InvalidInput(detail="a member starts runs for themself: omit membershipId")
        member_id = own or data.membershipId
        if member_id is None:
            raise InvalidInput(detail="membershipId is required", errors=[{"field": "membershipId",
                                                                            "code": "missing"}])
        intake = validate_payload("intake_data", data.intake)
        assert isinstance(intake, IntakeData)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
            if (replay := await once.replay()) is not None:
                return replay
            run = await NutritionService(session, access.org_id).start_run(member_id, intake,
                                                                           started_by=caller.user_id)
            return await once.answer(202, RunStarted(run_id=str(run.id), state=run.state, version=run.version))

    @get("/runs", responses=error_responses(400, 401, 403, 404))
    async def list_runs(self, access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                        resources: NamedDependency[Resources],
                        membershipId: FromQuery[uuid.UUID | None] = None) -> RunList:
        own = await _member_scope(resources, access, caller)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            found = await runs.list_runs(session, access.org_id, member_id=membershipId, member_scope=own)
        return RunList(runs=[shape(views.run_summary(run), RunSummary) for run in found])

    @get("/runs/{run_id:uuid}", responses=error_responses(400, 401, 403, 404))
    async def get_run(self, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                      resources: NamedDependency[Resources]) -> RunDetail:
        own = await _member_scope(resources, access, caller)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            run = await runs.get_run(session, access.org_id, run_id, member_scope=own)
            return shape(await views.run_detail(session, run), RunDetail)

    @get("/runs/{run_id:uuid}/events", responses={**run_stream_response(), **error_responses(400, 401, 403, 404)})
    async def events(self, request: Request, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                     caller: NamedDependency[Caller], resources: NamedDependency[Resources]) -> Stream:
        own = await _member_scope(resources, access, caller)
        async with resources.db.scope(org_id=access.org_id) as session:
            await runs.get_run(session, access.org_id, run_id, member_scope=own)
        after = last_event_id(request.headers.get("last-event-id"))

        async def body() -> AsyncIterator[bytes]:
            seq = after
            while True:
                async with resources.db.scope(org_id=access.org_id) as session:
                    run = await runs.get_run(session, access.org_id, run_id)
                    batch = await runs.events_after(session, run, seq)
                for event in batch:
                    seq = event.seq
                    yield sse_frame(event)
                last_done = bool(batch) and batch[-1].kind == "done"
                if not batch and run.state in RESTING and not _working(run):
                    return
                if last_done and run.state in RESTING and not _working(run):
                    return
                await asyncio.sleep(FOLLOW_POLL_S)

        return Stream(body(), media_type=SSE_MEDIA_TYPE, headers=SSE_HEADERS)

    @post("/runs/{run_id:uuid}/checkins", status_code=202,
          responses={200: ResponseSpec(CheckinAccepted, description="The same check-in sent again for its date: "
                                       "the first one's result; nothing re-ran"),
                     **error_responses(400, 401, 403, 404, 409, 413, 415, 422)})
    async def checkin(self, request: Request, run_id: FromPath[uuid.UUID], data: JSONBody[dict[str, Any]],
                      access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                      resources: NamedDependency[Resources],
                      idempotency_key: IdempotencyKey = None) -> Response[CheckinAccepted]:
        own = await _member_scope(resources, access, caller)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
            if (replay := await once.replay()) is not None:
                return replay
            out = await NutritionService(session, access.org_id).submit_checkin(
                run_id, data, member_scope=own, submitted_by=caller.user_id)
            return await once.answer(200 if out.replayed else 202, CheckinAccepted(
                checkin_id=str(out.checkin_id), version=out.version, adjustment=out.adjustment))

    @post("/runs/{run_id:uuid}/referral-acknowledged", status_code=202,
          responses=error_responses(400, 401, 403, 404, 409))
    async def acknowledge(self, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                          caller: NamedDependency[Caller], resources: NamedDependency[Resources]) -> RunStarted:
        own = await _member_scope(resources, access, caller)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            run = await NutritionService(session, access.org_id).acknowledge_referral(run_id, member_scope=own)
        return RunStarted(run_id=str(run.id), state=run.state, version=run.version)

    @post("/runs/{run_id:uuid}/health-questions", status_code=200,
          responses=error_responses(400, 401, 403, 404, 413, 415, 503))
    async def health_question(self, run_id: FromPath[uuid.UUID], data: JSONBody[QuestionBody],
                              access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                              resources: NamedDependency[Resources]) -> MedicalContextBody:
        own = await _member_scope(resources, access, caller)
        services = resources.agent  # the same selection rule as the runs' worker (`spotter serve`)
        agents = select_agents(resources.settings, resources.db, services.model, services.orchestrator.meter)
        answer = await questions.ask(resources.db, agents, access.org_id, run_id, data.query, member_scope=own,
                                     asked_by=caller.user_id)
        return shape(answer, MedicalContextBody)

    @post("/members/{member_id:uuid}/medical-clearance", status_code=201,
          responses=error_responses(400, 401, 403, 404, 413, 415))
    async def clearance(self, request: Request, member_id: FromPath[uuid.UUID], data: JSONBody[ClearanceBody],
                        access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                        resources: NamedDependency[Resources],
                        idempotency_key: IdempotencyKey = None) -> Response[ClearanceRecorded]:
        own = await _member_scope(resources, access, caller)
        if own is None and access.role not in CLEARANCE_ROLES:
            raise Forbidden("role_forbidden")
        if own is not None and own != member_id:
            raise Forbidden("member_forbidden")
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
            if (replay := await once.replay()) is not None:
                return replay
            clearance = await runs.record_clearance(session, access.org_id, member_id=member_id,
                                                    recorded_by=caller.user_id, note=data.note)
            return await once.answer(201, ClearanceRecorded(clearance_id=str(clearance.id),
                                                            membership_id=str(member_id)))


def _working(run) -> bool:
    """A paused run is still working while the physician has not answered."""
    pending = (run.plan or {}).get("physician") or {}
    return run.state == "paused_physician" and not pending.get("awaiting_user")
