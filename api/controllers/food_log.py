"""The member's food log, body weights, trend and expenditure (issue 43 item 6: MacroFactor's core) under
`/organizations/{orgId}/nutrition/log`.

Only the caller's own member record (403 member_profile_required): staff read a member's nutrition through the
runs. Days are the gym's local days. Adding an entry takes an optional `Idempotency-Key` (a phone that sends it
again gets the first answer and logs nothing twice); a weight is put per day (sending it again changes nothing) and
the TDEE choice replaces the last one. Handlers parse, call `MemberLog` (gym/nutrition/member_log.py, injected) and
shape the answer.
"""

from __future__ import annotations

import re
import uuid
from datetime import date
from typing import Annotated
from zoneinfo import ZoneInfo

from litestar import Controller, Request, Response, delete, get, post, put
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody, PathParameter, QueryParameter
from sqlalchemy.ext.asyncio import AsyncSession

from api.controllers.trainer import member_profile_required, provide_member_id
from api.food_log_bodies import (
    DayLog,
    ExpenditureOut,
    FoodEntryBody,
    FoodsOut,
    QuickEntryBody,
    TdeeChoiceBody,
    TrendOut,
    WeightBody,
    WeightOut,
)
from api.idempotency import IdempotencyKey, Once
from api.responses import BEARER, error_responses, shape
from core.errors import InvalidInput, NotFound
from core.tenancy import Caller, OrgAccess
from gym.nutrition.food_log import Quick
from gym.nutrition.member_log import MemberLog

READ = error_responses(400, 401, 403, 404, 422)
CHANGE = error_responses(400, 401, 403, 404, 409, 413, 415, 422)
DAY_PATTERN = r"^(today|\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$"
DayInPath = Annotated[str, PathParameter(pattern=DAY_PATTERN, description="A local day (YYYY-MM-DD) or `today`.")]


async def provide_member_log(session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                             member_id: NamedDependency[uuid.UUID], locale: NamedDependency[str]) -> MemberLog:
    return MemberLog(session, access.org_id, member_id, locale, ZoneInfo(access.timezone))


def _day(value: str) -> date | None:
    """A path's day (None: today); one the pattern refuses is 400, and one the calendar lacks (a 30 February, the
    year 0) is 404 no_such_day: no log can be kept on it."""
    if value == "today":
        return None
    if not re.fullmatch(DAY_PATTERN, value):
        raise InvalidInput(status=400, detail="a day is YYYY-MM-DD or today")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise NotFound("no_such_day") from None


class FoodLogController(Controller):
    path = "/organizations/{org_id:str}/nutrition/log"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id), "log": Provide(provide_member_log)}
    security = BEARER

    @get("/foods", responses=error_responses(400, 401, 403, 404))
    async def foods(self, log: NamedDependency[MemberLog],
                    q: Annotated[str | None, QueryParameter(max_length=60, pattern=r"^[^\x00]*$")] = None) -> FoodsOut:
        """Library foods by the member's words in English, Hebrew or Russian (all of them without words), each with
        its per-100 g values from USDA FoodData Central, the state they are for and its serving if it has one."""
        return shape(await log.foods(q), FoodsOut)

    @get("/days/{day:str}", responses=READ)
    async def day(self, day: DayInPath, log: NamedDependency[MemberLog]) -> DayLog:
        """A day's entries by meal with the totals against the current plan's targets, and the day's weight; 422
        date_in_future, date_too_old."""
        return shape(await log.day_log(_day(day)), DayLog)

    @post("/entries", status_code=201, responses=CHANGE)
    async def add_food(self, request: Request, data: JSONBody[FoodEntryBody], log: NamedDependency[MemberLog],
                       session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                       caller: NamedDependency[Caller], idempotency_key: IdempotencyKey = None) -> Response[DayLog]:
        """Log a library food; the day as it is now, with the new entry's id. 422 unknown_food, no_serving,
        portion_too_large; 409 food_log_day_full (100 entries)."""
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        day = await log.add_food(data.date, data.meal, data.foodKey, data.amount, data.unit)
        return await once.answer(201, shape(day, DayLog))

    @post("/quick-entries", status_code=201, responses=CHANGE)
    async def add_quick(self, request: Request, data: JSONBody[QuickEntryBody], log: NamedDependency[MemberLog],
                        session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                        caller: NamedDependency[Caller], idempotency_key: IdempotencyKey = None) -> Response[DayLog]:
        """Log calories and macros without a food; 422 empty_entry, energy_too_high."""
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        quick = Quick(calories=data.calories, protein_g=data.proteinG, fat_g=data.fatG, carbs_g=data.carbsG,
                      label=data.label.strip() if data.label else None)
        return await once.answer(201, shape(await log.add_quick(data.date, data.meal, quick), DayLog))

    @delete("/entries/{entry_id:uuid}", status_code=200, responses=error_responses(400, 401, 403, 404))
    async def remove(self, entry_id: FromPath[uuid.UUID], log: NamedDependency[MemberLog]) -> DayLog:
        """Delete an entry; its day as it is now. 404 food_entry_not_found (also the second time)."""
        return shape(await log.remove(entry_id), DayLog)

    @put("/weights/{day:str}", status_code=200, responses=CHANGE)
    async def put_weight(self, day: DayInPath, data: JSONBody[WeightBody], log: NamedDependency[MemberLog]) -> WeightOut:
        """The day's body weight (one per day: sending another replaces it), with the trend on that day."""
        return shape(await log.put_weight(_day(day) or log.today(), data.weight, data.unit), WeightOut)

    @delete("/weights/{day:str}", status_code=200, responses=READ)
    async def delete_weight(self, day: DayInPath, log: NamedDependency[MemberLog]) -> WeightOut:
        """Remove the day's weight; 404 weight_not_found."""
        return shape(await log.delete_weight(_day(day) or log.today()), WeightOut)

    @get("/trend", responses=error_responses(400, 401, 403, 404))
    async def trend(self, log: NamedDependency[MemberLog],
                    days: Annotated[int, QueryParameter(ge=7, le=365)] = 90) -> TrendOut:
        """The last `days` days' weights and trend (α = 0.1 per day; gym/nutrition/weight_trend.py), and the
        estimated expenditure with its confidence, the plan's formula TDEE and whether the estimate is offered."""
        return shape(await log.trend(days), TrendOut)

    @put("/tdee-choice", status_code=200, responses=CHANGE)
    async def tdee_choice(self, data: JSONBody[TdeeChoiceBody], log: NamedDependency[MemberLog]) -> ExpenditureOut:
        """The member's choice for their plan's TDEE: the offered estimate or the formula (it replaces the last one;
        the next weekly check-in applies it). 409 expenditure_not_offered."""
        return shape(await log.choose_tdee(data.choice), ExpenditureOut)
