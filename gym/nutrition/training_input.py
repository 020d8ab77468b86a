"""SCIENTIST -> COACH: the `training_input` payload (004 §4.6) from the intake and the check-ins so far.

Training days are not part of the intake: none/beginner get 3 days, intermediate 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from gym.nutrition.payloads.common import ExcludedSupplement
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.training import (
    ClientData,
    LoggedSet,
    ProgressData,
    ScientistTriggers,
    TrainingInput,
)
from gym.nutrition.triggers import stall_streaks

PHASE_LENGTH_WEEKS = 8


def training_input(intake: IntakeData, checkins: Sequence[WeeklyCheckin] = (), *, weeks_on_program: int = 0,
                   stall: bool = False, note: str | None = None, phase: Literal["pre_training", "active_training"] | None = None,
                   supplements_excluded: Sequence[ExcludedSupplement] = ()) -> TrainingInput:
    """`phase`: the training phase a check-in moved the member to (None: the intake's); `supplements_excluded`: what
    the clinical rules forbid COACH to recommend (`gym.nutrition.clinical`)."""
    last = checkins[-1] if checkins else None
    log = last.training_log if last is not None and last.training_log is not None else None
    streaks = stall_streaks(checkins)
    return TrainingInput(
        client_data=ClientData(
            training_experience=intake.training_experience, equipment_access=intake.equipment_access,
            gym_anxiety_level=intake.gym_anxiety_level, weeks_on_program=weeks_on_program,
            current_phase=phase or intake.training_phase, injuries=list(intake.medical_history.injuries),
            available_days=4 if intake.training_experience == "intermediate" else 3,
            menstrual_cycle_day=last.cycle_day if last is not None else None,
            cycle_phase=last.cycle_phase if last is not None else None,
            supplements_excluded=list(supplements_excluded)),
        progress_data=ProgressData(
            training_log=[LoggedSet(name=e.name, weight_kg=e.best_set.weight_kg, reps=e.best_set.reps,
                                    progressed=e.progressed) for e in (log.exercises if log else [])],
            stall_detected=stall, consecutive_stall_sessions=max(streaks.values(), default=0),
            sleep_hours_avg=None,  # not collected: a check-in's sleep_quality is a 1-10 score, not hours
            step_count_avg=intake.avg_daily_steps),
        scientist_triggers=ScientistTriggers(
            phase_transition_due=weeks_on_program > 0 and weeks_on_program % PHASE_LENGTH_WEEKS == 0,
            deload_recommended=stall, adjustment_note=note),
    )
