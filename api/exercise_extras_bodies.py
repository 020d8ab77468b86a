"""Typed bodies of what the member app offers around an exercise (issue 43): what the member did last time, per set,
their own note on it, and the plates for a barbell load."""

from __future__ import annotations

from msgspec import Struct
from pydantic import BaseModel, ConfigDict, Field


class PreviousSetOut(Struct):
    setNumber: int
    reps: int
    load: float | None


class PreviousOut(Struct):
    """What the member did last time, per set: the newest earlier session of this exercise, loads in `unit`."""

    performedAt: str
    unit: str
    sets: list[PreviousSetOut]


class NoteBody(BaseModel):
    """The member's note on an exercise; an empty note forgets it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=120, description="The exercise's name, as the workout has it.")
    note: str = Field(max_length=1000, description="The member's words, shown back the next time.")


class NoteOut(Struct):
    name: str
    note: str | None
    updatedAt: str


class PlatesOut(Struct):
    """A barbell load as the bar and the plates per side (heaviest first), in the member's unit: the gym's own bar
    and plates (`source` "gym") or a standard set ("standard"); `exact` false: `total` is the nearest under."""

    unit: str
    bar: float
    plates: list[float]
    source: str
    load: float
    belowBar: bool
    perSide: list[float]
    total: float
    exact: bool
