"""Category and muscle goals (weights normalized to sum to 1 when saved) and milestone goals."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.distribution import normalize_weights
from gym.training.models import CategoryGoal, MilestoneGoal, MuscleGoal
from gym.training.profiles import require_member
from gym.training.vocab import MILESTONE_STATUSES, MILESTONE_TYPES, canonical_muscle

MAX_GOALS = 12


def _weights(raw: dict[str, float]) -> dict[str, Decimal]:
    if not raw:
        raise GymError("invalid_goals", "give at least one goal", "Send goals with percentages.")
    if any(w < 0 for w in raw.values()):
        raise GymError("invalid_goals", "percentages cannot be negative")
    normalized = normalize_weights(raw)
    if sum(normalized.values()) <= 0:
        raise GymError("invalid_goals", "at least one percentage must be above zero")
    return {name: Decimal(str(round(w, 5))) for name, w in normalized.items()}


async def set_category_goals(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             goals: list[tuple[str, str | None, float]]) -> list[CategoryGoal]:
    """Replace the member's category goals: (name, description, percentage) → weights summing to 1."""
    await require_member(session, org_id, member_id)
    names = [" ".join(n.split()) for n, _, _ in goals]
    if len({n.lower() for n in names}) != len(names) or not all(names) or len(names) > MAX_GOALS:
        raise GymError("invalid_goals", f"category names must be non-empty and distinct (at most {MAX_GOALS})")
    weights = _weights({n: p for n, (_, _, p) in zip(names, goals, strict=True)})
    await session.execute(delete(CategoryGoal).where(CategoryGoal.org_id == org_id,
                                                     CategoryGoal.member_id == member_id))
    rows = [CategoryGoal(org_id=org_id, member_id=member_id, name=n, description=d, weight=weights[n])
            for n, (_, d, _) in zip(names, goals, strict=True)]
    session.add_all(rows)
    await session.flush()
    return rows


async def set_muscle_goals(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                           goals: dict[str, float]) -> list[MuscleGoal]:
    """Replace the member's muscle goals (names from the 16, case-insensitive) with normalized weights."""
    await require_member(session, org_id, member_id)
    canonical: dict[str, float] = {}
    for name, pct in goals.items():
        muscle = canonical_muscle(name)
        if muscle is None:
            raise GymError("invalid_muscle", f"{name!r} is not one of the 16 muscles",
                           "Use Chest, Back, Shoulders, Biceps, Triceps, Abs, Lower Back, Quadriceps, Hamstrings, "
                           "Glutes, Calves, Trapezius, Abductors, Adductors, Forearms or Neck.")
        canonical[muscle] = canonical.get(muscle, 0.0) + pct
    weights = _weights(canonical)
    await session.execute(delete(MuscleGoal).where(MuscleGoal.org_id == org_id, MuscleGoal.member_id == member_id))
    rows = [MuscleGoal(org_id=org_id, member_id=member_id, muscle=m, weight=w) for m, w in weights.items()]
    session.add_all(rows)
    await session.flush()
    return rows


async def category_weights(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> dict[str, float]:
    rows = (await session.execute(select(CategoryGoal.name, CategoryGoal.weight).where(
        CategoryGoal.org_id == org_id, CategoryGoal.member_id == member_id))).all()
    return {name: float(weight) for name, weight in rows}


async def muscle_weights(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> dict[str, float]:
    rows = (await session.execute(select(MuscleGoal.muscle, MuscleGoal.weight).where(
        MuscleGoal.org_id == org_id, MuscleGoal.member_id == member_id))).all()
    return {name: float(weight) for name, weight in rows}


# --- milestones ----------------------------------------------------------------------------------------------

async def create_milestone(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, name: str,
                           goal_type: str, target_value: float | None = None, target_unit: str | None = None,
                           target_date: date | None = None, current_value: float | None = None,
                           plan_id: uuid.UUID | None = None) -> MilestoneGoal:
    await require_member(session, org_id, member_id)
    if goal_type not in MILESTONE_TYPES:
        raise GymError("invalid_milestone", f"goal_type must be one of {', '.join(MILESTONE_TYPES)}")
    if not name.strip():
        raise GymError("invalid_milestone", "a milestone needs a name")
    row = MilestoneGoal(org_id=org_id, member_id=member_id, name=name.strip(), goal_type=goal_type,
                        target_value=target_value, target_unit=target_unit, target_date=target_date,
                        current_value=current_value, plan_id=plan_id, status="active")
    session.add(row)
    await session.flush()
    return row


async def update_milestone(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                           milestone_id: uuid.UUID, *, now: datetime, **changes) -> MilestoneGoal:
    row = await session.scalar(select(MilestoneGoal).where(MilestoneGoal.org_id == org_id,
                                                           MilestoneGoal.member_id == member_id,
                                                           MilestoneGoal.id == milestone_id))
    if row is None:
        raise GymError("milestone_not_found", f"No milestone {milestone_id} for this member.",
                       "List the member's milestones and use one of their ids.", status=404)
    allowed = {"name", "target_value", "target_unit", "target_date", "current_value", "status"}
    if set(changes) - allowed:
        raise GymError("invalid_milestone", f"cannot change {', '.join(sorted(set(changes) - allowed))}")
    if changes.get("status") not in (None, *MILESTONE_STATUSES):
        raise GymError("invalid_milestone", f"status must be one of {', '.join(MILESTONE_STATUSES)}")
    for key, value in changes.items():
        setattr(row, key, value)
    if changes.get("status") == "achieved" and row.achieved_at is None:
        row.achieved_at = now
    await session.flush()
    return row


async def list_milestones(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                          status: str | None = "active") -> list[MilestoneGoal]:
    where = [MilestoneGoal.org_id == org_id, MilestoneGoal.member_id == member_id]
    if status and status != "all":
        where.append(MilestoneGoal.status == status)
    return list((await session.scalars(select(MilestoneGoal).where(*where).order_by(
        MilestoneGoal.target_date.asc().nulls_last(), MilestoneGoal.created_at))).all())


def milestone_dict(row: MilestoneGoal) -> dict:
    return {"id": str(row.id), "name": row.name, "goalType": row.goal_type,
            "targetValue": float(row.target_value) if row.target_value is not None else None,
            "targetUnit": row.target_unit, "targetDate": row.target_date.isoformat() if row.target_date else None,
            "currentValue": float(row.current_value) if row.current_value is not None else None,
            "status": row.status}
