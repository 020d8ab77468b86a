"""The class schedule's bulk filter and results: a named local period or from/to days with optional class type,
program, published flag and coach (tools/leaves/class_sessions_bulk.py checks the ids and runs the preview, delete
and publish)."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gym.fingerprint import fingerprint
from tools.context import ToolContext
from tools.dates import ToolDate

MAX_IDS = 200  # ids listed in bulk outputs; the fingerprint always covers the whole set


RangeName = Literal["today", "tomorrow", "this_week", "next_week", "this_month", "next_month"]


class SessionFilterInput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    period: RangeName | None = Field(None, description="Named local range (weeks start Monday); or from/to.")
    from_: ToolDate | None = Field(None, alias="from", description="First local day (YYYY-MM-DD), inclusive.")
    to: ToolDate | None = Field(None, description="Last local day (YYYY-MM-DD), inclusive.")
    classTypeId: uuid.UUID | None = Field(None, description="Only sessions of this class type.")
    programId: uuid.UUID | None = Field(None, description="Only sessions of this program.")
    published: bool | None = Field(None, description="Only published (true) or only unpublished (false) ones.")
    coachUserId: uuid.UUID | None = Field(None, description="Only sessions this staff user coaches.")

    @model_validator(mode="after")
    def _dates(self) -> SessionFilterInput:
        if self.period is None and self.from_ is None and self.to is None:
            raise ValueError("give a period (e.g. this_week) or from/to dates")
        if self.from_ and self.to and (self.to < self.from_ or (self.to - self.from_).days > 366):
            raise ValueError("'to' must be on or after 'from', at most a year later")
        return self


def month_after(day: dt.date) -> dt.date:
    return dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)


def span(ctx: ToolContext, flt: SessionFilterInput) -> tuple[dt.date, dt.date]:
    if flt.from_ or flt.to:
        return flt.from_ or flt.to, flt.to or flt.from_  # type: ignore[return-value]
    today = ctx.local_now.date()
    monday = today - dt.timedelta(days=today.weekday())
    first_of_month = today.replace(day=1)
    return {"today": (today, today), "tomorrow": (today + dt.timedelta(days=1),) * 2,
            "this_week": (monday, monday + dt.timedelta(days=6)),
            "next_week": (monday + dt.timedelta(days=7), monday + dt.timedelta(days=13)),
            "this_month": (first_of_month, month_after(today) - dt.timedelta(days=1)),
            "next_month": (month_after(today), month_after(month_after(today)) - dt.timedelta(days=1)),
            }[flt.period or "today"]


class BulkActInput(SessionFilterInput):
    expectedFingerprint: str | None = Field(None, max_length=64,
                                            description="The fingerprint bulk_preview returned for this filter.")
    expectedIds: list[uuid.UUID] | None = Field(None, max_length=MAX_IDS,
                                                description="Or the ids bulk_preview returned.")


class BulkResult(BaseModel):
    action: str
    count: int
    fingerprint: str
    ids: list[uuid.UUID]
    idsTruncated: bool = False
    changedCount: int = Field(0, description="How many it changed (what to tell the user).")
    unchangedCount: int = Field(0, description="How many of `count` already were so and stayed.")
    changedIds: list[uuid.UUID] | None = None  # the rows it changed, all of them: what its Undo reverts


def bulk_result(action: str, ids: list[uuid.UUID], changed: list[uuid.UUID]) -> BulkResult:
    return BulkResult(action=action, count=len(ids), fingerprint=fingerprint(ids), ids=ids[:MAX_IDS],
                      idsTruncated=len(ids) > MAX_IDS, changedCount=len(changed),
                      unchangedCount=len(ids) - len(changed), changedIds=changed)
