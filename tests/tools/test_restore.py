"""Deletes that can be undone (issue 27 item 3): every soft delete declares a restore inverse that works for 24
hours, and a bulk publish a bulk unpublish of exactly the rows it published. The confirm policy of the deletes
and publishes is unchanged (tests/tools/test_catalog.py)."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from agent.policy import UNDO_WINDOW, can_undo
from tests.tools.harness import REGISTRY
from tests.tools.test_assignments import NOW, _gym, _program_assignment, _state, _week_of_assignments

SOFT_DELETES = {"workouts__delete": "workouts__restore", "programs__delete": "programs__restore",
                "tasks__delete": "tasks__restore", "assignments__delete": "assignments__restore",
                "class_sessions__cancel": "class_sessions__restore",
                "assignments__bulk_delete": "assignments__bulk_restore",
                "class_sessions__bulk_delete": "class_sessions__bulk_restore",
                "assignments__bulk_publish": "assignments__bulk_unpublish",
                "class_sessions__bulk_publish": "class_sessions__bulk_unpublish"}


def test_every_soft_delete_and_bulk_publish_declares_its_inverse_for_the_same_roles() -> None:
    for name, inverse in SOFT_DELETES.items():
        spec, undo = REGISTRY.get(name), REGISTRY.get(inverse)
        assert spec is not None and spec.inverse is not None and spec.inverse.name == inverse, name
        assert undo is not None and undo.roles == spec.roles and undo.confirm == "never", inverse


def test_undo_is_offered_for_24_hours() -> None:
    spec = REGISTRY.get("workouts__delete")
    ran = NOW
    assert can_undo(REGISTRY, spec, "coach", succeeded=True, ran_at=ran, now=ran + UNDO_WINDOW - timedelta(minutes=1))
    assert not can_undo(REGISTRY, spec, "coach", succeeded=True, ran_at=ran, now=ran + UNDO_WINDOW + timedelta(minutes=1))
    assert not can_undo(REGISTRY, spec, "front_desk", succeeded=True, ran_at=ran, now=ran)


async def test_a_deleted_workout_task_and_assignment_come_back_within_24_hours(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    workout = str(gym.workout)
    deleted = await tools.ok("workouts__delete", {"id": workout}, org=gym.org, user=gym.coach, now=NOW)
    restore = REGISTRY.get("workouts__delete").inverse.build_input(deleted)
    assert restore == {"id": workout}
    back = await tools.ok("workouts__restore", restore, org=gym.org, user=gym.coach, now=NOW + timedelta(hours=23))
    assert back["restored"] is True and back["count"] == 1
    await tools.fails("workouts__restore", restore, "not_deleted", org=gym.org, user=gym.coach, now=NOW)

    await tools.ok("workouts__delete", {"id": workout}, org=gym.org, user=gym.coach, now=NOW)
    late = await tools.fails("workouts__restore", restore, "undo_window_passed", org=gym.org, user=gym.coach,
                             now=NOW + timedelta(hours=25))
    assert late["message"] == "That can no longer be undone: Undo lasts 24 hours."
    await tools.fails("workouts__restore", {"id": str(uuid.uuid4())}, "workout_not_found", org=gym.org,
                      user=gym.coach, now=NOW)
    await tools.ok("workouts__restore", restore, org=gym.org, user=gym.coach, now=NOW)  # the assignment needs it

    task = await tools.ok("tasks__create", {"title": "Fix the rower"}, org=gym.org, user=gym.coach, now=NOW)
    await tools.ok("tasks__delete", {"id": task["id"]}, org=gym.org, user=gym.coach, now=NOW)
    await tools.ok("tasks__restore", {"id": task["id"]}, org=gym.org, user=gym.coach, now=NOW)
    assert (await tools.ok("tasks__list", {}, org=gym.org, user=gym.coach))["count"] == 1

    one = await _program_assignment(db, gym, date(2026, 6, 16))
    await tools.ok("assignments__delete", {"id": str(one)}, org=gym.org, user=gym.coach, now=NOW)
    assert (await _state(db, [one]))[one] == (False, True)
    await tools.ok("assignments__restore", {"id": str(one)}, org=gym.org, user=gym.coach, now=NOW)
    assert (await _state(db, [one]))[one] == (False, False)


async def test_a_bulk_publish_is_undone_by_unpublishing_exactly_what_it_published(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    ids = await _week_of_assignments(db, tools, gym)
    already = await _program_assignment(db, gym, date(2026, 6, 18), published=True)  # published before: stays
    preview = await tools.ok("assignments__bulk_preview", {"period": "next_week"}, org=gym.org, user=gym.coach,
                             now=NOW)
    published = await tools.ok("assignments__bulk_publish", {"period": "next_week",
                                                             "expectedFingerprint": preview["fingerprint"]},
                               org=gym.org, user=gym.coach, now=NOW)
    inside = {ids["next_monday"], ids["next_wednesday"], ids["next_sunday"], ids["personal"]}
    assert published["count"] == 5 and {uuid.UUID(i) for i in published["changedIds"]} == inside
    undo = REGISTRY.get("assignments__bulk_publish").inverse.build_input(published)
    reverted = await tools.ok("assignments__bulk_unpublish", undo, org=gym.org, user=gym.coach, now=NOW)
    assert reverted["count"] == 4
    state = await _state(db, [*ids.values(), already])
    assert {i for i, (is_published, _) in state.items() if is_published} == {already}


async def test_a_bulk_delete_is_undone_by_restoring_exactly_what_it_deleted(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    ids = await _week_of_assignments(db, tools, gym)
    flt = {"from": "2026-06-15", "to": "2026-06-21", "programId": str(gym.crossfit)}
    preview = await tools.ok("assignments__bulk_preview", flt, org=gym.org, user=gym.coach)
    deleted = await tools.ok("assignments__bulk_delete", {**flt, "expectedFingerprint": preview["fingerprint"]},
                             org=gym.org, user=gym.coach, now=NOW)
    gone = {ids["next_monday"], ids["next_wednesday"], ids["next_sunday"]}
    assert {uuid.UUID(i) for i in deleted["changedIds"]} == gone
    undo = REGISTRY.get("assignments__bulk_delete").inverse.build_input(deleted)
    await tools.ok("assignments__bulk_restore", undo, org=gym.org, user=gym.coach, now=NOW)
    assert all(not is_deleted for _, is_deleted in (await _state(db, list(ids.values()))).values())
