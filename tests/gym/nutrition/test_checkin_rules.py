"""Check-in validation beyond the schema (004 §7.2): waist and hips every two weeks, sane dates."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest

from core.errors import InvalidInput
from gym.nutrition.checkin_rules import checkin_errors, validate_checkin
from gym.nutrition.errors import IllegalTransition
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.medical import MedicalContext
from gym.nutrition.physician import acknowledge, outcome
from gym.nutrition.states import State
from gym.nutrition.triggers import Point
from tests.gym.nutrition import samples

START = date(2026, 1, 5)
TODAY = date(2026, 3, 1)


def c(day: int | None = None, **fields) -> WeeklyCheckin:
    on = {"checkin_date": (START + timedelta(days=day)).isoformat()} if day is not None else {}
    return WeeklyCheckin.model_validate({"weight_kg": 57.0, **on, **fields})


def p(day: int, **fields) -> Point:
    return Point(c(day, **fields), START + timedelta(days=day), day // 7)


M = {"waist_cm": 68.5, "hip_cm": 92.5}


@pytest.mark.parametrize(("checkin", "history", "errors"), [
    (c(7, **M), [], []),
    (c(7), [], [("waist_cm", "required_biweekly"), ("hip_cm", "required_biweekly")]),  # first is the baseline
    (c(14), [p(7, **M)], []),  # measured 7 days ago
    (c(20), [p(7, **M)], []),  # 13 days
    (c(21), [p(7, **M)], [("waist_cm", "required_biweekly"), ("hip_cm", "required_biweekly")]),  # 14 days
    (c(21), [p(7, **M), p(14)], [("waist_cm", "required_biweekly"), ("hip_cm", "required_biweekly")]),
    (c(14, waist_cm=70), [p(7, **M)], [("hip_cm", "measured_together")]),
    (c(-1, **M), [], [("checkin_date", "before_run_start")]),
    (c(10, **M), [p(14, **M)], [("checkin_date", "before_previous_checkin")]),
    (c(400, **M), [], [("checkin_date", "in_future")]),
])
def test_checkin_errors(checkin, history, errors) -> None:
    found = checkin_errors(checkin, started_on=START, today=TODAY, history=history)
    assert [(e["field"], e["code"]) for e in found] == errors


def test_the_date_defaults_to_today_and_errors_raise_422() -> None:
    assert validate_checkin(c(**M), started_on=START, today=TODAY, history=[]) == TODAY
    with pytest.raises(InvalidInput) as caught:
        validate_checkin(c(), started_on=START, today=TODAY, history=[])
    assert caught.value.status == 422 and caught.value.code == "validation_failed"
    assert {e["field"] for e in caught.value.params["errors"]} == {"waist_cm", "hip_cm"}


RUN = uuid.uuid4()


@pytest.mark.parametrize("paused_from", [State.SCIENTIST_PROCESSING, State.NUTRITIONIST_PROCESSING,
                                         State.DIETITIAN_PROCESSING, State.COACH_PROCESSING])
def test_physician_continue_resumes_where_it_paused(paused_from: State) -> None:
    out = outcome(MedicalContext.model_validate(samples.medical_context("continue")), paused_from=paused_from,
                  requesting_agent="SCIENTIST", run_id=RUN)
    assert (out.target, out.awaiting_user, out.terminated_medical, out.error) == (paused_from, False, False, None)
    assert acknowledge(paused_from) is paused_from


def test_physician_pause_waits_for_the_user_and_abort_terminates() -> None:
    pause = outcome(MedicalContext.model_validate(samples.medical_context("pause_pending_referral", urgency="soon")),
                    paused_from=State.SCIENTIST_PROCESSING, requesting_agent="SCIENTIST", run_id=RUN)
    assert (pause.target, pause.awaiting_user, pause.terminated_medical) == (State.PAUSED_PHYSICIAN, True, False)
    abort = outcome(MedicalContext.model_validate(samples.medical_context(
        "abort", urgency="urgent", referral_target="eating-disorder specialist")),
        paused_from=State.SCIENTIST_PROCESSING, requesting_agent="SCIENTIST", run_id=RUN)
    assert (abort.target, abort.terminated_medical) == (State.ERROR, True)
    assert (abort.error.error_type, abort.error.recoverable, abort.error.pipeline_run_id) == (
        "physician_abort", False, RUN)
    assert "eating-disorder specialist" in abort.error.details


def test_a_paused_run_cannot_resume_to_a_state_it_never_left() -> None:
    with pytest.raises(IllegalTransition):
        acknowledge(State.CHEF_PROCESSING)
    with pytest.raises(IllegalTransition):
        acknowledge(State.OUTPUT_READY)
