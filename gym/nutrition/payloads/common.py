"""What every payload model shares: unknown fields forbidden, no silent string-to-number coercion."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from gym.nutrition.vocabulary import AllergenCode, DietPatternCode

Agent = Literal["INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "PHYSICIAN"]
Recipient = Literal["INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "PHYSICIAN", "USER"]
Requester = Literal["INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "USER"]  # who asks PHYSICIAN
Sender = Literal["INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "PHYSICIAN", "USER",
                 "ORCHESTRATOR"]
Day = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Meal = Literal["breakfast", "lunch", "snack", "dinner", "presleep"]
DAYS: tuple[Day, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MEALS: tuple[Meal, ...] = ("breakfast", "lunch", "snack", "dinner", "presleep")
DietPattern = DietPatternCode  # gym.nutrition.vocabulary: the closed vocabularies
Allergen = AllergenCode
CyclePhase = Literal["menstrual", "follicular", "ovulatory", "luteal"]
# NUTRITION.md, "Clinical rules in code": peri- and post-menopausal women have no luteal logic and no referral
# NUTRITION.md, "Clinical rules in code": supplements a plan may not name for a minor, in pregnancy or breastfeeding
ExcludedSupplement = Literal["creatine", "stimulants"]
MenstrualStatus = Literal["regular", "irregular", "amenorrhea", "perimenopausal", "postmenopausal"]

NonNeg = Annotated[float, Field(ge=0)]
Kcal = Annotated[float, Field(ge=0, le=20_000)]
Grams = Annotated[float, Field(ge=0, le=5_000)]
Text = Annotated[str, Field(max_length=4_000)]
Short = Annotated[str, Field(min_length=1, max_length=200)]


class Payload(BaseModel):
    """Base of every edge schema: strict types (an int is still a valid number) and no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
