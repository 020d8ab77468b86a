"""Confirmation summaries (issue 17 item 3): each confirm-gated tool says what it is about to do in words,
with the gym's names, dates and counts, in the caller's language; a thing that is gone gives no summary."""

from __future__ import annotations

import re
import uuid

from gym.exercises import install_library
from tests.tools.harness import REGISTRY, access_for, caller_for
from tools.catalog.confirm_summaries import DESCRIBERS
from tools.catalog.desk_summaries import DESK_DESCRIBERS


async def _describe(tools, name, input, org, user, locale="en"):
    said = await tools.runner.describe(REGISTRY.get(name), input, access=access_for(org, user.role),
                                       caller=caller_for(user), locale=locale)
    return said.summary if said is not None else None


def test_every_delete_cancel_and_bulk_tool_that_asks_for_confirmation_has_a_describer() -> None:
    gated = {name for name, spec in REGISTRY.specs.items() if spec.confirm != "never" and spec.allows("owner")}
    described = {name for name, spec in REGISTRY.specs.items() if spec.describe is not None}
    assert described == set(DESCRIBERS | DESK_DESCRIBERS) and described <= gated
    missing = {n for n in gated - described if any(w in n for w in ("delete", "cancel", "bulk"))}
    assert missing == set()


async def test_workout_delete_names_the_workout_its_creation_day_and_assignment_count(db, factory, tools) -> None:
    org = await factory.org()
    user = await factory.user(org, "owner")
    async with db.owner() as session:
        await install_library(session, org.id)
    workout = await tools.ok("workouts__create", {"title": "Murph", "text": "run 1 mile"}, org=org, user=user)
    en = await _describe(tools, "workouts__delete", {"id": workout["id"]}, org, user)
    assert re.fullmatch(r"Delete the workout Murph \(created [A-Z][a-z]{2} \d{1,2}, \d{4}, used in no assignment\)\.", en), en
    he = await _describe(tools, "workouts__delete", {"id": workout["id"]}, org, user, locale="he")
    assert "Murph" in he and "מחיקת האימון" in he
    ru = await _describe(tools, "workouts__delete", {"id": workout["id"]}, org, user, locale="ru")
    assert ru.startswith("Удалить тренировку Murph")


async def test_task_delete_names_the_task_and_a_missing_one_has_no_summary(factory, tools) -> None:
    org = await factory.org()
    user = await factory.user(org, "owner")
    task = await tools.ok("tasks__create", {"title": "Clean the rower"}, org=org, user=user)
    assert await _describe(tools, "tasks__delete", {"id": task["id"]}, org, user) == "Delete the task “Clean the rower”."
    assert await _describe(tools, "tasks__delete", {"id": str(uuid.uuid4())}, org, user) is None
    assert await _describe(tools, "tasks__create", {"title": "x"}, org, user) is None  # no describer: no summary


async def test_bulk_publish_counts_and_spans_the_days(factory, tools) -> None:
    org = await factory.org()
    user = await factory.user(org, "owner")
    text = await _describe(tools, "assignments__bulk_publish",
                           {"from": "2026-11-17", "to": "2026-11-23"}, org, user)
    assert " ".join(text.split()) == "Publish 0 assignments, Nov 17 – 23, 2026."  # CLDR's thin spaces as plain


async def test_program_template_apply_and_from_history_name_the_template_program_and_days(db, factory, tools) -> None:
    from gym.programs import create_program
    from tests.tools.test_program_templates import DAYS

    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    user = await factory.user(org, "coach")
    async with db.scope(org_id=org.id) as session:
        program = (await create_program(session, org.id, name="CrossFit", kind="class")).id
    template = await tools.ok("program_templates__create", {"name": "Squat block", "weeks": 2, "days": DAYS},
                              org=org, user=user)
    apply = {"templateId": template["id"], "programId": str(program), "startDate": "2026-11-16"}
    assert await _describe(tools, "program_templates__apply", apply, org, user) == (
        "Apply the template Squat block (3 workouts) to CrossFit from Nov 16, 2026, as drafts.")
    published = await _describe(tools, "program_templates__apply", {**apply, "published": True}, org, user, "ru")
    assert published is not None
    assert " ".join(published.split()) == "Применить шаблон Squat block (3 тренировки) к CrossFit с 16 нояб. 2026 г., с публикацией."
    saved = await _describe(tools, "program_templates__from_history",
                            {"programId": str(program), "name": "Autumn", "from": "2026-11-02", "to": "2026-11-15"},
                            org, user, "he")
    assert saved is not None and saved.startswith("שמירת האימונים של CrossFit") and "„Autumn”" in saved
    gone = {**apply, "templateId": str(uuid.uuid4())}
    assert await _describe(tools, "program_templates__apply", gone, org, user) is None
