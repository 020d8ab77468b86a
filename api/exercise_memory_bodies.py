"""Typed bodies of what the member app remembers per exercise (issue 43): what the member did last time, per set,
and their own note on it."""

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
