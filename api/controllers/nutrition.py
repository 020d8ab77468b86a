"""The nutrition pipeline's endpoints (NUTRITION.md, HTTP): thin handlers over the nutrition domain's service.

Each handler receives what it uses by dependency injection: the request's org-scoped session (the app's
`session`, api/dependencies.py) and, from the controller's `dependencies`, `NutritionService` over it, the
run-events follower and the health-question flow (api/nutrition_dependencies.py). Members act
for themselves (their own member record; anything else is `run_not_found`); staff who may read health data act
for a member of their org (front desk: 403 `forbidden`, core/health_data.py). Work that needs agents is queued
in the request's transaction and answered with 202.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Stream
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from api.errors import request_locale
from api.food_log_bodies import ExpenditureOut
from api.guards import require_org_member
from api.idempotency import IdempotencyKey, Once
from api.nutrition_bodies import (
    CheckinAccepted,
    CheckinBody,
    CheckinWeight,
    ClearanceRecorded,
    IntakeBody,
    MedicalContextBody,
    RunDetail,
    RunList,
    RunStarted,
    RunSummary,
    Understood,
    UnderstoodBody,
    Vocabulary,
    run_stream_response,
    sse_frame,
)
from api.nutrition_dependencies import provide_health_questions, provide_nutrition, provide_run_events
from api.openapi import DocumentedAs
from api.responses import BEARER, error_responses, shape
from api.sse import SSE_HEADERS, SSE_MEDIA_TYPE, last_event_id
from core.errors import Forbidden, InvalidInput
from core.tenancy import Caller, OrgAccess
from gym.nutrition import views
from gym.nutrition.envelope import validate_intake
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.events import RunEvents
from gym.nutrition.service import NutritionService
from gym.nutrition.understood import understood, vocabulary
from pipeline.questions import HealthQuestions
from tools.audit import audit_row, write_audit

# NUTRITION.md (HTTP): owner, admin or coach record clearance from a clinician's note; never the member themself.
CLEARANCE_ROLES = frozenset({"owner", "admin", "coach"})
CLEARANCE_AUDIT = "nutrition.clearance.record"  # the same action the nutrition__record_medical_clearance tool audits


class StartBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    membershipId: uuid.UUID | None = Field(None, description="Staff: the member's id, required. A member omits it "
                                                     "(their own record); either otherwise is 422 validation_failed.")
    intake: IntakeBody


StartRequest = Annotated[dict[str, Any], DocumentedAs(StartBody)]
"""A run's start body, validated by the handler: whatever is wrong with it (a membershipId that is no uuid, no
intake, an unknown field) is 422 `validation_failed` with per-field errors, as NUTRITION.md writes."""


def start_body(data: dict[str, Any]) -> StartBody:
    try:
        return StartBody.model_validate(data)
    except ValidationError as exc:
        raise PayloadInvalid("run_start", [dict(error) for error in exc.errors()]) from exc


class QuestionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=2_000)


class ClearanceBody(BaseModel):
    """Medical clearance is recorded from a clinician's note (who cleared the member, when): the note is required."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    note: str = Field(min_length=1, max_length=2_000)


