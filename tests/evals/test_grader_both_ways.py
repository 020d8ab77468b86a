"""The grader, both ways, through the real engine and the fake Anthropic server: a task passes when the scripted
model does the right thing, and fails — naming what failed — when it changes the wrong row, writes something
extra, skips the person's confirmation or gives a wrong number."""

from __future__ import annotations

import dataclasses

import pytest

from evals.report import TryResult
from evals.tasks import Check, Step
from tests.evals.conftest import ALL_TASKS, run_with_fake

RIGHT = [ALL_TASKS[name] for name in ("delete-murph", "task-plumber", "revenue-last-month",
                                      "publish-next-week-assignments")]


def _by_task(results: list[TryResult]) -> dict[str, TryResult]:
    return {r.task: r for r in results}


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def test_the_right_moves_pass(app_settings, fake_model, eval_gym, tmp_path) -> None:
    outcome = await run_with_fake(app_settings, fake_model, eval_gym, RIGHT, tmp_path)
    results = _by_task(outcome.results)
    assert {task: (r.status, r.failures) for task, r in results.items()} == {
        task.id: ("pass", []) for task in RIGHT}
    assert results["delete-murph"].round_trips == 3 and results["delete-murph"].cost_usd_micros > 0
    assert (outcome.out_dir / "results.jsonl").exists()


async def test_wrong_moves_fail_naming_what_failed(app_settings, fake_model, eval_gym, tmp_path) -> None:
    murph, plumber, revenue, publish = RIGHT
    wrong = [
        dataclasses.replace(murph, reference=(  # the wrong row: Fran is deleted, Murph stays
            Step(call="read__search_anything", input={"query": "Murph", "types": ["workout"]}),
            Step(call="workouts__delete", input={"id": "@workout:Fran"}), Step(say="Deleted Murph."))),
        dataclasses.replace(plumber, reference=(  # an extra write beside the task asked for
            Step(call="tasks__create", input={"title": "Call the plumber"}),
            Step(call="tasks__create", input={"title": "Buy coffee for the staff room"}), Step(say="Done."))),
        dataclasses.replace(revenue, reference=(  # the right tool, a made-up number
            Step(call="analytics__revenue_summary", input={"period": "last_month"}),
            Step(say="Revenue last month: ₪1,234.00.")),
            checks=(Check(sql="SELECT no_such_column FROM tasks", equals=0, about="a broken check"),
                    Check(sql="SELECT 1", equals=2, about="a check after it"))),
        dataclasses.replace(publish, reference=(  # publishes one by one: no confirmation asked
            Step(call="assignments__bulk_preview", input={"period": "next_week"}),
            Step(call="assignments__set_published", input={"id": "@out:0.ids.0", "published": True}),
            Step(say="Published."))),
    ]
    results = _by_task((await run_with_fake(app_settings, fake_model, eval_gym, wrong, tmp_path)).results)
    assert all(r.status == "fail" for r in results.values())

    deleted = results["delete-murph"].failures
    assert "expected 1 update(s) in workouts where title=Murph, found 0" in deleted
    assert any(f.startswith("unexpected update of deleted_at in workouts: title=Fran") for f in deleted)
    assert results["task-plumber"].failures == [
        "unexpected insert in tasks: title=Buy coffee for the staff room, status=open"]
    revenue_failures = results["revenue-last-month"].failures
    assert revenue_failures[0].startswith("check 'a broken check' could not run: ProgrammingError")
    assert revenue_failures[1] == "check 'a check after it': got 1, expected 2"  # the broken one took only itself
    assert revenue_failures[2].startswith("the reply does not give ")
    published = results["publish-next-week-assignments"].failures
    assert any(f.startswith("assignments__bulk_publish did not run after a person's approval") for f in published)
    assert any(f.startswith("check 'no draft assignment is left next week'") for f in published)
