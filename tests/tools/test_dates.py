"""Dates in tool inputs stay in a window around the gym's today (issue 12 item 8): no class on 9999-12-31, no
task due 0001-01-01. Every date field of every tool is bounded and its schema says so."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from pydantic import ValidationError

from gym import classes
from tests.tools.harness import REGISTRY
from tools.dates import WINDOW_NOTE, window

NOW = datetime(2026, 11, 22, 22, 30, tzinfo=UTC)  # 00:30 on 23 November in Jerusalem
ABSURD = ("9999-12-31", "0001-01-01")


def _date_fields(spec) -> list[str]:
    """Top-level input properties holding a date (the names the model writes)."""
    schema = spec.input_model.model_json_schema(by_alias=True)
    return [name for name, prop in schema.get("properties", {}).items()
            if prop.get("format") == "date" or any(p.get("format") == "date" for p in prop.get("anyOf", ()))]


DATED = [(spec.name, field) for spec in REGISTRY.specs.values() for field in _date_fields(spec)]


def test_the_window_is_ten_years_back_and_five_ahead() -> None:
    assert window(date(2026, 11, 23)) == (date(2016, 11, 23), date(2031, 11, 23))
    assert window(date(2028, 2, 29)) == (date(2018, 2, 28), date(2033, 2, 28))
    assert len(DATED) >= 25  # analytics, assignments, bookings, class sessions, templates, tasks, workouts


@pytest.mark.parametrize(("tool", "field"), DATED)
def test_every_date_field_of_every_tool_is_bounded_and_described(tool, field) -> None:
    spec = REGISTRY.get(tool)
    for absurd in ABSURD:
        with pytest.raises(ValidationError) as refused:
            spec.input_model.model_validate({field: absurd}, context={"today": date(2026, 11, 23)})
        assert any(error["loc"][:1] == (field,) and "outside" in error["msg"] for error in refused.value.errors())
    described = spec.to_anthropic()["input_schema"]["properties"][field]["description"]
    assert WINDOW_NOTE in described


@pytest.fixture
async def gym(db, factory):
    org = await factory.org(timezone="Asia/Jerusalem")
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as session:
        await classes.create_class_type(session, org.id, name="Open Gym", default_duration_min=60)
    return org, owner


@pytest.mark.parametrize("absurd", ABSURD)
async def test_a_class_or_a_task_on_an_absurd_day_is_a_typed_validation_error(tools, gym, absurd) -> None:
    org, owner = gym
    session = await tools.fails("class_sessions__create", {"classType": "open gym", "date": absurd,
                                                            "start": "13:00"}, "validation_failed",
                                org=org, user=owner, now=NOW)
    assert "date" in session["detail"] and "outside" in session["detail"]
    assert session["message"] == "Some details were missing or not valid."  # no field names for people
    task = await tools.fails("tasks__create", {"title": "Renew the lease", "dueOn": absurd}, "validation_failed",
                             org=org, user=owner, now=NOW)
    assert "dueOn" in task["detail"] and "dueOn" not in task["message"]


async def test_the_window_follows_the_gyms_today(tools, gym) -> None:
    org, owner = gym
    last = "2031-11-23"  # five years after the gym's local today (23 Nov), though UTC still says 22 Nov
    made = await tools.ok("tasks__create", {"title": "Five years on", "dueOn": last}, org=org, user=owner, now=NOW)
    assert made["dueOn"] == last
    await tools.fails("tasks__create", {"title": "A day too far", "dueOn": "2031-11-24"}, "validation_failed",
                      org=org, user=owner, now=NOW)
    booked = await tools.ok("class_sessions__create", {"classType": "open gym", "date": last, "start": "13:00"},
                            org=org, user=owner, now=NOW)
    assert booked["date"] == last
