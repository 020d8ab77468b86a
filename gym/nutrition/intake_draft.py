"""What the console's intake form starts from for a member (issue 25 item 8): their own answers, never a sample.

The member's last intake (their own answers to this form, age moved on by the years since) when they have a
run; otherwise what their training profile knows (sex, age from the birth year, height, weight, experience);
otherwise nothing. Always metric, with the member's units setting so the form can show lb and in.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gym.nutrition import runs
from gym.nutrition.payloads.intake import IntakeData
from gym.training.profiles import get_profile, get_units

AGE = IntakeData.model_fields["age"].metadata  # the intake's bounds: a profile age outside them is left out
EXPERIENCE = {"beginner": "beginner", "intermediate": "intermediate", "advanced": "intermediate"}


def _age_ok(age: int) -> bool:
    low = next(m.ge for m in AGE if hasattr(m, "ge"))
    high = next(m.le for m in AGE if hasattr(m, "le"))
    return bool(low <= age <= high)


async def intake_draft(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                       today: date) -> dict[str, Any]:
    """`{intake, source: "last_run"|"profile"|None, sourceDate, units}`: a partial intake the member checks."""
    units = (await get_units(session, org_id, member_id)).as_dict()
    found = await runs.list_runs(session, org_id, member_id=member_id)
    if found:
        last = found[0]
        intake = dict(last.intake or {})
        since = last.created_at.date() if last.created_at else today
        if isinstance(intake.get("age"), int | float):
            intake["age"] = int(intake["age"]) + max(0, (today - since).days // 365)
        return {"intake": intake, "source": "last_run", "sourceDate": since.isoformat(), "units": units}
    profile = await get_profile(session, org_id, member_id)
    intake = {}
    if profile is not None:
        if profile.sex in ("female", "male"):
            intake["sex"] = profile.sex
        if profile.birth_year and _age_ok(today.year - profile.birth_year):
            intake["age"] = today.year - profile.birth_year
        if profile.height_cm is not None:
            intake["height_cm"] = float(profile.height_cm)
        if profile.weight_kg is not None:
            intake["current_weight_kg"] = float(profile.weight_kg)
        if profile.experience in EXPERIENCE:
            intake["training_experience"] = EXPERIENCE[profile.experience]
    return {"intake": intake, "source": "profile" if intake else None, "sourceDate": None, "units": units}