class NutritionController(Controller):
    path = "/organizations/{org_id:str}/nutrition"
    guards = [require_org_member]
    security = BEARER
    dependencies = {"nutrition": Provide(provide_nutrition), "run_events": Provide(provide_run_events),
                    "health_questions": Provide(provide_health_questions)}

    @post("/runs", status_code=202, responses=error_responses(400, 401, 403, 404, 409, 413, 415, 422))
    async def start(self, request: Request, data: JSONBody[StartRequest], access: NamedDependency[OrgAccess],
                    caller: NamedDependency[Caller], session: NamedDependency[AsyncSession],
                    nutrition: NamedDependency[NutritionService],
                    idempotency_key: IdempotencyKey = None) -> Response[RunStarted]:
        body = start_body(data)
        own = await nutrition.member_scope(access, caller.user_id)
        if own is not None and body.membershipId not in (None, own):
            raise InvalidInput(detail="a member starts runs for themself: omit membershipId")
        member_id = own or body.membershipId
        if member_id is None:
            raise InvalidInput(detail="membershipId is required", errors=[{"field": "membershipId",
                                                                            "code": "missing"}])
        intake = validate_intake(body.intake)
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, body)
        if (replay := await once.replay()) is not None:
            return replay
        run = await nutrition.start_run(member_id, intake, started_by=caller.user_id)
        return await once.answer(202, RunStarted(run_id=str(run.id), state=run.state, version=run.version,
                                                 understood=understood(body.intake, request_locale(request))))

    @get("/vocabulary", responses=error_responses(400, 401, 403, 404))
    async def food_vocabulary(self, request: Request, access: NamedDependency[OrgAccess],
                              caller: NamedDependency[Caller], nutrition: NamedDependency[NutritionService]
                              ) -> Vocabulary:
        """The allergen codes and diet patterns an intake takes, named in the caller's language."""
        await nutrition.member_scope(access, caller.user_id)  # front desk: 403, as for every nutrition read
        return shape(vocabulary(request_locale(request)), Vocabulary)

    @post("/understood", status_code=200, responses=error_responses(400, 401, 403, 404, 413, 415))
    async def understood_words(self, request: Request, data: JSONBody[UnderstoodBody],
                               access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                               nutrition: NamedDependency[NutritionService]) -> Understood:
        """What an intake's allergies, diet pattern and aversions would be understood as (the intake form shows it
        back as the member types; nothing is stored)."""
        await nutrition.member_scope(access, caller.user_id)
        return shape(understood({"allergies": data.allergies, "diet_pattern": data.diet_pattern,
                                 "food_aversions": data.food_aversions}, request_locale(request)), Understood)

    @get("/runs", responses=error_responses(400, 401, 403, 404))
    async def list_runs(self, access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                        nutrition: NamedDependency[NutritionService],
                        membershipId: FromQuery[uuid.UUID | None] = None) -> RunList:
        own = await nutrition.member_scope(access, caller.user_id)
        found = await nutrition.list_runs(member_id=membershipId, member_scope=own)
        return RunList(runs=[shape(views.run_summary(run), RunSummary) for run in found])

    @get("/runs/{run_id:uuid}", responses=error_responses(400, 401, 403, 404))
    async def get_run(self, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                      caller: NamedDependency[Caller], nutrition: NamedDependency[NutritionService]) -> RunDetail:
        own = await nutrition.member_scope(access, caller.user_id)
        run = await nutrition.run(run_id, member_scope=own)
        return shape(await nutrition.detail(run, for_member=own is not None), RunDetail)

    @get("/runs/{run_id:uuid}/events", responses={**run_stream_response(), **error_responses(400, 401, 403, 404)})
    async def events(self, request: Request, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                     caller: NamedDependency[Caller], nutrition: NamedDependency[NutritionService],
                     run_events: NamedDependency[RunEvents]) -> Stream:
        own = await nutrition.member_scope(access, caller.user_id)
        await nutrition.run(run_id, member_scope=own)  # 404 before the stream opens
        after = last_event_id(request.headers.get("last-event-id"))
        frames = (sse_frame(event) async for event in run_events.follow(access.org_id, run_id, after=after))
        return Stream(frames, media_type=SSE_MEDIA_TYPE, headers=SSE_HEADERS)

    @post("/runs/{run_id:uuid}/checkins", status_code=202,
          responses={200: ResponseSpec(CheckinAccepted, description="The same check-in sent again for its date: "
                                       "the first one's result; nothing re-ran"),
                     **error_responses(400, 401, 403, 404, 409, 413, 415, 422)})
    async def checkin(self, request: Request, run_id: FromPath[uuid.UUID], data: JSONBody[CheckinBody],
                      access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                      session: NamedDependency[AsyncSession], nutrition: NamedDependency[NutritionService],
                      idempotency_key: IdempotencyKey = None) -> Response[CheckinAccepted]:
        """A weekly check-in. `weight_kg` may be left out when the member logs body weights: the check-in then counts
        the trend weight on its date (a weight logged in the 7 days up to it; otherwise 422 asks for weight_kg). The
        member's chosen TDEE (PUT .../nutrition/log/tdee-choice) applies; the answer also carries the weight counted
        and the expenditure estimate with whether it is offered as the TDEE."""
        own = await nutrition.member_scope(access, caller.user_id)
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        out = await nutrition.submit_checkin(run_id, data, member_scope=own, submitted_by=caller.user_id)
        return await once.answer(200 if out.replayed else 202, CheckinAccepted(
            checkin_id=str(out.checkin_id), version=out.version, adjustment=out.adjustment,
            weight=shape(out.weight, CheckinWeight) if out.weight else None,
            expenditure=shape(out.expenditure, ExpenditureOut) if out.expenditure else None))

    @post("/runs/{run_id:uuid}/referral-acknowledged", status_code=202,
          responses=error_responses(400, 401, 403, 404, 409))
    async def acknowledge(self, run_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                          caller: NamedDependency[Caller], nutrition: NamedDependency[NutritionService]) -> RunStarted:
        own = await nutrition.member_scope(access, caller.user_id)
        run = await nutrition.acknowledge_referral(run_id, member_scope=own)
        return RunStarted(run_id=str(run.id), state=run.state, version=run.version)

    @post("/runs/{run_id:uuid}/health-questions", status_code=200,
          responses=error_responses(400, 401, 403, 404, 413, 415, 503))
    async def health_question(self, run_id: FromPath[uuid.UUID], data: JSONBody[QuestionBody],
                              access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                              health_questions: NamedDependency[HealthQuestions]) -> MedicalContextBody:
        answer = await health_questions.ask(access, caller.user_id, run_id, data.query)
        return shape(answer, MedicalContextBody)

    @post("/members/{member_id:uuid}/medical-clearance", status_code=201,
          responses=error_responses(400, 401, 403, 404, 413, 415, 422))
    async def clearance(self, request: Request, member_id: FromPath[uuid.UUID], data: JSONBody[ClearanceBody],
                        access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                        session: NamedDependency[AsyncSession], nutrition: NamedDependency[NutritionService],
                        idempotency_key: IdempotencyKey = None) -> Response[ClearanceRecorded]:
        own = await nutrition.member_scope(access, caller.user_id)  # front desk: 403 forbidden
        if own is not None:
            raise Forbidden("member_forbidden", detail="a member cannot record their own medical clearance")
        if access.role not in CLEARANCE_ROLES:
            raise Forbidden("role_forbidden")
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        clearance = await nutrition.record_clearance(member_id, data.note, recorded_by=caller.user_id)
        await write_audit(session, audit_row(org_id=access.org_id, caller=caller, action=CLEARANCE_AUDIT,
                                             resource="medical_clearance", resource_id=clearance.id,
                                             metadata={"membershipId": str(member_id), "runId": str(clearance.run_id)
                                                       if clearance.run_id else None}))
        return await once.answer(201, ClearanceRecorded(clearance_id=str(clearance.id), membership_id=str(member_id)))
