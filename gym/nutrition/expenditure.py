"""The member's estimated expenditure offered to SCIENTIST as their TDEE (issue 43 item 6), and their choice.

The estimate is `gym.nutrition.weight_trend.expenditure` over the member's logged weights and food. It is offered
when it differs from the plan's formula TDEE (SCIENTIST's Mifflin-St Jeor × activity, `MemberPlan.formula`) by more
than 10 % and is not below the plan's BMR (an estimate under the resting metabolism says the log misses food, not
that the body burns less). The member accepts it or keeps the formula: an explicit choice stored per member
(`expenditure_choices`, with the estimate accepted). The next weekly check-in applies it: when the TDEE the member
chose differs from the one the plan uses, the check-in fires `tdee_recalculation` (004 §10: SCIENTIST and the
nutrition agents re-run) and SCIENTIST computes the targets on the chosen TDEE, its floor unchanged.
"""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict
from gym.nutrition import body_weights, food_log
from gym.nutrition.log_models import ExpenditureChoice
from gym.nutrition.member_plan import MemberPlan, current_plan
from gym.nutrition.scientist import ScientistState, whole
from gym.nutrition.triggers import ORDER, Evaluation
from gym.nutrition.units import in_unit
from gym.nutrition.weight_trend import (
    MIN_DAYS,
    MIN_LOGGED_DAYS,
    MIN_WEIGHTS,
    WINDOW_DAYS,
    Expenditure,
    expenditure,
)
from gym.training.profiles import get_units

OFFER_SHARE = 0.10  # offered when the estimate and the formula differ by more than 10 % of the formula
RECALCULATION = "tdee_recalculation"


def offered(estimate: Expenditure, *, formula_kcal: float, bmr_kcal: float) -> bool:
    return (estimate.kcal is not None and estimate.kcal >= bmr_kcal
            and abs(estimate.kcal - formula_kcal) > OFFER_SHARE * formula_kcal)


async def estimate(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, end: date) -> Expenditure:
    logged = await body_weights.weights(session, org_id, member_id, until=end)
    start = end - timedelta(days=WINDOW_DAYS)
    return expenditure(logged, await food_log.daily_kcal(session, org_id, member_id, start, end), end)


async def stored_choice(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> ExpenditureChoice | None:
    return await session.scalar(select(ExpenditureChoice).where(
        ExpenditureChoice.org_id == org_id, ExpenditureChoice.member_id == member_id)
        .execution_options(populate_existing=True))


def _choice_view(row: ExpenditureChoice | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"choice": row.choice, "estimateKcal": row.estimate_kcal, "formulaKcal": row.formula_kcal,
            "confidence": row.confidence, "decidedAt": row.decided_at.isoformat() if row.decided_at else None}


def view(found: Expenditure, plan: MemberPlan | None, choice: ExpenditureChoice | None, *,
         weight_unit: str) -> dict[str, Any]:
    """The estimate with how it was reached (the trend's change in kg and in the member's unit), the plan's formula
    TDEE, whether it is offered, the stored choice and the TDEE the plan uses now."""
    bmr, formula = plan.formula() if plan is not None else (None, None)
    in_use = plan.state.tdee_kcal if plan is not None else None
    return {
        "ready": found.ready, "estimateKcal": None if found.kcal is None else whole(found.kcal),
        "confidence": found.confidence, "start": found.start.isoformat() if found.start else None,
        "end": found.end.isoformat(), "days": found.days, "weights": found.weights, "loggedDays": found.logged_days,
        "averageIntakeKcal": None if found.average_intake_kcal is None else round(found.average_intake_kcal, 1),
        "trendChangeKg": None if found.trend_change_kg is None else round(found.trend_change_kg, 3),
        "trendChange": None if found.trend_change_kg is None else in_unit(found.trend_change_kg, weight_unit),
        "unit": weight_unit,
        "needs": {"days": MIN_DAYS, "weights": MIN_WEIGHTS, "loggedDays": MIN_LOGGED_DAYS},
        "formulaKcal": None if formula is None else whole(formula),
        "differencePct": None if formula is None or found.kcal is None
        else round(100 * (found.kcal - formula) / formula, 1),
        "offered": bool(plan is not None and formula is not None and bmr is not None
                        and offered(found, formula_kcal=formula, bmr_kcal=bmr)),
        "hasPlan": plan is not None,
        "choice": _choice_view(choice),
        "inUse": None if plan is None else "estimate" if in_use is not None else "formula",
        "inUseKcal": None if plan is None else in_use if in_use is not None else whole(formula or 0),
    }


async def overview(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, end: date) -> dict[str, Any]:
    units = await get_units(session, org_id, member_id)
    return view(await estimate(session, org_id, member_id, end), await current_plan(session, org_id, member_id),
                await stored_choice(session, org_id, member_id), weight_unit=units.weight_unit)


async def choose(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, choice: str,
                 end: date) -> dict[str, Any]:
    """Store the member's choice (it replaces the last one). `estimate` needs a standing offer (409
    `expenditure_not_offered`); `formula` is always allowed."""
    shown = await overview(session, org_id, member_id, end)
    if choice == "estimate" and not shown["offered"]:
        raise Conflict("expenditure_not_offered")
    values = {"choice": choice, "estimate_kcal": shown["estimateKcal"] if choice == "estimate" else None,
              "formula_kcal": shown["formulaKcal"], "confidence": shown["confidence"] if choice == "estimate" else None}
    await session.execute(insert(ExpenditureChoice).values(id=uuid.uuid4(), org_id=org_id, member_id=member_id,
                                                           **values)
                          .on_conflict_do_update(constraint="uq_expenditure_choices_member",
                                                 set_={**values, "decided_at": func.now()}))
    return await overview(session, org_id, member_id, end)


async def chosen_tdee(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> int | None:
    """The TDEE the member chose for their plan: the estimate they accepted, None for the formula."""
    row = await stored_choice(session, org_id, member_id)
    return row.estimate_kcal if row is not None and row.choice == "estimate" else None


def apply_choice(ev: Evaluation, state: ScientistState, chosen: int | None) -> None:
    """A check-in's evaluation with the member's chosen TDEE: a recalculation takes it, and a choice that differs
    from the TDEE the plan uses fires one."""
    ev.tdee_kcal = chosen
    if chosen == state.tdee_kcal:
        return
    if RECALCULATION not in ev.triggers:
        ev.triggers.append(RECALCULATION)
        ev.triggers.sort(key=ORDER.index)
    ev.notes.append(f"Estimated expenditure {chosen} kcal/day used as TDEE (the member's choice)" if chosen is not None
                    else "Formula TDEE used again (the member's choice)")
