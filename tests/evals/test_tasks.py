"""The task files themselves: they load, cover what the suite promises, and name only tools, roles and answer
functions that exist (so a renamed tool breaks the suite here, not silently in a run)."""

from __future__ import annotations

from collections import Counter

import pytest

from evals.answers import ANSWERS
from evals.grader import numbers_in
from evals.reference import expand
from evals.tasks import TaskError, load_tasks, parse_task, select, with_fragments
from evals.values import matches
from gym.demo.tenancy import DEMO_LOGINS
from tools.catalog import build_registry

TASKS = load_tasks()
ROLES = {login.email: login.role for login in DEMO_LOGINS}
REGISTRY = build_registry()


def test_the_suite_covers_staff_trainer_and_nutrition() -> None:
    families = Counter(t.family.split("_")[0] for t in TASKS)
    assert families["staff"] >= 60 and families["trainer"] >= 30 and families["nutrition"] >= 10
    staff_roles = {ROLES[t.login] for t in TASKS if t.family.startswith("staff")}
    assert staff_roles == {"owner", "admin", "coach", "front_desk"}
    kinds = {t.family for t in TASKS}
    assert {"staff_read", "staff_create", "staff_destructive", "staff_pick", "staff_bulk", "staff_analytics",
            "staff_forbidden"} <= kinds
    assert all(ROLES[t.login] == "member" for t in TASKS if t.persona == "trainer")
    assert len({t.id for t in TASKS}) == len(TASKS)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_a_task_names_only_what_exists(task) -> None:
    role = ROLES[task.login]
    offered = {spec.name for spec in REGISTRY.for_role(role)}
    for step in expand(task.reference, task.persona):
        if step.call is not None:
            assert step.call in offered, f"{task.id}: {step.call} is not a tool of the {role} role"
    for name in (*task.confirmed, *task.called, *task.rejected, *task.not_called):
        assert REGISTRY.get(name) is not None, f"{task.id}: no tool {name}"
    for name in (*task.confirmed, *task.rejected):
        assert REGISTRY.get(name).confirm != "never", f"{task.id}: {name} never asks for a confirmation"
    if task.answer is not None and task.answer.fn is not None:
        assert task.answer.fn in ANSWERS
    assert task.reference, f"{task.id} has no reference moves: nothing proves it can be passed"


def test_a_typo_in_a_task_is_an_error_not_a_silent_pass() -> None:
    raw = {"id": "t", "login": "owner@harbor.test", "instructions": "x", "turns": ["hi"],
           "expect": [{"table": "tasks", "change": "insert", "were": {"title": "x"}}]}
    with pytest.raises(TaskError, match="unknown key.*were"):
        parse_task("f", raw)
    with pytest.raises(TaskError, match="change must be one of"):
        parse_task("f", {**raw, "expect": [{"table": "tasks", "change": "upsert"}]})
    with pytest.raises(TaskError, match="unknown key.*confimed"):
        parse_task("f", {**raw, "expect": [], "confimed": ["tasks__delete"]})


def test_fragments_are_spliced_in_with_their_place_as_order() -> None:
    fragments = {"a": {"name": "A"}, "b": {"name": "B", "order": 9}}
    assert with_fragments({"x": ["#a", "#b", "#a@7"]}, fragments) == {
        "x": [{"name": "A", "order": 1}, {"name": "B", "order": 9}, {"name": "A", "order": 7}]}
    with pytest.raises(TaskError, match="no fragment"):
        with_fragments("#missing", fragments)


def test_tasks_are_selected_by_family_prefix_or_id() -> None:
    assert {t.family for t in select(TASKS, "staff")} == {t.family for t in TASKS if t.family.startswith("staff")}
    chosen = [t.id for t in select(TASKS, "delete-murph,nutrition")]
    assert "delete-murph" in chosen and len(chosen) == 1 + sum(t.family == "nutrition" for t in TASKS)
    with pytest.raises(TaskError, match="no such family"):
        select(TASKS, "nonsense")


def test_numbers_are_read_the_way_replies_write_them() -> None:
    assert numbers_in("Revenue: ₪12,345.50 from 88 payments") == [12345.5, 88]
    assert numbers_in("1\u202f234 ккал, 60,3 %") == [1234, 60.3]
    assert numbers_in("workout_3 and ex_004 are ids, not numbers") == []


def test_values_match_as_rows_store_them() -> None:
    assert matches("@any", "x") and not matches("@any", None) and matches("@null", None)
    assert matches("~plumber", "Call the Plumber") and not matches("~plumber", None)
    assert matches("2026-11-27T13:00:00+02:00", "2026-11-27T11:00:00+00:00")
    assert matches(40, 40.0) and not matches(True, 1)
    assert matches({"from": 8.9, "to": 9.2}, 9.07) and not matches({"from": 8.9, "to": 9.2}, 10)
    assert matches({"from": "2026-11-30", "to": "2026-12-06"}, "2026-12-01")
