"""The front desk's eval tasks (issue 42 item 6) pass when their reference moves are played through the real engine
and graded on the demo gym's end state — one task per desk tool — and a wrong move fails them."""

from __future__ import annotations

import dataclasses

import pytest

from evals.tasks import Step
from tests.evals.conftest import ALL_TASKS, run_with_fake

DESK = [task for task in ALL_TASKS.values() if task.family == "staff_desk"]
TOOLS = {"bookings__book_member", "bookings__cancel_booking", "bookings__join_waitlist", "bookings__leave_waitlist",
         "bookings__check_in", "bookings__undo_check_in", "memberships__freeze", "memberships__unfreeze",
         "messages__draft", "messages__discard", "messages__send", "messages__status"}


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def test_every_desk_tool_has_a_task_that_grades_its_end_state() -> None:
    used = {step.call for task in DESK for step in task.reference if step.call}
    assert TOOLS <= used, TOOLS - used
    assert all(task.expect or task.unchanged or task.not_called for task in DESK)


async def test_the_desk_tasks_pass_with_their_reference_moves(app_settings, fake_model, eval_gym, tmp_path) -> None:
    outcome = await run_with_fake(app_settings, fake_model, eval_gym, DESK, tmp_path)
    assert {r.task: (r.status, r.failures) for r in outcome.results} == {t.id: ("pass", []) for t in DESK}


async def test_booking_the_wrong_member_fails(app_settings, fake_model, eval_gym, tmp_path) -> None:
    book = ALL_TASKS["desk-book-dani"]
    wrong = dataclasses.replace(book, reference=(
        Step(call="bookings__book_member", input={"memberId": "@member:Saar Cohen",
                                                  "sessionId": "@session:Mobility@tomorrow 12:00"}),
        Step(say="Booked.")))
    (result,) = (await run_with_fake(app_settings, fake_model, eval_gym, [wrong], tmp_path)).results
    assert result.status == "fail" and any("bookings" in f for f in result.failures), result.failures
